/* SPDX-License-Identifier: MIT */
/*
 * report.c - the commands' output (see report.h).  JSON is built with cJSON through a
 * writer that remembers a failed allocation, so that a report is either whole or
 * "out of memory", never a crash or half an object.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

struct json {
	cJSON *o;
	bool failed;
};

static void j_num(struct json *j, const char *key, double v)
{
	if (!j->failed && !cJSON_AddNumberToObject(j->o, key, v))
		j->failed = true;
}

static void j_null(struct json *j, const char *key)
{
	if (!j->failed && !cJSON_AddNullToObject(j->o, key))
		j->failed = true;
}

/* A figure that exists only when measured: null otherwise, never 0. */
static void j_maybe(struct json *j, const char *key, bool measured, double v)
{
	if (measured)
		j_num(j, key, v);
	else
		j_null(j, key);
}

static void j_str(struct json *j, const char *key, const char *v)
{
	if (!j->failed && !cJSON_AddStringToObject(j->o, key, v))
		j->failed = true;
}

static void j_bool(struct json *j, const char *key, bool v)
{
	if (!j->failed && !cJSON_AddBoolToObject(j->o, key, v))
		j->failed = true;
}

static struct json j_begin(void)
{
	struct json j = { .o = cJSON_CreateObject() };

	j.failed = !j.o;
	return j;
}

static cJSON *j_end(struct json *j)
{
	if (!j->failed)
		return j->o;
	cJSON_Delete(j->o);
	return NULL;
}

/* A latency summary (null if nothing was delivered). */
static void j_latency(struct json *j, const struct latency_summary *l, bool any)
{
	j_maybe(j, "avg_latency", any, l->avg);
	j_maybe(j, "min_latency", any, (double)l->min);
	j_maybe(j, "p50_latency", any, (double)l->p50);
	j_maybe(j, "p99_latency", any, (double)l->p99);
	j_maybe(j, "max_latency", any, (double)l->max);
}

/* The network and NI parameters every report echoes. */
static void j_network(struct json *j, const struct sim_config *cfg)
{
	char name[64];

	j_str(j, "topology", topology_name(&cfg->topo, name, sizeof(name)));
	j_num(j, "nodes", cfg->topo.nodes);
	j_str(j, "port_mode", cfg->all_port ? "all-port" : "one-port");
	j_num(j, "startup", cfg->startup);
	j_num(j, "buffer_depth", cfg->buffer_depth);
	j_num(j, "payload_width", cfg->payload_width);
	j_num(j, "replication_cost", cfg->replication_cost);
	j_num(j, "virtual_channels", cfg->topo.vcs);
	j_str(j, "route_order", dim_order_name(cfg->topo.route_order));
	j_str(j, "tree_order", dim_order_name(cfg->topo.tree_order));
	j_num(j, "per_hop_latency", 1);
	j_num(j, "watchdog", (double)cfg->watchdog);
	j_num(j, "sink_stall", cfg->sink_stall);
}

/* The verdict and the engine's report, at the end of every object. */
static void j_verdict(struct json *j, const struct report_context *c, const struct run_result *r)
{
	j_maybe(j, "link_conflict_cycles", r->stats.conflicts_measured,
		(double)r->stats.conflict_cycles);
	j_bool(j, "delivered_ok", r->delivered_ok);
	j_bool(j, "ok", r->ok);
	j_bool(j, "interrupted", r->interrupted);
	j_str(j, "engine", c->engine);
	/*
	 * Which core stepped the network: the pair walk (on unless --no-pair-walk) or the
	 * routers (--no-pair-walk, or a run the walk does not cover), never a silent choice.
	 * In every report, null where the C model is not the engine (no core to name: a
	 * figure an engine does not measure is null, never absent).
	 */
	if (r->stats.network_core)
		j_str(j, "network_core", r->stats.network_core);
	else
		j_null(j, "network_core");
	if (!j->failed && engine_report_json(&r->engine, j->o))
		j->failed = true;
	if (r->engine.window_written)
		j_str(j, "mismatch_vcd", c->mismatch_vcd);
	if (!r->ok)
		j_str(j, "error", r->error);
}

