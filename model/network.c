/* SPDX-License-Identifier: MIT */
/*
 * network.c - routers wired into a network.  Each cycle, every busy router is
 * evaluated and committed (the two phases of the RTL), router by router in a single
 * pass over the active set, in node order: see network_step().
 *
 * Only routers with something to do are evaluated: a router is put on the next
 * cycle's active set when a neighbour puts a flit or a credit on a wire towards it,
 * when the NI drives one of its channels, or when it still holds flits or non-zero
 * output registers.  An idle router's evaluation would change nothing (its
 * registers would keep their values), so skipping it is exact, and a broadcast on
 * Q_12 costs time in proportion to the flits that move, not to 4096 routers.
 */
#include "network.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastforward.h"
#include "huge_pages.h"
#include "pair_walk_state.h"
#include "router_sanity.h"

struct network {
	struct router_params params;
	struct topology topo;	/* own copy: params.topo points here */
	int channels;		/* J = E */
	struct router *routers;	/* in routers_mem, aligned to a line */
	void *routers_mem;
	/*
	 * Every router's FIFOs (router_init()), one block of zero pages: a page is touched
	 * only once a flit is buffered there, so the pair walk, which buffers in its rings,
	 * touches none (pbcast Q_12 L = 4096 under the pair walk: 4 MB less at its peak).
	 */
	flit_t *fifo;

	/*
	 * Wiring: link output p of node v drives input peer[p] of node
	 * (v ^ hop_xor[p]) + hop_add[p] (the hypercube flips bit p; the mesh adds
	 * +-1 or +-cols).  A few words instead of a table per node.
	 */
	int hop_xor[TOPO_MAX_PORTS], hop_add[TOPO_MAX_PORTS], peer[TOPO_MAX_PORTS];
	/* Rings and tori: the neighbour across every port (node * P + p), since links wrap. */
	int *nbr;
	int vcs, links;		/* V; P*V virtual link ports per router (section 12) */

	/*
	 * The active sets: active[c & 1][v] says that router v is evaluated in cycle c.
	 * Scanned in node order, so that the ejections and the injection credits of a
	 * cycle are listed in node order, then channel order, as
	 * docs/microarchitecture.md section 9 requires of every engine (the RTL's read
	 * their registers in that order).  Waking a router is one store, with no test
	 * and no list; the scan reads eight flags at a time (set_word()).  A byte per
	 * router, not a bit map: an OR of a computed bit into a computed word is six
	 * instructions a wake, and a router is woken three or four times a flit-hop
	 * (docs/performance-history.md, sixth session (engine), tried and not kept).
	 */
	uint8_t *active[2];
	int words;		/* per set: eight flags each, (nodes + 7) / 8 */
	/*
	 * Meshes of at most 64 routers (small): the active sets are the bits of
	 * small_set[c & 1] instead, bit v for router v, so that the scan is one word with
	 * no clearing of flags, a router's number one ctz, and the loop's wakes go into a
	 * register, one bts each (the set of the next cycle, stored once at the end of the
	 * step).  Uniform 8x8 traffic: 209.51 -> 207.31 instructions a flit-hop, 1.04x CPU
	 * (docs/performance-history.md, tenth session (skel)).
	 */
	bool small;
	uint64_t small_set[2];
	int *evaluated;		/* debug builds: the routers of the last step, for network_sanity() */
	uint64_t cycle;		/* cycle being prepared (inputs being driven) */

	/*
	 * NI-facing outputs of the current registers: the ejections, listed by the loop.
	 * Behind the last entry: a pointer, not a count, so that an entry's address is not
	 * computed again from the count (2.0, 1.0 and 0.6 instructions per flit-hop on the
	 * three counted workloads: docs/performance-history.md, sixth session (engine),
	 * 035b6e0).
	 */
	struct channel_event *ej, *ej_end;
	/*
	 * The injection credits are not listed by the loop: they are the injection bits of
	 * the credit registers (credit_out_q), which the NI of the C model reads itself
	 * (network_inj_held(), network_inj_credited()).  inj_credit is filled from them
	 * only for a caller that wants the list (network_inj_credits(): an engine that
	 * wraps the model).  Debug builds list them in the loop too, as the loop did
	 * before (inj_ref), and compare the two after each step.
	 */
	struct channel_event *inj_credit;
#ifdef WORMCAST_DEBUG
	struct channel_event *inj_ref, *inj_ref_end;
#endif

	/*
	 * Sinks that never stall, the NIs' credits left to the engine
	 * (network_return_ejection_credits()): ejection outputs, else 0.
	 */
	uint32_t sink_credits;

	uint64_t link_moves;
	uint64_t conflict_cycles;
	int last_moves;
	char sanity_error[320];	/* debug builds: the first broken invariant, or "" */
	/*
	 * The pair walk (network_use_pair_walk()), or NULL: the routers step.  The
	 * functions the sim calls once a cycle test it (network_step(), the lists and
	 * counters); those the NI's loops call for each channel do not
	 * (network_routers_inject(), network_routers_inj_held()).
	 */
	struct pair_walk *pw;
};

/* Put router v into the active set `set` (of the cycle whose wires are being driven). */
static inline void wake(uint8_t *set, int v)
{
	set[v] = 1;
}

/*
 * The loop's wake: into the bits of the next cycle's set (*bits, a local of the loop,
 * kept in a register) in a small network, else into its flags.  small is a constant in
 * each copy of the loop.  The loop's node numbers (v, w) are unsigned: a 32-bit result
 * indexes as it is (zero-extended), where an int took a sign extension (movslq) at each
 * wake and address: cg6 pbcast 131.80 -> 130.80, direx 150.05 -> 149.05; CPU best /
 * median of 11, both orders: pbcast 1.036x / 1.017x, 1.020x / 1.014x, direx 1.010x /
 * 1.008x, 1.009x / 1.008x, uniform 1.002x / 1.006x (docs/performance.md, eleventh
 * session (skel), round 2).
 */
static inline __attribute__((always_inline)) void
wake_next(uint8_t *next, uint64_t *bits, bool small, unsigned int v)
{
	if (small) {
#if defined(__x86_64__)
		/*
		 * One bts, where the compiler's shift and or took three and a register
		 * (uniform 8x8: 214.55 instructions a flit-hop against 207.31).
		 */
		__asm__("btsq %q1, %0" : "+r"(*bits) : "r"((uint64_t)v) : "cc");
#else
		*bits |= 1ull << v;
#endif
	} else
		next[v] = 1;
}

/* Outside the loop: router v into the set of the cycle n->cycle (the NI's wires). */
static inline void wake_now(struct network *n, int v)
{
	if (n->small)
		n->small_set[n->cycle & 1] |= 1ull << v;
	else
		wake(n->active[n->cycle & 1], v);
}

