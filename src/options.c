/* SPDX-License-Identifier: MIT */
/*
 * options.c - the options table (options.def) and everything derived from it that
 * reads values: defaults, each command's getopt_long table, the configuration file's
 * keys, the range checks.  Help and docs/config.md are derived in help.c.
 *
 * One function, set_value(), turns a text into a value for every source (default,
 * configuration file, command line), so a value means the same wherever it is given.
 */
#include "options.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "config.h"
#include "number.h"
#include "topology.h"

const struct option_def option_table[N_OPTIONS] = {
#define OPTION(id, ...) [OPT_##id] = { __VA_ARGS__ },
#include "options.def"
#undef OPTION
};

static const char *const command_names[N_COMMANDS] = {
	[CMD_ID_RUN] = "run",
	[CMD_ID_SWEEP] = "sweep",
	[CMD_ID_TRAFFIC] = "traffic",
	[CMD_ID_TRACE] = "trace",
	[CMD_ID_REPRODUCE] = "reproduce",
	[CMD_ID_MERGE] = "merge",
	[CMD_ID_TREE] = "tree",
	[CMD_ID_LIST] = "list",
	[CMD_ID_CACHE] = "cache",
	[CMD_ID_COVERAGE] = "coverage",
};

const char *command_name(enum command c)
{
	return command_names[c];
}

int command_find(const char *name)
{
	for (int c = 0; c < N_COMMANDS; c++)
		if (!strcmp(command_names[c], name))
			return c;
	return -1;
}

static bool takes(enum option_id id, enum command c)
{
	return option_table[id].commands & (1u << c);
}

/* A copy of text in the options' own storage, or NULL if it is full. */
static const char *keep(struct options *o, const char *text, size_t n)
{
	char *p;

	if (o->used + n + 1 > sizeof(o->arena))
		return NULL;
	p = memcpy(o->arena + o->used, text, n);
	p[n] = '\0';
	o->used += n + 1;
	return p;
}

static __attribute__((format(printf, 2, 3))) const char *keepf(struct options *o,
								 const char *fmt, ...)
{
	char buf[4200];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= sizeof(buf) ? NULL : keep(o, buf, (size_t)n);
}

/* ---- values ---- */

/* The index of word in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word)
{
	size_t n = strlen(word);
	int k = 0;

	for (const char *p = choices;; k++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return k;
		if (!bar)
			return -1;
		p = bar + 1;
	}
}

static int uint_item(const struct option_def *d, const char *text, size_t n, uint64_t lo,
		     uint64_t *out, char *msg, size_t len)
{
	char item[64];
	enum number_status st;

	st = number_uint_n(text, n, lo, d->hi, out);
	if (st == NUMBER_OK)
		return 0;
	snprintf(item, sizeof(item), "%.*s", (int)(n < 40 ? n : 40), text);
	number_uint_message(st, "", item, lo, d->hi, msg, len);
	return -1;
}

/*
 * Split a comma-separated list into at most OPT_MAX_ITEMS non-empty items; calls
 * item() for each.  "", "a,", ",a" and "a,,b" are refused.
 */
typedef int (*item_fn)(struct options *o, const struct option_def *d,
		       struct option_value *v, const char *p, size_t n, char *msg, size_t len);

static int split_list(struct options *o, const struct option_def *d, struct option_value *v,
		      const char *text, item_fn item, char *msg, size_t len)
{
	const char *p = text;

	v->n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n == 0) {
			snprintf(msg, len, "'%s' has an empty item (expected a comma-separated list)",
				 text);
			return -1;
		}
		if (v->n == OPT_MAX_ITEMS) {
			snprintf(msg, len, "more than %d items", OPT_MAX_ITEMS);
			return -1;
		}
		if (item(o, d, v, p, n, msg, len))
			return -1;
		v->n++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int algorithm_item(struct options *o, const struct option_def *d,
			  struct option_value *v, const char *p, size_t n, char *msg, size_t len)
{
	const char *name = keep(o, p, n);

	(void)d;
	if (!name) {
		snprintf(msg, len, "the values are too long");
		return -1;
	}
	if (!algo_find(name)) {
		snprintf(msg, len, "unknown algorithm '%s' (see 'wormcast list')", name);
		return -1;
	}
	v->names[v->n] = name;
	return 0;
}

static int number_item(struct options *o, const struct option_def *d, struct option_value *v,
		       const char *p, size_t n, char *msg, size_t len)
{
	(void)o;
	return uint_item(d, p, n, d->lo, &v->items[v->n], msg, len);
}

