/* SPDX-License-Identifier: MIT */
/*
 * bounds.h - lower bounds on the cycles of an all-to-all collective on THIS router,
 * computed from the actual graph and parameters (docs/algorithms.md, "Lower bounds",
 * has the model and the derivation of every term).
 *
 * The model: the first send is called at cycle 0 and the run ends at the last tail
 * arrival T; a send pays t_s before its head is on its first link, so every payload
 * flit crosses links in cycles t_s + 1 .. T - 1 and is ejected in t_s + 2 .. T; a
 * directed link carries one flit per cycle; a node's payload enters and leaves through
 * its links (all-port: one injection and one ejection channel per link) or through its
 * single injection and ejection channel (one-port); blocks hold mu payload words and
 * payload words travel only in payload flits.  Then, with cap(v) = the links of v
 * (all-port) or 1 (one-port):
 *   latency     T >= t_s + dist(s, d) + ceil(mu / min(cap(s), cap(d))) for every pair;
 *   cut         T >= t_s + 1 + ceil(F / C) for every cut with F payload flits that must
 *               cross it in one direction over C links (or, for a single node, cap(v)
 *               channels) in that direction: each hypercube dimension, every mesh row
 *               and column cut, every single node;
 *   throughput  T >= t_s + 1 + ceil(X / 2|E|), X = the link crossings that are
 *               unavoidable (AAS: mu * sum of distances; AAB: mu * N * (N - 1)).
 * For a one-to-all broadcast or a reduction only the latency term of the pairs with the
 * root applies.
 */
#ifndef WORMCAST_ALGOS_BOUNDS_H
#define WORMCAST_ALGOS_BOUNDS_H

#include <stdbool.h>

#include "algos.h"

struct lower_bound {
	long long latency, cut, throughput;	/* the three terms, in cycles */
	char cut_name[64];			/* the cut that gives the cut term */
	long long cycles;			/* their maximum */
	char text[320];
};

/* words = mu, payload words per block.  0, or -1 where no bound applies (one node). */
int aas_lower_bound(const struct sim_config *cfg, int words, struct lower_bound *b);
int aab_lower_bound(const struct sim_config *cfg, int words, struct lower_bound *b);
/*
 * One-to-all broadcast from root, or reduction to root: only the latency term, over the
 * pairs (root, v), since a B message or a partial sum carries every block at once.
 */
int rooted_lower_bound(const struct sim_config *cfg, int root, int words, bool reduce,
		       struct lower_bound *b);

#endif
