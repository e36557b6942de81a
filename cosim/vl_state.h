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
                Fifo q{find(ctx, f, "mem_q"), find(ctx, f, "rd_ptr_q"), find(ctx, f, "wr_ptr_q"),
                       find(ctx, f, "count_q"),
                       // Only ReplicationCost > 0 builds have hold counters.
                       find(ctx, r + ".gen_hold.gen_input_hold[" + std::to_string(i) + "]",
                            "hold_q")};
                if (!q.mem_q || !q.rd_ptr_q || !q.wr_ptr_q || !q.count_q) return false;
                x.in.push_back(q);
            }
        }
        ok_ = true;
        return true;
    }

    bool ok() const { return ok_; }

    // Router node's registers; msg_head is left 0 (the engine knows it).
    void read(int node, router_state& s) const
    {
        const Router& x = routers_[static_cast<size_t>(node)];
        const int cred_w = width(x.credits_q) / n_out_, fw = width(x.out_flit_q) / n_out_;
        s.node = node;
        s.n_ports = n_ports_;
        s.n_in = n_in_;
        s.n_out = n_out_;
        s.depth = depth_;
        s.rr_q = static_cast<unsigned>(bits(x.rr_q, 0, width(x.rr_q)));
        for (int i = 0; i < n_in_; ++i) {
            const Fifo& q = x.in[static_cast<size_t>(i)];
            router_state_input& in = s.in[i];
            for (int k = 0; k < depth_; ++k) in.fifo[k] = element(q.mem_q, k);
            in.rd_ptr = static_cast<uint8_t>(bits(q.rd_ptr_q, 0, width(q.rd_ptr_q)));
            in.wr_ptr = static_cast<uint8_t>(bits(q.wr_ptr_q, 0, width(q.wr_ptr_q)));
            in.count = static_cast<uint8_t>(bits(q.count_q, 0, width(q.count_q)));
            in.route_q = static_cast<uint32_t>(bits(x.route_q, i * n_out_, n_out_));
            in.credit_out_q = bits(x.credit_out_q, i, 1) != 0;
            in.hold_q = q.hold_q ? static_cast<uint8_t>(bits(q.hold_q, 0, width(q.hold_q))) : 0;
            in.msg_head = 0;
        }
        for (int o = 0; o < n_out_; ++o) {
            router_state_output& out = s.out[o];
            out.out_valid_q = bits(x.out_valid_q, o, 1) != 0;
            out.out_flit_q = bits(x.out_flit_q, o * fw, fw);
            out.credits_q = static_cast<uint8_t>(bits(x.credits_q, o * cred_w, cred_w));
        }
    }

private:
    struct Fifo {
        const VerilatedVar *mem_q, *rd_ptr_q, *wr_ptr_q, *count_q, *hold_q;
    };
    struct Router {
        const VerilatedVar *route_q = nullptr, *credit_out_q = nullptr, *out_valid_q = nullptr,
                           *out_flit_q = nullptr, *credits_q = nullptr, *rr_q = nullptr;
        std::vector<Fifo> in;
    };

    static const VerilatedVar* find(const VerilatedContext& ctx, const std::string& scope,
                                    const char* name)
    {
        const VerilatedScope* s = ctx.scopeFind(scope.c_str());
        return s ? s->varFind(name) : nullptr;
    }

    static int width(const VerilatedVar* v) { return v->packed().elements(); }

    // Bits [lsb, lsb + n) (n <= 64) of a packed value stored at p with type t.
    static uint64_t bits_at(const void* p, VerilatedVarType t, int lsb, int n)
    {
        uint64_t x = 0;
        switch (t) {
        case VLVT_UINT8: x = *static_cast<const uint8_t*>(p); break;
        case VLVT_UINT16: x = *static_cast<const uint16_t*>(p); break;
        case VLVT_UINT32: x = *static_cast<const uint32_t*>(p); break;
        case VLVT_UINT64: x = *static_cast<const uint64_t*>(p); break;
        case VLVT_WDATA: {
            // Wide values: 32-bit words, least significant first.
            const uint32_t* w = static_cast<const uint32_t*>(p);
            for (int b = 0; b < n; ++b) {
                const int k = lsb + b;
                x |= static_cast<uint64_t>(w[k / 32] >> (k % 32) & 1u) << b;
            }
            return x;
        }
        default: return 0;
        }
        x >>= lsb;
        return n >= 64 ? x : x & ((1ull << n) - 1);
    }

    static uint64_t bits(const VerilatedVar* v, int lsb, int n)
    {
        return bits_at(v->datap(), v->vltype(), lsb - v->packed().low(), n);
    }

    // Entry k of an unpacked array of packed values (a FIFO's storage).
    static uint64_t element(const VerilatedVar* v, int k)
    {
        const char* p = static_cast<const char*>(v->datap()) + static_cast<size_t>(k) * v->entSize();
        return bits_at(p, v->vltype(), 0, width(v));
    }

    std::vector<Router> routers_;
    int n_in_ = 0, n_out_ = 0, n_ports_ = 0, depth_ = 0;
    bool ok_ = false;
};

#endif
