/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the commands (run, sweep, traffic, trace, list, cache) on parsed options.
 */
#ifndef WORMCAST_COMMANDS_H
#define WORMCAST_COMMANDS_H

#include <signal.h>

#include "failure.h"
#include "options.h"

/*
 * Run o->command; returns its exit status, or -1 with the failure in f.  stop is the
 * interruption flag (cli.c): non-zero, the signal number, stops a run at the next
 * cycle with a partial report and the exit status 128 + that number.
 */
int command_run(const struct options *o, const volatile sig_atomic_t *stop, struct failure *f);

#endif
