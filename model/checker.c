/* SPDX-License-Identifier: MIT */
/*
 * checker.c - matches every ejected flit against what was sent.
 *
 * Expectations are kept per node as a list of message ids in send order; a head is
 * matched to the oldest outstanding expectation whose head flit is identical (type,
 * address, source and wrapped sequence number), so a wrapped sequence number can
 * never make a younger message pass for an older one.
 */
#include "checker.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expect_list {
	int *ids;
	int n, cap;
};

/*
 * A channel's reception, 16 bytes: it is read for every flit, and a large network
 * has tens of thousands of channels.
 */
struct rx_state {
	const uint64_t *next;	/* the next data word as sent (messages never move) */
	int left;		/* data words still to come, the tail's included */
	int msg;		/* message being received on this channel, -1 if none */
};

struct checker {
	const struct topology *topo;
	int channels;
	unsigned width;
	uint64_t mask;		/* payload_mask(width) */
	struct expect_list *expect;	/* per node */
	struct rx_state *rx;		/* per node * channel */
	uint64_t *head_cycle;		/* per node * channel: head of the reception */
	uint64_t outstanding, deliveries, flits;
	struct delivery *log;
	int n_log, cap_log;
	char error[512];
};

struct checker *checker_create(const struct topology *t, int channels, unsigned width)
{
	struct checker *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->topo = t;
	c->channels = channels;
	c->width = width;
	c->mask = payload_mask(width);
	c->expect = calloc((size_t)t->nodes, sizeof(*c->expect));
	c->rx = malloc(sizeof(*c->rx) * (size_t)t->nodes * (size_t)channels);
	c->head_cycle = calloc((size_t)t->nodes * (size_t)channels, sizeof(uint64_t));
	if (!c->expect || !c->rx || !c->head_cycle) {
		checker_destroy(c);
		return NULL;
	}
	for (int i = 0; i < t->nodes * channels; i++)
		c->rx[i] = (struct rx_state){ .msg = -1 };
	return c;
}

void checker_destroy(struct checker *c)
{
	if (!c)
		return;
	if (c->expect)
		for (int v = 0; v < c->topo->nodes; v++)
			free(c->expect[v].ids);
	free(c->expect);
	free(c->rx);
	free(c->head_cycle);
	free(c->log);
	free(c);
}

static int push_expect(struct expect_list *l, int id)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 4;
		int *p = realloc(l->ids, sizeof(int) * (size_t)cap);

		if (!p)
			return -1;
		l->ids = p;
		l->cap = cap;
	}
	l->ids[l->n++] = id;
	return 0;
}

int checker_expect(struct checker *c, struct message *m)
{
	const struct topology *t = c->topo;
	int n = 0;

	if (m->type == HDR_B) {
		for (int v = 0; v < t->nodes; v++) {
			if (v == m->source)
				continue;
			if (push_expect(&c->expect[v], m->id))
				return -1;
			n++;
		}
	} else {
		int v = m->source;

		/* Walk the dimension-ordered route; IR delivers at every router after the source. */
		while (v != m->address) {
			v = topology_neighbor(t, v, unicast_next_port(t, v, m->address));
			if (m->ir || v == m->address) {
				if (push_expect(&c->expect[v], m->id))
					return -1;
				n++;
			}
		}
	}
	m->receivers = n;
	c->outstanding += (uint64_t)n;
	return 0;
}

static int take_expectation(struct checker *c, struct message **messages, int node, flit_t f)
{
	struct expect_list *l = &c->expect[node];

	/* Ids are in send order, so the first match is the oldest. */
	for (int k = 0; k < l->n; k++) {
		int id = l->ids[k];

		if (messages[id]->head == f) {
			memmove(&l->ids[k], &l->ids[k + 1], sizeof(int) * (size_t)(l->n - k - 1));
			l->n--;
			return id;
		}
	}
	return -1;
}

static void log_delivery(struct checker *c, int msg, int node, uint64_t head, uint64_t tail)
{
	if (c->n_log == c->cap_log) {
		int cap = c->cap_log ? 2 * c->cap_log : 256;
		struct delivery *p = realloc(c->log, sizeof(*p) * (size_t)cap);

		if (!p)
			return;	/* the log is informative; the counts stay right */
		c->log = p;
		c->cap_log = cap;
	}
	c->log[c->n_log++] = (struct delivery){ msg, node, head, tail };
}

/* Errors are rare: kept out of line, so the per-flit path stays short. */
static __attribute__((cold, noinline, format(printf, 6, 7))) enum checker_result
fail(struct checker *c, int node, int channel, uint64_t cycle, flit_t f, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(c->error, sizeof(c->error),
		 "checker: cycle %llu node %d ejection channel %d flit 0x%llx: %s",
		 (unsigned long long)cycle, node, channel, (unsigned long long)f, what);
	return CHECK_ERROR;
}