/*
 * Flags 8w..8w+7 of an active set as a word: flag 8w + k is bit 8k (byte k in
 * memory order), so the lowest set bit is the lowest node.
 */
static inline uint64_t set_word(const uint8_t *set, int w)
{
	uint64_t b;

	memcpy(&b, set + 8 * w, sizeof(b));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	b = __builtin_bswap64(b);
#endif
	return b;
}

/* The node of the lowest flag of word w of an active set, whose value is b != 0. */
static inline int set_first(int w, uint64_t b)
{
	return 8 * w + (__builtin_ctzll(b) >> 3);
}

/*
 * Off the loop (the readout of the injection credits, the fast-forward's visit, the
 * debug checks): the active set of slot, whichever form it has (small: one word of
 * bits, else a flag a router read eight at a time), word by word in node order.  The
 * loop keeps its own copies (step_routers()), compiled for each form.
 */
static inline int active_words(const struct network *n)
{
	return n->small ? 1 : n->words;
}

static inline uint64_t active_word(const struct network *n, int slot, int w)
{
	return n->small ? n->small_set[slot] : set_word(n->active[slot], w);
}

/* The node of the lowest router of word w, whose value is b != 0. */
static inline int active_first(const struct network *n, int w, uint64_t b)
{
	return n->small ? __builtin_ctzll(b) : set_first(w, b);
}

struct network *network_create(const struct router_params *params)
{
	struct network *n = calloc(1, sizeof(*n));
	const struct topology *t;
	int nodes = params->topo->nodes;
	/* Each router's part of fifo (router_init()). */
	size_t fifo_flits = router_fifo_flits(params);

	if (!n)
		return NULL;
	n->topo = *params->topo;
	n->params = *params;
	n->params.topo = &n->topo;
	t = &n->topo;
	n->vcs = t->vcs;
	n->links = topology_link_vports(t);
	/* E: one ejection channel per virtual link input (section 12); J = P. */
	n->channels = params->all_port ? n->links : 1;
	/*
	 * calloc()'s zero pages (one router more: room to align), not aligned_alloc() and
	 * a memset() of them all, which router_init() then writes again: pbcast Q_12
	 * L = 4096, 5 million instructions of 60 either way; CPU best of 9 0.0137 ->
	 * 0.0128 s (routers), 0.0188 -> 0.0174 s (pair walk).
	 */
	n->routers_mem = calloc((size_t)nodes + 1, sizeof(*n->routers));
	n->routers = (struct router *)(((uintptr_t)n->routers_mem + 63) & ~(uintptr_t)63);
	n->fifo = calloc((size_t)nodes * fifo_flits, sizeof(*n->fifo));
	n->words = (nodes + 7) / 8;
	n->active[0] = calloc((size_t)n->words, 8);
	n->active[1] = calloc((size_t)n->words, 8);
	n->evaluated = malloc(sizeof(int) * (size_t)nodes);
	n->ej = malloc(sizeof(*n->ej) * (size_t)nodes * (size_t)n->channels);
	n->inj_credit = malloc(sizeof(*n->inj_credit) * (size_t)nodes * (size_t)n->channels);
#ifdef WORMCAST_DEBUG
	n->inj_ref = malloc(sizeof(*n->inj_ref) * (size_t)nodes * (size_t)n->channels);
	if (!n->inj_ref)
		goto fail;
	n->inj_ref_end = n->inj_ref;
#endif
	if (!n->routers_mem || !n->fifo || !n->active[0] || !n->active[1] || !n->evaluated ||
	    !n->ej || !n->inj_credit)
		goto fail;
	huge_pages(n->routers_mem, sizeof(*n->routers) * ((size_t)nodes + 1));
	for (int v = 0; v < nodes; v++)
		if (router_init(&n->routers[v], &n->params, v,
				n->fifo + (size_t)v * fifo_flits))
			goto fail;
	for (int p = 0; p < t->ports; p++) {
		n->peer[p] = topology_peer_port(t, p);
		if (t->kind == TOPO_HYPERCUBE)
			n->hop_xor[p] = 1 << p;
		else
			n->hop_add[p] = p == PORT_E ? 1 : p == PORT_W ? -1 :
					p == PORT_N ? -t->cols : t->cols;
	}
	if (topology_wraps(t)) {
		n->nbr = malloc(sizeof(int) * (size_t)nodes * (size_t)t->ports);
		if (!n->nbr)
			goto fail;
		for (int v = 0; v < nodes; v++)
			for (int p = 0; p < t->ports; p++)
				n->nbr[v * t->ports + p] = topology_neighbor(t, v, p);
	}
	/* The formula must agree with the topology wherever a link exists. */
	for (int v = 0; v < nodes && !n->nbr; v++)
		for (int p = 0; p < t->ports; p++) {
			int w = topology_neighbor(t, v, p);

			if (w >= 0 && w != ((v ^ n->hop_xor[p]) + n->hop_add[p]))
				goto fail;
		}
	for (int v = 0; v < nodes && !n->nbr && n->vcs == 1; v++)
		for (int p = 0; p < t->ports; p++) {
			int w = topology_neighbor(t, v, p);

			if (w >= 0)
				n->routers[v].link_offset[p] = (int32_t)(sizeof(*n->routers) * (size_t)w);
		}
	n->ej_end = n->ej;
	n->cycle = 0;
	/*
	 * The mesh's wiring only (network_step()): the one small network of the counted
	 * workloads, for one more copy of the loop, not three.
	 */
	n->small = nodes <= 64 && !n->nbr && n->vcs == 1 && t->kind != TOPO_HYPERCUBE;
	return n;
fail:
	network_destroy(n);
	return NULL;
}

void network_destroy(struct network *n)
{
	if (!n)
		return;
	free(n->routers_mem);
	free(n->fifo);
	free(n->nbr);
	free(n->active[0]);
	free(n->active[1]);
	free(n->evaluated);
	free(n->ej);
	free(n->inj_credit);
#ifdef WORMCAST_DEBUG
	free(n->inj_ref);
#endif
	pair_walk_destroy(n->pw);
	free(n);
}

const struct router_params *network_params(const struct network *n) { return &n->params; }
int network_channels(const struct network *n) { return n->channels; }
const struct router *network_router(const struct network *n, int node) { return &n->routers[node]; }

/*
 * The injection input and ejection output channel c of a router are n_link + c: the
 * network's links (the same P*V for every router), so that the NI's wires and the
 * steady cycle do not touch a router's second line for it (its constants), only the
 * lines they write.  Uniform 8x8 0.1, CPU best of 11 interleaved against the same
 * without: 1.008x, pbcast 1.034x, direx 1.019x (within the noise; instructions
 * -0.2 a flit-hop).
 */
