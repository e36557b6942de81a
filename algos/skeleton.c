/* SPDX-License-Identifier: MIT */
/*
 * skeleton.c - the driver every algorithm runs on (see skeleton.h): per-node plans,
 * the group and round orders, block payloads, the checks on arrival and at the end.
 */
#include "skeleton.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "holdings.h"

/* A plan entry that the send only waits for (it does not carry it). */
#define KEY_WAIT (1ull << 63)

enum xfer_state { PLANNED, ISSUED, DONE };

/*
 * A send and, once made, its message (one each): how many receivers have its head,
 * whether it is delivered everywhere, and whether its words were found right: they are
 * the sender's words, the same for every receiver (the checker compares every flit
 * each receiver gets with them), so they are checked at the first receiver's tail, not
 * once per receiver.
 */
struct xfer {
	struct xfer_spec spec;
	uint32_t first, n;	/* its entries: keys[first .. first + n), carried and waited for */
	uint32_t carried;	/* how many of them it carries */
	uint32_t ready;		/* entries known to be held, from the first */
	enum xfer_state state;
	int heads;
	bool verified, delivered;
};

/*
 * A node's sends, from the first one not yet both done and delivered everywhere
 * (first_live): the ones before it are dropped (compact()), so that a plan made as
 * the run goes keeps only the sends in flight.  The send made as the node's k-th
 * (from 0) is x[k - base]; a message's tag is (node, k).
 */
struct node_plan {
	struct xfer *x;
	int n, cap;
	uint32_t base;
	int first_live;
	int first_open;		/* the first send not yet done */
	uint64_t *keys;		/* the sends' entries */
	uint32_t nkeys, capkeys;
	int head_msg;		/* cut-through: the message whose head arrived last, or -1 */
	uint64_t head_cycle;
};

/*
 * A node of a static schedule (algorithm.step), instead of its node_plan's sends and
 * keys: in an array of its own, 32 bytes a node, aligned, one cache line for two nodes
 * (in the node_plan, 104 bytes with the plans' fields first, they straddled two lines
 * more often than not, and the array was 104 KB on Q_10 against 32 KB).  The count of
 * sends made is apart (skeleton.made).
 */
struct step_node {
	uint64_t next_block, next_wait;	/* send `made`: its block, the block it waits for */
	/*
	 * Blocks received while they were not the awaited block of the node's next send,
	 * less those a wait_once send's lookup found since: while 0, a wait_once send's
	 * awaited block not its own is not held yet (no lookup), as no other send waited
	 * for it.  An overcount (a block no send awaits) costs lookups only.
	 */
	uint32_t stray;
	int next_dest;			/* send `made`'s destination */
	bool finished;			/* the schedule has no send `made` */
	/*
	 * Send `made`'s block and awaited block found held (held blocks stay held): each
	 * is looked up until it is, not again at every later test.
	 */
	bool block_ok, wait_ok;
	bool wait_by_receipt;	/* wait_ok is set by the awaited block's receipt (wait_once) */
	uint32_t unused;	/* (to 32 bytes) */
};

_Static_assert(sizeof(struct step_node) == 32, "a static schedule's node is 32 bytes");

/* A static send that waits for no block (next_wait). */
#define NO_WAIT UINT64_MAX

struct plan {
	struct skeleton *sk;
	int node;
};

struct skeleton {
	const struct algorithm *a;
	/* The transport skeleton_start() was given, for skeleton_sim_event(). */
	struct transport tx;
	struct sim_config cfg;
	struct algo_params p;
	int nodes, blocks, words;	/* words: per block; the longest one if split */
	/*
	 * Split (algorithm.packets): the root's message of `total` words, cut into `blocks`
	 * packets; packet j is its words block_offset(j) .. + block_len(j) - 1.
	 */
	bool split;
	int total;
	unsigned width;
	uint64_t mask;
	struct node_plan *node;
	/*
	 * A static schedule's SEND_DONEs, per node: counted by the simulation, which calls
	 * the narrow hook only where `call` asks (driver.send_done_gates), or by
	 * step_event().  A node's send is in flight while its count is below `made`.
	 */
	struct send_done_gate *gate;
	struct step_node *step;		/* a static schedule's nodes */
	/*
	 * Per node of a static schedule: sends 0 .. made - 1 made; send made - 1 has left
	 * the NI when the node's gate counts `made` SEND_DONEs.  Apart, 4 bytes a node: every
	 * receipt checks its message's tag against its source's count (sent_by_plan()), a
	 * node the receiver's work touches nowhere else (in the 32-byte records a read miss
	 * in most receipts on Q_10, by `perf annotate`).
	 */
	uint32_t *made;
	bool keep_words;	/* holdings keep words (partial sums); else messages are released */
	struct holdings held;
	int *round_pending;	/* messages of each round not yet delivered everywhere */
	int *heads_pending;	/* messages of each round whose head is not yet everywhere */
	int nrounds, open_round, open_head_round;
	/*
	 * Heads are counted (EV_HEAD_ARRIVED) only for a plan that has a send gated on
	 * heads, which must be planned at the start, or a cut-through algorithm: in any
	 * other run a head event is about a hundred instructions a message for nothing.
	 */
	bool count_heads;
	bool started;		/* skeleton_start() has made every node's first plan */
	/*
	 * held_key() of the last block a receipt held (HELD_EMPTY before any): the plan
	 * that receipt calls usually makes a send waiting for exactly that block (direx:
	 * every send), and its readiness test takes it from here instead of a holdings
	 * lookup.  Held blocks are never dropped, so the value never goes stale.
	 */
	uint64_t just_held;
	uint64_t *buf;
	size_t capbuf;
	struct plan pl;
	char error[320];
	bool no_memory;		/* error is an allocation failure */
};

struct payload_key block_payload(uint64_t key)
{
	return payload_key_of(block_seed(key));
}

uint64_t block_word(uint64_t key, int i, unsigned width)
{
	return payload_key_word(block_payload(key), i, width);
}

/* ---- block sizes and words ---- */

static int block_len(const struct skeleton *sk, uint64_t key)
{
	int k = sk->blocks;

	if (!sk->split)
		return sk->words;
	/* The longer packets last: a packet never catches up with a longer one before it. */
	return sk->total / k + (block_index(key) >= k - sk->total % k);
}

static int block_offset(const struct skeleton *sk, int index)
{
	int k = sk->blocks, q = sk->total / k, first_long = k - sk->total % k;

	return index * q + (index > first_long ? index - first_long : 0);
}

/*
 * The words of a block: a function of the block's identity, or, for a split message,
 * words block_offset .. of the root's message (the words block 0 of an unsplit run
 * has), so the packets must reassemble into that message.
 */
static struct payload_key words_of(const struct skeleton *sk, uint64_t key)
{
	struct payload_key k;

	if (!sk->split)
		return block_payload(key);
	k = block_payload(block_key(block_origin(key), BLOCK_ANY, 0));
	k.base += (uint64_t)block_offset(sk, block_index(key)) * k.step;
	return k;
}

