/* SPDX-License-Identifier: MIT */
/*
 * reproduce.c - the experiments, run and drawn (see reproduce.h).
 *
 * Every file is read and every run of every chosen experiment is made into a command
 * line and checked before the first one starts (experiment.h), so a mistake in the
 * last file costs no time.  Then all the runs, of all the experiments, share one pool
 * of processes (jobs.h), the heaviest first; each experiment's runs are its rows.
 * For each experiment, NAME.csv and NAME.json (the runs and the figure) are written
 * and committed, then the plotter draws NAME.png and NAME.svg from NAME.json; the
 * plotters run side by side too.  Every file goes through util/outfile.h: whole or
 * absent.  An interrupted reproduce writes nothing.
 */
#include "reproduce.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csv.h"
#include "experiment.h"
#include "figure.h"
#include "grow.h"
#include "jobs.h"
#include "plotter.h"

#ifndef WORMCAST_SOURCE_DIR
#define WORMCAST_SOURCE_DIR "."
#endif

struct exp_run {
	struct experiment *e;
	struct exp_point *pts;
	int n;
	int first_job;		/* its runs are jobs first_job .. first_job + n - 1 */
	cJSON *runs;		/* the runs' JSON objects, with panel, series and x */
	int failed;		/* runs that failed their checks */
	char path[4][4096];	/* csv, json, png, svg */
	char latencies[4096];
};

/* ---- choosing the experiments ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the experiment files in dir (NAME.ini), sorted; -1 with the failure. */
static int list_experiments(const char *dir, char ***names, int *n, struct failure *f)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return failf(f, EXIT_USAGE, "--experiments: cannot read '%s': %s", dir,
			     strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".ini"))
			continue;
		if ((size_t)*n == cap) {
			char **nn = grow_array(*names, &cap, cap + 1, sizeof(*nn), 16, INT_MAX);

			if (!nn)
				break;
			*names = nn;
		}
		if (!((*names)[*n] = strndup(e->d_name, len - 4)))
			break;
		(*n)++;
	}
	closedir(d);
	if (e) {
		while (*n)
			free((*names)[--*n]);
		free(*names);
		return fail_no_memory(f);
	}
	if (*n == 0)
		return failf(f, EXIT_USAGE, "--experiments: no experiment file (NAME.ini) in '%s'",
			     dir);
	qsort(*names, (size_t)*n, sizeof(**names), by_name);
	return 0;
}

/* Keep only the names --only gives (each must exist). */
static int choose(const char *only, char **names, int *n, struct failure *f)
{
	bool *keep = calloc((size_t)*n, sizeof(*keep));
	int m = 0;

	if (!keep)
		return fail_no_memory(f);
	for (const char *p = only; *p;) {
		size_t k = strcspn(p, ",");
		bool found = false;

		for (int j = 0; j < *n; j++)
			if (strlen(names[j]) == k && !strncmp(names[j], p, k))
				found = keep[j] = true;
		if (!found) {
			char list[1024] = "";
			size_t len = 0;

			for (int j = 0; j < *n && len < sizeof(list); j++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
							j ? ", " : "", names[j]);
			free(keep);
			return failf(f, EXIT_USAGE, "--only: no experiment '%.*s' (there are: %s)",
				     (int)k, p, list);
		}
		p += k + (p[k] == ',');
	}
	for (int j = 0; j < *n; j++) {
		if (keep[j])
			names[m++] = names[j];
		else
			free(names[j]);
	}
	*n = m;
	free(keep);
	return 0;
}

/* mkdir -p. */
static int make_dir(const char *path, struct failure *f)
{
	char buf[4096];
	struct stat st;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return failf(f, EXIT_USAGE, "--out: the name is too long");
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return failf(f, EXIT_USAGE, "--out: cannot make '%s': %s", buf, strerror(errno));
		*p = c;
		if (!c)
			break;
	}
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return failf(f, EXIT_USAGE, "--out: '%s' is not a directory", path);
	return 0;
}

/* ---- the figures ---- */

static bool yes(const char *v)
{
	return v && !strcmp(v, "yes");
}

