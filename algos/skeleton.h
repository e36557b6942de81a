/* SPDX-License-Identifier: MIT */
/*
 * skeleton.h - the one driver every algorithm runs on.
 *
 * The block model.  A collective moves blocks, each identified by (origin,
 * destination or BLOCK_ANY, index) and carrying `words` payload words that are a
 * function of that identity (block_word()), so a block that arrives at the wrong node
 * or with one wrong bit is detected.  Each node starts with its own blocks, as the
 * kind of collective says:
 *   one-to-all  the root holds (root, ANY, i) for i < blocks;
 *   AAS         node s holds (s, d, 0) for every d != s;
 *   AAB         node s holds (s, ANY, i) for i < blocks;
 *   reduction   node v holds (v, root, 0), its contribution to the sum.
 * A message carries an ordered list of blocks: their words one after the other
 * (1 + n * words flits), or, for a reduction, added word by word (1 + words flits).
 * A node holds every block it receives (at the tail; at the head for cut-through
 * algorithms) and checks it on arrival.  At the end the skeleton checks the expected
 * holdings of the kind: every node holds the root's blocks; node d holds (s, d) from
 * every s; every node holds every block; the root holds every contribution, and
 * their sum.  No block may arrive twice at a node (unless the algorithm says its source
 * resends blocks: algorithm.redundant; the copy is checked and dropped).
 *
 * A one-to-all algorithm may cut the root's message of L - 1 words into k packets
 * (algorithm.packets): block (root, *, j) is then the j-th slice of that message,
 * floor or ceil((L-1)/k) words, and its words are the message's words at that
 * offset, so a node that holds every packet holds the root's message, the same words
 * an unsplit broadcast of the same L delivers.
 *
 * The schedule.  An algorithm is a plan function called for every node at the start
 * and again at every receipt; it appends sends (xfers) to the node's plan (or, for
 * the simplest shape, a static schedule: struct step below).  A send
 * names its destination (or a B broadcast, or R with IR), the blocks it carries and
 * optionally more blocks to wait for, a tag handed to the receiver's plan, and two
 * orders:
 *   group  node-local: a send of group g is made only when every send of the node's
 *          earlier groups has left the NI (SEND_DONE).  Sends of one group go out
 *          together (an all-port step); groups must not decrease along a node's plan.
 *   round  global: a send of round r is made only when every message of every earlier
 *          round has been delivered everywhere (an ideal barrier of the source's
 *          synchronous steps; 0 = no barrier).  Rounds are meant for plans made at
 *          the start.
 *   round on heads  (round_heads) the same barrier, but a send waits only until every
 *          message of every earlier round has its HEAD at every receiver: every router
 *          of its route or tree has then granted it all its outputs, which it keeps
 *          until its tail passes (docs/algorithms.md#aabbcast: what this proves).
 *          Such a send is planned at the start: heads are counted only in a run that
 *          has one (or a cut-through algorithm), as a head event costs about a hundred
 *          instructions a message otherwise spent for nothing.
 * Otherwise a send is made as soon as its node holds every block it carries and
 * every block it waits for.  Several sends on one injection channel queue in the NI
 * in the order they were made.
 *
 * The same plan drives the network (run.c) and the contention-free evaluation
 * (schedule.h), through the transport below.
 */
#ifndef WORMCAST_ALGOS_SKELETON_H
#define WORMCAST_ALGOS_SKELETON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algos.h"

#define BLOCK_ANY (-1)

/* A block's identity packed into 51 bits: origin 13, destination 13, index 25. */
static inline uint64_t block_key(int origin, int dest, int index)
{
	return (uint64_t)(origin & 0x1fff) << 38 | (uint64_t)(dest & 0x1fff) << 25 |
	       (uint64_t)(index & 0x1ffffff);
}
static inline int block_origin(uint64_t k) { return (int)(k >> 38 & 0x1fff); }
static inline int block_dest(uint64_t k)
{
	int d = (int)(k >> 25 & 0x1fff);

	return d == 0x1fff ? BLOCK_ANY : d;
}
static inline int block_index(uint64_t k) { return (int)(k & 0x1ffffff); }

