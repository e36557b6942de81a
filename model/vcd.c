/* SPDX-License-Identifier: MIT */
/*
 * vcd.c - VCD writer.  Identifiers are printable ASCII in base 94, as the format
 * allows; a value is written only when it changes, and a time stamp only when some
 * value changes at it, so idle stretches cost nothing in the file.
 */
#include "vcd.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "grow.h"

struct vcd_var {
	int width;
	int words;		/* 64-bit words of the value */
	size_t at;		/* offset of the value in vcd.values */
	bool known;
};

struct vcd {
	FILE *f;
	struct vcd_var *vars;
	int n, cap;
	uint64_t *values;
	size_t n_values, cap_values;
	uint64_t time;
	bool time_written;
	bool defined;
	bool failed;
};

struct vcd *vcd_open(FILE *f)
{
	struct vcd *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->f = f;
	fprintf(v->f, "$date wormcast $end\n$version wormcast model $end\n$timescale 1ns $end\n");
	return v;
}

static void write_id(FILE *f, int id)
{
	do {
		fputc('!' + id % 94, f);
		id /= 94;
	} while (id);
}

void vcd_scope(struct vcd *v, const char *name)
{
	fprintf(v->f, "$scope module %s $end\n", name);
}

void vcd_upscope(struct vcd *v)
{
	fprintf(v->f, "$upscope $end\n");
}

int vcd_var(struct vcd *v, const char *name, int width)
{
	if (v->n == v->cap) {
		size_t cap = (size_t)v->cap;
		struct vcd_var *p = grow_array(v->vars, &cap, cap + 1, sizeof(*p), 256, INT_MAX);

		if (!p) {
			v->failed = true;
			return 0;
		}
		v->vars = p;
		v->cap = (int)cap;
	}
	{
		int words = (width + 63) / 64;

		if (v->n_values + (size_t)words > v->cap_values) {
			uint64_t *p = grow_array(v->values, &v->cap_values,
						 v->n_values + (size_t)words, sizeof(*p), 1024,
						 SIZE_MAX);

			if (!p) {
				v->failed = true;
				return 0;
			}
			v->values = p;
		}
		v->vars[v->n] = (struct vcd_var){ .width = width, .words = words, .at = v->n_values };
		v->n_values += (size_t)words;
	}
	fprintf(v->f, "$var wire %d ", width);
	write_id(v->f, v->n);
	if (width > 1)
		fprintf(v->f, " %s [%d:0] $end\n", name, width - 1);
	else
		fprintf(v->f, " %s $end\n", name);
	return v->n++;
}

void vcd_end_definitions(struct vcd *v)
{
	fprintf(v->f, "$enddefinitions $end\n");
	v->defined = true;
}

void vcd_time(struct vcd *v, uint64_t t)
{
	if (t != v->time || !v->time_written)
		v->time_written = false;
	v->time = t;
}

void vcd_value_wide(struct vcd *v, int var, const uint64_t *words)
{
	struct vcd_var *x = &v->vars[var];
	uint64_t *old = &v->values[x->at];
	int top;
	bool same = x->known;

	for (int w = 0; w < x->words && same; w++)
		same = old[w] == words[w];
	if (same)
		return;
	x->known = true;
	for (int w = 0; w < x->words; w++)
		old[w] = words[w];
	if (!v->time_written) {
		fprintf(v->f, "#%llu\n", (unsigned long long)v->time);
		v->time_written = true;
	}
	if (x->width == 1) {
		fputc(words[0] & 1 ? '1' : '0', v->f);
	} else {
		/* Leading zeros may be left out. */
		fputc('b', v->f);
		for (top = x->width - 1; top > 0 && !(words[top / 64] >> (top % 64) & 1); top--)
			;
		for (int b = top; b >= 0; b--)
			fputc(words[b / 64] >> (b % 64) & 1 ? '1' : '0', v->f);
		fputc(' ', v->f);
	}
	write_id(v->f, var);
	fputc('\n', v->f);
}

void vcd_value(struct vcd *v, int var, uint64_t value)
{
	uint64_t words[1] = { value };

	if (v->vars[var].words == 1)
		vcd_value_wide(v, var, words);
}

bool vcd_failed(const struct vcd *v)
{
	return v->failed;
}

int vcd_close(struct vcd *v)
{
	int rc;

	if (!v)
		return 0;
	rc = (fflush(v->f) || ferror(v->f) || v->failed) ? -1 : 0;
	free(v->vars);
	free(v->values);
	free(v);
	return rc;
}