static double x_of(const cJSON *run)
{
	return cJSON_GetObjectItemCaseSensitive(run, "x")->valuedouble;
}

static const cJSON *field(const cJSON *run, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(run, key);
}

/* The rule of the saturation point: the experiment's two keys. */
struct saturation_rule {
	double factor;		/* mean latency above factor x the latency at the lowest load */
	double sent;		/* or sent load below sent x the offered load */
};

static struct saturation_rule rule_of(const struct experiment *e)
{
	return (struct saturation_rule){
		.factor = atof(experiment_key(e, -1, -1, "saturation_factor")),
		.sent = atof(experiment_key(e, -1, -1, "saturation_sent")),
	};
}

/*
 * The saturation point of a load series: the lowest offered load whose mean latency
 * exceeds rule.factor times the mean latency at the lowest load, or at which the
 * network took less than rule.sent of the load offered (with broadcasts, arrivals
 * are dropped while one holds the network); -1 if no load of the series does.
 */
static double saturation(const cJSON *runs, const char *panel, const char *series,
			 struct saturation_rule rule)
{
	double base = -1, base_x = 0, sat = -1;
	const cJSON *run;

	cJSON_ArrayForEach(run, runs) {
		const cJSON *lat = field(run, "avg_latency");

		if (strcmp(field(run, "panel")->valuestring, panel) ||
		    strcmp(field(run, "series")->valuestring, series) || !cJSON_IsNumber(lat))
			continue;
		if (base < 0 || x_of(run) < base_x) {
			base = lat->valuedouble;
			base_x = x_of(run);
		}
	}
	cJSON_ArrayForEach(run, runs) {
		const cJSON *lat = field(run, "avg_latency");

		if (strcmp(field(run, "panel")->valuestring, panel) ||
		    strcmp(field(run, "series")->valuestring, series) || !cJSON_IsNumber(lat))
			continue;
		if ((lat->valuedouble > rule.factor * base ||
		     field(run, "sent_rate")->valuedouble < rule.sent * x_of(run)) &&
		    (sat < 0 || x_of(run) < sat))
			sat = x_of(run);
	}
	return sat;
}

static cJSON *make_figure(const struct exp_run *x, bool quick)
{
	const struct experiment *e = x->e;
	enum exp_plot plot = experiment_plot(e);
	const char *source = experiment_key(e, -1, -1, "source");
	const char *note = experiment_key(e, -1, -1, "note");
	struct saturation_rule rule = plot == PLOT_LOAD ? rule_of(e) : (struct saturation_rule){ 0 };
	struct figure fig;
	char text[2048];

	if (figure_begin(&fig, plot == PLOT_LINES ? "lines" : plot == PLOT_LOAD ? "load"
									      : "histogram",
			 experiment_key(e, -1, -1, "title")))
		return figure_end(&fig);
	snprintf(text, sizeof(text), "%s%s%s%s%s", source ? "Source: " : "", source ? source : "",
		 source && note ? ". " : "", note ? note : "",
		 quick ? (source || note ? " (wormcast reproduce --quick: fewer runs)"
				       : "wormcast reproduce --quick: fewer runs") : "");
	if (text[0])
		figure_text(&fig, fig.root, "note", text);
	/* A load plot has a second row: the load the network took against the offered. */
	for (int row = 0; row < (plot == PLOT_LOAD ? 2 : 1); row++)
	for (int p = 0; p < experiment_panels(e); p++) {
		const char *pname = experiment_panel_name(e, p);
		const char *cycle_time = experiment_key(e, p, -1, "cycle_time_us");
		const char *xl = experiment_key(e, p, -1, "x_label");
		const char *yl = experiment_key(e, p, -1, "y_label");
		cJSON *panel;

		if (!xl)
			xl = plot == PLOT_HISTOGRAM ? "latency (cycles)" : experiment_axis_label(e, p);
		if (!yl)
			yl = plot == PLOT_LINES ? (cycle_time ? "time (us)" : "cycles")
			     : plot == PLOT_LOAD ? "latency (cycles)" : "messages";
		if (row == 1)
			yl = "sent load (flits per node per cycle)";
		panel = figure_panel(&fig, experiment_key(e, p, -1, "title") ?: pname, xl, yl,
				     yes(experiment_key(e, p, -1, "log_x")),
				     row == 0 && yes(experiment_key(e, p, -1, "log_y")));
		figure_text(&fig, panel, "name", pname);
		if (plot == PLOT_LOAD)
			figure_text(&fig, panel, "y", row ? "sent" : "latency");
		if (cycle_time)
			figure_number(&fig, panel, "cycle_time_us", atof(cycle_time));
		else
			figure_null(&fig, panel, "cycle_time_us");
		if (plot == PLOT_HISTOGRAM) {
			const char *bins = experiment_key(e, -1, -1, "bins");
			const char *slash = strrchr(x->latencies, '/');

			figure_text(&fig, panel, "latencies", slash ? slash + 1 : x->latencies);
			figure_number(&fig, panel, "bins", bins ? atof(bins) : 40);
		}
		for (int s = 0; s < experiment_series(e); s++) {
			const char *sname = experiment_series_name(e, s);
			const char *label = experiment_key(e, p, s, "label");
			const char *curves = experiment_key(e, p, s, "curves");
			const cJSON *run;
			cJSON *series;

			if (!experiment_series_in(e, s, p))
				continue;
			series = figure_series(&fig, panel, label ? label : sname,
					       curves ? curves : "formula");
			figure_text(&fig, series, "name", sname);
			cJSON_ArrayForEach(run, x->runs)
				if (!strcmp(field(run, "panel")->valuestring, pname) &&
				    !strcmp(field(run, "series")->valuestring, sname))
					figure_point(&fig, series, x_of(run), run);
			if (plot == PLOT_LOAD) {
				double sat = saturation(x->runs, pname, sname, rule);

				if (sat >= 0)
					figure_number(&fig, series, "saturation", sat);
				else
					figure_null(&fig, series, "saturation");
			}
		}
	}
	return figure_end(&fig);
}

