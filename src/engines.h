/* SPDX-License-Identifier: MIT */
/*
 * engines.h - choosing the engine of a run: the C model, the RTL (Verilator) or both
 * in lockstep (cosimulation), with optional waveforms.
 */
#ifndef WORMCAST_ENGINES_H
#define WORMCAST_ENGINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "sim.h"

struct engine_options {
	const char *name;	/* "model", "rtl" or "cosim" */
	const char *vcd;	/* waveform files, or NULL */
	const char *fst;
};

struct engine_report {
	const char *engine;
	uint64_t cycles_compared;
	uint64_t signals_compared;
	uint64_t mismatches;
	char detail[1024];	/* first mismatch, or empty */
};

int engine_options_parse(const char *name, const char *vcd, const char *fst,
			 struct engine_options *o, char *err, size_t errlen);
int engine_create(const struct engine_options *o, const struct sim_config *cfg,
		  struct engine *e, char *err, size_t errlen);
/* Close waveforms and fill the report (before engine_destroy). */
void engine_finish(struct engine *e, struct engine_report *r);
void engine_destroy(struct engine *e);

void engine_report_json(const struct engine_report *r, cJSON *obj);
void engine_report_print(const struct engine_report *r, FILE *out);
void engine_list_json(cJSON *obj);
void engine_list_print(FILE *out);

#endif
