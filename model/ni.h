/* SPDX-License-Identifier: MIT */
/*
 * ni.h - the network interfaces of all nodes (docs/microarchitecture.md section 9):
 * injection channels with start-up cost and credits, ejection channels with a
 * receive buffer, an optionally stalling sink and credit return.
 */
#ifndef WORMCAST_NI_H
#define WORMCAST_NI_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct ni;

/*
 * An ejection channel's state in the NI: a few bytes, kept by the simulation in its
 * record of the channel beside the checker's reception (sim.c), so that a flit touches
 * one record.  Zero before the first flit.
 */
struct ni_ejection {
	uint8_t count;		/* flits in the receive buffer (<= BufferDepth) */
	uint8_t state;		/* NI_EJ_* bits: read and written once per cycle */
};

#define NI_EJ_ARRIVED 1u	/* a flit is on the channel this cycle */
/*
 * The credit register: a flit was drained in the last cycle, so a credit goes back in
 * this one.  ni_drive() reads it and loads its next value in the same pass: nothing
 * else reads it, so that is the clock edge, without a second pass over the channels.
 */
#define NI_EJ_CREDIT 2u
#define NI_EJ_LISTED 4u		/* on the NI's list of channels with work */

struct ni *ni_create(int nodes, int channels, int depth, int startup, double sink_stall,
		     uint64_t seed, unsigned width);
void ni_destroy(struct ni *n);

/*
 * Queue message m (already numbered and checked) on m->channel at cycle now; the NI
 * keeps the pointer (and m->ni_next) until m's tail is sent.  It allocates nothing.
 */
void ni_enqueue(struct ni *n, struct message *m, uint64_t now);

/*
 * A flit is on ejection channel (node, channel), whose state is ej, now.  The NI keeps
 * the pointer while the channel has work: ej must stay where it is for the NI's life.
 */
void ni_arrival(struct ni *n, struct ni_ejection *ej, int node, int channel);

/*
 * The sinks never stall and the engine returns the credit of every ejected flit itself
 * (network_return_ejection_credits()): the NI keeps no ejection state, and the caller
 * tells it a cycle's arrivals at once, by ni_arrivals_drained(), instead of ni_arrival()
 * for each flit.
 */
void ni_engine_returns_credits(struct ni *n);
/* count flits arrived this cycle, drained at once (progress); only after the above. */
void ni_arrivals_drained(struct ni *n, int count);

/*
 * The router returned a credit on each injection channel (node, channel) of list, count
 * of them, for this cycle.  Not with the C model, whose credits the NI derives (in
 * debug builds, also with it: the list is counted and compared).
 */
void ni_credits_in(struct ni *n, const struct channel_event *list, int count);

/*
 * The engine is the C model net, called directly (model_engine_network()): the NI
 * derives its injection credits from the routers' injection inputs instead of a list
 * (network_inj_held(), network_inj_credited()), and ni_drive() is given net.
 */
void ni_derive_credits(struct ni *n, struct network *net);

/*
 * Drive cycle `now`: ejection credits and injection flits into the engine, sink
 * drains.  net is e if it is the C model (model_engine_network(e), the caller's own
 * copy: called directly), else NULL.  Messages whose tail was injected are listed in
 * *done (*n_done of them), the NI's own array, valid until the next ni_drive().
 * Returns the number of flits injected or drained (progress).
 */
int ni_drive(struct ni *n, const struct engine *e, struct network *net, uint64_t now,
	     struct message ***done, int *n_done);

bool ni_out_of_memory(const struct ni *n);	/* an allocation failed in ni_drive() */
/* Debug builds (WORMCAST_DEBUG): the first broken invariant of the NI, or NULL. */
const char *ni_broken(const struct ni *n);
bool ni_idle(const struct ni *n);		/* nothing queued, sending or buffered */
/*
 * For test_sanity: break an invariant (what: 0 every injection channel's input in the
 * pair walk, which a debug build's pass checks).
 */
void ni_corrupt(struct ni *n, int what);
bool ni_starting(const struct ni *n, uint64_t now);	/* a send is in its start-up */

struct ff;
/*
 * The NIs' state for the fast-forward (fastforward.h) at cycle now (between cycles);
 * only after ni_derive_credits() (the credits are the network's state).
 */
void ni_ff_visit(struct ni *n, uint64_t now, struct ff *f);

#endif
