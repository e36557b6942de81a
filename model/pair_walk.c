/* SPDX-License-Identifier: MIT */
/*
 * pair_walk.c - the network's cycle as one walk of the granted input->output pairs
 * (pair_walk.h).  Three passes a cycle:
 *
 * 1. allocation (section 7, steps 3 to 5), only at the routers with a head at an
 *    input's front: in rotating priority from rr = cycle mod NIn, each head takes its
 *    whole route (route_of()) if none of its link outputs is owned, or waits.  A
 *    granted head becomes a pair;
 * 2. the walk: every pair whose input shows a flit and whose outputs are ready moves
 *    it (section 7, step 6), a tail ends its pair and frees its outputs (step 9);
 * 3. the walk of the inputs whose pair ejects, by their bits: in node order, then
 *    channel order, which is the order of the cycle's ejections (section 9), so the
 *    walk lists them (with a fan's, marked by input).  With no fan it runs before
 *    step 2, with no push stamp read (pair_walk_step()).
 *
 * Why it is exact with the routers' two phases done in one pass: a push into a ring
 * is stamped with its cycle and is not seen downstream before the next one (the link
 * register), and a pop of this cycle is undone for the ready test upstream (the
 * credit it frees is on the wires of the next cycle).  So the order of the pairs does
 * not matter, and a pair is removed by moving the last one into its place.  (The
 * walk's lists are nonetheless walked in an order in which most visits need not read
 * the push stamp, since no flit can have been pushed into their inputs yet:
 * walk_pairs_as() says why.)
 *
 * Why it should be cheaper: the routers' loop (network.c) visits every busy router
 * every cycle, reads its masks, evaluates its ports and drives its wires and credits;
 * here a flit-hop is a pop, a ready test on a count and a push.  The thirteenth
 * session's prototype measured 70 to 82 instructions a flit-hop in the step against
 * network_step()'s 94 to 167 (docs/performance.md, "Thirteenth session (lean)").  The
 * step was 72 to 121 against the routers' 94 to 148 at the fifteenth session (above
 * them on the broadcast only, where the fast-forward skips most cycles anyway:
 * model/pair_walk_ff.c), and about 54 on direx Q_8 after the sixteenth's (docs/
 * performance.md, "Where the model stands (sixteenth session)").
 */
#include "huge_pages.h"
#include "pair_walk_state.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pair_walk_covers(const struct router_params *p)
{
	const struct topology *t = p->topo;

	return !topology_wraps(t) && t->vcs == 1 && p->all_port && p->replication_cost == 0 &&
	       2 * t->ports <= 32;
}

static int log2_ceil(int v)
{
	int s = 0;

	while ((1 << s) < v)
		s++;
	return s;
}

struct pair_walk *pair_walk_create(const struct router_params *p, struct router *routers)
{
	struct pair_walk *w = calloc(1, sizeof(*w));
	const struct topology *t = p->topo;
	size_t inputs, cap_prev = 0;

	if (!w)
		return NULL;
	w->params = p;
	w->routers = routers;
	w->route_kind = router_route_kind(p);
	w->nodes = t->nodes;
	w->ports = t->ports;
	w->n_in = 2 * t->ports;
	w->depth = p->buffer_depth;
	w->shift = log2_ceil(w->n_in);
	w->ring_shift = log2_ceil(w->depth);
	w->ring_mask = (1u << w->ring_shift) - 1;
	w->link_mask = (1u << w->ports) - 1;
	inputs = (size_t)w->nodes << w->shift;
	/*
	 * Each input on a line of its own (PW_RING_IN): calloc()'s zero pages, not
	 * aligned_alloc() and a memset of every page (pbcast Q_10: 2 million instructions).
	 */
	w->in_mem = calloc(inputs + 2, sizeof(*w->in));	/* + a spare: pair_walk_corrupt() */
	w->in = (struct pw_input *)(((uintptr_t)w->in_mem + 63) & ~(uintptr_t)63);
	huge_pages(w->in_mem, (inputs + 2) * sizeof(*w->in));
	if (w->ring_shift > PW_RING_IN_SHIFT)
		w->buf = calloc(inputs << w->ring_shift, sizeof(*w->buf));
	w->down = malloc(sizeof(*w->down) * (size_t)w->nodes * (size_t)w->ports);
	w->taken = calloc((size_t)w->nodes, sizeof(*w->taken));
	w->head = calloc(inputs, sizeof(*w->head));
	w->hwords = (w->nodes + 63) / 64;
	w->ejwords = (int)((inputs + 1 + 63) / 64);	/* (+ the spare) */
	for (int k = 0; k < 2; k++) {
		w->pend[k] = calloc((size_t)w->nodes, sizeof(*w->pend[k]));
		w->hact[k] = calloc((size_t)w->hwords, sizeof(*w->hact[k]));
		w->ej[k] = malloc(sizeof(*w->ej[k]) * (size_t)w->nodes * (size_t)w->ports);
		if (!w->pend[k] || !w->hact[k] || !w->ej[k])
			goto fail;
	}
	/* Each list's region holds every pair it can have: an input has one pair at most. */
	w->nlists = w->ports + 2;
	w->lists = calloc((size_t)w->nlists, sizeof(*w->lists));
	w->pairs = malloc(sizeof(*w->pairs) * (inputs + 2 * (size_t)w->nodes * (size_t)w->ports));
	w->fans = malloc(sizeof(*w->fans) * inputs);
	w->ejset = calloc((size_t)w->ejwords, sizeof(*w->ejset));
	w->ejsetsum = calloc((size_t)(w->ejwords + 63) / 64, sizeof(*w->ejsetsum));
	w->ejb = calloc((size_t)w->ejwords, sizeof(*w->ejb));
	w->ejsum = calloc((size_t)(w->ejwords + 63) / 64, sizeof(*w->ejsum));
	w->ejf = calloc(inputs, sizeof(*w->ejf));
	w->inj_credit = malloc(sizeof(*w->inj_credit) * (size_t)w->nodes * (size_t)w->ports);
	if (!w->in_mem || (w->ring_shift > PW_RING_IN_SHIFT && !w->buf) || !w->down ||
	    !w->taken || !w->head || !w->lists || !w->pairs || !w->fans || !w->ejset ||
	    !w->ejsetsum || !w->ejb || !w->ejsum || !w->ejf || !w->inj_credit)
		goto fail;
	for (int l = 0; l < w->nlists; l++) {
		size_t cap = l == pw_any_list(w) ? inputs
			     : l == pw_inj_list(w) ? (size_t)w->nodes * (size_t)w->ports
			     : (size_t)w->nodes;

		w->lists[l].p = l ? w->lists[l - 1].p + cap_prev : w->pairs;
		cap_prev = cap;
	}
	/* The lists' rules (struct pair_walk) as the grant's table: layers on the hypercube. */
	w->nfast = t->kind == TOPO_HYPERCUBE ? pw_any_list(w) : 0;
	for (int i = 0; i < w->n_in; i++) {	/* (n_in <= 32: pair_walk_covers()) */
		bool layered = w->nfast > 0, inj = i >= w->ports;

		w->list_of[0][i] = &w->lists[layered && inj ? pw_inj_list(w) : pw_any_list(w)];
		w->list_of[1][i] = &w->lists[!layered ? pw_any_list(w)
					     : inj ? pw_inj_list(w) : pw_layer(w, i)];
	}
	/* No push or pop yet: stamps that no cycle equals. */
	for (size_t k = 0; k < inputs; k++)
		w->in[k].push_cyc = w->in[k].pop_cyc = UINT64_MAX;
	for (int v = 0; v < w->nodes; v++)
		for (int o = 0; o < w->ports; o++) {
			int d = topology_neighbor(t, v, o);

			w->down[v * w->ports + o] =
				d < 0 ? -1 : (d << w->shift) | topology_peer_port(t, o);
		}
	return w;
fail:
	pair_walk_destroy(w);
	return NULL;
}

