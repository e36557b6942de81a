/* SPDX-License-Identifier: MIT */
/*
 * plotter.c - drawing figures with matplotlib (see plotter.h).
 */
#include "plotter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs.h"

#ifndef WORMCAST_PYTHON
#define WORMCAST_PYTHON "python3"
#endif
#ifndef WORMCAST_SOURCE_DIR
#define WORMCAST_SOURCE_DIR "."
#endif

#define PLOT_SCRIPT WORMCAST_SOURCE_DIR "/scripts/plot.py"

static const char *python(void)
{
	const char *p = getenv("WORMCAST_PYTHON");

	return p && p[0] ? p : WORMCAST_PYTHON;
}

const char *plotter_format(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strcmp(dot, ".png"))
		return "png";
	if (dot && !strcmp(dot, ".svg"))
		return "svg";
	return NULL;
}

/* The first line of a job's stderr (or "exit status N"), into buf. */
static const char *why(const struct job *j, char *buf, size_t len)
{
	if (j->err && j->err[0]) {
		const char *e = j->err;
		const char *last = NULL;

		/* A Python traceback ends with the line that says what happened. */
		for (const char *p = e; *p; p++)
			if (p[0] == '\n' && p[1] && p[1] != '\n')
				last = p + 1;
		if (strstr(e, "Traceback") && last)
			e = last;
		snprintf(buf, len, "%.*s", (int)strcspn(e, "\n"), e);
	} else {
		snprintf(buf, len, "exit status %d", j->status);
	}
	return buf;
}

static int run_one(char **argv, struct job *j, struct failure *f)
{
	struct job_pool pool = { .parallel = 1 };

	memset(j, 0, sizeof(*j));
	j->argv = argv;
	return jobs_run(j, 1, &pool, f);
}

int plotter_check(struct failure *f)
{
	char *argv[] = { (char *)python(), PLOT_SCRIPT, "--check", NULL };
	char buf[512];
	struct job j;

	if (run_one(argv, &j, f))
		return -1;
	if (j.status != 0)
		failf(f, EXIT_FAILED, "cannot plot: %s with matplotlib is needed (Debian: "
		      "python3-matplotlib, which scripts/install-deps.sh installs; "
		      "WORMCAST_PYTHON names another interpreter): %s", python(),
		      why(&j, buf, sizeof(buf)));
	free(j.out);
	free(j.err);
	return j.status ? -1 : 0;
}

int plotter_draw_all(const struct plot_request *r, int n, int parallel, struct failure *f)
{
	struct job *jobs = calloc((size_t)(n ? n : 1), sizeof(*jobs));
	char **scratch = calloc((size_t)(n ? n : 1) * PLOTTER_MAX_OUTPUTS, sizeof(*scratch));
	struct job_pool pool = { .parallel = parallel };
	char buf[512];
	int rc = -1, k;

	if (!jobs || !scratch) {
		free(jobs);
		free(scratch);
		return fail_no_memory(f);
	}
	/* python plot.py FIGURE.json SCRATCH... for each figure. */
	for (k = 0; k < n; k++) {
		struct argv_builder b = { 0 };
		bool ok = argv_add(&b, python()) == 0 && argv_add(&b, PLOT_SCRIPT) == 0 &&
			  argv_add(&b, r[k].figure) == 0;

		jobs[k].weight = 1;
		for (int o = 0; ok && o < r[k].n; o++) {
			const char *path = outfile_path(r[k].outs[o]);
			const char *fmt = plotter_format(path);
			char **s = &scratch[k * PLOTTER_MAX_OUTPUTS + o];

			*s = outfile_scratch(path, fmt && !strcmp(fmt, "png") ? ".png" : ".svg");
			if (!*s) {
				argv_free(b.v);
				failf(f, EXIT_FAILED, "cannot write a scratch file for '%s': %s", path,
				      strerror(errno));
				goto out;
			}
			ok = argv_add(&b, *s) == 0;
		}
		jobs[k].argv = b.v;
		if (!ok) {
			fail_no_memory(f);
			goto out;
		}
	}
	if (jobs_run(jobs, n, &pool, f))
		goto out;
	for (k = 0; k < n; k++) {
		if (jobs[k].status != 0) {
			failf(f, EXIT_FAILED, "the plotter failed on '%s': %s", r[k].figure,
			      why(&jobs[k], buf, sizeof(buf)));
			goto out;
		}
		for (int o = 0; o < r[k].n; o++)
			if (outfile_copy_from(outfile_stream(r[k].outs[o]),
					      scratch[k * PLOTTER_MAX_OUTPUTS + o])) {
				failf(f, EXIT_FAILED, "cannot write '%s': %s", outfile_path(r[k].outs[o]),
				      strerror(errno));
				goto out;
			}
	}
	rc = 0;
out:
	for (k = 0; k < n * PLOTTER_MAX_OUTPUTS; k++)
		if (scratch[k]) {
			unlink(scratch[k]);
			free(scratch[k]);
		}
	jobs_free(jobs, n);
	free(jobs);
	free(scratch);
	return rc;
}

int plotter_draw(const char *figure_path, struct outfile *const *outs, int n, struct failure *f)
{
	struct plot_request r = { .figure = figure_path, .n = n };

	if (n > PLOTTER_MAX_OUTPUTS)
		return failf(f, EXIT_FAILED, "too many plots of one figure");
	for (int k = 0; k < n; k++)
		r.outs[k] = outs[k];
	return plotter_draw_all(&r, 1, 1, f);
}
