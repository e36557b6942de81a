/* SPDX-License-Identifier: MIT */
/*
 * sim.c - the cycle loop: NIs, checker, watchdog and driver around an engine.
 * See sim.h for the order of events inside a cycle.
 */
#include "sim.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "deadlock.h"
#include "fastforward.h"
#include "grow.h"
#include "ni.h"

#define MSG_PAGE_BITS 12
#define MSG_PAGE (1 << MSG_PAGE_BITS)

/*
 * An ejection channel: the checker's reception of the message in progress and the
 * NI's buffer and credit register, in one record of 32 bytes, so that a flit that
 * arrives touches one record (the loop computes its index once for both).
 */
struct ejection {
	struct reception rx;
	struct ni_ejection ni;
};

_Static_assert(sizeof(struct ejection) == 32, "an ejection channel's record is 32 bytes");

/*
 * Messages without stored words are allocated MSG_CHUNK at a time and, once released,
 * kept for the next send: a message costs a few instructions where malloc() and
 * free() cost 130 (a run that releases its messages sends about as many as it frees).
 * Messages with stored words have their own allocation, words included.
 */
#define MSG_CHUNK 64

/*
 * The sanitizer build still catches a driver that reads a message after its release:
 * a spare message is poisoned but for its link.
 */
#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define SPARE_POISON(p) ASAN_POISON_MEMORY_REGION((char *)(p) + sizeof(void *), \
						  sizeof(struct message) - sizeof(void *))
#define SPARE_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define SPARE_POISON(p) ((void)(p))
#define SPARE_UNPOISON(p, n) ((void)(p))
#endif

union spare_message {
	struct message msg;
	union spare_message *next;
};

struct msg_chunk {
	struct msg_chunk *next;
	union spare_message m[MSG_CHUNK];
};

struct msg_page {
	struct message **slot;	/* MSG_PAGE messages (NULL once released), or NULL */
	int released;		/* of its messages; at MSG_PAGE the page is freed */
};

struct sim {
	struct sim_config cfg;
	struct router_params params;
	struct engine engine;
	/*
	 * The engine if it is the C model (model_engine_network()), called directly by the
	 * cycle loop, else NULL: the four calls a cycle through the engine's table and
	 * their wrappers were about 30 instructions.
	 */
	struct network *net;
	bool own_engine;
	struct ni *ni;
	struct checker *checker;
	int channels;			/* E: ejection channels per node */
	int inj_channels;		/* J: injection channels per node */
	struct ejection *ej;		/* per node * channels */
	/*
	 * Node v's records: ej + v * channels, looked up instead of computed (a load where
	 * the multiply and its sign extension were three more instructions an ejected flit).
	 */
	struct ejection **ej_of;

	/*
	 * The messages by id, in pages of MSG_PAGE: a page whose messages have all been
	 * released is freed, so that a run's memory follows the messages in flight (the
	 * NIs and the checker hold pointers; only sim_message() looks messages up by id).
	 */
	struct msg_page *pages;
	int n_pages, cap_pages;
	int n_messages;
	struct msg_chunk *chunks;	/* every message without stored words is in one */
	union spare_message *spare;	/* free ones */
	unsigned *next_seq;		/* per source */

	uint64_t now;			/* the cycle being simulated */
	uint64_t idle_cycles;		/* watchdog */
	uint64_t first_send, last_delivery;
	bool any_send;
	bool no_head_events;		/* sim_no_head_events() */
	bool engine_credits;		/* the NI told ni_engine_returns_credits() */
	/*
	 * The fast-forward (cfg.fast_forward, the C model as the engine, sinks that never
	 * stall), else NULL; irregular counts the ejected flits that were not a right body
	 * flit (heads, tails, stored words), its cheap test of a calm cycle.
	 */
	struct ff *ff;
	uint64_t irregular;
	bool in_run;			/* sim_run() is stepping: the fast-forward may jump */
	uint64_t flit_mask;		/* checker_flit_mask(), for checker_body_flit() */
	/*
	 * SEND_DONE events for the next cycle: the NI's list of the messages whose tail
	 * went, read in place (ni_drive() keeps it till its next call, which comes after
	 * the events are reported), where a copy cost a memcpy() call a cycle.
	 */
	struct message *const *pending_done;
	int n_pending_done;

	enum sim_status status;
	bool stopped;
	char error[1024];
	char *report;			/* multi-line report of the stop, if any */
	size_t report_len;
};

void sim_config_defaults(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->all_port = true;
	c->buffer_depth = 4;
	c->payload_width = 32;
	c->startup = 10;
	c->watchdog = 10000;
	c->fast_forward = true;
	c->pair_walk = true;
}

