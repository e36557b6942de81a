/* SPDX-License-Identifier: MIT */
/*
 * csv.c - runs as CSV (see csv.h).
 */
#include "csv.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* The columns of each kind: JSON field names, in the order of the file. */
static const char *const run_columns[] = {
	"topology", "nodes", "port_mode", "algorithm", "kind", "flits", "root", "startup",
	"replication_cost", "buffer_depth", "payload_width", "engine", "simulated", "cycles",
	"predicted_cycles", "formula_exact", "formula_source", "published_cycles",
	"schedule_cycles", "lower_bound_cycles", "bound_ratio", "link_conflict_cycles",
	"messages", "deliveries", "flit_hops", "delivered_ok", "data_ok", "ok",
	"cycles_compared", "mismatches", NULL,
};

static const char *const traffic_columns[] = {
	"topology", "nodes", "port_mode", "startup", "buffer_depth", "replication_cost",
	"engine", "rate", "min_flits", "max_flits", "ir_fraction", "b_fraction", "path_fraction",
	"seed", "cycles", "cycles_simulated", "messages", "broadcasts", "sent_rate", "delivered",
	"avg_latency", "min_latency", "p50_latency", "p99_latency", "max_latency", "flit_hops",
	"link_conflict_cycles", "delivered_ok", "ok", "cycles_compared", "mismatches", NULL,
};

static const char *const trace_columns[] = {
	"topology", "nodes", "port_mode", "startup", "buffer_depth", "engine", "trace",
	"messages", "broadcasts", "sent", "delivered", "avg_latency", "min_latency",
	"p50_latency", "p99_latency", "max_latency", "max_send_delay", "cycles",
	"last_delivery", "flit_hops", "link_conflict_cycles", "delivered_ok", "ok",
	"cycles_compared", "mismatches", NULL,
};

static const char *const *const columns[] = {
	[CSV_RUN] = run_columns,
	[CSV_TRAFFIC] = traffic_columns,
	[CSV_TRACE] = trace_columns,
};

enum csv_kind csv_kind_of(const cJSON *run)
{
	if (cJSON_HasObjectItem(run, "trace"))
		return CSV_TRACE;
	if (cJSON_HasObjectItem(run, "rate"))
		return CSV_TRAFFIC;
	return CSV_RUN;
}

static void text_cell(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' && (!s[0] || s[strlen(s) - 1] != ' ')) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void csv_cell(FILE *out, const cJSON *v)
{
	if (!v || cJSON_IsNull(v))
		return;
	if (cJSON_IsBool(v)) {
		fputs(cJSON_IsTrue(v) ? "true" : "false", out);
	} else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;

		/* Whole numbers as integers; others with the digits that read back the same. */
		if (d == floor(d) && fabs(d) < 9007199254740992.0)
			fprintf(out, "%.0f", d);
		else
			fprintf(out, "%.17g", d);
	} else if (cJSON_IsString(v)) {
		text_cell(out, v->valuestring);
	}
}

static void line(FILE *out, const char *const *lead, const char *const *cols, const cJSON *row)
{
	bool first = true;

	for (int pass = 0; pass < 2; pass++) {
		const char *const *names = pass ? cols : lead;

		for (int k = 0; names && names[k]; k++) {
			if (!first)
				fputc(',', out);
			first = false;
			if (row)
				csv_cell(out, cJSON_GetObjectItemCaseSensitive(row, names[k]));
			else
				fputs(names[k], out);
		}
	}
	fputc('\n', out);
}

void csv_write(FILE *out, enum csv_kind kind, const char *const *lead, const cJSON *rows)
{
	const cJSON *row;

	line(out, lead, columns[kind], NULL);
	cJSON_ArrayForEach(row, rows)
		line(out, lead, columns[kind], row);
}
