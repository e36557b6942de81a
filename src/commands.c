/* SPDX-License-Identifier: MIT */
/*
 * commands.c - the commands, on options parsed by options.c and turned into run
 * parameters by setup.c.  Nothing here prints an error or exits: a bad value is a
 * struct failure for cli.c.
 */
#include "commands.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algos.h"
#include "engines.h"
#include "setup.h"
#include "sim.h"
#include "trace.h"
#include "traffic.h"

/* Everything that a run needs besides the algorithm. */
struct run_setup {
	struct sim_config cfg;
	struct algo_params params;
	struct engine_options eopt;
};

/* A figure that does not apply (negative) is null, never 0. */
static void add_number_or_null(cJSON *j, const char *key, double v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(j, key, v);
	else
		cJSON_AddNullToObject(j, key);
}

static cJSON *run_json(const struct algorithm *a, const struct run_setup *r,
		       const struct algo_run *res, const struct engine_report *er)
{
	char name[64];
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "topology", topology_name(&r->cfg.topo, name, sizeof(name)));
	cJSON_AddNumberToObject(j, "nodes", r->cfg.topo.nodes);
	cJSON_AddStringToObject(j, "algorithm", a->name);
	cJSON_AddStringToObject(j, "port_mode", r->cfg.all_port ? "all-port" : "one-port");
	cJSON_AddNumberToObject(j, "flits", r->params.flits);
	if (algo_uses_root(a))
		cJSON_AddNumberToObject(j, "root", r->params.root);
	else
		cJSON_AddNullToObject(j, "root");
	cJSON_AddNumberToObject(j, "startup", r->cfg.startup);
	cJSON_AddNumberToObject(j, "buffer_depth", r->cfg.buffer_depth);
	cJSON_AddNumberToObject(j, "payload_width", r->cfg.payload_width);
	cJSON_AddNumberToObject(j, "replication_cost", r->cfg.replication_cost);
	cJSON_AddNumberToObject(j, "per_hop_latency", 1);
	cJSON_AddNumberToObject(j, "cycles", (double)res->cycles);
	cJSON_AddNumberToObject(j, "predicted_cycles", res->predicted);
	cJSON_AddStringToObject(j, "formula", res->formula);
	cJSON_AddStringToObject(j, "kind", collective_kind_name(a->kind));
	cJSON_AddStringToObject(j, "formula_source", res->prediction.source);
	cJSON_AddBoolToObject(j, "formula_exact", res->prediction.exact);
	add_number_or_null(j, "published_cycles", res->prediction.published);
	if (res->prediction.published_source[0]) {
		cJSON_AddStringToObject(j, "published_formula", res->prediction.published_formula);
		cJSON_AddStringToObject(j, "published_source", res->prediction.published_source);
	}
	add_number_or_null(j, "schedule_cycles", res->scheduled);
	add_number_or_null(j, "lower_bound_cycles", res->lower_bound);
	if (res->lower_bound >= 0)
		cJSON_AddStringToObject(j, "lower_bound", res->bound_text);
	add_number_or_null(j, "bound_ratio",
			   res->lower_bound > 0 ? (double)res->cycles / res->lower_bound : -1);
	cJSON_AddNumberToObject(j, "ratio", res->predicted > 0 ? (double)res->cycles / res->predicted : 0);
	cJSON_AddBoolToObject(j, "delivered_ok", res->stats.delivered_ok && res->status == SIM_DONE);
	cJSON_AddBoolToObject(j, "data_ok", res->data_ok);
	/* The RTL alone does not expose its arbiters: conflicts come from the model. */
	if (strcmp(r->eopt.name, "rtl"))
		cJSON_AddNumberToObject(j, "link_conflict_cycles", (double)res->stats.conflict_cycles);
	else
		cJSON_AddNullToObject(j, "link_conflict_cycles");
	cJSON_AddNumberToObject(j, "messages", (double)res->stats.messages);
	cJSON_AddNumberToObject(j, "deliveries", (double)res->stats.deliveries);
	cJSON_AddNumberToObject(j, "flit_hops", (double)res->stats.link_moves);
	cJSON_AddNumberToObject(j, "cycles_simulated", (double)res->stats.cycles_run);
	cJSON_AddStringToObject(j, "engine", r->eopt.name);
	engine_report_json(er, j);
	if (res->error[0])
		cJSON_AddStringToObject(j, "error", res->error);
	return j;
}

