/* SPDX-License-Identifier: MIT */
/*
 * tree.c - the replication tree and an algorithm's sends, drawn (see tree.h).
 *
 * An algorithm's sends are grouped into steps by cause, not by clock: a send's step is
 * one more than the latest step of the messages whose head had reached its node when
 * it was asked for, and of the node's own sends that got their channel before it.  So
 * the sends of an all-port step (several channels at once) share a step, and sends
 * queued on one channel (one-port) follow each other, whatever t_s and L make of the
 * cycles.
 */
#include "tree.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "jobs.h"
#include "outputs.h"
#include "schedule.h"
#include "setup.h"

/* ---- nodes ---- */

/* "0101" on Q_4 (with the number if asked), "9 (2,1)" on a mesh or torus, "9" on a ring. */
static const char *node_label(const struct topology *t, int v, bool number, char *buf, size_t len)
{
	if (t->kind == TOPO_RING) {
		snprintf(buf, len, "%d", v);
		return buf;
	}
	if (topology_is_grid(t)) {
		snprintf(buf, len, "%d (%d,%d)", v, mesh_row(t, v), mesh_col(t, v));
		return buf;
	}
	for (int k = 0; k < t->dim && (size_t)k < len - 1; k++)
		buf[k] = (char)('0' + (v >> (t->dim - 1 - k) & 1));
	buf[t->dim] = '\0';
	if (number)
		snprintf(buf + t->dim, len - (size_t)t->dim, " (%d)", v);
	return buf;
}

/* How a tree edge leaves: "dimension 2", "east". */
static const char *port_name(const struct topology *t, int port, char *buf, size_t len)
{
	static const char *const mesh[] = { "east", "west", "north", "south" };

	if (topology_is_grid(t))
		return mesh[port];
	snprintf(buf, len, "dimension %d", port);
	return buf;
}

/* ---- the replication tree ---- */

static void tree_text(FILE *out, const struct topology *t, int root, int v, int depth,
		      char *prefix, size_t plen)
{
	uint32_t kids = replication_children(t, root, v);
	int last = -1;
	char a[64], b[32];

	for (int p = 0; p < t->ports; p++)
		if (kids >> p & 1)
			last = p;
	for (int p = 0; p < t->ports; p++) {
		int u;
		size_t n = strlen(prefix);

		if (!(kids >> p & 1))
			continue;
		u = topology_neighbor(t, v, p);
		fprintf(out, "%s%s %s  (level %d, %s)\n", prefix, p == last ? "`--" : "|--",
			node_label(t, u, true, a, sizeof(a)), depth + 1, port_name(t, p, b, sizeof(b)));
		if (n + 5 < plen) {
			strcpy(prefix + n, p == last ? "    " : "|   ");
			tree_text(out, t, root, u, depth + 1, prefix, plen);
			prefix[n] = '\0';
		}
	}
}

static void tree_dot(FILE *out, const struct topology *t, int root)
{
	char a[64];

	fprintf(out, "digraph replication_tree {\n  node [shape=box, fontname=\"monospace\"];\n");
	for (int v = 0; v < t->nodes; v++)
		fprintf(out, "  n%d [label=\"%s\"%s];\n", v, node_label(t, v, false, a, sizeof(a)),
			v == root ? ", style=bold" : "");
	for (int v = 0; v < t->nodes; v++) {
		int parent = replication_parent(t, root, v);

		/* The edge's label is the level it leads to: the order the flits flow in. */
		if (parent >= 0)
			fprintf(out, "  n%d -> n%d [label=\"%d\"];\n", parent, v,
				topology_distance(t, root, v));
	}
	fprintf(out, "}\n");
}

/* ---- an algorithm's sends ---- */

struct send_rec {
	struct scheduled_send s;
	int step;
};

struct steps {
	struct send_rec *sends;
	int n, cap;
	int *msg_step;		/* by message id: its send's step */
	int *recv_step;		/* by node: the latest step whose head reached it */
	bool no_memory;
};

static void on_send(void *ctx, const struct scheduled_send *s)
{
	struct steps *st = ctx;
	int step = st->recv_step[s->source] + 1;

	if (st->no_memory)
		return;
	if (st->n == st->cap) {
		size_t cap = (size_t)st->cap, cap_m = cap;
		struct send_rec *r = grow_array(st->sends, &cap, cap + 1, sizeof(*r), 256, INT_MAX);
		int *m = grow_array(st->msg_step, &cap_m, cap_m + 1, sizeof(*m), 256, INT_MAX);

		/* Both grow alike (one capacity); one that grew is kept even if the other did not. */
		if (r)
			st->sends = r;
		if (m)
			st->msg_step = m;
		if (!r || !m) {
			st->no_memory = true;
			return;
		}
		st->cap = (int)cap;
	}
	/* The node's own sends that got their channel earlier come first. */
	for (int k = st->n - 1; k >= 0; k--)
		if (st->sends[k].s.source == s->source && st->sends[k].s.start < s->start &&
		    st->sends[k].step + 1 > step)
			step = st->sends[k].step + 1;
	st->sends[st->n] = (struct send_rec){ .s = *s, .step = step };
	st->msg_step[s->msg] = step;
	st->n++;
}

