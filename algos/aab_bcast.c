/* SPDX-License-Identifier: MIT */
/*
 * aab_bcast.c - all-to-all broadcast without combining: every node broadcasts its own
 * block with a B header, replicated by the routers (Jeon & Kim's pipelined broadcast
 * from every root).
 *
 * aabbcastnaive sends all N broadcasts at cycle 0.  Jeon & Kim warn that concurrent
 * pipelined broadcasts may deadlock; on this router they do, for all but the shortest
 * messages: a root router grants its own broadcast all its links at once, another
 * broadcast's branch then waits there for one of them while holding its own links
 * elsewhere, and lockstep replication (MR) stalls every branch of a message whose one
 * branch waits (docs/algorithms.md#aabbcast has the watchdog's report and the
 * mechanism).
 *
 * aabbcast is the schedule that provably avoids it.  The roots are grouped into rounds
 * of broadcasts whose trees share no directed link (checked here on the router's own
 * replication trees); round r + 1 starts when every broadcast of rounds <= r has its head
 * at every node (the skeleton's head barrier).  A head at every node means every router
 * of the tree has granted the broadcast all its outputs, which it keeps until its tail
 * passes, so a broadcast never waits for one of a later round, and within a round they
 * share nothing: the waits-for relation is acyclic and the oldest unfinished broadcast
 * always moves (the proof is in the docs).  On Q_d the tree of S and that of S xor 1 are
 * disjoint (Algorithm B forwards on dimension j from T only if S and T agree on bits
 * 0..j), so each round has two roots; on a mesh only a root of the first row and one of
 * the last row, or the two ends of a single row, have disjoint trees.
 *
 * Rings and tori run the same rounds (their rows and columns as a mesh's, the mesh's
 * pairs where trees_disjoint() finds them disjoint: rings of 2 or 3 nodes and tori of 2
 * or 3 rows, where the first and last rows are neighbours; elsewhere N rounds).  With virtual channels an output is a link's VC: M holds
 * its own, and a later broadcast on the link's other VC shares the link's cycles by the
 * fair per-link arbitration but never holds M back for good, so the proof stands;
 * the recurrence of bcast_rounds() is exact wherever the tests ran it (tori 2x2 to
 * 8x8, rings 2 to 16, T_r <= depth - 2, V = 2 and 3), each run asserting it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

/* Do the replication trees of roots a and b share a directed link? */
static bool trees_disjoint(const struct topology *t, int a, int b)
{
	for (int v = 0; v < t->nodes; v++)
		if (replication_children(t, a, v) & replication_children(t, b, v))
			return false;
	return true;
}

/* The position of x in the reflected Gray code: consecutive rounds differ in one bit. */
static int gray_rank(int x)
{
	int k = 0;

	for (; x; x >>= 1)
		k ^= x;
	return k;
}

/*
 * How the roots are paired into rounds: Q_d: S with S xor 2^pair_dim (-1: no pairs);
 * mesh, if mesh_pairs: a root of the first row with the root of the last row in its
 * column, or on a single row its two ends.
 */
struct pairing {
	int pair_dim;
	bool mesh_pairs;
};

/*
 * Q_d: the lowest dimension j for which the trees of S and S xor 2^j are disjoint (the
 * trees are translates of each other, so the check with S = 0 holds for every S).
 * Mesh: the trees of (0, 0) and (rows - 1, 0), or of the two ends of a single row, are
 * disjoint; bcast_plan() checks every other pair for its own root.
 */
static struct pairing pairing_of(const struct topology *t)
{
	struct pairing pr = { .pair_dim = -1 };

	if (t->kind == TOPO_HYPERCUBE) {
		for (int j = 0; j < t->dim && pr.pair_dim < 0; j++)
			if (trees_disjoint(t, 0, 1 << j))
				pr.pair_dim = j;
		return pr;
	}
	if (t->rows == 1) {
		pr.mesh_pairs = t->cols >= 2 && trees_disjoint(t, 0, t->cols - 1);
		return pr;
	}
	pr.mesh_pairs = trees_disjoint(t, 0, (t->rows - 1) * t->cols);
	return pr;
}

/*
 * The round of root s (1..).  Q_d: the pairs follow a Gray code of their other bits, so
 * consecutive rounds' roots are neighbours.  Mesh: the pairs first, column by column,
 * then the other roots one per round, row by row in a snake (row 1 from the last
 * column back, row 2 forth, ...), again neighbours from round to round.  A single
 * row: its two ends first, then the others from left to right.
 */
