// SPDX-License-Identifier: MIT
//
// rtl_models.h - the two RtlNetwork implementations, as templates over the
// Verilated class of one configuration.
#ifndef WORMCAST_RTL_MODELS_H
#define WORMCAST_RTL_MODELS_H

#include <memory>
#include <string>
#include <vector>

#include "rtl_network.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#include "vl_bits.h"
#include "vl_state.h"
#include "vl_vcd_file.h"

#if VM_COVERAGE
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include "verilated_cov.h"

// The code coverage variant (RtlBuild::coverage): a network's line and toggle counts,
// written when it is destroyed into WORMCAST_RTL_COVERAGE_DIR (the cache checked the
// directory before the run) as wormcast-PID-N.dat, which verilator_coverage merges
// (scripts/rtl-coverage.sh).  Written under a temporary name, then linked to the first
// free N: link() never replaces a file, so the networks of two plugins in one process
// (each with its own copy of this code) never write over each other, and a reader never
// sees half a file.
inline void write_coverage(VerilatedContext& ctx)
{
    const char* dir = getenv("WORMCAST_RTL_COVERAGE_DIR");
    if (!dir || !*dir) return;
    const std::string base = std::string(dir) + "/wormcast-" + std::to_string(getpid()) + "-";
    std::string tmp = base + "XXXXXX", path;
    // Verilator ends the process if it cannot open the file: make it first.
    const int fd = mkstemp(&tmp[0]);
    bool ok = fd >= 0;
    if (ok) {
        fchmod(fd, 0644);  // mkstemp's 0600 is for secrets; these are for genhtml and people
        close(fd);
        ctx.coveragep()->write(tmp.c_str());
        for (int n = 0;; ++n) {
            path = base + std::to_string(n) + ".dat";
            if (link(tmp.c_str(), path.c_str()) == 0) break;
            if (errno != EEXIST) {
                ok = false;
                break;
            }
        }
    }
    if (!ok) fprintf(stderr, "wormcast: cannot write the code coverage counts into %s: %s\n", dir, strerror(errno));
    if (fd >= 0) unlink(tmp.c_str());
}
#else
inline void write_coverage(VerilatedContext&) {}
#endif

// Asynchronous active-low reset: a model starts with rst_ni = 0, which is no edge,
// so raise it first and then pull it low.
template <class V>
void reset(V& m)
{
    m.clk_i = 0;
    m.rst_ni = 1;
    m.eval();
    m.rst_ni = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
}

// Port counts of a network, as in docs/microarchitecture.md section 3.
// With V > 1 (rings and tori, section 12) the link ports are P*V virtual ports and the
// ejection channels E = P*V; with V = 1, J = E.
struct NetShape {
    topology topo;
    int ports;     // P
    int fw;        // flit width, W + 2
    int depth;     // BufferDepth
    int vcs;       // V
    int vc_bits;   // width of a link's vc: ceil(log2 V), 1 when V = 1
    int vports;    // P*V
    int inj, ej;   // J, E
    explicit NetShape(const struct sim_config& c)
        : topo(c.topo), ports(c.topo.ports), fw(c.payload_width + 2), depth(c.buffer_depth), vcs(c.topo.vcs),
          vc_bits(c.topo.vcs == 3 ? 2 : 1), vports(c.topo.ports * c.topo.vcs),
          inj(c.all_port ? c.topo.ports : 1), ej(c.all_port ? c.topo.ports * c.topo.vcs : 1) {}
};

// The output and credit registers of router v as RegisterSnapshot shows them.  Per
// virtual output (section 12): link p's register shows as output p*V + vc, its flit on
// every class of the link; with V = 1 the ports themselves, where vc is the constant 0
// (a link that sends with another class shows on the wrong output: a mismatch of
// --compare outputs, and of the full comparison's out_vc_q, link_vc_of() below).
// bits(vec, lo, n) reads n
// bits at lo of one of the vectors below: a router's own ports (router arrays, stacked
// = false) or a network top's, where router v's part starts at v times its width.
enum class TopVec { LinkValid, LinkVc, LinkFlit, LinkCredit, EjValid, EjFlit, InjCredit };

