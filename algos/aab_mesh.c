/* SPDX-License-Identifier: MIT */
/*
 * aab_mesh.c - all-to-all broadcast (gossip) on a one-port mesh, dimension by dimension
 * (Lecture 11, Lemma 8), with the linear-array algorithm of Lemma 6 in each dimension.
 *
 * Linear array M(z), positions 0 .. z-1: rounds alternate the pairs (0,1), (2,3), ...
 * (odd rounds) and (1,2), (3,4), ... (even rounds); in a round each pair exchanges
 * what the partner lacks (NODUP).  What a node holds is an interval of positions around
 * it, so a message is the part of the sender's interval beyond the partner's: the first
 * round moves one position, every other round at most two (one travelling each way
 * through the sender), except the last round of an odd z, which moves one.  Lemma 6:
 *     z even: z - 1 rounds, (z - 1) t_s + (2z - 3) mu t_m;
 *     z odd:  z rounds,     z t_s + (2z - 2) mu t_m          (z = 1: nothing to do).
 * Mesh M(z_1, z_2), dimension 1 first (Lemma 8): every line of dimension 1 gossips the
 * nodes' own blocks; then every line of dimension 2 gossips, a position standing for
 * the z_1 blocks of its line, so mu becomes z_1 mu.  Corollary 9: when a size is odd
 * the order matters.  aabmeshxy goes along the rows first (z_1 = columns), aabmeshyx
 * along the columns first (z_1 = rows).
 *
 * Rings and tori.  aabmeshxy and aabmeshyx run on them unchanged (each line of a torus
 * is a line with one link more, which they leave unused).  aabtorusxy and aabtorusyx
 * gossip each ring dimension of even size z by Lemma 7 (ring K(z), one-port,
 * full-duplex): the pairs (0,1), (2,3), ... in odd rounds and (1,2), ..., (z-1,0) in
 * even rounds, z/2 rounds.  After round r the pair (a, a+1) holds positions
 * a-r+1 .. a+r, so in round r >= 2 a left member a sends a-r+1, a-r+2 and a right one
 * b sends b+r-2, b+r-1 (round 1: its own): 1 + 2(z/2 - 1) = z - 1 blocks in all,
 *     z even: z/2 rounds, (z/2) t_s + (z - 1) mu t_m   (Lemma 7, optimal).
 * Odd z (Lemma 7: (z+3)/2 rounds, ((z+3)/2) t_s + ((3z-1)/2) mu t_m, "one node is
 * always out of the game"; the source gives the formula and a figure for z = 5, not
 * the schedule): every round pairs the ring's nodes but one, the idle node i, and
 * the pairs are then forced, (i+1, i+2), (i+3, i+4), ..., (i-2, i-1).  The idle node is
 * 0, 1, 2, ..., (z-1)/2 in rounds 1 .. (z+1)/2 and 0 again in the last round (derived
 * here; found by an exhaustive search over the idle nodes for z = 5, 7, 9, which
 * reaches Lemma 7's round and block counts, and checked for every odd z up to 39).
 * Consecutive idle nodes make the two alternating matchings of the even case, so a
 * node holds an arc of the ring, and a message is its arc less its partner's (NODUP):
 * the largest message of the rounds carries 1, 2, 3, ..., 3, 1 positions,
 * 1 + 2 + 3 (z-3)/2 + 1 = (3z-1)/2 in all (z = 3: 1, 2, 1).  Each node computes every
 * node's arc round by round (O(z^2) per node, as the line's intervals).  On a ring
 * (1 x N) both orders are the one dimension.
 *
 * The rounds are the source's synchronous steps: a round's sends are made when every
 * message of the previous round has been delivered (the skeleton's ideal barrier,
 * which costs no cycle).  A one-port node then sends at most one and receives at most
 * one message per round, all one hop on distinct link directions, so a round lasts
 * exactly t_s + 1 + m mu, m = the most blocks a message of the round carries: Lemmas 6,
 * 7 and 8 with t_s + 1 for t_s (one hop per round), exactly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

/*
 * A dimension of the network: z positions, each standing for `group` blocks, gossiped
 * as a ring (Lemma 7, z even or odd) or as a line (Lemma 6).
 */
struct line_phase {
	int z, group;
	bool ring;
};

/* variant: the dimension gossiped first; RING_ROUNDS: Lemma 7 on even rings. */
enum { ROWS_FIRST = 0, COLUMNS_FIRST = 1, RING_ROUNDS = 2 };

