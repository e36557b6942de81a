/* SPDX-License-Identifier: MIT */
/*
 * coverage.c - functional coverage of router events (see coverage.h): the bins, the
 * one classification of a router's cycle, the reachability of each bin, and the
 * collector and engine wrapper that apply the classification to an engine's routers.
 */
#include "coverage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "network.h"

/* ---- the bins ---- */

void cov_space_init(struct cov_space *sp, const struct topology *t)
{
	int size[COV_N_FAMILIES];
	int P = t->ports, m = 2 * P;

	sp->topo = *t;
	sp->ports = P;
	sp->max_io = m;
	sp->levels = (t->kind == TOPO_HYPERCUBE ? t->dim : t->rows + t->cols - 2) + 1;
	size[COV_PAIR_R] = m * m;
	size[COV_PAIR_B] = m * m;
	size[COV_FANOUT] = m;
	size[COV_IR] = COV_IR_N;
	size[COV_TREE_LEVEL] = sp->levels;
	size[COV_STALL] = COV_STALL_N;
	size[COV_ARBITRATION] = COV_ARB_N;
	size[COV_EJECT_PAIR] = P;
	size[COV_EJECT_CONCURRENT] = 1;
	size[COV_BACK_TO_BACK] = 1;
	size[COV_PORT_MODEL] = COV_PORT_N;
	size[COV_HOLD] = COV_HOLD_N;
	sp->first[0] = 0;
	for (int f = 0; f < COV_N_FAMILIES; f++)
		sp->first[f + 1] = sp->first[f] + size[f];
}

enum cov_family cov_family_of(const struct cov_space *sp, int bin)
{
	int f = 0;

	while (f + 1 < COV_N_FAMILIES && bin >= sp->first[f + 1])
		f++;
	return (enum cov_family)f;
}

/* "d2" (hypercube link, dimension 2), "W" (mesh link), "inj1", "ej0". */
static const char *port_name(const struct cov_space *sp, int port, bool input, char *buf,
			     size_t len)
{
	static const char *const mesh[] = { "E", "W", "N", "S" };

	if (port >= sp->ports)
		snprintf(buf, len, "%s%d", input ? "inj" : "ej", port - sp->ports);
	else if (sp->topo.kind == TOPO_MESH)
		snprintf(buf, len, "%s", mesh[port]);
	else
		snprintf(buf, len, "d%d", port);
	return buf;
}

void cov_bin_name(const struct cov_space *sp, int bin, char *buf, size_t len)
{
	static const char *const ir[] = { "ir taken", "ir not taken", "ir at source",
					  "ir at destination" };
	static const char *const stall[] = { "stall link", "stall ejection" };
	static const char *const arb[] = { "arbitration held", "arbitration lost" };
	static const char *const port_model[] = { "port model all-port", "port model one-port" };
	static const char *const hold[] = { "hold charged", "hold leaf", "hold wait" };
	enum cov_family f = cov_family_of(sp, bin);
	int k = bin - sp->first[f];
	char a[16], b[16];

	switch (f) {
	case COV_PAIR_R:
	case COV_PAIR_B:
		snprintf(buf, len, "%s %s->%s", f == COV_PAIR_R ? "R" : "B",
			 port_name(sp, k / sp->max_io, true, a, sizeof(a)),
			 port_name(sp, k % sp->max_io, false, b, sizeof(b)));
		break;
	case COV_FANOUT:
		snprintf(buf, len, "fanout %d", k + 1);
		break;
	case COV_IR:
		snprintf(buf, len, "%s", ir[k]);
		break;
	case COV_TREE_LEVEL:
		snprintf(buf, len, "tree level %d", k);
		break;
	case COV_STALL:
		snprintf(buf, len, "%s", stall[k]);
		break;
	case COV_ARBITRATION:
		snprintf(buf, len, "%s", arb[k]);
		break;
	case COV_EJECT_PAIR:
		snprintf(buf, len, "ejection pair %s", port_name(sp, k, true, a, sizeof(a)));
		break;
	case COV_EJECT_CONCURRENT:
		snprintf(buf, len, "ejection concurrent");
		break;
	case COV_BACK_TO_BACK:
		snprintf(buf, len, "back-to-back");
		break;
	case COV_PORT_MODEL:
		snprintf(buf, len, "%s", port_model[k]);
		break;
	default:
		snprintf(buf, len, "%s", hold[k]);
		break;
	}
}

