/* SPDX-License-Identifier: MIT */
/*
 * engines.c - the engines a run can use: the C model (with the model's own VCD), and,
 * when cosim/ is built, the Verilated RTL, the cosimulation of both, and the same
 * cosimulation with the RTL under the SystemC kernel.  The RTL of a configuration is
 * built on its first use and cached (cosim/rtl_cache.h).  An FST file
 * is written as a scratch VCD and converted with GTKWave's vcd2fst into a scratch FST,
 * which is then copied into the output (so a device or a FIFO can take it too); both
 * scratch files are removed.
 */
#include "engines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coverage_report.h"
#include "waves.h"
#ifdef WORMCAST_HAVE_RTL
#include "rtl_cache.h"
#include "rtl_engine.h"
#endif

struct engine_box {
	struct engine_options opt;
	struct engine_outputs out;
	struct engine engine;		/* the engine: the model (in waves), the RTL, cosim */
	struct engine model;		/* the model engine under the waves wrapper */
	struct engine outer;		/* the coverage wrapper of engine, if asked for */
	struct router_params params;	/* the routers', for the coverage file */
	struct topology topo;		/* params.topo points here */
	bool covered;			/* the simulation drives outer */
	bool waves;			/* engine is the waves wrapper of model */
	bool rtl;			/* engine is an RTL or cosim engine */
	FILE *wave;			/* the VCD stream: the output's, or the scratch file's */
	char *scratch;			/* the scratch VCD of an FST, or NULL */
};

static bool is(const char *a, const char *b) { return strcmp(a, b) == 0; }

bool engine_compares(const char *name)
{
	return is(name, "cosim") || is(name, "systemc");
}

int engine_options_check(const struct engine_options *o, char *err, size_t errlen)
{
	if (!is(o->name, "model") && !is(o->name, "rtl") && !engine_compares(o->name)) {
		snprintf(err, errlen, "unknown engine '%s' (expected model, rtl, cosim or systemc)",
			 o->name);
		return -1;
	}
	if (o->vcd && o->fst) {
		snprintf(err, errlen, "give --vcd or --fst, not both");
		return -1;
	}
	if ((o->network_top || o->inject_bug) && is(o->name, "model")) {
		snprintf(err, errlen, "--rtl-top and --inject-bug need --engine rtl, cosim or systemc");
		return -1;
	}
	if (o->mismatch_vcd && !engine_compares(o->name)) {
		snprintf(err, errlen, "--mismatch-vcd needs --engine cosim or systemc (only a "
			 "cosimulation has mismatches)");
		return -1;
	}
#ifndef WORMCAST_HAVE_RTL
	if (!is(o->name, "model")) {
		snprintf(err, errlen, "engine '%s' is not available: this build has no RTL (WORMCAST_RTL=OFF)",
			 o->name);
		return -1;
	}
#endif
#ifndef WORMCAST_HAVE_SYSTEMC
	if (is(o->name, "systemc")) {
		snprintf(err, errlen, "engine 'systemc' is not available: SystemC was not found when "
			 "wormcast was built (Debian's libsystemc-dev)");
		return -1;
	}
#endif
	return 0;
}

/* name found in a directory of $PATH. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");

	for (const char *p = path ? path : ""; *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char full[4096];

		snprintf(full, sizeof(full), "%.*s/%s", (int)n, n ? p : ".", name);
		if (access(full, X_OK) == 0)
			return true;
		p += n + (colon ? 1 : 0);
	}
	return false;
}

static void release(struct engine_box *b)
{
	if (b->wave && b->scratch)
		fclose(b->wave);
	if (b->scratch) {
		unlink(b->scratch);
		free(b->scratch);
	}
	free(b);
}

/* The stream the waveform goes to; 0, or -1 with err (*bad_input for a missing tool). */
static int open_wave(struct engine_box *b, bool *bad_input, char *err, size_t errlen)
{
	if (b->out.vcd) {
		b->wave = outfile_stream(b->out.vcd);
		return 0;
	}
	if (!b->out.fst)
		return 0;
	if (!on_path("vcd2fst")) {
		*bad_input = true;
		snprintf(err, errlen, "--fst needs GTKWave's vcd2fst, which is not on PATH (or use "
			 "--vcd)");
		return -1;
	}
	b->scratch = outfile_scratch(outfile_path(b->out.fst), ".vcd");
	b->wave = b->scratch ? fopen(b->scratch, "w") : NULL;
	if (!b->wave) {
		snprintf(err, errlen, "--fst: cannot write a scratch VCD for '%s': %s",
			 outfile_path(b->out.fst), strerror(errno));
		return -1;
	}
	return 0;
}

