/* SPDX-License-Identifier: MIT */
/*
 * common.c - data patterns, supports() helpers, and the tree-broadcast driver and
 * its analytic evaluation (see common.h).
 */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t algo_word(uint32_t a, uint32_t b, uint32_t i, unsigned width)
{
	uint64_t z = ((uint64_t)a << 40) ^ ((uint64_t)b << 20) ^ (uint64_t)i ^ 0x5bd1e995ull;

	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z & payload_mask(width);
}

int algo_need_hypercube(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (p->cfg->topo.kind != TOPO_HYPERCUBE) {
		snprintf(err, len, "%s runs on hypercubes only", name);
		return -1;
	}
	return 0;
}

int algo_need_mesh(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (p->cfg->topo.kind != TOPO_MESH) {
		snprintf(err, len, "%s runs on meshes only", name);
		return -1;
	}
	return 0;
}

/* ---- the driver ---- */

struct tb_node {
	struct tb_send *sends;	/* the node's plan */
	int n, next;		/* sends planned, next one to make */
	int outstanding;	/* sends of the current group not yet SEND_DONE */
	const uint64_t *src;	/* the data it forwards */
	int got;		/* deliveries of the message to this node */
	uint64_t head_cycle;	/* head arrival of the message addressed to it */
	bool triggered;
};

struct tb_ctx {
	struct sim_config cfg;
	struct algo_params p;
	struct tb_ops ops;	/* a copy: the root tag may depend on the run */
	int nodes, words;
	uint64_t *root_data;
	uint64_t *data;		/* nodes * words: what each node ends with */
	struct tb_node *node;
	struct tb_send scratch[TB_MAX_SENDS];
	char error[256];
};

void *tb_create(const struct algo_params *p, const struct tb_ops *ops)
{
	struct tb_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->cfg = *p->cfg;
	c->p = *p;
	c->p.cfg = &c->cfg;
	c->ops = *ops;
	c->nodes = p->cfg->topo.nodes;
	c->words = algo_words(p);
	c->root_data = calloc((size_t)c->words + 1, sizeof(uint64_t));
	c->data = calloc((size_t)c->nodes * (size_t)c->words + 1, sizeof(uint64_t));
	c->node = calloc((size_t)c->nodes, sizeof(*c->node));
	if (!c->root_data || !c->data || !c->node) {
		tb_destroy(c);
		return NULL;
	}
	for (int i = 0; i < c->words; i++)
		c->root_data[i] = algo_word((uint32_t)p->root, 0xb0, (uint32_t)i,
					    (unsigned)p->cfg->payload_width);
	return c;
}

void tb_destroy(void *ctx)
{
	struct tb_ctx *c = ctx;

	if (!c)
		return;
	if (c->node)
		for (int v = 0; v < c->nodes; v++)
			free(c->node[v].sends);
	free(c->node);
	free(c->data);
	free(c->root_data);
	free(c);
}

static void tb_fail(struct tb_ctx *c, const char *fmt, int a, int b)
{
	if (!c->error[0])
		snprintf(c->error, sizeof(c->error), fmt, a, b);
}

/* Send the next group of node v's plan. */
static void tb_issue_group(struct tb_ctx *c, struct sim *s, int v)
{
	struct tb_node *nd = &c->node[v];
	int g;

	if (nd->next >= nd->n)
		return;
	g = nd->sends[nd->next].group;
	while (nd->next < nd->n && nd->sends[nd->next].group == g) {
		const struct tb_send *x = &nd->sends[nd->next++];
		struct send_req r = {
			.dest = x->dest, .type = x->bcast ? HDR_B : HDR_R, .ir = x->ir,
			.len = c->p.flits, .data = nd->src, .channel = -1, .tag = x->tag,
		};

		if (sim_send(s, v, &r) < 0) {
			tb_fail(c, "node %d: send to %d refused", v, x->dest);
			continue;
		}
		nd->outstanding++;
	}
}

static void tb_trigger(struct tb_ctx *c, struct sim *s, int v, uint64_t tag, const uint64_t *src)
{
	struct tb_node *nd = &c->node[v];
	int n;

	if (nd->triggered) {
		tb_fail(c, "node %d was asked to forward twice (%d)", v, 0);
		return;
	}
	nd->triggered = true;
	nd->src = src;
	n = c->ops.plan(&c->p, v, tag, c->scratch, TB_MAX_SENDS);
	if (n < 0) {
		tb_fail(c, "node %d: plan does not fit (%d sends max)", v, TB_MAX_SENDS);
		return;
	}
	if (n == 0)
		return;
	nd->sends = malloc(sizeof(*nd->sends) * (size_t)n);
	if (!nd->sends) {
		tb_fail(c, "node %d: out of memory (%d)", v, n);
		return;
	}
	memcpy(nd->sends, c->scratch, sizeof(*nd->sends) * (size_t)n);
	nd->n = n;
	tb_issue_group(c, s, v);
}

