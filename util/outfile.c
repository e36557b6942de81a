/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - atomic, checked output files (see outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outfile {
	char *path;		/* as given */
	char *target;		/* what the temporary file is renamed onto */
	char *temp;		/* the temporary file; NULL when written directly */
	int fd;
	FILE *f;		/* over fd, through write_out() */
	int error;		/* first errno of a failure, 0 if none */
};

/*
 * The stream's writes go through here (fopencookie), so the reason of the first
 * failure is kept: stdio itself only remembers that one happened.
 */
static ssize_t write_out(void *cookie, const char *buf, size_t n)
{
	struct outfile *o = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t k = write(o->fd, buf + done, n - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			outfile_set_error(o, k < 0 ? errno : EIO);
			return -1;
		}
		done += (size_t)k;
	}
	return (ssize_t)n;
}

static int close_out(void *cookie)
{
	struct outfile *o = cookie;

	if (close(o->fd))
		outfile_set_error(o, errno);
	o->fd = -1;
	return o->error ? -1 : 0;
}

/* The stream over o->fd; closes fd on failure. */
static bool make_stream(struct outfile *o)
{
	cookie_io_functions_t io = { .write = write_out, .close = close_out };

	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		int e = errno;

		close(o->fd);
		o->fd = -1;
		errno = e;
	}
	return o->f != NULL;
}

/* "DIR/.BASE.XXXXXX" for target "DIR/BASE" (or "BASE"). */
static char *temp_template(const char *target, const char *suffix)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
	size_t n = strlen(target) + strlen(suffix) + 16;
	char *t = malloc(n);

	if (t)
		snprintf(t, n, "%.*s.%s.XXXXXX%s", (int)dir, target, target + dir, suffix);
	return t;
}

static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

static struct outfile *open_direct(struct outfile *o)
{
	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return NULL;
	return make_stream(o) ? o : NULL;
}

static struct outfile *open_temp(struct outfile *o, mode_t mode)
{
	int fd;

	o->temp = temp_template(o->target, "");
	if (!o->temp)
		return NULL;
	fd = mkstemp(o->temp);
	if (fd < 0) {
		free(o->temp);
		o->temp = NULL;
		return NULL;
	}
	o->fd = fd;
	if (fchmod(fd, mode) || !make_stream(o)) {
		int e = errno;

		if (o->f)
			fclose(o->f);
		else if (o->fd >= 0)
			close(o->fd);
		o->f = NULL;
		unlink(o->temp);
		errno = e;
		return NULL;
	}
	return o;
}

static void release(struct outfile *o)
{
	free(o->path);
	free(o->target);
	free(o->temp);
	free(o);
}

struct outfile *outfile_open(const char *path)
{
	struct outfile *o = calloc(1, sizeof(*o));
	struct stat st;
	struct outfile *ok = NULL;
	int e;

	if (!o)
		return NULL;
	o->fd = -1;
	o->path = strdup(path);
	if (!o->path)
		goto fail;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			ok = open_direct(o);
			goto done;
		}
		/* A link to a regular file: replace the file, keep the link. */
		o->target = realpath(path, NULL);
		if (!o->target)
			goto fail;
		ok = open_temp(o, st.st_mode & 07777);
	} else if (errno == ENOENT) {
		struct stat lst;

		/* A dangling link: written through, as fopen() would. */
		if (lstat(path, &lst) == 0) {
			ok = open_direct(o);
			goto done;
		}
		o->target = strdup(path);
		if (!o->target)
			goto fail;
		ok = open_temp(o, creation_mode());
	}
done:
	if (ok)
		return ok;
fail:
	e = errno;
	release(o);
	errno = e;
	return NULL;
}

FILE *outfile_stream(struct outfile *f)
{
	return f->f;
}

const char *outfile_path(const struct outfile *f)
{
	return f->path;
}

bool outfile_direct(const struct outfile *f)
{
	return !f->temp;
}

void outfile_set_error(struct outfile *f, int err)
{
	if (!f->error)
		f->error = err ? err : EIO;
}

int outfile_commit(struct outfile *f)
{
	int e;

	errno = 0;
	if (fflush(f->f) || ferror(f->f))
		outfile_set_error(f, errno);
	if (fclose(f->f))
		outfile_set_error(f, errno);
	f->f = NULL;
	if (!f->error && f->temp && rename(f->temp, f->target))
		outfile_set_error(f, errno);
	if (f->error && f->temp)
		unlink(f->temp);
	e = f->error;
	release(f);
	errno = e;
	return e ? -1 : 0;
}

void outfile_discard(struct outfile *f)
{
	int e = errno;

	if (!f)
		return;
	if (f->f)
		fclose(f->f);
	if (f->temp)
		unlink(f->temp);
	release(f);
	errno = e;
}

char *outfile_scratch(const char *near, const char *suffix)
{
	struct stat st;
	const char *dir = getenv("TMPDIR");
	char *name = NULL;
	int fd = -1;

	/* Next to a regular file (or a new one), in a directory we can write. */
	if (stat(near, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode)) {
		name = temp_template(near, suffix);
		if (!name)
			return NULL;
		fd = mkstemps(name, (int)strlen(suffix));
		if (fd < 0) {
			free(name);
			name = NULL;
		}
	}
	if (fd < 0) {
		size_t n;

		if (!dir || !dir[0])
			dir = "/tmp";
		n = strlen(dir) + strlen(suffix) + 32;
		name = malloc(n);
		if (!name)
			return NULL;
		snprintf(name, n, "%s/wormcast.XXXXXX%s", dir, suffix);
		fd = mkstemps(name, (int)strlen(suffix));
		if (fd < 0) {
			int e = errno;

			free(name);
			errno = e;
			return NULL;
		}
	}
	close(fd);
	return name;
}

int outfile_copy_from(FILE *stream, const char *path)
{
	FILE *in = fopen(path, "rb");
	char buf[65536];
	size_t n;
	int e = 0;

	if (!in)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, stream) != n) {
			e = errno ? errno : EIO;
			break;
		}
	if (!e && ferror(in))
		e = errno ? errno : EIO;
	fclose(in);
	errno = e;
	return e ? -1 : 0;
}
