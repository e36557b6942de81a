/* SPDX-License-Identifier: MIT */
/*
 * irham.c - broadcast along a Hamiltonian path with intermediate reception (Jeon & Kim,
 * section 2: "a straightforward broadcasting is possible using IR by sending a
 * message along a Hamiltonian path ... O(2^n + m - 1) once any per-node delay is
 * counted").
 *
 * The path is the reflected Gray code g(k) = k xor (k >> 1), k = 0 .. 2^d - 1,
 * relabelled by xor root (so it starts at the root).  Step k of the path flips
 * dimension ctz(k): 0, 1, 0, 2, 0, 1, 0, 3, ...  A single R+IR message only follows
 * its e-cube route (ascending dimensions), so it can cover a stretch of the path
 * only where the path's dimensions ascend: the maximal such runs are the pairs of
 * steps (2q+1, 2q+2), dimensions (0, ctz(2q+2) >= 1), plus the last step 2^d - 1
 * alone.  So the broadcast is 2^(d-1) R+IR messages, run q from g(2q) to
 * g(min(2q+2, 2^d-1)) delivering to both nodes it passes, each sent by the node where
 * the previous run ended.
 *
 * irham   forwards when the HEAD of the run addressed to the node arrives (cut-
 *         through at the NI, the seed's "per-node delay" model).  That is only
 *         correct if no forwarded flit leaves before it arrived: the node sends at
 *         the head's arrival cycle a, its flit i leaves at a + t_s - 1 + i or later,
 *         and flit i arrived at a + i if the flits came back to back, so t_s >= 1
 *         suffices; the driver checks at the tail that they did (tail = head + L-1)
 *         and a random sink stall would break it, so irham refuses sink_stall > 0.
 *         T = sum over runs (t_s + hops) + (L - 1) = 2^(d-1) t_s + (2^d - 1) + (L - 1).
 * irhamsf forwards when the whole run has arrived (store and forward between runs):
 *         T = sum over runs (t_s + hops + L - 1) = 2^(d-1) (t_s + L - 1) + 2^d - 1.
 * Both exact: the runs use distinct links of the path, every node receives once, and
 * the ejection channel of each receipt is paired with its own input link.
 */
#include <stdio.h>

#include "common.h"

static int gray(int k) { return k ^ (k >> 1); }

static int gray_inverse(int g)
{
	int k = 0;

	for (; g; g >>= 1)
		k ^= g;
	return k;
}

static int ih_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		   int max)
{
	int last = p->cfg->topo.nodes - 1, pos = gray_inverse(node ^ p->root), to;

	(void)tag;
	/* Runs start at even positions; odd positions are IR stops inside a run. */
	if (pos % 2 || pos == last || max < 1)
		return pos % 2 || pos == last ? 0 : -1;
	to = pos + 2 < last ? pos + 2 : last;
	out[0] = (struct tb_send){ .dest = gray(to) ^ p->root, .group = 0, .ir = true };
	return 1;
}

static const struct tb_ops ih_ct_ops = { .plan = ih_plan, .cut_through = true };
static const struct tb_ops ih_sf_ops = { .plan = ih_plan };

/* The runs follow the Gray code path only along ascending (e-cube) routes. */
static int ih_need_ecube(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (algo_need_hypercube(p, name, err, len))
		return -1;
	if (p->cfg->topo.route_order != ORDER_ASCENDING) {
		snprintf(err, len, "%s covers the Gray code path with e-cube runs: use --route-order ascending",
			 name);
		return -1;
	}
	return 0;
}

static int ih_supports(const struct algo_params *p, char *err, size_t len)
{
	if (ih_need_ecube(p, "irham", err, len))
		return -1;
	if (p->cfg->sink_stall > 0) {
		snprintf(err, len, "irham forwards cut-through at the NI, which is only correct when "
			 "flits arrive back to back: use irhamsf with sink stalls");
		return -1;
	}
	return 0;
}

static int ihsf_supports(const struct algo_params *p, char *err, size_t len)
{
	return ih_need_ecube(p, "irhamsf", err, len);
}

static void *ih_ct_create(const struct algo_params *p) { return tb_create(p, &ih_ct_ops); }
static void *ih_sf_create(const struct algo_params *p) { return tb_create(p, &ih_sf_ops); }

static double ih_ct_predict(const struct algo_params *p, char *formula, size_t len)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, L = p->flits, runs = 1 << (d - 1);
	double T = (double)runs * ts + ((1 << d) - 1) + (L - 1);

	snprintf(formula, len,
		 "Jeon & Kim O(2^n + m - 1) made concrete: 2^(d-1) runs * t_s + (2^d - 1) hops + (L-1) "
		 "= %d*%d + %d + %d = %.0f", runs, ts, (1 << d) - 1, L - 1, T);
	return T;
}

static double ih_sf_predict(const struct algo_params *p, char *formula, size_t len)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, L = p->flits, runs = 1 << (d - 1);
	double T = (double)runs * (ts + L - 1) + ((1 << d) - 1);

	snprintf(formula, len,
		 "2^(d-1) runs * (t_s + L-1) + (2^d - 1) hops = %d*%d + %d = %.0f "
		 "[Jeon & Kim: O(2^n + m - 1) only when forwarding cut-through, see irham]",
		 runs, ts + L - 1, (1 << d) - 1, T);
	return T;
}

static double ih_ct_schedule(const struct algo_params *p, char *text, size_t len)
{
	return tb_schedule(p, &ih_ct_ops, text, len);
}

static double ih_sf_schedule(const struct algo_params *p, char *text, size_t len)
{
	return tb_schedule(p, &ih_sf_ops, text, len);
}

const struct algorithm algo_irham = {
	.name = "irham",
	.source = "Jeon & Kim, Hamiltonian-path broadcast with IR",
	.description = "Gray-code Hamiltonian path, R+IR runs of 2 hops, forwarded cut-through",
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.uses_root = true,
	.supports = ih_supports,
	.create = ih_ct_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = ih_ct_predict,
	.exact = true,
	.schedule = ih_ct_schedule,
};

const struct algorithm algo_irhamsf = {
	.name = "irhamsf",
	.source = "Jeon & Kim, Hamiltonian-path broadcast with IR",
	.description = "Gray-code Hamiltonian path, R+IR runs of 2 hops, store and forward",
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.uses_root = true,
	.supports = ihsf_supports,
	.create = ih_sf_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = ih_sf_predict,
	.exact = true,
	.schedule = ih_sf_schedule,
};
