/* SPDX-License-Identifier: MIT */
/*
 * router_state.h - the architectural state of one router, as docs/microarchitecture.md
 * section 6 defines it, in a plain struct that every engine fills the same way: the C
 * model from its registers (network_router_state()), the RTL engines from the
 * Verilated registers (cosim/rtl_models.h).  Field names are the document's.
 *
 * It is what the deadlock report reads (model/deadlock.c: the chain of blocked
 * messages, the same for every engine), what the cosimulation compares register by
 * register (router_state_pack() below) and what functional coverage classifies
 * (model/coverage.h).  It is read at the end of a cycle: the registers hold their
 * values for the next cycle.
 */
#ifndef WORMCAST_ROUTER_STATE_H
#define WORMCAST_ROUTER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flit.h"
#include "router.h"

struct router_state_input {
	/* fifo[i]: BufferDepth entries; the live ones are rd_ptr, rd_ptr + 1, ... (mod
	 * depth), count of them.  The others are unspecified (the RTL does not reset its
	 * storage, and the readouts fill only the live slots): only the live ones mean
	 * anything. */
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
	int n_ports;			/* P*V: the (virtual) link ports; P with V = 1 */
	int n_in, n_out;		/* P*V + J, P*V + E */
	int depth;			/* BufferDepth */
	unsigned rr_q;			/* round-robin counter */
	struct router_state_input in[ROUTER_MAX_IO];
	struct router_state_output out[ROUTER_MAX_IO];
	/*
	 * Section 12 (n_ports / vcs links): the registers of virtual channels that are
	 * not per virtual port.  out_valid_q of virtual output o*V + c above is the link's
	 * out_valid_q[o] && out_vc_q[o] == c; out_vc_q[o] itself holds the class of the
	 * link's last flit while the link is idle.  With V = 1 out_vc_q[o] is the constant
	 * 0 on link_vc_o (still compared) and sw_rr_q is no register.
	 */
	int vcs;			/* V */
	uint8_t out_vc_q[TOPO_MAX_PORTS];	/* per link: the class on its wires */
	unsigned sw_rr_q;		/* switch allocation: the input scanned first */
};

/* The live FIFO entry k (0 = head of line) of input i. */
static inline flit_t router_state_fifo(const struct router_state *s, int i, int k)
{
	return s->in[i].fifo[(s->in[i].rd_ptr + k) % s->depth];
}

/*
 * The registers as one flat vector of values, in the document's order (section 6):
 *
 *   per input i:  count, rd_ptr, wr_ptr, fifo[0] .. fifo[depth-1], route_q,
 *                 credit_out_q, hold_q
 *   per output o: out_valid_q, out_flit_q, credits_q
 *   per router:   rr_q
 *   per link:     out_vc_q (section 12; with V = 1 the constant 0 that link_vc_o shows)
 *   V > 1 only:   sw_rr_q
 *
 * fifo[k] is the k-th live entry from the head of line (storage slot rd_ptr + k); an
 * entry at or beyond count is not architectural (the RTL does not reset its storage)
 * and is packed as 0.  count comes before the entries so that the first difference
 * named is the count when the two sides hold a different number of flits.  msg_head
 * is not a register and is not packed.  Two routers are in the same state iff their
 * vectors are equal, so comparing them is a memcmp, and the index of the first
 * differing value names the first register that differs.
 */
enum router_reg {
	REG_COUNT, REG_RD_PTR, REG_WR_PTR, REG_FIFO, REG_ROUTE_Q, REG_CREDIT_OUT_Q, REG_HOLD_Q,
	REG_OUT_VALID_Q, REG_OUT_FLIT_Q, REG_CREDITS_Q, REG_RR_Q, REG_OUT_VC_Q, REG_SW_RR_Q,
};

struct router_regs_layout {
	int n_in, n_out, depth;
	int vc_links;			/* links with out_vc_q: P */
	bool sw_rr;			/* sw_rr_q is a register: V > 1 */
	int per_input;			/* values per input: 6 + depth */
	int words;			/* values per router */
};

/* Where value k of the vector is: which register, of which port, which FIFO entry. */
struct router_reg_place {
	enum router_reg reg;
	int port;			/* input, output or (out_vc_q) link index; -1 for rr_q, sw_rr_q */
	int entry;			/* REG_FIFO: k of fifo[k]; else -1 */
};

/* links: P (each has out_vc_q, also with V = 1); vcs: V (sw_rr_q only if V > 1). */
void router_regs_layout(struct router_regs_layout *l, int n_in, int n_out, int depth,
			int links, int vcs);
/* s's registers into v (l->words values). */
void router_state_pack(const struct router_regs_layout *l, const struct router_state *s,
		       uint64_t *v);
/*
 * True iff a and b pack into the same vector: the comparison of every cycle, which
 * packs only the routers that differ (to name the first difference).
 */
bool router_state_equal(const struct router_regs_layout *l, const struct router_state *a,
			const struct router_state *b);
void router_regs_place(const struct router_regs_layout *l, int k, struct router_reg_place *p);
/* The register's name in docs/microarchitecture.md section 6 ("fifo", "credits_q"). */
const char *router_reg_name(enum router_reg r);
/* Its width in bits, for a waveform (flit_width = W + 2). */
int router_reg_width(const struct router_regs_layout *l, enum router_reg r, int flit_width);
/*
 * "input 2 fifo[1] (count 2)", "output 5 credits_q", "link 1 out_vc_q", "rr_q": value k
 * of the vector
 * v (whose count names the live entries) into buf.
 */
void router_regs_describe(const struct router_regs_layout *l, int k, const uint64_t *v,
			  char *buf, size_t len);

#endif