/* The waveform's name in messages. */
static const char *wave_name(const struct engine_box *b)
{
	return outfile_path(b->out.vcd ? b->out.vcd : b->out.fst);
}

/*
 * A waveform that cannot be written fails now, before the run: the header is out,
 * so a full disk or /dev/full has already said no.
 */
static int wave_written(struct engine_box *b, char *err, size_t errlen)
{
	int e = 0;

	if (!b->wave)
		return 0;
#ifdef WORMCAST_HAVE_RTL
	if (b->rtl)
		e = rtl_engine_trace_error(&b->engine);
#endif
	errno = 0;
	if (!e && (fflush(b->wave) || ferror(b->wave)))
		e = errno ? errno : EIO;
	if (!e)
		return 0;
	snprintf(err, errlen, "cannot write waveform '%s': %s", wave_name(b), strerror(e));
	return -1;
}

struct engine_box *engine_create(const struct engine_options *o, const struct engine_outputs *out,
				 const struct sim_config *cfg, bool *bad_input, char *err,
				 size_t errlen)
{
	struct engine_box *b = calloc(1, sizeof(*b));

	*bad_input = false;
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->opt = *o;
	b->out = *out;
	if (open_wave(b, bad_input, err, errlen)) {
		release(b);
		return NULL;
	}
	if (is(o->name, "model")) {
		struct router_params p;

		sim_config_router_params(cfg, &p);
		/* The network copies what it needs: it does not point into cfg. */
		if (model_engine_create(&b->model, &p)) {
			snprintf(err, errlen, "out of memory");
			release(b);
			return NULL;
		}
		b->engine = b->model;
		if (b->wave) {
			if (waves_wrap(&b->engine, &b->model, model_engine_network(&b->model),
				       b->wave)) {
				snprintf(err, errlen, "out of memory");
				model_engine_destroy(&b->model);
				release(b);
				return NULL;
			}
			b->waves = true;
		}
	} else {
#ifdef WORMCAST_HAVE_RTL
		struct rtl_engine_options ro = {
			.cosim = engine_compares(o->name), .systemc = is(o->name, "systemc"),
			.compare_outputs = o->compare_outputs,
			.network_top = o->network_top,
			.inject_bug = o->inject_bug, .vcd = b->wave,
			.mismatch_vcd = out->mismatch_vcd ? outfile_stream(out->mismatch_vcd) : NULL,
		};

		if (rtl_engine_create(&b->engine, cfg, &ro, bad_input, err, errlen)) {
			release(b);
			return NULL;
		}
		b->rtl = true;
#endif
	}
	if (wave_written(b, err, errlen)) {
		engine_destroy(b);
		return NULL;
	}
	if (out->coverage) {
		struct network *reference = NULL;

		sim_config_router_params(cfg, &b->params);
		b->topo = cfg->topo;
		b->params.topo = &b->topo;
#ifdef WORMCAST_HAVE_RTL
		if (b->rtl)
			reference = rtl_engine_model(&b->engine);
#endif
		if (coverage_wrap(&b->outer, &b->engine, &b->params, reference)) {
			engine_destroy(b);
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		b->covered = true;
	}
	return b;
}

struct engine *engine_of(struct engine_box *b)
{
	return b->covered ? &b->outer : &b->engine;
}

/*
 * The coverage file of the run; in a cosimulation, the model's counts and the RTL's
 * must be the same (they are counted by one classification from registers that the
 * comparison found equal, or, with --compare outputs, that it did not look at).
 */
static void finish_coverage(struct engine_box *b, struct engine_report *r)
{
	const uint64_t *ref, *counts = coverage_wrap_counts(&b->outer, &ref);
	const struct cov_space *sp = coverage_wrap_space(&b->outer);
	const char *by = ref ? "model and rtl" : b->rtl ? "rtl" : "model";
	cJSON *doc;

	if (!counts) {
		snprintf(r->error, sizeof(r->error), "--coverage: the %s engine cannot read its "
			 "routers' registers", b->opt.name);
		return;
	}
	for (int k = 0; ref && k < cov_bins(sp); k++)
		if (counts[k] != ref[k]) {
			char name[64];

			cov_bin_name(sp, k, name, sizeof(name));
			snprintf(r->coverage_mismatch, sizeof(r->coverage_mismatch),
				 "the model and the RTL count bin '%s' differently: model %llu, RTL "
				 "%llu", name, (unsigned long long)ref[k], (unsigned long long)counts[k]);
			break;
		}
	doc = coverage_document(sp, &b->params, counts, by);
	errno = 0;
	if (!doc || coverage_write(doc, outfile_stream(b->out.coverage)))
		snprintf(r->error, sizeof(r->error), "--coverage: cannot write '%s': %s",
			 outfile_path(b->out.coverage), strerror(doc && errno ? errno : ENOMEM));
	cJSON_Delete(doc);
}

/* vcd2fst IN OUT, its output thrown away; 0 on success. */
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
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The scratch VCD into the FST output: vcd2fst into a scratch FST, copied over. */
static void finish_fst(struct engine_box *b, struct engine_report *r)
{
	const char *name = outfile_path(b->out.fst);
	char *fst;
	int bad = fclose(b->wave);

	b->wave = NULL;
	if (bad) {
		snprintf(r->error, sizeof(r->error), "cannot write the scratch VCD of '%s': %s",
			 name, strerror(errno));
		return;
	}
	fst = outfile_scratch(name, ".fst");
	if (!fst) {
		snprintf(r->error, sizeof(r->error), "cannot write a scratch FST for '%s': %s", name,
			 strerror(errno));
		return;
	}
	if (convert_to_fst(b->scratch, fst))
		snprintf(r->error, sizeof(r->error), "vcd2fst could not convert the waveform for '%s'",
			 name);
	else if (outfile_copy_from(outfile_stream(b->out.fst), fst))
		snprintf(r->error, sizeof(r->error), "cannot write waveform '%s': %s", name,
			 strerror(errno));
	unlink(fst);
	free(fst);
}

void engine_finish(struct engine_box *b, struct engine_report *r)
{
	memset(r, 0, sizeof(*r));
	r->engine = b->opt.name;
	if (b->covered) {
		finish_coverage(b, r);
		coverage_unwrap(&b->outer);
		b->covered = false;
	}
	if (b->waves) {
		struct engine outer = b->engine;

		if (waves_close(&outer))
			snprintf(r->error, sizeof(r->error), "cannot write waveform '%s': %s",
				 wave_name(b), strerror(errno));
		b->engine = b->model;
		b->waves = false;
	}
#ifdef WORMCAST_HAVE_RTL
	if (b->rtl) {
		struct rtl_engine_report rr;

		/* Writes the mismatch window and closes the trace (vcd2fst needs it whole). */
		rtl_engine_finish(&b->engine, &rr);
		r->compared = engine_compares(b->opt.name);
		r->cycles_compared = rr.cycles_compared;
		r->signals_compared = rr.signals_compared;
		r->compared_all = r->compared && !b->opt.compare_outputs;
		r->mismatches = rr.mismatches;
		r->window_written = rr.window_written;
		snprintf(r->detail, sizeof(r->detail), "%s", rr.first_mismatch);
		snprintf(r->rtl_kind, sizeof(r->rtl_kind), "%s", rr.rtl_kind);
		if (rr.trace_error && !r->error[0])
			snprintf(r->error, sizeof(r->error), "cannot write waveform '%s': %s",
				 wave_name(b), strerror(rr.trace_error));
		if (rr.window_error && !r->error[0])
			snprintf(r->error, sizeof(r->error), "cannot write the mismatch window '%s': %s",
				 outfile_path(b->out.mismatch_vcd), strerror(rr.window_error));
	}
#endif
	if (b->scratch && b->wave && !r->error[0])
		finish_fst(b, r);
	r->no_memory = r->error[0] && strstr(r->error, strerror(ENOMEM));
}

void engine_destroy(struct engine_box *b)
{
	if (!b)
		return;
	if (b->covered)
		coverage_unwrap(&b->outer);
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
	release(b);
}

int engine_report_json(const struct engine_report *r, cJSON *obj)
{
	bool ok = true;

	if (!r->compared) {
		ok = cJSON_AddNullToObject(obj, "cycles_compared") &&
		     cJSON_AddNullToObject(obj, "signals_compared") &&
		     cJSON_AddNullToObject(obj, "mismatches");
	} else {
		ok = cJSON_AddNumberToObject(obj, "cycles_compared", (double)r->cycles_compared) &&
		     cJSON_AddNumberToObject(obj, "signals_compared", (double)r->signals_compared) &&
		     cJSON_AddNumberToObject(obj, "mismatches", (double)r->mismatches) &&
		     cJSON_AddStringToObject(obj, "compare", r->compared_all ? "all" : "outputs");
	}
	if (ok && r->rtl_kind[0])
		ok = cJSON_AddStringToObject(obj, "rtl", r->rtl_kind);
	if (ok && r->detail[0])
		ok = cJSON_AddStringToObject(obj, "first_mismatch", r->detail);
	if (ok && r->coverage_mismatch[0])
		ok = cJSON_AddStringToObject(obj, "coverage_mismatch", r->coverage_mismatch);
	return ok ? 0 : -1;
}

void engine_report_print(const struct engine_report *r, FILE *out)
{
	const char *what = r->compared_all ? "register values (every register)" :
			   "signal values (output and credit registers)";

	if (r->compared && !r->mismatches)
		fprintf(out, "  cosim (%s): PASS, %llu cycles and %llu %s compared, 0 mismatches\n",
			r->rtl_kind, (unsigned long long)r->cycles_compared,
			(unsigned long long)r->signals_compared, what);
	else if (r->compared)
		fprintf(out, "  cosim (%s): FAIL, %llu mismatching %s; first: %s\n",
			r->rtl_kind, (unsigned long long)r->mismatches,
			r->compared_all ? "register values" : "signal values", r->detail);
}

/* The engines of this build, in the order of --engine's choices. */
static const char *const engine_names[] = {
	"model",
#ifdef WORMCAST_HAVE_RTL
	"rtl", "cosim",
#ifdef WORMCAST_HAVE_SYSTEMC
	"systemc",
#endif
#endif
};

int engine_list_json(cJSON *obj)
{
	cJSON *a = cJSON_AddArrayToObject(obj, "engines");

	if (!a)
		return -1;
	for (size_t k = 0; k < sizeof(engine_names) / sizeof(engine_names[0]); k++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(engine_names[k])))
			return -1;
	return engine_cache_json(obj);
}