const char *cov_bin_section(const struct cov_space *sp, int bin)
{
	static const char *const section[COV_N_FAMILIES] = {
		[COV_PAIR_R] = "3, 8", [COV_PAIR_B] = "3, 8", [COV_FANOUT] = "7 step 6, 8",
		[COV_IR] = "8", [COV_TREE_LEVEL] = "8", [COV_STALL] = "7 steps 2, 6",
		[COV_ARBITRATION] = "7 step 4", [COV_EJECT_PAIR] = "3",
		[COV_EJECT_CONCURRENT] = "3", [COV_BACK_TO_BACK] = "7 steps 9, 10",
		[COV_PORT_MODEL] = "3", [COV_HOLD] = "7 steps 5, 12",
	};
	return section[cov_family_of(sp, bin)];
}

/* ---- the classification ---- */

/*
 * A head granted at input i with output set S: the bins of what the router does with
 * it.  The same function describes the routes of the reachability analysis, so a
 * route and an observed grant land in the same bins.
 */
static void head_bins(const struct cov_space *sp, const struct router_params *p, int node,
		      int i, flit_t head, uint32_t S, void (*mark)(void *ctx, int bin), void *ctx)
{
	struct header h = header_unpack(flit_payload(head), (unsigned)p->payload_width);
	int P = sp->ports, n = __builtin_popcount(S);
	uint32_t links = (1u << P) - 1, ejs = S & ~links;
	bool b = h.type == HDR_B;

	for (uint32_t m = S; m; m &= m - 1)
		mark(ctx, sp->first[b ? COV_PAIR_B : COV_PAIR_R] + i * sp->max_io + __builtin_ctz(m));
	mark(ctx, sp->first[COV_PORT_MODEL] + (p->all_port ? COV_PORT_ALL : COV_PORT_ONE));
	if (p->all_port && i < P && (ejs >> (P + i) & 1))
		mark(ctx, sp->first[COV_EJECT_PAIR] + i);
	if (b) {
		int level = topology_distance(&sp->topo, (int)h.address, node);

		if (n >= 1 && n <= sp->max_io)
			mark(ctx, sp->first[COV_FANOUT] + n - 1);
		if (level >= 0 && level < sp->levels)
			mark(ctx, sp->first[COV_TREE_LEVEL] + level);
		if (p->replication_cost > 0)
			mark(ctx, sp->first[COV_HOLD] + ((S & links) ? COV_HOLD_CHARGED : COV_HOLD_LEAF));
		return;
	}
	if (i >= P) {
		if (h.ir)
			mark(ctx, sp->first[COV_IR] + COV_IR_SOURCE);
	} else if (S & links) {
		/* A router the message passes through: IR delivers here as well, or not. */
		mark(ctx, sp->first[COV_IR] + (ejs ? COV_IR_TAKEN : COV_IR_NOT_TAKEN));
	} else if (h.ir) {
		mark(ctx, sp->first[COV_IR] + COV_IR_DESTINATION);
	}
}

static void count_bin(void *ctx, int bin)
{
	((uint64_t *)ctx)[bin]++;
}

