/* SPDX-License-Identifier: MIT */
/*
 * help.c - the help texts and docs/config.md, from the options table.  What an option
 * is (its value, range, default, configuration key, commands, meaning) is read from
 * option_table[]; only the prose around the tables lives here.
 */
#include "help.h"

#include <string.h>

#include "config.h"

struct command_doc {
	const char *synopsis;	/* after "wormcast " */
	const char *summary;
};

static const struct command_doc command_docs[N_COMMANDS] = {
	[CMD_ID_RUN] = { "run --topology T --algorithm NAME --flits L [options]",
			 "Run one collective algorithm, check the data every node ends with and "
			 "compare the measured cycles with the algorithm's formula." },
	[CMD_ID_SWEEP] = { "sweep --topology T --algorithms A,B,... --flits L1,L2,... [options]",
			   "Run every algorithm of a list for every message length of a list: one "
			   "table, or one JSON object with a row per run." },
	[CMD_ID_TRAFFIC] = { "traffic --topology T --rate R --flits L|MIN-MAX [options]",
			     "Random traffic: Bernoulli arrivals at every node, uniform "
			     "destinations, a mix of R, R+IR and B messages, for --cycles cycles, "
			     "then the network drains." },
	[CMD_ID_TRACE] = { "trace --topology T --trace FILE [options]",
			   "Send the messages of a trace file, each at its cycle, and report "
			   "their latencies (docs/traces.md)." },
	[CMD_ID_REPRODUCE] = { "reproduce [--only NAME,...] [--out DIR] [--quick] [options]",
			       "Run the experiments of the experiment files (the sources' figures: "
			       "docs/results.md) on every core and write, for each, its runs as "
			       "CSV and JSON and its plot as PNG and SVG." },
	[CMD_ID_MERGE] = { "merge DIR... [--csv FILE] [--plot FILE] [--json]",
			   "Join the JSON outputs of the command lines of 'sweep --emit-jobs' (run "
			   "anywhere: GNU parallel, a Slurm job array) into the table, CSV, plot or "
			   "JSON a sweep gives (docs/scaling.md)." },
	[CMD_ID_TREE] = { "tree --topology T [--root S] [--format txt|dot|svg] [options]",
			  "Draw the replication tree of a B message from the root, or, with "
			  "--algorithm and --flits, who sends to whom at each step of the "
			  "algorithm's contention-free schedule." },
	[CMD_ID_LIST] = { "list [--json]",
			  "The algorithms, topologies and engines of this build, and the RTL "
			  "builds in the cache." },
	[CMD_ID_CACHE] = { "cache [list | clear] [--json]",
			   "The cache of RTL builds: every configuration run with an RTL engine is "
			   "verilated and compiled on its first run and kept in "
			   "$XDG_CACHE_HOME/wormcast/rtl (default ~/.cache/wormcast/rtl). list shows "
			   "them; clear removes them." },
	[CMD_ID_COVERAGE] = { "coverage FILE... [--json] [--output FILE]",
			      "Merge the functional coverage files of runs (--coverage FILE), "
			      "print every bin of router events with its count, and list the "
			      "holes: the bins the configurations can reach that no run hit "
			      "(docs/verification.md)." },
};

#define HELP_WIDTH 79
#define HELP_INDENT 24

/* Write text wrapped at HELP_WIDTH, continuation lines indented by indent. */
static void wrap(FILE *out, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		const char *end = p;
		int n;

		while (*end && *end != ' ')
			end++;
		n = (int)(end - p);
		if (col > indent && col + 1 + n > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", n, p);
		col += n;
		p = *end ? end + 1 : end;
	}
	fputc('\n', out);
}

static void exit_statuses(FILE *out)
{
	wrap(out, "Exit status: 0 passed; 1 a check failed, an output could not be written or "
	     "memory ran out; 2 bad input (one line on stderr); 128+N stopped by signal N "
	     "(Ctrl-C: 130), with a partial report (docs/robustness.md).", 0, 0);
}

static const char *commands_of(unsigned set, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	if (set == CMD_RUNS)
		return "run, sweep, traffic, trace";
	if (set == CMD_ALL)
		return "every command";
	for (int c = 0; c < N_COMMANDS && k < len; c++)
		if (set & (1u << c))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "",
					      command_name((enum command)c));
	return buf;
}

