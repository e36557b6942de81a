/* SPDX-License-Identifier: MIT */
/*
 * experiment.c - experiment files (see experiment.h).
 *
 * Reading is in two steps.  inih (config.c) hands every key to keep(), which only
 * files it under its section with its line.  check() then knows the command and can
 * judge every key: a display key of this table, allowed in that kind of section, or
 * an option of the command, checked by the options table's own parser.  The points
 * are made last, and each one's command line is parsed and set up exactly as the
 * command will, so that a bad combination stops everything before the first run.
 */
#include "experiment.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "grow.h"
#include "jobs.h"
#include "number.h"
#include "setup.h"

#define SEC_EXPERIMENT 1u
#define SEC_PANEL 2u
#define SEC_SERIES 4u
#define EXP_MAX_VALUES 256

/* The keys that are not options: what they mean is the figure's business. */
static const struct display_key {
	const char *key;
	unsigned sections;	/* where it may stand */
	bool quick;		/* may be given as quick.KEY */
} display_keys[] = {
	{ "title", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "source", SEC_EXPERIMENT, false },
	{ "note", SEC_EXPERIMENT, false },
	{ "command", SEC_EXPERIMENT, false },
	{ "plot", SEC_EXPERIMENT, false },
	{ "x", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "values", SEC_EXPERIMENT | SEC_PANEL, true },
	{ "measure", SEC_EXPERIMENT | SEC_PANEL, true },
	{ "x_label", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "y_label", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "log_x", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "log_y", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "cycle_time_us", SEC_EXPERIMENT | SEC_PANEL, false },
	{ "curves", SEC_EXPERIMENT | SEC_PANEL | SEC_SERIES, false },
	{ "label", SEC_SERIES, false },
	{ "panels", SEC_SERIES, false },
	{ "bytes", SEC_EXPERIMENT | SEC_PANEL | SEC_SERIES, true },
	{ "bins", SEC_EXPERIMENT, false },
	{ "saturation_factor", SEC_EXPERIMENT, false },
	{ "saturation_sent", SEC_EXPERIMENT, false },
};

/* The x axes: which option a value sets, and how the axis is labelled by default. */
static const struct axis {
	const char *name;
	const char *option;
	const char *label;
	bool whole;		/* whole numbers (else real) */
} axes[] = {
	{ "dimension", "topology", "cube dimension d", true },
	{ "side", "topology", "mesh side k (k x k nodes)", true },
	{ "flits", "flits", "L, message length (flits)", true },
	{ "bytes", "flits", "message size (bytes)", true },
	{ "rate", "rate", "offered load (flits per node per cycle)", false },
};

/* Options an experiment may not set: reproduce sets them, or they write files. */
static bool reserved(int id)
{
	const struct option_def *d = &option_table[id];

	return d->output || id == OPT_JSON || id == OPT_CONFIG || id == OPT_HELP ||
	       id == OPT_FORMULA_ONLY;
}

struct setting {
	char *key, *value;
	int line;
};

struct section {
	unsigned kind;
	char *name;		/* "" for [experiment] */
	int line;		/* its first key's */
	struct setting *s;
	int n, cap;
};

struct experiment {
	char *name, *path, *dir;
	struct section *sec;
	int nsec, cap;
	int exp;		/* the [experiment] section */
	int *panels, npanels;	/* section numbers */
	int *series, nseries;
	enum command command;
	enum exp_plot plot;
};

/* ---- reading ---- */

static const struct display_key *display_key(const char *key)
{
	for (size_t k = 0; k < sizeof(display_keys) / sizeof(display_keys[0]); k++)
		if (!strcmp(display_keys[k].key, key))
			return &display_keys[k];
	return NULL;
}

static const struct setting *find(const struct section *s, const char *key)
{
	for (int k = 0; k < s->n; k++)
		if (!strcmp(s->s[k].key, key))
			return &s->s[k];
	return NULL;
}

/* Room for one more of n elements of size bytes in *array, of *cap: 0, or -1. */
static int room(void **array, int n, int *cap, size_t size)
{
	size_t c = (size_t)*cap;
	void *p;

	if (n < *cap)
		return 0;
	p = grow_array(*array, &c, (size_t)n + 1, size, 16, INT_MAX);
	if (!p)
		return -1;
	*array = p;
	*cap = (int)c;
	return 0;
}

