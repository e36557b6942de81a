// SPDX-License-Identifier: MIT
//
// rtl_config.h - the RTL build a run needs: the harness, the Verilog top module and its
// parameters, derived from the run's configuration by one table (rtl_config.cpp) in
// which every parameter of the model that the RTL has is one row.  The parameters are
// the build's identity: with the sources and the tools they make its cache key
// (rtl_cache.h).
#ifndef WORMCAST_RTL_CONFIG_H
#define WORMCAST_RTL_CONFIG_H

#include <string>
#include <utility>
#include <vector>

#include "rtl_network.h"

enum class RtlHarness {
    RouterArray,  // rtl/wc_router.v verilated once, one object per node (RouterArray)
    NetworkTop,   // the generate-loop network top (NetworkTop)
    SystemC,      // the network top verilated with --sc, under the SystemC kernel
};

struct RtlBuild {
    RtlHarness harness;
    std::string module;  // the Verilog top module: wc_router, wc_hypercube, wc_mesh or wc_torus
    std::vector<std::pair<std::string, long>> parameters;  // in the table's order
    std::string description;  // for people: "hypercube:7 all-port, buffer depth 4, ..."
    double size;  // routers verilated x their inputs x outputs: what the build time grows with
    // The code coverage variant (rtl_cache.h, WORMCAST_RTL_COVERAGE_DIR): Verilator's line
    // and toggle counters in the model, written out when a network is destroyed.
    bool coverage = false;
    // Verilator's VCD trace compiled in (--trace): only the builds of runs that write a
    // waveform have it, because it is a third of the code the compiler has to build.
    bool trace = false;

    // "Topology=0 Dim=7 ...": how the plugin records them (rtl_plugin.h).
    std::string parameter_text() const;
};

// The build for a run; false with the reason (bad input: a value the RTL does not have)
// in err.
bool rtl_build_for(const struct sim_config& cfg, const RtlChoice& choice, RtlBuild& b,
                   std::string& err);

// "router array", "network top", "SystemC network top" (the JSON's "rtl" field).
const char* rtl_harness_name(RtlHarness h);

#endif
