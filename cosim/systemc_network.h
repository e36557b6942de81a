// SPDX-License-Identifier: MIT
//
// systemc_network.h - a generate-loop network top (rtl/wc_hypercube.v, rtl/wc_mesh.v)
// verilated with --sc and run under the SystemC kernel: an sc_clock drives clk_i, every
// other port is bound to an sc_signal, and the kernel, not the harness, decides when the
// model evaluates.  The same contract as NetworkTop (rtl_models.h), so the cosimulation
// engine (rtl_engine.cpp) runs it unchanged; what it adds is the evidence that the RTL
// behaves the same when a SystemC scheduler clocks it, as it would in a SystemC
// platform model.
//
// Timing, as in the other waveforms (docs/microarchitecture.md section 11): one cycle is
// 10 ns; the NI-side inputs of cycle n are written at 10n, the rising edge is at 10n + 5,
// so clock() is one sc_start(10 ns) and each call contains exactly one rising edge.
// SystemC's default resolution, 1 ps, is also the RTL's timeprecision (Verilator's SC
// model refuses a coarser one), so the VCD counts 10,000 units per cycle.
//
// SystemC elaborates once per process: modules can be built only before the first
// sc_start().  One SystemCNetwork per process (see rtl_plugin.cpp).
#ifndef WORMCAST_SYSTEMC_NETWORK_H
#define WORMCAST_SYSTEMC_NETWORK_H

#include <memory>
#include <string>
#include <type_traits>

#include <systemc>

#include "rtl_models.h"  // NetShape, TraceAndState, top_router_scope
#include "rtl_network.h"
#include "sc_bits.h"
#include "sc_vcd.h"
#include "verilated.h"

template <class VTopSc>
class SystemCNetwork final : public RtlNetwork {
    // The signal type of each port follows the C++ type Verilator chose for its width
    // (bool, uint32_t, uint64_t or sc_bv<N>), which differs between configurations.
    // (Verilator 5 declares the ports as references into the model's root.)
    template <class Port>
    using SignalOf = sc_core::sc_signal<typename std::remove_reference_t<Port>::data_type>;
    using InjValid = SignalOf<decltype(VTopSc::inj_valid_i)>;
    using InjFlit = SignalOf<decltype(VTopSc::inj_flit_i)>;
    using EjCredit = SignalOf<decltype(VTopSc::ej_credit_i)>;

public:
    explicit SystemCNetwork(const struct sim_config& cfg) : shape_(cfg)
    {
        Verilated::traceEverOn(true);  // before the model is built
        // A failed assertion stops the run, not the process.
        Verilated::threadContextp()->fatalOnError(false);
        top_.reset(new VTopSc("TOP"));
        top_->clk_i(clk_);
        top_->rst_ni(rst_);
        top_->inj_valid_i(inj_valid_);
        top_->inj_flit_i(inj_flit_);
        top_->inj_credit_o(inj_credit_);
        top_->ej_valid_o(ej_valid_);
        top_->ej_flit_o(ej_flit_);
        top_->ej_credit_i(ej_credit_);
        top_->obs_link_valid_o(obs_valid_);
        top_->obs_link_vc_o(obs_vc_);
        top_->obs_link_flit_o(obs_flit_);
        top_->obs_link_credit_o(obs_credit_);
        // End of elaboration and the initial evaluation, with rst_ni = 1; then the
        // asynchronous reset as a falling and a rising edge of rst_ni, all at time 0,
        // before the clock's first rising edge at 5 ns.
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        settle();
        rst_.write(false);
        settle();
        rst_.write(true);
        settle();
    }

    ~SystemCNetwork() override { io_.close(); }

    void set_inject(int node, int ch, uint64_t flit) override
    {
        const int k = node * shape_.inj + ch;
        set_bits(next_inj_valid_, k, 1, 1);
        set_bits(next_inj_flit_, k * shape_.fw, shape_.fw, flit);
        flit_dirty_ = true;
    }

    void set_ej_credit(int node, int ch) override
    {
        set_bits(next_ej_credit_, node * shape_.ej + ch, 1, 1);
    }

    void clock() override
    {
        // Written at 10n, taken by the kernel in the first delta cycle of this call,
        // seen by the model before the rising edge at 10n + 5.
        inj_valid_.write(next_inj_valid_);
        ej_credit_.write(next_ej_credit_);
        // Like NetworkTop, the flit input keeps its last value while valid is 0 (the
        // RTL ignores it then); writing the wide vector only when it changed is cheaper.
        if (flit_dirty_) inj_flit_.write(next_inj_flit_);
        flit_dirty_ = false;
        sc_core::sc_start(kPeriodNs, sc_core::SC_NS);
        clear_bits(next_inj_valid_);
        clear_bits(next_ej_credit_);
    }

