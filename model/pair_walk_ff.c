/* SPDX-License-Identifier: MIT */
/*
 * pair_walk_ff.c - the fast-forward's visit of the pair walk (fastforward.h,
 * pair_walk.h): network_ff_visit() calls it when the pair walk steps the network,
 * where it visits the routers otherwise (ff_router()).
 *
 * Why a jump is exact for the pair walk's state.  fastforward.c's proof needs every
 * word classified: control (the same at cycles c, c + 2, c + 4), same (the same at every
 * cycle observed: what any cycle of the jump touches is what was visited), data (advancing
 * alike in both periods, moved by k times that) and flits (data that, live, must be body
 * flits); every word not visited must be one that nothing changes while the control
 * stays the same, or that nothing reads before it is overwritten.  Here, between steps
 * (w->cycle = t, the last step t - 1):
 *
 *   - same: the pair lists (each list's pairs whole, the fans' fields and outputs: not their y[]
 *     past ny or their padding, which nothing writes; the ejecting inputs' bits, ejset
 *     by its summary's words), their counts, the ejection lists' counts
 *     and channels (the last step's and the one before, which pair_walk_credits()
 *     reads).  A step changes the lists only by a grant or a tail, so a list that is the
 *     same at every cycle observed had neither; the heads pending (pend, hact) are
 *     refused outright: a head waiting at an input's front is a live head flit (the
 *     routers' visit refuses it too, in its FIFO);
 *   - the inputs visited: every input of a pair or a fan (its input and its outputs'
 *     inputs downstream), each once, in index order.  An input that is in no pair is
 *     changed by nothing but the NI's injection (pw_inject_head(), pw_inject_write()): a flit into an empty
 *     input is a head, pending, which is refused at the next visit, and a non-empty
 *     input is paired or pending (its front is a head: pop() and push() pend it).  So
 *     every input a cycle of the jump touches is visited;
 *   - control, per input: its occupancy wr - rd (so that wr and rd advance alike), route
 *     and req, the head of its message (head[], written at a grant only), and taken[]
 *     of its node; the ejection lists' index ej_cur (it alternates: period 2), the
 *     counters last_moves and conflict_cycles;
 *   - data: wr (32-bit, wrapping: a ring's slot is the number modulo its size, a power
 *     of two that divides 2^32; rd is wr less the occupancy, moved with it), the
 *     cycle, link_moves;
 *   - the stamps push_cyc and pop_cyc are neither: between steps every stamp is at most
 *     t - 1, and a step compares them with its own cycle only (shows_flit(),
 *     has_room()), which they equal only once written in that very step, so the walk
 *     never reads their values; between steps the readouts (pair_walk_inj_credited(),
 *     which the NI reads, pair_walk_credits(), pair_walk_registers(), on_link(), and
 *     rebase()) ask only whether a stamp is t - 1.  A stamp is the cycle of its last
 *     write, so each is visited as a fresh bit (== t - 1: written in the last step) and
 *     when not fresh its value, both control.  Fresh at c, c + 2 and c + 4, the writes are
 *     in steps of that parity, so after the jump the stamp is the new t - 1 (set so in
 *     FF_APPLY); not fresh and the same value at c, c + 2, c + 4, no step c .. c + 3
 *     wrote it, so none of the jump will: it stays put, and compared with the cycle
 *     after the jump it is not fresh, as the cycles would have left it.  A stamp that
 *     moves but not every period is refused (its value differs);
 *   - flits: a ring's live entries rd .. wr - 1 (live: each is popped and read later),
 *     visited by logical position.  A ring's slots rotate: after the jump, wr and rd
 *     have moved by k times their advance, so in FF_APPLY the entries are written
 *     again at their new slots (rd' + j), where the walk will look for them.  An empty
 *     ring's last slot pushed (wr - 1) is visited too, not live: it is the output
 *     register upstream (pair_walk_registers() reads it), which holds its value; no
 *     other dead slot is read before it is written.  ejf[] of an input whose route
 *     ejects (the ejection output's register: written only when its pair ejects),
 *     not live; the ejection lists' flits, the last step's live (as network.c's list);
 *   - not visited: ejb and ejsum (all 0 between steps: walk_ejections() clears what
 *     walk_fans() sets), inj_credit (a readout's scratch), the constants (down, params, the
 *     routers': under the pair walk nothing drives their wires, since network_inject()
 *     writes into the rings too, and network_ff_visit() refuses should a router be in
 *     the active set).
 *
 * The visit keeps no state: its scratch (the inputs visited, a ring's entries) is
 * allocated for the call.  pair_walk.c is not changed: the visit reads its fields
 * through pair_walk_state.h.
 */
#include "pair_walk_state.h"

