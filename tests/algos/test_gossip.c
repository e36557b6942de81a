/* SPDX-License-Identifier: MIT */
/*
 * test_gossip.c - all-to-all broadcast (gossip) on the C model (docs/algorithms.md,
 * "All-to-all broadcast"): every node's block at every node, intact; the measured
 * cycles against closed forms computed here from the sources' formulas; measured >=
 * the lower bound for every run, and the bound itself against values worked out by
 * hand; the deadlock of concurrent B broadcasts, found by the watchdog and named in
 * its report, and the schedule that avoids it, also under random sink stalls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "algos.h"
#include "bounds.h"
#include "schedule.h"
#include "skeleton.h"
#include "../sweep.h"

/* ---- closed forms, independent of algos/ ---- */

static long long pow2ll(int k) { return 1ll << k; }

/* Lecture 11, Corollary 10 with one hop per step: d (t_s + 1) + mu (2^d - 1). */
static long long dimex_closed(int d, int ts, int mu)
{
	return d * (ts + 1ll) + mu * (pow2ll(d) - 1);
}

/* Lecture 11, Lemma 6 with one hop per round: rounds (t_s + 1) + spans mu. */
static long long line_closed(int z, int ts, long long mu)
{
	if (z <= 1)
		return 0;
	if (z % 2 == 0)
		return (z - 1) * (ts + 1ll) + (2ll * z - 3) * mu;
	return z * (ts + 1ll) + (2ll * z - 2) * mu;
}

/* Lemma 8: the first dimension with mu, the second with z_1 mu. */
static long long mesh_closed(int rows, int cols, bool xy, int ts, int mu)
{
	int z1 = xy ? cols : rows, z2 = xy ? rows : cols;

	return line_closed(z1, ts, mu) + line_closed(z2, ts, (long long)z1 * mu);
}

static long long max2(long long a, long long b) { return a > b ? a : b; }

/*
 * aabbcast on Q_d: N/2 rounds; a round starts t_s + d (1 + T_r) after the last, or its
 * roots wait for the last round's tails to leave them, L + 1 + 2 T_r after the last
 * round's grants; the last tail arrives d (1 + T_r) + L after the last grant.
 */
static long long bcast_hc_closed(int d, int ts, int L, int tr)
{
	long long R = pow2ll(d) / 2, period = max2(ts + d * (1ll + tr), L + 1ll + 2 * tr);

	return ts - 1 + (R - 1) * period + d * (1ll + tr) + L;
}

/*
 * aabbcast on 1 x N: the two ends first (their trees are disjoint), then roots 1 .. N-2;
 * root k waits for the east link that root k - 1's tree holds at k and for the west
 * link that root N-1's holds there.
 */
static long long bcast_line_closed(int n, int ts, int L)
{
	long long g1 = ts - 1, g = g1, c = g1 + n, end = g1 + n - 1 + L;

	for (int k = 1; k + 1 < n; k++) {
		long long D = max2(k, n - 1 - k);

		g = max2(max2(c + ts - 1, g + 1 + L), g1 + (n - 1 - k) + L);
		c = g + D + 1;
		end = max2(end, g + D + L);
	}
	return end;
}

static long long binom(int n, int k)
{
	long long r = 1;

	for (int i = 1; i <= k; i++)
		r = r * (n - k + i) / i;
	return r;
}

/* ---- runs ---- */

struct opts {
	int tr, depth;
	double stall;
	uint64_t seed;
	int vcs;		/* virtual channels on a ring or torus; 0: the default */
};

static int setup(const struct algorithm *a, const char *topo, int ts, const struct opts *o,
		 struct sim_config *cfg)
{
	char err[256];

	sim_config_defaults(cfg);
	if (topology_parse(topo, &cfg->topo, err, sizeof(err))) {
		check(0, "topology %s: %s", topo, err);
		return -1;
	}
	cfg->startup = ts;
	cfg->all_port = a->all_port;
	if (o) {
		cfg->replication_cost = o->tr;
		if (o->depth)
			cfg->buffer_depth = o->depth;
		cfg->sink_stall = o->stall;
		cfg->seed = o->seed;
		if (o->vcs && topology_set_vcs(&cfg->topo, o->vcs, err, sizeof(err))) {
			check(0, "%s: %s", topo, err);
			return -1;
		}
	}
	return 0;
}

