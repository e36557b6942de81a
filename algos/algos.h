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
	const char *source;		/* which seed, e.g. "seed 002 (Jeon & Kim)" */
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
};

/* All algorithms, NULL-terminated. */
extern const struct algorithm *const algorithms[];
const struct algorithm *algo_find(const char *name);

/*
 * Run one algorithm on a fresh simulation with the given engine (NULL: the C model).
 * Returns the run's status; fills stats, predicted cycles, formula and data check.
 */
struct algo_run {
	enum sim_status status;
	struct sim_stats stats;
	uint64_t cycles;		/* last tail delivery - first send call */
	double predicted;
	char formula[256];
	bool data_ok;
	char error[512];
};
int algo_run(const struct algorithm *a, const struct algo_params *p, struct engine *engine,
	     struct algo_run *out);

#endif
