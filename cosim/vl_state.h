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
// the variables themselves, so every configuration reads the same way.
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
    // Look up every router's registers: scope_of(node) is the router's scope name.
    // Returns false (and read() may not be called) if one is missing.
    template <class ScopeOf>
    bool init(const VerilatedContext& ctx, int nodes, int n_in, int n_out, int n_ports, int depth,
              ScopeOf scope_of)
    {
        n_in_ = n_in;
        n_out_ = n_out;
        n_ports_ = n_ports;
        depth_ = depth;
        routers_.assign(static_cast<size_t>(nodes), Router{});
        for (int v = 0; v < nodes; ++v) {
            const std::string r = scope_of(v);
            Router& x = routers_[static_cast<size_t>(v)];
            x.route_q = find(ctx, r, "route_q");
            x.credit_out_q = find(ctx, r, "credit_out_q");
            x.out_valid_q = find(ctx, r, "out_valid_q");
            x.out_flit_q = find(ctx, r, "out_flit_q");
            x.credits_q = find(ctx, r, "credits_q");
            x.rr_q = find(ctx, r, "rr_q");
            if (!x.route_q || !x.credit_out_q || !x.out_valid_q || !x.out_flit_q ||
                !x.credits_q || !x.rr_q)
                return false;
            for (int i = 0; i < n_in; ++i) {
                const std::string f = r + ".gen_input[" + std::to_string(i) + "].u_fifo";
                Fifo q{find(ctx, f, "mem_q"), find(ctx, f, "rd_ptr_q", true),
                       find(ctx, f, "wr_ptr_q", true), find(ctx, f, "count_q", true),
                       // Only ReplicationCost > 0 builds have hold counters.
                       find(ctx, r + ".gen_hold.gen_input_hold[" + std::to_string(i) + "]",
                            "hold_q", true)};
                if (!q.mem_q || !q.rd_ptr_q || !q.wr_ptr_q || !q.count_q) return false;
                x.in.push_back(q);
            }
        }
        ok_ = true;
        return true;
    }

    bool ok() const { return ok_; }

    // Router node's registers; msg_head is left 0 (the engine knows it).  Called for
    // every router every cycle by the full comparison, so each register's address,
    // type and width were resolved once, by init().
    void read(int node, router_state& s) const
    {
        const Router& x = routers_[static_cast<size_t>(node)];
        const int cred_w = x.credits_q.width / n_out_, fw = x.out_flit_q.width / n_out_;
        // The router's vectors are copied once into 64-bit words and sliced there.
        uint64_t route[kMaxWords], flit[kMaxWords], misc[4][kMaxWords];
        x.route_q.copy(route);
        x.out_flit_q.copy(flit);
        x.credit_out_q.copy(misc[0]);
        x.out_valid_q.copy(misc[1]);
        x.credits_q.copy(misc[2]);
        x.rr_q.copy(misc[3]);
        s.node = node;
        s.n_ports = n_ports_;
        s.n_in = n_in_;
        s.n_out = n_out_;
        s.depth = depth_;
        s.rr_q = static_cast<unsigned>(slice(misc[3], 0, x.rr_q.width));
        for (int i = 0; i < n_in_; ++i) {
            const Fifo& q = x.in[static_cast<size_t>(i)];
            router_state_input& in = s.in[i];
            in.rd_ptr = q.rd_ptr_q.byte();
            in.wr_ptr = q.wr_ptr_q.byte();
            in.count = q.count_q.byte();
            // Only the live entries mean anything (router_state.h); the others are
            // not read.
            for (int k = 0, slot = in.rd_ptr; k < in.count && k < depth_ && slot < depth_; ++k) {
                in.fifo[slot] = q.mem_q.element(slot);
                if (++slot == depth_) slot = 0;
            }
            in.route_q = static_cast<uint32_t>(slice(route, i * n_out_, n_out_));
            in.credit_out_q = slice(misc[0], i, 1) != 0;
            in.hold_q = q.hold_q.p ? q.hold_q.byte() : 0;
            in.msg_head = 0;
        }
        for (int o = 0; o < n_out_; ++o) {
            router_state_output& out = s.out[o];
            out.out_valid_q = slice(misc[1], o, 1) != 0;
            out.out_flit_q = slice(flit, o * fw, fw);
            out.credits_q = static_cast<uint8_t>(slice(misc[2], o * cred_w, cred_w));
        }
    }

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
                    bool narrow = false)
    {
        const VerilatedScope* s = ctx.scopeFind(scope.c_str());
        const VerilatedVar* v = s ? s->varFind(name) : nullptr;
        Reg r;
        if (!v || v->packed().low() != 0) return r;
        r.width = v->packed().elements();
        switch (v->vltype()) {
        case VLVT_UINT8: r.bytes = 1; break;
        case VLVT_UINT16: r.bytes = 2; break;
        case VLVT_UINT32: r.bytes = 4; break;
        case VLVT_UINT64: r.bytes = 8; break;
        case VLVT_WDATA: r.bytes = 4 * ((r.width + 31) / 32); break;
        default: return r;  // not a packed value: not found
        }
        if (r.bytes > 8 * kMaxWords || (narrow && r.bytes != 1)) return r;
        r.p = static_cast<const uint8_t*>(v->datap());
        r.ent = v->entSize();
        return r;
    }

    std::vector<Router> routers_;
    int n_in_ = 0, n_out_ = 0, n_ports_ = 0, depth_ = 0;
    bool ok_ = false;
};

#endif
