/* SPDX-License-Identifier: MIT */
/*
 * common.c - supports() and predict() helpers shared by the algorithm files.
 */
#include "common.h"

#include <stdarg.h>
#include <stdio.h>

int algo_need_mesh(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (p->cfg->topo.kind != TOPO_MESH) {
		snprintf(err, len, "%s runs on meshes only", name);
		return -1;
	}
	return 0;
}

static int need_pow2_sides(const struct topology *t, const char *name, char *err, size_t len)
{
	if (!algo_is_pow2(t->rows) || !algo_is_pow2(t->cols)) {
		snprintf(err, len, "%s needs r and c powers of two, not %dx%d", name, t->rows, t->cols);
		return -1;
	}
	return 0;
}

int algo_need_pow2_mesh(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (algo_need_mesh(p, name, err, len))
		return -1;
	return need_pow2_sides(&p->cfg->topo, name, err, len);
}

int algo_need_grid(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (p->cfg->topo.kind != TOPO_MESH && p->cfg->topo.kind != TOPO_TORUS) {
		snprintf(err, len, "%s runs on meshes and tori only", name);
		return -1;
	}
	return 0;
}

int algo_need_pow2_grid(const struct algo_params *p, const char *name, char *err, size_t len)
{
	if (algo_need_grid(p, name, err, len))
		return -1;
	return need_pow2_sides(&p->cfg->topo, name, err, len);
}

int plan_root_broadcast(const struct algo_params *p, int node, const struct receipt *r,
			struct plan *pl, bool path)
{
	struct xfer_spec x = { .bcast = true, .ir = path };

	if (r || node != p->root)
		return 0;
	if (plan_xfer(pl, &x))
		return -1;
	for (int i = 0; i < plan_blocks(pl); i++)
		if (plan_block(pl, p->root, BLOCK_ANY, i))
			return -1;
	return 0;
}

int algo_need_ascending_routes(const struct algo_params *p, const char *why, char *err,
			       size_t len)
{
	if (p->cfg->topo.route_order != ORDER_ASCENDING) {
		snprintf(err, len, "%s: use --route-order ascending", why);
		return -1;
	}
	return 0;
}

void predict_set(struct prediction *o, double cycles, bool exact, const char *source,
		 const char *fmt, ...)
{
	va_list ap;

	o->cycles = cycles;
	o->exact = exact;
	snprintf(o->source, sizeof(o->source), "%s", source);
	va_start(ap, fmt);
	vsnprintf(o->formula, sizeof(o->formula), fmt, ap);
	va_end(ap);
}

void predict_published(struct prediction *o, double cycles, const char *source,
		       const char *fmt, ...)
{
	va_list ap;

	o->published = cycles;
	snprintf(o->published_source, sizeof(o->published_source), "%s", source);
	va_start(ap, fmt);
	vsnprintf(o->published_formula, sizeof(o->published_formula), fmt, ap);
	va_end(ap);
}

void predict_ring_two_way_published(struct prediction *o, long long z, long long ts,
				    long long mu, const char *source)
{
	char name[sizeof(o->published_source)];

	snprintf(name, sizeof(name), "%s, z %s", source, z % 2 == 0 ? "even" : "odd");
	if (z % 2 == 0)
		predict_published(o, ts * z / 2.0 + mu * z * (z + 2) / 8.0, name,
				  "t_s z/2 + mu t_m z(z+2)/8 = %.1f", ts * z / 2.0 + mu * z * (z + 2) / 8.0);
	else
		predict_published(o, ts * (z - 1) / 2.0 + mu * (z * z - 1) / 8.0, name,
				  "t_s (z-1)/2 + mu t_m (z^2-1)/8 = %.1f",
				  ts * (z - 1) / 2.0 + mu * (z * z - 1) / 8.0);
}

void predict_schedule(struct prediction *o, const struct schedule_result *s, bool exact,
		      const char *source)
{
	predict_set(o, s->ok ? (double)s->cycles : -1, exact && s->ok, source, "%s", s->text);
}

void binomial_tree_predict(const struct algo_params *p, const struct schedule_result *s,
			   struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p);

	(void)s;
	predict_set(o, (double)(ts + 1 + mu) * d, true, DERIVED("sbt"),
		    "d (t_s + 1 + mu): one hop per step = %d * (%d + 1 + %d) = %d", d, ts, mu,
		    d * (ts + 1 + mu));
	predict_published(o, (double)(ts + mu) * d, "Grama et al. 4.1, (t_s + t_w m) log p",
			  "(t_s + t_w m) log p = (%d + %d) * %d = %d", ts, mu, d, (ts + mu) * d);
}
