/* SPDX-License-Identifier: MIT */
/*
 * algos.h - collective-communication algorithms on the simulated router.
 *
 * An algorithm is a table entry (struct algorithm): what it is (name, kind of
 * collective, networks and port mode, sources), its schedule (a per-node plan of
 * sends, made at the start and on every receipt: skeleton.h), its data check (the
 * expected final holdings follow from the kind of collective; an algorithm adds
 * nothing unless it needs more) and its formula (predict()).  The shared skeleton
 * does everything else: block payloads, sending, receiving, checking every block on
 * arrival and at the end, the contention-free evaluation of the same plan
 * (schedule.h) and the lower bound of its kind of collective (bounds.h).
 * docs/algorithms.md, "How a driver is written", describes it.
 */
#ifndef WORMCAST_ALGOS_H
#define WORMCAST_ALGOS_H

#include <stdbool.h>
#include <stddef.h>

#include "sim.h"

/* Bits of algorithm.topologies. */
#define ALGO_HYPERCUBE (1u << TOPO_HYPERCUBE)
#define ALGO_MESH (1u << TOPO_MESH)
#define ALGO_RING (1u << TOPO_RING)
#define ALGO_TORUS (1u << TOPO_TORUS)

/* What a collective moves and what every node must hold at the end. */
enum collective_kind {
	COLL_ONE_TO_ALL,	/* every node ends with the root's blocks */
	COLL_AAS,		/* all-to-all personalized: node d ends with block (s, d) of every s */
	COLL_AAB,		/* all-to-all broadcast (gossip): every node ends with every node's blocks */
	COLL_REDUCE,		/* all-to-one: the root ends with the sum of every node's block */
};

const char *collective_kind_name(enum collective_kind k);

struct algo_params {
	const struct sim_config *cfg;	/* the network the run uses */
	int root;			/* source of a broadcast, target of a reduction */
	int flits;			/* L: the length of a one-block message, head and tail included */
	int variant;			/* set from algorithm.variant by the skeleton and algo_run() */
	int packets;			/* k for algorithms that cut the message (packets()); 0: theirs */
};

struct schedule_result;
struct receipt;
struct plan;
struct step;

/*
 * A prediction of the measured cycles.  `cycles` is exact (the model must produce it
 * to the cycle) where `exact` is set; `source` says where the formula comes from:
 * a reference of docs/references.md with its equation, or "derived
 * (docs/algorithms.md#anchor)" for a formula derived for this router.  Where the
 * prediction is derived, `published` is the source's own formula evaluated with the
 * same numbers (t_s = startup, t_w = t_m = 1 flit/cycle, t_d = h = 1, m = mu), or -1
 * where the source gives none that can be evaluated.
 */
struct prediction {
	double cycles;
	bool exact;
	char formula[320];
	char source[160];
	double published;
	char published_formula[256];
	char published_source[160];
};

struct algorithm {
	const char *name;
	const char *source;		/* the algorithm's reference (docs/references.md) */
	const char *formula_source;	/* where its formula comes from, for the catalogue */
	const char *description;
	enum collective_kind kind;
	unsigned topologies;		/* ALGO_HYPERCUBE | ALGO_MESH */
	const char *networks;		/* the networks supports() accepts, in words */
	bool all_port;			/* the port mode it is defined on */
	/*
	 * Receive cut-through: a node holds a message's blocks (and plans) when its head
	 * arrives instead of its tail; the skeleton checks at the tail that the flits
	 * arrived back to back, so no forwarded flit left before it had arrived.
	 */
	bool cut_through;
	/* For algorithms that share a plan: which one this entry is (algo_params.variant). */
	int variant;