void pair_walk_destroy(struct pair_walk *w)
{
	if (!w)
		return;
	free(w->in_mem);
	free(w->buf);
	free(w->down);
	free(w->taken);
	free(w->head);
	for (int k = 0; k < 2; k++) {
		free(w->pend[k]);
		free(w->hact[k]);
		free(w->ej[k]);
	}
	free(w->lists);
	free(w->pairs);
	free(w->fans);
	free(w->ejset);
	free(w->ejsetsum);
	free(w->ejb);
	free(w->ejsum);
	free(w->ejf);
	free(w->inj_credit);
	free(w);
}

/*
 * Injection channel (node, channel) freed an entry in the last step (none before the
 * first: the stamp of no pop is UINT64_MAX, which is cycle 0 - 1).
 */
bool pair_walk_inj_credited(const struct pair_walk *w, int node, int channel)
{
	return w->cycle && w->in[(node << w->shift) | (w->ports + channel)].pop_cyc == w->cycle - 1;
}

/*
 * A granted head with several outputs (a B tree or path, R+IR) becomes a fan: out of
 * line, so that the one-output grant in allocate_as() keeps its locals in registers.
 */
static __attribute__((noinline)) void grant_fan(struct pair_walk *w, int node, int32_t xi,
						uint32_t req)
{
	uint32_t links = req & w->link_mask;
	struct pw_fan *g = &w->fans[w->nfans++];

	g->x = xi;
	g->node = node;
	g->obit = links;
	g->ej = (req & ~w->link_mask) != 0;
	g->ny = 0;
	for (uint32_t m = links; m; m &= m - 1)
		g->y[g->ny++] = w->down[node * w->ports + __builtin_ctz(m)];
}

/*
 * The route of head f at input i of node (section 8): a unicast inline where the
 * routers' join routes it inline (kind: the network's route_kind; router_cube_port(),
 * router_unicast_port_as()), every other by route_of().  The call cost about 66
 * instructions a head; inline, the step (cg6 under the pair walk, step_pair_walk()
 * inclusive) went from 155.1 to 149.9 a flit-hop on direx Q_8, from 153.6 to 147.4 on
 * uniform 8x8 (pbcast's B heads +0.5).  On the hypercube the router's line is not read
 * (router_cube_port() from the node alone); on the mesh the kind is the caller's
 * constant, not the router's byte (uniform 8x8: cg6 122.59 -> 121.42).
 */
static inline __attribute__((always_inline)) uint32_t
head_route(const struct pair_walk *w, int node, flit_t f, int i, const int kind)
{
	uint64_t payload = flit_payload(f);
	int dest, port;

	if (kind == ROUTER_ROUTE_CALL || hdr_type_of(payload) == HDR_B)
		return route_of(w->params, node, f, i);
	dest = (int)hdr_address_of(payload);
	if (kind == ROUTER_ROUTE_CUBE)
		port = router_cube_port(node, dest);
	else
		port = router_unicast_port_as(&w->routers[node], dest, kind);
	/* All-port: link input i ejects to output ports + i; an injection input to none. */
	return unicast_route(payload, port, i < w->ports ? 1u << (w->ports + i) : 0);
}

/*
 * 1. Allocation: the head at input i of node (section 7, steps 4 and 5), against the
 * outputs its router's pairs own (taken[node], updated): granted, it becomes a pair.
 * Returns 0 if granted, else the input's bit (to ask again next cycle), with *conflict
 * set if it waited for an owned output.
 */
static inline __attribute__((always_inline)) uint32_t
allocate_head(struct pair_walk *w, int node, int i, bool *conflict, const int shift,
	      const int rs, const int kind)
{
	const uint32_t lm = w->link_mask;
	const int32_t xi = (node << shift) | i;
	struct pw_input *const x = &w->in[xi];
	const flit_t f = rs <= PW_RING_IN_SHIFT ? x->ring[x->rd & ((1u << rs) - 1)]
						: w->buf[((size_t)xi << rs) + (x->rd & ((1u << rs) - 1))];
	uint32_t req = x->req;
	uint32_t tk = w->taken[node];
	bool link1 = false;
	int o1 = 0;

	/*
	 * On the hypercube an R head without ir not at its destination (every direx head
	 * but the last of its path) has one link o, the lowest dimension of node ^ dest,
	 * and no ejection (head_route()'s unicast_route()): granted, a one-link pair with
	 * no test of the route's shape.  Its list is list_of[1][i] with no test of o > i:
	 * at a link input i the head came from node ^ 1 << i, whose lowest dimension to
	 * dest was i, so node ^ dest has no bit at or below i (e-cube), and o > i; an
	 * injection input's two entries are the same list.  (pair_walk_sanity() checks a
	 * layer's pairs push above their port.)  The allocation went from about 90 to 70
	 * instructions a head on direx Q_8 (cg6 112.97 -> 109.81).
	 */
	if (!req && kind == ROUTER_ROUTE_CUBE &&
	    !(f & (1u << FLIT_TYPE_BIT | 1u << FLIT_IR_BIT)) &&
	    (o1 = router_cube_port(node, (int)hdr_address_of(flit_payload(f)))) >= 0) {
		req = 1u << o1;
		link1 = true;
	} else if (!req) {
		req = head_route(w, node, f, i, kind);
	}
	if (req & tk) {
		x->req = req;
		*conflict = true;
		return 1u << i;
	}
	/*
	 * A route with no output (a head injected at its own destination) is granted and
	 * never moves, as in the router: asked again every cycle.
	 */
	if (!req)
		return 1u << i;
	w->taken[node] = tk | (link1 ? req : req & lm);
	w->head[xi] = f;
	x->route = req;
	x->req = 0;
	if (!link1 && !(req & lm)) {	/* its ejection alone: its bit (walk_ejections()) */
		w->ejset[xi >> 6] |= 1ull << (xi & 63);
		w->ejsetsum[xi >> 12] |= 1ull << ((xi >> 6) & 63);
	} else if (link1 || (!(req & ~lm) && !(req & (req - 1)))) {	/* one link */
		const int o = link1 ? o1 : __builtin_ctz(req);
		/*
		 * The input across link o: on the hypercube (the only network of the kind CUBE)
		 * the node across dimension o, at its port o, with no read of down[].
		 */
		const int32_t yi = kind == ROUTER_ROUTE_CUBE ? ((node ^ (1 << o)) << shift) | o
							     : w->down[node * w->ports + o];
		/* Its list (struct pair_walk): the order walk_pairs_as() relies on; the mesh's one. */
		struct pw_list *const l =
			kind == ROUTER_ROUTE_MESH_XY || kind == ROUTER_ROUTE_MESH_YX
			? &w->lists[pw_any_list(w)]
			: link1 ? w->list_of[1][i]
			: w->list_of[(kind == ROUTER_ROUTE_CUBE ? o : (int)(yi & ((1 << shift) - 1))) > i][i];

		l->p[l->n++] = (struct pw_pair){ .px = x, .py = &w->in[yi], .x = xi, .y = yi,
						 .node = node, .obit = req };
	} else {
		grant_fan(w, node, xi, req);
	}
	return 0;
}