#include <stdlib.h>
#include <string.h>

#include "fastforward.h"

/*
 * Words for ff_same() or ff_control(), gathered into one call for many: a call cost
 * more than its bytes (pbcast Q_10 under the pair walk, cg6: 21.72 instructions a
 * flit-hop with a call a field, 19.20 with a record an input or a fan, 17.66 gathered; the default, 17.17).
 * The bytes compared are the same whatever the calls' boundaries: a count that differs
 * is compared before the words it counts.
 */
#define GATHER_WORDS 1024

struct gather {
	struct ff *f;
	void (*put)(struct ff *f, const void *p, size_t n);
	size_t n;
	uint32_t v[GATHER_WORDS];
};

static void gather_flush(struct gather *g)
{
	if (g->n)
		g->put(g->f, g->v, g->n * sizeof(g->v[0]));
	g->n = 0;
}

/* n words (n <= GATHER_WORDS) at p. */
static void gather(struct gather *g, const void *p, size_t n)
{
	if (g->n + n > GATHER_WORDS)
		gather_flush(g);
	memcpy(&g->v[g->n], p, n * sizeof(g->v[0]));
	g->n += n;
}

/*
 * Input xi: its control (a record, into ctl), its stamps, its number of flits pushed
 * and its entries (tmp: room for a ring), the ring rotated in FF_APPLY to its moved
 * numbers.  rd is wr less the occupancy, which is control: one data word.
 */
static void ff_input(struct ff *f, struct gather *ctl, struct pair_walk *w, int32_t xi,
		     uint64_t last, uint64_t now_last, uint64_t mask, flit_t *tmp)
{
	struct pw_input *x = &w->in[xi];
	flit_t *ring = pw_ring(w, xi);
	uint32_t occ = x->wr - x->rd;
	/* The live entries, or an empty ring's last one pushed (the register upstream). */
	uint32_t n = occ ? occ : 1, first = x->wr - n;
	/* A stamp (module comment): fresh (t - 1, bits 0 and 1) or its value. */
	bool push_fresh = x->push_cyc == last, pop_fresh = x->pop_cyc == last;
	struct {
		uint32_t occ, route, req, fresh;
		uint64_t push, pop;	/* where not fresh */
		flit_t head;		/* where routed (head[] is read only then) */
	} c = {
		.occ = occ, .route = x->route, .req = x->req,
		.fresh = (uint32_t)push_fresh | (uint32_t)pop_fresh << 1,
		.push = push_fresh ? 0 : x->push_cyc, .pop = pop_fresh ? 0 : x->pop_cyc,
		.head = x->route ? w->head[xi] : 0,
	};

	_Static_assert(sizeof(c) % sizeof(ctl->v[0]) == 0, "a record of whole words");
	gather(ctl, &c, sizeof(c) / sizeof(ctl->v[0]));
	for (uint32_t j = 0; j < n; j++)
		tmp[j] = ring[(first + j) & w->ring_mask];
	ff_word(f, &x->wr, sizeof(x->wr), 0xffffffffull);
	for (uint32_t j = 0; j < n; j++)
		ff_flit(f, &tmp[j], mask, occ != 0);
	if (x->route & ~w->link_mask)
		ff_flit(f, &w->ejf[xi], mask, false);
	if (ff_mode(f) != FF_APPLY)
		return;
	/* wr moved; rd with it (occ is control), the entries to their new slots. */
	x->rd = x->wr - occ;
	first = x->wr - n;
	for (uint32_t j = 0; j < n; j++)
		ring[(first + j) & w->ring_mask] = tmp[j];
	if (push_fresh)
		x->push_cyc = now_last;
	if (pop_fresh)
		x->pop_cyc = now_last;
}

/* Input xi is visited: marked in seen (once each). */
static inline void mark(uint64_t *seen, int32_t xi)
{
	seen[xi >> 6] |= 1ull << (xi & 63);
}

/*
 * The lists, every cycle the same (module comment); false if refused.  The ejection
 * list before the last (ej_cur ^ 1) is the last one of the cycle before, so it is the
 * same every cycle if it is the last one's channels: compared with them here.  Its
 * flits are not visited: nothing reads them (pair_walk_credits() asks for its channels
 * only) before walk_ejections() writes the list again.
 */
