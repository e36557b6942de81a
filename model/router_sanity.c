/* SPDX-License-Identifier: MIT */
/*
 * router_sanity.c - the invariants of router.h and docs/microarchitecture.md section 6,
 * checked from the outside.  The router keeps several values twice for speed (bit
 * masks derived from counts and routes, owned_q as the OR of route_q); a slip in the
 * code that keeps them in step would not show as a wrong delivery until much later,
 * if ever, so a debug build checks them after every cycle.
 */
#include "router_sanity.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

static __attribute__((format(printf, 4, 5))) int
fail(const struct router *r, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(err, errlen, "router_sanity: node %d: ", r->node);

	if (k >= 0 && (size_t)k < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static uint32_t low_bits(int n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

/*
 * The invariants of the inputs in ins and the outputs in outs, and those of the whole
 * router that involve route_q if routes is set.
 */
static int check_router(const struct router *r, uint32_t ins, uint32_t outs, bool routes,
			char *err, size_t errlen)
{
	uint32_t in_mask = low_bits(r->n_in), out_mask = low_bits(r->n_out);

	if ((r->nonempty | r->credit_out_q | r->holding) & ~in_mask)
		return fail(r, err, errlen, "input bits 0x%x beyond the %d inputs",
			    (r->nonempty | r->credit_out_q | r->holding) & ~in_mask, r->n_in);
	/* router_eval() relies on it (router_commit()). */
	if (r->sw_rr_d != r->sw_rr_q || r->sw_rr_q >= r->n_in)
		return fail(r, err, errlen, "sw_rr_d %d, sw_rr_q %d (NIn %d)", r->sw_rr_d,
			    r->sw_rr_q, r->n_in);
	if (r->hold_busy != (r->holding != 0))
		return fail(r, err, errlen, "hold_busy is %d with holding 0x%x", r->hold_busy,
			    r->holding);
	/* The join's constants (router_join_steady(), router.h) as router_init() sets them. */
	{
		const struct topology *t = r->params->topo;
		bool grid = topology_is_grid(t);

		if (r->route_kind != router_route_kind(r->params) ||
		    r->mesh_cols != (grid ? t->cols : 0) ||
		    r->mesh_row != (grid ? mesh_row(t, r->node) : 0) ||
		    r->mesh_col != (grid ? mesh_col(t, r->node) : 0))
			return fail(r, err, errlen, "route_kind %d (not %d), mesh_cols %d, mesh_row %d, "
				    "mesh_col %d", r->route_kind, router_route_kind(r->params),
				    r->mesh_cols, r->mesh_row, r->mesh_col);
		/* The join's ejection output (router_join_eject(), router.c). */
		if (r->eject_mul != (r->params->all_port ? 1u << r->n_link : 1))
			return fail(r, err, errlen, "eject_mul 0x%x with %d links", r->eject_mul,
				    r->n_link);
	}
	if ((r->out_valid_q | r->owned_q | r->has_credit_q) & ~out_mask)
		return fail(r, err, errlen, "output bits 0x%x beyond the %d outputs",
			    (r->out_valid_q | r->owned_q | r->has_credit_q) & ~out_mask, r->n_out);
	/*
	 * V = 1: every input of credit_out_q moved to all of its route last cycle, and
	 * a tail's outputs are owned no more, so the outputs sent that are still owned are
	 * the routes of the inputs that moved and own them still: router_join_steady()
	 * reads them so (router.h).
	 */
	if (r->n_vc == 1) {
		uint32_t on = r->credit_out_q & r->owning & in_mask, routes = 0;

		for (uint32_t m = on; m; m &= m - 1)
			routes |= r->in[__builtin_ctz(m)].route_q;
		if (routes != (r->out_valid_q & r->owned_q))
			return fail(r, err, errlen, "inputs 0x%x moved and own 0x%x, but out_valid_q "
				    "0x%x & owned_q 0x%x", on, routes, r->out_valid_q, r->owned_q);
	}
	/*
	 * The steady cycle (network.c) moves the flits of credit_out_q's inputs to
	 * out_valid_q without looking at FIFOs, holds or routes: they must be as it
	 * assumes (with ROUTER_STEADY_RELEASED, tails left: router.h).
	 */
	if (r->steady) {
		bool released = r->steady == ROUTER_STEADY_RELEASED;

		if (!r->credit_out_q || r->steady > ROUTER_STEADY_RELEASED ||
		    (!released && ((r->credit_out_q & ~r->owning) || (r->out_valid_q & ~r->owned_q))) ||
		    r->nonempty || r->hold_busy || r->n_vc != 1)
			return fail(r, err, errlen, "steady (%d) with credit_out_q 0x%x (owning 0x%x, "
				    "nonempty 0x%x, hold %d, V %d): out_valid_q 0x%x, owned_q 0x%x",
				    r->steady, r->credit_out_q, r->owning, r->nonempty, r->hold_busy,
				    r->n_vc, r->out_valid_q, r->owned_q);
	}
	for (uint32_t m = ins & in_mask; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		const struct router_input *in = &r->in[i];

		if (in->count > r->depth)
			return fail(r, err, errlen, "input %d holds %d flits, its FIFO %d",
				    i, in->count, r->depth);
		if (in->rd_ptr >= r->depth)
			return fail(r, err, errlen, "input %d read pointer %d outside its FIFO of %d",
				    i, in->rd_ptr, r->depth);
		if ((r->nonempty >> i & 1) != (in->count > 0))
			return fail(r, err, errlen, "nonempty bit %d is %u but input %d holds %d flits",
				    i, r->nonempty >> i & 1, i, in->count);
		if ((r->holding >> i & 1) != (in->hold_q != 0))
			return fail(r, err, errlen, "holding bit %d is %u but input %d holds for %d cycles",
				    i, r->holding >> i & 1, i, in->hold_q);
		if (in->hold_q && (in->hold_q >= r->params->replication_cost || !in->route_q))
			return fail(r, err, errlen, "input %d holds for %d cycles (T_r = %d) with "
				    "route_q 0x%x", i, in->hold_q, r->params->replication_cost,
				    in->route_q);
		/* An input with no message in progress waits with a head or nothing. */
		if (!in->route_q && in->count &&
		    !flit_is_head(r->fifo[i * r->depth + in->rd_ptr]))
			return fail(r, err, errlen, "input %d has no route but a %s flit at its head",
				    i, flit_is_tail(r->fifo[i * r->depth + in->rd_ptr]) ? "tail" : "body");
	}
	if (r->credit1_q & ~r->link_mask)
		return fail(r, err, errlen, "credit1_q 0x%x beyond the %d link outputs",
			    r->credit1_q, r->n_link);
	for (uint32_t m = outs & out_mask; m; m &= m - 1) {
		int o = __builtin_ctz(m);
		/* A link output's credits_q holds the free slots downstream (router.h). */
		bool link = o < r->n_link;

		if (r->credits_q[o] > r->depth)
			return fail(r, err, errlen, "output %d has %d credits, above the depth %d",
				    o, r->credits_q[o], r->depth);
		if ((r->has_credit_q >> o & 1) != (r->credits_q[o] > link))
			return fail(r, err, errlen, "has_credit_q bit %d is %u but output %d has %d credits",
				    o, r->has_credit_q >> o & 1, o, r->credits_q[o]);
		if (link && (r->credit1_q >> o & 1) != (r->credits_q[o] == 1))
			return fail(r, err, errlen, "credit1_q bit %d is %u but link output %d has %d "
				    "free slots downstream", o, r->credit1_q >> o & 1, o,
				    r->credits_q[o]);
	}
	if (routes) {
		uint32_t owned = 0;

		for (int i = 0; i < r->n_in; i++) {
			uint32_t route = r->in[i].route_q;

			if (route & ~out_mask)
				return fail(r, err, errlen, "route_q of input %d is 0x%x, beyond the %d "
					    "outputs", i, route, r->n_out);
			if (route & owned)
				return fail(r, err, errlen, "outputs 0x%x are owned by input %d and "
					    "another", route & owned, i);
			owned |= route;
			if ((r->owning >> i & 1) != (route != 0))
				return fail(r, err, errlen, "owning bit %d is %u with route_q 0x%x",
					    i, r->owning >> i & 1, route);
		}
		if (owned != r->owned_q)
			return fail(r, err, errlen, "owned_q is 0x%x, the OR of route_q 0x%x",
				    r->owned_q, owned);
		/*
		 * A message in progress holds the route its head asks for: the join routes a
		 * unicast inline from the router's own constants (router_unicast_port()), the
		 * rest route_of(); both must agree with route_of() on the head kept.
		 */
		for (int i = 0; i < r->n_in; i++) {
			uint32_t route = r->in[i].route_q, want;

			if (!route)
				continue;
			want = route_of(r->params, r->node, r->in[i].head, i);
			if (route != want)
				return fail(r, err, errlen, "input %d holds route 0x%x, its head 0x%llx "
					    "asks for 0x%x", i, route,
					    (unsigned long long)r->in[i].head, want);
		}
	}
	return 0;
}

int router_sanity(const struct router *r, char *err, size_t errlen)
{
	return check_router(r, ~0u, ~0u, true, err, errlen);
}

/*
 * Link output p of router u into input q of router d, for each of its V virtual
 * channels c (virtual output p*V + c into virtual input q*V + c; V = 1: the link
 * itself): the free slots u holds for d's FIFO, with the change on the wires, are
 * depth - its count (router.h), and the credits the RTL holds, derived from them
 * (network_credits()), are not negative: the credits, the flits in d's FIFO, a flit
 * on the wire (u's output register) and a credit on the wire (d's credit register)
 * add up to the depth.  An unconnected port sends nothing and keeps all its credits.
 */
static int link_sanity(const struct network *n, const struct router *u, int p, char *err,
		       size_t errlen)
{
	const struct topology *t = network_params(n)->topo;
	int w = topology_neighbor(t, u->node, p), q = topology_peer_port(t, p), sum;
	const struct router *d = w < 0 ? NULL : network_router(n, w);

	for (int c = 0; c < u->n_vc; c++) {
		int vo = p * u->n_vc + c, vi = q * u->n_vc + c;

		if (!d) {
			if (u->credits_q[vo] != u->depth || (u->out_valid_q >> vo & 1) ||
			    u->in[vo].count)
				return fail(u, err, errlen, "unconnected port %d VC %d: %d credits, "
					    "out_valid %u, %d flits buffered", p, c, u->credits_q[vo],
					    u->out_valid_q >> vo & 1, u->in[vo].count);
			continue;
		}
		sum = network_link_free(n, u->node, vo) + d->in[vi].count;
		if (sum != u->depth)
			return fail(u, err, errlen, "link output %d VC %d to node %d input %d: %d "
				    "free slots on the wire's side + %d buffered = %d, not the depth %d",
				    p, c, w, q, network_link_free(n, u->node, vo), d->in[vi].count,
				    sum, u->depth);
		sum = d->in[vi].count + (int)(u->out_valid_q >> vo & 1) +
		      (int)(d->credit_out_q >> vi & 1);
		if (sum > u->depth)
			return fail(u, err, errlen, "link output %d VC %d to node %d input %d: %d "
				    "buffered + %u flit and %u credit in flight = %d, above the "
				    "depth %d", p, c, w, q, d->in[vi].count,
				    u->out_valid_q >> vo & 1, d->credit_out_q >> vi & 1, sum,
				    u->depth);
	}
	return 0;
}

/* The physical link ports of a mask over router r's virtual ports (bit p*V + c). */
static uint32_t link_ports(const struct router *r, uint32_t vmask)
{
	uint32_t ports = 0;

	vmask &= r->n_link >= 32 ? ~0u : (1u << r->n_link) - 1;
	if (r->n_vc == 1)
		return vmask;
	for (uint32_t m = vmask; m; m &= m - 1)
		ports |= 1u << (__builtin_ctz(m) / r->n_vc);
	return ports;
}

/* The links of router r's ports in mask: out of output p and into input p. */
static int links_sanity(const struct network *n, const struct router *r, uint32_t outs,
			uint32_t ins, char *err, size_t errlen)
{
	const struct topology *t = network_params(n)->topo;

	for (uint32_t m = outs; m; m &= m - 1)
		if (link_sanity(n, r, __builtin_ctz(m), err, errlen))
			return -1;
	for (uint32_t m = ins; m; m &= m - 1) {
		int p = __builtin_ctz(m), w = topology_neighbor(t, r->node, p);

		if (w >= 0 && link_sanity(n, network_router(n, w), topology_peer_port(t, p), err,
					  errlen))
			return -1;
	}
	return 0;
}

int network_sanity(const struct network *n, const int *nodes, int count, char *err,
		   size_t errlen)
{
	const struct topology *t = network_params(n)->topo;
	uint32_t links = (1u << t->ports) - 1;

	if (!nodes) {
		for (int v = 0; v < t->nodes; v++) {
			const struct router *r = network_router(n, v);

			if (router_sanity(r, err, errlen) || links_sanity(n, r, links, 0, err, errlen))
				return -1;
		}
		return 0;
	}
	for (int k = 0; k < count; k++) {
		const struct router *r = network_router(n, nodes[k]);

		/*
		 * A link's sum changes only through an event at one of its ends in this
		 * cycle: a flit sent or a credit taken back at the output (out_valid_d,
		 * credit_arrived_d: credits_q, out_valid_q and the upstream end of a credit on
		 * the wire), a flit stored or leaving at the input (push_d, move_d: count,
		 * credit_out_q and the downstream end of a flit on the wire).  Both ends of
		 * such an event were evaluated, so checking the links of these ports of the
		 * routers evaluated covers every link that changed.
		 */
		uint32_t ins = r->push_d | r->move_d | r->grant_d | r->release_d | r->holding;
		uint32_t outs = r->out_valid_d | r->credit_arrived_d | r->credit_wire;

		/*
		 * The state of a port changes only through these events (the rest keeps
		 * values already checked), and route_q only at a grant or a tail.
		 */
		if (check_router(r, ins, outs, (r->grant_d | r->release_d) != 0, err, errlen) ||
		    links_sanity(n, r, link_ports(r, outs), link_ports(r, r->push_d | r->move_d),
				 err, errlen))
			return -1;
	}
	return 0;
}
