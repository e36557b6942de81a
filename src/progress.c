/* SPDX-License-Identifier: MIT */
/*
 * progress.c - the progress bar (see progress.h).
 */
#include "progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 24

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "1:02:03" or "2:03" into buf. */
static const char *clock_text(double seconds, char *buf, size_t len)
{
	long s = seconds < 0 ? 0 : (long)(seconds + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
	return buf;
}

static void draw(struct progress *p)
{
	double t = now_seconds(), elapsed = t - p->t0;
	double frac = p->total > 0 ? p->done_weight / p->total : (p->n ? (double)p->done / p->n : 1);
	char bar[BAR_WIDTH + 1], a[32], b[32], left[64];
	int filled;

	if (frac > 1)
		frac = 1;
	filled = (int)(frac * BAR_WIDTH + 0.5);
	memset(bar, '#', (size_t)filled);
	memset(bar + filled, '.', (size_t)(BAR_WIDTH - filled));
	bar[BAR_WIDTH] = '\0';
	/* The time left only once something is done: a guess from nothing is noise. */
	if (p->done == 0 || frac <= 0)
		snprintf(left, sizeof(left), "time left unknown");
	else
		snprintf(left, sizeof(left), "about %s left",
			 clock_text(elapsed * (1 - frac) / frac, b, sizeof(b)));
	/* \r and erase to the end of the line: the bar replaces itself. */
	fprintf(p->out, "\r[%s] %d/%d %s %3d%%  %s elapsed, %s\033[K", bar, p->done, p->n,
		p->unit, (int)(frac * 100), clock_text(elapsed, a, sizeof(a)), left);
	fflush(p->out);
	p->shown = true;
	p->last_draw = t;
}

bool progress_wanted(bool quiet)
{
	return !quiet && isatty(STDERR_FILENO);
}

void progress_begin(struct progress *p, bool on, FILE *out, const char *unit, int n,
		    double total)
{
	*p = (struct progress){ .on = on, .out = out, .unit = unit, .n = n, .total = total,
				.t0 = now_seconds() };
	if (p->on)
		draw(p);
}

void progress_step(struct progress *p, double weight)
{
	p->done++;
	p->done_weight += weight;
	if (p->on)
		draw(p);
}

void progress_tick(struct progress *p)
{
	if (p->on && now_seconds() - p->last_draw >= 1.0)
		draw(p);
}

void progress_clear(struct progress *p)
{
	if (!p->on || !p->shown)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->shown = false;
}

void progress_end(struct progress *p)
{
	progress_clear(p);
	p->on = false;
}
