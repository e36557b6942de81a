/* SPDX-License-Identifier: MIT */
/*
 * setup.c - options to run parameters (see setup.h).  Ranges are not checked here:
 * the options table did that when the values were read.
 */
#include "setup.h"

#include <string.h>

int setup_config(const struct options *o, struct sim_config *cfg, struct failure *f)
{
	char err[256];

	sim_config_defaults(cfg);
	if (topology_parse(opt(o, OPT_TOPOLOGY)->text, &cfg->topo, err, sizeof(err)))
		return failf(f, EXIT_USAGE, "%s: %s", opt(o, OPT_TOPOLOGY)->origin, err);
	cfg->all_port = opt(o, OPT_PORT_MODEL)->u == 0;
	cfg->startup = (int)opt(o, OPT_STARTUP)->u;
	cfg->buffer_depth = (int)opt(o, OPT_BUFFER_DEPTH)->u;
	cfg->payload_width = (int)opt(o, OPT_PAYLOAD_WIDTH)->u;
	cfg->replication_cost = (int)opt(o, OPT_REPLICATION_COST)->u;
	/* The choices are listed in the order of enum dim_order. */
	cfg->topo.route_order = (enum dim_order)opt(o, OPT_ROUTE_ORDER)->u;
	if (opt(o, OPT_TREE_ORDER)->set)
		cfg->topo.tree_order = (enum dim_order)opt(o, OPT_TREE_ORDER)->u;
	if (opt(o, OPT_VIRTUAL_CHANNELS)->set &&
	    topology_set_vcs(&cfg->topo, (int)opt(o, OPT_VIRTUAL_CHANNELS)->u, err, sizeof(err)))
		return failf(f, EXIT_USAGE, "%s: %s", opt(o, OPT_VIRTUAL_CHANNELS)->origin, err);
	cfg->watchdog = opt(o, OPT_WATCHDOG)->u;
	cfg->sink_stall = opt(o, OPT_SINK_STALL)->d;
	cfg->seed = opt(o, OPT_SEED)->u;
	cfg->fast_forward = !opt(o, OPT_NO_FAST_FORWARD)->set;
	cfg->pair_walk = !opt(o, OPT_NO_PAIR_WALK)->set;
	/* Section 12's virtual channels have no coverage bins yet (docs/verification.md). */
	if (opt(o, OPT_COVERAGE)->set && cfg->topo.vcs > 1)
		return failf(f, EXIT_USAGE, "%s: functional coverage has no bins for virtual channels "
			     "yet (rings and tori)", opt(o, OPT_COVERAGE)->origin);
	/* The ranges are the model's (options.def); what remains is how values relate. */
	if (sim_config_check(cfg, err, sizeof(err)))
		return failf(f, EXIT_USAGE, "%s", err);
	return 0;
}

int setup_engine(const struct options *o, struct engine_options *e, struct failure *f)
{
	char err[256];

	/* The outputs the command takes (sweep takes none: options.def). */
	unsigned cmd = 1u << o->command;

	*e = (struct engine_options){
		.name = opt(o, OPT_ENGINE)->text,
		.vcd = opt(o, OPT_VCD)->set && (option_table[OPT_VCD].commands & cmd),
		.fst = opt(o, OPT_FST)->set && (option_table[OPT_FST].commands & cmd),
		.mismatch_vcd = opt(o, OPT_MISMATCH_VCD)->set &&
				(option_table[OPT_MISMATCH_VCD].commands & cmd),
		.network_top = opt(o, OPT_RTL_TOP)->set,
		.compare_outputs = strcmp(opt(o, OPT_COMPARE)->text, "outputs") == 0,
		.inject_bug = opt(o, OPT_INJECT_BUG)->set ? (int)opt(o, OPT_INJECT_BUG)->u : 0,
	};
	/* Where the values came from, for the one that is wrong with the engine. */
	if (e->mismatch_vcd && !engine_compares(e->name))
		return failf(f, EXIT_USAGE, "%s: only a cosimulation has mismatches (--engine cosim)",
			     opt(o, OPT_MISMATCH_VCD)->origin);
	if (opt(o, OPT_COMPARE)->set && strcmp(e->name, "cosim"))
		return failf(f, EXIT_USAGE, "%s: only a cosimulation compares registers (--engine "
			     "cosim)", opt(o, OPT_COMPARE)->origin);
	if (engine_options_check(e, err, sizeof(err)))
		return failf(f, EXIT_USAGE, "%s", err);
	return 0;
}

