/* SPDX-License-Identifier: MIT */
/*
 * engines.h - choosing the engine of a run: the C model, the RTL (Verilator), both in
 * lockstep (cosimulation), or both with the RTL under the SystemC kernel, with
 * optional waveforms; and the cache of RTL builds those engines use.  The engine writes into output
 * streams it is given (src/outputs.h): it creates no file of its own but the scratch
 * VCD an FST is converted from.
 */
#ifndef WORMCAST_ENGINES_H
#define WORMCAST_ENGINES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "outfile.h"
#include "sim.h"

struct engine_options {
	const char *name;		/* "model", "rtl", "cosim" or "systemc" */
	bool vcd, fst, mismatch_vcd;	/* outputs asked for (checked with the engine) */
	bool network_top;		/* RTL: the generate-loop top, not the router array */
	bool compare_outputs;		/* cosim: compare the output and credit registers only */
	int inject_bug;			/* RTL: a deliberately broken build (tests) */
};

/* Where the engine writes; NULL where nothing was asked for. */
struct engine_outputs {
	struct outfile *vcd;		/* the waveform as VCD */
	struct outfile *fst;		/* the waveform as FST (a VCD converted by vcd2fst) */
	struct outfile *mismatch_vcd;	/* cosim: the cycles around the first mismatch */
	struct outfile *coverage;	/* the functional coverage of the run (src/coverage.h) */
};

struct engine_report {
	const char *engine;
	bool compared;			/* a cosimulation: the counts below mean something */
	uint64_t cycles_compared;
	uint64_t signals_compared;	/* register values compared */
	bool compared_all;		/* every register of section 6, not only the outputs */
	uint64_t mismatches;
	char detail[1024];		/* first mismatch, or empty */
	char rtl_kind[32];
	bool window_written;		/* the mismatch window went to mismatch_vcd */
	/* cosim with coverage: the model's and the RTL's counts differ (a failed check) */
	char coverage_mismatch[256];
	char error[512];		/* a waveform that could not be written, or empty */
	bool no_memory;			/* error is an allocation failure */
};

struct engine_box;

/* The engine compares the model with the RTL (cosim, systemc). */
bool engine_compares(const char *name);
/* Check the options; one line into err and -1 if they are wrong. */
int engine_options_check(const struct engine_options *o, char *err, size_t errlen);
/*
 * The engine, writing into out.  NULL with one line in err; *bad_input tells a bad
 * request (a value the RTL does not have: exit status 2) from a failure (memory, a
 * waveform that cannot be written, an RTL build that failed: 1).  The RTL of a
 * configuration not in the cache is built here, with a line on stderr.
 */
struct engine_box *engine_create(const struct engine_options *o, const struct engine_outputs *out,
				 const struct sim_config *cfg, bool *bad_input, char *err,
				 size_t errlen);
struct engine *engine_of(struct engine_box *b);
/*
 * After the run: close the waveforms (an FST is converted here) and fill the report.
 * Call once; the outputs are then complete and may be committed.
 */
void engine_finish(struct engine_box *b, struct engine_report *r);
void engine_destroy(struct engine_box *b);

/* JSON: cycles_compared, signals_compared, mismatches (null unless compared), ... */
int engine_report_json(const struct engine_report *r, cJSON *obj);
void engine_report_print(const struct engine_report *r, FILE *out);
/* list: the engines and the RTL builds in the cache. */
int engine_list_json(cJSON *obj);
void engine_list_print(FILE *out);
/* The RTL builds in the cache ("rtl_cache" in JSON). */
int engine_cache_json(cJSON *obj);
void engine_cache_print(FILE *out);
/* Empty the cache: 0 with what was removed from dir, or -1 with one line in err. */
int engine_cache_clear(int *removed, uint64_t *bytes, char *dir, size_t dirlen, char *err,
		       size_t errlen);

#endif