/* Why data flit f does not fit the message in progress rx. */
static __attribute__((cold, noinline)) enum checker_result
data_error(struct checker *c, const struct rx_state *rx, struct message **messages, int node,
	   int channel, uint64_t cycle, flit_t f)
{
	bool last = rx->left == 1;
	int idx = messages[rx->msg]->len - 1 - rx->left;

	if (flit_is_head(f))
		return fail(c, node, channel, cycle, f, "head while message %d is still arriving",
			    rx->msg);
	if (flit_is_tail(f) != last)
		return fail(c, node, channel, cycle, f, "message %d: %s", rx->msg,
			    last ? "last data flit is not a tail" : "tail arrived early");
	return fail(c, node, channel, cycle, f, "message %d: data word %d is 0x%llx, sent 0x%llx",
		    rx->msg, idx, (unsigned long long)flit_payload(f),
		    (unsigned long long)(*rx->next & c->mask));
}

/* A flit on a channel with no message in progress: it must be an expected head. */
static __attribute__((noinline)) enum checker_result
check_head(struct checker *c, struct rx_state *rx, struct message **messages, int node,
	   int channel, flit_t f, uint64_t cycle, int *msg, bool *head_too)
{
	int id;

	if (!flit_is_head(f))
		return fail(c, node, channel, cycle, f, "data flit without a head");
	id = take_expectation(c, messages, node, f);
	if (id < 0)
		return fail(c, node, channel, cycle, f, "head of a message this node must not receive");
	*msg = id;
	if (flit_is_tail(f)) {
		*head_too = true;
		c->outstanding--;
		c->deliveries++;
		messages[id]->delivered++;
		messages[id]->last_delivery = cycle;
		log_delivery(c, id, node, cycle, cycle);
		return CHECK_TAIL;
	}
	rx->msg = id;
	rx->next = messages[id]->data;
	rx->left = messages[id]->len - 1;
	c->head_cycle[node * c->channels + channel] = cycle;
	return CHECK_HEAD;
}

enum checker_result checker_flit(struct checker *c, struct message **messages, int node,
				 int channel, flit_t f, uint64_t cycle, int *msg, bool *head_too)
{
	struct rx_state *rx = &c->rx[node * c->channels + channel];
	uint64_t mask = c->mask;

	c->flits++;
	*head_too = false;
	if (rx->msg < 0)
		return check_head(c, rx, messages, node, channel, f, cycle, msg, head_too);

	/* A data flit: the next word of the message in progress, a tail exactly last. */
	bool last = rx->left == 1;

	if (flit_is_head(f) || flit_is_tail(f) != last || flit_payload(f) != (*rx->next & mask))
		return data_error(c, rx, messages, node, channel, cycle, f);
	*msg = rx->msg;
	rx->next++;
	rx->left--;
	if (!last)
		return CHECK_OK;

	struct message *m = messages[rx->msg];

	c->outstanding--;
	c->deliveries++;
	m->delivered++;
	m->last_delivery = cycle;
	log_delivery(c, rx->msg, node, c->head_cycle[node * c->channels + channel], cycle);
	rx->msg = -1;
	return CHECK_TAIL;
}

uint64_t checker_outstanding(const struct checker *c) { return c->outstanding; }
uint64_t checker_deliveries(const struct checker *c) { return c->deliveries; }
uint64_t checker_flits(const struct checker *c) { return c->flits; }
const char *checker_error(const struct checker *c) { return c->error; }

const struct delivery *checker_log(const struct checker *c, int *count)
{
	*count = c->n_log;
	return c->log;
}

void checker_report_missing(const struct checker *c, struct message **messages, FILE *out,
			    int max)
{
	int shown = 0;

	for (int v = 0; v < c->topo->nodes && shown < max; v++)
		for (int k = 0; k < c->expect[v].n && shown < max; k++, shown++) {
			const struct message *m = messages[c->expect[v].ids[k]];

			fprintf(out, "  missing: message %d (%s from %d, %s %d, seq %u, %d flits) at node %d\n",
				m->id, m->type == HDR_B ? "B" : (m->ir ? "R+IR" : "R"), m->source,
				m->type == HDR_B ? "root" : "to", m->address, m->seq, m->len, v);
		}
	if ((uint64_t)shown < c->outstanding)
		fprintf(out, "  ... %llu deliveries missing in all\n",
			(unsigned long long)c->outstanding);
}
