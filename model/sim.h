/* SPDX-License-Identifier: MIT */
/*
 * sim.h - a simulation: a network engine (the C model, the RTL, or both in lockstep),
 * one NI per node, the checker, the watchdog, and a driver that reacts to events.
 *
 * Cycle n, in order (docs/microarchitecture.md section 9):
 *   1. the NIs take the ejection flits valid in cycle n, the checker checks them, and
 *      HEAD_ARRIVED / TAIL_ARRIVED events go to the driver, which may send;
 *   2. the NIs drive cycle n's ejection credits and injection flits;
 *   3. the engine evaluates and commits cycle n.
 * A send made in cycle n (from start() at cycle 0, or from an event of cycle n) is
 * "called at cycle n".
 */
#ifndef WORMCAST_SIM_H
#define WORMCAST_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "flit.h"
#include "network.h"
#include "router_state.h"
#include "topology.h"

struct sim;

/*
 * The model's own limits (docs/microarchitecture.md section 1); the command line's
 * ranges are derived from them (src/options.def).  A FIFO needs two slots for the
 * credit round trip; 64 bounds the credit counters (uint8_t here, CredW bits in the
 * RTL).  t_s includes the cycle the source router switches the head.
 */
#define SIM_MIN_BUFFER_DEPTH 2
#define SIM_MAX_BUFFER_DEPTH ROUTER_MAX_DEPTH
#define SIM_MIN_STARTUP 1
/*
 * The longest message, in flits: the checker tells a generated body's end by 32 bits
 * of its words' positions (checker.h, reception.stop).  The command line allows 2^24.
 */
#define SIM_MAX_MESSAGE_FLITS (1 << 30)

struct sim_config {
	struct topology topo;
	bool all_port;
	int buffer_depth;		/* SIM_MIN_BUFFER_DEPTH..SIM_MAX_BUFFER_DEPTH */
	int payload_width;		/* FLIT_MIN_PAYLOAD..FLIT_MAX_PAYLOAD */
	int replication_cost;		/* T_r, 0..ROUTER_MAX_REPLICATION_COST (section 7, step 5) */
	int startup;			/* t_s >= SIM_MIN_STARTUP */
	uint64_t watchdog;		/* cycles without progress before a deadlock report */
	uint64_t max_cycles;		/* 0 = no limit */
	double sink_stall;		/* probability that a sink stalls in a cycle, 0..1 */
	uint64_t seed;			/* for sink stalls */
	/*
	 * If not NULL: the run stops (SIM_INTERRUPTED) at the first cycle that finds it
	 * non-zero.  A signal handler's flag (src/cli.c): read once per cycle.
	 */
	const volatile sig_atomic_t *stop;
	/*
	 * A speed option (sim_config_defaults(): on): skip the cycles of a steady state
	 * exactly (model/fastforward.h).  Only the C model as the engine itself, with sinks
	 * that never stall and a driver without tick(), ever skips; the results are the
	 * same either way (tests/test_speed.c).
	 */
	bool fast_forward;
	/*
	 * A speed option (sim_config_defaults(): on, as the CLI's default; false is
	 * --no-pair-walk): step the network as one walk of its granted input->output
	 * pairs (model/pair_walk.h), where that covers the run: the C model as the engine
	 * itself (no waveform, coverage or cosimulation wraps it), sinks that never stall,
	 * and a network network_use_pair_walk() accepts; elsewhere the routers step.  The
	 * same results either way (tests/test_speed.c); sim_stats.network_core says which
	 * core ran.  The fast-forward skips cycles under either (model/pair_walk_ff.c
	 * visits the walk's).  A caller that reads the routers' own registers
	 * (network_router()) sets it false; the readouts (network_router_state()) are
	 * derived under the walk.
	 */
	bool pair_walk;
};

void sim_config_defaults(struct sim_config *c);
/* Check the model's invariants of a configuration; on error, one line into err and -1. */
int sim_config_check(const struct sim_config *c, char *err, size_t errlen);
/* The routers' parameters of a configuration (p->topo points into c). */
void sim_config_router_params(const struct sim_config *c, struct router_params *p);

/*
 * A generated payload: word i of a message is (base + i * step) mod 2^W with step odd,
 * so that no two words of a message are equal (i < 2^W) and a word costs a multiply
 * and an add where the NI sends it and an add where the checker compares it; base and
 * step are hashes of a seed (the message's (source, seq), or the block an algorithm's
 * message carries), so that different messages carry different words.  A run's memory
 * does not grow with message length.
 */
struct payload_key {
	uint64_t base, step;
};

