/* SPDX-License-Identifier: MIT */
/*
 * engines.c - the engines a run can use.  This build has the C model; the RTL and
 * cosimulation engines come from cosim/ when it is built.
 */
#include "engines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int engine_options_parse(const char *name, const char *vcd, const char *fst,
			 struct engine_options *o, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	if (strcmp(name, "model") && strcmp(name, "rtl") && strcmp(name, "cosim")) {
		snprintf(err, errlen, "unknown engine '%s' (expected model, rtl or cosim)", name);
		return -1;
	}
	o->name = name;
	o->vcd = vcd;
	o->fst = fst;
	if (strcmp(name, "model")) {
		snprintf(err, errlen, "engine '%s' is not available in this build", name);
		return -1;
	}
	if (vcd || fst) {
		snprintf(err, errlen, "waveforms are not available in this build");
		return -1;
	}
	return 0;
}

int engine_create(const struct engine_options *o, const struct sim_config *cfg,
		  struct engine *e, char *err, size_t errlen)
{
	struct router_params p = {
		.topo = &cfg->topo, .all_port = cfg->all_port,
		.buffer_depth = cfg->buffer_depth, .payload_width = cfg->payload_width,
	};

	(void)o;
	/* The network copies what it needs: it does not point into cfg. */
	if (model_engine_create(e, &p)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void engine_finish(struct engine *e, struct engine_report *r)
{
	memset(r, 0, sizeof(*r));
	r->engine = e->ops->name;
}

void engine_destroy(struct engine *e)
{
	model_engine_destroy(e);
}

void engine_report_json(const struct engine_report *r, cJSON *obj)
{
	cJSON_AddNumberToObject(obj, "cycles_compared", (double)r->cycles_compared);
	cJSON_AddNumberToObject(obj, "signals_compared", (double)r->signals_compared);
	cJSON_AddNumberToObject(obj, "mismatches", (double)r->mismatches);
	if (r->detail[0])
		cJSON_AddStringToObject(obj, "first_mismatch", r->detail);
}

void engine_report_print(const struct engine_report *r, FILE *out)
{
	if (r->cycles_compared || r->mismatches)
		fprintf(out, "  cosim: %llu cycles, %llu signal values compared, %llu mismatches%s%s\n",
			(unsigned long long)r->cycles_compared,
			(unsigned long long)r->signals_compared,
			(unsigned long long)r->mismatches, r->detail[0] ? ": " : "", r->detail);
}

void engine_list_json(cJSON *obj)
{
	cJSON *a = cJSON_AddArrayToObject(obj, "engines");

	cJSON_AddItemToArray(a, cJSON_CreateString("model"));
}

void engine_list_print(FILE *out)
{
	fprintf(out, "engines: model\n");
}
