/* SPDX-License-Identifier: MIT */
/*
 * ni.h - the network interfaces of all nodes (docs/microarchitecture.md section 9):
 * injection channels with start-up cost and credits, ejection channels with a
 * receive buffer, an optionally stalling sink and credit return.
 */
#ifndef WORMCAST_NI_H
#define WORMCAST_NI_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct ni;

struct ni *ni_create(int nodes, int channels, int depth, int startup, double sink_stall,
		     uint64_t seed, unsigned width);
void ni_destroy(struct ni *n);

/*
 * Queue message m (already numbered and checked) on m->channel at cycle now; the NI
 * keeps the pointer until m's tail is sent.
 */
int ni_enqueue(struct ni *n, struct message *m, uint64_t now);

/* A flit is on ejection channel (node, channel), at = node * channels + channel, now. */
void ni_arrival(struct ni *n, int at, int node, int channel);

/* The router returned a credit on injection channel (node, channel) for this cycle. */
void ni_credit_in(struct ni *n, int node, int channel);

/*
 * Drive cycle `now`: ejection credits and injection flits into the engine, sink
 * drains.  Messages whose tail was injected are appended to done[] (up to the count
 * returned).  Returns the number of flits injected or drained (progress).
 */
int ni_drive(struct ni *n, const struct engine *e, uint64_t now, struct message ***done,
	     int *n_done);

bool ni_out_of_memory(const struct ni *n);	/* an allocation failed in ni_drive() */
bool ni_idle(const struct ni *n);		/* nothing queued, sending or buffered */
bool ni_starting(const struct ni *n, uint64_t now);	/* a send is in its start-up */

#endif
