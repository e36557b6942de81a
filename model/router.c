/* SPDX-License-Identifier: MIT */
/*
 * router.c - the router's cycle, written to read like rtl/wc_router.v.  The numbered
 * steps are those of docs/microarchitecture.md section 7.  Per-port state is kept in
 * bit masks so that an idle port costs nothing: a 12-port router that forwards one
 * message touches one input and its outputs, not 24 ports.
 */
#include "router.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * A register read or written once, where it stands (volatile): GCC neither keeps
 * it in a machine register from an earlier access nor merges its store with a
 * neighbour's.  Used in the join (router_join_steady()), each with its figure.
 */
#define ONCE(x) (*(volatile __typeof__(x) *)&(x))

/* The layout that router.h promises (a speed matter only: adjust it if this fails). */
_Static_assert(offsetof(struct router, eject_mul) + sizeof(uint32_t) <= 64,
	       "the per-cycle registers fit the first cache line");
_Static_assert(sizeof(struct router) % 128 == 64, "a router is an odd number of cache lines");
_Static_assert(sizeof(struct router_input) == 32, "an input is 32 bytes, head included");

uint8_t router_route_kind(const struct router_params *p)
{
	const struct topology *t = p->topo;

	if (t->vcs != 1 || p->replication_cost > 0 || topology_wraps(t))
		return ROUTER_ROUTE_CALL;
	if (!topology_is_grid(t))
		return t->route_order == ORDER_ASCENDING ? ROUTER_ROUTE_CUBE : ROUTER_ROUTE_CALL;
	return t->route_order == ORDER_ASCENDING ? ROUTER_ROUTE_MESH_XY : ROUTER_ROUTE_MESH_YX;
}

/* NIn (section 6): the link inputs (P x V), then the injection channels (P all-port, else 1). */
static int inputs_of(const struct router_params *p)
{
	return p->topo->ports * p->topo->vcs + (p->all_port ? p->topo->ports : 1);
}

size_t router_fifo_flits(const struct router_params *p)
{
	return (size_t)inputs_of(p) * (size_t)(p->buffer_depth + 1);
}

int router_init(struct router *r, const struct router_params *p, int node, flit_t *fifo)
{
	int ports = p->topo->ports;

	memset(r, 0, sizeof(*r));
	r->params = p;
	r->node = node;
	r->n_ports = ports;
	r->n_vc = p->topo->vcs;
	r->n_link = ports * r->n_vc;
	r->n_in = inputs_of(p);
	r->n_out = r->n_link + (p->all_port ? r->n_link : 1);
	if (r->n_in > ROUTER_MAX_IO || r->n_out > ROUTER_MAX_IO)
		return -1;
	r->depth = p->buffer_depth;
	/* The FIFOs, then the granted heads' routes: both are touched only off the streaming path. */
	r->fifo = fifo;
	r->grant_req = (uint32_t *)(r->fifo + (size_t)r->n_in * (size_t)p->buffer_depth);
	for (int o = 0; o < r->n_out; o++)
		r->credits_q[o] = (uint8_t)p->buffer_depth;
	/* Every FIFO is empty: depth >= 2 free slots behind every link output. */
	r->has_credit_q = (r->n_out >= 32) ? ~0u : (1u << r->n_out) - 1;
	r->link_mask = (1u << r->n_link) - 1;
	r->eject_mul = p->all_port ? 1u << r->n_link : 1;
	r->route_kind = router_route_kind(p);
	if (topology_is_grid(p->topo)) {
		r->mesh_cols = (int16_t)p->topo->cols;
		r->mesh_row = (int16_t)mesh_row(p->topo, node);
		r->mesh_col = (int16_t)mesh_col(p->topo, node);
	}
	return 0;
}

/*
 * Section 12: link ports ports -> their virtual outputs p*V + class, the class of
 * the hop of a message from origin.  With V = 1 the mask is unchanged.
 */
static uint32_t virtual_links(const struct topology *t, uint32_t ports, bool broadcast,
			      int origin, int node)
{
	uint32_t m = 0;

	if (t->vcs == 1)
		return ports;
	for (; ports; ports &= ports - 1) {
		int p = __builtin_ctz(ports);

		m |= 1u << (p * t->vcs + topology_hop_class(t, broadcast, origin, node, p));
	}
	return m;
}

/* The ejection channel a head arriving on input leaves by if it is received here. */
static inline uint32_t ejection_of(const struct router_params *p, int links, int input)
{
	bool from_link = input < links;

	return from_link ? 1u << (p->all_port ? links + input : links) : 0;
}

/*
 * B headers and virtual channels (out of line, the topology's trees inlined): the
 * rest of route_of().
 */
static __attribute__((noinline, flatten)) uint32_t
route_of_tree_or_vc(const struct router_params *p, int node, flit_t head, int input)
{
	const struct topology *t = p->topo;
	struct header h = header_unpack(flit_payload(head), (unsigned)p->payload_width);
	uint32_t eject = ejection_of(p, topology_link_vports(t), input);

	if (h.type == HDR_B) {
		/* ir selects the path broadcast's Hamiltonian path instead of the tree. */
		uint32_t tree = h.ir ? path_children(t, (int)h.address, node) :
				       replication_children(t, (int)h.address, node);
		uint32_t m = virtual_links(t, tree, true, (int)h.address, node);

		return (int)h.address == node ? m : m | eject;
	}

	int port = unicast_next_port(t, node, (int)h.address);

	if (port < 0)
		return eject;
	return virtual_links(t, 1u << port, false, (int)h.source, node) | (h.ir ? eject : 0);
}

