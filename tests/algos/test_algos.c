/* SPDX-License-Identifier: MIT */
/*
 * test_algos.c - every collective algorithm on the C model: delivery, data, and the
 * measured cycles against the exact predictions (docs/algorithms.md).
 *
 * Each run is checked against
 *   - the run itself: SIM_DONE, every delivery made (checker), the driver's data check;
 *   - the algorithm's prediction where it claims to be exact;
 *   - a closed form computed here, independently of algos/, where one exists;
 *   - the algorithm's contention-free schedule evaluation, and zero link conflict
 *     cycles, for every conflict-free algorithm;
 *   - the number of messages it sent.
 * One line per check; the last line is "N passed, M failed"; exit 0 iff none failed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "bounds.h"
#include "geometric.h"
#include "schedule.h"
#include "skeleton.h"
#include "../sweep.h"

static int passed, failed;
static bool verbose = true;

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		passed++;
	else
		failed++;
	if (!ok || verbose) {
		printf("%s ", ok ? "ok  " : "FAIL");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
}

/* ---- independent closed forms ---- */

static int ilog2(int x)
{
	int k = 0;

	while ((1 << (k + 1)) <= x)
		k++;
	return k;
}

static bool pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/* Jeon & Kim's recursion for Ho & Kao, tabulated by hand from the seed: d = 1..12. */
static const int hk_alpha[] = { 0, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5 };
static const int hk_beta[] = { 0, 1, 2, 4, 5, 9, 11, 12, 17, 20, 22, 28, 32 };

/*
 * The one-way ring pipeline on a line of n nodes with super-blocks of B blocks, its
 * closing edge n - 1 hops long (docs/algorithms.md, rowcol and linexch1).
 */
static long long line_form(int n, long long B, long long ts, long long mu)
{
	return n < 2 ? 0 : (n - 1) * (ts + 1) + B * mu * n * (n - 1) / 2 + (n - 2);
}

/* The same on a ring (a torus's row or column): the closing edge is one hop. */
static long long ring_form(int n, long long B, long long ts, long long mu)
{
	return n < 2 ? 0 : (n - 1) * (ts + 1) + B * mu * n * (n - 1) / 2;
}

/*
 * QUADEXCH's hops H in sub-phase i of a region of side S (quadrants s = S/2): the
 * longest micro-AAS, 2 (h + v).  Mesh: 4 (S-1) - 4 min(i, s-i).  Torus of side n: a
 * coordinate x of the quadrant is S-1-2x from its mirror image, on the whole torus
 * (S = n) 2 min(x, s-1-x) + 1 the shorter way round; smaller regions as on the mesh.
 */
static long long quad_hops(bool torus, int n, int S, int i)
{
	int s = S / 2, m = i < s - i ? i : s - i;
	long long H = 0;

	if (!torus || S < n)
		return 4ll * (S - 1) - 4ll * m;
	for (int tr = 0; tr < s; tr++) {
		int tc = (tr + i) % s;
		long long h = 2 * (tc < s - 1 - tc ? tc : s - 1 - tc) + 1;
		long long v = 2 * (tr < s - 1 - tr ? tr : s - 1 - tr) + 1;

		H = 2 * (h + v) > H ? 2 * (h + v) : H;
	}
	return H;
}

/*
 * The mesh broadcasts of Barnett et al. and the IR row then column broadcast
 * (docs/algorithms.md), k = the packets the run cut its message into.
 */
static long long mesh_bcast_form(const char *name, const struct topology *t, int root,
				 long long ts, long long L, long long k)
{
	long long n = L - 1, D = t->rows - 1 + t->cols - 1;
	int rs = root / t->cols, cs = root % t->cols;
	long long Dr = rs > t->rows - 1 - rs ? rs : t->rows - 1 - rs;
	long long Dc = cs > t->cols - 1 - cs ? cs : t->cols - 1 - cs;

	if (!strcmp(name, "def") || !strcmp(name, "defap")) {
		/* The longest packet is the last one; a one-port root sends each one twice. */
		long long w = (n + k - 1) / k;
		int m = !strcmp(name, "def") && t->rows > 1 && t->cols > 1 ? 2 : 1;

		return m * ((k - 1) * ts + n - w) + D * (ts + w + 1);
	}
	/*
	 * Scatter-collect where Barnett et al.'s conditions hold (p = 2^d pieces of n/p words):
	 * their start-ups and flits, plus the hops of the chain that ends last.
	 */
	if (!strcmp(name, "sc2d") && pow2(t->rows) && pow2(t->cols) && n % t->nodes == 0) {
		long long r = t->rows, c = t->cols, p = t->nodes;
		long long ring = (c > 1 ? 2 * c - 3 : 0) + (r > 1 ? 2 * r - 3 : 0);

		return (ilog2((int)p) + r + c - 2) * ts + 2 * (p - 1) * (n / p) + (r - 1) + (c - 1) +
		       ring;
	}
	/* ... on a line from its end: RSbcast's chain 3p/2 - 2 hops, the ring's 2p - 3. */
	if (!strcmp(name, "sc1d") && (t->rows == 1 || t->cols == 1) && pow2(t->nodes) &&
	    t->nodes >= 4 && root == 0 && n % t->nodes == 0) {
		long long p = t->nodes;

		return (ilog2((int)p) + p - 1) * ts + 2 * (p - 1) * (n / p) + 3 * p / 2 - 2 + 2 * p - 3;
	}
	if (!strcmp(name, "irrowcol") || !strcmp(name, "irrowcolct")) {
		if (Dr == 0 || Dc == 0)
			return ts + Dr + Dc + n;
		return 2 * ts + Dr + Dc + n + (strcmp(name, "irrowcol") ? 0 : n);
	}
	return -1;
}

/* The exact cycles an algorithm must take, or -1 where no closed form applies. */
static long long closed_form(const char *name, const struct sim_config *cfg, int root, int L,
			     int k)
{
	const struct topology *t = &cfg->topo;
	long long ts = cfg->startup, d = t->dim, p = t->nodes;

	if (!strcmp(name, "pbcast")) {
		int D = 0;

		for (int v = 0; v < t->nodes; v++) {
			int k = topology_distance(t, root, v);

			D = k > D ? k : D;
		}
		/* Jeon & Kim eq. 2 with n = D: every router on the way forwards. */
		return ts + D + L - 1 + (long long)D * cfg->replication_cost;
	}
	if (!strcmp(name, "hampath")) {
		/* The path's farther end, D hops along it, behind D forwarding routers. */
		long long D = path_length(t, root);

		return ts + D + L - 1 + D * cfg->replication_cost;
	}
	if (t->kind == TOPO_HYPERCUBE) {
		if (!strcmp(name, "sbt") || !strcmp(name, "reduce"))
			return (ts + L) * d;
		if (!strcmp(name, "hk"))
			return hk_alpha[d] * ts + hk_beta[d] + hk_alpha[d] * (L - 1);
		if (!strcmp(name, "irruns"))
			return (p / 2) * ts + (p - 1) + (L - 1);
		if (!strcmp(name, "irrunssf"))
			return (p / 2) * (ts + L - 1) + (p - 1);
		if (!strcmp(name, "standexch"))
			return d * (ts + 1 + (p / 2) * (L - 1));
		if (!strcmp(name, "direx")) {
			long long T = 0;

			for (int j = 1; j < p; j++)
				T += ts + __builtin_popcount((unsigned)j) + L - 1;
			return T;
		}
		return -1;
	}
	if (mesh_bcast_form(name, t, root, ts, L, k) >= 0)
		return mesh_bcast_form(name, t, root, ts, L, k);
	/* Rings and tori (docs/algorithms.md#ringaas, #aabtorus, #aabham2). */
	if (!strcmp(name, "ringaas1"))
		return (p - 1) * (ts + 1) + (L - 1) * p * (p - 1) / 2;
	if (!strcmp(name, "ringaas2"))
		return p / 2 * (ts + 1) + (L - 1) * (p / 2) * (p / 2 + 1) / 2;
	if (!strcmp(name, "torusaas2")) {
		long long R1 = t->cols / 2, R2 = t->rows / 2;

		/* ringaas2 on every row with r blocks per position, then every column with c. */
		return R1 * (ts + 1) + (long long)t->rows * (L - 1) * R1 * (R1 + 1) / 2 +
		       R2 * (ts + 1) + (long long)t->cols * (L - 1) * R2 * (R2 + 1) / 2;
	}
	if (!strcmp(name, "rowcol") && t->kind == TOPO_TORUS)
		return ring_form(t->cols, t->rows, ts, L - 1) + ring_form(t->rows, t->cols, ts, L - 1);
	if (!strcmp(name, "rowcol"))
		return line_form(t->cols, t->rows, ts, L - 1) + line_form(t->rows, t->cols, ts, L - 1);
	if (!strcmp(name, "linexch1"))
		return line_form((int)p, 1, ts, L - 1);
	if (!strcmp(name, "linexch2"))
		return (p - 1) * (ts + 1) + (L - 1) * p * (p - 1) / 2;
	if (!strcmp(name, "binexch")) {
		long long T = 0;

		/* The order of the phases does not change the sum. */
		for (int b = 0; (1 << b) < t->cols; b++)
			T += (1ll << b) * (ts + (1ll << b) + p / 2 * (L - 1));
		for (int b = 0; (1 << b) < t->rows; b++)
			T += (1ll << b) * (ts + (1ll << b) + p / 2 * (L - 1));
		return T;
	}
	if (!strcmp(name, "quadexch") || !strcmp(name, "quadexchh")) {
		bool homothety = !strcmp(name, "quadexchh");
		long long T = 0;

		/* Sub-phases of every level: the longest micro-AAS (docs/algorithms.md). */
		for (int S = t->rows; S >= 2; S /= 2)
			for (int i = 0; i < S / 2; i++)
				T += 3 * ts + 3 * (p / 4) * (L - 1) +
				     (homothety ? 2 * S : quad_hops(t->kind == TOPO_TORUS, t->rows, S, i));
		return T;
	}
	if ((!strcmp(name, "mstcf") || !strcmp(name, "rdmesh") || !strcmp(name, "rdring")) &&
	    pow2(t->rows) && pow2(t->cols))
		return ilog2((int)p) * (ts + L - 1) + (t->rows - 1) + (t->cols - 1);
	/* RSbcast on a 1 x 2^k line from its left end: 0 -> p-1, then distances p/4, ..., 1
	 * from p-1, and the root's own (p/2 - 1, ...) chain is shorter. */
	if (!strcmp(name, "rsbcast") && t->rows == 1 && pow2(t->cols) && t->cols >= 4 && root == 0)
		return ilog2((int)p) * (ts + L - 1) + 3 * p / 2 - 2;
	return -1;
}

