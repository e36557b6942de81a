/* SPDX-License-Identifier: MIT */
/*
 * sweep.c - sweep and merge (see sweep.h).
 *
 * A sweep is a list of `wormcast run ... --json` command lines, one per algorithm and
 * length, each with every option the sweep was given written out (the configuration
 * file's values too), so that each line runs alone anywhere.  Locally they run on
 * every core (jobs.h) and their rows are printed in the sweep's order as soon as the
 * ones before have ended; with --emit-jobs they are written to a file instead.  Either
 * way the results are the runs' JSON objects, and everything a sweep prints or writes
 * is made from those objects by the same code as `merge` uses.
 */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "figure.h"
#include "grow.h"
#include "jobs.h"
#include "outputs.h"
#include "plotter.h"
#include "report.h"
#include "setup.h"
#include "textfile.h"

/* The largest file of results merge reads. */
#define MERGE_MAX_BYTES (256u << 20)

/* ---- the outputs of a sweep and of a merge ---- */

/* The figure of the runs into the plot output, through a scratch JSON file. */
static int plot_runs(const cJSON *runs, struct outfile *plot, struct failure *f)
{
	cJSON *fig = figure_of_sweep(runs);
	char *text = fig ? cJSON_Print(fig) : NULL;
	char *scratch = NULL;
	FILE *s = NULL;
	bool bad = true;
	int rc = -1;

	cJSON_Delete(fig);
	if (!text)
		return fail_no_memory(f);
	scratch = outfile_scratch(outfile_path(plot), ".json");
	if (scratch && (s = fopen(scratch, "w"))) {
		bad = fputs(text, s) < 0;
		bad |= fclose(s) != 0;
	}
	if (bad)
		failf(f, EXIT_FAILED, "cannot write a scratch file for '%s': %s", outfile_path(plot),
		      strerror(errno));
	else
		rc = plotter_draw(scratch, &plot, 1, f);
	if (scratch) {
		unlink(scratch);
		free(scratch);
	}
	free(text);
	return rc;
}

/*
 * What both commands end with: the JSON object or the table's footer on stdout (the
 * rows were printed as they came), the CSV and the plot; then every output committed.
 * Consumes runs.
 */
static int finish(const struct options *o, struct outputs *out, cJSON *runs, int failures,
		  bool interrupted, struct failure *f)
{
	struct outfile *csv = outputs_file(out, OPT_CSV), *plot = outputs_file(out, OPT_PLOT);
	int rc = 0;

	if (csv)
		csv_write(outfile_stream(csv), CSV_RUN, NULL, runs);
	if (plot && cJSON_GetArraySize(runs) > 0)
		rc = plot_runs(runs, plot, f);
	else if (plot)
		outputs_drop(out, OPT_PLOT);	/* nothing ran: no empty plot */
	if (opt(o, OPT_JSON)->set) {
		cJSON *all = cJSON_CreateObject();

		if (!all || !cJSON_AddItemToObject(all, "runs", runs)) {
			cJSON_Delete(all);
			cJSON_Delete(runs);
			outputs_discard(out);
			return fail_no_memory(f);
		}
		if (!cJSON_AddBoolToObject(all, "ok", failures == 0 && !interrupted) ||
		    !cJSON_AddBoolToObject(all, "interrupted", interrupted)) {
			cJSON_Delete(all);
			outputs_discard(out);
			return fail_no_memory(f);
		}
		if (rc == 0)
			rc = report_print_json(all, stdout, f);
		else
			cJSON_Delete(all);
	} else {
		report_sweep_footer(runs, stdout);
		cJSON_Delete(runs);
	}
	if (rc) {
		outputs_discard(out);
		return -1;
	}
	return outputs_commit(out, f);
}

/* ---- sweep ---- */

struct sweep_state {
	bool json;
	struct job *jobs;
	bool *ended;
	int n, next;			/* the next run to report, in the sweep's order */
	cJSON *runs;
	int failures;
	bool interrupted, no_memory;
	struct progress *progress;
};

