/* SPDX-License-Identifier: MIT */
/*
 * waves.c - the model's VCD, written by an engine that forwards every call to the
 * model and samples the routers' registers after each clock edge.
 */
#include "waves.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcd.h"

/* Handles of one router's variables. */
struct router_vars {
	int link_valid_i, link_flit_i, link_credit_i, link_vc_i;
	int link_valid_o, link_flit_o, link_credit_o, link_vc_o;
	int inj_valid_i, inj_flit_i, inj_credit_o;
	int ej_valid_o, ej_flit_o, ej_credit_i;
};

struct waves {
	struct engine inner;
	const struct network *net;
	struct vcd *vcd;
	int clk, rst;
	int ports, fw, words;		/* P, flit width, words per flit vector */
	int inj, ej;			/* J and E: channels per node */
	int vcs, vc_bits;		/* V and the width of a link's vc (0 when V = 1) */
	struct router_vars *vars;
	uint8_t *inj_valid, *ej_credit;	/* this cycle's NI inputs, node * J, node * E */
	flit_t *inj_flit;
	uint8_t *vc_q;			/* out_vc_q of every link (node * P): holds its value */
	uint64_t *buf;			/* scratch for wide vectors */
};

static void wv_inject(void *impl, int node, int ch, flit_t f)
{
	struct waves *w = impl;

	w->inj_valid[node * w->inj + ch] = 1;
	w->inj_flit[node * w->inj + ch] = f;
	w->inner.ops->inject(w->inner.impl, node, ch, f);
}

static void wv_credit(void *impl, int node, int ch)
{
	struct waves *w = impl;

	w->ej_credit[node * w->ej + ch] = 1;
	w->inner.ops->return_credit(w->inner.impl, node, ch);
}

/* Pack n fields of fw bits (field k at bit k*fw) into w->buf. */
static const uint64_t *pack(struct waves *w, const flit_t *fields, int n)
{
	memset(w->buf, 0, sizeof(uint64_t) * (size_t)w->words);
	for (int k = 0; k < n; k++)
		for (int b = 0; b < w->fw; b++)
			if (fields[k] >> b & 1) {
				int bit = k * w->fw + b;

				w->buf[bit / 64] |= 1ull << (bit % 64);
			}
	return w->buf;
}

static uint64_t bits(const uint8_t *v, int n)
{
	uint64_t x = 0;

	for (int k = 0; k < n; k++)
		x |= (uint64_t)(v[k] & 1) << k;
	return x;
}

static void sample_inputs(struct waves *w)
{
	int nodes = network_params(w->net)->topo->nodes;

	for (int v = 0; v < nodes; v++) {
		const struct router_vars *rv = &w->vars[v];

		vcd_value(w->vcd, rv->inj_valid_i, bits(&w->inj_valid[v * w->inj], w->inj));
		vcd_value_wide(w->vcd, rv->inj_flit_i, pack(w, &w->inj_flit[v * w->inj], w->inj));
		vcd_value(w->vcd, rv->ej_credit_i, bits(&w->ej_credit[v * w->ej], w->ej));
	}
}

/*
 * Link p of node v as the wires show it (docs/microarchitecture.md section 12): one
 * valid, flit and vc for the V virtual outputs p*V + c, and V credits (those of the
 * virtual inputs p*V + c).  With V = 1, the port's own signals.
 */
static void link_signals(struct waves *w, int v, int p, uint8_t *valid, flit_t *flit,
			 uint64_t *vc, uint8_t *credit)
{
	struct port_signals s;

	*valid = 0;
	for (int c = 0; c < w->vcs; c++) {
		network_port_signals(w->net, v, p * w->vcs + c, &s);
		*flit = s.out_flit;
		credit[c] = s.credit_out;
		if (s.out_valid) {
			*valid = 1;
			w->vc_q[v * w->ports + p] = (uint8_t)c;
		}
	}
	*vc = w->vc_q[v * w->ports + p];
}

static uint64_t vc_bits(const struct waves *w, const uint64_t *vc)
{
	uint64_t x = 0;

	for (int p = 0; p < w->ports; p++)
		x |= vc[p] << (p * w->vc_bits);
	return x;
}