template <class Bits>
void snapshot_router(const NetShape& sh, RegisterSnapshot& s, int v, bool stacked, Bits bits)
{
    const int P = sh.ports, V = sh.vcs, PV = sh.vports, E = sh.ej, J = sh.inj, fw = sh.fw,
              vw = sh.vc_bits;
    const auto at = [&](TopVec w, int lo, int n) {
        static_assert(static_cast<int>(TopVec::InjCredit) == 6, "widths below");
        const int width[] = {P, P * vw, P * fw, PV, E, E * fw, J};
        return bits(w, (stacked ? v * width[static_cast<int>(w)] : 0) + lo, n);
    };
    uint64_t valid = 0;
    uint64_t* f = s.flits(v);
    for (int p = 0; p < P; ++p) {
        const uint64_t c = at(TopVec::LinkVc, p * vw, vw);
        valid |= at(TopVec::LinkValid, p, 1) << (p * V + static_cast<int>(c));
        for (int k = 0; k < V; ++k) f[p * V + k] = at(TopVec::LinkFlit, p * fw, fw);
    }
    s.out_valid[v] = static_cast<uint32_t>(valid | at(TopVec::EjValid, 0, E) << PV);
    s.credit_out[v] = static_cast<uint32_t>(at(TopVec::LinkCredit, 0, PV) | at(TopVec::InjCredit, 0, J) << PV);
    for (int e = 0; e < E; ++e) f[PV + e] = at(TopVec::EjFlit, e * fw, fw);
}

// With V = 1 a link's class is no register but the constant 0 that section 12 puts on
// link_vc_o; the full comparison compares it as out_vc_q like the register of V > 1
// (model/router_state.h), read here from the port: bit(k) is bit k of node's link_vc_o
// (of a network top's obs_link_vc_o, node's part first).  With V > 1 the register
// itself is read (vl_state.h).
template <class Bit>
void link_vc_of(const NetShape& sh, router_state& s, Bit bit)
{
    if (sh.vcs > 1) return;
    for (int p = 0; p < sh.ports; ++p) s.out_vc_q[p] = static_cast<uint8_t>(bit(p));
}

// The scope of node v's router in a generate-loop network top named TOP, as
// rtl/wc_hypercube.v and rtl/wc_mesh.v name their instances.
inline std::string top_router_scope(const topology& t, int v)
{
    if (t.kind == TOPO_HYPERCUBE) {
        const int lo_bits = t.dim / 2;
        return "TOP.wc_hypercube.gen_hi[" + std::to_string(v >> lo_bits) + "].gen_node[" +
               std::to_string(v & ((1 << lo_bits) - 1)) + "].u_router";
    }
    return std::string(topology_wraps(&t) ? "TOP.wc_torus" : "TOP.wc_mesh") + ".gen_row[" +
           std::to_string(v / t.cols) + "].gen_node[" + std::to_string(v % t.cols) + "].u_router";
}

// Verilator's VCD writer into the front end's stream (vl_vcd_file.h), and the readout
// of the routers' registers (vl_state.h), as every RtlNetwork has them.
template <class Trace>
class TraceAndState {
public:
    // Start a trace of Trace (VerilatedVcdC or a SystemC one) into f; add_models(t)
    // attaches the models to it.
    template <class AddModels>
    bool open(FILE* f, AddModels add_models)
    {
        file_.reset(new StreamVcdFile(f));
        trace_.reset(new Trace(file_.get()));
        add_models(trace_.get());
        trace_->open("wormcast");
        return trace_->isOpen();
    }

    Trace* trace() const { return trace_.get(); }
    int error() const { return file_ ? file_->error() : 0; }

    int close()
    {
        if (!trace_) return 0;
        trace_->close();
        const int err = file_->error();
        trace_.reset();
        file_.reset();
        return err;
    }

    // The readout, set up on first use: scope_of(v) names router v's scope.
    template <class ScopeOf>
    bool read(const VerilatedContext& ctx, const NetShape& shape, int node, router_state& s,
              ScopeOf scope_of) const
    {
        if (!tried_) {
            tried_ = true;
            std::vector<std::string> scopes;
            for (int v = 0; v < shape.topo.nodes; ++v) scopes.push_back(scope_of(v));
            state_.init(ctx, scopes, shape.vports + shape.inj, shape.vports + shape.ej, shape.vports,
                        shape.vcs, shape.depth);
        }
        if (!state_.ok()) return false;
        state_.read(node, s);
        return true;
    }

private:
    std::unique_ptr<StreamVcdFile> file_;
    std::unique_ptr<Trace> trace_;
    mutable RouterStateReader state_;
    mutable bool tried_ = false;
};

// rtl/wc_router.v verilated once; one object per node; links wired here exactly as
// the network tops wire them (output port p of node v drives input port peer(p) of
// neighbour(v, p), whose credit goes back the other way).
template <class VRouter>
class RouterArray final : public RtlNetwork {
public:
    explicit RouterArray(const struct sim_config& cfg) : shape_(cfg)
    {
        const topology& t = shape_.topo;
        context_.traceEverOn(true);
        context_.fatalOnError(false);  // a failed assertion stops the run, not the process
        for (int v = 0; v < t.nodes; ++v) {
            std::string name = "gen_node[" + std::to_string(v) + "]";
            routers_.emplace_back(new VRouter(&context_, name.c_str()));
        }
        for (int v = 0; v < t.nodes; ++v) {
            for (int p = 0; p < t.ports; ++p) {
                int nb = topology_neighbor(&t, v, p);
                // No neighbour (a mesh edge): the input stays tied to 0, as in the tops.
                if (nb >= 0) links_.push_back({v, p, routers_[nb].get(), topology_peer_port(&t, p)});
            }
        }
        for (size_t v = 0; v < routers_.size(); ++v) {
            VRouter* r = routers_[v].get();
            r->node_id_i = static_cast<uint16_t>(v);
            reset(*r);
        }
    }