/*
 * A unicast (R header) with V = 1, the head of every message of a direct exchange or
 * of random traffic at every hop, is decoded and routed here without the call and
 * the saved registers that the trees' code needs (docs/performance-history.md, sixth
 * session (engine), 4f5b542).  Inlined
 * into router_start_head(), called by everything else as route_of().  The test
 * and the route apart: router_start_head() tail-calls the trees' (start_head_tree_or_vc()).
 */
static inline __attribute__((always_inline)) bool
route_is_unicast(const struct router_params *p, flit_t head)
{
	return hdr_type_of(flit_payload(head)) != HDR_B && p->topo->vcs == 1;
}

/* The route of a head for which route_is_unicast() holds. */
static inline __attribute__((always_inline)) uint32_t
route_unicast(const struct router_params *p, int node, flit_t head, int input)
{
	const struct topology *t = p->topo;
	uint64_t payload = flit_payload(head);
	int port = unicast_next_port(t, node, (int)hdr_address_of(payload));

	return unicast_route(payload, port, ejection_of(p, t->ports, input));
}

uint32_t route_of(const struct router_params *p, int node, flit_t head, int input)
{
	if (!route_is_unicast(p, head))
		return route_of_tree_or_vc(p, node, head, input);
	return route_unicast(p, node, head, input);
}

uint32_t router_route(const struct router *r, flit_t head, int input)
{
	return route_of(r->params, r->node, head, input);
}

static inline flit_t fifo_head(const struct router *r, int i)
{
	return r->fifo[i * r->depth + r->in[i].rd_ptr];
}

/* 10. The free slot behind input i's last entry, where an arriving flit is written. */
static inline __attribute__((always_inline)) flit_t *fifo_tail(struct router *r, int i)
{
	int wr = r->in[i].rd_ptr + r->in[i].count;

	if (wr >= r->depth)
		wr -= r->depth;
	return &r->fifo[i * r->depth + wr];
}

/* The read pointer past entry rd, whose flit leaves (the FIFO is a ring of depth). */
static inline __attribute__((always_inline)) uint8_t fifo_next(const struct router *r, int rd)
{
	return (uint8_t)(rd + 1 == r->depth ? 0 : rd + 1);
}

/* What the crossbar does in one cycle: 6. move, 7. crossbar, 9. tails. */
struct xbar {
	uint32_t move;		/* inputs whose head-of-line flit leaves */
	uint32_t out_valid;	/* outputs that send */
	uint32_t release;	/* inputs whose tail leaves */
	/* V > 1 only (section 12, step 6b): the eligible inputs, for switch allocation. */
	uint32_t eligible;
	uint32_t outs[ROUTER_MAX_IO];
	flit_t flit[ROUTER_MAX_IO];
};

/* 6. Input i moves f to every output of outs; 7. crossbar. */
static inline void move(struct router *r, struct xbar *x, int i, flit_t f, uint32_t outs)
{
	x->move |= 1u << i;
	x->out_valid |= outs;
	/* 7. out_flit_d = out_flit_q loaded in place (struct router_output). */
	for (uint32_t o = outs; o; o &= o - 1)
		r->out[__builtin_ctz(o)].flit_q = f;
	/* 9. The tail gives the outputs back. */
	if (flit_is_tail(f))
		x->release |= 1u << i;
}

/*
 * 6. Input i may move its head-of-line flit f to every output of outs if every one
 * of them is ready (lockstep replication).  With V = 1 no two inputs share a link,
 * so it moves; with V > 1 switch allocation decides (switch_allocate()).
 */
static inline void send(struct router *r, struct xbar *x, int i, flit_t f, uint32_t outs,
			uint32_t ready)
{
	if (outs == 0 || (outs & ~ready))
		return;
	if (r->n_vc > 1) {
		x->eligible |= 1u << i;
		x->outs[i] = outs;
		x->flit[i] = f;
		return;
	}
	move(r, x, i, f, outs);
}

/* The physical link ports of a set of virtual outputs (section 12). */
static uint32_t physical_links(const struct router *r, uint32_t outs)
{
	uint32_t m = 0;

	for (outs &= (1u << r->n_link) - 1; outs; outs &= outs - 1)
		m |= 1u << (__builtin_ctz(outs) / r->n_vc);
	return m;
}

/*
 * 6b. Switch allocation (V > 1): one flit per link per cycle.  The eligible inputs,
 * in the order sw_rr_q, sw_rr_q + 1, ... mod NIn, each move if none of their links is
 * used yet this cycle, on all of them at once (MR), or not at all.  The first input
 * that lost a link is scanned first in the next cycle (sw_rr_d), where it moves: an
 * eligible input stays eligible, and the pointer never passes it, so it waits fewer
 * than NIn cycles, and two inputs that share a link take turns.
 */
static __attribute__((noinline)) void switch_allocate(struct router *r, struct xbar *x)
{
	int rr = r->sw_rr_q;
	uint32_t order[2] = { x->eligible & (~0u << rr), x->eligible & ~(~0u << rr) };
	uint32_t used = 0;
	bool lost = false;

	for (int half = 0; half < 2; half++)
		for (uint32_t m = order[half]; m; m &= m - 1) {
			int i = __builtin_ctz(m);
			uint32_t links = physical_links(r, x->outs[i]);

			if (links & used) {
				if (!lost)
					r->sw_rr_d = (uint8_t)i;
				lost = true;
				continue;
			}
			used |= links;
			move(r, x, i, x->flit[i], x->outs[i]);
		}
}