/* Payload words of node v's send x: its blocks one after the other, or one block's worth of sums. */
static size_t xfer_words(const struct skeleton *sk, int v, const struct xfer *x)
{
	size_t total = 0;

	if (x->spec.sum)
		return (size_t)sk->words;
	if (!sk->split)
		return (size_t)x->carried * (size_t)sk->words;
	for (uint32_t j = 0; j < x->carried; j++)
		total += (size_t)block_len(sk, sk->node[v].keys[x->first + j]);
	return total;
}

static const char *block_text(uint64_t key, char *buf, size_t len)
{
	if (block_dest(key) == BLOCK_ANY)
		snprintf(buf, len, "(%d, *, %d)", block_origin(key), block_index(key));
	else
		snprintf(buf, len, "(%d, %d, %d)", block_origin(key), block_dest(key),
			 block_index(key));
	return buf;
}

static void fail(struct skeleton *sk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int out_of_memory(struct skeleton *sk, int node);
static void fail(struct skeleton *sk, const char *fmt, ...)
{
	va_list ap;

	if (sk->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(sk->error, sizeof(sk->error), fmt, ap);
	va_end(ap);
}

/*
 * An allocation failed: the run's result cannot be trusted, and the front end reports
 * it as running out of memory, not as wrong data (skeleton_no_memory()).
 */
static int out_of_memory(struct skeleton *sk, int node)
{
	if (!sk->error[0])
		sk->no_memory = true;
	fail(sk, "node %d: out of memory", node);
	return -1;
}

int plan_out_of_memory(struct plan *pl)
{
	return out_of_memory(pl->sk, pl->node);
}

bool skeleton_no_memory(const struct skeleton *sk)
{
	return sk->no_memory;
}

/* ---- ownership and holdings ---- */

/*
 * The blocks a node starts with, by the kind of collective.  Inlined: twice a message
 * of an exchange (the carried block's readiness, the received block's arrival), where
 * the call cost more than the test.
 */
static inline __attribute__((always_inline)) bool owns_at(const struct skeleton *sk, int v,
							   int o, int d, int ix)
{
	if (o != v || ix >= sk->blocks)
		return false;
	switch (sk->a->kind) {
	case COLL_ONE_TO_ALL:
		return v == sk->p.root && d == BLOCK_ANY;
	case COLL_AAS:
		return d != BLOCK_ANY && d != v && d < sk->nodes;
	case COLL_AAB:
		return d == BLOCK_ANY;
	case COLL_REDUCE:
		return d == sk->p.root;
	}
	return false;
}

/* owns() of a key: its fields decoded (d BLOCK_ANY for any destination). */
static inline __attribute__((always_inline)) bool owns(const struct skeleton *sk, int v,
							uint64_t key)
{
	return owns_at(sk, v, block_origin(key), block_dest(key), block_index(key));
}

static bool holds(struct skeleton *sk, int v, uint64_t key)
{
	uint64_t hk = held_key(v, key);

	if (hk == sk->just_held) {
#ifdef WORMCAST_DEBUG
		if (!owns(sk, v, key) && !holdings_has(&sk->held, hk))
			fail(sk, "node %d: the block a receipt held last is not in its holdings", v);
#endif
		return true;
	}
	return owns(sk, v, key) || holdings_has(&sk->held, hk);
}

/* ---- building plans ---- */

static struct xfer *last_xfer(struct plan *pl)
{
	struct node_plan *np = &pl->sk->node[pl->node];

	return np->n ? &np->x[np->n - 1] : NULL;
}

int plan_fail(struct plan *pl, const char *fmt, ...)
{
	struct skeleton *sk = pl->sk;
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fail(sk, "node %d: %s", pl->node, text);
	return -1;
}

int plan_blocks(const struct plan *pl)
{
	return pl->sk->blocks;
}

/*
 * The growth of a plan's arrays, out of line: a plan adds a send or an entry every few
 * hundred instructions (direx: one per message), and the path that grows nothing stays
 * short without the registers a realloc() needs.  0 or -1.
 */
static __attribute__((noinline)) int grow_xfers(struct node_plan *np)
{
	size_t cap = (size_t)np->cap;
	struct xfer *nx = grow_array(np->x, &cap, cap + 1, sizeof(*nx), 4, INT_MAX);

	if (!nx)
		return -1;
	np->x = nx;
	np->cap = (int)cap;
	return 0;
}

static __attribute__((noinline)) int grow_rounds(struct skeleton *sk, int round)
{
	int n = round + 1;
	int *rp = realloc(sk->round_pending, sizeof(int) * (size_t)n);

	if (!rp)
		return -1;
	sk->round_pending = rp;
	rp = realloc(sk->heads_pending, sizeof(int) * (size_t)n);
	if (!rp)
		return -1;
	sk->heads_pending = rp;
	memset(sk->round_pending + sk->nrounds, 0, sizeof(int) * (size_t)(n - sk->nrounds));
	memset(sk->heads_pending + sk->nrounds, 0, sizeof(int) * (size_t)(n - sk->nrounds));
	sk->nrounds = n;
	return 0;
}

static __attribute__((noinline)) int grow_keys(struct node_plan *np)
{
	size_t cap = np->capkeys;
	uint64_t *k = grow_array(np->keys, &cap, cap + 1, sizeof(*k), 8, UINT32_MAX);

	if (!k)
		return -1;
	np->keys = k;
	np->capkeys = (uint32_t)cap;
	return 0;
}

/* Is (origin, dest, index) a block of this run? */
static inline bool block_in_range(const struct skeleton *sk, int origin, int dest, int index)
{
	/* (Unsigned: a field below its range wraps above it; BLOCK_ANY is -1.) */
	return (unsigned)origin < (unsigned)sk->nodes && (unsigned)dest + 1u <= (unsigned)sk->nodes &&
	       (unsigned)index < (unsigned)sk->blocks;
}

/* Inlined into plan_xfer() and plan_xfer_block(). */
static inline __attribute__((always_inline)) int add_xfer(struct plan *pl,
							  const struct xfer_spec *x)
{
	struct skeleton *sk = pl->sk;
	struct node_plan *np = &sk->node[pl->node];
	const struct xfer *prev = last_xfer(pl);

	if (!x->bcast && (x->dest < 0 || x->dest >= sk->nodes || x->dest == pl->node))
		return plan_fail(pl, "a send to node %d", x->dest);
	if (x->sum && !sk->keep_words)
		return plan_fail(pl, "a sum outside a reduction");
	if (prev && x->group < prev->spec.group)
		return plan_fail(pl, "group %d planned after group %d", x->group, prev->spec.group);
	if (x->round < sk->open_round || x->round < 0)
		return plan_fail(pl, "a send planned into round %d, which is closed", x->round);
	if (x->round_heads && !sk->count_heads) {
		/* The earlier rounds' heads would not have been counted. */
		if (sk->started)
			return plan_fail(pl, "a send gated on heads (round_heads) planned after "
					 "the start");
		sk->count_heads = true;
	}
	if ((np->n == np->cap && grow_xfers(np)) ||
	    (x->round >= sk->nrounds && grow_rounds(sk, x->round)))
		return plan_out_of_memory(pl);
	sk->round_pending[x->round]++;
	sk->heads_pending[x->round]++;
	np->x[np->n++] = (struct xfer){ .spec = *x, .first = np->nkeys };
	return 0;
}

int plan_xfer(struct plan *pl, const struct xfer_spec *x)
{
	return add_xfer(pl, x);
}

/* Inlined into plan_block() and plan_wait(): a plan adds one or two entries a send. */
static inline __attribute__((always_inline)) int
plan_entry(struct plan *pl, int origin, int dest, int index, uint64_t flag)
{
	struct skeleton *sk = pl->sk;
	struct node_plan *np = &sk->node[pl->node];
	struct xfer *x = last_xfer(pl);

	if (!x || x->state != PLANNED || x->first + x->n != np->nkeys)
		return plan_fail(pl, "a block outside a send");
	if (!block_in_range(sk, origin, dest, index))
		return plan_fail(pl, "no block (%d, %d, %d)", origin, dest, index);
	if (np->nkeys == np->capkeys && grow_keys(np))
		return plan_out_of_memory(pl);
	np->keys[np->nkeys++] = block_key(origin, dest, index) | flag;
	x->n++;
	if (!flag) {
		if (x->carried != x->n - 1)
			return plan_fail(pl, "carried blocks after a waited-for block");
		x->carried++;
	}
	return 0;
}

int plan_block(struct plan *pl, int origin, int dest, int index)
{
	return plan_entry(pl, origin, dest, index, 0);
}

int plan_wait(struct plan *pl, int origin, int dest, int index)
{
	return plan_entry(pl, origin, dest, index, KEY_WAIT);
}

int plan_xfer_block(struct plan *pl, const struct xfer_spec *x, int b_origin, int b_dest,
		    int b_index, int w_origin, int w_dest, int w_index)
{
	struct skeleton *sk = pl->sk;
	struct node_plan *np = &sk->node[pl->node];
	struct xfer *nx;
	int need = w_origin >= 0 ? 2 : 1;

	if (add_xfer(pl, x))
		return -1;
	/* The send just made is PLANNED with no entry: plan_entry()'s first and last test hold. */
	if (!block_in_range(sk, b_origin, b_dest, b_index))
		return plan_fail(pl, "no block (%d, %d, %d)", b_origin, b_dest, b_index);
	if (need == 2 && !block_in_range(sk, w_origin, w_dest, w_index))
		return plan_fail(pl, "no block (%d, %d, %d)", w_origin, w_dest, w_index);
	while (np->nkeys + (uint32_t)need > np->capkeys)
		if (grow_keys(np))
			return plan_out_of_memory(pl);
	nx = &np->x[np->n - 1];
	np->keys[np->nkeys++] = block_key(b_origin, b_dest, b_index);
	if (need == 2)
		np->keys[np->nkeys++] = block_key(w_origin, w_dest, w_index) | KEY_WAIT;
	nx->n = (uint32_t)need;
	nx->carried = 1;
	return 0;
}

int plan_forward(struct plan *pl, int dest, int group, bool ir, uint64_t tag)
{
	struct xfer_spec x = { .dest = dest, .ir = ir, .group = group, .tag = tag };

	if (plan_xfer(pl, &x))
		return -1;
	for (int i = 0; i < pl->sk->blocks; i++)
		if (plan_block(pl, pl->sk->p.root, BLOCK_ANY, i))
			return -1;
	return 0;
}

/* ---- creating ---- */

/*
 * The blocks the kind makes nodes end up with, held in direct rows (holdings.h): the
 * root's at every node of a broadcast, every origin's (ANY or for the node itself) in
 * an all-to-all, every contribution at the root of a reduction.
 */
static int row_node(const struct skeleton *sk)
{
	return sk->a->kind == COLL_REDUCE ? sk->p.root : -1;
}

static int row_dest(const struct skeleton *sk)
{
	switch (sk->a->kind) {
	case COLL_AAS:
		return HOLD_DEST_SELF;
	case COLL_REDUCE:
		return sk->p.root;
	default:
		return BLOCK_ANY;
	}
}

static int origins_lo(const struct skeleton *sk)
{
	return sk->a->kind == COLL_ONE_TO_ALL ? sk->p.root : 0;
}

static int origins_n(const struct skeleton *sk)
{
	return sk->a->kind == COLL_ONE_TO_ALL ? 1 : sk->nodes;
}

struct skeleton *skeleton_create(const struct algorithm *a, const struct algo_params *p)
{
	struct skeleton *sk = calloc(1, sizeof(*sk));

	if (!sk)
		return NULL;
	sk->a = a;
	sk->cfg = *p->cfg;
	sk->p = *p;
	sk->p.cfg = &sk->cfg;
	sk->p.variant = a->variant;
	sk->nodes = p->cfg->topo.nodes;
	sk->width = (unsigned)p->cfg->payload_width;
	sk->mask = payload_mask(sk->width);
	sk->blocks = 1;
	sk->words = p->flits - 1;
	if (a->packets) {
		sk->split = true;
		sk->total = sk->words;
		sk->blocks = a->packets(&sk->p);
		if (sk->blocks < 1) {
			skeleton_destroy(sk);
			return NULL;
		}
		sk->words = (sk->total + sk->blocks - 1) / sk->blocks;
	} else if (a->shape) {
		a->shape(&sk->p, &sk->blocks, &sk->words);
	}
	/*
	 * Only a reduction's partial sums are words a node could not compute from the
	 * blocks it holds; every other held block is a bit, and its words, checked on
	 * arrival, are generated again to forward it.
	 */
	sk->keep_words = a->kind == COLL_REDUCE;
	sk->count_heads = a->cut_through;
	sk->just_held = HELD_EMPTY;
	holdings_init(&sk->held);
	sk->node = calloc((size_t)sk->nodes, sizeof(*sk->node));
	if (a->step) {
		size_t size = sizeof(*sk->step) * (size_t)sk->nodes;

		sk->gate = calloc((size_t)sk->nodes, sizeof(*sk->gate));
		sk->made = calloc((size_t)sk->nodes, sizeof(*sk->made));
		/* (Aligned: a record never straddles two cache lines.) */
		sk->step = aligned_alloc(64, (size + 63) & ~(size_t)63);
		if (sk->step)
			memset(sk->step, 0, size);
	}
	if (!sk->node || (a->step && (!sk->gate || !sk->step || !sk->made)) ||
	    holdings_rows(&sk->held, &(struct holdings_rows){
			.nodes = sk->nodes, .only_node = row_node(sk), .dest = row_dest(sk),
			.o_lo = origins_lo(sk), .o_hi = origins_lo(sk) + origins_n(sk),
			.blocks = sk->blocks, .words = sk->keep_words })) {
		skeleton_destroy(sk);
		return NULL;
	}
	for (int v = 0; v < sk->nodes; v++)
		sk->node[v].head_msg = -1;
	sk->pl.sk = sk;
	return sk;
}

void skeleton_destroy(struct skeleton *sk)
{
	if (!sk)
		return;
	if (sk->node)
		for (int v = 0; v < sk->nodes; v++) {
			free(sk->node[v].x);
			free(sk->node[v].keys);
		}
	free(sk->node);
	free(sk->gate);
	free(sk->step);
	free(sk->made);
	free(sk->round_pending);
	free(sk->heads_pending);
	free(sk->buf);
	holdings_free(&sk->held);
	free(sk);
}

int skeleton_words(const struct skeleton *sk)
{
	return sk->words;
}

int skeleton_blocks(const struct skeleton *sk)
{
	return sk->blocks;
}

bool skeleton_counts_heads(const struct skeleton *sk)
{
	return sk->count_heads;
}

bool skeleton_releases_messages(const struct skeleton *sk)
{
	return !sk->keep_words;
}

/* ---- sending ---- */

static bool ready(struct skeleton *sk, int v, struct xfer *x)
{
	for (; x->ready < x->n; x->ready++)
		if (!holds(sk, v, sk->node[v].keys[x->first + x->ready] & ~KEY_WAIT))
			return false;
	return true;
}

/* The words of a held block: into out (copied, or added for a sum). */
static int gather(struct skeleton *sk, int v, uint64_t key, uint64_t *out, bool sum)
{
	const struct held *h = !sk->keep_words || owns(sk, v, key) ? NULL :
			       holdings_find(&sk->held, held_key(v, key));
	int w = block_len(sk, key);

	if (!h) {
		struct payload_key k = words_of(sk, key);

		for (int i = 0; i < w; i++) {
			uint64_t word = payload_key_word(k, i, sk->width);

			out[i] = sum ? (out[i] + word) & sk->mask : word;
		}
		return 0;
	}
	if (!h->words) {
		/* Inside a partial sum held under another block: already added. */
		return sum || w == 0 ? 0 : -1;
	}
	for (int i = 0; i < w; i++)
		out[i] = sum ? (out[i] + h->words[i]) & sk->mask : h->words[i];
	return 0;
}

/* Room for `total` words (and one more) in sk->buf; 0, or -1 with the run's error set. */
static int reserve_buf(struct skeleton *sk, int v, size_t total)
{
	if (total + 1 > sk->capbuf) {
		uint64_t *nb = realloc(sk->buf, sizeof(uint64_t) * (total + 1));

		if (!nb)
			return out_of_memory(sk, v);
		sk->buf = nb;
		sk->capbuf = total + 1;
	}
	return 0;
}

/* The payload of node v's send x, into sk->buf; 0, or -1 with the run's error set. */
static int fill_words(struct skeleton *sk, int v, const struct xfer *x, size_t total)
{
	const uint64_t *keys = sk->node[v].keys;
	size_t off = 0;
	char b[48];

	if (reserve_buf(sk, v, total))
		return -1;
	if (x->spec.sum)
		memset(sk->buf, 0, sizeof(uint64_t) * (total + 1));
	for (uint32_t j = 0; j < x->carried; j++) {
		uint64_t key = keys[x->first + j];
		uint64_t *out = sk->buf + off;

		if (!x->spec.sum)
			off += (size_t)block_len(sk, key);
		if (gather(sk, v, key, out, x->spec.sum)) {
			fail(sk, "node %d: cannot send block %s on its own: it is held inside a "
			     "partial sum", v, block_text(key, b, sizeof(b)));
			return -1;
		}
	}
	return 0;
}

static void issue(struct skeleton *sk, const struct transport *t, int v, int xi)
{
	struct node_plan *np = &sk->node[v];
	struct xfer *x = &np->x[xi];
	size_t total = xfer_words(sk, v, x);
	struct send_req r = {
		.dest = x->spec.dest, .type = x->spec.bcast ? HDR_B : HDR_R, .ir = x->spec.ir,
		.len = 1 + (int)total, .channel = -1,
		.tag = (uint64_t)v << 32 | (np->base + (uint32_t)xi),
	};
	struct payload_key key;

	x->state = ISSUED;
	if (!t->no_words && !t->stored_words && !sk->keep_words && x->carried == 1) {
		/* One block: its key, not its words (generated by the NI and the checker). */
		key = words_of(sk, np->keys[x->first]);
		r.key = &key;
	} else if (!t->no_words || sk->keep_words) {
		if (fill_words(sk, v, x, total))
			return;
		r.data = sk->buf;
	}
	if (t->send(t->impl, v, &r) < 0)
		fail(sk, "node %d: send to %d refused: %s", v, x->spec.dest, t->error(t->impl));
}

/* scan()'s work, when node v has a send not yet done. */
static __attribute__((noinline)) void scan_open(struct skeleton *sk, const struct transport *t,
						int v)
{
	struct node_plan *np = &sk->node[v];
	int g = np->x[np->first_open].spec.group;

	for (int i = np->first_open; i < np->n && np->x[i].spec.group == g; i++) {
		struct xfer *x = &np->x[i];

		int open = x->spec.round_heads ? sk->open_head_round : sk->open_round;

		if (x->state == PLANNED && x->spec.round <= open && ready(sk, v, x))
			issue(sk, t, v, i);
	}
}

/*
 * Make every send of node v that may go now.  The test inlined: at a SEND_DONE of a
 * plan made as the run goes the node usually has nothing planned past it, and the
 * call's frame cost more than the test.
 */
static inline __attribute__((always_inline)) void scan(struct skeleton *sk,
							const struct transport *t, int v)
{
	const struct node_plan *np = &sk->node[v];

	if (np->first_open < np->n)
		scan_open(sk, t, v);
}

/* Skip rounds with nothing outstanding; true if an open round moved. */
static bool advance_rounds(struct skeleton *sk)
{
	int before = sk->open_round, before_heads = sk->open_head_round;

	while (sk->open_round < sk->nrounds && sk->round_pending[sk->open_round] == 0)
		sk->open_round++;
	while (sk->open_head_round < sk->nrounds && sk->heads_pending[sk->open_head_round] == 0)
		sk->open_head_round++;
	return sk->open_round != before || sk->open_head_round != before_heads;
}

/* A round closed: every node may have sends that can go now. */
static void rounds_moved(struct skeleton *sk, const struct transport *t)
{
	if (advance_rounds(sk))
		for (int u = 0; u < sk->nodes; u++)
			scan(sk, t, u);
}

static void call_plan(struct skeleton *sk, int v, const struct receipt *r)
{
	sk->pl.node = v;
	if (sk->a->plan(&sk->p, v, r, &sk->pl))
		fail(sk, "node %d: the plan could not be made", v);
}

/* A static schedule's driver (algorithm.step), below with the events. */
static void step_start(struct skeleton *sk, const struct transport *t);
static void step_event(struct skeleton *sk, const struct transport *t, const struct sim_event *ev);

void skeleton_start(struct skeleton *sk, const struct transport *t)
{
	sk->tx = *t;
	if (sk->a->step) {
		step_start(sk, t);
		return;
	}
	/* Every plan first: a round is open only when no node has anything in an earlier one. */
	for (int v = 0; v < sk->nodes; v++)
		call_plan(sk, v, NULL);
	sk->started = true;
	advance_rounds(sk);
	for (int v = 0; v < sk->nodes; v++)
		scan(sk, t, v);
}

/* ---- receiving ---- */

/* The send that made the message of an event (its tag), or NULL. */
static struct xfer *xfer_of(const struct skeleton *sk, const struct sim_event *ev)
{
	uint64_t node = ev->tag >> 32;
	uint32_t k = (uint32_t)ev->tag;
	const struct node_plan *np;

	if (node >= (uint64_t)sk->nodes || (int)node != ev->msg->source)
		return NULL;
	np = &sk->node[node];
	if (k < np->base || k - np->base >= (uint32_t)np->n || np->x[k - np->base].state == PLANNED)
		return NULL;
	return &np->x[k - np->base];
}

/* Drop node v's first `first_live` sends (done and delivered everywhere). */
static __attribute__((noinline)) void drop_sends(struct node_plan *np)
{
	uint32_t k0 = np->first_live < np->n ? np->x[np->first_live].first : np->nkeys;

	memmove(np->keys, np->keys + k0, sizeof(*np->keys) * (np->nkeys - k0));
	np->nkeys -= k0;
	memmove(np->x, np->x + np->first_live, sizeof(*np->x) * (size_t)(np->n - np->first_live));
	np->n -= np->first_live;
	for (int i = 0; i < np->n; i++)
		np->x[i].first -= k0;
	np->first_open -= np->first_live;
	np->base += (uint32_t)np->first_live;
	np->first_live = 0;
}

/*
 * Drop node v's sends that are done and delivered everywhere, once they are half its
 * plan.  Once a message, at its delivery: the test inlined, the move (once in 32 sends
 * or more) not.
 */
static inline __attribute__((always_inline)) void compact(struct skeleton *sk, int v)
{
	struct node_plan *np = &sk->node[v];

	while (np->first_live < np->n && np->x[np->first_live].state == DONE &&
	       np->x[np->first_live].delivered)
		np->first_live++;
	if (np->first_live >= 32 && 2 * np->first_live >= np->n)
		drop_sends(np);
}

/* Word i of a block (the sum's loop: one word of many blocks). */
static uint64_t block_word_at(const struct skeleton *sk, uint64_t key, int i)
{
	return payload_key_word(words_of(sk, key), i, sk->width);
}

/* Are the message's words from `off` on block key's, word for word?  Fails the run if not. */
static bool block_words_ok(struct skeleton *sk, int v, const struct message *m, uint64_t key,
			   size_t off)
{
	struct payload_key k = words_of(sk, key);
	int len = block_len(sk, key);
	char b[48];

	for (int i = 0; i < len; i++) {
		uint64_t want = payload_key_word(k, i, sk->width);
		uint64_t got = message_word(m, (int)off + i, sk->width);

		if (got != want) {
			fail(sk, "node %d: block %s from node %d has word %d = 0x%llx, not 0x%llx",
			     v, block_text(key, b, sizeof(b)), m->source, i,
			     (unsigned long long)got, (unsigned long long)want);
			return false;
		}
	}
	return true;
}

/*
 * Does every word of the message match the blocks it must carry?  (Stored or generated
 * from a key: a message sent with another block's key is caught here, the checker
 * having compared every flit with the message's own words.)
 */
static void verify(struct skeleton *sk, int v, const struct message *m, const struct xfer *x)
{
	const uint64_t *keys = sk->node[m->source].keys;
	size_t off = 0;

	if (!m->stored && !x->spec.sum && x->carried == 1) {
		/* Sent with a key: the block's own key gives the same words, word for word. */
		struct payload_key k = words_of(sk, keys[x->first]);

		if (k.base == m->key.base && k.step == m->key.step)
			return;
	}
	for (int i = 0; x->spec.sum && i < sk->words; i++) {
		uint64_t sum = 0, got = message_word(m, i, sk->width);

		for (uint32_t j = 0; j < x->carried; j++)
			sum = (sum + block_word_at(sk, keys[x->first + j], i)) & sk->mask;
		if (got != sum) {
			fail(sk, "node %d: the partial sum from node %d has word %d = 0x%llx, not 0x%llx",
			     v, m->source, i, (unsigned long long)got, (unsigned long long)sum);
			return;
		}
	}
	for (uint32_t j = 0; !x->spec.sum && j < x->carried; j++) {
		uint64_t key = keys[x->first + j];

		if (!block_words_ok(sk, v, m, key, off))
			return;
		off += (size_t)block_len(sk, key);
	}
}

/*
 * Node v holds a block it received (with its words, if the holdings keep them); false
 * if memory ran out.  A block held already is a copy the source's schedule resends (its
 * words were checked), or an error.
 */
static inline __attribute__((always_inline)) bool
hold_received_at(struct skeleton *sk, int v, const struct message *m, uint64_t key, int o, int d,
		 int ix, const uint64_t *words)
{
	int rc = owns_at(sk, v, o, d, ix) ? 1 :
		 holdings_hold_at(&sk->held, (unsigned)v, (unsigned)o, (unsigned)d & 0x1fff,
				  (unsigned)ix, held_key(v, key), words);
	char b[48];

	if (rc < 0) {
		out_of_memory(sk, v);
		return false;
	}
	sk->just_held = held_key(v, key);
	if (rc > 0 && !sk->a->redundant)
		fail(sk, "node %d received block %s a second time (from node %d)", v,
		     block_text(key, b, sizeof(b)), m->source);
	return true;
}

/* hold_received_at() of a key: its fields decoded. */
static inline __attribute__((always_inline)) bool
hold_received(struct skeleton *sk, int v, const struct message *m, uint64_t key,
	      const uint64_t *words)
{
	return hold_received_at(sk, v, m, key, block_origin(key), block_dest(key),
				block_index(key), words);
}

static void receive(struct skeleton *sk, const struct transport *t, int v,
		    const struct message *m, const struct xfer *x)
{
	struct receipt r = {
		.source = m->source, .tag = x->spec.tag,
		.addressed = m->type == HDR_B || m->address == v,
	};
	const uint64_t *keys = sk->node[m->source].keys;
	size_t off = 0;

	for (uint32_t j = 0; j < x->carried; j++) {
		uint64_t key = keys[x->first + j];
		int len = x->spec.sum ? 0 : block_len(sk, key);
		const uint64_t *words = NULL;

		off += (size_t)len;
		if (!sk->keep_words)
			words = NULL;
		else if (x->spec.sum)
			words = j == 0 && sk->words > 0 ? m->data : NULL;
		else if (len > 0)
			words = m->data + off - (size_t)len;
		if (!hold_received(sk, v, m, key, words))
			return;
	}
	call_plan(sk, v, &r);
	scan(sk, t, v);
}

/* ---- a static schedule (algorithm.step) ---- */

/*
 * Node v's send `made` from the schedule, checked as a plan's send is (the destination,
 * the blocks' ranges); none if the schedule has no more, or if it is broken (the run's
 * error then says why).  Inlined into step_issue(), once a send: the call's frame cost
 * about 18 instructions a message of the exchange.
 */
static inline __attribute__((always_inline)) void step_next(struct skeleton *sk, int v)
{
	struct step_node *np = &sk->step[v];
	struct step st;

	np->finished = !sk->a->step(&sk->p, v, (int)sk->made[v], &st);
	if (np->finished)
		return;
	np->finished = true;
	if ((unsigned)st.dest >= (unsigned)sk->nodes || st.dest == v)
		fail(sk, "node %d: a send to node %d", v, st.dest);
	else if (!block_in_range(sk, st.b_origin, st.b_dest, st.b_index))
		fail(sk, "node %d: no block (%d, %d, %d)", v, st.b_origin, st.b_dest, st.b_index);
	else if (st.w_origin >= 0 && !block_in_range(sk, st.w_origin, st.w_dest, st.w_index))
		fail(sk, "node %d: no block (%d, %d, %d)", v, st.w_origin, st.w_dest, st.w_index);
	else
		np->finished = false;
	np->next_dest = st.dest;
	np->next_block = block_key(st.b_origin, st.b_dest, st.b_index);
	np->next_wait = st.w_origin >= 0 ? block_key(st.w_origin, st.w_dest, st.w_index) : NO_WAIT;
	/* A node's own block (every exchange send) is held from the start: no lookup. */
	np->block_ok = owns_at(sk, v, st.b_origin, st.b_dest, st.b_index);
	np->wait_ok = st.w_origin < 0;
	np->wait_by_receipt = false;
	if (np->wait_ok || !st.wait_once || np->finished)
		return;
	if (owns_at(sk, v, st.w_origin, st.w_dest, st.w_index)) {
		np->wait_ok = true;
	} else if (np->stray && holdings_has(&sk->held, held_key(v, np->next_wait))) {
		np->wait_ok = true;
		np->stray--;
	} else {
		np->wait_by_receipt = true;
	}
#ifdef WORMCAST_DEBUG
	if (np->wait_ok != holds(sk, v, np->next_wait))
		fail(sk, "node %d: its send %u's awaited block is %sheld, its receipts say "
		     "otherwise (wait_once)", v, sk->made[v], np->wait_ok ? "not " : "");
#endif
}

/* Make node v's send `made`, then take its next one from the schedule. */
static __attribute__((noinline)) void step_issue(struct skeleton *sk, const struct transport *t,
						 int v)
{
	struct step_node *np = &sk->step[v];
	uint64_t tag = (uint64_t)v << 32 | sk->made[v];
	struct payload_key key;
	int rc;

#ifdef WORMCAST_DEBUG
	{
		/* The send kept since the last one was made is still the schedule's. */
		struct step st;

		if (!sk->a->step(&sk->p, v, (int)sk->made[v], &st) || st.dest != np->next_dest ||
		    block_key(st.b_origin, st.b_dest, st.b_index) != np->next_block)
			fail(sk, "node %d: its kept send %u is not the schedule's", v, sk->made[v]);
	}
#endif
	/*
	 * One block: its key, not its words (generated by the NI and the checker).  A static
	 * schedule's block is never split (step_start()): its own key, inline, where
	 * words_of()'s call was about 10 instructions a message more (direx).
	 */
	if (!t->no_words && !t->stored_words && t->send_seeded) {
		/*
		 * (No request made: the unicast's fields go as arguments, where the request's
		 * record on the stack was about 10 instructions a message.)  The block's seed,
		 * whose key the simulation makes: the message keeps the seed, which the
		 * receipt compares (step_receive()).
		 */
		sk->made[v]++;
		rc = t->send_seeded(t->impl, v, np->next_dest, 1 + sk->words,
				    block_seed(np->next_block), tag);
	} else {
		struct send_req r = {
			.dest = np->next_dest, .type = HDR_R, .len = 1 + sk->words, .channel = -1,
			.tag = tag,
		};

		if (!t->no_words && !t->stored_words) {
			key = block_payload(np->next_block);
			r.key = &key;
		} else if (!t->no_words) {
			if (reserve_buf(sk, v, (size_t)sk->words) ||
			    gather(sk, v, np->next_block, sk->buf, false))
				return;
			r.data = sk->buf;
		}
		sk->made[v]++;
		rc = t->send(t->impl, v, &r);
	}
	if (rc < 0)
		fail(sk, "node %d: send to %d refused: %s", v, np->next_dest, t->error(t->impl));
	step_next(sk, v);
	/*
	 * The hook at this send's SEND_DONE only if the next one may go then: not while it
	 * waits for a block that only a receipt can bring (step_receive() asks for the hook
	 * when that block comes before the SEND_DONE).
	 */
	sk->gate[v].call = !np->finished && (np->wait_ok || !np->wait_by_receipt);
}

/* Node v's next send, if its previous one has left the NI and it holds its blocks. */
static inline __attribute__((always_inline)) void step_try(struct skeleton *sk,
							    const struct transport *t, int v)
{
	struct step_node *np = &sk->step[v];

	if (sk->gate[v].done != sk->made[v] || np->finished ||
	    (!np->block_ok && !(np->block_ok = holds(sk, v, np->next_block))) ||
	    (!np->wait_ok &&
	     (np->wait_by_receipt || !(np->wait_ok = holds(sk, v, np->next_wait)))))
		return;
	step_issue(sk, t, v);
}

static void step_start(struct skeleton *sk, const struct transport *t)
{
	if (sk->split || sk->keep_words || sk->a->cut_through) {
		fail(sk, "%s: a static schedule (step) cannot cut its message, add sums or receive "
		     "cut-through", sk->a->name);
		return;
	}
	for (int v = 0; v < sk->nodes; v++)
		step_next(sk, v);
	sk->started = true;
	/* In node order, as the plans' first sends go. */
	for (int v = 0; v < sk->nodes; v++)
		step_try(sk, t, v);
}

/*
 * Node v received source m->source's send k: its block is recomputed from the schedule
 * (not taken from the send), its words checked against the message's, and held.
 */
static __attribute__((noinline)) void step_receive(struct skeleton *sk, const struct transport *t,
						   int v, const struct message *m, uint32_t k)
{
	struct step_node *np;
	struct step st;
	uint64_t block;

	if (m->len != 1 + sk->words) {
		fail(sk, "node %d: message from %d has %d flits, its send planned 1 block", v,
		     m->source, m->len);
		return;
	}
	if (!sk->a->step(&sk->p, m->source, (int)k, &st)) {
		fail(sk, "node %d: event for message %d, which no plan sent", v, m->id);
		return;
	}
	block = block_key(st.b_origin, st.b_dest, st.b_index);
	/*
	 * Sent with the block's seed (step_issue()): the key the simulation made of it is
	 * the block's own key (message.seeded), whose words are the block's, word for word,
	 * without that key made again here (two hashes: -30 instructions a message of the
	 * exchange).  Else sent with a key (another transport): the block's own key gives
	 * the same words (a static schedule's block is whole: its key), or they are
	 * compared one by one.
	 */
	if (!t->no_words && !(m->seeded && m->seed == block_seed(block))) {
		struct payload_key key = block_payload(block);

		if ((m->stored || key.base != m->key.base || key.step != m->key.step) &&
		    !block_words_ok(sk, v, m, block, 0))
			return;
	}
#ifdef WORMCAST_DEBUG
	if (m->seeded && (m->key.base != payload_key_of(m->seed).base ||
			  m->key.step != payload_key_of(m->seed).step)) {
		fail(sk, "node %d: message %d's key is not its seed's", v, m->id);
		return;
	}
#endif
	/*
	 * Held by the fields the schedule gave, not by decoding the key again: the same
	 * send's fields were range checked when its source took it from the schedule
	 * (step_next()), so they are the key's own (debug builds compare them).
	 */
#ifdef WORMCAST_DEBUG
	if (block_origin(block) != st.b_origin || block_dest(block) != st.b_dest ||
	    block_index(block) != st.b_index) {
		fail(sk, "node %d: the block of message %d does not fit a key", v, m->id);
		return;
	}
#endif
	if (!hold_received_at(sk, v, m, block, st.b_origin, st.b_dest, st.b_index, NULL))
		return;
	/* The awaited block of the node's next send is held now; any other is a stray. */
	np = &sk->step[v];
	if (block == np->next_wait) {
		np->wait_ok = true;
		sk->gate[v].call = true;	/* if its send is still in flight */
	} else
		np->stray++;
	step_try(sk, t, v);
}

/*
 * Message m was made by its source's plan: its tag is (source, k) with k a send the
 * plan has made (step_issue()).  Checked before an event of a static schedule is
 * acted on, by step_event() and by the simulation's narrow hooks; node names the
 * event in the error.
 */
static inline bool sent_by_plan(struct skeleton *sk, int node, const struct message *m)
{
	/* (u == source also bounds u: a source is a node.) */
	if ((int64_t)(m->tag >> 32) != m->source ||
	    (uint32_t)m->tag >= sk->made[m->source]) {
		fail(sk, "node %d: event for message %d, which no plan sent", node, m->id);
		return false;
	}
	return true;
}

/*
 * SEND_DONE of message m, send k of its source, counted (by the simulation or by
 * step_event()): of the one send in flight, the node's last; the node may make its
 * next.  Reached through step_event() and through the simulation's narrow hook
 * (step_sim_send_done(), called only where the node's gate asks); node names the event
 * in the error.  The SEND_DONEs without a call are checked by their count: a node
 * tries its next send only at `made` of them, and step_check_sends() finds any other
 * count at the end; each message's tag is checked at its tail (step_sim_delivered()).
 */
static inline void step_send_done(struct skeleton *sk, const struct transport *t, int node,
				  const struct message *m, uint32_t k)
{
	uint32_t made = sk->made[m->source];

	if (sk->gate[m->source].done != made || k + 1 != made) {
		fail(sk, "node %d: event for message %d, which no plan sent", node, m->id);
		return;
	}
	step_try(sk, t, m->source);
}

static void step_event(struct skeleton *sk, const struct transport *t, const struct sim_event *ev)
{
	const struct message *m = ev->msg;
	uint32_t k = (uint32_t)m->tag;

	if (ev->kind == EV_HEAD_ARRIVED)
		return;		/* (no head barriers, no cut-through) */
	if (!sent_by_plan(sk, ev->node, m))
		return;
	if (ev->kind == EV_TAIL_ARRIVED) {
		step_receive(sk, t, ev->node, m, k);
		return;
	}
	sk->gate[m->source].done++;	/* (counted here: no gates without the narrow hook) */
	step_send_done(sk, t, ev->node, m, k);
}

/* Every static send made and left the NI; 0, or -1 with the first one that was not. */
static int step_check_sends(const struct skeleton *sk, char *err, size_t len)
{
	char b[48];

	for (int v = 0; v < sk->nodes; v++) {
		const struct step_node *np = &sk->step[v];
		struct step st;

		if (sk->gate[v].done > sk->made[v]) {
			snprintf(err, len, "node %d: %u SEND_DONE events for its %u sends", v,
				 sk->gate[v].done, sk->made[v]);
			return -1;
		}
		if (sk->gate[v].done < sk->made[v] &&
		    sk->a->step(&sk->p, v, (int)sk->made[v] - 1, &st)) {
			snprintf(err, len, "node %d: its send to %d never left the NI", v, st.dest);
			return -1;
		}
		if (!np->finished) {
			uint64_t key = owns(sk, v, np->next_block) ||
				       holdings_has(&sk->held, held_key(v, np->next_block)) ?
				       np->next_wait : np->next_block;

			snprintf(err, len, "node %d: its send to %d (group %u) was never made: it "
				 "waits for block %s", v, np->next_dest, sk->made[v],
				 block_text(key, b, sizeof(b)));
			return -1;
		}
	}
	return 0;
}

/* A head arrived (counted heads only). */
static __attribute__((noinline)) void head_arrived(struct skeleton *sk, const struct transport *t,
						   const struct sim_event *ev, struct xfer *x)
{
	const struct message *m = ev->msg;
	struct node_plan *np = &sk->node[ev->node];
	int v = ev->node;

	/* The head is everywhere: its round's head barrier may close. */
	if (++x->heads == m->receivers &&
	    --sk->heads_pending[x->spec.round] == 0)
		rounds_moved(sk, t);
	if (!sk->a->cut_through)
		return;
	if (np->head_msg >= 0) {
		fail(sk, "node %d: a second message arrives cut-through before the first ended", v);
		return;
	}
	np->head_msg = m->id;
	np->head_cycle = ev->cycle;
	receive(sk, t, v, m, x);
}

/* A tail arrived: the data check, the receipt, the delivery. */
static __attribute__((noinline)) void tail_arrived(struct skeleton *sk, const struct transport *t,
						   const struct sim_event *ev, struct xfer *x)
{
	const struct message *m = ev->msg;
	struct node_plan *np = &sk->node[ev->node];
	int v = ev->node;

	if ((size_t)m->len != 1 + xfer_words(sk, m->source, x)) {
		fail(sk, "node %d: message from %d has %d flits, its send planned %d blocks", v,
		     m->source, m->len, (int)x->carried);
		return;
	}
	if (!x->verified && (!t->no_words || sk->keep_words)) {
		verify(sk, v, m, x);
		x->verified = !sk->error[0];
	}
	if (sk->a->cut_through) {
		/* Flits back to back: forwarded flit i left no earlier than it arrived. */
		if (np->head_msg != m->id || ev->cycle != np->head_cycle + (uint64_t)(m->len - 1))
			fail(sk, "node %d forwarded cut-through but the flits from %d did not "
			     "arrive back to back", v, m->source);
		np->head_msg = -1;
	} else {
		receive(sk, t, v, m, x);
	}
	/* The message is delivered everywhere: its round may close. */
	if (m->delivered == m->receivers) {
		int round = x->spec.round;

		x->delivered = true;
		if (--sk->round_pending[round] == 0)
			rounds_moved(sk, t);
		compact(sk, m->source);
	}
}

/*
 * The head and tail handlers are out of line: SEND_DONE, half the events of a message,
 * then runs in a small frame instead of saving the registers the receipt needs.
 */
void skeleton_event(struct skeleton *sk, const struct transport *t, const struct sim_event *ev)
{
	struct xfer *x;
	struct node_plan *np;

	if (sk->a->step) {
		step_event(sk, t, ev);
		return;
	}
	/* (A message no plan sent is caught at its SEND_DONE and its tail.) */
	if (ev->kind == EV_HEAD_ARRIVED && !sk->count_heads)
		return;
	x = xfer_of(sk, ev);
	if (!x) {
		fail(sk, "node %d: event for message %d, which no plan sent", ev->node, ev->msg->id);
		return;
	}
	switch (ev->kind) {
	case EV_SEND_DONE:
		np = &sk->node[ev->node];
		x->state = DONE;
		while (np->first_open < np->n && np->x[np->first_open].state == DONE)
			np->first_open++;
		/*
		 * No compact(): the tail leaves the NI before it reaches any receiver, so a
		 * send is done before it is delivered, and the delivery compacts.
		 */
		scan(sk, t, ev->node);
		break;
	case EV_HEAD_ARRIVED:
		head_arrived(sk, t, ev, x);
		break;
	case EV_TAIL_ARRIVED:
		tail_arrived(sk, t, ev, x);
		break;
	}
}

/* Debug builds: the simulation of a hook's call is the run's; false (and failed) if not. */
static inline __attribute__((always_inline)) bool run_sim(struct skeleton *sk,
							   const struct sim *s, int node)
{
#ifdef WORMCAST_DEBUG
	if (sk->tx.impl != s) {
		fail(sk, "node %d: an event of another simulation than the run's", node);
		return false;
	}
#else
	(void)sk;
	(void)s;
	(void)node;
#endif
	return true;
}

/*
 * The simulation's event hook (driver.event), with the transport kept at the start:
 * built once a run, not at every event (half of them a static schedule's SEND_DONE,
 * which does little else).
 */
void skeleton_sim_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct skeleton *sk = ctx;

	if (run_sim(sk, s, ev->node))
		skeleton_event(sk, &sk->tx, ev);
}

/*
 * A static schedule's SEND_DONE through the simulation's narrow hook: step_event()'s
 * SEND_DONE path (the same checks, the same next send) without the event record and
 * the dispatch on its kind.  Called only where the node's gate asks (the simulation has
 * counted it): where the node's next send may go.
 */
static void step_sim_send_done(void *ctx, struct sim *s, const struct message *m)
{
	struct skeleton *sk = ctx;

	if (!run_sim(sk, s, m->source) || !sent_by_plan(sk, m->source, m))
		return;
	step_send_done(sk, &sk->tx, m->source, m, (uint32_t)m->tag);
}

void (*skeleton_sim_send_done(const struct skeleton *sk))(void *ctx, struct sim *s,
							      const struct message *m)
{
	return sk->a->step ? step_sim_send_done : NULL;
}

struct send_done_gate *skeleton_sim_send_done_gates(struct skeleton *sk)
{
	return sk->gate;
}

/*
 * A static schedule's tail through the simulation's narrow hook (driver.delivered, the
 * driver then has no event()): step_event()'s tail path, the same checks and the same
 * receipt, without the event record and the two dispatches on its kind (skeleton_event()
 * and step_event()).  A static send is one R message without IR (step_issue()): its one
 * receiver is its address, and its one tail completes it, so the hook sees every tail.
 */
static void step_sim_delivered(void *ctx, struct sim *s, const struct message *m)
{
	struct skeleton *sk = ctx;

	if (!run_sim(sk, s, m->address))
		return;
#ifdef WORMCAST_DEBUG
	if (m->type != HDR_R || m->ir || m->receivers != 1) {
		fail(sk, "node %d: message %d is not a static send (one R message, one receiver)",
		     m->address, m->id);
		return;
	}
#endif
	if (sent_by_plan(sk, m->address, m))
		step_receive(sk, &sk->tx, m->address, m, (uint32_t)m->tag);
}

void (*skeleton_sim_delivered(const struct skeleton *sk))(void *ctx, struct sim *s,
							      const struct message *m)
{
	return sk->a->step ? step_sim_delivered : NULL;
}

/* ---- the end ---- */

/*
 * Node v holds block key?  Its words were checked when it arrived: verify() compared
 * the message's words with the block's, and the checker every flit each receiver got
 * with the message's words (a reduction's partial sums: check_sum()).
 */
static int expect_block(const struct skeleton *sk, int v, uint64_t key, char *err, size_t len)
{
	char b[48];

	if (holdings_has(&sk->held, held_key(v, key)))
		return 0;
	snprintf(err, len, "node %d does not hold block %s", v, block_text(key, b, sizeof(b)));
	return -1;
}

static int check_sends(const struct skeleton *sk, char *err, size_t len)
{
	char b[48];

	if (sk->a->step)
		return step_check_sends(sk, err, len);

	for (int v = 0; v < sk->nodes; v++) {
		const struct node_plan *np = &sk->node[v];

		for (int i = 0; i < np->n; i++) {
			const struct xfer *x = &np->x[i];

			if (x->state == DONE)
				continue;
			if (x->state == ISSUED)
				snprintf(err, len, "node %d: its send to %d never left the NI", v, x->spec.dest);
			else if (x->ready < x->n)
				snprintf(err, len, "node %d: its send to %d (group %d) was never made: it "
					 "waits for block %s", v, x->spec.dest, x->spec.group,
					 block_text(np->keys[x->first + x->ready] & ~KEY_WAIT, b, sizeof(b)));
			else
				snprintf(err, len, "node %d: its send to %d was never made (group %d, round %d)",
					 v, x->spec.dest, x->spec.group, x->spec.round);
			return -1;
		}
	}
	return 0;
}

/* The root's sum of every contribution, index by index. */
static int check_sum(const struct skeleton *sk, char *err, size_t len)
{
	int root = sk->p.root;

	for (int ix = 0; ix < sk->blocks; ix++)
		for (int i = 0; i < sk->words; i++) {
			uint64_t want = 0, got = 0;

			for (int u = 0; u < sk->nodes; u++) {
				uint64_t key = block_key(u, root, ix);
				const struct held *h = holdings_find(&sk->held, held_key(root, key));

				want = (want + block_word(key, i, sk->width)) & sk->mask;
				if (u == root)
					got = (got + block_word(key, i, sk->width)) & sk->mask;
				else if (h && h->words)
					got = (got + h->words[i]) & sk->mask;
			}
			if (got != want) {
				snprintf(err, len, "the root's sum, word %d of block %d, is 0x%llx, the sum "
					 "over all nodes is 0x%llx", i, ix, (unsigned long long)got,
					 (unsigned long long)want);
				return -1;
			}
		}
	return 0;
}

/*
 * The expected holdings of the kind: node v must hold block (o, d, ix) for every
 * origin o in [o_lo, o_hi) but itself, with d = the node (AAS), the root (reduction)
 * or ANY.
 */
static int expect_all(const struct skeleton *sk, int v, int o_lo, int o_hi, int d,
		      char *err, size_t len)
{
	/* Their bits in the node's row, 64 at a time; block by block to name a missing one. */
	if (holdings_row_full(&sk->held, v, o_lo, o_hi, d, v))
		return 0;
	for (int o = o_lo; o < o_hi; o++)
		for (int ix = 0; o != v && ix < sk->blocks; ix++)
			if (expect_block(sk, v, block_key(o, d, ix), err, len))
				return -1;
	return 0;
}

int skeleton_check(const struct skeleton *sk, char *err, size_t len)
{
	int root = sk->p.root, n = sk->nodes;

	if (sk->error[0]) {
		snprintf(err, len, "%s", sk->error);
		return -1;
	}
	if (check_sends(sk, err, len))
		return -1;
	switch (sk->a->kind) {
	case COLL_ONE_TO_ALL:
		for (int v = 0; v < n; v++)
			if (expect_all(sk, v, root, root + 1, BLOCK_ANY, err, len))
				return -1;
		return 0;
	case COLL_AAS:
		for (int v = 0; v < n; v++)
			if (expect_all(sk, v, 0, n, v, err, len))
				return -1;
		return 0;
	case COLL_AAB:
		for (int v = 0; v < n; v++)
			if (expect_all(sk, v, 0, n, BLOCK_ANY, err, len))
				return -1;
		return 0;
	case COLL_REDUCE:
		if (expect_all(sk, root, 0, n, root, err, len))
			return -1;
		return check_sum(sk, err, len);
	}
	return 0;
}
