/* SPDX-License-Identifier: MIT */
/*
 * traffic.h - seeded random traffic: Bernoulli message arrivals at every node, uniform
 * random destinations, a mix of R, R+IR and B messages of fixed or random lengths.
 *
 * Broadcasts are serialised as Jeon & Kim prescribe (a broadcast holds its tree
 * until its tail passes, and concurrent broadcasts, or a broadcast and e-cube
 * unicasts, can deadlock), through bcast_gate.h: a B message is sent only when
 * nothing else is in flight, and no other message is sent until it has been
 * delivered everywhere.  A broadcast is the replication tree's, or (path_fraction)
 * the path broadcast (B with IR, docs/microarchitecture.md section 8; hypercubes and
 * meshes), which is deadlock-free alone and so under the same gate.
 */
#ifndef WORMCAST_TRAFFIC_H
#define WORMCAST_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "latency.h"
#include "sim.h"

struct traffic_params {
	double rate;		/* offered load, flits per node per cycle */
	int min_len, max_len;	/* message length in flits, uniform in [min, max] */
	uint64_t cycles;	/* injection window: sends happen in cycles [0, cycles) */
	double ir_fraction;	/* fraction of unicasts sent with IR */
	double b_fraction;	/* fraction of messages that are broadcasts */
	double path_fraction;	/* fraction of the broadcasts sent as path broadcasts */
	uint64_t seed;
	bool random_channel;	/* each message names a random injection channel */
};

struct traffic;

struct traffic *traffic_create(const struct traffic_params *p, const struct topology *t);
void traffic_destroy(struct traffic *t);
/* A driver that runs this traffic. */
void traffic_driver(struct traffic *t, struct driver *d);
/* The first send that failed, or the latencies' memory (the run has failed then), or "". */
const char *traffic_error(const struct traffic *t);

struct traffic_stats {
	uint64_t messages;
	uint64_t broadcasts;
	/*
	 * Flits of the messages handed to the NIs.  Arrivals while a broadcast holds the
	 * network are dropped, so with broadcasts this falls below the offered load.
	 */
	uint64_t flits_sent;
	uint64_t delivered;	/* messages delivered whole to every receiver */
	/* Send call to last tail arrival, over the delivered messages. */
	struct latency_summary latency;
};
/* Returns 0, or -1 if out of memory. */
int traffic_get_stats(const struct traffic *t, struct traffic_stats *st);

#endif
