/* SPDX-License-Identifier: MIT */
/*
 * bcast_gate.c - one broadcast at a time, on a drained network.
 */
#include "bcast_gate.h"

void bcast_gate_init(struct bcast_gate *g)
{
	g->in_flight = -1;
}

bool bcast_gate_busy(struct bcast_gate *g, const struct sim *s)
{
	if (g->in_flight >= 0) {
		const struct message *m = sim_message(s, g->in_flight);

		/* NULL: released (release_messages), so delivered everywhere. */
		if (m && m->delivered < m->receivers)
			return true;
		g->in_flight = -1;
	}
	return false;
}

bool bcast_gate_ready(struct bcast_gate *g, const struct sim *s)
{
	return !bcast_gate_busy(g, s) && sim_quiescent(s);
}

int bcast_gate_send(struct bcast_gate *g, struct sim *s, int root, const struct send_req *r)
{
	g->in_flight = sim_send(s, root, r);
	return g->in_flight;
}
