/* SPDX-License-Identifier: MIT */
/*
 * deadlock.c - chains of blocked messages (see deadlock.h).  The routers are read one
 * at a time into a single struct router_state; what the analysis keeps of each is one
 * small record per input that holds flits or outputs, and the owner of each output.
 */
#include "deadlock.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define MAX_CHAINS 8
#define MAX_STEPS 64

/* An input with flits or outputs: a message that may be blocked. */
struct blocked {
	int node, input;
	flit_t head;		/* the message: its head of line, or the head of the one in progress */
	uint32_t holds;		/* route_q */
	uint32_t wants;		/* a waiting head's route (route_q = 0) */
	uint32_t no_credit;	/* outputs with credits_q = 0 */
	int count;		/* flits buffered */
	int chain;		/* the chain that visited it, 0 if none */
	int step;		/* its number in that chain */
};

struct analysis {
	const struct router_params *p;
	const struct topology *t;
	struct blocked *b;
	int n;
	int *owner;		/* node * ROUTER_MAX_IO + output: the record holding it, -1 */
	int *at;		/* node * ROUTER_MAX_IO + input: its record, -1 */
	FILE *out;
};

static void message_name(const struct analysis *a, flit_t head, char *buf, size_t len)
{
	struct header h;

	if (!head) {
		snprintf(buf, len, "a message whose head was not seen");
		return;
	}
	h = header_unpack(flit_payload(head), (unsigned)a->p->payload_width);
	if (h.type == HDR_B)
		snprintf(buf, len, "message %s from %u seq %u", msg_kind_name(h.type, h.ir),
			 h.source, h.seq);
	else
		snprintf(buf, len, "message %s from %u to %u seq %u", msg_kind_name(h.type, h.ir),
			 h.source, h.address, h.seq);
}

/*
 * Ports are virtual with V > 1 (docs/microarchitecture.md section 12): link port k
 * is physical port k / V, class k % V.  The neighbour across k, and the port of the
 * same class there.
 */
static int vport_neighbor(const struct analysis *a, int node, int k)
{
	return topology_neighbor(a->t, node, k / a->t->vcs);
}

static int vport_peer(const struct analysis *a, int k)
{
	int V = a->t->vcs;

	return topology_peer_port(a->t, k / V) * V + k % V;
}

static void port_name(const struct analysis *a, int node, int port, bool input, char *buf,
		      size_t len)
{
	int P = topology_link_vports(a->t);

	if (port < P && a->t->vcs > 1) {
		snprintf(buf, len, "%s %d (link %s node %d, VC %d)", input ? "input" : "output",
			 port, input ? "from" : "to", vport_neighbor(a, node, port),
			 port % a->t->vcs);
	} else if (port < P) {
		int nb = topology_neighbor(a->t, node, port);

		snprintf(buf, len, "%s %d (link %s node %d)", input ? "input" : "output", port,
			 input ? "from" : "to", nb);
	} else {
		snprintf(buf, len, "%s %d (%s channel %d)", input ? "input" : "output", port,
			 input ? "injection" : "ejection", port - P);
	}
}

static int lowest(uint32_t m)
{
	return m ? __builtin_ctz(m) : -1;
}

/* Read every router; keep the inputs that hold flits or outputs. */
static int collect(struct analysis *a, const struct engine *e)
{
	struct router_state *s = malloc(sizeof(*s));
	int nodes = a->t->nodes, rc = 0;
	size_t cap = 0;

	a->owner = malloc(sizeof(int) * (size_t)nodes * ROUTER_MAX_IO);
	a->at = malloc(sizeof(int) * (size_t)nodes * ROUTER_MAX_IO);
	if (!s || !a->owner || !a->at) {
		free(s);
		return -1;
	}
	for (int k = 0; k < nodes * ROUTER_MAX_IO; k++)
		a->owner[k] = a->at[k] = -1;
	for (int v = 0; v < nodes && rc == 0; v++) {
		if (e->ops->router_state(e->impl, v, s)) {
			rc = 1;
			break;
		}
		for (int i = 0; i < s->n_in; i++) {
			const struct router_state_input *x = &s->in[i];
			struct blocked *b;

			if (!x->count && !x->route_q)
				continue;
			if ((size_t)a->n == cap) {
				struct blocked *p = grow_array(a->b, &cap, cap + 1, sizeof(*p), 256,
							       INT_MAX);

				if (!p) {
					rc = -1;
					break;
				}
				a->b = p;
			}
			b = &a->b[a->n];
			*b = (struct blocked){ .node = v, .input = i, .holds = x->route_q,
					       .count = x->count };
			if (x->route_q) {
				/* A granted head that has not moved yet is still at the head of line. */
				flit_t hol = x->count ? router_state_fifo(s, i, 0) : 0;

				b->head = x->count && flit_is_head(hol) ? hol : x->msg_head;
			} else {
				b->head = router_state_fifo(s, i, 0);
				if (flit_is_head(b->head))
					b->wants = route_of(a->p, v, b->head, i);
			}
			for (int o = 0; o < s->n_out; o++) {
				if (!(x->route_q >> o & 1))
					continue;
				a->owner[v * ROUTER_MAX_IO + o] = a->n;
				if (!s->out[o].credits_q)
					b->no_credit |= 1u << o;
			}
			a->at[v * ROUTER_MAX_IO + i] = a->n;
			a->n++;
		}
	}
	free(s);
	return rc;
}