static long long expected_messages(const char *name, const struct topology *t, int root, int k)
{
	if (!strcmp(name, "pbcast") || !strcmp(name, "hampath"))
		return 1;
	long long p = t->nodes, r = t->rows, c = t->cols;
	long long rs = c ? root / c : 0, cs = c ? root % c : 0;

	if (!strcmp(name, "def") || !strcmp(name, "defap"))
		return k * (p - 1);
	/* The scatter's p - 1, then every node one message per ring step. */
	if (!strcmp(name, "sc1d"))
		return (p - 1) + p * (p - 1);
	if (!strcmp(name, "sc2d"))
		return (p - 1) + p * (r + c - 2);
	if (!strcmp(name, "irrowcol") || !strcmp(name, "irrowcolct"))
		return (cs > 0) + (cs < c - 1) + c * ((rs > 0) + (rs < r - 1));

	if (!strcmp(name, "direx") || !strcmp(name, "linexch1") || !strcmp(name, "linexch2") ||
	    !strcmp(name, "ringaas1") || !strcmp(name, "ringaas2"))
		return p * (p - 1);
	if (!strcmp(name, "standexch") || !strcmp(name, "binexch"))
		return p * ilog2((int)p);
	if (!strcmp(name, "quadexch") || !strcmp(name, "quadexchh"))
		return p * 3 * ilog2(t->rows);
	if (!strcmp(name, "rowcol") || !strcmp(name, "torusaas2"))
		return p * (t->rows + t->cols - 2);
	if (!strcmp(name, "irruns") || !strcmp(name, "irrunssf"))
		return t->nodes / 2;
	return t->nodes - 1;
}

/* ---- runs ---- */

struct opts {
	int depth;		/* 0: default */
	double stall;
	int width;		/* 0: default */
	int tr;			/* replication cost T_r */
	bool flip_route;	/* descending routes (the default is ascending) */
	bool flip_tree;		/* the other tree order than the topology's default */
	int packets;		/* --packets: 0 = the algorithm's */
};

static int do_run(const struct algorithm *a, const char *topo, int ts, int L, int root,
		  const struct opts *o, struct sim_config *cfg, struct algo_run *r)
{
	char err[256];
	struct algo_params p;

	sim_config_defaults(cfg);
	if (topology_parse(topo, &cfg->topo, err, sizeof(err))) {
		check(false, "topology %s: %s", topo, err);
		return -1;
	}
	cfg->startup = ts;
	cfg->all_port = a->all_port;
	if (o && o->depth)
		cfg->buffer_depth = o->depth;
	if (o && o->width)
		cfg->payload_width = o->width;
	if (o && o->tr) {
		cfg->replication_cost = o->tr;
		cfg->watchdog = 100000;
	}
	if (o && o->flip_route)
		cfg->topo.route_order = ORDER_DESCENDING;
	if (o && o->flip_tree)
		cfg->topo.tree_order = cfg->topo.tree_order == ORDER_ASCENDING ? ORDER_DESCENDING
										 : ORDER_ASCENDING;
	if (o && o->stall > 0) {
		cfg->sink_stall = o->stall;
		cfg->seed = 12345;
	}
	p = (struct algo_params){ .cfg = cfg, .root = root, .flits = L,
				  .packets = o ? o->packets : 0 };
	return algo_run(a, &p, NULL, r);
}

/* A full check of one exact run. */
static void exact_run(const char *name, const char *topo, int ts, int L, int root,
		      const struct opts *o)
{
	const struct algorithm *a = algo_find(name);
	struct sim_config cfg;
	struct algo_run r;
	long long cf, msgs;
	bool conflict_free = strcmp(name, "mstnaive") != 0 && strcmp(name, "rdringnf") != 0 &&
			     !(strcmp(name, "direx") == 0 && strncmp(topo, "mesh", 4) == 0), ok;
	char what[160];
	int rc;

	snprintf(what, sizeof(what), "%s %s root %d L %d t_s %d%s", name, topo, root, L, ts,
		 o && o->depth ? " depth" : "");
	if (o && o->depth)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " %d", o->depth);
	if (o && o->tr)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " T_r %d", o->tr);
	if (o && (o->flip_route || o->flip_tree))
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%s",
			 o->flip_route ? " descending routes" : "", o->flip_tree ? " flipped tree" : "");
	if (o && o->packets)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " k %d", o->packets);
	if (!a) {
		check(false, "%s: no such algorithm", what);
		return;
	}
	rc = do_run(a, topo, ts, L, root, o, &cfg, &r);
	if (rc < 0) {
		check(false, "%s: not run: %s", what, r.error);
		return;
	}
	cf = closed_form(name, &cfg, root, L, r.packets);
	msgs = expected_messages(name, &cfg.topo, root, r.packets);
	ok = r.status == SIM_DONE && r.stats.delivered_ok && r.data_ok;
	ok = ok && (!r.prediction.exact || (double)r.cycles == r.predicted);
	ok = ok && (cf < 0 || (long long)r.cycles == cf);
	ok = ok && (!conflict_free || (double)r.cycles == r.scheduled);
	ok = ok && (!conflict_free || r.stats.conflict_cycles == 0);
	ok = ok && (long long)r.stats.messages == msgs;
	/* Every run has its lower bound (none for one node), and is no faster. */
	ok = ok && (cfg.topo.nodes < 2 || (r.lower_bound > 0 && (double)r.cycles >= r.lower_bound));
	check(ok, "%s: cycles %llu, predicted %.0f%s, closed form %lld, schedule %.0f, "
	      "conflicts %llu, messages %llu/%lld, bound %.0f%s%s", what, (unsigned long long)r.cycles,
	      r.predicted, r.prediction.exact ? " (exact)" : "", cf, r.scheduled,
	      (unsigned long long)r.stats.conflict_cycles, (unsigned long long)r.stats.messages,
	      msgs, r.lower_bound, r.error[0] ? ": " : "", r.error);
}

static const char *hc(int d)
{
	static char buf[8][32];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "hypercube:%d", d);
	return buf[k];
}

static void test_registry(void)
{
	static const char *names[] = { "pbcast", "sbt", "reduce", "hk", "hampath", "irruns", "irrunssf", "direx",
				       "rdmesh", "mstnaive", "mstcf", "rsbcast", "standexch", "rowcol",
				       "linexch1", "linexch2", "binexch", "quadexch", "quadexchh",
				       "def", "defap", "sc1d", "sc2d", "irrowcol", "irrowcolct" };
	int n = 0;

	for (int k = 0; algorithms[k]; k++) {
		const struct algorithm *a = algorithms[k];

		n++;
		check(a->name && a->source && a->formula_source && a->description && (a->plan || a->step) &&
		      a->predict && a->topologies,
		      "registry: %s is complete", a->name);
		check(algo_find(a->name) == a, "registry: algo_find(%s)", a->name);
	}
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		check(algo_find(names[k]) != NULL, "registry: %s is registered", names[k]);
	check(n >= 24, "registry: %d algorithms", n);
	check(algo_find("nosuch") == NULL, "registry: unknown name gives NULL");
}

