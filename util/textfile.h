/* SPDX-License-Identifier: MIT */
/*
 * textfile.h - text files as wormcast reads them (configuration files, traces): read
 * whole into memory, then cut into lines.  A line ends with LF, CR LF or CR alone, so
 * a file written on any system reads the same; a NUL byte is an error (not a text
 * file), never the silent end of a line.
 */
#ifndef WORMCAST_TEXTFILE_H
#define WORMCAST_TEXTFILE_H

#include <stddef.h>

/*
 * Read the file at path (at most max bytes) into *text, NUL-terminated, to be freed.
 * Returns 0, or -1 with errno set: EFBIG if the file is larger than max, ENOMEM, or
 * what open/read said (EISDIR for a directory).
 */
int text_read(const char *path, size_t max, char **text, size_t *len);

struct text_lines {
	const char *p, *end;	/* what is left to read */
	int line;		/* the number of the line last returned, from 1 */
};

static inline void text_lines_init(struct text_lines *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
	it->line = 0;
}

/*
 * The next line: *start and *n (its end not included).  Returns 1, 0 after the last
 * line, or -1 if the line holds a NUL byte (it->line is that line).
 */
int text_next_line(struct text_lines *it, const char **start, size_t *n);

#endif
