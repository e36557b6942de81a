/* SPDX-License-Identifier: MIT */
/*
 * fastforward.c - the steady-state fast-forward (fastforward.h): when the simulation's
 * state repeats with period 2 up to data words that advance by a constant amount, skip
 * k periods by adding k times that amount to every data word.
 *
 * Why it is exact.  Split the state after a cycle into its control C (everything the
 * visitors give to ff_control(): routes, masks, counts, credits, lists, flags) and its
 * data D (the words given to ff_word(), ff_count() and ff_flit(): flits, the NIs' and
 * the checker's next words, flits left, listing numbers, the cycle, the flit counts).
 * Nothing in the model reads a data word to decide anything but
 *   - a flit's kind (head, body, tail: routes, grants, releases, events),
 *   - the checker's compare of an ejected flit with its want and of want with stop,
 *   - an NI's flits left (the tail's kind, the next message),
 * and every other use copies a data word (a flit moved, stored, ejected) or adds a
 * constant to it (the NI's and the checker's want += step, the counters += 1).  So, as
 * long as every flit seen is a body flit that the checker accepts and no NI offers a
 * tail, the two cycles of a period map D affinely: D(t + 2) = M D(t) + b(t), where M
 * (a copy-or-keep map) depends on C(t) alone and b(t) (the injected words, the counters'
 * increments) is affine in t, and C(t + 2) is a function of C(t).
 *
 * The observation: cycles c, c + 2, c + 4 have the same C (compared byte for byte), the
 * active set and the ejection and credit lists are the same at c - 2 .. c + 4 (ff_same():
 * what a cycle of either parity touches is what was visited), and
 * D(c + 4) - D(c + 2) = D(c + 2) - D(c) =: delta (modulo each word's mask).  Then
 * delta = M delta + (b(c + 2) - b(c)), so by induction every later period adds delta
 * too, C stays the same, and D(c + 4 + 2k) = D(c + 4) + k delta, while the conditions
 * hold:
 *   - every live flit is a body flit: its kind bits are 0 at c, c + 2, c + 4, so delta's
 *     are too, and they stay 0 (and a flit of an odd cycle is a copy of one of an even
 *     cycle or an injected word);
 *   - the checker accepts each ejected flit: flit - want is affine along the cycles of
 *     each parity and 0 at the two checks of that parity the simulation made while it
 *     was observed (steps c + 1 .. c + 4: calm, so every one took the body path); want
 *     meets stop only at a message's tail word, which no reception reaches before its
 *     sender offers the tail;
 *   - no NI offers a tail or a next message: ff_count() keeps every flits-left count at
 *     1 or more, ff_limit() stops before a start-up ends and at the cycle limit.
 * A word no visitor gives (an idle port of a router, a FIFO's dead slots, a reception
 * or an NI channel that no flit reaches) is one that nothing changes while C stays the
 * same, or that nothing reads before it is overwritten (network.c says why for each).
 * Nothing else happens in such cycles: no event reaches the driver (no head, no tail,
 * no SEND_DONE), so it sends nothing (a driver with a tick() never jumps), the watchdog
 * sees the same progress, and every per-message record (send, head, tail, delivery
 * cycles) is written outside the jump.  The result is the state the simulation would
 * have reached, word for word.
 */
#include "fastforward.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/*
 * Calm cycles before an observation; after one that finds no jump, twice as many (up
 * to FF_WAIT_MAX), so that a workload that never settles (the exchange, random traffic
 * without its tick) pays for a few observations only.
 */
#define FF_WAIT_MIN 4
#define FF_WAIT_MAX 4096
/* A jump shorter than this costs about what its cycles would. */
#define FF_MIN_JUMP 8

struct ff {
	enum ff_mode mode;
	int phase;		/* 0: waiting; then the observation's cycle, from 0 */
	uint64_t sig, calm, wait;
	bool refused;
	uint64_t limit;		/* cycles that may be skipped from the state visited */
	uint64_t periods;	/* FF_APPLY: k */

	/* The control bytes of cycle c, the same-every-cycle bytes, the data words. */
	unsigned char *ctl, *same;
	size_t n_ctl, cap_ctl, n_same, cap_same, at_ctl, at_same;
	/* Per data word: two values, v(c) and v(c + 2), then delta and v(c + 2). */
	uint64_t *val;
	size_t n_val, cap_val, at_val;

	uint64_t jumps, skipped, tries;
};