static int keep(void *ctx, const char *section, const char *key, const char *value, int line,
		char *msg, size_t len)
{
	struct experiment *e = ctx;
	struct section *s;
	unsigned kind;
	const char *name = "";
	int k;

	if (!strcmp(section, "experiment")) {
		kind = SEC_EXPERIMENT;
	} else if (!strncmp(section, "panel ", 6) && section[6]) {
		kind = SEC_PANEL;
		name = section + 6;
	} else if (!strncmp(section, "series ", 7) && section[7]) {
		kind = SEC_SERIES;
		name = section + 7;
	} else {
		snprintf(msg, len, "unknown section [%s] (expected [experiment], [panel NAME] or "
			 "[series NAME])", section);
		return -1;
	}
	for (k = 0; k < e->nsec; k++)
		if (e->sec[k].kind == kind && !strcmp(e->sec[k].name, name))
			break;
	/* inih names the section of every key: a section seen before, then left, is twice. */
	if (k < e->nsec && k != e->nsec - 1) {
		snprintf(msg, len, "[%s] is given twice (first on line %d)", section, e->sec[k].line);
		return -1;
	}
	if (k == e->nsec) {
		if (room((void **)&e->sec, e->nsec, &e->cap, sizeof(*e->sec)))
			goto oom;
		e->sec[k] = (struct section){ .kind = kind, .name = strdup(name), .line = line };
		if (!e->sec[k].name)
			goto oom;
		e->nsec++;
	}
	s = &e->sec[k];
	if (find(s, key)) {
		snprintf(msg, len, "'%s' in [%s] is given twice (first on line %d)", key, section,
			 find(s, key)->line);
		return -1;
	}
	if (room((void **)&s->s, s->n, &s->cap, sizeof(*s->s)))
		goto oom;
	s->s[s->n] = (struct setting){ .key = strdup(key), .value = strdup(value), .line = line };
	if (!s->s[s->n].key || !s->s[s->n].value) {
		free(s->s[s->n].key);
		free(s->s[s->n].value);
		goto oom;
	}
	s->n++;
	return 0;
oom:
	snprintf(msg, len, NO_MEMORY);
	return -1;
}

/* ---- values ---- */

/*
 * A list of values, "1..10", "2,5,17", "1..4,8,16" (ranges of whole numbers only),
 * into v (at most EXP_MAX_VALUES).  0, or -1 with msg.
 */
static int parse_values(const char *text, bool whole, double *v, int *n, char *msg, size_t len)
{
	const char *p = text;

	*n = 0;
	for (;;) {
		size_t k = strcspn(p, ",");
		char item[64], *dots;

		if (k == 0 || k >= sizeof(item)) {
			snprintf(msg, len, "'%s' is not a list of values (1..10 or 2,5,17)", text);
			return -1;
		}
		snprintf(item, sizeof(item), "%.*s", (int)k, p);
		dots = strstr(item, "..");
		if (dots && whole) {
			uint64_t lo, hi;

			*dots = '\0';
			if (number_uint(item, 0, 1u << 30, &lo) != NUMBER_OK ||
			    number_uint(dots + 2, 0, 1u << 30, &hi) != NUMBER_OK || hi < lo) {
				snprintf(msg, len, "'%.*s' is not a range A..B of whole numbers with A <= B",
					 (int)k, p);
				return -1;
			}
			for (uint64_t x = lo; x <= hi; x++) {
				if (*n == EXP_MAX_VALUES)
					goto many;
				v[(*n)++] = (double)x;
			}
		} else {
			uint64_t u;
			double d;

			if (*n == EXP_MAX_VALUES)
				goto many;
			if (whole ? number_uint(item, 0, 1u << 30, &u) != NUMBER_OK
				  : number_real(item, 0, 1e9, &d) != NUMBER_OK) {
				snprintf(msg, len, "'%s' is not a %s", item,
					 whole ? "whole number" : "number");
				return -1;
			}
			v[(*n)++] = whole ? (double)u : d;
		}
		for (int a = 0; a < *n - 1; a++)
			if (v[a] == v[*n - 1]) {
				snprintf(msg, len, "%g is in the list twice", v[a]);
				return -1;
			}
		if (!p[k])
			return 0;
		p += k + 1;
	}
many:
	snprintf(msg, len, "more than %d values", EXP_MAX_VALUES);
	return -1;
}

