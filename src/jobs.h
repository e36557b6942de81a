/* SPDX-License-Identifier: MIT */
/*
 * jobs.h - many runs as command lines, run by processes on every local core.
 *
 * A job is a command line (a `wormcast run ... --json`, a plotter, Graphviz's dot).
 * The same command lines are what `sweep --emit-jobs` writes for GNU parallel or a
 * Slurm array, so a local sweep runs exactly the jobs a cluster would, and their JSON
 * outputs merge the same way (docs/scaling.md).  Each job is a process of its own:
 * one run cannot disturb another (memory, a crash, SystemC's one network per
 * process), and a machine's cores are used without threads in the simulator.
 *
 * The pool starts the heaviest jobs first (weight: the caller's estimate of a job's
 * cost), keeps `parallel` of them running, collects each one's standard output and
 * standard error in memory, and reports each end to the caller, who may print (in
 * the jobs' own order, if it wants: it knows which have ended).  A signal that stops
 * wormcast (the stop flag, cli.c) is passed on once to every running job, which then
 * ends with its partial report; no new job starts.  Jobs run in a process group of
 * their own, so a Ctrl-C at the terminal reaches them only through wormcast.
 */
#ifndef WORMCAST_JOBS_H
#define WORMCAST_JOBS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "failure.h"
#include "progress.h"

struct job {
	char **argv;		/* NULL-terminated; argv[0] a path, or a name found in PATH */
	double weight;		/* estimated cost, for the launch order and the progress bar */
	/* Filled by jobs_run(): */
	bool ran;		/* started (a stopped pool leaves the rest unstarted) */
	int status;		/* exit status; 128 + N if killed by signal N; 127 if exec failed */
	char *out, *err;	/* standard output and error, NUL-terminated (NULL if none) */
	size_t out_len, err_len;
};

struct job_pool {
	int parallel;				/* processes at once */
	const volatile sig_atomic_t *stop;	/* the stop flag, or NULL */
	struct progress *progress;		/* or NULL */
	/* Optional: job k ended (status, out and err are there). */
	void (*ended)(void *ctx, struct job *jobs, int k);
	void *ctx;
};

/*
 * Run every job (until a stop).  Returns 0, or -1 with the failure when no process
 * could be started (pipes, fork, memory: exit status 1); the jobs that were running
 * are waited for either way, so no process is left behind.
 */
int jobs_run(struct job *jobs, int n, const struct job_pool *pool, struct failure *f);
/* Free every job's argv (each string and the array) and outputs. */
void jobs_free(struct job *jobs, int n);

/* The number of cores online (at least 1). */
int jobs_cores(void);
/* This program's own path, for command lines that run it again (to free); NULL if unknown. */
char *jobs_self(void);

/* argv as one line a POSIX shell reads back as the same words, newline included. */
void jobs_write_line(FILE *out, char *const *argv);

/*
 * A growable argv: argv_add() copies a word; argv_addf() formats one.  Both return 0,
 * or -1 if memory ran out (the argv stays valid and NULL-terminated).
 */
struct argv_builder {
	char **v;
	int n, cap;
};
int argv_add(struct argv_builder *b, const char *word);
int argv_addf(struct argv_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(char **argv);

#endif
