/* SPDX-License-Identifier: MIT */
/*
 * holdings.c - open addressing with linear probing; the table doubles at half load.
 */
#include "holdings.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 31;
	key *= 0x7fb5d329728ea185ull;
	key ^= key >> 27;
	key *= 0x81dadef4bc2dd44dull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void holdings_init(struct holdings *h)
{
	*h = (struct holdings){ 0 };
}

void holdings_free(struct holdings *h)
{
	free(h->slot);
	holdings_init(h);
}

const struct held *holdings_find(const struct holdings *h, uint64_t key)
{
	if (!h->cap)
		return NULL;
	for (size_t k = slot_of(key, h->cap);; k = (k + 1) & (h->cap - 1)) {
		if (h->slot[k].key == key)
			return &h->slot[k];
		if (h->slot[k].key == HELD_EMPTY)
			return NULL;
	}
}

static struct held *place(struct held *slot, size_t cap, uint64_t key)
{
	size_t k = slot_of(key, cap);

	while (slot[k].key != HELD_EMPTY)
		k = (k + 1) & (cap - 1);
	slot[k].key = key;
	return &slot[k];
}

static int grow(struct holdings *h)
{
	size_t cap = h->cap ? 2 * h->cap : 1024;
	struct held *slot = malloc(sizeof(*slot) * cap);

	if (!slot)
		return -1;
	for (size_t k = 0; k < cap; k++)
		slot[k].key = HELD_EMPTY;
	for (size_t k = 0; k < h->cap; k++)
		if (h->slot[k].key != HELD_EMPTY)
			*place(slot, cap, h->slot[k].key) = h->slot[k];
	free(h->slot);
	h->slot = slot;
	h->cap = cap;
	return 0;
}

struct held *holdings_add(struct holdings *h, uint64_t key)
{
	struct held *e;

	if (2 * (h->n + 1) > h->cap && grow(h))
		return NULL;
	e = place(h->slot, h->cap, key);
	e->words = NULL;
	h->n++;
	return e;
}