/* splitmix64's step and finaliser. */
static inline uint64_t payload_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Inline: a driver makes a key for every message it sends and every one it receives
 * (the exchange: twice a message), where the call and the returned pair cost a few
 * instructions more than the two mixes.
 */
static inline struct payload_key payload_key_of(uint64_t seed)
{
	return (struct payload_key){ .base = payload_mix64(seed),
				     .step = payload_mix64(seed ^ 0xd1b54a32d192ed03ull) | 1 };
}

/* Word i before it is masked to W bits (flit_make() masks). */
static inline uint64_t payload_key_raw(struct payload_key k, int i)
{
	return k.base + (uint64_t)i * k.step;
}

static inline uint64_t payload_key_word(struct payload_key k, int i, unsigned width)
{
	return payload_key_raw(k, i) & payload_mask(width);
}

/* One message as sent. */
struct message {
	int id;				/* index in send order, from 0 */
	int source;
	unsigned seq;			/* per-source sequence number (full, not wrapped) */
	enum hdr_type type;
	bool ir;
	bool send_done;			/* its SEND_DONE event has been reported */
	bool stored;			/* its words are stored (data), else generated (key) */
	/*
	 * Its key was made here from `seed` (send_req.seed): key == payload_key_of(seed),
	 * so that a receiver that knows the seed its words must come from compares the
	 * seed, not a key it would hash again (a static schedule's receipt: -30
	 * instructions a message of the exchange).  False: seed is not set.
	 */
	bool seeded;
	int address;			/* R: destination, B: root */
	int len;			/* flits, >= 1 */
	int channel;			/* injection channel used */
	/*
	 * The len - 1 payload words of the body and tail flits: as the sender gave them
	 * (stored), or generated, word i being payload_key_word(key, i, W), computed where
	 * the NI sends it and where the checker compares it (message_word()).  One or the
	 * other: a message that a run keeps (random traffic's) is 16 bytes shorter than
	 * with both.
	 */
	union {
		const uint64_t *data;		/* stored */
		struct payload_key key;		/* send_req.key, or sim_pattern_key(source, seq) */
	};
	flit_t head;			/* the head flit as sent */
	uint64_t send_cycle;		/* cycle of the send call */
	uint64_t head_cycle;		/* head offered on the injection channel */
	uint64_t tail_cycle;		/* tail accepted by the router */
	int receivers;			/* nodes that must receive it */
	int delivered;			/* nodes that have received it whole */
	uint64_t last_delivery;		/* cycle of the last tail arrival */
	uint64_t tag;			/* send_req.tag */
	/*
	 * The next message queued on its injection channel after it, the NI's (ni.c): a
	 * link instead of a ring of pointers spares the NI a cache line and a division a
	 * send.  Valid only while the NI holds it.
	 */
	struct message *ni_next;
	uint64_t seed;			/* if seeded */
};

struct send_req {
	int dest;			/* R: destination; B: ignored (the root is the sender) */
	enum hdr_type type;
	bool ir;
	int len;			/* flits including head and tail */
	const uint64_t *data;		/* len - 1 words to store, or NULL: generated */
	/* The key of the generated words, or NULL for sim_pattern_key(source, seq). */
	const struct payload_key *key;
	/*
	 * Or, if not NULL (and key NULL): the seed of that key, payload_key_of(*seed),
	 * made and kept with the message (message.seeded).
	 */
	const uint64_t *seed;
	int channel;			/* -1: the NI chooses (section 9) */
	uint64_t tag;			/* the driver's own, returned in events */
};

enum sim_event_kind {
	EV_HEAD_ARRIVED,
	EV_TAIL_ARRIVED,
	EV_SEND_DONE,
};

struct sim_event {
	enum sim_event_kind kind;
	int node;			/* where it happened */
	uint64_t cycle;
	const struct message *msg;
	uint64_t tag;			/* send_req.tag of the message */
};

/*
 * A node's SEND_DONEs, for a driver whose send_done() is wanted only at some of them
 * (driver.send_done_gates, indexed by the message's source): the simulation counts
 * every one in `done`, and calls send_done() for it only if `call` is set then (the
 * calls it makes are made in the same order as without gates).  A static schedule
 * (algos/skeleton.c) needs the call only when its node's next send waits for nothing
 * else; at the other SEND_DONEs (almost all of an exchange's: its awaited block comes
 * later) it reads the count where it tries the send, about 35 instructions a message
 * fewer (the call, and its checks of the message and the node's plan).
 */
struct send_done_gate {
	uint32_t done;			/* SEND_DONEs of the node's messages so far */
	bool call;			/* call send_done() at the node's next one */
};

