/* SPDX-License-Identifier: MIT */
/*
 * router_state.c - a router's registers as one flat vector (see router_state.h): the
 * layout the cosimulation compares and writes into its mismatch window.
 */
#include "router_state.h"

#include <stdio.h>
#include <string.h>

/* Offsets of the registers of one input, in the document's order. */
enum { IN_COUNT, IN_RD_PTR, IN_WR_PTR, IN_FIFO, IN_FIXED = 6 };

void router_regs_layout(struct router_regs_layout *l, int n_in, int n_out, int depth,
			int links, int vcs)
{
	l->n_in = n_in;
	l->n_out = n_out;
	l->depth = depth;
	l->vc_links = links;
	l->sw_rr = vcs > 1;
	l->per_input = IN_FIXED + depth;
	l->words = n_in * l->per_input + 3 * n_out + 1 + links + l->sw_rr;
}

void router_state_pack(const struct router_regs_layout *l, const struct router_state *s,
		       uint64_t *v)
{
	const int depth = l->depth;

	for (int i = 0; i < l->n_in; i++, v += l->per_input) {
		const struct router_state_input *x = &s->in[i];
		int slot = x->rd_ptr;

		v[IN_COUNT] = x->count;
		v[IN_RD_PTR] = x->rd_ptr;
		v[IN_WR_PTR] = x->wr_ptr;
		/* Only the live entries are architectural; a count out of range packs none
		 * beyond the storage (the count itself already differs then). */
		for (int k = 0; k < depth; k++) {
			v[IN_FIFO + k] = k < x->count && slot < depth ? x->fifo[slot] : 0;
			if (++slot == depth)
				slot = 0;
		}
		v[IN_FIFO + depth] = x->route_q;
		v[IN_FIFO + depth + 1] = x->credit_out_q;
		v[IN_FIFO + depth + 2] = x->hold_q;
	}
	for (int o = 0; o < l->n_out; o++, v += 3) {
		v[0] = s->out[o].out_valid_q;
		v[1] = s->out[o].out_flit_q;
		v[2] = s->out[o].credits_q;
	}
	v[0] = s->rr_q;
	for (int p = 0; p < l->vc_links; p++)
		v[1 + p] = s->out_vc_q[p];
	if (l->sw_rr)
		v[1 + l->vc_links] = s->sw_rr_q;
}

bool router_state_equal(const struct router_regs_layout *l, const struct router_state *a,
			const struct router_state *b)
{
	if (a->rr_q != b->rr_q)
		return false;
	if ((l->sw_rr && a->sw_rr_q != b->sw_rr_q) ||
	    memcmp(a->out_vc_q, b->out_vc_q, (size_t)l->vc_links) != 0)
		return false;
	for (int i = 0; i < l->n_in; i++) {
		const struct router_state_input *x = &a->in[i], *y = &b->in[i];
		int n = x->count < l->depth ? x->count : l->depth;

		if (x->count != y->count || x->rd_ptr != y->rd_ptr || x->wr_ptr != y->wr_ptr ||
		    x->route_q != y->route_q || x->credit_out_q != y->credit_out_q ||
		    x->hold_q != y->hold_q)
			return false;
		/* The live entries: the same pointer on both sides, so the same slots. */
		for (int k = 0, slot = x->rd_ptr; k < n && slot < l->depth; k++) {
			if (x->fifo[slot] != y->fifo[slot])
				return false;
			if (++slot == l->depth)
				slot = 0;
		}
	}
	for (int o = 0; o < l->n_out; o++) {
		const struct router_state_output *x = &a->out[o], *y = &b->out[o];

		if (x->out_valid_q != y->out_valid_q || x->out_flit_q != y->out_flit_q ||
		    x->credits_q != y->credits_q)
			return false;
	}
	return true;
}

void router_regs_place(const struct router_regs_layout *l, int k, struct router_reg_place *p)
{
	static const enum router_reg after_fifo[] = { REG_ROUTE_Q, REG_CREDIT_OUT_Q, REG_HOLD_Q };
	static const enum router_reg output[] = { REG_OUT_VALID_Q, REG_OUT_FLIT_Q, REG_CREDITS_Q };
	int inputs = l->n_in * l->per_input;

	p->entry = -1;
	if (k < inputs) {
		int j = k % l->per_input;

		p->port = k / l->per_input;
		if (j < IN_FIFO)
			p->reg = (enum router_reg)j;	/* REG_COUNT, REG_RD_PTR, REG_WR_PTR */
		else if (j < IN_FIFO + l->depth) {
			p->reg = REG_FIFO;
			p->entry = j - IN_FIFO;
		} else
			p->reg = after_fifo[j - IN_FIFO - l->depth];
		return;
	}
	k -= inputs;
	if (k < 3 * l->n_out) {
		p->port = k / 3;
		p->reg = output[k % 3];
		return;
	}
	k -= 3 * l->n_out + 1;		/* rr_q, then out_vc_q per link and sw_rr_q */
	if (k >= 0 && k < l->vc_links) {
		p->port = k;
		p->reg = REG_OUT_VC_Q;
		return;
	}
	p->port = -1;
	p->reg = k < 0 ? REG_RR_Q : REG_SW_RR_Q;
}

const char *router_reg_name(enum router_reg r)
{
	static const char *const names[] = {
		[REG_COUNT] = "count", [REG_RD_PTR] = "rd_ptr", [REG_WR_PTR] = "wr_ptr",
		[REG_FIFO] = "fifo", [REG_ROUTE_Q] = "route_q", [REG_CREDIT_OUT_Q] = "credit_out_q",
		[REG_HOLD_Q] = "hold_q", [REG_OUT_VALID_Q] = "out_valid_q",
		[REG_OUT_FLIT_Q] = "out_flit_q", [REG_CREDITS_Q] = "credits_q", [REG_RR_Q] = "rr_q",
		[REG_OUT_VC_Q] = "out_vc_q", [REG_SW_RR_Q] = "sw_rr_q",
	};
	return names[r];
}

int router_reg_width(const struct router_regs_layout *l, enum router_reg r, int flit_width)
{
	switch (r) {
	case REG_FIFO:
	case REG_OUT_FLIT_Q:
		return flit_width;
	case REG_ROUTE_Q:
		return l->n_out;
	case REG_CREDIT_OUT_Q:
	case REG_OUT_VALID_Q:
		return 1;
	default:
		return 8;		/* counts, pointers, counters: uint8_t in router_state */
	}
}

void router_regs_describe(const struct router_regs_layout *l, int k, const uint64_t *v,
			  char *buf, size_t len)
{
	struct router_reg_place p;

	router_regs_place(l, k, &p);
	if (p.port < 0)
		snprintf(buf, len, "%s", router_reg_name(p.reg));	/* rr_q, sw_rr_q */
	else if (p.reg == REG_OUT_VC_Q)
		snprintf(buf, len, "link %d out_vc_q", p.port);
	else if (p.reg == REG_FIFO)
		snprintf(buf, len, "input %d fifo[%d] (count %llu)", p.port, p.entry,
			 (unsigned long long)v[p.port * l->per_input + IN_COUNT]);
	else
		snprintf(buf, len, "%s %d %s", p.reg >= REG_OUT_VALID_Q ? "output" : "input", p.port,
			 router_reg_name(p.reg));
}