void tb_start(void *ctx, struct sim *s)
{
	struct tb_ctx *c = ctx;

	memcpy(c->data + (size_t)c->p.root * (size_t)c->words, c->root_data,
	       sizeof(uint64_t) * (size_t)c->words);
	tb_trigger(c, s, c->p.root, c->ops.root_tag, c->root_data);
}

static bool addressed_to(const struct message *m, int node)
{
	return m->type == HDR_B || m->address == node;
}

void tb_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct tb_ctx *c = ctx;
	struct tb_node *nd = &c->node[ev->node];
	const struct message *m = ev->msg;

	switch (ev->kind) {
	case EV_HEAD_ARRIVED:
		if (addressed_to(m, ev->node)) {
			nd->head_cycle = ev->cycle;
			if (c->ops.cut_through)
				tb_trigger(c, s, ev->node, ev->tag, m->data);
		}
		break;
	case EV_TAIL_ARRIVED:
		if (m->len != c->p.flits) {
			tb_fail(c, "node %d: message of %d flits", ev->node, m->len);
			break;
		}
		/* A one-flit message has no data words (and m->data may be NULL). */
		if (nd->got++ == 0 && c->words > 0)
			memcpy(c->data + (size_t)ev->node * (size_t)c->words, m->data,
			       sizeof(uint64_t) * (size_t)c->words);
		if (!addressed_to(m, ev->node))
			break;
		if (c->ops.cut_through) {
			/* Flits back to back: forwarded flit i left no earlier than it arrived. */
			if (ev->cycle != nd->head_cycle + (uint64_t)(c->p.flits - 1))
				tb_fail(c, "node %d forwarded cut-through but its flits did not arrive "
					"back to back (tail %d cycles after the head)", ev->node,
					(int)(ev->cycle - nd->head_cycle));
		} else {
			tb_trigger(c, s, ev->node, ev->tag, m->data);
		}
		break;
	case EV_SEND_DONE:
		if (--nd->outstanding == 0)
			tb_issue_group(c, s, ev->node);
		break;
	}
}

int tb_check(void *ctx, const struct sim *s, char *err, size_t len)
{
	struct tb_ctx *c = ctx;

	(void)s;
	if (c->error[0]) {
		snprintf(err, len, "%s", c->error);
		return -1;
	}
	for (int v = 0; v < c->nodes; v++) {
		const uint64_t *d = c->data + (size_t)v * (size_t)c->words;

		if (v == c->p.root)
			continue;
		if (c->node[v].got != 1) {
			snprintf(err, len, "node %d received the message %d times", v, c->node[v].got);
			return -1;
		}
		for (int i = 0; i < c->words; i++)
			if (d[i] != c->root_data[i]) {
				snprintf(err, len, "node %d word %d is 0x%llx, the root's is 0x%llx", v, i,
					 (unsigned long long)d[i], (unsigned long long)c->root_data[i]);
				return -1;
			}
	}
	return 0;
}

/* ---- the analytic evaluation ---- */

/* A point in time with the chain that leads to it. */
struct tb_point {
	uint64_t t;
	int startups, hops;
};

static struct tb_point later(struct tb_point a, struct tb_point b)
{
	return b.t > a.t ? b : a;
}

struct tb_item {
	int node;
	uint64_t tag;
	struct tb_point at;
};