static void test_supports(void)
{
	static const struct {
		const char *name, *topo;
		double stall;
		bool descending;	/* descending routes */
	} bad[] = {
		{ "mstnaive", "mesh:5x3", 0, false }, { "mstcf", "mesh:4x6", 0, false }, { "sbt", "mesh:4x4", 0, false },
		{ "reduce", "mesh:2x4", 0, false }, { "hk", "mesh:4x4", 0, false }, { "direx", "mesh:3x4", 0, false },
		{ "irruns", "hypercube:3", 0.2, false }, { "rdmesh", "hypercube:3", 0, false },
		{ "rsbcast", "hypercube:3", 0, false }, { "mstcf", "hypercube:4", 0, false },
		{ "standexch", "mesh:4x4", 0, false }, { "rowcol", "hypercube:4", 0, false },
		{ "linexch1", "mesh:2x3", 0, false }, { "linexch2", "hypercube:3", 0, false },
		{ "linexch2", "mesh:3x3", 0, false }, { "binexch", "mesh:3x4", 0, false },
		{ "quadexch", "mesh:4x8", 0, false }, { "quadexchh", "mesh:3x3", 0, false },
		{ "def", "hypercube:3", 0, false }, { "defap", "hypercube:3", 0, false }, { "sc1d", "hypercube:3", 0, false },
		{ "sc2d", "hypercube:3", 0, false }, { "irrowcol", "hypercube:3", 0, false },
		{ "irrowcolct", "mesh:3x3", 0.2, false },
		{ "irruns", "hypercube:3", 0, true }, { "irrunssf", "hypercube:3", 0, true },
		{ "rsbcast", "mesh:5x3", 0, true }, { "sc1d", "mesh:4x4", 0, true },
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct sim_config cfg;
		struct algo_run r;
		struct opts o = { .stall = bad[k].stall, .flip_route = bad[k].descending };
		int rc = do_run(algo_find(bad[k].name), bad[k].topo, 5, 4, 0, &o, &cfg, &r);

		check(rc == -1 && r.error[0] && !strchr(r.error, '\n'),
		      "supports: %s on %s%s%s rejected: %s", bad[k].name, bad[k].topo,
		      bad[k].stall > 0 ? " with sink stalls" : "",
		      bad[k].descending ? " with descending routes" : "", r.error);
	}
	{
		struct sim_config cfg;
		struct algo_run r;
		int rc = do_run(algo_find("pbcast"), "hypercube:3", 5, 4, 8, NULL, &cfg, &r);

		check(rc == -1 && r.error[0], "algo_run: root 8 outside Q_3 rejected: %s", r.error);
	}
	/* A root DEF's fences cannot start from, and numbers of packets that do not apply. */
	{
		static const struct {
			const char *name, *topo;
			int root, L, packets;
			const char *expect;
		} bad2[] = {
			{ "def", "mesh:4x4", 5, 17, 0, "not one of 0, 3, 12, 15" },
			{ "defap", "mesh:5x3", 1, 17, 0, "corner" },
			{ "def", "mesh:4x4", 0, 17, 17, "at most 16 packets" },
			{ "defap", "mesh:4x4", 15, 1, 2, "at most 1 packets" },
			{ "sc1d", "mesh:4x4", 0, 17, 4, "one piece per node" },
			{ "sc2d", "mesh:4x4", 0, 17, 16, "one piece per node" },
			{ "rdmesh", "mesh:4x4", 0, 17, 2, "sends its message whole" },
			{ "pbcast", "hypercube:3", 0, 17, 1, "sends its message whole" },
		};

		for (size_t k = 0; k < sizeof(bad2) / sizeof(bad2[0]); k++) {
			struct sim_config cfg;
			struct algo_run r;
			struct opts o = { .packets = bad2[k].packets };
			int rc = do_run(algo_find(bad2[k].name), bad2[k].topo, 5, bad2[k].L, bad2[k].root,
					&o, &cfg, &r);

			check(rc == -1 && strstr(r.error, bad2[k].expect) && !strchr(r.error, '\n'),
			      "supports: %s on %s, root %d, L %d, %d packets rejected: %s", bad2[k].name,
			      bad2[k].topo, bad2[k].root, bad2[k].L, bad2[k].packets, r.error);
		}
	}
}

/* algo_run with an engine passed in, and with one built for the wrong port mode. */
static void test_engine(void)
{
	const struct algorithm *a = algo_find("hk");
	struct sim_config cfg;
	struct router_params rp;
	struct engine e;
	struct algo_run r;
	struct algo_params p;
	char err[128];
	int rc;

	sim_config_defaults(&cfg);
	topology_init_hypercube(&cfg.topo, 5, err, sizeof(err));
	cfg.startup = 3;
	cfg.all_port = true;
	sim_config_router_params(&cfg, &rp);
	p = (struct algo_params){ .cfg = &cfg, .root = 9, .flits = 9 };
	if (model_engine_create(&e, &rp)) {
		check(false, "engine: model_engine_create");
		return;
	}
	rc = algo_run(a, &p, &e, &r);
	check(rc == SIM_DONE && r.data_ok && (double)r.cycles == r.predicted,
	      "engine: hk on Q_5 through an explicit model engine: %llu cycles, predicted %.0f",
	      (unsigned long long)r.cycles, r.predicted);
	model_engine_destroy(&e);

	rp.all_port = false;
	cfg.all_port = false;
	if (model_engine_create(&e, &rp)) {
		check(false, "engine: model_engine_create");
		return;
	}
	rc = algo_run(a, &p, &e, &r);
	check(rc == -1 && r.error[0], "engine: all-port hk refused on a one-port engine: %s",
	      r.error);
	model_engine_destroy(&e);
}

/* Back-pressure: random sink stalls change the timing, never the data. */
static void test_stalls(void)
{
	static const struct {
		const char *name, *topo;
	} runs[] = {
		{ "pbcast", "hypercube:5" }, { "pbcast", "mesh:5x3" }, { "sbt", "hypercube:5" },
		{ "reduce", "hypercube:5" }, { "hk", "hypercube:6" }, { "irrunssf", "hypercube:4" },
		{ "hampath", "hypercube:5" }, { "hampath", "mesh:4x3" },
		{ "direx", "hypercube:4" }, { "rdmesh", "mesh:5x3" }, { "mstnaive", "mesh:4x4" },
		{ "mstcf", "mesh:4x4" }, { "rsbcast", "mesh:5x3" }, { "direx", "mesh:4x4" },
		{ "standexch", "hypercube:4" }, { "rowcol", "mesh:3x4" }, { "linexch1", "mesh:1x6" },
		{ "linexch2", "mesh:1x6" }, { "binexch", "mesh:4x4" }, { "quadexch", "mesh:4x4" },
		{ "quadexchh", "mesh:4x4" }, { "def", "mesh:4x2" }, { "defap", "mesh:5x2" },
		{ "sc1d", "mesh:3x5" }, { "sc2d", "mesh:4x3" }, { "irrowcol", "mesh:5x4" },
	};

	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		const struct algorithm *a = algo_find(runs[k].name);
		struct opts o = { .stall = 0.3, .depth = 2 };
		struct sim_config cfg;
		struct algo_run r;

		do_run(a, runs[k].topo, 3, 17, 1, &o, &cfg, &r);
		check(r.status == SIM_DONE && r.stats.delivered_ok && r.data_ok &&
		      (!r.prediction.exact || (double)r.cycles >= r.predicted) &&
		      (double)r.cycles >= r.lower_bound,
		      "stalls: %s on %s, sink stall 0.3, depth 2: data ok, %llu cycles >= %.0f%s%s",
		      runs[k].name, runs[k].topo, (unsigned long long)r.cycles, r.predicted,
		      r.error[0] ? ": " : "", r.error);
	}
}

/*
 * Barnett et al.'s conflicts, both ways: the naive MST must contend (conflict cycles,
 * measured above its own contention-free schedule), the conflict-free MST and RSbcast
 * must not (measured = schedule, mstcf's = its exact formula), on every mesh with a
 * side of 4 or more and several roots.  2 x 2 has no conflict: every step is one hop.
 */
static void test_conflicts(void)
{
	static const char *meshes[] = { "mesh:4x4", "mesh:8x8", "mesh:1x8", "mesh:2x4", "mesh:4x2",
					"mesh:8x4", "mesh:16x2", "mesh:1x16" };

	for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++) {
		struct topology t;
		char err[128];

		topology_parse(meshes[m], &t, err, sizeof(err));
		for (int k = 0; k < 4; k++) {
			struct sim_config cfg;
			struct algo_run naive, cf, rs;
			int root = (int[]){ 0, 5, t.nodes - 1, 2 * t.nodes / 3 }[k];

			do_run(algo_find("mstnaive"), meshes[m], 5, 17, root, NULL, &cfg, &naive);
			do_run(algo_find("mstcf"), meshes[m], 5, 17, root, NULL, &cfg, &cf);
			do_run(algo_find("rsbcast"), meshes[m], 5, 17, root, NULL, &cfg, &rs);
			check(naive.data_ok && naive.stats.conflict_cycles > 0 &&
			      (double)naive.cycles > naive.scheduled && naive.cycles > cf.cycles,
			      "conflicts: mstnaive on %s root %d: %llu conflict cycles, %llu cycles > "
			      "contention-free %.0f and > mstcf %llu (seed formula %.0f)", meshes[m], root,
			      (unsigned long long)naive.stats.conflict_cycles,
			      (unsigned long long)naive.cycles, naive.scheduled,
			      (unsigned long long)cf.cycles, naive.predicted);
			check(cf.data_ok && cf.stats.conflict_cycles == 0 &&
			      (double)cf.cycles == cf.scheduled && (double)cf.cycles == cf.predicted &&
			      rs.data_ok && rs.stats.conflict_cycles == 0 &&
			      (double)rs.cycles == rs.scheduled,
			      "conflicts: mstcf and rsbcast on %s root %d: none (%llu, %llu), measured = "
			      "schedule (%llu = %.0f, %llu = %.0f)", meshes[m], root,
			      (unsigned long long)cf.stats.conflict_cycles,
			      (unsigned long long)rs.stats.conflict_cycles, (unsigned long long)cf.cycles,
			      cf.scheduled, (unsigned long long)rs.cycles, rs.scheduled);
		}
	}
	{
		struct sim_config cfg;
		struct algo_run naive;

		do_run(algo_find("mstnaive"), "mesh:2x2", 5, 17, 3, NULL, &cfg, &naive);
		check(naive.data_ok && naive.stats.conflict_cycles == 0 &&
		      (double)naive.cycles == naive.scheduled,
		      "conflicts: mstnaive on 2x2 has none (one hop per step): %llu cycles = schedule",
		      (unsigned long long)naive.cycles);
	}
}

/*
 * Rings (docs/microarchitecture.md section 12): recursive doubling farthest-first is
 * exact and conflict-free on every ring; nearest-first congests (Grama et al. 4.1.1):
 * its conflicts are counted and it is slower than its contention-free schedule and
 * than farthest-first; pbcast (the hardware B broadcast) exact on rings and tori.
 */
static void test_rings(void)
{
	static const int sizes[] = { 2, 3, 5, 7, 8, 12, 16, 31, 32, 64 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		char topo[32];
		int n = sizes[k];

		snprintf(topo, sizeof(topo), "ring:%d", n);
		exact_run("rdring", topo, 1 + (int)k % 7, 1 + 8 * (int)(k % 3), (int)(5 * k) % n, NULL);
		exact_run("pbcast", topo, 3, 17, (int)k % n, NULL);
		if (n >= 8) {
			struct sim_config cfg;
			struct algo_run nf, ff;

			do_run(algo_find("rdringnf"), topo, 5, 17, 1, NULL, &cfg, &nf);
			do_run(algo_find("rdring"), topo, 5, 17, 1, NULL, &cfg, &ff);
			check(nf.data_ok && nf.stats.delivered_ok && nf.stats.conflict_cycles > 0 &&
			      (double)nf.cycles > nf.scheduled && nf.cycles > ff.cycles &&
			      ff.stats.conflict_cycles == 0,
			      "conflicts: rdringnf on %s: %llu conflict cycles, %llu cycles > contention-free "
			      "%.0f and > rdring's %llu (no conflicts)", topo,
			      (unsigned long long)nf.stats.conflict_cycles, (unsigned long long)nf.cycles,
			      nf.scheduled, (unsigned long long)ff.cycles);
		}
	}
	exact_run("pbcast", "torus:8x8", 10, 17, 27, NULL);
	exact_run("pbcast", "torus:5x3", 4, 9, 7, NULL);
}

