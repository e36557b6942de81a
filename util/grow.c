/* SPDX-License-Identifier: MIT */
/*
 * grow.c - arrays that double when full (see grow.h).
 */
#include "grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

void *grow_array(void *array, size_t *cap, size_t need, size_t size, size_t first,
		 size_t max)
{
	size_t c = *cap ? *cap : first;
	void *p;

	if (array && need <= *cap)
		return array;
	/* The byte count must not wrap: a wrapped one would allocate too little. */
	if (size && max > SIZE_MAX / size)
		max = SIZE_MAX / size;
	if (need > max) {
		errno = ENOMEM;
		return NULL;
	}
	if (!c)
		c = 1;
	while (c < need)
		c = c > max / 2 ? max : 2 * c;
	if (c > max)	/* first larger than max */
		c = max;
	p = realloc(array, size * c);
	if (!p)
		return NULL;
	*cap = c;
	return p;
}
