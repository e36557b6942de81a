/* SPDX-License-Identifier: MIT */
/*
 * network.c - routers wired into a network, evaluated in two phases per cycle.
 *
 * Only routers with something to do are evaluated: a router is put on the next
 * cycle's work list when a neighbour puts a flit or a credit on a wire towards it,
 * when the NI drives one of its channels, or when it still holds flits or non-zero
 * output registers.  An idle router's evaluation would change nothing (its
 * registers would keep their values), so skipping it is exact, and a broadcast on
 * Q_12 costs time in proportion to the flits that move, not to 4096 routers.
 */
#include "network.h"

#include <stdlib.h>
#include <string.h>

struct network {
	struct router_params params;
	struct topology topo;	/* own copy: params.topo points here */
	int channels;		/* J = E */
	struct router *routers;
	/* Wiring: neighbour node across each link port, or -1. */
	int *neighbor;		/* nodes * ports */

	/* Work lists: routers to evaluate this cycle, marked by cycle stamp. */
	int *work, n_work;	/* routers to evaluate in n->cycle */
	int *current;		/* the list being evaluated (swapped with work) */
	uint64_t *stamp;	/* cycle for which the router is on the work list */
	uint64_t cycle;		/* cycle being prepared (inputs being driven) */

	/* NI-facing outputs of the current registers. */
	struct channel_event *ej, *inj_credit;
	int n_ej, n_inj_credit;

	uint64_t link_moves;
	uint64_t conflict_cycles;
	int last_moves;
};

/* Put node on the work list of cycle n->cycle (stamp = cycle + 1, so ~0 is "never"). */
static void wake(struct network *n, int node)
{
	if (n->stamp[node] != n->cycle + 1) {
		n->stamp[node] = n->cycle + 1;
		n->work[n->n_work++] = node;
	}
}

struct network *network_create(const struct router_params *params)
{
	struct network *n = calloc(1, sizeof(*n));
	const struct topology *t;
	int nodes = params->topo->nodes;

	if (!n)
		return NULL;
	n->topo = *params->topo;
	n->params = *params;
	n->params.topo = &n->topo;
	t = &n->topo;
	n->channels = params->all_port ? t->ports : 1;
	n->routers = calloc((size_t)nodes, sizeof(*n->routers));
	n->neighbor = malloc(sizeof(int) * (size_t)nodes * (size_t)t->ports);
	n->work = malloc(sizeof(int) * (size_t)nodes);
	n->current = malloc(sizeof(int) * (size_t)nodes);
	n->stamp = calloc((size_t)nodes, sizeof(uint64_t));
	n->ej = malloc(sizeof(*n->ej) * (size_t)nodes * (size_t)n->channels);
	n->inj_credit = malloc(sizeof(*n->inj_credit) * (size_t)nodes * (size_t)n->channels);
	if (!n->routers || !n->neighbor || !n->work || !n->current || !n->stamp || !n->ej || !n->inj_credit)
		goto fail;
	for (int v = 0; v < nodes; v++) {
		if (router_init(&n->routers[v], &n->params, v))
			goto fail;
		for (int p = 0; p < t->ports; p++)
			n->neighbor[v * t->ports + p] = topology_neighbor(t, v, p);
	}
	n->cycle = 0;
	for (int v = 0; v < nodes; v++)
		n->stamp[v] = ~0ull;
	return n;
fail:
	network_destroy(n);
	return NULL;
}

void network_destroy(struct network *n)
{
	if (!n)
		return;
	if (n->routers)
		for (int v = 0; v < n->params.topo->nodes; v++)
			router_free(&n->routers[v]);
	free(n->routers);
	free(n->neighbor);
	free(n->work);
	free(n->current);
	free(n->stamp);
	free(n->ej);
	free(n->inj_credit);
	free(n);
}

const struct router_params *network_params(const struct network *n) { return &n->params; }
int network_channels(const struct network *n) { return n->channels; }
const struct router *network_router(const struct network *n, int node) { return &n->routers[node]; }

