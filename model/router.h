/* SPDX-License-Identifier: MIT */
/*
 * router.h - one enhanced all-port wormhole router (docs/microarchitecture.md
 * sections 3, 6, 7, 8).
 *
 * The router is evaluated in two phases, exactly like the RTL: router_eval() computes
 * every register's next value from the current values and the inputs of this cycle;
 * router_commit() makes the next values current.  The inputs of a cycle (link and
 * injection flits, returned credits) are written into the router by whoever drives
 * them (the neighbours' commit, the NI) before router_eval(), and consumed by it.
 */
#ifndef WORMCAST_ROUTER_H
#define WORMCAST_ROUTER_H

#include <stdbool.h>
#include <stdint.h>

#include "flit.h"
#include "topology.h"

#define ROUTER_MAX_IO (2 * TOPO_MAX_PORTS)

struct router_params {
	const struct topology *topo;
	bool all_port;
	int buffer_depth;	/* flits per input FIFO, >= 2 */
	int payload_width;	/* W */
};

struct router {
	const struct router_params *params;
	int node;
	int n_ports;		/* P */
	int n_in, n_out;	/* P + J, P + E */

	/* Per input port: FIFO, route state, head of the message in progress. */
	flit_t *fifo;			/* n_in * buffer_depth entries */
	uint8_t rd_ptr[ROUTER_MAX_IO];
	uint8_t count[ROUTER_MAX_IO];
	uint32_t nonempty;		/* bit i: count[i] > 0 (derived, for speed) */
	uint32_t route_q[ROUTER_MAX_IO];	/* outputs owned by the message at this input */
	flit_t msg_head[ROUTER_MAX_IO];	/* model only: for deadlock reports, not a signal */
	uint32_t credit_out_q;		/* bit i: a flit left input i last cycle */

	/* Per output port: output register and downstream credits. */
	uint32_t out_valid_q;
	flit_t out_flit_q[ROUTER_MAX_IO];
	uint8_t credits_q[ROUTER_MAX_IO];
	uint32_t owned_q;		/* OR of route_q: outputs held by some message */
	uint32_t has_credit_q;		/* bit o: credits_q[o] > 0 (derived, for speed) */

	/* Inputs of the current cycle, written by the drivers of the wires. */
	uint32_t in_valid;
	flit_t in_flit[ROUTER_MAX_IO];
	uint32_t credit_in;

	/* Next state, computed by router_eval(), applied by router_commit(). */
	uint32_t move_d;		/* inputs whose head-of-line flit left */
	uint32_t push_d;		/* inputs that store their arriving flit */
	uint32_t out_valid_d;
	flit_t out_flit_d[ROUTER_MAX_IO];
	uint32_t route_d[ROUTER_MAX_IO];
	uint32_t credit_arrived_d;	/* credit_in of this cycle, for credits_d */
	uint32_t grant_d;		/* inputs whose head was granted this cycle */

	/* Statistics. */
	uint64_t conflict_cycles;	/* cycles where a head waited for an owned output */
	bool conflict_now;
};

int router_init(struct router *r, const struct router_params *p, int node);
void router_free(struct router *r);

/* Ejection output that link input i delivers to (all-port pairing). */
static inline int router_ejection_port(const struct router *r, int input)
{
	return r->params->all_port ? r->n_ports + input : r->n_ports;
}

/* The route computation of section 8: output mask for a head arriving on input. */
uint32_t router_route(const struct router *r, flit_t head, int input);

/* True if anything must be evaluated in this router this cycle. */
static inline bool router_busy(const struct router *r)
{
	return r->in_valid || r->credit_in || r->out_valid_q || r->credit_out_q ||
	       r->nonempty;
}

void router_eval(struct router *r, uint64_t cycle);
void router_commit(struct router *r);

/* Flits held in the router's FIFOs. */
int router_buffered(const struct router *r);

#endif