/*
 * 5. A broadcast head granted a set with a link output pays the replication cost
 * T_r: the router replicates the message and forwards it.
 */
static inline bool charged(const struct router *r, flit_t head, uint32_t req)
{
	uint32_t links = (1u << r->n_link) - 1;

	return r->params->replication_cost > 0 && (flit_payload(head) & 1u) == HDR_B &&
	       (req & links) != 0;
}

/*
 * Heads that wait for outputs (the inputs in heads, their flits in hol): 3. route
 * computation; 4. all-or-nothing allocation in rotating priority from
 * rr = cycle mod NIn: a head gets its whole output set in one cycle, or nothing
 * (visiting the requesting inputs at and above rr, then those below, is the order
 * rr, rr+1, ... mod NIn); 5. cur = req for a granted head, which may move at once.
 *
 * A head that is not granted stays at the head of its input, so its route is
 * computed once and kept in in[i].req until the grant (bit i of routed).
 * Out of line: a head starts a message once per hop, the other flits stream.
 */
static __attribute__((noinline)) void
start_messages(struct router *r, struct xbar *x, uint32_t heads, const flit_t *hol,
	       uint32_t ready, uint64_t cycle)
{
	uint32_t order[2] = { heads, 0 };
	uint32_t taken = r->owned_q, granted = 0, conflicted = 0;

	/* The rotation orders two heads or more; one alone needs no division. */
	if (heads & (heads - 1)) {
		int rr = (int)(cycle % (uint64_t)r->n_in);

		order[0] = heads & (~0u << rr);
		order[1] = heads & ~(~0u << rr);
	}

	for (uint32_t m = heads & ~r->routed; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->in[i].req = router_route(r, hol[i], i);
	}
	r->routed |= heads;
	for (int half = 0; half < 2; half++)
		for (uint32_t m = order[half]; m; m &= m - 1) {
			int i = __builtin_ctz(m);
			uint32_t req = r->in[i].req;

			if (req & taken) {
				conflicted |= 1u << i;
				continue;
			}
			taken |= req;
			granted |= 1u << i;
			r->grant_req[i] = req;	/* for commit_routes(): the head takes req's place */
			r->in[i].head = hol[i];
			if (charged(r, hol[i], req)) {
				/* 5. Held from the grant on: no move in this cycle (step 6). */
				r->charge_d |= 1u << i;
				r->hold_busy = true;
				continue;
			}
			send(r, x, i, hol[i], req, ready);
		}
	r->routed &= ~granted;
	r->grant_d = granted;
	r->conflict_now = conflicted != 0;
	if (conflicted)
		r->conflict_cycles++;
}

/*
 * 10. FIFO: an arriving flit that was not bypassed is written now into the free
 * slot behind the last entry, which nothing reads in this cycle (the head of line
 * was read before); commit makes it count.  So commit needs no input of this
 * cycle, and the inputs are consumed in router_eval().
 */
static __attribute__((noinline)) void stage_pushes(struct router *r, uint32_t push, int slot)
{
	for (uint32_t m = push; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		*fifo_tail(r, i) = r->in[i].flit[slot];
	}
}

void router_eval(struct router *r, uint64_t cycle)
{
	int slot = cycle & 1;		/* the wires of this cycle */
	uint32_t in_valid = r->in_valid[slot], credit_in = router_credit_in(r, slot);
	uint32_t nonempty = r->nonempty;
	uint32_t ready, heads = 0, push, m;
	struct xbar x;
	flit_t hol[ROUTER_MAX_IO];

	x.move = x.out_valid = x.release = x.eligible = 0;
	/* 2. An output is ready if it has a credit, or one arrives this cycle. */
	ready = router_ready(r, credit_in);

	/*
	 * 1. Head of line: the FIFO's head, or the arriving flit if the FIFO is empty.
	 * An input with a message in progress (route_q != 0) takes no part in the
	 * allocation, so it can move at once (5: cur = route_q); a head with no route
	 * yet waits for the allocation.
	 */
	for (m = nonempty | in_valid; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		flit_t f = (nonempty >> i & 1) ? fifo_head(r, i) : r->in[i].flit[slot];
		uint32_t outs = r->in[i].route_q;

		if (outs) {
			/* 6. An input in its replication hold does not move. */
			if (!r->in[i].hold_q)
				send(r, &x, i, f, outs, ready);
		} else if (flit_is_head(f)) {
			hol[i] = f;
			heads |= 1u << i;
		}
	}
	r->grant_d = 0;
	r->conflict_now = false;
	if (heads)
		start_messages(r, &x, heads, hol, ready, cycle);
	if (x.eligible)
		switch_allocate(r, &x);
	r->move_d = x.move;
	r->out_valid_d = x.out_valid;
	r->release_d = x.release;

	/* 10. The arriving flit is stored unless it was bypassed. */
	push = in_valid & ~(x.move & ~nonempty);
	r->push_d = push;
	if (push)
		stage_pushes(r, push, slot);
	r->credit_arrived_d = credit_in;
	r->in_valid[slot] = 0;
	r->credit_in[slot] = 0;
}

/*
 * The parts of the clock edge that change only at message boundaries or when a
 * flow is blocked are kept out of line, so that the streaming path stays short.
 */

