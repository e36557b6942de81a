/* SPDX-License-Identifier: MIT */
/*
 * router.h - one enhanced all-port wormhole router (docs/microarchitecture.md
 * sections 3, 6, 7, 8).
 *
 * The router is evaluated in two phases, exactly like the RTL: router_eval() computes
 * every register's next value from the current values and the inputs of this cycle;
 * router_commit() makes the next values current.  The inputs of a cycle (link and
 * injection flits, returned credits) are written into the router by whoever drives
 * them (the neighbours' registers after their commit, the NI) before
 * router_eval(), and consumed by it.
 */
#ifndef WORMCAST_ROUTER_H
#define WORMCAST_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flit.h"
#include "topology.h"

#define ROUTER_MAX_IO (2 * TOPO_MAX_PORTS)
/* The deepest FIFO: the credit counters are uint8_t, the RTL's CredW bits. */
#define ROUTER_MAX_DEPTH 64

struct router_params {
	const struct topology *topo;
	bool all_port;
	int buffer_depth;	/* flits per input FIFO, >= 2 */
	int payload_width;	/* W */
	int replication_cost;	/* T_r, 0..ROUTER_MAX_REPLICATION_COST (section 7, step 5) */
};

#define ROUTER_MAX_REPLICATION_COST 255

/*
 * Per-port state is kept port by port, so that a port that moves a flit touches one
 * cache line of its router, not one per array; the registers that every cycle
 * reads are in the router's first cache line.
 *
 * The wires into a router are double-buffered: slot c & 1 holds the values of
 * cycle c.  So a neighbour may drive the wires of cycle c + 1 while this router has
 * not yet evaluated cycle c, and the network can evaluate and commit router by
 * router in one pass.
 */

/*
 * One input port i: 32 bytes, so that no port straddles two cache lines.  With V > 1
 * the ports are virtual (section 12): link input p, class c is input p*V + c, link
 * output p, class c is output p*V + c; injection and ejection channels follow.
 */
struct router_input {
	flit_t flit[2];		/* in_flit[i] of cycle c in flit[c & 1] (if in_valid) */
	/*
	 * Model only.  While route_q is set, head: the head of the message in progress,
	 * for the deadlock report and the readouts.  While it is not, req: the route of
	 * the head waiting here, once computed (bit i of routed).  Both in the line the
	 * join reads the head from and writes route_q into: the head in an array of its
	 * own cost the exchange 1-2.5 % of its time (a line nothing else of a head-hop
	 * touched), and req there cost the join a register (i) for a refused head
	 * (docs/performance.md, eleventh session (engine), round 2).
	 */
	union {
		flit_t head;
		uint32_t req;
	};
	uint32_t route_q;	/* outputs owned by the message at this input */
	uint8_t rd_ptr;		/* FIFO read pointer */
	uint8_t count;		/* flits in the FIFO */
	uint8_t hold_q;		/* cycles the granted broadcast head must still wait */
} __attribute__((aligned(32)));

/*
 * One output port o: out_flit_q[o], which holds its last value while not valid.
 * Step 7's out_flit_d[o] is written straight into it by router_eval() for the
 * outputs in out_valid_d: nothing reads a router's output registers between its
 * router_eval() and its router_commit() (network_step() does the two back to back,
 * and the neighbours read the wires, not the registers), so the value every reader
 * sees is the one the two-phase update gives, and a sent flit is stored once.
 */
struct router_output {
	flit_t flit_q;
};

/*
 * struct router's steady: ROUTER_STEADY as described there; ROUTER_STEADY_RELEASED,
 * the same cycle where tails left (their inputs in credit_out_q own nothing now, their
 * outputs in out_valid_q are free): the inputs of credit_out_q & owning stream on to
 * out_valid_q & owned_q.  Only router_join_steady() takes the steady cycle from it.
 */
#define ROUTER_STEADY 1
#define ROUTER_STEADY_RELEASED 2

