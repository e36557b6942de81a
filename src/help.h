/* SPDX-License-Identifier: MIT */
/*
 * help.h - `wormcast --help`, `wormcast COMMAND --help` and docs/config.md
 * (`wormcast help --markdown`), all derived from the options table (options.def).
 * The caller checks the stream for write errors.
 */
#ifndef WORMCAST_HELP_H
#define WORMCAST_HELP_H

#include <stdio.h>

#include "options.h"

void help_overview(FILE *out);
void help_command(FILE *out, enum command c);
void help_markdown(FILE *out);

#endif
