// SPDX-License-Identifier: MIT
//
// rtl_plugin.h - what wormcast and the plugin of one RTL configuration agree on.
//
// A plugin is a shared object built on first use (rtl_cache.cpp) from the Verilated
// classes of one configuration and cosim/rtl_plugin.cpp, which instantiates the
// harness (RouterArray, NetworkTop or SystemCNetwork) for them.  It exports one
// symbol, WC_RTL_PLUGIN_SYMBOL, an RtlPluginInfo.  Everything else in it is hidden
// (-fvisibility=hidden): two plugins in one process (a sweep over port models) keep
// their classes apart.  What it uses of Verilator's runtime and of the C model comes
// from the wormcast executable, which exports its symbols (-rdynamic) and was built
// from the same sources and the same Verilator: both are part of the cache key.
#ifndef WORMCAST_RTL_PLUGIN_H
#define WORMCAST_RTL_PLUGIN_H

#include <cstddef>

class RtlNetwork;
struct sim_config;

// Changed whenever RtlPluginInfo or the RtlNetwork interface changes shape (the cache
// key has the sources too; this also refuses a plugin copied in by hand).
#define WC_RTL_PLUGIN_ABI 1
#define WC_RTL_PLUGIN_SYMBOL "wormcast_rtl_plugin"

struct RtlPluginInfo {
    int abi;                       // WC_RTL_PLUGIN_ABI of the sources it was built from
    std::size_t sim_config_size;   // sizeof(struct sim_config) it was built with
    const char* module;            // the Verilated top module: wc_router, wc_hypercube, ...
    const char* parameters;        // its Verilog parameters, "Name=value ..." (rtl_config.h)
    // The network for cfg (whose parameters are the plugin's); never nullptr.
    RtlNetwork* (*make)(const struct sim_config* cfg);
};

#endif
