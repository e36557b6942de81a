/* SPDX-License-Identifier: MIT */
/*
 * ni.c - network interfaces.  Only channels with work are visited each cycle: an
 * injection channel is on the ready list while the message at its head is past its
 * start-up (asleep, in order of its start, during it), an ejection channel while its
 * receive buffer holds flits or it owes the router a credit.
 */
#include "ni.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fastforward.h"
#include "grow.h"
#include "pair_walk_state.h"

/*
 * An injection channel, 64 bytes.  The data flits of the message at the head of its
 * queue are made as they are offered: a generated word from the last one by an add
 * (sim.h: word i is base + i * step), kept in its flit's place, unmasked.
 */
struct inj_channel {
	/*
	 * The FIFO, linked through message.ni_next: its head and its tail.  A ring of
	 * pointers in an array of its own cost a second cache line per channel, touched at
	 * every send, head and tail, and a signed division (`% cap`) at the send and at
	 * the tail (the division's line had 21 % of the static send's samples on the
	 * exchange, Q_10).  Linked: direx -0.9 instructions a flit-hop, Q_10's data reads
	 * -11 M, D1 misses -0.6 M; no allocation, so a send cannot fail here.
	 */
	struct message *first, *last;
	/*
	 * Cycle from which first's head is offered; while the queue is empty, the cycle
	 * after the previous tail left (the earliest a next message may start from).
	 */
	uint64_t start;
	/*
	 * Its place in the order of the old single list of channels with work (ni.seq):
	 * the ready list is kept in this order, so the flits go into the engine and the
	 * tails into the SEND_DONEs in the order they always did.  While the queue is
	 * empty: the number of its last credit (ni_credits_in()), or its old listing's
	 * (with the C model, set only when a message comes: ni_enqueue()).
	 */
	uint64_t seq;
	union {
		uint64_t want;		/* generated words: the next one << FLIT_KIND_BITS */
		const uint64_t *next;	/* stored words (step 0): the next one */
	};
	uint64_t step;		/* the key's step << FLIT_KIND_BITS, or 0: stored words */
	/*
	 * The pair walk as the engine: its injection input's index (pair_walk_inj_input()),
	 * set once (ni_derive_credits()), so that a flit's credit test and its write do not
	 * compute it from node and channel (cg6 direx 112.93 -> 112.20, uniform 116.41 ->
	 * 115.85; docs/performance.md, "Sixteenth session (ni)").  (Its room was the count
	 * of messages queued, which is whether first is set: the queue ends in a NULL
	 * ni_next.)
	 */
	uint32_t pw_in;
	int left;		/* flits of first still to offer */
	uint16_t node, channel;	/* where it is, for the flits it injects */
	/*
	 * Another engine than the C model: a credit the router returns is counted at once
	 * (ni_credits_in()): it is valid in the cycle after the step that listed it, the
	 * next ni_drive(), and nothing reads the count in between.  With the C model it is
	 * not counted but derived (struct ni's net): depth less what the router's injection
	 * input holds; debug builds count it too and compare.
	 */
	uint8_t credits;
	/*
	 * first's head is the next flit: a flag in the channel, so that a data flit
	 * does not load the message (first, then its length) to tell.
	 */
	bool head_due;
};

_Static_assert(sizeof(struct inj_channel) == 64, "an injection channel is 64 bytes");

/* An ejection channel on the active list: its state and where it is, for its credit. */
struct ej_ref {
	struct ni_ejection *ch;
	uint16_t node;
	uint16_t channel;
};