/*
 * Lecture 11's ring AAS, one way (one-port) and both ways (all-port), on even and odd
 * rings: data, exact cycles (prediction, closed form, schedule), no conflicts,
 * messages, bounds (the AAB algorithms on rings and tori: test_gossip.c).
 */
static void test_ring_aas(void)
{
	static const char *rings[] = { "ring:2", "ring:3", "ring:4", "ring:7", "ring:8", "ring:16" };
	static const int Ls[] = { 1, 3, 9 }, tss[] = { 1, 4, 10 };

	for (size_t k = 0; k < sizeof(rings) / sizeof(rings[0]); k++)
		for (int l = 0; l < 3; l++) {
			exact_run("ringaas1", rings[k], tss[(k + l) % 3], Ls[l], 0, NULL);
			exact_run("ringaas2", rings[k], tss[(k + l + 1) % 3], Ls[l], 0, NULL);
		}
	{
		struct opts o2 = { .depth = 2 };

		exact_run("ringaas1", "ring:6", 2, 33, 0, &o2);
		exact_run("ringaas2", "ring:9", 2, 33, 0, &o2);
	}
	/* Both ways beat one way; neither runs elsewhere (one line each). */
	{
		struct sim_config cfg;
		struct algo_run one, two, r;

		do_run(algo_find("ringaas1"), "ring:12", 5, 9, 0, NULL, &cfg, &one);
		do_run(algo_find("ringaas2"), "ring:12", 5, 9, 0, NULL, &cfg, &two);
		check(one.data_ok && two.data_ok && two.cycles < one.cycles,
		      "ringaas2 on ring:12 (%llu cycles) beats ringaas1 (%llu)",
		      (unsigned long long)two.cycles, (unsigned long long)one.cycles);
		check(do_run(algo_find("ringaas1"), "mesh:1x8", 5, 3, 0, NULL, &cfg, &r) == -1 &&
		      r.error[0] && !strchr(r.error, '\n'), "supports: ringaas1 on mesh:1x8 rejected: %s",
		      r.error);
		check(do_run(algo_find("ringaas2"), "torus:4x4", 5, 3, 0, NULL, &cfg, &r) == -1 &&
		      r.error[0] && !strchr(r.error, '\n'), "supports: ringaas2 on torus:4x4 rejected: %s",
		      r.error);
	}
}

/* ---- the other mesh broadcasts (Barnett et al.; IR row then column) ---- */

/* Barnett et al.'s k_opt = sqrt((r + c) n beta / alpha) clipped to [1, n], rounded. */
static int k_opt(int r, int c, int n, int ts)
{
	double k = sqrt((double)(r + c) * n / ts);

	if (k > n)
		k = n;
	return k < 1 ? 1 : (int)floor(k + 0.5);
}

/*
 * def, defap, sc1d, sc2d, irrowcol, irrowcolct on meshes of many shapes (most not
 * powers of two), several roots (every corner for DEF, every root of the small meshes),
 * L and t_s: data, and cycles = prediction = closed form = schedule, no conflict.
 */
static void test_mesh_bcasts(void)
{
	static const char *names[] = { "def", "defap", "sc1d", "sc2d", "irrowcol", "irrowcolct" };
	static const char *meshes[] = { "mesh:4x4", "mesh:5x3", "mesh:8x8", "mesh:1x8", "mesh:2x4",
					"mesh:8x1", "mesh:3x7", "mesh:1x16", "mesh:6x5", "mesh:2x2" };
	static const int Ls[] = { 1, 2, 17, 65 }, tss[] = { 1, 5, 20 };

	for (size_t a = 0; a < sizeof(names) / sizeof(names[0]); a++)
		for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++) {
			const struct algorithm *al = algo_find(names[a]);
			struct sim_config cfg;
			char err[256];
			int n, done = 0;

			sim_config_defaults(&cfg);
			topology_parse(meshes[m], &cfg.topo, err, sizeof(err));
			n = cfg.topo.nodes;
			for (int root = 0; root < n; root++) {
				struct algo_params p = { .cfg = &cfg, .root = root, .flits = 17 };
				bool some = root == 0 || root == n - 1 || root == n / 2 ||
					    root == 2 * n / 3;

				if (al->supports && al->supports(&p, err, sizeof(err)))
					continue;
				if (some || !strncmp(names[a], "def", 3))
					for (int l = 0; l < 4; l++)
						for (int t = 0; t < 3; t++)
							if ((l + t + root) % 2 == 0 || n <= 16)
								exact_run(names[a], meshes[m], tss[t], Ls[l],
									  root, NULL);
				if (n <= 21)
					exact_run(names[a], meshes[m], 2, 9, root, NULL);
				done++;
			}
			check(done > 0, "%s runs on %s", names[a], meshes[m]);
		}
}

/*
 * DEF against k: every k on two meshes and all corners (each exact), the default k
 * is Barnett et al.'s k_opt, and the k that minimises the measured time is the one the
 * derived formula gives, not k_opt.
 */
static void test_def_k(void)
{
	static const char *meshes[] = { "mesh:8x8", "mesh:5x3" };

	for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++)
		for (int v = 0; v < 2; v++) {
			const char *name = v ? "defap" : "def";
			struct sim_config cfg;
			struct algo_run r;
			int L = 33, ts = 10, best_k = 0;
			unsigned long long best = 0;

			do_run(algo_find(name), meshes[m], ts, L, 0, NULL, &cfg, &r);
			check(r.data_ok && r.packets == k_opt(cfg.topo.rows, cfg.topo.cols, L - 1, ts),
			      "%s on %s, L %d, t_s %d: default k = %d = Barnett et al.'s k_opt", name,
			      meshes[m], L, ts, r.packets);
			for (int k = 1; k <= L - 1; k++) {
				struct opts o = { .packets = k };
				int c = cfg.topo.cols, corner[] = { 0, c - 1, cfg.topo.nodes - c,
								  cfg.topo.nodes - 1 };

				exact_run(name, meshes[m], ts, L, corner[k % 4], &o);
				do_run(algo_find(name), meshes[m], ts, L, 0, &o, &cfg, &r);
				if (!best_k || r.cycles < best) {
					best = r.cycles;
					best_k = k;
				}
			}
			{
				long long bk = 0, bt = 0;

				for (int k = 1; k <= L - 1; k++) {
					long long T = mesh_bcast_form(name, &cfg.topo, 0, ts, L, k);

					if (!bk || T < bt) {
						bk = k;
						bt = T;
					}
				}
				check(best_k == bk && (long long)best == bt,
				      "%s on %s, L %d, t_s %d: the fastest k is %d (%llu cycles), the derived "
				      "formula's minimum", name, meshes[m], L, ts, best_k, best);
			}
		}
	/* An uneven split: packets of 3 and 4 words, the longer ones last. */
	for (int k = 2; k <= 7; k++) {
		struct opts o = { .packets = k };

		exact_run("def", "mesh:6x5", 3, 23, 29, &o);
		exact_run("defap", "mesh:6x5", 3, 23, 4, &o);
	}
}

/* ---- all-to-all personalized exchange ---- */

/*
 * Every AAS algorithm on several sizes (not powers of two where it allows them),
 * message lengths and start-ups: data, exact cycles (prediction, closed form, schedule),
 * no conflicts, the number of messages and the lower bound (exact_run).
 */
