/* SPDX-License-Identifier: MIT */
/*
 * schedule.c - the contention-free transport: the events the network would produce if
 * nothing ever waited, in cycle order (SEND_DONE before arrivals, as the simulation
 * reports them), fed to the same skeleton as a run.
 */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "skeleton.h"

/* A point in time with the chain of sends that leads to it: t = s t_s + h + f. */
struct chain {
	uint64_t t;
	int s, h;
	uint64_t f;
};

/*
 * A message with the count of its events not yet handled: it is freed after its last
 * one (when the skeleton keeps no pointer into it), so the evaluation's memory follows
 * the messages in flight.  Otherwise (kept) it stays on a list until the end.
 */
struct ideal_msg {
	struct message m;
	int events;
	struct ideal_msg *next;		/* kept */
};

/*
 * An event.  Those of one cycle are handled in the order of `key`: SEND_DONE before
 * arrivals (as the simulation reports them), then by node, port, message, head before
 * tail.
 */
struct ev {
	uint64_t cycle;
	uint64_t key;		/* order 59, node 40..58, port + 1 33..39, msg 1..32, sub 0 */
	int node, port;
	int msg;
	struct ideal_msg *im;
	enum sim_event_kind kind;
	struct chain c;
};

static uint64_t ev_key(int order, int node, int port, int msg, int sub)
{
	return (uint64_t)order << 59 | (uint64_t)node << 40 | (uint64_t)(port + 1) << 33 |
	       (uint64_t)(uint32_t)msg << 1 | (uint64_t)sub;
}

/*
 * The events of one cycle.  Every event is at least one cycle after the one whose
 * handling made it (t_s >= 1), so the calendar needs no order across cycles: bucket
 * c & (ncal - 1) holds the events of cycle c, sorted by key when c comes.
 */
struct bucket {
	struct ev *e;
	uint32_t n, cap;
};

struct ideal {
	const struct sim_config *cfg;
	int channels;
	struct chain *chan;		/* nodes * channels: when each injection channel is free */
	int nmsg;
	bool release;			/* free a message after its last event */
	struct ideal_msg *kept;
	struct bucket *cal;
	size_t ncal;			/* a power of two, further than any event ahead */
	uint64_t cur;			/* the cycle being handled */
	struct bucket draining;		/* its events, sorted; the next is draining.e[next] */
	uint32_t next;
	size_t pending;			/* events in the calendar */
	struct chain now, last;
	uint64_t first_send;
	bool any_send;
	const struct schedule_trace *trace;	/* or NULL */
	char error[200];
};

static struct chain later(struct chain a, struct chain b)
{
	return b.t > a.t ? b : a;
}

static struct chain add(struct chain a, int s, int h, uint64_t f, uint64_t ts)
{
	return (struct chain){ a.t + (uint64_t)s * ts + (uint64_t)h + f, a.s + s, a.h + h, a.f + f };
}

/* A calendar that reaches `dist` cycles ahead of the current one; 0 or -1. */
static int reach(struct ideal *d, uint64_t dist)
{
	size_t n = d->ncal ? d->ncal : 64;
	struct bucket *cal;

	while (dist >= n)
		n *= 2;
	cal = calloc(n, sizeof(*cal));
	if (!cal)
		return -1;
	for (size_t k = 0; k < d->ncal; k++)
		if (d->cal[k].n)
			cal[d->cal[k].e[0].cycle & (n - 1)] = d->cal[k];
		else
			free(d->cal[k].e);
	free(d->cal);
	d->cal = cal;
	d->ncal = n;
	return 0;
}

static int push(struct ideal *d, const struct ev *e)
{
	struct bucket *b;

	if (e->cycle - d->cur >= d->ncal && reach(d, e->cycle - d->cur))
		return -1;
	b = &d->cal[e->cycle & (d->ncal - 1)];
	if (b->n == b->cap) {
		size_t cap = b->cap;
		struct ev *ne = grow_array(b->e, &cap, cap + 1, sizeof(*ne), 16, UINT32_MAX);

		if (!ne)
			return -1;
		b->e = ne;
		b->cap = (uint32_t)cap;
	}
	b->e[b->n++] = *e;
	d->pending++;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct ev *)a)->key, y = ((const struct ev *)b)->key;

	return (x > y) - (x < y);
}