/* The values an option takes, as text ("" if any text). */
static const char *range_of(const struct option_def *d, char *buf, size_t len)
{
	if (d->range_text)
		return d->range_text;
	switch (d->type) {
	case OT_UINT:
		snprintf(buf, len, "%llu..%llu", (unsigned long long)d->lo,
			 (unsigned long long)d->hi);
		break;
	case OT_REAL:
		snprintf(buf, len, "%g..%g", d->rlo, d->rhi);
		break;
	case OT_CHOICE:
		snprintf(buf, len, "%s", d->choices);
		break;
	case OT_UINT_LIST:
		snprintf(buf, len, "each %llu..%llu, at most %d", (unsigned long long)d->lo,
			 (unsigned long long)d->hi, OPT_MAX_ITEMS);
		break;
	case OT_UINT_RANGE:
		snprintf(buf, len, "%llu..%llu", (unsigned long long)d->lo,
			 (unsigned long long)d->hi);
		break;
	default:
		buf[0] = '\0';
		break;
	}
	return buf;
}

static const char *default_of(const struct option_def *d, enum command c)
{
	if (d->required & (1u << c))
		return "required";
	if (d->def_text)
		return d->def_text;
	return d->def;
}

void help_command(FILE *out, enum command c)
{
	fprintf(out, "usage: wormcast %s\n\n", command_docs[c].synopsis);
	wrap(out, command_docs[c].summary, 0, 0);
	fprintf(out, "\noptions:\n");
	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];
		char head[64], buf[256], notes[512];
		const char *def = default_of(d, c), *range;
		int k = 0;

		if (!(d->commands & (1u << c)))
			continue;
		if (d->positional)
			snprintf(head, sizeof(head), "  %s", d->arg);
		else
			snprintf(head, sizeof(head), "  --%s%s%s", d->name, d->arg ? " " : "",
				 d->arg ? d->arg : "");
		fprintf(out, "%-*s", HELP_INDENT, head);
		if ((int)strlen(head) >= HELP_INDENT)
			fprintf(out, "\n%*s", HELP_INDENT, "");
		range = range_of(d, buf, sizeof(buf));
		notes[0] = '\0';
		if (range[0])
			k += snprintf(notes + k, sizeof(notes) - (size_t)k, "%s", range);
		if (def)
			k += snprintf(notes + k, sizeof(notes) - (size_t)k, "%s%s%s", k ? "; " : "",
				      strcmp(def, "required") ? "default " : "", def);
		if (d->section)
			k += snprintf(notes + k, sizeof(notes) - (size_t)k, "%s[%s] %s",
				      k ? "; " : "", d->section, d->key);
		{
			char text[1024];

			snprintf(text, sizeof(text), "%s%s%s%s", d->help, k ? " (" : "", notes,
				 k ? ")" : "");
			wrap(out, text, HELP_INDENT, HELP_INDENT);
		}
	}
	fputc('\n', out);
	exit_statuses(out);
}

void help_overview(FILE *out)
{
	fprintf(out, "usage: wormcast COMMAND [options]\n\n"
		"wormcast runs collective-communication algorithms and traffic on a "
		"cycle-accurate\nmodel of an enhanced all-port wormhole router, on its "
		"Verilated RTL, or on both in\nlockstep (README.md).\n\ncommands:\n");
	for (int c = 0; c < N_COMMANDS; c++) {
		fprintf(out, "  %-9s ", command_name((enum command)c));
		wrap(out, command_docs[c].summary, 12, 12);
	}
	fprintf(out, "\n'wormcast COMMAND --help' lists the options of a command, with their "
		"defaults and\nranges; 'wormcast help --markdown [FILE]' writes docs/config.md.\n\n");
	exit_statuses(out);
}

/* ---- docs/config.md ---- */

static void md_escape_bars(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
}

static void md_options(FILE *out)
{
	fprintf(out, "| option | value | default | configuration key | commands | meaning |\n"
		"|---|---|---|---|---|---|\n");
	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];
		char range[256], cmds[128];
		const char *def = d->def_text ? d->def_text : d->def;

		if (id == OPT_HELP)
			continue;
		if (d->positional)
			fprintf(out, "| `%s` (the argument) | ", d->arg);
		else {
			fprintf(out, "| `--%s%s", d->name, d->arg ? " " : "");
			md_escape_bars(out, d->arg ? d->arg : "");
			fprintf(out, "` | ");
		}
		md_escape_bars(out, range_of(d, range, sizeof(range)));
		fprintf(out, " | ");
		if (d->required)
			fprintf(out, "required");
		else
			md_escape_bars(out, def ? def : "");
		fprintf(out, " | ");
		if (d->section)
			fprintf(out, "`[%s]` `%s`", d->section, d->key);
		else
			fprintf(out, "command line only");
		fprintf(out, " | %s | ", commands_of(d->commands, cmds, sizeof(cmds)));
		md_escape_bars(out, d->help);
		fprintf(out, " |\n");
	}
}