/* "L" or "MIN-MAX". */
static int uint_range(const struct option_def *d, struct option_value *v, const char *text,
		      char *msg, size_t len)
{
	const char *dash = strchr(text, '-');

	if (!dash) {
		if (uint_item(d, text, strlen(text), d->lo, &v->u, msg, len))
			return -1;
		v->u_max = v->u;
		return 0;
	}
	if (dash == text || strchr(dash + 1, '-')) {
		snprintf(msg, len, "'%s' is not L or MIN-MAX", text);
		return -1;
	}
	if (uint_item(d, text, (size_t)(dash - text), d->lo, &v->u, msg, len) ||
	    uint_item(d, dash + 1, strlen(dash + 1), d->lo, &v->u_max, msg, len))
		return -1;
	if (v->u_max < v->u) {
		snprintf(msg, len, "'%s': MAX is below MIN", text);
		return -1;
	}
	return 0;
}

/*
 * Parse text as the value of option id into v (which may be scratch: checking a
 * configuration key that does not apply to the command).  0, or -1 with the reason
 * (without the option's name) in msg.
 */
static int parse_value(struct options *o, enum option_id id, struct option_value *v,
		       const char *text, char *msg, size_t len)
{
	const struct option_def *d = &option_table[id];
	enum number_status st;
	struct topology t;
	int k;

	v->text = text;
	switch (d->type) {
	case OT_FLAG:
		v->u = 1;
		return 0;
	case OT_UINT:
		st = number_uint(text, d->lo, d->hi, &v->u);
		if (st != NUMBER_OK) {
			number_uint_message(st, "", text, d->lo, d->hi, msg, len);
			return -1;
		}
		return 0;
	case OT_REAL:
		st = number_real(text, d->rlo, d->rhi, &v->d);
		if (st != NUMBER_OK) {
			number_real_message(st, "", text, d->rlo, d->rhi, msg, len);
			return -1;
		}
		return 0;
	case OT_CHOICE:
		k = choice_index(d->choices, text);
		if (k < 0) {
			snprintf(msg, len, "'%s' is not one of %s", text, d->choices);
			return -1;
		}
		v->u = (uint64_t)k;
		return 0;
	case OT_TEXT:
		if (!text[0]) {
			snprintf(msg, len, "empty file name");
			return -1;
		}
		return 0;
	case OT_TOPOLOGY:
		return topology_parse(text, &t, msg, len);
	case OT_ALGORITHM:
		if (algo_find(text))
			return 0;
		snprintf(msg, len, "unknown algorithm '%s' (see 'wormcast list')", text);
		return -1;
	case OT_ALGORITHMS:
		return split_list(o, d, v, text, algorithm_item, msg, len);
	case OT_UINT_LIST:
		return split_list(o, d, v, text, number_item, msg, len);
	case OT_UINT_RANGE:
		return uint_range(d, v, text, msg, len);
	}
	snprintf(msg, len, "no such option type");
	return -1;
}

int options_check_value(enum command c, const char *name, const char *text, char *msg,
			size_t len)
{
	struct options *scratch;
	struct option_value v = { 0 };
	int id, rc;

	for (id = 0; id < N_OPTIONS; id++)
		if (takes((enum option_id)id, c) && !strcmp(option_table[id].name, name))
			break;
	if (id == N_OPTIONS) {
		snprintf(msg, len, "'%s' is not an option of %s", name, command_name(c));
		return -1;
	}
	if (!text)
		return id;
	/* The lists keep their items in the options' storage: a scratch one. */
	scratch = calloc(1, sizeof(*scratch));
	if (!scratch) {
		snprintf(msg, len, "out of memory");
		return -1;
	}
	scratch->command = c;
	rc = parse_value(scratch, (enum option_id)id, &v, text, msg, len);
	free(scratch);
	return rc ? -1 : id;
}

/* Set option id from text; origin names where it was given.  0, or -1 and msg. */
static int set_value(struct options *o, enum option_id id, const char *text,
		     const char *origin, char *msg, size_t len)
{
	const struct option_def *d = &option_table[id];
	struct option_value v = o->v[id];

	if (d->type == OT_FLAG && d->alias_value)
		return set_value(o, (enum option_id)d->alias_of, d->alias_value, origin, msg, len);
	if (parse_value(o, id, &v, text, msg, len))
		return -1;
	v.set = true;
	v.origin = origin;
	o->v[id] = v;
	return 0;
}

static void set_defaults(struct options *o, enum command c)
{
	memset(o, 0, sizeof(*o));
	o->command = c;
	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];
		char msg[256];

		o->v[id].text = "";
		o->v[id].origin = d->name;
		/* A default that does not parse is a bug in options.def (tests run them all). */
		if (d->def && parse_value(o, (enum option_id)id, &o->v[id], d->def, msg, sizeof(msg)))
			abort();
	}
}

/* ---- configuration files ---- */

