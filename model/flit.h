/* SPDX-License-Identifier: MIT */
/*
 * flit.h - flit and header encoding (docs/microarchitecture.md section 4).
 *
 * A flit is W+2 bits held in a uint64_t: bits [1:0] are the kind, bits [W+1:2] the
 * payload.  kind bit 0 = is_head, bit 1 = is_tail.  The head's payload is the header:
 * [0] hdr_type, [1] ir, [13:2] address, [25:14] source, [W-1:26] seq.
 *
 * The macros below are the one definition of this layout for C and Verilog:
 * rtl/wc_defs.vh holds the same values under the same names with a WC_ prefix
 * (FLIT_HEAD_BIT is `WC_FLIT_HEAD_BIT).  It is generated from this file by
 * rtl/gen_wc_defs.c ("cmake --build build --target wc_defs"), and the test
 * flit_layout fails when the committed file differs.
 */
#ifndef WORMCAST_FLIT_H
#define WORMCAST_FLIT_H

#include <stdbool.h>
#include <stdint.h>

/* The kind, flit[1:0]. */
#define FLIT_KIND_BITS 2
#define FLIT_HEAD_BIT 0		/* flit[0]: is_head (HEAD, SINGLE) */
#define FLIT_TAIL_BIT 1		/* flit[1]: is_tail (TAIL, SINGLE) */
#define FLIT_KIND_BODY 0
#define FLIT_KIND_HEAD 1
#define FLIT_KIND_TAIL 2
#define FLIT_KIND_SINGLE 3

/* The header, in payload bits (the payload starts at flit bit FLIT_KIND_BITS). */
#define HDR_TYPE_BIT 0		/* 0 = R, 1 = B */
#define HDR_TYPE_R 0
#define HDR_TYPE_B 1
#define HDR_IR_BIT 1
#define HDR_ADDR_SHIFT 2	/* R: destination; B: root */
#define HDR_SOURCE_SHIFT 14
#define HDR_SEQ_SHIFT 26	/* seq fills the payload from here: W - 26 bits */
#define FLIT_ADDR_BITS 12	/* a node index, address and source */
#define FLIT_MAX_NODES (1u << FLIT_ADDR_BITS)
#define FLIT_MIN_PAYLOAD 32
#define FLIT_MAX_PAYLOAD 62

/* The same fields in flit bits, as the RTL decodes them. */
#define FLIT_TYPE_BIT (FLIT_KIND_BITS + HDR_TYPE_BIT)
#define FLIT_IR_BIT (FLIT_KIND_BITS + HDR_IR_BIT)
#define FLIT_ADDR_LSB (FLIT_KIND_BITS + HDR_ADDR_SHIFT)
#define FLIT_ADDR_MSB (FLIT_ADDR_LSB + FLIT_ADDR_BITS - 1)
#define FLIT_SOURCE_LSB (FLIT_KIND_BITS + HDR_SOURCE_SHIFT)
#define FLIT_SOURCE_MSB (FLIT_SOURCE_LSB + FLIT_ADDR_BITS - 1)
#define FLIT_SEQ_LSB (FLIT_KIND_BITS + HDR_SEQ_SHIFT)
/* Route computation reads flit[FLIT_ROUTE_BITS-1:0]: kind, type, ir and address. */
#define FLIT_ROUTE_BITS (FLIT_ADDR_MSB + 1)

#ifdef __cplusplus
#define FLIT_STATIC_ASSERT static_assert
#else
#define FLIT_STATIC_ASSERT _Static_assert
#endif
FLIT_STATIC_ASSERT(HDR_IR_BIT == HDR_TYPE_BIT + 1 && HDR_ADDR_SHIFT == HDR_IR_BIT + 1 &&
		   HDR_SOURCE_SHIFT == HDR_ADDR_SHIFT + FLIT_ADDR_BITS &&
		   HDR_SEQ_SHIFT == HDR_SOURCE_SHIFT + FLIT_ADDR_BITS,
		   "header fields are contiguous, in this order");
FLIT_STATIC_ASSERT(HDR_TYPE_B == 1 && FLIT_KIND_HEAD == 1 << FLIT_HEAD_BIT &&
		   FLIT_KIND_TAIL == 1 << FLIT_TAIL_BIT,
		   "the RTL reads B, is_head and is_tail as single bits set");