void network_routers_inject(struct network *n, int node, int channel, flit_t flit)
{
	struct router *r = &n->routers[node];

	router_drive_flit(r, n->cycle, n->links + channel, flit);
	wake_now(n, node);
}

/*
 * The NI's loops call network_routers_inject() (the routers) or pair_walk_inject() (the
 * pair walk) and test no core a flit (a test of it here, in network_inj_held() and
 * in network_inj_credited() cost cg6 direx and uniform 3.3 instructions a flit-hop
 * with the routers); another caller (an engine's table, the tests) comes here.
 * Under the pair walk its flit goes into the ring as the NI's do.  (It went onto the
 * routers' wires, which the step then scanned every cycle for it: the active set's
 * words, cg6 under the pair walk 146.87 / 120.92 / 123.28 with the scan, 145.31 /
 * 119.89 / 122.59 without.)
 */
void network_inject(struct network *n, int node, int channel, flit_t flit)
{
	if (n->pw)
		pair_walk_inject(n->pw, node, channel, flit);
	else
		network_routers_inject(n, node, channel, flit);
}

void network_return_ejection_credits(struct network *n)
{
	const struct router *r = &n->routers[0];

	n->sink_credits = (uint32_t)((1ull << r->n_out) - 1) & ~((1u << r->n_link) - 1);
}

bool network_use_pair_walk(struct network *n)
{
	if (!n->pw && n->sink_credits && n->cycle == 0 && pair_walk_covers(&n->params))
		n->pw = pair_walk_create(&n->params, n->routers);
	return n->pw != NULL;
}

const char *network_core(const struct network *n)
{
	return n->pw ? "pair-walk" : "routers";
}

struct pair_walk *network_pair_walk(struct network *n)
{
	return n->pw;
}

void network_return_credit(struct network *n, int node, int channel)
{
	struct router *r = &n->routers[node];

	router_drive_credit(r, n->cycle, n->links + channel);
	wake_now(n, node);
}

/* The node at the far end of link p of node v. */
static inline int link_peer(const struct network *n, int v, int p)
{
	if (n->nbr)
		return n->nbr[v * n->topo.ports + p];
	return (v ^ n->hop_xor[p]) + n->hop_add[p];
}

/*
 * How network_step() finds a link's far end: the loop is compiled once for each.
 * A hypercube's and a mesh's wiring (no wrap-around, V = 1) is a formula with no
 * per-node table; on a hypercube it reads none of the network's words, which every
 * flit and credit stored into a router may alias, so that they are loaded again for
 * each (2.3 and 4.2 instructions per flit-hop on pbcast and direx,
 * docs/performance-history.md, sixth session (engine)).  The mesh keeps its two
 * words: the port as peer ^ 1 instead of peer[p] counted 1.0 more per flit-hop on
 * uniform traffic (the register allocation of its copy of the loop).
 */
enum wiring {
	WIRING_HYPERCUBE,	/* link p of v: node v ^ 2^p, its port p */
	WIRING_MESH,		/* link p of v: node v + hop_add[p], its port peer[p] */
	WIRING_GENERAL,		/* rings, tori, virtual channels */
};

/*
 * Virtual link port k of node v (port k / V, class k % V) into the peer's port of
 * the same class; *w the peer node.  With V = 1, port p into peer[p].
 */
static inline __attribute__((always_inline)) unsigned int
link_peer_port(const struct network *n, unsigned int v, unsigned int k, unsigned int *w,
	       enum wiring wiring)
{
	if (wiring == WIRING_HYPERCUBE) {
		*w = v ^ (1u << k);
		return k;
	}
	if (wiring == WIRING_MESH) {
		*w = v + n->hop_add[k];
		return n->peer[k];
	}
	if (n->vcs == 1) {
		*w = link_peer(n, v, k);
		return n->peer[k];
	}
	*w = link_peer(n, v, (int)(k / n->vcs));
	return n->peer[k / n->vcs] * n->vcs + k % n->vcs;
}

/* The router across link k of router r (node v), node w: loaded, not computed, where it can. */
static inline __attribute__((always_inline)) struct router *
link_router(struct router *routers, const struct router *r, unsigned int k, unsigned int w,
	    enum wiring wiring)
{
	if (wiring != WIRING_GENERAL)
		return (struct router *)((char *)routers + r->link_offset[k]);
	return &routers[w];
}

/*
 * The node number of d, the router across a link, node w: on a mesh read from d
 * (one load, where w costs a load of hop_add[], which every flit and credit stored
 * may alias, and an addition: 3.1 instructions per flit-hop on uniform traffic,
 * docs/performance-history.md, sixth session (engine), 6be0942); on a hypercube w
 * (one XOR) is cheaper.
 */
static inline __attribute__((always_inline)) unsigned int
link_node(const struct router *d, unsigned int w, enum wiring wiring)
{
	return wiring == WIRING_MESH ? (unsigned int)d->node : w;
}

/*
 * The registers of router v, just committed, drive the wires of cycle n->cycle:
 * link outputs and credits into the neighbours' inputs (waking them in `next`, the
 * active set of that cycle), ejection flits and injection credits into the lists
 * the NIs read.
 */
static inline __attribute__((always_inline)) void
drive_wires(struct network *n, struct router *routers, uint8_t *next, uint64_t *bits, bool small,
	    unsigned int v, struct router *r, enum wiring wiring)
{
	int ports = n->links;
	uint32_t m;

	for (m = r->out_valid_q; m; m &= m - 1) {
		int o = __builtin_ctz(m);

		if (o < ports) {
			unsigned int w;
			int q = link_peer_port(n, v, o, &w, wiring);
			struct router *d = link_router(routers, r, o, w, wiring);

			router_drive_flit(d, n->cycle, q, r->out[o].flit_q);
			wake_next(next, bits, small, link_node(d, w, wiring));
			n->link_moves++;
		} else {
			*n->ej_end++ = (struct channel_event){
				.node = v, .channel = o - ports, .flit = r->out[o].flit_q };
		}
	}
	m = r->out_valid_q & n->sink_credits;
	if (m) {
		/*
		 * The sinks drain these flits in cycle n->cycle, so their credits are on the
		 * wires of the cycle after, as the NI would return them: that cycle's slot.
		 * v is not woken for that cycle here: it is evaluated in n->cycle (woken
		 * below), and every cycle but the quiet one wakes it again; the quiet one
		 * does if credits are on that slot (step_router()).
		 */
		r->credit_in[(n->cycle + 1) & 1] |= m;
	}
	/* 8. The link inputs whose FIFO grew or shrank tell their upstream (struct router). */
	for (m = r->grew_d | r->shrank_d; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		unsigned int w;
		int q = link_peer_port(n, v, i, &w, wiring);
		struct router *d = link_router(routers, r, i, w, wiring);

		router_drive_link_delta(d, n->cycle, q, r->grew_d >> i & 1);
		wake_next(next, bits, small, link_node(d, w, wiring));
	}
#ifdef WORMCAST_DEBUG
	for (m = r->credit_out_q & ~r->link_mask; m; m &= m - 1) {
		/* No flit: a credit's is not read (struct channel_event). */
		n->inj_ref_end->node = v;
		n->inj_ref_end++->channel = __builtin_ctz(m) - ports;
	}
#endif
	/*
	 * Non-zero registers must be evaluated again, if only to clear them.  A router
	 * that gets here has almost always loaded some (the quiet cycle returns before),
	 * and evaluating one that has not changes nothing: woken without a test.
	 */
	wake_next(next, bits, small, v);
}

