/* SPDX-License-Identifier: MIT */
/*
 * holdings.h - the blocks every node holds, keyed by (node, block key).  A node's own
 * blocks are not stored (the skeleton knows them from the kind of collective); every
 * received block is, and, if the holdings keep words (a reduction's partial sums), with
 * a pointer to its words in the message that brought it (such messages then live as
 * long as the run).  Otherwise a held block is one bit: its words are a function of
 * the block, checked on arrival.
 *
 * The blocks the kind of collective makes every node end up with (the root's blocks
 * of a broadcast, (o, v, ix) at node v of a personalized exchange, ...) are held in a
 * per-node row indexed directly by (origin, index): an all-to-all run holds nodes^2
 * blocks, and a hash table of that size misses the cache on every lookup (a row is a
 * bit per block unless the holdings keep words).  Every other
 * block (one a node forwards on someone else's behalf) is in an open-addressing hash
 * table.
 */
#ifndef WORMCAST_ALGOS_HOLDINGS_H
#define WORMCAST_ALGOS_HOLDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct held {
	uint64_t key;		/* node << 51 | block key; HELD_EMPTY if the slot is free */
	/*
	 * The block's words, or NULL for a reduction contribution whose value is inside
	 * a partial sum held under another block of the same message.
	 */
	const uint64_t *words;
};

#define HELD_EMPTY UINT64_MAX

/* Row destination meaning "the node itself" (personalized exchange). */
#define HOLD_DEST_SELF (-2)

/* Which blocks have a direct row: (o, dest, ix), o_lo <= o < o_hi, ix < blocks. */
struct holdings_rows {
	int nodes;
	int only_node;		/* the one node with a row, or -1 for every node */
	int dest;		/* BLOCK_ANY, a node, or HOLD_DEST_SELF */
	int o_lo, o_hi;
	int blocks;
	bool words;		/* keep every held block's words (else presence only) */
};

struct holdings {
	struct held *slot;
	size_t cap, n;		/* cap is a power of two */
	struct holdings_rows rows;
	/* Per node, allocated at its first block: with words, else a bit per block. */
	struct held **row;
	uint64_t **bits;
};

static inline uint64_t held_key(int node, uint64_t block)
{
	return (uint64_t)node << 51 | block;
}

void holdings_init(struct holdings *h);
/* Direct rows for the blocks r describes; -1 if out of memory (h stays usable). */
int holdings_rows(struct holdings *h, const struct holdings_rows *r);
void holdings_free(struct holdings *h);
/* Is key held? */
bool holdings_has(const struct holdings *h, uint64_t key);
/* The entry with its words (holdings that keep words), or NULL. */
const struct held *holdings_find(const struct holdings *h, uint64_t key);
/*
 * Does node v hold every block (o, dest, ix), o_lo <= o < o_hi, o != skip,
 * ix < rows.blocks, in its direct row of bits?  false if one is missing, or if
 * these blocks are not in such a row (then ask holdings_has() block by block).
 */
bool holdings_row_full(const struct holdings *h, int v, int o_lo, int o_hi, int dest, int skip);
/*
 * Hold key with its words (or NULL) unless it is held already: 0 if added, 1 if it was
 * held (nothing changes), -1 if out of memory.  One lookup for the test and the add.
 */
int holdings_add(struct holdings *h, uint64_t key, const uint64_t *words);

/*
 * Where the block (origin o, destination field d, index ix) of node v has its slot in
 * the direct rows (v's row, maybe not allocated), or -1.  The fields as a key holds
 * them (d 0x1fff for BLOCK_ANY); a caller that has them decoded (a static schedule's
 * receipt) passes them without packing and unpacking a key.  On every lookup, so
 * inlined into each: the fields compared raw, unsigned, so that a field below its
 * range wraps above it (rows.nodes is 0 when there are no rows).
 */
static inline __attribute__((always_inline)) long
holdings_slot_at(const struct holdings *h, unsigned v, unsigned o, unsigned d, unsigned ix)
{
	const struct holdings_rows *r = &h->rows;
	unsigned dest = r->dest == HOLD_DEST_SELF ? v : (unsigned)r->dest & 0x1fff;

	o -= (unsigned)r->o_lo;
	if (v >= (unsigned)r->nodes || d != dest || o >= (unsigned)(r->o_hi - r->o_lo) ||
	    ix >= (unsigned)r->blocks || (r->only_node >= 0 && (int)v != r->only_node))
		return -1;
	return (long)o * r->blocks + ix;
}

/* Where key's slot is in the direct rows, or -1 (holdings_slot_at() of its fields). */
static inline __attribute__((always_inline)) long
holdings_row_slot(const struct holdings *h, uint64_t key)
{
	return holdings_slot_at(h, (unsigned)(key >> 51), (unsigned)(key >> 38 & 0x1fff),
				(unsigned)(key >> 25 & 0x1fff), (unsigned)(key & 0x1ffffff));
}

/*
 * holdings_hold() of key = held_key(v, block (o, d, ix)) given its fields as well: a
 * receipt that has them decoded finds its bit without decoding the key again.
 */
static inline __attribute__((always_inline)) int
holdings_hold_at(struct holdings *h, unsigned v, unsigned o, unsigned d, unsigned ix,
		 uint64_t key, const uint64_t *words)
{
	long k = h->bits ? holdings_slot_at(h, v, o, d, ix) : -1;
	uint64_t *bits = k >= 0 ? h->bits[v] : NULL;

	if (bits) {
		uint64_t bit = 1ull << (k & 63);

		if (bits[k >> 6] & bit)
			return 1;
		bits[k >> 6] |= bit;
		return 0;
	}
	return holdings_add(h, key, words);
}

/*
 * holdings_add() with the common case inline: a key of a direct row of bits that is
 * allocated (every receipt of an exchange or a broadcast after a node's first) sets
 * its bit here, without the call; the rest goes to holdings_add().
 */
static inline __attribute__((always_inline)) int
holdings_hold(struct holdings *h, uint64_t key, const uint64_t *words)
{
	return holdings_hold_at(h, (unsigned)(key >> 51), (unsigned)(key >> 38 & 0x1fff),
				(unsigned)(key >> 25 & 0x1fff), (unsigned)(key & 0x1ffffff), key,
				words);
}

#endif