static void test_aas(void)
{
	static const struct {
		const char *name, *topos[8];
	} runs[] = {
		{ "standexch", { "hypercube:1", "hypercube:2", "hypercube:3", "hypercube:5", "hypercube:6" } },
		{ "rowcol", { "mesh:2x2", "mesh:3x5", "mesh:4x4", "mesh:5x3", "mesh:1x7", "mesh:6x1", "mesh:8x8" } },
		{ "linexch1", { "mesh:1x2", "mesh:1x3", "mesh:1x6", "mesh:1x9", "mesh:7x1", "mesh:1x16" } },
		{ "linexch2", { "mesh:1x2", "mesh:1x3", "mesh:1x6", "mesh:1x9", "mesh:7x1", "mesh:1x16" } },
		{ "binexch", { "mesh:2x2", "mesh:2x4", "mesh:4x2", "mesh:4x4", "mesh:1x8", "mesh:8x8" } },
		{ "quadexch", { "mesh:2x2", "mesh:4x4", "mesh:8x8" } },
		{ "quadexchh", { "mesh:2x2", "mesh:4x4", "mesh:8x8" } },
		/* On tori (docs/algorithms.md#aas-on-tori): the wraparound links. */
		{ "rowcol", { "torus:2x2", "torus:3x5", "torus:4x4", "torus:2x6", "torus:8x8" } },
		{ "binexch", { "torus:2x2", "torus:2x4", "torus:4x2", "torus:4x4", "torus:8x8" } },
		{ "quadexch", { "torus:2x2", "torus:4x4", "torus:8x8", "torus:16x16" } },
		{ "quadexchh", { "torus:2x2", "torus:4x4", "torus:8x8" } },
		{ "torusaas2", { "torus:2x2", "torus:3x3", "torus:3x5", "torus:4x4", "torus:2x7",
				 "torus:6x5", "torus:8x8" } },
	};
	static const int Ls[] = { 1, 2, 5 }, tss[] = { 1, 3, 10 };

	/* The large networks at three of the nine (L, t_s), in the small sweep at one. */
	for (size_t a = 0; a < sizeof(runs) / sizeof(runs[0]); a++)
		for (int k = 0; k < 8 && runs[a].topos[k]; k++)
			for (int l = 0; l < 3; l++)
				for (int t = 0; t < 3; t++)
					if ((l == t && (l == 0 || !sweep_small())) ||
					    (!strstr(runs[a].topos[k], "8x8") && !strstr(runs[a].topos[k], "16x16")))
						exact_run(runs[a].name, runs[a].topos[k], tss[t], Ls[l], 0, NULL);
	/* A long block, the smallest buffers, the widest payload. */
	{
		struct opts o2 = { .depth = 2 }, w62 = { .width = 62 };

		exact_run("standexch", hc(4), 2, 33, 0, &o2);
		exact_run("rowcol", "mesh:3x4", 2, 33, 0, &o2);
		exact_run("linexch2", "mesh:1x5", 2, 33, 0, &o2);
		exact_run("binexch", "mesh:4x4", 2, 33, 0, &w62);
		exact_run("quadexch", "mesh:4x4", 2, 33, 0, &o2);
		exact_run("rowcol", "torus:4x3", 2, 33, 0, &o2);
		exact_run("quadexch", "torus:4x4", 2, 33, 0, &o2);
		exact_run("torusaas2", "torus:5x4", 2, 33, 0, &o2);
	}
	/* Both ways round every ring beat one way (rowcol) and QUADEXCH on a torus. */
	{
		struct sim_config cfg;
		struct algo_run two, one, quad, r;

		do_run(algo_find("torusaas2"), "torus:8x8", 10, 17, 0, NULL, &cfg, &two);
		do_run(algo_find("rowcol"), "torus:8x8", 10, 17, 0, NULL, &cfg, &one);
		do_run(algo_find("quadexch"), "torus:8x8", 10, 17, 0, NULL, &cfg, &quad);
		check(two.data_ok && one.data_ok && quad.data_ok && two.cycles < quad.cycles &&
		      quad.cycles < one.cycles,
		      "torus:8x8, L 17: torusaas2 %llu < quadexch %llu < rowcol %llu cycles",
		      (unsigned long long)two.cycles, (unsigned long long)quad.cycles,
		      (unsigned long long)one.cycles);
		check(do_run(algo_find("torusaas2"), "mesh:4x4", 5, 3, 0, NULL, &cfg, &r) == -1 &&
		      r.error[0] && !strchr(r.error, '\n'), "supports: torusaas2 on mesh:4x4 rejected: %s",
		      r.error);
	}
	/* The wraparound shortens the mirror's phase 0: quadexch is faster on the torus. */
	{
		struct sim_config cfg;
		struct algo_run mesh, torus;

		do_run(algo_find("quadexch"), "mesh:8x8", 10, 5, 0, NULL, &cfg, &mesh);
		do_run(algo_find("quadexch"), "torus:8x8", 10, 5, 0, NULL, &cfg, &torus);
		check(mesh.data_ok && torus.data_ok && torus.cycles < mesh.cycles,
		      "quadexch on torus:8x8 (%llu cycles) beats mesh:8x8 (%llu)",
		      (unsigned long long)torus.cycles, (unsigned long long)mesh.cycles);
	}
}

/*
 * Lecture 11: the xor permutations of direct exchange are congestion-free on a
 * hypercube and congest links on a mesh (up to max(r, c)/2 routes on one link).  The
 * mesh runs deliver everything, but wait: link conflicts, and more cycles than the
 * contention-free schedule; where every step has at most one route per link (2 x 2,
 * 1 x 2) nothing waits.
 */
static void test_aas_conflicts(void)
{
	static const char *meshes[] = { "mesh:1x2", "mesh:2x2", "mesh:2x4", "mesh:4x2", "mesh:4x4",
					"mesh:1x8", "mesh:8x4", "torus:2x2", "torus:2x4", "torus:4x4",
					"torus:8x4" };

	for (int d = 1; d <= 5; d++) {
		struct sim_config cfg;
		struct algo_run r;

		do_run(algo_find("direx"), hc(d), 3, 5, 0, NULL, &cfg, &r);
		check(r.data_ok && r.stats.conflict_cycles == 0 && (double)r.cycles == r.scheduled,
		      "conflicts: direx on Q_%d: none (%llu), cycles %llu = schedule %.0f", d,
		      (unsigned long long)r.stats.conflict_cycles, (unsigned long long)r.cycles,
		      r.scheduled);
	}
	for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++) {
		struct sim_config cfg;
		struct algo_run r;
		int side;
		bool congest;

		do_run(algo_find("direx"), meshes[m], 3, 5, 0, NULL, &cfg, &r);
		side = cfg.topo.rows > cfg.topo.cols ? cfg.topo.rows : cfg.topo.cols;
		congest = side / 2 > 1;
		check(r.data_ok && r.lower_bound > 0 && (double)r.cycles >= r.lower_bound &&
		      (congest ? r.stats.conflict_cycles > 0 && (double)r.cycles > r.scheduled
			       : r.stats.conflict_cycles == 0 && (double)r.cycles == r.scheduled),
		      "conflicts: direx on %s (largest congestion %d): %llu conflict cycles, %llu cycles, "
		      "schedule %.0f, estimate %.0f, bound %.0f", meshes[m], side / 2,
		      (unsigned long long)r.stats.conflict_cycles, (unsigned long long)r.cycles,
		      r.scheduled, r.predicted, r.lower_bound);
	}
}

/* ---- lower bounds against values computed by hand (docs/algorithms.md) ---- */

