/* SPDX-License-Identifier: MIT */
/*
 * aab_flood.c - all-to-all broadcast (gossip) on an all-port hypercube with combining:
 * every node sends on every dimension at once, d steps (Lecture 11's flooding with
 * MINDUP messages, FLOODINGMINDUPAAB, on Q_d: diam(Q_d) = d rounds, the fewest
 * possible, Lemma 1).
 *
 * Block of u reaches node w at step popcount(u xor w), from the neighbour
 * w xor 2^j(x), x = u xor w, which is one step closer to u and so already holds it:
 * each (u, w) pair is served once, and a node's step-k message to its neighbour
 * across dimension j combines the blocks of every x of weight k with j(x) = j.  MINDUP
 * leaves the choice of j(x) among the set bits of x open; the lowest bit would put
 * C(d-1, k-1) blocks on dimension 0 at step k and none on d-1.  Here j is balanced: the x
 * of weight k are taken a necklace (the rotations of one x) at a time, the rotations of
 * a necklace get consecutive dimensions from a base bit chosen to load the dimensions
 * evenly, so that at step k a dimension carries at most ceil(C(d, k) / d) blocks (the
 * tests check it for d <= 8, an offline transcription up to d = 13), against the
 * C(d, k) / d of a perfect spread.
 *
 * A node makes its step-k sends when its step k-1 sends have all left the NI and it
 * holds their blocks.  Every node does the same at the same time (the plan is a
 * translate of node 0's), every step's messages are one hop, one per link direction
 * and per injection and ejection channel: no contention, and the measured cycles are
 * the contention-free schedule of the plan, exactly.  It is at most
 *     sum_{k=1}^{d} (t_s + 1 + m_k mu),   m_k = the most blocks on one dimension at step k,
 * and equal to it whenever each step waits for its longest message (derived,
 * docs/algorithms.md#aabflood).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static unsigned rotl(unsigned x, int s, int d)
{
	unsigned m = (1u << d) - 1;

	return s ? ((x << s) | (x >> (d - s))) & m : x;
}

/*
 * j(x) for every x in 1 .. 2^d - 1 into jsel[], and the most blocks one dimension
 * carries at each step into most[1..d].  0, or -1 out of memory.
 */
static int flood_dims(int d, int *jsel, int *most)
{
	unsigned n = 1u << d;
	char *seen = calloc(n, 1);
	int load[32];

	if (!seen)
		return -1;
	for (int k = 1; k <= d; k++) {
		for (int j = 0; j < d; j++)
			load[j] = 0;
		for (unsigned x0 = 1; x0 < n; x0++) {
			int p = 0, best_b = -1, best_max = 0, best_sum = 0;
			unsigned y = x0;

			if (__builtin_popcount(x0) != k || seen[x0])
				continue;
			/* The necklace of x0: x0 is its smallest member, p its period. */
			do {
				seen[y] = 1;
				y = rotl(y, 1, d);
				p++;
			} while (y != x0);
			for (int b = 0; b < d; b++) {
				int mx = 0, sum = 0;

				if (!(x0 >> b & 1))
					continue;
				for (int s = 0; s < p; s++) {
					int l = load[(b + s) % d];

					mx = l > mx ? l : mx;
					sum += l;
				}
				if (best_b < 0 || mx < best_max || (mx == best_max && sum < best_sum)) {
					best_b = b;
					best_max = mx;
					best_sum = sum;
				}
			}
			/* Rotating x0 by s moves its bit b to b + s. */
			for (int s = 0; s < p; s++) {
				jsel[rotl(x0, s, d)] = (best_b + s) % d;
				load[(best_b + s) % d]++;
			}
		}
		most[k] = 0;
		for (int j = 0; j < d; j++)
			most[k] = load[j] > most[k] ? load[j] : most[k];
	}
	free(seen);
	return 0;
}

static int flood_plan(const struct algo_params *p, int node, const struct receipt *r,
		      struct plan *pl)
{
	int d = p->cfg->topo.dim, n = 1 << d, most[33];
	int *jsel = malloc(sizeof(int) * (size_t)n);
	int rc = 0;

	if (r) {
		free(jsel);
		return 0;
	}
	if (!jsel || flood_dims(d, jsel, most)) {
		free(jsel);
		return plan_out_of_memory(pl);
	}
	for (int k = 1; k <= d && !rc; k++)
		for (int j = 0; j < d && !rc; j++) {
			struct xfer_spec x = { .dest = node ^ (1 << j), .group = k - 1 };
			bool planned = false;

			/* To w = node xor 2^j: the blocks u with u xor w of weight k and j(u xor w) = j. */
			for (int dx = 1; dx < n && !rc; dx++) {
				if (__builtin_popcount((unsigned)dx) != k || jsel[dx] != j)
					continue;
				if (!planned)
					rc = plan_xfer(pl, &x);
				planned = true;
				if (!rc)
					rc = plan_block(pl, dx ^ node ^ (1 << j), BLOCK_ANY, 0);
			}
		}
	free(jsel);
	return rc;
}

static void flood_predict(const struct algo_params *p, const struct schedule_result *s,
			  struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p), most[33];
	int *jsel = malloc(sizeof(int) * ((size_t)1 << d));
	double upper = 0;
	long blocks = 0;

	if (jsel && flood_dims(d, jsel, most) == 0)
		for (int k = 1; k <= d; k++) {
			upper += ts + 1 + (double)most[k] * mu;
			blocks += most[k];
		}
	free(jsel);
	predict_schedule(o, s, true, DERIVED("aabflood"));
	snprintf(o->formula, sizeof(o->formula),
		 "the plan's schedule, %s; at most sum_k (t_s + 1 + m_k mu) = d (t_s + 1) + %ld mu = %.0f",
		 s->ok ? s->text : "(failed)", blocks, upper);
}

const struct algorithm algo_aabflood = {
	.name = "aabflood",
	.source = "Lecture 11, FLOODINGMINDUPAAB on Q_d (all dimensions at once, combining)",
	.formula_source = "derived (docs/algorithms.md#aabflood)",
	.description = "all-to-all broadcast, all-port: d steps, each on every dimension, blocks combined and balanced over the dimensions",
	.kind = COLL_AAB,
	.topologies = ALGO_HYPERCUBE,
	.networks = "Q_d",
	.all_port = true,
	.plan = flood_plan,
	.predict = flood_predict,
};