static int runs, bound_violations;

static void run(const char *name, const char *topo, int ts, int L, const struct opts *o,
		struct sim_config *cfg, struct algo_run *r)
{
	const struct algorithm *a = algo_find(name);
	struct algo_params p;

	memset(r, 0, sizeof(*r));
	r->status = SIM_CHECK_FAILED;
	if (!a || setup(a, topo, ts, o, cfg)) {
		check(0, "%s on %s: not set up", name, topo);
		return;
	}
	p = (struct algo_params){ .cfg = cfg, .root = 0, .flits = L };
	algo_run(a, &p, NULL, r);
	/* Every AAB run: a bound, and no run below it. */
	runs++;
	if (r->lower_bound < 0 || (r->status == SIM_DONE && (double)r->cycles < r->lower_bound)) {
		bound_violations++;
		check(0, "%s on %s, L %d, t_s %d: %llu cycles below the lower bound %.0f (%s)", name,
		      topo, L, ts, (unsigned long long)r->cycles, r->lower_bound, r->bound_text);
	}
}

/* A run that must deliver, take `expect` cycles (-1: any), match its exact prediction. */
static void exact(const char *name, const char *topo, int ts, int L, const struct opts *o,
		  long long expect, bool conflict_free)
{
	struct sim_config cfg;
	struct algo_run r;
	bool ok;

	run(name, topo, ts, L, o, &cfg, &r);
	ok = r.status == SIM_DONE && r.stats.delivered_ok && r.data_ok;
	ok = ok && (!r.prediction.exact || (double)r.cycles == r.predicted);
	ok = ok && (expect < 0 || (long long)r.cycles == expect);
	ok = ok && (!conflict_free || (r.stats.conflict_cycles == 0 && (double)r.cycles == r.scheduled));
	check(ok, "%s %s L %d t_s %d%s: %llu cycles, predicted %.0f%s, closed form %lld, "
	      "schedule %.0f, bound %.0f, conflicts %llu%s%s", name, topo, L, ts,
	      o && o->tr ? " T_r" : "", (unsigned long long)r.cycles, r.predicted,
	      r.prediction.exact ? " (exact)" : "", expect, r.scheduled, r.lower_bound,
	      (unsigned long long)r.stats.conflict_cycles, r.error[0] ? ": " : "", r.error);
}

static const char *hc(int d)
{
	static char buf[4][24];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "hypercube:%d", d);
	return buf[k];
}

static void test_registry(void)
{
	static const char *names[] = { "aabdimex", "aabflood", "aabmeshxy", "aabmeshyx",
				       "aabbcast", "aabbcastnaive", "aabtorusxy", "aabtorusyx", "aabham2" };

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct algorithm *a = algo_find(names[k]);

		check(a && a->kind == COLL_AAB && a->formula_source && a->source,
		      "registry: %s is an AAB algorithm with its sources", names[k]);
	}
}

/* Corollary 10 on one-port Q_d, exactly. */
static void test_dimex(void)
{
	static const int Ls[] = { 1, 2, 17, 64 }, tss[] = { 1, 5, 20 };

	for (int d = 1; d <= sweep_dim(8); d++)
		for (int l = 0; l < 4; l++)
			for (int t = 0; t < 3; t++)
				if (d <= 6 || (l + t) % 3 == 0)
					exact("aabdimex", hc(d), tss[t], Ls[l], NULL,
					      dimex_closed(d, tss[t], Ls[l] - 1), true);
	{
		struct opts o = { .depth = 2 };

		exact("aabdimex", hc(5), 1, 64, &o, dimex_closed(5, 1, 63), true);
	}
}