/* 9. A tail that left its input frees the outputs of its message. */
__attribute__((noinline)) void release_routes(struct router *r, uint32_t release)
{
	for (uint32_t m = release; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->owned_q &= ~r->in[i].route_q;
		r->in[i].route_q = 0;
	}
	r->owning &= ~release;
}

/*
 * 9. release_routes() of one tail (release: its bit alone), the steady cycle's call
 * on the hypercube: without the loop.  It clobbers the registers release_routes()
 * does (r8 too): link-time register allocation sees a callee's clobbers, and with
 * fewer the network loop's allocation changed (+3 instructions a flit-hop).
 */
__attribute__((noinline)) void router_release_one(struct router *r, uint32_t release)
{
	int i = __builtin_ctz(release);

	release_route(r, i, r->in[i].route_q);
#if defined(__x86_64__)
	__asm__ volatile("" ::: "r8");	/* (a register name of x86-64 only) */
#endif
}

/* 9. Route state: a granted head takes its outputs, a tail that left frees them. */
static __attribute__((noinline)) void commit_routes(struct router *r)
{
	uint32_t m;

	for (m = r->grant_d; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		uint32_t req = r->grant_req[i];

		r->in[i].route_q = req;
		r->owned_q |= req;
		r->owning |= (uint32_t)(req != 0) << i;
	}
	release_routes(r, r->release_d);
}

/*
 * 12. Replication hold: the holds count down; a head charged this cycle waits T_r - 1
 * more cycles.  (A charged input held nothing before: it was waiting for a grant.)
 */
static __attribute__((noinline)) void commit_holds(struct router *r)
{
	uint32_t m;

	for (m = r->holding; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		if (--r->in[i].hold_q == 0)
			r->holding &= ~(1u << i);
	}
	for (m = r->charge_d; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->in[i].hold_q = (uint8_t)(r->params->replication_cost - 1);
		if (r->in[i].hold_q)
			r->holding |= 1u << i;
	}
	r->charge_d = 0;
	r->hold_busy = r->holding != 0;
}

/* 10. FIFO pops and pushes (a pushed flit is already in its slot). */
static __attribute__((noinline)) void commit_fifos(struct router *r, uint32_t popped)
{
	uint32_t m;

	for (m = popped; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		r->in[i].rd_ptr = fifo_next(r, r->in[i].rd_ptr);
		r->in[i].count--;
	}
	for (m = r->push_d; m; m &= m - 1)
		r->in[__builtin_ctz(m)].count++;
	for (m = popped & ~r->push_d; m; m &= m - 1) {
		int i = __builtin_ctz(m);

		if (r->in[i].count == 0)
			r->nonempty &= ~(1u << i);
	}
	r->nonempty |= r->push_d;
}

/*
 * 8. The link outputs of this cycle's credit_in: the FIFO downstream shrank by one
 * (one more free slot) or, where taken has the bit, grew by one (struct router).
 */
__attribute__((noinline)) void router_link_deltas(struct router *r, int slot)
{
	uint32_t links = r->credit_in[slot] & r->link_mask, taken = r->taken[slot];
	uint32_t two = 0, one = 0;	/* the outputs of links left with >= 2, 1 free slots */

	/* The wires consumed first: fewer values live across the loop (no saved register). */
	r->credit_in[slot] &= ~links;
	r->taken[slot] = 0;
	for (uint32_t m = links; m; m &= m - 1) {
		int o = __builtin_ctz(m);
		int free = r->credits_q[o] + 1 - (int)(taken >> o & 1) * 2;

		r->credits_q[o] = (uint8_t)free;
		two |= (uint32_t)(free >= 2) << o;
		one |= (uint32_t)(free == 1) << o;
	}
	r->has_credit_q = (r->has_credit_q & ~links) | two;
	r->credit1_q = (r->credit1_q & ~links) | one;
}

/*
 * 8. Credits of the ejection outputs: minus one per flit sent, plus one per credit
 * returned.  Only outputs that did one of the two change.
 */
static inline __attribute__((always_inline)) void
count_credits(struct router *r, uint32_t sent, uint32_t arrived)
{
	uint32_t m;

	for (m = sent & ~arrived; m; m &= m - 1) {
		int o = __builtin_ctz(m);

		if (--r->credits_q[o] == 0)
			r->has_credit_q &= ~(1u << o);
	}
	for (m = arrived & ~sent; m; m &= m - 1) {
		int o = __builtin_ctz(m);

		r->credits_q[o]++;
		r->has_credit_q |= 1u << o;
	}
}

__attribute__((noinline)) void commit_credits(struct router *r, uint32_t sent, uint32_t arrived)
{
	count_credits(r, sent, arrived);
}

/*
 * commit_credits() for router_join_steady(), which has nothing left to do after it
 * but return true: reached by a tail call.
 */
static __attribute__((noinline)) bool
join_credits(struct router *r, uint32_t sent, uint32_t arrived)
{
	count_credits(r, sent, arrived);
	return true;
}

/*
 * 8. The link inputs' FIFOs that changed this cycle, for drive_wires() to tell
 * upstream (struct router): one that stored a flit and gave none up grew, one that
 * gave one up and stored none shrank.
 */
static inline __attribute__((always_inline)) void
note_fifo_changes(struct router *r, uint32_t push, uint32_t popped)
{
	r->grew_d = push & ~popped & r->link_mask;
	r->shrank_d = popped & ~push & r->link_mask;
}

/*
 * The clock edge.  A message streaming through at full rate changes none of route
 * state, FIFOs or credit counts (a flit in and out, a credit back for each flit
 * sent), so each of those is visited only when it changes.
 */