static int print_json(cJSON *j, struct failure *f)
{
	char *s = j ? cJSON_PrintUnformatted(j) : NULL;

	cJSON_Delete(j);
	if (!s)
		return fail_no_memory(f);
	puts(s);
	free(s);
	return 0;
}

static int one_run(const struct algorithm *a, const struct run_setup *r, struct algo_run *res,
		   struct engine_report *er, struct failure *f)
{
	struct engine_box *e;
	char err[256];

	e = engine_create(&r->eopt, &r->cfg, err, sizeof(err));
	if (!e)
		return failf(f, EXIT_USAGE, "%s", err);
	algo_run(a, &r->params, engine_of(e), res);
	engine_finish(e, er);
	engine_destroy(e);
	return 0;
}

/* Setup of one algorithm run with message length flits. */
static int setup_run(const struct options *o, const struct algorithm *a, uint64_t flits,
		     struct run_setup *r, struct failure *f)
{
	if (setup_config(o, &r->cfg, f) || setup_algorithm(o, a, flits, &r->cfg, &r->params, f) ||
	    setup_engine(o, &r->eopt, f))
		return -1;
	return 0;
}

static int cmd_run(const struct options *o, struct failure *f)
{
	struct run_setup r;
	const struct algorithm *a;
	struct algo_run res;
	struct engine_report er;
	bool ok;

	a = algo_find(opt(o, OPT_ALGORITHM)->text);
	if (setup_run(o, a, opt(o, OPT_FLITS)->u, &r, f) || one_run(a, &r, &res, &er, f))
		return -1;
	ok = res.status == SIM_DONE && res.stats.delivered_ok && res.data_ok && er.mismatches == 0;
	if (opt(o, OPT_JSON)->set) {
		if (print_json(run_json(a, &r, &res, &er), f))
			return -1;
	} else {
		char name[64];

		printf("%s on %s (%s), root %d, L = %d flits, t_s = %d, h = 1, buffer depth %d, T_r = %d\n",
		       a->name, topology_name(&r.cfg.topo, name, sizeof(name)),
		       r.cfg.all_port ? "all-port" : "one-port", r.params.root, r.params.flits,
		       r.cfg.startup, r.cfg.buffer_depth, r.cfg.replication_cost);
		printf("  %-22s %llu\n", "measured cycles", (unsigned long long)res.cycles);
		printf("  %-22s %.1f   %s [%s]%s\n", "predicted cycles", res.predicted, res.formula,
		       res.prediction.source,
		       res.prediction.exact ? "" : "  (not exact under this model, see docs/algorithms.md)");
		if (res.prediction.published >= 0)
			printf("  %-22s %.1f   %s [%s]\n", "published formula", res.prediction.published,
			       res.prediction.published_formula, res.prediction.published_source);
		if (res.lower_bound >= 0)
			printf("  %-22s %.0f   measured / bound %.3f; %s\n", "lower bound", res.lower_bound,
			       res.lower_bound > 0 ? (double)res.cycles / res.lower_bound : 0,
			       res.bound_text);
		printf("  %-22s %.3f\n", "measured / predicted",
		       res.predicted > 0 ? (double)res.cycles / res.predicted : 0);
		printf("  %-22s %s\n", "delivered ok", res.stats.delivered_ok ? "yes" : "NO");
		printf("  %-22s %s\n", "data ok", res.data_ok ? "yes" : "NO");
		printf("  %-22s %llu\n", "link conflict cycles", (unsigned long long)res.stats.conflict_cycles);
		printf("  %-22s %llu messages, %llu deliveries, %llu flit-hops\n", "traffic",
		       (unsigned long long)res.stats.messages, (unsigned long long)res.stats.deliveries,
		       (unsigned long long)res.stats.link_moves);
		engine_report_print(&er, stdout);
	}
	if (!ok) {
		if (er.mismatches)
			fprintf(stderr, "wormcast: cosim mismatch: %s\n", er.detail);
		else if (res.error[0])
			fprintf(stderr, "wormcast: %s\n", res.error);
		return 1;
	}
	return 0;
}

