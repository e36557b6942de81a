/* SPDX-License-Identifier: MIT */
/*
 * aas.h - pieces shared by the all-to-all personalized exchange (AAS) algorithms.
 */
#ifndef WORMCAST_ALGOS_AAS_H
#define WORMCAST_ALGOS_AAS_H

#include "common.h"

/*
 * One step of a standard exchange (Lecture 11 STANDEXCH, Grama et al. 4.5) across the
 * virtual dimension `bit` of the node index, after the dimensions in `done` (masks of
 * index bits; `all` = every dimension): node v has gathered the blocks (x, u) with x
 * equal to v outside `done` and u equal to v on `done`, and sends across `bit` those
 * whose destination differs from v at `bit`: 2^|done| * 2^(d - |done| - 1) = p/2
 * blocks.  Appends them to the plan's last send.
 */
int aas_standard_step(struct plan *pl, int v, unsigned all, unsigned done, unsigned bit);

/* Every node but one of a line (mesh:1xN or mesh:Nx1): supports() for line algorithms. */
int aas_need_line(const struct algo_params *p, const char *name, char *err, size_t len);

#endif