static void test_bounds(void)
{
	static const struct {
		const char *topo;
		bool all_port, aas;
		int ts, mu;
		long long latency, cut, throughput, total;
	} cases[] = {
		/*
		 * Q_3, all-port, t_s 5, mu 4.  AAS: latency 5 + 3 + ceil(4/3) = 10; cut: a
		 * dimension carries 4*4 blocks over 4 links: 5 + 1 + 16 = 22 (a node alone:
		 * 7*4/3 -> 10, 16); throughput: sum of distances 8 * 12 = 96, 96*4/24 = 16: 22.
		 */
		{ "hypercube:3", true, true, 5, 4, 10, 22, 22, 22 },
		/* One-port: a node receives 7*4 flits through one channel: 5 + 1 + 28 = 34. */
		{ "hypercube:3", false, true, 5, 4, 12, 34, 22, 34 },
		/*
		 * 4x4 mesh, all-port, t_s 3, mu 2.  AAS: middle cut 8*8 blocks over 4 links:
		 * 3 + 1 + 32 = 36; sum of distances 16*20 + 16*20 = 640, 640*2/48 -> 27: 31;
		 * latency 3 + 6 + ceil(2/2) = 10 (corners have 2 links).
		 */
		{ "mesh:4x4", true, true, 3, 2, 10, 36, 31, 36 },
		/*
		 * 1x6, t_s 3, mu 4: middle link 3*3*4 = 36: 40; throughput 70*4/10 = 28: 32;
		 * latency 3 + 5 + 4 = 12.
		 */
		{ "mesh:1x6", true, true, 3, 4, 12, 40, 32, 40 },
		/* Q_2, empty blocks (L = 1): latency t_s + 2, no cut term, throughput t_s + 1. */
		{ "hypercube:2", true, true, 7, 0, 9, 0, 8, 9 },
		/*
		 * AAB, Q_3 all-port, t_s 5, mu 4: a node receives 7*4 over 3 links -> 10: 16;
		 * a dimension: 4*4 over 4 links: 10; throughput 8*7*4/24 -> 10: 16; latency 10.
		 */
		{ "hypercube:3", true, false, 5, 4, 10, 16, 16, 16 },
		/* AAB, 4x4 all-port, t_s 3, mu 2: a corner receives 15*2 over 2 links: 3 + 1 + 15 = 19. */
		{ "mesh:4x4", true, false, 3, 2, 10, 19, 14, 19 },
		/* AAB, 4x4 one-port: through one ejection channel, 3 + 1 + 30 = 34. */
		{ "mesh:4x4", false, false, 3, 2, 11, 34, 14, 34 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct sim_config cfg;
		struct lower_bound b;
		char err[64];
		int rc;

		sim_config_defaults(&cfg);
		topology_parse(cases[k].topo, &cfg.topo, err, sizeof(err));
		cfg.all_port = cases[k].all_port;
		cfg.startup = cases[k].ts;
		rc = cases[k].aas ? aas_lower_bound(&cfg, cases[k].mu, &b)
				  : aab_lower_bound(&cfg, cases[k].mu, &b);
		check(rc == 0 && b.latency == cases[k].latency && b.cut == cases[k].cut &&
		      b.throughput == cases[k].throughput && b.cycles == cases[k].total,
		      "bounds: %s %s %s, t_s %d, mu %d: latency %lld, cut %lld (%s), throughput %lld, "
		      "bound %lld; by hand %lld, %lld, %lld, %lld", cases[k].aas ? "AAS" : "AAB",
		      cases[k].topo, cases[k].all_port ? "all-port" : "one-port", cases[k].ts,
		      cases[k].mu, b.latency, b.cut, b.cut_name, b.throughput, b.cycles,
		      cases[k].latency, cases[k].cut, cases[k].throughput, cases[k].total);
	}
}

/* ---- the skeleton catches broken plans and corrupted data ---- */

enum broken { FORGET, WRONG_NODE, TWICE, NEVER_READY, GROUP_DOWN, AAB_UNICAST, AAB_FORGET,
	      HEADS_LATE, BELOW_ANY, PAST_BLOCKS, XB_BELOW_ANY, XB_WAIT_PAST,
	      STEP_FORGET, STEP_WRONG_NODE, STEP_TWICE, STEP_NEVER_READY, STEP_SELF, STEP_PAST,
	      STEP_WAIT_TWICE };

static enum broken broken_kind;

/* Direct exchange on Q_2 or a one-step broadcast from 0, each broken one way. */
static int broken_plan(const struct algo_params *p, int node, const struct receipt *r,
		       struct plan *pl)
{
	int n = p->cfg->topo.nodes;
	struct xfer_spec x = { 0 };

	if (broken_kind == HEADS_LATE) {
		/*
		 * The root sends to 1, 2 and 3; node 1 forwards to 2 in a round gated on heads,
		 * planned at its receipt: the heads of round 0 were not counted.
		 */
		if (!r) {
			for (int v = 1; node == 0 && v < n; v++)
				if (plan_forward(pl, v, 0, false, 0))
					return -1;
			return 0;
		}
		x = (struct xfer_spec){ .dest = 2, .round = 1, .round_heads = true };
		return node == 1 ? plan_xfer(pl, &x) : 0;
	}
	if (r)
		return 0;
	switch (broken_kind) {
	case FORGET:		/* the root forgets node n - 1 */
		for (int v = 1; node == 0 && v < n - 1; v++)
			if (plan_forward(pl, v, 0, false, 0))
				return -1;
		return 0;
	case TWICE:		/* the root sends to node 1 twice */
		for (int v = 1; node == 0 && v < n + 1; v++)
			if (plan_forward(pl, v < n ? v : 1, 0, false, 0))
				return -1;
		return 0;
	case WRONG_NODE:	/* AAS: node 0 sends its block for 1 to 2 */
		for (int j = 1; j < n; j++) {
			x.dest = node == 0 && j == 1 ? 2 : node ^ j;
			if (plan_xfer(pl, &x) || plan_block(pl, node, node ^ j, 0))
				return -1;
		}
		return 0;
	case NEVER_READY:	/* AAS: node 0 waits for a block nobody sends it */
		for (int j = 1; j < n; j++) {
			x.dest = node ^ j;
			if (plan_xfer(pl, &x) || plan_block(pl, node, node ^ j, 0) ||
			    (node == 0 && plan_wait(pl, 1, 2, 0)))
				return -1;
		}
		return 0;
	case AAB_UNICAST:	/* AAB by unicasts: node i sends its block to i xor j in step j */
	case AAB_FORGET:	/* ... but node 0 forgets node 1 */
		for (int j = 1; j < n; j++) {
			x = (struct xfer_spec){ .dest = node ^ j, .group = j - 1 };
			if (broken_kind == AAB_FORGET && node == 0 && j == 1)
				continue;
			if (plan_xfer(pl, &x) || plan_block(pl, node, BLOCK_ANY, 0))
				return -1;
		}
		return 0;
	case BELOW_ANY:		/* a destination below BLOCK_ANY names no block */
	case PAST_BLOCKS:	/* nor an index past the run's blocks */
		x.dest = 1;
		if (node != 0)
			return 0;
		if (plan_xfer(pl, &x) ||
		    plan_block(pl, 0, broken_kind == BELOW_ANY ? -2 : BLOCK_ANY,
			       broken_kind == BELOW_ANY ? 0 : 1))
			return -1;
		return 0;
	case XB_BELOW_ANY:	/* the same through plan_xfer_block(): its carried block */
	case XB_WAIT_PAST:	/* ... and its waited-for block */
		x.dest = 1;
		if (node != 0)
			return 0;
		return broken_kind == XB_BELOW_ANY ? plan_xfer_block(pl, &x, 0, -2, 0, -1, 0, 0) :
			plan_xfer_block(pl, &x, 0, 1, 0, 2, 0, 1);
	case HEADS_LATE:
		break;
	case GROUP_DOWN:	/* groups must not decrease */
		for (int j = 1; j < n; j++) {
			x = (struct xfer_spec){ .dest = node ^ j, .group = n - j };
			if (plan_xfer(pl, &x) || plan_block(pl, node, node ^ j, 0))
				return -1;
		}
		return 0;
	default:		/* the static schedule's (broken_step()) */
		break;
	}
	return -1;
}

/* The same exchange as a static schedule (algorithm.step), node 0's broken one way. */
static bool broken_step(const struct algo_params *p, int node, int k, struct step *s)
{
	int n = p->cfg->topo.nodes, j = k + 1;

	if (j >= n || (broken_kind == STEP_FORGET && node == 0 && j == n - 1))
		return false;
	*s = (struct step){ .dest = node ^ j, .b_origin = node, .b_dest = node ^ j, .w_origin = -1 };
	if (node != 0)
		return true;
	if (k == 0 && broken_kind == STEP_WRONG_NODE)
		s->dest = 2;
	if (k == 0 && broken_kind == STEP_NEVER_READY)
		*s = (struct step){ .dest = 1, .b_origin = 0, .b_dest = 1, .w_origin = 1, .w_dest = 2 };
	if (k == 0 && broken_kind == STEP_SELF)
		s->dest = 0;
	if (k == 0 && broken_kind == STEP_PAST)
		s->b_index = 1;
	/*
	 * Sends 1 and 2 both wait for node 1's block, a legal schedule, but they say that
	 * no other send waits for it (wait_once): send 2 must not wait forever unnoticed.
	 */
	if (k >= 1 && broken_kind == STEP_WAIT_TWICE) {
		s->w_origin = 1;
		s->w_dest = 0;
		s->wait_once = true;
	}
	if (k == 1 && broken_kind == STEP_TWICE)
		*s = (struct step){ .dest = 1, .b_origin = 0, .b_dest = 1, .w_origin = -1 };
	return true;
}

static void broken_predict(const struct algo_params *p, const struct schedule_result *s,
			   struct prediction *o)
{
	(void)p;
	o->cycles = s->ok ? (double)s->cycles : -1;
}

/*
 * A transport that flips one bit of one payload word of the k-th send (of every word,
 * if the send gives the key of its words): the checker is satisfied (the network
 * delivers what was sent), the skeleton must not be.
 */
struct corrupt {
	struct sim *s;
	struct skeleton *sk;
	int sends, victim;
	bool seeded;		/* a static schedule's sends by their seed (send_seeded) too */
};

static int corrupt_send(void *impl, int node, const struct send_req *r)
{
	struct corrupt *c = impl;
	uint64_t data[256];
	struct send_req copy = *r;
	struct payload_key key;

	if (c->sends++ != c->victim || r->len < 2 || r->len > 257)
		return sim_send(c->s, node, r);
	if (!r->data) {
		/* A block sent by its key: every generated word has its lowest bit flipped. */
		key = *r->key;
		key.base ^= 1;
		copy.key = &key;
		return sim_send(c->s, node, &copy);
	}
	memcpy(data, r->data, sizeof(uint64_t) * (size_t)(r->len - 1));
	data[r->len - 2] ^= 1;
	copy.data = data;
	return sim_send(c->s, node, &copy);
}

/*
 * A static schedule's send by its block's seed: the victim's seed with its lowest bit
 * flipped, the message then carrying another seed's words (and that seed).
 */
static int corrupt_send_seeded(void *impl, int node, int dest, int len, uint64_t seed,
			       uint64_t tag)
{
	struct corrupt *c = impl;

	if (c->sends++ == c->victim)
		seed ^= 1;
	return sim_send_seeded(c->s, node, dest, len, seed, tag);
}

static const char *corrupt_error(void *impl)
{
	return sim_error(((struct corrupt *)impl)->s);
}

static void corrupt_start(void *ctx, struct sim *s)
{
	struct corrupt *c = ctx;
	struct transport t = { .impl = c, .send = corrupt_send, .error = corrupt_error,
			       .send_seeded = c->seeded ? corrupt_send_seeded : NULL };

	c->s = s;
	skeleton_start(c->sk, &t);
}

static void corrupt_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct corrupt *c = ctx;
	struct transport t = { .impl = c, .send = corrupt_send, .error = corrupt_error,
			       .send_seeded = c->seeded ? corrupt_send_seeded : NULL };

	(void)s;
	skeleton_event(c->sk, &t, ev);
}

static void corrupt_run_as(const char *name, const char *topo, int victim, bool seeded)
{
	const struct algorithm *a = algo_find(name);
	struct sim_config cfg;
	struct algo_params p;
	struct corrupt c = { .victim = victim, .seeded = seeded };
	struct driver drv = { .ctx = &c, .start = corrupt_start, .event = corrupt_event };
	char err[256] = "";
	struct sim *s;
	enum sim_status st;

	sim_config_defaults(&cfg);
	topology_parse(topo, &cfg.topo, err, sizeof(err));
	cfg.all_port = a->all_port;
	p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = 5 };
	c.sk = skeleton_create(a, &p);
	s = sim_create(&cfg, err, sizeof(err));
	if (!c.sk || !s) {
		check(false, "skeleton: %s could not be set up", name);
		return;
	}
	st = sim_run(s, &drv);
	check(st == SIM_DONE && skeleton_check(c.sk, err, sizeof(err)) != 0 &&
	      strstr(err, "word") != NULL,
	      "skeleton: %s on %s with one bit of send %d%s flipped: caught: %s", name, topo,
	      victim, seeded ? "'s seed" : "", err);
	skeleton_destroy(c.sk);
	sim_destroy(s);
}

static void corrupt_run(const char *name, const char *topo, int victim)
{
	corrupt_run_as(name, topo, victim, false);
}

/*
 * A transport whose send `victim` carries a forged tag (the tag names the send of its
 * source that the skeleton checks every event against): the simulation delivers it
 * as sent, and the skeleton must refuse its events as sent by no plan, whichever way
 * they reach it: skeleton_event(), or a static schedule's narrow hooks (SEND_DONE
 * counted by the gates, the tail by driver.delivered).
 */
struct forge {
	struct skeleton *sk;
	int sends, victim;
	uint64_t flip;		/* XORed into the victim's tag */
};

/* The run's (the transport's impl is its sim, the driver's context the skeleton). */
static struct forge *forge_of;