static void on_head(void *ctx, int msg, int node, uint64_t cycle)
{
	struct steps *st = ctx;

	(void)cycle;
	if (!st->no_memory && st->msg_step[msg] > st->recv_step[node])
		st->recv_step[node] = st->msg_step[msg];
}

static int by_step(const void *pa, const void *pb)
{
	const struct send_rec *a = pa, *b = pb;

	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->s.start != b->s.start)
		return a->s.start < b->s.start ? -1 : 1;
	return a->s.msg < b->s.msg ? -1 : a->s.msg > b->s.msg;
}

static const char *send_kind(const struct scheduled_send *s)
{
	return s->bcast ? "B" : s->ir ? "R+IR" : "R";
}

static void sends_text(FILE *out, const struct topology *t, const struct steps *st,
		       uint64_t first)
{
	char a[64], b[64];

	for (int k = 0; k < st->n; k++) {
		const struct send_rec *r = &st->sends[k];

		if (k == 0 || r->step != st->sends[k - 1].step)
			fprintf(out, "step %d\n", r->step);
		fprintf(out, "  cycles %6llu..%-6llu %s -> %s  (%s, %d flits)\n",
			(unsigned long long)(r->s.start - first), (unsigned long long)(r->s.done - first),
			node_label(t, r->s.source, true, a, sizeof(a)),
			r->s.bcast ? "every node" : node_label(t, r->s.dest, true, b, sizeof(b)),
			send_kind(&r->s), r->s.len);
	}
}

static void sends_dot(FILE *out, const struct topology *t, const struct steps *st)
{
	char a[64];

	fprintf(out, "digraph sends {\n  node [shape=box, fontname=\"monospace\"];\n");
	for (int v = 0; v < t->nodes; v++)
		fprintf(out, "  n%d [label=\"%s\"];\n", v, node_label(t, v, t->kind == TOPO_HYPERCUBE,
									a, sizeof(a)));
	for (int k = 0; k < st->n; k++) {
		const struct send_rec *r = &st->sends[k];

		if (!r->s.bcast) {
			fprintf(out, "  n%d -> n%d [label=\"%d%s\"%s];\n", r->s.source, r->s.dest,
				r->step, r->s.ir ? " IR" : "", r->s.ir ? ", style=dashed" : "");
			continue;
		}
		/* A B message moves along its replication tree: its edges carry the step. */
		for (int v = 0; v < t->nodes; v++) {
			int parent = replication_parent(t, r->s.source, v);

			if (parent >= 0)
				fprintf(out, "  n%d -> n%d [label=\"%d B\", style=bold];\n", parent, v,
					r->step);
		}
	}
	fprintf(out, "}\n");
}

/* ---- the command ---- */

/* dot's SVG of the graph text into out, through scratch files. */
static int draw_svg(const char *graph, size_t len, const char *near, FILE *out, struct failure *f)
{
	char *in = outfile_scratch(near, ".dot"), *svg = outfile_scratch(near, ".svg");
	char *argv[] = { "dot", "-Tsvg", "-o", svg, in, NULL };
	struct job_pool pool = { .parallel = 1 };
	struct job j = { .argv = argv };
	FILE *s = NULL;
	bool bad = true;
	int rc = -1;

	if (in && svg && (s = fopen(in, "w"))) {
		bad = fwrite(graph, 1, len, s) != len;
		bad |= fclose(s) != 0;
	}
	if (bad) {
		failf(f, EXIT_FAILED, "cannot write a scratch file: %s", strerror(errno));
	} else if (jobs_run(&j, 1, &pool, f) == 0) {
		if (j.status == 127)
			failf(f, EXIT_FAILED, "--format svg needs Graphviz's dot (Debian: graphviz, "
			      "which scripts/install-deps.sh installs): %.*s",
			      (int)strcspn(j.err ? j.err : "", "\n"), j.err ? j.err : "");
		else if (j.status)
			failf(f, EXIT_FAILED, "dot failed: %.*s", (int)strcspn(j.err ? j.err : "", "\n"),
			      j.err ? j.err : "");
		else if (outfile_copy_from(out, svg))
			failf(f, EXIT_FAILED, "cannot write the SVG: %s", strerror(errno));
		else
			rc = 0;
	}
	free(j.out);
	free(j.err);
	if (in)
		unlink(in);
	if (svg)
		unlink(svg);
	free(in);
	free(svg);
	return rc;
}

