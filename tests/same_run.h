/* SPDX-License-Identifier: MIT */
/*
 * same_run.h - what "the same results" means for the C suites that run a workload two
 * ways (a speed option on and off: test_speed.c; the pair walk and the routers:
 * test_pair_walk.c): the configuration they start from, and the comparisons of two
 * runs' statistics, an algorithm's whole run, and every message's delivery record.
 * Include after check.h and algos.h.
 */
#ifndef WORMCAST_TEST_SAME_RUN_H
#define WORMCAST_TEST_SAME_RUN_H

#include <stdbool.h>
#include <string.h>

#include "algos.h"
#include "sim.h"

/* The default configuration on network `net` with the routers; false (reported) if it does not parse. */
static bool config_for(const char *net, bool all_port, struct sim_config *cfg)
{
	char err[256];

	sim_config_defaults(cfg);
	/* The routers, the reference: a test that wants the pair walk (the default) asks. */
	cfg->pair_walk = false;
	cfg->all_port = all_port;
	if (topology_parse(net, &cfg->topo, err, sizeof(err)) == 0)
		return true;
	check(false, "%s: %s", net, err);
	return false;
}

static bool same_stats(const struct sim_stats *a, const struct sim_stats *b)
{
	return a->cycles_run == b->cycles_run && a->first_send == b->first_send &&
	       a->last_delivery == b->last_delivery && a->messages == b->messages &&
	       a->deliveries == b->deliveries && a->flits_delivered == b->flits_delivered &&
	       a->link_moves == b->link_moves && a->conflict_cycles == b->conflict_cycles &&
	       a->conflicts_measured == b->conflicts_measured && a->delivered_ok == b->delivered_ok;
}

static bool same_run(const struct algo_run *a, const struct algo_run *b)
{
	return a->status == b->status && same_stats(&a->stats, &b->stats) &&
	       a->cycles == b->cycles && a->predicted == b->predicted &&
	       !strcmp(a->formula, b->formula) && a->data_ok == b->data_ok &&
	       !strcmp(a->error, b->error) && a->scheduled == b->scheduled &&
	       !strcmp(a->schedule_text, b->schedule_text) && a->lower_bound == b->lower_bound &&
	       a->packets == b->packets && !strcmp(a->bound_text, b->bound_text) &&
	       a->prediction.published == b->prediction.published;
}

/* Every message of two runs: its source, length, and the cycles of its send and delivery. */
static bool same_messages(const struct sim *a, const struct sim *b)
{
	if (sim_message_count(a) != sim_message_count(b))
		return false;
	for (int i = 0; i < sim_message_count(a); i++) {
		const struct message *x = sim_message(a, i), *y = sim_message(b, i);

		if (!x || !y || x->source != y->source || x->len != y->len ||
		    x->send_cycle != y->send_cycle || x->head_cycle != y->head_cycle ||
		    x->tail_cycle != y->tail_cycle || x->delivered != y->delivered ||
		    x->last_delivery != y->last_delivery || x->head != y->head)
			return false;
	}
	return true;
}

#endif
