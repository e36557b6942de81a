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
// (anything not driven is 0), then clock() is the rising edge; afterwards
// read_registers() returns the registers' values for the next cycle.  The RTL is built
// with its assertions (--assert): a failed one does not abort the process (the context's
// fatalOnError is off) but sets assertion_failed(), and the engine stops the run.
#ifndef WORMCAST_RTL_NETWORK_H
#define WORMCAST_RTL_NETWORK_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "router_state.h"
#include "sim.h"
#include "topology.h"
}

// The registers the cosimulation compares (docs/microarchitecture.md section 11), of
// every router after one clock edge, in the same layout for the model and the RTL.
struct RegisterSnapshot {
    uint64_t cycle = 0;
    int n_out = 0;                     // ports per router (NIn = NOut)
    std::vector<uint32_t> out_valid;   // per node: bit p = out_valid_q[p]
    std::vector<uint32_t> credit_out;  // per node: bit p = credit_out_q[p]
    std::vector<uint64_t> out_flit;    // node * n_out + p: out_flit_q[p]

    void resize(int nodes, int ports)
    {
        n_out = ports;
        out_valid.assign(static_cast<size_t>(nodes), 0);
        credit_out.assign(static_cast<size_t>(nodes), 0);
        out_flit.assign(static_cast<size_t>(nodes) * static_cast<size_t>(ports), 0);
    }
    uint64_t* flits(int node) { return &out_flit[static_cast<size_t>(node) * n_out]; }
    const uint64_t* flits(int node) const { return &out_flit[static_cast<size_t>(node) * n_out]; }
};

class RtlNetwork {
public:
    virtual ~RtlNetwork() = default;
    virtual void set_inject(int node, int channel, uint64_t flit) = 0;
    virtual void set_ej_credit(int node, int channel) = 0;
    virtual void clock() = 0;
    // An assertion of the RTL (rtl/wc_assert.vh) failed in a clock() so far; Verilator
    // printed which on stderr.
    virtual bool assertion_failed() const = 0;
    // Every router's output registers (ports 0..P-1 links, P.. ejection channels) and
    // credit registers (0..P-1 links, P.. injection channels); s was resized by the caller.
    virtual void read_registers(RegisterSnapshot& s) const = 0;
    // Waveforms: Verilator's own trace of every RTL signal, written into f (a stream the
    // front end opened, vl_vcd_file.h); false if not built in.
    virtual bool trace_open(FILE* f) = 0;
    // Flush and stop the trace; the first write error (an errno value), 0 if none.
    virtual int trace_close() = 0;
    // The first write error of the trace so far, 0 if none.
    virtual int trace_error() const = 0;
    // Router node's architectural state (docs/microarchitecture.md section 6, vl_state.h)
    // after the last clock(); msg_head is left 0.  False if this build cannot read it.
    virtual bool read_router_state(int node, struct router_state& s) const = 0;
    virtual const char* kind() const = 0;
};

struct RtlChoice {
    bool network_top = false;  // the generate-loop top instead of the router array
    bool systemc = false;      // the network top under the SystemC kernel (SystemCNetwork)
    int inject_bug = 0;        // 0: the correct RTL
    bool trace = false;        // a waveform is asked for: the build with Verilator's trace
};

#endif