/*
 * struct router's route_kind: route_of() (a call); a hypercube in ascending order
 * (1 << ctz(node ^ dest)); a mesh in XY (ascending) or YX (descending) order, by
 * mesh_cols, mesh_row and mesh_col.
 */
enum router_route_kind {
	ROUTER_ROUTE_CALL,
	ROUTER_ROUTE_CUBE,
	ROUTER_ROUTE_MESH_XY,
	ROUTER_ROUTE_MESH_YX,
};

struct router {
	/* Wires of cycles c and c + 1 (slot c & 1), consumed by router_eval(). */
	uint32_t in_valid[2];
	uint32_t credit_in[2];
	bool conflict_now;	/* a head waited for an owned output this cycle */
	bool hold_busy;		/* some input holds or was charged (T_r > 0 only) */
	/*
	 * Derived, for speed (the steady cycle, network.c): the last cycle was a streaming
	 * cycle where every input with a flit, the bits of credit_out_q, moved it, none
	 * was a tail, and nothing is buffered or held; out_valid_q is the OR of their
	 * routes.  Then, if this cycle's wires bring a flit to those inputs alone and each
	 * of those outputs is ready, the flits move again with no test of route or FIFO,
	 * and every register but the output flits and the credit counts keeps its value.
	 * Cleared by every other kind of cycle; a tail leaves ROUTER_STEADY_RELEASED.
	 */
	uint8_t steady;		/* 0, ROUTER_STEADY or ROUTER_STEADY_RELEASED (below) */
	/*
	 * A constant: how the join routes a unicast head (ROUTER_ROUTE_*, below): inline
	 * on a hypercube or a mesh with V = 1 and T_r = 0 (a head refused only for an
	 * owned output), from the router's own lines, without the parameters' and the
	 * topology's; by route_of() otherwise.
	 */
	uint8_t route_kind;

	/* Registers kept as bit masks over the ports. */
	uint32_t nonempty;		/* bit i: in[i].count > 0 (derived, for speed) */
	uint32_t credit_out_q;		/* bit i: a flit left input i last cycle */
	uint32_t out_valid_q;
	uint32_t owned_q;		/* OR of route_q: outputs held by some message */
	uint32_t has_credit_q;		/* bit o: credits_q[o] > 0 (derived, for speed) */
	uint32_t owning;		/* bit i: in[i].route_q != 0 (derived, for speed) */

	/*
	 * 8. Credits.  An ejection output counts them as the RTL does: credits_q[o] is
	 * the register, has_credit_q bit o says credits_q[o] > 0, and credit_in brings
	 * the NI's (or the engine's) credits back.  A link output does not: credits_q[o]
	 * holds the free slots of the FIFO downstream as that router committed them the
	 * cycle before (depth - its count), which change only when the FIFO grows or
	 * shrinks, not with each flit that passes through it, so a worm streaming
	 * through empty FIFOs sends no credit back and neither end counts it.  The
	 * register the RTL holds is derived on read (network_router_state()):
	 * depth - count - out_valid_q[o] - credit_out_q of the input downstream.  So for
	 * a link output, has_credit_q bit o says credits_q[o] >= 2 and credit1_q bit o
	 * says credits_q[o] == 1: output o is ready if it has two free slots, or one and
	 * sent nothing last cycle (router_ready()).  credit_in's link bits and taken
	 * carry the FIFO's change onto the wires of the cycle after: +1 (shrank), or -1
	 * where taken has the bit too (grew; taken is at the end: only a FIFO's change
	 * reads it).
	 */
	uint32_t credit1_q;
	uint32_t link_mask;	/* (1 << n_link) - 1: link inputs and outputs (a constant) */
	/*
	 * Link inputs whose FIFO grew (shrank) by one this cycle: drive_wires() tells
	 * upstream.  Everything from in_valid to eject_mul is in the first cache line: a
	 * cycle of a router that streams a message touches it and the lines of the ports
	 * that move (and, for the steady cycle and the wires, the constants), nothing else.
	 */
	uint32_t grew_d, shrank_d;
	/*
	 * A constant: 1 << n_link all-port, 1 one-port.  The join's inline route ejects a
	 * head received at link input i by output n_link + i all-port, n_link one-port:
	 * router_join_eject(), by a multiplication, not a shift (a shift by a variable
	 * wants cl, which the route's shift holds), and not a constant per input, which
	 * left the input no room for its head (struct router_input).
	 */
	uint32_t eject_mul;

