/* SPDX-License-Identifier: MIT */
/*
 * hk.c - Ho & Kao's all-port broadcast (IEEE TPDS 6(2), 1995) as Jeon & Kim describe
 * it: dimension-simple paths split the n-cube into n+1 subcubes, recursively, and
 * every node forwards only after it has received the WHOLE message (store and
 * forward between steps, no pipelining).
 *
 * One step of a holder h of a subcube with free dimensions F (n = |F|):
 *  - it sends the message simultaneously to the n nodes of the DESCENDING dimension-
 *    simple path v_0 = h, v_j = v_{j-1} xor 2^{a_j}, a_1 > a_2 > ... > a_n (F sorted
 *    from the top).  Our unicasts are e-cube (lowest dimension first), so the route
 *    to v_j flips a_j, a_{j-1}, ..., a_1 in that order: the routes start on distinct
 *    links (so distinct injection channels) and are link-disjoint (an edge of the
 *    route to v_j leaves h xor {a_j..a_{i+1}}, a node set that identifies j).  This
 *    is the seed's "ascending path with top-to-bottom routing", mirrored.  With
 *    descending routes (--route-order descending, the seed's own routing) the path
 *    is the seed's ascending one, a_1 < ... < a_n: everything below is the same with
 *    the dimensions listed the other way round.
 *  - the subcube is split into n+1 subcubes, one per path node, by a binary tree of
 *    cuts along path dimensions: the range v_i..v_j is cut at the edge a_t between
 *    v_{t-1} and v_t, which leaves v_i..v_{t-1} and v_t..v_j in the two halves of the
 *    subcube across a_t.  The tree is as balanced as possible, its deeper leaves on
 *    the side of h, so every part has dimension n - floor(log2(n+1)) or one less,
 *    and the farthest node v_n gets a part of the larger dimension n - k.  The part
 *    of v_j travels in the message tag (its free-dimension mask).
 *  - h continues in its own part (the next step) once its sends have left its NI.
 * Base cases as in Ho & Kao's recursion: Q_1 one send; Q_2 a path of ONE edge (then
 *  two Q_1); Q_3 the 3-edge path and four Q_1; Q_4 a special two-step scheme: step 1
 *  to 1000, 0100, 0010 and the antipode 1111 (routes 0->1000, 0->0100, 0->0010,
 *  0->0001->0011->0111->1111: link-disjoint), step 2 one hop each: 0000->0001,
 *  1000->{1001,1010,1100}, 0100->{0101,0110}, 0010->0011, 1111->{1110,1101,1011,0111}
 *  (bits are the four free dimensions from the top).  This gives exactly the step
 *  counts and hop counts of the seed's recursion:
 *     alpha_1 = 1, alpha_2..4 = 2, alpha_n = 1 + alpha_{n - floor(log2(n+1))}
 *     beta_1 = 1, beta_2 = 2, beta_3 = 4, beta_4 = 5, beta_n = n + beta_{n - floor(log2(n+1))}
 *     gamma_n = alpha_n.
 *
 * Time, Jeon & Kim eq. (1): T = alpha_n T_s + beta_n T_f + gamma_n T_c.  Here T_f is the
 * header's per-hop cost h = 1 and T_c is the cost of the NON-header part of one
 * message (the paper defines T_f for the header flit and T_c for the others): L - 1
 * flits at one per cycle.  With T_s = t_s:
 *     T = alpha_d t_s + beta_d + alpha_d (L - 1).
 * Under this model a step of a holder lasts t_s + L - 1 cycles (its channels are free
 * again), and a message over k hops reaches its target's tail at + t_s + k + L - 1.
 * The chain through the farthest node of every level pays alpha_d start-ups and
 * beta_d hops, every other chain pays no more (alpha, beta are non-decreasing), so
 * the formula is exact provided no message ever waits in the network, which the
 * tests check (measured == formula and link conflicts == 0).
 */
#include <stdio.h>

#include "common.h"

#define HK_LIST (1ull << 20)	/* tag bit: send one hop along each listed dimension */
#define HK_ALL (1ull << 21)	/* the root's tag: the whole cube */

static int hk_emit(struct plan *pl, int dest, int group, uint64_t tag)
{
	return plan_forward(pl, dest, group, false, tag);
}

/*
 * Free dimensions of F into a[1..n] in the opposite order to the routes: highest
 * first under e-cube routing, lowest first under descending routing.
 */
static int hk_dims(unsigned F, enum dim_order route, int *a)
{
	int n = 0;

	for (int k = 31; k >= 0; k--) {
		int i = route == ORDER_ASCENDING ? k : 31 - k;

		if (F >> i & 1)
			a[++n] = i;
	}
	return n;
}