void router_commit(struct router *r)
{
	uint32_t popped = r->move_d & r->nonempty;
	uint32_t m;

	if (r->grant_d | r->release_d)
		commit_routes(r);
	if (popped | r->push_d)
		commit_fifos(r, popped);
	note_fifo_changes(r, r->push_d, popped);
	commit_sink_credits(r, r->out_valid_d, r->credit_arrived_d);
	if (r->hold_busy)
		commit_holds(r);

	/*
	 * Output registers: out_flit loads only when a flit is sent, and router_eval()
	 * has loaded it (struct router_output).  With V > 1 a link's register is one for
	 * its V virtual outputs (section 12): every one of them shows it; out_vc_q loads
	 * with it.
	 */
	if (r->n_vc > 1) {
		for (m = r->out_valid_d & ((1u << r->n_link) - 1); m; m &= m - 1) {
			int o = __builtin_ctz(m);

			for (int c = o - o % r->n_vc, e = c + r->n_vc; c < e; c++)
				r->out[c].flit_q = r->out[o].flit_q;
			r->out_vc_q[o / r->n_vc] = (uint8_t)(o % r->n_vc);
		}
		/*
		 * sw_rr_d equals sw_rr_q after every commit, so router_eval() need not
		 * copy it (switch_allocate() alone changes it), and with V = 1 neither is
		 * touched: they are off the cache lines a streaming router uses.
		 */
		r->sw_rr_q = r->sw_rr_d;
	}
	r->out_valid_q = r->out_valid_d;
	r->credit_out_q = r->move_d;
	r->steady = false;
}

/*
 * 4, 5. The one head f at input i, whose route is req, with no other head to order
 * it against: granted iff none of its outputs is owned, it takes them.  Not granted,
 * charged T_r (T_r > 0) or with no output at all: false, its route kept as
 * start_messages() keeps a waiting head's, and the full cycle decides.  In three
 * pieces, because router_join_steady() decides between the test and the grant.
 */
static inline __attribute__((always_inline)) bool
alone_refused(const struct router *r, uint32_t req)
{
	return req == 0 || (req & r->owned_q) || r->params->replication_cost > 0;
}

/* A head not granted at once keeps its route, as a waiting head's (routed). */
static inline __attribute__((always_inline)) void
keep_route(struct router *r, int i, uint32_t req)
{
	r->in[i].req = req;
	r->routed |= 1u << i;
}

/*
 * 5. The granted head f at input i takes the outputs of its route req
 * (take_outputs(); take_route() where the head is stored already).
 */
static inline __attribute__((always_inline)) void
take_route(struct router *r, int i, uint32_t req)
{
	r->in[i].route_q = req;
	r->owned_q |= req;
	/*
	 * owning read again (ONCE()), not kept from the join's first test: kept, it
	 * cost the join's head a saved register (0.16 instructions a flit-hop on the
	 * exchange, 0.13 on the traffic).
	 */
	ONCE(r->owning) |= 1u << i;
#ifdef WORMCAST_DEBUG
	r->stream_grant = 1u << i;	/* router_stream() shows it to network_sanity() */
#endif
}

static inline __attribute__((always_inline)) void
take_outputs(struct router *r, int i, flit_t f, uint32_t req)
{
	r->in[i].head = f;
	take_route(r, i, req);
}

static inline __attribute__((always_inline)) bool
grant_alone(struct router *r, int i, flit_t f, uint32_t req)
{
	if (alone_refused(r, req)) {
		keep_route(r, i, req);
		return false;
	}
	take_outputs(r, i, f, req);
	return true;
}

/* router_start_head() for a broadcast head or virtual channels: the trees' route, a call. */
static __attribute__((noinline)) bool start_head_tree_or_vc(struct router *r, int i, flit_t f)
{
	return grant_alone(r, i, f, route_of_tree_or_vc(r->params, r->node, f, i));
}

/*
 * router_start_head() (router.h): the one head arriving, at input i with an empty
 * FIFO: 1. a head; 3. its route; 4, 5. grant_alone().
 */
__attribute__((noinline, flatten)) bool router_start_head(struct router *r, uint64_t cycle)
{
	int slot = cycle & 1;
	uint32_t head = r->in_valid[slot] & ~r->owning;
	int i;
	flit_t f;

	/*
	 * Nothing buffered at the head's input: its callers check it (router.h).  A head
	 * routed already (routed) was refused this cycle by router_join_steady().
	 */
	if (!head || (head & (head - 1)) || r->hold_busy || (head & r->routed))
		return false;
	i = __builtin_ctz(head);
	f = r->in[i].flit[slot];
	if (!flit_is_head(f))
		return false;	/* never: a flit at an input without a message is a head */
	/*
	 * The trees' route is a call, and a tail call: were it made from here, every
	 * head would pay the registers saved across it, unicast ones too (16
	 * instructions a head-hop on the exchange).  A unicast's route is inlined: the
	 * call with the registers it saved cost 15 instructions a head-hop (direx);
	 * flatten takes unicast_next_port() in too (link-time, from topology.c): its
	 * call was about 3 instructions per flit-hop on the exchange and the traffic
	 * (docs/performance-history.md, seventh session (engine), steps 2 and 8).
	 */
	if (!route_is_unicast(r->params, f))
		return start_head_tree_or_vc(r, i, f);
	return grant_alone(r, i, f, route_unicast(r->params, r->node, f, i));
}

