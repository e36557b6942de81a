/* SPDX-License-Identifier: MIT */
/*
 * commands.c - the commands that run once (run, traffic, trace) as the same steps:
 * setup from the options (setup.c), the outputs opened (outputs.c), the workload
 * (workloads.c), the pipeline (pipeline.c), the outputs committed, the report
 * (report.c); they differ only in which workload and which report, chosen here by
 * switch.  The commands of many runs are their own modules (sweep.c and merge,
 * reproduce.c), as is tree.c; list and cache are here.  Nothing here prints an error
 * or exits.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "coverage_report.h"
#include "outputs.h"
#include "pipeline.h"
#include "report.h"
#include "reproduce.h"
#include "setup.h"
#include "sweep.h"
#include "tree.h"
#include "workloads.h"

/* What a command's runs share. */
struct session {
	const struct options *o;
	const volatile sig_atomic_t *stop;
	struct sim_config cfg;
	struct engine_options eopt;
	struct outputs out;
	struct engine_outputs eout;
	struct report_context rc;
	bool json;
};

/* The workload of one run. */
struct work {
	enum command command;
	struct workload wl;
	union {
		struct algorithm_work algo;	/* run */
		struct traffic_work traffic;
		struct trace_work trace;
	} u;
};

static int session_open(struct session *s, const struct options *o,
			const volatile sig_atomic_t *stop, struct failure *f)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->stop = stop;
	s->json = opt(o, OPT_JSON)->set;
	if (setup_config(o, &s->cfg, f) || setup_engine(o, &s->eopt, f) ||
	    outputs_open(&s->out, o, f))
		return -1;
	s->cfg.stop = stop;
	s->eout = (struct engine_outputs){
		.vcd = outputs_file(&s->out, OPT_VCD),
		.fst = outputs_file(&s->out, OPT_FST),
		.mismatch_vcd = outputs_file(&s->out, OPT_MISMATCH_VCD),
		.coverage = outputs_file(&s->out, OPT_COVERAGE),
	};
	s->rc = (struct report_context){
		.cfg = &s->cfg, .engine = s->eopt.name,
		.mismatch_vcd = s->eopt.mismatch_vcd ? opt(o, OPT_MISMATCH_VCD)->text : NULL,
	};
	return 0;
}

/* ---- the workload of each command ---- */

static int work_init(struct session *s, struct work *w, const struct algorithm *a,
		     uint64_t flits, struct failure *f)
{
	const struct options *o = s->o;
	struct algo_params p;
	struct traffic_params tp;

	memset(w, 0, sizeof(*w));
	w->command = o->command;
	switch (o->command) {
	case CMD_ID_RUN:
		if (setup_algorithm(o, a, flits, &s->cfg, &p, f))
			return -1;
		return algorithm_work_init(&w->u.algo, a, &p, &w->wl, f);
	case CMD_ID_TRAFFIC:
		if (setup_traffic(o, &s->cfg, &tp, f))
			return -1;
		return traffic_work_init(&w->u.traffic, &tp, &s->cfg.topo, &w->wl, f);
	case CMD_ID_TRACE: {
		struct outfile *csv = outputs_file(&s->out, OPT_LATENCIES);

		return trace_work_init(&w->u.trace, opt(o, OPT_TRACE)->text, &s->cfg.topo,
				       csv ? outfile_stream(csv) : NULL, &w->wl, f);
	}
	default:
		return failf(f, EXIT_USAGE, "%s runs nothing", command_name(o->command));
	}
}

static void work_release(struct work *w)
{
	if (w->command == CMD_ID_TRAFFIC)
		traffic_work_release(&w->u.traffic);
	else if (w->command == CMD_ID_TRACE)
		trace_work_release(&w->u.trace);
	else
		algorithm_work_release(&w->u.algo);
}

/* The run's JSON object (NULL if memory ran out). */
static cJSON *work_json(const struct session *s, const struct work *w, const struct run_result *r)
{
	switch (w->command) {
	case CMD_ID_TRAFFIC:
		return report_traffic_json(&s->rc, &w->u.traffic, r);
	case CMD_ID_TRACE:
		return report_trace_json(&s->rc, &w->u.trace,
					 opt(s->o, OPT_LATENCIES)->set ? opt(s->o, OPT_LATENCIES)->text
								      : NULL, r);
	default:
		return report_run_json(&s->rc, &w->u.algo, r);
	}
}

static void work_text(const struct session *s, const struct work *w, const struct run_result *r)
{
	switch (w->command) {
	case CMD_ID_TRAFFIC:
		report_traffic_text(&s->rc, &w->u.traffic, r, stdout);
		break;
	case CMD_ID_TRACE:
		report_trace_text(&s->rc, &w->u.trace, r, stdout);
		break;
	default:
		report_run_text(&s->rc, &w->u.algo, r, stdout);
		break;
	}
}

