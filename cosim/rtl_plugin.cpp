// SPDX-License-Identifier: MIT
//
// rtl_plugin.cpp - the one source of every RTL plugin (rtl_plugin.h).  It is not part
// of the wormcast executable: wormcast carries it (rtl_sources.h) and compiles it with
// the Verilated classes of one configuration when that configuration is first used.
// rtl_plugin_config.h, written by the builder (rtl_builder.cpp), says which:
//   WC_PLUGIN_HEADER      the Verilated model's header ("Vwc.h")
//   WC_PLUGIN_CLASS       its class (Vwc)
//   WC_PLUGIN_NETWORK     the harness template: RouterArray, NetworkTop, SystemCNetwork
//   WC_PLUGIN_SYSTEMC     1 for SystemCNetwork (the model was verilated with --sc)
//   WC_PLUGIN_MODULE      the Verilog top module, WC_PLUGIN_PARAMETERS its parameters
#include <cstdlib>

#include "rtl_plugin_config.h"
#include "rtl_plugin.h"
#if WC_PLUGIN_SYSTEMC
#include "systemc_network.h"
#else
#include "rtl_models.h"
#endif
#include WC_PLUGIN_HEADER

#define WC_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace {

RtlNetwork* make(const struct sim_config* cfg)
{
#if WC_PLUGIN_SYSTEMC
    // SystemC prints a copyright banner to stderr when its kernel starts, unless told
    // not to; a value the user set is kept.
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
#endif
    return new WC_PLUGIN_NETWORK<WC_PLUGIN_CLASS>(*cfg);
}

}  // namespace

#if WC_PLUGIN_SYSTEMC
// libsystemc.so has a main() that calls sc_main(): the symbol must exist for the library
// to load, though wormcast owns main() and starts the kernel itself (sc_start() in
// SystemCNetwork).  Never called.
extern "C" WC_PLUGIN_EXPORT int sc_main(int, char**)
{
    return 1;
}
#endif

extern "C" WC_PLUGIN_EXPORT const RtlPluginInfo wormcast_rtl_plugin = {
    WC_RTL_PLUGIN_ABI, sizeof(struct sim_config), WC_PLUGIN_MODULE, WC_PLUGIN_PARAMETERS, make,
};