/*
 * The steady cycle of router v (struct router's steady): last cycle the inputs of
 * credit_out_q each moved a flit that was not a tail to all of its route (together
 * out_valid_q), this cycle's wires bring a flit to each of those inputs and to no
 * other, and every output of out_valid_q is ready (step_router() has checked it and
 * counted the credits).  Then router_stream() would move every flit to the same
 * outputs, push nothing and load the same out_valid_q and credit_out_q: only the
 * output flits change, and a tail gives its outputs back.  So each flit is moved and
 * driven onto the next cycle's wires here in one pass, held in a register, with none
 * of the masks that router_stream() and drive_wires() derive.  The lists stay in
 * channel order: an input's route ejects on its own channel only (all-port:
 * n_link + i; one-port: the one channel, owned by one input at a time).
 */
static inline __attribute__((always_inline)) void
steady_cycle(struct network *n, struct router *routers, uint8_t *next, uint64_t *bits,
	     bool small, unsigned int v, struct router *r, int slot, enum wiring wiring)
{
	uint32_t outs = r->out_valid_q & n->sink_credits;
	/*
	 * Locals, not n's words, which every flit stored into a router may alias: the
	 * next cycle's slot (not n->cycle & 1), the ejection list's end.  Few values live
	 * across the loops (the credit is driven first, the tail's input taken from m):
	 * more would spill in the flattened network loop (docs/performance-history.md,
	 * seventh session (engine)).
	 */
	int to = slot ^ 1;
	struct channel_event *ej = n->ej_end;

#ifdef WORMCAST_DEBUG
	r->move_d = r->credit_out_q;
	r->push_d = 0;
	r->out_valid_d = r->out_valid_q;
	r->credit_arrived_d = r->credit_in[slot];
	r->release_d = 0;
	r->grant_d = r->stream_grant;	/* a head that joined (router_join_steady()) */
	r->stream_grant = 0;
#endif
	r->in_valid[slot] = 0;
	/*
	 * The sinks' credits for this cycle's ejections arrive in the cycle after next,
	 * whose wires are this slot (drive_wires()); nothing else drives them yet.  v
	 * is woken for that cycle by the next one (drive_wires()).
	 */
	r->credit_in[slot] = outs;
	for (uint32_t m = r->credit_out_q; m; m &= m - 1) {
		/*
		 * Unsigned, as the node numbers (wake_next()): the input's and the output's
		 * index without a sign extension.  cg6 uniform -2.5, pbcast +0.9, direx +1.5
		 * (the allocation), and CPU, best / median of 11 in both orders: uniform
		 * 1.009x / 1.013x, 1.005x / 1.006x, direx 1.020x / 1.025x, 1.022x /
		 * 1.022x, pbcast 1.023x / 0.998x, 1.019x / 1.018x (docs/performance.md,
		 * eleventh session (skel), round 2).
		 */
		unsigned int i = __builtin_ctz(m), q, w;
		flit_t f = r->in[i].flit[slot];
		struct router *d;

		/*
		 * A link input sends no credit: its FIFO stays empty (struct router).  An
		 * injection input's credit is its bit of credit_out_q, which the NI reads
		 * (struct network's inj_credit): nothing to list but in debug builds.  (The
		 * list cost the mesh's copy of the loop a branchless store a flit, the
		 * hypercube's a branch: cg6 uniform 201.82 -> 185.57, direx 150.19 -> 140.75
		 * with the NI's part, docs/performance.md, thirteenth session (inj).)
		 */
#ifdef WORMCAST_DEBUG
		if (i >= (unsigned int)n->links) {
			n->inj_ref_end->node = v;
			n->inj_ref_end++->channel = i - n->links;
		}
#endif
		for (uint32_t mo = r->in[i].route_q; mo; mo &= mo - 1) {
			unsigned int o = __builtin_ctz(mo);

			r->out[o].flit_q = f;
			if (o < (unsigned int)n->links) {
				q = link_peer_port(n, v, o, &w, wiring);
				d = link_router(routers, r, o, w, wiring);
				d->in_valid[to] |= 1u << q;
				d->in[q].flit[to] = f;
				wake_next(next, bits, small, link_node(d, w, wiring));
				n->link_moves++;
			} else {
				*ej++ = (struct channel_event){
					.node = v, .channel = (int)o - n->links, .flit = f };
			}
		}
		if (flit_is_tail(f)) {
			/*
			 * 9. The tail gives its outputs back: the router is steady no longer
			 * but for router_join_steady() (ROUTER_STEADY_RELEASED).
			 */
			/*
			 * Released here, input and route at hand, in the mesh's and the
			 * general wiring's copies of the loop (uniform 8x8: 8.5 fewer
			 * instructions a flit-hop, the call's work and the loop's register
			 * allocation); the hypercube's copy keeps the call: inlined there,
			 * the broadcast's and the exchange's data reads and writes rose
			 * 1 to 3 M and their CPU time 1-2 %
			 * (docs/performance-history.md, seventh session
			 * (engine), round 4, e81e7c3).
			 */
			if (wiring == WIRING_HYPERCUBE)
				router_release_one(r, m & -m);
			else
				release_route(r, i, r->in[i].route_q);
			r->steady = ROUTER_STEADY_RELEASED;
#ifdef WORMCAST_DEBUG
			r->release_d |= m & -m;
#endif
		}
	}
	n->ej_end = ej;
	wake_next(next, bits, small, v);
}

/*
 * The wires of cycle n->cycle are in slot n->cycle & 1 (and the credits the engine
 * returns for the cycle after, if any, in the other).  If the caller steps a cycle
 * of the other parity (the sim never does: it counts from 0), the two slots trade
 * places, active sets included.
 */