/* The balanced all-port flooding: the schedule exactly, within d of sum (t_s + 1 + m_k mu). */
static void test_flood(void)
{
	static const int Ls[] = { 1, 2, 17, 64 }, tss[] = { 1, 5, 20 };

	for (int d = 1; d <= sweep_dim(8); d++)
		for (int l = 0; l < 4; l++)
			for (int t = 0; t < 3; t++) {
				struct sim_config cfg;
				struct algo_run r;
				long long upper = 0, mu = Ls[l] - 1;

				if (d > 6 && (l + t) % 3)
					continue;
				/* The necklace balance: ceil(C(d, k) / d) blocks per dimension and step. */
				for (int k = 1; k <= d; k++)
					upper += tss[t] + 1 + (binom(d, k) + d - 1) / d * mu;
				run("aabflood", hc(d), tss[t], Ls[l], NULL, &cfg, &r);
				check(r.status == SIM_DONE && r.data_ok && r.stats.delivered_ok &&
				      (double)r.cycles == r.predicted && (double)r.cycles == r.scheduled &&
				      r.stats.conflict_cycles == 0 && (long long)r.cycles <= upper &&
				      (long long)r.cycles >= upper - d,
				      "aabflood Q_%d L %d t_s %d: %llu cycles = schedule %.0f, within d of "
				      "sum_k (t_s + 1 + ceil(C(d,k)/d) mu) = %lld, bound %.0f%s%s", d, Ls[l],
				      tss[t], (unsigned long long)r.cycles, r.scheduled, upper, r.lower_bound,
				      r.error[0] ? ": " : "", r.error);
			}
}

/* Lemmas 6 and 8, both orders; Corollary 9: with an odd size, odd first is faster. */
static void test_mesh(void)
{
	static const char *meshes[] = { "mesh:1x2", "mesh:1x5", "mesh:1x8", "mesh:2x1", "mesh:8x1",
					"mesh:2x2", "mesh:3x3", "mesh:3x4", "mesh:4x3", "mesh:4x4",
					"mesh:5x3", "mesh:7x2", "mesh:2x7", "mesh:6x5", "mesh:4x6" };
	static const int Ls[] = { 1, 2, 17 }, tss[] = { 1, 5, 20 };

	for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++) {
		struct topology t;
		char err[64];

		topology_parse(meshes[m], &t, err, sizeof(err));
		for (int l = 0; l < 3; l++)
			for (int k = 0; k < 3; k++) {
				int ts = tss[(l + k + (int)m) % 3];

				exact("aabmeshxy", meshes[m], ts, Ls[l], NULL,
				      mesh_closed(t.rows, t.cols, true, ts, Ls[l] - 1), true);
				exact("aabmeshyx", meshes[m], ts, Ls[l], NULL,
				      mesh_closed(t.rows, t.cols, false, ts, Ls[l] - 1), true);
			}
	}
	/* Corollary 9 measured: the odd dimension first wins, by (z_odd - 1) mu on M(odd, even). */
	{
		static const char *odd_even[][2] = { { "mesh:3x4", "aabmeshyx" }, { "mesh:4x3", "aabmeshxy" },
						     { "mesh:7x2", "aabmeshyx" }, { "mesh:5x6", "aabmeshyx" } };

		for (size_t k = 0; k < sizeof(odd_even) / sizeof(odd_even[0]); k++) {
			const char *other = strcmp(odd_even[k][1], "aabmeshxy") ? "aabmeshxy" : "aabmeshyx";
			struct sim_config cfg;
			struct algo_run good, bad;

			run(odd_even[k][1], odd_even[k][0], 5, 9, NULL, &cfg, &good);
			run(other, odd_even[k][0], 5, 9, NULL, &cfg, &bad);
			check(good.data_ok && bad.data_ok && good.cycles < bad.cycles,
			      "Corollary 9 on %s: odd size first (%s) %llu cycles < %s %llu", odd_even[k][0],
			      odd_even[k][1], (unsigned long long)good.cycles, other,
			      (unsigned long long)bad.cycles);
		}
	}
}

/*
 * Rings and tori (docs/algorithms.md#aabtorus, #aabham2): Lemma 7 on every ring, even
 * and odd, dimension by dimension (Lemma 8), in both orders; the mesh's line gossip on
 * tori; the two Hamiltonian cycles on square tori.  Exact and conflict-free, with
 * closed forms.
 */