struct ni {
	int nodes, channels, depth, startup;
	unsigned width;		/* W: for the generated payload words */
	uint64_t flit_mask;	/* the payload's bits in a flit */
	double sink_stall;
	uint64_t rng;
	struct inj_channel *inj;
	struct inj_channel **inj_of;	/* node v's channels: inj + v * channels */
	/*
	 * The ready channels: a message whose start-up is over, in the order of their seq.
	 * A channel in its start-up waits in `sleep` instead (uniform 8x8 at 0.1: 216,000
	 * of the pass's 443,000 visits a 30,000-cycle run were channels in their start-up,
	 * each a data-dependent test and a store).
	 */
	struct inj_channel **inj_active;
	int n_inj_active;
	/*
	 * The channels in their start-up, by start: a ring of sleep_mask + 1 (a power of
	 * two, at least every channel).  A start is the cycle of its send or of the tail
	 * before it plus the start-up, so they come in order and a channel joins at the end.
	 */
	struct inj_channel **sleep;
	unsigned sleep_head, n_sleep, sleep_mask;
	/*
	 * The old list's order.  seq numbers every listing: a send to an idle channel, and
	 * each credit.  A credit's number is an idle channel's place if a message comes to
	 * it before the next pass (its inj_channel.seq >= credit_base: numbered by the last
	 * ni_credits_in()), as the old list held an idle channel listed by a credit until
	 * the next pass.
	 */
	uint64_t seq, credit_base;
	/*
	 * The C model as the engine (ni_derive_credits()), else NULL.  Its credits are not
	 * listed to the NI: each step's take the block of numbers from credit_base, channel
	 * (node, channel) the number credit_base + node * channels + channel (the list's
	 * order, node then channel), and a send to an idle channel asks the router whether
	 * it returned that channel a credit in the last step (network_inj_credited()).  A
	 * channel's credit is the depth less what the router's injection input holds
	 * (network_inj_held()): the flits it drove and the credits that came back, with
	 * the step's latency, as the list counted them.  No list is made, walked or
	 * counted (the network's loop listed each credit): cg6 direx 150.19 -> 140.75,
	 * uniform 201.82 -> 185.57 instructions a flit-hop, CPU direx 1.06x, uniform 1.04x
	 * (docs/performance.md, thirteenth session (inj)).
	 */
	struct network *net;
#ifdef WORMCAST_DEBUG
	/*
	 * With net: the listing numbers as the credit list gave them (ni_credits_in() is
	 * called with the network's list in debug builds), per channel, for the checks
	 * that the derived ones order the channels alike.
	 */
	uint64_t *list_seq, list_next, list_base;
#endif
	struct ej_ref *ej_active;
	int n_ej_active;
	struct message **done;
	int cap_done;
	/*
	 * Sinks that never stall, with an engine that returns their credits itself
	 * (ni_engine_returns_credits()): arrivals are only counted, as flits drained
	 * (progress, ni_arrivals_drained()), and no channel is ever listed.
	 */
	bool engine_credits;
	int drained;
	bool out_of_memory;	/* a SEND_DONE could not be recorded */
	const char *broken;	/* debug builds: a broken invariant of the NI, or NULL */
};

struct ni *ni_create(int nodes, int channels, int depth, int startup, double sink_stall,
		     uint64_t seed, unsigned width)
{
	struct ni *n = calloc(1, sizeof(*n));
	size_t total = (size_t)nodes * (size_t)channels, ring = 1;

	if (!n)
		return NULL;
	n->nodes = nodes;
	n->channels = channels;
	n->depth = depth;
	n->startup = startup;
	n->width = width;
	n->flit_mask = payload_mask(width) << FLIT_KIND_BITS;
	n->sink_stall = sink_stall;
	n->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	/*
	 * Each channel on one cache line: calloc() gave this array (mmap()ed from 128 KB
	 * on, at a page's start plus 16) channels that straddled two lines, and the pass
	 * touches both at every flit (the word and its step on one, the count, the node
	 * and the credits on the other).
	 */
	n->inj = aligned_alloc(64, total * sizeof(*n->inj));	/* (each set whole below) */
	n->inj_active = malloc(sizeof(*n->inj_active) * total);
	n->ej_active = malloc(sizeof(*n->ej_active) * total);
	n->inj_of = malloc(sizeof(*n->inj_of) * (size_t)nodes);
	while (ring < total)
		ring *= 2;
	n->sleep = malloc(sizeof(*n->sleep) * ring);
	n->sleep_mask = (unsigned)ring - 1;
	/*
	 * Numbers from 1: a channel's seq starts at 0, below every credit_base, so a send
	 * to a channel no credit came to takes a number of its own (from 0, every first
	 * send after a ni_credits_in() without credits took 0: the debug check of the
	 * ready list's order caught two channels with the same number).
	 */
	n->seq = 1;
	n->credit_base = UINT64_MAX;
#ifdef WORMCAST_DEBUG
	n->list_seq = calloc(total, sizeof(*n->list_seq));
	n->list_next = 1;
	n->list_base = UINT64_MAX;
	if (!n->list_seq) {
		ni_destroy(n);
		return NULL;
	}
#endif
	if (!n->inj || !n->inj_active || !n->ej_active || !n->sleep || !n->inj_of) {
		ni_destroy(n);
		return NULL;
	}
	for (int v = 0; v < nodes; v++)
		n->inj_of[v] = &n->inj[(size_t)v * (size_t)channels];
	for (size_t k = 0; k < total; k++)
		n->inj[k] = (struct inj_channel){
			.credits = (uint8_t)depth, .node = (uint16_t)(k / (size_t)channels),
			.channel = (uint16_t)(k % (size_t)channels),
		};
	return n;
}