cJSON *report_run_json(const struct report_context *c, const struct algorithm_work *w,
		       const struct run_result *r)
{
	const struct algo_run *x = &w->out;
	const struct algo_params *p = &w->session.params;
	/* Without a simulation (--formula-only) nothing is measured. */
	bool measured = r && r->stats.deliveries > 0;
	struct json j = j_begin();

	j_network(&j, c->cfg);
	j_str(&j, "algorithm", w->a->name);
	j_str(&j, "kind", collective_kind_name(w->a->kind));
	j_num(&j, "flits", p->flits);
	j_maybe(&j, "root", algo_uses_root(w->a), p->root);
	j_maybe(&j, "packets", x->packets >= 0, x->packets);
	j_bool(&j, "simulated", r != NULL);
	/* From the first send to the last delivery: nothing to measure without one. */
	j_maybe(&j, "cycles", measured, (double)x->cycles);
	j_num(&j, "predicted_cycles", x->predicted);
	j_str(&j, "formula", x->formula);
	j_str(&j, "formula_source", x->prediction.source);
	j_bool(&j, "formula_exact", x->prediction.exact);
	j_maybe(&j, "ratio", x->predicted > 0 && measured,
		x->predicted > 0 ? (double)x->cycles / x->predicted : 0);
	/* Negative: does not apply. */
	j_maybe(&j, "published_cycles", x->prediction.published >= 0, x->prediction.published);
	if (x->prediction.published_source[0]) {
		j_str(&j, "published_formula", x->prediction.published_formula);
		j_str(&j, "published_source", x->prediction.published_source);
	}
	j_maybe(&j, "schedule_cycles", x->scheduled >= 0, x->scheduled);
	j_maybe(&j, "lower_bound_cycles", x->lower_bound >= 0, x->lower_bound);
	if (x->lower_bound >= 0)
		j_str(&j, "lower_bound", x->bound_text);
	j_maybe(&j, "bound_ratio", x->lower_bound > 0 && measured,
		x->lower_bound > 0 ? (double)x->cycles / x->lower_bound : 0);
	if (!r) {
		/* The schedule ran the plan and its data check without the network. */
		static const char *const none[] = {
			"data_ok", "messages", "deliveries", "flit_hops", "cycles_simulated",
			"link_conflict_cycles", "delivered_ok", "cycles_compared",
			"signals_compared", "mismatches",
		};

		for (size_t k = 0; k < sizeof(none) / sizeof(none[0]); k++)
			j_null(&j, none[k]);
		j_bool(&j, "ok", x->scheduled >= 0);
		j_bool(&j, "interrupted", false);
		j_str(&j, "engine", "none");
		if (x->scheduled < 0)
			j_str(&j, "error", x->schedule_text);
		return j_end(&j);
	}
	j_bool(&j, "data_ok", r->data_ok);
	j_num(&j, "messages", (double)r->stats.messages);
	j_num(&j, "deliveries", (double)r->stats.deliveries);
	j_num(&j, "flit_hops", (double)r->stats.link_moves);
	j_num(&j, "cycles_simulated", (double)r->stats.cycles_run);
	j_verdict(&j, c, r);
	return j_end(&j);
}

cJSON *report_traffic_json(const struct report_context *c, const struct traffic_work *w,
			   const struct run_result *r)
{
	const struct traffic_params *p = &w->params;
	const struct traffic_stats *t = &w->stats;
	double secs = r->wall_seconds;
	struct json j = j_begin();

	j_network(&j, c->cfg);
	j_num(&j, "rate", p->rate);
	j_num(&j, "min_flits", p->min_len);
	j_num(&j, "max_flits", p->max_len);
	j_num(&j, "seed", (double)p->seed);
	j_num(&j, "cycles", (double)p->cycles);
	j_num(&j, "ir_fraction", p->ir_fraction);
	j_num(&j, "b_fraction", p->b_fraction);
	j_num(&j, "path_fraction", p->path_fraction);
	j_num(&j, "cycles_simulated", (double)r->stats.cycles_run);
	j_num(&j, "messages", (double)t->messages);
	j_num(&j, "broadcasts", (double)t->broadcasts);
	/* Flits handed to the NIs per node per cycle of the window: the load accepted. */
	j_num(&j, "sent_rate", (double)t->flits_sent / ((double)c->cfg->topo.nodes * (double)p->cycles));
	j_num(&j, "delivered", (double)t->delivered);
	j_num(&j, "deliveries", (double)r->stats.deliveries);
	j_num(&j, "flit_hops", (double)r->stats.link_moves);
	j_latency(&j, &t->latency, t->delivered > 0);
	j_num(&j, "wall_seconds", secs);
	j_maybe(&j, "cycles_per_second", secs > 0, secs > 0 ? r->stats.cycles_run / secs : 0);
	j_maybe(&j, "flit_hops_per_second", secs > 0, secs > 0 ? r->stats.link_moves / secs : 0);
	j_verdict(&j, c, r);
	return j_end(&j);
}