/* ---- resolving a key for a panel and a series ---- */

/* The nearest setting of key: series over panel over experiment, quick.KEY over KEY. */
static const struct setting *resolve(const struct experiment *e, int panel, int series,
				     const char *key, bool quick)
{
	int secs[3] = { e->exp, panel >= 0 ? e->panels[panel] : -1,
			series >= 0 ? e->series[series] : -1 };
	const struct setting *best = NULL;
	char qkey[128];

	snprintf(qkey, sizeof(qkey), "quick.%s", key);
	for (int k = 0; k < 3; k++) {
		const struct setting *s, *q;

		if (secs[k] < 0)
			continue;
		s = find(&e->sec[secs[k]], key);
		q = quick ? find(&e->sec[secs[k]], qkey) : NULL;
		if (s)
			best = s;
		if (q)
			best = q;
	}
	return best;
}

const char *experiment_key(const struct experiment *e, int panel, int series, const char *key)
{
	const struct setting *s = resolve(e, panel, series, key, false);

	return s ? s->value : NULL;
}

static const struct axis *axis_of(const struct experiment *e, int panel)
{
	const char *x = experiment_key(e, panel, -1, "x");

	for (size_t k = 0; x && k < sizeof(axes) / sizeof(axes[0]); k++)
		if (!strcmp(axes[k].name, x))
			return &axes[k];
	return NULL;
}

const char *experiment_axis_label(const struct experiment *e, int panel)
{
	const struct axis *a = axis_of(e, panel);

	return a ? a->label : NULL;
}

/* ---- checking the file ---- */

