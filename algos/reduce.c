/* SPDX-License-Identifier: MIT */
/*
 * reduce.c - all-to-one reduction on a one-port hypercube (Grama et al. 4.1, Algorithm 4.3,
 * relabelled with my_id xor root as in Algorithm 4.2): the dual of sbt, the same
 * binomial tree walked in the opposite order and direction, lowest dimension first.
 *
 * Every node starts with L-1 words of its own (word i of node v = algo_word(v, i)).
 * Node v (virtual id x = v xor root, b = lowest set bit of x, b = d at the root)
 * has children x xor 2^j for j < b.  Once it has received the partial sums of all
 * of them it adds them element-wise (modulo 2^W, W = payload_width, the width of a
 * payload word) into its own words and sends the result to its parent x xor 2^b.
 * Leaves (x odd) send at cycle 0.  The root ends with the element-wise sum over all
 * nodes, which check() compares with the sum computed directly.
 *
 * Time: Grama et al. 4.1 gives (t_s + m*t_w) * log p; with m*t_w = L (1 hop + L-1 flits):
 *     T = (t_s + L) * d,  exact.
 * A node with b children sends at b*(t_s+L) (induction: its child over dimension j
 * sent at j*(t_s+L) and that 1-hop message took t_s + L), so the root's last
 * partial (from dimension d-1) arrives at d*(t_s+L).  A node's b arrivals are
 * t_s + L >= L + 1 cycles apart, so even the single shared ejection channel of a
 * one-port router is never contended, and every message uses its own tree link.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

struct rd_ctx {
	struct algo_params p;
	int nodes, words, d;
	unsigned width;
	uint64_t *partial;	/* nodes * words */
	int *received, *sent;
	char error[256];
};

static int rd_children(const struct rd_ctx *c, int v)
{
	unsigned x = (unsigned)(v ^ c->p.root);

	return x ? __builtin_ctz(x) : c->d;
}

static uint64_t rd_word(int v, int i, unsigned width)
{
	return algo_word((uint32_t)v, 0x5e, (uint32_t)i, width);
}

static int rd_supports(const struct algo_params *p, char *err, size_t len)
{
	return algo_need_hypercube(p, "reduce", err, len);
}

static void rd_destroy(void *ctx)
{
	struct rd_ctx *c = ctx;

	if (!c)
		return;
	free(c->partial);
	free(c->received);
	free(c->sent);
	free(c);
}

static void *rd_create(const struct algo_params *p)
{
	struct rd_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->p = *p;
	c->nodes = p->cfg->topo.nodes;
	c->d = p->cfg->topo.dim;
	c->words = algo_words(p);
	c->width = (unsigned)p->cfg->payload_width;
	c->partial = calloc((size_t)c->nodes * (size_t)c->words + 1, sizeof(uint64_t));
	c->received = calloc((size_t)c->nodes, sizeof(int));
	c->sent = calloc((size_t)c->nodes, sizeof(int));
	if (!c->partial || !c->received || !c->sent) {
		rd_destroy(c);
		return NULL;
	}
	for (int v = 0; v < c->nodes; v++)
		for (int i = 0; i < c->words; i++)
			c->partial[(size_t)v * (size_t)c->words + (size_t)i] = rd_word(v, i, c->width);
	return c;
}

static void rd_send_up(struct rd_ctx *c, struct sim *s, int v)
{
	int b = rd_children(c, v);
	struct send_req r = {
		.dest = v ^ (1 << b), .type = HDR_R, .len = c->p.flits,
		.data = c->partial + (size_t)v * (size_t)c->words, .channel = -1,
	};

	if (sim_send(s, v, &r) < 0 && !c->error[0])
		snprintf(c->error, sizeof(c->error), "node %d: send refused: %s", v, sim_error(s));
	c->sent[v]++;
}

static void rd_start(void *ctx, struct sim *s)
{
	struct rd_ctx *c = ctx;

	for (int v = 0; v < c->nodes; v++)
		if (v != c->p.root && rd_children(c, v) == 0)
			rd_send_up(c, s, v);
}

static void rd_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct rd_ctx *c = ctx;
	int v = ev->node, src;
	uint64_t mask = payload_mask(c->width), *acc;

	if (ev->kind != EV_TAIL_ARRIVED)
		return;
	src = ev->msg->source;
	/* The sender must be a child: it differs in one dimension below v's b. */
	if (!algo_is_pow2(src ^ v) || (src ^ v) >= (1 << rd_children(c, v))) {
		if (!c->error[0])
			snprintf(c->error, sizeof(c->error), "node %d received a partial from %d, "
				 "not one of its children", v, src);
		return;
	}
	acc = c->partial + (size_t)v * (size_t)c->words;
	for (int i = 0; i < c->words; i++)
		acc[i] = (acc[i] + ev->msg->data[i]) & mask;
	if (++c->received[v] == rd_children(c, v) && v != c->p.root)
		rd_send_up(c, s, v);
}

static int rd_check(void *ctx, const struct sim *s, char *err, size_t len)
{
	struct rd_ctx *c = ctx;
	uint64_t mask = payload_mask(c->width);
	const uint64_t *got = c->partial + (size_t)c->p.root * (size_t)c->words;

	(void)s;
	if (c->error[0]) {
		snprintf(err, len, "%s", c->error);
		return -1;
	}
	for (int v = 0; v < c->nodes; v++) {
		if (c->received[v] != rd_children(c, v)) {
			snprintf(err, len, "node %d received %d partials, expected %d", v,
				 c->received[v], rd_children(c, v));
			return -1;
		}
		if (c->sent[v] != (v != c->p.root)) {
			snprintf(err, len, "node %d sent %d partials", v, c->sent[v]);
			return -1;
		}
	}
	for (int i = 0; i < c->words; i++) {
		uint64_t sum = 0;

		for (int v = 0; v < c->nodes; v++)
			sum = (sum + rd_word(v, i, c->width)) & mask;
		if (got[i] != sum) {
			snprintf(err, len, "root word %d is 0x%llx, the sum over all nodes is 0x%llx", i,
				 (unsigned long long)got[i], (unsigned long long)sum);
			return -1;
		}
	}
	return 0;
}

const struct algorithm algo_reduce = {
	.name = "reduce",
	.source = "Grama et al. 4.1.5, Algorithm 4.3",
	.description = "all-to-one sum reduction, binomial tree, lowest dimension first",
	.topologies = ALGO_HYPERCUBE,
	.all_port = false,
	.uses_root = true,
	.supports = rd_supports,
	.create = rd_create,
	.destroy = rd_destroy,
	.start = rd_start,
	.event = rd_event,
	.check = rd_check,
	.predict = binomial_tree_predict,
	.exact = true,
};