int sim_config_check(const struct sim_config *c, char *err, size_t errlen)
{
	if (c->buffer_depth < SIM_MIN_BUFFER_DEPTH || c->buffer_depth > SIM_MAX_BUFFER_DEPTH) {
		snprintf(err, errlen, "buffer depth %d out of range %d..%d", c->buffer_depth,
			 SIM_MIN_BUFFER_DEPTH, SIM_MAX_BUFFER_DEPTH);
		return -1;
	}
	if (c->payload_width < FLIT_MIN_PAYLOAD || c->payload_width > FLIT_MAX_PAYLOAD) {
		snprintf(err, errlen, "payload width %d out of range %d..%d", c->payload_width,
			 FLIT_MIN_PAYLOAD, FLIT_MAX_PAYLOAD);
		return -1;
	}
	if (c->startup < SIM_MIN_STARTUP) {
		snprintf(err, errlen, "start-up cost %d below %d (t_s includes the cycle the "
			 "source router switches the head)", c->startup, SIM_MIN_STARTUP);
		return -1;
	}
	if (c->replication_cost < 0 || c->replication_cost > ROUTER_MAX_REPLICATION_COST) {
		snprintf(err, errlen, "replication cost %d out of range 0..%d", c->replication_cost,
			 ROUTER_MAX_REPLICATION_COST);
		return -1;
	}
	if (c->watchdog < 1) {
		snprintf(err, errlen, "watchdog must be at least 1 cycle");
		return -1;
	}
	/* A replication hold is T_r cycles in which nothing moves: not a deadlock. */
	if (c->watchdog <= (uint64_t)c->replication_cost) {
		snprintf(err, errlen, "watchdog %llu must be longer than the replication cost %d "
			 "(a router holds a broadcast head that long)",
			 (unsigned long long)c->watchdog, c->replication_cost);
		return -1;
	}
	if (c->sink_stall < 0 || c->sink_stall >= 1) {
		snprintf(err, errlen, "sink stall probability %g out of range [0, 1)", c->sink_stall);
		return -1;
	}
	{
		struct topology t = c->topo;	/* V in range for the topology (section 12) */

		if (topology_set_vcs(&t, c->topo.vcs, err, errlen))
			return -1;
	}
	if (c->topo.nodes < 2 || c->topo.nodes > (int)FLIT_MAX_NODES) {
		snprintf(err, errlen, "network of %d nodes: need 2..%u", c->topo.nodes,
			 FLIT_MAX_NODES);
		return -1;
	}
	return 0;
}

void sim_config_router_params(const struct sim_config *c, struct router_params *p)
{
	*p = (struct router_params){
		.topo = &c->topo, .all_port = c->all_port, .buffer_depth = c->buffer_depth,
		.payload_width = c->payload_width, .replication_cost = c->replication_cost,
	};
}

/* ---- the C model as an engine ---- */

static void me_inject(void *e, int node, int ch, flit_t f) { network_inject(e, node, ch, f); }
static void me_credit(void *e, int node, int ch) { network_return_credit(e, node, ch); }

static int me_step(void *e, uint64_t cycle)
{
	network_step(e, cycle);
#ifdef WORMCAST_DEBUG
	if (network_sanity_error(e)[0])
		return -1;	/* a broken invariant (router_sanity.h) */
#endif
	return 0;
}

static const char *me_stop_reason(void *e) { return network_sanity_error(e); }

static int me_ejections(void *e, const struct channel_event **l) { return network_ejections(e, l); }
static int me_inj_credits(void *e, const struct channel_event **l) { return network_inj_credits(e, l); }
static int me_moved(void *e) { return network_last_moves(e); }
static uint64_t me_link_moves(void *e) { return network_link_moves(e); }
static uint64_t me_conflicts(void *e) { return network_conflict_cycles(e); }

static int me_router_state(void *e, int node, struct router_state *rs)
{
	network_router_state(e, node, rs);
	return 0;
}

static const struct engine_ops model_ops = {
	.name = "model",
	.inject = me_inject,
	.return_credit = me_credit,
	.step = me_step,
	.ejections = me_ejections,
	.inj_credits = me_inj_credits,
	.outputs_valid = me_moved,
	.router_state = me_router_state,
	.link_moves = me_link_moves,
	.conflict_cycles = me_conflicts,
	.stop_reason = me_stop_reason,
};

int model_engine_create(struct engine *e, const struct router_params *p)
{
	e->ops = &model_ops;
	e->impl = network_create(p);
	return e->impl ? 0 : -1;
}

void model_engine_destroy(struct engine *e)
{
	network_destroy(e->impl);
	e->impl = NULL;
}

struct network *model_engine_network(const struct engine *e)
{
	return e->ops == &model_ops ? e->impl : NULL;
}

/*
 * The cycle loop's calls of the engine: the C model's own functions when it is the
 * engine (s->net, the same wrappers, inlined), else through the engine's table.
 */