static int cmd_sweep(const struct options *o, struct failure *f)
{
	const struct option_value *names = opt(o, OPT_ALGORITHMS), *lens = opt(o, OPT_FLITS_LIST);
	bool json = opt(o, OPT_JSON)->set, cosim = !strcmp(opt(o, OPT_ENGINE)->text, "cosim");
	uint64_t compared = 0, signals = 0, mismatches = 0;
	struct run_setup r;
	int failures = 0;
	cJSON *rows;

	/* Every run is set up before the first one starts: a bad pair stops nothing midway. */
	for (int k = 0; k < names->n; k++)
		for (int l = 0; l < lens->n; l++)
			if (setup_run(o, algo_find(names->names[k]), lens->items[l], &r, f))
				return -1;
	rows = cJSON_CreateArray();
	if (!rows)
		return fail_no_memory(f);
	if (!json) {
		char name[64];

		printf("latency in cycles on %s, t_s = %d, h = 1, buffer depth %d\n",
		       topology_name(&r.cfg.topo, name, sizeof(name)), r.cfg.startup,
		       r.cfg.buffer_depth);
		printf("%-10s %8s %10s %10s %7s %9s %4s %s\n", "algorithm", "L", "measured",
		       "predicted", "ratio", "conflicts", "ok",
		       cosim ? "  cosim (cycles, mismatches)" : "");
	}
	for (int k = 0; k < names->n; k++) {
		const struct algorithm *a = algo_find(names->names[k]);

		for (int l = 0; l < lens->n; l++) {
			struct algo_run res;
			struct engine_report er;
			bool ok;

			if (setup_run(o, a, lens->items[l], &r, f) || one_run(a, &r, &res, &er, f)) {
				cJSON_Delete(rows);
				return -1;
			}
			ok = res.status == SIM_DONE && res.stats.delivered_ok && res.data_ok &&
			     er.mismatches == 0;
			failures += !ok;
			if (json) {
				cJSON *row = run_json(a, &r, &res, &er);

				if (!row || !cJSON_AddItemToArray(rows, row)) {
					cJSON_Delete(row);
					cJSON_Delete(rows);
					return fail_no_memory(f);
				}
			} else {
				printf("%-10s %8d %10llu %10.0f %7.3f %9llu %4s", a->name,
				       r.params.flits, (unsigned long long)res.cycles, res.predicted,
				       res.predicted > 0 ? (double)res.cycles / res.predicted : 0,
				       (unsigned long long)res.stats.conflict_cycles, ok ? "yes" : "NO");
				if (er.compared)
					printf("   %8llu %3llu", (unsigned long long)er.cycles_compared,
					       (unsigned long long)er.mismatches);
				putchar('\n');
				if (er.mismatches)
					printf("    first mismatch: %s\n", er.detail);
				compared += er.cycles_compared;
				signals += er.signals_compared;
				mismatches += er.mismatches;
			}
		}
	}
	if (json) {
		cJSON *j = cJSON_CreateObject();

		if (!j || !cJSON_AddItemToObject(j, "runs", rows)) {
			cJSON_Delete(j);
			cJSON_Delete(rows);
			return fail_no_memory(f);
		}
		if (print_json(j, f))
			return -1;
	} else {
		cJSON_Delete(rows);
		if (cosim)
			printf("cosim: %s, %llu cycles and %llu signal values compared, %llu mismatches\n",
			       mismatches ? "FAIL" : "PASS", (unsigned long long)compared,
			       (unsigned long long)signals, (unsigned long long)mismatches);
	}
	return failures ? EXIT_FAILED : EXIT_PASSED;
}

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmd_traffic(const struct options *o, struct failure *f)
{
	struct sim_config cfg;
	struct traffic_params tp;
	struct traffic *t;
	struct driver d;
	struct sim *s;
	struct engine_box *e;
	struct engine_options eopt;
	struct engine_report er;
	struct sim_stats st;
	struct traffic_stats ts;
	enum sim_status status;
	char err[256], name[64];
	double t0, secs;
	bool ok;

	if (setup_config(o, &cfg, f) || setup_engine(o, &eopt, f))
		return -1;
	setup_traffic(o, &tp);
	e = engine_create(&eopt, &cfg, err, sizeof(err));
	if (!e)
		return failf(f, EXIT_USAGE, "%s", err);
	t = traffic_create(&tp, &cfg.topo);
	s = sim_create_with_engine(&cfg, engine_of(e), err, sizeof(err));
	if (!t || !s) {
		sim_destroy(s);
		traffic_destroy(t);
		engine_destroy(e);
		return fail_no_memory(f);
	}
	traffic_driver(t, &d);
	t0 = seconds_now();
	status = sim_run(s, &d);
	secs = seconds_now() - t0;
	sim_get_stats(s, &st);
	traffic_get_stats(t, s, &ts);
	engine_finish(e, &er);
	ok = status == SIM_DONE && st.delivered_ok && er.mismatches == 0;
	if (opt(o, OPT_JSON)->set) {
		cJSON *j = cJSON_CreateObject();

		cJSON_AddStringToObject(j, "topology", topology_name(&cfg.topo, name, sizeof(name)));
		cJSON_AddStringToObject(j, "port_mode", cfg.all_port ? "all-port" : "one-port");
		cJSON_AddNumberToObject(j, "rate", tp.rate);
		cJSON_AddNumberToObject(j, "min_flits", tp.min_len);
		cJSON_AddNumberToObject(j, "max_flits", tp.max_len);
		cJSON_AddNumberToObject(j, "seed", (double)tp.seed);
		cJSON_AddNumberToObject(j, "cycles", (double)tp.cycles);
		cJSON_AddNumberToObject(j, "ir_fraction", tp.ir_fraction);
		cJSON_AddNumberToObject(j, "b_fraction", tp.b_fraction);
		cJSON_AddNumberToObject(j, "startup", cfg.startup);
		cJSON_AddNumberToObject(j, "buffer_depth", cfg.buffer_depth);
		cJSON_AddNumberToObject(j, "payload_width", cfg.payload_width);
		cJSON_AddNumberToObject(j, "replication_cost", cfg.replication_cost);
		cJSON_AddNumberToObject(j, "watchdog", (double)cfg.watchdog);
		cJSON_AddNumberToObject(j, "sink_stall", cfg.sink_stall);
		cJSON_AddNumberToObject(j, "cycles_simulated", (double)st.cycles_run);
		cJSON_AddNumberToObject(j, "messages", (double)ts.messages);
		cJSON_AddNumberToObject(j, "broadcasts", (double)ts.broadcasts);
		cJSON_AddNumberToObject(j, "deliveries", (double)st.deliveries);
		cJSON_AddNumberToObject(j, "flit_hops", (double)st.link_moves);
		cJSON_AddNumberToObject(j, "avg_latency", ts.avg_latency);
		cJSON_AddNumberToObject(j, "max_latency", (double)ts.max_latency);
		cJSON_AddNumberToObject(j, "link_conflict_cycles", (double)st.conflict_cycles);
		cJSON_AddBoolToObject(j, "delivered_ok", ok);
		cJSON_AddNumberToObject(j, "wall_seconds", secs);
		cJSON_AddNumberToObject(j, "cycles_per_second", secs > 0 ? st.cycles_run / secs : 0);
		cJSON_AddNumberToObject(j, "flit_hops_per_second", secs > 0 ? st.link_moves / secs : 0);
		cJSON_AddStringToObject(j, "engine", eopt.name);
		engine_report_json(&er, j);
		if (!ok)
			cJSON_AddStringToObject(j, "error", sim_error(s));
		if (print_json(j, f))
			ok = false;
	} else {
		printf("random traffic on %s: %llu cycles, %llu messages (%llu broadcasts), avg latency %.1f, max %llu\n",
		       topology_name(&cfg.topo, name, sizeof(name)), (unsigned long long)st.cycles_run,
		       (unsigned long long)ts.messages, (unsigned long long)ts.broadcasts,
		       ts.avg_latency, (unsigned long long)ts.max_latency);
		printf("  %llu flit-hops in %.3f s: %.0f cycles/s, %.0f flit-hops/s; delivered ok: %s\n",
		       (unsigned long long)st.link_moves, secs, secs > 0 ? st.cycles_run / secs : 0,
		       secs > 0 ? st.link_moves / secs : 0, ok ? "yes" : "NO");
		engine_report_print(&er, stdout);
	}
	if (!ok) {
		if (er.mismatches)
			fprintf(stderr, "wormcast: cosim mismatch: %s\n", er.detail);
		else
			sim_write_report(s, stderr);
	}
	sim_destroy(s);
	traffic_destroy(t);
	engine_destroy(e);
	if (f->status)
		return -1;
	return ok ? EXIT_PASSED : EXIT_FAILED;
}

