/* SPDX-License-Identifier: MIT */
/*
 * soak_bcast.c - concurrent B broadcasts under the head barrier of aabbcast, on random
 * networks (hypercubes, meshes, rings and tori with V = 2 or 3), random sets and
 * orders of roots, random lengths, start-ups, buffer depths, replication costs and
 * sink stalls: never a deadlock, every delivery checked by the checker.  The rounds are made here, independently of algos/aab_bcast.c: the
 * roots in a random order, each round taking the next roots as long as their trees
 * share no directed link with the round's (docs/algorithms.md#aabbcast proves that
 * any such rounds are deadlock-free).  For comparison each run is repeated with every
 * broadcast at cycle 0, which the watchdog usually stops.
 *
 * usage: soak_bcast [RUNS [SEED]]     (default 100 runs from seed 1)
 * One line per failed run, a summary, "N passed, M failed"; exit 1 if any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "../sweep.h"
#include "sim.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int pick(int lo, int hi)
{
	return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

struct soak {
	int n, L;
	int *roots, nroots;	/* in order */
	int *round_of;		/* per root index: its round */
	int nrounds, open;	/* the next round to send */
	int *msg_round;		/* per message id */
	int *heads;		/* per message id: receivers that have its head */
	int *pending;		/* per round: messages whose head is not everywhere */
	bool gated;
};

static bool disjoint(const struct topology *t, int a, int b)
{
	for (int v = 0; v < t->nodes; v++)
		if (replication_children(t, a, v) & replication_children(t, b, v))
			return false;
	return true;
}

static void send_round(struct soak *k, struct sim *s, int r)
{
	for (int i = 0; i < k->nroots; i++)
		if (!k->gated || k->round_of[i] == r) {
			int id = sim_send(s, k->roots[i], &(struct send_req){ .type = HDR_B, .len = k->L,
									      .channel = -1 });

			if (id >= 0) {
				k->msg_round[id] = k->round_of[i];
				k->heads[id] = 0;
			}
		}
}

static void soak_start(void *ctx, struct sim *s)
{
	struct soak *k = ctx;

	k->open = 0;
	send_round(k, s, 0);
}

static void soak_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct soak *k = ctx;
	const struct message *m = ev->msg;

	if (!k->gated || ev->kind != EV_HEAD_ARRIVED)
		return;
	/* The round is open when the heads of every earlier round are everywhere. */
	if (++k->heads[m->id] == m->receivers && --k->pending[k->msg_round[m->id]] == 0)
		while (k->open + 1 < k->nrounds && k->pending[k->open] == 0)
			send_round(k, s, ++k->open);
}

struct outcome {
	enum sim_status st;
	bool ok;
	uint64_t cycles;
};

static struct outcome one(const struct sim_config *cfg, struct soak *k, bool gated)
{
	struct sim_stats st;
	struct outcome o;
	char err[256];
	struct sim *s = sim_create(cfg, err, sizeof(err));

	k->gated = gated;
	memset(k->pending, 0, sizeof(int) * (size_t)k->nrounds);
	for (int i = 0; i < k->nroots; i++)
		k->pending[k->round_of[i]]++;
	if (!s) {
		check(0, "sim_create: %s", err);
		return (struct outcome){ SIM_CHECK_FAILED, false, 0 };
	}
	o.st = sim_run(s, &(struct driver){ .ctx = k, .start = soak_start, .event = soak_event });
	sim_get_stats(s, &st);
	o.ok = o.st == SIM_DONE && st.delivered_ok &&
	       st.deliveries == (uint64_t)k->nroots * (uint64_t)(cfg->topo.nodes - 1);
	o.cycles = st.cycles_run;
	if (gated && !o.ok) {
		printf("  %s\n", sim_error(s));
		sim_write_report(s, stdout);
	}
	sim_destroy(s);
	return o;
}