static long long ring_closed(int z, int ts, long long mu)
{
	if (z < 2)
		return 0;
	/* Lemma 7 with t_s + 1 per round: z even z/2 rounds and z - 1 blocks, odd (z+3)/2, (3z-1)/2. */
	if (z % 2)
		return (z + 3) / 2 * (ts + 1ll) + (3ll * z - 1) / 2 * mu;
	return z / 2 * (ts + 1ll) + (z - 1ll) * mu;
}

static long long torus_closed(int rows, int cols, bool xy, int ts, int mu)
{
	int z1 = xy ? cols : rows, z2 = xy ? rows : cols;

	/* z_1 mu per position in the second dimension. */
	return ring_closed(z1, ts, mu) + ring_closed(z2, ts, (long long)z1 * mu);
}

static void test_torus(void)
{
	static const char *nets[] = { "ring:2", "ring:3", "ring:8", "ring:7", "ring:16", "ring:5",
				      "ring:9", "ring:31", "torus:2x2", "torus:4x4", "torus:4x6",
				      "torus:6x4", "torus:3x4", "torus:5x3", "torus:8x8", "torus:2x6",
				      "torus:3x3", "torus:7x5", "torus:9x2" };
	static const int Ls[] = { 1, 2, 17 }, tss[] = { 1, 5, 20 };

	for (size_t m = 0; m < sizeof(nets) / sizeof(nets[0]); m++) {
		struct topology t;
		char err[64];

		topology_parse(nets[m], &t, err, sizeof(err));
		for (int l = 0; l < 3; l++) {
			int ts = tss[(l + (int)m) % 3];

			exact("aabtorusxy", nets[m], ts, Ls[l], NULL,
			      torus_closed(t.rows, t.cols, true, ts, Ls[l] - 1), true);
			exact("aabtorusyx", nets[m], ts, Ls[l], NULL,
			      torus_closed(t.rows, t.cols, false, ts, Ls[l] - 1), true);
			exact("aabmeshxy", nets[m], ts, Ls[l], NULL,
			      mesh_closed(t.rows, t.cols, true, ts, Ls[l] - 1), true);
		}
	}
	for (int n = 3; n <= 8; n++) {
		char topo[32];
		int ts = 1 + n % 5, L = 1 + 2 * (n % 4);

		snprintf(topo, sizeof(topo), "torus:%dx%d", n, n);
		exact("aabham2", topo, ts, L, NULL, (long long)(n * n / 2) * (ts + 1 + (L - 1) / 2), true);
	}
	{
		struct opts d2 = { .depth = 2 };

		exact("aabham2", "torus:4x4", 2, 33, &d2, 8 * (2 + 1 + 16), true);
		exact("aabtorusxy", "torus:4x4", 2, 33, &d2, torus_closed(4, 4, true, 2, 32), true);
	}
	/* Lemma 7 beats the line on even rings; Corollary 9 (odd side first) on a torus. */
	{
		struct sim_config cfg;
		struct algo_run ring, line, xy, yx, odd, oddline;

		run("aabtorusxy", "torus:4x6", 5, 9, NULL, &cfg, &ring);
		run("aabmeshxy", "torus:4x6", 5, 9, NULL, &cfg, &line);
		run("aabtorusxy", "torus:3x4", 5, 9, NULL, &cfg, &xy);
		run("aabtorusyx", "torus:3x4", 5, 9, NULL, &cfg, &yx);
		check(ring.data_ok && line.data_ok && ring.cycles < line.cycles && yx.cycles < xy.cycles,
		      "aabtorusxy on torus:4x6 %llu < aabmeshxy %llu; on torus:3x4 columns (odd) first "
		      "%llu < rows first %llu", (unsigned long long)ring.cycles,
		      (unsigned long long)line.cycles, (unsigned long long)yx.cycles,
		      (unsigned long long)xy.cycles);
		/* And on odd rings from 5 on ((z+3)/2 rounds against the line's z). */
		run("aabtorusxy", "ring:9", 5, 9, NULL, &cfg, &odd);
		run("aabmeshxy", "ring:9", 5, 9, NULL, &cfg, &oddline);
		check(odd.data_ok && oddline.data_ok && odd.cycles < oddline.cycles,
		      "aabtorusxy on ring:9 (Lemma 7, odd) %llu < aabmeshxy (the line) %llu",
		      (unsigned long long)odd.cycles, (unsigned long long)oddline.cycles);
	}
	/* What they do not run on, one line each. */
	{
		static const struct {
			const char *name, *topo;
			int L;
		} bad[] = {
			{ "aabtorusxy", "mesh:4x4", 3 }, { "aabham2", "torus:4x5", 3 },
			{ "aabham2", "torus:2x2", 3 }, { "aabham2", "torus:4x4", 4 },
			{ "aabham2", "mesh:4x4", 3 },
		};

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			const struct algorithm *a = algo_find(bad[k].name);
			struct sim_config cfg;
			struct algo_run r;
			struct algo_params p;

			setup(a, bad[k].topo, 5, NULL, &cfg);
			p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = bad[k].L };
			check(algo_run(a, &p, NULL, &r) == -1 && r.error[0] && !strchr(r.error, '\n'),
			      "supports: %s on %s, L %d rejected: %s", bad[k].name, bad[k].topo, bad[k].L,
			      r.error);
		}
	}
}