int setup_algorithm(const struct options *o, const struct algorithm *a, uint64_t flits,
		    struct sim_config *cfg, struct algo_params *p, struct failure *f)
{
	const struct option_value *port = opt(o, OPT_PORT_MODEL), *root = opt(o, OPT_ROOT);
	const struct option_value *packets = opt(o, OPT_PACKETS);
	const char *mode = a->all_port ? "all-port" : "one-port";
	char err[512];

	if (!(a->topologies & (1u << cfg->topo.kind)))
		return failf(f, EXIT_USAGE, "algorithm '%s' does not run on a %s", a->name,
			     topology_kind_name(cfg->topo.kind));
	/* The algorithm defines its port model: a different one is refused, not ignored. */
	if (port->set && strcmp(port->text, mode))
		return failf(f, EXIT_USAGE, "%s: %s is an algorithm for %s routers, not %s (see "
			     "'wormcast list'); leave the port model out", port->origin, a->name,
			     mode, port->text);
	cfg->all_port = a->all_port;
	if (root->u >= (uint64_t)cfg->topo.nodes)
		return failf(f, EXIT_USAGE, "%s: %llu is not a node of the network (nodes 0..%d)",
			     root->origin, (unsigned long long)root->u, cfg->topo.nodes - 1);
	if (packets->set && !a->packets)
		return failf(f, EXIT_USAGE, "%s: %s sends its message whole: a number of packets "
			     "does not apply", packets->origin, a->name);
	*p = (struct algo_params){ .cfg = cfg, .root = (int)root->u, .flits = (int)flits,
				   .packets = packets->set ? (int)packets->u : 0 };
	if (a->supports && a->supports(p, err, sizeof(err)))
		return failf(f, EXIT_USAGE, "%s", err);
	return 0;
}

int setup_formula_only(const struct options *o, struct failure *f)
{
	static const enum option_id simulation_only[] = {
		OPT_VCD, OPT_FST, OPT_MISMATCH_VCD, OPT_ENGINE, OPT_RTL_TOP, OPT_INJECT_BUG,
		OPT_SINK_STALL,
	};

	for (size_t k = 0; k < sizeof(simulation_only) / sizeof(simulation_only[0]); k++)
		if (opt(o, simulation_only[k])->set)
			return failf(f, EXIT_USAGE, "%s: --formula-only simulates nothing",
				     opt(o, simulation_only[k])->origin);
	return 0;
}

int setup_traffic(const struct options *o, const struct sim_config *cfg,
		  struct traffic_params *tp, struct failure *f)
{
	*tp = (struct traffic_params){
		.rate = opt(o, OPT_RATE)->d,
		.min_len = (int)opt(o, OPT_FLITS_RANGE)->u,
		.max_len = (int)opt(o, OPT_FLITS_RANGE)->u_max,
		.cycles = opt(o, OPT_CYCLES)->u,
		.ir_fraction = opt(o, OPT_IR_FRACTION)->d,
		.b_fraction = opt(o, OPT_B_FRACTION)->d,
		.path_fraction = opt(o, OPT_PATH_FRACTION)->d,
		.seed = opt(o, OPT_SEED)->u,
		.random_channel = strcmp(opt(o, OPT_INJECTION)->text, "random") == 0,
	};
	/* Section 8: Q_d's Gray code, a mesh's boustrophedon; the NI refuses it elsewhere. */
	if (tp->path_fraction > 0 && cfg->topo.kind != TOPO_HYPERCUBE && cfg->topo.kind != TOPO_MESH)
		return failf(f, EXIT_USAGE, "%s: the path broadcast is defined on hypercubes and "
			     "meshes only", opt(o, OPT_PATH_FRACTION)->origin);
	return 0;
}
