/* SPDX-License-Identifier: MIT */
/*
 * options.h - wormcast's options, declared once in options.def and parsed from the
 * command line and from configuration files (docs/config.md) by the same code.
 *
 * Parsing never prints and never exits: every function returns 0, or -1 with a
 * struct failure (one line and the exit status it calls for), and the caller decides.
 * So the parsers can be driven from memory (options_parse_memory(), for fuzzing and
 * tests) as well as from a real command line (options_parse()).
 */
#ifndef WORMCAST_OPTIONS_H
#define WORMCAST_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "failure.h"
#include "flit.h"
#include "sim.h"
#include "trace.h"

enum command {
	CMD_ID_RUN,
	CMD_ID_SWEEP,
	CMD_ID_TRAFFIC,
	CMD_ID_TRACE,
	CMD_ID_REPRODUCE,
	CMD_ID_MERGE,
	CMD_ID_TREE,
	CMD_ID_LIST,
	CMD_ID_CACHE,
	CMD_ID_COVERAGE,
	N_COMMANDS,
};

/* Sets of commands. */
#define CMD_RUN (1u << CMD_ID_RUN)
#define CMD_SWEEP (1u << CMD_ID_SWEEP)
#define CMD_TRAFFIC (1u << CMD_ID_TRAFFIC)
#define CMD_TRACE (1u << CMD_ID_TRACE)
#define CMD_REPRODUCE (1u << CMD_ID_REPRODUCE)
#define CMD_MERGE (1u << CMD_ID_MERGE)
#define CMD_TREE (1u << CMD_ID_TREE)
#define CMD_LIST (1u << CMD_ID_LIST)
#define CMD_CACHE (1u << CMD_ID_CACHE)
#define CMD_COVERAGE (1u << CMD_ID_COVERAGE)
#define CMD_RUNS (CMD_RUN | CMD_SWEEP | CMD_TRAFFIC | CMD_TRACE)
#define CMD_ALL ((1u << N_COMMANDS) - 1)
/* The commands that take files as arguments after their options. */
#define CMD_WITH_FILES (CMD_COVERAGE | CMD_MERGE)

/*
 * The ceilings (docs/robustness.md).  The simulation does not skip idle cycles, so a
 * cycle count is time: 10^8 cycles are about 3 s of an idle Q_12 in the model and
 * several minutes in the cosimulation.
 */
#define WC_MAX_CYCLES TRACE_MAX_CYCLE		/* --cycles, --watchdog, a trace's cycles */
#define WC_MAX_SEED ((1ull << 53) - 1)		/* exact in a JSON number */
#define WC_MAX_ALGO_FLITS (1u << 24)		/* run, sweep --flits */
#define WC_MAX_TRAFFIC_FLITS TRACE_MAX_FLITS	/* traffic --flits, a trace's flits */
#define OPT_MAX_ITEMS 64			/* items of a list (sweep) */
#define WC_MAX_JOBS 1024			/* --jobs: processes at once */

enum option_type {
	OT_FLAG,		/* no value */
	OT_UINT,		/* a whole number in lo..hi */
	OT_REAL,		/* a real number in rlo..rhi */
	OT_CHOICE,		/* one of the words of choices */
	OT_TEXT,		/* a file name: any text but "" */
	OT_TOPOLOGY,		/* hypercube:D or mesh:RxC */
	OT_ALGORITHM,		/* an algorithm's name */
	OT_ALGORITHMS,		/* A,B,...: algorithm names */
	OT_UINT_LIST,		/* L1,L2,...: whole numbers in lo..hi */
	OT_UINT_RANGE,		/* L or MIN-MAX: whole numbers in lo..hi, MIN <= MAX */
};

struct option_def {
	const char *name;		/* the long option, without "--" */
	enum option_type type;
	const char *arg;		/* the value's name in --help ("N", "FILE") */
	uint64_t lo, hi;		/* OT_UINT and the whole-number lists */
	double rlo, rhi;		/* OT_REAL */
	const char *choices;		/* OT_CHOICE: "a|b|c" */
	const char *def;		/* the default, as the option's text; NULL: none */
	const char *def_text;		/* the default as --help says it, if not def */
	const char *range_text;		/* the range as --help says it, if not derived */
	const char *section, *key;	/* configuration file; NULL: command line only */
	unsigned commands;		/* CMD_* that take it */
	unsigned required;		/* CMD_* that need it */
	int alias_of;			/* OT_FLAG: sets this option ... */
	const char *alias_value;	/* ... to this value */
	bool input, output;		/* a file read / written (no output may be an input) */
	bool positional;		/* given as the command's argument, not as --name */
	const char *help;
};

enum option_id {
#define OPTION(id, ...) OPT_##id,
#include "options.def"
#undef OPTION
	N_OPTIONS
};

/* The table, indexed by enum option_id. */
extern const struct option_def option_table[N_OPTIONS];

struct option_value {
	bool set;			/* given on the command line or in the file */
	const char *origin;		/* "--root" or "FILE:LINE: root", for messages */
	const char *text;		/* as given (or the default) */
	uint64_t u, u_max;		/* OT_UINT; OT_FLAG 1; OT_CHOICE index; MIN-MAX */
	double d;			/* OT_REAL */
	int n;				/* list items */
	uint64_t items[OPT_MAX_ITEMS];	/* OT_UINT_LIST */
	const char *names[OPT_MAX_ITEMS];	/* OT_ALGORITHMS */
};

struct options {
	enum command command;
	const char *config;		/* the configuration file read, or NULL */
	struct option_value v[N_OPTIONS];
	char arena[32768];		/* copies of the file's values and the origins */
	/* CMD_WITH_FILES: the arguments that are not options (argv's own strings). */
	char *const *files;
	int n_files;
	size_t used;
};

const char *command_name(enum command c);
/* The command called name, or -1. */
int command_find(const char *name);

/*
 * The whole command line: argv[0] is the command's name.  Defaults, then the
 * configuration file (--config, read from the file system), then the command line,
 * then the checks that need them all (required options).  *help is set if --help
 * was given (nothing else is checked then).
 */
int options_parse(struct options *o, enum command c, int argc, char **argv, bool *help,
		  struct failure *f);
/*
 * The same without the file system: config_text (config_len bytes, config_name in
 * messages), if not NULL, is the configuration file, and a --config in argv is not
 * read.  The entry point for fuzzing the option parser and the INI reader.  argv is
 * permuted by getopt_long, as for options_parse(); nothing is printed, nothing exits.
 */
int options_parse_memory(struct options *o, enum command c, int argc, char **argv,
			 const char *config_name, const char *config_text, size_t config_len,
			 bool *help, struct failure *f);

/*
 * The option of command c called name (its long name), or -1.  Then, if text is not
 * NULL, text checked as its value (as a configuration file's value is): -1 with the
 * reason in msg if it is not a valid one.  For files that name options by their long
 * names (experiment files).
 */
int options_check_value(enum command c, const char *name, const char *text, char *msg,
			size_t len);

/* The value of option id; its text is "" and u, d are 0 if it has no value. */
static inline const struct option_value *opt(const struct options *o, enum option_id id)
{
	return &o->v[id];
}

#endif