    void read_registers(RegisterSnapshot& s) const override
    {
        // read() returns a reference to the signal's current value: no copies of the
        // wide vectors.
        const auto& ov = obs_valid_.read();
        const auto& ovc = obs_vc_.read();
        const auto& ev = ej_valid_.read();
        const auto& oc = obs_credit_.read();
        const auto& ic = inj_credit_.read();
        const auto& of = obs_flit_.read();
        const auto& ef = ej_flit_.read();
        for (int v = 0; v < shape_.topo.nodes; ++v)
            snapshot_router(shape_, s, v, true, [&](TopVec w, int lo, int n) -> uint64_t {
                switch (w) {
                case TopVec::LinkValid: return get_bits(ov, lo, n);
                case TopVec::LinkVc: return get_bits(ovc, lo, n);
                case TopVec::LinkFlit: return get_bits(of, lo, n);
                case TopVec::LinkCredit: return get_bits(oc, lo, n);
                case TopVec::EjValid: return get_bits(ev, lo, n);
                case TopVec::EjFlit: return get_bits(ef, lo, n);
                case TopVec::InjCredit: break;
                }
                return get_bits(ic, lo, n);
            });
    }

    bool trace_open(FILE* f) override
    {
        // The constructor ran sc_start(SC_ZERO_TIME): elaboration is done, which
        // Verilator's SystemC tracer requires before trace() and open().
#if !VM_TRACE
        (void)f;  // built without the trace (RouterArray::trace_open)
        return false;
#else
        return io_.open(f, [this](StreamVcdSc* t) { top_->trace(t, 99); });
#endif
    }

    int trace_close() override { return io_.close(); }
    int trace_error() const override { return io_.error(); }

    bool read_router_state(int node, router_state& s) const override
    {
        const topology& t = shape_.topo;
        if (!io_.read(*Verilated::threadContextp(), shape_, node, s,
                      [&t](int v) { return top_router_scope(t, v); }))
            return false;
        const auto& ovc = obs_vc_.read();
        const int base = node * shape_.ports;
        link_vc_of(shape_, s, [&ovc, base](int k) { return get_bits(ovc, base + k, 1); });
        return true;
    }

    bool assertion_failed() const override { return Verilated::threadContextp()->gotError(); }

    const char* kind() const override { return "SystemC network top"; }

private:
    // Runs the delta cycles pending at the current time (signal updates and the model's
    // evaluation they trigger) without advancing time.
    static void settle()
    {
        while (sc_core::sc_pending_activity_at_current_time()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }

    static constexpr double kPeriodNs = 10;
    NetShape shape_;
    // 10 ns period, 50 % duty, first rising edge at 5 ns.
    sc_core::sc_clock clk_{"clk_i", kPeriodNs, sc_core::SC_NS, 0.5, kPeriodNs / 2, sc_core::SC_NS, true};
    sc_core::sc_signal<bool> rst_{"rst_ni", true};
    InjValid inj_valid_{"inj_valid_i"};
    InjFlit inj_flit_{"inj_flit_i"};
    EjCredit ej_credit_{"ej_credit_i"};
    SignalOf<decltype(VTopSc::inj_credit_o)> inj_credit_{"inj_credit_o"};
    SignalOf<decltype(VTopSc::ej_valid_o)> ej_valid_{"ej_valid_o"};
    SignalOf<decltype(VTopSc::ej_flit_o)> ej_flit_{"ej_flit_o"};
    SignalOf<decltype(VTopSc::obs_link_valid_o)> obs_valid_{"obs_link_valid_o"};
    SignalOf<decltype(VTopSc::obs_link_vc_o)> obs_vc_{"obs_link_vc_o"};
    SignalOf<decltype(VTopSc::obs_link_flit_o)> obs_flit_{"obs_link_flit_o"};
    SignalOf<decltype(VTopSc::obs_link_credit_o)> obs_credit_{"obs_link_credit_o"};
    std::unique_ptr<VTopSc> top_;
    // This cycle's NI-side inputs, written to the signals by clock().
    typename InjValid::value_type next_inj_valid_{};
    typename InjFlit::value_type next_inj_flit_{};
    typename EjCredit::value_type next_ej_credit_{};
    bool flit_dirty_ = false;
    TraceAndState<StreamVcdSc> io_;
};

#endif