static inline int engine_ejections(const struct sim *s, const struct channel_event **l)
{
	return s->net ? me_ejections(s->net, l) : s->engine.ops->ejections(s->engine.impl, l);
}

static inline int engine_step(const struct sim *s)
{
	return s->net ? me_step(s->net, s->now) : s->engine.ops->step(s->engine.impl, s->now);
}

static inline int engine_inj_credits(const struct sim *s, const struct channel_event **l)
{
	return s->net ? me_inj_credits(s->net, l) : s->engine.ops->inj_credits(s->engine.impl, l);
}

static inline int engine_outputs_valid(const struct sim *s)
{
	return s->net ? me_moved(s->net) : s->engine.ops->outputs_valid(s->engine.impl);
}

/* ---- simulation ---- */

static struct sim *sim_new(const struct sim_config *c, char *err, size_t errlen)
{
	struct sim *s;

	if (sim_config_check(c, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->cfg = *c;
	sim_config_router_params(&s->cfg, &s->params);
	/* E ejection channels (P*V all-port, section 12); the NI's injection side uses J. */
	s->channels = c->all_port ? topology_link_vports(&c->topo) : 1;
	s->inj_channels = c->all_port ? c->topo.ports : 1;
	s->ni = ni_create(c->topo.nodes, s->channels, c->buffer_depth, c->startup,
			  c->sink_stall, c->seed, (unsigned)c->payload_width);
	s->checker = checker_create(&s->cfg.topo, s->channels, (unsigned)c->payload_width);
	s->next_seq = calloc((size_t)c->topo.nodes, sizeof(unsigned));
	s->ej = malloc(sizeof(*s->ej) * (size_t)c->topo.nodes * (size_t)s->channels);
	s->ej_of = malloc(sizeof(*s->ej_of) * (size_t)c->topo.nodes);
	if (!s->ni || !s->checker || !s->next_seq || !s->ej || !s->ej_of) {
		snprintf(err, errlen, "out of memory");
		sim_destroy(s);
		return NULL;
	}
	s->flit_mask = checker_flit_mask(s->checker);
	for (int v = 0; v < c->topo.nodes; v++)
		s->ej_of[v] = &s->ej[v * s->channels];
	for (int k = 0; k < c->topo.nodes * s->channels; k++) {
		checker_reception_init(&s->ej[k].rx);
		s->ej[k].ni = (struct ni_ejection){ .count = 0 };
	}
	return s;
}

/*
 * The C model as the engine itself (nothing wraps it to watch the NI's signals), with
 * sinks that never stall: the network returns the ejection credits, not the NI, which
 * saves a flit's credit two calls and a list (network_return_ejection_credits()).
 */
static void engine_returns_credits(struct sim *s)
{
	struct network *net = model_engine_network(&s->engine);

	s->net = net;
	if (net && s->cfg.sink_stall <= 0) {
		network_return_ejection_credits(net);
		ni_engine_returns_credits(s->ni);
		s->engine_credits = true;
		/*
		 * The pair walk (if it covers the network), before the fast-forward: it visits
		 * the state of whichever steps the network (network_ff_visit()).
		 */
		if (s->cfg.pair_walk)
			network_use_pair_walk(net);
		/* (Without memory for it, the run is the same without it.) */
		if (s->cfg.fast_forward)
			s->ff = ff_create();
	}
	/* (After the pair walk's choice: the NI keeps its injection inputs' indices.) */
	if (net)
		ni_derive_credits(s->ni, net);
}

struct sim *sim_create(const struct sim_config *c, char *err, size_t errlen)
{
	struct sim *s = sim_new(c, err, errlen);

	if (!s)
		return NULL;
	if (model_engine_create(&s->engine, &s->params)) {
		snprintf(err, errlen, "out of memory");
		sim_destroy(s);
		return NULL;
	}
	s->own_engine = true;
	engine_returns_credits(s);
	return s;
}

struct sim *sim_create_with_engine(const struct sim_config *c, struct engine *e, char *err,
				   size_t errlen)
{
	struct sim *s = sim_new(c, err, errlen);

	if (s) {
		s->engine = *e;
		engine_returns_credits(s);
	}
	return s;
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	if (s->own_engine)
		model_engine_destroy(&s->engine);
	ni_destroy(s->ni);
	checker_destroy(s->checker);
	ff_destroy(s->ff);
	for (int p = 0; p < s->n_pages; p++) {
		for (int i = 0; s->pages[p].slot && i < MSG_PAGE; i++)
			if (s->pages[p].slot[i] && s->pages[p].slot[i]->stored)
				free(s->pages[p].slot[i]);	/* and its data */
		free(s->pages[p].slot);
	}
	free(s->pages);
	while (s->chunks) {
		struct msg_chunk *next = s->chunks->next;

		SPARE_UNPOISON(s->chunks, sizeof(*s->chunks));
		free(s->chunks);
		s->chunks = next;
	}
	free(s->next_seq);
	free(s->ej);
	free(s->ej_of);
	free(s->report);
	free(s);
}

const struct sim_config *sim_config(const struct sim *s) { return &s->cfg; }
struct ni *sim_ni(struct sim *s) { return s->ni; }
const struct topology *sim_topology(const struct sim *s) { return &s->cfg.topo; }
const struct router_params *sim_router_params(const struct sim *s) { return &s->params; }
uint64_t sim_now(const struct sim *s) { return s->now; }
void sim_no_head_events(struct sim *s)
{
	s->no_head_events = true;
}

const struct message *sim_message(const struct sim *s, int id)
{
	struct message **slot = s->pages[id >> MSG_PAGE_BITS].slot;

	return slot ? slot[id & (MSG_PAGE - 1)] : NULL;
}

int sim_message_count(const struct sim *s) { return s->n_messages; }
const char *sim_error(const struct sim *s) { return s->error; }

struct payload_key sim_pattern_key(int source, unsigned seq)
{
	return payload_key_of((uint64_t)(unsigned)source << 32 | seq);
}

uint64_t sim_pattern_word(int source, unsigned seq, int i, unsigned width)
{
	return payload_key_word(sim_pattern_key(source, seq), i, width);
}

static int set_error(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->error, sizeof(s->error), fmt, ap);
	va_end(ap);
	return -1;
}

static void stop(struct sim *s, enum sim_status st)
{
	s->status = st;
	s->stopped = true;
}

/*
 * An allocation failed: the run cannot be trusted to go on (a message half-registered,
 * an event lost), so it stops, whatever the driver does with the failed call.
 */
static int no_memory(struct sim *s)
{
	set_error(s, "out of memory");
	stop(s, SIM_NO_MEMORY);
	return -1;
}

/* The page of the next message id, allocated if it is the first of its page; 0 or -1. */
static int new_page(struct sim *s)
{
	struct msg_page *p;

	if (s->n_pages > s->n_messages >> MSG_PAGE_BITS)
		return 0;
	if (s->n_pages == s->cap_pages) {
		size_t cap = (size_t)s->cap_pages;

		p = grow_array(s->pages, &cap, cap + 1, sizeof(*p), 16, INT_MAX);
		if (!p)
			return -1;
		s->pages = p;
		s->cap_pages = (int)cap;
	}
	p = &s->pages[s->n_pages];
	*p = (struct msg_page){ .slot = calloc(MSG_PAGE, sizeof(*p->slot)) };
	if (!p->slot)
		return -1;
	s->n_pages++;
	return 0;
}

/* Free message m (its last event is past) and its page once every message of it is. */
static void release(struct sim *s, struct message *m)
{
	struct msg_page *p = &s->pages[m->id >> MSG_PAGE_BITS];

	p->slot[m->id & (MSG_PAGE - 1)] = NULL;
	if (m->stored) {
		free(m);
	} else {
		union spare_message *sp = (union spare_message *)m;

		sp->next = s->spare;
		s->spare = sp;
		SPARE_POISON(sp);
	}
	if (++p->released == MSG_PAGE) {
		free(p->slot);
		p->slot = NULL;
	}
}

/* MSG_CHUNK more free messages without stored words; 0 or -1. */
static int new_chunk(struct sim *s)
{
	struct msg_chunk *c = malloc(sizeof(*c));

	if (!c)
		return -1;
	c->next = s->chunks;
	s->chunks = c;
	for (int i = MSG_CHUNK - 1; i >= 0; i--) {
		c->m[i].next = s->spare;
		s->spare = &c->m[i];
		SPARE_POISON(&c->m[i]);
	}
	return 0;
}

int sim_send(struct sim *s, int node, const struct send_req *r)
{
	const struct topology *t = &s->cfg.topo;
	struct message *m;
	bool stored;		/* words given, kept with the message */
	unsigned width = (unsigned)s->cfg.payload_width;

	/* (Unsigned: a negative index is out of range too, one compare a check.) */
	if ((unsigned)node >= (unsigned)t->nodes)
		return set_error(s, "send from node %d: no such node", node);
	if ((unsigned)r->len - 1 >= (unsigned)SIM_MAX_MESSAGE_FLITS)	/* (one compare) */
		return r->len < 1 ? set_error(s, "send from node %d: message length %d < 1", node, r->len)
				  : set_error(s, "send from node %d: message length %d > %d", node,
					      r->len, SIM_MAX_MESSAGE_FLITS);
	if (r->type == HDR_R) {
		if ((unsigned)r->dest >= (unsigned)t->nodes)
			return set_error(s, "send from node %d to %d: no such node", node, r->dest);
		if (r->dest == node)
			return set_error(s, "send from node %d to itself", node);
	} else if (r->ir && t->kind != TOPO_HYPERCUBE && t->kind != TOPO_MESH) {
		/* docs/microarchitecture.md section 8: Q_d's Gray code, a mesh's boustrophedon. */
		return set_error(s, "send from node %d: the path broadcast (B with IR) is defined on "
				 "hypercubes and meshes only", node);
	}
	if (r->channel >= s->inj_channels)
		return set_error(s, "send from node %d: channel %d, the NI has %d", node,
				 r->channel, s->inj_channels);

	if (new_page(s))
		return no_memory(s);
	/*
	 * Given data words follow the message in one allocation (release() frees it); a
	 * message without stored words comes from the spare ones.
	 */
	stored = r->data && r->len > 1;
	if (stored) {
		m = malloc(sizeof(*m) + sizeof(uint64_t) * (size_t)(r->len - 1));
		if (!m)
			return no_memory(s);
	} else {
		if (!s->spare && new_chunk(s))
			return no_memory(s);
		m = &s->spare->msg;
		s->spare = s->spare->next;
		SPARE_UNPOISON(m, sizeof(*m));
	}
	/*
	 * Every field written once, the ones set later (the cycles, receivers) zeroed
	 * here: clearing the whole message first and writing its fields again cost about
	 * a dozen instructions a send.
	 */
	m->send_done = false;
	m->stored = false;
	m->seeded = false;
	m->head_cycle = 0;
	m->tail_cycle = 0;
	m->receivers = 0;
	m->delivered = 0;
	m->last_delivery = 0;
	m->id = s->n_messages;
	m->source = node;
	m->seq = s->next_seq[node]++;
	m->type = r->type;
	m->ir = r->ir;
	m->address = r->type == HDR_B ? node : r->dest;
	m->len = r->len;
	if (stored) {
		uint64_t *data = (uint64_t *)(m + 1);

		for (int i = 0; i < r->len - 1; i++)
			data[i] = r->data[i] & payload_mask(width);
		m->data = data;
		m->stored = true;
	} else if (r->len > 1) {
		if (r->key) {
			m->key = *r->key;
		} else if (r->seed) {
			m->seed = *r->seed;
			m->seeded = true;
			m->key = payload_key_of(m->seed);
		} else {
			m->key = sim_pattern_key(node, m->seq);
		}
	} else {
		m->key = (struct payload_key){ 0, 0 };	/* no words */
	}
	{
		struct header h = {
			.type = m->type, .ir = m->ir, .address = (unsigned)m->address,
			.source = (unsigned)node, .seq = m->seq & (unsigned)payload_mask(seq_bits(width)),
		};

		m->head = flit_make(r->len == 1 ? FLIT_SINGLE : FLIT_HEAD, header_pack(&h, width), width);
	}
	if (r->channel >= 0)
		m->channel = r->channel;
	else if (!s->cfg.all_port || r->type == HDR_B)
		m->channel = 0;
	else
		m->channel = unicast_next_port(t, node, r->dest);
	m->send_cycle = s->now;
	m->tag = r->tag;
	s->pages[m->id >> MSG_PAGE_BITS].slot[m->id & (MSG_PAGE - 1)] = m;
	s->n_messages++;
	if (checker_expect(s->checker, m))
		return no_memory(s);
	ni_enqueue(s->ni, m, s->now);
	if (!s->any_send || s->now < s->first_send)
		s->first_send = s->now;
	s->any_send = true;
	return m->id;
}

/*
 * sim_send() inlined (flatten: with everything it calls) into a request constant but
 * for its node, destination, seed and tag (sim.h): the compiler drops the tests and
 * branches of the fixed fields (a second entry, not a second body).  sim_send() itself is compiled
 * as before (sharing an always_inline body instead moved the code of both, and the
 * traffic, which sends through sim_send(), ran 2 % slower by CPU for the same
 * instructions).
 */
__attribute__((flatten)) int sim_send_seeded(struct sim *s, int node, int dest, int len,
					     uint64_t seed, uint64_t tag)
{
	const struct send_req r = {
		.dest = dest, .type = HDR_R, .len = len, .seed = &seed, .channel = -1, .tag = tag,
	};

	return sim_send(s, node, &r);
}

/*
 * The same for random traffic's unicasts (sim.h): uniform 8x8 at 0.1 -1.5 instructions a
 * flit-hop (about -60 a packet), sim_send() and the other workloads' code unchanged.
 */
__attribute__((flatten)) int sim_send_traffic(struct sim *s, int node, int dest, int len, bool ir,
					      int channel)
{
	const struct send_req r = {
		.dest = dest, .type = HDR_R, .ir = ir, .len = len, .channel = channel,
	};

	return sim_send(s, node, &r);
}

/* Its last event: delivered everywhere and SEND_DONE told (release_messages). */
static inline void release_if_finished(struct sim *s, const struct driver *d, struct message *m)
{
	if (d && d->release_messages && m->send_done && m->delivered == m->receivers)
		release(s, m);
}

/*
 * Inlined where the loop reports an event (three places): as a call, its arguments,
 * saved registers and the event's copy were about fifty instructions an event.
 */
static inline __attribute__((always_inline)) void
emit(struct sim *s, const struct driver *d, enum sim_event_kind kind, int node, struct message *m)
{
	if (kind == EV_SEND_DONE)
		m->send_done = true;
	if (d && d->event) {
		/* (The record made here: before the test, a driver without event() paid for it.) */
		struct sim_event ev = {
			.kind = kind, .node = node, .cycle = s->now, .msg = m, .tag = m->tag,
		};

		d->event(d->ctx, s, &ev);
	} else if (kind == EV_TAIL_ARRIVED && d && d->delivered && m->delivered == m->receivers)
		d->delivered(d->ctx, s, m);	/* (a test only where there is no event()) */
	if (kind != EV_HEAD_ARRIVED)
		release_if_finished(s, d, m);
}

bool sim_quiescent(const struct sim *s)
{
	return checker_outstanding(s->checker) == 0 && ni_idle(s->ni) &&
	       s->n_pending_done == 0;
}

/* The deadlock report; false if memory ran out writing it. */
static bool write_deadlock_report(struct sim *s)
{
	FILE *f = open_memstream(&s->report, &s->report_len);
	bool ok;

	if (!f)
		return false;
	fprintf(f, "deadlock: no flit moved for %llu cycles (cycle %llu); %llu deliveries outstanding\n",
		(unsigned long long)s->idle_cycles, (unsigned long long)s->now,
		(unsigned long long)checker_outstanding(s->checker));
	ok = deadlock_write_chains(&s->engine, &s->params, f) >= 0;
	checker_report_missing(s->checker, f, 32);
	ok = !ferror(f) && ok;
	if (fclose(f) || !ok) {
		free(s->report);
		s->report = NULL;
		return false;
	}
	return true;
}

/*
 * This cycle's n ejections in list, after they were counted: each flit to the checker
 * (and to the NI unless arrivals_counted: sinks that never stall, the engine returning
 * their credits), the events it makes to the driver.  Inlined twice, arrivals_counted
 * a constant in each: one loop a mode, without the mode's test for each flit.  False if
 * the run stopped (a check failed).
 */
static inline __attribute__((always_inline)) bool
take_ejections(struct sim *s, const struct driver *d, const struct channel_event *list, int n,
	       const bool arrivals_counted)
{
	/*
	 * In locals: the stores into a record could alias the simulation's fields, which
	 * the compiler would then load again for every flit.
	 */
	struct ejection *const *ej_of = s->ej_of;
	const uint64_t flit_mask = s->flit_mask;
	const struct channel_event *ev = list, *end = list + n;

	for (; ev < end; ev++) {
		struct message *msg;
		bool head_too;
		enum checker_result r;
		struct ejection *ej = &ej_of[ev->node][ev->channel];

		if (!arrivals_counted)
			ni_arrival(s->ni, &ej->ni, ev->node, ev->channel);
		if (checker_body_flit(&ej->rx, ev->flit, flit_mask))
			continue;	/* a body flit, the common case */
		/*
		 * The rest reads the flit's node and channel from the list again (the barrier
		 * lets no value of memory live across it): the body flit's path then keeps
		 * no copies of them for this one (two register copies an ejected body flit).
		 */
		__asm__ volatile("" ::: "memory");
		s->irregular++;
		if (checker_tail_flit(&ej->rx, ev->flit)) {
			/* A generated payload's tail, right: once a message, without the tests below. */
			msg = checker_tail_delivered(s->checker, &ej->rx, s->now);
#ifdef WORMCAST_DEBUG
			if (!msg) {
				set_error(s, "%s", checker_error(s->checker));
				stop(s, SIM_CHECK_FAILED);
				return false;
			}
#endif
			s->last_delivery = s->now;
			emit(s, d, EV_TAIL_ARRIVED, ev->node, msg);
			continue;
		}
		if (!ej->rx.msg)	/* a head: once a message */
			r = checker_head_flit(s->checker, &ej->rx, ev->node, ev->channel, ev->flit,
					      s->now, &msg, &head_too);
		else
			r = checker_flit_other(s->checker, &ej->rx, ev->node, ev->channel,
					       ev->flit, s->now, &msg, &head_too);
		if (r == CHECK_OK)
			continue;	/* a stored word */
		if (r == CHECK_ERROR) {
			/* The flits after this one were not seen: counted up to it. */
			checker_count_flits(s->checker, -(int)(end - ev - 1));
			set_error(s, "%s", checker_error(s->checker));
			stop(s, SIM_CHECK_FAILED);
			return false;
		}
		if ((r == CHECK_HEAD || head_too) && !s->no_head_events)
			emit(s, d, EV_HEAD_ARRIVED, ev->node, msg);
		if (r == CHECK_TAIL) {
			s->last_delivery = s->now;
			emit(s, d, EV_TAIL_ARRIVED, ev->node, msg);
		}
	}
	return true;
}

/*
 * The simulation's state for the fast-forward (fastforward.h), between cycles: its own
 * words, the checker's, the NIs', the network's, and the receptions of the flits the
 * network ejects next.
 */
static void ff_visit(void *ctx, struct ff *f)
{
	struct sim *s = ctx;
	const struct channel_event *list;
	int n;

	/* The stop flag is read once a cycle: set, the next cycle must see it. */
	if (s->cfg.stop && *s->cfg.stop) {
		ff_refuse(f);
		return;
	}
	/*
	 * The cycle limit: a jump may end on it (now + 2k <= max_cycles), where the run
	 * stops with the state the cycles would have left (sim_step()).
	 */
	if (s->cfg.max_cycles)
		ff_limit(f, s->cfg.max_cycles > s->now ? s->cfg.max_cycles - s->now : 0);
	ff_word(f, &s->now, sizeof(s->now), ~0ull);
	ff_control(f, &s->idle_cycles, sizeof(s->idle_cycles));
	ff_control(f, &s->last_delivery, sizeof(s->last_delivery));
	ff_control(f, &s->n_messages, sizeof(s->n_messages));
	ff_control(f, &s->n_pending_done, sizeof(s->n_pending_done));
	ff_control(f, &s->irregular, sizeof(s->irregular));
	checker_ff_visit(s->checker, f);
	ni_ff_visit(s->ni, s->now, f);
	n = network_ejections(s->net, &list);
	for (int k = 0; k < n && !ff_refused(f); k++) {
		struct ejection *ej = &s->ej_of[list[k].node][list[k].channel];

		checker_ff_reception(&ej->rx, s->flit_mask, f);
		ff_control(f, &ej->ni, sizeof(ej->ni));
	}
	if (!ff_refused(f))
		network_ff_visit(s->net, f);
}

/* The cycle limit reached with work outstanding: the run stops (true). */
static bool cycle_limit(struct sim *s)
{
	if (!s->cfg.max_cycles || s->now < s->cfg.max_cycles || sim_quiescent(s))
		return false;
	set_error(s, "cycle limit %llu reached with %llu deliveries outstanding",
		  (unsigned long long)s->cfg.max_cycles,
		  (unsigned long long)checker_outstanding(s->checker));
	stop(s, SIM_CYCLE_LIMIT);
	return true;
}

enum sim_status sim_step(struct sim *s, const struct driver *d)
{
	const struct engine *e = &s->engine;
	const struct channel_event *list;
	struct message **done;
	int n, n_done, progress;