/* ---- the runs' rows ---- */

/* The experiment's rows from its jobs; -1 (and a line on stderr) if one has none. */
static int collect(struct exp_run *x, struct job *jobs, struct failure *f)
{
	const struct experiment *e = x->e;

	x->runs = cJSON_CreateArray();
	if (!x->runs)
		return fail_no_memory(f);
	for (int k = 0; k < x->n; k++) {
		const struct exp_point *pt = &x->pts[k];
		const struct job *j = &jobs[x->first_job + k];
		cJSON *run = j->out ? cJSON_Parse(j->out) : NULL;

		if (!cJSON_IsObject(run)) {
			cJSON_Delete(run);
			return failf(f, EXIT_FAILED, "%s: a run ended with exit status %d and no "
				     "report: %.*s", experiment_path(e), j->status,
				     (int)strcspn(j->err ? j->err : "", "\n"), j->err ? j->err : "");
		}
		x->failed += !cJSON_IsTrue(field(run, "ok"));
		if (!cJSON_AddStringToObject(run, "panel", experiment_panel_name(e, pt->panel)) ||
		    !cJSON_AddStringToObject(run, "series", experiment_series_name(e, pt->series)) ||
		    !cJSON_AddNumberToObject(run, "x", pt->x) ||
		    !cJSON_AddItemToArray(x->runs, run)) {
			cJSON_Delete(run);
			return fail_no_memory(f);
		}
	}
	if (experiment_plot(e) == PLOT_LOAD) {
		struct saturation_rule rule = rule_of(e);
		cJSON *run;

		cJSON_ArrayForEach(run, x->runs) {
			double sat = saturation(x->runs, field(run, "panel")->valuestring,
						field(run, "series")->valuestring, rule);

			if (!(sat >= 0 ? cJSON_AddNumberToObject(run, "saturation", sat)
				       : cJSON_AddNullToObject(run, "saturation")))
				return fail_no_memory(f);
		}
	}
	return 0;
}