FLIT_STATIC_ASSERT(HDR_SEQ_SHIFT < FLIT_MIN_PAYLOAD && FLIT_MAX_PAYLOAD + FLIT_KIND_BITS <= 64,
		   "every payload width has sequence bits, and a flit fits a uint64_t");

typedef uint64_t flit_t;

enum flit_kind {
	FLIT_BODY = FLIT_KIND_BODY,
	FLIT_HEAD = FLIT_KIND_HEAD,
	FLIT_TAIL = FLIT_KIND_TAIL,
	FLIT_SINGLE = FLIT_KIND_SINGLE,	/* head and tail: a one-flit message */
};

enum hdr_type {
	HDR_R = HDR_TYPE_R,	/* regular unicast */
	HDR_B = HDR_TYPE_B,	/* broadcast: the replication tree, or with ir the path */
};

struct header {
	enum hdr_type type;
	bool ir;		/* R: intermediate reception; B: the path broadcast */
	unsigned address;	/* R: destination; B: root of the tree or path */
	unsigned source;
	unsigned seq;		/* modulo 2^(W-26) */
};

/*
 * The kind of a message, as reports name it: R, R+IR (intermediate reception), B (the
 * replication tree) or B+IR (the path broadcast, docs/microarchitecture.md section 8).
 */
static inline const char *msg_kind_name(enum hdr_type type, bool ir)
{
	if (type == HDR_B)
		return ir ? "B+IR" : "B";
	return ir ? "R+IR" : "R";
}

static inline bool flit_is_head(flit_t f) { return (f >> FLIT_HEAD_BIT) & 1u; }
static inline bool flit_is_tail(flit_t f) { return (f >> FLIT_TAIL_BIT) & 1u; }
static inline unsigned flit_kind(flit_t f) { return (unsigned)(f & ((1u << FLIT_KIND_BITS) - 1)); }
static inline uint64_t flit_payload(flit_t f) { return f >> FLIT_KIND_BITS; }

static inline uint64_t payload_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static inline flit_t flit_make(unsigned kind, uint64_t payload, unsigned width)
{
	return ((payload & payload_mask(width)) << FLIT_KIND_BITS) |
	       (kind & ((1u << FLIT_KIND_BITS) - 1));
}

static inline unsigned seq_bits(unsigned width) { return width - HDR_SEQ_SHIFT; }

static inline uint64_t header_pack(const struct header *h, unsigned width)
{
	uint64_t p = ((uint64_t)(h->type & 1u) << HDR_TYPE_BIT) |
		     ((uint64_t)(h->ir ? 1 : 0) << HDR_IR_BIT) |
		     ((uint64_t)(h->address & (FLIT_MAX_NODES - 1)) << HDR_ADDR_SHIFT) |
		     ((uint64_t)(h->source & (FLIT_MAX_NODES - 1)) << HDR_SOURCE_SHIFT) |
		     ((uint64_t)h->seq << HDR_SEQ_SHIFT);
	return p & payload_mask(width);
}

/*
 * One field of a head's payload, for a reader that needs no other (route computation:
 * header_unpack() decodes them all).
 */
static inline enum hdr_type hdr_type_of(uint64_t payload)
{
	return (enum hdr_type)((payload >> HDR_TYPE_BIT) & 1u);
}
static inline bool hdr_ir_of(uint64_t payload) { return (payload >> HDR_IR_BIT) & 1u; }
static inline unsigned hdr_address_of(uint64_t payload)
{
	return (unsigned)(payload >> HDR_ADDR_SHIFT) & (FLIT_MAX_NODES - 1);
}

static inline struct header header_unpack(uint64_t payload, unsigned width)
{
	struct header h;

	h.type = hdr_type_of(payload);
	h.ir = hdr_ir_of(payload);
	h.address = hdr_address_of(payload);
	h.source = (unsigned)(payload >> HDR_SOURCE_SHIFT) & (FLIT_MAX_NODES - 1);
	h.seq = (unsigned)((payload & payload_mask(width)) >> HDR_SEQ_SHIFT);
	return h;
}

#endif