/*
 * The words of a block: word i is payload_key_word(block_payload(key), i, W)
 * (model/sim.h), so a message that carries one block is sent with the key alone and
 * its words are generated where the NI sends them and the checker compares them.
 */
struct payload_key block_payload(uint64_t key);
/*
 * The seed of that key: block_payload(key) is payload_key_of(block_seed(key)).  (Bit
 * 63: a block's seed is never a traffic message's (source, seq).)
 */
static inline uint64_t block_seed(uint64_t key) { return key | 1ull << 63; }
/* Payload word i of a block, masked to `width` bits. */
uint64_t block_word(uint64_t key, int i, unsigned width);

/* What a node received, handed to its plan. */
struct receipt {
	int source;		/* the node that sent the message */
	uint64_t tag;		/* the tag of the sender's xfer */
	bool addressed;		/* the node is the R destination or a B receiver (not an IR stop) */
};

struct xfer_spec {
	int dest;		/* R: the destination; ignored for B */
	bool bcast;		/* a B message (the sender's replication tree) */
	bool ir;		/* R with intermediate reception */
	bool sum;		/* the blocks' words are added (reduction), not concatenated */
	int group;		/* node-local order (see above) */
	int round;		/* global barrier (see above) */
	bool round_heads;	/* the barrier waits for the earlier rounds' heads only */
	uint64_t tag;		/* handed to the receiver's plan */
};

/* The plan being built for one node (opaque). */
struct plan;

/* Append a send; the blocks and waits that follow belong to it.  0 or -1. */
int plan_xfer(struct plan *pl, const struct xfer_spec *x);
/* The last send carries this block (in this order). */
int plan_block(struct plan *pl, int origin, int dest, int index);
/* The last send also waits until the node holds this block. */
int plan_wait(struct plan *pl, int origin, int dest, int index);
/*
 * plan_xfer() + plan_block(b_origin, b_dest, b_index) + (with w_origin >= 0)
 * plan_wait(w_origin, w_dest, w_index) in one call, with the same checks: for a plan
 * that makes one send a message as the run goes.
 */
int plan_xfer_block(struct plan *pl, const struct xfer_spec *x, int b_origin, int b_dest,
		    int b_index, int w_origin, int w_dest, int w_index);
