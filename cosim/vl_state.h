// SPDX-License-Identifier: MIT
//
// vl_state.h - a Verilated router's architectural state (docs/microarchitecture.md
// section 6) read into the plain C struct router_state (model/router_state.h).
//
// rtl/wc_router.v and rtl/wc_fifo.v mark their registers /* verilator public_flat_rd */,
// which makes Verilator list them in its scope table with their address and type; no
// logic changes.  The reader looks each register up once, by scope name (one router's
// scope, its FIFOs "gen_input[i].u_fifo", its hold counters
// "gen_hold.gen_input_hold[i]"), and reads the bits from there on demand: reading
// costs nothing while nobody asks (the deadlock report asks once).  Widths come from
// the variables themselves, so every configuration reads the same way: the reader is
// compiled once, into wormcast (vl_state.cpp), not into every plugin.
#ifndef WORMCAST_VL_STATE_H
#define WORMCAST_VL_STATE_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_syms.h"

extern "C" {
#include "router_state.h"
}

class RouterStateReader {
public:
    // Out of line (vl_state.cpp), as init() and read(): the reader is compiled once,
    // into wormcast, which exports it to every plugin, instead of into each plugin.
    RouterStateReader();
    ~RouterStateReader();

    // Look up every router's registers: scopes[v] is router v's scope name.  n_ports
    // is P*V (the virtual link ports, section 12), n_in and n_out count virtual ports;
    // with V > 1 the output registers are per link (out_valid_q, out_vc_q, out_flit_q)
    // and are read out per virtual output.  Returns false (and read() may not be
    // called) if one is missing.
    bool init(const VerilatedContext& ctx, const std::vector<std::string>& scopes, int n_in, int n_out,
              int n_ports, int vcs, int depth);

    bool ok() const { return ok_; }

    // Router node's registers; msg_head is left 0 (the engine knows it).  Called for
    // every router every cycle by the full comparison, so each register's address,
    // type and width were resolved once, by init().
    void read(int node, router_state& s) const;

private:
    // The widest register: out_flit_q of 24 outputs of 64-bit flits (Q_12, W = 62).
    static constexpr int kMaxWords = 2 * TOPO_MAX_PORTS;

    // One register as Verilator stores it.  Every Verilated type (CData, SData, IData,
    // QData, and WData: 32-bit words, least significant first) holds a packed value
    // as a little-endian string of bytes, so one copy serves them all.
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                  "the readout takes Verilator's values as little-endian byte strings");
    struct Reg {
        const uint8_t* p = nullptr;  // the value (entry 0 of an unpacked array)
        int bytes = 0;               // bytes of one value
        int width = 0;               // packed range [width - 1 : 0]
        size_t ent = 0;              // bytes per entry of an unpacked array

        explicit operator bool() const { return p != nullptr; }

        // The value as 64-bit words, least significant first (words beyond it are
        // not written).
        void copy(uint64_t* w) const
        {
            w[(bytes - 1) / 8] = 0;
            std::memcpy(w, p, static_cast<size_t>(bytes));
        }
        // A counter or pointer of at most 8 bits (CData).
        uint8_t byte() const { return *p; }
        // Entry k of an unpacked array of packed values (a FIFO's storage).
        uint64_t element(int k) const
        {
            uint64_t w[kMaxWords];
            std::memcpy(w, p + static_cast<size_t>(k) * ent, static_cast<size_t>(bytes));
            return slice(w, 0, width);
        }
    };
    struct Fifo {
        Reg mem_q, rd_ptr_q, wr_ptr_q, count_q, hold_q;
    };
    struct Router {
        Reg route_q, credit_out_q, out_valid_q, out_flit_q, credits_q, rr_q;
        Reg out_vc_q, sw_rr_q;  // V > 1 only (section 12)
        std::vector<Fifo> in;
    };

    // Bits [lsb, lsb + n) (n <= 64) of a value held in 64-bit words.
    static uint64_t slice(const uint64_t* w, int lsb, int n)
    {
        const int k = lsb >> 6, sh = lsb & 63;
        uint64_t x = w[k] >> sh;
        if (sh + n > 64) x |= w[k + 1] << (64 - sh);
        return n >= 64 ? x : x & ((1ull << n) - 1);
    }

    // Register name in scope, or an empty Reg.  Every register the readout takes is
    // declared [N-1:0]; a FIFO entry is at most 64 bits; counters and pointers are
    // at most 8 bits.
    static Reg find(const VerilatedContext& ctx, const std::string& scope, const char* name,
                    bool narrow = false);

    std::vector<Router> routers_;
    int n_in_ = 0, n_out_ = 0, n_ports_ = 0, vcs_ = 1, depth_ = 0;
    bool ok_ = false;
};

#endif