/*
 * Several heads at node's inputs (the bits of heads), in the order rr, rr + 1, ... mod
 * NIn (section 7, step 4): rotated by rr, so that one ascending scan is that order (bit
 * j is input (j + rr) mod NIn; two halves cost the step 1.1 a flit-hop more on direx
 * Q_8, 1.0 on uniform 8x8).  Out of line: most router visits allocate one head.
 */
static __attribute__((noinline)) uint32_t
allocate_heads(struct pair_walk *w, int node, uint64_t heads, uint64_t now, bool *conflict)
{
	const int n_in = w->n_in;
	const int rr = (int)(now % (uint64_t)n_in);	/* here: not a division every cycle */
	uint32_t again = 0;

	heads = (heads >> rr | heads << (n_in - rr)) & ((1ull << n_in) - 1);
	for (; heads; heads &= heads - 1) {
		int j = __builtin_ctzll(heads) + rr;

		again |= allocate_head(w, node, j < n_in ? j : j - n_in, conflict, w->shift,
				       w->ring_shift, w->route_kind);
	}
	return again;
}

/*
 * 1. Allocation in cycle now: each router with heads at its inputs' fronts.  True if a
 * head waited.  A router's one head is allocated inline, with no order to keep, and
 * the network's words are read where they are used: in the first form (the heads'
 * rotated scan inline for every router, w's words in locals) the locals spilled, and
 * the allocation was about 190 instructions a head granted on uniform 8x8, 150 on
 * direx Q_8.
 */
static inline __attribute__((always_inline)) bool
allocate_as(struct pair_walk *w, uint64_t now, const int shift, const int rs, const int kind)
{
	uint32_t *const pc = w->pend[now & 1], *const pn = w->pend[(now + 1) & 1];
	uint64_t *const hc = w->hact[now & 1], *const hn = w->hact[(now + 1) & 1];
	bool conflict = false;

	for (int k = 0; k < w->hwords; k++) {
		uint64_t am = hc[k];

		hc[k] = 0;
		for (; am; am &= am - 1) {
			const int node = k * 64 + __builtin_ctzll(am);
			const uint32_t heads = pc[node];
			uint32_t again;

			pc[node] = 0;
			if (!(heads & (heads - 1)))
				again = allocate_head(w, node, __builtin_ctz(heads), &conflict,
						      shift, rs, kind);
			else
				again = allocate_heads(w, node, heads, now, &conflict);
			if (again)
				pw_pend_inputs(pn, hn, node, again);
		}
	}
	return conflict;
}

/*
 * allocate_as() compiled for 8, 16 and 32 inputs a router with a ring of 4 in its
 * input, as the walk (walk_pairs()), and for the routes inline of the hypercube and
 * the XY mesh (the kind a constant, head_route()'s tests of it go: cg6
 * under the pair walk 146.87 / 123.45 / 123.78 with the kind read from w, 146.87 / 120.92 /
 * 123.28 compiled).
 */
static __attribute__((noinline)) bool allocate(struct pair_walk *w, uint64_t now)
{
	if (w->ring_shift == 2 && w->route_kind == ROUTER_ROUTE_CUBE) {
		if (w->shift == 3)
			return allocate_as(w, now, 3, 2, ROUTER_ROUTE_CUBE);
		if (w->shift == 4)
			return allocate_as(w, now, 4, 2, ROUTER_ROUTE_CUBE);
		if (w->shift == 5)
			return allocate_as(w, now, 5, 2, ROUTER_ROUTE_CUBE);
	}
	if (w->ring_shift == 2 && w->route_kind == ROUTER_ROUTE_MESH_XY && w->shift == 3)
		return allocate_as(w, now, 3, 2, ROUTER_ROUTE_MESH_XY);
	return allocate_as(w, now, w->shift, w->ring_shift, w->route_kind);
}

/* Input xi ejects f in this step (its channel is its index). */
static inline void mark_ejection(struct pair_walk *w, int32_t xi, flit_t f)
{
	int word = xi >> 6;

	w->ejb[word] |= 1ull << (xi & 63);
	w->ejsum[word >> 6] |= 1ull << (word & 63);
	w->ejf[xi] = f;
}

/* The flit has left input x (its pair's): a tail frees the outputs and ends the pair. */
static inline bool pop(struct pair_walk *w, struct pw_input *x, int32_t xi, int node,
		       uint32_t obit, flit_t f, uint32_t rd, uint64_t now)
{
	x->rd = rd + 1;
	x->pop_cyc = now;
	if (!flit_is_tail(f))
		return false;
	w->taken[node] &= ~obit;
	x->route = 0;
	/* The next message's head is at the front: allocated in the next cycle. */
	if (x->wr != rd + 1)
		pw_pend_head(w->pend[(now + 1) & 1], w->hact[(now + 1) & 1], xi, w->shift);
	return true;
}

/* A flit is seen at input x: one pushed in this cycle is still on the link. */
static inline bool shows_flit(const struct pw_input *x, uint64_t now)
{
	return x->wr - x->rd - (uint32_t)(x->push_cyc == now) != 0;
}