/* NAME.csv and NAME.json, committed. */
static int write_tables(struct exp_run *x, bool quick, struct failure *f)
{
	static const char *const lead[] = { "panel", "series", "x", NULL };
	static const char *const lead_load[] = { "panel", "series", "x", "saturation", NULL };
	const cJSON *first = cJSON_GetArrayItem(x->runs, 0);
	struct outfile *csv = outfile_open(x->path[0]), *json = outfile_open(x->path[1]);
	cJSON *all = cJSON_CreateObject(), *fig = make_figure(x, quick);
	char *text = NULL;
	int rc = 0;

	if (!csv || !json) {
		rc = failf(f, EXIT_FAILED, "cannot write '%s': %s", x->path[csv ? 1 : 0],
			   strerror(errno));
		goto out;
	}
	csv_write(outfile_stream(csv),
		  first ? csv_kind_of(first) : CSV_RUN,
		  experiment_plot(x->e) == PLOT_LOAD ? lead_load : lead, x->runs);
	/* NAME.json: what was run, the figure the plotter draws, and every run. */
	if (!all || !fig || !cJSON_AddStringToObject(all, "experiment", experiment_name(x->e)) ||
	    !cJSON_AddStringToObject(all, "file", experiment_path(x->e)) ||
	    !cJSON_AddBoolToObject(all, "quick", quick) ||
	    !cJSON_AddItemToObject(all, "figure", fig)) {
		cJSON_Delete(fig);
		rc = fail_no_memory(f);
		goto out;
	}
	if (!cJSON_AddItemReferenceToObject(all, "runs", x->runs) || !(text = cJSON_Print(all))) {
		rc = fail_no_memory(f);
		goto out;
	}
	fputs(text, outfile_stream(json));
	fputc('\n', outfile_stream(json));
	if (outfile_commit(csv)) {
		csv = NULL;
		rc = failf(f, EXIT_FAILED, "cannot write '%s': %s", x->path[0], strerror(errno));
		goto out;
	}
	csv = NULL;
	if (outfile_commit(json))
		rc = failf(f, EXIT_FAILED, "cannot write '%s': %s", x->path[1], strerror(errno));
	json = NULL;
out:
	outfile_discard(csv);
	outfile_discard(json);
	free(text);
	cJSON_Delete(all);
	return rc;
}

/* Every experiment's PNG and SVG, the plotters side by side. */
static int draw(struct exp_run *xs, int n, int parallel, struct failure *f)
{
	struct plot_request *r = calloc((size_t)n, sizeof(*r));
	int rc = 0, k;

	if (!r)
		return fail_no_memory(f);
	for (k = 0; k < n && rc == 0; k++) {
		r[k].figure = xs[k].path[1];
		r[k].n = 2;
		for (int o = 0; o < 2; o++)
			if (!(r[k].outs[o] = outfile_open(xs[k].path[2 + o])))
				rc = failf(f, EXIT_FAILED, "cannot write '%s': %s", xs[k].path[2 + o],
					   strerror(errno));
	}
	if (rc == 0)
		rc = plotter_draw_all(r, n, parallel, f);
	for (k = 0; k < n; k++)
		for (int o = 0; o < 2; o++) {
			if (!r[k].outs[o])
				continue;
			if (rc) {
				outfile_discard(r[k].outs[o]);
			} else if (outfile_commit(r[k].outs[o])) {
				rc = failf(f, EXIT_FAILED, "cannot write '%s': %s", xs[k].path[2 + o],
					   strerror(errno));
			}
		}
	free(r);
	return rc;
}

/* ---- the command ---- */

int command_reproduce(const struct options *o, const volatile sig_atomic_t *stop,
		      struct failure *f)
{
	const char *dir = opt(o, OPT_EXPERIMENTS)->set ? opt(o, OPT_EXPERIMENTS)->text
						       : WORMCAST_SOURCE_DIR "/experiments";
	const char *out = opt(o, OPT_OUT)->text;
	bool quick = opt(o, OPT_QUICK)->set;
	int parallel = opt(o, OPT_JOBS)->set ? (int)opt(o, OPT_JOBS)->u : jobs_cores();
	struct job_pool pool = { .parallel = parallel, .stop = stop };
	struct exp_run *xs = NULL;
	struct job *jobs = NULL;
	struct progress pg;
	char **names = NULL, *self = NULL;
	int n = 0, njobs = 0, failed = 0, rc = -1;
	double total = 0;