void ni_destroy(struct ni *n)
{
	if (!n)
		return;
	free(n->inj);
	free(n->inj_of);
	free(n->inj_active);
	free(n->ej_active);
	free(n->sleep);
	free(n->done);
#ifdef WORMCAST_DEBUG
	free(n->list_seq);
#endif
	free(n);
}

void ni_derive_credits(struct ni *n, struct network *net)
{
	const struct pair_walk *pw = network_pair_walk(net);

	n->net = net;
	if (pw)
		for (int k = 0; k < n->nodes * n->channels; k++)
			n->inj[k].pw_in = (uint32_t)pair_walk_inj_input(pw, n->inj[k].node,
									n->inj[k].channel);
}

/* Channel ch, whose start-up is over, into the ready list at its seq's place. */
static void make_ready(struct ni *n, struct inj_channel *ch)
{
	struct inj_channel **r = n->inj_active;
	int i = n->n_inj_active++;

	for (; i > 0 && r[i - 1]->seq > ch->seq; i--)
		r[i] = r[i - 1];
	r[i] = ch;
}

/* (Out of line: a start earlier than the last one's, which the simulation never makes.) */
static __attribute__((noinline)) void sleep_in_order(struct ni *n, struct inj_channel *ch)
{
	unsigned i = n->n_sleep++;

	for (; i > 0 && n->sleep[(n->sleep_head + i - 1) & n->sleep_mask]->start > ch->start; i--)
		n->sleep[(n->sleep_head + i) & n->sleep_mask] =
			n->sleep[(n->sleep_head + i - 1) & n->sleep_mask];
	n->sleep[(n->sleep_head + i) & n->sleep_mask] = ch;
}

/*
 * Channel ch, in its start-up, to sleep till its start: at the end, as a start is the
 * cycle of its send, or after its tail, plus the start-up, and they come in order.
 */
static inline void make_asleep(struct ni *n, struct inj_channel *ch)
{
	unsigned end = (n->sleep_head + n->n_sleep) & n->sleep_mask;

	if (n->n_sleep && n->sleep[(end - 1) & n->sleep_mask]->start > ch->start) {
		sleep_in_order(n, ch);
		return;
	}
	n->sleep[end] = ch;
	n->n_sleep++;
}

/*
 * Message m comes to the head of ch's queue, not before cycle free_from: its start-up
 * and its first data word.
 */
static void load_message(const struct ni *n, struct inj_channel *ch, const struct message *m,
			 uint64_t free_from)
{
	uint64_t from = m->send_cycle > free_from ? m->send_cycle : free_from;

	ch->left = m->len;
	ch->head_due = true;
	ch->start = from + (uint64_t)n->startup - 1;
	if (m->stored) {
		ch->next = m->data;
		ch->step = 0;
	} else {
		ch->want = m->key.base << FLIT_KIND_BITS;
		ch->step = m->key.step << FLIT_KIND_BITS;
	}
}

