/* SPDX-License-Identifier: MIT */
/*
 * algos.h - collective-communication drivers.  Each algorithm is a per-node program
 * that reacts to events (its start at cycle 0, the arrival of a head or a tail, the
 * end of its own send), never a precomputed injection list.  After the run it checks
 * the data that every node ends with, and it evaluates its seed's cost formula with
 * the run's parameters (shared/spec/algorithms.md, "in cycles").
 */
#ifndef WORMCAST_ALGOS_H
#define WORMCAST_ALGOS_H

#include <stdbool.h>
#include <stddef.h>

#include "sim.h"

/* Bits of algorithm.topologies. */
#define ALGO_HYPERCUBE (1u << TOPO_HYPERCUBE)
#define ALGO_MESH (1u << TOPO_MESH)

struct algo_params {
	const struct sim_config *cfg;	/* the network the run uses */
	int root;			/* source of a broadcast, target of a reduction */
	int flits;			/* L: message length in flits, head and tail included */
};

struct algorithm {
	const char *name;
	const char *source;		/* which source (docs/references.md), e.g. "Jeon & Kim" */
	const char *description;
	unsigned topologies;		/* ALGO_HYPERCUBE | ALGO_MESH */
	bool all_port;			/* the port mode it is defined on */
	bool uses_root;			/* false for all-to-all algorithms */

	/* Extra constraints (e.g. powers of two); one line into err and -1 if unsupported. */
	int (*supports)(const struct algo_params *p, char *err, size_t errlen);
	/* The driver's state; NULL on allocation failure. */
	void *(*create)(const struct algo_params *p);
	void (*destroy)(void *ctx);
	/* The per-node program. */
	void (*start)(void *ctx, struct sim *s);
	void (*event)(void *ctx, struct sim *s, const struct sim_event *ev);
	/* After the run: does every node hold the right data?  0, or -1 with a reason. */
	int (*check)(void *ctx, const struct sim *s, char *err, size_t errlen);
	/*
	 * The seed's formula in cycles with t_s = cfg->startup, h = 1, t_w = 1 flit/cycle,
	 * m = flits.  Writes the formula as text into formula.
	 */
	double (*predict)(const struct algo_params *p, char *formula, size_t len);
	/* True where the formula is exact under this microarchitecture. */
	bool exact;
	/*
	 * Optional (NULL if not provided): the cycles that this driver's own schedule
	 * takes under the contention-free latency model of docs/microarchitecture.md
	 * section 9 (a send at c over k hops: tail at c + t_s + k + L - 1; a channel is
	 * free again t_s + L - 1 cycles after its send started), evaluated without
	 * simulating the network.  Measured cycles equal it iff no message ever waited
	 * in the network; where they differ the difference is contention (mstnaive).
	 * Writes a short explanation into text.
	 */
	double (*schedule)(const struct algo_params *p, char *text, size_t len);
};

/* All algorithms, NULL-terminated. */
extern const struct algorithm *const algorithms[];
const struct algorithm *algo_find(const char *name);

/*
 * Run one algorithm on a fresh simulation with the given engine (NULL: the C model).
 * The run uses a copy of p->cfg with all_port = a->all_port (an engine passed in
 * must have been built for that port mode).  Returns the run's status (SIM_DONE = 0)
 * or -1 if the run could not be set up (unsupported case, bad configuration, out of
 * memory; the reason is in out->error); fills stats, predicted cycles, formula and
 * data check.
 */
struct algo_run {
	enum sim_status status;
	struct sim_stats stats;
	uint64_t cycles;		/* last tail delivery - first send call */
	double predicted;
	char formula[256];
	bool data_ok;
	char error[512];
	double scheduled;		/* a->schedule's value, or -1 without one */
	char schedule_text[256];
};
int algo_run(const struct algorithm *a, const struct algo_params *p, struct engine *engine,
	     struct algo_run *out);

#endif
