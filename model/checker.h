/* SPDX-License-Identifier: MIT */
/*
 * checker.h - end-to-end delivery checker (docs/microarchitecture.md section 10).
 *
 * It knows every message sent and the nodes that must receive it, and it sees every
 * flit on every ejection channel.  A delivery is right when the head matches an
 * outstanding expectation of that node, the flits that follow carry the sent data in
 * order, and the tail comes last.  Anything else is an error with a one-line reason.
 */
#ifndef WORMCAST_CHECKER_H
#define WORMCAST_CHECKER_H

#include <stdbool.h>
#include <stdint.h>

#include "flit.h"
#include "sim.h"
#include "topology.h"

struct checker;

/*
 * An ejection channel's reception: the message in progress on it and the next word it
 * must carry.  The simulation keeps it in its record of the channel, beside the NI's
 * state of the same channel (sim.c), so that a flit touches one record.  28 bytes
 * (packed, 4-aligned), so that the record with the NI's 4 is 32 and its 8-byte fields
 * stay aligned.  checker_reception_init() before the first flit.
 */
struct __attribute__((packed, aligned(4))) reception {
	struct message *msg;	/* being received on this channel, NULL if none */
	union {
		const uint64_t *next;	/* stored words (step 0): the next one */
		/*
		 * Generated words: the next one, masked to W bits in its flit's place: the
		 * flit a body flit must be, compared whole (the mask is applied where want
		 * advances, so the compare is one instruction with the record).
		 */
		uint64_t want;
	};
	uint64_t step;		/* the key's step (odd) << FLIT_KIND_BITS, or 0: stored words */
	/*
	 * Generated words: the low 32 bits of want at the tail's word; a flit before it is
	 * a body flit.  Those bits of word i's want are ((base + i * step) mod 2^30) << 2,
	 * distinct for the i < SIM_MAX_MESSAGE_FLITS of a message (step odd), so that the
	 * body's end is a compare with want, not a count kept down (2 instructions fewer a
	 * body flit).  Stored words and an idle reception: the low 32 bits of next or want
	 * themselves, so that checker_body_flit() never matches.
	 */
	uint32_t stop;
};

static inline void checker_reception_init(struct reception *rx)
{
	*rx = (struct reception){ .msg = NULL };
}

struct checker *checker_create(const struct topology *t, int channels, unsigned width);
void checker_destroy(struct checker *c);

/* Register a sent message; sets msg->receivers. */
int checker_expect(struct checker *c, struct message *m);

enum checker_result {
	CHECK_OK,
	CHECK_HEAD,		/* a head was accepted: *msg is set */
	CHECK_TAIL,		/* a whole message was delivered: *msg is set */
	CHECK_ERROR,		/* reason in checker_error() */
};

/*
 * A flit seen on ejection channel (node, channel) at cycle.  A one-flit message
 * yields CHECK_TAIL (its head is reported with *head_too = true).  The checker keeps
 * pointers to the messages it expects (they must live until delivered).
 */
enum checker_result checker_flit(struct checker *c, int node, int channel, flit_t f,
				 uint64_t cycle, struct message **msg, bool *head_too);
/*
 * The simulation's per-flit path, in parts, with the channel's reception rx kept by
 * the caller (its record of channel (node, channel)) and the flits counted by the
 * caller, a cycle's ejections at once (checker_count_flits()), not one by one:
 *
 * checker_body_flit() takes the common flit, a right body flit of a generated payload,
 * inline: two compares and an add, no call.  flit_mask is checker_flit_mask(c).
 *
 * checker_flit_other() takes every flit checker_body_flit() did not (it must have been
 * asked first: a right body flit of a generated payload is not one of its cases).  *msg
 * and *head_too are set unless the result is CHECK_OK (a body flit of a message in
 * progress).  Before it, a caller may take a generated payload's right tail
 * (checker_tail_flit(), checker_tail_delivered()) and a head (checker_head_flit(), when
 * rx has no message) itself: once a message each, a call and its tests fewer.
 */
static inline bool checker_body_flit(struct reception *rx, flit_t f, uint64_t flit_mask)
{
	uint64_t want = rx->want;

	if (__builtin_expect(f == want && (uint32_t)want != rx->stop, 1)) {
		rx->want = (want + rx->step) & flit_mask;
		return true;
	}
	return false;
}

/*
 * The right tail of a generated payload (a reception's step is 0 when it has no message,
 * so an idle channel never matches): the caller takes the message, delivered, by
 * checker_tail_delivered() without checker_flit_other()'s tests.  Once a message.
 */
static inline bool checker_tail_flit(const struct reception *rx, flit_t f)
{
	/* (want is masked to W bits: the flit a tail must be, its kind added.) */
	return rx->step && (uint32_t)rx->want == rx->stop && f == (rx->want | FLIT_TAIL);
}

/*
 * After checker_tail_flit(): the message of rx, delivered whole at cycle; rx is idle.
 * Debug builds: NULL if rx had no such message (checker_error() says so).
 */
struct message *checker_tail_delivered(struct checker *c, struct reception *rx, uint64_t cycle);

/*
 * A flit on a reception without a message (rx->msg NULL): it must be an expected head.
 * checker_flit_other() would call it; the caller that tests rx->msg calls it directly
 * (one call a message fewer).
 */
enum checker_result checker_head_flit(struct checker *c, struct reception *rx, int node,
				      int channel, flit_t f, uint64_t cycle, struct message **msg,
				      bool *head_too);

enum checker_result checker_flit_other(struct checker *c, struct reception *rx, int node,
				       int channel, flit_t f, uint64_t cycle, struct message **msg,
				       bool *head_too);
uint64_t checker_flit_mask(const struct checker *c);	/* for checker_body_flit() */
/* n more flits seen (n < 0: fewer, for the caller that counted a cycle's list at once). */
void checker_count_flits(struct checker *c, int n);

struct ff;
/* For the fast-forward (fastforward.h): the checker's counts, and a reception's words. */
void checker_ff_visit(struct checker *c, struct ff *f);
void checker_ff_reception(struct reception *rx, uint64_t flit_mask, struct ff *f);

/* Deliveries still expected. */
uint64_t checker_outstanding(const struct checker *c);
uint64_t checker_deliveries(const struct checker *c);
uint64_t checker_flits(const struct checker *c);
const char *checker_error(const struct checker *c);
/* Describe what is still missing (at most max lines). */
void checker_report_missing(const struct checker *c, FILE *out, int max);

#endif