cJSON *report_trace_json(const struct report_context *c, const struct trace_work *w,
			 const char *latencies, const struct run_result *r)
{
	const struct trace_stats *t = &w->stats;
	bool any = t->delivered > 0;
	struct json j = j_begin();

	j_network(&j, c->cfg);
	j_str(&j, "trace", w->path);
	j_num(&j, "messages", (double)t->messages);
	j_num(&j, "broadcasts", (double)t->broadcasts);
	j_num(&j, "sent", (double)t->sent);
	j_num(&j, "delivered", (double)t->delivered);
	j_num(&j, "deliveries", (double)r->stats.deliveries);
	j_num(&j, "cycles", (double)r->stats.cycles_run);
	j_maybe(&j, "last_delivery", r->stats.deliveries > 0, (double)r->stats.last_delivery);
	j_latency(&j, &t->latency, any);
	j_num(&j, "max_send_delay", (double)t->max_send_delay);
	j_num(&j, "flit_hops", (double)r->stats.link_moves);
	if (latencies)
		j_str(&j, "latencies", latencies);
	else
		j_null(&j, "latencies");
	j_verdict(&j, c, r);
	return j_end(&j);
}

char *report_json_text(cJSON *j)
{
	char *s = j ? cJSON_PrintUnformatted(j) : NULL;

	cJSON_Delete(j);
	return s;
}

int report_print_json(cJSON *j, FILE *out, struct failure *f)
{
	char *s = report_json_text(j);

	if (!s)
		return fail_no_memory(f);
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return 0;
}

/* ---- tables ---- */

static const char *yes(bool b)
{
	return b ? "yes" : "NO";
}

#define NOT_MEASURED "not measured (the RTL alone does not show its arbiters)"

/*
 * Which core stepped the network, as the JSON's network_core says (the pair walk, or the
 * routers with --no-pair-walk): where the C model ran; nothing for another engine.
 */
static void core_text(const struct run_result *r, FILE *out)
{
	if (r->stats.network_core)
		fprintf(out, "  %-22s %s\n", "network core", r->stats.network_core);
}

/* "N" (with_label: "N link conflict cycles"), or that the engine does not measure it. */
static void conflicts_text(const struct run_result *r, bool with_label, char *buf, size_t len)
{
	if (r->stats.conflicts_measured)
		snprintf(buf, len, "%llu%s", (unsigned long long)r->stats.conflict_cycles,
			 with_label ? " link conflict cycles" : "");
	else
		snprintf(buf, len, "%s" NOT_MEASURED, with_label ? "link conflict cycles " : "");
}

static void interrupted_text(const struct run_result *r, FILE *out)
{
	if (r->interrupted)
		fprintf(out, "  %-22s %s: the figures are partial\n", "INTERRUPTED", r->error);
}