/* The run's row: its JSON object kept, its table row printed, its stderr passed on. */
static void take(struct sweep_state *s, const struct job *j)
{
	cJSON *run = j->out ? cJSON_Parse(j->out) : NULL;

	progress_clear(s->progress);
	if (j->err && j->err[0])
		fputs(j->err, stderr);
	if (!cJSON_IsObject(run)) {
		cJSON_Delete(run);
		s->failures++;
		if (!j->err || !j->err[0])
			fprintf(stderr, "wormcast: a run ended with exit status %d and no report\n",
				j->status);
		return;
	}
	s->failures += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "ok"));
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "interrupted")))
		s->interrupted = true;
	if (!s->json) {
		if (cJSON_GetArraySize(s->runs) == 0)
			report_sweep_header(run, stdout);
		report_sweep_row(run, stdout);
		fflush(stdout);
	}
	if (!cJSON_AddItemToArray(s->runs, run)) {
		cJSON_Delete(run);
		s->no_memory = true;
	}
}

static void ended(void *ctx, struct job *jobs, int k)
{
	struct sweep_state *s = ctx;

	(void)jobs;
	s->ended[k] = true;
	while (s->next < s->n && s->ended[s->next])
		take(s, &s->jobs[s->next++]);
}

/*
 * The command line of one run: this program, "run", every option the sweep was given
 * that run takes, written out, the algorithm and the length, --json.
 */
static int run_argv(const struct options *o, const char *self, const char *algorithm,
		    uint64_t flits, char ***argv)
{
	struct argv_builder b = { 0 };
	bool ok = argv_add(&b, self) == 0 && argv_add(&b, "run") == 0;

	for (int id = 0; ok && id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];
		const struct option_value *v = opt(o, (enum option_id)id);

		if (!v->set || id == OPT_CONFIG || id == OPT_JSON ||
		    (d->commands & (CMD_RUN | CMD_SWEEP)) != (CMD_RUN | CMD_SWEEP))
			continue;
		ok = argv_addf(&b, "--%s", d->name) == 0 &&
		     (d->type == OT_FLAG || argv_add(&b, v->text) == 0);
	}
	ok = ok && argv_add(&b, "--algorithm") == 0 && argv_add(&b, algorithm) == 0 &&
	     argv_add(&b, "--flits") == 0 && argv_addf(&b, "%llu", (unsigned long long)flits) == 0 &&
	     argv_add(&b, "--json") == 0;
	if (!ok) {
		argv_free(b.v);
		return -1;
	}
	*argv = b.v;
	return 0;
}

/* Every pair checked, and its command line made, before anything runs. */
static int make_jobs(const struct options *o, struct job **jobs, int *n, struct failure *f)
{
	const struct option_value *names = opt(o, OPT_ALGORITHMS), *lens = opt(o, OPT_FLITS_LIST);
	char *self = jobs_self();
	struct sim_config cfg;
	struct job *js;
	int k = 0;

	if (!self)
		return failf(f, EXIT_FAILED, "cannot find this program's own path (/proc/self/exe)");
	if (setup_config(o, &cfg, f)) {
		free(self);
		return -1;
	}
	js = calloc((size_t)(names->n * lens->n), sizeof(*js));
	if (!js) {
		free(self);
		return fail_no_memory(f);
	}
	for (int a = 0; a < names->n; a++)
		for (int l = 0; l < lens->n; l++, k++) {
			struct sim_config c = cfg;
			struct algo_params p;

			if (setup_algorithm(o, algo_find(names->names[a]), lens->items[l], &c, &p, f)) {
				jobs_free(js, k);
				free(js);
				free(self);
				return -1;
			}
			if (run_argv(o, self, names->names[a], lens->items[l], &js[k].argv)) {
				jobs_free(js, k);
				free(js);
				free(self);
				return fail_no_memory(f);
			}
			/* The cost grows with the nodes and the cycles. */
			js[k].weight = (double)cfg.topo.nodes * (double)(lens->items[l] + cfg.startup);
		}
	free(self);
	*jobs = js;
	*n = k;
	return 0;
}

static int emit(const struct options *o, struct outputs *out, struct job *jobs, int n,
		struct failure *f)
{
	const char *const later[] = { "csv", "plot", "json" };
	const enum option_id ids[] = { OPT_CSV, OPT_PLOT, OPT_JSON };
	FILE *s = outfile_stream(outputs_file(out, OPT_EMIT_JOBS));

	for (int k = 0; k < 3; k++)
		if (opt(o, ids[k])->set) {
			outputs_discard(out);
			return failf(f, EXIT_USAGE, "--emit-jobs runs nothing: --%s belongs to "
				     "'wormcast merge', which joins the runs' outputs", later[k]);
		}
	for (int k = 0; k < n; k++)
		jobs_write_line(s, jobs[k].argv);
	if (outputs_commit(out, f))
		return -1;
	printf("%d command lines in %s, one per run: GNU parallel or a Slurm job array runs "
	       "them, 'wormcast merge' joins their outputs (docs/scaling.md)\n", n,
	       opt(o, OPT_EMIT_JOBS)->text);
	return EXIT_PASSED;
}