/* ---- concurrent B broadcasts ---- */

static int tx_send(void *impl, int node, const struct send_req *r) { return sim_send(impl, node, r); }
static const char *tx_error(void *impl) { return sim_error(impl); }

static void sk_start(void *ctx, struct sim *s)
{
	struct transport t = { .impl = s, .send = tx_send, .error = tx_error };

	skeleton_start(ctx, &t);
}

static void sk_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct transport t = { .impl = s, .send = tx_send, .error = tx_error };

	skeleton_event(ctx, &t, ev);
}

/* Run an algorithm through the skeleton on a simulation of our own: status and report. */
static enum sim_status run_report(const char *name, const char *topo, int L, char **report)
{
	const struct algorithm *a = algo_find(name);
	struct sim_config cfg;
	struct algo_params p;
	struct skeleton *sk;
	struct sim *s;
	char err[256];
	size_t len = 0;
	FILE *f;
	enum sim_status st;

	*report = NULL;
	if (setup(a, topo, 10, NULL, &cfg))
		return SIM_CHECK_FAILED;
	cfg.watchdog = 500;
	p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = L };
	sk = skeleton_create(a, &p);
	s = sim_create(&cfg, err, sizeof(err));
	if (!sk || !s) {
		skeleton_destroy(sk);
		sim_destroy(s);
		return SIM_CHECK_FAILED;
	}
	st = sim_run(s, &(struct driver){ .ctx = sk, .start = sk_start, .event = sk_event });
	f = open_memstream(report, &len);
	if (f) {
		sim_write_report(s, f);
		fclose(f);
	}
	skeleton_destroy(sk);
	sim_destroy(s);
	return st;
}

/* The lead's case on model/sim.h alone: Q_2, roots 0 and 2, 64 flits at cycle 0. */
static void two_roots_start(void *ctx, struct sim *s)
{
	(void)ctx;
	for (int root = 0; root <= 2; root += 2)
		sim_send(s, root, &(struct send_req){ .type = HDR_B, .len = 64, .channel = -1 });
}

static void no_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	(void)ctx;
	(void)s;
	(void)ev;
}

