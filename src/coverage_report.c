/* SPDX-License-Identifier: MIT */
/*
 * coverage_report.c - coverage files and the 'coverage' command (see
 * coverage_report.h).  The bins and what they count are model/coverage.c's; here they
 * are written, read back, merged and printed.
 */
#include "coverage_report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "outputs.h"
#include "textfile.h"

#define COVERAGE_FORMAT "wormcast-coverage"
#define COVERAGE_VERSION 1
/* A coverage file of the largest network (Q_12: about 1,200 bins) is about 150 KiB. */
#define COVERAGE_MAX_FILE (64u << 20)

/* "all-port, buffer depth 4, payload width 32, T_r 0" */
static void configuration_name(const struct router_params *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s, buffer depth %d, payload width %d, T_r %d",
		 p->all_port ? "all-port" : "one-port", p->buffer_depth, p->payload_width,
		 p->replication_cost);
}

/* reachable_bins, hit_bins and holes of a group, from its bins (replaced if present). */
static bool summarise(cJSON *g)
{
	const cJSON *bins = cJSON_GetObjectItemCaseSensitive(g, "bins"), *b;
	cJSON *holes = cJSON_CreateArray();
	int reachable = 0, hit = 0;

	if (!holes)
		return false;
	cJSON_ArrayForEach(b, bins) {
		bool r = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "reachable"));
		double n = cJSON_GetObjectItemCaseSensitive(b, "count")->valuedouble;

		if (!r)
			continue;
		reachable++;
		if (n > 0)
			hit++;
		else if (!cJSON_AddItemToArray(holes, cJSON_CreateString(
				cJSON_GetObjectItemCaseSensitive(b, "name")->valuestring))) {
			cJSON_Delete(holes);
			return false;
		}
	}
	cJSON_DeleteItemFromObjectCaseSensitive(g, "reachable_bins");
	cJSON_DeleteItemFromObjectCaseSensitive(g, "hit_bins");
	cJSON_DeleteItemFromObjectCaseSensitive(g, "holes");
	if (!cJSON_AddNumberToObject(g, "reachable_bins", reachable) ||
	    !cJSON_AddNumberToObject(g, "hit_bins", hit)) {
		cJSON_Delete(holes);
		return false;
	}
	return cJSON_AddItemToObject(g, "holes", holes);
}