/*
 * Link input y has room: fewer than depth flits at the start of the cycle (section 8).
 * (walk_pairs_as() tests the stamp only near a full ring; here, that form cost pbcast
 * Q_10 +1.0 a flit-hop: a broadcast's rings are often near full.)
 */
static inline bool has_room(const struct pw_input *y, uint32_t depth, uint64_t now)
{
	return y->wr - y->rd + (uint32_t)(y->pop_cyc == now) < depth;
}

static inline void push(struct pair_walk *w, struct pw_input *y, int32_t yi, flit_t f, uint64_t now)
{
	uint32_t wr = y->wr;

	pw_ring(w, yi)[wr & w->ring_mask] = f;
	y->wr = wr + 1;
	y->push_cyc = now;
	/* A head into an empty input: allocated in the next cycle, when it is seen. */
	if (flit_is_head(f) && wr == y->rd)
		pw_pend_head(w->pend[(now + 1) & 1], w->hact[(now + 1) & 1], yi, w->shift);
}

/*
 * Flit f popped by the walk from pair k's input x (rd its count of pops before): true if
 * f is a tail, which ends the pair; the next message's head is then allocated in the
 * next cycle.  The pair's index is read only for that.
 */
static inline __attribute__((always_inline)) bool
tail_in_walk(const struct pw_pair *k, struct pw_input *x, uint32_t rd, flit_t f,
	     uint32_t *restrict pn, uint64_t *restrict hn, const int shift)
{
	if (!flit_is_tail(f))
		return false;
	x->route = 0;
	if (x->wr != rd + 1)
		pw_pend_head(pn, hn, k->x, shift);
	return true;
}

/*
 * Link pairs' moves in list l (struct pair_walk): stamped if a flit may have been pushed
 * into a pair's input earlier in this cycle (the push stamp then tells it from one
 * of the last cycle: section 7's link register), otherwise not (walk_pairs_as() says
 * which lists).  The network's words in locals (restrict), as walk_pairs_as()'s.
 */
static inline __attribute__((always_inline)) uint64_t
walk_links(struct pw_list *l, uint64_t now, flit_t *restrict buf, uint32_t *restrict taken,
	   uint32_t *restrict pn, uint64_t *restrict hn, const int shift, const int rs,
	   const uint32_t depth, const bool stamped)
{
	const uint32_t rm = (1u << rs) - 1;
	struct pw_pair *k = l->p, *end = l->p + l->n;
	uint64_t moves = 0;

	/*
	 * The pairs by address, not by index: the index's scaling and add cost a visit
	 * about 4 (cg6 under the pair walk 153.38 / 131.88 / 131.32 by index, 151.38 /
	 * 126.93 / 126.87 by address).  A pair's indices (x, y, node) are read only
	 * where a head, a tail or an ejection needs them: read at each visit, they cost
	 * cg6 2.0 / 2.9 / 2.7 more.
	 */
	while (k < end) {
		struct pw_input *const x = k->px;
		struct pw_input *const y = k->py;
		const uint32_t rd = x->rd;
		uint32_t wr, held;
		flit_t f;

		if (stamped ? x->wr - rd == (uint32_t)(x->push_cyc == now) : x->wr == rd) {
			k++;
			continue;
		}
		wr = y->wr;
		held = wr - y->rd;
		/*
		 * Room (has_room()): y held at most one flit more at the cycle's start (one
		 * pop a cycle), so below depth - 1 now the pop stamp is not read.  With the
		 * stamp read at every move, cg6 under the pair walk was 4.0 higher on direx
		 * (135.88), 3.8 on uniform (135.13).
		 */
		if (held >= depth - 1 && held + (uint32_t)(y->pop_cyc == now) >= depth) {
			k++;
			continue;
		}
		f = rs <= PW_RING_IN_SHIFT ? x->ring[rd & rm] : buf[((size_t)k->x << rs) + (rd & rm)];
		if (rs <= PW_RING_IN_SHIFT)
			y->ring[wr & rm] = f;
		else
			buf[((size_t)k->y << rs) + (wr & rm)] = f;
		y->wr = wr + 1;
		y->push_cyc = now;
		moves++;
		x->rd = rd + 1;
		x->pop_cyc = now;
		/*
		 * A body flit (L - 2 moves in L): one test of its head and tail bits together.
		 * The head's mark and the tail tested at every move cost 6 instructions a move
		 * into an empty input (the compiler compares y's count first, then the head
		 * bit), every move on direx: cg6 direx 105.24 -> 101.38, uniform 116.21 ->
		 * 113.57 with this test.
		 */
		if (!(f & (1u << FLIT_HEAD_BIT | 1u << FLIT_TAIL_BIT))) {
			k++;
			continue;
		}
		/* A head into an empty input: allocated in the next cycle, when it is seen. */
		if (flit_is_head(f) && wr == y->rd)
			pw_pend_head(pn, hn, k->y, shift);
		if (tail_in_walk(k, x, rd, f, pn, hn, shift)) {
			taken[k->node] &= ~k->obit;	/* 9. the tail frees the output */
			*k = *--end;	/* the order of a list does not matter */
			continue;
		}
		k++;
	}
	l->n = (int)(end - l->p);
	return moves;
}

/*
 * 2. The walk of the pairs with one output; the flits put on links.  The network's
 * words in locals (restrict): a store into a ring or an input may alias them
 * otherwise, and they were loaded again after each (cg6 direx: the walk's lines
 * cost 65 instructions a move with them read through w).  The moves are written out
 * here rather than shared with walk_fans() (push(), pop(), mark_ejection() taking these
 * locals and constants, always_inline): that form cost cg6 under the pair walk 156.89 /
 * 143.28 / 142.34 against 153.38 / 142.14 / 141.03 (final review, fourteenth session).
 *
 * Why "shows a flit" is wr != rd, with no push stamp, in every list but the last
 * (struct pair_walk's lists, walked in their order, then walk_fans()).  A flit pushed
 * into an input in this cycle must not be seen there before the next (the link
 * register); the stamp tells it, but only a push earlier in the walk than the visit of
 * the input's pair can be seen at all.  Nothing pushes before the walk (the
 * allocation moves no flit; the NI's flits into injection inputs are seen at once, in
 * the cycle they are written).  So:
 *   - the ejecting inputs (ejset's bits, walk_ejections()), walked before the lists
 *     when there are no fans: no input has been pushed yet (with fans, after them,
 *     stamped: pair_walk_step());
 *   - pw_layer(i), ports - 1 down to 0: its inputs are link inputs of port i, which
 *     only the pairs whose push lands on port i fill: a layer j's pair pushes into a
 *     port above j (the list's rule), so j < i, walked after; the injection pairs, the
 *     last list and the fans are walked after every layer;
 *   - pw_inj_list(): an injection input takes flits from the NI alone (and its pair
 *     pushes into a layer's input, visited already, or the last list's);
 *   - pw_any_list(), walked last, reads the stamp: any pair may have filled its inputs.
 * (The fans, walked after, read the stamp too.)  A list's rule is the grant's
 * (allocate_head()) and pair_walk_sanity() checks it.  On the hypercube every unicast
 * is in a layer (e-cube crosses dimensions upwards, and a link's two ports are its
 * dimension).  The mesh has no layers (nfast): a straight line pushes into its own
 * port, so only its turns could be layered.  The test at a visit was 7 instructions
 * with the stamp.
 */
