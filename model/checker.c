/* SPDX-License-Identifier: MIT */
/*
 * checker.c - matches every ejected flit against what was sent.
 *
 * A head is matched to the oldest outstanding expectation of its node whose head
 * flit is identical (type, ir, address, source and wrapped sequence number), so a
 * wrapped sequence number can never make a younger message pass for an older one.
 *
 * Expectations are kept per (node, head flit) as a FIFO of messages in send order,
 * found through a hash table: matching a head is a lookup and a pop, O(1), however
 * many messages are in flight.  (A list per node searched at each head made a trace of
 * 800,000 messages quadratic: docs/performance-history.md, "Many messages in flight:
 * the checker".)  The oldest message of a key is in
 * its slot, so the common key with one message in flight (every message of an
 * exchange has its own source and sequence number) costs one slot and no pool entry.
 */
#include "checker.h"

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastforward.h"
#include "grow.h"

/* One outstanding (message, node) delivery, a link of its key's FIFO. */
struct expectation {
	struct message *msg;
	int next;		/* the next younger one with the same key, or -1 */
};

/*
 * A hash table slot, 32 bytes: the key (node, head flit), its oldest message, and the
 * younger ones as a FIFO of indices into the expectation pool (-1: none).  Open
 * addressing with linear probing; a slot whose FIFO empties is removed by shifting
 * back the run after it (no tombstones), which reads each slot's home, kept in it.
 */
struct slot {
	flit_t head;
	struct message *msg;	/* the oldest */
	int node;		/* -1: empty slot */
	unsigned home;		/* home_slot() of the key */
	int first, last;	/* the younger ones, oldest first */
};

_Static_assert(sizeof(struct slot) == 32, "a slot is 32 bytes");

/*
 * The head of a unicast (R without IR) names its source and its sequence number, and a
 * unicast has one receiver: an expectation whose head is a unicast's is kept in a
 * direct table, row (source, seq mod DIRECT_SEQS) of its head, when the row counts no
 * other outstanding expectation, else in the hash table.  The head's match is then an
 * index and a compare of the whole head flit and the node, not the hash, the probe and
 * the removal's shift.
 *
 * The oldest-first match stays exact: the row is a function of the head, so every
 * expectation of a key (node, head) counts in the same row, and one goes into the row
 * only while the row counts none, so every expectation of its key in the hash table is
 * younger than the row's.  DIRECT_SEQS divides 2^(W - 26) for every W (W >= 32): a
 * head's wrapped sequence number gives the row.
 *
 * Four rows a node (64 bytes): the table is 4 KB on 8x8 and 64 KB on Q_10, where 64
 * rows a node made it 1 MB (4 MB on Q_12), read at each head's arrival and written at
 * each send, and missing the caches.  Direct exchange, CPU of 9 runs interleaved with
 * 64 rows: Q_10 1.022x as fast (best), 1.032x (median); Q_12 (3 runs) 1.063x and
 * 1.024x, 20.8 MB of peak memory instead of 24.6.  Uniform 8x8 at 0.1 and 0.3 the
 * same (a message beyond a source's fourth outstanding one goes to the hash table),
 * instructions the same to 0.1 a flit-hop (docs/performance.md, eleventh session
 * (skel)).
 */
#define DIRECT_SEQS 4
_Static_assert(DIRECT_SEQS <= 1 << (FLIT_MIN_PAYLOAD - HDR_SEQ_SHIFT),
	       "a head's sequence number has the row's bits");

struct direct {
	struct message *msg;	/* the row's expectation, or NULL */
	int node;		/* msg's receiver */
	int count;		/* the row's outstanding expectations, msg's and the hash's */
};

/*
 * The row of head flit f, from its fields alone (a function of the key, so that every
 * expectation of a key has the same row), or NULL: not a unicast's, or a source that
 * names no node (a wrong bit).
 */
static inline struct direct *direct_row(const struct checker *c, flit_t f);

