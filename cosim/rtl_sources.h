// SPDX-License-Identifier: MIT
//
// rtl_sources.h - the files a configuration's plugin is built from, carried inside the
// wormcast executable (generated at build time by cosim/embed.cmake): the Verilog of
// rtl/, the harness of cosim/ and the model's headers it includes.  A plugin is built
// from exactly these bytes, and the cache key is their hash, so a wormcast binary
// builds and finds the same RTL wherever it runs and whatever the source tree holds now.
#ifndef WORMCAST_RTL_SOURCES_H
#define WORMCAST_RTL_SOURCES_H

#include <cstddef>

struct RtlSource {
    const char* path;  // relative to the repository: "rtl/wc_router.v", "cosim/vl_state.h"
    const unsigned char* data;
    std::size_t size;
};

extern const RtlSource rtl_sources[];
extern const std::size_t rtl_source_count;

#endif