static void sample_registers(struct waves *w)
{
	const struct topology *t = network_params(w->net)->topo;
	int PV = w->ports * w->vcs;
	flit_t flits[ROUTER_MAX_IO];
	uint8_t valid[ROUTER_MAX_IO], credit[ROUTER_MAX_IO];
	uint64_t vc[TOPO_MAX_PORTS];

	for (int v = 0; v < t->nodes; v++) {
		const struct router_vars *rv = &w->vars[v];
		struct port_signals s;

		for (int p = 0; p < w->ports; p++)
			link_signals(w, v, p, &valid[p], &flits[p], &vc[p], &credit[p * w->vcs]);
		vcd_value(w->vcd, rv->link_valid_o, bits(valid, w->ports));
		vcd_value_wide(w->vcd, rv->link_flit_o, pack(w, flits, w->ports));
		vcd_value(w->vcd, rv->link_credit_o, bits(credit, PV));
		if (w->vc_bits)
			vcd_value(w->vcd, rv->link_vc_o, vc_bits(w, vc));
		for (int e = 0; e < w->ej; e++) {
			network_port_signals(w->net, v, PV + e, &s);
			valid[e] = s.out_valid;
			flits[e] = s.out_flit;
		}
		vcd_value(w->vcd, rv->ej_valid_o, bits(valid, w->ej));
		vcd_value_wide(w->vcd, rv->ej_flit_o, pack(w, flits, w->ej));
		for (int j = 0; j < w->inj; j++) {
			network_port_signals(w->net, v, PV + j, &s);
			credit[j] = s.credit_out;
		}
		vcd_value(w->vcd, rv->inj_credit_o, bits(credit, w->inj));

		/* A link input is the neighbour's output register (0 where unconnected). */
		for (int p = 0; p < w->ports; p++) {
			int nb = topology_neighbor(t, v, p);

			valid[p] = 0;
			flits[p] = 0;
			vc[p] = 0;
			memset(&credit[p * w->vcs], 0, (size_t)w->vcs);
			if (nb >= 0)
				link_signals(w, nb, topology_peer_port(t, p), &valid[p], &flits[p],
					     &vc[p], &credit[p * w->vcs]);
		}
		vcd_value(w->vcd, rv->link_valid_i, bits(valid, w->ports));
		vcd_value_wide(w->vcd, rv->link_flit_i, pack(w, flits, w->ports));
		vcd_value(w->vcd, rv->link_credit_i, bits(credit, PV));
		if (w->vc_bits)
			vcd_value(w->vcd, rv->link_vc_i, vc_bits(w, vc));
	}
}

static int wv_step(void *impl, uint64_t cycle)
{
	struct waves *w = impl;
	int nodes = network_params(w->net)->topo->nodes;
	int rc;

	vcd_time(w->vcd, cycle * 10);
	vcd_value(w->vcd, w->clk, 0);
	vcd_value(w->vcd, w->rst, 1);
	sample_inputs(w);
	rc = w->inner.ops->step(w->inner.impl, cycle);
	vcd_time(w->vcd, cycle * 10 + 5);
	vcd_value(w->vcd, w->clk, 1);
	sample_registers(w);
	memset(w->inj_valid, 0, (size_t)nodes * (size_t)w->inj);
	memset(w->ej_credit, 0, (size_t)nodes * (size_t)w->ej);
	return rc;
}

static int wv_ejections(void *impl, const struct channel_event **l)
{
	struct waves *w = impl;

	return w->inner.ops->ejections(w->inner.impl, l);
}

static int wv_inj_credits(void *impl, const struct channel_event **l)
{
	struct waves *w = impl;

	return w->inner.ops->inj_credits(w->inner.impl, l);
}

static int wv_outputs_valid(void *impl)
{
	struct waves *w = impl;

	return w->inner.ops->outputs_valid(w->inner.impl);
}

static int wv_router_state(void *impl, int node, struct router_state *rs)
{
	struct waves *w = impl;

	return w->inner.ops->router_state(w->inner.impl, node, rs);
}

static uint64_t wv_link_moves(void *impl)
{
	struct waves *w = impl;

	return w->inner.ops->link_moves(w->inner.impl);
}

static uint64_t wv_conflicts(void *impl)
{
	struct waves *w = impl;

	return w->inner.ops->conflict_cycles(w->inner.impl);
}

static const struct engine_ops waves_ops = {
	.name = "model",
	.inject = wv_inject,
	.return_credit = wv_credit,
	.step = wv_step,
	.ejections = wv_ejections,
	.inj_credits = wv_inj_credits,
	.outputs_valid = wv_outputs_valid,
	.router_state = wv_router_state,
	.link_moves = wv_link_moves,
	.conflict_cycles = wv_conflicts,
};

/*
 * The hierarchy of the RTL router array's trace: one scope per node, gen_node[N], with
 * the router's module scope wc_router inside it; the clock is traced in node 0.
 */