	if (s->stopped)
		return s->status;
	if (s->cfg.stop && *s->cfg.stop) {
		set_error(s, "interrupted at cycle %llu", (unsigned long long)s->now);
		stop(s, SIM_INTERRUPTED);
		return s->status;
	}
	if (s->now == 0 && d && d->start)
		d->start(d->ctx, s);
	if (d && d->tick)
		d->tick(d->ctx, s);

	/* 1. SEND_DONE of last cycle's tails, then this cycle's ejections. */
	if (s->n_pending_done == 0) {
		/* (Most cycles: the hook's test only where a tail left an NI.) */
	} else if (d && d->send_done) {
		/* The narrow hook: the same calls in the same order, no event record. */
		struct send_done_gate *gates = d->send_done_gates;

		for (int k = 0; k < s->n_pending_done; k++) {
			struct message *m = s->pending_done[k];

			m->send_done = true;
			if (!gates || (gates[m->source].done++, gates[m->source].call))
				d->send_done(d->ctx, s, m);
			release_if_finished(s, d, m);
		}
		s->n_pending_done = 0;
	} else {
		for (int k = 0; k < s->n_pending_done; k++)
			emit(s, d, EV_SEND_DONE, s->pending_done[k]->source, s->pending_done[k]);
		s->n_pending_done = 0;
	}
	n = engine_ejections(s, &list);
	/*
	 * The cycle's flits are counted at once, by the checker and (sinks that never stall,
	 * the engine returning their credits) by the NI as drained: the common flit, a right
	 * body flit, then costs its record, a compare and two adds.
	 */
	checker_count_flits(s->checker, n);
	if (s->engine_credits) {
		ni_arrivals_drained(s->ni, n);
		if (!take_ejections(s, d, list, n, true))
			return s->status;
	} else if (!take_ejections(s, d, list, n, false)) {
		return s->status;
	}