/*
 * The join's end (router_join_steady(), router.h), once the route of its one extra
 * input i (req: a head's, or a resuming worm's; 0 if none) is known and credit_in
 * holds no link output's change: every output of the routes ready, the head granted,
 * the registers router_stream() would load loaded, and the ejection outputs' credits
 * counted last, by a tail call, so that nothing is live across a call and the
 * common joins save no register (the join saved six, 19 instructions a call).
 */
static inline __attribute__((always_inline)) bool
join_end(struct router *r, uint32_t head, int i, uint32_t req, uint32_t credit_in)
{
	uint32_t outs = (r->out_valid_q & r->owned_q) | req, sent;
	/*
	 * router_ready() of outs: an output sent to last cycle (out_valid_q) is ready
	 * with its credits (has_credit_q) or one back (credit_in); only a new route
	 * (req) may add one with a single free slot (credit1_q & ~out_valid_q).
	 */
	uint32_t ready = r->has_credit_q | credit_in;

	if (req)
		ready |= r->credit1_q & ~r->out_valid_q;
	if (outs & ~ready)
		return false;
	if (head)
		take_route(r, i, req);	/* its head stored by the caller */
	r->steady = (outs & r->credit1_q) ? 0 : ROUTER_STEADY;
	r->out_valid_q = outs;
	/*
	 * link_mask read again (ONCE()): kept in a register from the test at the top
	 * of router_join_steady(), it cost every join four saved registers (1.5
	 * instructions a flit-hop on the exchange and the traffic).
	 */
	sent = outs & ~ONCE(r->link_mask);
	if (sent ^ credit_in)
		return join_credits(r, sent, credit_in);
	return true;
}

/*
 * A head the join routes with a call (a B header; route_kind ROUTER_ROUTE_CALL: virtual
 * channels, T_r > 0, a hypercube in descending order): route_of(), then the same end.
 * Apart, so that the unicast heads routed inline keep no register across a call.
 */
static __attribute__((noinline, flatten)) bool
join_head_routed(struct router *r, uint32_t head, int i, flit_t f, uint32_t credit_in)
{
	uint32_t req = route_of(r->params, r->node, f, i);

	if (alone_refused(r, req)) {
		keep_route(r, i, req);
		return false;
	}
	r->in[i].head = f;
	return join_end(r, head, i, req, credit_in);
}

/*
 * The ejection output of a head at the input of bit head, for the join's inline route
 * (eject_mul, router.h): all-port, x = head & link_mask times 1 << n_link; one-port
 * (eject_mul 1), x + link_mask carries into bit n_link alone where x is not 0; adding
 * link_mask and clearing its bits changes no all-port result.  0 at an injection input.
 */
static inline __attribute__((always_inline)) uint32_t
router_join_eject(const struct router *r, uint32_t head)
{
	uint32_t links = r->link_mask;

	return ((head & links) * r->eject_mul + links) & ~links;
}

/*
 * The one head at input i of a join (router_join_steady()): 1, 3, 4 as grant_alone(),
 * a unicast's route inline on the hypercube and the mesh (router_unicast_port(), from
 * the router's own constants: the exchange's and the traffic's heads), every other
 * route by join_head_routed().
 */
static inline __attribute__((always_inline)) bool
join_head(struct router *r, int slot, uint32_t head, int i, uint32_t credit_in)
{
	flit_t f = r->in[i].flit[slot];
	uint64_t payload = flit_payload(f);
	uint32_t req;

	if (!flit_is_head(f))
		return false;	/* never: a flit at an input without a message is a head */
	if (r->route_kind == ROUTER_ROUTE_CALL || hdr_type_of(payload) == HDR_B)
		return join_head_routed(r, head, i, f, credit_in);
	/*
	 * take_outputs()' store of the message's head, early, so that f is not live
	 * across the rest: in[i].head is read only while in[i].route_q is set
	 * (network_router_state()), and a head refused here is stored again at its grant.
	 */
	r->in[i].head = f;
	/* route_unicast() by route_kind */
	req = unicast_route(payload, router_unicast_port(r, (int)hdr_address_of(payload)),
			    router_join_eject(r, head));
	if (!req || (req & r->owned_q)) {	/* alone_refused(): T_r = 0 */
		keep_route(r, i, req);
		return false;
	}
	return join_end(r, head, i, req, credit_in);
}

static __attribute__((noinline)) bool join_deltas(struct router *r, int slot);

/*
 * router_join_steady() and router_join_streams() (router.h): out of line, so that the
 * flattened network loop keeps its registers (inlined there, the broadcast's count
 * swung by +1.1 a flit-hop).  A leaf but for tail calls: the link outputs' changes
 * (join_deltas()), a head routed by a call (join_head_routed()) and the ejection
 * credits (join_credits()) are each reached by a jump with nothing left to do after
 * them.  streams: router_streams() holds (router_join_streams()), so nothing is
 * held and no head arrives.
 */
