/* SPDX-License-Identifier: MIT */
/*
 * huge_pages.h - ask the kernel for transparent huge pages under a large array that a
 * run touches whole (the routers, the pair walk's inputs): a fault maps 2 MB, not 4 KB.
 * The pair walk's 8 MB of inputs on Q_12 took about 2000 faults, a fifth of the
 * broadcast's CPU time (pbcast Q_12, L = 4096, the pair walk, best of 11: 0.0243 ->
 * 0.0217 s).  Advice only: where the kernel gives no huge pages (transparent_hugepage
 * "never", another system), nothing changes; the results never do.
 */
#ifndef WORMCAST_HUGE_PAGES_H
#define WORMCAST_HUGE_PAGES_H

#include <stddef.h>
#include <stdint.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Below this, the array is a few pages' faults: no advice. */
#define HUGE_PAGES_MIN (4u << 20)

static inline void huge_pages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;

	if (p && bytes >= HUGE_PAGES_MIN && e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

#endif