static void rebase(struct network *n, uint64_t cycle)
{
	if ((n->cycle & 1) != (cycle & 1)) {
		uint8_t *set = n->active[0];
		uint64_t x64;

		for (int v = 0; v < n->params.topo->nodes; v++) {
			struct router *r = &n->routers[v];
			uint32_t x;

			for (int i = 0; i < r->n_in; i++) {
				flit_t f = r->in[i].flit[0];

				r->in[i].flit[0] = r->in[i].flit[1];
				r->in[i].flit[1] = f;
			}
			x = r->in_valid[0];
			r->in_valid[0] = r->in_valid[1];
			r->in_valid[1] = x;
			x = r->credit_in[0];
			r->credit_in[0] = r->credit_in[1];
			r->credit_in[1] = x;
		}
		n->active[0] = n->active[1];
		n->active[1] = set;
		x64 = n->small_set[0];
		n->small_set[0] = n->small_set[1];
		n->small_set[1] = x64;
	}
	n->cycle = cycle;
}

/*
 * Router v evaluated, committed and driving its wires into `next`.  Most cycles of
 * most routers are the streaming cycle (router.h): flits of messages in progress, or
 * one head granted at once, with no allocation among heads; a router where nothing
 * arrives or waits takes the quiet cycle (router_quiet()); the full router_eval()
 * and router_commit() do the rest.
 */
static inline __attribute__((always_inline)) void
step_router(struct network *n, struct router *routers, uint8_t *next, uint64_t *bits, bool small,
	    unsigned int v, struct router *r, uint64_t cycle, enum wiring wiring,
	    bool stream, bool *conflict)
{
	int slot = cycle & 1;

#ifdef WORMCAST_DEBUG
	r->credit_wire = r->credit_in[slot];
#endif
	if (stream && r->steady == ROUTER_STEADY && r->in_valid[slot] == r->credit_out_q) {
		uint32_t credit_in = r->credit_in[slot], sent = r->out_valid_q & ~r->link_mask;

		/*
		 * 8. Not every ejection output sent to has its credit back (a worm's first
		 * flits, or a finished worm's credits come back), or a FIFO downstream of a
		 * link output grew or shrank.  The flits move if every output is ready,
		 * and the counts change.
		 */
		if (credit_in != sent) {
			credit_in = router_credit_in(r, slot);
			if (r->out_valid_q & ~router_ready(r, credit_in))
				goto not_steady;
			commit_sink_credits(r, r->out_valid_q, credit_in);
		}
steady:
		steady_cycle(n, routers, next, bits, small, v, r, slot, wiring);
		return;
	}
not_steady:
	if (stream && router_streams(r, cycle)) {
		if (!r->in_valid[cycle & 1]) {
			/*
			 * Nothing buffered or arriving: no wire to drive.  The sinks' credits
			 * of the ejections of the cycle before arrive in the next cycle
			 * (drive_wires()): the one wake they need.
			 */
			router_quiet(r, cycle);
			if (r->credit_in[slot ^ 1])
				wake_next(next, bits, small, v);
			return;
		}
		/* A tail left, a worm resumes: router_join_streams() (router.h). */
		if (router_join_streams(r, slot))
			goto steady;
		router_stream(r, cycle);
	} else if (stream && !r->nonempty && router_join_steady(r, slot)) {
		goto steady;	/* a head joins (router.h) */
	} else if (stream && !r->nonempty && router_start_head(r, cycle)) {
		/*
		 * The two out-of-line tries are taken by what is buffered: a head is
		 * granted at once only into a router with nothing buffered, and with
		 * nothing buffered the buffered streaming cycle is router_streams(),
		 * which failed.  A call that could only fail saved and restored its
		 * registers for nothing (docs/performance-history.md, seventh session
		 * (engine), round 3, 3f6055a).
		 */
		router_stream(r, cycle);
	} else {
		if (!(stream && r->nonempty && router_stream_buffered(r, cycle))) {
			router_eval(r, cycle);
			router_commit(r);
		}
		*conflict |= r->conflict_now;
	}
	drive_wires(n, routers, next, bits, small, v, r, wiring);
}

/*
 * The routers of the active set `set` (cleared on the way), in node order: the
 * ejections and injection credits they drive are listed in that order.
 */
static inline __attribute__((always_inline)) void
step_routers(struct network *n, uint8_t *set, uint8_t *next, uint64_t cycle, enum wiring wiring,
	     bool small, bool *conflict)
{
	/* A router whose flits all stream takes the short path (router_streams()). */
	bool stream = wiring != WIRING_GENERAL || n->vcs == 1;
	/*
	 * A local, passed down: n->routers, like every word of n, may be aliased by each
	 * flit and credit stored into a router, and was loaded again for every router
	 * touched (2.4 to 3.1 instructions per flit-hop, docs/performance-history.md,
	 * sixth session (engine), 9447ce2).
	 */
	struct router *routers = n->routers;
	uint64_t bits = 0;	/* small: the next cycle's set */

	if (small) {
		int slot = cycle & 1;
		uint64_t b = n->small_set[slot];

		n->small_set[slot] = 0;
		/*
		 * The rest of the set is taken before the router is stepped, not after it:
		 * b lives on the stack across the inlined router, and updated at the end
		 * (a load, an and, a store, and the next tzcnt's load of it right behind
		 * the store, probably what costs) the loop took 1.06-1.07x this one's CPU
		 * time on uniform 8x8 traffic, with 2 instructions a flit-hop fewer
		 * (docs/performance.md, eleventh session (engine)).
		 */
		while (b) {
			unsigned int v = __builtin_ctzll(b);

			b &= b - 1;
			step_router(n, routers, next, &bits, true, v, &routers[v], cycle, wiring, stream,
				    conflict);
		}
		n->small_set[slot ^ 1] = bits;
		return;
	}
	for (int w = 0, words = n->words; w < words; w++) {
		uint64_t b = set_word(set, w);

		if (!b)
			continue;
		memset(set + 8 * w, 0, 8);
		unsigned int v = set_first(w, b), nv;
		struct router *r = &routers[v], *nr;

		/*
		 * The router stepped is passed by pointer: the next one's, computed for its
		 * prefetch, is carried, not computed again from its number (four
		 * instructions): cg6 pbcast 134.13 -> 131.75, direx 150.85 -> 149.84, CPU
		 * direx Q_10 1.01-1.02x, pbcast Q_12 1.00-1.01x, uniform 8x8 (the small
		 * loop, the same code but for its registers) 0.995x (docs/performance.md,
		 * eleventh session (engine)).
		 */
		for (; b; b &= b - 1, v = nv, r = nr) {
			/* The next one (v again after the last: harmless). */
			nv = b & (b - 1) ? (unsigned int)set_first(w, b & (b - 1)) : v;
			nr = &routers[nv];
			/*
			 * The next active router's first line, fetched for writing while this
			 * one is stepped: a thousand routers do not fit the cache (direx Q_10:
			 * a quarter of network_step()'s samples were one store into a router's
			 * first line).  CPU time, best of 15 or 21 side by side, both orders:
			 * direx Q_10 1.011x to 1.042x as fast (mean 1.024x), pbcast Q_12
			 * 1.048x to 1.116x (docs/performance-history.md, tenth session (engine)),
			 * though the loop runs 11 more instructions a flit-hop on the
			 * broadcast and 5 on the exchange (its allocation).  Two routers
			 * ahead gained nothing more; the lines the next router sends to,
			 * fetched too, cost 3.5 % on direx.  The small mesh's loop has none:
			 * measured there on top of its own order (the set's rest taken first),
			 * uniform 8x8 ran 1.088x against main where the loop without it ran
			 * 1.121x (eleventh session's merge, docs/performance.md).  The general
			 * wiring's loop, unmeasured, has none either.
			 */
			if (wiring != WIRING_GENERAL)
				__builtin_prefetch(nr, 1);
			step_router(n, routers, next, &bits, false, v, r, cycle, wiring, stream, conflict);
		}
	}
}

