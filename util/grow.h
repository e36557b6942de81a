/* SPDX-License-Identifier: MIT */
/*
 * grow.h - the one growable array of wormcast: an array whose capacity doubles when it
 * is full, so that n appends cost O(n) copies.  Every site that used to double and
 * realloc() by hand (the model's pools, the drivers' tables, the front end's lists)
 * calls this instead, so the size arithmetic and its overflow checks live in one place.
 */
#ifndef WORMCAST_GROW_H
#define WORMCAST_GROW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Room for at least need elements of size bytes in array, which holds *cap of them:
 * the capacity becomes first if it was 0, and is doubled until it holds need, never
 * past max elements (the largest value the caller's capacity can hold) nor SIZE_MAX
 * bytes.  Returns the array (moved, and *cap set, if it grew), or NULL with errno set
 * (ENOMEM: out of memory, or need more than max) and array and *cap untouched, still
 * the caller's to use or free.
 */
void *grow_array(void *array, size_t *cap, size_t need, size_t size, size_t first,
		 size_t max);

#ifdef __cplusplus
}
#endif

#endif