static int forge_send(void *impl, int node, const struct send_req *r)
{
	struct send_req copy = *r;

	if (forge_of->sends++ == forge_of->victim)
		copy.tag ^= forge_of->flip;
	return sim_send(impl, node, &copy);
}

static const char *forge_error(void *impl)
{
	return sim_error(impl);
}

static const struct transport *forge_transport(struct sim *s, struct transport *t)
{
	*t = (struct transport){ .impl = s, .send = forge_send, .error = forge_error };
	return t;
}

static void forge_start(void *ctx, struct sim *s)
{
	struct transport t;

	skeleton_start(ctx, forge_transport(s, &t));
}

static void forge_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct transport t;

	skeleton_event(ctx, forge_transport(s, &t), ev);
}

static void forged_tag_run(const char *topo, int victim, uint64_t flip, bool narrow)
{
	const struct algorithm *a = algo_find("direx");
	struct sim_config cfg;
	struct algo_params p;
	struct forge f = { .victim = victim, .flip = flip };
	struct driver drv = { .start = forge_start, .event = forge_event };
	char err[256] = "", want[64];
	struct sim *s;

	sim_config_defaults(&cfg);
	topology_parse(topo, &cfg.topo, err, sizeof(err));
	cfg.all_port = a->all_port;
	p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = 3 };
	f.sk = skeleton_create(a, &p);
	s = sim_create(&cfg, err, sizeof(err));
	if (!f.sk || !s || !a->step) {
		check(false, "skeleton: direx on %s could not be set up as a static schedule", topo);
		return;
	}
	drv.ctx = f.sk;		/* (the hooks' context: the skeleton) */
	if (narrow) {
		/* The skeleton's own hooks (algo_driver()'s), the transport the forging one. */
		drv.event = NULL;
		drv.delivered = skeleton_sim_delivered(f.sk);
		drv.send_done = skeleton_sim_send_done(f.sk);
		drv.send_done_gates = skeleton_sim_send_done_gates(f.sk);
	}
	forge_of = &f;
	sim_run(s, &drv);
	forge_of = NULL;
	/* Message ids are dense from 0 in send order: the victim is message `victim`. */
	snprintf(want, sizeof(want), "event for message %d, which no plan sent", victim);
	check(skeleton_check(f.sk, err, sizeof(err)) != 0 && strstr(err, want) != NULL,
	      "skeleton: direx on %s, send %d's tag XOR 0x%llx, %s: caught: %s", topo, victim,
	      (unsigned long long)flip, narrow ? "narrow hooks" : "skeleton_event()", err);
	skeleton_destroy(f.sk);
	sim_destroy(s);
}

/*
 * The traffic's gaps from their table (algos/geometric.*) are the formula's: at every
 * step of the formula the table reaches (found here bit by bit over all the draws,
 * apart from the table's own search) and the two draws on each side of it, at
 * both ends of every cell and the draws beside them, at the ends of [0, 2^53), and at
 * random draws, uniform and crowded towards u = 1 (the long gaps, the deep cells).
 */
static uint64_t geo_step(const struct geometric *g, uint64_t gap)
{
	uint64_t k = 0;		/* the last draw of gap or less, bit by bit from the top */

	for (int b = 52; b >= 0; b--)
		if (geometric_formula(g, k | 1ull << b) <= gap)
			k |= 1ull << b;
	return k + 1;
}

static void test_geometric(void)
{
	static const double ps[] = { 0.9, 0.5, 0.1, 1.0 / 80, 1.0 / 160, 0.1 / 64, 1e-3, 1e-4,
				     1e-7, 1.0 - 1e-9 };

	for (size_t a = 0; a < sizeof(ps) / sizeof(ps[0]); a++) {
		struct geometric g;
		uint64_t x = 0x243f6a8885a308d3ull, checked = 0, differ = 0, steps = 0, k_end = 0;

		geometric_init(&g, ps[a]);
#define GEO_SAME(k) do { uint64_t k_ = (k); \
		if (k_ < GEO_DRAWS) { checked++; \
			differ += geometric_gap(&g, k_) != geometric_formula(&g, k_); } } while (0)
		for (uint64_t i = 0; i < g.n_cells; i++) {
			double lo, hi;
			uint64_t b = (g.top - i) << g.shift, kp_lo, kp_hi;

			memcpy(&lo, &b, sizeof(lo));
			b += 1ull << g.shift;
			memcpy(&hi, &b, sizeof(hi));
			kp_lo = (uint64_t)lo;
			kp_hi = hi > 0x1p53 ? GEO_DRAWS : (uint64_t)hi - 1;
			for (int d = -1; d <= 1; d++) {
				GEO_SAME(GEO_DRAWS - kp_hi + (uint64_t)d);
				GEO_SAME(GEO_DRAWS - kp_lo + (uint64_t)d);
			}
			k_end = GEO_DRAWS - kp_lo;
		}
		for (uint64_t gap = 1; gap < 4096; gap++) {
			uint64_t t = geo_step(&g, gap);

			for (int d = -2; d <= 2; d++)
				GEO_SAME(t + (uint64_t)d);
			steps++;
			if (t > k_end)
				break;
		}
		GEO_SAME(0);
		GEO_SAME(GEO_DRAWS - 1);
		for (int i = 0; i < 200000; i++) {
			uint64_t z = (x += 0x9e3779b97f4a7c15ull);

			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
			z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
			z ^= z >> 31;
			GEO_SAME(z >> 11);
			GEO_SAME(GEO_DRAWS - 1 - (z >> (11 + i % 24)));
		}
#undef GEO_SAME
		check(differ == 0 && (g.n_cells > 0 || ps[a] < 1e-3),
		      "geometric gaps p = %g: %llu cells, %llu steps, %llu draws: %llu differ from "
		      "the formula", ps[a], (unsigned long long)g.n_cells, (unsigned long long)steps,
		      (unsigned long long)checked, (unsigned long long)differ);
		geometric_free(&g);
	}
}

static void test_skeleton(void)
{
	static const struct {
		enum broken kind;
		enum collective_kind coll;
		const char *topo, *expect;
	} cases[] = {
		{ FORGET, COLL_ONE_TO_ALL, "hypercube:3", "node 7 does not hold block (0, *, 0)" },
		{ TWICE, COLL_ONE_TO_ALL, "hypercube:3", "node 1 received block (0, *, 0) a second time" },
		{ WRONG_NODE, COLL_AAS, "hypercube:2", "node 1 does not hold block (0, 1, 0)" },
		{ NEVER_READY, COLL_AAS, "hypercube:2", "was never made: it waits for block (1, 2, 0)" },
		{ GROUP_DOWN, COLL_AAS, "hypercube:2", "planned after group" },
		{ HEADS_LATE, COLL_ONE_TO_ALL, "hypercube:2",
		  "node 1: a send gated on heads (round_heads) planned after the start" },
		{ BELOW_ANY, COLL_ONE_TO_ALL, "hypercube:2", "node 0: no block (0, -2, 0)" },
		{ PAST_BLOCKS, COLL_ONE_TO_ALL, "hypercube:2", "node 0: no block (0, -1, 1)" },
		{ XB_BELOW_ANY, COLL_AAS, "hypercube:2", "node 0: no block (0, -2, 0)" },
		{ XB_WAIT_PAST, COLL_AAS, "hypercube:2", "node 0: no block (2, 0, 1)" },
		{ STEP_FORGET, COLL_AAS, "hypercube:2", "node 3 does not hold block (0, 3, 0)" },
		{ STEP_WRONG_NODE, COLL_AAS, "hypercube:2", "node 1 does not hold block (0, 1, 0)" },
		{ STEP_TWICE, COLL_AAS, "hypercube:2", "node 1 received block (0, 1, 0) a second time" },
		{ STEP_NEVER_READY, COLL_AAS, "hypercube:2",
		  "node 0: its send to 1 (group 0) was never made: it waits for block (1, 2, 0)" },
		{ STEP_SELF, COLL_AAS, "hypercube:2", "node 0: a send to node 0" },
		{ STEP_PAST, COLL_AAS, "hypercube:2", "node 0: no block (0, 1, 1)" },
		/* (debug builds: its awaited block is held; others: it was never made) */
		{ STEP_WAIT_TWICE, COLL_AAS, "hypercube:2", "node 0: its send" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct algorithm a = {
			.name = "broken", .kind = cases[k].coll, .topologies = ALGO_HYPERCUBE,
			.all_port = true, .predict = broken_predict,
		};
		struct sim_config cfg;
		struct algo_params p;
		struct algo_run r;
		struct schedule_result sr;

		if (cases[k].kind >= STEP_FORGET)
			a.step = broken_step;
		else
			a.plan = broken_plan;
		char err[64];

		broken_kind = cases[k].kind;
		sim_config_defaults(&cfg);
		topology_parse(cases[k].topo, &cfg.topo, err, sizeof(err));
		p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = 4 };
		algo_run(&a, &p, NULL, &r);
		algo_schedule(&a, &p, &sr);
		check(!r.data_ok && strstr(r.error, cases[k].expect) && !sr.ok &&
		      strstr(sr.text, cases[k].expect),
		      "skeleton: broken plan %d on %s is caught by the run and by the schedule: %s | %s",
		      (int)k, cases[k].topo, r.error, sr.text);
	}
	/* The AAB kind, for the AAB algorithms to come: a correct plan passes, with its bound. */
	{
		struct algorithm a = {
			.name = "aab-unicast", .kind = COLL_AAB, .topologies = ALGO_HYPERCUBE,
			.all_port = true, .plan = broken_plan, .predict = broken_predict,
		};
		struct sim_config cfg;
		struct algo_params p;
		struct algo_run r;
		char err[64];

		sim_config_defaults(&cfg);
		topology_parse("hypercube:3", &cfg.topo, err, sizeof(err));
		p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = 6 };
		broken_kind = AAB_UNICAST;
		algo_run(&a, &p, NULL, &r);
		check(r.data_ok && (double)r.cycles == r.scheduled && r.lower_bound > 0 &&
		      (double)r.cycles >= r.lower_bound && strstr(r.bound_text, "AAB"),
		      "skeleton: an AAB plan by unicasts on Q_3: data ok, %llu cycles = schedule %.0f, "
		      ">= bound %.0f (%s)", (unsigned long long)r.cycles, r.scheduled, r.lower_bound,
		      r.bound_text);
		broken_kind = AAB_FORGET;
		algo_run(&a, &p, NULL, &r);
		check(!r.data_ok && strstr(r.error, "node 1 does not hold block (0, *, 0)"),
		      "skeleton: an AAB plan that forgets a node is caught: %s", r.error);
	}
	/* Corrupted payloads: a concatenated block, a broadcast block, a partial sum. */
	corrupt_run("direx", "hypercube:3", 5);
	/* A static schedule's send by its seed, which its receipt compares (message.seeded). */
	corrupt_run_as("direx", "hypercube:3", 5, true);
	corrupt_run_as("direx", "mesh:2x4", 0, true);
	/* Forged tags: a send index no plan made yet, another source. */
	for (int narrow = 0; narrow < 2; narrow++) {
		forged_tag_run("hypercube:3", 5, (uint64_t)1 << 20, narrow);
		forged_tag_run("hypercube:3", 9, (uint64_t)1 << 32, narrow);
		forged_tag_run("mesh:2x4", 4, (uint64_t)1 << 20, narrow);
	}
	corrupt_run("pbcast", "mesh:3x3", 0);
	corrupt_run("sbt", "hypercube:4", 3);
	corrupt_run("reduce", "hypercube:4", 9);
	/* A packet of a split message; every send of a scatter-collect, resent copies included. */
	corrupt_run("def", "mesh:3x3", 4);
	corrupt_run("defap", "mesh:3x3", 7);
	for (int v = 0; v < 3 + 4 * 3; v++)
		corrupt_run("sc1d", "mesh:1x4", v);
	for (int v = 0; v < 3 + 4 * 2; v++)
		corrupt_run("sc2d", "mesh:2x2", v);
}