int main(int argc, char **argv)
{
	int runs = sweep_runs(argc > 1 ? atoi(argv[1]) : 100), ungated_deadlocks = 0, ungated_runs = 0;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, cycles = 0, messages = 0;

	sweep_note("soak_bcast");

	for (int run = 0; run < runs; run++) {
		struct sim_config cfg;
		struct soak k = { 0 };
		struct outcome g;
		char err[128], name[32];
		double q;
		int *perm;

		rng_state = seed * 1000003u + (uint64_t)run;
		sim_config_defaults(&cfg);
		switch (pick(0, 3)) {
		case 0: snprintf(name, sizeof(name), "hypercube:%d", pick(1, 7)); break;
		case 1: snprintf(name, sizeof(name), "mesh:%dx%d", pick(1, 8), pick(1, 8)); break;
		case 2: snprintf(name, sizeof(name), "ring:%d", pick(2, 16)); break;
		default: snprintf(name, sizeof(name), "torus:%dx%d", pick(2, 8), pick(2, 8)); break;
		}
		if (topology_parse(name, &cfg.topo, err, sizeof(err)) || cfg.topo.nodes < 2 ||
		    (topology_wraps(&cfg.topo) &&
		     topology_set_vcs(&cfg.topo, pick(2, 3), err, sizeof(err)))) {
			run--;
			seed++;
			continue;
		}
		k.n = cfg.topo.nodes;
		k.L = pick(1, 80);
		cfg.startup = pick(1, 20);
		cfg.buffer_depth = pick(2, 8);
		cfg.replication_cost = pick(0, 3) == 0 ? pick(1, 4) : 0;
		cfg.sink_stall = (double[]){ 0, 0, 0.2, 0.6 }[pick(0, 3)];
		cfg.seed = rnd();
		cfg.watchdog = 2000;
		q = (double[]){ 0.3, 0.7, 1.0, 1.0 }[pick(0, 3)];

		perm = malloc(sizeof(int) * (size_t)k.n * 6);
		k.roots = perm + k.n;
		k.round_of = k.roots + k.n;
		k.msg_round = k.round_of + k.n;
		k.heads = k.msg_round + k.n;
		k.pending = k.heads + k.n;
		for (int v = 0; v < k.n; v++)
			perm[v] = v;
		for (int v = k.n - 1; v > 0; v--) {
			int j = pick(0, v), x = perm[v];

			perm[v] = perm[j];
			perm[j] = x;
		}
		for (int v = 0; v < k.n; v++)
			if ((double)(rnd() % 1000) < q * 1000)
				k.roots[k.nroots++] = perm[v];
		if (k.nroots == 0)
			k.roots[k.nroots++] = perm[0];
		/* Rounds: the next roots in order, as long as their trees are pairwise disjoint. */
		for (int i = 0, first = 0; i < k.nroots; i++) {
			bool fits = true;

			for (int j = first; j < i && fits; j++)
				fits = disjoint(&cfg.topo, k.roots[i], k.roots[j]);
			if (!fits) {
				k.nrounds++;
				first = i;
			}
			k.round_of[i] = k.nrounds;
		}
		k.nrounds++;

		g = one(&cfg, &k, true);
		cycles += g.cycles;
		messages += (uint64_t)k.nroots;
		if (!g.ok)
			check(0, "run %d: %s, %d of %d roots in %d rounds, L %d, t_s %d, depth %d, T_r %d, "
			      "sink stall %.1f: status %d", run, name, k.nroots, k.n, k.nrounds, k.L,
			      cfg.startup, cfg.buffer_depth, cfg.replication_cost, cfg.sink_stall, (int)g.st);
		if (run % 4 == 0 && k.nroots >= 2) {
			ungated_runs++;
			ungated_deadlocks += one(&cfg, &k, false).st == SIM_DEADLOCK;
		}
		free(perm);
	}
	check(check_failed == 0, "head-gated rounds: %d runs, %llu broadcasts, %llu cycles, no "
	      "deadlock, every delivery checked", runs, (unsigned long long)messages,
	      (unsigned long long)cycles);
	printf("for comparison, every broadcast at cycle 0: %d of %d runs deadlocked\n",
	       ungated_deadlocks, ungated_runs);
	return check_finish();
}
