/* SPDX-License-Identifier: MIT */
/*
 * wormcast - command line front end.
 *
 *   wormcast run --topology hypercube:D|mesh:RxC --algorithm NAME --flits L
 *                [--root S] [--startup T] [--buffer-depth B] [--payload-width W]
 *                [--replication-cost T_r]
 *                [--watchdog N] [--engine model|rtl|cosim] [--vcd F] [--fst F] [--json]
 *                [--rtl-top] [--inject-bug N] [--mismatch-vcd F]   (RTL engines)
 *   wormcast sweep --topology T --algorithms a,b,... --flits L1,L2,... [...] [--json]
 *   wormcast traffic --topology T --rate R --flits L [--cycles N] [--seed S]
 *                [--ir-fraction F] [--b-fraction F] [--one-port] [--json]
 *   wormcast trace --topology T --trace FILE [--latencies CSV] [--startup T]
 *                [--buffer-depth B] [--one-port] [--engine E] [--json]  (docs/traces.md)
 *   wormcast list [--json]
 *
 * Every command but list also takes --config FILE (docs/config.md): an INI file
 * whose keys stand for options; options on the command line override it.  The port
 * model is --one-port or --port-model all-port|one-port.
 *
 * Any bad argument, trace line or configuration key: one line on stderr, exit code
 * 2.  A run that fails its checks (wrong delivery, deadlock, cosim mismatch) exits 1
 * after printing its report.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algos.h"
#include "cli.h"
#include "config.h"
#include "engines.h"
#include "sim.h"
#include "trace.h"
#include "traffic.h"

#define EXIT_USAGE 2

struct options {
	const char *topology;
	const char *algorithm;
	const char *flits;
	const char *engine;
	const char *vcd, *fst, *mismatch_vcd;
	const char *trace, *latencies;
	long root, inject_bug;
	long startup, buffer_depth, payload_width, watchdog, replication_cost;
	long long cycles, seed;
	double rate, ir_fraction, b_fraction, sink_stall;
	bool json, one_port, root_given, rtl_top;
	/* Copies of the configuration file's string values. */
	char strings[8192];
	size_t strings_used;
};

static _Noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("wormcast: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

/* Option values: 0, or -1 with the reason in err (without the option's name). */
static int get_long(const char *s, long lo, long hi, long *out, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		snprintf(err, errlen, "'%s' is not a whole number in %ld..%ld", s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static int get_double(const char *s, double lo, double hi, double *out, char *err,
		      size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		snprintf(err, errlen, "'%s' is not a number in [%g, %g]", s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
	char err[256];
	long v;

	if (get_long(s, lo, hi, &v, err, sizeof(err)))
		usage_error("--%s: %s", opt, err);
	return v;
}

enum {
	OPT_TOPOLOGY = 't', OPT_ALGORITHM = 'a', OPT_FLITS = 'L', OPT_ROOT = 'r',
	OPT_STARTUP = 1000, OPT_DEPTH, OPT_WIDTH, OPT_WATCHDOG, OPT_JSON, OPT_ENGINE, OPT_VCD,
	OPT_FST, OPT_RATE, OPT_CYCLES, OPT_SEED, OPT_IR, OPT_B, OPT_ONE_PORT, OPT_STALL,
	OPT_ALGORITHMS, OPT_RTL_TOP, OPT_BUG, OPT_MISMATCH_VCD, OPT_TRACE, OPT_LATENCIES,
	OPT_CONFIG, OPT_PORT_MODEL, OPT_REPLICATION_COST,
};

static const struct option long_options[] = {
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "algorithm", required_argument, NULL, OPT_ALGORITHM },
	{ "algorithms", required_argument, NULL, OPT_ALGORITHMS },
	{ "flits", required_argument, NULL, OPT_FLITS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "startup", required_argument, NULL, OPT_STARTUP },
	{ "buffer-depth", required_argument, NULL, OPT_DEPTH },
	{ "payload-width", required_argument, NULL, OPT_WIDTH },
	{ "replication-cost", required_argument, NULL, OPT_REPLICATION_COST },
	{ "watchdog", required_argument, NULL, OPT_WATCHDOG },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "vcd", required_argument, NULL, OPT_VCD },
	{ "fst", required_argument, NULL, OPT_FST },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "cycles", required_argument, NULL, OPT_CYCLES },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "ir-fraction", required_argument, NULL, OPT_IR },
	{ "b-fraction", required_argument, NULL, OPT_B },
	{ "sink-stall", required_argument, NULL, OPT_STALL },
	{ "one-port", no_argument, NULL, OPT_ONE_PORT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "rtl-top", no_argument, NULL, OPT_RTL_TOP },
	{ "inject-bug", required_argument, NULL, OPT_BUG },
	{ "mismatch-vcd", required_argument, NULL, OPT_MISMATCH_VCD },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "latencies", required_argument, NULL, OPT_LATENCIES },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "port-model", required_argument, NULL, OPT_PORT_MODEL },
	{ NULL, 0, NULL, 0 },
};

