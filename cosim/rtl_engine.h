/* SPDX-License-Identifier: MIT */
/*
 * rtl_engine.h - the RTL engine and the cosimulation engine, for C callers.
 *
 * "rtl": the Verilated RTL alone drives the NIs.  "cosim": the C model and the RTL
 * run in lockstep from the same NI inputs; after every clock edge every register of
 * every router (docs/microarchitecture.md section 6: FIFO counts, pointers and live
 * entries, route state, credit registers, replication holds, output registers,
 * credit counters, the round-robin counter) is compared, or with compare_outputs only
 * the output registers (valid and flit of every link and ejection channel) and credit
 * registers (every link and injection input).  The first difference stops the run a
 * few cycles later with a report that names the register and both sides, and a VCD
 * of the cycles around it (into mismatch_vcd, if given).
 *
 * Both engines read the RTL routers' architectural state for the deadlock report
 * (engine_ops.router_state, model/deadlock.h).  The RTL alone cannot count link
 * conflicts (its arbiters are not visible): its conflict_cycles operation is NULL.
 */
#ifndef WORMCAST_RTL_ENGINE_H
#define WORMCAST_RTL_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>

#include "sim.h"

struct rtl_engine_options {
	int cosim;			/* 1: model and RTL in lockstep; 0: RTL alone */
	int compare_outputs;		/* cosim: 1 compares the output and credit registers
					 * only; 0 every register of section 6 */
	int network_top;		/* 1: the generate-loop top instead of the router array */
	int systemc;			/* 1: the network top under the SystemC kernel */
	int inject_bug;			/* 0: the correct RTL */
	FILE *vcd;			/* Verilator's trace of the RTL goes here, or NULL */
	FILE *mismatch_vcd;		/* the window around a mismatch goes here, or NULL */
};

struct rtl_engine_report {
	uint64_t cycles_compared;
	uint64_t signals_compared;
	uint64_t mismatches;
	char first_mismatch[1024];
	char rtl_kind[32];
	int window_written;		/* the mismatch window went to mismatch_vcd */
	int trace_error;		/* errno of a failed write of the trace, 0 if none */
	int window_error;		/* the same for the mismatch window */
};

/*
 * 0, or -1 with one line in err (the output of a tool that failed to build the RTL
 * is on stderr already); *bad_input is set when the request is wrong (a value the
 * RTL does not have, a second SystemC network), not the build or the run.  The RTL
 * of the configuration comes from the cache of builds, built first if needed
 * (rtl_cache.h).
 */
int rtl_engine_create(struct engine *e, const struct sim_config *cfg,
		      const struct rtl_engine_options *o, bool *bad_input, char *err, size_t errlen);
/* The first error writing the trace so far (an errno value), 0 if none. */
int rtl_engine_trace_error(const struct engine *e);
/* After the run: write the mismatch window, close the trace, fill the report. */
void rtl_engine_finish(struct engine *e, struct rtl_engine_report *r);
/* The C model inside a cosim engine (NULL for the RTL engine). */
struct network *rtl_engine_model(const struct engine *e);
void rtl_engine_destroy(struct engine *e);

#ifdef __cplusplus
}
#endif

#endif
