/* SPDX-License-Identifier: MIT */
/*
 * fuzz_trace.c - libFuzzer target: the trace reader (algos/trace.c) on any bytes.
 * The first byte picks the network (so node numbers are in range or not), the rest
 * is the trace.  A reader that crashes, reads out of bounds, leaks or hits undefined
 * behaviour fails (the sanitizers); a rejected trace must come with its one line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const topologies[] = { "hypercube:1", "hypercube:4", "hypercube:12",
						  "mesh:1x2", "mesh:3x5", "mesh:64x64" };
	struct topology t;
	struct trace *tr;
	char err[256] = "", path[64];
	int fd;

	if (size < 1)
		return 0;
	if (topology_parse(topologies[data[0] % 6], &t, err, sizeof(err)))
		abort();
	fd = fuzz_input_file(data + 1, size - 1, path, sizeof(path));
	if (fd < 0)
		return 0;
	tr = trace_load(path, &t, err, sizeof(err));
	if (!tr && !err[0])
		abort();	/* a rejected trace says why */
	if (tr && trace_count(tr) < 1)
		abort();	/* an accepted trace has messages */
	trace_destroy(tr);
	fuzz_input_close(fd);
	return 0;
}
