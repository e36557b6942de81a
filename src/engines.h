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
	const char *name;		/* "model", "rtl" or "cosim" */
	const char *vcd;		/* waveform files, or NULL */
	const char *fst;
	bool network_top;		/* RTL: the generate-loop top, not the router array */
	int inject_bug;			/* RTL: a deliberately broken build (tests) */
	const char *mismatch_vcd;	/* cosim: the window around a mismatch */
};

struct engine_report {
	const char *engine;
	bool compared;			/* a cosimulation: the counts below mean something */
	uint64_t cycles_compared;
	uint64_t signals_compared;
	uint64_t mismatches;
	char detail[1024];		/* first mismatch, or empty */
	char rtl_kind[32];
	char error[4400];		/* a waveform that could not be written */
};

struct engine_box;

/* Check the options; one line into err and -1 if they are wrong. */
int engine_options_check(const struct engine_options *o, char *err, size_t errlen);
struct engine_box *engine_create(const struct engine_options *o, const struct sim_config *cfg,
				 char *err, size_t errlen);
struct engine *engine_of(struct engine_box *b);
/* Close waveforms and fill the report (call once, after the run). */
void engine_finish(struct engine_box *b, struct engine_report *r);
void engine_destroy(struct engine_box *b);

void engine_report_json(const struct engine_report *r, cJSON *obj);
void engine_report_print(const struct engine_report *r, FILE *out);
void engine_list_json(cJSON *obj);
void engine_list_print(FILE *out);

#endif
