/* SPDX-License-Identifier: MIT */
/*
 * traffic.c - random traffic.  Arrivals are drawn by geometric skipping over the
 * (cycle, node) grid, so a light load costs time in proportion to the messages it
 * makes, not to nodes x cycles.
 */
#include "traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_gate.h"
#include "geometric.h"
#include "grow.h"
#include "latency.h"

struct traffic {
	struct traffic_params p;
	const struct topology *topo;
	uint64_t rng;
	double msg_prob;	/* per node per cycle */
	struct geometric geo;	/* the gaps' table (geometric.h) */
	uint64_t next_slot;	/* next (cycle * nodes + node) with an arrival */
	/*
	 * next_slot's cycle and node, divided out once per arrival (set_next_slot()):
	 * tick() asks every cycle whether the next arrival is due, and the 64-bit
	 * division it made for that was most of its cost when none is.
	 */
	uint64_t next_cycle;
	int next_node;
	bool b_pending;		/* a broadcast waits for the network to drain */
	bool b_path;		/* it is a path broadcast */
	int b_root;
	struct bcast_gate gate;	/* the broadcast in flight */
	uint64_t messages, broadcasts;
	uint64_t flits_sent;	/* of the messages handed to the NIs */
	/*
	 * The latency of every message delivered whole, taken at its last tail: the
	 * simulation releases each message then (release_messages), so a run's memory is
	 * these 8 bytes a message, not its record.
	 */
	uint64_t *lat;
	size_t n_lat, cap_lat;
	char error[256];	/* the first failure (a send, the latencies' memory), "" if none */
};

/* splitmix64: a draw is one step of the state and a mix of it. */
#define RNG_STEP 0x9e3779b97f4a7c15ull

