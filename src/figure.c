/* SPDX-License-Identifier: MIT */
/*
 * figure.c - the plotter's input (see figure.h).
 */
#include "figure.h"

#include <stdio.h>
#include <string.h>

/* The figures of a run a point carries (absent ones are not copied). */
static const char *const point_fields[] = {
	"simulated", "cycles", "predicted_cycles", "published_cycles", "schedule_cycles",
	"lower_bound_cycles", "formula_source", "avg_latency", "p50_latency", "p99_latency",
	"max_latency", "sent_rate", "delivered", "messages", "ok", NULL,
};

static void fail_if(struct figure *fig, const void *made)
{
	if (!made)
		fig->failed = true;
}

int figure_begin(struct figure *fig, const char *kind, const char *title)
{
	memset(fig, 0, sizeof(*fig));
	fig->root = cJSON_CreateObject();
	fail_if(fig, fig->root);
	figure_text(fig, fig->root, "kind", kind);
	figure_text(fig, fig->root, "title", title);
	if (!fig->failed)
		fail_if(fig, fig->panels = cJSON_AddArrayToObject(fig->root, "panels"));
	return fig->failed ? -1 : 0;
}

void figure_text(struct figure *fig, cJSON *obj, const char *key, const char *value)
{
	if (!fig->failed && obj)
		fail_if(fig, cJSON_AddStringToObject(obj, key, value));
}

void figure_number(struct figure *fig, cJSON *obj, const char *key, double value)
{
	if (!fig->failed && obj)
		fail_if(fig, cJSON_AddNumberToObject(obj, key, value));
}

void figure_bool(struct figure *fig, cJSON *obj, const char *key, bool value)
{
	if (!fig->failed && obj)
		fail_if(fig, cJSON_AddBoolToObject(obj, key, value));
}

void figure_null(struct figure *fig, cJSON *obj, const char *key)
{
	if (!fig->failed && obj)
		fail_if(fig, cJSON_AddNullToObject(obj, key));
}

/* A new object appended to array; NULL if memory ran out. */
static cJSON *append_object(struct figure *fig, cJSON *array)
{
	cJSON *o;

	if (fig->failed || !array)
		return NULL;
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(array, o)) {
		cJSON_Delete(o);
		fig->failed = true;
		return NULL;
	}
	return o;
}

cJSON *figure_panel(struct figure *fig, const char *title, const char *x_label,
		    const char *y_label, bool log_x, bool log_y)
{
	cJSON *p = append_object(fig, fig->panels);

	figure_text(fig, p, "title", title);
	figure_text(fig, p, "x_label", x_label);
	figure_text(fig, p, "y_label", y_label);
	figure_bool(fig, p, "log_x", log_x);
	figure_bool(fig, p, "log_y", log_y);
	if (!fig->failed && p)
		fail_if(fig, cJSON_AddArrayToObject(p, "series"));
	return fig->failed ? NULL : p;
}

cJSON *figure_series(struct figure *fig, cJSON *panel, const char *label, const char *curves)
{
	cJSON *s = append_object(fig, panel ? cJSON_GetObjectItemCaseSensitive(panel, "series")
					    : NULL);
	cJSON *list = NULL;

	figure_text(fig, s, "label", label);
	if (!fig->failed && s)
		fail_if(fig, list = cJSON_AddArrayToObject(s, "curves"));
	/* "formula,bound" as ["formula", "bound"]. */
	for (const char *p = curves; !fig->failed && p && *p;) {
		size_t n = strcspn(p, ",");
		char word[32];
		cJSON *w;

		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		w = cJSON_CreateString(word);
		if (!w || !cJSON_AddItemToArray(list, w)) {
			cJSON_Delete(w);
			fig->failed = true;
		}
		p += n + (p[n] == ',');
	}
	if (!fig->failed && s)
		fail_if(fig, cJSON_AddArrayToObject(s, "points"));
	return fig->failed ? NULL : s;
}

void figure_point(struct figure *fig, cJSON *series, double x, const cJSON *run)
{
	cJSON *pt = append_object(fig, series ? cJSON_GetObjectItemCaseSensitive(series, "points")
					      : NULL);

	figure_number(fig, pt, "x", x);
	for (int k = 0; point_fields[k] && !fig->failed && pt; k++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, point_fields[k]);
		cJSON *copy;

		if (!v)
			continue;
		copy = cJSON_Duplicate(v, false);
		if (!copy || !cJSON_AddItemToObject(pt, point_fields[k], copy)) {
			cJSON_Delete(copy);
			fig->failed = true;
		}
	}
}

cJSON *figure_end(struct figure *fig)
{
	if (!fig->failed)
		return fig->root;
	cJSON_Delete(fig->root);
	fig->root = NULL;
	return NULL;
}

static double number(const cJSON *run, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *text(const cJSON *run, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

cJSON *figure_of_sweep(const cJSON *runs)
{
	const cJSON *first = cJSON_GetArrayItem(runs, 0), *run;
	struct figure fig;
	char title[256];
	cJSON *panel;

	snprintf(title, sizeof(title), "Latency against message length on %s (t_s = %.0f, "
		 "T_r = %.0f)", text(first, "topology"), number(first, "startup"),
		 number(first, "replication_cost"));
	if (figure_begin(&fig, "lines", title))
		return figure_end(&fig);
	panel = figure_panel(&fig, "", "L, message length (flits)", "cycles", true, true);
	/* A series per algorithm, in the order the algorithms first appear. */
	cJSON_ArrayForEach(run, runs) {
		const char *name = text(run, "algorithm");
		const cJSON *other, *series = NULL;

		cJSON_ArrayForEach(other, runs) {
			if (other == run)
				break;
			if (!strcmp(text(other, "algorithm"), name))
				series = other;
		}
		if (series)
			continue;	/* drawn with its first run */
		/* "hk [Jeon & Kim eq. 1]", "sbt [derived]": where the line comes from. */
		snprintf(title, sizeof(title), "%s [%s]", name,
			 !strncmp(text(run, "formula_source"), "derived", 7) ? "derived"
									   : text(run, "formula_source"));
		series = figure_series(&fig, panel, title, "formula");
		cJSON_ArrayForEach(other, runs)
			if (!strcmp(text(other, "algorithm"), name))
				figure_point(&fig, (cJSON *)series, number(other, "flits"), other);
	}
	return figure_end(&fig);
}
