/* SPDX-License-Identifier: MIT */
/*
 * fuzz_trace.c - libFuzzer target: the trace reader (algos/trace.c, trace_parse()) on
 * any bytes.  The first byte picks the network (so that node numbers are in range or
 * not), the rest is the trace.  A crash, an out-of-bounds access, a leak or undefined
 * behaviour fails (the sanitizers), and so does a refusal without its one line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const topologies[] = { "hypercube:1", "hypercube:4", "hypercube:12",
						  "mesh:1x2", "mesh:3x5", "mesh:64x64" };
	struct topology t;
	struct trace *tr;
	char err[256] = "";

	if (size < 1)
		return 0;
	if (topology_parse(topologies[data[0] % 6], &t, err, sizeof(err)))
		abort();
	tr = trace_parse("fuzz.tr", (const char *)data + 1, size - 1, &t, err, sizeof(err));
	if (!tr && (!err[0] || strchr(err, '\n')))
		abort();	/* a refused trace says why, in one line */
	if (tr && trace_count(tr) < 1)
		abort();	/* an accepted trace has messages */
	trace_destroy(tr);
	return 0;
}