static uint64_t next_random(struct traffic *t)
{
	uint64_t z = (t->rng += RNG_STEP);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform01(struct traffic *t)
{
	return (double)(next_random(t) >> 11) / 9007199254740992.0;
}

/* The gap to the next arrival, from the draw u = k / 2^53 that uniform01() would make. */
static uint64_t next_gap(struct traffic *t)
{
	uint64_t k = next_random(t) >> 11;

	if (t->msg_prob >= 1.0)
		return 1;
	return geometric_gap(&t->geo, k);
}

static void set_next_slot(struct traffic *t, uint64_t slot)
{
	uint64_t nodes = (uint64_t)t->topo->nodes;

	t->next_slot = slot;
	t->next_cycle = slot / nodes;
	t->next_node = (int)(slot % nodes);
}

struct traffic *traffic_create(const struct traffic_params *p, const struct topology *topo)
{
	struct traffic *t = calloc(1, sizeof(*t));
	double mean_len = (p->min_len + p->max_len) / 2.0;

	if (!t)
		return NULL;
	t->p = *p;
	t->topo = topo;
	t->rng = p->seed;
	t->msg_prob = p->rate / mean_len;
	if (t->msg_prob > 1.0)
		t->msg_prob = 1.0;
	geometric_init(&t->geo, t->msg_prob);
	bcast_gate_init(&t->gate);
	set_next_slot(t, t->msg_prob > 0 ? next_gap(t) - 1 : UINT64_MAX);
	return t;
}

void traffic_destroy(struct traffic *t)
{
	if (t) {
		free(t->lat);
		geometric_free(&t->geo);
	}
	free(t);
}

static int random_len(struct traffic *t)
{
	/*
	 * A fixed length (uniform traffic: every message) skips its draw, not the
	 * stream's step: the generator moves on as if it had drawn, without the mix (14
	 * instructions) nor the 64-bit division by 1 of a number nothing reads.
	 */
	if (t->p.max_len == t->p.min_len) {
		t->rng += RNG_STEP;
		return t->p.min_len;
	}
	return t->p.min_len + (int)(next_random(t) % (uint64_t)(t->p.max_len - t->p.min_len + 1));
}

/* The injection channel of a message: the NI's choice (-1), or one drawn at random. */
static int channel_of(struct traffic *t, const struct sim *s)
{
	int channels = sim_config(s)->all_port ? t->topo->ports : 1;

	return t->p.random_channel ? (int)(next_random(t) % (uint64_t)channels) : -1;
}

/*
 * A message that cannot be sent (memory ran out: the simulation stops too) fails the
 * run; it is never dropped while the counts say every message was delivered.
 */
static void send_failed(struct traffic *t, const struct sim *s, int src)
{
	if (!t->error[0])
		snprintf(t->error, sizeof(t->error), "traffic: a send from node %d failed at cycle "
			 "%llu: %s", src, (unsigned long long)sim_now(s), sim_error(s));
}

const char *traffic_error(const struct traffic *t)
{
	return t->error;
}

/* A cycle with an arrival due, a broadcast waiting or one in flight. */
static __attribute__((noinline)) void arrivals(struct traffic *t, struct sim *s, uint64_t now)
{
	int nodes = t->topo->nodes;

	/* (The gate's call only with a broadcast in flight: 8 instructions a call saved.) */
	if (!bcast_gate_idle(&t->gate) && bcast_gate_busy(&t->gate, s))
		return;			/* no sends while a broadcast is in flight */
	if (t->b_pending) {
		struct send_req r = { .type = HDR_B, .ir = t->b_path, .len = random_len(t),
				      .channel = -1 };

		if (!bcast_gate_ready(&t->gate, s))
			return;		/* wait for the network to drain */
		r.channel = channel_of(t, s);
		t->b_pending = false;
		if (bcast_gate_send(&t->gate, s, t->b_root, &r) < 0) {
			send_failed(t, s, t->b_root);
			return;
		}
		t->broadcasts++;
		t->messages++;
		t->flits_sent += (uint64_t)r.len;
		return;
	}
	while (t->next_cycle <= now && now < t->p.cycles) {
		int src = t->next_node;

		set_next_slot(t, t->next_slot + next_gap(t));
		if (t->p.b_fraction > 0 && uniform01(t) < t->p.b_fraction) {
			t->b_pending = true;
			t->b_root = src;
			/* Drawn only if asked for: runs without path broadcasts stay as they were. */
			t->b_path = t->p.path_fraction > 0 && uniform01(t) < t->p.path_fraction;
			return;
		}

		struct send_req r = { .type = HDR_R, .len = random_len(t), .channel = -1 };

		r.dest = (int)(next_random(t) % (uint64_t)(nodes - 1));
		if (r.dest >= src)
			r.dest++;
		r.ir = t->p.ir_fraction > 0 && uniform01(t) < t->p.ir_fraction;
		r.channel = channel_of(t, s);
		if (sim_send_traffic(s, src, r.dest, r.len, r.ir, r.channel) < 0) {
			send_failed(t, s, src);
			return;
		}
		t->messages++;
		t->flits_sent += (uint64_t)r.len;
	}
	/* Arrivals skipped while broadcasts held the network are dropped, not queued. */
	if (t->next_cycle < now)
		set_next_slot(t, now * (uint64_t)nodes + (uint64_t)t->next_node);
}

/*
 * A cycle with no arrival due and no broadcast (uniform 8x8, 0.1: 45 % of them; more
 * under a lighter load or on fewer nodes) is answered here, without the frame of the
 * arrivals' loop.  Nothing else would change in it: the loop would not run, and the
 * arrivals are not behind.
 */
static void tick(void *ctx, struct sim *s)
{
	struct traffic *t = ctx;
	uint64_t now = sim_now(s);

	if (t->next_cycle > now && !t->b_pending && bcast_gate_idle(&t->gate))
		return;
	arrivals(t, s, now);
}

static bool finished(void *ctx, const struct sim *s)
{
	struct traffic *t = ctx;

	return sim_now(s) >= t->p.cycles && !t->b_pending && bcast_gate_idle(&t->gate);
}

/* The driver reacts to no head; heads are not reported. */
static void start(void *ctx, struct sim *s)
{
	(void)ctx;
	sim_no_head_events(s);
}

/* The latencies' array doubled (or first made); false if memory ran out (the run fails). */
static __attribute__((noinline)) bool grow_latencies(struct traffic *t, const struct sim *s)
{
	uint64_t *lat = grow_array(t->lat, &t->cap_lat, t->n_lat + 1, sizeof(*lat), 4096,
				   SIZE_MAX);

	if (!lat) {
		if (!t->error[0])
			snprintf(t->error, sizeof(t->error), "traffic: out of memory for the "
				 "latencies at cycle %llu", (unsigned long long)sim_now(s));
		return false;
	}
	t->lat = lat;
	return true;
}

/*
 * The last tail of a message (its last receiver): its latency kept.  The narrow hook
 * (driver.delivered): no event record and no call for the other tails; and no event
 * hook at all, so no call for SEND_DONE either.  The array's growth out of line: this
 * is then a leaf that saves no registers.
 */
static void delivered(void *ctx, struct sim *s, const struct message *m)
{
	struct traffic *t = ctx;

	if (t->n_lat == t->cap_lat && !grow_latencies(t, s))
		return;
	t->lat[t->n_lat++] = m->last_delivery - m->send_cycle;
}

void traffic_driver(struct traffic *t, struct driver *d)
{
	*d = (struct driver){ .ctx = t, .start = start, .delivered = delivered, .tick = tick,
			      .finished = finished, .release_messages = true };
}

int traffic_get_stats(const struct traffic *t, struct traffic_stats *st)
{
	/* latency_summarize() may sort its array: a copy, the driver's stays as it is. */
	uint64_t *lat = malloc(sizeof(*lat) * (t->n_lat ? t->n_lat : 1));

	memset(st, 0, sizeof(*st));
	st->messages = t->messages;
	st->broadcasts = t->broadcasts;
	st->flits_sent = t->flits_sent;
	if (!lat)
		return -1;
	if (t->n_lat)
		memcpy(lat, t->lat, sizeof(*lat) * t->n_lat);
	st->delivered = (uint64_t)t->n_lat;
	latency_summarize(lat, t->n_lat, &st->latency);
	free(lat);
	return 0;
}
