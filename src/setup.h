/* SPDX-License-Identifier: MIT */
/*
 * setup.h - from parsed options to what a run needs: the simulation's configuration,
 * the engine's options, an algorithm's parameters, the traffic's parameters.  The
 * checks that need several options at once (a root inside the network, the port
 * model of an algorithm) are here, and name where the value came from ("--root" or
 * "FILE:LINE: root").
 */
#ifndef WORMCAST_SETUP_H
#define WORMCAST_SETUP_H

#include "algos.h"
#include "engines.h"
#include "failure.h"
#include "options.h"
#include "traffic.h"

int setup_config(const struct options *o, struct sim_config *cfg, struct failure *f);
int setup_engine(const struct options *o, struct engine_options *e, struct failure *f);
/* cfg (from setup_config) is adapted to the algorithm's port model. */
int setup_algorithm(const struct options *o, const struct algorithm *a, uint64_t flits,
		    struct sim_config *cfg, struct algo_params *p, struct failure *f);
/* The random traffic of the options on the topology of cfg; 2 if it cannot send it. */
int setup_traffic(const struct options *o, const struct sim_config *cfg,
		  struct traffic_params *tp, struct failure *f);
/* run --formula-only: refused with the options that only a simulation uses (2). */
int setup_formula_only(const struct options *o, struct failure *f);

#endif
