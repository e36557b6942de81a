/* SPDX-License-Identifier: MIT */
/*
 * pair_walk.h - the network's cycle as one walk of the granted input->output pairs
 * (a speed option, on unless --no-pair-walk): the same registers as the routers of network.c
 * (docs/microarchitecture.md sections 6 to 9), held another way.
 *
 * - A link's output register and the input FIFO downstream are one ring per input:
 *   a flit sent in cycle n is pushed at once, stamped n, and is seen downstream from
 *   cycle n + 1 (the link register: bypassed if the FIFO was empty).  The ring's
 *   occupancy is the FIFO's count plus the link register's valid bit.
 * - Credits are implicit: a link output is ready iff its ring held fewer than depth
 *   flits at the start of the cycle (a pop of this cycle is undone by its stamp),
 *   which is section 8's credits_q > 0 || credit_in.
 * - A granted head makes a pair (input, its outputs) that lives until its tail
 *   leaves; each cycle walks the pairs, not the routers.  Routers are visited only to
 *   allocate the heads at their inputs' fronts (section 7, steps 3 to 5: rotating
 *   priority, all or nothing).
 * - The ejections of a cycle are listed in node order, then channel order (section 9):
 *   the pairs that eject are bits by input, walked in that order.
 *
 * It covers hypercubes and meshes without wrap-around, all-port, V = 1, T_r = 0, with
 * sinks that never stall (network_return_ejection_credits(): an ejection output is
 * always ready): pair_walk_covers().  Every kind of message is exact there (R, R+IR,
 * B trees, B+IR paths: a head's route is route_of()'s), so a covered network is
 * covered for any traffic.  The section 6 registers are derived on read
 * (pair_walk_router_state()) but for the FIFOs' pointers: see there.
 */
#ifndef WORMCAST_PAIR_WALK_H
#define WORMCAST_PAIR_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "network.h"
#include "router.h"
#include "router_state.h"

struct pair_walk;

/* True if the pair walk is exact for a network of parameters p whose sinks never stall. */
bool pair_walk_covers(const struct router_params *p);
/* The routers of the network: their constants (none of their registers is kept). */
struct pair_walk *pair_walk_create(const struct router_params *p, struct router *routers);
void pair_walk_destroy(struct pair_walk *w);

/*
 * Whether injection channel (node, channel) freed an entry in the last step.  The NI's
 * flit into it (pair_walk_inject(): model/ni.c's pair walk loop, and network_inject()
 * under the pair walk) and the flits it holds (pair_walk_inj_held()) are inline, in
 * pair_walk_state.h.
 */
bool pair_walk_inj_credited(const struct pair_walk *w, int node, int channel);

/* network.h's functions of the same names, for a network the pair walk steps. */
void pair_walk_step(struct pair_walk *w, uint64_t cycle);
int pair_walk_ejections(const struct pair_walk *w, const struct channel_event **list);
int pair_walk_inj_credits(struct pair_walk *w, const struct channel_event **list);
uint64_t pair_walk_link_moves(const struct pair_walk *w);
int pair_walk_last_moves(const struct pair_walk *w);
uint64_t pair_walk_conflict_cycles(const struct pair_walk *w);
int pair_walk_buffered(const struct pair_walk *w);

/*
 * Router node's section 6 registers after the last step, derived.  The FIFOs' live
 * entries, count, route_q, credit_out_q, the output registers and credits_q are the
 * routers'; rd_ptr and wr_ptr are not: the ring numbers every flit that entered the
 * input, the router's FIFO only those it stored (not the bypassed ones), so they
 * name the same entries from another origin (tests/test_pair_walk.c compares the rest).
 */
void pair_walk_router_state(const struct pair_walk *w, int node, struct router_state *s);
/* The registers network_router_registers() gives. */
void pair_walk_registers(const struct pair_walk *w, int node, uint32_t *out_valid,
			 uint32_t *credit_out, flit_t *out_flit);
/* Output o's credits_q (network_credits()). */
int pair_walk_credits(const struct pair_walk *w, int node, int o);

/*
 * The pair walk's invariants (debug builds check them after every step): 0, or -1
 * and the first broken one in why.
 */
int pair_walk_sanity(const struct pair_walk *w, char *why, size_t len);

/*
 * For test_sanity: break an invariant (what: 0 a ring's counts, 1 an output's owner, 2 a
 * pair's address of its input, 3 a router's mark of heads pending, 4 the spare input
 * marked ejecting, 5 a link pair in the walk's layer of another port).
 */
void pair_walk_corrupt(struct pair_walk *w, int what);

struct ff;
/*
 * The fast-forward's visit of the pair walk's state (fastforward.h), for
 * network_ff_visit(): model/pair_walk_ff.c says why a jump is exact.
 */
void pair_walk_ff_visit(struct pair_walk *w, struct ff *f);

#endif