	/*
	 * Next state of the full cycle, computed by router_eval(), applied by
	 * router_commit() (the streaming cycles write them in debug builds only, for
	 * network_sanity()).  Route state changes only at a grant (route_d = req) and
	 * when a tail leaves (route_d = 0), so those two events are recorded instead of a
	 * whole route_d.
	 */
	uint32_t move_d;		/* inputs whose head-of-line flit left */
	uint32_t push_d;		/* inputs that store their arriving flit */
	uint32_t out_valid_d;		/* outputs that send (out[o].flit_q is already loaded) */
	uint32_t release_d;		/* inputs whose tail left: route_q = 0 */

	uint8_t credits_q[ROUTER_MAX_IO];	/* per output: see above */
	/* The full cycle's only (router_eval(), router_commit(); not router_stream()). */
	uint32_t grant_d;	/* inputs whose head was granted: route_q = grant_req[i] */
	uint32_t routed;	/* model only: inputs whose waiting head's in[i].req is known */

	/* Constants. */
	int16_t n_ports;	/* P */
	int16_t n_link;		/* P*V: virtual link ports; link p, class c is p*V + c */
	int16_t n_vc;		/* V (docs/microarchitecture.md section 12) */
	int16_t n_in, n_out;	/* P*V + J, P*V + E */
	int16_t depth;		/* params->buffer_depth */
	int node;
	flit_t *fifo;		/* n_in * depth entries: input i's FIFO from i * depth */
	const struct router_params *params;
	/*
	 * Set by the network for hypercubes and meshes (V = 1, no wrap-around): the byte
	 * offset, from the start of its array of routers, of the router across link p,
	 * which the loop loads instead of computing its address (a multiplication by
	 * sizeof(struct router), five instructions: docs/performance-history.md, sixth
	 * session (engine), 8474cc5).  It fills the line that used to pad the structure
	 * to an odd number of lines.
	 */
	int32_t link_offset[TOPO_MAX_PORTS];

	/*
	 * The ports start on cache-line boundaries.  The whole structure is an odd
	 * number of cache lines (19 here), so that the first lines of a thousand
	 * routers in an array spread over all sets of the caches.
	 */
	struct router_input in[ROUTER_MAX_IO] __attribute__((aligned(64)));
	struct router_output out[ROUTER_MAX_IO] __attribute__((aligned(64)));

	/*
	 * n_in: the route of each head the full cycle granted, from router_eval() to
	 * router_commit() (the grant stores the head where its input kept req).
	 */
	uint32_t *grant_req;
	uint64_t conflict_cycles;	/* statistics: cycles where a head waited */

	/*
	 * Replication hold (T_r > 0 only; section 7, steps 5 and 12).  hold_q itself is
	 * per input (in[i].hold_q); these masks say which inputs to visit.
	 */
	uint32_t holding;	/* bit i: in[i].hold_q != 0 */
	uint32_t charge_d;	/* inputs whose head was charged T_r at its grant */
	/* Debug builds: the head router_start_head() granted, for network_sanity(). */
	uint32_t stream_grant;

	uint32_t credit_arrived_d;	/* router_eval(): credit_in of this cycle, for router_commit() */
	uint32_t taken[2];	/* 8. Link outputs of credit_in whose FIFO downstream grew */
	uint32_t credit_wire;	/* debug builds: this cycle's credit_in, link bits too, for network_sanity() */