	if (list_experiments(dir, &names, &n, f) ||
	    (opt(o, OPT_ONLY)->set && choose(opt(o, OPT_ONLY)->text, names, &n, f)))
		goto out;
	if (plotter_check(f))
		goto out;
	if (!(self = jobs_self())) {
		failf(f, EXIT_FAILED, "cannot find this program's own path (/proc/self/exe)");
		goto out;
	}
	if (!(xs = calloc((size_t)n, sizeof(*xs)))) {
		fail_no_memory(f);
		goto out;
	}
	/* Every file read, every run made and checked, before anything runs. */
	for (int k = 0; k < n; k++) {
		char path[4096];
		static const char *const ext[4] = { "csv", "json", "png", "svg" };

		snprintf(path, sizeof(path), "%s/%s.ini", dir, names[k]);
		for (int j = 0; j < 4; j++)
			snprintf(xs[k].path[j], sizeof(xs[k].path[j]), "%s/%s.%s", out, names[k], ext[j]);
		snprintf(xs[k].latencies, sizeof(xs[k].latencies), "%s/%s.latencies.csv", out,
			 names[k]);
		if (experiment_load(path, names[k], &xs[k].e, f) ||
		    experiment_points(xs[k].e, quick, self, xs[k].latencies, &xs[k].pts, &xs[k].n, f))
			goto out;
		xs[k].first_job = njobs;
		njobs += xs[k].n;
	}
	if (make_dir(out, f))
		goto out;
	if (!(jobs = calloc((size_t)(njobs ? njobs : 1), sizeof(*jobs)))) {
		fail_no_memory(f);
		goto out;
	}
	for (int k = 0; k < n; k++)
		for (int j = 0; j < xs[k].n; j++) {
			struct job *jb = &jobs[xs[k].first_job + j];

			/* The job borrows the point's command line. */
			jb->argv = xs[k].pts[j].argv;
			jb->weight = xs[k].pts[j].weight;
			total += jb->weight;
		}
	progress_begin(&pg, progress_wanted(opt(o, OPT_QUIET)->set), stderr, "runs", njobs, total);
	pool.progress = &pg;
	rc = jobs_run(jobs, njobs, &pool, f);
	progress_end(&pg);
	if (rc)
		goto out;
	rc = -1;
	if (*stop) {
		failf(f, 128 + (int)*stop, "interrupted: nothing written");
		goto out;
	}
	for (int k = 0; k < n; k++) {
		/* A run's own report of a failure (a deadlock, a wrong delivery) is passed on. */
		for (int j = 0; j < xs[k].n; j++)
			if (jobs[xs[k].first_job + j].err && jobs[xs[k].first_job + j].err[0])
				fputs(jobs[xs[k].first_job + j].err, stderr);
		if (collect(&xs[k], jobs, f) || write_tables(&xs[k], quick, f))
			goto out;
		failed += xs[k].failed;
	}
	if (draw(xs, n, parallel, f))
		goto out;
	printf("%-14s %6s %6s  %s\n", "experiment", "runs", "failed", "written");
	for (int k = 0; k < n; k++)
		printf("%-14s %6d %6d  %s/%s.{csv,json,png,svg}%s\n", names[k], xs[k].n, xs[k].failed,
		       out, names[k], experiment_plot(xs[k].e) == PLOT_HISTOGRAM
					  ? " and .latencies.csv" : "");
	rc = failed ? EXIT_FAILED : EXIT_PASSED;
out:
	for (int k = 0; xs && k < n; k++) {
		experiment_points_free(xs[k].pts, xs[k].n);
		experiment_free(xs[k].e);
		cJSON_Delete(xs[k].runs);
	}
	/* The jobs borrowed their command lines: only their outputs are theirs. */
	for (int k = 0; jobs && k < njobs; k++) {
		free(jobs[k].out);
		free(jobs[k].err);
	}
	free(jobs);
	free(xs);
	for (int k = 0; k < n; k++)
		free(names[k]);
	free(names);
	free(self);
	return rc;
}