static void declare(struct waves *w)
{
	const struct topology *t = network_params(w->net)->topo;
	int P = w->ports, PV = P * w->vcs, J = w->inj, E = w->ej, fw = w->fw;

	for (int v = 0; v < t->nodes; v++) {
		struct router_vars *rv = &w->vars[v];
		char scope[32];

		snprintf(scope, sizeof(scope), "gen_node[%d]", v);
		vcd_scope(w->vcd, scope);
		vcd_scope(w->vcd, "wc_router");
		if (v == 0) {
			w->clk = vcd_var(w->vcd, "clk_i", 1);
			w->rst = vcd_var(w->vcd, "rst_ni", 1);
		}
		rv->link_valid_i = vcd_var(w->vcd, "link_valid_i", P);
		rv->link_flit_i = vcd_var(w->vcd, "link_flit_i", P * fw);
		if (w->vc_bits)
			rv->link_vc_i = vcd_var(w->vcd, "link_vc_i", P * w->vc_bits);
		rv->link_credit_o = vcd_var(w->vcd, "link_credit_o", PV);
		rv->link_valid_o = vcd_var(w->vcd, "link_valid_o", P);
		rv->link_flit_o = vcd_var(w->vcd, "link_flit_o", P * fw);
		if (w->vc_bits)
			rv->link_vc_o = vcd_var(w->vcd, "link_vc_o", P * w->vc_bits);
		rv->link_credit_i = vcd_var(w->vcd, "link_credit_i", PV);
		rv->inj_valid_i = vcd_var(w->vcd, "inj_valid_i", J);
		rv->inj_flit_i = vcd_var(w->vcd, "inj_flit_i", J * fw);
		rv->inj_credit_o = vcd_var(w->vcd, "inj_credit_o", J);
		rv->ej_valid_o = vcd_var(w->vcd, "ej_valid_o", E);
		rv->ej_flit_o = vcd_var(w->vcd, "ej_flit_o", E * fw);
		rv->ej_credit_i = vcd_var(w->vcd, "ej_credit_i", E);
		vcd_upscope(w->vcd);
		vcd_upscope(w->vcd);
	}
	vcd_end_definitions(w->vcd);
}

int waves_wrap(struct engine *outer, const struct engine *inner, const struct network *net,
	       FILE *f)
{
	const struct router_params *p = network_params(net);
	int nodes = p->topo->nodes;
	struct waves *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	w->inner = *inner;
	w->net = net;
	w->ports = p->topo->ports;
	w->vcs = p->topo->vcs;
	w->vc_bits = w->vcs == 1 ? 0 : w->vcs == 2 ? 1 : 2;	/* ceil(log2 V) */
	w->inj = p->all_port ? w->ports : 1;
	w->ej = network_channels(net);
	w->fw = p->payload_width + 2;
	/* The widest flit vector: P links or E ejection channels. */
	w->words = ((w->ports > w->ej ? w->ports : w->ej) * w->fw + 63) / 64 + 1;
	w->vars = calloc((size_t)nodes, sizeof(*w->vars));
	w->inj_valid = calloc((size_t)nodes * (size_t)w->inj, 1);
	w->ej_credit = calloc((size_t)nodes * (size_t)w->ej, 1);
	w->inj_flit = calloc((size_t)nodes * (size_t)w->inj, sizeof(flit_t));
	w->vc_q = calloc((size_t)nodes * (size_t)w->ports, 1);
	w->buf = calloc((size_t)w->words, sizeof(uint64_t));
	w->vcd = vcd_open(f);
	if (!w->vars || !w->inj_valid || !w->ej_credit || !w->inj_flit || !w->vc_q || !w->buf ||
	    !w->vcd) {
		vcd_close(w->vcd);
		w->vcd = NULL;
		outer->impl = w;
		waves_close(outer);
		return -1;
	}
	declare(w);
	if (vcd_failed(w->vcd)) {
		outer->impl = w;
		waves_close(outer);
		return -1;
	}
	/* Reset values at time 0 - 5 would be negative: the first sample is cycle 0. */
	outer->ops = &waves_ops;
	outer->impl = w;
	return 0;
}

struct engine *waves_inner(struct engine *outer)
{
	return &((struct waves *)outer->impl)->inner;
}

int waves_close(struct engine *outer)
{
	struct waves *w = outer->impl;
	int rc;

	if (!w)
		return 0;
	rc = vcd_close(w->vcd);
	free(w->vars);
	free(w->inj_valid);
	free(w->ej_credit);
	free(w->inj_flit);
	free(w->vc_q);
	free(w->buf);
	free(w);
	outer->impl = NULL;
	return rc;
}