struct checker {
	const struct topology *topo;
	int channels;
	unsigned width;
	uint64_t mask;		/* payload_mask(width) */
	uint64_t flit_mask;	/* the payload's bits in a flit: mask << FLIT_KIND_BITS */
	struct slot *table;	/* 2^table_bits slots, at most half of them used */
	unsigned table_bits;
	/*
	 * Derived from table_bits (set_table_bits()), kept rather than computed again in
	 * the hash, each probe and each insertion, twice a message.
	 */
	size_t slot_mask;	/* 2^table_bits - 1 */
	unsigned hash_shift;	/* 64 - table_bits */
	int max_keys;		/* 2^(table_bits - 1): at that many keys the table grows */
	int keys;		/* slots in use */
	struct expectation *pool;	/* outstanding expectations and free entries */
	int n_pool, cap_pool;
	int free_list;		/* free pool entries, linked by next; -1 if none */
	struct direct *direct;	/* nodes * DIRECT_SEQS rows: unicasts' expectations */
	int nodes;		/* topo->nodes, for direct_row() */
	/* Per node * channel, for checker_flit() (allocated at its first call). */
	struct reception *rx;
	uint64_t outstanding, deliveries, flits;
	char error[512];
};

static inline struct direct *direct_row(const struct checker *c, flit_t f)
{
	unsigned source = (unsigned)(f >> FLIT_SOURCE_LSB) & (FLIT_MAX_NODES - 1);

	if (((f >> FLIT_TYPE_BIT) | (f >> FLIT_IR_BIT)) & 1u || source >= (unsigned)c->nodes)
		return NULL;
	return &c->direct[source * DIRECT_SEQS + ((f >> FLIT_SEQ_LSB) & (DIRECT_SEQS - 1))];
}

static void set_table_bits(struct checker *c, unsigned bits)
{
	c->table_bits = bits;
	c->slot_mask = ((size_t)1 << bits) - 1;
	c->hash_shift = 64 - bits;
	c->max_keys = 1 << (bits - 1);
}

static struct slot *new_table(unsigned bits)
{
	struct slot *t = malloc(sizeof(*t) << bits);

	if (t)
		for (size_t k = 0; k < (size_t)1 << bits; k++)
			t[k].node = -1;
	return t;
}

struct checker *checker_create(const struct topology *t, int channels, unsigned width)
{
	struct checker *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->topo = t;
	c->channels = channels;
	c->width = width;
	c->mask = payload_mask(width);
	c->flit_mask = c->mask << FLIT_KIND_BITS;
	set_table_bits(c, 8);
	c->table = new_table(c->table_bits);
	c->free_list = -1;
	c->nodes = t->nodes;
	c->direct = calloc((size_t)t->nodes * DIRECT_SEQS, sizeof(*c->direct));
	if (!c->table || !c->direct) {
		checker_destroy(c);
		return NULL;
	}
	return c;
}

void checker_destroy(struct checker *c)
{
	if (!c)
		return;
	free(c->table);
	free(c->direct);
	free(c->pool);
	free(c->rx);
	free(c);
}

/*
 * The home slot of key (node, head): multiplicative (Fibonacci) hashing, the top bits
 * of a product, where every bit of the key moves them.  Two multiplies, where a full
 * 64-bit mix (splitmix64's finaliser) cost about twenty instructions a hash, twice a
 * message (its expectation, its head).  The node is spread first: a broadcast's keys
 * share their head and differ only in it.  Probes compare whole keys, so the hash
 * decides only where a key sits, never a match.
 */
static size_t home_slot(const struct checker *c, int node, flit_t head)
{
	uint64_t z = (head ^ ((uint64_t)(unsigned)node * 0x9e3779b97f4a7c15ull)) *
		     0xbf58476d1ce4e5b9ull;

	return (size_t)(z >> c->hash_shift);
}

/* The slot of key (node, head) from its home, or the empty slot where it would go. */
static struct slot *find_slot(const struct checker *c, int node, flit_t head, size_t home)
{
	size_t mask = c->slot_mask;

	for (size_t k = home;; k = (k + 1) & mask) {
		struct slot *s = &c->table[k];

		if (s->node < 0 || (s->node == node && s->head == head))
			return s;
	}
}

