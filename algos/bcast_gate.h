/* SPDX-License-Identifier: MIT */
/*
 * bcast_gate.h - serialising broadcasts, shared by the traffic drivers (random traffic,
 * traces).
 *
 * A broadcast holds its whole tree until its tail passes, and concurrent broadcasts,
 * or a broadcast and e-cube unicasts, can deadlock (docs/microarchitecture.md
 * section 8).  So a B message is sent only when the network is quiescent (nothing
 * queued in an NI, nothing in flight, nothing undelivered), and no other message is
 * sent until it has been delivered to every node.
 */
#ifndef WORMCAST_BCAST_GATE_H
#define WORMCAST_BCAST_GATE_H

#include <stdbool.h>

#include "sim.h"

struct bcast_gate {
	int in_flight;		/* message id of the broadcast in flight, or -1 */
};

void bcast_gate_init(struct bcast_gate *g);

/* True while the gate's broadcast is still being delivered: make no sends. */
bool bcast_gate_busy(struct bcast_gate *g, const struct sim *s);

/* True if a broadcast may be sent now (not busy, and the network is quiescent). */
bool bcast_gate_ready(struct bcast_gate *g, const struct sim *s);

/*
 * Send broadcast r from root (call only when bcast_gate_ready()).  Returns the
 * message id, or -1 with the reason in sim_error().
 */
int bcast_gate_send(struct bcast_gate *g, struct sim *s, int root, const struct send_req *r);

/* Nothing in flight through the gate. */
static inline bool bcast_gate_idle(const struct bcast_gate *g) { return g->in_flight < 0; }

#endif