	/* Switch allocation (V > 1 only; section 12, step 6b): the input scanned first. */
	uint8_t sw_rr_q, sw_rr_d;
	/* V > 1 only (section 12): per link, the class of the last flit it sent. */
	uint8_t out_vc_q[TOPO_MAX_PORTS];
	/*
	 * Constants of a mesh's inline route (route_kind): its columns, this node's row
	 * and column (moved out of this line: no time gained, docs/performance.md, eleventh
	 * session (engine), round 2).
	 */
	int16_t mesh_cols, mesh_row, mesh_col;
} __attribute__((aligned(64)));

/* Drive flit f on input i in cycle c (a neighbour's output register, or the NI). */
static inline void router_drive_flit(struct router *r, uint64_t c, int i, flit_t f)
{
	r->in_valid[c & 1] |= 1u << i;
	r->in[i].flit[c & 1] = f;
}

/* Return a credit to ejection output o in cycle c (the NI's credit register). */
static inline void router_drive_credit(struct router *r, uint64_t c, int o)
{
	r->credit_in[c & 1] |= 1u << o;
}

/*
 * Link output o's FIFO downstream grew (grew) or shrank by one flit in the cycle
 * before c (a neighbour's commit).
 */
static inline void router_drive_link_delta(struct router *r, uint64_t c, int o, uint32_t grew)
{
	r->credit_in[c & 1] |= 1u << o;
	r->taken[c & 1] |= grew << o;
}

void router_link_deltas(struct router *r, int slot);

/*
 * 8. The credits on this cycle's wires: the link outputs' changes applied (out of
 * line: a FIFO downstream grew or shrank), the ejection outputs' returned credits
 * left to count.
 */
static inline uint32_t router_credit_in(struct router *r, int slot)
{
	uint32_t c = r->credit_in[slot];

	if (c & r->link_mask) {
		router_link_deltas(r, slot);
		c &= ~r->link_mask;
	}
	return c;
}

/* 2. The outputs ready this cycle, given the ejection credits arriving (router_credit_in()). */
static inline uint32_t router_ready(const struct router *r, uint32_t credit_in)
{
	return r->has_credit_q | credit_in | (r->credit1_q & ~r->out_valid_q);
}

/*
 * The flits of a router's FIFOs and its granted heads' routes (router_init()'s fifo:
 * zeroed, the caller's, n_in * (depth + 1) flits).
 */
size_t router_fifo_flits(const struct router_params *p);
int router_init(struct router *r, const struct router_params *p, int node, flit_t *fifo);
/* struct router's route_kind in a network with parameters p (router_sanity checks it). */
uint8_t router_route_kind(const struct router_params *p);

/* Ejection output that (virtual) link input i delivers to (all-port pairing). */
static inline int router_ejection_port(const struct router *r, int input)
{
	return r->params->all_port ? r->n_link + input : r->n_link;
}

/* The route computation of section 8: output mask for a head arriving on input. */
uint32_t router_route(const struct router *r, flit_t head, int input);
/* The same for router node of a network with parameters p (a pure function). */
uint32_t route_of(const struct router_params *p, int node, flit_t head, int input);

/*
 * The route of a unicast head (payload) whose next port here is port (-1: it is
 * received here) and whose ejection output is eject: route_unicast()'s, the join's
 * (join_head()) and the pair walk's (pair_walk.c), which find port and eject each
 * their own way.
 */
static inline __attribute__((always_inline)) uint32_t
unicast_route(uint64_t payload, int port, uint32_t eject)
{
	if (port < 0)
		return eject;
	return 1u << port | (hdr_ir_of(payload) ? eject : 0);
}

/*
 * ROUTER_ROUTE_CUBE's port from node to dest: the lowest dimension of node ^ dest, -1
 * at dest.  Apart, so that the pair walk routes a hypercube's head from its node
 * alone, without reading the router's line.
 */
