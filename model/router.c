/* SPDX-License-Identifier: MIT */
/*
 * router.c - the router's cycle, written to read like rtl/wc_router.v.  The numbered
 * steps are those of docs/microarchitecture.md section 7.  Per-port state is kept in
 * bit masks so that an idle port costs nothing: a 12-port router that forwards one
 * message touches one input and its outputs, not 24 ports.
 */
#include "router.h"

#include <stdlib.h>
#include <string.h>

int router_init(struct router *r, const struct router_params *p, int node)
{
	int ports = p->topo->ports;

	memset(r, 0, sizeof(*r));
	r->params = p;
	r->node = node;
	r->n_ports = ports;
	r->n_in = ports + (p->all_port ? ports : 1);
	r->n_out = r->n_in;
	r->fifo = calloc((size_t)r->n_in * (size_t)p->buffer_depth, sizeof(flit_t));
	if (!r->fifo)
		return -1;
	for (int o = 0; o < r->n_out; o++)
		r->credits_q[o] = (uint8_t)p->buffer_depth;
	r->has_credit_q = (r->n_out >= 32) ? ~0u : (1u << r->n_out) - 1;
	return 0;
}

void router_free(struct router *r)
{
	free(r->fifo);
	r->fifo = NULL;
}

uint32_t router_route(const struct router *r, flit_t head, int input)
{
	const struct topology *t = r->params->topo;
	struct header h = header_unpack(flit_payload(head), (unsigned)r->params->payload_width);
	bool from_link = input < r->n_ports;
	uint32_t eject = from_link ? 1u << router_ejection_port(r, input) : 0;

	if (h.type == HDR_B) {
		uint32_t m = replication_children(t, (int)h.address, r->node);

		return (int)h.address == r->node ? m : m | eject;
	}

	int port = unicast_next_port(t, r->node, (int)h.address);

	if (port < 0)
		return eject;
	return (1u << port) | (h.ir ? eject : 0);
}

static inline flit_t fifo_head(const struct router *r, int i)
{
	return r->fifo[i * r->params->buffer_depth + r->rd_ptr[i]];
}

void router_eval(struct router *r, uint64_t cycle)
{
	uint32_t hol_valid, req_any = 0, ready, taken, granted = 0, conflicted = 0;
	uint32_t req[ROUTER_MAX_IO], cur[ROUTER_MAX_IO];
	flit_t hol[ROUTER_MAX_IO];
	uint32_t m;

	/* 1. Head of line: the FIFO's head, or the arriving flit if the FIFO is empty. */
	hol_valid = r->nonempty | r->in_valid;
	for (m = hol_valid; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		hol[i] = (r->nonempty >> i & 1) ? fifo_head(r, i) : r->in_flit[i];
		cur[i] = r->route_q[i];
		/* 3. Route computation for a head with no message in progress. */
		if (cur[i] == 0 && flit_is_head(hol[i])) {
			req[i] = router_route(r, hol[i], i);
			req_any |= 1u << i;
		}
	}

	/* 2. An output is ready if it has a credit, or one arrives this cycle. */
	ready = r->has_credit_q | r->credit_in;

	/*
	 * 4. All-or-nothing allocation in rotating priority from rr = cycle mod NIn:
	 * a head gets its whole output set in one cycle, or nothing.
	 */
	taken = r->owned_q;
	if (req_any) {
		int rr = (int)(cycle % (uint64_t)r->n_in);

		for (int k = 0; k < r->n_in; k++) {
			int i = rr + k < r->n_in ? rr + k : rr + k - r->n_in;

			if (!(req_any >> i & 1))
				continue;
			if (req[i] & taken) {
				conflicted |= 1u << i;
				continue;
			}
			taken |= req[i];
			granted |= 1u << i;
			cur[i] = req[i];	/* 5. current route */
		}
	}

	/* 6. Move in lockstep; 7. crossbar; 9. route state. */
	r->move_d = 0;
	r->out_valid_d = 0;
	for (m = hol_valid; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		uint32_t outs = cur[i];

		r->route_d[i] = outs;
		if (outs == 0 || (outs & ~ready))
			continue;
		r->move_d |= 1u << i;
		r->out_valid_d |= outs;
		for (uint32_t o = outs; o; o &= o - 1)
			r->out_flit_d[__builtin_ctz(o)] = hol[i];
		if (flit_is_tail(hol[i]))
			r->route_d[i] = 0;
	}
	/* Inputs with no flit keep their route (a message between two flits). */

	/* 10. FIFO: the arriving flit is stored unless it was bypassed. */
	r->push_d = r->in_valid & ~(r->move_d & ~r->nonempty);
	r->credit_arrived_d = r->credit_in;
	r->grant_d = granted;
	for (m = granted; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->msg_head[i] = hol[i];
	}
	r->conflict_now = conflicted != 0;
	if (conflicted)
		r->conflict_cycles++;
}

void router_commit(struct router *r)
{
	int depth = r->params->buffer_depth;
	uint32_t m;

	/* Route state of every input that had a flit this cycle. */
	for (m = r->nonempty | r->in_valid; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->route_q[i] = r->route_d[i];
	}
	r->owned_q = 0;
	for (int i = 0; i < r->n_in; i++)
		r->owned_q |= r->route_q[i];

	/* FIFO pops and pushes. */
	for (m = r->move_d & r->nonempty; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->rd_ptr[i] = (uint8_t)(r->rd_ptr[i] + 1 == depth ? 0 : r->rd_ptr[i] + 1);
		r->count[i]--;
	}
	for (m = r->push_d; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		int wr = r->rd_ptr[i] + r->count[i];

		if (wr >= depth)
			wr -= depth;
		r->fifo[i * depth + wr] = r->in_flit[i];
		r->count[i]++;
	}
	r->nonempty = (r->nonempty | r->push_d) & ~0u;
	for (m = r->nonempty; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		if (r->count[i] == 0)
			r->nonempty &= ~(1u << i);
	}

	/* 8. Credits: minus one per flit sent, plus one per credit returned. */
	for (m = r->out_valid_d | r->credit_arrived_d; m; m &= m - 1) {
		int o = __builtin_ctz(m);
		int c = r->credits_q[o] - (int)(r->out_valid_d >> o & 1) +
			(int)(r->credit_arrived_d >> o & 1);

		r->credits_q[o] = (uint8_t)c;
		if (c > 0)
			r->has_credit_q |= 1u << o;
		else
			r->has_credit_q &= ~(1u << o);
	}

	/* Output registers: out_flit loads only when a flit is sent. */
	for (m = r->out_valid_d; m; m &= m - 1) {
		int o = __builtin_ctz(m);

		r->out_flit_q[o] = r->out_flit_d[o];
	}
	r->out_valid_q = r->out_valid_d;
	r->credit_out_q = r->move_d;

	/* This cycle's inputs are consumed. */
	r->in_valid = 0;
	r->credit_in = 0;
	r->move_d = 0;
	r->out_valid_d = 0;
	r->push_d = 0;
	r->credit_arrived_d = 0;
}

int router_buffered(const struct router *r)
{
	int n = 0;

	for (int i = 0; i < r->n_in; i++)
		n += r->count[i];
	return n;
}