static void test_deadlock(void)
{
	struct sim_config cfg;
	char err[128], *report = NULL;
	size_t len = 0;
	struct sim *s;
	enum sim_status st;
	FILE *f;

	sim_config_defaults(&cfg);
	topology_parse("hypercube:2", &cfg.topo, err, sizeof(err));
	cfg.watchdog = 500;
	s = sim_create(&cfg, err, sizeof(err));
	st = sim_run(s, &(struct driver){ .start = two_roots_start, .event = no_event });
	f = open_memstream(&report, &len);
	sim_write_report(s, f);
	fclose(f);
	/* The chain: each waits at the other's root router for the link it holds. */
	check(st == SIM_DEADLOCK && strstr(report, "deadlock") &&
	      strstr(report, "message B from 2 seq 0 at node 0 input 1") &&
	      strstr(report, "message B from 0 seq 0 at node 2 input 1") &&
	      strstr(report, "the cycle closes (4 steps, 2 messages)"),
	      "deadlock: Q_2, B messages of 64 flits from roots 0 and 2 at cycle 0: the watchdog "
	      "fires and names the chain:\n%s", report);
	free(report);
	sim_destroy(s);

	/* The naive all-at-once schedule deadlocks; its report names the blocked broadcasts. */
	{
		static const struct {
			const char *topo;
			int L;
		} dl[] = { { "hypercube:2", 64 }, { "hypercube:3", 9 }, { "hypercube:4", 17 },
			   { "hypercube:6", 5 }, { "mesh:1x4", 9 }, { "mesh:3x3", 17 },
			   { "mesh:4x4", 64 }, { "mesh:5x3", 9 } };

		for (size_t k = 0; k < sizeof(dl) / sizeof(dl[0]); k++) {
			st = run_report("aabbcastnaive", dl[k].topo, dl[k].L, &report);
			check(st == SIM_DEADLOCK && report && strstr(report, "deadlock") &&
			      strstr(report, "message B from") && strstr(report, "the cycle closes"),
			      "deadlock: aabbcastnaive on %s, L %d: the watchdog fires, the report names "
			      "the blocked B messages (%zu bytes)", dl[k].topo, dl[k].L,
			      report ? strlen(report) : 0);
			free(report);
			st = run_report("aabbcast", dl[k].topo, dl[k].L, &report);
			check(st == SIM_DONE, "deadlock: aabbcast on %s, L %d completes", dl[k].topo, dl[k].L);
			free(report);
		}
	}
	/* Short enough messages fit in the buffers: the naive schedule then delivers. */
	{
		struct algo_run r;

		run("aabbcastnaive", "hypercube:3", 10, 2, NULL, &cfg, &r);
		check(r.status == SIM_DONE && r.data_ok, "aabbcastnaive on Q_3 with L = 2 delivers: %llu "
		      "cycles (schedule %.0f)", (unsigned long long)r.cycles, r.scheduled);
	}
}

/* Jeon & Kim's prescription: one broadcast after the other, each when the last is delivered. */
static int serial_plan(const struct algo_params *p, int node, const struct receipt *r,
		       struct plan *pl)
{
	struct xfer_spec x = { .bcast = true, .round = 1 + node };

	(void)p;
	if (r)
		return 0;
	return plan_xfer(pl, &x) || plan_block(pl, node, BLOCK_ANY, 0) ? -1 : 0;
}

static void serial_predict(const struct algo_params *p, const struct schedule_result *s,
			   struct prediction *o)
{
	(void)p;
	o->cycles = s->ok ? (double)s->cycles : -1;
}

static void test_serial(void)
{
	static const char *topos[] = { "hypercube:3", "hypercube:4", "mesh:3x3", "mesh:1x5" };
	struct algorithm serial = {
		.name = "serial", .kind = COLL_AAB, .topologies = ALGO_HYPERCUBE | ALGO_MESH,
		.all_port = true, .plan = serial_plan, .predict = serial_predict,
	};

	for (size_t k = 0; k < sizeof(topos) / sizeof(topos[0]); k++) {
		struct sim_config cfg;
		struct algo_params p;
		struct algo_run r, safe;
		long long T = 0;

		setup(&serial, topos[k], 10, NULL, &cfg);
		/* Jeon & Kim eq. 2 for every root, back to back. */
		for (int S = 0; S < cfg.topo.nodes; S++) {
			int D = 0;

			for (int v = 0; v < cfg.topo.nodes; v++)
				D = (int)max2(D, topology_distance(&cfg.topo, S, v));
			T += 10 + D + 17 - 1;
		}
		p = (struct algo_params){ .cfg = &cfg, .root = 0, .flits = 17 };
		algo_run(&serial, &p, NULL, &r);
		run("aabbcast", topos[k], 10, 17, NULL, &cfg, &safe);
		check(r.status == SIM_DONE && r.data_ok && (long long)r.cycles == T &&
		      safe.prediction.published == (double)T && safe.cycles < r.cycles,
		      "one by one (Jeon & Kim) on %s, L 17: %llu cycles = N x eq. 2 = %lld = aabbcast's "
		      "published; aabbcast %llu", topos[k], (unsigned long long)r.cycles, T,
		      (unsigned long long)safe.cycles);
	}
}