/* Give up with a reason (kept for the run's error); returns -1. */
int plan_fail(struct plan *pl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A plan that could not be made for lack of memory: the run reports "out of memory". */
int plan_out_of_memory(struct plan *pl);
/* The run's block shape, for plans that loop over blocks. */
int plan_blocks(const struct plan *pl);	/* blocks per origin */
/*
 * A static schedule (algorithm.step, instead of a plan): node v's k-th send (k from 0)
 * is one R message to `dest` carrying block (b_origin, b_dest, b_index), made when the
 * node's send k - 1 has left the NI (each send its own group, no rounds) and the node
 * holds that block and, with w_origin >= 0, block (w_origin, w_dest, w_index).  The
 * skeleton keeps per node only the count of sends made and the next one, not a record
 * per send: a send costs one step() call to make it and one to check its data at the
 * receiver, instead of a plan entry, its keys and their compaction.  For algorithms
 * without packets, sums, cut-through or head barriers (skeleton_start() refuses the
 * rest).  step() returns false when the node has no send k (nor any later one).
 */
struct step {
	int dest;
	int b_origin, b_dest, b_index;
	int w_origin, w_dest, w_index;
	/*
	 * No other send of this node waits for the awaited block: the skeleton then knows
	 * from the node's receipts whether it holds it (a block received while it was not
	 * the awaited block of the node's next send is the only one a lookup must find),
	 * instead of looking it up when the send is tried, mostly in vain at the SEND_DONE
	 * of the send before it.  Debug builds check the answer against the holdings.
	 */
	bool wait_once;
};

/*
 * One-to-all helper: an R send (IR if asked) of every block of the root, in group
 * `group`, with `tag` for the receiver.
 */
int plan_forward(struct plan *pl, int dest, int group, bool ir, uint64_t tag);

/* ---- running a plan (run.c, schedule.c) ---- */

/* Where sends go: the simulation, or the contention-free evaluator. */
struct transport {
	void *impl;
	/* Returns the message id (dense from 0), or -1 with a reason from error(). */
	int (*send)(void *impl, int node, const struct send_req *r);
	/*
	 * Optional: send() of an R message without IR, words from payload_key_of(seed),
	 * the channel the transport's (sim_send_seeded()): a static schedule's sends, with
	 * their block's seed, which the message keeps (message.seeded) for its receipt.
	 */
	int (*send_seeded)(void *impl, int node, int dest, int len, uint64_t seed, uint64_t tag);
	const char *(*error)(void *impl);
	/*
	 * The transport moves no payload (the contention-free evaluation): sends carry no
	 * words (send_req.data NULL) and arrivals are not checked word by word, except a
	 * reduction's partial sums, which the holdings keep.
	 */
	bool no_words;
	/*
	 * Every send gives its words (send_req.data), a message of one block too, which
	 * is otherwise sent with the block's key (send_req.key): tests/test_speed.c runs
	 * both ways and requires the same results.
	 */
	bool stored_words;
};

struct skeleton;

/* NULL on allocation failure.  p must have passed the algorithm's supports(). */
struct skeleton *skeleton_create(const struct algorithm *a, const struct algo_params *p);
void skeleton_destroy(struct skeleton *sk);
void skeleton_start(struct skeleton *sk, const struct transport *t);
void skeleton_event(struct skeleton *sk, const struct transport *t, const struct sim_event *ev);
/*
 * driver.event for a simulation whose transport (impl the sim) was given to
 * skeleton_start(): skeleton_event() with that transport, kept, not rebuilt per event.
 */
void skeleton_sim_event(void *ctx, struct sim *s, const struct sim_event *ev);
/*
 * driver.send_done for the same simulation, or NULL: a static schedule's (algorithm.step)
 * SEND_DONE only frees its node for the next send, without an event record.
 */
void (*skeleton_sim_send_done(const struct skeleton *sk))(void *ctx, struct sim *s,
							      const struct message *m);
/*
 * driver.send_done_gates, with that hook and only with it (NULL when it is NULL): the
 * simulation counts the static schedule's SEND_DONEs and calls the hook only where a
 * node's next send may go at one.
 */
struct send_done_gate *skeleton_sim_send_done_gates(struct skeleton *sk);
/*
 * driver.delivered for the same simulation, or NULL: a static schedule's tail (its
 * message's only one) without an event record.  With it the driver has no event(): the
 * skeleton then needs no other event (no heads: skeleton_start() refuses cut-through).
 */
void (*skeleton_sim_delivered(const struct skeleton *sk))(void *ctx, struct sim *s,
							      const struct message *m);
/* After the run: every send made and every node holds what it must.  0, or -1 with a reason. */
int skeleton_check(const struct skeleton *sk, char *err, size_t len);
/* The run's plan needs head events (EV_HEAD_ARRIVED): known after skeleton_start(). */
bool skeleton_counts_heads(const struct skeleton *sk);
/* The skeleton's error is an allocation that failed. */
bool skeleton_no_memory(const struct skeleton *sk);
/* Payload words per block of this run (the longest packet of a split message). */
int skeleton_words(const struct skeleton *sk);
/* Blocks per origin of this run (k, for an algorithm that cuts its message). */
int skeleton_blocks(const struct skeleton *sk);
/*
 * The skeleton keeps no pointer into a message after its last event (no reduction):
 * the simulation may free delivered messages (driver.release_messages).
 */
bool skeleton_releases_messages(const struct skeleton *sk);

#endif