#ifdef WORMCAST_DEBUG
/*
 * Debug builds: the injection credits read from the credit registers
 * (network_inj_credits()) are the ones the loop listed as it stepped the routers.
 */
static int inj_credits_sanity(struct network *n, char *why, size_t len)
{
	const struct channel_event *list;
	int count = network_inj_credits(n, &list);
	const struct channel_event *ref = n->inj_ref;
	int want = (int)(n->inj_ref_end - ref);

	for (int k = 0; k < count || k < want; k++)
		if (k >= count || k >= want || list[k].node != ref[k].node ||
		    list[k].channel != ref[k].channel) {
			snprintf(why, len, "injection credit %d of %d: the credit registers give "
				 "node %d channel %d, the routers stepped node %d channel %d",
				 k, want, k < count ? list[k].node : -1,
				 k < count ? list[k].channel : -1, k < want ? ref[k].node : -1,
				 k < want ? ref[k].channel : -1);
			return -1;
		}
	return 0;
}
#endif

/*
 * The pair walk's step, out of line: flatten (network_step()) would inline it, and the
 * routers' loop then lost registers (cg6 direx 140.79 -> 145.26 with the option off).
 */
static __attribute__((noinline)) void step_pair_walk(struct network *n, uint64_t cycle)
{
	pair_walk_step(n->pw, cycle);
	n->cycle = cycle + 1;
#ifdef WORMCAST_DEBUG
	if (!n->sanity_error[0]) {
		char why[256];

		if (pair_walk_sanity(n->pw, why, sizeof(why)))
			snprintf(n->sanity_error, sizeof(n->sanity_error), "cycle %llu: %s",
				 (unsigned long long)cycle, why);
	}
#endif
}

/*
 * One clock cycle.  Every busy router computes its next state from its registers
 * and the wires of this cycle (router_eval), takes it (router_commit), and drives
 * its new registers onto the wires of the next cycle.  This is the two-phase
 * semantics of the RTL even though it is done router by router: a router reads
 * only its own registers and the wires of this cycle, and the wires of the next
 * cycle are another slot (see router.h), so no router sees another's next state.
 *
 * flatten: router_eval() and router_commit() are inlined into the loop (link-time
 * optimisation does it across files), which saves their calls and register spills
 * per router and cycle: 5 to 7 % of the instructions (1303b79; 6 to 9 % with its
 * wiring steps: docs/performance-history.md, "Speed and memory since 6b0b7ea").
 */
static __attribute__((flatten, noinline)) void step_network(struct network *n, uint64_t cycle)
{
	uint8_t *set, *next;
	bool conflict = false;
	uint64_t link_moves = n->link_moves;
#ifdef WORMCAST_DEBUG
	int count = 0;
#endif

	if (cycle != n->cycle)
		rebase(n, cycle);
	set = n->active[cycle & 1];
	next = n->active[(cycle + 1) & 1];
#ifdef WORMCAST_DEBUG
	for (int w = 0; w < active_words(n); w++)
		for (uint64_t b = active_word(n, cycle & 1, w); b; b &= b - 1)
			n->evaluated[count++] = active_first(n, w, b);
#endif
	/* From here on, wires are driven and routers woken for the next cycle. */
	n->cycle = cycle + 1;
	n->ej_end = n->ej;
#ifdef WORMCAST_DEBUG
	n->inj_ref_end = n->inj_ref;
#endif
	/*
	 * Hypercubes and meshes (no wrap-around, V = 1): the wiring is a formula, and
	 * the loop is compiled for each of them alone (enum wiring).
	 */
	if (n->nbr || n->vcs != 1)
		step_routers(n, set, next, cycle, WIRING_GENERAL, false, &conflict);
	else if (n->topo.kind == TOPO_HYPERCUBE)
		step_routers(n, set, next, cycle, WIRING_HYPERCUBE, false, &conflict);
	else if (n->small)
		step_routers(n, set, next, cycle, WIRING_MESH, true, &conflict);
	else
		step_routers(n, set, next, cycle, WIRING_MESH, false, &conflict);
	/*
	 * The output registers loaded, links and ejections, counted once here from what
	 * the loop counts anyway, not one credit at a time in it: non-zero exactly when
	 * some flit left an input (its route has an output), which is all the sim's
	 * watchdog asks (engine_ops.outputs_valid, the RTL engine's count).
	 */
	n->last_moves = (int)(n->link_moves - link_moves) + (int)(n->ej_end - n->ej);
	if (conflict)
		n->conflict_cycles++;
#ifdef WORMCAST_DEBUG
	/* The invariants of the routers just evaluated and of their links. */
	if (!n->sanity_error[0]) {
		char why[256];

		if (network_sanity(n, n->evaluated, count, why, sizeof(why)) ||
		    inj_credits_sanity(n, why, sizeof(why)))
			snprintf(n->sanity_error, sizeof(n->sanity_error), "cycle %llu: %s",
				 (unsigned long long)cycle, why);
	}
#endif
}

/*
 * The core's dispatch, once a cycle, outside the flattened loop: inside it (a test at
 * the top of step_network()) the loop's registers were allocated otherwise, cg6
 * direx 140.78 -> 141.69 and uniform 185.83 -> 186.50 with the option off.
 */
void network_step(struct network *n, uint64_t cycle)
{
	if (n->pw)
		step_pair_walk(n, cycle);
	else
		step_network(n, cycle);
}