static inline __attribute__((always_inline)) uint64_t
walk_pairs_as(struct pair_walk *w, uint64_t now, const int shift,
	      const int rs, const uint32_t depth)
{
	flit_t *const restrict buf = w->buf;
	uint32_t *const restrict taken = w->taken;
	uint32_t *const restrict pn = w->pend[(now + 1) & 1];
	uint64_t *const restrict hn = w->hact[(now + 1) & 1];
	struct pw_list *const lists = w->lists;
	const int any = pw_any_list(w), nfast = w->nfast;
	uint64_t moves = 0;

	for (int l = 0; l < nfast; l++)
		moves += walk_links(&lists[l], now, buf, taken, pn, hn, shift, rs, depth, false);
	return moves + walk_links(&lists[any], now, buf, taken, pn, hn, shift, rs, depth, true);
}

/*
 * The walk compiled for the common networks' constants (the default depth 4, a ring
 * of 4; 8 or 16 or 32 inputs a router: Q_3..Q_4 and meshes, Q_5..Q_8, Q_9..Q_12), as
 * the prototype was: with them in registers or immediates, the generic walk's locals
 * spilled (cg6 direx: 6 instructions a visit to reload the pairs' base and the
 * input mask).  Each a function of its own (noinline), so that its registers are
 * allocated for its loop alone.
 */
#define WALK_SHAPE(name, shift)								\
	static __attribute__((noinline)) uint64_t name(struct pair_walk *w, uint64_t now)	\
	{										\
		return walk_pairs_as(w, now, shift, 2, 4);				\
	}
WALK_SHAPE(walk_pairs_8, 3)
WALK_SHAPE(walk_pairs_16, 4)
WALK_SHAPE(walk_pairs_32, 5)

static __attribute__((noinline)) uint64_t walk_any(struct pair_walk *w, uint64_t now)
{
	return walk_pairs_as(w, now, w->shift, w->ring_shift, (uint32_t)w->depth);
}

static uint64_t walk_pairs(struct pair_walk *w, uint64_t now)
{
	if (w->depth == 4 && w->ring_shift == 2) {
		if (w->shift == 3)
			return walk_pairs_8(w, now);
		if (w->shift == 4)
			return walk_pairs_16(w, now);
		if (w->shift == 5)
			return walk_pairs_32(w, now);
	}
	return walk_any(w, now);
}

/*
 * 2. The walk of the pairs with several outputs (lockstep replication); their
 * ejections marked for walk_ejections(), which runs after it.
 */
static uint64_t walk_fans(struct pair_walk *w, uint64_t now)
{
	uint64_t moves = 0;
	uint32_t depth = (uint32_t)w->depth;

	for (int c = 0; c < w->nfans;) {
		struct pw_fan *g = &w->fans[c];
		struct pw_input *x = &w->in[g->x];
		uint32_t rd = x->rd;
		bool ready = true;
		flit_t f;

		if (!shows_flit(x, now)) {
			c++;
			continue;
		}
		for (int j = 0; j < g->ny; j++)
			ready &= has_room(&w->in[g->y[j]], depth, now);
		if (!ready) {
			c++;
			continue;
		}
		f = pw_ring(w, g->x)[rd & w->ring_mask];
		for (int j = 0; j < g->ny; j++)
			push(w, &w->in[g->y[j]], g->y[j], f, now);
		moves += (uint64_t)g->ny;
		if (g->ej)
			mark_ejection(w, g->x, f);
		if (pop(w, x, g->x, g->node, g->obit, f, rd, now)) {
			*g = w->fans[--w->nfans];
			continue;
		}
		c++;
	}
	return moves;
}

/*
 * Input xi's pair ejects: its flit, if it shows one, popped and listed at e (returns
 * 1, else 0).  A tail ends the pair: its bit cleared (and its word's summary bit with
 * the word's last), here rather than after its word's walk (once a message).  Stamped
 * if the walk of the links ran before (a flit pushed in this cycle is not seen), else
 * "shows a flit" is wr != rd (walk_pairs_as()'s proof).
 */
static inline __attribute__((always_inline)) int
eject_at(struct pair_walk *w, struct pw_input *restrict in, flit_t *restrict buf,
	 flit_t *restrict ejf, struct channel_event *restrict e, int32_t xi, uint64_t now,
	 uint32_t *restrict pn, uint64_t *restrict hn, const int shift, const int rs,
	 const bool stamped)
{
	struct pw_input *const x = &in[xi];
	const uint32_t rd = x->rd;
	flit_t f;

	if (stamped ? x->wr - rd == (uint32_t)(x->push_cyc == now) : x->wr == rd)
		return 0;
	f = rs <= PW_RING_IN_SHIFT ? x->ring[rd & ((1u << rs) - 1)]
				   : buf[((size_t)xi << rs) + (rd & ((1u << rs) - 1))];
	ejf[xi] = f;
	*e = (struct channel_event){ .node = xi >> shift, .channel = xi & ((1 << shift) - 1),
				     .flit = f };
	x->rd = rd + 1;
	x->pop_cyc = now;
	if (flit_is_tail(f)) {
		uint64_t *const word = &w->ejset[xi >> 6];

		x->route = 0;
		*word &= ~(1ull << (xi & 63));
		if (!*word)
			w->ejsetsum[xi >> 12] &= ~(1ull << ((xi >> 6) & 63));
		/* The next message's head is at the front: allocated in the next cycle. */
		if (x->wr != rd + 1)
			pw_pend_head(pn, hn, xi, w->shift);
	}
	return 1;
}

/*
 * 3. The walk of the inputs whose pair ejects (ejset's bits), in node order, then
 * channel order: their flits popped and listed at e in that order, which is the
 * ejections' (section 9).  With fans (fans: the step has pairs of several outputs),
 * after walk_fans(), stamped, with the fans' ejections of the step (marked in ejb by
 * walk_fans(); popped already) merged in, input by input; without, before any push
 * (pair_walk_step()), so with no stamp read and no word of ejb.  Returns the count.
 */