static void md_sections(FILE *out)
{
	fprintf(out, "| section | keys | applies to |\n|---|---|---|\n");
	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];
		unsigned applies = 0;
		bool first = true, seen = false;
		char cmds[128];

		if (!d->section)
			continue;
		for (int j = 0; j < id && !seen; j++)
			seen = option_table[j].section && !strcmp(option_table[j].section, d->section);
		if (seen)
			continue;
		fprintf(out, "| `[%s]` | ", d->section);
		for (int j = id; j < N_OPTIONS; j++) {
			const struct option_def *e = &option_table[j];
			bool dup = false;

			if (!e->section || strcmp(e->section, d->section))
				continue;
			applies |= e->commands;
			for (int k = id; k < j && !dup; k++)
				dup = option_table[k].section &&
				      !strcmp(option_table[k].section, e->section) &&
				      !strcmp(option_table[k].key, e->key);
			if (!dup)
				fprintf(out, "%s`%s`", first ? "" : ", ", e->key);
			first = false;
		}
		fprintf(out, " | %s |\n", commands_of(applies, cmds, sizeof(cmds)));
	}
}

void help_markdown(FILE *out)
{
	fprintf(out,
"# Options and configuration files\n"
"\n"
"<!-- Generated by `build/wormcast help --markdown docs/config.md`: edit src/options.def\n"
"(the options) or src/help.c (this text), then regenerate. tests/test_cli.py checks that\n"
"this file is what the program prints. -->\n"
"\n"
"Every option of wormcast is one row of a table, `src/options.def`; the command line\n"
"(getopt_long), the configuration files, the range checks, `wormcast COMMAND --help`\n"
"and this page are all derived from it. Numbers are strict everywhere (command line,\n"
"configuration files, traces): decimal digits, with a decimal point and an exponent\n"
"for real numbers; no sign, no blanks, no hexadecimal, no `inf`, nothing out of range.\n"
"Long options are spelled out (`--topology`, not `--top`).\n"
"\n"
"`run`, `sweep`, `traffic` and `trace` take `--config FILE`: an INI file (read with\n"
"[inih](https://github.com/benhoyt/inih), Debian package `libinih-dev`) whose keys stand\n"
"for command-line options. The file is applied over the defaults, and options given on\n"
"the command line override it, wherever `--config` stands among them:\n"
"\n"
"    build/wormcast trace --config configs/example.ini\n"
"    build/wormcast trace --config configs/example.ini --startup 3 --topology mesh:4x4\n"
"    build/wormcast traffic --config configs/example.ini --rate 0.05\n"
"    build/wormcast run --config configs/example.ini --algorithm hk --json\n"
"\n"
"A complete example is [configs/example.ini](../configs/example.ini).\n"
"\n"
"## Options\n"
"\n");
	md_options(out);
	fprintf(out,
"\n"
"`--help` (or `-h`) prints a command's options with their ranges and defaults and\n"
"exits with status 0; `wormcast --help` lists the commands.\n"
"\n"
"## Sections and keys\n"
"\n");
	md_sections(out);
	fprintf(out,
"\n"
"A key applies to the commands that take its option; one file can hold every section,\n"
"and the keys that do not apply to a command are still checked (a value some command\n"
"would accept). File names are relative to the current directory, as on the command\n"
"line.\n"
"\n"
"## Syntax\n"
"\n"
"inih's: `[section]` headers, `key = value` (or `key: value`) lines, comments that\n"
"start a line with `;` or `#`, and comments after a value starting with ` ;`. Keys\n"
"start in the first column (inih would read an indented line as more of the value\n"
"above: wormcast refuses it). Lines end with LF, CR LF or CR, and are at most %d\n"
"characters long; a file is at most %d bytes and holds no NUL byte.\n"
"\n"
"## Errors\n"
"\n"
"Every error stops before anything runs, with one line on stderr naming the file and\n"
"the line, and exit status 2:\n"
"\n"
"    wormcast: c.ini:2: unknown key 'bogus' in [network] (known: topology port_model buffer_depth payload_width)\n"
"    wormcast: c.ini:4: unknown section [nosuch] (known: network ni run algorithm traffic trace)\n"
"    wormcast: c.ini:1: 'startup' is outside a section (put it under a [section] header)\n"
"    wormcast: c.ini:3: startup: 'zero' is not a whole number\n"
"    wormcast: c.ini:3: startup: 0 is out of range 1..1000000\n"
"    wormcast: c.ini:2: port_model: 'two-port' is not one of all-port|one-port\n"
"    wormcast: c.ini:3: 'startup' in [ni] is given twice (first on line 2)\n"
"    wormcast: c.ini:1: syntax error (expected '[section]' or 'key = value')\n"
"    wormcast: c.ini: cannot read the configuration file: No such file or directory\n"
"\n"
"An unknown section is reported at its first key (inih reports keys, not headers; an\n"
"empty unknown section is ignored). A value that is only wrong together with others\n"
"(a root outside the network, a port model the algorithm does not use) is reported\n"
"with the file and line it came from, as `c.ini:7: root: ...`.\n",
		CONFIG_MAX_LINE, CONFIG_MAX_BYTES);
}
