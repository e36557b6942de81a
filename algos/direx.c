/* SPDX-License-Identifier: MIT */
/*
 * direx.c - all-to-all personalized exchange by direct exchange, DIREXCH (Grama et al. 4.5
 * and Lecture 11) on an all-port hypercube.
 *
 * Step j = 1 .. p-1: node i sends its block for i xor j (L flits whose words identify
 * (i, i xor j)) straight to i xor j along the e-cube route.  Steps are synchronised
 * locally: node i starts step j+1 when its step-j send has left the NI (SEND_DONE)
 * and it has received its step-j block (TAIL_ARRIVED from i xor j).  A block that
 * arrives early is remembered.  Each node checks every block on arrival against
 * the words its source must have sent it.
 *
 * Congestion-free steps: in step j the message from i crosses dimension b (a set bit
 * of j) at node i xor (j mod 2^b); two sources meeting on the same link would be
 * equal.  The routes of one step are therefore link-disjoint, the first hop of each
 * node uses its own injection channel (the lowest set bit of j) and every node
 * receives one block per step on the ejection channel paired with the link of the
 * highest set bit of j.  By induction all nodes start step j together at T_j and
 *     T_{j+1} = T_j + t_s + popcount(j) + L - 1
 * (the tail arrives after popcount(j) hops; SEND_DONE, at T_j + t_s + L - 1, is
 * earlier).  The exchange ends when the last step's tails arrive:
 *     T = sum_{j=1}^{p-1} (t_s + popcount(j) + L - 1) = (p-1)(t_s + L - 1) + d 2^(d-1),
 * exact.  Grama et al. 4.5 writes (t_s + t_w m)(p - 1), which assumes one hop per step; with
 * m t_w = L it is (p-1)(t_s + L) and undercounts by the extra hops,
 * d 2^(d-1) - (p-1).  Lecture 11's form with the per-hop term,
 * (2^n - 1)(t_s + n t_d/2 + mu t_m), with mu t_m = L - 1 and t_d = 1 is d/2 below the
 * exact value: the average popcount over j = 1..p-1 is d 2^(d-1)/(p-1), slightly more
 * than d/2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

struct dx_ctx {
	struct algo_params p;
	int nodes, words;
	unsigned width;
	int *step;		/* current step of each node (p when finished) */
	bool *sent_done;	/* the current step's send has left the NI */
	uint8_t *got;		/* nodes * nodes: got[i * p + s] = block from s arrived at i */
	uint64_t *buf;
	char error[256];
};

static uint64_t dx_word(int from, int to, int i, unsigned width)
{
	return algo_word((uint32_t)from, (uint32_t)to | 0x80000u, (uint32_t)i, width);
}

static int dx_supports(const struct algo_params *p, char *err, size_t len)
{
	return algo_need_hypercube(p, "direx", err, len);
}

static void dx_destroy(void *ctx)
{
	struct dx_ctx *c = ctx;

	if (!c)
		return;
	free(c->step);
	free(c->sent_done);
	free(c->got);
	free(c->buf);
	free(c);
}

static void *dx_create(const struct algo_params *p)
{
	struct dx_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->p = *p;
	c->nodes = p->cfg->topo.nodes;
	c->words = algo_words(p);
	c->width = (unsigned)p->cfg->payload_width;
	c->step = calloc((size_t)c->nodes, sizeof(int));
	c->sent_done = calloc((size_t)c->nodes, sizeof(bool));
	c->got = calloc((size_t)c->nodes * (size_t)c->nodes, 1);
	c->buf = calloc((size_t)c->words + 1, sizeof(uint64_t));
	if (!c->step || !c->sent_done || !c->got || !c->buf) {
		dx_destroy(c);
		return NULL;
	}
	return c;
}

static void dx_fail(struct dx_ctx *c, const char *what, int a, int b)
{
	if (!c->error[0])
		snprintf(c->error, sizeof(c->error), what, a, b);
}