void ni_enqueue(struct ni *n, struct message *m, uint64_t now)
{
	int k = m->source * n->channels + m->channel;
	struct inj_channel *ch = &n->inj[k];

	m->ni_next = NULL;
	if (!ch->first) {
		/*
		 * Listed now, or at its credit if one came since the last pass (an idle
		 * channel's seq is its last credit's number, or its listing's before the
		 * last ni_credits_in(): below credit_base; with the C model, the router
		 * tells whether a credit came in the last step).
		 */
		if (n->net) {
			bool credited = network_inj_credited(n->net, m->source, m->channel);

#ifdef WORMCAST_DEBUG
			if (credited != (n->list_seq[k] >= n->list_base))
				n->broken = "a send found a credit in the router the credit list had not";
			if (n->list_seq[k] < n->list_base)
				n->list_seq[k] = n->list_next++;
#endif
			ch->seq = credited ? n->credit_base + (uint64_t)k : n->seq++;
		} else if (ch->seq < n->credit_base) {
			ch->seq = n->seq++;
		}
		ch->first = m;
		load_message(n, ch, m, ch->start);
		if (ch->start <= now)
			make_ready(n, ch);
		else
			make_asleep(n, ch);
	} else {
		ch->last->ni_next = m;
	}
	ch->last = m;
}

void ni_engine_returns_credits(struct ni *n)
{
	n->engine_credits = true;
}

void ni_arrivals_drained(struct ni *n, int count)
{
	n->drained += count;
}

void ni_arrival(struct ni *n, struct ni_ejection *ej, int node, int channel)
{
	unsigned st = ej->state;

	ej->state = (uint8_t)(st | NI_EJ_ARRIVED | NI_EJ_LISTED);
	if (!(st & NI_EJ_LISTED))
		n->ej_active[n->n_ej_active++] = (struct ej_ref){
			.ch = ej, .node = (uint16_t)node, .channel = (uint16_t)channel };
}

void ni_credits_in(struct ni *n, const struct channel_event *list, int count)
{
	/*
	 * In locals: a credit is a byte store, which may alias anything, so the NI's fields
	 * would be loaded again for each one.  No channel is listed here: an idle one takes
	 * the credit's number in its seq (ni_enqueue()), a busy one keeps its own; a select,
	 * not a test, in the line the credit writes anyway (an array of the numbers apart
	 * was a line more a credit: 90 KB on Q_10).  A channel is found through its node's
	 * row (the index's multiply was two instructions more a credit).
	 */
	struct inj_channel *const *inj_of = n->inj_of;
	uint64_t seq = n->seq;

#ifdef WORMCAST_DEBUG
	/* The C model's credits are derived: counted here only, for the debug checks. */
	if (n->net) {
		n->list_base = n->list_next;
		for (int k = 0; k < count; k++) {
			struct inj_channel *ch = &inj_of[list[k].node][list[k].channel];

			ch->credits++;
			if (!ch->first)
				n->list_seq[ch - n->inj] = n->list_next;
			n->list_next++;
		}
		return;
	}
#endif
	n->credit_base = seq;
	for (const struct channel_event *ev = list, *end = list + count; ev < end; ev++) {
		struct inj_channel *ch = &inj_of[ev->node][ev->channel];
		uint64_t own = ch->seq;

		ch->credits++;
		ch->seq = ch->first ? own : seq;
		seq++;
	}
	n->seq = seq;
}

/*
 * xorshift64*: the sink stalls are reproducible from the seed.  Drawn once per
 * cycle for every channel that holds or receives a flit.
 */