static void trace_json(cJSON *j, const char *trace, const char *latencies,
		       const struct sim_config *cfg,
		       const struct trace_stats *ts, const struct sim_stats *st)
{
	char name[64];

	cJSON_AddStringToObject(j, "topology", topology_name(&cfg->topo, name, sizeof(name)));
	cJSON_AddNumberToObject(j, "nodes", cfg->topo.nodes);
	cJSON_AddStringToObject(j, "port_mode", cfg->all_port ? "all-port" : "one-port");
	cJSON_AddStringToObject(j, "trace", trace);
	cJSON_AddNumberToObject(j, "startup", cfg->startup);
	cJSON_AddNumberToObject(j, "buffer_depth", cfg->buffer_depth);
	cJSON_AddNumberToObject(j, "payload_width", cfg->payload_width);
	cJSON_AddNumberToObject(j, "replication_cost", cfg->replication_cost);
	cJSON_AddNumberToObject(j, "per_hop_latency", 1);
	cJSON_AddNumberToObject(j, "watchdog", (double)cfg->watchdog);
	cJSON_AddNumberToObject(j, "sink_stall", cfg->sink_stall);
	cJSON_AddNumberToObject(j, "messages", (double)ts->messages);
	cJSON_AddNumberToObject(j, "broadcasts", (double)ts->broadcasts);
	cJSON_AddNumberToObject(j, "sent", (double)ts->sent);
	cJSON_AddNumberToObject(j, "delivered", (double)ts->delivered);
	cJSON_AddNumberToObject(j, "deliveries", (double)st->deliveries);
	cJSON_AddNumberToObject(j, "cycles", (double)st->cycles_run);
	cJSON_AddNumberToObject(j, "last_delivery", (double)st->last_delivery);
	cJSON_AddNumberToObject(j, "avg_latency", ts->avg_latency);
	cJSON_AddNumberToObject(j, "min_latency", (double)ts->min_latency);
	cJSON_AddNumberToObject(j, "p50_latency", (double)ts->p50_latency);
	cJSON_AddNumberToObject(j, "p99_latency", (double)ts->p99_latency);
	cJSON_AddNumberToObject(j, "max_latency", (double)ts->max_latency);
	cJSON_AddNumberToObject(j, "max_send_delay", (double)ts->max_send_delay);
	cJSON_AddNumberToObject(j, "flit_hops", (double)st->link_moves);
	if (latencies)
		cJSON_AddStringToObject(j, "latencies", latencies);
	else
		cJSON_AddNullToObject(j, "latencies");
}