/*
 * The rounds of Lemma 6 and the blocks moved per message: z even z-1, z odd z (z >= 3);
 * Lemma 7 on a ring: z even z/2 rounds, z - 1 blocks; z odd (z+3)/2 rounds, (3z-1)/2.
 */
static int line_rounds(const struct line_phase *ph)
{
	int z = ph->z;

	if (ph->ring)
		return z % 2 ? (z + 3) / 2 : z / 2;
	return z <= 1 ? 0 : (z % 2 ? z : z - 1);
}

static int line_spans(const struct line_phase *ph)
{
	int z = ph->z;

	if (ph->ring)
		return z % 2 ? (3 * z - 1) / 2 : z - 1;
	return z <= 1 ? 0 : (z % 2 ? 2 * z - 2 : 2 * z - 3);
}

/* The two phases in the order of the algorithm (xy: along the rows first). */
static void phases(const struct algo_params *p, bool xy, struct line_phase ph[2])
{
	const struct topology *t = &p->cfg->topo;
	int first = xy ? t->cols : t->rows, second = xy ? t->rows : t->cols;
	bool ring = (p->variant & RING_ROUNDS) && topology_wraps(t);

	/* (A ring's other dimension has z = 1: nothing to do, as on a line.) */
	ph[0] = (struct line_phase){ first, 1, ring && first >= 2 };
	ph[1] = (struct line_phase){ second, first, ring && second >= 2 };
}

/* Node at position `pos` of node v's line in the given phase. */
static int node_at(const struct topology *t, bool along_row, int v, int pos)
{
	return along_row ? mesh_row(t, v) * t->cols + pos : pos * t->cols + mesh_col(t, v);
}

/*
 * The blocks a position stands for: phase 0 its node's own; phase 1 the whole line of
 * phase 0 through that node.
 */
static int plan_position(struct plan *pl, const struct topology *t, bool xy, int phase,
			 int node)
{
	bool first_along_row = xy;

	if (phase == 0)
		return plan_block(pl, node, BLOCK_ANY, 0);
	for (int k = 0; k < (first_along_row ? t->cols : t->rows); k++)
		if (plan_block(pl, node_at(t, first_along_row, node, k), BLOCK_ANY, 0))
			return -1;
	return 0;
}

/*
 * Lemma 7's rounds on an even ring of z positions (phase f), from position me of
 * node's ring; round numbers continue from *round.
 */
static int ring_phase(struct plan *pl, const struct topology *t, bool xy, int f, bool along_row,
		      int node, int me, int z, int *round)
{
	for (int r = 1; r <= z / 2; r++, (*round)++) {
		bool left = r % 2 ? me % 2 == 0 : me % 2 == 1;
		int q = ((left ? me + 1 : me - 1) + z) % z;
		int first = r == 1 ? me : left ? me - r + 1 : me + r - 2, count = r == 1 ? 1 : 2;
		struct xfer_spec x = { .dest = node_at(t, along_row, node, q), .group = *round,
				       .round = *round };

		if (plan_xfer(pl, &x))
			return -1;
		for (int k = 0; k < count; k++)
			if (plan_position(pl, t, xy, f, node_at(t, along_row, node, ((first + k) % z + z) % z)))
				return -1;
	}
	return 0;
}

/* An arc of a ring of z positions: `len` positions from `lo` on. */
struct arc {
	int lo, len;
};

static bool arc_has(struct arc a, int x, int z)
{
	return ((x - a.lo) % z + z) % z < a.len;
}

/* The union of two arcs that overlap or touch (those of two neighbours). */
static struct arc arc_union(struct arc a, struct arc b, int z)
{
	int d = ((b.lo - a.lo) % z + z) % z, e = ((a.lo - b.lo) % z + z) % z;
	int n;

	if (d <= a.len) {
		n = d + b.len > a.len ? d + b.len : a.len;
		return (struct arc){ a.lo, n < z ? n : z };
	}
	n = e + a.len > b.len ? e + a.len : b.len;
	return (struct arc){ b.lo, n < z ? n : z };
}

/*
 * Lemma 7's rounds on an odd ring of z positions (phase f; the header comment), from
 * position me of node's ring; round numbers continue from *round.
 */