/* The text or graph into a memory buffer; the algorithm's schedule if a is not NULL. */
static int make_text(const struct options *o, const struct sim_config *cfg,
		     const struct algorithm *a, const struct algo_params *p, bool dot,
		     char **text, size_t *len, struct failure *f)
{
	const struct topology *t = &cfg->topo;
	int root = (int)opt(o, OPT_ROOT)->u;
	FILE *m = open_memstream(text, len);
	char name[64], prefix[4096] = "";
	int rc = 0;

	if (!m)
		return fail_no_memory(f);
	if (!a && dot) {
		tree_dot(m, t, root);
	} else if (!a) {
		fprintf(m, "replication tree of a B message from node %d on %s (%s; level = hops "
			"from the root)\n%s\n", root, topology_name(t, name, sizeof(name)),
			t->kind == TOPO_HYPERCUBE
				? (t->tree_order == ORDER_DESCENDING
					   ? "Jeon & Kim, Algorithm B: highest dimension first"
					   : "lowest dimension first")
				: t->kind == TOPO_RING
				? "both ways round the ring"
				: (t->tree_order == ORDER_ASCENDING
					   ? "along the root's row, then the columns"
					   : "along the root's column, then the rows"),
			node_label(t, root, true, prefix, sizeof(prefix)));
		prefix[0] = '\0';
		tree_text(m, t, root, root, 0, prefix, sizeof(prefix));
	} else {
		struct steps st = { 0 };
		struct schedule_trace tr = { .ctx = &st, .send = on_send, .head = on_head };
		struct schedule_result r;

		st.recv_step = calloc((size_t)t->nodes, sizeof(int));
		if (!st.recv_step || algo_schedule_traced(a, p, &r, &tr) || st.no_memory) {
			rc = fail_no_memory(f);
		} else if (!r.ok) {
			rc = failf(f, EXIT_FAILED, "%s: %s", a->name, r.text);
		} else {
			uint64_t first = st.n ? st.sends[0].s.call : 0;

			for (int k = 0; k < st.n; k++)
				if (st.sends[k].s.call < first)
					first = st.sends[k].s.call;
			qsort(st.sends, (size_t)st.n, sizeof(*st.sends), by_step);
			if (dot) {
				sends_dot(m, t, &st);
			} else {
				fprintf(m, "%s on %s (%s), root %d, L = %d flits, t_s = %d, T_r = %d: "
					"%d sends in %d steps; %s\n", a->name,
					topology_name(t, name, sizeof(name)),
					p->cfg->all_port ? "all-port" : "one-port", p->root, p->flits,
					cfg->startup, cfg->replication_cost, st.n,
					st.n ? st.sends[st.n - 1].step : 0, r.text);
				sends_text(m, t, &st, first);
			}
		}
		free(st.sends);
		free(st.msg_step);
		free(st.recv_step);
	}
	if (fclose(m) && rc == 0)
		rc = fail_no_memory(f);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int command_tree(const struct options *o, struct failure *f)
{
	const struct algorithm *a = opt(o, OPT_ALGORITHM)->set ? algo_find(opt(o, OPT_ALGORITHM)->text)
							       : NULL;
	const char *format = opt(o, OPT_FORMAT)->text;
	struct sim_config cfg;
	struct algo_params p;
	struct outputs out;
	struct outfile *file;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (setup_config(o, &cfg, f))
		return -1;
	if (opt(o, OPT_ROOT)->u >= (uint64_t)cfg.topo.nodes)
		return failf(f, EXIT_USAGE, "%s: %llu is not a node of the network (nodes 0..%d)",
			     opt(o, OPT_ROOT)->origin, (unsigned long long)opt(o, OPT_ROOT)->u,
			     cfg.topo.nodes - 1);
	if (a && !opt(o, OPT_FLITS)->set)
		return failf(f, EXIT_USAGE, "tree --algorithm needs --flits L (the schedule depends "
			     "on the message length)");
	if (!a && opt(o, OPT_FLITS)->set)
		return failf(f, EXIT_USAGE, "%s: the replication tree has no length (--flits goes "
			     "with --algorithm)", opt(o, OPT_FLITS)->origin);
	if (a && setup_algorithm(o, a, opt(o, OPT_FLITS)->u, &cfg, &p, f))
		return -1;
	if (make_text(o, &cfg, a, &p, strcmp(format, "txt") != 0, &text, &len, f))
		return -1;
	if (outputs_open(&out, o, f)) {
		free(text);
		return -1;
	}
	file = outputs_file(&out, OPT_OUTPUT);
	if (!strcmp(format, "svg"))
		rc = draw_svg(text, len, file ? outfile_path(file) : P_tmpdir "/wormcast-tree",
			      file ? outfile_stream(file) : stdout, f);
	else
		rc = fwrite(text, 1, len, file ? outfile_stream(file) : stdout) == len ? 0
			: failf(f, EXIT_FAILED, "cannot write: %s", strerror(errno));
	free(text);
	if (rc) {
		outputs_discard(&out);
		return -1;
	}
	return outputs_commit(&out, f) ? -1 : EXIT_PASSED;
}
