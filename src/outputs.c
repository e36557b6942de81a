/* SPDX-License-Identifier: MIT */
/*
 * outputs.c - a run's output files (see outputs.h).
 */
#include "outputs.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Which file a path is: an existing file by device and inode; a file to be created
 * by its directory's device and inode and its name.
 */
struct file_id {
	bool exists, regular;
	dev_t dev;
	ino_t ino;
	char name[256];		/* for a file that does not exist yet */
};

static int identify(const char *path, struct file_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st) == 0) {
		id->exists = true;
		id->regular = S_ISREG(st.st_mode);
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return 0;
	}
	if (errno != ENOENT)
		return 0;	/* opening it will say what is wrong */
	{
		char *a = strdup(path), *b = strdup(path);
		int rc = -1;

		if (a && b && stat(dirname(a), &st) == 0) {
			id->dev = st.st_dev;
			id->ino = st.st_ino;
			snprintf(id->name, sizeof(id->name), "%s", basename(b));
			rc = 0;
		}
		free(a);
		free(b);
		return rc;
	}
}

static bool same(const struct file_id *a, const struct file_id *b)
{
	if (a->exists != b->exists || a->dev != b->dev || a->ino != b->ino)
		return false;
	return a->exists || !strcmp(a->name, b->name);
}

static const char *path_of(const struct options *o, enum option_id id)
{
	if (id == OPT_CONFIG)
		return o->config;
	return opt(o, id)->set ? opt(o, id)->text : NULL;
}

/* The files of the command that are outputs (or inputs), in table order. */
static int files(const struct options *o, bool output, enum option_id *ids)
{
	int n = 0;

	for (int id = 0; id < N_OPTIONS; id++) {
		const struct option_def *d = &option_table[id];

		if ((output ? d->output : d->input) && (d->commands & (1u << o->command)) &&
		    path_of(o, (enum option_id)id))
			ids[n++] = (enum option_id)id;
	}
	return n;
}

static int check_overlaps(const struct options *o, struct failure *f)
{
	enum option_id out[N_OPTIONS], in[N_OPTIONS];
	int n_out = files(o, true, out), n_in = files(o, false, in);
	struct file_id id[N_OPTIONS], other;

	for (int k = 0; k < n_out; k++) {
		const char *p = path_of(o, out[k]);

		identify(p, &id[k]);
		for (int j = 0; j < n_in; j++)
			if (identify(path_of(o, in[j]), &other) == 0 && other.exists &&
			    same(&id[k], &other))
				return failf(f, EXIT_USAGE, "--%s '%s' is the %s '%s': an output may "
					     "not overwrite an input", option_table[out[k]].name, p,
					     in[j] == OPT_CONFIG ? "configuration file" : "trace",
					     path_of(o, in[j]));
		for (int j = 0; j < o->n_files; j++)
			if (identify(o->files[j], &other) == 0 && other.exists && same(&id[k], &other))
				return failf(f, EXIT_USAGE, "--%s '%s' is the input '%s': an output may "
					     "not overwrite an input", option_table[out[k]].name, p,
					     o->files[j]);
		/* Two outputs into one device (/dev/null) are harmless; into one file not. */
		for (int j = 0; j < k; j++)
			if (same(&id[k], &id[j]) && (!id[k].exists || id[k].regular))
				return failf(f, EXIT_USAGE, "--%s and --%s both write '%s'",
					     option_table[out[j]].name, option_table[out[k]].name, p);
	}
	return 0;
}

int outputs_open(struct outputs *out, const struct options *o, struct failure *f)
{
	enum option_id ids[N_OPTIONS];
	int n;

	memset(out, 0, sizeof(*out));
	if (check_overlaps(o, f))
		return -1;
	n = files(o, true, ids);
	for (int k = 0; k < n; k++) {
		const char *p = path_of(o, ids[k]);

		out->file[ids[k]] = outfile_open(p);
		if (!out->file[ids[k]]) {
			int e = errno;

			outputs_discard(out);
			if (e == ENOMEM)
				return fail_no_memory(f);
			return failf(f, EXIT_USAGE, "--%s: cannot write '%s': %s",
				     option_table[ids[k]].name, p, strerror(e));
		}
	}
	return 0;
}

struct outfile *outputs_file(const struct outputs *out, enum option_id id)
{
	return out->file[id];
}

int outputs_commit(struct outputs *out, struct failure *f)
{
	int rc = 0;

	for (int id = 0; id < N_OPTIONS; id++) {
		struct outfile *x = out->file[id];
		char path[4096];

		if (!x)
			continue;
		out->file[id] = NULL;
		snprintf(path, sizeof(path), "%s", outfile_path(x));
		/* Each output is whole or absent on its own: the others are still committed. */
		if (outfile_commit(x))
			rc = failf(f, EXIT_FAILED, "--%s: cannot write '%s': %s", option_table[id].name,
				   path, strerror(errno));
	}
	return rc;
}

void outputs_drop(struct outputs *out, enum option_id id)
{
	outfile_discard(out->file[id]);
	out->file[id] = NULL;
}

void outputs_discard(struct outputs *out)
{
	for (int id = 0; id < N_OPTIONS; id++)
		outputs_drop(out, (enum option_id)id);
}