static inline __attribute__((always_inline)) int router_cube_port(int node, int dest)
{
	return dest == node ? -1 : __builtin_ctz((unsigned)(node ^ dest));
}

/*
 * unicast_next_port() of this router to dest, by route_kind (not ROUTER_ROUTE_CALL):
 * on the hypercube the lowest dimension of node ^ dest, on the mesh the column
 * first (XY) or the row first (YX); -1 at dest.  The join's (router.c) and the pair
 * walk's (pair_walk.c): shared, so that the routes inline are one code.
 */
static inline __attribute__((always_inline)) int
router_unicast_port_as(const struct router *r, int dest, const int kind)
{
	int dr, dc;
	bool y;

	if (kind == ROUTER_ROUTE_CUBE)
		return router_cube_port(r->node, dest);
	dr = dest / r->mesh_cols;
	dc = dest - dr * r->mesh_cols;
	if (dc == r->mesh_col && dr == r->mesh_row)
		return -1;
	y = dc == r->mesh_col || (kind == ROUTER_ROUTE_MESH_YX && dr != r->mesh_row);
	return y ? (dr > r->mesh_row ? PORT_S : PORT_N) : (dc > r->mesh_col ? PORT_E : PORT_W);
}

/* The same with the router's own kind (the pair walk passes its kind as a constant). */
static inline __attribute__((always_inline)) int
router_unicast_port(const struct router *r, int dest)
{
	return router_unicast_port_as(r, dest, r->route_kind);
}

void router_eval(struct router *r, uint64_t cycle);
void router_commit(struct router *r);

/*
 * The streaming cycle (V = 1): router_stream() is router_eval() and router_commit()
 * in one, for a router where router_streams() holds: no flit buffered, no
 * replication hold, and every flit arriving belongs to a message in progress at its
 * input.  Then no head waits, so steps 3 to 5 and 12 do nothing and every FIFO is
 * bypassed or takes its first flit: the flits move, or are stored, without the
 * allocation, the FIFO read and the next-state fields.  The registers it leaves
 * are those router_eval() and router_commit() would leave.
 *
 * router_start_head() makes a router where one head arrives, and nothing else
 * keeps router_streams() from holding, a streaming one: the head is allocated
 * alone (no rotation orders it) and, granted, takes its outputs at once, which
 * only its own move in router_stream() reads (5: cur = req).  It returns false,
 * having changed nothing but that head's route (in[i].req and routed, as a waiting
 * head's), when the head is not granted at once or T_r > 0: router_eval() and
 * router_commit() then do the cycle.  Its caller has checked that nothing is
 * buffered at the head's input (step_router(): nonempty == 0;
 * router_stream_buffered(): no input without a message holds a flit).
 */
static inline bool router_streams(const struct router *r, uint64_t cycle)
{
	return !(r->nonempty | (r->in_valid[cycle & 1] & ~r->owning)) && !r->hold_busy;
}

void router_stream(struct router *r, uint64_t cycle);
/* 9. The tails that left the inputs of release give their outputs back. */
void release_routes(struct router *r, uint32_t release);
/*
 * 9. The tail at input i, whose route (route_q) is outs, left: release_routes() for
 * one input, where a streaming loop already holds its index and route (the call is
 * about 21 instructions at each tail, docs/performance-history.md, seventh session
 * (engine)).
 */
static inline __attribute__((always_inline)) void
release_route(struct router *r, int i, uint32_t outs)
{
	r->owned_q &= ~outs;
	r->in[i].route_q = 0;
	r->owning &= ~(1u << i);
}
/* release_routes() of the one input of release, without its loop. */
void router_release_one(struct router *r, uint32_t release);
/*
 * 8. Credits of ejection outputs: one less for each output in sent, one more for each
 * in arrived (sent holds ejection outputs only).
 */
