/* SPDX-License-Identifier: MIT */
/*
 * network.h - the C model of a whole network of routers (the counterpart of
 * rtl/wc_hypercube.v and rtl/wc_mesh.v): routers wired by links, the NI-facing
 * channels of every node, and every signal the cosimulation compares.
 *
 * One cycle: the NIs drive this cycle's injection flits and ejection credits
 * (network_inject(), network_return_credit()), then network_step() evaluates every
 * router from the current registers and commits them all.  After the step the
 * registers hold the next cycle's values: network_ejections() and
 * network_inj_credits() list the NI-facing outputs that are now valid.
 */
#ifndef WORMCAST_NETWORK_H
#define WORMCAST_NETWORK_H

#include <stdbool.h>
#include <stdint.h>

#include "flit.h"
#include "router.h"
#include "router_state.h"
#include "topology.h"

struct network;

/* A flit on an ejection channel, or a credit on an injection channel. */
struct channel_event {
	int node;
	int channel;
	flit_t flit;		/* ejections only */
};

/* The signals of one router port, as the cosimulation compares them. */
struct port_signals {
	bool out_valid;		/* output register: link output or ejection channel */
	flit_t out_flit;
	bool credit_out;	/* credit register of the input port with the same index */
};

struct network *network_create(const struct router_params *params);
void network_destroy(struct network *n);

const struct router_params *network_params(const struct network *n);
int network_channels(const struct network *n);	/* E: ejection channels per node (J = P) */

/*
 * Drive this cycle's NI outputs into the routers (under the pair walk: into its ring,
 * pair_walk_inject()).
 */
void network_inject(struct network *n, int node, int channel, flit_t flit);
/*
 * network_inject() of a network the routers step (not the pair walk): for the NI's
 * routers' loop, which tests the core once a pass, not once a flit.
 */
void network_routers_inject(struct network *n, int node, int channel, flit_t flit);
void network_return_credit(struct network *n, int node, int channel);

/*
 * From now on the network returns the credit of every flit it ejects itself, in the
 * cycle after the flit is on its ejection channel: what the NI does when its sinks
 * never stall (docs/microarchitecture.md section 9), so the NI need not be called
 * for it (ni_engine_returns_credits()).  Only for a network whose NI-facing signals
 * nothing else observes (no waves, no coverage, no cosimulation: they see the NI's
 * credits through the engine's return_credit()).
 */
void network_return_ejection_credits(struct network *n);

/*
 * A speed option (on unless --no-pair-walk): from now on the network is stepped as one walk of the
 * granted input->output pairs (model/pair_walk.h), not router by router, if that is
 * exact for it: a hypercube or a mesh without wrap-around, all-port, V = 1, T_r = 0,
 * after network_return_ejection_credits().  Before the first cycle.  True if it is
 * (the network's functions below then read the pair walk's state); false, and nothing
 * changed, otherwise.  The fast-forward visits whichever core steps (network_ff_visit()).
 */
bool network_use_pair_walk(struct network *n);
/* The core that steps the network: "pair-walk" or "routers" (the run's report names it). */
const char *network_core(const struct network *n);
/* The pair walk that steps the network, or NULL (tests: test_sanity corrupts its state). */
struct pair_walk *network_pair_walk(struct network *n);

/* Evaluate and commit every router: the clock edge. */
void network_step(struct network *n, uint64_t cycle);

/*
 * Debug builds (WORMCAST_DEBUG) check the invariants of router_sanity.h after every
 * step: the first that failed ("cycle N: router_sanity: node V: ..."), or "".  Always
 * "" in a release build.
 */
const char *network_sanity_error(const struct network *n);

/*
 * NI-facing outputs valid after the last step (valid until the next step), in node
 * order, then channel order (docs/microarchitecture.md section 9).
 */
int network_ejections(const struct network *n, const struct channel_event **list);
int network_inj_credits(struct network *n, const struct channel_event **list);

/*
 * Injection channel (node, channel) after the last step, for the NI of the C model,
 * which derives its credits from them instead of the list above: the flits the
 * router's injection input holds (the NI's credits are the depth less these), and
 * whether that input freed an entry in the last step (the channel is listed by
 * network_inj_credits()).
 */
int network_inj_held(const struct network *n, int node, int channel);
bool network_inj_credited(const struct network *n, int node, int channel);
/*
 * network_inj_held() of a network the routers step (not the pair walk): for the NI's
 * loop, which tests the core once a pass, not once a flit (the test in the loop cost
 * cg6 direx 1.7 and uniform 1.0 instructions a flit-hop with the routers).
 */
int network_routers_inj_held(const struct network *n, int node, int channel);

/* Signals of router node's port (0..NIn-1) after the last step. */
void network_port_signals(const struct network *n, int node, int port,
			  struct port_signals *s);
/*
 * The same registers for every port of router node at once, for a comparison that
 * runs every cycle: bit p of *out_valid and *credit_out, out_flit[p] for p < NIn.
 */
void network_router_registers(const struct network *n, int node, uint32_t *out_valid,
			      uint32_t *credit_out, flit_t *out_flit);
/*
 * Router node itself: its constants, and its registers only where the routers step the
 * network (network_core() "routers").  Under the pair walk its registers are not kept
 * (they stay as reset): read network_router_state() and the functions above, which
 * are derived from the walk's state.
 */
const struct router *network_router(const struct network *n, int node);
/* Router node's architectural state after the last step (router_state.h). */
void network_router_state(const struct network *n, int node, struct router_state *s);

/*
 * Output o of router node after the last step: its credits_q register (derived for a
 * link output, struct router in router.h), and for a link output the free slots of
 * the FIFO downstream that the router holds, with the change on the wires added:
 * depth - that FIFO's count, if the two ends agree.
 */
int network_credits(const struct network *n, int node, int o);
int network_link_free(const struct network *n, int node, int o);

struct ff;
/* The network's state for the fast-forward (fastforward.h): after a step, between cycles. */
void network_ff_visit(struct network *n, struct ff *f);

/* Activity of the last step. */
uint64_t network_link_moves(const struct network *n);	/* flits put on links, total */
/* Output registers (links and ejections) loaded by the last step: 0 iff no flit left an input. */
int network_last_moves(const struct network *n);
uint64_t network_conflict_cycles(const struct network *n); /* cycles where a head waited */
int network_buffered(const struct network *n);

#endif