/* Double the table (it is kept at most half full, so a probe ends soon). */
static int grow_table(struct checker *c)
{
	struct slot *old = c->table;
	size_t n = (size_t)1 << c->table_bits;

	c->table = new_table(c->table_bits + 1);
	if (!c->table) {
		c->table = old;
		return -1;
	}
	set_table_bits(c, c->table_bits + 1);
	for (size_t k = 0; k < n; k++)
		if (old[k].node >= 0) {
			size_t home = home_slot(c, old[k].node, old[k].head);
			struct slot *s = find_slot(c, old[k].node, old[k].head, home);

			*s = old[k];
			s->home = (unsigned)home;
		}
	free(old);
	return 0;
}

/*
 * Empty slot s: shift back the slots after it whose home is not between the hole
 * and themselves, so that every key stays reachable from its home without a gap.
 */
static void remove_slot(struct checker *c, struct slot *s)
{
	size_t mask = c->slot_mask;
	size_t hole = (size_t)(s - c->table);

	for (size_t k = (hole + 1) & mask; c->table[k].node >= 0; k = (k + 1) & mask) {
		size_t home = c->table[k].home;

		/* Movable iff home is cyclically outside (hole, k]. */
		if (((k - home) & mask) >= ((k - hole) & mask)) {
			c->table[hole] = c->table[k];
			hole = k;
		}
	}
	c->table[hole].node = -1;
	c->keys--;
}

/* Node must receive message m: append it to the FIFO of its key (inlined: once a send). */
static inline __attribute__((always_inline)) int
add_expectation(struct checker *c, int node, struct message *m)
{
	struct direct *d = direct_row(c, m->head);
	struct slot *s;
	size_t home;
	int e;

	if (d && d->count++ == 0) {
		d->msg = m;
		d->node = node;
		c->outstanding++;
		return 0;
	}
	if (c->keys >= c->max_keys && grow_table(c))	/* (keys + 1) * 2 > 2^bits */
		return -1;
	home = home_slot(c, node, m->head);
	s = find_slot(c, node, m->head, home);
	if (s->node < 0) {
		*s = (struct slot){ .head = m->head, .msg = m, .node = node,
				    .home = (unsigned)home, .first = -1, .last = -1 };
		c->keys++;
		c->outstanding++;
		return 0;
	}
	if (c->free_list >= 0) {
		e = c->free_list;
		c->free_list = c->pool[e].next;
	} else {
		if (c->n_pool == c->cap_pool) {
			size_t cap = (size_t)c->cap_pool;
			struct expectation *p = grow_array(c->pool, &cap, cap + 1, sizeof(*p), 256,
							   INT_MAX);

			if (!p)
				return -1;
			c->pool = p;
			c->cap_pool = (int)cap;
		}
		e = c->n_pool++;
	}
	c->pool[e] = (struct expectation){ .msg = m, .next = -1 };
	if (s->first < 0)
		s->first = e;
	else
		c->pool[s->last].next = e;
	s->last = e;
	c->outstanding++;
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
			if (add_expectation(c, v, m))
				return -1;
			n++;
		}
	} else if (!m->ir) {
		/* Only the destination receives, wherever the route goes. */
		if (add_expectation(c, m->address, m))
			return -1;
		n = 1;
	} else {
		int v = m->source;

		/* Walk the dimension-ordered route; IR delivers at every router after the source. */
		while (v != m->address) {
			v = topology_neighbor(t, v, unicast_next_port(t, v, m->address));
			if (add_expectation(c, v, m))
				return -1;
			n++;
		}
	}
	m->receivers = n;
	return 0;
}

/*
 * The oldest outstanding message of node whose head flit is f, taken from the hash
 * table (d: f's direct row, which did not hold it, or NULL); or NULL.
 */
static struct message *take_from_table(struct checker *c, struct direct *d, int node, flit_t f)
{
	struct slot *s;
	struct message *m;
	int e;

