// SPDX-License-Identifier: MIT
//
// rtl_network.h - the Verilated RTL of a whole network, behind one interface.
//
// Two implementations exist: RouterArray (rtl/wc_router.v verilated once, one model
// object per node, links wired in C++ exactly as rtl/wc_hypercube.v / wc_mesh.v wire
// them), which compiles in seconds and scales to any size; and NetworkTop (the
// generate-loop network top itself), used on small networks to show that the RTL
// tops wire what the router array wires.
//
// One cycle: set_inject() / set_ej_credit() drive the NI-side inputs of this cycle
// (anything not driven is 0), then clock() is the rising edge; afterwards the getters
// return the registers' values for the next cycle.
#ifndef WORMCAST_RTL_NETWORK_H
#define WORMCAST_RTL_NETWORK_H

#include <cstdint>
#include <memory>
#include <string>

extern "C" {
#include "sim.h"
#include "topology.h"
}

class RtlNetwork {
public:
    virtual ~RtlNetwork() = default;
    virtual void set_inject(int node, int channel, uint64_t flit) = 0;
    virtual void set_ej_credit(int node, int channel) = 0;
    virtual void clock() = 0;
    // Router node's output registers and credit registers, by router port index.
    virtual bool out_valid(int node, int port) const = 0;  // 0..P-1 links, P.. ejection
    virtual uint64_t out_flit(int node, int port) const = 0;
    virtual bool credit_out(int node, int port) const = 0;  // 0..P-1 links, P.. injection
    // Waveforms (Verilator's own trace of every RTL signal); false if not built in.
    virtual bool trace_open(const std::string& path) = 0;
    virtual void trace_close() = 0;
    virtual const char* kind() const = 0;
};

struct RtlChoice {
    bool network_top = false;  // the generate-loop top instead of the router array
    int inject_bug = 0;        // 0: the correct RTL
};

// The RTL for this configuration, or nullptr with a reason in err.
std::unique_ptr<RtlNetwork> make_rtl_network(const struct sim_config& cfg, const RtlChoice& choice,
                                             std::string& err);
// The configurations this build has, one per line ("hypercube:4 all-port depth 4 ...").
std::string rtl_configurations();

#endif