static int round_of(const struct topology *t, const struct pairing *pr, int s)
{
	int j = pr->pair_dim, r, c, C = t->cols;

	if (t->kind == TOPO_HYPERCUBE)
		return 1 + gray_rank(j < 0 ? s : (s >> (j + 1)) << j | (s & ((1 << j) - 1)));
	r = mesh_row(t, s);
	c = mesh_col(t, s);
	if (t->rows == 1 && pr->mesh_pairs)
		return c == C - 1 ? 1 : 1 + c;
	if (pr->mesh_pairs && (r == 0 || r == t->rows - 1))
		return 1 + c;
	return 1 + C * r + (r % 2 ? C - 1 - c : c);
}

/* The root that shares s's round, or -1. */
static int pair_mate(const struct topology *t, const struct pairing *pr, int s)
{
	int r, c;

	if (t->kind == TOPO_HYPERCUBE)
		return pr->pair_dim < 0 ? -1 : s ^ (1 << pr->pair_dim);
	if (!pr->mesh_pairs)
		return -1;
	r = mesh_row(t, s);
	c = mesh_col(t, s);
	if (t->rows == 1)
		return c == 0 ? t->cols - 1 : (c == t->cols - 1 ? 0 : -1);
	if (r == 0 || r == t->rows - 1)
		return (t->rows - 1 - r) * t->cols + c;
	return -1;
}

static int rounds_total(const struct topology *t, const struct pairing *pr)
{
	if (t->kind == TOPO_HYPERCUBE)
		return pr->pair_dim < 0 ? t->nodes : t->nodes / 2;
	if (!pr->mesh_pairs)
		return t->nodes;
	return t->rows == 1 ? t->nodes - 1 : t->nodes - t->cols;
}

/* variant: every broadcast at cycle 0, or in head-gated rounds. */
enum { ALL_AT_ONCE, HEAD_GATED };

static int bcast_plan(const struct algo_params *p, int node, const struct receipt *r,
		      struct plan *pl)
{
	struct xfer_spec x = { .bcast = true };

	if (r)
		return 0;
	if (p->variant == HEAD_GATED) {
		const struct topology *t = &p->cfg->topo;
		struct pairing pr = pairing_of(t);
		int mate = pair_mate(t, &pr, node);

		/* The proof needs a round's trees disjoint: check this root's pair. */
		if (mate >= 0 && !trees_disjoint(t, node, mate))
			return plan_fail(pl, "the trees of roots %d and %d share a link", node, mate);
		x.round = round_of(t, &pr, node);
		x.round_heads = true;
	}
	if (plan_xfer(pl, &x) || plan_block(pl, node, BLOCK_ANY, 0))
		return -1;
	return 0;
}

/* The port of `node` that leads to its neighbour `to`. */
static int port_to(const struct topology *t, int node, int to)
{
	for (int q = 0; q < t->ports; q++)
		if (topology_neighbor(t, node, q) == to)
			return q;
	return -1;
}

/*
 * The head-gated rounds in cycles (docs/algorithms.md#aabbcast), for every root S of
 * round k: its head asks for all of S's links at g = c_k + t_s - 1 (c_k: the cycle the
 * heads of round k - 1 are everywhere) and is granted there once every earlier broadcast
 * that holds one of them has released it; it then reaches a router i hops away at
 * g + i (1 + T_r) and takes its outputs there; a router releases an output the cycle
 * after the tail has left it, at the head's arrival + T_r (if it forwards) + L.  This
 * is exact when every wait is at a root: a later broadcast waits for an earlier one
 * only where it starts, and then trails it everywhere (its tree paths are shortest
 * paths).  *exact is cleared if a head would wait anywhere else.
 */