static inline bool sink_ready(struct ni *n)
{
	if (n->sink_stall <= 0)
		return true;
	n->rng ^= n->rng >> 12;
	n->rng ^= n->rng << 25;
	n->rng ^= n->rng >> 27;
	return (double)((n->rng * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0 >=
	       n->sink_stall;
}

/*
 * The credit of a drained flit goes back to the router of (node, channel): to the C
 * model directly when it is the engine (net), else through the engine's table.
 */
static inline void return_credit(const struct engine *e, struct network *net, int node, int channel)
{
	if (net)
		network_return_credit(net, node, channel);
	else
		e->ops->return_credit(e->impl, node, channel);
}

/*
 * The next data flit of ch's message (past its head, which is m->head): its word is made
 * and the next one readied; the last one is the tail.
 */
static inline flit_t next_data_flit(const struct ni *n, struct inj_channel *ch, uint64_t flit_mask)
{
	unsigned kind = ch->left == 1 ? FLIT_TAIL : FLIT_BODY;
	flit_t f;

	if (ch->step) {
		f = (ch->want & flit_mask) | kind;
		ch->want += ch->step;
		return f;
	}
	return flit_make(kind, *ch->next++, n->width);
}

/*
 * The injection side of ni_drive(): the channels whose start-up ends now join the ready
 * list, and each ready one offers its next flit where credit allows; the messages whose
 * tail goes are appended to n->done.  Returns the flits injected.  Inlined three times,
 * for the C model's routers (net), its pair walk (net and pw) and another engine (net
 * NULL), so that a flit does not test which.
 */
static inline __attribute__((always_inline)) int
inject_pass(struct ni *n, const struct engine *e, struct network *net, struct pair_walk *pw,
	    uint64_t now, int *n_done)
{
	int nd = 0, progress = 0;
	struct inj_channel **const active = n->inj_active;
	/* A pointer, not an index: no sign extension a kept channel. */
	struct inj_channel **kept = active;
	const uint64_t flit_mask = n->flit_mask;
	const int depth = n->depth;
	/* The pair walk's ring shape in registers (the pass's stores could alias its fields). */
	flit_t *const pw_buf = pw ? pw->buf : NULL;
	const int pw_rs = pw ? pw->ring_shift : 0;
	const uint32_t pw_rm = pw ? pw->ring_mask : 0;
	int count;

	/*
	 * With the C model (net), the numbers of the credits of the step that follows: a
	 * block of a number per channel (struct ni's net).
	 */
	if (net) {
		n->credit_base = n->seq;
		n->seq += (uint64_t)n->nodes * (uint64_t)n->channels;
	}
	while (n->n_sleep && n->sleep[n->sleep_head]->start <= now) {
		make_ready(n, n->sleep[n->sleep_head]);
		n->sleep_head = (n->sleep_head + 1) & n->sleep_mask;
		n->n_sleep--;
	}
	count = n->n_inj_active;
	for (int a = 0; a < count; a++) {
		struct inj_channel *ch = active[a];
		/* (Its input's record under the pair walk: read once, for the test and the write.) */
		struct pw_input *const x = pw ? &pw->in[ch->pw_in] : NULL;

#ifdef WORMCAST_DEBUG
		if (!ch->first || now < ch->start)
			n->broken = "a ready injection channel has no message or is in its start-up";
		else if (ch->head_due != (ch->left == ch->first->len))
			n->broken = "an injection channel's head_due disagrees with its flits left";
		else if (a > 0 && active[a - 1]->seq >= ch->seq)
			n->broken = "the ready injection channels are out of order";
		else if (net && a > 0 && n->list_seq[active[a - 1] - n->inj] >= n->list_seq[ch - n->inj])
			n->broken = "the ready injection channels are not in the credit list's order";
		else if (pw && ch->pw_in != (uint32_t)pair_walk_inj_input(pw, ch->node, ch->channel))
			n->broken = "an injection channel's input in the pair walk is not its node's "
				    "and channel's";
		else if (net && ch->credits != depth - network_inj_held(net, ch->node, ch->channel))
			n->broken = "an injection channel's credits are not the depth less what its "
				    "router's input holds";
#endif
		/* (Its start-up is over: it is ready.) */
		if (pw ? (int)(x->wr - x->rd) < depth :
		    net ? network_routers_inj_held(net, ch->node, ch->channel) < depth :
			  ch->credits > 0) {
			struct message *m;
			flit_t f;

			/* (The head's branch also notes its cycle: one test for the head.) */
			if (ch->head_due) {
				m = ch->first;
				f = m->head;
				m->head_cycle = now;
				ch->head_due = false;
				if (pw)
					pw_inject_head(pw, x, (int32_t)ch->pw_in);
			} else {
				f = next_data_flit(n, ch, flit_mask);
			}

			if (pw)
				pw_inject_write(x, pw_buf, (int32_t)ch->pw_in, f, pw_rs, pw_rm);
			else if (net)
				network_routers_inject(net, ch->node, ch->channel, f);
			else
				e->ops->inject(e->impl, ch->node, ch->channel, f);
#ifndef WORMCAST_DEBUG
			if (!net)
#endif
				ch->credits--;
			progress++;
			if (--ch->left == 0) {
				m = ch->first;
				m->tail_cycle = now;
				if (nd == n->cap_done) {
					size_t cap = (size_t)n->cap_done;
					struct message **p = grow_array(n->done, &cap, cap + 1,
									sizeof(*p), 64, INT_MAX);

					if (p) {
						n->done = p;
						n->cap_done = (int)cap;
					}
				}
				/* A lost SEND_DONE would stall its driver: the run must stop. */
				if (nd < n->cap_done)
					n->done[nd++] = m;
				else
					n->out_of_memory = true;
				ch->first = m->ni_next;
				if (!ch->first) {
					ch->start = now + 1;	/* idle: it leaves the list */
					continue;
				}
				load_message(n, ch, ch->first, now + 1);
				if (ch->start > now + 1) {
					make_asleep(n, ch);	/* its start-up: out of the list */
					continue;
				}
			}
		}
		*kept++ = ch;
	}
	n->n_inj_active = (int)(kept - active);
	*n_done = nd;
	return progress;
}

/*
 * flatten: the C model's network_routers_inject() and network_return_credit() inlined
 * (they have other callers, so link-time optimisation would otherwise keep them calls).
 */
__attribute__((flatten)) int
ni_drive(struct ni *n, const struct engine *e, struct network *net, uint64_t now,
	 struct message ***done, int *n_done)
{
	/* (net: the C model is called directly, two calls through the table a flit saved.) */
	int progress = n->drained, nd = 0;
	int kept;

	/* Ejection side: credit register out, then this cycle's drain. */
	n->drained = 0;
	kept = 0;
	if (n->sink_stall <= 0) {
		struct ej_ref *list = n->ej_active;
		int count = n->n_ej_active;

		/*
		 * Sinks that never stall: a flit that arrives is drained at once (the buffer
		 * stays empty) and its credit goes back in the next cycle.  The loop below
		 * with its count always 0 and its sink always ready, in fewer steps: the same
		 * channels stay listed in the same order.
		 */
		for (int a = 0; a < count; a++) {
			struct ej_ref ref = list[a];
			unsigned st = ref.ch->state;

			if (st & NI_EJ_CREDIT)
				return_credit(e, net, ref.node, ref.channel);
			if (st & (NI_EJ_ARRIVED | NI_EJ_CREDIT)) {
				/* The credit register loads "a flit was drained". */
				ref.ch->state = (uint8_t)(NI_EJ_LISTED | (st & NI_EJ_ARRIVED) << 1);
				progress += (int)(st & NI_EJ_ARRIVED);
				if (kept != a)
					list[kept] = ref;
				kept++;
			} else {
				ref.ch->state = 0;
			}
		}
	} else {
		for (int a = 0; a < n->n_ej_active; a++) {
			struct ej_ref ref = n->ej_active[a];
			struct ni_ejection *ch = ref.ch;
			unsigned st = ch->state, credit = 0;

			if (st & NI_EJ_CREDIT)
				return_credit(e, net, ref.node, ref.channel);
			if (st & NI_EJ_ARRIVED)
				ch->count++;
			/* Drain one flit; an arriving flit into an empty buffer is bypassed. */
			if (ch->count > 0 && sink_ready(n)) {
				ch->count--;
				credit = NI_EJ_CREDIT;
				progress++;
			}
			/* (A credit returned now keeps the channel listed one more cycle, as ever.) */
			if (ch->count > 0 || credit || (st & NI_EJ_CREDIT)) {
				ch->state = (uint8_t)(NI_EJ_LISTED | credit);
				n->ej_active[kept++] = ref;
			} else {
				ch->state = 0;
			}
		}
	}
	n->n_ej_active = kept;

	/*
	 * Injection side (the C model called directly, or the engine's table).  Under the
	 * pair walk a flit is written once, into its input's ring (pair_walk_inject()),
	 * not driven onto the routers' wires and taken from there in the step (60
	 * instructions an injected flit, docs/performance.md, fourteenth session (pair)).
	 * The hint says the walk is not expected, as when it was off by default: the
	 * routers' instantiation keeps its registers (without: cg6 direx 140.85 against
	 * 139.99 with the routers, uniform 186.45 against 186.23; main 139.69 and 185.84);
	 * the walk's figures (docs/performance.md) are measured with the hint as it is.
	 */
	struct pair_walk *pw = net ? network_pair_walk(net) : NULL;

	if (__builtin_expect(pw != NULL, 0))
		progress += inject_pass(n, e, net, pw, now, &nd);
	else if (net)
		progress += inject_pass(n, e, net, NULL, now, &nd);
	else
		progress += inject_pass(n, e, NULL, NULL, now, &nd);
	*done = n->done;
	*n_done = nd;
	return progress;
}

bool ni_out_of_memory(const struct ni *n)
{
	return n->out_of_memory;
}

const char *ni_broken(const struct ni *n)
{
	return n->broken;
}

void ni_corrupt(struct ni *n, int what)
{
	for (int k = 0; what == 0 && k < n->nodes * n->channels; k++)
		n->inj[k].pw_in ^= 1;	/* another channel's input of its node */
}

/* Every channel with a message is ready or asleep. */
bool ni_idle(const struct ni *n)
{
	if (n->n_inj_active || n->n_sleep)
		return false;
	for (int a = 0; a < n->n_ej_active; a++)
		if (n->ej_active[a].ch->count > 0)
			return false;
	return true;
}

/*
 * Only a sleeper can be in its start-up: a channel joins the ready list once its start
 * has come (the pass's debug check).  The sleepers are in order of start: the last
 * one's is the latest.
 */
bool ni_starting(const struct ni *n, uint64_t now)
{
	return n->n_sleep &&
	       now < n->sleep[(n->sleep_head + n->n_sleep - 1) & n->sleep_mask]->start;
}

/*
 * The NIs' state for the fast-forward (fastforward.h), at cycle now.  Only with the C
 * model as the engine and sinks that never stall (no ejection channel is ever listed).
 * A ready channel streams a generated payload (stored words are no progression:
 * refused): its next word and its listing numbers are data, its flits left a count
 * kept above 1 (no tail in a jump); the first sleeper's start limits the jump.  The
 * credits are the routers' (struct ni's net), which the network's visit sees.
 */
void ni_ff_visit(struct ni *n, uint64_t now, struct ff *f)
{
	if (!n->engine_credits || !n->net || n->n_ej_active) {
		ff_refuse(f);
		return;
	}
	ff_word(f, &n->seq, sizeof(n->seq), ~0ull);
	ff_word(f, &n->credit_base, sizeof(n->credit_base), ~0ull);
	ff_control(f, &n->drained, sizeof(n->drained));
	ff_control(f, &n->n_inj_active, sizeof(n->n_inj_active));
	ff_control(f, n->inj_active, sizeof(*n->inj_active) * (size_t)n->n_inj_active);
	for (int a = 0; a < n->n_inj_active && !ff_refused(f); a++) {
		struct inj_channel *ch = n->inj_active[a];

		if (!ch->step || ch->head_due) {
			ff_refuse(f);
			return;
		}
		ff_control(f, ch, offsetof(struct inj_channel, want));
		ff_word(f, &ch->want, sizeof(ch->want), ~0ull);
		ff_control(f, &ch->step, sizeof(ch->step) + sizeof(ch->pw_in));
		ff_count(f, &ch->left, 1);
		ff_control(f, &ch->node, sizeof(*ch) - offsetof(struct inj_channel, node));
	}
#ifdef WORMCAST_DEBUG
	/* The debug builds' credit list, as the NI kept it before (ni_credits_in()). */
	{
		const struct channel_event *list;
		int count = network_inj_credits(n->net, &list);

		ff_word(f, &n->list_next, sizeof(n->list_next), ~0ull);
		ff_word(f, &n->list_base, sizeof(n->list_base), ~0ull);
		for (int a = 0; a < n->n_inj_active && !ff_refused(f); a++)
			ff_control(f, &n->list_seq[n->inj_active[a] - n->inj], sizeof(*n->list_seq));
		for (int k = 0; k < count && !ff_refused(f); k++) {
			struct inj_channel *ch = &n->inj_of[list[k].node][list[k].channel];

			if (!ch->first) {
				ff_word(f, &n->list_seq[ch - n->inj], sizeof(*n->list_seq), ~0ull);
				ff_control(f, &ch->credits, sizeof(ch->credits));
			}
		}
	}
#endif
	ff_control(f, &n->n_sleep, sizeof(n->n_sleep));
	ff_control(f, &n->sleep_head, sizeof(n->sleep_head));
	if (n->n_sleep) {
		uint64_t start = n->sleep[n->sleep_head]->start;

		/* Steps now .. now + 2k - 1 make no sleeper ready: 2k <= start - now. */
		ff_limit(f, start > now ? start - now : 0);
	}
}