struct ini_ctx {
	struct options *o;
	const char *name;
	int seen[N_OPTIONS];		/* line of each key given, 0 if none */
};

static bool section_known(const char *section)
{
	for (int id = 0; id < N_OPTIONS; id++)
		if (option_table[id].section && !strcmp(option_table[id].section, section))
			return true;
	return false;
}

/* "network, ni, run, ..." or the keys of one section, into msg. */
static void list_names(const char *section, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int id = 0; id < N_OPTIONS && k < len; id++) {
		const struct option_def *d = &option_table[id];
		const char *word = section ? d->key : d->section;
		bool dup = false;

		if (!d->section || (section && strcmp(d->section, section)))
			continue;
		for (int j = 0; j < id && !dup; j++) {
			const struct option_def *e = &option_table[j];

			dup = e->section && (section ? !strcmp(e->section, section) &&
							   !strcmp(e->key, word)
						     : !strcmp(e->section, word));
		}
		if (!dup)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? " " : "", word);
	}
}

static int ini_key(void *ctx, const char *section, const char *key, const char *value, int line,
		   char *msg, size_t len)
{
	struct ini_ctx *c = ctx;
	struct options *o = c->o;
	int first = -1, applies = -1;
	char why[1024] = "";
	const char *copy, *origin;

	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];

		if (!d->section || strcmp(d->section, section) || strcmp(d->key, key))
			continue;
		if (first < 0)
			first = id;
		if (takes((enum option_id)id, o->command))
			applies = id;
	}
	if (first < 0) {
		char names[512];

		if (!section_known(section)) {
			list_names(NULL, names, sizeof(names));
			snprintf(msg, len, "unknown section [%s] (known: %s)", section, names);
		} else {
			list_names(section, names, sizeof(names));
			snprintf(msg, len, "unknown key '%s' in [%s] (known: %s)", key, section,
				 names);
		}
		return -1;
	}
	if (c->seen[first]) {
		snprintf(msg, len, "'%s' in [%s] is given twice (first on line %d)", key, section,
			 c->seen[first]);
		return -1;
	}
	c->seen[first] = line;
	copy = keep(o, value, strlen(value));
	origin = keepf(o, "%s:%d: %s", c->name, line, key);
	if (!copy || !origin) {
		snprintf(msg, len, "the file's values are too long");
		return -1;
	}
	if (applies >= 0) {
		if (set_value(o, (enum option_id)applies, copy, origin, why, sizeof(why)) == 0)
			return 0;
	} else {
		/* Not this command's: checked all the same, valid if some command takes it. */
		for (int id = first; id < N_OPTIONS; id++) {
			const struct option_def *d = &option_table[id];
			struct option_value scratch = { 0 };

			if (!d->section || strcmp(d->section, section) || strcmp(d->key, key))
				continue;
			if (parse_value(o, (enum option_id)id, &scratch, copy, why, sizeof(why)) == 0)
				return 0;
		}
	}
	snprintf(msg, len, "%s: %s", key, why);
	return -1;
}

/* ---- the command line ---- */

/* getopt_long values: option ids, above any character getopt returns. */
#define GETOPT_BASE 256

static int build_longopts(enum command c, struct option *lo)
{
	int n = 0;

	for (int id = 0; id < N_OPTIONS; id++) {
		if (!takes((enum option_id)id, c) || option_table[id].positional)
			continue;
		lo[n++] = (struct option){
			.name = option_table[id].name,
			.has_arg = option_table[id].type == OT_FLAG ? no_argument : required_argument,
			.val = GETOPT_BASE + id,
		};
	}
	lo[n] = (struct option){ 0 };
	return n;
}

/* "--name" or "--name=value" exactly: getopt_long would also take "--na". */
static bool spelled_out(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return arg[0] == '-' && arg[1] == '-' && !strncmp(arg + 2, name, n) &&
	       (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

/* The command's argument (getopt_long moved it after the options), if it takes one. */
static int positional(struct options *o, int argc, char **argv, struct failure *f)
{
	const char *cmd = command_name(o->command);
	char msg[1024];

	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];

		if (!d->positional || !takes((enum option_id)id, o->command))
			continue;
		if (set_value(o, (enum option_id)id, argv[optind], d->arg, msg, sizeof(msg)))
			return failf(f, EXIT_USAGE, "%s %s: %s", cmd, d->arg, msg);
		if (++optind == argc)
			return 0;
		break;
	}
	return failf(f, EXIT_USAGE, "unexpected argument '%s' (see 'wormcast %s --help')",
		     argv[optind], cmd);
}

/*
 * One pass of getopt_long over argv.  With apply, every option but --config is set
 * (errors are failures); without, only *config is found (errors are left for the
 * applying pass).
 */
