/* SPDX-License-Identifier: MIT */
/*
 * reproduce.h - `wormcast reproduce`: the experiments of the experiment files
 * (experiment.h) run on every core, each written as CSV, JSON and plots.
 */
#ifndef WORMCAST_REPRODUCE_H
#define WORMCAST_REPRODUCE_H

#include <signal.h>

#include "failure.h"
#include "options.h"

int command_reproduce(const struct options *o, const volatile sig_atomic_t *stop,
		      struct failure *f);

#endif