static int cmd_trace(const struct options *o, struct failure *f)
{
	const char *path = opt(o, OPT_TRACE)->text;
	const char *latencies = opt(o, OPT_LATENCIES)->set ? opt(o, OPT_LATENCIES)->text : NULL;
	struct sim_config cfg;
	struct trace *tr;
	struct driver d;
	struct sim *s;
	struct engine_box *e;
	struct engine_options eopt;
	struct engine_report er;
	struct sim_stats st;
	struct trace_stats ts;
	enum sim_status status;
	FILE *csv = NULL;
	char err[512], name[64];
	bool ok;
	int rc = 0;

	if (setup_config(o, &cfg, f) || setup_engine(o, &eopt, f))
		return -1;
	tr = trace_load(path, &cfg.topo, err, sizeof(err));
	if (!tr)
		return strcmp(err, NO_MEMORY) ? failf(f, EXIT_USAGE, "%s", err) : fail_no_memory(f);
	if (latencies) {
		csv = fopen(latencies, "w");
		if (!csv) {
			trace_destroy(tr);
			return failf(f, EXIT_USAGE, "--latencies: cannot write '%s': %s", latencies,
				     strerror(errno));
		}
	}
	e = engine_create(&eopt, &cfg, err, sizeof(err));
	s = e ? sim_create_with_engine(&cfg, engine_of(e), err, sizeof(err)) : NULL;
	if (!s) {
		engine_destroy(e);
		trace_destroy(tr);
		if (csv)
			fclose(csv);
		return failf(f, EXIT_USAGE, "%s", err);
	}
	trace_driver(tr, &d);
	status = sim_run(s, &d);
	sim_get_stats(s, &st);
	if (trace_get_stats(tr, s, &ts))
		fail_no_memory(f);
	engine_finish(e, &er);
	ok = status == SIM_DONE && st.delivered_ok && er.mismatches == 0 && !trace_error(tr)[0] &&
	     ts.delivered == ts.messages;
	if (csv) {
		if (trace_write_csv(tr, s, csv) | fclose(csv)) {
			failf(f, EXIT_FAILED, "--latencies: error writing '%s'", latencies);
		}
	}
	if (!f->status && opt(o, OPT_JSON)->set) {
		cJSON *j = cJSON_CreateObject();

		trace_json(j, path, latencies, &cfg, &ts, &st);
		/* The RTL alone does not expose its arbiters: conflicts come from the model. */
		if (strcmp(eopt.name, "rtl"))
			cJSON_AddNumberToObject(j, "link_conflict_cycles", (double)st.conflict_cycles);
		else
			cJSON_AddNullToObject(j, "link_conflict_cycles");
		cJSON_AddBoolToObject(j, "delivered_ok", ok);
		cJSON_AddStringToObject(j, "engine", eopt.name);
		engine_report_json(&er, j);
		if (!ok)
			cJSON_AddStringToObject(j, "error", trace_error(tr)[0] ? trace_error(tr) : sim_error(s));
		print_json(j, f);
	} else if (!f->status) {
		printf("trace %s on %s (%s), t_s = %d, h = 1, buffer depth %d\n", path,
		       topology_name(&cfg.topo, name, sizeof(name)),
		       cfg.all_port ? "all-port" : "one-port", cfg.startup, cfg.buffer_depth);
		printf("  %-22s %llu (%llu broadcasts), %llu delivered\n", "messages",
		       (unsigned long long)ts.messages, (unsigned long long)ts.broadcasts,
		       (unsigned long long)ts.delivered);
		printf("  %-22s avg %.1f, min %llu, p50 %llu, p99 %llu, max %llu\n", "latency",
		       ts.avg_latency, (unsigned long long)ts.min_latency,
		       (unsigned long long)ts.p50_latency, (unsigned long long)ts.p99_latency,
		       (unsigned long long)ts.max_latency);
		printf("  %-22s %llu\n", "max send delay", (unsigned long long)ts.max_send_delay);
		printf("  %-22s %llu (last delivery at %llu)\n", "cycles",
		       (unsigned long long)st.cycles_run, (unsigned long long)st.last_delivery);
		printf("  %-22s %llu deliveries, %llu flit-hops, %llu link conflict cycles\n",
		       "traffic", (unsigned long long)st.deliveries,
		       (unsigned long long)st.link_moves, (unsigned long long)st.conflict_cycles);
		printf("  %-22s %s\n", "delivered ok", ok ? "yes" : "NO");
		engine_report_print(&er, stdout);
	}
	if (!ok) {
		if (er.mismatches)
			fprintf(stderr, "wormcast: cosim mismatch: %s\n", er.detail);
		else if (trace_error(tr)[0])
			fprintf(stderr, "wormcast: %s: %s\n", path, trace_error(tr));
		else
			sim_write_report(s, stderr);
		rc = 1;
	}
	sim_destroy(s);
	trace_destroy(tr);
	engine_destroy(e);
	if (f->status)
		return -1;
	return rc;
}