int tb_eval(const struct algo_params *p, const struct tb_ops *ops, struct tb_eval_result *r)
{
	const struct topology *t = &p->cfg->topo;
	uint64_t ts = (uint64_t)p->cfg->startup, L = (uint64_t)p->flits;
	uint64_t tr = (uint64_t)p->cfg->replication_cost;
	int channels = p->cfg->all_port ? t->ports : 1;
	struct tb_item *queue = malloc(sizeof(*queue) * (size_t)t->nodes);
	int *reached = calloc((size_t)t->nodes, sizeof(int));
	struct tb_send *plan = malloc(sizeof(*plan) * TB_MAX_SENDS);
	struct tb_point *chan = malloc(sizeof(*chan) * (size_t)channels);
	struct tb_point last = { 0, 0, 0 };
	int qh = 0, qn = 0, rc = 0;

	memset(r, 0, sizeof(*r));
	if (!queue || !reached || !plan || !chan) {
		rc = -1;
		goto out;
	}
	queue[qn++] = (struct tb_item){ p->root, ops->root_tag, { 0, 0, 0 } };
	reached[p->root] = 1;
	r->complete = true;
	while (qh < qn) {
		struct tb_item it = queue[qh++];
		struct tb_point issue = it.at, group_done = it.at;
		int n = ops->plan(p, it.node, it.tag, plan, TB_MAX_SENDS), g = -1;

		if (n < 0) {
			rc = -1;
			goto out;
		}
		for (int k = 0; k < channels; k++)
			chan[k] = (struct tb_point){ 0, 0, 0 };
		for (int k = 0; k < n; k++) {
			const struct tb_send *x = &plan[k];
			struct tb_point start, free_at;
			int ch;

			/* Group g+1 is issued when the last send of group g is done. */
			if (x->group != g) {
				if (g >= 0)
					issue = group_done;
				group_done = (struct tb_point){ 0, 0, 0 };
				g = x->group;
			}
			ch = (!p->cfg->all_port || x->bcast) ? 0 : unicast_next_port(t, it.node, x->dest);
			start = later(issue, chan[ch]);
			free_at = (struct tb_point){ start.t + ts + L - 1, start.startups + 1, start.hops };
			chan[ch] = free_at;
			group_done = later(group_done, free_at);
			r->messages++;
			if (x->bcast) {
				/*
				 * Every other node, at its tree distance (= route distance); every
				 * router on the way that forwards, the node's own included, holds
				 * the head T_r cycles (docs/microarchitecture.md section 9).
				 */
				for (int u = 0; u < t->nodes; u++) {
					int hops = topology_distance(t, it.node, u);
					uint64_t forwarders = (uint64_t)hops +
						(replication_children(t, it.node, u) != 0);
					struct tb_point tail = { start.t + ts + (uint64_t)hops + L - 1 +
								 forwarders * tr,
								 start.startups + 1, start.hops + hops };

					if (u == it.node)
						continue;
					if (reached[u]++)
						r->complete = false;
					else
						queue[qn++] = (struct tb_item){ u, x->tag, tail };
					last = later(last, tail);
				}
				continue;
			}
			/* Walk the route; IR delivers at every node after the source. */
			for (int v = it.node, hops = 0; v != x->dest;) {
				int port = unicast_next_port(t, v, x->dest);

				v = topology_neighbor(t, v, port);
				hops++;
				if (v == x->dest || x->ir) {
					struct tb_point head = { start.t + ts + (uint64_t)hops,
								 start.startups + 1, start.hops + hops };
					struct tb_point tail = { head.t + L - 1, head.startups, head.hops };

					if (reached[v]++)
						r->complete = false;
					else if (v == x->dest)
						queue[qn++] = (struct tb_item){ v, x->tag,
							ops->cut_through ? head : tail };
					last = later(last, tail);
				}
			}
		}
	}
	for (int v = 0; v < t->nodes; v++)
		if (reached[v] != 1)
			r->complete = false;
	r->cycles = last.t;
	r->chain_startups = last.startups;
	r->chain_hops = last.hops;
out:
	free(queue);
	free(reached);
	free(plan);
	free(chan);
	return rc;
}

double tb_schedule(const struct algo_params *p, const struct tb_ops *ops, char *text, size_t len)
{
	struct tb_eval_result r;

	if (tb_eval(p, ops, &r)) {
		snprintf(text, len, "schedule could not be evaluated");
		return -1;
	}
	if (ops->cut_through)
		snprintf(text, len, "contention-free schedule: %d start-ups * t_s + %d hops + (L-1) "
			 "= %llu%s", r.chain_startups, r.chain_hops, (unsigned long long)r.cycles,
			 r.complete ? "" : " (INCOMPLETE: some node is not reached exactly once)");
	else
		snprintf(text, len, "contention-free schedule: %d start-ups * (t_s+L-1) + %d hops "
			 "= %llu%s", r.chain_startups, r.chain_hops, (unsigned long long)r.cycles,
			 r.complete ? "" : " (INCOMPLETE: some node is not reached exactly once)");
	return (double)r.cycles;
}

double binomial_tree_predict(const struct algo_params *p, char *formula, size_t len)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, L = p->flits;
	double T = (double)(ts + L) * d;

	snprintf(formula, len,
		 "Grama et al. 4.1: (t_s + m*t_w) * log p with m*t_w = L (1 hop + L-1 flits): "
		 "(%d + %d) * %d = %.0f", ts, L, d, T);
	return T;
}