/* The next event in time and key order into e; false when there is none. */
static bool next_event(struct ideal *d, struct ev *e)
{
	while (d->next == d->draining.n) {
		struct bucket *b, spare;

		if (!d->pending)
			return false;
		b = &d->cal[++d->cur & (d->ncal - 1)];
		if (!b->n)
			continue;
		/* The bucket's events move out, so that pushes may grow the calendar meanwhile. */
		spare = d->draining;
		spare.n = 0;
		d->draining = *b;
		*b = spare;
		d->pending -= d->draining.n;
		d->next = 0;
		/* Pushed in node order more often than not: then there is nothing to sort. */
		for (uint32_t k = 1; k < d->draining.n; k++)
			if (d->draining.e[k - 1].key > d->draining.e[k].key) {
				qsort(d->draining.e, d->draining.n, sizeof(struct ev), by_key);
				break;
			}
	}
	*e = d->draining.e[d->next++];
	return true;
}

static const char *ideal_error(void *impl)
{
	return ((struct ideal *)impl)->error;
}

/*
 * The head and tail events of one receiver k hops away, entering on port `port`.  A
 * broadcast head is held T_r cycles by every router that replicates and forwards it:
 * the root's, the k - 1 on the way, and the receiver's own unless it is a leaf
 * (docs/microarchitecture.md section 9); `forwarders` of them.
 */
static int arrive(struct ideal *d, struct ideal_msg *im, int node, int hops, int forwarders,
		  int port, struct chain start)
{
	struct message *m = &im->m;
	uint64_t ts = (uint64_t)d->cfg->startup, body = (uint64_t)(m->len - 1);
	struct chain head = add(start, 1, hops,
				(uint64_t)forwarders * (uint64_t)d->cfg->replication_cost, ts);
	struct ev e = { .cycle = head.t, .key = ev_key(1, node, port, m->id, 0), .node = node,
			.port = port, .msg = m->id, .im = im, .kind = EV_HEAD_ARRIVED, .c = head };

	m->receivers++;
	if (push(d, &e))
		return -1;
	im->events++;
	e.c = add(head, 0, 0, body, ts);
	e.cycle = e.c.t;
	e.key |= 1;
	e.kind = EV_TAIL_ARRIVED;
	if (push(d, &e))
		return -1;
	im->events++;
	return 0;
}

/* The port of `node` that leads to its neighbour `from`. */
static int port_towards(const struct topology *t, int node, int from)
{
	for (int q = 0; q < t->ports; q++)
		if (topology_neighbor(t, node, q) == from)
			return q;
	return -1;
}

static int ideal_send(void *impl, int node, const struct send_req *r)
{
	struct ideal *d = impl;
	const struct topology *t = &d->cfg->topo;
	uint64_t ts = (uint64_t)d->cfg->startup;
	struct ideal_msg *im;
	struct message *m;
	struct chain *ch, start;
	struct ev done;
	int c;

	if (r->len < 1 || (r->type == HDR_R && (r->dest < 0 || r->dest >= t->nodes ||
						 r->dest == node))) {
		snprintf(d->error, sizeof(d->error), "a send from %d to %d of %d flits", node,
			 r->dest, r->len);
		return -1;
	}
	im = calloc(1, sizeof(*im) + (r->data ? sizeof(uint64_t) * (size_t)(r->len - 1) : 0));
	if (!im)
		goto oom;
	m = &im->m;
	if (!d->release) {
		im->next = d->kept;
		d->kept = im;
	}
	if (r->len > 1 && r->data) {
		uint64_t *data = (uint64_t *)(im + 1);

		memcpy(data, r->data, sizeof(uint64_t) * (size_t)(r->len - 1));
		m->data = data;
		m->stored = true;
	}
	m->id = d->nmsg;
	m->source = node;
	m->type = r->type;
	m->ir = r->ir;
	m->address = r->type == HDR_B ? node : r->dest;
	m->len = r->len;
	m->tag = r->tag;
	d->nmsg++;

	/* The NI's channel choice (microarchitecture section 9). */
	if (r->channel >= 0)
		c = r->channel;
	else if (!d->cfg->all_port || r->type == HDR_B)
		c = 0;
	else
		c = unicast_next_port(t, node, r->dest);
	m->channel = c;
	ch = &d->chan[node * d->channels + c];
	start = later(d->now, *ch);
	*ch = add(start, 1, 0, (uint64_t)(m->len - 1), ts);
	done = (struct ev){ .cycle = ch->t, .key = ev_key(0, node, c, m->id, 0), .node = node,
			    .port = c, .msg = m->id, .im = im, .kind = EV_SEND_DONE, .c = *ch };
	if (push(d, &done)) {
		if (d->release)
			free(im);
		goto oom;
	}
	im->events++;
	if (!d->any_send || d->now.t < d->first_send)
		d->first_send = d->now.t;
	d->any_send = true;
	if (d->trace && d->trace->send) {
		struct scheduled_send s = {
			.msg = m->id, .source = node, .dest = r->type == HDR_B ? -1 : r->dest,
			.bcast = r->type == HDR_B, .ir = r->ir, .len = r->len,
			.call = d->now.t, .start = start.t, .done = ch->t,
		};

		d->trace->send(d->trace->ctx, &s);
	}

	if (r->type == HDR_B) {
		/* The replication tree, or with ir the path broadcast's Hamiltonian path. */
		for (int u = 0; u < t->nodes; u++) {
			int hops = r->ir ? path_depth(t, node, u) : topology_distance(t, node, u);
			bool forwards = (r->ir ? path_children(t, node, u) :
					 replication_children(t, node, u)) != 0;
			int parent = r->ir ? path_parent(t, node, u) : replication_parent(t, node, u);

			if (u != node && arrive(d, im, u, hops, hops + forwards,
						port_towards(t, u, parent), start))
				goto oom;
		}
		return m->id;
	}
	for (int v = node, hops = 0; v != r->dest;) {
		int q = unicast_next_port(t, v, r->dest), u = topology_neighbor(t, v, q);

		hops++;
		if ((u == r->dest || r->ir) && arrive(d, im, u, hops, 0, topology_peer_port(t, q), start))
			goto oom;
		v = u;
	}
	return m->id;
oom:
	snprintf(d->error, sizeof(d->error), "out of memory");
	return -1;
}