static int bad(struct failure *f, const struct experiment *e, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(struct failure *f, const struct experiment *e, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return failf(f, EXIT_USAGE, "%s:%d: %s", e->path, line, msg);
}

static const char *section_text(const struct section *s, char *buf, size_t len)
{
	snprintf(buf, len, "[%s%s%s]", s->kind == SEC_EXPERIMENT ? "experiment" :
		 s->kind == SEC_PANEL ? "panel" : "series", s->name[0] ? " " : "", s->name);
	return buf;
}

static int check_choice(const struct experiment *e, const struct setting *s, const char *choices,
			struct failure *f)
{
	size_t n = strlen(s->value);

	for (const char *p = choices; *p;) {
		size_t k = strcspn(p, "|");

		if (k == n && !strncmp(p, s->value, n))
			return 0;
		p += k + (p[k] == '|');
	}
	return bad(f, e, s->line, "%s: '%s' is not one of %s", s->key, s->value, choices);
}

/* One key of one section: known here, allowed there, its value well-formed. */
static int check_key(const struct experiment *e, const struct section *sec,
		     const struct setting *s, struct failure *f)
{
	const char *key = s->key;
	bool quick = !strncmp(key, "quick.", 6);
	const struct display_key *d = display_key(quick ? key + 6 : key);
	char where[128], msg[512];
	int id;

	section_text(sec, where, sizeof(where));
	if (d) {
		if (!(d->sections & sec->kind))
			return bad(f, e, s->line, "'%s' does not belong in %s", key, where);
		if (quick && !d->quick)
			return bad(f, e, s->line, "'%s' has no quick.%s (only values, measure, bytes "
				   "and options do)", d->key, d->key);
		if (!strcmp(d->key, "log_x") || !strcmp(d->key, "log_y"))
			return check_choice(e, s, "yes|no", f);
		if (!strcmp(d->key, "cycle_time_us") || !strcmp(d->key, "saturation_factor") ||
		    !strcmp(d->key, "saturation_sent")) {
			double v;

			if (number_real(s->value, 1e-12, 1e12, &v) != NUMBER_OK)
				return bad(f, e, s->line, "%s: '%s' is not a positive number", key,
					   s->value);
			return 0;
		}
		if (!strcmp(d->key, "bins") || !strcmp(d->key, "bytes")) {
			uint64_t v;

			if (number_uint(s->value, 1, 1u << 26, &v) != NUMBER_OK)
				return bad(f, e, s->line, "%s: '%s' is not a whole number 1..%u", key,
					   s->value, 1u << 26);
			return 0;
		}
		if (!strcmp(d->key, "curves")) {
			for (const char *p = s->value; *p;) {
				size_t k = strcspn(p, ",");

				if (!((k == 7 && !strncmp(p, "formula", 7)) ||
				      (k == 9 && !strncmp(p, "published", 9)) ||
				      (k == 5 && !strncmp(p, "bound", 5))))
					return bad(f, e, s->line, "curves: '%.*s' is not one of "
						   "formula, published, bound", (int)k, p);
				p += k + (p[k] == ',');
			}
			return 0;
		}
		if (!strcmp(d->key, "x")) {
			for (size_t k = 0; k < sizeof(axes) / sizeof(axes[0]); k++)
				if (!strcmp(axes[k].name, s->value))
					return options_check_value(e->command, axes[k].option, NULL, msg,
								   sizeof(msg)) < 0
					       ? bad(f, e, s->line, "x: %s runs have no %s", command_name(
							     e->command), axes[k].option)
					       : 0;
			return bad(f, e, s->line, "x: '%s' is not one of dimension, side, flits, "
				   "bytes, rate", s->value);
		}
		return 0;	/* text: titles, labels; values and panels are checked later */
	}
	id = options_check_value(e->command, quick ? key + 6 : key, NULL, msg, sizeof(msg));
	if (id < 0)
		return bad(f, e, s->line, "unknown key '%s' in %s (an option of 'wormcast %s' by "
			   "its long name, or a key of docs/results.md)", key, where,
			   command_name(e->command));
	if (reserved(id))
		return bad(f, e, s->line, "'%s' cannot be set in an experiment (reproduce sets it)",
			   key);
	if (option_table[id].type == OT_FLAG)
		return check_choice(e, s, "yes|no", f);
	if (options_check_value(e->command, quick ? key + 6 : key, s->value, msg, sizeof(msg)) < 0)
		return bad(f, e, s->line, "%s: %s", key, msg);
	return 0;
}

static const struct setting *required(const struct experiment *e, const char *key,
				      struct failure *f)
{
	const struct setting *s = find(&e->sec[e->exp], key);

	if (!s)
		failf(f, EXIT_USAGE, "%s:%d: [experiment] needs '%s'", e->path, e->sec[e->exp].line,
		      key);
	return s;
}

/* The axis of each panel, its values and measure lists. */
static int check_axes(const struct experiment *e, struct failure *f)
{
	for (int p = 0; p < e->npanels; p++) {
		const struct axis *a = axis_of(e, p);
		double v[EXP_MAX_VALUES], m[EXP_MAX_VALUES];
		char msg[256];
		int nv, nm;

		if (e->plot == PLOT_HISTOGRAM) {
			if (a || resolve(e, p, -1, "values", false))
				return bad(f, e, e->sec[e->panels[p]].line, "a histogram has no x axis");
			continue;
		}
		if (!a)
			return bad(f, e, e->sec[e->panels[p]].line, "[panel %s] has no x axis (x = "
				   "dimension, side, flits, bytes or rate)", e->sec[e->panels[p]].name);
		for (int quick = 0; quick < 2; quick++) {
			const struct setting *sv = resolve(e, p, -1, "values", quick);
			const struct setting *sm = resolve(e, p, -1, "measure", quick);

			if (!sv)
				return bad(f, e, e->sec[e->panels[p]].line, "[panel %s] has no values "
					   "(values = 1..10)", e->sec[e->panels[p]].name);
			if (parse_values(sv->value, a->whole, v, &nv, msg, sizeof(msg)))
				return bad(f, e, sv->line, "%s: %s", sv->key, msg);
			if (!sm)
				continue;
			if (e->plot != PLOT_LINES)
				return bad(f, e, sm->line, "measure: only a lines plot has formulas to "
					   "evaluate where nothing is measured");
			if (parse_values(sm->value, a->whole, m, &nm, msg, sizeof(msg)))
				return bad(f, e, sm->line, "%s: %s", sm->key, msg);
			for (int k = 0; k < nm; k++) {
				bool in = false;

				for (int j = 0; j < nv; j++)
					in |= v[j] == m[k];
				if (!in)
					return bad(f, e, sm->line, "%s: %g is not one of the values", sm->key,
						   m[k]);
			}
		}
		/* The option the axis sets is set by no section that this panel uses. */
		for (int k = 0; k < e->nsec; k++) {
			static const char *const lengths[] = { "flits", "quick.flits", "bytes",
							       "quick.bytes", NULL };
			const struct setting *s = NULL;
			char q[64];

			snprintf(q, sizeof(q), "quick.%s", a->option);
			s = find(&e->sec[k], a->option);
			if (!s)
				s = find(&e->sec[k], q);
			/* flits and bytes are two names of one option. */
			for (int j = 0; !s && !strcmp(a->option, "flits") && lengths[j]; j++)
				s = find(&e->sec[k], lengths[j]);
			if (s && (e->sec[k].kind != SEC_PANEL || k == e->panels[p]))
				return bad(f, e, s->line, "'%s' is the x axis of [panel %s] (x = %s)",
					   s->key, e->sec[e->panels[p]].name, a->name);
		}
	}
	return 0;
}

static int check(struct experiment *e, struct failure *f)
{
	const struct setting *cmd, *plot;

	e->exp = -1;
	for (int k = 0; k < e->nsec; k++) {
		int **list = e->sec[k].kind == SEC_PANEL ? &e->panels : &e->series;
		int *n = e->sec[k].kind == SEC_PANEL ? &e->npanels : &e->nseries;
		int *nl;

		if (e->sec[k].kind == SEC_EXPERIMENT) {
			e->exp = k;
			continue;
		}
		nl = realloc(*list, sizeof(**list) * (size_t)(*n + 1));
		if (!nl)
			return fail_no_memory(f);
		*list = nl;
		nl[(*n)++] = k;
	}
	if (e->exp < 0)
		return failf(f, EXIT_USAGE, "%s:1: no [experiment] section", e->path);
	if (!(cmd = required(e, "command", f)) || !(plot = required(e, "plot", f)) ||
	    !required(e, "title", f))
		return -1;
	if (check_choice(e, cmd, "run|traffic|trace", f) ||
	    check_choice(e, plot, "lines|load|histogram", f))
		return -1;
	e->command = (enum command)command_find(cmd->value);
	e->plot = !strcmp(plot->value, "lines") ? PLOT_LINES
		  : !strcmp(plot->value, "load") ? PLOT_LOAD : PLOT_HISTOGRAM;
	if ((e->plot == PLOT_LINES) != (e->command == CMD_ID_RUN) ||
	    (e->plot == PLOT_LOAD) != (e->command == CMD_ID_TRAFFIC))
		return bad(f, e, plot->line, "a %s plot is not made of %s runs (lines: run, load: "
			   "traffic, histogram: trace)", plot->value, cmd->value);
	if (e->plot == PLOT_LOAD && (!find(&e->sec[e->exp], "saturation_factor") ||
				     !find(&e->sec[e->exp], "saturation_sent")))
		return bad(f, e, plot->line, "a load plot needs saturation_factor and saturation_sent "
			   "(the saturation point is the lowest load whose mean latency exceeds "
			   "saturation_factor times the latency at the lowest load, or whose sent "
			   "load is below saturation_sent times the offered load)");
	if (e->npanels == 0 || e->nseries == 0)
		return bad(f, e, e->sec[e->exp].line, "an experiment needs a [panel NAME] and a "
			   "[series NAME] at least");
	if (e->plot == PLOT_HISTOGRAM && (e->npanels != 1 || e->nseries != 1))
		return bad(f, e, e->sec[e->exp].line, "a histogram has one panel and one series");
	for (int k = 0; k < e->nsec; k++)
		for (int j = 0; j < e->sec[k].n; j++)
			if (check_key(e, &e->sec[k], &e->sec[k].s[j], f))
				return -1;
	/* The panels a series names exist. */
	for (int s = 0; s < e->nseries; s++) {
		const struct setting *ps = find(&e->sec[e->series[s]], "panels");

		for (const char *p = ps ? ps->value : ""; *p;) {
			size_t k = strcspn(p, ",");
			bool found = false;

			for (int q = 0; q < e->npanels; q++)
				found |= strlen(e->sec[e->panels[q]].name) == k &&
					 !strncmp(e->sec[e->panels[q]].name, p, k);
			if (!found)
				return bad(f, e, ps->line, "panels: there is no [panel %.*s]", (int)k, p);
			p += k + (p[k] == ',');
		}
	}
	return check_axes(e, f);
}

int experiment_load(const char *path, const char *name, struct experiment **out,
		    struct failure *f)
{
	struct experiment *e = calloc(1, sizeof(*e));
	const char *slash = strrchr(path, '/');
	char *text = NULL;
	size_t len;

	if (!e)
		return fail_no_memory(f);
	e->path = strdup(path);
	e->name = strdup(name);
	e->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	if (!e->path || !e->name || !e->dir) {
		experiment_free(e);
		return fail_no_memory(f);
	}
	if (config_read(path, &text, &len, f) || config_parse(path, text, len, keep, e, f) ||
	    check(e, f)) {
		free(text);
		experiment_free(e);
		return -1;
	}
	free(text);
	*out = e;
	return 0;
}

void experiment_free(struct experiment *e)
{
	if (!e)
		return;
	for (int k = 0; k < e->nsec; k++) {
		for (int j = 0; j < e->sec[k].n; j++) {
			free(e->sec[k].s[j].key);
			free(e->sec[k].s[j].value);
		}
		free(e->sec[k].s);
		free(e->sec[k].name);
	}
	free(e->sec);
	free(e->panels);
	free(e->series);
	free(e->name);
	free(e->path);
	free(e->dir);
	free(e);
}

/* ---- accessors ---- */

const char *experiment_name(const struct experiment *e) { return e->name; }
const char *experiment_path(const struct experiment *e) { return e->path; }
enum exp_plot experiment_plot(const struct experiment *e) { return e->plot; }
int experiment_panels(const struct experiment *e) { return e->npanels; }
int experiment_series(const struct experiment *e) { return e->nseries; }

const char *experiment_panel_name(const struct experiment *e, int panel)
{
	return e->sec[e->panels[panel]].name;
}

const char *experiment_series_name(const struct experiment *e, int series)
{
	return e->sec[e->series[series]].name;
}

bool experiment_series_in(const struct experiment *e, int series, int panel)
{
	const struct setting *ps = find(&e->sec[e->series[series]], "panels");
	const char *name = experiment_panel_name(e, panel);
	size_t n = strlen(name);

	if (!ps)
		return true;
	for (const char *p = ps->value; *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, name, n))
			return true;
		p += k + (p[k] == ',');
	}
	return false;
}