/* A driver: per-node programs that react to events. */
struct driver {
	void *ctx;
	/* Called once, at cycle 0, before anything else. */
	void (*start)(void *ctx, struct sim *s);
	/* Called for every event, in cycle order; NULL: the driver reacts to none (traffic). */
	void (*event)(void *ctx, struct sim *s, const struct sim_event *ev);
	/*
	 * Optional: called instead of event() for EV_SEND_DONE (node m->source, tag
	 * m->tag, the cycle sim_now()), in the same order.  For a driver that only needs
	 * to know its node's NI is free (a static schedule): no event record is built.
	 */
	void (*send_done)(void *ctx, struct sim *s, const struct message *m);
	/*
	 * Optional, with send_done: one gate per node (the driver's; above): send_done() is
	 * called only at the SEND_DONEs its node's gate asks for, and every one is counted.
	 */
	struct send_done_gate *send_done_gates;
	/*
	 * Optional, for a driver without event(): called for the EV_TAIL_ARRIVED that
	 * completes message m (its last receiver: m->delivered == m->receivers, the cycle
	 * sim_now()); without event() the other tails and heads go unreported (SEND_DONE to
	 * send_done() if set).  For a driver that only records whole deliveries (random
	 * traffic's latencies): no event record, no call for the rest.
	 */
	void (*delivered)(void *ctx, struct sim *s, const struct message *m);
	/* Optional: called at the start of every cycle, before its events (traffic). */
	void (*tick)(void *ctx, struct sim *s);
	/* Optional: false while the driver still has sends to make; NULL = done. */
	bool (*finished)(void *ctx, const struct sim *s);
	/*
	 * The driver keeps no pointer to a message after its last event: the simulation
	 * frees each message once it is delivered everywhere and its SEND_DONE is reported
	 * (sim_message() then returns NULL), so a run's memory follows the messages in
	 * flight, not all the messages sent.  The results are the same either way.
	 */
	bool release_messages;
};

/*
 * The network engine.  The C model is one; the RTL and the cosimulation (cosim/)
 * are others.  Each cycle the sim calls inject()/return_credit() for the signals the
 * NIs drive, then step(); after step() the engine lists the NI-facing outputs valid
 * in the next cycle, in node order, then channel order (docs/microarchitecture.md
 * section 9: the NIs, the checker, the driver and the sink stalls see that order, so
 * every engine must give it).
 */
struct engine_ops {
	const char *name;
	void (*inject)(void *e, int node, int channel, flit_t flit);
	void (*return_credit)(void *e, int node, int channel);
	/* Clock edge.  Returns 0, or -1 to stop the run (cosim mismatch). */
	int (*step)(void *e, uint64_t cycle);
	int (*ejections)(void *e, const struct channel_event **list);
	int (*inj_credits)(void *e, const struct channel_event **list);
	/* Output registers (links and ejection) valid after the last step. */
	int (*outputs_valid)(void *e);
	/*
	 * The architectural state of router node (docs/microarchitecture.md section 6)
	 * after the last step.  Returns 0, or -1 if this engine cannot read it.  The
	 * deadlock report is built from it (deadlock.h), whatever the engine.
	 */
	int (*router_state)(void *e, int node, struct router_state *s);
	uint64_t (*link_moves)(void *e);
	/* Cycles in which some head waited for an output held by another message;
	 * NULL if the engine cannot see its arbiters (the RTL alone). */
	uint64_t (*conflict_cycles)(void *e);
	/*
	 * Optional: why step() returned -1, one line for sim_error() (an RTL assertion
	 * that failed), or "" when the engine reports it elsewhere (a cosim mismatch).
	 */
	const char *(*stop_reason)(void *e);
};

struct engine {
	const struct engine_ops *ops;
	void *impl;
};

/* The C model as an engine. */
int model_engine_create(struct engine *e, const struct router_params *p);
void model_engine_destroy(struct engine *e);
struct network *model_engine_network(const struct engine *e);

/*
 * Create a simulation with its own C model engine, or with the given engine.  A C
 * model given bare (model_engine_network() finds it) with sinks that never stall is
 * set to return the ejection credits itself (network_return_ejection_credits()): it
 * serves that one simulation.
 */
struct sim *sim_create(const struct sim_config *c, char *err, size_t errlen);
struct sim *sim_create_with_engine(const struct sim_config *c, struct engine *e,
				   char *err, size_t errlen);
void sim_destroy(struct sim *s);

const struct sim_config *sim_config(const struct sim *s);
const struct topology *sim_topology(const struct sim *s);
const struct router_params *sim_router_params(const struct sim *s);
uint64_t sim_now(const struct sim *s);