static inline __attribute__((always_inline)) bool join(struct router *r, int slot, bool streams)
{
	uint32_t in_valid = r->in_valid[slot], credit_in = r->credit_in[slot];
	uint32_t on = r->credit_out_q & r->owning;	/* the worms that stream on */
	uint32_t extra = in_valid & ~on;	/* one more input: a head, or a worm resuming */
	int i;

	/*
	 * No flit at all (in_valid 0) only where something is held: router_join_steady()
	 * is called with nothing buffered where router_streams() failed (network.c's
	 * step_router()), so hold_busy is the test of both.
	 */
	if ((on & ~in_valid) || (extra & (extra - 1)) || (!streams && r->hold_busy))
		return false;
	if (credit_in & r->link_mask)
		return join_deltas(r, slot);
	/*
	 * credit_out_q loaded here, whatever the join decides: every other kind of
	 * cycle loads it before anything reads it (router_stream(), router_commit()),
	 * so in_valid is not live across the route and the ready test (a saved
	 * register fewer, 0.5 instructions a flit-hop on the exchange).  Stored alone
	 * (ONCE()): GCC paired it with out_valid_q's store into one 64-bit store, whose
	 * halves the steady cycle's loads right after could not take by forwarding
	 * (perf: the exchange 3 % slower with 8 fewer instructions a flit-hop).
	 */
	ONCE(r->credit_out_q) = in_valid;
	if (!extra)
		return join_end(r, 0, 0, 0, credit_in);	/* tails left */
	i = __builtin_ctz(extra);
	if (!streams && (extra & ~r->owning))
		return join_head(r, slot, extra, i, credit_in);
	return join_end(r, 0, i, r->in[i].route_q, credit_in);	/* a worm resumes */
}

__attribute__((noinline, flatten)) bool router_join_steady(struct router *r, int slot)
{
	return join(r, slot, false);
}

__attribute__((noinline, flatten)) bool router_join_streams(struct router *r, int slot)
{
	return join(r, slot, true);
}

/*
 * 8. A FIFO downstream of a link output grew or shrank: its change applied
 * (router_credit_in()), the join tried again (its first test again, rare).
 */
static __attribute__((noinline)) bool join_deltas(struct router *r, int slot)
{
	router_link_deltas(r, slot);
	return router_join_steady(r, slot);
}

/*
 * The end of both streaming cycles (router_stream(), router_stream_buffered()): the
 * output registers load the flits sent and the credit registers the inputs that moved,
 * the arrivals of this cycle's slot are consumed, and a debug build leaves the
 * next-state fields network_sanity() reads, as router_commit() would.  The grant shown
 * is router_start_head()'s: non-zero only in the router_stream() that follows it.
 * router_quiet() writes the same fields itself: through this helper it would also
 * clear in_valid, already 0 there, and in the inlined network loop that cost 1.7 to
 * 3.5 instructions per flit-hop (callgrind, the three counted workloads of
 * docs/performance.md's benchmark; measured in 37e5fc9).
 */
static inline __attribute__((always_inline)) void
stream_commit(struct router *r, int slot, uint32_t move, uint32_t push, uint32_t out_valid,
	      uint32_t credit_in, uint32_t release, bool steady)
{
#ifdef WORMCAST_DEBUG
	r->move_d = move;
	r->push_d = push;
	r->out_valid_d = out_valid;
	r->credit_arrived_d = credit_in;
	r->release_d = release;
	r->grant_d = r->stream_grant;
	r->stream_grant = 0;
#else
	(void)push;
	(void)credit_in;
	(void)release;
#endif
	r->out_valid_q = out_valid;
	r->credit_out_q = move;
	r->steady = steady;
	r->in_valid[slot] = 0;
	r->credit_in[slot] = 0;
}

/*
 * The streaming cycle (router.h): the steps of router_eval() and router_commit()
 * that do something when no head waits, no FIFO holds a flit and no input is held.
 * 1. Every flit arriving is the head of line of an input with a message in progress
 * (its route_q, 5: cur = route_q); 6. it moves if all of route_q is ready, 7. into
 * the output registers, 9. a tail frees its outputs; 10. a flit that did not move
 * is stored in its empty FIFO; 8. credits change only where a flit was sent without
 * a credit coming back, or the reverse.
 */
void router_stream(struct router *r, uint64_t cycle)
{
	int slot = cycle & 1;
	uint32_t in_valid = r->in_valid[slot], credit_in = router_credit_in(r, slot);
	uint32_t ready = router_ready(r, credit_in);
	uint32_t move = 0, out_valid = 0, release = 0, push;

	for (uint32_t m = in_valid; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		flit_t f = r->in[i].flit[slot];
		uint32_t outs = r->in[i].route_q;

		if (outs & ~ready)
			continue;
		move |= 1u << i;
		out_valid |= outs;
		for (uint32_t o = outs; o; o &= o - 1)
			r->out[__builtin_ctz(o)].flit_q = f;
		if (flit_is_tail(f))
			release |= 1u << i;
	}
	push = in_valid & ~move;
	if (push) {
		/* An empty FIFO: the flit goes into the slot at its read pointer. */
		for (uint32_t m = push; m; m &= m - 1) {
			int i = __builtin_ctz(m);

			r->fifo[i * r->depth + r->in[i].rd_ptr] = r->in[i].flit[slot];
			r->in[i].count = 1;
		}
		r->nonempty = push;
	}
	note_fifo_changes(r, push, 0);	/* (a FIFO that was empty and takes a flit grew) */
	if (release)
		release_routes(r, release);
	commit_sink_credits(r, out_valid, credit_in);
	/*
	 * Every flit moved (push == 0), none was a tail, nothing is buffered, and every
	 * link output sent to has two free slots, so stays ready while none of its FIFOs
	 * downstream changes: the steady cycle may follow (struct router).
	 */
	stream_commit(r, slot, move, push, out_valid, credit_in, release,
		      !(push | release | (out_valid & r->credit1_q)));
}

