/* SPDX-License-Identifier: MIT */
/*
 * jobs.c - the local process pool (see jobs.h).
 */
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grow.h"

/* A running job: its process and the two pipes still open (-1 once at their end). */
struct slot {
	pid_t pid;
	int k;
	int fd[2];		/* standard output, standard error */
	size_t cap[2];
	bool signalled;		/* the stop signal was passed on */
};

int jobs_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

char *jobs_self(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

/* ---- command lines ---- */

static bool shell_safe(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_@%+=:,./-", *w))
			return false;
	return true;
}

void jobs_write_line(FILE *out, char *const *argv)
{
	for (int k = 0; argv[k]; k++) {
		const char *w = argv[k];

		if (k)
			fputc(' ', out);
		if (shell_safe(w)) {
			fputs(w, out);
			continue;
		}
		/* 'it'\''s': a single quote ends the quoting, is escaped, and starts it again. */
		fputc('\'', out);
		for (; *w; w++) {
			if (*w == '\'')
				fputs("'\\''", out);
			else
				fputc(*w, out);
		}
		fputc('\'', out);
	}
	fputc('\n', out);
}

/* Append word, which the argv then owns (freed if it cannot be kept). */
static int argv_take(struct argv_builder *b, char *word)
{
	if (!word)
		return -1;
	if (b->n + 2 > b->cap) {
		size_t cap = (size_t)b->cap;
		char **v = grow_array(b->v, &cap, (size_t)b->n + 2, sizeof(*v), 16, INT_MAX);

		if (!v) {
			free(word);
			return -1;
		}
		b->v = v;
		b->cap = (int)cap;
	}
	b->v[b->n++] = word;
	b->v[b->n] = NULL;
	return 0;
}

int argv_add(struct argv_builder *b, const char *word)
{
	return argv_take(b, strdup(word));
}

int argv_addf(struct argv_builder *b, const char *fmt, ...)
{
	char *word;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&word, fmt, ap);
	va_end(ap);
	return argv_take(b, n < 0 ? NULL : word);
}

void argv_free(char **argv)
{
	for (int k = 0; argv && argv[k]; k++)
		free(argv[k]);
	free(argv);
}

void jobs_free(struct job *jobs, int n)
{
	for (int k = 0; k < n; k++) {
		argv_free(jobs[k].argv);
		free(jobs[k].out);
		free(jobs[k].err);
		jobs[k].argv = NULL;
		jobs[k].out = jobs[k].err = NULL;
	}
}

/* ---- the pool ---- */

/* The child: its pipes as stdout and stderr, /dev/null as stdin, then exec. */
static void child(const struct job *j, int out, int err)
{
	int null = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	execvp(j->argv[0], j->argv);
	dprintf(STDERR_FILENO, "cannot run '%s': %s\n", j->argv[0], strerror(errno));
	_exit(127);
}

static int start(struct job *j, int k, struct slot *s)
{
	int out[2], err[2];
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		errno = e;
		return -1;
	}
	if (pid == 0)
		child(j, out[1], err[1]);
	/* Both sides, so that a job's signal never races with its setpgid. */
	setpgid(pid, pid);
	close(out[1]);
	close(err[1]);
	*s = (struct slot){ .pid = pid, .k = k, .fd = { out[0], err[0] } };
	j->ran = true;
	return 0;
}

