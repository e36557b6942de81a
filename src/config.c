/* SPDX-License-Identifier: MIT */
/*
 * config.c - configuration files through inih.  inih's handler does not get line
 * numbers (Debian builds it without INI_HANDLER_LINENO), so the file is read through
 * ini_parse_stream() with a reader that counts lines: the handler of a key runs
 * while that key's line is the last one read.
 */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

struct config_key {
	const char *section;
	const char *key;
	const char *option;	/* the command-line option it stands for */
};

static const struct config_key keys[] = {
	{ "network", "topology", "topology" },
	{ "network", "port_model", "port-model" },
	{ "network", "buffer_depth", "buffer-depth" },
	{ "network", "payload_width", "payload-width" },
	{ "network", "replication_cost", "replication-cost" },
	{ "ni", "startup", "startup" },
	{ "ni", "sink_stall", "sink-stall" },
	{ "run", "engine", "engine" },
	{ "run", "watchdog", "watchdog" },
	{ "run", "seed", "seed" },
	{ "run", "vcd", "vcd" },
	{ "run", "fst", "fst" },
	{ "run", "mismatch_vcd", "mismatch-vcd" },
	{ "algorithm", "name", "algorithm" },
	{ "algorithm", "flits", "flits" },
	{ "algorithm", "root", "root" },
	{ "traffic", "rate", "rate" },
	{ "traffic", "flits", "flits" },
	{ "traffic", "cycles", "cycles" },
	{ "traffic", "ir_fraction", "ir-fraction" },
	{ "traffic", "b_fraction", "b-fraction" },
	{ "trace", "file", "trace" },
	{ "trace", "latencies", "latencies" },
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

struct loader {
	FILE *f;
	int line;		/* the line last read */
	int lines_done;		/* complete lines read */
	int seen[N_KEYS];	/* line of each key, 0 if not given */
	int err_line;		/* line of the first handler error, 0 if none */
	int long_line;		/* a line too long for inih, 0 if none */
	int max_line;
	char msg[512];
	config_apply_fn apply;
	void *ctx;
};

static char *read_line(char *str, int num, void *stream)
{
	struct loader *l = stream;
	char *s = fgets(str, num, l->f);

	if (s) {
		size_t n = strlen(s);
		int c;

		l->line = l->lines_done + 1;
		if (n && s[n - 1] == '\n') {
			l->lines_done++;
		} else if ((c = getc(l->f)) != EOF) {
			/* inih would read the rest as another line: refuse it. */
			ungetc(c, l->f);
			l->long_line = l->line;
			l->max_line = num - 2;
			return NULL;
		}
	}
	return s;
}

static bool section_exists(const char *section)
{
	for (size_t k = 0; k < N_KEYS; k++)
		if (!strcmp(keys[k].section, section))
			return true;
	return false;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct loader *l = user;
	char err[400];

	if (l->err_line)
		return 0;	/* report the first error only */
	l->err_line = l->line;
	if (!section[0]) {
		snprintf(l->msg, sizeof(l->msg), "'%s' is outside a section (put it under "
			 "[network], [ni], [run], [algorithm], [traffic] or [trace])", name);
		return 0;
	}
	if (!section_exists(section)) {
		snprintf(l->msg, sizeof(l->msg), "unknown section [%s] (expected network, ni, "
			 "run, algorithm, traffic or trace)", section);
		return 0;
	}
	for (size_t k = 0; k < N_KEYS; k++) {
		if (strcmp(keys[k].section, section) || strcmp(keys[k].key, name))
			continue;
		if (l->seen[k]) {
			snprintf(l->msg, sizeof(l->msg), "'%s' in [%s] is given twice (first "
				 "on line %d)", name, section, l->seen[k]);
			return 0;
		}
		l->seen[k] = l->line;
		if (!value[0]) {
			snprintf(l->msg, sizeof(l->msg), "'%s' has no value", name);
			return 0;
		}
		if (l->apply(l->ctx, section, keys[k].option, value, err, sizeof(err))) {
			snprintf(l->msg, sizeof(l->msg), "%s: %s", name, err);
			return 0;
		}
		l->err_line = 0;
		return 1;
	}
	{
		int k = snprintf(l->msg, sizeof(l->msg), "unknown key '%s' in [%s] (known:", name,
				 section);

		for (size_t i = 0; i < N_KEYS && k > 0 && (size_t)k < sizeof(l->msg); i++)
			if (!strcmp(keys[i].section, section))
				k += snprintf(l->msg + k, sizeof(l->msg) - (size_t)k, " %s",
					      keys[i].key);
		if (k > 0 && (size_t)k < sizeof(l->msg))
			snprintf(l->msg + k, sizeof(l->msg) - (size_t)k, ")");
	}
	return 0;
}

int config_load(const char *path, config_apply_fn apply, void *ctx, char *err, size_t errlen)
{
	struct loader l = { .apply = apply, .ctx = ctx };
	int rc;

	l.f = fopen(path, "r");
	if (!l.f) {
		snprintf(err, errlen, "%s: cannot read the configuration file: %s", path,
			 strerror(errno));
		return -1;
	}
	rc = ini_parse_stream(read_line, &l, handler, &l);
	if (rc == 0 && ferror(l.f)) {
		snprintf(err, errlen, "%s: cannot read the configuration file: %s", path,
			 strerror(errno));
		rc = -1;
	}
	fclose(l.f);
	if (l.long_line && (rc == 0 || rc > l.long_line)) {
		snprintf(err, errlen, "%s:%d: line longer than %d characters", path, l.long_line,
			 l.max_line);
		return -1;
	}
	if (rc == 0)
		return 0;
	if (rc < 0)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (l.err_line == rc)
		snprintf(err, errlen, "%s:%d: %s", path, rc, l.msg);
	else
		snprintf(err, errlen, "%s:%d: syntax error (expected '[section]' or 'key = value')",
			 path, rc);
	return -1;
}