void engine_list_print(FILE *out)
{
	fprintf(out, "engines:");
	for (size_t k = 0; k < sizeof(engine_names) / sizeof(engine_names[0]); k++)
		fprintf(out, "%s %s", k ? "," : "", engine_names[k]);
#ifdef WORMCAST_HAVE_RTL
	fprintf(out, "\n");
	engine_cache_print(out);
#else
	fprintf(out, " (this build has no RTL)\n");
#endif
}

int engine_cache_json(cJSON *obj)
{
#ifdef WORMCAST_HAVE_RTL
	return rtl_cache_list_json(obj);
#else
	(void)obj;
	return 0;
#endif
}

void engine_cache_print(FILE *out)
{
#ifdef WORMCAST_HAVE_RTL
	rtl_cache_list_print(out);
#else
	fprintf(out, "this build has no RTL, so no RTL builds (WORMCAST_RTL=OFF)\n");
#endif
}

int engine_cache_clear(int *removed, uint64_t *bytes, char *dir, size_t dirlen, char *err,
		       size_t errlen)
{
#ifdef WORMCAST_HAVE_RTL
	return rtl_cache_clear(removed, bytes, dir, dirlen, err, errlen);
#else
	*removed = 0;
	*bytes = 0;
	snprintf(dir, dirlen, "(none)");
	snprintf(err, errlen, "this build has no RTL (WORMCAST_RTL=OFF)");
	return -1;
#endif
}
