/* SPDX-License-Identifier: MIT */
/*
 * trace.c - reading a message trace and sending it.  The reader checks everything
 * before the run starts, so a run never meets a line it cannot send.
 */
#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bcast_gate.h"
#include "grow.h"
#include "latency.h"
#include "number.h"
#include "textfile.h"

struct trace {
	struct trace_entry *e;
	int n, cap;
	int next;			/* first entry not yet sent */
	struct bcast_gate gate;
	char error[256];		/* first failed send */
};

/* ---- reading ---- */

struct reader {
	const char *path;
	int line;
	const struct topology *topo;
	char *err;
	size_t errlen;
};

static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int k;

	k = snprintf(r->err, r->errlen, "%s:%d: ", r->path, r->line);
	if (k < 0 || (size_t)k >= r->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

/* A whole decimal number in lo..hi (util/number.h); what names the field in a message. */
static int number(struct reader *r, const char *tok, const char *what, uint64_t lo,
		  uint64_t hi, uint64_t *out)
{
	enum number_status st;
	char msg[256];

	if (!tok)
		return fail(r, "missing %s", what);
	st = number_uint(tok, lo, hi, out);
	if (st == NUMBER_OK)
		return 0;
	return fail(r, "%s", number_uint_message(st, what, tok, lo, hi, msg, sizeof(msg)));
}

static int node(struct reader *r, const char *tok, const char *what, int *out)
{
	char name[64];
	uint64_t v;

	if (!tok)
		return fail(r, "missing %s", what);
	if (number(r, tok, what, 0, UINT64_MAX, &v))
		return -1;
	if (v >= (uint64_t)r->topo->nodes)
		return fail(r, "%s %s is not a node of %s (nodes 0..%d)", what, tok,
			    topology_name(r->topo, name, sizeof(name)), r->topo->nodes - 1);
	*out = (int)v;
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Split s in place into at most max whitespace-separated tokens; returns the count. */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;

	while (*s) {
		while (is_space(*s))
			s++;
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && !is_space(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/* Parse one line with its comment removed into e; 1 if it held a message, 0 if blank. */
static int parse_line(struct reader *r, char *text, struct trace_entry *e)
{
	char *tok[8];
	int n = tokenize(text, tok, 7), next;
	uint64_t v;

	if (n == 0)
		return 0;
	for (int k = n; k < 8; k++)
		tok[k] = NULL;
	*e = (struct trace_entry){ .line = r->line, .dest = -1, .msg = -1 };
	if (number(r, tok[0], "cycle", 0, TRACE_MAX_CYCLE, &e->cycle) ||
	    node(r, tok[1], "source", &e->source))
		return -1;
	if (!tok[2])
		return fail(r, "missing message type (R or B)");
	if (!strcasecmp(tok[2], "R")) {
		e->type = HDR_R;
		if (node(r, tok[3], "destination", &e->dest))
			return -1;
		if (e->dest == e->source)
			return fail(r, "R message from node %d to itself", e->source);
		next = 4;
	} else if (!strcasecmp(tok[2], "B")) {
		e->type = HDR_B;
		next = 3;
	} else {
		return fail(r, "unknown message type '%s' (expected R or B)", tok[2]);
	}
	if (number(r, tok[next], "flits", 1, TRACE_MAX_FLITS, &v))
		return -1;
	e->len = (int)v;
	next++;
	if (tok[next] && !strcasecmp(tok[next], "ir")) {
		if (e->type == HDR_B)
			return fail(r, "'ir' on a B message (only unicasts have intermediate reception)");
		e->ir = true;
		next++;
	}
	if (next < n)	/* next <= 6, and tok[0..6] are set when n > 7 */
		return fail(r, "unexpected '%s' after the message (lines are "
			    "'CYCLE SOURCE R DEST FLITS [ir]' or 'CYCLE SOURCE B FLITS')",
			    tok[next]);
	return 1;
}

static int append(struct trace *tr, const struct trace_entry *e)
{
	if (tr->n == tr->cap) {
		size_t cap = (size_t)tr->cap;
		struct trace_entry *p = grow_array(tr->e, &cap, cap + 1, sizeof(*p), 256, INT_MAX);

		if (!p)
			return -1;
		tr->e = p;
		tr->cap = (int)cap;
	}
	tr->e[tr->n++] = *e;
	return 0;
}

struct trace *trace_parse(const char *name, const char *text, size_t len,
			  const struct topology *t, char *err, size_t errlen)
{
	struct reader r = { .path = name, .topo = t, .err = err, .errlen = errlen };
	struct text_lines lines;
	struct trace *tr;
	const char *start;
	char *buf = NULL;
	size_t n, cap = 0;
	int rc = 0, got;

	tr = calloc(1, sizeof(*tr));
	if (!tr) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	bcast_gate_init(&tr->gate);
	text_lines_init(&lines, text, len);
	while ((got = text_next_line(&lines, &start, &n)) != 0) {
		struct trace_entry e;
		char *hash;

		r.line = lines.line;
		if (got < 0) {
			rc = fail(&r, "contains a NUL byte (not a text file?)");
			break;
		}
		if (r.line == INT32_MAX) {
			rc = fail(&r, "too many lines");
			break;
		}
		if (n + 1 > cap) {
			char *p = realloc(buf, n + 1);

			if (!p) {
				rc = -1;
				snprintf(err, errlen, "out of memory");
				break;
			}
			buf = p;
			cap = n + 1;
		}
		memcpy(buf, start, n);
		buf[n] = '\0';
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		rc = parse_line(&r, buf, &e);
		if (rc < 0)
			break;
		if (rc == 0)
			continue;
		if (tr->n && e.cycle < tr->e[tr->n - 1].cycle) {
			rc = fail(&r, "cycle %llu is before cycle %llu of line %d (cycles must not "
				  "decrease)", (unsigned long long)e.cycle,
				  (unsigned long long)tr->e[tr->n - 1].cycle, tr->e[tr->n - 1].line);
			break;
		}
		if (append(tr, &e)) {
			rc = -1;
			snprintf(err, errlen, "out of memory");
			break;
		}
		rc = 0;
	}
	if (rc == 0 && tr->n == 0)
		rc = -1, snprintf(err, errlen, "%s: the trace has no messages", name);
	free(buf);
	if (rc) {
		trace_destroy(tr);
		return NULL;
	}
	return tr;
}

struct trace *trace_load(const char *path, const struct topology *t, char *err, size_t errlen)
{
	struct trace *tr;
	char *text;
	size_t len;

	if (text_read(path, TRACE_MAX_BYTES, &text, &len)) {
		if (errno == ENOMEM)
			snprintf(err, errlen, "out of memory");
		else if (errno == EFBIG)
			snprintf(err, errlen, "%s: the trace is larger than %llu bytes", path,
				 (unsigned long long)TRACE_MAX_BYTES);
		else
			snprintf(err, errlen, "%s: cannot read the trace: %s", path, strerror(errno));
		return NULL;
	}
	tr = trace_parse(path, text, len, t, err, errlen);
	free(text);
	return tr;
}

void trace_destroy(struct trace *tr)
{
	if (!tr)
		return;
	free(tr->e);
	free(tr);
}

int trace_count(const struct trace *tr)
{
	return tr->n;
}

const struct trace_entry *trace_entry(const struct trace *tr, int i)
{
	return &tr->e[i];
}

const char *trace_error(const struct trace *tr)
{
	return tr->error;
}

/* ---- sending ---- */

static void tick(void *ctx, struct sim *s)
{
	struct trace *tr = ctx;
	uint64_t now = sim_now(s);

	if (bcast_gate_busy(&tr->gate, s))
		return;			/* no sends while a broadcast is in flight */
	while (tr->next < tr->n && tr->e[tr->next].cycle <= now) {
		struct trace_entry *e = &tr->e[tr->next];
		struct send_req r = {
			.dest = e->dest, .type = e->type, .ir = e->ir, .len = e->len,
			.channel = -1, .tag = (uint64_t)tr->next,
		};

		if (e->type == HDR_B) {
			if (!bcast_gate_ready(&tr->gate, s))
				return;	/* wait for the network to drain */
			e->msg = bcast_gate_send(&tr->gate, s, e->source, &r);
		} else {
			e->msg = sim_send(s, e->source, &r);
		}
		if (e->msg < 0 && !tr->error[0])
			snprintf(tr->error, sizeof(tr->error), "line %d: %s", e->line, sim_error(s));
		tr->next++;
		if (e->type == HDR_B)
			return;		/* the lines after it wait for its delivery */
	}
}

static bool finished(void *ctx, const struct sim *s)
{
	struct trace *tr = ctx;

	(void)s;
	return tr->next == tr->n && bcast_gate_idle(&tr->gate);
}

void trace_driver(struct trace *tr, struct driver *d)
{
	*d = (struct driver){ .ctx = tr, .tick = tick, .finished = finished };
}

/* ---- results ---- */

bool trace_delivered(const struct trace_entry *e, const struct sim *s, uint64_t *cycle)
{
	const struct message *m;

	if (e->msg < 0)
		return false;
	m = sim_message(s, e->msg);
	if (m->receivers == 0 || m->delivered < m->receivers)
		return false;
	*cycle = m->last_delivery;
	return true;
}

int trace_get_stats(const struct trace *tr, const struct sim *s, struct trace_stats *st)
{
	uint64_t *lat = malloc(sizeof(*lat) * (size_t)(tr->n ? tr->n : 1));
	size_t n = 0;

	memset(st, 0, sizeof(*st));
	if (!lat)
		return -1;
	st->messages = (uint64_t)tr->n;
	for (int i = 0; i < tr->n; i++) {
		const struct trace_entry *e = &tr->e[i];
		const struct message *m;
		uint64_t done;

		st->broadcasts += e->type == HDR_B;
		if (e->msg < 0)
			continue;
		st->sent++;
		m = sim_message(s, e->msg);
		if (m->send_cycle - e->cycle > st->max_send_delay)
			st->max_send_delay = m->send_cycle - e->cycle;
		if (!trace_delivered(e, s, &done))
			continue;
		lat[n++] = done - m->send_cycle;
	}
	st->delivered = n;
	latency_summarize(lat, n, &st->latency);
	free(lat);
	return 0;
}

int trace_write_csv(const struct trace *tr, const struct sim *s, FILE *out)
{
	fputs("line,cycle,source,type,dest,flits,send_cycle,delivered_cycle,latency\n", out);
	for (int i = 0; i < tr->n; i++) {
		const struct trace_entry *e = &tr->e[i];
		uint64_t done;

		fprintf(out, "%d,%llu,%d,%s,", e->line, (unsigned long long)e->cycle, e->source,
			e->type == HDR_B ? "B" : e->ir ? "R+IR" : "R");
		if (e->type == HDR_R)
			fprintf(out, "%d", e->dest);
		fprintf(out, ",%d,", e->len);
		if (e->msg >= 0) {
			const struct message *m = sim_message(s, e->msg);

			fprintf(out, "%llu", (unsigned long long)m->send_cycle);
			if (trace_delivered(e, s, &done))
				fprintf(out, ",%llu,%llu", (unsigned long long)done,
					(unsigned long long)(done - m->send_cycle));
			else
				fputs(",,", out);
		} else {
			fputs(",,", out);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
