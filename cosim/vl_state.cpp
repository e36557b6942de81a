// SPDX-License-Identifier: MIT
//
// vl_state.cpp - the register readout of vl_state.h, compiled into wormcast beside
// Verilator's runtime (cosim/CMakeLists.txt) and exported to every plugin: it depends
// on no configuration (the widths come from Verilator's scope table), so it is
// compiled once instead of once per RTL build.  vl_state.h, which gives the reader's
// layout, is among the files a plugin is built from and in its cache key.
#include "vl_state.h"

RouterStateReader::RouterStateReader() = default;
RouterStateReader::~RouterStateReader() = default;

bool RouterStateReader::init(const VerilatedContext& ctx, const std::vector<std::string>& scopes, int n_in,
                             int n_out, int n_ports, int vcs, int depth)
{
    n_in_ = n_in;
    n_out_ = n_out;
    n_ports_ = n_ports;
    vcs_ = vcs;
    depth_ = depth;
    const size_t nodes = scopes.size();
    routers_.assign(nodes, Router{});
    for (size_t v = 0; v < nodes; ++v) {
        const std::string& r = scopes[v];
        Router& x = routers_[v];
        x.route_q = find(ctx, r, "route_q");
        x.credit_out_q = find(ctx, r, "credit_out_q");
        x.out_valid_q = find(ctx, r, "out_valid_q");
        x.out_flit_q = find(ctx, r, "out_flit_q");
        x.credits_q = find(ctx, r, "credits_q");
        x.rr_q = find(ctx, r, "rr_q");
        if (vcs > 1) {
            x.out_vc_q = find(ctx, r + ".gen_move_vc", "out_vc_q");
            x.sw_rr_q = find(ctx, r + ".gen_move_vc", "sw_rr_q");
        }
        if (!x.route_q || !x.credit_out_q || !x.out_valid_q || !x.out_flit_q ||
            !x.credits_q || !x.rr_q || (vcs > 1 && (!x.out_vc_q || !x.sw_rr_q)))
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

void RouterStateReader::read(int node, router_state& s) const
{
    const Router& x = routers_[static_cast<size_t>(node)];
    // Output registers: P links and the ejection channels (n_out with V = 1).
    const int n_phy = n_out_ - n_ports_ + n_ports_ / vcs_;
    const int cred_w = x.credits_q.width / n_out_, fw = x.out_flit_q.width / n_phy;
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
    uint64_t vc[kMaxWords] = {0};
    const int V = vcs_, vw = V == 3 ? 2 : 1, P = n_ports_ / V;
    s.vcs = V;
    s.sw_rr_q = 0;
    if (V > 1) {
        x.out_vc_q.copy(vc);
        x.sw_rr_q.copy(misc[3]);
        s.sw_rr_q = static_cast<unsigned>(slice(misc[3], 0, x.sw_rr_q.width));
        for (int p = 0; p < P; ++p) s.out_vc_q[p] = static_cast<uint8_t>(slice(vc, p * vw, vw));
    }
    for (int o = 0; o < n_out_; ++o) {
        router_state_output& out = s.out[o];
        // The register of link o / V, or of ejection channel o - P*V.
        const int phy = o < n_ports_ ? o / V : o - n_ports_ + P;
        const bool this_vc = o >= n_ports_ || V == 1 ||
                             slice(vc, phy * vw, vw) == static_cast<uint64_t>(o % V);
        out.out_valid_q = slice(misc[1], phy, 1) != 0 && this_vc;
        out.out_flit_q = slice(flit, phy * fw, fw);
        out.credits_q = static_cast<uint8_t>(slice(misc[2], o * cred_w, cred_w));
    }
}

RouterStateReader::Reg RouterStateReader::find(const VerilatedContext& ctx, const std::string& scope,
                                               const char* name, bool narrow)
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