void commit_credits(struct router *r, uint32_t sent, uint32_t arrived);
/*
 * 8. A cycle's credits, for every kind of cycle: the ejection outputs of out_valid
 * each spend one and those of arrived get one back (commit_credits(), only if the two
 * differ).  A link output's credits do not change here (struct router).
 */
static inline __attribute__((always_inline)) void
commit_sink_credits(struct router *r, uint32_t out_valid, uint32_t arrived)
{
	uint32_t sent = out_valid & ~r->link_mask;

	if (sent ^ arrived)
		commit_credits(r, sent, arrived);
}
bool router_start_head(struct router *r, uint64_t cycle);
/*
 * The steady cycle (struct router's steady; network.c) for a router with nothing
 * buffered or held (V = 1) where the steady dispatch's test (this cycle's flits on
 * exactly the inputs of credit_out_q, steady) fails: a tail left
 * (ROUTER_STEADY_RELEASED), one input more has a flit (a head, or a worm that paused
 * and resumes), or the router was not steady (a lone head into an idle router).
 * Every input whose worm streams on (credit_out_q & owning, whose routes are
 * out_valid_q & owned_q: router_sanity checks it) has its flit here, one other input
 * at most has one; a head there is routed and granted alone as router_start_head()
 * would (nothing is buffered, so no other head waits and no rotation orders it), and
 * every output of the routes is ready.  Then router_stream() would move every flit,
 * push none, and load out_valid_q with the OR of the routes and credit_out_q with the
 * inputs: those registers are loaded here, 8. the ejection outputs' credits counted,
 * and the steady cycle moves the flits and drives them without router_stream()'s
 * tests and drive_wires()' loops.  The router is steady after it unless a link
 * output sent to has one free slot left (router_stream()'s rule).  False, having
 * changed nothing but the link outputs' credits taken from the wires
 * (router_credit_in() applies them once), a refused head's route (kept as
 * router_start_head() keeps it, routed) and its input's head, and credit_out_q, which
 * every other kind of cycle loads before anything reads it, otherwise.  On the
 * exchange (Q_8, L = 8) a router carries several worms, each a cycle behind the
 * last: 262,144 of its 327,424 head-hops and as many cycles after a tail left come
 * here (docs/performance.md).  Called with a flit arriving, or where router_streams()
 * failed with nothing buffered (in_valid 0 only with hold_busy set).
 */
bool router_join_steady(struct router *r, int slot);
/*
 * router_join_steady() where router_streams() holds and a flit arrives: no head, no
 * hold, so without their tests (the cycle after a tail left, a worm that resumes).
 */
bool router_join_streams(struct router *r, int slot);
/*
 * The quiet cycle: router_stream() (or router_eval() and router_commit()) of a router
 * where router_streams() holds and no flit arrives.  Nothing is buffered, held or
 * arriving, so nothing moves: 8. the credits that arrive are counted, and the output
 * and credit registers, which were loaded in the last cycle or are 0 already, become
 * 0: they drive no wire, and the router has nothing to evaluate in the next cycle
 * unless a wire wakes it.  The cycles after a worm has left (its registers cleared,
 * its last credits taken back) cost a few instructions each instead of a streaming
 * cycle and its wires.
 */
void router_quiet(struct router *r, uint64_t cycle);
/*
 * The same cycle where flits are buffered and nothing is held, if no head waits
 * (every input with a flit has a message in progress), or one head arrives at an
 * empty FIFO and router_start_head() grants it, or every head waiting in a FIFO is
 * routed and wants an owned output (none is granted: each conflicts, conflict_now)
 * and none arrives at an empty one: false, having changed nothing but a route as
 * router_start_head() keeps it, otherwise.  Called only where something is
 * buffered: with nothing buffered it is router_streams().
 */
bool router_stream_buffered(struct router *r, uint64_t cycle);

/* Flits held in the router's FIFOs. */
int router_buffered(const struct router *r);

#endif