/* ---- the steps ---- */

/* The pipeline; on failure nothing is written (the outputs are discarded). */
static int run_once(struct session *s, struct work *w, struct run_result *r, struct failure *f)
{
	struct run_request rq = {
		.cfg = &s->cfg, .engine = &s->eopt, .outputs = &s->eout, .work = w->wl,
	};

	if (pipeline_run(&rq, r, f) == 0)
		return 0;
	outputs_discard(&s->out);
	return -1;
}

/*
 * The mismatch window is kept only if there was a mismatch; the other outputs are
 * committed whatever the verdict (the waveform of a failed run is what shows why).
 * A waveform the engine could not write is not committed: the engine's error is the
 * output's failure (exit status 1), reported once.
 */
static int commit_outputs(struct session *s, const struct run_result *r, struct failure *f)
{
	int rc = 0;

	if (r->engine.error[0]) {
		outputs_drop(&s->out, OPT_VCD);
		outputs_drop(&s->out, OPT_FST);
		outputs_drop(&s->out, OPT_MISMATCH_VCD);
		outputs_drop(&s->out, OPT_COVERAGE);
		rc = failf(f, EXIT_FAILED, "%s", r->engine.error);
	}
	if (!r->engine.window_written)
		outputs_drop(&s->out, OPT_MISMATCH_VCD);
	return outputs_commit(&s->out, f) || rc ? -1 : 0;
}

/* The exit status of a run that ran. */
static int status_of(const struct session *s, const struct run_result *r)
{
	if (r->interrupted)
		return 128 + (int)*s->stop;
	return r->ok ? EXIT_PASSED : EXIT_FAILED;
}

/*
 * run --formula-only: the algorithm's prediction, schedule and bound, without a
 * simulation; exit status 1 if the plan fails even without the network.
 */
static int formula_only(const struct options *o, const struct algorithm *a, struct failure *f)
{
	struct session s;
	struct work w;
	char *json = NULL;
	int rc;

	if (setup_formula_only(o, f) || session_open(&s, o, NULL, f))
		return -1;
	if (work_init(&s, &w, a, opt(o, OPT_FLITS)->u, f))
		return -1;
	algo_predict_only(&w.u.algo.session, &w.u.algo.out);
	if (s.json && !(json = report_json_text(report_run_json(&s.rc, &w.u.algo, NULL)))) {
		rc = fail_no_memory(f);
	} else {
		if (json)
			puts(json);
		else
			report_run_text(&s.rc, &w.u.algo, NULL, stdout);
		rc = w.u.algo.out.scheduled >= 0 ? EXIT_PASSED : EXIT_FAILED;
	}
	free(json);
	work_release(&w);
	return rc;
}

/* run, traffic, trace: one run. */
static int single(const struct options *o, const volatile sig_atomic_t *stop, struct failure *f)
{
	const struct algorithm *a = algo_find(opt(o, OPT_ALGORITHM)->text);
	struct failure written = { 0 };
	struct session s;
	struct run_result r;
	struct work w;
	char *json = NULL;
	int rc;

	if (o->command == CMD_ID_RUN && opt(o, OPT_FORMULA_ONLY)->set)
		return formula_only(o, a, f);
	if (session_open(&s, o, stop, f))
		return -1;
	if (work_init(&s, &w, a, opt(o, OPT_FLITS)->u, f)) {
		outputs_discard(&s.out);
		return -1;
	}
	if (run_once(&s, &w, &r, f)) {
		work_release(&w);
		return -1;
	}
	/* Out of memory for the report: nothing is written, as for the run itself. */
	if (s.json && !(json = report_json_text(work_json(&s, &w, &r)))) {
		outputs_discard(&s.out);
		rc = fail_no_memory(f);
	} else {
		/* The report is printed even if an output failed: the result is not lost. */
		commit_outputs(&s, &r, &written);
		if (json)
			puts(json);
		else
			work_text(&s, &w, &r);
		report_failure(&s.rc, &r, stderr);
		if (written.status)
			rc = failf(f, written.status, "%s", written.msg);
		else
			rc = status_of(&s, &r);
	}
	free(json);
	run_result_free(&r);
	work_release(&w);
	return rc;
}

/* list: the algorithms, topologies and engines of this build. */
/* The names of the topology kinds in the mask (bit k: enum topo_kind k) into array a. */
static bool topology_kinds_json(cJSON *a, unsigned mask)
{
	for (int k = 0; k < TOPO_KINDS; k++)
		if ((mask >> k & 1) &&
		    !cJSON_AddItemToArray(a, cJSON_CreateString(topology_kind_name((enum topo_kind)k))))
			return false;
	return true;
}

