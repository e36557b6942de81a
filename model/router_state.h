/* SPDX-License-Identifier: MIT */
/*
 * router_state.h - the architectural state of one router, as docs/microarchitecture.md
 * section 6 defines it, in a plain struct that every engine fills the same way: the C
 * model from its registers (network_router_state()), the RTL engines from the
 * Verilated registers (cosim/rtl_models.h).  Field names are the document's.
 *
 * It is what the deadlock report reads (model/deadlock.c: the chain of blocked
 * messages, the same for every engine) and what a register-by-register comparison of
 * the two implementations would compare.  It is read at the end of a cycle: the
 * registers hold their values for the next cycle.
 */
#ifndef WORMCAST_ROUTER_STATE_H
#define WORMCAST_ROUTER_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "flit.h"
#include "router.h"

struct router_state_input {
	/* fifo[i]: BufferDepth entries; the live ones are rd_ptr, rd_ptr + 1, ... (mod
	 * depth), count of them.  The others hold stale values (the RTL does not reset its
	 * storage): only the live ones mean anything. */
	flit_t fifo[ROUTER_MAX_DEPTH];
	uint8_t rd_ptr, wr_ptr, count;
	uint32_t route_q;		/* outputs owned by the message in progress */
	bool credit_out_q;		/* a flit left this input last cycle */
	uint8_t hold_q;			/* replication hold still to wait (T_r > 0), else 0 */
	/*
	 * Not a register: the head flit of the message in progress (route_q != 0), which
	 * names the message that holds route_q.  The model keeps it; the RTL engine takes
	 * it from the last head each output sent.  0 if not known.
	 */
	flit_t msg_head;
};

struct router_state_output {
	bool out_valid_q;
	flit_t out_flit_q;		/* holds its last value while out_valid_q is 0 */
	uint8_t credits_q;		/* free slots downstream */
};

struct router_state {
	int node;
	int n_ports;			/* P */
	int n_in, n_out;		/* P + J, P + E */
	int depth;			/* BufferDepth */
	unsigned rr_q;			/* round-robin counter */
	struct router_state_input in[ROUTER_MAX_IO];
	struct router_state_output out[ROUTER_MAX_IO];
};

/* The live FIFO entry k (0 = head of line) of input i. */
static inline flit_t router_state_fifo(const struct router_state *s, int i, int k)
{
	return s->in[i].fifo[(s->in[i].rd_ptr + k) % s->depth];
}

#endif
