/* SPDX-License-Identifier: MIT */
/*
 * waves.h - VCD waveforms of the C model, with the RTL's hierarchy and port names
 * (TOP.wc_hypercube.gen_node[n].u_router.link_valid_o, ...), so that a model run and
 * an RTL run of the same workload can be laid side by side in GTKWave.
 *
 * Time: one cycle is 10 ns.  At 10n the inputs of cycle n (NI-driven injection flits
 * and ejection credits) are recorded; at 10n + 5 (the rising clock edge) the
 * registers take their cycle n+1 values.
 */
#ifndef WORMCAST_WAVES_H
#define WORMCAST_WAVES_H

#include <stdio.h>

#include "network.h"
#include "sim.h"

/*
 * Wrap engine `inner` (the C model, whose network is `net`) into `outer`, which
 * records every signal of every router as a VCD into f (which the caller closes).
 * Returns 0, or -1 if memory ran out.
 */
int waves_wrap(struct engine *outer, const struct engine *inner, const struct network *net,
	       FILE *f);
/* Flush the VCD and free the wrapper; returns 0, or -1 on a write error. */
int waves_close(struct engine *outer);
/* The wrapped engine. */
struct engine *waves_inner(struct engine *outer);

#endif
