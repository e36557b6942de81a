/* SPDX-License-Identifier: MIT */
/*
 * holdings.c - direct rows for the blocks of the kind, and for the rest open addressing
 * with linear probing; the table doubles at half load.
 */
#include "holdings.h"

#include <stdlib.h>

#include "skeleton.h"

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

int holdings_rows(struct holdings *h, const struct holdings_rows *r)
{
	if (r->words)
		h->row = calloc((size_t)r->nodes, sizeof(*h->row));
	else
		h->bits = calloc((size_t)r->nodes, sizeof(*h->bits));
	if (!h->row && !h->bits)
		return -1;
	h->rows = *r;
	return 0;
}

void holdings_free(struct holdings *h)
{
	for (int v = 0; v < h->rows.nodes; v++) {
		if (h->row)
			free(h->row[v]);
		if (h->bits)
			free(h->bits[v]);
	}
	free(h->row);
	free(h->bits);
	free(h->slot);
	holdings_init(h);
}

static size_t row_len(const struct holdings *h)
{
	return (size_t)(h->rows.o_hi - h->rows.o_lo) * (size_t)h->rows.blocks;
}

static const struct held *slot_find(const struct holdings *h, uint64_t key)
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

bool holdings_has(const struct holdings *h, uint64_t key)
{
	long k = holdings_row_slot(h, key);

	if (k >= 0 && h->bits) {
		const uint64_t *bits = h->bits[key >> 51];

		return bits && bits[k >> 6] >> (k & 63) & 1;
	}
	if (k >= 0) {
		const struct held *row = h->row[key >> 51];

		return row && row[k].key == key;
	}
	return slot_find(h, key) != NULL;
}

/* Every bit in [from, to) set: whole words at once. */
static bool bits_set(const uint64_t *bits, size_t from, size_t to)
{
	while (from < to) {
		if (!(from & 63) && to - from >= 64) {
			if (bits[from >> 6] != ~0ull)
				return false;
			from += 64;
		} else if (!(bits[from >> 6] >> (from & 63) & 1)) {
			return false;
		} else {
			from++;
		}
	}
	return true;
}

bool holdings_row_full(const struct holdings *h, int v, int o_lo, int o_hi, int dest, int skip)
{
	const struct holdings_rows *r = &h->rows;
	size_t b = (size_t)r->blocks, lo, hi;
	const uint64_t *bits;

	if (!h->bits || v < 0 || v >= r->nodes || (r->only_node >= 0 && v != r->only_node) ||
	    dest != (r->dest == HOLD_DEST_SELF ? v : r->dest) || o_lo < r->o_lo || o_hi > r->o_hi)
		return false;
	if (o_lo >= o_hi)
		return true;
	bits = h->bits[v];
	if (!bits)
		return false;
	lo = (size_t)(o_lo - r->o_lo) * b;
	hi = (size_t)(o_hi - r->o_lo) * b;
	if (skip < o_lo || skip >= o_hi)
		return bits_set(bits, lo, hi);
	return bits_set(bits, lo, (size_t)(skip - r->o_lo) * b) &&
	       bits_set(bits, (size_t)(skip - r->o_lo + 1) * b, hi);
}

const struct held *holdings_find(const struct holdings *h, uint64_t key)
{
	long k = holdings_row_slot(h, key);

	if (k >= 0 && h->row) {
		const struct held *row = h->row[key >> 51];

		return row && row[k].key == key ? &row[k] : NULL;
	}
	return k >= 0 ? NULL : slot_find(h, key);
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

int holdings_add(struct holdings *h, uint64_t key, const uint64_t *words)
{
	long k = holdings_row_slot(h, key);
	struct held *e;

	if (k >= 0 && h->bits) {
		uint64_t **bits = &h->bits[key >> 51];

		if (!*bits) {
			*bits = calloc((row_len(h) + 63) / 64, sizeof(**bits));
			if (!*bits)
				return -1;
		}
		if ((*bits)[k >> 6] >> (k & 63) & 1)
			return 1;
		(*bits)[k >> 6] |= 1ull << (k & 63);
		return 0;
	}
	if (k >= 0) {
		struct held **row = &h->row[key >> 51];

		if (!*row) {
			size_t len = row_len(h);

			*row = malloc(sizeof(**row) * len);
			if (!*row)
				return -1;
			for (size_t i = 0; i < len; i++)
				(*row)[i].key = HELD_EMPTY;
		}
		if ((*row)[k].key == key)
			return 1;
		(*row)[k] = (struct held){ key, words };
		return 0;
	}
	if (slot_find(h, key))
		return 1;
	if (2 * (h->n + 1) > h->cap && grow(h))
		return -1;
	e = place(h->slot, h->cap, key);
	e->words = words;
	h->n++;
	return 0;
}