/* Send from node.  Returns the message id, or -1 with a reason in sim_error(). */
int sim_send(struct sim *s, int node, const struct send_req *r);
/*
 * sim_send() of { .dest = dest, .type = HDR_R, .len = len, .seed = &seed, .channel = -1,
 * .tag = tag }: an R message without IR, its words generated from the key
 * payload_key_of(seed), on the channel the NI chooses; the same checks and the same
 * message.  For a static schedule's sends, all of that shape: no request is built and
 * read again, and the fixed fields cost no tests.  The message keeps the seed
 * (message.seeded), which its receiver may compare instead of a key it makes again.
 */
int sim_send_seeded(struct sim *s, int node, int dest, int len, uint64_t seed, uint64_t tag);
/*
 * sim_send() of { .dest = dest, .type = HDR_R, .ir = ir, .len = len, .channel = channel }:
 * random traffic's unicast (words from sim_pattern_key(), tag 0), the same way.
 */
int sim_send_traffic(struct sim *s, int node, int dest, int len, bool ir, int channel);
/*
 * The driver does not use EV_HEAD_ARRIVED: from now on the simulation does not make
 * them (a driver tells it in its start(); the skeleton of a run whose plan counts no
 * heads).  A head event is otherwise about fifty instructions a message for nothing.
 */
void sim_no_head_events(struct sim *s);
/* Its NIs (for test_sanity, which corrupts them: ni_corrupt()). */
struct ni *sim_ni(struct sim *s);
/* Message id, or NULL once released (driver.release_messages). */
const struct message *sim_message(const struct sim *s, int id);
int sim_message_count(const struct sim *s);

enum sim_status {
	SIM_DONE,		/* everything sent was delivered and the network drained */
	SIM_DEADLOCK,		/* watchdog fired */
	SIM_CYCLE_LIMIT,	/* max_cycles reached */
	SIM_CHECK_FAILED,	/* the checker found a wrong delivery */
	SIM_ENGINE_STOPPED,	/* the engine asked to stop (cosim mismatch) */
	SIM_INTERRUPTED,	/* cfg.stop was set (a signal) */
	SIM_NO_MEMORY,		/* an allocation failed: the run cannot go on */
};

/*
 * Run the driver to completion.  The run ends when nothing is pending in the NIs,
 * every message has been delivered to every node that must receive it, the network
 * has drained and the driver has nothing left (it sends only from events).
 */
enum sim_status sim_run(struct sim *s, const struct driver *d);

/*
 * Step one cycle without a driver (for tests and traffic generators).  One cycle
 * exactly: the fast-forward (sim_config.fast_forward) skips cycles in sim_run() only.
 */
enum sim_status sim_step(struct sim *s, const struct driver *d);
bool sim_quiescent(const struct sim *s);

struct sim_stats {
	uint64_t cycles_run;		/* cycles simulated */
	uint64_t first_send;		/* cycle of the first send call */
	uint64_t last_delivery;		/* cycle of the last tail arrival */
	uint64_t messages;
	uint64_t deliveries;		/* (message, node) pairs delivered whole */
	uint64_t flits_delivered;
	uint64_t link_moves;		/* flit-hops: flits put on links */
	uint64_t conflict_cycles;	/* cycles where a head waited for a held output */
	bool conflicts_measured;	/* false: the engine cannot see its arbiters */
	bool delivered_ok;		/* the checker found nothing wrong and nothing missing */
	/* The fast-forward's work (sim_config.fast_forward; in no report: the same results). */
	uint64_t ff_jumps, ff_skipped, ff_tries;
	/* The core that stepped the network (network_core()), or NULL: another engine. */
	const char *network_core;
};
void sim_get_stats(const struct sim *s, struct sim_stats *st);

/* The last error: a checker failure, a bad send, a deadlock summary. */
const char *sim_error(const struct sim *s);
/*
 * The report of a stopped run (multi-line: for a deadlock, the chains of blocked
 * messages, deadlock.h, and the missing deliveries), or sim_error() if there is none.
 */
void sim_write_report(const struct sim *s, FILE *out);

/* The words of a message (source, seq) sent without data or key; its word i. */
struct payload_key sim_pattern_key(int source, unsigned seq);
uint64_t sim_pattern_word(int source, unsigned seq, int i, unsigned width);

/* Payload word i of message m, stored or generated, before it is masked to W bits. */
static inline uint64_t message_word_raw(const struct message *m, int i)
{
	return m->stored ? m->data[i] : payload_key_raw(m->key, i);
}

/* Payload word i of message m (W = width), stored or generated. */
static inline uint64_t message_word(const struct message *m, int i, unsigned width)
{
	return message_word_raw(m, i) & payload_mask(width);
}

#endif