void coverage_classify(const struct cov_space *sp, const struct router_params *p, int node,
		       const struct router_state *before, const struct router_state *after,
		       const struct cov_inputs *in, uint32_t *tail_left, uint64_t *counts)
{
	const int P = sp->ports, n_in = before->n_in, n_out = before->n_out;
	const uint32_t links = (1u << P) - 1, ejs = ((1u << n_out) - 1) & ~links;
	uint32_t owned = 0, ready = 0, granted = 0, losers = 0, tails = 0, moved = 0;
	flit_t hol[ROUTER_MAX_IO];

	for (int i = 0; i < n_in; i++) {
		owned |= before->in[i].route_q;
		moved |= (uint32_t)after->in[i].credit_out_q << i;
	}
	/* Step 2: an output is ready with a credit, or one arriving this cycle. */
	for (int o = 0; o < n_out; o++)
		if (before->out[o].credits_q > 0 || (in->credit_in >> o & 1))
			ready |= 1u << o;
	for (int i = 0; i < n_in; i++) {
		const struct router_state_input *x = &before->in[i];
		bool mv = moved >> i & 1, charged = false;
		uint32_t cur = x->route_q;
		flit_t h;

		/* Step 1: the head of line, the FIFO's or the arriving flit. */
		if (x->count)
			h = router_state_fifo(before, i, 0);
		else if (in->in_valid >> i & 1)
			h = in->in_flit[i];
		else
			continue;
		if (mv && flit_is_tail(h))
			tails |= 1u << i;
		if ((*tail_left >> i & 1) && flit_is_head(h))
			counts[sp->first[COV_BACK_TO_BACK]]++;
		if (!cur) {
			uint32_t S = after->in[i].route_q;

			if (!flit_is_head(h))
				continue;	/* no message and no head: nothing can happen */
			/* A one-flit message granted and gone: the outputs that took it. */
			for (int o = 0; !S && mv && o < n_out; o++)
				if (after->out[o].out_valid_q && after->out[o].out_flit_q == h)
					S |= 1u << o;
			if (!S) {
				losers |= 1u << i;
				hol[i] = h;
				continue;
			}
			granted |= S;
			head_bins(sp, p, node, i, h, S, count_bin, counts);
			/* Step 5: held from the grant on. */
			charged = p->replication_cost > 0 && (flit_payload(h) & 1u) == HDR_B &&
				  (S & links);
			cur = S;
		}
		if (x->hold_q) {
			counts[sp->first[COV_HOLD] + COV_HOLD_WAIT]++;
			continue;
		}
		if (mv || charged)
			continue;
		/* Step 6: a flit with a route that does not move waits for a credit. */
		if (cur & ~ready & links)
			counts[sp->first[COV_STALL] + COV_STALL_LINK]++;
		if (cur & ~ready & ejs)
			counts[sp->first[COV_STALL] + COV_STALL_EJECTION]++;
	}
	/* Step 4: a waiting head that was not granted lost an output it wanted. */
	for (uint32_t m = losers; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		uint32_t req = route_of(p, node, hol[i], i);

		if (req & owned)
			counts[sp->first[COV_ARBITRATION] + COV_ARB_HELD]++;
		else if (req & granted)
			counts[sp->first[COV_ARBITRATION] + COV_ARB_SAME_CYCLE]++;
	}
	if (p->all_port) {
		int delivering = 0;

		for (int o = P; o < n_out; o++)
			delivering += after->out[o].out_valid_q;
		if (delivering >= 2)
			counts[sp->first[COV_EJECT_CONCURRENT]]++;
	}
	*tail_left = tails;
}

/* ---- reachability ---- */

struct reach_walk {
	const struct cov_space *sp;
	const struct router_params *p;
	bool *reach;
	uint32_t *outputs;	/* slot * max_io + input: union of the sets routed there */
	bool symmetric;		/* every router is slot 0 */
	int *queue;		/* B: (node, input, level) triples */
};

static void mark_reach(void *ctx, int bin)
{
	((bool *)ctx)[bin] = true;
}

static void walk_hop(struct reach_walk *w, int node, int input, flit_t head, uint32_t S)
{
	int slot = w->symmetric ? 0 : node;

	head_bins(w->sp, w->p, node, input, head, S, mark_reach, w->reach);
	w->outputs[slot * w->sp->max_io + input] |= S;
}

/* At the source or root: every injection channel the NI may use. */
static uint32_t walk_source(struct reach_walk *w, int s, flit_t head)
{
	int P = w->sp->ports, channels = w->p->all_port ? P : 1;
	uint32_t S = route_of(w->p, s, head, P);

	for (int j = 0; j < channels; j++)
		walk_hop(w, s, P + j, head, S);
	return S;
}

static flit_t walk_head(const struct router_params *p, enum hdr_type type, bool ir, int address,
			int source)
{
	struct header h = { .type = type, .ir = ir, .address = (unsigned)address,
			    .source = (unsigned)source, .seq = 0 };

	return flit_make(FLIT_HEAD, header_pack(&h, (unsigned)p->payload_width),
			 (unsigned)p->payload_width);
}