static inline __attribute__((always_inline)) int
walk_ejections_as(struct pair_walk *w, uint64_t now, struct channel_event *e,
		  const int shift, const int rs, const bool fans)
{
	struct pw_input *const restrict in = w->in;
	flit_t *const restrict buf = w->buf;
	flit_t *const restrict ejf = w->ejf;
	const uint64_t *const ejset = w->ejset, *const ejsetsum = w->ejsetsum;
	uint64_t *const restrict ejb = w->ejb, *const restrict ejsum = w->ejsum;
	uint32_t *const restrict pn = w->pend[(now + 1) & 1];
	uint64_t *const restrict hn = w->hact[(now + 1) & 1];
	const int swords = (w->ejwords + 63) / 64;
	struct channel_event *const start = e;

	for (int s = 0; s < swords; s++) {
		uint64_t sum = ejsetsum[s];

		if (fans) {
			sum |= ejsum[s];
			ejsum[s] = 0;
		}
		for (; sum; sum &= sum - 1) {
			const int word = s * 64 + __builtin_ctzll(sum);
			const uint64_t fan = fans ? ejb[word] : 0;

			if (!fans || !fan) {
				for (uint64_t b = ejset[word]; b; b &= b - 1)
					e += eject_at(w, in, buf, ejf, e, word * 64 + __builtin_ctzll(b),
						      now, pn, hn, shift, rs, fans);
				continue;
			}
			ejb[word] = 0;
			for (uint64_t b = ejset[word] | fan; b; b &= b - 1) {
				const int32_t xi = word * 64 + __builtin_ctzll(b);

				if (fan & b & -b)
					*e++ = (struct channel_event){
						.node = xi >> shift, .channel = xi & ((1 << shift) - 1),
						.flit = ejf[xi] };
				else
					e += eject_at(w, in, buf, ejf, e, xi, now, pn, hn, shift, rs,
						      true);
			}
		}
	}
	return (int)(e - start);
}

/*
 * walk_ejections_as() compiled for the shapes of walk_pairs() (a ring of 4 in the input),
 * with the fans' merge (after the walk, stamped) and without (before it).
 */
#define EJECT_SHAPE(name, shift, fans)								\
	static __attribute__((noinline)) int name(struct pair_walk *w, uint64_t now,		\
						  struct channel_event *e)			\
	{											\
		return walk_ejections_as(w, now, e, shift, 2, fans);				\
	}
EJECT_SHAPE(walk_ejections_8, 3, false)
EJECT_SHAPE(walk_ejections_16, 4, false)
EJECT_SHAPE(walk_ejections_32, 5, false)
EJECT_SHAPE(walk_ejections_fans_8, 3, true)
EJECT_SHAPE(walk_ejections_fans_16, 4, true)
EJECT_SHAPE(walk_ejections_fans_32, 5, true)

static __attribute__((noinline)) int walk_ejections_any(struct pair_walk *w, uint64_t now,
							struct channel_event *e, bool fans)
{
	return walk_ejections_as(w, now, e, w->shift, w->ring_shift, fans);
}

static int walk_ejections(struct pair_walk *w, uint64_t now, struct channel_event *e, bool fans)
{
	if (w->ring_shift == 2) {
		if (w->shift == 3)
			return fans ? walk_ejections_fans_8(w, now, e) : walk_ejections_8(w, now, e);
		if (w->shift == 4)
			return fans ? walk_ejections_fans_16(w, now, e) : walk_ejections_16(w, now, e);
		if (w->shift == 5)
			return fans ? walk_ejections_fans_32(w, now, e) : walk_ejections_32(w, now, e);
	}
	return walk_ejections_any(w, now, e, fans);
}

/*
 * A step of another cycle than the one prepared (a caller that skips cycles): the
 * stamps of the last step and the heads pending are moved to the new numbering.
 */
static void rebase(struct pair_walk *w, uint64_t cycle)
{
	size_t inputs = (size_t)w->nodes << w->shift;
	uint64_t last = w->cycle - 1;

	for (size_t k = 0; k < inputs; k++) {
		if (w->in[k].push_cyc == last)
			w->in[k].push_cyc = cycle - 1;
		else if (w->in[k].push_cyc != UINT64_MAX)
			w->in[k].push_cyc = cycle - 2;
		if (w->in[k].pop_cyc == last)
			w->in[k].pop_cyc = cycle - 1;
		else if (w->in[k].pop_cyc != UINT64_MAX)
			w->in[k].pop_cyc = cycle - 2;
	}
	if ((w->cycle & 1) != (cycle & 1)) {
		uint32_t *p = w->pend[0];
		uint64_t *h = w->hact[0];

		w->pend[0] = w->pend[1];
		w->pend[1] = p;
		w->hact[0] = w->hact[1];
		w->hact[1] = h;
	}
	w->cycle = cycle;
}

__attribute__((noinline)) void pair_walk_step(struct pair_walk *w, uint64_t cycle)
{
	uint64_t moves;
	bool conflict;

	if (cycle != w->cycle)
		rebase(w, cycle);
	conflict = allocate(w, cycle);
	w->ej_cur ^= 1;
	/*
	 * The ejecting inputs before any push when no pair has several outputs (none is
	 * made in the walk, so no fan ejects in this step): "shows a flit" with no stamp
	 * there, as the walk row's list of ejecting pairs, walked first, had it.  With
	 * fans, after them, so that their ejections merge into the list in order.
	 */
	if (!w->nfans) {
		w->nej[w->ej_cur] = walk_ejections(w, cycle, w->ej[w->ej_cur], false);
		moves = walk_pairs(w, cycle);
	} else {
		moves = walk_pairs(w, cycle) + walk_fans(w, cycle);
		w->nej[w->ej_cur] = walk_ejections(w, cycle, w->ej[w->ej_cur], true);
	}
	w->link_moves += moves;
	w->last_moves = (int)moves + w->nej[w->ej_cur];
	w->conflict_cycles += conflict;
	w->cycle = cycle + 1;
}

int pair_walk_ejections(const struct pair_walk *w, const struct channel_event **list)
{
	*list = w->ej[w->ej_cur];
	return w->nej[w->ej_cur];
}

int pair_walk_inj_credits(struct pair_walk *w, const struct channel_event **list)
{
	struct channel_event *e = w->inj_credit;

	for (int v = 0; v < w->nodes; v++)
		for (int c = 0; c < w->ports; c++)
			if (pair_walk_inj_credited(w, v, c))
				*e++ = (struct channel_event){ .node = v, .channel = c };
	*list = w->inj_credit;
	return (int)(e - w->inj_credit);
}

uint64_t pair_walk_link_moves(const struct pair_walk *w) { return w->link_moves; }
int pair_walk_last_moves(const struct pair_walk *w) { return w->last_moves; }
uint64_t pair_walk_conflict_cycles(const struct pair_walk *w) { return w->conflict_cycles; }

