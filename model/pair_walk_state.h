/* SPDX-License-Identifier: MIT */
/*
 * pair_walk_state.h - the pair walk's state (pair_walk.h), for model/pair_walk.c and
 * for the NI's two calls a flit, inlined from here: pair_walk.c is outside the
 * link-time optimisation (CMakeLists.txt), and pair_walk_inject() and
 * pair_walk_inj_held() as calls cost about 38 instructions an injected flit (cg6
 * under the pair walk: docs/performance.md, "Fourteenth session (pair)", round 3).
 * Nothing else reads it.
 */
#ifndef WORMCAST_PAIR_WALK_STATE_H
#define WORMCAST_PAIR_WALK_STATE_H

#include "pair_walk.h"

/*
 * A ring of up to PW_RING_IN flits (depth 4, the default, and less) is in its input's
 * record, which is then one cache line of 64 bytes: a move reads and writes the two
 * inputs' lines and no third array, and the walk keeps no base of the rings.  The step
 * (step_pair_walk() inclusive) went from 141.0 to 133.1 a flit-hop on direx Q_8, from
 * 140.8 to 132.3 on uniform 8x8; CPU time on direx Q_10 from 0.663 to 0.571 s (its
 * inputs and rings were two arrays of 1 MB).  Deeper rings are in buf.
 */
#define PW_RING_IN_SHIFT 2
#define PW_RING_IN (1 << PW_RING_IN_SHIFT)

/* An input: its ring (the FIFO, and for a link input the link register before it). */
struct pw_input {
	uint32_t wr, rd;	/* flits pushed, popped: occupancy wr - rd */
	uint32_t route;		/* route_q: the outputs its message owns, 0 if none */
	/*
	 * The route of the head waiting at the front, once computed (0: not yet): a head
	 * that waits is not routed again each cycle, as the router keeps in[i].req (direx
	 * Q_10's heads wait often: route_of() is about 66 instructions a call).
	 */
	uint32_t req;
	uint64_t push_cyc;	/* the cycle of the last push into a link input */
	uint64_t pop_cyc;	/* the cycle of the last pop */
	flit_t ring[PW_RING_IN];	/* the ring if ring_shift <= PW_RING_IN_SHIFT */
};
_Static_assert(sizeof(struct pw_input) == 64, "an input is one cache line");

/*
 * A granted head with one output, a link (y, the input downstream; a head whose one
 * output is its ejection is a bit of ejset instead).  The inputs' addresses too (px,
 * py), as the prototype's pairs: the walk then computes none (the step alone on direx
 * Q_8 128.7 -> 124.8 a flit-hop, uniform 8x8 129.7 -> 125.7); the indices for the
 * heads pending and the sanity.
 */
struct pw_pair {
	struct pw_input *px, *py;	/* in[x], in[y] */
	int32_t x, y;
	int32_t node;
	uint32_t obit;		/* its link output's bit in taken[node] */
};

/*
 * A granted head with several outputs (B trees and paths, R+IR: links and maybe the
 * ejection): it moves a flit only when every link output is ready (lockstep
 * replication; the ejection always is), to all at once.  A list of its own, so that
 * the unicast pair stays 16 bytes and its walk has no loop.
 */
struct pw_fan {
	int32_t x, node;
	uint32_t obit;
	int ny;
	bool ej;
	int32_t y[TOPO_MAX_PORTS];
};