static void walk_unicast(struct reach_walk *w, int s, int d, bool ir)
{
	const struct topology *t = &w->sp->topo;
	flit_t head = walk_head(w->p, HDR_R, ir, d, s);
	uint32_t S = walk_source(w, s, head);
	int node = s, links = (1 << w->sp->ports) - 1;

	for (int hops = 0; (S & (uint32_t)links) && hops < t->nodes; hops++) {
		int o = __builtin_ctz(S & (uint32_t)links), in = topology_peer_port(t, o);

		node = topology_neighbor(t, node, o);
		if (node < 0)
			return;
		S = route_of(w->p, node, head, in);
		walk_hop(w, node, in, head, S);
	}
}

/*
 * A broadcast from root s: the replication tree, or (path) the path broadcast of
 * section 8, whose links form one path (two from a mesh root inside the
 * boustrophedon) and so a tree as well: the same walk over its edges.
 */
static void walk_broadcast(struct reach_walk *w, int s, bool path)
{
	const struct topology *t = &w->sp->topo;
	flit_t head = walk_head(w->p, HDR_B, path, s, s);
	uint32_t links = (1u << w->sp->ports) - 1;
	int n = 0, k = 0;

	for (uint32_t m = walk_source(w, s, head) & links; m; m &= m - 1)
		w->queue[n++] = s, w->queue[n++] = __builtin_ctz(m);
	/* Breadth first over the tree's edges: (parent, output). */
	while (k < n && n <= 2 * t->nodes * w->sp->ports) {
		int parent = w->queue[k++], o = w->queue[k++];
		int node = topology_neighbor(t, parent, o), in = topology_peer_port(t, o);
		uint32_t S;

		if (node < 0)
			continue;
		S = route_of(w->p, node, head, in);
		walk_hop(w, node, in, head, S);
		for (uint32_t m = S & links; m && n + 2 <= 2 * t->nodes * w->sp->ports; m &= m - 1)
			w->queue[n++] = node, w->queue[n++] = __builtin_ctz(m);
	}
}

/*
 * The sources whose routes are walked.  A hypercube's routes depend on address xor
 * node only (e-cube, the replication tree of Jeon & Kim's Algorithm B and the path
 * broadcast's Gray code from the root), so the routes from node 0 are those of every
 * source, moved: one source suffices.  A mesh
 * of up to 1024 nodes is walked from every source; a larger one from the rows and
 * columns at and next to its borders and its middle, which see every kind of route
 * (a port pair, a fan-out, a level depends on the directions a route takes and on the
 * borders, not on where in the interior it runs).
 */
static bool is_source(const struct topology *t, int s, bool every_source)
{
	if (every_source)
		return true;
	if (t->kind == TOPO_HYPERCUBE)
		return s == 0;
	if (t->nodes <= 1024)
		return true;
	{
		int r = mesh_row(t, s), c = mesh_col(t, s);
		bool rr = r <= 2 || r >= t->rows - 3 || r == t->rows / 2;
		bool cc = c <= 2 || c >= t->cols - 3 || c == t->cols / 2;

		return rr && cc;
	}
}