/* A message's event was handled (or dropped): free it after its last. */
static void event_done(struct ideal *d, struct ideal_msg *im)
{
	if (--im->events == 0 && d->release)
		free(im);
}

static void ideal_free(struct ideal *d)
{
	struct ev e;

	while (next_event(d, &e))
		event_done(d, e.im);
	free(d->draining.e);
	for (size_t k = 0; k < d->ncal; k++)
		free(d->cal[k].e);
	free(d->cal);
	while (d->kept) {
		struct ideal_msg *im = d->kept;

		d->kept = im->next;
		free(im);
	}
	free(d->chan);
}

int algo_schedule(const struct algorithm *a, const struct algo_params *p,
		  struct schedule_result *r)
{
	if (a->schedule && a->schedule(p, r) == 0)
		return 0;
	return algo_schedule_traced(a, p, r, NULL);
}

void schedule_describe(struct schedule_result *r)
{
	snprintf(r->text, sizeof(r->text),
		 "contention-free schedule: %d start-ups * t_s + %d hops + %llu flit (and T_r) cycles = %llu",
		 r->startups, r->hops, (unsigned long long)r->flits, (unsigned long long)r->cycles);
}

int algo_schedule_traced(const struct algorithm *a, const struct algo_params *p,
			 struct schedule_result *r, const struct schedule_trace *t)
{
	const struct sim_config *cfg = p->cfg;
	struct ideal d = { .cfg = cfg, .channels = cfg->all_port ? cfg->topo.ports : 1,
			   .trace = t };
	struct transport tx = { .impl = &d, .send = ideal_send, .error = ideal_error,
				.no_words = true };
	struct skeleton *sk = skeleton_create(a, p);
	char err[200];
	struct ev e;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	d.chan = calloc((size_t)cfg->topo.nodes * (size_t)d.channels, sizeof(*d.chan));
	if (!sk || !d.chan) {
		rc = -1;
		snprintf(r->text, sizeof(r->text), "schedule: out of memory");
		goto out;
	}
	d.release = skeleton_releases_messages(sk);
	skeleton_start(sk, &tx);
	while (next_event(&d, &e)) {
		struct message *m = &e.im->m;
		struct sim_event se = { .kind = e.kind, .node = e.node, .cycle = e.cycle, .msg = m,
					.tag = m->tag };

		d.now = e.c;
		if (e.kind == EV_HEAD_ARRIVED && t && t->head)
			t->head(t->ctx, e.msg, e.node, e.cycle);
		if (e.kind == EV_TAIL_ARRIVED) {
			m->delivered++;
			d.last = later(d.last, e.c);
		}
		skeleton_event(sk, &tx, &se);
		event_done(&d, e.im);
	}
	r->messages = (uint64_t)d.nmsg;
	r->cycles = d.last.t - (d.any_send ? d.first_send : 0);
	r->startups = d.last.s;
	r->hops = d.last.h;
	r->flits = d.last.f;
	r->ok = skeleton_check(sk, err, sizeof(err)) == 0;
	if (r->ok)
		schedule_describe(r);
	else
		snprintf(r->text, sizeof(r->text), "the plan fails without the network: %.200s", err);
out:
	skeleton_destroy(sk);
	ideal_free(&d);
	return rc;
}