void network_inject(struct network *n, int node, int channel, flit_t flit)
{
	struct router *r = &n->routers[node];
	int i = r->n_ports + channel;

	r->in_valid |= 1u << i;
	r->in_flit[i] = flit;
	wake(n, node);
}

void network_return_credit(struct network *n, int node, int channel)
{
	struct router *r = &n->routers[node];

	r->credit_in |= 1u << (r->n_ports + channel);
	wake(n, node);
}

void network_step(struct network *n, uint64_t cycle)
{
	const struct topology *t = n->params.topo;
	int ports = t->ports;
	int count = n->n_work;
	int moves = 0;
	bool conflict = false;
	int *list = n->work;

	/* The woken routers of the next cycle go to the other list. */
	n->work = n->current;
	n->current = list;
	n->cycle = cycle;
	/* Phase 1: next state of every busy router from current registers. */
	for (int k = 0; k < count; k++)
		router_eval(&n->routers[list[k]], cycle);

	/* Phase 2: commit, and drive the wires of the next cycle. */
	n->n_ej = 0;
	n->n_inj_credit = 0;
	n->n_work = 0;
	n->cycle = cycle + 1;
	for (int k = 0; k < count; k++) {
		struct router *r = &n->routers[list[k]];

		moves += __builtin_popcount(r->move_d);
		conflict |= r->conflict_now;
		router_commit(r);
	}
	/*
	 * Only once every router has committed (and consumed this cycle's inputs) may
	 * the wires of the next cycle be driven into the neighbours.
	 */
	for (int k = 0; k < count; k++) {
		int v = list[k];
		struct router *r = &n->routers[v];
		uint32_t m;

		for (m = r->out_valid_q; m; m &= m - 1) {
			int o = __builtin_ctz(m);

			if (o < ports) {
				int w = n->neighbor[v * ports + o];
				struct router *d = &n->routers[w];
				int q = topology_peer_port(t, o);

				d->in_valid |= 1u << q;
				d->in_flit[q] = r->out_flit_q[o];
				wake(n, w);
				n->link_moves++;
			} else {
				n->ej[n->n_ej++] = (struct channel_event){
					.node = v, .channel = o - ports, .flit = r->out_flit_q[o] };
			}
		}
		for (m = r->credit_out_q; m; m &= m - 1) {
			int i = __builtin_ctz(m);

			if (i < ports) {
				int w = n->neighbor[v * ports + i];

				n->routers[w].credit_in |= 1u << topology_peer_port(t, i);
				wake(n, w);
			} else {
				n->inj_credit[n->n_inj_credit++] = (struct channel_event){
					.node = v, .channel = i - ports, .flit = 0 };
			}
		}
		if (router_busy(r))
			wake(n, v);
	}
	n->last_moves = moves;
	if (conflict)
		n->conflict_cycles++;
}

int network_ejections(const struct network *n, const struct channel_event **list)
{
	*list = n->ej;
	return n->n_ej;
}

int network_inj_credits(const struct network *n, const struct channel_event **list)
{
	*list = n->inj_credit;
	return n->n_inj_credit;
}

void network_port_signals(const struct network *n, int node, int port, struct port_signals *s)
{
	const struct router *r = &n->routers[node];

	s->out_valid = r->out_valid_q >> port & 1;
	s->out_flit = r->out_flit_q[port];
	s->credit_out = r->credit_out_q >> port & 1;
}

uint64_t network_link_moves(const struct network *n) { return n->link_moves; }
int network_last_moves(const struct network *n) { return n->last_moves; }
uint64_t network_conflict_cycles(const struct network *n) { return n->conflict_cycles; }

int network_buffered(const struct network *n)
{
	int b = 0;

	for (int v = 0; v < n->params.topo->nodes; v++)
		b += router_buffered(&n->routers[v]);
	return b;
}

bool network_idle(const struct network *n)
{
	return n->n_work == 0;
}
