/* SPDX-License-Identifier: MIT */
/*
 * rtl_cache.h - the per-user cache of RTL builds (README, "The RTL build cache").
 *
 * Every configuration of the RTL a run asks for is a plugin (rtl_plugin.h), built on
 * its first use (rtl_builder.h) and kept in
 *
 *     $XDG_CACHE_HOME/wormcast/rtl/KEY/     (default ~/.cache/wormcast/rtl/KEY/)
 *         plugin.so      the Verilated classes and the harness for them
 *         entry.json     what it is: description, parameters, build time, tools
 *         manifest.txt   what the key is the hash of
 *
 * KEY is (the first 128 bits of) the SHA-256 of the manifest: the build's harness, top
 * module and Verilog parameters, every option of Verilator, the compiler and the link,
 * the versions of Verilator and the compiler, and the bytes of every source file (the
 * RTL and the harness, carried in the wormcast executable: rtl_sources.h).  Anything
 * that changes the plugin changes the key; a key found is used as it is.
 *
 * A build runs in a temporary directory of the cache, renamed to KEY when it is
 * complete: an entry is whole or absent, and a failed or interrupted build leaves
 * nothing behind.  Builders hold KEY.lock (flock, exclusive): a second process that
 * wants the same build waits, then loads the first one's.  Every builder also holds
 * .lock shared, which `wormcast cache clear` takes exclusively: clearing waits for the
 * builds under way.
 *
 * Two environment variables change what is built (and so the key), for tests and
 * tools: WORMCAST_RTL_DIR=DIR builds from the .v and .vh files of DIR instead of the
 * RTL inside wormcast (a mutant, a deliberately broken copy), and
 * WORMCAST_VERILATOR_FLAGS adds options to Verilator's.
 */
#ifndef WORMCAST_RTL_CACHE_H
#define WORMCAST_RTL_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "rtl_cache": {"directory": ..., "builds": [{"description", "key", ...}, ...]}. */
int rtl_cache_list_json(cJSON *obj);
/* The same as text: the directory, then one line per build. */
void rtl_cache_list_print(FILE *out);
/*
 * Remove every build, the precompiled headers (and what a killed build left).  0 with
 * the count of builds and the bytes removed (builds and headers), or -1 with one line
 * in err.
 */
int rtl_cache_clear(int *removed, uint64_t *bytes, char *dir, size_t dirlen, char *err,
		    size_t errlen);

#ifdef __cplusplus
}

#include <csignal>
#include <string>

#include "rtl_config.h"
#include "rtl_plugin.h"

/*
 * The plugin of build b, from the cache or built now (with one line on stderr saying
 * what is built and about how long it takes).  nullptr with one line in err; the
 * output of a tool that failed has been written to stderr before.  *bad_input: the
 * request, not the build, is wrong (WORMCAST_RTL_DIR unreadable).
 */
const RtlPluginInfo* rtl_cache_plugin(const RtlBuild& b, const volatile std::sig_atomic_t* stop,
                                      bool* bad_input, std::string& err);
#endif

#endif