static int odd_ring_phase(struct plan *pl, const struct topology *t, bool xy, int f,
			  bool along_row, int node, int me, int z, int *round)
{
	struct arc *arc = malloc(sizeof(*arc) * (size_t)z);
	int rc = 0;

	if (!arc)
		return plan_out_of_memory(pl);
	for (int k = 0; k < z; k++)
		arc[k] = (struct arc){ k, 1 };
	for (int r = 1; r <= (z + 3) / 2 && !rc; r++, (*round)++) {
		int idle = r <= (z + 1) / 2 ? r - 1 : 0, off = ((me - idle - 1) % z + z) % z;

		if (me != idle) {
			int q = ((off % 2 ? me - 1 : me + 1) % z + z) % z, sent = 0;
			struct xfer_spec x = { .dest = node_at(t, along_row, node, q), .group = *round,
					       .round = *round };

			/* My arc less my partner's, if anything. */
			for (int k = 0; k < arc[me].len && !rc; k++) {
				int pos = (arc[me].lo + k) % z;

				if (arc_has(arc[q], pos, z))
					continue;
				if (!sent++)
					rc = plan_xfer(pl, &x);
				if (!rc)
					rc = plan_position(pl, t, xy, f, node_at(t, along_row, node, pos));
			}
		}
		/* Every pair of the round exchanges: the arcs merge. */
		for (int k = 0; k + 1 < z; k += 2) {
			int a = (idle + 1 + k) % z, b = (idle + 2 + k) % z;

			arc[a] = arc[b] = arc_union(arc[a], arc[b], z);
		}
	}
	free(arc);
	return rc;
}

static int mesh_plan(const struct algo_params *p, int node, const struct receipt *r,
		     struct plan *pl)
{
	const struct topology *t = &p->cfg->topo;
	bool xy = (p->variant & COLUMNS_FIRST) == 0;
	struct line_phase ph[2];
	int round = 1, rc = 0;

	if (r)
		return 0;
	phases(p, xy, ph);
	for (int f = 0; f < 2 && !rc; f++) {
		int z = ph[f].z, *lo, *hi;
		bool along_row = f == 0 ? xy : !xy;
		int me = along_row ? mesh_col(t, node) : mesh_row(t, node);

		if (ph[f].ring) {
			rc = z % 2 ? odd_ring_phase(pl, t, xy, f, along_row, node, me, z, &round)
				   : ring_phase(pl, t, xy, f, along_row, node, me, z, &round);
			continue;
		}
		lo = malloc(sizeof(int) * (size_t)z * 2);
		if (!lo)
			return plan_out_of_memory(pl);
		hi = lo + z;
		for (int k = 0; k < z; k++)
			lo[k] = hi[k] = k;
		for (int step = 1; !rc; step++, round++) {
			bool done = true;
			int q = step % 2 ? me ^ 1 : (me % 2 ? me + 1 : me - 1);
			int from = 0, to = -1;

			for (int k = 0; k < z; k++)
				done = done && lo[k] == 0 && hi[k] == z - 1;
			if (done)
				break;
			/* What I send: my interval beyond my partner's. */
			if (q >= 0 && q < z) {
				from = q > me ? lo[me] : hi[q] + 1;
				to = q > me ? lo[q] - 1 : hi[me];
			}
			if (from <= to) {
				struct xfer_spec x = { .dest = node_at(t, along_row, node, q),
						       .group = round, .round = round };

				rc = plan_xfer(pl, &x);
				for (int k = from; k <= to && !rc; k++)
					rc = plan_position(pl, t, xy, f, node_at(t, along_row, node, k));
			}
			/* Every pair of the round exchanges: the intervals merge. */
			for (int a = step % 2 ? 0 : 1; a + 1 < z; a += 2) {
				int l = lo[a] < lo[a + 1] ? lo[a] : lo[a + 1];
				int h = hi[a] > hi[a + 1] ? hi[a] : hi[a + 1];

				lo[a] = lo[a + 1] = l;
				hi[a] = hi[a + 1] = h;
			}
		}
		free(lo);
	}
	return rc;
}

static void mesh_predict(const struct algo_params *p, const struct schedule_result *s,
			 struct prediction *o)
{
	bool xy = (p->variant & COLUMNS_FIRST) == 0;
	struct line_phase ph[2];
	int ts = p->cfg->startup, mu = algo_mu(p);
	double T = 0, pub = 0;
	char terms[2][96];

