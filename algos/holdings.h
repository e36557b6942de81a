/* SPDX-License-Identifier: MIT */
/*
 * holdings.h - the blocks every node holds, keyed by (node, block key).  A node's own
 * blocks are not stored (the skeleton knows them from the kind of collective); every
 * received block is, with a pointer to its words in the message that brought it
 * (messages live as long as the run).
 *
 * The blocks the kind of collective makes every node end up with (the root's blocks
 * of a broadcast, (o, v, ix) at node v of a personalized exchange, ...) are held in a
 * per-node row indexed directly by (origin, index): an all-to-all run holds nodes^2
 * blocks, and a hash table of that size misses the cache on every lookup.  Every other
 * block (one a node forwards on someone else's behalf) is in an open-addressing hash
 * table.
 */
#ifndef WORMCAST_ALGOS_HOLDINGS_H
#define WORMCAST_ALGOS_HOLDINGS_H

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
};

struct holdings {
	struct held *slot;
	size_t cap, n;		/* cap is a power of two */
	struct holdings_rows rows;
	struct held **row;	/* per node, allocated at its first block; NULL: no rows */
};

static inline uint64_t held_key(int node, uint64_t block)
{
	return (uint64_t)node << 51 | block;
}

void holdings_init(struct holdings *h);
/* Direct rows for the blocks r describes; -1 if out of memory (h stays usable). */
int holdings_rows(struct holdings *h, const struct holdings_rows *r);
void holdings_free(struct holdings *h);
/* The entry, or NULL. */
const struct held *holdings_find(const struct holdings *h, uint64_t key);
/* A new entry for key (which must not be held yet), or NULL if out of memory. */
struct held *holdings_add(struct holdings *h, uint64_t key);

#endif