	s = find_slot(c, node, f, home_slot(c, node, f));
	if (s->node < 0)
		return NULL;
	m = s->msg;
	if (d)
		d->count--;	/* an expectation of the row (its key's) */
	e = s->first;
	if (e < 0) {
		remove_slot(c, s);
		return m;
	}
	/* The next oldest moves into the slot. */
	s->msg = c->pool[e].msg;
	s->first = c->pool[e].next;
	c->pool[e].next = c->free_list;
	c->free_list = e;
	return m;
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

/*
 * Data words still to come on rx, the tail's included.  Generated words: counted from
 * want to the tail's (reception.stop), a step at a time (an error's path only).
 */
static int words_left(const struct reception *rx)
{
	const struct message *m = rx->msg;
	int left = 1;

	if (!rx->step)
		return (int)(m->data + (m->len - 1) - rx->next);
	for (uint64_t w = rx->want; (uint32_t)w != rx->stop; w += rx->step)
		left++;
	return left;
}

/* Stored words: the fast path's compare of want and stop must fail (checker.h). */
static void stored_next(struct reception *rx, const uint64_t *next)
{
	rx->next = next;
	rx->stop = (uint32_t)rx->want;
}

/* Why data flit f does not fit the message in progress rx. */
static __attribute__((cold, noinline)) enum checker_result
data_error(struct checker *c, const struct reception *rx, int node, int channel, uint64_t cycle,
	   flit_t f)
{
	int left = words_left(rx);
	bool last = left == 1;
	int id = rx->msg->id, idx = rx->msg->len - 1 - left;

	if (flit_is_head(f))
		return fail(c, node, channel, cycle, f, "head while message %d is still arriving", id);
	if (flit_is_tail(f) != last)
		return fail(c, node, channel, cycle, f, "message %d: %s", id,
			    last ? "last data flit is not a tail" : "tail arrived early");
	return fail(c, node, channel, cycle, f, "message %d: data word %d is 0x%llx, sent 0x%llx",
		    id, idx, (unsigned long long)flit_payload(f),
		    (unsigned long long)(message_word(rx->msg, idx, c->width) & c->mask));
}

/* Message m delivered whole at cycle. */
static enum checker_result delivered(struct checker *c, struct message *m, uint64_t cycle)
{
	c->outstanding--;
	c->deliveries++;
	m->delivered++;
	m->last_delivery = cycle;
	return CHECK_TAIL;
}

/* Head flit f of message m, taken from the expectations, starts rx (or is m whole). */
static inline __attribute__((always_inline)) enum checker_result
head_taken(struct checker *c, struct reception *rx, struct message *m, flit_t f, uint64_t cycle,
	   struct message **msg, bool *head_too)
{
	*msg = m;
	*head_too = flit_is_tail(f);
	if (*head_too)
		return delivered(c, m, cycle);
	rx->msg = m;
	if (m->stored) {
		rx->step = 0;
		stored_next(rx, m->data);
	} else {
		rx->want = (m->key.base << FLIT_KIND_BITS) & c->flit_mask;
		rx->step = m->key.step << FLIT_KIND_BITS;
		rx->stop = (uint32_t)(rx->want + (uint64_t)(m->len - 2) * rx->step);
	}
	return CHECK_HEAD;
}

/* checker_head_flit() without a match in f's direct row (d, or NULL: none). */
static __attribute__((noinline)) enum checker_result
head_from_table(struct checker *c, struct direct *d, struct reception *rx, int node, int channel,
		flit_t f, uint64_t cycle, struct message **msg, bool *head_too)
{
	struct message *m;

	if (!flit_is_head(f))
		return fail(c, node, channel, cycle, f, "data flit without a head");
	m = take_from_table(c, d, node, f);
	if (!m)
		return fail(c, node, channel, cycle, f, "head of a message this node must not receive");
	return head_taken(c, rx, m, f, cycle, msg, head_too);
}

/*
 * A flit on a channel with no message in progress: it must be an expected head.  The
 * common head, a unicast's found in its direct row, is taken here without a register
 * saved (a leaf: the rest is a tail call); with the hash table's path inline, the
 * prologue and epilogue saved six registers a head.
 */
__attribute__((noinline)) enum checker_result
checker_head_flit(struct checker *c, struct reception *rx, int node, int channel, flit_t f,
		  uint64_t cycle, struct message **msg, bool *head_too)
{
	struct direct *d;

#ifdef WORMCAST_DEBUG
	if (rx->msg)
		return fail(c, node, channel, cycle, f, "internal: checker_head_flit() on a "
			    "reception with message %d in progress", rx->msg->id);
#endif
	/* (A data flit has no direct row: its type and IR bits are a head's only.) */
	d = flit_is_head(f) ? direct_row(c, f) : NULL;
	if (d) {
		struct message *m = d->msg;

		if (m && m->head == f && d->node == node) {
			d->msg = NULL;
			d->count--;
			return head_taken(c, rx, m, f, cycle, msg, head_too);
		}
	}
	return head_from_table(c, d, rx, node, channel, f, cycle, msg, head_too);
}

/* A body flit is kind 0: the flit sent is its word in place, which the fast path compares. */
_Static_assert(FLIT_BODY == 0, "a body flit's kind bits are 0");

/*
 * Every flit but a right body flit of a generated payload (checker_body_flit()'s, the
 * common case, a compare and two adds inline in the caller): a head, a tail, a stored
 * word, or an error.  Out of line: once or twice a message.
 */
__attribute__((noinline)) enum checker_result
checker_flit_other(struct checker *c, struct reception *rx, int node, int channel, flit_t f,
		   uint64_t cycle, struct message **msg, bool *head_too)
{
	struct message *m = rx->msg;

#ifdef WORMCAST_DEBUG
	/* The caller asked checker_body_flit() first (here such a flit would be a data error). */
	{
		struct reception probe = *rx;

		if (checker_body_flit(&probe, f, c->flit_mask))
			return fail(c, node, channel, cycle, f, "internal: a right body flit "
				    "passed to checker_flit_other()");
		/* A reception without a message has step 0 (checker_tail_flit()'s test). */
		if (!rx->msg && rx->step)
			return fail(c, node, channel, cycle, f, "internal: an idle reception "
				    "keeps a payload step");
		/* ... and its stop is want's (checker_body_flit()'s test). */
		if ((!rx->msg || !rx->step) && rx->stop != (uint32_t)rx->want)
			return fail(c, node, channel, cycle, f, "internal: a reception without "
				    "generated words has a stop other than its want");
	}
#endif
	if (!m)
		return checker_head_flit(c, rx, node, channel, f, cycle, msg, head_too);
	if (rx->step) {
		/* Generated words: checker_body_flit() took every right body flit, so a tail is due. */
		if ((uint32_t)rx->want != rx->stop || f != (rx->want | FLIT_TAIL))
			return data_error(c, rx, node, channel, cycle, f);
	} else {
		/* Stored words: exactly the flit sent, a body flit with the word or the tail last. */
		bool last = rx->next == m->data + (m->len - 2);

		if (f != ((*rx->next & c->mask) << FLIT_KIND_BITS | (last ? FLIT_TAIL : FLIT_BODY)))
			return data_error(c, rx, node, channel, cycle, f);
		stored_next(rx, rx->next + 1);
		if (!last)
			return CHECK_OK;	/* *msg is not set for CHECK_OK (checker.h) */
	}
	*msg = m;
	*head_too = false;
	rx->msg = NULL;
	rx->step = 0;	/* idle: checker_tail_flit() must not match it */
	return delivered(c, m, cycle);
}

struct message *checker_tail_delivered(struct checker *c, struct reception *rx, uint64_t cycle)
{
	struct message *m = rx->msg;

#ifdef WORMCAST_DEBUG
	/* checker_tail_flit() matched: a message of generated words, all its body taken. */
	if (!m || m->stored || (uint32_t)rx->want != rx->stop) {
		snprintf(c->error, sizeof(c->error), "checker: cycle %llu: internal: "
			 "checker_tail_delivered() on a reception without a generated message "
			 "at its tail", (unsigned long long)cycle);
		return NULL;
	}
#endif
	rx->msg = NULL;
	rx->step = 0;
	delivered(c, m, cycle);
	return m;
}

enum checker_result checker_flit(struct checker *c, int node, int channel, flit_t f,
				 uint64_t cycle, struct message **msg, bool *head_too)
{
	size_t n = (size_t)c->topo->nodes * (size_t)c->channels;
	struct reception *rx;

	if (!c->rx) {
		c->rx = malloc(sizeof(*c->rx) * n);
		if (!c->rx)
			return fail(c, node, channel, cycle, f, "out of memory");
		for (size_t k = 0; k < n; k++)
			checker_reception_init(&c->rx[k]);
	}
	rx = &c->rx[node * c->channels + channel];
	c->flits++;
	if (checker_body_flit(rx, f, c->flit_mask))
		return CHECK_OK;
	return checker_flit_other(c, rx, node, channel, f, cycle, msg, head_too);
}

uint64_t checker_flit_mask(const struct checker *c) { return c->flit_mask; }

void checker_count_flits(struct checker *c, int n)
{
	c->flits += (uint64_t)(int64_t)n;	/* wraps as a subtraction for n < 0 */
}

/*
 * For the fast-forward (fastforward.h): the counts, the flits seen advancing as data,
 * the others the same (no delivery inside a jump).
 */
void checker_ff_visit(struct checker *c, struct ff *f)
{
	ff_control(f, &c->outstanding, sizeof(c->outstanding));
	ff_control(f, &c->deliveries, sizeof(c->deliveries));
	ff_control(f, &c->keys, sizeof(c->keys));
	ff_control(f, &c->n_pool, sizeof(c->n_pool));
	ff_word(f, &c->flits, sizeof(c->flits), ~0ull);
}

/*
 * A reception that takes a flit each period: a generated payload's (stored words are
 * no progression: refused), its next word the data, the rest the same.
 */
void checker_ff_reception(struct reception *rx, uint64_t flit_mask, struct ff *f)
{
	if (!rx->msg || !rx->step) {
		ff_refuse(f);
		return;
	}
	/* (Packed: addressed as bytes.) */
	char *p = (char *)rx;

	ff_control(f, p + offsetof(struct reception, msg), sizeof(rx->msg));
	ff_word(f, p + offsetof(struct reception, want), sizeof(rx->want), flit_mask);
	ff_control(f, p + offsetof(struct reception, step), sizeof(rx->step) + sizeof(rx->stop));
}

uint64_t checker_outstanding(const struct checker *c) { return c->outstanding; }
uint64_t checker_deliveries(const struct checker *c) { return c->deliveries; }
uint64_t checker_flits(const struct checker *c) { return c->flits; }
const char *checker_error(const struct checker *c) { return c->error; }

struct missing {
	int node;
	const struct message *msg;
};

static int by_node_then_send_order(const void *a, const void *b)
{
	const struct missing *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->msg->id > y->msg->id) - (x->msg->id < y->msg->id);
}

