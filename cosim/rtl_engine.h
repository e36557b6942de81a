/* SPDX-License-Identifier: MIT */
/*
 * rtl_engine.h - the RTL engine and the cosimulation engine, for C callers.
 *
 * "rtl": the Verilated RTL alone drives the NIs.  "cosim": the C model and the RTL
 * run in lockstep from the same NI inputs; after every clock edge every router's
 * output registers (valid and flit of every link and ejection channel) and credit
 * registers (every link and injection input) are compared.  The first difference
 * stops the run a few cycles later with a report that names both sides, and a VCD of
 * the cycles around it.
 */
#ifndef WORMCAST_RTL_ENGINE_H
#define WORMCAST_RTL_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "sim.h"

struct rtl_engine_options {
	int cosim;			/* 1: model and RTL in lockstep; 0: RTL alone */
	int network_top;		/* 1: the generate-loop top instead of the router array */
	int inject_bug;			/* 0: the correct RTL */
	const char *vcd;		/* Verilator trace of the RTL, or NULL */
	const char *mismatch_vcd;	/* where the window around a mismatch goes */
};

struct rtl_engine_report {
	uint64_t cycles_compared;
	uint64_t signals_compared;
	uint64_t mismatches;
	char first_mismatch[1024];
	char rtl_kind[32];
};

int rtl_engine_create(struct engine *e, const struct sim_config *cfg,
		      const struct rtl_engine_options *o, char *err, size_t errlen);
void rtl_engine_get_report(const struct engine *e, struct rtl_engine_report *r);
/* The C model inside a cosim engine (NULL for the RTL engine). */
struct network *rtl_engine_model(const struct engine *e);
void rtl_engine_destroy(struct engine *e);
/* The RTL configurations this build has, one per line. */
const char *rtl_engine_configurations(void);

#ifdef __cplusplus
}
#endif

#endif
