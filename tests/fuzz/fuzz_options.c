/* SPDX-License-Identifier: MIT */
/*
 * fuzz_options.c - libFuzzer target: option values on any bytes.  The input is a
 * list of NUL-separated words; each goes through the parsers of option values that
 * exist as library functions (the topology names of model/topology.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], name[64];
	struct topology t;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *w = text; w < text + size; w += strlen(w) + 1) {
		err[0] = '\0';
		if (topology_parse(w, &t, err, sizeof(err))) {
			if (!err[0])
				abort();	/* a refused name says why */
			continue;
		}
		if (t.nodes < 2 || t.nodes > 4096 || t.ports < 1 || t.ports > TOPO_MAX_PORTS)
			abort();
		topology_name(&t, name, sizeof(name));
	}
	free(text);
	return 0;
}