int main(int argc, char **argv)
{
	static const int Ls[] = { 1, 2, 17, 64 }, tss[] = { 1, 5, 20 };
	static const char *meshes[] = { "mesh:4x4", "mesh:5x3", "mesh:8x8", "mesh:1x8", "mesh:2x4",
					"mesh:8x1", "mesh:3x7", "mesh:1x16" };
	static const char *hyper_algos[] = { "pbcast", "sbt", "reduce", "hk", "hampath", "irruns", "irrunssf" };
	static const char *mesh_algos[] = { "pbcast", "hampath", "rdmesh", "mstnaive", "mstcf", "rsbcast" };

	if (argc > 1 && !strcmp(argv[1], "-q"))
		verbose = false;

	sweep_note("test_algos");
	test_registry();
	test_rings();
	test_ring_aas();
	test_supports();
	test_skeleton();
	test_geometric();
	test_bounds();
	test_engine();

	/* pbcast exact for d = 1..12, L in {1, 2, 17, 256}. */
	for (int d = 1; d <= sweep_dim(12); d++) {
		static const int pl[] = { 1, 2, 17, 256 };
		int n = 1 << d, roots[] = { 0, n - 1, (n / 3) | 1 };

		for (int l = 0; l < 4; l++)
			for (int t = 0; t < 3; t++)
				for (int k = 0; k < 3; k++)
					exact_run("pbcast", hc(d), tss[t], pl[l], roots[k], NULL);
	}

	/* pbcast with a replication cost: Jeon & Kim eq. 2, n*T_r included, exactly. */
	for (int d = 1; d <= sweep_dim(12); d++) {
		static const int trs[] = { 1, 3, 255 };
		int n = 1 << d;

		for (int t = 0; t < 3; t++) {
			struct opts o = { .tr = trs[t] };

			exact_run("pbcast", hc(d), tss[t], Ls[(d + t) % 4], (n / 3 + t) % n, &o);
		}
	}
	for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++)
		for (int t = 1; t <= 4; t++) {
			struct opts o = { .tr = t };

			exact_run("pbcast", meshes[m], tss[t % 3], Ls[t - 1], ((int)m + 3 * t) % 8, &o);
		}
	/* T_r is paid by broadcast heads only: the unicast algorithms do not change. */
	{
		struct opts o = { .tr = 6 };

		exact_run("hk", hc(6), 5, 17, 3, &o);
		exact_run("sbt", hc(5), 5, 17, 3, &o);
		/* ... and the path broadcast pays it at every router that forwards it. */
		exact_run("hampath", hc(6), 10, 9, 0, &o);
		exact_run("hampath", "mesh:5x3", 5, 17, 7, &o);
		exact_run("direx", hc(4), 5, 17, 0, &o);
		exact_run("rsbcast", "mesh:5x3", 5, 17, 4, &o);
	}

	/*
	 * The other dimension orders: every algorithm that supports them stays exact
	 * and conflict-free (hk mirrors its paths; the trees are shortest-path trees).
	 */
	for (int f = 1; f < 4; f++) {
		struct opts o = { .flip_route = f & 1, .flip_tree = f & 2 };
		static const char *hyper[] = { "pbcast", "hampath", "sbt", "reduce", "hk", "direx" };
		static const char *mesh[] = { "pbcast", "hampath", "rdmesh", "mstcf" };

		for (size_t a = 0; a < sizeof(hyper) / sizeof(hyper[0]); a++)
			for (int d = 1; d <= sweep_dim(strcmp(hyper[a], "direx") ? 10 : 5); d++)
				exact_run(hyper[a], hc(d), tss[d % 3], Ls[(d + f) % 4], (5 * d) % (1 << d), &o);
		for (size_t a = 0; a < sizeof(mesh) / sizeof(mesh[0]); a++)
			for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++) {
				if (!strcmp(mesh[a], "mstcf") && (m == 1 || m == 6))
					continue;	/* not powers of two */
				exact_run(mesh[a], meshes[m], tss[m % 3], Ls[(m + (size_t)f) % 4],
					  (int)(3 * m) % 8, &o);
			}
	}
	for (int d = 11; d <= 12; d++) {
		struct opts o = { .flip_route = true };

		exact_run("hk", hc(d), 5, 17, (1 << d) / 3, &o);
	}

	/* Hypercube algorithms, d = 1..8 (irruns up to 8, hk also 9..12 below). */
	for (size_t a = 0; a < sizeof(hyper_algos) / sizeof(hyper_algos[0]); a++)
		for (int d = 1; d <= sweep_dim(8); d++) {
			int n = 1 << d, roots[] = { 0, n - 1, (5 * n / 7) % n };

			for (int l = 0; l < 4; l++)
				for (int t = 0; t < 3; t++)
					for (int k = 0; k < 3; k++)
						exact_run(hyper_algos[a], hc(d), tss[t], Ls[l], roots[k], NULL);
		}
	for (int d = 9; d <= 12; d++)
		exact_run("hk", hc(d), 5, 17, (1 << d) / 3, NULL);
	for (int d = 9; d <= 10; d++)
		exact_run("sbt", hc(d), 5, 17, 3, NULL);

	/* direx: p(p-1) messages, so smaller cubes, and one Q_7. */
	for (int d = 1; d <= sweep_dim(6); d++)
		for (int l = 0; l < 4; l++)
			for (int t = 0; t < 3; t++)
				if ((l + t + d) % 2 == 0 || d <= 3)
					exact_run("direx", hc(d), tss[t], Ls[l], 0, NULL);
	exact_run("direx", hc(7), 5, 17, 0, NULL);

	/* Meshes. */
	for (size_t a = 0; a < sizeof(mesh_algos) / sizeof(mesh_algos[0]); a++) {
		if (!strcmp(mesh_algos[a], "mstnaive"))
			continue;	/* not exact: see test_conflicts */
		for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++) {
			const struct algorithm *al = algo_find(mesh_algos[a]);
			struct sim_config cfg;
			struct algo_params p;
			char err[256];

			sim_config_defaults(&cfg);
			topology_parse(meshes[m], &cfg.topo, err, sizeof(err));
			p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = 4 };
			if (al->supports && al->supports(&p, err, sizeof(err)))
				continue;
			for (int l = 0; l < 4; l++)
				for (int t = 0; t < 3; t++)
					for (int k = 0; k < 4; k++) {
						int n = cfg.topo.nodes, roots[] = { 0, n - 1, n / 2, (n * 2) / 3 };

						exact_run(mesh_algos[a], meshes[m], tss[t], Ls[l], roots[k], NULL);
					}
			/* Every root once. */
			for (int root = 0; root < cfg.topo.nodes && cfg.topo.nodes <= 21; root++)
				exact_run(mesh_algos[a], meshes[m], 2, 3, root, NULL);
		}
	}

	/* The smallest buffers and the widest payload still give the exact times. */
	{
		struct opts o2 = { .depth = 2 }, w62 = { .width = 62 };

		exact_run("pbcast", hc(6), 1, 64, 5, &o2);
		exact_run("pbcast", "mesh:5x3", 1, 64, 7, &o2);
		exact_run("hk", hc(7), 1, 64, 5, &o2);
		exact_run("irruns", hc(5), 1, 64, 5, &o2);
		exact_run("hampath", hc(5), 1, 64, 5, &o2);
		exact_run("hampath", "mesh:3x7", 1, 64, 10, &o2);
		exact_run("direx", hc(4), 1, 64, 0, &o2);
		exact_run("rsbcast", "mesh:3x7", 1, 64, 10, &o2);
		exact_run("reduce", hc(6), 3, 40, 17, &w62);
		exact_run("sbt", hc(6), 3, 40, 17, &w62);
	}

	test_conflicts();
	test_mesh_bcasts();
	test_def_k();
	test_aas();
	test_aas_conflicts();
	test_stalls();

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