/* ---- the points ---- */

/* The command line of one point; NULL if memory ran out. */
static char **point_argv(const struct experiment *e, int panel, int series, bool quick,
			 const struct axis *a, double x, bool measured, const char *self,
			 const char *latencies)
{
	int secs[3] = { e->exp, e->panels[panel], e->series[series] };
	struct argv_builder b = { 0 };
	const struct setting *bytes = resolve(e, panel, series, "bytes", quick);
	const struct setting *width = resolve(e, panel, series, "payload-width", quick);
	bool ok = argv_add(&b, self) == 0 && argv_add(&b, command_name(e->command)) == 0;
	double flits_of_bytes = -1;

	/* Every option any of the three sections gives, once, at its nearest value. */
	for (int k = 0; ok && k < 3; k++)
		for (int j = 0; ok && j < e->sec[secs[k]].n; j++) {
			const char *key = e->sec[secs[k]].s[j].key;
			const char *name = strncmp(key, "quick.", 6) ? key : key + 6;
			const struct setting *s;
			char msg[64];
			int id, seen = 0;

			if (display_key(name))
				continue;
			/* Given in an earlier section (or earlier here, as KEY or quick.KEY)? */
			for (int k2 = 0; k2 <= k && !seen; k2++)
				for (int j2 = 0; j2 < (k2 < k ? e->sec[secs[k2]].n : j) && !seen; j2++) {
					const char *o = e->sec[secs[k2]].s[j2].key;

					seen = !strcmp(o, name) || (!strncmp(o, "quick.", 6) &&
								    !strcmp(o + 6, name));
				}
			s = seen ? NULL : resolve(e, panel, series, name, quick);
			/* (A quick.KEY alone sets nothing without --quick.) */
			if (!s)
				continue;
			id = options_check_value(e->command, name, NULL, msg, sizeof(msg));
			if (option_table[id].type == OT_FLAG) {
				if (!strcmp(s->value, "yes"))
					ok = argv_addf(&b, "--%s", name) == 0;
				continue;
			}
			if (option_table[id].input && s->value[0] != '/')
				ok = argv_addf(&b, "--%s", name) == 0 &&
				     argv_addf(&b, "%s/%s", e->dir, s->value) == 0;
			else
				ok = argv_addf(&b, "--%s", name) == 0 && argv_add(&b, s->value) == 0;
		}
	if (bytes || (a && !strcmp(a->name, "bytes"))) {
		double w = width ? atof(width->value) : atof(option_table[OPT_PAYLOAD_WIDTH].def);
		double by = a && !strcmp(a->name, "bytes") ? x : atof(bytes->value);

		/* The head carries no payload: ceil(bytes * 8 / W) data flits after it. */
		flits_of_bytes = ceil(by * 8 / w) + 1;
		ok = ok && argv_add(&b, "--flits") == 0 &&
		     argv_addf(&b, "%.0f", flits_of_bytes) == 0;
	}
	if (a && !strcmp(a->name, "dimension"))
		ok = ok && argv_add(&b, "--topology") == 0 && argv_addf(&b, "hypercube:%.0f", x) == 0;
	else if (a && !strcmp(a->name, "side"))
		ok = ok && argv_add(&b, "--topology") == 0 && argv_addf(&b, "mesh:%.0fx%.0f", x, x) == 0;
	else if (a && !strcmp(a->name, "flits"))
		ok = ok && argv_add(&b, "--flits") == 0 && argv_addf(&b, "%.0f", x) == 0;
	else if (a && !strcmp(a->name, "rate"))
		ok = ok && argv_add(&b, "--rate") == 0 && argv_addf(&b, "%.17g", x) == 0;
	if (e->command == CMD_ID_TRACE)
		ok = ok && argv_add(&b, "--latencies") == 0 && argv_add(&b, latencies) == 0;
	if (!measured)
		ok = ok && argv_add(&b, "--formula-only") == 0;
	ok = ok && argv_add(&b, "--json") == 0;
	if (!ok) {
		argv_free(b.v);
		return NULL;
	}
	return b.v;
}