int cov_reachable_ex(const struct cov_space *sp, const struct router_params *p, bool *reach,
		     const char **why, bool every_source)
{
	const struct topology *t = &sp->topo;
	const int P = sp->ports, m = sp->max_io, n_io = p->all_port ? 2 * P : P + 1;
	struct reach_walk w = { .sp = sp, .p = p, .reach = reach };
	int slots;

	w.symmetric = !every_source && t->kind == TOPO_HYPERCUBE;
	slots = w.symmetric ? 1 : t->nodes;
	w.outputs = calloc((size_t)slots * (size_t)m, sizeof(uint32_t));
	w.queue = malloc(sizeof(int) * 2 * (size_t)t->nodes * (size_t)P + 2);
	if (!w.outputs || !w.queue) {
		free(w.outputs);
		free(w.queue);
		return -1;
	}
	memset(reach, 0, sizeof(*reach) * (size_t)cov_bins(sp));
	for (int s = 0; s < t->nodes; s++) {
		if (!is_source(t, s, every_source))
			continue;
		for (int d = 0; d < t->nodes; d++)
			if (d != s) {
				walk_unicast(&w, s, d, false);
				walk_unicast(&w, s, d, true);
			}
		walk_broadcast(&w, s, false);
		/* Section 8 defines it on hypercubes and meshes only. */
		if (t->kind == TOPO_HYPERCUBE || t->kind == TOPO_MESH)
			walk_broadcast(&w, s, true);
	}
	/* What depends on two inputs of one router: arbitration, concurrent delivery. */
	for (int slot = 0; slot < slots; slot++) {
		const uint32_t *u = &w.outputs[slot * m];
		uint32_t ejs = ~((1u << P) - 1);
		int deliver = 0;

		for (int i = 0; i < n_io; i++) {
			for (int j = i + 1; j < n_io; j++)
				if (u[i] & u[j]) {
					reach[sp->first[COV_ARBITRATION] + COV_ARB_HELD] = true;
					reach[sp->first[COV_ARBITRATION] + COV_ARB_SAME_CYCLE] = true;
				}
			deliver += i < P && (u[i] & ejs);
		}
		if (p->all_port && deliver >= 2)
			reach[sp->first[COV_EJECT_CONCURRENT]] = true;
	}
	/* A flit can wait for a credit on any output it uses (a full FIFO or NI buffer). */
	reach[sp->first[COV_STALL] + COV_STALL_LINK] = t->nodes >= 2;
	reach[sp->first[COV_STALL] + COV_STALL_EJECTION] = true;
	reach[sp->first[COV_BACK_TO_BACK]] = true;
	reach[sp->first[COV_HOLD] + COV_HOLD_WAIT] = p->replication_cost > 1 &&
		reach[sp->first[COV_HOLD] + COV_HOLD_CHARGED];
	free(w.outputs);
	free(w.queue);
	for (int b = 0; b < cov_bins(sp); b++) {
		enum cov_family f = cov_family_of(sp, b);
		int k = b - sp->first[f];

		if (reach[b]) {
			why[b] = NULL;
			continue;
		}
		switch (f) {
		case COV_PAIR_R:
		case COV_PAIR_B:
			why[b] = k / m >= n_io || k % m >= n_io ? "not a port of a one-port router"
								: "no route of section 8 takes it";
			break;
		case COV_FANOUT:
			why[b] = "no B head has that many outputs";
			break;
		case COV_TREE_LEVEL:
			why[b] = "no router is that far from a root";
			break;
		case COV_EJECT_PAIR:
		case COV_EJECT_CONCURRENT:
			why[b] = p->all_port ? "no route delivers from that link input"
					     : "one-port: the one ejection channel is shared";
			break;
		case COV_ARBITRATION:
			why[b] = "no two inputs of a router want the same output";
			break;
		case COV_PORT_MODEL:
			why[b] = p->all_port ? "the routers are all-port" : "the routers are one-port";
			break;
		case COV_HOLD:
			why[b] = p->replication_cost == 0 ? "T_r = 0: no replication hold"
				 : k == COV_HOLD_WAIT       ? "T_r = 1: no hold after the grant cycle"
							    : "no B route forwards";
			break;
		default:
			why[b] = "no route of section 8 gives it";
			break;
		}
	}
	return 0;
}

int cov_reachable(const struct cov_space *sp, const struct router_params *p, bool *reach,
		  const char **why)
{
	return cov_reachable_ex(sp, p, reach, why, false);
}

/* ---- the counts of a run ---- */

struct coverage {
	struct router_params p;
	struct topology topo;		/* own copy: p.topo points here */
	struct cov_space sp;
	int nodes, channels;
	struct router_state *prev, *cur;	/* every router before and after the edge */
	uint32_t *tail_left;
	uint32_t *inj_valid, *ej_credit;	/* per node: this cycle's NI, bit per channel */
	flit_t *inj_flit;			/* node * channels + channel */
	uint64_t *counts;
};

void coverage_destroy(struct coverage *c)
{
	if (!c)
		return;
	free(c->prev);
	free(c->cur);
	free(c->tail_left);
	free(c->inj_valid);
	free(c->ej_credit);
	free(c->inj_flit);
	free(c->counts);
	free(c);
}

struct coverage *coverage_create(const struct router_params *p)
{
	struct coverage *c = calloc(1, sizeof(*c));
	size_t nodes;

