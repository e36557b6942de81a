/* SPDX-License-Identifier: MIT */
/*
 * engines.c - the engines a run can use: the C model (with the model's own VCD), and,
 * when cosim/ is built, the Verilated RTL and the cosimulation of both.  An FST file
 * is written as a VCD and converted with GTKWave's vcd2fst.
 */
#include "engines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "waves.h"
#ifdef WORMCAST_HAVE_RTL
#include "rtl_engine.h"
#endif

struct engine_box {
	struct engine_options opt;
	struct engine engine;		/* what the simulation drives */
	struct engine model;		/* the model engine under the waves wrapper */
	bool waves;			/* engine is the waves wrapper of model */
	bool rtl;			/* engine is an RTL or cosim engine */
	char vcd_path[4096];		/* the VCD written (a temporary one for --fst) */
};

static bool is(const char *a, const char *b) { return strcmp(a, b) == 0; }

int engine_options_check(const struct engine_options *o, char *err, size_t errlen)
{
	if (!is(o->name, "model") && !is(o->name, "rtl") && !is(o->name, "cosim")) {
		snprintf(err, errlen, "unknown engine '%s' (expected model, rtl or cosim)", o->name);
		return -1;
	}
	if (o->vcd && o->fst) {
		snprintf(err, errlen, "give --vcd or --fst, not both");
		return -1;
	}
	if ((o->network_top || o->inject_bug) && is(o->name, "model")) {
		snprintf(err, errlen, "--rtl-top and --inject-bug need --engine rtl or cosim");
		return -1;
	}
#ifndef WORMCAST_HAVE_RTL
	if (!is(o->name, "model")) {
		snprintf(err, errlen, "engine '%s' is not available: this build has no RTL (WORMCAST_RTL=OFF)",
			 o->name);
		return -1;
	}
#endif
	return 0;
}

struct engine_box *engine_create(const struct engine_options *o, const struct sim_config *cfg,
				 char *err, size_t errlen)
{
	struct engine_box *b = calloc(1, sizeof(*b));
	const char *path = o->vcd;

	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->opt = *o;
	if (o->fst) {
		snprintf(b->vcd_path, sizeof(b->vcd_path), "%s.tmp.vcd", o->fst);
		path = b->vcd_path;
	} else if (o->vcd) {
		snprintf(b->vcd_path, sizeof(b->vcd_path), "%s", o->vcd);
	}

	if (path) {
		/* Refuse an unwritable path here: Verilator's tracer would abort on it. */
		FILE *f = fopen(path, "w");

		if (!f) {
			snprintf(err, errlen, "cannot write waveform '%s'", path);
			free(b);
			return NULL;
		}
		fclose(f);
	}
	if (is(o->name, "model")) {
		struct router_params p;

		sim_config_router_params(cfg, &p);

		/* The network copies what it needs: it does not point into cfg. */
		if (model_engine_create(&b->model, &p)) {
			snprintf(err, errlen, "out of memory");
			free(b);
			return NULL;
		}
		b->engine = b->model;
		if (path) {
			if (waves_wrap(&b->engine, &b->model, model_engine_network(&b->model), path)) {
				snprintf(err, errlen, "cannot write waveform '%s'", path);
				model_engine_destroy(&b->model);
				free(b);
				return NULL;
			}
			b->waves = true;
		}
		return b;
	}
#ifdef WORMCAST_HAVE_RTL
	{
		struct rtl_engine_options ro = {
			.cosim = is(o->name, "cosim"), .network_top = o->network_top,
			.inject_bug = o->inject_bug, .vcd = path, .mismatch_vcd = o->mismatch_vcd,
		};

		if (rtl_engine_create(&b->engine, cfg, &ro, err, errlen)) {
			free(b);
			return NULL;
		}
		b->rtl = true;
		return b;
	}
#else
	snprintf(err, errlen, "engine '%s' is not available in this build", o->name);
	free(b);
	return NULL;
#endif
}

struct engine *engine_of(struct engine_box *b)
{
	return &b->engine;
}