/*
 * The quiet cycle (router.h): no flit buffered or arriving, so router_stream() would
 * move nothing, push nothing and release nothing; 8. the credits that arrive add one
 * each (no flit is sent).  Every output then has a credit.
 */
void router_quiet(struct router *r, uint64_t cycle)
{
	int slot = cycle & 1;
	uint32_t credit_in = router_credit_in(r, slot);

	for (uint32_t m = credit_in; m; m &= m - 1)
		r->credits_q[__builtin_ctz(m)]++;
	r->has_credit_q |= credit_in;
#ifdef WORMCAST_DEBUG
	r->move_d = 0;
	r->push_d = 0;
	r->out_valid_d = 0;
	r->credit_arrived_d = credit_in;
	r->release_d = 0;
	r->grant_d = 0;
#endif
	r->out_valid_q = 0;
	r->credit_out_q = 0;
	r->steady = false;
	r->credit_in[slot] = 0;
}

/* 10. The flit arriving at input i, which does not send, is stored behind its last entry. */
static inline __attribute__((always_inline)) void fifo_store(struct router *r, int i, int slot)
{
	*fifo_tail(r, i) = r->in[i].flit[slot];
	r->in[i].count++;
}

/*
 * The streaming cycle of a router with flits buffered (router.h): every input with
 * a flit at its head of line (1: buffered or arriving) has a message in progress and
 * none is held, so no head waits.  6, 7, 9 as in router_stream() with the FIFO's
 * head where there is one; 10. an arriving flit that was not bypassed is written
 * behind the last entry, and a FIFO that sent pops, each input visited once (a
 * waiting head's input only stores); 8. credits.  False, having changed nothing,
 * where a head waits or an input is held.
 */
__attribute__((noinline)) bool router_stream_buffered(struct router *r, uint64_t cycle)
{
	int slot = cycle & 1;
	uint32_t in_valid = r->in_valid[slot], credit_in;
	uint32_t nonempty = r->nonempty;
	uint32_t ready;
	uint32_t move = 0, out_valid = 0, release = 0, push, popped, m;

	uint32_t waiting = (nonempty | in_valid) & ~r->owning, queued = nonempty & ~r->owning;
	bool conflict = false;

	if (r->hold_busy)
		return false;
	if (queued) {
		/*
		 * Heads wait in their FIFOs, routed, and every one of them wants an output
		 * that is owned: 4. none is granted (a grant takes only free outputs, so the
		 * rotation orders nothing), each conflicts, and the others stream.
		 */
		if ((waiting & ~nonempty) || (queued & ~r->routed))
			return false;
		for (m = queued; m; m &= m - 1)
			if (!(r->in[__builtin_ctz(m)].req & r->owned_q))
				return false;
		conflict = true;
		r->conflict_cycles++;
		/* Nothing returns false past here: what arrives behind a waiting head is stored. */
		for (m = queued & in_valid; m; m &= m - 1)
			fifo_store(r, __builtin_ctz(m), slot);
	} else if (waiting && !router_start_head(r, cycle)) {
		/* One head arriving at an empty FIFO and granted at once streams with the others. */
		return false;
	}
	r->conflict_now = conflict;
	credit_in = router_credit_in(r, slot);
	ready = router_ready(r, credit_in);
	for (m = (nonempty | in_valid) & r->owning; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		struct router_input *in = &r->in[i];
		uint32_t outs = in->route_q;
		flit_t f;

		if (outs & ~ready) {
			if (in_valid >> i & 1)
				fifo_store(r, i, slot);
			continue;
		}
		move |= 1u << i;
		out_valid |= outs;
		if (nonempty >> i & 1) {
			/*
			 * 10. The FIFO sends its head of line and takes what arrives behind
			 * its last entry (rd_ptr + count before the pop), in this one visit:
			 * a loop over the inputs that stored and another over those that
			 * popped, after this one, cost 2.4 instructions a flit-hop on the
			 * traffic (207.31 -> 204.90, CPU no worse; docs/performance-history.md,
			 * tenth session (skel), round 2).
			 */
			/*
			 * fifo_tail() and fifo_next() with rd and the FIFO's base at hand:
			 * through fifo_head()/fifo_tail() the loop counted 0.4 to 0.7 more
			 * instructions a flit-hop on the traffic.
			 */
			flit_t *q = r->fifo + i * r->depth;
			int rd = in->rd_ptr, wr = rd + in->count;

			f = q[rd];
			if (in_valid >> i & 1) {
				if (wr >= r->depth)
					wr -= r->depth;
				q[wr] = in->flit[slot];
			} else if (--in->count == 0) {
				r->nonempty &= ~(1u << i);
			}
			in->rd_ptr = fifo_next(r, rd);
		} else {
			f = in->flit[slot];	/* bypassed */
		}
		for (uint32_t o = outs; o; o &= o - 1)
			r->out[__builtin_ctz(o)].flit_q = f;
		if (flit_is_tail(f)) {
			release |= 1u << i;
			release_route(r, i, outs);
		}
	}
	push = in_valid & ~(move & ~nonempty);
	popped = move & nonempty;
	r->nonempty |= push;
	note_fifo_changes(r, push, popped);
	commit_sink_credits(r, out_valid, credit_in);
	stream_commit(r, slot, move, push, out_valid, credit_in, release, false);
	return true;
}

int router_buffered(const struct router *r)
{
	int n = 0;

	for (int i = 0; i < r->n_in; i++)
		n += r->in[i].count;
	return n;
}