/*
 * What record k waits for: the record of the message it waits for, or -1 where the
 * chain ends; a line that says why into buf.
 */
static int waits_for(const struct analysis *a, int k, char *buf, size_t len)
{
	const struct blocked *b = &a->b[k];
	char port[96], peer[96];
	int P = topology_link_vports(a->t);

	if (!b->holds) {
		uint32_t held = 0;
		int o;

		if (!flit_is_head(b->head)) {
			snprintf(buf, len, "has body flits at the head of its input and no route "
				 "(inconsistent state)");
			return -1;
		}
		for (uint32_t m = b->wants; m; m &= m - 1)
			if (a->owner[b->node * ROUTER_MAX_IO + __builtin_ctz(m)] >= 0)
				held |= m & -m;
		o = lowest(held);
		if (o < 0) {
			snprintf(buf, len, "waits for outputs 0x%x, which no message holds: it can "
				 "be granted", b->wants);
			return -1;
		}
		port_name(a, b->node, o, false, port, sizeof(port));
		snprintf(buf, len, "waits for %s of node %d, held by", port, b->node);
		return a->owner[b->node * ROUTER_MAX_IO + o];
	}
	if (!b->count) {
		/* Its next flits are upstream: at the output that feeds this input. */
		if (b->input < P) {
			int up = vport_neighbor(a, b->node, b->input);
			int o = vport_peer(a, b->input);

			snprintf(buf, len, "has no flit here and waits for the rest of itself, "
				 "behind node %d output %d, held by", up, o);
			return up >= 0 ? a->owner[up * ROUTER_MAX_IO + o] : -1;
		}
		snprintf(buf, len, "has no flit here and waits for its NI to send the rest "
			 "(the chain ends: not a message)");
		return -1;
	}
	if (!b->no_credit) {
		snprintf(buf, len, "holds outputs 0x%x, all with credit: it can move", b->holds);
		return -1;
	}
	{
		int o = lowest(b->no_credit);

		port_name(a, b->node, o, false, port, sizeof(port));
		if (o >= P) {
			snprintf(buf, len, "holds %s of node %d, which has no credit: the NI's receive "
				 "buffer is full and not drained (the chain ends: not a message)", port,
				 b->node);
			return -1;
		}
		{
			int w = vport_neighbor(a, b->node, o), q = vport_peer(a, o);

			port_name(a, w, q, true, peer, sizeof(peer));
			snprintf(buf, len, "holds %s of node %d, which has no credit: node %d %s is "
				 "full with", port, b->node, w, peer);
			return a->at[w * ROUTER_MAX_IO + q];
		}
	}
}

/* Distinct messages among heads[from..to). */
static int distinct(const flit_t *heads, int from, int to)
{
	int n = 0;

	for (int i = from; i < to; i++) {
		bool seen = false;

		for (int j = from; j < i && !seen; j++)
			seen = heads[j] == heads[i];
		n += !seen;
	}
	return n;
}

static void write_chain(struct analysis *a, int start, int chain)
{
	flit_t heads[MAX_STEPS];
	int k = start, step = 0;
	char why[256], msg[128], port[96];

	fprintf(a->out, "blocked chain %d:\n", chain);
	while (k >= 0 && step < MAX_STEPS) {
		struct blocked *b = &a->b[k];
		int next;

		if (b->chain) {
			if (b->chain == chain)
				fprintf(a->out, "      [%d] above: the cycle closes (%d steps, %d "
					"messages)\n", b->step, step - b->step + 1,
					distinct(heads, b->step - 1, step));
			else
				fprintf(a->out, "      [%d] of chain %d above\n", b->step, b->chain);
			return;
		}
		heads[step] = b->head;
		b->chain = chain;
		b->step = ++step;
		message_name(a, b->head, msg, sizeof(msg));
		port_name(a, b->node, b->input, true, port, sizeof(port));
		fprintf(a->out, "  [%d] %s at node %d %s, %d flit%s buffered\n", step, msg, b->node,
			port, b->count, b->count == 1 ? "" : "s");
		next = waits_for(a, k, why, sizeof(why));
		fprintf(a->out, "      %s\n", why);
		k = next;
	}
	if (step == MAX_STEPS)
		fprintf(a->out, "      ... (more than %d steps)\n", MAX_STEPS);
}

int deadlock_write_chains(const struct engine *e, const struct router_params *p, FILE *out)
{
	struct analysis a = { .p = p, .t = p->topo, .out = out };
	int rc, chains = 0;

	if (!e->ops->router_state) {
		fprintf(out, "(the %s engine cannot read router state: no chain of blocked "
			"messages)\n", e->ops->name);
		return 1;
	}
	rc = collect(&a, e);
	if (rc > 0)
		fprintf(out, "(router state could not be read: no chain of blocked messages)\n");
	/* Chains start at waiting heads, the links where a cycle of waiting is closed. */
	for (int k = 0; rc == 0 && k < a.n && chains < MAX_CHAINS; k++)
		if (!a.b[k].holds && !a.b[k].chain && flit_is_head(a.b[k].head))
			write_chain(&a, k, ++chains);
	if (rc == 0 && !chains)
		fprintf(out, "no head is waiting for an output: nothing is blocked by a message\n");
	free(a.b);
	free(a.owner);
	free(a.at);
	return rc;
}