/* The flit on link input xi's wires (the register upstream), not in its FIFO. */
static inline int on_link(const struct pair_walk *w, int32_t xi)
{
	return (xi & ((1 << w->shift) - 1)) < w->ports && w->in[xi].push_cyc == w->cycle - 1;
}

int pair_walk_buffered(const struct pair_walk *w)
{
	int b = 0;

	for (int v = 0; v < w->nodes; v++)
		for (int i = 0; i < w->n_in; i++) {
			int32_t xi = (v << w->shift) | i;

			b += (int)(w->in[xi].wr - w->in[xi].rd) - on_link(w, xi);
		}
	return b;
}

/* Did input xi eject in the step whose list is ej[k]? */
static bool ejected(const struct pair_walk *w, int k, int node, int i)
{
	for (int e = 0; e < w->nej[k]; e++)
		if (w->ej[k][e].node == node && w->ej[k][e].channel == i)
			return true;
	return false;
}

int pair_walk_credits(const struct pair_walk *w, int node, int o)
{
	if (o < w->ports) {
		int32_t yi = w->down[node * w->ports + o];
		const struct pw_input *y;

		if (yi < 0)
			return w->depth;
		y = &w->in[yi];
		/* section 8: depth - count - out_valid - credit_out downstream */
		return w->depth - (int)(y->wr - y->rd) - (int)(y->pop_cyc == w->cycle - 1);
	}
	/*
	 * An ejection output: the sink's credit of a flit comes back on the wires of the
	 * cycle after the flit's (network_return_ejection_credits()), so the flits of the
	 * last two steps are not back yet.
	 */
	return w->depth - ejected(w, w->ej_cur, node, o - w->ports) -
	       ejected(w, w->ej_cur ^ 1, node, o - w->ports);
}

void pair_walk_registers(const struct pair_walk *w, int node, uint32_t *out_valid,
			 uint32_t *credit_out, flit_t *out_flit)
{
	uint64_t last = w->cycle - 1;

	*out_valid = *credit_out = 0;
	for (int i = 0; i < w->n_in; i++)
		*credit_out |= (uint32_t)(w->in[(node << w->shift) | i].pop_cyc == last) << i;
	for (int o = 0; o < w->ports; o++) {
		int32_t yi = w->down[node * w->ports + o];
		const struct pw_input *y = yi < 0 ? NULL : &w->in[yi];

		/* The register holds the last flit sent: the ring's last push. */
		out_flit[o] = y && y->wr ? pw_ring(w, yi)[(y->wr - 1) & w->ring_mask] : 0;
		*out_valid |= (uint32_t)(y && y->push_cyc == last) << o;
	}
	for (int i = 0; i < w->ports; i++) {
		out_flit[w->ports + i] = w->ejf[(node << w->shift) | i];
		*out_valid |= (uint32_t)ejected(w, w->ej_cur, node, i) << (w->ports + i);
	}
}

void pair_walk_router_state(const struct pair_walk *w, int node, struct router_state *s)
{
	uint32_t out_valid, credit_out;
	flit_t out_flit[ROUTER_MAX_IO];

	pair_walk_registers(w, node, &out_valid, &credit_out, out_flit);
	s->node = node;
	s->n_ports = w->ports;
	s->n_in = s->n_out = w->n_in;
	s->depth = w->depth;
	s->rr_q = (unsigned)(w->cycle % (uint64_t)w->n_in);
	s->vcs = 1;
	s->sw_rr_q = 0;
	memset(s->out_vc_q, 0, sizeof(s->out_vc_q));
	for (int i = 0; i < w->n_in; i++) {
		int32_t xi = (node << w->shift) | i;
		const struct pw_input *in = &w->in[xi];
		struct router_state_input *x = &s->in[i];
		int count = (int)(in->wr - in->rd) - on_link(w, xi);

		x->count = (uint8_t)count;
		x->rd_ptr = (uint8_t)(in->rd % (uint32_t)w->depth);
		x->wr_ptr = (uint8_t)((x->rd_ptr + count) % w->depth);
		for (int k = 0; k < count; k++)
			x->fifo[(x->rd_ptr + k) % w->depth] = pw_ring(w, xi)[(in->rd + (uint32_t)k) & w->ring_mask];
		x->route_q = in->route;
		x->credit_out_q = credit_out >> i & 1;
		x->hold_q = 0;
		x->msg_head = in->route ? w->head[xi] : 0;
	}
	for (int o = 0; o < w->n_in; o++) {
		s->out[o].out_valid_q = out_valid >> o & 1;
		s->out[o].out_flit_q = out_flit[o];
		s->out[o].credits_q = (uint8_t)pair_walk_credits(w, node, o);
	}
}

/*
 * Why a one-output pair (input port i, into port o downstream) must not be in list l
 * (struct pair_walk's rules; walk_pairs_as() relies on them), or NULL.
 */
static const char *list_broken(const struct pair_walk *w, int l, int i, int o)
{
	if (l >= w->nfast && l != pw_any_list(w))
		return "is in a list the walk skips";
	if (l == pw_inj_list(w) && i < w->ports)
		return "is a link input's, among the injection inputs' pairs";
	if (l < pw_inj_list(w) && (l != pw_layer(w, i) || o <= i))
		return "is in a layer of the walk not its input's, or pushes into a port not above its input's";
	return NULL;
}

/*
 * A pair (a list's or a fan) of input xi at node with link outputs obit: its input and
 * outputs not another pair's (counted in owned and paired).  0, or -1 and why.
 */
static int pair_owns(const struct pair_walk *w, int32_t xi, int node, uint32_t obit,
		     uint32_t *owned, uint8_t *paired, char *why, size_t len)
{
	if (xi >> w->shift != node || (w->in[xi].route & w->link_mask) != obit ||
	    paired[xi] || (owned[node] & obit)) {
		snprintf(why, len, "pair_walk: the pair of node %d input %d: route %#x, "
			 "outputs %#x, owned already %#x", node, xi & ((1 << w->shift) - 1),
			 w->in[xi].route, obit, owned[node] & obit);
		return -1;
	}
	owned[node] |= obit;
	paired[xi] = 1;
	return 0;
}