	/* Extra constraints (e.g. powers of two); one line into err and -1 if unsupported. */
	int (*supports)(const struct algo_params *p, char *err, size_t errlen);
	/*
	 * Optional: blocks per origin and payload words per block; default one block of
	 * L - 1 words (so a one-block message is L flits).
	 */
	void (*shape)(const struct algo_params *p, int *blocks, int *words);
	/*
	 * Optional, one-to-all (instead of shape): the root's message of L - 1 words is cut
	 * into this many packets, blocks (root, *, j) of floor or ceil((L-1)/k) words (the
	 * longer ones last), packet j being the next slice of the message; at least 1.  An
	 * algorithm that takes its k from p->packets (--packets) validates it in supports();
	 * any other algorithm is run with p->packets == 0.
	 */
	int (*packets)(const struct algo_params *p);
	/*
	 * The source's schedule sends some nodes blocks they already hold (scatter-collect's
	 * ring): such a copy is checked word by word like any other, then dropped, instead
	 * of failing the run.
	 */
	bool redundant;
	/*
	 * The per-node program (skeleton.h): the sends `node` adds to its plan at the
	 * start (r == NULL) and when it receives a message (r != NULL).  0, or -1 if the
	 * plan could not be made (the reason goes into the plan: plan_fail()).
	 */
	int (*plan)(const struct algo_params *p, int node, const struct receipt *r,
		    struct plan *pl);
	/*
	 * Instead of plan: a static schedule, node `node`'s send k (skeleton.h, struct
	 * step); false if it has none.
	 */
	bool (*step)(const struct algo_params *p, int node, int k, struct step *s);
	/*
	 * Optional: the contention-free evaluation of the plan (schedule.h) in closed
	 * form, the very figures the event-by-event evaluation gives (tests/test_speed.c
	 * compares them), for a case where it is known; 0, or -1 to evaluate the plan.
	 */
	int (*schedule)(const struct algo_params *p, struct schedule_result *r);
	/*
	 * The formula, given the contention-free evaluation of the same plan (for
	 * predictions that are the schedule itself).
	 */
	void (*predict)(const struct algo_params *p, const struct schedule_result *s,
			struct prediction *out);
};

static inline bool algo_uses_root(const struct algorithm *a)
{
	return a->kind == COLL_ONE_TO_ALL || a->kind == COLL_REDUCE;
}

/* All algorithms, NULL-terminated: the one table everything else is derived from. */
extern const struct algorithm *const algorithms[];
const struct algorithm *algo_find(const char *name);

/*
 * Run one algorithm on a fresh simulation with the given engine (NULL: the C model).
 * The run uses a copy of p->cfg with all_port = a->all_port (an engine passed in
 * must have been built for that port mode).  Returns the run's status (SIM_DONE = 0)
 * or -1 if the run could not be set up (unsupported case, bad configuration, out of
 * memory; the reason is in out->error); fills stats, prediction, schedule, lower bound
 * and data check.
 */
struct algo_run {
	enum sim_status status;
	struct sim_stats stats;
	uint64_t cycles;		/* last tail delivery - first send call */
	double predicted;		/* = prediction.cycles */
	char formula[320];		/* = prediction.formula */
	struct prediction prediction;
	bool data_ok;
	char error[512];
	double scheduled;		/* the contention-free schedule, or -1 if it failed */
	char schedule_text[256];
	double lower_bound;		/* cycles (bounds.h), or -1 where none applies (one node) */
	int packets;			/* blocks per origin of an algorithm with packets(), else -1 */
	char bound_text[320];		/* the bound's model and its terms */
	bool no_memory;			/* the driver ran out of memory (error says where) */
};
int algo_run(const struct algorithm *a, const struct algo_params *p, struct engine *engine,
	     struct algo_run *out);

/*
 * The same in steps, on a simulation the caller makes and runs (the front end's
 * pipeline, src/pipeline.c): algo_begin() checks p for a and makes the driver (0, or
 * -1 with out->error; "out of memory" exactly if that is the reason); the simulation
 * uses x->cfg (a's port model) and algo_driver(); algo_end() takes the run's status
 * and what only the simulation knows (figures, data check), and frees the driver;
 * algo_predict(), after the simulation is freed, adds the schedule, the prediction and
 * the bound; algo_abandon() frees the driver of a session that does not run.
 */
struct skeleton;
struct algo_session {
	const struct algorithm *a;
	struct sim_config cfg;		/* the run's: all_port = a->all_port */
	struct algo_params params;
	struct skeleton *sk;		/* the driver */
	int words;			/* payload words per block, or of the whole split message (bound) */
};
int algo_begin(const struct algorithm *a, const struct algo_params *p, struct algo_session *x,
	       struct algo_run *out);
void algo_driver(struct algo_session *x, struct driver *d);
void algo_end(struct algo_session *x, const struct sim *s, enum sim_status status,
	      struct algo_run *out);
void algo_predict(struct algo_session *x, struct algo_run *out);
/* Instead of a simulation: frees the driver and predicts (the measured figures stay 0). */
void algo_predict_only(struct algo_session *x, struct algo_run *out);
void algo_abandon(struct algo_session *x);

#endif