static void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->startup = 10;
	o->buffer_depth = 4;
	o->payload_width = 32;
	o->watchdog = 10000;
	o->engine = "model";
	o->cycles = 10000;
	o->seed = 1;
	o->rate = -1;
}

/* Set the option with code c from arg (NULL for a flag).  0, or -1 and err. */
static int set_option(struct options *o, int c, const char *arg, char *err, size_t n)
{
	long v = 0;
	int rc = 0;

	switch (c) {
	case OPT_TOPOLOGY: o->topology = arg; break;
	case OPT_ALGORITHM: case OPT_ALGORITHMS: o->algorithm = arg; break;
	case OPT_FLITS: o->flits = arg; break;
	case OPT_ROOT: rc = get_long(arg, 0, 1L << 30, &o->root, err, n); o->root_given = true; break;
	case OPT_STARTUP: rc = get_long(arg, 1, 1000000, &o->startup, err, n); break;
	case OPT_DEPTH: rc = get_long(arg, 2, 64, &o->buffer_depth, err, n); break;
	case OPT_WIDTH: rc = get_long(arg, 32, 62, &o->payload_width, err, n); break;
	case OPT_REPLICATION_COST:
		rc = get_long(arg, 0, ROUTER_MAX_REPLICATION_COST, &o->replication_cost, err, n);
		break;
	case OPT_WATCHDOG: rc = get_long(arg, 1, 1L << 40, &o->watchdog, err, n); break;
	case OPT_ENGINE: o->engine = arg; break;
	case OPT_VCD: o->vcd = arg; break;
	case OPT_FST: o->fst = arg; break;
	case OPT_RATE: rc = get_double(arg, 0, 64, &o->rate, err, n); break;
	case OPT_CYCLES: rc = get_long(arg, 1, 1L << 40, &v, err, n); o->cycles = rc ? o->cycles : v; break;
	case OPT_SEED: rc = get_long(arg, 0, 1L << 62, &v, err, n); o->seed = rc ? o->seed : v; break;
	case OPT_IR: rc = get_double(arg, 0, 1, &o->ir_fraction, err, n); break;
	case OPT_B: rc = get_double(arg, 0, 1, &o->b_fraction, err, n); break;
	case OPT_STALL: rc = get_double(arg, 0, 0.99, &o->sink_stall, err, n); break;
	case OPT_ONE_PORT: o->one_port = true; break;
	case OPT_PORT_MODEL:
		if (!strcmp(arg, "all-port") || !strcmp(arg, "one-port")) {
			o->one_port = !strcmp(arg, "one-port");
		} else {
			snprintf(err, n, "'%s' is not a port model (all-port or one-port)", arg);
			rc = -1;
		}
		break;
	case OPT_JSON: o->json = true; break;
	case OPT_RTL_TOP: o->rtl_top = true; break;
	case OPT_BUG: rc = get_long(arg, 1, 99, &o->inject_bug, err, n); break;
	case OPT_MISMATCH_VCD: o->mismatch_vcd = arg; break;
	case OPT_TRACE: o->trace = arg; break;
	case OPT_LATENCIES: o->latencies = arg; break;
	case OPT_CONFIG: break;		/* read before the other options */
	default: snprintf(err, n, "no such option"); rc = -1; break;
	}
	return rc;
}

/* Which commands a configuration file's section applies to (others only check it). */
static bool section_applies(const char *section, const char *command)
{
	if (!strcmp(section, "algorithm"))
		return !strcmp(command, "run") || !strcmp(command, "sweep");
	if (!strcmp(section, "traffic") || !strcmp(section, "trace"))
		return !strcmp(command, section);
	return true;
}