/*
 * Parts for path nodes v_i..v_j that still share the free mask F: a balanced cut
 * tree, the deeper leaves towards v_0.
 */
static void hk_split(const int *a, int i, int j, unsigned F, unsigned *part)
{
	int s = j - i + 1, p2, left, t;

	if (s == 1) {
		part[i] = F;
		return;
	}
	p2 = 1 << algo_log2((unsigned)s);
	left = p2 / 2 + (s - p2 < p2 / 2 ? s - p2 : p2 / 2);
	t = i + left;
	hk_split(a, i, t - 1, F & ~(1u << a[t]), part);
	hk_split(a, t, j, F & ~(1u << a[t]), part);
}

static int hk_task(int node, unsigned F, int group, enum dim_order route, struct plan *pl)
{
	int a[TOPO_MAX_DIM + 2], n = hk_dims(F, route, a);
	unsigned part[TOPO_MAX_DIM + 2];

	if (n == 0)
		return 0;
	if (n == 4) {
		/* f3 = a[1] > f2 = a[2] > f1 = a[3] > f0 = a[4] (mirrored: <). */
		int f3 = 1 << a[1], f2 = 1 << a[2], f1 = 1 << a[3], f0 = 1 << a[4];

		if (hk_emit(pl, node ^ f3, group, HK_LIST | (unsigned)(f0 | f1 | f2)) ||
		    hk_emit(pl, node ^ f2, group, HK_LIST | (unsigned)(f0 | f1)) ||
		    hk_emit(pl, node ^ f1, group, HK_LIST | (unsigned)f0) ||
		    hk_emit(pl, node ^ f3 ^ f2 ^ f1 ^ f0, group, HK_LIST | (unsigned)(f0 | f1 | f2 | f3)) ||
		    hk_emit(pl, node ^ f0, group + 1, 0))
			return -1;
		return 0;
	}
	if (n == 2) {
		/* A path of one edge: two Q_1 parts. */
		unsigned rest = F & ~(1u << a[1]);

		if (hk_emit(pl, node ^ (1 << a[1]), group, rest))
			return -1;
		return hk_task(node, rest, group + 1, route, pl);
	}
	/* n = 1, 3 or >= 5: the n-edge descending path and n+1 parts. */
	hk_split(a, 0, n, F, part);
	for (int j = 1, v = node; j <= n; j++) {
		v ^= 1 << a[j];
		if (hk_emit(pl, v, group, part[j]))
			return -1;
	}
	return hk_task(node, part[0], group + 1, route, pl);
}

static int hk_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	uint64_t tag;

	if (!tree_turn(p, node, r, HK_ALL, &tag))
		return 0;
	if (tag & HK_LIST) {
		unsigned dims = (unsigned)(tag & ~HK_LIST);

		for (int i = 0; i < 32; i++)
			if (dims >> i & 1 && hk_emit(pl, node ^ (1 << i), 0, 0))
				return -1;
		return 0;
	}
	if (tag & HK_ALL)
		tag = (1u << p->cfg->topo.dim) - 1;
	return hk_task(node, (unsigned)tag, 0, p->cfg->topo.route_order, pl);
}

/* The seed's recursion. */
static void hk_coeffs(int n, int *alpha, int *beta)
{
	static const int a0[] = { 0, 1, 2, 2, 2 }, b0[] = { 0, 1, 2, 4, 5 };
	int sa, sb, k;

	if (n <= 4) {
		*alpha = a0[n];
		*beta = b0[n];
		return;
	}
	k = algo_log2((unsigned)n + 1);
	hk_coeffs(n - k, &sa, &sb);
	*alpha = 1 + sa;
	*beta = n + sb;
}

static void hk_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p), alpha, beta;

	(void)s;
	hk_coeffs(d, &alpha, &beta);
	predict_set(o, (double)alpha * ts + beta + (double)alpha * mu, true, "Jeon & Kim eq. 1",
		    "alpha T_s + beta T_f + gamma T_c, T_s = t_s, T_f = 1, T_c = L-1 (non-header "
		    "flits), alpha = gamma = %d, beta = %d: %d*%d + %d + %d*%d = %d "
		    "[O(m ceil(n/log2(n+1)))]", alpha, beta, alpha, ts, beta, alpha, mu,
		    alpha * ts + beta + alpha * mu);
}

const struct algorithm algo_hk = {
	.name = "hk",
	.networks = "Q_d",
	.source = "Ho & Kao 1995 as described by Jeon & Kim, eq. 1",
	.formula_source = "Jeon & Kim eq. 1",
	.description = "all-port broadcast along dimension-simple paths, n+1 subcubes per step, store and forward",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.plan = hk_plan,
	.predict = hk_predict,
};