	if (!c)
		return NULL;
	c->topo = *p->topo;
	c->p = *p;
	c->p.topo = &c->topo;
	cov_space_init(&c->sp, &c->topo);
	c->nodes = c->topo.nodes;
	c->channels = p->all_port ? c->topo.ports : 1;
	nodes = (size_t)c->nodes;
	c->prev = calloc(nodes, sizeof(*c->prev));
	c->cur = calloc(nodes, sizeof(*c->cur));
	c->tail_left = calloc(nodes, sizeof(uint32_t));
	c->inj_valid = calloc(nodes, sizeof(uint32_t));
	c->ej_credit = calloc(nodes, sizeof(uint32_t));
	c->inj_flit = calloc(nodes * (size_t)c->channels, sizeof(flit_t));
	c->counts = calloc((size_t)cov_bins(&c->sp), sizeof(uint64_t));
	if (!c->prev || !c->cur || !c->tail_left || !c->inj_valid || !c->ej_credit ||
	    !c->inj_flit || !c->counts) {
		coverage_destroy(c);
		return NULL;
	}
	/* The reset state (section 6): empty, nothing owned, every credit. */
	for (int v = 0; v < c->nodes; v++) {
		struct router_state *s = &c->prev[v];

		s->node = v;
		s->n_ports = c->topo.ports;
		s->n_in = s->n_out = c->topo.ports + c->channels;
		s->depth = p->buffer_depth;
		for (int o = 0; o < s->n_out; o++)
			s->out[o].credits_q = (uint8_t)p->buffer_depth;
	}
	return c;
}

const struct cov_space *coverage_space(const struct coverage *c) { return &c->sp; }
const uint64_t *coverage_counts(const struct coverage *c) { return c->counts; }

void coverage_inject(struct coverage *c, int node, int ch, flit_t f)
{
	c->inj_valid[node] |= 1u << ch;
	c->inj_flit[node * c->channels + ch] = f;
}

void coverage_credit(struct coverage *c, int node, int ch)
{
	c->ej_credit[node] |= 1u << ch;
}

/* Router v's inputs of the cycle: its neighbours' registers before the edge, the NI's. */
static void inputs_of(const struct coverage *c, int v, struct cov_inputs *in)
{
	const int P = c->topo.ports;

	in->in_valid = c->inj_valid[v] << P;
	in->credit_in = c->ej_credit[v] << P;
	for (int j = 0; j < c->channels; j++)
		in->in_flit[P + j] = c->inj_flit[v * c->channels + j];
	for (int i = 0; i < P; i++) {
		int w = topology_neighbor(&c->topo, v, i), q = topology_peer_port(&c->topo, i);
		const struct router_state *n;

		in->in_flit[i] = 0;
		if (w < 0)
			continue;	/* a port without a neighbour: tied to "never valid" */
		n = &c->prev[w];
		in->in_valid |= (uint32_t)n->out[q].out_valid_q << i;
		in->in_flit[i] = n->out[q].out_flit_q;
		in->credit_in |= (uint32_t)n->in[q].credit_out_q << i;
	}
}

int coverage_observe(struct coverage *c, cov_read_fn read, void *ctx)
{
	struct router_state *t;

	for (int v = 0; v < c->nodes; v++)
		if (read(ctx, v, &c->cur[v]))
			return -1;
	for (int v = 0; v < c->nodes; v++) {
		struct cov_inputs in;

		inputs_of(c, v, &in);
		coverage_classify(&c->sp, &c->p, v, &c->prev[v], &c->cur[v], &in, &c->tail_left[v],
				  c->counts);
	}
	t = c->prev;
	c->prev = c->cur;
	c->cur = t;
	memset(c->inj_valid, 0, sizeof(uint32_t) * (size_t)c->nodes);
	memset(c->ej_credit, 0, sizeof(uint32_t) * (size_t)c->nodes);
	return 0;
}

/* ---- the engine wrapper ---- */

struct cov_engine {
	struct engine inner;
	struct network *reference;
	struct coverage *side, *ref;	/* the engine's routers; the reference's, or NULL */
	bool failed;			/* a router could not be read */
};

static struct cov_engine *ce(void *impl) { return impl; }