/* "L", "MIN-MAX" (traffic) or "L1,L2,..." (run, sweep): the forms --flits takes. */
static int check_flits(const char *section, const char *v, char *err, size_t n)
{
	char buf[256], *save = NULL;
	const char *sep = strcmp(section, "traffic") ? "," : "-";
	long prev = 0, x;
	int count = 0;

	snprintf(buf, sizeof(buf), "%s", v);
	if (v[0] == sep[0] || v[strlen(v) - 1] == sep[0] || strstr(v, !strcmp(sep, ",") ? ",," : "--"))
		goto bad;
	for (char *tok = strtok_r(buf, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		if (get_long(tok, 1, sep[0] == '-' ? 1 << 20 : 1 << 24, &x, err, n))
			return -1;
		if (sep[0] == '-') {
			if (++count > 2)
				goto bad;
			if (x < prev) {
				snprintf(err, n, "'%s': MAX is below MIN", v);
				return -1;
			}
			prev = x;
		}
	}
	return 0;
bad:
	snprintf(err, n, "'%s' is not %s", v, sep[0] == '-' ? "L or MIN-MAX" : "L or L1,L2,...");
	return -1;
}

struct config_ctx {
	struct options *o;
	const char *command;
};

static int apply_config(void *ctx, const char *section, const char *option, const char *value,
			char *err, size_t n)
{
	struct config_ctx *c = ctx;
	struct options *o = c->o, *target = o;
	struct options *scratch = NULL;
	size_t len = strlen(value) + 1;
	char *copy;
	int code = 0, rc;

	for (int k = 0; long_options[k].name; k++)
		if (!strcmp(long_options[k].name, option))
			code = long_options[k].val;
	if (o->strings_used + len > sizeof(o->strings)) {
		snprintf(err, n, "the file's values are too long");
		return -1;
	}
	copy = memcpy(o->strings + o->strings_used, value, len);
	o->strings_used += len;
	/* Values are checked here, where the file and line are known. */
	if (code == OPT_TOPOLOGY) {
		struct topology t;

		if (topology_parse(value, &t, err, n))
			return -1;
	} else if (code == OPT_ENGINE) {
		struct engine_options e = { .name = value };

		if (engine_options_check(&e, err, n))
			return -1;
	} else if (code == OPT_ALGORITHM) {
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", value);
		for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!algo_find(tok)) {
				snprintf(err, n, "unknown algorithm '%s' (see 'wormcast list')", tok);
				return -1;
			}
	} else if (code == OPT_FLITS && check_flits(section, value, err, n)) {
		return -1;
	}
	if (!section_applies(section, c->command)) {
		scratch = malloc(sizeof(*scratch));
		if (!scratch) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		options_defaults(scratch);
		target = scratch;
	}
	rc = set_option(target, code, copy, err, n);
	free(scratch);
	return rc;
}

/*
 * Defaults, then the configuration file (--config), then the command line: the
 * command line overrides the file.  argv[1] is the command.
 */
static void parse_options(int argc, char **argv, struct options *o)
{
	int ac = argc - 1, c;
	char **av = argv + 1, err[512];
	const char *config = NULL;

	options_defaults(o);
	opterr = 0;
	optind = 0;		/* glibc: start afresh, av[0] (the command) is skipped */
	while ((c = getopt_long(ac, av, ":", long_options, NULL)) != -1)
		if (c == OPT_CONFIG)
			config = optarg;
	if (config) {
		struct config_ctx ctx = { .o = o, .command = argv[1] };

		if (config_load(config, apply_config, &ctx, err, sizeof(err)))
			usage_error("%s", err);
	}
	optind = 0;
	while ((c = getopt_long(ac, av, ":", long_options, NULL)) != -1) {
		if (c == ':')
			usage_error("option %s needs a value", av[optind - 1]);
		if (c == '?')
			usage_error("unknown option '%s'", av[optind - 1]);
		if (set_option(o, c, optarg, err, sizeof(err))) {
			const char *name = "?";

			for (int k = 0; long_options[k].name; k++)
				if (long_options[k].val == c)
					name = long_options[k].name;
			usage_error("--%s: %s", name, err);
		}
	}
	if (optind < ac)
		usage_error("unexpected argument '%s'", av[optind]);
}

