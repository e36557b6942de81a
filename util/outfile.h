/* SPDX-License-Identifier: MIT */
/*
 * outfile.h - every file wormcast writes (JSON is stdout; waveforms, the latency CSV,
 * the mismatch window, generated documents) goes through here, so that none is ever
 * left half-written and no write error goes unnoticed:
 *
 *   - a path that does not exist, or is a regular file (or a link to one), is written
 *     to a temporary file in the same directory, ".NAME.XXXXXX", which outfile_commit()
 *     renames onto it once everything was written and closed without error: the file
 *     is then whole, or not there (or as it was before).  The temporary file is
 *     removed on every failure, and by outfile_discard();
 *   - a path that exists and is not a regular file (a device such as /dev/null or
 *     /dev/full, a FIFO, a terminal) is written directly: it is never renamed onto
 *     and never removed;
 *   - every write, the flush and the close are checked; the first error is kept and
 *     reported by outfile_commit().
 *
 * A replaced regular file keeps its permission bits; a new one gets 0666 less the
 * umask, as fopen() would give it.  Durability across a power failure (fsync) is not
 * attempted: the guarantee is against the program failing, not the machine.
 */
#ifndef WORMCAST_OUTFILE_H
#define WORMCAST_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct outfile;

/* Start writing path; NULL with errno set (EISDIR for a directory, ENOMEM, ...). */
struct outfile *outfile_open(const char *path);
/* The stream to write to. */
FILE *outfile_stream(struct outfile *f);
/* The path as given to outfile_open(). */
const char *outfile_path(const struct outfile *f);
/* True if path is written directly (not a regular file). */
bool outfile_direct(const struct outfile *f);
/* Record a write error made outside the stream (errno value), if none was before. */
void outfile_set_error(struct outfile *f, int err);
/*
 * Flush and close, then rename the temporary file onto the path.  Returns 0, or -1
 * with errno set (the first error of any write, the flush, the close or the rename);
 * the temporary file is gone either way.  f is freed.
 */
int outfile_commit(struct outfile *f);
/* Give up: close, remove the temporary file, free f.  NULL is fine. */
void outfile_discard(struct outfile *f);

/*
 * A scratch file for a helper program (vcd2fst): an empty file created next to near
 * if near's directory holds regular files we may write, else in $TMPDIR (or /tmp).
 * Returns its name (to free, and to remove with unlink()), or NULL with errno set.
 */
char *outfile_scratch(const char *near, const char *suffix);

/* Copy the whole file at path into stream; 0, or -1 with errno. */
int outfile_copy_from(FILE *stream, const char *path);

#ifdef __cplusplus
}
#endif

#endif
