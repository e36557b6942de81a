/* SPDX-License-Identifier: MIT */
/*
 * flit.h - flit and header encoding (docs/microarchitecture.md section 4).
 *
 * A flit is W+2 bits held in a uint64_t: bits [1:0] are the kind, bits [W+1:2] the
 * payload.  kind bit 0 = is_head, bit 1 = is_tail.  The head's payload is the header:
 * [0] hdr_type, [1] ir, [13:2] address, [25:14] source, [W-1:26] seq.
 */
#ifndef WORMCAST_FLIT_H
#define WORMCAST_FLIT_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t flit_t;

enum flit_kind {
	FLIT_BODY = 0,
	FLIT_HEAD = 1,
	FLIT_TAIL = 2,
	FLIT_SINGLE = 3,	/* head and tail: a one-flit message */
};

enum hdr_type {
	HDR_R = 0,		/* regular unicast */
	HDR_B = 1,		/* broadcast: the replication tree, or with ir the path */
};

#define FLIT_ADDR_BITS 12
#define FLIT_MAX_NODES (1u << FLIT_ADDR_BITS)
#define FLIT_SEQ_SHIFT 26
#define FLIT_MIN_PAYLOAD 32
#define FLIT_MAX_PAYLOAD 62

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

static inline bool flit_is_head(flit_t f) { return f & 1u; }
static inline bool flit_is_tail(flit_t f) { return (f >> 1) & 1u; }
static inline unsigned flit_kind(flit_t f) { return (unsigned)(f & 3u); }
static inline uint64_t flit_payload(flit_t f) { return f >> 2; }

static inline uint64_t payload_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static inline flit_t flit_make(unsigned kind, uint64_t payload, unsigned width)
{
	return ((payload & payload_mask(width)) << 2) | (kind & 3u);
}

static inline unsigned seq_bits(unsigned width) { return width - FLIT_SEQ_SHIFT; }

static inline uint64_t header_pack(const struct header *h, unsigned width)
{
	uint64_t p = (uint64_t)(h->type & 1u) | ((uint64_t)(h->ir ? 1 : 0) << 1) |
		     ((uint64_t)(h->address & (FLIT_MAX_NODES - 1)) << 2) |
		     ((uint64_t)(h->source & (FLIT_MAX_NODES - 1)) << 14) |
		     ((uint64_t)h->seq << FLIT_SEQ_SHIFT);
	return p & payload_mask(width);
}

static inline struct header header_unpack(uint64_t payload, unsigned width)
{
	struct header h;

	h.type = (enum hdr_type)(payload & 1u);
	h.ir = (payload >> 1) & 1u;
	h.address = (unsigned)(payload >> 2) & (FLIT_MAX_NODES - 1);
	h.source = (unsigned)(payload >> 14) & (FLIT_MAX_NODES - 1);
	h.seq = (unsigned)((payload & payload_mask(width)) >> FLIT_SEQ_SHIFT);
	return h;
}

#endif