/* Parse and set up the point as its command will: the weight, or -1 with the failure. */
static double check_point(const struct experiment *e, char **argv, bool measured,
			  struct failure *f)
{
	struct options *o = calloc(1, sizeof(*o));
	struct sim_config cfg;
	struct algo_params p;
	bool help;
	int argc = 0;
	double w = -1;
	char **copy;

	while (argv[argc])
		argc++;
	/* getopt_long permutes what it parses: a copy of the array, the same strings. */
	copy = malloc(sizeof(*copy) * (size_t)(argc + 1));
	if (!o || !copy) {
		free(o);
		free(copy);
		fail_no_memory(f);
		return -1;
	}
	memcpy(copy, argv, sizeof(*copy) * (size_t)(argc + 1));
	if (options_parse(o, e->command, argc - 1, copy + 1, &help, f) || setup_config(o, &cfg, f))
		goto out;
	if (e->command == CMD_ID_RUN) {
		const struct algorithm *a = algo_find(opt(o, OPT_ALGORITHM)->text);

		if ((!measured && setup_formula_only(o, f)) ||
		    setup_algorithm(o, a, opt(o, OPT_FLITS)->u, &cfg, &p, f))
			goto out;
		w = (double)cfg.topo.nodes * (double)(opt(o, OPT_FLITS)->u + (uint64_t)cfg.startup);
		if (!measured)
			w = cfg.topo.nodes;	/* the schedule: events, not cycles */
	} else if (e->command == CMD_ID_TRAFFIC) {
		w = (double)cfg.topo.nodes * (double)opt(o, OPT_CYCLES)->u *
		    (opt(o, OPT_RATE)->d + 0.05);
	} else {
		char err[1024];
		struct trace *tr = trace_load(opt(o, OPT_TRACE)->text, &cfg.topo, err, sizeof(err));

		if (!tr) {
			failf(f, strcmp(err, NO_MEMORY) ? EXIT_USAGE : EXIT_FAILED, "%s", err);
			goto out;
		}
		w = (double)cfg.topo.nodes * 1000.0 * trace_count(tr);
		trace_destroy(tr);
	}
out:
	free(o);
	free(copy);
	return w;
}