/* Append what fd has to the job's buffer; 0 at the end of the pipe, 1 if more may come. */
static int drain(struct job *j, struct slot *s, int which)
{
	char **buf = which ? &j->err : &j->out;
	size_t *len = which ? &j->err_len : &j->out_len;

	for (;;) {
		ssize_t n;

		if (*len + 4096 + 1 > s->cap[which]) {
			char *b = grow_array(*buf, &s->cap[which], *len + 4096 + 1, 1, 8192, SIZE_MAX);

			if (!b)
				return -1;
			*buf = b;
			(*buf)[*len] = '\0';	/* even if nothing more comes */
		}
		n = read(s->fd[which], *buf + *len, s->cap[which] - *len - 1);
		if (n > 0) {
			*len += (size_t)n;
			(*buf)[*len] = '\0';
			if ((size_t)n < 4096)
				return 1;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 1;
		close(s->fd[which]);
		s->fd[which] = -1;
		return 0;
	}
}

static int reap(struct job *j, struct slot *s)
{
	int status;

	while (waitpid(s->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	j->status = WIFEXITED(status) ? WEXITSTATUS(status)
				      : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
	return 0;
}

/* Give up on the running jobs: stop them, close their pipes, wait for them. */
static void abandon(struct job *jobs, struct slot *slots, int running)
{
	for (int s = 0; s < running; s++) {
		kill(slots[s].pid, SIGKILL);
		for (int w = 0; w < 2; w++)
			if (slots[s].fd[w] >= 0)
				close(slots[s].fd[w]);
		reap(&jobs[slots[s].k], &slots[s]);
	}
}

/* Heaviest first (ties in the jobs' order): the longest job never starts last. */
static int *launch_order(const struct job *jobs, int n)
{
	int *order = malloc(sizeof(*order) * (size_t)(n ? n : 1));

	if (!order)
		return NULL;
	for (int k = 0; k < n; k++) {
		int i = k;

		while (i > 0 && jobs[order[i - 1]].weight < jobs[k].weight) {
			order[i] = order[i - 1];
			i--;
		}
		order[i] = k;
	}
	return order;
}

int jobs_run(struct job *jobs, int n, const struct job_pool *pool, struct failure *f)
{
	int parallel = pool->parallel < 1 ? 1 : pool->parallel;
	struct slot *slots = calloc((size_t)parallel, sizeof(*slots));
	struct pollfd *pfd = calloc((size_t)parallel * 2, sizeof(*pfd));
	int *order = launch_order(jobs, n);
	int next = 0, running = 0, rc = 0;
	bool failed = false;

	if (!slots || !pfd || !order) {
		free(slots);
		free(pfd);
		free(order);
		return fail_no_memory(f);
	}
	for (;;) {
		bool stopping = pool->stop && *pool->stop;
		int np = 0;

		/* Fill the free slots, unless stopping or a start failed. */
		while (!stopping && !failed && next < n && running < parallel) {
			if (start(&jobs[order[next]], order[next], &slots[running])) {
				rc = failf(f, EXIT_FAILED, "cannot start a process: %s", strerror(errno));
				failed = true;
				break;
			}
			next++;
			running++;
		}
		if (running == 0)
			break;
		if (stopping)
			for (int s = 0; s < running; s++)
				if (!slots[s].signalled) {
					kill(slots[s].pid, (int)*pool->stop);
					slots[s].signalled = true;
				}
		for (int s = 0; s < running; s++)
			for (int w = 0; w < 2; w++)
				if (slots[s].fd[w] >= 0)
					pfd[np++] = (struct pollfd){ .fd = slots[s].fd[w], .events = POLLIN };
		if (poll(pfd, (nfds_t)np, 250) < 0 && errno != EINTR) {
			rc = failf(f, EXIT_FAILED, "cannot wait for the runs: %s", strerror(errno));
			abandon(jobs, slots, running);
			break;
		}
		if (pool->progress)
			progress_tick(pool->progress);
		for (int s = 0, p = 0; s < running; s++) {
			struct slot *sl = &slots[s];
			struct job *j = &jobs[sl->k];

			for (int w = 0; w < 2; w++) {
				if (sl->fd[w] < 0)
					continue;
				if ((pfd[p].revents & (POLLIN | POLLHUP | POLLERR)) &&
				    drain(j, sl, w) < 0) {
					/* The rest of this output is lost: the job fails with it. */
					close(sl->fd[w]);
					sl->fd[w] = -1;
					rc = fail_no_memory(f);
					failed = true;
				}
				p++;
			}
		}
		/* The jobs whose two pipes ended: wait for them, report, free the slot. */
		for (int s = 0; s < running;) {
			struct slot *sl = &slots[s];
			struct job *j = &jobs[sl->k];

			if (sl->fd[0] >= 0 || sl->fd[1] >= 0) {
				s++;
				continue;
			}
			if (reap(j, sl) && !failed) {
				rc = failf(f, EXIT_FAILED, "cannot wait for a run: %s", strerror(errno));
				failed = true;
			}
			/* What the caller prints first, then the bar below it. */
			if (pool->ended)
				pool->ended(pool->ctx, jobs, sl->k);
			if (pool->progress)
				progress_step(pool->progress, j->weight);
			*sl = slots[--running];
		}
	}
	free(slots);
	free(pfd);
	free(order);
	return rc;
}