    ~RouterArray() override
    {
        io_.close();
        write_coverage(context_);
    }

    void set_inject(int node, int ch, uint64_t flit) override
    {
        VRouter& r = *routers_[node];
        set_bits(r.inj_valid_i, ch, 1, 1);
        set_bits(r.inj_flit_i, ch * shape_.fw, shape_.fw, flit);
        dirty_.push_back(node);
    }

    void set_ej_credit(int node, int ch) override
    {
        set_bits(routers_[node]->ej_credit_i, ch, 1, 1);
        dirty_.push_back(node);
    }

    void clock() override
    {
        const int fw = shape_.fw;
        // Every link input takes the neighbour's output register before any edge. The
        // links are listed router by router, so each router's valid and credit inputs are
        // built as whole words.
        size_t k = 0;
        while (k < links_.size()) {
            const int v = links_[k].node;
            VRouter& r = *routers_[v];
            uint64_t valid = 0, credit = 0, vc = 0;
            // Section 12: a link's class and its V credit wires (with V = 1, one credit).
            const int V = shape_.vcs, vw = shape_.vc_bits;
            for (; k < links_.size() && links_[k].node == v; ++k) {
                const Link& l = links_[k];
                const VRouter& n = *l.from;
                valid |= get_bits(n.link_valid_o, l.peer, 1) << l.port;
                credit |= get_bits(n.link_credit_o, l.peer * V, V) << (l.port * V);
                if (V > 1) vc |= get_bits(n.link_vc_o, l.peer * vw, vw) << (l.port * vw);
                set_bits(r.link_flit_i, l.port * fw, fw, get_bits(n.link_flit_o, l.peer * fw, fw));
            }
            set_bits(r.link_valid_i, 0, shape_.ports, valid);
            set_bits(r.link_credit_i, 0, shape_.vports, credit);
            if (V > 1) set_bits(r.link_vc_i, 0, shape_.ports * vw, vc);
        }
        VerilatedVcdC* trace = io_.trace();
        if (trace) {
            for (auto& r : routers_) r->eval();  // settle the inputs for the dump
            trace->dump(static_cast<uint64_t>(cycle_) * 10);
        }
        for (auto& r : routers_) {
            r->clk_i = 1;
            r->eval();
            // After a failed assertion the run ends with this cycle: the routers after
            // this one are not clocked, so only the first one's failures are printed.
            if (context_.gotError()) break;
        }
        if (trace) trace->dump(static_cast<uint64_t>(cycle_) * 10 + 5);
        for (auto& r : routers_) {
            r->clk_i = 0;
            r->eval();
        }
        for (int v : dirty_) {
            clear_bits(routers_[v]->inj_valid_i);
            clear_bits(routers_[v]->ej_credit_i);
        }
        dirty_.clear();
        ++cycle_;
    }

    void read_registers(RegisterSnapshot& s) const override
    {
        for (size_t v = 0; v < routers_.size(); ++v) {
            const VRouter& r = *routers_[v];
            snapshot_router(shape_, s, static_cast<int>(v), false, [&r](TopVec w, int lo, int n) -> uint64_t {
                switch (w) {
                case TopVec::LinkValid: return get_bits(r.link_valid_o, lo, n);
                case TopVec::LinkVc: return get_bits(r.link_vc_o, lo, n);
                case TopVec::LinkFlit: return get_bits(r.link_flit_o, lo, n);
                case TopVec::LinkCredit: return get_bits(r.link_credit_o, lo, n);
                case TopVec::EjValid: return get_bits(r.ej_valid_o, lo, n);
                case TopVec::EjFlit: return get_bits(r.ej_flit_o, lo, n);
                case TopVec::InjCredit: break;
                }
                return get_bits(r.inj_credit_o, lo, n);
            });
        }
    }

    bool trace_open(FILE* f) override
    {
#if !VM_TRACE
        // Built without Verilator's trace (RtlBuild::trace): the engine asks for the
        // traced build whenever a run writes a waveform.
        (void)f;
        return false;
#else
        return io_.open(f, [this](VerilatedVcdC* t) {
            for (auto& r : routers_) r->trace(t, 99);
            // One cycle is 10 ns and the dump times count nanoseconds (10n, 10n + 5), as
            // in the model's VCD; without this the header would say 1 ps, the RTL's
            // precision.
            t->set_time_resolution("1ns");
        });
#endif
    }