cJSON *coverage_document(const struct cov_space *sp, const struct router_params *p,
			 const uint64_t *counts, const char *measured_by)
{
	int n = cov_bins(sp);
	bool *reach = malloc(sizeof(bool) * (size_t)n);
	const char **why = malloc(sizeof(*why) * (size_t)n);
	cJSON *doc = cJSON_CreateObject(), *groups, *g, *configs, *bins;
	char name[128];
	bool ok;

	ok = reach && why && doc && cov_reachable(sp, p, reach, why) == 0 &&
	     cJSON_AddStringToObject(doc, "format", COVERAGE_FORMAT) &&
	     cJSON_AddNumberToObject(doc, "version", COVERAGE_VERSION) &&
	     (groups = cJSON_AddArrayToObject(doc, "groups")) &&
	     (g = cJSON_CreateObject()) && cJSON_AddItemToArray(groups, g) &&
	     cJSON_AddStringToObject(g, "topology", topology_name(p->topo, name, sizeof(name))) &&
	     cJSON_AddNumberToObject(g, "runs", 1) &&
	     (configs = cJSON_AddArrayToObject(g, "configurations")) &&
	     cJSON_AddStringToObject(g, "measured_by", measured_by) &&
	     (bins = cJSON_AddArrayToObject(g, "bins"));
	if (ok) {
		configuration_name(p, name, sizeof(name));
		ok = cJSON_AddItemToArray(configs, cJSON_CreateString(name));
	}
	for (int k = 0; ok && k < n; k++) {
		cJSON *b = cJSON_CreateObject();

		cov_bin_name(sp, k, name, sizeof(name));
		ok = b && cJSON_AddItemToArray(bins, b) && cJSON_AddStringToObject(b, "name", name) &&
		     cJSON_AddStringToObject(b, "section", cov_bin_section(sp, k)) &&
		     cJSON_AddNumberToObject(b, "count", (double)counts[k]) &&
		     cJSON_AddBoolToObject(b, "reachable", reach[k]) &&
		     (reach[k] || cJSON_AddStringToObject(b, "why", why[k]));
		if (!b)
			break;
	}
	ok = ok && summarise(g);
	free(reach);
	free(why);
	if (!ok) {
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

int coverage_write(const cJSON *doc, FILE *out)
{
	char *s = cJSON_Print(doc);
	int rc = 0;

	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	if (fputs(s, out) == EOF || fputc('\n', out) == EOF)
		rc = -1;
	free(s);
	return rc;
}

/* ---- reading and merging ---- */

static bool is_count(const cJSON *x)
{
	return cJSON_IsNumber(x) && x->valuedouble >= 0 && x->valuedouble <= 9007199254740992.0 &&
	       x->valuedouble == (double)(uint64_t)x->valuedouble;
}

/* What is wrong with a document, or NULL. */
static const char *invalid(const cJSON *doc)
{
	const cJSON *format = cJSON_GetObjectItemCaseSensitive(doc, "format");
	const cJSON *groups = cJSON_GetObjectItemCaseSensitive(doc, "groups"), *g;

	if (!cJSON_IsString(format) || strcmp(format->valuestring, COVERAGE_FORMAT))
		return "no \"format\": \"" COVERAGE_FORMAT "\"";
	if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "version")) ||
	    cJSON_GetObjectItemCaseSensitive(doc, "version")->valuedouble != COVERAGE_VERSION)
		return "not version 1";
	if (!cJSON_IsArray(groups))
		return "no \"groups\" array";
	cJSON_ArrayForEach(g, groups) {
		const cJSON *bins = cJSON_GetObjectItemCaseSensitive(g, "bins"), *b, *c;

		if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(g, "topology")) ||
		    !is_count(cJSON_GetObjectItemCaseSensitive(g, "runs")) ||
		    !cJSON_IsArray(bins))
			return "a group without \"topology\", \"runs\" or \"bins\"";
		c = cJSON_GetObjectItemCaseSensitive(g, "configurations");
		if (!cJSON_IsArray(c))
			return "a group without \"configurations\"";
		cJSON_ArrayForEach(b, c)
			if (!cJSON_IsString(b))
				return "a configuration that is not a string";
		cJSON_ArrayForEach(b, bins) {
			const cJSON *section = cJSON_GetObjectItemCaseSensitive(b, "section");

			if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(b, "name")) ||
			    !cJSON_IsString(section) ||
			    !is_count(cJSON_GetObjectItemCaseSensitive(b, "count")) ||
			    !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(b, "reachable")))
				return "a bin without \"name\", \"section\", a whole \"count\" or "
				       "\"reachable\"";
		}
	}
	return NULL;
}

static cJSON *find_named(cJSON *array, const char *key, const char *value)
{
	cJSON *x;

	cJSON_ArrayForEach(x, array)
		if (!strcmp(cJSON_GetObjectItemCaseSensitive(x, key)->valuestring, value))
			return x;
	return NULL;
}

static bool add_string_once(cJSON *array, const char *s)
{
	cJSON *x;

	cJSON_ArrayForEach(x, array)
		if (!strcmp(x->valuestring, s))
			return true;
	return cJSON_AddItemToArray(array, cJSON_CreateString(s));
}

static void add_count(cJSON *x, const cJSON *more)
{
	cJSON_SetNumberValue(x, x->valuedouble + more->valuedouble);
}

/* Group g (of another file) into into: counts added, reachability OR-ed.  */
static bool merge_group(cJSON *into, const cJSON *g)
{
	cJSON *bins = cJSON_GetObjectItemCaseSensitive(into, "bins"), *configs, *b;
	const char *who = "measured_by";
	const cJSON *mb = cJSON_GetObjectItemCaseSensitive(g, who), *x;
	cJSON *mine = cJSON_GetObjectItemCaseSensitive(into, who);

	add_count(cJSON_GetObjectItemCaseSensitive(into, "runs"), cJSON_GetObjectItemCaseSensitive(g, "runs"));
	configs = cJSON_GetObjectItemCaseSensitive(into, "configurations");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(g, "configurations"))
		if (!add_string_once(configs, x->valuestring))
			return false;
	if (cJSON_IsString(mine) && (!cJSON_IsString(mb) || strcmp(mine->valuestring, mb->valuestring)))
		cJSON_DeleteItemFromObjectCaseSensitive(into, who);	/* runs measured differently */
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(g, "bins")) {
		const char *name = cJSON_GetObjectItemCaseSensitive(x, "name")->valuestring;

		b = find_named(bins, "name", name);
		if (!b) {
			b = cJSON_Duplicate(x, true);
			if (!b || !cJSON_AddItemToArray(bins, b))
				return false;
			continue;
		}
		add_count(cJSON_GetObjectItemCaseSensitive(b, "count"), cJSON_GetObjectItemCaseSensitive(x, "count"));
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "reachable")) &&
		    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "reachable"))) {
			cJSON_ReplaceItemInObjectCaseSensitive(b, "reachable", cJSON_CreateTrue());
			cJSON_DeleteItemFromObjectCaseSensitive(b, "why");
		}
	}
	return true;
}

