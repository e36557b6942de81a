/* SPDX-License-Identifier: MIT */
/*
 * textfile.c - whole text files and their lines (see textfile.h).
 */
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int text_read(const char *path, size_t max, char **text, size_t *len)
{
	FILE *in = fopen(path, "r");
	size_t cap = 4096, n = 0;
	char *buf;
	int e = 0;

	if (!in)
		return -1;
	buf = malloc(cap + 1);
	while (buf) {
		size_t got;

		if (n == cap) {
			char *p;

			if (cap >= max) {
				/* Full: one byte more says whether the file is larger. */
				if (fread(buf + n, 1, 1, in) == 1)
					e = EFBIG;
				else if (ferror(in))
					e = errno ? errno : EIO;
				break;
			}
			cap = cap * 2 < max ? cap * 2 : max;
			p = realloc(buf, cap + 1);
			if (!p) {
				e = ENOMEM;
				break;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0) {
			/* A directory opens but does not read: EISDIR, not "empty". */
			if (ferror(in))
				e = errno ? errno : EIO;
			break;
		}
	}
	if (!buf)
		e = ENOMEM;
	fclose(in);
	if (e) {
		free(buf);
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int text_next_line(struct text_lines *it, const char **start, size_t *n)
{
	const char *p = it->p, *eol = p;

	if (p >= it->end)
		return 0;
	while (eol < it->end && *eol != '\n' && *eol != '\r' && *eol)
		eol++;
	it->line++;
	*start = p;
	*n = (size_t)(eol - p);
	if (eol < it->end && !*eol)
		return -1;
	if (eol < it->end && *eol == '\r' && eol + 1 < it->end && eol[1] == '\n')
		eol++;
	it->p = eol < it->end ? eol + 1 : eol;
	return 1;
}
