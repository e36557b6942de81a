// SPDX-License-Identifier: MIT
//
// rtl_builder.h - building the plugin of one RTL configuration in a directory:
// Verilator, then the C++ compiler on the Verilated classes and cosim/rtl_plugin.cpp
// (several compilers at once), then the link into DIR/plugin.so.  Only the directory
// is written; rtl_cache.cpp decides where it is and renames it into the cache.
//
// The tools are the ones wormcast was built with (rtl_toolchain.h): the plugin uses
// the Verilator runtime and the C++ library inside the wormcast executable, so it must
// be compiled by the same compiler against the same Verilator.
#ifndef WORMCAST_RTL_BUILDER_H
#define WORMCAST_RTL_BUILDER_H

#include <csignal>
#include <string>
#include <vector>

#include "rtl_config.h"

struct RtlFile {
    std::string path;  // relative: "rtl/wc_router.v", "cosim/rtl_models.h"
    std::string data;
};

struct RtlRecipe {
    std::vector<RtlFile> files;             // everything the build reads, sorted by path
    std::vector<std::string> verilator;     // Verilator's options, sources and paths aside
    std::vector<std::string> cxx;           // the compiler's options for every object
    std::vector<std::string> cxx_fast;      // ... and for the evaluation code in addition
    std::vector<std::string> cxx_slow;      // ... and for the set-up code in addition
    std::vector<std::string> link;          // the link's options and libraries
    // Verilator's runtime sources compiled into the plugin, with the set-up code (the
    // rest of the runtime is in wormcast): verilated_cov.cpp in the coverage variant.
    std::vector<std::string> runtime;
};

// The recipe of build b from these files (the embedded ones, or a replacement for rtl/).
// extra_verilator: more options for Verilator, from WORMCAST_VERILATOR_FLAGS.  With
// b.coverage, the coverage variant: its own options, so its own key.
RtlRecipe rtl_recipe(const RtlBuild& b, std::vector<RtlFile> files,
                     const std::vector<std::string>& extra_verilator);

// The text that identifies a recipe and the tools: what the cache key hashes.  Lists
// every option and every file's path and bytes (as a digest), one per line.
std::string rtl_recipe_manifest(const RtlBuild& b, const RtlRecipe& r);

// The processor-seconds (user + system) of each step of a build, in the order they
// ended: "pch_fast" and "pch_slow" (the precompiled headers, if this build made them),
// "verilator", "wc_fast0", ..., "wc_slow", "link" (the cache keeps them in the entry:
// what a build costs, docs/performance.md).
using RtlSteps = std::vector<std::pair<std::string, double>>;

// The precompiled header shared by every plugin whose objects are compiled with
// r.cxx and opt (r.cxx_fast or r.cxx_slow): Verilator's runtime headers (and SystemC's)
// with vl_hooks.h, which every object starts with.  Its manifest names the compiler and
// its version, Verilator and its version, every compiler option and the header's
// files: the cache keeps one per manifest (rtl_cache.cpp), so a header precompiled by
// another compiler or with other options is never offered to the compiler (which
// itself refuses one that does not match, -Winvalid-pch).
std::string rtl_pch_manifest(const RtlRecipe& r, const std::vector<std::string>& opt);

// Precompile that header into dir (exists, empty): dir/wc_pch.h and dir/wc_pch.h.gch;
// its processor time goes into steps as step.  true, or false with err and the
// compiler's output in log.
bool rtl_builder_pch(const std::string& dir, const RtlRecipe& r, const std::vector<std::string>& opt,
                     const std::string& step, RtlSteps& steps, std::string& err, std::string& log);

// Build dir/plugin.so (dir exists and is empty); the intermediate files are removed
// again.  pch_fast and pch_slow: directories made by rtl_builder_pch for r.cxx_fast and
// r.cxx_slow, or "" (no precompiled header).  true, with in log the compiler's words
// if it did not use a precompiled header (it then parsed the headers themselves), or
// false with one line saying what failed in err and the failing tool's output in log.
// *stop (a signal number, or 0) is checked between the steps.
bool rtl_builder_run(const std::string& dir, const RtlBuild& b, const RtlRecipe& r, const std::string& pch_fast,
                     const std::string& pch_slow, const volatile std::sig_atomic_t* stop, RtlSteps& steps,
                     std::string& err, std::string& log);

// The SHA-256 of data, in hexadecimal.
std::string rtl_digest(const std::string& data);

// Remove a directory and everything in it (not following links); false if some
// remains.
bool rtl_remove_tree(const std::string& path);

// The installed tools are the ones wormcast was built with; false with the reason.
bool rtl_builder_tools_match(std::string& err);

// A list of options from CMake or the environment, split at spaces, tabs and line ends.
std::vector<std::string> rtl_split_words(const char* s);

// A whole file written or read; false if any step failed (the caller names the file).
bool rtl_write_file(const std::string& path, const std::string& data);
bool rtl_read_file(const std::string& path, std::string& data);

#endif
