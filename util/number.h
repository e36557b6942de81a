/* SPDX-License-Identifier: MIT */
/*
 * number.h - the one strict number parser of wormcast, used by the command line, the
 * configuration files (src/), the trace reader (algos/trace.c) and the topology names
 * (model/topology.c), so that "8" means the same everywhere and nothing else does.
 *
 * A whole number is decimal digits only: no sign, no blanks before or after, no
 * "0x", no exponent, no overflow.  A real number is digits with an optional decimal
 * point and an optional exponent ("0.25", ".5", "1e-3"): no sign, no hex floats, no
 * "inf" or "nan", no blanks.  Both are then checked against a closed range lo..hi.
 * Leading zeros are decimal ("010" is ten), never octal.
 */
#ifndef WORMCAST_NUMBER_H
#define WORMCAST_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum number_status {
	NUMBER_OK,
	NUMBER_SYNTAX,		/* not a number of the expected form */
	NUMBER_RANGE,		/* a number, but outside lo..hi (or too large to hold) */
};

enum number_status number_uint(const char *text, uint64_t lo, uint64_t hi, uint64_t *out);
enum number_status number_real(const char *text, double lo, double hi, double *out);

/* The same for the first n characters of text (a field inside a longer string). */
enum number_status number_uint_n(const char *text, size_t n, uint64_t lo, uint64_t hi,
				 uint64_t *out);

/*
 * The one wording of a failed parse, into buf:
 *   NUMBER_SYNTAX: "<what> 'text' is not a whole number" (or "not a number")
 *   NUMBER_RANGE:  "<what> text is out of range lo..hi"
 * what may be "" (no prefix).  Returns buf.
 */
const char *number_uint_message(enum number_status st, const char *what, const char *text,
				uint64_t lo, uint64_t hi, char *buf, size_t len);
const char *number_real_message(enum number_status st, const char *what, const char *text,
				double lo, double hi, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