int command_sweep(const struct options *o, const volatile sig_atomic_t *stop, struct failure *f)
{
	struct progress pg;
	struct sweep_state s = { .json = opt(o, OPT_JSON)->set, .progress = &pg };
	struct job_pool pool = {
		.parallel = opt(o, OPT_JOBS)->set ? (int)opt(o, OPT_JOBS)->u : jobs_cores(),
		.stop = stop, .progress = &pg, .ended = ended, .ctx = &s,
	};
	struct outputs out;
	double total = 0;
	int rc;

	if (make_jobs(o, &s.jobs, &s.n, f))
		return -1;
	if (opt(o, OPT_PLOT)->set && !plotter_format(opt(o, OPT_PLOT)->text)) {
		jobs_free(s.jobs, s.n);
		free(s.jobs);
		return failf(f, EXIT_USAGE, "--plot '%s': the name must end in .svg or .png",
			     opt(o, OPT_PLOT)->text);
	}
	if ((opt(o, OPT_PLOT)->set && plotter_check(f)) || outputs_open(&out, o, f)) {
		jobs_free(s.jobs, s.n);
		free(s.jobs);
		return -1;
	}
	if (opt(o, OPT_EMIT_JOBS)->set) {
		rc = emit(o, &out, s.jobs, s.n, f);
		jobs_free(s.jobs, s.n);
		free(s.jobs);
		return rc;
	}
	s.ended = calloc((size_t)s.n, sizeof(*s.ended));
	s.runs = cJSON_CreateArray();
	if (!s.ended || !s.runs) {
		rc = fail_no_memory(f);
		goto out;
	}
	for (int k = 0; k < s.n; k++)
		total += s.jobs[k].weight;
	progress_begin(&pg, progress_wanted(opt(o, OPT_QUIET)->set), stderr, "runs", s.n, total);
	rc = jobs_run(s.jobs, s.n, &pool, f);
	progress_end(&pg);
	if (rc == 0 && s.no_memory)
		rc = fail_no_memory(f);
	if (rc == 0) {
		if (*stop)
			s.interrupted = true;
		rc = finish(o, &out, s.runs, s.failures, s.interrupted, f);
		s.runs = NULL;
		if (rc == 0)
			rc = s.interrupted ? 128 + (int)*stop : s.failures ? EXIT_FAILED : EXIT_PASSED;
	}
out:
	if (rc < 0)
		outputs_discard(&out);
	cJSON_Delete(s.runs);
	free(s.ended);
	jobs_free(s.jobs, s.n);
	free(s.jobs);
	return rc;
}

/* ---- merge ---- */

/* Names compared with their runs of digits as numbers: 2.json before 10.json. */
static int natural_cmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *ea = a, *eb = b;

			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			for (ea = a; *ea >= '0' && *ea <= '9'; ea++)
				;
			for (eb = b; *eb >= '0' && *eb <= '9'; eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static bool is_result_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && ((n > 5 && !strcmp(name + n - 5, ".json")) ||
				  (n > 6 && !strcmp(name + n - 6, ".jsonl")));
}

static int line_of(const char *text, const char *at)
{
	int line = 1;

	for (const char *p = text; p < at && *p; p++)
		line += *p == '\n';
	return line;
}

/* Add the run, or the runs of a sweep's object, to runs (v is consumed). */
static int add_runs(cJSON *runs, cJSON *v, const char *path, int line, struct failure *f)
{
	cJSON *list = cJSON_DetachItemFromObjectCaseSensitive(v, "runs");
	cJSON *run;

	if (!cJSON_IsObject(v) || (!list && !cJSON_HasObjectItem(v, "algorithm"))) {
		cJSON_Delete(list);
		cJSON_Delete(v);
		return failf(f, EXIT_USAGE, "%s:%d: not the JSON of 'wormcast run --json' or "
			     "'wormcast sweep --json'", path, line);
	}
	if (!list) {
		cJSON_AddItemToArray(runs, v);
		return 0;
	}
	cJSON_Delete(v);
	while ((run = cJSON_DetachItemFromArray(list, 0)))
		if (!cJSON_IsObject(run) || !cJSON_HasObjectItem(run, "algorithm")) {
			cJSON_Delete(run);
			cJSON_Delete(list);
			return failf(f, EXIT_USAGE, "%s:%d: a sweep's run is not a run's JSON object",
				     path, line);
		} else {
			cJSON_AddItemToArray(runs, run);
		}
	cJSON_Delete(list);
	return 0;
}

