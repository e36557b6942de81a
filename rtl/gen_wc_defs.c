/* SPDX-License-Identifier: MIT */
/*
 * gen_wc_defs.c - rtl/wc_defs.vh from model/flit.h: the flit and header layout,
 * defined once in C and given to the Verilog as `define macros of the same names
 * with a WC_ prefix.
 *
 *   gen_wc_defs                 print what rtl/wc_defs.vh must contain
 *   gen_wc_defs --check FILE    exit 0 if FILE holds exactly that, else 1 with the
 *                               first differing line (the ctest flit_layout)
 *   gen_wc_defs --write FILE    write it (temporary file and rename)
 *
 * "cmake --build build --target wc_defs" runs --write on rtl/wc_defs.vh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flit.h"

struct def {
	const char *name;	/* the C macro; the Verilog one is WC_ + name */
	long value;
	const char *comment;	/* NULL: a heading line instead of a definition */
};

#define DEF(name, comment) { #name, (name), comment }
#define HEADING(text) { text, 0, NULL }

static const struct def defs[] = {
	HEADING("The kind, flit[1:0]."),
	DEF(FLIT_KIND_BITS, "width of the kind field"),
	DEF(FLIT_HEAD_BIT, "flit[0]: is_head (HEAD, SINGLE)"),
	DEF(FLIT_TAIL_BIT, "flit[1]: is_tail (TAIL, SINGLE)"),
	DEF(FLIT_KIND_BODY, "kind of a body flit"),
	DEF(FLIT_KIND_HEAD, "kind of a head flit"),
	DEF(FLIT_KIND_TAIL, "kind of a tail flit"),
	DEF(FLIT_KIND_SINGLE, "kind of a one-flit message"),
	HEADING("The header in payload bits (the payload is flit[W+1:2])."),
	DEF(HDR_TYPE_BIT, "payload bit of hdr_type"),
	DEF(HDR_TYPE_R, "hdr_type of a regular unicast"),
	DEF(HDR_TYPE_B, "hdr_type of a broadcast"),
	DEF(HDR_IR_BIT, "payload bit of ir"),
	DEF(HDR_ADDR_SHIFT, "lowest payload bit of address"),
	DEF(HDR_SOURCE_SHIFT, "lowest payload bit of source"),
	DEF(HDR_SEQ_SHIFT, "lowest payload bit of seq (W - 26 bits)"),
	DEF(FLIT_ADDR_BITS, "bits of a node index (address, source, node_id_i)"),
	DEF(FLIT_MIN_PAYLOAD, "smallest payload width W"),
	DEF(FLIT_MAX_PAYLOAD, "largest payload width W"),
	HEADING("The header in flit bits, as route computation decodes it."),
	DEF(FLIT_TYPE_BIT, "flit bit of hdr_type"),
	DEF(FLIT_IR_BIT, "flit bit of ir"),
	DEF(FLIT_ADDR_LSB, "lowest flit bit of address"),
	DEF(FLIT_ADDR_MSB, "highest flit bit of address"),
	DEF(FLIT_SOURCE_LSB, "lowest flit bit of source"),
	DEF(FLIT_SOURCE_MSB, "highest flit bit of source"),
	DEF(FLIT_SEQ_LSB, "lowest flit bit of seq"),
	DEF(FLIT_ROUTE_BITS, "route computation reads flit[FLIT_ROUTE_BITS-1:0]"),
};

static const char preamble[] =
	"// wc_defs.vh -- the flit and header layout of docs/microarchitecture.md, section 4.\n"
	"//\n"
	"// GENERATED from model/flit.h by rtl/gen_wc_defs.c; do not edit. Change model/flit.h\n"
	"// and run \"cmake --build build --target wc_defs\". The test flit_layout fails while\n"
	"// this file differs from what model/flit.h says. Each macro is the C macro of the\n"
	"// same name with a WC_ prefix (FLIT_HEAD_BIT is `WC_FLIT_HEAD_BIT).\n"
	"`ifndef WC_DEFS_VH\n"
	"`define WC_DEFS_VH\n";

/* The whole file, into a memory stream; NULL if out of memory. */
static char *render(size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	fputs(preamble, f);
	for (size_t k = 0; k < sizeof(defs) / sizeof(defs[0]); k++) {
		const struct def *d = &defs[k];

		if (!d->comment) {
			fprintf(f, "\n// %s\n", d->name);
			continue;
		}
		fprintf(f, "`define WC_%-18s %-3ld // %s\n", d->name, d->value, d->comment);
	}
	fputs("\n`endif  // WC_DEFS_VH\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static char *slurp(const char *path, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len), *in = fopen(path, "r");
	char buf[4096];
	size_t n;
	int failed;

	if (!out || !in) {
		if (out)
			fclose(out);
		free(text);
		if (in)
			fclose(in);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	failed = ferror(in);
	fclose(in);
	if (fclose(out) || failed) {
		free(text);
		return NULL;
	}
	return text;
}

/* 0 if path holds want; else 1, naming the first line that differs. */
static int check(const char *path, const char *want)
{
	size_t len;
	char *have = slurp(path, &len);
	const char *a = want, *b = have;
	int line = 1;

	if (!have) {
		fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno));
		return 1;
	}
	while (*a && *a == *b) {
		if (*a == '\n')
			line++;
		a++, b++;
	}
	if (!*a && !*b) {
		free(have);
		printf("%s matches model/flit.h\n", path);
		return 0;
	}
	while (a > want && a[-1] != '\n')	/* back to the start of the line */
		a--;
	fprintf(stderr, "%s:%d: differs from model/flit.h, which says: %.*s%s\n"
		"(regenerate it: cmake --build build --target wc_defs)\n",
		path, line, (int)strcspn(a, "\n"), a, *a ? "" : "(the end of the file)");
	free(have);
	return 1;
}

static int write_atomic(const char *path, const char *text, size_t len)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	int fd;
	FILE *f;

	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd), unlink(tmp);
		free(tmp);
		return -1;
	}
	if (fwrite(text, 1, len, f) != len || fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len;
	char *text = render(&len);
	int rc;

	if (!text) {
		fprintf(stderr, "gen_wc_defs: out of memory\n");
		return 1;
	}
	if (argc == 1) {
		rc = fwrite(text, 1, len, stdout) != len || fflush(stdout) ? 1 : 0;
	} else if (argc == 3 && !strcmp(argv[1], "--check")) {
		rc = check(argv[2], text);
	} else if (argc == 3 && !strcmp(argv[1], "--write")) {
		rc = write_atomic(argv[2], text, len) ? 1 : 0;
		if (rc)
			fprintf(stderr, "gen_wc_defs: cannot write %s: %s\n", argv[2], strerror(errno));
	} else {
		fprintf(stderr, "usage: gen_wc_defs [--check FILE | --write FILE]\n");
		rc = 2;
	}
	free(text);
	return rc;
}
