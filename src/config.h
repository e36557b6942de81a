/* SPDX-License-Identifier: MIT */
/*
 * config.h - configuration files (docs/config.md): INI files read with inih, whose
 * keys stand for command-line options.
 *
 *   [network]   topology, port_model, buffer_depth, payload_width
 *   [ni]        startup, sink_stall
 *   [run]       engine, watchdog, seed, vcd, fst, mismatch_vcd
 *   [algorithm] name, flits, root                    (run, sweep)
 *   [traffic]   rate, flits, cycles, ir_fraction, b_fraction   (traffic)
 *   [trace]     file, latencies                      (trace)
 */
#ifndef WORMCAST_CONFIG_H
#define WORMCAST_CONFIG_H

#include <stddef.h>

/*
 * Called for every key, in file order: option is the long command-line option the
 * key stands for ("buffer-depth"), section the file's section ("network").  Returns
 * 0, or -1 with one line (without the file and line) into err.
 */
typedef int (*config_apply_fn)(void *ctx, const char *section, const char *option,
			       const char *value, char *err, size_t errlen);

/*
 * Read path and apply its keys.  Returns 0, or -1 with one line into err,
 * "FILE:LINE: what is wrong" (or "FILE: ..." when the file cannot be read).
 * Unknown sections and keys, keys outside a section, keys given twice and syntax
 * errors are errors.
 */
int config_load(const char *path, config_apply_fn apply, void *ctx, char *err, size_t errlen);

#endif