/* Read and check one file; NULL with f. */
static cJSON *read_document(const char *path, struct failure *f)
{
	char *text;
	size_t len;
	cJSON *doc;
	const char *bad;

	if (text_read(path, COVERAGE_MAX_FILE, &text, &len)) {
		if (errno == ENOMEM)
			fail_no_memory(f);
		else
			failf(f, EXIT_USAGE, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	doc = cJSON_ParseWithLength(text, len);
	free(text);
	if (!doc) {
		failf(f, EXIT_USAGE, "%s: not JSON (a coverage file is what --coverage FILE writes)",
		      path);
		return NULL;
	}
	if ((bad = invalid(doc))) {
		cJSON_Delete(doc);
		failf(f, EXIT_USAGE, "%s: not a wormcast coverage file: %s", path, bad);
		return NULL;
	}
	return doc;
}

/* Every file merged into one document; NULL with f. */
static cJSON *merge_files(const struct options *o, struct failure *f)
{
	cJSON *all = NULL;

	for (int k = 0; k < o->n_files; k++) {
		cJSON *doc = read_document(o->files[k], f), *g, *groups;

		if (!doc) {
			cJSON_Delete(all);
			return NULL;
		}
		if (!all) {
			all = doc;
			continue;
		}
		groups = cJSON_GetObjectItemCaseSensitive(all, "groups");
		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(doc, "groups")) {
			const char *topo = cJSON_GetObjectItemCaseSensitive(g, "topology")->valuestring;
			cJSON *into = find_named(groups, "topology", topo);
			bool ok = into ? merge_group(into, g)
				       : cJSON_AddItemToArray(groups, cJSON_Duplicate(g, true));

			if (!ok) {
				cJSON_Delete(doc);
				cJSON_Delete(all);
				fail_no_memory(f);
				return NULL;
			}
		}
		cJSON_Delete(doc);
	}
	return all;
}

/* ---- the table ---- */

/* Bins hit although no configuration reaches them: the analysis or a router is wrong. */
static int contradicted(const cJSON *g)
{
	const cJSON *b;
	int n = 0;

	cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(g, "bins"))
		n += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "reachable")) &&
		     cJSON_GetObjectItemCaseSensitive(b, "count")->valuedouble > 0;
	return n;
}