	/* 2. NIs drive this cycle's credits and flits. */
	progress = ni_drive(s->ni, e, s->net, s->now, &done, &n_done);
	s->pending_done = done;
	s->n_pending_done = n_done;
	if (ni_out_of_memory(s->ni)) {
		no_memory(s);
		return s->status;
	}
#ifdef WORMCAST_DEBUG
	if (ni_broken(s->ni)) {
		set_error(s, "NI: %s at cycle %llu", ni_broken(s->ni), (unsigned long long)s->now);
		stop(s, SIM_ENGINE_STOPPED);
		return s->status;
	}
#endif

	/* 3. Clock edge. */
	if (engine_step(s)) {
		const char *why = e->ops->stop_reason ? e->ops->stop_reason(e->impl) : "";

		if (why[0])
			set_error(s, "%s", why);
		stop(s, SIM_ENGINE_STOPPED);
		return s->status;
	}
	/*
	 * The C model's injection credits are derived by the NI (ni_derive_credits()); debug
	 * builds count its list too, to compare.
	 */
#ifndef WORMCAST_DEBUG
	if (!s->net)
#endif
	{
		n = engine_inj_credits(s, &list);
		ni_credits_in(s->ni, list, n);
	}
	progress += engine_outputs_valid(s);
	s->now++;