static void build_config(const struct options *o, struct sim_config *cfg)
{
	char err[256];

	if (!o->topology)
		usage_error("--topology is required (hypercube:D or mesh:RxC)");
	sim_config_defaults(cfg);
	if (topology_parse(o->topology, &cfg->topo, err, sizeof(err)))
		usage_error("%s", err);
	cfg->startup = (int)o->startup;
	cfg->buffer_depth = (int)o->buffer_depth;
	cfg->payload_width = (int)o->payload_width;
	cfg->replication_cost = (int)o->replication_cost;
	cfg->watchdog = (uint64_t)o->watchdog;
	cfg->all_port = !o->one_port;
	cfg->sink_stall = o->sink_stall;
	cfg->seed = (uint64_t)o->seed;
	if (o->root_given && o->root >= cfg->topo.nodes)
		usage_error("--root %ld is outside the network (nodes 0..%d)", o->root,
			    cfg->topo.nodes - 1);
	if (sim_config_check(cfg, err, sizeof(err)))
		usage_error("%s", err);
}

static void engine_options_from(const struct options *o, struct engine_options *e)
{
	char err[256];

	*e = (struct engine_options){
		.name = o->engine, .vcd = o->vcd, .fst = o->fst, .network_top = o->rtl_top,
		.inject_bug = (int)o->inject_bug, .mismatch_vcd = o->mismatch_vcd,
	};
	if (engine_options_check(e, err, sizeof(err)))
		usage_error("%s", err);
}

static const struct algorithm *find_algorithm(const char *name, const struct topology *t)
{
	const struct algorithm *a = algo_find(name);

	if (!a)
		usage_error("unknown algorithm '%s' (see 'wormcast list')", name);
	if (!(a->topologies & (1u << t->kind)))
		usage_error("algorithm '%s' does not run on a %s", name, topology_kind_name(t->kind));
	return a;
}

/* Everything that a run needs besides the algorithm. */
struct run_setup {
	struct sim_config cfg;
	struct algo_params params;
	struct engine_options eopt;
};

static void setup_algorithm(const struct options *o, const struct algorithm *a, int flits,
			    struct run_setup *r)
{
	char err[256];

	build_config(o, &r->cfg);
	r->cfg.all_port = a->all_port;
	r->params.cfg = &r->cfg;
	r->params.root = o->root_given ? (int)o->root : 0;
	r->params.flits = flits;
	if (a->supports && a->supports(&r->params, err, sizeof(err)))
		usage_error("%s", err);
	engine_options_from(o, &r->eopt);
}

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
	cJSON_AddStringToObject(j, "kind", collective_kind_name(a->kind));
	cJSON_AddNumberToObject(j, "predicted_cycles", res->predicted);
	cJSON_AddStringToObject(j, "formula", res->formula);
	cJSON_AddStringToObject(j, "formula_source", res->prediction.source);
	cJSON_AddBoolToObject(j, "formula_exact", res->prediction.exact);
	cJSON_AddNumberToObject(j, "ratio", res->predicted > 0 ? (double)res->cycles / res->predicted : 0);
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

static void print_json(cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);

	puts(s);
	free(s);
	cJSON_Delete(j);
}

static int one_run(const struct algorithm *a, const struct run_setup *r, struct algo_run *res,
		   struct engine_report *er)
{
	struct engine_box *e;
	char err[256];
	int rc;

	e = engine_create(&r->eopt, &r->cfg, err, sizeof(err));
	if (!e)
		usage_error("%s", err);
	rc = algo_run(a, &r->params, engine_of(e), res);
	engine_finish(e, er);
	engine_destroy(e);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	struct options o;
	struct run_setup r;
	const struct algorithm *a;
	struct algo_run res;
	struct engine_report er;
	bool ok;

	parse_options(argc, argv, &o);
	if (!o.algorithm)
		usage_error("--algorithm is required (see 'wormcast list')");
	if (!o.flits)
		usage_error("--flits is required");
	build_config(&o, &r.cfg);
	a = find_algorithm(o.algorithm, &r.cfg.topo);
	setup_algorithm(&o, a, (int)parse_long("flits", o.flits, 1, 1 << 24), &r);
	one_run(a, &r, &res, &er);
	ok = res.status == SIM_DONE && res.stats.delivered_ok && res.data_ok && er.mismatches == 0;
	if (o.json) {
		print_json(run_json(a, &r, &res, &er));
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
		printf("  %-22s %.3f\n", "measured / predicted",
		       res.predicted > 0 ? (double)res.cycles / res.predicted : 0);
		if (res.prediction.published >= 0)
			printf("  %-22s %.1f   %s [%s]\n", "published formula", res.prediction.published,
			       res.prediction.published_formula, res.prediction.published_source);
		if (res.lower_bound >= 0)
			printf("  %-22s %.0f   measured / bound %.3f; %s\n", "lower bound", res.lower_bound,
			       res.lower_bound > 0 ? (double)res.cycles / res.lower_bound : 0,
			       res.bound_text);
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

/* Split "a,b,c" into at most max items (modifies s). */
static int split_list(char *s, char **items, int max)
{
	int n = 0;

	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max)
			usage_error("too many items in list (at most %d)", max);
		items[n++] = tok;
	}
	return n;
}