struct ff *ff_create(void)
{
	struct ff *f = calloc(1, sizeof(*f));

	if (f)
		f->wait = FF_WAIT_MIN;
	return f;
}

void ff_destroy(struct ff *f)
{
	if (!f)
		return;
	free(f->ctl);
	free(f->same);
	free(f->val);
	free(f);
}

uint64_t ff_jumps(const struct ff *f) { return f->jumps; }
uint64_t ff_skipped(const struct ff *f) { return f->skipped; }
uint64_t ff_tries(const struct ff *f) { return f->tries; }
enum ff_mode ff_mode(const struct ff *f) { return f->mode; }
bool ff_full(const struct ff *f) { return f->mode != FF_PROBE && f->mode != FF_LIGHT; }
bool ff_refused(const struct ff *f) { return f->refused; }
void ff_refuse(struct ff *f) { f->refused = true; }

void ff_limit(struct ff *f, uint64_t cycles)
{
	if (cycles < f->limit)
		f->limit = cycles;
}

/*
 * Room for n more bytes in *buf (cap *cap, used len); false (refused) if none.  The
 * project's growable array (grow.h): its doubling and overflow checks, not a copy.
 */
static bool reserve(struct ff *f, unsigned char **buf, size_t *cap, size_t len, size_t n)
{
	unsigned char *p;

	if (n <= *cap - len)
		return true;	/* (most words: no call) */
	if (n > SIZE_MAX - len) {
		f->refused = true;
		return false;
	}
	p = grow_array(*buf, cap, len + n, 1, 4096, SIZE_MAX);
	if (!p) {
		f->refused = true;
		return false;
	}
	*buf = p;
	return true;
}

/*
 * Bytes recorded at the first cycle and compared later: the control (period 2) or the
 * same-every-cycle bytes.
 */
static void bytes(struct ff *f, const void *p, size_t n, unsigned char **buf, size_t *len,
		  size_t *cap, size_t *at)
{
	if (f->refused)
		return;
	if (f->mode == FF_RECORD) {
		if (reserve(f, buf, cap, *len, n)) {
			memcpy(*buf + *len, p, n);
			*len += n;
		}
		return;
	}
	if (*at + n > *len || memcmp(*buf + *at, p, n))
		f->refused = true;
	*at += n;
}

void ff_control(struct ff *f, const void *p, size_t n)
{
	if (!ff_full(f) || f->mode == FF_APPLY)
		return;
	bytes(f, p, n, &f->ctl, &f->n_ctl, &f->cap_ctl, &f->at_ctl);
}

void ff_same(struct ff *f, const void *p, size_t n)
{
	enum ff_mode m = f->mode;

	if (m == FF_APPLY)
		return;
	/* Recorded by the probe, compared by every later cycle. */
	f->mode = m == FF_PROBE ? FF_RECORD : FF_CHECK2;
	bytes(f, p, n, &f->same, &f->n_same, &f->cap_same, &f->at_same);
	f->mode = m;
}

/* The slot pair of the next data word; NULL (refused) if there is none. */
static uint64_t *next_val(struct ff *f)
{
	uint64_t *v;

	if (f->mode == FF_RECORD) {
		if (f->n_val == f->cap_val) {
			/* A data word's two values: an element of 2 words. */
			uint64_t *p = grow_array(f->val, &f->cap_val, f->n_val + 1, 2 * sizeof(*p),
						 1024, SIZE_MAX);

			if (!p) {
				f->refused = true;
				return NULL;
			}
			f->val = p;
		}
		f->n_val++;
	} else if (f->at_val >= f->n_val) {
		f->refused = true;	/* more data words than at cycle c */
		return NULL;
	}
	v = &f->val[2 * f->at_val++];
	return v;
}

/*
 * Data word x (masked): recorded, compared or moved by the mode.  Returns its delta
 * after FF_CHECK4, 0 otherwise.
 */
static uint64_t data(struct ff *f, uint64_t *x, uint64_t mask)
{
	uint64_t *v, d;

	if (f->refused || !ff_full(f))
		return 0;
	v = next_val(f);
	if (!v)
		return 0;
	switch (f->mode) {
	case FF_RECORD:
		v[0] = *x;
		break;
	case FF_CHECK2:
		v[1] = *x;
		break;
	case FF_CHECK4:
		d = (*x - v[1]) & mask;
		if (d != ((v[1] - v[0]) & mask)) {
			f->refused = true;
			return 0;
		}
		v[0] = d;
		return d;
	case FF_APPLY:
		*x = (*x + f->periods * v[0]) & mask;
		break;
	default:
		break;
	}
	return 0;
}

