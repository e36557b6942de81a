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

#endif
