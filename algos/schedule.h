/* SPDX-License-Identifier: MIT */
/*
 * schedule.h - an algorithm's plan evaluated without the network, under the
 * contention-free latency model of docs/microarchitecture.md section 9:
 *   a send called at cycle c on a channel free from cycle f starts at s = max(c, f);
 *   SEND_DONE, and the channel free again, at s + t_s + L - 1;
 *   the head reaches a node k hops away at s + t_s + k, the tail at s + t_s + k + L - 1
 * (k = the e-cube / XY route's hops to that receiver; a B message reaches every node at
 * its route distance, T_r later for each router on the way that replicates and
 * forwards it).  With T_r > 0 the root router also holds a broadcast's head, which can
 * delay its SEND_DONE: the evaluator does not model that.  The same skeleton runs the
 * same plan on these events, so the
 * result is what the network would give if no message ever waited for a link or an
 * ejection channel: measured cycles equal it exactly iff there was no contention.
 */
#ifndef WORMCAST_ALGOS_SCHEDULE_H
#define WORMCAST_ALGOS_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "algos.h"

struct schedule_result {
	bool ok;		/* the plan completed and every node holds what it must */
	uint64_t cycles;	/* last tail arrival - first send call */
	/*
	 * The chain of sends that ends last: start-ups it pays (its own sends and the
	 * ones it queued behind), header hops, and the flits after the head of every
	 * message it waited for, with the replication holds (T_r) of broadcast heads:
	 * cycles = startups * t_s + hops + flits.
	 */
	int startups, hops;
	uint64_t flits;
	uint64_t messages;
	char text[256];		/* the chain in words, or why the plan failed */
};

/*
 * 0, or -1 if the evaluation could not run (out of memory); r->ok says if the plan
 * worked.  In closed form where the algorithm has one (algorithm.schedule).
 */
int algo_schedule(const struct algorithm *a, const struct algo_params *p,
		  struct schedule_result *r);
/* r->text of a plan that worked, from r's chain. */
void schedule_describe(struct schedule_result *r);

/* A send of the plan, as the contention-free schedule makes it (wormcast tree). */
struct scheduled_send {
	int msg;		/* dense from 0, in the order the sends are made */
	int source;
	int dest;		/* R: the destination; B: -1 */
	bool bcast, ir;
	int len;		/* flits */
	uint64_t call;		/* the cycle the node asked to send */
	uint64_t start;		/* the cycle it got its injection channel */
	uint64_t done;		/* SEND_DONE: the channel is free again */
};

/* What the schedule tells as it goes: every send, and every head reaching a receiver. */
struct schedule_trace {
	void *ctx;
	void (*send)(void *ctx, const struct scheduled_send *s);
	void (*head)(void *ctx, int msg, int node, uint64_t cycle);
};

/* The plan evaluated event by event, telling t (NULL: nothing) about every send and arrival. */
int algo_schedule_traced(const struct algorithm *a, const struct algo_params *p,
			 struct schedule_result *r, const struct schedule_trace *t);

#endif