/* The safe schedule: every block everywhere, its prediction exact, the closed forms. */
static void test_bcast(void)
{
	static const int Ls[] = { 1, 2, 5, 12, 13, 14, 17, 64 }, tss[] = { 1, 5, 20 };
	static const char *meshes[] = { "mesh:1x2", "mesh:1x5", "mesh:2x2", "mesh:3x3", "mesh:3x4",
					"mesh:5x3", "mesh:4x4", "mesh:1x8", "mesh:7x1", "mesh:2x5" };

	for (int d = 1; d <= sweep_dim(7); d++)
		for (int l = 0; l < 8; l++)
			for (int t = 0; t < 3; t++)
				for (int tr = 0; tr <= 2; tr++) {
					struct opts o = { .tr = tr };

					if (d > 4 && (l + t + tr) % 4)
						continue;
					exact("aabbcast", hc(d), tss[t], Ls[l], &o,
					      bcast_hc_closed(d, tss[t], Ls[l], tr), false);
				}
	for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); m++)
		for (int l = 0; l < 8; l++)
			for (int t = 0; t < 3; t++) {
				struct opts o = { .tr = (l + t) % 3 };
				struct topology tp;
				char err[64];

				topology_parse(meshes[m], &tp, err, sizeof(err));
				exact("aabbcast", meshes[m], tss[t], Ls[l], &o,
				      tp.rows == 1 && o.tr == 0 ? bcast_line_closed(tp.cols, tss[t], Ls[l]) : -1,
				      false);
			}
	/*
	 * Rings and tori (V = 2 and 3): the same rounds, the prediction exact (asserted
	 * here, not only where it says so).
	 */
	{
		static const char *wraps[] = { "ring:2", "ring:3", "ring:8", "ring:16", "torus:2x2",
					       "torus:2x5", "torus:3x3", "torus:4x4", "torus:3x5",
					       "torus:8x8" };

		for (size_t m = 0; m < sizeof(wraps) / sizeof(wraps[0]); m++)
			for (int l = 0; l < 8; l += 3)
				for (int vcs = 2; vcs <= 3; vcs++) {
					struct opts o = { .tr = (int)(m + l) % 3, .vcs = vcs };
					int ts = tss[(m + l) % 3];
					struct sim_config cfg;
					struct algo_run r;

					run("aabbcast", wraps[m], ts, Ls[l], &o, &cfg, &r);
					check(r.status == SIM_DONE && r.data_ok && r.prediction.exact &&
					      (double)r.cycles == r.predicted,
					      "aabbcast %s V %d L %d t_s %d T_r %d: %llu cycles, predicted %.0f "
					      "(exact)", wraps[m], vcs, Ls[l], ts, o.tr,
					      (unsigned long long)r.cycles, r.predicted);
				}
	}
	/* Small buffers: exact while T_r <= depth - 2, and T_r = 3 with depth 4 only delivers. */
	{
		struct opts d2 = { .depth = 2 }, tr3 = { .tr = 3 };
		struct sim_config cfg;
		struct algo_run r;

		exact("aabbcast", hc(5), 3, 33, &d2, bcast_hc_closed(5, 3, 33, 0), false);
		exact("aabbcast", "mesh:3x4", 3, 33, &d2, -1, false);
		exact("aabbcast", "torus:4x4", 3, 33, &d2, -1, false);
		run("aabbcast", "mesh:3x4", 1, 33, &tr3, &cfg, &r);
		check(r.status == SIM_DONE && r.data_ok && !r.prediction.exact &&
		      (double)r.cycles >= r.predicted,
		      "aabbcast on 3x4 with T_r = 3 > depth - 2: delivers, %llu cycles >= the model's "
		      "%.0f, not claimed exact", (unsigned long long)r.cycles, r.predicted);
	}
}