static void print_group(const cJSON *g, FILE *out)
{
	const cJSON *bins = cJSON_GetObjectItemCaseSensitive(g, "bins"), *b, *x;
	const cJSON *configs = cJSON_GetObjectItemCaseSensitive(g, "configurations");
	const cJSON *holes = cJSON_GetObjectItemCaseSensitive(g, "holes");
	const cJSON *mb = cJSON_GetObjectItemCaseSensitive(g, "measured_by");
	double reachable = cJSON_GetObjectItemCaseSensitive(g, "reachable_bins")->valuedouble;
	double hit = cJSON_GetObjectItemCaseSensitive(g, "hit_bins")->valuedouble;
	int contradictions = 0, unreachable = 0;

	fprintf(out, "coverage of %s: %.0f run%s%s%s\n",
		cJSON_GetObjectItemCaseSensitive(g, "topology")->valuestring,
		cJSON_GetObjectItemCaseSensitive(g, "runs")->valuedouble,
		cJSON_GetObjectItemCaseSensitive(g, "runs")->valuedouble == 1 ? "" : "s",
		cJSON_IsString(mb) ? ", measured by the " : "", cJSON_IsString(mb) ? mb->valuestring : "");
	cJSON_ArrayForEach(x, configs)
		fprintf(out, "  configuration: %s\n", x->valuestring);
	fprintf(out, "  %-26s %-14s %12s\n", "bin", "section", "count");
	cJSON_ArrayForEach(b, bins) {
		bool r = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "reachable"));
		double n = cJSON_GetObjectItemCaseSensitive(b, "count")->valuedouble;

		if (!r && n == 0) {
			unreachable++;
			continue;
		}
		if (!r)
			contradictions++;
		fprintf(out, "  %-26s %-14s %12.0f%s\n", cJSON_GetObjectItemCaseSensitive(b, "name")->valuestring,
			cJSON_GetObjectItemCaseSensitive(b, "section")->valuestring, n,
			!r ? "  HIT BUT UNREACHABLE" : n == 0 ? "  HOLE" : "");
	}
	/* The unreachable bins, one line per reason. */
	if (unreachable) {
		fprintf(out, "  unreachable in these configurations (%d bins):\n", unreachable);
		cJSON_ArrayForEach(b, bins) {
			const cJSON *why = cJSON_GetObjectItemCaseSensitive(b, "why"), *c;
			bool first = true;

			if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "reachable")) ||
			    cJSON_GetObjectItemCaseSensitive(b, "count")->valuedouble > 0 ||
			    !cJSON_IsString(why))
				continue;
			/* Print a reason where it first appears, with every bin that has it. */
			for (c = bins->child; c != b; c = c->next) {
				const cJSON *w = cJSON_GetObjectItemCaseSensitive(c, "why");

				if (cJSON_IsString(w) && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "reachable")) &&
				    cJSON_GetObjectItemCaseSensitive(c, "count")->valuedouble == 0 &&
				    !strcmp(w->valuestring, why->valuestring))
					break;
			}
			if (c != b)
				continue;
			fprintf(out, "    %s:", why->valuestring);
			for (c = b; c; c = c->next) {
				const cJSON *w = cJSON_GetObjectItemCaseSensitive(c, "why");

				if (cJSON_IsString(w) && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "reachable")) &&
				    cJSON_GetObjectItemCaseSensitive(c, "count")->valuedouble == 0 &&
				    !strcmp(w->valuestring, why->valuestring)) {
					fprintf(out, "%s %s", first ? "" : ",",
						cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring);
					first = false;
				}
			}
			fputc('\n', out);
		}
	}
	fprintf(out, "  holes (%d):", cJSON_GetArraySize(holes));
	cJSON_ArrayForEach(x, holes)
		fprintf(out, "%s %s", x == holes->child ? "" : ",", x->valuestring);
	fprintf(out, "%s\n", cJSON_GetArraySize(holes) ? "" : " none");
	fprintf(out, "  reachable bins: %.0f, hit: %.0f (%.1f %%)\n", reachable, hit,
		reachable ? 100.0 * hit / reachable : 100.0);
	if (contradictions)
		fprintf(out, "  %d bin%s hit although no configuration reaches %s: the reachability "
			"analysis (model/coverage.c) or a router is wrong\n", contradictions,
			contradictions == 1 ? "" : "s", contradictions == 1 ? "it" : "them");
}

int coverage_command(const struct options *o, struct failure *f)
{
	struct outputs outs;
	cJSON *all, *g;
	int contradictions = 0;
	bool ok = true;

	if (o->n_files == 0)
		return failf(f, EXIT_USAGE, "coverage needs one or more coverage files (see "
			     "'wormcast coverage --help')");
	if (outputs_open(&outs, o, f))
		return -1;
	all = merge_files(o, f);
	if (!all) {
		outputs_discard(&outs);
		return -1;
	}
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(all, "groups"))
		ok = ok && summarise(g);
	if (ok && outputs_file(&outs, OPT_OUTPUT))
		ok = coverage_write(all, outfile_stream(outputs_file(&outs, OPT_OUTPUT))) == 0 ||
		     errno != ENOMEM;
	if (!ok) {
		cJSON_Delete(all);
		outputs_discard(&outs);
		return fail_no_memory(f);
	}
	if (opt(o, OPT_JSON)->set) {
		if (coverage_write(all, stdout) && errno == ENOMEM) {
			cJSON_Delete(all);
			outputs_discard(&outs);
			return fail_no_memory(f);
		}
	}
	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(all, "groups")) {
		contradictions += contradicted(g);
		if (!opt(o, OPT_JSON)->set)
			print_group(g, stdout);
	}
	cJSON_Delete(all);
	if (outputs_commit(&outs, f))
		return -1;
	return contradictions ? EXIT_FAILED : EXIT_PASSED;
}
