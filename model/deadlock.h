/* SPDX-License-Identifier: MIT */
/*
 * deadlock.h - the deadlock report: the chains of blocked messages of a network that
 * stopped moving, read from the routers' architectural state (router_state.h)
 * through the engine, so it is the same report for the C model, the RTL and the
 * cosimulation.
 *
 * Each chain starts at a head that waits for outputs and follows who it waits for:
 * a head waits for an output held by another message (at the same router); a message
 * that holds its outputs waits for a credit of one of them, that is for the full input
 * buffer downstream and the message at the head of it; a message whose flits have not
 * arrived waits for its own flits upstream.  The chain ends when it comes back to a
 * message already in it (the cycle of the deadlock: "the cycle closes") or at a
 * resource that is not a message (an ejection channel whose NI does not drain).
 */
#ifndef WORMCAST_DEADLOCK_H
#define WORMCAST_DEADLOCK_H

#include <stdio.h>

#include "sim.h"

/*
 * Write the chains to out.  Returns 0; 1 if the engine cannot read router state (one
 * line says so); -1 if memory ran out.
 */
int deadlock_write_chains(const struct engine *e, const struct router_params *p, FILE *out);

#endif
