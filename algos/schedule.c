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

struct ev {
	uint64_t cycle;
	int order;		/* 0 SEND_DONE, 1 arrival */
	int node, port, sub;	/* sub: 0 head, 1 tail */
	int msg;
	struct ideal_msg *im;
	enum sim_event_kind kind;
	struct chain c;
};

struct ideal {
	const struct sim_config *cfg;
	int channels;
	struct chain *chan;		/* nodes * channels: when each injection channel is free */
	int nmsg;
	bool release;			/* free a message after its last event */
	struct ideal_msg *kept;
	struct ev *heap;
	size_t nheap, capheap;
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

static bool before(const struct ev *a, const struct ev *b)
{
	if (a->cycle != b->cycle)
		return a->cycle < b->cycle;
	if (a->order != b->order)
		return a->order < b->order;
	if (a->node != b->node)
		return a->node < b->node;
	if (a->port != b->port)
		return a->port < b->port;
	if (a->msg != b->msg)
		return a->msg < b->msg;
	return a->sub < b->sub;
}

static int push(struct ideal *d, const struct ev *e)
{
	size_t k;

	if (d->nheap == d->capheap) {
		size_t cap = d->capheap ? 2 * d->capheap : 256;
		struct ev *h = realloc(d->heap, sizeof(*h) * cap);

		if (!h)
			return -1;
		d->heap = h;
		d->capheap = cap;
	}
	for (k = d->nheap++; k > 0 && before(e, &d->heap[(k - 1) / 2]); k = (k - 1) / 2)
		d->heap[k] = d->heap[(k - 1) / 2];
	d->heap[k] = *e;
	return 0;
}

static struct ev pop(struct ideal *d)
{
	struct ev top = d->heap[0], last = d->heap[--d->nheap];
	size_t k = 0;

	for (;;) {
		size_t c = 2 * k + 1;

		if (c >= d->nheap)
			break;
		if (c + 1 < d->nheap && before(&d->heap[c + 1], &d->heap[c]))
			c++;
		if (!before(&d->heap[c], &last))
			break;
		d->heap[k] = d->heap[c];
		k = c;
	}
	if (d->nheap)
		d->heap[k] = last;
	return top;
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
	struct ev e = { .cycle = head.t, .order = 1, .node = node, .port = port, .sub = 0,
			.msg = m->id, .im = im, .kind = EV_HEAD_ARRIVED, .c = head };

	m->receivers++;
	if (push(d, &e))
		return -1;
	im->events++;
	e.c = add(head, 0, 0, body, ts);
	e.cycle = e.c.t;
	e.sub = 1;
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
	im = calloc(1, sizeof(*im) + sizeof(uint64_t) * (size_t)(r->len - 1));
	if (!im)
		goto oom;
	m = &im->m;
	if (!d->release) {
		im->next = d->kept;
		d->kept = im;
	}
	if (r->len > 1) {
		uint64_t *data = (uint64_t *)(im + 1);

		memcpy(data, r->data, sizeof(uint64_t) * (size_t)(r->len - 1));
		m->data = data;
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
	done = (struct ev){ .cycle = ch->t, .order = 0, .node = node, .port = c, .msg = m->id,
			    .im = im, .kind = EV_SEND_DONE, .c = *ch };
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
	while (d->nheap)
		event_done(d, pop(d).im);
	while (d->kept) {
		struct ideal_msg *im = d->kept;

		d->kept = im->next;
		free(im);
	}
	free(d->heap);
	free(d->chan);
}

int algo_schedule(const struct algorithm *a, const struct algo_params *p,
		  struct schedule_result *r)
{
	return algo_schedule_traced(a, p, r, NULL);
}

int algo_schedule_traced(const struct algorithm *a, const struct algo_params *p,
			 struct schedule_result *r, const struct schedule_trace *t)
{
	const struct sim_config *cfg = p->cfg;
	struct ideal d = { .cfg = cfg, .channels = cfg->all_port ? cfg->topo.ports : 1,
			   .trace = t };
	struct transport tx = { .impl = &d, .send = ideal_send, .error = ideal_error };
	struct skeleton *sk = skeleton_create(a, p);
	char err[200];
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
	while (d.nheap) {
		struct ev e = pop(&d);
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
		snprintf(r->text, sizeof(r->text),
			 "contention-free schedule: %d start-ups * t_s + %d hops + %llu flit (and T_r) cycles = %llu",
			 r->startups, r->hops, (unsigned long long)r->flits,
			 (unsigned long long)r->cycles);
	else
		snprintf(r->text, sizeof(r->text), "the plan fails without the network: %.200s", err);
out:
	skeleton_destroy(sk);
	ideal_free(&d);
	return rc;
}