static int cmd_sweep(int argc, char **argv)
{
	struct options o;
	struct sim_config cfg;
	char *names[32], *lens[64], alist[1024], llist[1024];
	int n_names, n_lens, failures = 0;
	uint64_t compared = 0, signals = 0, mismatches = 0;
	cJSON *rows = cJSON_CreateArray();

	parse_options(argc, argv, &o);
	if (!o.algorithm || !o.flits)
		usage_error("sweep needs --algorithms a,b,... and --flits L1,L2,...");
	build_config(&o, &cfg);
	snprintf(alist, sizeof(alist), "%s", o.algorithm);
	snprintf(llist, sizeof(llist), "%s", o.flits);
	n_names = split_list(alist, names, 32);
	n_lens = split_list(llist, lens, 64);
	for (int k = 0; k < n_names; k++)
		find_algorithm(names[k], &cfg.topo);
	for (int k = 0; k < n_lens; k++)
		parse_long("flits", lens[k], 1, 1 << 24);

	if (!o.json) {
		char name[64];

		printf("latency in cycles on %s, t_s = %ld, h = 1, buffer depth %ld\n",
		       topology_name(&cfg.topo, name, sizeof(name)), o.startup, o.buffer_depth);
		printf("%-10s %8s %10s %10s %7s %9s %4s %s\n", "algorithm", "L", "measured",
		       "predicted", "ratio", "conflicts", "ok",
		       strcmp(o.engine, "cosim") ? "" : "  cosim (cycles, mismatches)");
	}
	for (int k = 0; k < n_names; k++) {
		const struct algorithm *a = find_algorithm(names[k], &cfg.topo);

		for (int l = 0; l < n_lens; l++) {
			struct run_setup r;
			struct algo_run res;
			struct engine_report er;
			bool ok;

			setup_algorithm(&o, a, (int)parse_long("flits", lens[l], 1, 1 << 24), &r);
			one_run(a, &r, &res, &er);
			ok = res.status == SIM_DONE && res.stats.delivered_ok && res.data_ok &&
			     er.mismatches == 0;
			failures += !ok;
			if (o.json) {
				cJSON_AddItemToArray(rows, run_json(a, &r, &res, &er));
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
	if (o.json) {
		cJSON *j = cJSON_CreateObject();

		cJSON_AddItemToObject(j, "runs", rows);
		print_json(j);
	} else {
		cJSON_Delete(rows);
		if (!strcmp(o.engine, "cosim"))
			printf("cosim: %s, %llu cycles and %llu signal values compared, %llu mismatches\n",
			       mismatches ? "FAIL" : "PASS", (unsigned long long)compared,
			       (unsigned long long)signals, (unsigned long long)mismatches);
	}
	return failures ? 1 : 0;
}

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmd_traffic(int argc, char **argv)
{
	struct options o;
	struct sim_config cfg;
	struct traffic_params tp = { 0 };
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

	parse_options(argc, argv, &o);
	if (o.rate < 0)
		usage_error("traffic needs --rate (flits per node per cycle)");
	if (!o.flits)
		usage_error("traffic needs --flits L or --flits MIN-MAX");
	build_config(&o, &cfg);
	{
		char *dash = strchr(o.flits, '-');

		if (dash) {
			char lo[32];

			snprintf(lo, sizeof(lo), "%.*s", (int)(dash - o.flits), o.flits);
			tp.min_len = (int)parse_long("flits", lo, 1, 1 << 20);
			tp.max_len = (int)parse_long("flits", dash + 1, tp.min_len, 1 << 20);
		} else {
			tp.min_len = tp.max_len = (int)parse_long("flits", o.flits, 1, 1 << 20);
		}
	}
	tp.rate = o.rate;
	tp.cycles = (uint64_t)o.cycles;
	tp.ir_fraction = o.ir_fraction;
	tp.b_fraction = o.b_fraction;
	tp.seed = (uint64_t)o.seed;
	engine_options_from(&o, &eopt);
	e = engine_create(&eopt, &cfg, err, sizeof(err));
	if (!e)
		usage_error("%s", err);
	t = traffic_create(&tp, &cfg.topo);
	s = sim_create_with_engine(&cfg, engine_of(e), err, sizeof(err));
	if (!t || !s)
		usage_error("%s", s ? "out of memory" : err);
	traffic_driver(t, &d);
	t0 = seconds_now();
	status = sim_run(s, &d);
	secs = seconds_now() - t0;
	sim_get_stats(s, &st);
	traffic_get_stats(t, s, &ts);
	engine_finish(e, &er);
	ok = status == SIM_DONE && st.delivered_ok && er.mismatches == 0;
	if (o.json) {
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
		print_json(j);
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
	return ok ? 0 : 1;
}

static void trace_json(cJSON *j, const struct options *o, const struct sim_config *cfg,
		       const struct trace_stats *ts, const struct sim_stats *st)
{
	char name[64];

	cJSON_AddStringToObject(j, "topology", topology_name(&cfg->topo, name, sizeof(name)));
	cJSON_AddNumberToObject(j, "nodes", cfg->topo.nodes);
	cJSON_AddStringToObject(j, "port_mode", cfg->all_port ? "all-port" : "one-port");
	cJSON_AddStringToObject(j, "trace", o->trace);
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
	if (o->latencies)
		cJSON_AddStringToObject(j, "latencies", o->latencies);
	else
		cJSON_AddNullToObject(j, "latencies");
}

static int cmd_trace(int argc, char **argv)
{
	struct options o;
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

	parse_options(argc, argv, &o);
	if (!o.trace)
		usage_error("trace needs --trace FILE (docs/traces.md)");
	build_config(&o, &cfg);
	tr = trace_load(o.trace, &cfg.topo, err, sizeof(err));
	if (!tr)
		usage_error("%s", err);
	engine_options_from(&o, &eopt);
	if (o.latencies) {
		csv = fopen(o.latencies, "w");
		if (!csv)
			usage_error("--latencies: cannot write '%s': %s", o.latencies, strerror(errno));
	}
	e = engine_create(&eopt, &cfg, err, sizeof(err));
	if (!e)
		usage_error("%s", err);
	s = sim_create_with_engine(&cfg, engine_of(e), err, sizeof(err));
	if (!s)
		usage_error("%s", err);
	trace_driver(tr, &d);
	status = sim_run(s, &d);
	sim_get_stats(s, &st);
	if (trace_get_stats(tr, s, &ts))
		usage_error("out of memory");
	engine_finish(e, &er);
	ok = status == SIM_DONE && st.delivered_ok && er.mismatches == 0 && !trace_error(tr)[0] &&
	     ts.delivered == ts.messages;
	if (csv) {
		if (trace_write_csv(tr, s, csv) | fclose(csv)) {
			fprintf(stderr, "wormcast: --latencies: error writing '%s'\n", o.latencies);
			rc = 1;
		}
	}
	if (o.json) {
		cJSON *j = cJSON_CreateObject();

		trace_json(j, &o, &cfg, &ts, &st);
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
		print_json(j);
	} else {
		printf("trace %s on %s (%s), t_s = %d, h = 1, buffer depth %d\n", o.trace,
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
			fprintf(stderr, "wormcast: %s: %s\n", o.trace, trace_error(tr));
		else
			sim_write_report(s, stderr);
		rc = 1;
	}
	sim_destroy(s);
	trace_destroy(tr);
	engine_destroy(e);
	return rc;
}

static int cmd_list(int argc, char **argv)
{
	struct options o;
	cJSON *j = cJSON_CreateObject(), *as = cJSON_AddArrayToObject(j, "algorithms");
	cJSON *ts = cJSON_AddArrayToObject(j, "topologies");

	parse_options(argc, argv, &o);
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
	if (o.json) {
		print_json(j);
		return 0;
	}
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

int wormcast_main(int argc, char **argv)
{
	if (argc < 2)
		usage_error("usage: wormcast run|sweep|traffic|trace|list [options] (see README.md)");
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc, argv);
	if (!strcmp(argv[1], "sweep"))
		return cmd_sweep(argc, argv);
	if (!strcmp(argv[1], "traffic"))
		return cmd_traffic(argc, argv);
	if (!strcmp(argv[1], "trace"))
		return cmd_trace(argc, argv);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		puts("usage: wormcast run|sweep|traffic|trace|list [options]; see README.md");
		return 0;
	}
	usage_error("unknown command '%s' (expected run, sweep, traffic, trace or list)", argv[1]);
	return EXIT_USAGE;
}