/* vcd2fst IN OUT; 0 on success. */
static int convert_to_fst(const char *vcd, const char *fst)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("vcd2fst", "vcd2fst", vcd, fst, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

void engine_finish(struct engine_box *b, struct engine_report *r)
{
	memset(r, 0, sizeof(*r));
	r->engine = b->opt.name;
	if (b->waves) {
		struct engine outer = b->engine;

		if (waves_close(&outer))
			snprintf(r->error, sizeof(r->error), "writing waveform '%s' failed", b->vcd_path);
		b->engine = b->model;
		b->waves = false;
	}
#ifdef WORMCAST_HAVE_RTL
	if (b->rtl) {
		struct rtl_engine_report rr;

		rtl_engine_get_report(&b->engine, &rr);
		r->compared = is(b->opt.name, "cosim");
		r->cycles_compared = rr.cycles_compared;
		r->signals_compared = rr.signals_compared;
		r->mismatches = rr.mismatches;
		snprintf(r->detail, sizeof(r->detail), "%s", rr.first_mismatch);
		snprintf(r->rtl_kind, sizeof(r->rtl_kind), "%s", rr.rtl_kind);
		/* Closing the trace happens when the engine goes; do it now for vcd2fst. */
		rtl_engine_destroy(&b->engine);
		b->rtl = false;
	}
#endif
	if (b->opt.fst && !r->error[0]) {
		if (convert_to_fst(b->vcd_path, b->opt.fst))
			snprintf(r->error, sizeof(r->error), "vcd2fst could not convert '%s' to '%s'",
				 b->vcd_path, b->opt.fst);
		unlink(b->vcd_path);
	}
}

void engine_destroy(struct engine_box *b)
{
	if (!b)
		return;
	if (b->waves) {
		struct engine outer = b->engine;

		waves_close(&outer);
		b->engine = b->model;
	}
#ifdef WORMCAST_HAVE_RTL
	if (b->rtl)
		rtl_engine_destroy(&b->engine);
#endif
	if (is(b->opt.name, "model"))
		model_engine_destroy(&b->model);
	free(b);
}

void engine_report_json(const struct engine_report *r, cJSON *obj)
{
	if (!r->compared) {
		cJSON_AddNullToObject(obj, "cycles_compared");
		cJSON_AddNullToObject(obj, "signals_compared");
		cJSON_AddNullToObject(obj, "mismatches");
	} else {
		cJSON_AddNumberToObject(obj, "cycles_compared", (double)r->cycles_compared);
		cJSON_AddNumberToObject(obj, "signals_compared", (double)r->signals_compared);
		cJSON_AddNumberToObject(obj, "mismatches", (double)r->mismatches);
	}
	if (r->rtl_kind[0])
		cJSON_AddStringToObject(obj, "rtl", r->rtl_kind);
	if (r->detail[0])
		cJSON_AddStringToObject(obj, "first_mismatch", r->detail);
	if (r->error[0])
		cJSON_AddStringToObject(obj, "waveform_error", r->error);
}

void engine_report_print(const struct engine_report *r, FILE *out)
{
	if (r->compared && !r->mismatches)
		fprintf(out, "  cosim (%s): PASS, %llu cycles and %llu signal values compared, 0 mismatches\n",
			r->rtl_kind, (unsigned long long)r->cycles_compared,
			(unsigned long long)r->signals_compared);
	else if (r->compared)
		fprintf(out, "  cosim (%s): FAIL, %llu mismatching signal values; first: %s\n",
			r->rtl_kind, (unsigned long long)r->mismatches, r->detail);
	if (r->error[0])
		fprintf(out, "  waveform: %s\n", r->error);
}

void engine_list_json(cJSON *obj)
{
	cJSON *a = cJSON_AddArrayToObject(obj, "engines");

	cJSON_AddItemToArray(a, cJSON_CreateString("model"));
#ifdef WORMCAST_HAVE_RTL
	cJSON_AddItemToArray(a, cJSON_CreateString("rtl"));
	cJSON_AddItemToArray(a, cJSON_CreateString("cosim"));
	cJSON_AddStringToObject(obj, "rtl_configurations", rtl_engine_configurations());
#endif
}

void engine_list_print(FILE *out)
{
#ifdef WORMCAST_HAVE_RTL
	fprintf(out, "engines: model, rtl, cosim; RTL configurations built:\n");
	for (const char *s = rtl_engine_configurations(); *s;) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);

		fprintf(out, "  %.*s\n", n, s);
		s += n + (nl ? 1 : 0);
	}
#else
	fprintf(out, "engines: model (this build has no RTL)\n");
#endif
}