static int scan_argv(struct options *o, int argc, char **argv, bool apply, const char **config,
		     struct failure *f)
{
	struct option lo[N_OPTIONS + 1];
	const char *cmd = command_name(o->command);
	int c, index;

	build_longopts(o->command, lo);
	opterr = 0;
	optind = 0;		/* glibc: start afresh; argv[0] (the command) is skipped */
	while ((index = -1, c = getopt_long(argc, argv, ":", lo, &index)) != -1) {
		const char *arg = argv[optind - 1];
		enum option_id id;
		char msg[1024];
		const char *origin;

		if (c == '?' || c == ':' || c < GETOPT_BASE) {
			if (!apply)
				continue;
			/* optind has moved past the culprit, or stays on it ('-x' in a group). */
			if (c == ':')
				return failf(f, EXIT_USAGE, "option %s needs a value", arg);
			if (optopt > 0 && optopt < GETOPT_BASE)
				return failf(f, EXIT_USAGE, "unknown option '-%c' for %s (see "
					     "'wormcast %s --help')", optopt, cmd, cmd);
			return failf(f, EXIT_USAGE, "unknown option '%s' for %s (see 'wormcast %s "
				     "--help')", arg, cmd, cmd);
		}
		id = (enum option_id)(c - GETOPT_BASE);
		/* With a separate value, the option is the argument before it. */
		if (optarg && optind >= 2 && argv[optind - 1] == optarg)
			arg = argv[optind - 2];
		if (!spelled_out(arg, option_table[id].name)) {
			if (!apply)
				continue;
			return failf(f, EXIT_USAGE, "unknown option '%s' for %s (options are not "
				     "abbreviated: --%s)", arg, cmd, option_table[id].name);
		}
		if (id == OPT_CONFIG) {
			if (config)
				*config = optarg;
			continue;
		}
		if (!apply || id == OPT_HELP)
			continue;
		origin = keepf(o, "--%s", option_table[id].name);
		if (!origin)
			return failf(f, EXIT_USAGE, "the command line is too long");
		if (set_value(o, id, optarg ? optarg : "", origin, msg, sizeof(msg)))
			return failf(f, EXIT_USAGE, "%s: %s", origin, msg);
	}
	/* getopt_long moved the arguments that are not options to the end. */
	if (apply && (CMD_WITH_FILES & (1u << o->command))) {
		o->files = argv + optind;
		o->n_files = argc - optind;
	} else if (apply && optind < argc) {
		return positional(o, argc, argv, f);
	}
	return 0;
}

/* --help or -h before a "--". */
static bool wants_help(int argc, char **argv)
{
	for (int k = 1; k < argc && strcmp(argv[k], "--"); k++)
		if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h"))
			return true;
	return false;
}

static int check_required(const struct options *o, struct failure *f)
{
	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];

		if (!(d->required & (1u << o->command)) || o->v[id].set)
			continue;
		if (d->section)
			return failf(f, EXIT_USAGE, "%s needs --%s %s (or '%s' in [%s] of a "
				     "configuration file)", command_name(o->command), d->name,
				     d->arg, d->key, d->section);
		return failf(f, EXIT_USAGE, "%s needs --%s %s", command_name(o->command), d->name,
			     d->arg);
	}
	return 0;
}

static int parse(struct options *o, enum command c, int argc, char **argv, bool from_file,
		 const char *config_name, const char *config_text, size_t config_len, bool *help,
		 struct failure *f)
{
	const char *config = NULL;
	char *text = NULL;
	int rc = 0;

	set_defaults(o, c);
	*help = wants_help(argc, argv);
	if (*help)
		return 0;
	scan_argv(o, argc, argv, false, &config, f);
	if (!from_file)
		config = config_text ? config_name : NULL;
	if (config) {
		struct ini_ctx ctx = { .o = o, .name = config };

		o->config = config;
		if (from_file) {
			if (config_read(config, &text, &config_len, f))
				return -1;
			config_text = text;
		}
		rc = config_parse(ctx.name, config_text, config_len, ini_key, &ctx, f);
		free(text);
		if (rc)
			return -1;
	}
	if (scan_argv(o, argc, argv, true, NULL, f))
		return -1;
	return check_required(o, f);
}

int options_parse(struct options *o, enum command c, int argc, char **argv, bool *help,
		  struct failure *f)
{
	return parse(o, c, argc, argv, true, NULL, NULL, 0, help, f);
}

int options_parse_memory(struct options *o, enum command c, int argc, char **argv,
			 const char *config_name, const char *config_text, size_t config_len,
			 bool *help, struct failure *f)
{
	return parse(o, c, argc, argv, false, config_name ? config_name : "config", config_text,
		     config_len, help, f);
}
