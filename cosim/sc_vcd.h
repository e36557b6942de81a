// SPDX-License-Identifier: MIT
//
// sc_vcd.h - Verilator's VCD writer driven by the SystemC kernel, writing into the
// front end's stream.  Verilator's own VerilatedVcdSc does the same but always opens
// its file by name, through the writer that hangs on a write error (vl_vcd_file.h);
// its class is final, so this is its equivalent with a StreamVcdFile: the kernel calls
// cycle() at every time step, and the sc_trace_file methods the kernel requires are
// empty (Verilator traces its own signals, not sc_signals).
#ifndef WORMCAST_SC_VCD_H
#define WORMCAST_SC_VCD_H

#include <string>

#include <systemc>

#include "verilated_vcd_c.h"

class StreamVcdSc final : sc_core::sc_trace_file, public VerilatedVcdC {
public:
    explicit StreamVcdSc(VerilatedVcdFile* f) : VerilatedVcdC(f)
    {
        // As VerilatedVcdSc: the kernel's time unit and resolution in the header.
        sc_core::sc_get_curr_simcontext()->add_trace_file(this);
        const sc_core::sc_time t1sec{1, sc_core::SC_SEC};
        if (t1sec.to_default_time_units() != 0) {
            const sc_core::sc_time tunits{1.0 / t1sec.to_default_time_units(), sc_core::SC_SEC};
            spTrace()->set_time_unit(tunits.to_string());
        }
        spTrace()->set_time_resolution(sc_core::sc_get_time_resolution().to_string());
    }

    ~StreamVcdSc() override
    {
        close();
        // The kernel keeps a list of trace files and would call a destroyed one.
        sc_core::sc_get_curr_simcontext()->remove_trace_file(this);
    }

    // Called by the kernel at every time step (the model was elaborated before open()).
    void cycle(bool delta_cycle) override
    {
        if (!delta_cycle) dump(sc_core::sc_time_stamp().to_double());
    }

private:
    void set_time_unit(double, sc_core::sc_time_unit) override {}
    void write_comment(const std::string&) override {}
    void trace(const unsigned int&, const std::string&, const char**) override {}

#define WC_SC_TRACE_A(tp) \
    void trace(const tp&, const std::string&) override {}
#define WC_SC_TRACE_B(tp) \
    void trace(const tp&, const std::string&, int) override {}
    WC_SC_TRACE_A(sc_core::sc_event)
    WC_SC_TRACE_A(sc_core::sc_time)
    WC_SC_TRACE_A(bool)
    WC_SC_TRACE_A(sc_dt::sc_bit)
    WC_SC_TRACE_A(sc_dt::sc_logic)
    WC_SC_TRACE_B(unsigned char)
    WC_SC_TRACE_B(unsigned short)
    WC_SC_TRACE_B(unsigned int)
    WC_SC_TRACE_B(unsigned long)
    WC_SC_TRACE_B(char)
    WC_SC_TRACE_B(short)
    WC_SC_TRACE_B(int)
    WC_SC_TRACE_B(long)
    WC_SC_TRACE_B(sc_dt::int64)
    WC_SC_TRACE_B(sc_dt::uint64)
    WC_SC_TRACE_A(float)
    WC_SC_TRACE_A(double)
    WC_SC_TRACE_A(sc_dt::sc_int_base)
    WC_SC_TRACE_A(sc_dt::sc_uint_base)
    WC_SC_TRACE_A(sc_dt::sc_signed)
    WC_SC_TRACE_A(sc_dt::sc_unsigned)
    WC_SC_TRACE_A(sc_dt::sc_fxval)
    WC_SC_TRACE_A(sc_dt::sc_fxval_fast)
    WC_SC_TRACE_A(sc_dt::sc_fxnum)
    WC_SC_TRACE_A(sc_dt::sc_fxnum_fast)
    WC_SC_TRACE_A(sc_dt::sc_bv_base)
    WC_SC_TRACE_A(sc_dt::sc_lv_base)
#undef WC_SC_TRACE_A
#undef WC_SC_TRACE_B
};

#endif
