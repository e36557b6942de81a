/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the commands (run, sweep, traffic, trace, list) on parsed options.
 */
#ifndef WORMCAST_COMMANDS_H
#define WORMCAST_COMMANDS_H

#include "failure.h"
#include "options.h"

/* Run o->command; returns its exit status, or -1 with the failure in f. */
int command_run(const struct options *o, struct failure *f);

#endif