void report_run_text(const struct report_context *c, const struct algorithm_work *w,
		     const struct run_result *r, FILE *out)
{
	const struct algo_run *x = &w->out;
	const struct algo_params *p = &w->session.params;
	char name[64], conf[96];

	fprintf(out, "%s on %s (%s), root %d, L = %d flits, t_s = %d, h = 1, buffer depth %d, "
		"T_r = %d, routes %s, trees %s%s\n", w->a->name,
		topology_name(&c->cfg->topo, name, sizeof(name)),
		c->cfg->all_port ? "all-port" : "one-port", p->root, p->flits, c->cfg->startup,
		c->cfg->buffer_depth, c->cfg->replication_cost,
		dim_order_name(c->cfg->topo.route_order), dim_order_name(c->cfg->topo.tree_order),
		c->cfg->topo.vcs == 2 ? ", V = 2" : c->cfg->topo.vcs == 3 ? ", V = 3" : "");
	if (x->packets > 0)
		fprintf(out, "  %-22s %d, of %d or %d payload words\n", "packets", x->packets,
			(p->flits - 1) / x->packets, (p->flits - 1 + x->packets - 1) / x->packets);
	if (!r) {
		fprintf(out, "  %-22s not simulated (--formula-only)\n", "measured cycles");
		fprintf(out, "  %-22s %.1f   %s [%s]\n", "predicted cycles", x->predicted,
			x->formula, x->prediction.source);
		if (x->prediction.published >= 0)
			fprintf(out, "  %-22s %.1f   %s [%s]\n", "published formula",
				x->prediction.published, x->prediction.published_formula,
				x->prediction.published_source);
		fprintf(out, "  %-22s %s\n", "schedule", x->schedule_text);
		if (x->lower_bound >= 0)
			fprintf(out, "  %-22s %.0f   %s\n", "lower bound", x->lower_bound,
				x->bound_text);
		return;
	}
	conflicts_text(r, false, conf, sizeof(conf));
	if (r->stats.deliveries)
		fprintf(out, "  %-22s %llu\n", "measured cycles", (unsigned long long)x->cycles);
	else
		fprintf(out, "  %-22s none (nothing was delivered)\n", "measured cycles");
	fprintf(out, "  %-22s %.1f   %s [%s]%s\n", "predicted cycles", x->predicted, x->formula,
		x->prediction.source,
		x->prediction.exact ? "" : "  (not exact under this model, see docs/algorithms.md)");
	if (x->prediction.published >= 0)
		fprintf(out, "  %-22s %.1f   %s [%s]\n", "published formula", x->prediction.published,
			x->prediction.published_formula, x->prediction.published_source);
	if (x->lower_bound >= 0)
		fprintf(out, "  %-22s %.0f   measured / bound %.3f; %s\n", "lower bound",
			x->lower_bound,
			x->lower_bound > 0 && r->stats.deliveries ? (double)x->cycles / x->lower_bound : 0,
			x->bound_text);
	if (x->predicted > 0 && r->stats.deliveries)
		fprintf(out, "  %-22s %.3f\n", "measured / predicted", (double)x->cycles / x->predicted);
	fprintf(out, "  %-22s %s\n", "delivered ok", yes(r->delivered_ok));
	fprintf(out, "  %-22s %s\n", "data ok", yes(r->data_ok));
	fprintf(out, "  %-22s %s\n", "link conflict cycles", conf);
	fprintf(out, "  %-22s %llu messages, %llu deliveries, %llu flit-hops\n", "traffic",
		(unsigned long long)r->stats.messages, (unsigned long long)r->stats.deliveries,
		(unsigned long long)r->stats.link_moves);
	engine_report_print(&r->engine, out);
	core_text(r, out);
	interrupted_text(r, out);
}

/* A number of a run's JSON object, or -1 if it is null or missing. */
static double j_get(const cJSON *run, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);

	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static const char *j_text(const cJSON *run, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);

	return cJSON_IsString(v) ? v->valuestring : "?";
}

void report_sweep_header(const cJSON *run, FILE *out)
{
	fprintf(out, "latency in cycles on %s, t_s = %.0f, h = 1, buffer depth %.0f, T_r = %.0f\n",
		j_text(run, "topology"), j_get(run, "startup"), j_get(run, "buffer_depth"),
		j_get(run, "replication_cost"));
	fprintf(out, "%-10s %8s %10s %10s %7s %9s %4s %s\n", "algorithm", "L", "measured",
		"predicted", "ratio", "conflicts", "ok",
		engine_compares(j_text(run, "engine")) ? "  cosim (cycles, mismatches)" : "");
}

void report_sweep_row(const cJSON *run, FILE *out)
{
	double cycles = j_get(run, "cycles"), predicted = j_get(run, "predicted_cycles");
	double conflicts = j_get(run, "link_conflict_cycles");
	double compared = j_get(run, "cycles_compared"), mismatches = j_get(run, "mismatches");
	char c[24] = "-", ratio[16] = "-", conf[24] = "-";

	if (cycles >= 0)
		snprintf(c, sizeof(c), "%.0f", cycles);
	if (cycles >= 0 && predicted > 0)
		snprintf(ratio, sizeof(ratio), "%.3f", cycles / predicted);
	if (conflicts >= 0)
		snprintf(conf, sizeof(conf), "%.0f", conflicts);
	fprintf(out, "%-10s %8.0f %10s %10.0f %7s %9s %4s", j_text(run, "algorithm"),
		j_get(run, "flits"), c, predicted, ratio, conf,
		yes(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "ok"))));
	if (compared >= 0)
		fprintf(out, "   %8.0f %3.0f", compared, mismatches);
	fputc('\n', out);
	if (mismatches > 0)
		fprintf(out, "    first mismatch: %s\n", j_text(run, "first_mismatch"));
}