static void dx_send(struct dx_ctx *c, struct sim *s, int i)
{
	int to = i ^ c->step[i];
	struct send_req r = {
		.dest = to, .type = HDR_R, .len = c->p.flits, .data = c->buf, .channel = -1,
		.tag = (uint64_t)c->step[i],
	};

	for (int k = 0; k < c->words; k++)
		c->buf[k] = dx_word(i, to, k, c->width);
	c->sent_done[i] = false;
	if (sim_send(s, i, &r) < 0)
		dx_fail(c, "node %d: send to %d refused", i, to);
}

static void dx_advance(struct dx_ctx *c, struct sim *s, int i)
{
	if (c->step[i] < c->nodes && c->sent_done[i] &&
	    c->got[(size_t)i * (size_t)c->nodes + (size_t)(i ^ c->step[i])]) {
		if (++c->step[i] < c->nodes)
			dx_send(c, s, i);
	}
}

static void dx_start(void *ctx, struct sim *s)
{
	struct dx_ctx *c = ctx;

	for (int i = 0; i < c->nodes; i++) {
		c->step[i] = 1;
		dx_send(c, s, i);
	}
}

static void dx_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct dx_ctx *c = ctx;
	int i = ev->node, from;
	uint8_t *g;

	switch (ev->kind) {
	case EV_SEND_DONE:
		c->sent_done[i] = true;
		dx_advance(c, s, i);
		break;
	case EV_TAIL_ARRIVED:
		from = ev->msg->source;
		g = &c->got[(size_t)i * (size_t)c->nodes + (size_t)from];
		if (*g)
			dx_fail(c, "node %d received a second block from %d", i, from);
		if (ev->msg->len != c->p.flits)
			dx_fail(c, "node %d: block from %d has the wrong length", i, from);
		for (int k = 0; k < c->words && k < ev->msg->len - 1; k++)
			if (ev->msg->data[k] != dx_word(from, i, k, c->width))
				dx_fail(c, "node %d: block from %d carries the wrong data", i, from);
		*g = 1;
		dx_advance(c, s, i);
		break;
	case EV_HEAD_ARRIVED:
		break;
	}
}

static int dx_check(void *ctx, const struct sim *s, char *err, size_t len)
{
	struct dx_ctx *c = ctx;

	(void)s;
	if (c->error[0]) {
		snprintf(err, len, "%s", c->error);
		return -1;
	}
	for (int i = 0; i < c->nodes; i++) {
		if (c->step[i] != c->nodes) {
			snprintf(err, len, "node %d stopped at step %d of %d", i, c->step[i],
				 c->nodes - 1);
			return -1;
		}
		for (int f = 0; f < c->nodes; f++)
			if (f != i && !c->got[(size_t)i * (size_t)c->nodes + (size_t)f]) {
				snprintf(err, len, "node %d has no block from %d", i, f);
				return -1;
			}
	}
	return 0;
}

static double dx_predict(const struct algo_params *p, char *formula, size_t len)
{
	int d = p->cfg->topo.dim, n = p->cfg->topo.nodes, ts = p->cfg->startup, L = p->flits;
	double T = (double)(n - 1) * (ts + L - 1) + (double)d * (n / 2);
	double seed1 = (double)(n - 1) * (ts + L);
	double seed3 = (double)(n - 1) * (ts + d / 2.0 + L - 1);

	snprintf(formula, len,
		 "sum_j (t_s + popcount(j) + L-1) = (p-1)(t_s+L-1) + d*2^(d-1) = %.0f "
		 "[Grama et al. 4.5 (t_s+m t_w)(p-1) = %.0f; Lecture 11 (p-1)(t_s + n t_d/2 + mu t_m) = %.1f]",
		 T, seed1, seed3);
	return T;
}

const struct algorithm algo_direx = {
	.name = "direx",
	.source = "Grama et al. 4.5 and Lecture 11, DIREXCH",
	.description = "all-to-all personalized exchange: step j, node i sends to i xor j",
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.uses_root = false,
	.supports = dx_supports,
	.create = dx_create,
	.destroy = dx_destroy,
	.start = dx_start,
	.event = dx_event,
	.check = dx_check,
	.predict = dx_predict,
	.exact = true,
};