const char *network_sanity_error(const struct network *n)
{
	return n->sanity_error;
}

int network_ejections(const struct network *n, const struct channel_event **list)
{
	if (n->pw)
		return pair_walk_ejections(n->pw, list);
	*list = n->ej;
	return (int)(n->ej_end - n->ej);
}

/*
 * The injection credits of the last step are the injection bits of the credit
 * registers: a router whose register is not 0 is evaluated again in the next cycle
 * (drive_wires(), steady_cycle(); the quiet cycle clears it), so they are all in that
 * cycle's active set, which lists them in node order, then channel order.
 */
int network_inj_credits(struct network *n, const struct channel_event **list)
{
	struct channel_event *e = n->inj_credit;
	int slot = n->cycle & 1;

	if (n->pw)
		return pair_walk_inj_credits(n->pw, list);
	for (int w = 0; w < active_words(n); w++) {
		for (uint64_t b = active_word(n, slot, w); b; b &= b - 1) {
			int v = active_first(n, w, b);
			const struct router *r = &n->routers[v];

			for (uint32_t m = r->credit_out_q & ~r->link_mask; m; m &= m - 1)
				*e++ = (struct channel_event){
					.node = v, .channel = __builtin_ctz(m) - n->links };
		}
	}
	*list = n->inj_credit;
	return (int)(e - n->inj_credit);
}

int network_routers_inj_held(const struct network *n, int node, int channel)
{
	return n->routers[node].in[n->links + channel].count;
}

int network_inj_held(const struct network *n, int node, int channel)
{
	if (n->pw)
		return pair_walk_inj_held(n->pw, node, channel);
	return network_routers_inj_held(n, node, channel);
}

bool network_inj_credited(const struct network *n, int node, int channel)
{
	if (n->pw)
		return pair_walk_inj_credited(n->pw, node, channel);
	return n->routers[node].credit_out_q >> (n->links + channel) & 1;
}

void network_port_signals(const struct network *n, int node, int port, struct port_signals *s)
{
	const struct router *r = &n->routers[node];

	if (n->pw) {
		uint32_t valid, credit;
		flit_t flit[ROUTER_MAX_IO];

		pair_walk_registers(n->pw, node, &valid, &credit, flit);
		s->out_valid = valid >> port & 1;
		s->out_flit = flit[port];
		s->credit_out = credit >> port & 1;
		return;
	}

	s->out_valid = r->out_valid_q >> port & 1;
	s->out_flit = r->out[port].flit_q;
	s->credit_out = r->credit_out_q >> port & 1;
}

void network_router_registers(const struct network *n, int node, uint32_t *out_valid,
			      uint32_t *credit_out, flit_t *out_flit)
{
	const struct router *r = &n->routers[node];

	if (n->pw) {
		pair_walk_registers(n->pw, node, out_valid, credit_out, out_flit);
		return;
	}
	*out_valid = r->out_valid_q;
	*credit_out = r->credit_out_q;
	for (int o = 0; o < r->n_out; o++)
		out_flit[o] = r->out[o].flit_q;
}

/*
 * Link output o of router r: the down router and its input (NULL: unconnected).
 * Off the loop (readouts and debug checks): the topology's table, not the wiring's
 * formula, which a mesh's edge does not obey.
 */
static const struct router *link_down(const struct network *n, const struct router *r, int o,
				      int *input)
{
	int p = o / r->n_vc, w = topology_neighbor(&n->topo, r->node, p);

	if (w < 0)
		return NULL;
	*input = topology_peer_port(&n->topo, p) * r->n_vc + o % r->n_vc;
	return &n->routers[w];
}

int network_credits(const struct network *n, int node, int o)
{
	const struct router *r = &n->routers[node], *d;
	int i;

	if (n->pw)
		return pair_walk_credits(n->pw, node, o);
	if (o >= r->n_link || !(d = link_down(n, r, o, &i)))
		return r->credits_q[o];
	return r->depth - d->in[i].count - (int)(r->out_valid_q >> o & 1) -
	       (int)(d->credit_out_q >> i & 1);
}

int network_link_free(const struct network *n, int node, int o)
{
	const struct router *r = &n->routers[node];
	int slot = n->cycle & 1, free = r->credits_q[o];

	/* The pair walk's credits are its rings' room: no change is on the wires. */
	if (n->pw)
		return pair_walk_credits(n->pw, node, o);
	if (r->credit_in[slot] >> o & 1)
		free += (r->taken[slot] >> o & 1) ? -1 : 1;
	return free;
}

void network_router_state(const struct network *n, int node, struct router_state *s)
{
	const struct router *r = &n->routers[node];

	if (n->pw) {
		pair_walk_router_state(n->pw, node, s);
		return;
	}
	s->node = node;
	s->n_ports = r->n_link;
	s->n_in = r->n_in;
	s->n_out = r->n_out;
	s->depth = r->depth;
	/* The model derives rr_q from the cycle (section 6): the next cycle's value. */
	s->rr_q = (unsigned)(n->cycle % (uint64_t)r->n_in);
	s->vcs = r->n_vc;
	s->sw_rr_q = r->sw_rr_q;
	/* With V = 1 a link's class is the constant 0 (section 12), compared too. */
	for (int p = 0; p < r->n_ports; p++)
		s->out_vc_q[p] = r->n_vc > 1 ? r->out_vc_q[p] : 0;
	for (int i = 0; i < r->n_in; i++) {
		struct router_state_input *x = &s->in[i];

		/* Only the live entries mean anything (router_state.h). */
		for (int k = 0, slot = r->in[i].rd_ptr; k < r->in[i].count; k++) {
			x->fifo[slot] = r->fifo[i * r->depth + slot];
			if (++slot == r->depth)
				slot = 0;
		}
		x->rd_ptr = r->in[i].rd_ptr;
		x->count = r->in[i].count;
		x->wr_ptr = (uint8_t)(r->in[i].rd_ptr + r->in[i].count);
		if (x->wr_ptr >= r->depth)	/* rd_ptr + count mod depth, without a division */
			x->wr_ptr = (uint8_t)(x->wr_ptr - r->depth);
		x->route_q = r->in[i].route_q;
		x->credit_out_q = r->credit_out_q >> i & 1;
		x->hold_q = r->in[i].hold_q;
		x->msg_head = r->in[i].route_q ? r->in[i].head : 0;
	}
	for (int o = 0; o < r->n_out; o++) {
		s->out[o].out_valid_q = r->out_valid_q >> o & 1;
		s->out[o].out_flit_q = r->out[o].flit_q;
		s->out[o].credits_q = (uint8_t)network_credits(n, node, o);
	}
}

