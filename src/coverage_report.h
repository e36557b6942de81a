/* SPDX-License-Identifier: MIT */
/*
 * coverage_report.h - functional coverage files (--coverage FILE) and the 'coverage' command,
 * which merges them, prints the bins with their counts and lists the holes.
 *
 * A coverage file is JSON:
 *
 *   { "format": "wormcast-coverage", "version": 1,
 *     "groups": [ { "topology": "hypercube:4", "runs": 3,
 *                   "configurations": [ "all-port, buffer depth 4, ...", ... ],
 *                   "reachable_bins": 98, "hit_bins": 96, "holes": [ "B d3->d2", ... ],
 *                   "bins": [ { "name": "R inj0->d0", "section": "3, 8", "count": 1523,
 *                               "reachable": true },
 *                             { "name": "hold wait", "section": "7 steps 5, 12",
 *                               "count": 0, "reachable": false,
 *                               "why": "T_r = 0: no replication hold" }, ... ] } ] }
 *
 * One group per topology: the bins of a topology are the same for every port model,
 * depth, width and T_r (model/coverage.h), so runs of one topology add bin by bin; a
 * bin is reachable if some run's configuration can reach it.  reachable_bins, hit_bins
 * and holes are derived (recomputed when files are merged).
 */
#ifndef WORMCAST_COVERAGE_REPORT_H
#define WORMCAST_COVERAGE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "coverage.h"
#include "failure.h"
#include "options.h"

/*
 * The coverage file of one run: counts of the bins of sp, measured by `measured_by`
 * ("model", "rtl", "model and rtl"), in configuration p.  NULL if memory ran out.
 */
cJSON *coverage_document(const struct cov_space *sp, const struct router_params *p,
			 const uint64_t *counts, const char *measured_by);
/* Write doc (pretty JSON and a newline) into out: 0, or -1 (memory, a write error). */
int coverage_write(const cJSON *doc, FILE *out);

/* 'wormcast coverage FILE...': its exit status, or -1 with f. */
int coverage_command(const struct options *o, struct failure *f);

#endif