	/* Watchdog: work outstanding, nothing moving, no start-up counting down. */
	if (progress || sim_quiescent(s) || ni_starting(s->ni, s->now))
		s->idle_cycles = 0;
	else if (++s->idle_cycles >= s->cfg.watchdog) {
		set_error(s, "deadlock: no flit moved for %llu cycles, at cycle %llu, with %llu deliveries outstanding",
			  (unsigned long long)s->idle_cycles, (unsigned long long)s->now,
			  (unsigned long long)checker_outstanding(s->checker));
		stop(s, SIM_DEADLOCK);
		if (!write_deadlock_report(s))
			no_memory(s);
		return s->status;
	}
	if (cycle_limit(s))
		return s->status;
	/*
	 * The fast-forward, after a calm cycle (no head, tail or stored word ejected, no
	 * send, no SEND_DONE, the same flits moved: its signature), never with a driver
	 * that acts every cycle (tick()), and only in sim_run() (in_run: a caller of
	 * sim_step() may send between cycles).  Here rather than in sim_run()'s loop: there,
	 * the call changed how the compiler built the loop (direx +1.5 instructions a
	 * flit-hop, in network_step() itself).
	 */
	if (s->ff && s->in_run && !(d && d->tick) &&
	    ff_after_cycle(s->ff, s->irregular + (uint64_t)s->n_messages + (uint64_t)s->n_pending_done +
				  ((uint64_t)engine_outputs_valid(s) << 40), ff_visit, s))
		cycle_limit(s);	/* a jump may end at the limit, as the cycles would have */
	return s->status;
}

enum sim_status sim_run(struct sim *s, const struct driver *d)
{
	s->in_run = true;
	do {
		if (sim_step(s, d) != SIM_DONE || s->stopped) {
			s->in_run = false;
			return s->status;
		}
	} while (!sim_quiescent(s) || (d && d->finished && !d->finished(d->ctx, s)));
	s->in_run = false;
	return SIM_DONE;
}

void sim_get_stats(const struct sim *s, struct sim_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->cycles_run = s->now;
	st->first_send = s->first_send;
	st->last_delivery = s->last_delivery;
	st->messages = (uint64_t)s->n_messages;
	st->deliveries = checker_deliveries(s->checker);
	st->flits_delivered = checker_flits(s->checker);
	st->link_moves = s->engine.ops->link_moves(s->engine.impl);
	st->conflicts_measured = s->engine.ops->conflict_cycles != NULL;
	if (st->conflicts_measured)
		st->conflict_cycles = s->engine.ops->conflict_cycles(s->engine.impl);
	st->delivered_ok = !s->stopped && checker_outstanding(s->checker) == 0;
	if (s->net)
		st->network_core = network_core(s->net);
	if (s->ff) {
		st->ff_jumps = ff_jumps(s->ff);
		st->ff_skipped = ff_skipped(s->ff);
		st->ff_tries = ff_tries(s->ff);
	}
}

void sim_write_report(const struct sim *s, FILE *out)
{
	if (s->report)
		fputs(s->report, out);
	else if (s->error[0])
		fprintf(out, "%s\n", s->error);
}