/*
 * Router r for the fast-forward (fastforward.h): its registers are control but for the
 * flits, which are data.  A flit slot is data where its input moved a flit last cycle
 * or has one on this cycle's wires (slot: this cycle's), an output's flit where it was
 * loaded (with V > 1: where its link's was); an owned output's other flit is control (an
 * output loaded every other cycle only: the jump is refused).
 *
 * An idle input (no flit on the wires or moved last cycle, none buffered, no route,
 * no waiting head, no hold: all of it in the masks of the router's first lines, which
 * are compared) and an output no route owns are not looked at: nothing changes them
 * until a flit comes or a head takes it, which changes those masks, and nothing reads
 * their flits before a new one overwrites them.  Q_12's broadcast: about 530 bytes a
 * router fewer (its control and data, 880 bytes a router else, 3.6 MB).
 */
static void ff_router(struct ff *f, struct router *r, int slot, uint64_t mask)
{
	uint32_t live_in = r->in_valid[slot] | r->credit_out_q;
	uint32_t busy_in = live_in | r->owning | r->nonempty | r->routed | r->holding;
	uint32_t loaded = r->out_valid_q, busy_out;

	/*
	 * With V > 1 a link's output register is one for its V virtual outputs: every
	 * one of them shows the flit one of them sent (router_commit()), so all of the
	 * link's are data (the torus: the other class's register changes each cycle).
	 */
	if (r->n_vc > 1)
		for (uint32_t m = loaded & ((1u << r->n_link) - 1); m; m &= m - 1) {
			int o = __builtin_ctz(m);

			loaded |= ((1u << r->n_vc) - 1) << (o - o % r->n_vc);
		}
	busy_out = loaded | r->owned_q;

	ff_control(f, r, offsetof(struct router, in));
	for (uint32_t m = busy_in; m && !ff_refused(f); m &= m - 1) {
		int i = __builtin_ctz(m);
		struct router_input *in = &r->in[i];

		if (live_in >> i & 1)
			for (int k = 0; k < 2; k++)
				ff_flit(f, &in->flit[k], mask, k == slot && (r->in_valid[slot] >> i & 1));
		ff_control(f, (const char *)in + sizeof(in->flit), sizeof(*in) - sizeof(in->flit));
		for (int k = 0, e = in->rd_ptr; k < in->count; k++, e = e + 1 == r->depth ? 0 : e + 1)
			ff_flit(f, &r->fifo[i * r->depth + e], mask, true);
	}
	for (uint32_t m = busy_out; m && !ff_refused(f); m &= m - 1) {
		int o = __builtin_ctz(m);

		if (loaded >> o & 1)
			ff_flit(f, &r->out[o].flit_q, mask, true);
		else
			ff_control(f, &r->out[o].flit_q, sizeof(r->out[o].flit_q));
	}
	ff_control(f, &r->grant_req, sizeof(*r) - offsetof(struct router, grant_req));
}

void network_ff_visit(struct network *n, struct ff *f)
{
	/* A flit's W + 2 bits. */
	uint64_t mask = (payload_mask((unsigned)n->params.payload_width) << FLIT_KIND_BITS) |
			((1u << FLIT_KIND_BITS) - 1);
	int slot = n->cycle & 1, count;
	bool apply = ff_mode(f) == FF_APPLY;

	ff_word(f, &n->cycle, sizeof(n->cycle), ~0ull);
	ff_word(f, &n->link_moves, sizeof(n->link_moves), ~0ull);
	ff_control(f, &n->conflict_cycles, sizeof(n->conflict_cycles));
	ff_control(f, &n->last_moves, sizeof(n->last_moves));
	ff_control(f, &n->small_set, sizeof(n->small_set));
	/*
	 * The ejections for the next cycle: their channels every cycle, the flits as data.
	 * (The injection credits are the routers' credit registers, visited with them.)
	 */
	count = (int)(n->ej_end - n->ej);
	ff_same(f, &count, sizeof(count));
	for (struct channel_event *e = n->ej; e < n->ej_end && !ff_refused(f); e++) {
		ff_same(f, e, offsetof(struct channel_event, flit));
		ff_flit(f, &e->flit, mask, true);
	}
	/*
	 * The active set, every cycle the same: a router that any cycle of the jump
	 * touches is in it (a router stepped wakes itself but for the quiet cycle, whose
	 * router then leaves the set; the routers it drives and the NI's are woken into
	 * it), and no other changes.
	 */
	count = 0;
	for (int w = 0; w < active_words(n) && !ff_refused(f); w++) {
		for (uint64_t b = active_word(n, slot, w); b && !ff_refused(f); b &= b - 1) {
			int v = active_first(n, w, b);

			ff_same(f, &v, sizeof(v));
			/*
			 * Under the pair walk the set stays empty (network_inject() writes
			 * into the rings): a router in it would be state the walk's visit
			 * does not know, so refused (a guard, not a path the runs take).
			 */
			if (n->pw)
				ff_refuse(f);
			else if (ff_full(f))
				ff_router(f, &n->routers[v], slot, mask);
#ifdef WORMCAST_DEBUG
			if (apply)
				n->evaluated[count] = v;
#endif
			count++;
		}
	}
	ff_same(f, &count, sizeof(count));
	/* The pair walk's state, where it steps the network (model/pair_walk_ff.c). */
	if (n->pw && !ff_refused(f))
		pair_walk_ff_visit(n->pw, f);
#ifdef WORMCAST_DEBUG
	/* The jump's state is one the routers (or the pair walk) reach: their invariants hold. */
	if (apply && !n->sanity_error[0]) {
		char why[256];

		if (n->pw ? pair_walk_sanity(n->pw, why, sizeof(why)) :
			    network_sanity(n, n->evaluated, count, why, sizeof(why)))
			snprintf(n->sanity_error, sizeof(n->sanity_error),
				 "after a fast-forward to cycle %llu: %s",
				 (unsigned long long)n->cycle, why);
	}
#else
	(void)apply;
#endif
}

uint64_t network_link_moves(const struct network *n)
{
	return n->pw ? pair_walk_link_moves(n->pw) : n->link_moves;
}

int network_last_moves(const struct network *n)
{
	return n->pw ? pair_walk_last_moves(n->pw) : n->last_moves;
}

uint64_t network_conflict_cycles(const struct network *n)
{
	return n->pw ? pair_walk_conflict_cycles(n->pw) : n->conflict_cycles;
}

int network_buffered(const struct network *n)
{
	int b = 0;

	if (n->pw)
		return pair_walk_buffered(n->pw);

	for (int v = 0; v < n->params.topo->nodes; v++)
		b += router_buffered(&n->routers[v]);
	return b;
}