static bool ff_lists(struct pair_walk *w, struct ff *f, struct gather *same, uint64_t mask)
{
	const struct channel_event *cur = w->ej[w->ej_cur], *prev = w->ej[w->ej_cur ^ 1];
	int nej = w->nej[w->ej_cur];

	for (int h = 0; h < 2; h++)
		for (int k = 0; k < w->hwords; k++)
			if (w->hact[h][k]) {
				ff_refuse(f);	/* a head pending: live, not a body flit */
				return false;
			}
	if (w->nej[w->ej_cur ^ 1] != nej) {
		ff_refuse(f);
		return false;
	}
	for (int e = 0; e < nej; e++)
		if (prev[e].node != cur[e].node || prev[e].channel != cur[e].channel) {
			ff_refuse(f);
			return false;
		}
	for (int l = 0; l < w->nlists; l++) {
		ff_same(f, &w->lists[l].n, sizeof(w->lists[l].n));
		if (w->lists[l].n)
			ff_same(f, w->lists[l].p, sizeof(*w->lists[l].p) * (size_t)w->lists[l].n);
	}
	ff_same(f, &w->nfans, sizeof(w->nfans));
	ff_same(f, &nej, sizeof(nej));
	ff_same(f, w->ejsetsum, sizeof(*w->ejsetsum) * (size_t)((w->ejwords + 63) / 64));
	for (int k = 0; k < (w->ejwords + 63) / 64; k++)
		for (uint64_t b = w->ejsetsum[k]; b; b &= b - 1)
			gather(same, &w->ejset[k * 64 + __builtin_ctzll(b)],
			       sizeof(*w->ejset) / sizeof(same->v[0]));
	for (int c = 0; c < w->nfans; c++) {
		const struct pw_fan *g = &w->fans[c];
		int32_t k[4] = { g->x, g->node, (int32_t)g->obit, g->ny | g->ej << 16 };

		gather(same, k, 4);
		gather(same, g->y, (size_t)g->ny);
	}
	for (int e = 0; e < nej; e++) {
		int32_t k[2] = { cur[e].node, cur[e].channel };

		gather(same, k, 2);
	}
	gather_flush(same);
	ff_control(f, &w->ej_cur, sizeof(w->ej_cur));
	for (int e = 0; e < nej && !ff_refused(f); e++)
		ff_flit(f, &w->ej[w->ej_cur][e].flit, mask, true);
	return !ff_refused(f);
}

void pair_walk_ff_visit(struct pair_walk *w, struct ff *f)
{
	/* A flit's W + 2 bits. */
	uint64_t mask = (payload_mask((unsigned)w->params->payload_width) << FLIT_KIND_BITS) |
			((1u << FLIT_KIND_BITS) - 1);
	size_t words = (size_t)w->ejwords;	/* (every input and the spare) */
	uint64_t last = w->cycle - 1, now_last;
	struct gather g = { .f = f, .put = ff_same };
	uint64_t *seen;
	flit_t *tmp;
	int node = -1;

	ff_word(f, &w->cycle, sizeof(w->cycle), ~0ull);
	now_last = w->cycle - 1;	/* (moved in FF_APPLY) */
	ff_word(f, &w->link_moves, sizeof(w->link_moves), ~0ull);
	ff_control(f, &w->conflict_cycles, sizeof(w->conflict_cycles));
	ff_control(f, &w->last_moves, sizeof(w->last_moves));
	if (!ff_lists(w, f, &g, mask) || !ff_full(f))
		return;
	g.put = ff_control;
	seen = calloc(words, sizeof(*seen));
	tmp = malloc(sizeof(*tmp) << w->ring_shift);
	if (!seen || !tmp) {
		ff_refuse(f);	/* (the run is the same without the jump) */
		goto out;
	}
	for (int l = 0; l < w->nlists; l++)
		for (int c = 0; c < w->lists[l].n; c++) {
			mark(seen, w->lists[l].p[c].x);
			mark(seen, w->lists[l].p[c].y);
		}
	for (int k = 0; k < (w->ejwords + 63) / 64; k++)
		for (uint64_t sb = w->ejsetsum[k]; sb; sb &= sb - 1) {
			int word = k * 64 + __builtin_ctzll(sb);

			for (uint64_t b = w->ejset[word]; b; b &= b - 1)
				mark(seen, word * 64 + __builtin_ctzll(b));
		}
	for (int c = 0; c < w->nfans; c++) {
		mark(seen, w->fans[c].x);
		for (int j = 0; j < w->fans[c].ny; j++)
			mark(seen, w->fans[c].y[j]);
	}
	for (size_t k = 0; k < words && !ff_refused(f); k++)
		for (uint64_t b = seen[k]; b; b &= b - 1) {
			int32_t xi = (int32_t)(k * 64 + (size_t)__builtin_ctzll(b));

			if (xi >> w->shift != node) {
				node = xi >> w->shift;
				gather(&g, &w->taken[node], 1);
			}
			ff_input(f, &g, w, xi, last, now_last, mask, tmp);
		}
	gather_flush(&g);
out:
	free(seen);
	free(tmp);
}
