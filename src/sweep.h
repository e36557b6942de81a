/* SPDX-License-Identifier: MIT */
/*
 * sweep.h - many runs of algorithms: `sweep` (every algorithm of a list for every
 * length of a list) on every local core, or written out as command lines for other
 * machines (--emit-jobs), and `merge`, which joins the JSON outputs of those command
 * lines into what the sweep itself gives: the same table, JSON, CSV and plot
 * (docs/scaling.md).
 */
#ifndef WORMCAST_SWEEP_H
#define WORMCAST_SWEEP_H

#include <signal.h>

#include "failure.h"
#include "options.h"

/* The commands; return the exit status, or -1 with the failure in f. */
int command_sweep(const struct options *o, const volatile sig_atomic_t *stop, struct failure *f);
int command_merge(const struct options *o, struct failure *f);

#endif
