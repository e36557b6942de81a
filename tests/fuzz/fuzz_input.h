/* SPDX-License-Identifier: MIT */
/*
 * fuzz_input.h - the fuzzers' input as a file, for readers that take a path: an
 * anonymous in-memory file (memfd) named /proc/self/fd/N.
 */
#ifndef WORMCAST_FUZZ_INPUT_H
#define WORMCAST_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's descriptor (its name in path), or -1. */
static inline int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-input", 0);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static inline void fuzz_input_close(int fd)
{
	close(fd);
}

#endif