/* Back-pressure: random sink stalls delay, never corrupt or deadlock, the safe schedule. */
static void test_stalls(void)
{
	static const char *topos[] = { "hypercube:3", "hypercube:5", "mesh:3x4", "mesh:1x6" };

	for (size_t k = 0; k < sizeof(topos) / sizeof(topos[0]); k++)
		for (int seed = 1; seed <= 3; seed++) {
			struct opts o = { .stall = 0.4, .depth = 2 + seed % 2, .seed = (uint64_t)seed,
					  .tr = seed - 1 };
			static const char *names[] = { "aabbcast", "aabdimex", "aabflood", "aabmeshxy" };

			for (size_t a = 0; a < 4; a++) {
				struct sim_config cfg;
				struct algo_run r;

				if (strncmp(topos[k], "mesh", 4) == 0 ? (a == 1 || a == 2) : a == 3)
					continue;
				run(names[a], topos[k], 3, 9 + 8 * seed, &o, &cfg, &r);
				check(r.status == SIM_DONE && r.data_ok &&
				      (!r.prediction.exact || (double)r.cycles >= r.predicted),
				      "stalls: %s on %s, sink stall 0.4, seed %d: data ok, %llu cycles >= %.0f%s%s",
				      names[a], topos[k], seed, (unsigned long long)r.cycles, r.predicted,
				      r.error[0] ? ": " : "", r.error);
			}
		}
}

/* ---- the lower bound, by hand ---- */

static void bound_case(const char *topo, bool all_port, int ts, int mu, long long expect,
		       const char *why)
{
	struct sim_config cfg;
	struct lower_bound b;
	char err[64];

	sim_config_defaults(&cfg);
	topology_parse(topo, &cfg.topo, err, sizeof(err));
	cfg.all_port = all_port;
	cfg.startup = ts;
	check(aab_lower_bound(&cfg, mu, &b) == 0 && b.cycles == expect,
	      "bound: AAB %s %s t_s %d mu %d = %lld (%s): %s", topo, all_port ? "all-port" : "one-port",
	      ts, mu, expect, why, b.text);
}

static void test_bounds(void)
{
	/* Q_3, all-port: node v takes 7 mu flits through 3 ejection channels. */
	bound_case("hypercube:3", true, 10, 4, 10 + 1 + 10, "t_s + 1 + ceil(7*4/3)");
	/* One-port: through one. */
	bound_case("hypercube:3", false, 10, 4, 10 + 1 + 28, "t_s + 1 + 7*4");
	/* mu = 0: only the head's latency to the farthest node remains. */
	bound_case("hypercube:6", true, 10, 0, 10 + 6, "t_s + diam");
	/* 1 x 4, all-port: 3 blocks must cross the last link westwards... and eastwards. */
	bound_case("mesh:1x4", true, 10, 4, 10 + 1 + 12, "t_s + 1 + 3*4 over one link");
	/* 3 x 3 all-port: a corner has 2 channels for 8 blocks. */
	bound_case("mesh:3x3", true, 5, 3, 5 + 1 + 12, "t_s + 1 + ceil(8*3/2)");
	/* 4 x 4 all-port: the cut after column 0 takes 4 blocks over 4 links, corners 15 over 2. */
	bound_case("mesh:4x4", true, 5, 4, 5 + 1 + 30, "t_s + 1 + ceil(15*4/2)");
	/* Q_1: one link each way, one block. */
	bound_case("hypercube:1", true, 3, 7, 3 + 1 + 7, "t_s + 1 + mu");
}

int main(void)
{
	sweep_note("test_gossip");
	test_registry();
	test_bounds();
	test_dimex();
	test_flood();
	test_mesh();
	test_torus();
	test_deadlock();
	test_bcast();
	test_serial();
	test_stalls();
	check(runs > 500 && bound_violations == 0,
	      "every AAB run: measured >= its lower bound (%d runs, %d below)", runs, bound_violations);
	return check_finish();
}