int experiment_points(const struct experiment *e, bool quick, const char *self,
		      const char *latencies, struct exp_point **points, int *n, struct failure *f)
{
	struct exp_point *pts = NULL;
	int np = 0;
	size_t cap = 0;

	for (int p = 0; p < e->npanels; p++) {
		const struct axis *a = axis_of(e, p);
		const struct setting *sv = a ? resolve(e, p, -1, "values", quick) : NULL;
		const struct setting *sm = a ? resolve(e, p, -1, "measure", quick) : NULL;
		double v[EXP_MAX_VALUES], m[EXP_MAX_VALUES];
		char msg[256];
		int nv = 1, nm = 0;

		v[0] = 0;
		if (sv)
			parse_values(sv->value, a->whole, v, &nv, msg, sizeof(msg));
		if (sm)
			parse_values(sm->value, a->whole, m, &nm, msg, sizeof(msg));
		for (int s = 0; s < e->nseries; s++) {
			if (!experiment_series_in(e, s, p))
				continue;
			for (int k = 0; k < nv; k++) {
				struct exp_point *pt;
				struct failure why = { 0 };
				bool measured = !sm;

				for (int j = 0; j < nm; j++)
					measured |= m[j] == v[k];
				if ((size_t)np == cap) {
					struct exp_point *q = grow_array(pts, &cap, cap + 1, sizeof(*q),
									 64, INT_MAX);

					if (!q)
						goto oom;
					pts = q;
				}
				pt = &pts[np];
				*pt = (struct exp_point){ .panel = p, .series = s, .x = v[k],
							  .measured = measured };
				if (resolve(e, p, s, "bytes", quick) && resolve(e, p, s, "flits", quick)) {
					failf(f, EXIT_USAGE, "%s:%d: bytes and flits both give the length "
					      "of [series %s] in [panel %s]", e->path,
					      resolve(e, p, s, "bytes", quick)->line,
					      e->sec[e->series[s]].name, e->sec[e->panels[p]].name);
					experiment_points_free(pts, np);
					return -1;
				}
				pt->argv = point_argv(e, p, s, quick, a, v[k], measured, self, latencies);
				if (!pt->argv)
					goto oom;
				np++;
				pt->weight = check_point(e, pt->argv, measured, &why);
				if (pt->weight < 0) {
					char x[64] = "";

					if (why.status == EXIT_FAILED && !strcmp(why.msg, NO_MEMORY))
						goto oom;
					if (a)
						snprintf(x, sizeof(x), " at %s = %g", a->name, v[k]);
					failf(f, why.status, "%s:%d: [series %s] in [panel %s]%s: %s", e->path,
					      e->sec[e->series[s]].line, e->sec[e->series[s]].name,
					      e->sec[e->panels[p]].name, x, why.msg);
					experiment_points_free(pts, np);
					return -1;
				}
			}
		}
	}
	*points = pts;
	*n = np;
	return 0;
oom:
	experiment_points_free(pts, np);
	return fail_no_memory(f);
}

void experiment_points_free(struct exp_point *points, int n)
{
	for (int k = 0; k < n; k++)
		argv_free(points[k].argv);
	free(points);
}
