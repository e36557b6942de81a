/* SPDX-License-Identifier: MIT */
/*
 * fastforward.h - the steady-state fast-forward, a speed option of the C model
 * (sim_config.fast_forward): cycles in which nothing but the data words of the flits
 * and a few counters change are skipped, exactly.
 *
 * A long message streams through its routers for about L cycles in which every
 * router does the same thing each cycle: each flit moves one hop, the NI injects the
 * next word of an arithmetic progression (sim.h, struct payload_key) and the checker
 * compares it with its own.  The simulation's state then repeats with period 2 (the
 * wires' two slots) up to its data words, which advance by the same amount each
 * period.  The fast-forward detects that from snapshots and moves the data words and
 * counters forward by k periods in one pass over the active routers.
 *
 * The state is described to it by visitors (sim.c, network.c, ni.c, checker.c), which
 * call, in the same order at every snapshot:
 *   ff_control()  words that must not change from period to period (routes, masks,
 *                 credits, list lengths ...): compared byte for byte;
 *   ff_same()     words that must not change from cycle to cycle (the active set, the
 *                 nodes and channels of the ejection and credit lists): compared at
 *                 every cycle of the observation, so that what a cycle of either
 *                 parity touches is known;
 *   ff_word()     data words that may change: each must advance by the same amount
 *                 (modulo its mask) in both periods observed; moved by k times that;
 *   ff_flit()     a flit register (a data word): if live, it must be a body flit;
 *   ff_limit()    at most that many cycles may be skipped (a start-up that ends, the
 *                 cycle limit);
 *   ff_refuse()   no jump now (a stored payload, the stop flag ...).
 * The proof that a jump is exact is in fastforward.c.
 */
#ifndef WORMCAST_FASTFORWARD_H
#define WORMCAST_FASTFORWARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flit.h"

struct ff;

enum ff_mode {
	FF_PROBE,	/* cycles c - 2: ff_same() recorded, nothing else */
	FF_RECORD,	/* cycle c: controls and data recorded */
	FF_LIGHT,	/* cycles c - 1, c + 1, c + 3: ff_same() compared, nothing else */
	FF_CHECK2,	/* cycle c + 2: controls compared, data recorded */
	FF_CHECK4,	/* cycle c + 4: controls compared, data's advance compared */
	FF_APPLY,	/* the jump: data moved by k periods */
};

/*
 * The simulation's visitor: calls the functions below over its whole state.  It may
 * stop early once ff_refused() (the rest of the state is not looked at).
 */
typedef void ff_visit_fn(void *ctx, struct ff *f);

struct ff *ff_create(void);
void ff_destroy(struct ff *f);

/*
 * After every cycle of a simulation that may jump: sig changes whenever the cycle was
 * not a calm one (a head or tail ejected, a send, a SEND_DONE, a change in the flits
 * moved: the caller's cheap test).  After enough calm cycles the state is observed
 * for seven cycles by visit(ctx), the first two for what must be the same every cycle
 * only (no router's words kept while the active set still changes); then, if it is
 * periodic, the data words are moved forward.  Returns the cycles skipped (even), 0 if
 * none.
 */
uint64_t ff_after_cycle(struct ff *f, uint64_t sig, ff_visit_fn *visit, void *ctx);

/* Statistics: jumps made, cycles skipped by them, tries (observations started). */
uint64_t ff_jumps(const struct ff *f);
uint64_t ff_skipped(const struct ff *f);
uint64_t ff_tries(const struct ff *f);

/* ---- the visitors' calls ---- */
enum ff_mode ff_mode(const struct ff *f);
/* The mode looks at control and data words (not FF_PROBE or FF_LIGHT). */
bool ff_full(const struct ff *f);
bool ff_refused(const struct ff *f);
void ff_refuse(struct ff *f);
void ff_control(struct ff *f, const void *p, size_t n);
void ff_same(struct ff *f, const void *p, size_t n);
/* A data word of size 4 or 8 bytes at p (any alignment), advancing modulo mask + 1. */
void ff_word(struct ff *f, void *p, size_t size, uint64_t mask);
/*
 * A data word of 4 bytes, a signed count that must stay >= floor: the jump is limited
 * to keep it there (a message's flits left: no tail is offered inside a jump).
 */
void ff_count(struct ff *f, int *p, int floor);
/* A flit register (all W + 2 bits: mask); live: it is read later, so must be a body flit. */
void ff_flit(struct ff *f, flit_t *p, uint64_t mask, bool live);
/* At most `cycles` cycles may be skipped from this state. */
void ff_limit(struct ff *f, uint64_t cycles);

#endif
