/* SPDX-License-Identifier: MIT */
/*
 * common.h - helpers shared by the algorithm drivers (not part of the public
 * interface, which is algos.h).
 *
 * Most drivers here are "tree broadcasts": a node that obtains the message (the root
 * at cycle 0, any other node when the message addressed to it arrives) makes an
 * ordered list of sends that depends only on the node and on a small tag carried by
 * the message it received (the subcube or segment it is now responsible for, the
 * step it joined at).  The list is cut into groups: group g+1 is sent when every
 * send of group g has left the NI (SEND_DONE), which models the papers' "steps" of
 * an all-port node; in one-port mode every send has its own group and the single
 * injection channel serialises them anyway.
 *
 * The same plan function drives the simulation (tb_start / tb_event) and an
 * analytic evaluation of the schedule (tb_eval) under the contention-free latency
 * model of docs/microarchitecture.md section 9:
 *   a send called at cycle c on a channel free from cycle f starts at s = max(c, f),
 *   offers its head at s + t_s - 1, its tail leaves the NI at s + t_s + L - 2
 *   (SEND_DONE and channel free at s + t_s + L - 1), the head reaches a node k hops
 *   away at s + t_s + k and the tail at s + t_s + k + L - 1.
 * The simulated cycles equal tb_eval's exactly iff no message ever waits in the
 * network (no link or ejection conflict), which is what the conflict-free
 * algorithms claim.
 */
#ifndef WORMCAST_ALGOS_COMMON_H
#define WORMCAST_ALGOS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algos.h"

/* ---- small helpers ---- */

/* Data word i of a message identified by (a, b): deterministic, masked to W bits. */
uint64_t algo_word(uint32_t a, uint32_t b, uint32_t i, unsigned width);
static inline int algo_words(const struct algo_params *p) { return p->flits - 1; }
static inline bool algo_is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }
/* floor(log2 x) for x >= 1. */
static inline int algo_log2(unsigned x) { return 31 - __builtin_clz(x); }
/* ceil(log2 x) for x >= 1. */
static inline int algo_ceil_log2(unsigned x) { return x <= 1 ? 0 : algo_log2(x - 1) + 1; }

/* Common supports() checks; 0 or -1 with one line in err. */
int algo_need_hypercube(const struct algo_params *p, const char *name, char *err, size_t len);
int algo_need_mesh(const struct algo_params *p, const char *name, char *err, size_t len);

/*
 * Grama et al.'s cost of a binomial tree on Q_d, (t_s + m t_w) log p, for the broadcast
 * (Algorithm 4.2) and its dual, the reduction (Algorithm 4.3): every step is one hop.
 */
double binomial_tree_predict(const struct algo_params *p, char *formula, size_t len);

/* ---- tree broadcasts ---- */

#define TB_MAX_SENDS 512

struct tb_send {
	int dest;		/* R: destination; ignored for B */
	int group;		/* non-decreasing along the list */
	bool bcast;		/* a B message (replication tree of the sender) */
	bool ir;		/* R with intermediate reception */
	uint64_t tag;		/* handed to the receiver's plan */
};

struct tb_ops {
	/*
	 * The sends that node makes once it holds the message it received with tag
	 * (root_tag at the root).  Returns how many were written into out (<= max), or
	 * -1 if the plan does not fit.  Must be a pure function of its arguments.
	 */
	int (*plan)(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		    int max);
	uint64_t root_tag;
	/*
	 * Forward when the head of a message addressed to the node arrives (cut-through
	 * at the NI) instead of when its tail has arrived.  The driver then checks at the
	 * tail that the flits arrived back to back (tail = head + L - 1), which
	 * guarantees that no forwarded flit left before it had arrived.
	 */
	bool cut_through;
};

/* Driver state; also usable as the ctx of struct algorithm. */
void *tb_create(const struct algo_params *p, const struct tb_ops *ops);
void tb_destroy(void *ctx);
void tb_start(void *ctx, struct sim *s);
void tb_event(void *ctx, struct sim *s, const struct sim_event *ev);
/* Every node other than the root received the root's data exactly once. */
int tb_check(void *ctx, const struct sim *s, char *err, size_t len);

/* The schedule under the contention-free latency model. */
struct tb_eval_result {
	uint64_t cycles;	/* last tail arrival (the root starts at cycle 0) */
	/*
	 * The chain of sends that ends last: how many start-ups it pays (its own sends
	 * and the ones it waits behind) and how many header hops.  Store-and-forward:
	 * cycles = startups * (t_s + L - 1) + hops; cut-through: startups * t_s + hops +
	 * L - 1.
	 */
	int chain_startups;
	int chain_hops;
	int messages;		/* sends in the whole schedule */
	bool complete;		/* every node is reached exactly once */
};
int tb_eval(const struct algo_params *p, const struct tb_ops *ops, struct tb_eval_result *r);
/* tb_eval as a struct algorithm schedule(): the cycles, and the chain as text. */
double tb_schedule(const struct algo_params *p, const struct tb_ops *ops, char *text, size_t len);

#endif