struct pair_walk {
	const struct router_params *params;
	int nodes, ports, n_in, depth;
	int shift;		/* input i of node v is in[(v << shift) | i] */
	int ring_shift;		/* a ring holds 1 << ring_shift flits (>= depth) */
	uint32_t ring_mask, link_mask;
	struct pw_input *in;
	void *in_mem;		/* in, before its alignment */
	/* The rings deeper than PW_RING_IN: input xi's is buf[(xi << ring_shift) + (k & ring_mask)]. */
	flit_t *buf;
	int32_t *down;		/* nodes * P: the input across link output o of v, or -1 */
	uint32_t *taken;	/* per node: the link outputs owned (owned_q's link bits) */
	flit_t *head;		/* per input: the head of its message (msg_head, readouts) */
	/*
	 * Heads at an input's front, to allocate in cycle c: pend[c & 1][v] their inputs,
	 * hact[c & 1] their routers' bits.
	 */
	uint32_t *pend[2];
	uint64_t *hact[2];
	int hwords;
	/*
	 * The pairs with one link output, in lists (lists[], in pairs), and with several
	 * outputs (fans); those with the ejection alone are ejset's bits (below).  The
	 * one-output pairs of link and injection inputs are walked alike: an injection
	 * input's pop is a link input's since the NI's registers are derived from the rings.
	 * (While the pop kept the routers' registers, its call spilled the walk's locals, so
	 * the injection inputs had a list and a walk of their own; one walk again, the step
	 * went from 95.5 to 94.6 a flit-hop on direx Q_8, from 103.0 to 101.0 on uniform
	 * 8x8: docs/performance.md, "Fourteenth session (pair)", round 3.)  The lists, in
	 * the walk's order (pair_walk.c, walk_pairs_as(), says why that order is exact):
	 *
	 *   pw_layer(i)    for link port i = ports - 1 down to 0, on the hypercube: the link
	 *                  pairs from input port i into an input of a higher port downstream
	 *                  (every unicast: e-cube crosses the dimensions upwards);
	 *   pw_inj_list()  the pairs of injection inputs, on the hypercube;
	 *   pw_any_list()  the other link pairs (a B tree's branch downwards; on the mesh
	 *                  every link and injection pair): the only list whose visit reads
	 *                  the push stamp.
	 *
	 * List l's pairs are lists[l].p[0 .. n - 1], a region of pairs that holds every pair
	 * the list can have (pair_walk_create()).  The walk visits lists 0 .. nfast - 1 with
	 * no stamp, then pw_any_list(): nfast is pw_any_list() on the hypercube, 0 on the
	 * mesh (its walk is one loop, as before the layers: with the injection pairs' list
	 * walked too, uniform 8x8 0.1 cost 3 % more CPU time with 0.07 fewer instructions a
	 * flit-hop, and with layers (its turns) 1.1 more).
	 */
	struct pw_pair *pairs;
	struct pw_list {
		struct pw_pair *p;
		int n;
	} *lists;
	int nlists, nfast;
	/*
	 * The list of a grant into link output o from input i: list_of[o's port downstream
	 * > i][i] (the rules above as a table: the grant's tests of them cost direx Q_8
	 * about 11 instructions a head).
	 */
	struct pw_list *list_of[2][32];
	struct pw_fan *fans;
	int nfans;
	/*
	 * The inputs whose pair ejects (its one output the ejection): a bit each, with a
	 * summary bit per word, set at the grant and cleared at the tail, not pairs.  The
	 * walk of these bits (walk_ejections()) is in node order, then channel order, so
	 * it lists the step's ejections as it pops them (section 9): no marks by input and
	 * no scan of them after the walk (a list of ejecting pairs, marked in ejb and ejsum
	 * and scanned: about 36 + 19 instructions an ejected flit on direx Q_8;
	 * docs/performance.md, "Sixteenth session (ni)").  Walked before any push while
	 * no pair has several outputs, so its test of "shows a flit" needs no push stamp
	 * (pair_walk_step()); with fans, after them, stamped.
	 */
	uint64_t *ejset, *ejsetsum;
	/*
	 * The ejections of the fans (walk_fans(), before walk_ejections() when there are
	 * fans, which merges them into its list): a bit per input (xi, the channel is the input), with a
	 * summary bit per word, as ejset; and the last flit each input ejected (ejf: also
	 * the ejection output's register, which holds its value).  ejwords counts the
	 * spare input too (pair_walk_corrupt()).
	 */
	uint64_t *ejb, *ejsum;
	int ejwords;
	flit_t *ejf;
	/* The lists of the last step and of the one before (the ejection credits' readout). */
	struct channel_event *ej[2];
	int nej[2];
	int ej_cur;
	struct channel_event *inj_credit;
	/*
	 * The routers: their constants (the inline route on the mesh, head_route()).
	 * Their registers are not kept: the injection inputs' count and credit bit, which
	 * the NI reads, are derived from the rings (pair_walk_inj_held(),
	 * pair_walk_inj_credited()).
	 */
	struct router *routers;
	uint8_t route_kind;	/* the routers' (a constant): how head_route() routes a unicast */
	uint64_t cycle;		/* the cycle being prepared: the last step's + 1 */
	uint64_t link_moves, conflict_cycles;
	int last_moves;
};

