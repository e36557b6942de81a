/* SPDX-License-Identifier: MIT */
/*
 * holdings.h - the blocks every node holds: an open-addressing hash table keyed by
 * (node, block key).  A node's own blocks are not stored (the skeleton knows them
 * from the kind of collective); every received block is, with a pointer to its words
 * in the message that brought it (messages live as long as the run).
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

struct holdings {
	struct held *slot;
	size_t cap, n;		/* cap is a power of two */
};

static inline uint64_t held_key(int node, uint64_t block)
{
	return (uint64_t)node << 51 | block;
}

void holdings_init(struct holdings *h);
void holdings_free(struct holdings *h);
/* The entry, or NULL. */
const struct held *holdings_find(const struct holdings *h, uint64_t key);
/* A new entry for key (which must not be held yet), or NULL if out of memory. */
struct held *holdings_add(struct holdings *h, uint64_t key);

#endif