/* The outstanding expectations, node by node, each node's in send order. */
void checker_report_missing(const struct checker *c, FILE *out, int max)
{
	struct missing *list = malloc(sizeof(*list) * ((size_t)c->outstanding + 1));
	size_t n = 0, shown;

	if (!list) {
		fprintf(out, "  (out of memory listing the %llu missing deliveries)\n",
			(unsigned long long)c->outstanding);
		return;
	}
	for (size_t k = 0; k < (size_t)1 << c->table_bits; k++) {
		if (c->table[k].node < 0)
			continue;
		list[n++] = (struct missing){ c->table[k].node, c->table[k].msg };
		for (int e = c->table[k].first; e >= 0; e = c->pool[e].next)
			list[n++] = (struct missing){ c->table[k].node, c->pool[e].msg };
	}
	for (size_t k = 0; k < (size_t)c->nodes * DIRECT_SEQS; k++)
		if (c->direct[k].msg)
			list[n++] = (struct missing){ c->direct[k].node, c->direct[k].msg };
	qsort(list, n, sizeof(*list), by_node_then_send_order);
	for (shown = 0; shown < n && shown < (size_t)(max > 0 ? max : 0); shown++) {
		const struct message *m = list[shown].msg;

		fprintf(out, "  missing: message %d (%s from %d, %s %d, seq %u, %d flits) at node %d\n",
			m->id, msg_kind_name(m->type, m->ir), m->source,
			m->type == HDR_B ? "root" : "to", m->address, m->seq, m->len,
			list[shown].node);
	}
	free(list);
	if ((uint64_t)shown < c->outstanding)
		fprintf(out, "  ... %llu deliveries missing in all\n",
			(unsigned long long)c->outstanding);
}
