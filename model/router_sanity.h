/* SPDX-License-Identifier: MIT */
/*
 * router_sanity.h - checks of the model's invariants, in the spirit of SQLite's
 * integrity check: the derived bit masks agree with the counts and routes they stand
 * for, every count and credit counter is in range, no output has two owners, and on
 * every link the flits and credits in flight add up to the buffer depth.
 *
 * A debug build (WORMCAST_DEBUG: CMAKE_BUILD_TYPE Debug, the sanitizer build) runs
 * them every cycle on the routers that were evaluated (network_step); a failure stops
 * the run with its reason.  A release build never calls them.
 */
#ifndef WORMCAST_ROUTER_SANITY_H
#define WORMCAST_ROUTER_SANITY_H

#include <stddef.h>

#include "network.h"
#include "router.h"

/* Router r's own invariants.  0, or -1 with one line ("node 3: ...") into err. */
int router_sanity(const struct router *r, char *err, size_t errlen);

/*
 * router_sanity() of every router of network n and the conservation of credits on
 * every link (nodes NULL); or, after a network_step() that evaluated the routers
 * nodes[0..count-1], the same for the ports of those routers that changed in that
 * step and every link that changed.  0, or -1 with one line into err.
 */
int network_sanity(const struct network *n, const int *nodes, int count, char *err,
		   size_t errlen);

#endif
