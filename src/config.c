/* SPDX-License-Identifier: MIT */
/*
 * config.c - configuration files through inih.  inih's handler does not get line
 * numbers (Debian builds it without INI_HANDLER_LINENO), so the text is fed to
 * ini_parse_stream() by a reader that counts lines: the handler of a key runs while
 * that key's line is the last one read.  The same reader turns CR LF and lone CR line
 * ends into LF (inih itself would read a CR-only file as one long line) and refuses
 * what inih would silently misread: NUL bytes and lines longer than its buffer.
 */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

struct loader {
	const char *name;
	struct text_lines lines;
	const char *line_start;		/* the line last read, as in the text */
	int bad_line;			/* a line the reader refused, 0 if none */
	char bad_msg[128];
	int err_line;			/* line of the first handler error, 0 if none */
	char msg[1024];
	config_key_fn fn;
	void *ctx;
};

/* inih's reader: the next line, with its end turned into "\n". */
static char *read_line(char *str, int num, void *stream)
{
	struct loader *l = stream;
	size_t n;
	int rc;

	if (l->bad_line)
		return NULL;
	rc = text_next_line(&l->lines, &l->line_start, &n);
	if (rc == 0)
		return NULL;
	if (rc < 0) {
		l->bad_line = l->lines.line;
		snprintf(l->bad_msg, sizeof(l->bad_msg), "contains a NUL byte (not a text file?)");
		return NULL;
	}
	if (n > (size_t)num - 2) {
		l->bad_line = l->lines.line;
		snprintf(l->bad_msg, sizeof(l->bad_msg), "line longer than %d characters",
			 num - 2);
		return NULL;
	}
	memcpy(str, l->line_start, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct loader *l = user;

	if (l->err_line)
		return 0;	/* report the first error only */
	if (l->line_start[0] == ' ' || l->line_start[0] == '\t') {
		/* inih reads an indented line as the continuation of the value above. */
		snprintf(l->msg, sizeof(l->msg), "indented line (keys start in the first "
			 "column; inih would read it as more of the value of '%s')", key);
	} else if (!section[0]) {
		snprintf(l->msg, sizeof(l->msg), "'%s' is outside a section (put it under "
			 "a [section] header)", key);
	} else if (!value[0]) {
		snprintf(l->msg, sizeof(l->msg), "'%s' has no value", key);
	} else if (l->fn(l->ctx, section, key, value, l->lines.line, l->msg, sizeof(l->msg)) == 0) {
		return 1;
	}
	l->err_line = l->lines.line;
	return 0;
}

int config_parse(const char *name, const char *text, size_t len, config_key_fn fn, void *ctx,
		 struct failure *f)
{
	struct loader l = { .name = name, .fn = fn, .ctx = ctx };
	int rc;

	text_lines_init(&l.lines, text, len);
	rc = ini_parse_stream(read_line, &l, handler, &l);

	/* inih stops at the reader's refusal as at the end of the text. */
	if (l.bad_line && (rc == 0 || rc > l.bad_line))
		return failf(f, EXIT_USAGE, "%s:%d: %s", name, l.bad_line, l.bad_msg);
	if (rc == 0)
		return 0;
	if (rc < 0)
		return fail_no_memory(f);
	if (l.err_line == rc)
		return failf(f, EXIT_USAGE, "%s:%d: %s", name, rc, l.msg);
	return failf(f, EXIT_USAGE, "%s:%d: syntax error (expected '[section]' or 'key = value')",
		     name, rc);
}

int config_read(const char *path, char **text, size_t *len, struct failure *f)
{
	if (text_read(path, CONFIG_MAX_BYTES, text, len) == 0)
		return 0;
	if (errno == ENOMEM)
		return fail_no_memory(f);
	if (errno == EFBIG)
		return failf(f, EXIT_USAGE, "%s: the configuration file is larger than %d bytes",
			     path, CONFIG_MAX_BYTES);
	return failf(f, EXIT_USAGE, "%s: cannot read the configuration file: %s", path,
		     strerror(errno));
}