/* The lists of one-output pairs (struct pair_walk): their indices. */
static inline int pw_layer(const struct pair_walk *w, int port) { return w->ports - 1 - port; }
static inline int pw_inj_list(const struct pair_walk *w) { return w->ports; }
static inline int pw_any_list(const struct pair_walk *w) { return w->ports + 1; }

static inline flit_t *pw_ring(const struct pair_walk *w, int32_t xi)
{
	if (w->ring_shift <= PW_RING_IN_SHIFT)
		return w->in[xi].ring;
	return &w->buf[(size_t)xi << w->ring_shift];
}

/*
 * Router v's inputs in bits have heads at their fronts, allocated in the cycle of pend
 * and hact: the inputs and the router's mark together, since the allocation takes a
 * router by its mark alone (pair_walk_sanity(): marked iff pending).
 */
static inline __attribute__((always_inline)) void
pw_pend_inputs(uint32_t *pend, uint64_t *hact, int v, uint32_t bits)
{
	pend[v] |= bits;
	hact[v >> 6] |= 1ull << (v & 63);
}

/* The head now at input xi's front (1 << shift inputs a router), the same way. */
static inline __attribute__((always_inline)) void
pw_pend_head(uint32_t *pend, uint64_t *hact, int32_t xi, const int shift)
{
	pw_pend_inputs(pend, hact, xi >> shift, 1u << (xi & ((1u << shift) - 1)));
}

/*
 * A head about to go into injection input xi (x, its record): into an empty input, it
 * is allocated in this very cycle (the NI's flits are combinational into the router).
 * The NI's pass calls it in its head's branch only, before pw_inject_write(): the
 * head's test of every flit cost about 2 instructions an injected flit on direx Q_8.
 */
static inline __attribute__((always_inline)) void
pw_inject_head(struct pair_walk *w, const struct pw_input *x, int32_t xi)
{
	if (x->wr == x->rd)
		pw_pend_head(w->pend[w->cycle & 1], w->hact[w->cycle & 1], xi, w->shift);
}

/*
 * A flit into injection input xi (x, its record), pushed now with no stamp (an
 * injection input's push is seen at once): into the ring in x's record, or in buf
 * (rs, rm: w's ring_shift and ring_mask, which the NI's pass keeps in registers).
 */
static inline __attribute__((always_inline)) void
pw_inject_write(struct pw_input *x, flit_t *buf, int32_t xi, flit_t flit, int rs, uint32_t rm)
{
	uint32_t wr = x->wr;

	if (rs <= PW_RING_IN_SHIFT)
		x->ring[wr & rm] = flit;
	else
		buf[((size_t)xi << rs) + (wr & rm)] = flit;
	x->wr = wr + 1;
}

/* The index of injection channel (node, channel)'s input (the NI keeps it a channel). */
static inline int32_t pair_walk_inj_input(const struct pair_walk *w, int node, int channel)
{
	return (node << w->shift) | (w->ports + channel);
}

/*
 * The NI's flit into injection channel (node, channel), written once, into its ring
 * (network_inject()'s path; the NI's own pass calls the two halves).
 */
static inline __attribute__((always_inline)) void
pair_walk_inject(struct pair_walk *w, int node, int channel, flit_t flit)
{
	const int32_t xi = pair_walk_inj_input(w, node, channel);
	struct pw_input *const x = &w->in[xi];

	if (flit_is_head(flit))
		pw_inject_head(w, x, xi);
	pw_inject_write(x, w->buf, xi, flit, w->ring_shift, w->ring_mask);
}

/* The flits injection input (node, channel) holds (the NI's credits are the depth less these). */
static inline __attribute__((always_inline)) int
pair_walk_inj_held(const struct pair_walk *w, int node, int channel)
{
	const struct pw_input *x = &w->in[pair_walk_inj_input(w, node, channel)];

	return (int)(x->wr - x->rd);
}

#endif