int pair_walk_sanity(const struct pair_walk *w, char *why, size_t len)
{
	size_t inputs = (size_t)w->nodes << w->shift;
	uint32_t *owned = calloc((size_t)w->nodes, sizeof(*owned));
	uint8_t *paired = calloc(inputs, 1);
	int rc = -1;

	if (!owned || !paired) {
		free(owned);
		free(paired);
		snprintf(why, len, "pair_walk_sanity: out of memory");
		return -1;
	}
	for (int l = 0; l < w->nlists; l++)
		for (int c = 0; c < w->lists[l].n; c++) {
			const struct pw_pair *k = &w->lists[l].p[c];
			const int32_t xi = k->x, in_mask = (1 << w->shift) - 1;
			const char *broken;

			/* A one-output pair moves on a link (an ejecting input is a bit of ejset). */
			if (k->y < 0 || k->y >= (int32_t)inputs) {
				snprintf(why, len, "pair_walk: pair %d of list %d (input %d) moves to "
					 "input %d, not a link's", c, l, xi, k->y);
				goto out;
			}
			/* A pair's list first: its other fields may be of a spare input. */
			broken = list_broken(w, l, xi & in_mask, k->y & in_mask);
			if (broken) {
				snprintf(why, len, "pair_walk: pair %d of list %d (node %d input %d) %s",
					 c, l, xi >> w->shift, xi & in_mask, broken);
				goto out;
			}
			if (k->px != &w->in[xi] || k->py != &w->in[k->y]) {
				snprintf(why, len, "pair_walk: pair %d of list %d (input %d): the "
					 "address of another input", c, l, xi);
				goto out;
			}
			if (pair_owns(w, xi, k->node, k->obit, owned, paired, why, len))
				goto out;
		}
	for (int c = 0; c < w->nfans; c++)
		if (pair_owns(w, w->fans[c].x, w->fans[c].node, w->fans[c].obit, owned, paired,
			      why, len))
			goto out;
	/*
	 * The inputs marked ejecting: each routed to its ejection alone, in no other pair,
	 * and a word's summary bit set iff it has any (walk_ejections() visits the words by
	 * their summary bits only).
	 */
	for (int k = 0; k < w->ejwords; k++) {
		if (!(w->ejsetsum[k >> 6] >> (k & 63) & 1) != !w->ejset[k]) {
			snprintf(why, len, "pair_walk: ejecting inputs %#llx in word %d, summary "
				 "bit %d", (unsigned long long)w->ejset[k], k,
				 (int)(w->ejsetsum[k >> 6] >> (k & 63) & 1));
			goto out;
		}
		for (uint64_t b = w->ejset[k]; b; b &= b - 1) {
			size_t xi = (size_t)k * 64 + (size_t)__builtin_ctzll(b);
			uint32_t route = xi < inputs ? w->in[xi].route : 0;

			if (!route || (route & w->link_mask) || paired[xi]) {
				snprintf(why, len, "pair_walk: input %zu marked ejecting: route %#x%s",
					 xi, route, xi < inputs && paired[xi] ? ", in another pair" : "");
				goto out;
			}
			paired[xi] = 1;
		}
	}
	for (int v = 0; v < w->nodes; v++)
		if (owned[v] != w->taken[v]) {
			snprintf(why, len, "pair_walk: node %d owns links %#x, its pairs %#x", v,
				 w->taken[v], owned[v]);
			goto out;
		}
	/*
	 * A router is marked in hact iff it has heads pending: allocate_as() takes the one
	 * head of a router by its bit, with no test of an empty word.
	 */
	for (int p = 0; p < 2; p++)
		for (int v = 0; v < w->nodes; v++)
			if (!(w->hact[p][v >> 6] >> (v & 63) & 1) != !w->pend[p][v]) {
				snprintf(why, len, "pair_walk: node %d: heads pending %#x, marked %d "
					 "(cycle parity %d)", v, w->pend[p][v],
					 (int)(w->hact[p][v >> 6] >> (v & 63) & 1), p);
				goto out;
			}
	for (size_t k = 0; k < inputs; k++) {
		const struct pw_input *x = &w->in[k];

		if (x->wr - x->rd > (uint32_t)w->depth || (!paired[k] && x->route)) {
			snprintf(why, len, "pair_walk: node %d input %d holds %u flits (depth %d), "
				 "route %#x without a pair", (int)(k >> w->shift),
				 (int)(k & ((1u << w->shift) - 1)), x->wr - x->rd, w->depth, x->route);
			goto out;
		}
	}
	rc = 0;
out:
	free(owned);
	free(paired);
	return rc;
}

/*
 * A link pair for pair_walk_corrupt(): the first of the first list that has one (*list
 * its list), or, with none, one made in the last list (input 0 into itself).
 */
static struct pw_pair *some_pair(struct pair_walk *w, int *list)
{
	struct pw_list *l;
	struct pw_pair *k;

	for (int j = 0; j < w->nlists; j++)
		if (w->lists[j].n) {
			*list = j;
			return w->lists[j].p;
		}
	l = &w->lists[*list = pw_any_list(w)];
	k = &l->p[l->n++];
	*k = (struct pw_pair){ .px = &w->in[0], .py = &w->in[0] };
	return k;
}

/*
 * Pair *k of list from moved to the end of list to, its input's address the spare's
 * past the last input (always empty, so that the walk never moves it: no tail in the
 * next step ends it and undoes the corruption).
 */
static void move_pair(struct pair_walk *w, struct pw_pair *k, int from, int to)
{
	struct pw_pair p = *k;

	*k = w->lists[from].p[--w->lists[from].n];
	p.px = &w->in[(size_t)w->nodes << w->shift];
	w->lists[to].p[w->lists[to].n++] = p;
}

void pair_walk_corrupt(struct pair_walk *w, int what)
{
	int l = 0;

	if (what == 0) {
		w->in[0].wr += (uint32_t)w->depth + 1;
	} else if (what == 1) {
		w->taken[0] ^= 1;
	} else if (what == 2) {	/* the spare input past the last: always empty, so the walk skips it */
		some_pair(w, &l)->px = &w->in[(size_t)w->nodes << w->shift];
	} else if (what == 3) {	/* the last node's heads of the cycle after next, unmarked */
		int v = w->nodes - 1, p = (int)((w->cycle + 1) & 1);

		if (w->pend[p][v])
			w->hact[p][v >> 6] &= ~(1ull << (v & 63));
		else
			w->pend[p][v] = 1;
	} else if (what == 4) {
		/*
		 * The spare input marked ejecting (no route): the walk of ejset visits it, and
		 * it stays (always empty, as for 2: no tail ends it).
		 */
		size_t xi = (size_t)w->nodes << w->shift;

		w->ejset[xi >> 6] |= 1ull << (xi & 63);
		w->ejsetsum[xi >> 12] |= 1ull << ((xi >> 6) & 63);
	} else if (what == 5) {
		/*
		 * A link pair in the walk's layer of a port not its input's: walked before or
		 * after the pair downstream of it, whatever its order.
		 */
		struct pw_pair *k = some_pair(w, &l);
		int i = k->x & ((1 << w->shift) - 1);

		for (int j = 0; j < w->ports; j++)
			if (j != i && w->lists[pw_layer(w, j)].n < w->nodes) {	/* (its room) */
				move_pair(w, k, l, pw_layer(w, j));
				break;
			}
	}
}