static void ce_inject(void *impl, int node, int ch, flit_t f)
{
	struct cov_engine *w = ce(impl);

	coverage_inject(w->side, node, ch, f);
	if (w->ref)
		coverage_inject(w->ref, node, ch, f);
	w->inner.ops->inject(w->inner.impl, node, ch, f);
}

static void ce_credit(void *impl, int node, int ch)
{
	struct cov_engine *w = ce(impl);

	coverage_credit(w->side, node, ch);
	if (w->ref)
		coverage_credit(w->ref, node, ch);
	w->inner.ops->return_credit(w->inner.impl, node, ch);
}

static int read_inner(void *ctx, int node, struct router_state *s)
{
	const struct engine *e = ctx;

	return e->ops->router_state(e->impl, node, s);
}

static int read_network(void *ctx, int node, struct router_state *s)
{
	network_router_state(ctx, node, s);
	return 0;
}

static int ce_step(void *impl, uint64_t cycle)
{
	struct cov_engine *w = ce(impl);
	int rc = w->inner.ops->step(w->inner.impl, cycle);

	if (!w->failed && coverage_observe(w->side, read_inner, &w->inner))
		w->failed = true;
	if (!w->failed && w->ref)
		coverage_observe(w->ref, read_network, w->reference);
	return rc;
}

static int ce_ejections(void *impl, const struct channel_event **l)
{
	return ce(impl)->inner.ops->ejections(ce(impl)->inner.impl, l);
}

static int ce_inj_credits(void *impl, const struct channel_event **l)
{
	return ce(impl)->inner.ops->inj_credits(ce(impl)->inner.impl, l);
}

static int ce_outputs_valid(void *impl)
{
	return ce(impl)->inner.ops->outputs_valid(ce(impl)->inner.impl);
}

static int ce_router_state(void *impl, int node, struct router_state *s)
{
	return ce(impl)->inner.ops->router_state(ce(impl)->inner.impl, node, s);
}

static uint64_t ce_link_moves(void *impl)
{
	return ce(impl)->inner.ops->link_moves(ce(impl)->inner.impl);
}

static uint64_t ce_conflicts(void *impl)
{
	return ce(impl)->inner.ops->conflict_cycles(ce(impl)->inner.impl);
}

int coverage_wrap(struct engine *outer, const struct engine *inner, const struct router_params *p,
		  struct network *reference)
{
	struct cov_engine *w = calloc(1, sizeof(*w));
	struct engine_ops *ops = calloc(1, sizeof(*ops));

	if (!w || !ops || !(w->side = coverage_create(p)) ||
	    (reference && !(w->ref = coverage_create(p)))) {
		if (w)
			coverage_destroy(w->side);
		free(w);
		free(ops);
		return -1;
	}
	w->inner = *inner;
	w->reference = reference;
	w->failed = !inner->ops->router_state;
	*ops = (struct engine_ops){
		.name = inner->ops->name, .inject = ce_inject, .return_credit = ce_credit,
		.step = ce_step, .ejections = ce_ejections, .inj_credits = ce_inj_credits,
		.outputs_valid = ce_outputs_valid,
		.router_state = inner->ops->router_state ? ce_router_state : NULL,
		.link_moves = ce_link_moves,
		.conflict_cycles = inner->ops->conflict_cycles ? ce_conflicts : NULL,
	};
	outer->ops = ops;
	outer->impl = w;
	return 0;
}

struct engine *coverage_inner(struct engine *outer)
{
	return &ce(outer->impl)->inner;
}

const uint64_t *coverage_wrap_counts(const struct engine *outer, const uint64_t **reference)
{
	const struct cov_engine *w = outer->impl;

	*reference = w->ref ? coverage_counts(w->ref) : NULL;
	return w->failed ? NULL : coverage_counts(w->side);
}

const struct cov_space *coverage_wrap_space(const struct engine *outer)
{
	return coverage_space(ce(outer->impl)->side);
}

void coverage_unwrap(struct engine *outer)
{
	struct cov_engine *w = outer->impl;

	coverage_destroy(w->side);
	coverage_destroy(w->ref);
	free((void *)outer->ops);
	free(w);
	outer->ops = NULL;
	outer->impl = NULL;
}
