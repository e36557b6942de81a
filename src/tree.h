/* SPDX-License-Identifier: MIT */
/*
 * tree.h - `wormcast tree`: the replication tree of a B message (Jeon & Kim, Fig. 4),
 * or who sends to whom at each step of an algorithm, from the algorithm's own plan
 * evaluated by the contention-free schedule (algos/schedule.h), as text, as a Graphviz
 * graph, or drawn by Graphviz's dot as SVG.
 */
#ifndef WORMCAST_TREE_H
#define WORMCAST_TREE_H

#include "failure.h"
#include "options.h"

int command_tree(const struct options *o, struct failure *f);

#endif
