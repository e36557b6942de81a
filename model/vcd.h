/* SPDX-License-Identifier: MIT */
/*
 * vcd.h - a small Value Change Dump writer (IEEE 1364 section 18): scopes, vectors of
 * any width, value changes only.  Used for the model's waveforms and for the
 * cosimulation's mismatch window, so that they open in GTKWave beside the RTL's.
 */
#ifndef WORMCAST_VCD_H
#define WORMCAST_VCD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vcd;

/*
 * Write a VCD into f (which the caller opened and will close: an outfile.h stream);
 * NULL if out of memory.
 */
struct vcd *vcd_open(FILE *f);
/* Declarations: nested scopes and variables, before vcd_end_definitions(). */
void vcd_scope(struct vcd *v, const char *name);
void vcd_upscope(struct vcd *v);
/* A wire of width >= 1 bits; returns its handle. */
int vcd_var(struct vcd *v, const char *name, int width);
void vcd_end_definitions(struct vcd *v);
/* Advance time (timescale 1 ns); times must not decrease. */
void vcd_time(struct vcd *v, uint64_t t);
/* Record a value (width <= 64); written only if it differs from the last one. */
void vcd_value(struct vcd *v, int var, uint64_t value);
/* Record a wide value: words[0] holds bits 63..0, words[1] bits 127..64, ... */
void vcd_value_wide(struct vcd *v, int var, const uint64_t *words);
/* A variable could not be declared (out of memory). */
bool vcd_failed(const struct vcd *v);
/*
 * Flush and free; returns 0, or -1 if a write failed or memory ran out (a variable
 * is missing).  f stays open.
 */
int vcd_close(struct vcd *v);

#ifdef __cplusplus
}
#endif

#endif