void report_sweep_footer(const cJSON *runs, FILE *out)
{
	double cycles = 0, signals = 0, mismatches = 0;
	bool compared = false, all = false;
	const cJSON *run;

	cJSON_ArrayForEach(run, runs) {
		const cJSON *what = cJSON_GetObjectItemCaseSensitive(run, "compare");

		if (j_get(run, "cycles_compared") < 0)
			continue;
		compared = true;
		all = cJSON_IsString(what) && !strcmp(what->valuestring, "all");
		cycles += j_get(run, "cycles_compared");
		signals += j_get(run, "signals_compared");
		mismatches += j_get(run, "mismatches");
	}
	if (compared)
		fprintf(out, "cosim: %s, %.0f cycles and %.0f %s compared, %.0f mismatches\n",
			mismatches ? "FAIL" : "PASS", cycles, signals,
			all ? "register values" : "signal values", mismatches);
}

void report_traffic_text(const struct report_context *c, const struct traffic_work *w,
			 const struct run_result *r, FILE *out)
{
	const struct traffic_stats *t = &w->stats;
	double secs = r->wall_seconds;
	char name[96], conf[128];

	conflicts_text(r, true, conf, sizeof(conf));
	fprintf(out, "random traffic on %s: %llu cycles, %llu messages (%llu broadcasts), ",
		topology_name(&c->cfg->topo, name, sizeof(name)),
		(unsigned long long)r->stats.cycles_run, (unsigned long long)t->messages,
		(unsigned long long)t->broadcasts);
	if (t->delivered)
		fprintf(out, "avg latency %.1f, p99 %llu, max %llu\n", t->latency.avg,
			(unsigned long long)t->latency.p99, (unsigned long long)t->latency.max);
	else
		fprintf(out, "none delivered\n");
	fprintf(out, "  %llu flit-hops in %.3f s: %.0f cycles/s, %.0f flit-hops/s; %s; "
		"delivered ok: %s\n", (unsigned long long)r->stats.link_moves, secs,
		secs > 0 ? r->stats.cycles_run / secs : 0, secs > 0 ? r->stats.link_moves / secs : 0,
		conf, yes(r->delivered_ok));
	engine_report_print(&r->engine, out);
	core_text(r, out);
	interrupted_text(r, out);
}

void report_trace_text(const struct report_context *c, const struct trace_work *w,
		       const struct run_result *r, FILE *out)
{
	const struct trace_stats *t = &w->stats;
	char name[64], conf[128];

	conflicts_text(r, true, conf, sizeof(conf));
	fprintf(out, "trace %s on %s (%s), t_s = %d, h = 1, buffer depth %d\n", w->path,
		topology_name(&c->cfg->topo, name, sizeof(name)),
		c->cfg->all_port ? "all-port" : "one-port", c->cfg->startup, c->cfg->buffer_depth);
	fprintf(out, "  %-22s %llu (%llu broadcasts), %llu delivered\n", "messages",
		(unsigned long long)t->messages, (unsigned long long)t->broadcasts,
		(unsigned long long)t->delivered);
	if (t->delivered)
		fprintf(out, "  %-22s avg %.1f, min %llu, p50 %llu, p99 %llu, max %llu\n", "latency",
			t->latency.avg, (unsigned long long)t->latency.min,
			(unsigned long long)t->latency.p50, (unsigned long long)t->latency.p99,
			(unsigned long long)t->latency.max);
	else
		fprintf(out, "  %-22s none delivered\n", "latency");
	fprintf(out, "  %-22s %llu\n", "max send delay", (unsigned long long)t->max_send_delay);
	fprintf(out, "  %-22s %llu (last delivery at %llu)\n", "cycles",
		(unsigned long long)r->stats.cycles_run, (unsigned long long)r->stats.last_delivery);
	fprintf(out, "  %-22s %llu deliveries, %llu flit-hops, %s\n",
		"traffic", (unsigned long long)r->stats.deliveries,
		(unsigned long long)r->stats.link_moves, conf);
	fprintf(out, "  %-22s %s\n", "delivered ok", yes(r->delivered_ok));
	engine_report_print(&r->engine, out);
	core_text(r, out);
	interrupted_text(r, out);
}

void report_failure(const struct report_context *c, const struct run_result *r, FILE *err)
{
	if (r->ok)
		return;
	fprintf(err, "wormcast: %s\n", r->error);
	if (r->engine.mismatches) {
		if (r->engine.window_written)
			fprintf(err, "wormcast: the cycles around it, model and RTL side by side: %s\n",
				c->mismatch_vcd);
		else if (!c->mismatch_vcd)
			fprintf(err, "wormcast: --mismatch-vcd FILE writes the cycles around it "
				"(the run is deterministic)\n");
	}
	if (r->report)
		fputs(r->report, err);
}