/* Every JSON value of one file, one after the other (JSON Lines, or one object). */
static int merge_file(cJSON *runs, const char *path, struct failure *f)
{
	char *text;
	size_t len, pos = 0;
	int count = 0;

	if (text_read(path, MERGE_MAX_BYTES, &text, &len))
		return errno == ENOMEM ? fail_no_memory(f)
				       : failf(f, EXIT_USAGE, "%s: cannot read: %s", path,
					       strerror(errno));
	for (;;) {
		const char *end = NULL;
		cJSON *v;

		while (pos < len && strchr(" \t\r\n", text[pos]))
			pos++;
		if (pos >= len)
			break;
		v = cJSON_ParseWithLengthOpts(text + pos, len - pos, &end, false);
		if (!v) {
			int line = line_of(text, end ? end : text + pos);

			free(text);
			return failf(f, EXIT_USAGE, "%s:%d: not JSON", path, line);
		}
		if (add_runs(runs, v, path, line_of(text, text + pos), f)) {
			free(text);
			return -1;
		}
		count++;
		pos = (size_t)(end - text);
	}
	free(text);
	if (count == 0)
		return failf(f, EXIT_USAGE, "%s: empty (the command line that writes it failed "
			     "or did not run: its standard error says why)", path);
	return 0;
}

/* The *.json and *.jsonl files of a directory, in natural order. */
static int merge_dir(cJSON *runs, const char *dir, struct failure *f)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d)
		return failf(f, EXIT_USAGE, "%s: cannot read: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (!is_result_name(e->d_name))
			continue;
		if (n == cap) {
			char **nn = grow_array(names, &cap, n + 1, sizeof(*nn), 64, SIZE_MAX);

			if (!nn) {
				rc = fail_no_memory(f);
				break;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = fail_no_memory(f);
			break;
		}
		n++;
	}
	closedir(d);
	if (rc == 0 && n == 0)
		rc = failf(f, EXIT_USAGE, "%s: no *.json or *.jsonl file of results", dir);
	if (rc == 0)
		qsort(names, n, sizeof(*names), natural_cmp);
	for (size_t k = 0; k < n; k++) {
		char path[4096];

		if (rc == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
			rc = merge_file(runs, path, f);
		}
		free(names[k]);
	}
	free(names);
	return rc;
}

int command_merge(const struct options *o, struct failure *f)
{
	cJSON *runs = cJSON_CreateArray(), *run;
	struct outputs out;
	bool interrupted = false;
	int failures = 0, rc;

	if (!runs)
		return fail_no_memory(f);
	if (o->n_files == 0) {
		cJSON_Delete(runs);
		return failf(f, EXIT_USAGE, "merge needs DIR... (directories or files of the "
			     "runs' JSON; see 'wormcast merge --help')");
	}
	for (int k = 0; k < o->n_files; k++) {
		const char *p = o->files[k];
		struct stat st;

		if (stat(p, &st))
			rc = failf(f, EXIT_USAGE, "%s: cannot read: %s", p, strerror(errno));
		else
			rc = S_ISDIR(st.st_mode) ? merge_dir(runs, p, f) : merge_file(runs, p, f);
		if (rc) {
			cJSON_Delete(runs);
			return -1;
		}
	}
	if (opt(o, OPT_PLOT)->set && !plotter_format(opt(o, OPT_PLOT)->text)) {
		cJSON_Delete(runs);
		return failf(f, EXIT_USAGE, "--plot '%s': the name must end in .svg or .png",
			     opt(o, OPT_PLOT)->text);
	}
	if ((opt(o, OPT_PLOT)->set && plotter_check(f)) || outputs_open(&out, o, f)) {
		cJSON_Delete(runs);
		return -1;
	}
	cJSON_ArrayForEach(run, runs) {
		failures += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "ok"));
		interrupted |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "interrupted"));
		if (opt(o, OPT_JSON)->set)
			continue;
		if (run == runs->child)
			report_sweep_header(run, stdout);
		report_sweep_row(run, stdout);
	}
	if (finish(o, &out, runs, failures, interrupted, f))
		return -1;
	return failures || interrupted ? EXIT_FAILED : EXIT_PASSED;
}