    int trace_close() override { return io_.close(); }
    int trace_error() const override { return io_.error(); }

    bool read_router_state(int node, router_state& s) const override
    {
        if (!io_.read(context_, shape_, node, s,
                      [](int v) { return "gen_node[" + std::to_string(v) + "].wc_router"; }))
            return false;
        const VRouter& r = *routers_[static_cast<size_t>(node)];
        link_vc_of(shape_, s, [&r](int k) { return get_bits(r.link_vc_o, k, 1); });
        return true;
    }

    bool assertion_failed() const override { return context_.gotError(); }

    const char* kind() const override { return "router array"; }

private:
    NetShape shape_;
    VerilatedContext context_;
    std::vector<std::unique_ptr<VRouter>> routers_;
    struct Link {
        int node, port;       // this link input ...
        const VRouter* from;  // ... is driven by this router's output port peer
        int peer;
    };
    std::vector<Link> links_;  // in node order
    std::vector<int> dirty_;
    TraceAndState<VerilatedVcdC> io_;
    long cycle_ = 0;
};

// The generate-loop network top (rtl/wc_hypercube.v, rtl/wc_mesh.v or rtl/wc_torus.v)
// as one model.
template <class VTop>
class NetworkTop final : public RtlNetwork {
public:
    explicit NetworkTop(const struct sim_config& cfg) : shape_(cfg)
    {
        context_.traceEverOn(true);  // before the model is built
        context_.fatalOnError(false);  // a failed assertion stops the run, not the process
        top_.reset(new VTop(&context_, "TOP"));
        reset(*top_);
    }

    ~NetworkTop() override
    {
        io_.close();
        write_coverage(context_);
    }

    void set_inject(int node, int ch, uint64_t flit) override
    {
        int k = node * shape_.inj + ch;
        set_bits(top_->inj_valid_i, k, 1, 1);
        set_bits(top_->inj_flit_i, k * shape_.fw, shape_.fw, flit);
    }

    void set_ej_credit(int node, int ch) override
    {
        set_bits(top_->ej_credit_i, node * shape_.ej + ch, 1, 1);
    }

    void clock() override
    {
        VerilatedVcdC* trace = io_.trace();
        if (trace) {
            top_->eval();
            trace->dump(static_cast<uint64_t>(cycle_) * 10);
        }
        top_->clk_i = 1;
        top_->eval();
        if (trace) trace->dump(static_cast<uint64_t>(cycle_) * 10 + 5);
        top_->clk_i = 0;
        clear_bits(top_->inj_valid_i);
        clear_bits(top_->ej_credit_i);
        top_->eval();
        ++cycle_;
    }

    void read_registers(RegisterSnapshot& s) const override
    {
        const VTop& t = *top_;
        for (int v = 0; v < shape_.topo.nodes; ++v)
            snapshot_router(shape_, s, v, true, [&t](TopVec w, int lo, int n) -> uint64_t {
                switch (w) {
                case TopVec::LinkValid: return get_bits(t.obs_link_valid_o, lo, n);
                case TopVec::LinkVc: return get_bits(t.obs_link_vc_o, lo, n);
                case TopVec::LinkFlit: return get_bits(t.obs_link_flit_o, lo, n);
                case TopVec::LinkCredit: return get_bits(t.obs_link_credit_o, lo, n);
                case TopVec::EjValid: return get_bits(t.ej_valid_o, lo, n);
                case TopVec::EjFlit: return get_bits(t.ej_flit_o, lo, n);
                case TopVec::InjCredit: break;
                }
                return get_bits(t.inj_credit_o, lo, n);
            });
    }

    bool trace_open(FILE* f) override
    {
#if !VM_TRACE
        (void)f;  // built without the trace (RouterArray::trace_open)
        return false;
#else
        return io_.open(f, [this](VerilatedVcdC* t) {
            top_->trace(t, 99);
            // One cycle is 10 ns (see RouterArray::trace_open).
            t->set_time_resolution("1ns");
        });
#endif
    }

    int trace_close() override { return io_.close(); }
    int trace_error() const override { return io_.error(); }

    bool read_router_state(int node, router_state& s) const override
    {
        const topology& t = shape_.topo;
        if (!io_.read(context_, shape_, node, s, [&t](int v) { return top_router_scope(t, v); }))
            return false;
        const int base = node * shape_.ports;
        link_vc_of(shape_, s, [this, base](int k) { return get_bits(top_->obs_link_vc_o, base + k, 1); });
        return true;
    }

    bool assertion_failed() const override { return context_.gotError(); }

    const char* kind() const override { return "network top"; }

private:
    NetShape shape_;
    VerilatedContext context_;
    std::unique_ptr<VTop> top_;
    TraceAndState<VerilatedVcdC> io_;
    long cycle_ = 0;
};

#endif