	(void)s;
	phases(p, xy, ph);
	for (int f = 0; f < 2; f++) {
		int R = line_rounds(&ph[f]), S = line_spans(&ph[f]);

		T += R * (ts + 1.0) + (double)S * ph[f].group * mu;
		pub += (double)R * ts + (double)S * ph[f].group * mu;
		snprintf(terms[f], sizeof(terms[f]), "t(%s(%d), %d mu) = %d rounds, %d x %d mu",
			 ph[f].ring ? "K" : "M", ph[f].z, ph[f].group, R, S, ph[f].group);
	}
	if (p->variant & RING_ROUNDS) {
		predict_set(o, T, true, DERIVED("aabtorus"),
			    "Lemma 8 with t_s + 1 per round: %s; %s; sum (rounds (t_s + 1) + blocks mu) = %.0f",
			    terms[0], terms[1], T);
		predict_published(o, pub, "Lecture 11, Lemmas 7 and 8",
				  "t(K(z1), mu) + t(K(z2), z1 mu), t(K(z), mu) = (z/2) t_s + (z-1) mu (z even), "
				  "((z+3)/2) t_s + ((3z-1)/2) mu (z odd) = %.0f", pub);
		return;
	}
	predict_set(o, T, true, DERIVED("aabmesh"),
		    "Lemma 8 with t_s + 1 per round: %s; %s; sum (rounds (t_s + 1) + blocks mu) = %.0f",
		    terms[0], terms[1], T);
	predict_published(o, pub, "Lecture 11, Lemmas 6 and 8",
			  "t(M(z1), mu) + t(M(z2), z1 mu), t(M(z), mu) = (z-1) t_s + (2z-3) mu (z even), "
			  "z t_s + (2z-2) mu (z odd, 0 for z = 1) = %.0f", pub);
}


const struct algorithm algo_aabmeshxy = {
	.name = "aabmeshxy",
	.source = "Lecture 11, Lemmas 6 and 8 (dimension by dimension, rows first)",
	.formula_source = "derived; Lecture 11, Lemmas 6 and 8",
	.description = "all-to-all broadcast, one-port mesh: linear-array gossip along the rows, then the columns",
	.kind = COLL_AAB,
	.topologies = ALGO_MESH | ALGO_RING | ALGO_TORUS,
	.networks = "any mesh, lines 1 x N and N x 1 included; rings and tori (as lines)",
	.all_port = false,
	.variant = ROWS_FIRST,
	.plan = mesh_plan,
	.predict = mesh_predict,
};

const struct algorithm algo_aabmeshyx = {
	.name = "aabmeshyx",
	.source = "Lecture 11, Lemmas 6 and 8 (dimension by dimension, columns first)",
	.formula_source = "derived; Lecture 11, Lemmas 6 and 8",
	.description = "all-to-all broadcast, one-port mesh: linear-array gossip along the columns, then the rows",
	.kind = COLL_AAB,
	.topologies = ALGO_MESH | ALGO_RING | ALGO_TORUS,
	.networks = "any mesh, lines 1 x N and N x 1 included; rings and tori (as lines)",
	.all_port = false,
	.variant = COLUMNS_FIRST,
	.plan = mesh_plan,
	.predict = mesh_predict,
};

const struct algorithm algo_aabtorusxy = {
	.name = "aabtorusxy",
	.source = "Lecture 11, Lemmas 7 and 8 (dimension by dimension, rows first)",
	.formula_source = "derived; Lecture 11, Lemmas 7 and 8",
	.description = "all-to-all broadcast, one-port torus or ring: ring gossip along the rows, then the columns",
	.kind = COLL_AAB,
	.topologies = ALGO_RING | ALGO_TORUS,
	.networks = "ring:N, torus:RxC",
	.all_port = false,
	.variant = ROWS_FIRST | RING_ROUNDS,
	.plan = mesh_plan,
	.predict = mesh_predict,
};

const struct algorithm algo_aabtorusyx = {
	.name = "aabtorusyx",
	.source = "Lecture 11, Lemmas 7 and 8 (dimension by dimension, columns first)",
	.formula_source = "derived; Lecture 11, Lemmas 7 and 8",
	.description = "all-to-all broadcast, one-port torus or ring: ring gossip along the columns, then the rows",
	.kind = COLL_AAB,
	.topologies = ALGO_RING | ALGO_TORUS,
	.networks = "ring:N, torus:RxC",
	.all_port = false,
	.variant = COLUMNS_FIRST | RING_ROUNDS,
	.plan = mesh_plan,
	.predict = mesh_predict,
};
