/* SPDX-License-Identifier: MIT */
/*
 * trace.h - trace-driven traffic: messages read from a text file, one per line, each
 * sent by its source's NI at the cycle the line gives (docs/traces.md).
 *
 *   <cycle> <source> R <dest> <flits> [ir]
 *   <cycle> <source> B <flits>
 *
 * Lines are sent in file order, each at max(its cycle, the cycle the previous line
 * was sent).  Broadcasts go through bcast_gate.h: a B line waits until the network
 * has drained, and the lines after it wait until it has been delivered everywhere.
 */
#ifndef WORMCAST_TRACE_H
#define WORMCAST_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "latency.h"
#include "sim.h"

#define TRACE_MAX_FLITS (1 << 20)
#define TRACE_MAX_CYCLE 100000000ull	/* a line's cycle; the model does not skip idle cycles */
#define TRACE_MAX_BYTES (1ull << 30)	/* the largest trace file read */

struct trace_entry {
	int line;		/* line number in the file, from 1 */
	uint64_t cycle;		/* when the source is asked to send */
	int source;
	enum hdr_type type;
	bool ir;
	int dest;		/* R only; -1 for B */
	int len;		/* flits */
	int msg;		/* message id once sent, else -1 */
};

struct trace;

/*
 * Read and check a trace for topology t.  On error, NULL and one line into err:
 * "FILE:LINE: what is wrong" (or "FILE: ..." for the file as a whole), or exactly
 * "out of memory".  Lines end with LF, CR LF or CR (util/textfile.h).
 */
struct trace *trace_load(const char *path, const struct topology *t, char *err, size_t errlen);
/* The same for a trace in memory (len bytes; name in messages): the fuzzers' entry. */
struct trace *trace_parse(const char *name, const char *text, size_t len,
			  const struct topology *t, char *err, size_t errlen);
void trace_destroy(struct trace *tr);

int trace_count(const struct trace *tr);
const struct trace_entry *trace_entry(const struct trace *tr, int i);

/* A driver that sends the trace's messages. */
void trace_driver(struct trace *tr, struct driver *d);

/* The first failed send (should not happen for a checked trace), or "". */
const char *trace_error(const struct trace *tr);

/* Whether entry e was delivered whole to every receiver, and when (last tail). */
bool trace_delivered(const struct trace_entry *e, const struct sim *s, uint64_t *cycle);

struct trace_stats {
	uint64_t messages;	/* lines */
	uint64_t broadcasts;
	uint64_t sent;		/* send calls made */
	uint64_t delivered;	/* messages delivered whole to every receiver */
	/* Latency: send call to the last tail arrival, over delivered messages. */
	struct latency_summary latency;
	uint64_t max_send_delay;	/* largest (send cycle - trace cycle) */
};
/* Returns 0, or -1 if out of memory. */
int trace_get_stats(const struct trace *tr, const struct sim *s, struct trace_stats *st);

/*
 * One CSV row per line of the trace, with a header:
 * line,cycle,source,type,dest,flits,send_cycle,delivered_cycle,latency
 * Returns 0, or -1 on a write error.
 */
int trace_write_csv(const struct trace *tr, const struct sim *s, FILE *out);

#endif