void ff_word(struct ff *f, void *p, size_t size, uint64_t mask)
{
	uint64_t x = 0;

	if (size == 4) {
		uint32_t y;

		memcpy(&y, p, 4);
		x = y;
		mask &= 0xffffffffull;
	} else {
		memcpy(&x, p, 8);
	}
	data(f, &x, mask);
	if (f->mode == FF_APPLY) {
		if (size == 4) {
			uint32_t y = (uint32_t)x;

			memcpy(p, &y, 4);
		} else {
			memcpy(p, &x, 8);
		}
	}
}

void ff_count(struct ff *f, int *p, int floor)
{
	uint32_t y = (uint32_t)*p;
	uint64_t x = y, d = data(f, &x, 0xffffffffull);

	if (f->mode == FF_CHECK4 && !f->refused) {
		int32_t step = (int32_t)(uint32_t)d;

		if (*p < floor)
			f->refused = true;
		else if (step < 0)	/* periods until it would pass floor, in cycles */
			ff_limit(f, 2 * (uint64_t)((*p - floor) / -(int64_t)step));
	}
	if (f->mode == FF_APPLY)
		*p = (int)(uint32_t)x;
}

void ff_flit(struct ff *f, flit_t *p, uint64_t mask, bool live)
{
	if (live && f->mode != FF_APPLY && ff_full(f) &&
	    (*p & ((1u << FLIT_KIND_BITS) - 1)))
		f->refused = true;	/* a head or a tail: the control will change */
	data(f, p, mask);
}

/* One visit of the state in mode m; false if it refused. */
static bool visit_in(struct ff *f, enum ff_mode m, ff_visit_fn *visit, void *ctx)
{
	f->mode = m;
	f->refused = false;
	f->limit = UINT64_MAX;
	f->at_ctl = f->at_same = f->at_val = 0;
	if (m == FF_PROBE)
		f->n_same = 0;
	if (m == FF_RECORD)
		f->n_ctl = f->n_val = 0;
	visit(ctx, f);
	/* As many words as at the cycle that recorded them, no fewer. */
	if (!f->refused && m != FF_APPLY &&
	    ((m != FF_PROBE && f->at_same != f->n_same) ||
	     ((m == FF_CHECK2 || m == FF_CHECK4) &&
	      (f->at_ctl != f->n_ctl || f->at_val != f->n_val))))
		f->refused = true;
	return !f->refused;
}

/* The observation found no jump: wait longer before the next. */
static void give_up(struct ff *f)
{
	f->phase = 0;
	f->calm = 0;
	if (f->wait < FF_WAIT_MAX)
		f->wait *= 2;
}

uint64_t ff_after_cycle(struct ff *f, uint64_t sig, ff_visit_fn *visit, void *ctx)
{
	/*
	 * Two cycles that look at the active set and the lists only, then five that look
	 * at everything: a try where they change (the exchange) keeps no router's words.
	 * direx Q_12 L = 8 peaked at 1.5 MB more with the five alone.
	 */
	static const enum ff_mode modes[] = {
		FF_PROBE, FF_LIGHT, FF_RECORD, FF_LIGHT, FF_CHECK2, FF_LIGHT, FF_CHECK4,
	};
	const int n_modes = (int)(sizeof(modes) / sizeof(modes[0]));
	uint64_t cycles;

	if (sig != f->sig) {
		f->sig = sig;
		if (f->phase)
			give_up(f);
		f->calm = 0;
		return 0;
	}
	if (f->phase == 0) {
		if (++f->calm < f->wait)
			return 0;
		f->tries++;
	}
	if (!visit_in(f, modes[f->phase], visit, ctx)) {
		give_up(f);
		return 0;
	}
	if (++f->phase < n_modes)
		return 0;
	f->phase = 0;
	f->calm = 0;
	/* Periodic: jump as far as every limit allows, in whole periods. */
	if (f->limit == UINT64_MAX)
		return 0;	/* nothing bounds it: no NI is sending (a network that drains) */
	cycles = f->limit & ~(uint64_t)1;
	if (cycles < FF_MIN_JUMP)
		return 0;
	f->periods = cycles / 2;
	visit_in(f, FF_APPLY, visit, ctx);
	f->wait = FF_WAIT_MIN;
	f->jumps++;
	f->skipped += cycles;
	return cycles;
}
