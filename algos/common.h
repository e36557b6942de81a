/* SPDX-License-Identifier: MIT */
/*
 * common.h - what every algorithm file includes: the skeleton (plans), the schedule
 * evaluation, and small helpers for supports() and predict().
 */
#ifndef WORMCAST_ALGOS_COMMON_H
#define WORMCAST_ALGOS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algos.h"
#include "schedule.h"
#include "skeleton.h"

static inline bool algo_is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }
/* floor(log2 x) for x >= 1. */
static inline int algo_log2(unsigned x) { return 31 - __builtin_clz(x); }
/* ceil(log2 x) for x >= 1. */
static inline int algo_ceil_log2(unsigned x) { return x <= 1 ? 0 : algo_log2(x - 1) + 1; }

/* Payload words per block of a default-shaped run: mu = L - 1. */
static inline int algo_mu(const struct algo_params *p) { return p->flits - 1; }

/* Common supports() checks; 0 or -1 with one line in err. */
int algo_need_mesh(const struct algo_params *p, const char *name, char *err, size_t len);
int algo_need_pow2_mesh(const struct algo_params *p, const char *name, char *err, size_t len);
/* A mesh or a torus (an r x c grid, node row * c + col); the same with r, c powers of two. */
int algo_need_grid(const struct algo_params *p, const char *name, char *err, size_t len);
int algo_need_pow2_grid(const struct algo_params *p, const char *name, char *err, size_t len);
/*
 * Plans whose routes or whose conflict-freedom rest on ascending routes (e-cube, XY):
 * anything else is refused with "<why>: use --route-order ascending".
 */
int algo_need_ascending_routes(const struct algo_params *p, const char *why, char *err,
			       size_t len);

/*
 * Tree broadcasts: does `node` act now, and on which tag?  The root acts at the start
 * (with root_tag), any other node when a message addressed to it arrives (with that
 * message's tag); IR stops and the start of other nodes do nothing.
 */
static inline bool tree_turn(const struct algo_params *p, int node, const struct receipt *r,
			     uint64_t root_tag, uint64_t *tag)
{
	if (!r) {
		*tag = root_tag;
		return node == p->root;
	}
	*tag = r->tag;
	return r->addressed;
}

/*
 * The root's one send of every block in a B message at the start, nothing else: the
 * replication tree (pbcast) or, with path, the path broadcast (hampath).
 */
int plan_root_broadcast(const struct algo_params *p, int node, const struct receipt *r,
			struct plan *pl, bool path);

/* The formula_source of a formula derived for this router, documented at the anchor. */
#define DERIVED(anchor) "derived (docs/algorithms.md#" anchor ")"

/* The prediction itself: its cycles, whether exact, where it comes from, the formula. */
void predict_set(struct prediction *o, double cycles, bool exact, const char *source,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The source's own formula beside a derived prediction. */
void predict_published(struct prediction *o, double cycles, const char *source,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Lecture 11's two-way ring AAS time for z nodes (its own formula differs for z even
 * and odd) as the published formula beside a derived prediction; SOURCE is named
 * with the parity appended.
 */
void predict_ring_two_way_published(struct prediction *o, long long z, long long ts,
				    long long mu, const char *source);
/* The prediction is the contention-free schedule of the plan (exact if conflict-free). */
void predict_schedule(struct prediction *o, const struct schedule_result *s, bool exact,
		      const char *source);

/*
 * RSbcast's halving (rsbcast.c) on the linear array of node indices, for a broadcast
 * or scatter from R: node x holds [*lo, *hi] and sends to *y the other half, [*ylo,
 * *yhi]; [*lo, *hi] becomes x's own half.  rs_holds_end(): x may hold [lo, hi] (the
 * root, or the end of the segment that faces away from the root).
 */
void rs_halve(int R, int x, int *lo, int *hi, int *y, int *ylo, int *yhi);
/*
 * Recursive doubling's halving on a line (rdmesh.c, Grama et al. 4.1.1): node x holds
 * [*lo, *hi] and sends to *y, the node of the other half at x's own offset (clamped),
 * the other half [*ylo, *yhi]; [*lo, *hi] becomes x's own half.
 */
void rd_halve(int x, int *lo, int *hi, int *y, int *ylo, int *yhi);
bool rs_holds_end(int R, int x, int lo, int hi);

/*
 * Grama et al. 4.1's binomial tree on Q_d, for the broadcast (Algorithm 4.2) and its
 * dual, the reduction (Algorithm 4.3): (t_s + t_w m) log p, exact with one hop per step.
 */
void binomial_tree_predict(const struct algo_params *p, const struct schedule_result *s,
			   struct prediction *o);

#endif
