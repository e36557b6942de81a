/* SPDX-License-Identifier: MIT */
/*
 * coverage.h - functional coverage of router events, counted the same way for every
 * engine.
 *
 * An event is a fact about one router in one cycle, read from the architectural state
 * of docs/microarchitecture.md section 6 (struct router_state) before and after the
 * clock edge and from the inputs of the cycle, which are themselves registers: a link
 * input is the neighbour's output register before the edge, an injection flit or an
 * ejection credit is what the NI drove.  coverage_classify() is the one definition of
 * every event; the C model's registers and the Verilated RTL's (read by name) go
 * through it alike, so the RTL's bins are measured from the RTL's own registers, and
 * in a cosimulation a count that differs between the two is itself a failure.
 *
 * The bins of a network depend only on its topology (P ports): the port indices run
 * over 0..2P-1 whatever the port model, so that runs of every port model, depth and
 * T_r of one topology merge bin by bin.  Which bins a configuration can reach at all
 * is computed from the route function of section 8 (coverage_reachable()): a bin that
 * no route, port or parameter of the configuration allows is unreachable, not a hole.
 */
#ifndef WORMCAST_COVERAGE_H
#define WORMCAST_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "router.h"
#include "router_state.h"
#include "sim.h"
#include "topology.h"

/* Families of bins, in the order they are listed. */
enum cov_family {
	COV_PAIR_R,		/* R head from input i to output o (sections 3, 8) */
	COV_PAIR_B,		/* B head from input i to output o */
	COV_FANOUT,		/* outputs of a granted B head: 1..2P */
	COV_IR,			/* IR taken, not taken, at the source, at the destination */
	COV_TREE_LEVEL,		/* a B head granted k hops from its root: 0..diameter */
	COV_STALL,		/* a flit waits for a credit: link, ejection */
	COV_ARBITRATION,	/* a head not granted: output held, lost in this cycle */
	COV_EJECT_PAIR,		/* all-port: link input i delivers on ejection channel P+i */
	COV_EJECT_CONCURRENT,	/* all-port: two link inputs deliver in one cycle */
	COV_BACK_TO_BACK,	/* a head right behind a tail on the same input */
	COV_PORT_MODEL,		/* a head granted in an all-port / one-port router */
	COV_HOLD,		/* T_r: head charged, leaf not charged, a cycle of hold */
	COV_N_FAMILIES,
};

enum { COV_IR_TAKEN, COV_IR_NOT_TAKEN, COV_IR_SOURCE, COV_IR_DESTINATION, COV_IR_N };
enum { COV_STALL_LINK, COV_STALL_EJECTION, COV_STALL_N };
enum { COV_ARB_HELD, COV_ARB_SAME_CYCLE, COV_ARB_N };
enum { COV_PORT_ALL, COV_PORT_ONE, COV_PORT_N };
enum { COV_HOLD_CHARGED, COV_HOLD_LEAF, COV_HOLD_WAIT, COV_HOLD_N };

/* The bins of a topology: families laid end to end. */
struct cov_space {
	struct topology topo;
	int ports;			/* P */
	int max_io;			/* 2P: port indices of every port model */
	int levels;			/* tree levels: diameter + 1 */
	int first[COV_N_FAMILIES + 1];	/* first bin of each family; first[N] = bins */
};

void cov_space_init(struct cov_space *sp, const struct topology *t);
static inline int cov_bins(const struct cov_space *sp) { return sp->first[COV_N_FAMILIES]; }
enum cov_family cov_family_of(const struct cov_space *sp, int bin);
/* "R d0->d2", "fanout 3", "ir.taken", ... */
void cov_bin_name(const struct cov_space *sp, int bin, char *buf, size_t len);
/* The section of docs/microarchitecture.md the bin covers ("7 step 4"). */
const char *cov_bin_section(const struct cov_space *sp, int bin);

/*
 * Which bins the configuration (its topology, port model, T_r) can reach: reach[b],
 * and why[b] a reason for each unreachable one.  Every route of section 8 is walked
 * (from every source and root, by symmetry from one on a hypercube).  Returns 0, or
 * -1 if memory ran out.
 */
int cov_reachable(const struct cov_space *sp, const struct router_params *p, bool *reach,
		  const char **why);
/* The same, walking every source and root even where symmetry makes one enough (tests). */
int cov_reachable_ex(const struct cov_space *sp, const struct router_params *p, bool *reach,
		     const char **why, bool every_source);

/* The inputs of one router in one cycle, as registers drive them. */
struct cov_inputs {
	uint32_t in_valid;		/* bit i: a flit on input i */
	flit_t in_flit[ROUTER_MAX_IO];
	uint32_t credit_in;		/* bit o: a credit returned to output o */
};

/*
 * THE classification: the events of router `node` in the cycle from `before` to
 * `after` with inputs `in`, added to counts.  *tail_left is the router's one bit of
 * memory across cycles (bit i: a tail left input i in the previous cycle), updated.
 */
void coverage_classify(const struct cov_space *sp, const struct router_params *p, int node,
		       const struct router_state *before, const struct router_state *after,
		       const struct cov_inputs *in, uint32_t *tail_left, uint64_t *counts);

/*
 * The counts of one side of a run (the model or the RTL): every router's state is
 * read after every clock edge through read(), and its inputs are taken from its
 * neighbours' registers before the edge and from the NI's calls of the cycle.
 */
struct coverage;

typedef int (*cov_read_fn)(void *ctx, int node, struct router_state *s);

struct coverage *coverage_create(const struct router_params *p);
void coverage_destroy(struct coverage *c);
const struct cov_space *coverage_space(const struct coverage *c);
/* The NI drives injection flit f on channel ch of node, or returns an ejection credit. */
void coverage_inject(struct coverage *c, int node, int ch, flit_t f);
void coverage_credit(struct coverage *c, int node, int ch);
/* After a clock edge: read every router and classify the cycle.  0, or -1 if read fails. */
int coverage_observe(struct coverage *c, cov_read_fn read, void *ctx);
const uint64_t *coverage_counts(const struct coverage *c);

/*
 * An engine that forwards every call to `inner` and counts the coverage of its
 * routers (through inner's router_state); if `reference` is not NULL (the C model of
 * a cosimulation), its routers are counted too, and the two sets of counts are
 * compared after the run.  0, or -1 if memory ran out.
 */
int coverage_wrap(struct engine *outer, const struct engine *inner, const struct router_params *p,
		  struct network *reference);
struct engine *coverage_inner(struct engine *outer);
/* The engine's counts (the reference's too, or NULL); NULL if a read failed. */
const uint64_t *coverage_wrap_counts(const struct engine *outer, const uint64_t **reference);
const struct cov_space *coverage_wrap_space(const struct engine *outer);
void coverage_unwrap(struct engine *outer);

#endif
