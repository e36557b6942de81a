/* SPDX-License-Identifier: MIT */
/*
 * csv.h - runs as CSV: one row per run's JSON object (report.c), one column per JSON
 * field of a table that is declared once per kind of run.  A local sweep, `merge` of
 * the same runs made elsewhere and `reproduce` all write their CSV here, from the same
 * JSON, so equal runs give equal files.  Numbers are written as JSON has them, a
 * figure not measured (null) is an empty cell, text is quoted as RFC 4180 says.
 */
#ifndef WORMCAST_CSV_H
#define WORMCAST_CSV_H

#include <cjson/cJSON.h>
#include <stdio.h>

enum csv_kind {
	CSV_RUN,		/* run, sweep: an algorithm */
	CSV_TRAFFIC,		/* traffic */
	CSV_TRACE,		/* trace */
};

/* The kind of a run's JSON object: by the fields only that kind has. */
enum csv_kind csv_kind_of(const cJSON *run);

/*
 * The header, then one line per object of rows (a JSON array).  lead, if not NULL, is
 * a NULL-terminated list of more fields to put first (reproduce: panel, series, x).
 */
void csv_write(FILE *out, enum csv_kind kind, const char *const *lead, const cJSON *rows);

/* One JSON value as a CSV cell (nothing for null or a missing value). */
void csv_cell(FILE *out, const cJSON *v);

#endif