static double bcast_rounds(const struct algo_params *p, int *nrounds, bool *exact)
{
	const struct topology *t = &p->cfg->topo;
	int n = t->nodes, outs = 2 * t->ports, L = p->flits, ts = p->cfg->startup;
	int tr = p->cfg->replication_cost;
	struct pairing pr = pairing_of(t);
	int R = rounds_total(t, &pr);
	uint64_t *rel = calloc((size_t)n * (size_t)outs, sizeof(*rel));
	int *round = malloc(sizeof(int) * (size_t)n);
	uint64_t c = 0, end = 0;

	*nrounds = R;
	/* A hold longer than depth - 2 cycles stalls the flits behind a head upstream. */
	*exact = rel && round && (tr == 0 || tr <= p->cfg->buffer_depth - 2);
	if (!*exact) {
		free(rel);
		free(round);
		return -1;
	}
	for (int v = 0; v < n; v++)
		round[v] = round_of(t, &pr, v);
	for (int k = 1; k <= R; k++) {
		uint64_t next_c = c, g[2] = { 0, 0 };
		int roots[2], nr = 0;

		for (int v = 0; v < n && nr < 2; v++)
			if (round[v] == k)
				roots[nr++] = v;
		/* Grants against the state before the round: a round's trees are disjoint. */
		for (int q = 0; q < nr; q++) {
			int S = roots[q];
			uint64_t at_root = c + (uint64_t)ts - 1, late = at_root;

			for (int X = 0; X < n; X++) {
				uint32_t mask = replication_children(t, S, X);
				uint64_t d = (uint64_t)topology_distance(t, S, X) * (uint64_t)(1 + tr);

				if (X != S)
					mask |= 1u << (t->ports + port_to(t, X, replication_parent(t, S, X)));
				for (int o = 0; o < outs; o++)
					if (mask >> o & 1 && rel[(size_t)X * outs + o] > d) {
						uint64_t need = rel[(size_t)X * outs + o] - d;

						if (X == S && need > at_root)
							at_root = need;
						if (need > late)
							late = need;
					}
			}
			*exact = *exact && late == at_root;
			g[q] = late;
		}
		for (int q = 0; q < nr; q++) {
			int S = roots[q];

			for (int X = 0; X < n; X++) {
				uint32_t links = replication_children(t, S, X), mask = links;
				uint64_t head = g[q] + (uint64_t)topology_distance(t, S, X) * (uint64_t)(1 + tr);
				uint64_t hold = links ? (uint64_t)tr : 0;

				if (X != S) {
					mask |= 1u << (t->ports + port_to(t, X, replication_parent(t, S, X)));
					/* Head and tail on X's ejection channel. */
					if (head + hold + 1 > next_c)
						next_c = head + hold + 1;
					if (head + hold + (uint64_t)L > end)
						end = head + hold + (uint64_t)L;
				}
				for (int o = 0; o < outs; o++)
					if (mask >> o & 1)
						rel[(size_t)X * outs + o] = head + hold + (uint64_t)L;
			}
		}
		c = next_c;
	}
	free(rel);
	free(round);
	return (double)end;
}

static void bcast_predict(const struct algo_params *p, const struct schedule_result *s,
			  struct prediction *o)
{
	int R;
	bool exact;
	double T;

	if (p->variant == ALL_AT_ONCE) {
		predict_schedule(o, s, false, DERIVED("aabbcast"));
		return;
	}
	T = bcast_rounds(p, &R, &exact);
	predict_set(o, T, exact, DERIVED("aabbcast"),
		    "%d head-gated rounds; each root granted when the heads of the last round are "
		    "everywhere + t_s - 1 or when the earlier broadcasts release its links: %.0f", R, T);
	/* Jeon & Kim's prescription, one broadcast after the other: N times eq. 2. */
	{
		const struct topology *t = &p->cfg->topo;
		int ts = p->cfg->startup, tr = p->cfg->replication_cost;
		double serial = 0;

		for (int S = 0; S < t->nodes; S++) {
			int D = 0;

			for (int v = 0; v < t->nodes; v++)
				D = topology_distance(t, S, v) > D ? topology_distance(t, S, v) : D;
			serial += ts + D + (p->flits - 1) + (double)D * tr;
		}
		predict_published(o, serial, "Jeon & Kim eq. 2, one broadcast at a time",
				  "sum over the N roots of T_s + n T_f + m T_c + n T_r (n = the root's "
				  "depth) = %.0f", serial);
	}
}

const struct algorithm algo_aabbcastnaive = {
	.name = "aabbcastnaive",
	.source = "Jeon & Kim, pipelined broadcast from every node at once (deadlocks)",
	.formula_source = "derived (docs/algorithms.md#aabbcast): the contention-free schedule",
	.description = "all-to-all broadcast: every node sends a B message at cycle 0; the watchdog finds the deadlock",
	.kind = COLL_AAB,
	.topologies = ALGO_HYPERCUBE | ALGO_MESH,
	.networks = "Q_d; any mesh",
	.all_port = true,
	.variant = ALL_AT_ONCE,
	.plan = bcast_plan,
	.predict = bcast_predict,
};

const struct algorithm algo_aabbcast = {
	.name = "aabbcast",
	.source = "Jeon & Kim, pipelined broadcast from every node, in deadlock-free rounds",
	.formula_source = "derived (docs/algorithms.md#aabbcast)",
	.description = "all-to-all broadcast: B messages in rounds of link-disjoint trees, each round after the heads of the last",
	.kind = COLL_AAB,
	.topologies = ALGO_HYPERCUBE | ALGO_MESH | ALGO_RING | ALGO_TORUS,
	.networks = "Q_d; any mesh, ring or torus",
	.all_port = true,
	.variant = HEAD_GATED,
	.plan = bcast_plan,
	.predict = bcast_predict,
};