static int list(const struct options *o, struct failure *f)
{
	cJSON *j = cJSON_CreateObject(), *as = j ? cJSON_AddArrayToObject(j, "algorithms") : NULL;
	cJSON *ts = j ? cJSON_AddArrayToObject(j, "topologies") : NULL;
	bool ok = as && ts;

	for (int k = 0; ok && algorithms[k]; k++) {
		const struct algorithm *a = algorithms[k];
		cJSON *x = cJSON_CreateObject(), *tops;

		/* Each item is attached as soon as it exists: j owns everything made. */
		if (!x || !cJSON_AddItemToArray(as, x)) {
			cJSON_Delete(x);
			ok = false;
			break;
		}
		ok = cJSON_AddStringToObject(x, "name", a->name) &&
		     (tops = cJSON_AddArrayToObject(x, "topologies")) &&
		     topology_kinds_json(tops, a->topologies) &&
		     cJSON_AddStringToObject(x, "networks", a->networks) &&
		     cJSON_AddStringToObject(x, "port_mode", a->all_port ? "all-port" : "one-port") &&
		     cJSON_AddStringToObject(x, "kind", collective_kind_name(a->kind)) &&
		     cJSON_AddStringToObject(x, "source", a->source) &&
		     cJSON_AddStringToObject(x, "formula_source", a->formula_source) &&
		     cJSON_AddStringToObject(x, "description", a->description);
	}
	ok = ok && topology_kinds_json(ts, ~0u) && engine_list_json(j) == 0;
	if (!ok) {
		cJSON_Delete(j);
		return fail_no_memory(f);
	}
	if (opt(o, OPT_JSON)->set)
		return report_print_json(j, stdout, f) ? -1 : EXIT_PASSED;
	cJSON_Delete(j);
	printf("algorithms:\n");
	for (int k = 0; algorithms[k]; k++) {
		char kinds[64] = "";

		for (int t = 0; t < TOPO_KINDS; t++)
			if (algorithms[k]->topologies >> t & 1)
				snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds), "%s%s",
					 kinds[0] ? ", " : "", topology_kind_name((enum topo_kind)t));
		printf("  %-9s %-10s %-15s %-8s %s (%s)\n", algorithms[k]->name,
		       collective_kind_name(algorithms[k]->kind), kinds,
		       algorithms[k]->all_port ? "all-port" : "one-port", algorithms[k]->description,
		       algorithms[k]->source);
	}
	printf("topologies: %s\n", TOPOLOGY_FORMS);
	engine_list_print(stdout);
	return EXIT_PASSED;
}

/* cache: the RTL builds in the cache (list), or none any more (clear). */
static int cache(const struct options *o, struct failure *f)
{
	bool json = opt(o, OPT_JSON)->set;
	char dir[4096], err[4600];
	uint64_t bytes;
	int removed;
	cJSON *j;

	if (strcmp(opt(o, OPT_CACHE_ACTION)->text, "clear")) {
		if (!json) {
			engine_cache_print(stdout);
			return EXIT_PASSED;
		}
		j = cJSON_CreateObject();
		if (!j || engine_cache_json(j)) {
			cJSON_Delete(j);
			return fail_no_memory(f);
		}
		return report_print_json(j, stdout, f) ? -1 : EXIT_PASSED;
	}
	if (engine_cache_clear(&removed, &bytes, dir, sizeof(dir), err, sizeof(err)))
		return failf(f, EXIT_FAILED, "%s", err);
	if (!json) {
		printf("removed %d RTL build%s (%.1f MB) from %s\n", removed, removed == 1 ? "" : "s",
		       (double)bytes / 1e6, dir);
		return EXIT_PASSED;
	}
	j = cJSON_CreateObject();
	if (!j || !cJSON_AddStringToObject(j, "directory", dir) ||
	    !cJSON_AddNumberToObject(j, "removed", removed) ||
	    !cJSON_AddNumberToObject(j, "bytes", (double)bytes)) {
		cJSON_Delete(j);
		return fail_no_memory(f);
	}
	return report_print_json(j, stdout, f) ? -1 : EXIT_PASSED;
}

int command_run(const struct options *o, const volatile sig_atomic_t *stop, struct failure *f)
{
	switch (o->command) {
	case CMD_ID_RUN:
	case CMD_ID_TRAFFIC:
	case CMD_ID_TRACE:
		return single(o, stop, f);
	case CMD_ID_SWEEP:
		return command_sweep(o, stop, f);
	case CMD_ID_MERGE:
		return command_merge(o, f);
	case CMD_ID_REPRODUCE:
		return command_reproduce(o, stop, f);
	case CMD_ID_TREE:
		return command_tree(o, f);
	case CMD_ID_LIST:
		return list(o, f);
	case CMD_ID_CACHE:
		return cache(o, f);
	case CMD_ID_COVERAGE:
		return coverage_command(o, f);
	case N_COMMANDS:
		break;
	}
	return failf(f, EXIT_USAGE, "no such command");
}