static int cmd_list(const struct options *o, struct failure *f)
{
	cJSON *j = cJSON_CreateObject(), *as = cJSON_AddArrayToObject(j, "algorithms");
	cJSON *ts = cJSON_AddArrayToObject(j, "topologies");

	for (int k = 0; algorithms[k]; k++) {
		const struct algorithm *a = algorithms[k];
		cJSON *x = cJSON_CreateObject(), *tops = cJSON_CreateArray();

		cJSON_AddStringToObject(x, "name", a->name);
		if (a->topologies & ALGO_HYPERCUBE)
			cJSON_AddItemToArray(tops, cJSON_CreateString("hypercube"));
		if (a->topologies & ALGO_MESH)
			cJSON_AddItemToArray(tops, cJSON_CreateString("mesh"));
		cJSON_AddItemToObject(x, "topologies", tops);
		cJSON_AddStringToObject(x, "networks", a->networks);
		cJSON_AddStringToObject(x, "port_mode", a->all_port ? "all-port" : "one-port");
		cJSON_AddStringToObject(x, "kind", collective_kind_name(a->kind));
		cJSON_AddStringToObject(x, "source", a->source);
		cJSON_AddStringToObject(x, "formula_source", a->formula_source);
		cJSON_AddStringToObject(x, "description", a->description);
		cJSON_AddItemToArray(as, x);
	}
	cJSON_AddItemToArray(ts, cJSON_CreateString("hypercube"));
	cJSON_AddItemToArray(ts, cJSON_CreateString("mesh"));
	engine_list_json(j);
	if (opt(o, OPT_JSON)->set)
		return print_json(j, f) ? -1 : EXIT_PASSED;
	printf("algorithms:\n");
	for (int k = 0; algorithms[k]; k++)
		printf("  %-9s %-10s %-15s %-8s %s (%s)\n", algorithms[k]->name,
		       collective_kind_name(algorithms[k]->kind),
		       algorithms[k]->topologies == (ALGO_HYPERCUBE | ALGO_MESH) ? "hypercube, mesh" :
		       algorithms[k]->topologies == ALGO_MESH ? "mesh" : "hypercube",
		       algorithms[k]->all_port ? "all-port" : "one-port", algorithms[k]->description,
		       algorithms[k]->source);
	printf("topologies: hypercube:D (D = 1..12), mesh:RxC (R, C = 1..64)\n");
	engine_list_print(stdout);
	cJSON_Delete(j);
	return 0;
}

int command_run(const struct options *o, struct failure *f)
{
	switch (o->command) {
	case CMD_ID_RUN: return cmd_run(o, f);
	case CMD_ID_SWEEP: return cmd_sweep(o, f);
	case CMD_ID_TRAFFIC: return cmd_traffic(o, f);
	case CMD_ID_TRACE: return cmd_trace(o, f);
	case CMD_ID_LIST: return cmd_list(o, f);
	case N_COMMANDS: break;
	}
	return failf(f, EXIT_USAGE, "no such command");
}
