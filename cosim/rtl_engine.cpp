// SPDX-License-Identifier: MIT
//
// rtl_engine.cpp - the "rtl" and "cosim" engines (see rtl_engine.h).  Shaped like
// Ibex's Spike cosimulation: an engine that steps two implementations of one
// contract and compares what they expose after every step.
#include "rtl_engine.h"

#include <cassert>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "rtl_cache.h"
#include "rtl_config.h"
#include "rtl_network.h"

extern "C" {
#include "network.h"
#include "vcd.h"
}

namespace {

class Engine {
public:
    // The registers of one cycle: the RTL's output and credit registers (always: the
    // NI-facing outputs come from them), and what was compared: the model's output
    // and credit registers (--compare outputs) or both sides' whole register vectors,
    // nodes x layout_.words values (--compare all).
    struct Slot {
        uint64_t cycle = 0;
        RegisterSnapshot model, rtl;
        std::vector<uint64_t> model_regs, rtl_regs;
    };

    Engine(const struct sim_config& cfg, const rtl_engine_options& o, std::unique_ptr<RtlNetwork> rtl)
        : cfg_(cfg), rtl_(std::move(rtl)), cosim_(o.cosim != 0),
          compare_all_(o.cosim != 0 && !o.compare_outputs), mismatch_vcd_(o.mismatch_vcd)
    {
        nodes_ = cfg.topo.nodes;
        // Virtual ports (docs/microarchitecture.md section 12): P*V link ports, then
        // J injection or E ejection channels; with V = 1, P and J = E.
        vcs_ = cfg.topo.vcs;
        ports_ = topology_link_vports(&cfg.topo);
        channels_ = cfg.all_port ? ports_ : 1;
        n_in_ = ports_ + (cfg.all_port ? cfg.topo.ports : 1);
        n_out_ = ports_ + channels_;
        fw_ = cfg.payload_width + 2;
        if (cosim_) {
            router_params p;
            sim_config_router_params(&cfg_, &p);
            model_ = network_create(&p);
        }
        router_regs_layout(&layout_, n_in_, n_out_, cfg.buffer_depth, cfg.topo.ports, vcs_);
        last_head_.assign(static_cast<size_t>(nodes_ * n_out_), 0);
        rtl_head_.assign(static_cast<size_t>(nodes_ * n_out_), 0);
        // The snapshots are reused: a ring of kWindow cycles for the mismatch window if
        // one was asked for, else only the current cycle.
        history_.resize(cosim_ && mismatch_vcd_ ? kWindow : 1);
        const size_t words = static_cast<size_t>(nodes_) * static_cast<size_t>(layout_.words);
        for (auto& h : history_) {
            h.rtl.resize(nodes_, n_out_);
            if (compare_all_) {
                h.model_regs.assign(words, 0);
                h.rtl_regs.assign(words, 0);
            } else if (cosim_) {
                h.model.resize(nodes_, n_out_);
            }
        }
    }

    // The full comparison reads every RTL router's registers by name; a build whose
    // registers cannot be read cannot be compared that way.
    bool can_compare() { return !compare_all_ || rtl_->read_router_state(0, rtl_state_); }

    ~Engine()
    {
        rtl_->trace_close();
        network_destroy(model_);
    }

    // After the run.  The run may have stopped before the window was full (the checker
    // saw the RTL's wrong delivery first): the window is still worth having.
    void finish(struct rtl_engine_report* r)
    {
        if (mismatches_ && !window_tried_) write_window();
        report(r);
        r->trace_error = rtl_->trace_close();
    }

    bool ok() const { return !cosim_ || model_; }
    network* model() const { return model_; }
    RtlNetwork& rtl() { return *rtl_; }

    void inject(int node, int ch, flit_t f)
    {
        if (model_) network_inject(model_, node, ch, f);
        rtl_->set_inject(node, ch, f);
    }

    void credit(int node, int ch)
    {
        if (model_) network_return_credit(model_, node, ch);
        rtl_->set_ej_credit(node, ch);
    }

    int step(uint64_t cycle)
    {
        if (model_) {
            network_step(model_, cycle);
            // Debug builds: the model broke one of its invariants (router_sanity.h).
            if (network_sanity_error(model_)[0]) {
                stop_reason_ = network_sanity_error(model_);
                return -1;
            }
        }
        rtl_->clock();
        Slot& slot = history_[next_slot_];
        slot.cycle = cycle + 1;
        rtl_->read_registers(slot.rtl);
        collect_rtl_outputs(slot.rtl);
        const bool asserted = rtl_->assertion_failed();
        if (asserted)
            stop_reason_ = "RTL assertion failed in cycle " + std::to_string(cycle) +
                           " (Verilator's %Error line on stderr names it)";
        if (!cosim_) return asserted ? -1 : 0;
        if (compare_all_)
            compare_all(slot);
        else
            compare(slot.model, slot.rtl, slot.cycle);
        next_slot_ = (next_slot_ + 1) % history_.size();
        if (history_used_ < history_.size()) ++history_used_;
        // A failed assertion stops the run at once, with the window up to this cycle.
        if (asserted) {
            write_window();
            return -1;
        }
        // After the first difference, run a few more cycles into the window, then stop.
        if (mismatches_ && cycle + 1 >= stop_at_) {
            write_window();
            return -1;
        }
        return 0;
    }

    int ejections(const channel_event** l) const
    {
        *l = ej_.data();
        return static_cast<int>(ej_.size());
    }

    int inj_credits(const channel_event** l) const
    {
        *l = inj_credit_.data();
        return static_cast<int>(inj_credit_.size());
    }

    int outputs_valid() const { return outputs_valid_; }
    const char* stop_reason() const { return stop_reason_.c_str(); }
    uint64_t link_moves() const { return link_moves_; }
    uint64_t conflict_cycles() const { return network_conflict_cycles(model_); }

    int trace_error() const { return rtl_->trace_error(); }

    // The RTL's registers, with the head of each message in progress from what its
    // outputs sent (the RTL keeps no register with it).
    int router_state(int node, struct router_state* s) const
    {
        if (!rtl_->read_router_state(node, *s)) return -1;
        const uint64_t* heads = &rtl_head_[static_cast<size_t>(node * n_out_)];
        for (int i = 0; i < s->n_in; ++i)
            for (uint32_t m = s->in[i].route_q; m && !s->in[i].msg_head; m &= m - 1)
                s->in[i].msg_head = heads[__builtin_ctz(m)];
        return 0;
    }

    void report(struct rtl_engine_report* r) const
    {
        r->cycles_compared = cycles_compared_;
        r->signals_compared = signals_compared_;
        r->mismatches = mismatches_;
        r->window_written = window_written_;
        r->window_error = window_error_;
        snprintf(r->first_mismatch, sizeof(r->first_mismatch), "%s", first_.c_str());
        snprintf(r->rtl_kind, sizeof(r->rtl_kind), "%s", rtl_->kind());
    }

private:
    // The NI-facing outputs and the link activity, read from the RTL's registers, in
    // node order, then channel order, as every engine lists them
    // (docs/microarchitecture.md section 9).
    void collect_rtl_outputs(const RegisterSnapshot& rs)
    {
        ej_.clear();
        inj_credit_.clear();
        outputs_valid_ = 0;
        const uint32_t links = (1u << ports_) - 1;
        for (int v = 0; v < nodes_; ++v) {
            const uint32_t valid = rs.out_valid[static_cast<size_t>(v)];
            const uint32_t credit = rs.credit_out[static_cast<size_t>(v)] >> ports_;
            if (!valid && !credit) continue;
            const int moved = __builtin_popcount(valid & links);
            outputs_valid_ += __builtin_popcount(valid);
            link_moves_ += static_cast<uint64_t>(moved);
            // The head each output sent last names the message that holds it.
            for (uint32_t m = valid; m; m &= m - 1) {
                const int p = __builtin_ctz(m);
                const uint64_t f = rs.flits(v)[p];
                if (flit_is_head(f)) rtl_head_[static_cast<size_t>(v * n_out_ + p)] = f;
            }
            for (uint32_t m = valid >> ports_; m; m &= m - 1) {
                int c = __builtin_ctz(m);
                ej_.push_back({v, c, rs.flits(v)[ports_ + c]});
            }
            for (uint32_t m = credit; m; m &= m - 1)
                inj_credit_.push_back({v, __builtin_ctz(m), 0});
        }
    }

    std::string port_name(int port, bool input) const
    {
        static const char* mesh[] = {"E", "W", "N", "S"};
        char b[64];
        if (port < ports_ && vcs_ > 1) {
            snprintf(b, sizeof(b), "%d (link %s %d, VC %d)", port, input ? "input" : "output",
                     port / vcs_, port % vcs_);
        } else if (port < ports_) {
            if (cfg_.topo.kind == TOPO_MESH)
                snprintf(b, sizeof(b), "%s (link %s %d)", mesh[port], input ? "input" : "output",
                         port);
            else
                snprintf(b, sizeof(b), "%d (link %s, dimension %d)", port,
                         input ? "input" : "output", port);
        } else {
            snprintf(b, sizeof(b), "%d (%s channel %d)", port, input ? "injection" : "ejection",
                     port - ports_);
        }
        return b;
    }

    // The message on this output: the model's last head there, else the RTL's flit if
    // it is a head (an output the RTL drives and the model does not).
    std::string message_of(int node, int port, flit_t rtl_flit = 0) const
    {
        flit_t h = last_head_[static_cast<size_t>(node * n_out_ + port)];
        if (h) return message_name(h);
        if (flit_is_head(rtl_flit)) return "RTL's " + message_name(rtl_flit);
        return "no message seen on this output yet";
    }

    // What a port is, for a report: "link input, dimension 2", "ejection channel 0".
    std::string port_kind(int port, bool input) const
    {
        static const char* mesh[] = {"E", "W", "N", "S"};
        char b[64];
        if (port >= ports_)
            snprintf(b, sizeof(b), "%s channel %d", input ? "injection" : "ejection", port - ports_);
        else if (vcs_ > 1)
            snprintf(b, sizeof(b), "link %s %d, VC %d", input ? "input" : "output", port / vcs_,
                     port % vcs_);
        else if (cfg_.topo.kind == TOPO_MESH)
            snprintf(b, sizeof(b), "link %s %s", input ? "input" : "output", mesh[port]);
        else
            snprintf(b, sizeof(b), "link %s, dimension %d", input ? "input" : "output", port);
        return b;
    }

    std::string message_name(flit_t h) const
    {
        header x = header_unpack(flit_payload(h), static_cast<unsigned>(cfg_.payload_width));
        char b[128];
        snprintf(b, sizeof(b), "message %s from %u %s %u seq %u", msg_kind_name(x.type, x.ir),
                 x.source, x.type == HDR_B ? "root" : "to", x.address, x.seq);
        return b;
    }

    // The first differing value k of router node's register vectors (model m, RTL r),
    // named as docs/microarchitecture.md section 6 names it, with the port and the
    // message concerned (from the model's state, ms).
    void note_register(uint64_t cycle, int node, int k, const uint64_t* m, const uint64_t* r,
                       const struct router_state& ms)
    {
        ++mismatches_;
        if (!first_.empty()) return;
        router_reg_place p;
        char what[96];
        router_regs_place(&layout_, k, &p);
        router_regs_describe(&layout_, k, m, what, sizeof(what));
        std::string context;
        if (p.reg == REG_RR_Q) {
            context = "round-robin counter";
        } else if (p.reg == REG_SW_RR_Q) {
            context = "switch allocation: the input scanned first";
        } else if (p.reg == REG_OUT_VC_Q) {
            context = "the class on link output " + std::to_string(p.port) + "'s wires";
        } else if (p.reg >= REG_OUT_VALID_Q) {
            context = port_kind(p.port, false) + "; " + message_of(node, p.port);
        } else {
            context = port_kind(p.port, true);
            const router_state_input& x = ms.in[p.port];
            if (x.route_q && x.msg_head)
                context += "; " + message_name(x.msg_head) + " in progress";
            else if (x.count && flit_is_head(router_state_fifo(&ms, p.port, 0)))
                context += "; " + message_name(router_state_fifo(&ms, p.port, 0)) + " waiting";
        }
        char b[512];
        snprintf(b, sizeof(b), "cycle %" PRIu64 " node %d %s: model 0x%" PRIx64 ", RTL 0x%" PRIx64
                 " (%s)", cycle, node, what, m[k], r[k], context.c_str());
        first_ = b;
        stop_at_ = cycle + 3;
    }

    void note(uint64_t cycle, int node, const std::string& port, const char* signal, uint64_t m,
              uint64_t r, const std::string& msg)
    {
        ++mismatches_;
        if (!first_.empty()) return;
        char b[512];
        snprintf(b, sizeof(b), "cycle %" PRIu64 " node %d port %s %s: model 0x%" PRIx64
                 ", RTL 0x%" PRIx64 " (%s)", cycle, node, port.c_str(), signal, m, r, msg.c_str());
        first_ = b;
        stop_at_ = cycle + 3;
    }

    // --compare all: every register of section 6 of every router, model and RTL read
    // through the same router_state readout and packed into the same flat layout
    // (model/router_state.h), so a router is compared with one memcmp and the index
    // of its first differing value names the register.
    void compare_all(Slot& slot)
    {
        const size_t w = static_cast<size_t>(layout_.words);
        for (int v = 0; v < nodes_; ++v) {
            uint64_t* m = &slot.model_regs[static_cast<size_t>(v) * w];
            uint64_t* r = &slot.rtl_regs[static_cast<size_t>(v) * w];
            network_router_state(model_, v, &model_state_);
            rtl_->read_router_state(v, rtl_state_);
            for (int o = 0; o < n_out_; ++o) {
                const router_state_output& x = model_state_.out[o];
                if (x.out_valid_q && flit_is_head(x.out_flit_q))
                    last_head_[static_cast<size_t>(v * n_out_ + o)] = x.out_flit_q;
            }
            const bool same = router_state_equal(&layout_, &model_state_, &rtl_state_);
            // The window keeps every router's vectors; otherwise only a router that
            // differs is packed, to find and name its first difference.
            if (same && !mismatch_vcd_) continue;
            router_state_pack(&layout_, &model_state_, m);
            router_state_pack(&layout_, &rtl_state_, r);
            if (same) continue;
            for (size_t k = 0; k < w; ++k)
                if (m[k] != r[k]) note_register(slot.cycle, v, static_cast<int>(k), m, r, model_state_);
            // router_state_equal() and the packed vectors must agree.
            assert(std::memcmp(m, r, w * sizeof(*m)) != 0);
        }
        ++cycles_compared_;
        signals_compared_ += static_cast<uint64_t>(nodes_) * w;
    }

    // --compare outputs: reads the model's registers into ms and compares them with the
    // RTL's, rs.  Whole routers are compared as bit masks and flit arrays; only a
    // router that differs is walked port by port (valid, flit, credit), which names
    // the first difference.
    void compare(RegisterSnapshot& ms, const RegisterSnapshot& rs, uint64_t cycle)
    {
        ms.cycle = cycle;
        for (int v = 0; v < nodes_; ++v) {
            const size_t n = static_cast<size_t>(v);
            uint64_t* mf = ms.flits(v);
            const uint64_t* rf = rs.flits(v);
            network_router_registers(model_, v, &ms.out_valid[n], &ms.credit_out[n], mf);
            for (uint32_t m = ms.out_valid[n]; m; m &= m - 1) {
                int p = __builtin_ctz(m);
                if (flit_is_head(mf[p])) last_head_[n * n_out_ + p] = mf[p];
            }
            if (ms.out_valid[n] == rs.out_valid[n] && ms.credit_out[n] == rs.credit_out[n] &&
                std::memcmp(mf, rf, sizeof(*mf) * static_cast<size_t>(n_out_)) == 0)
                continue;
            for (int p = 0; p < n_out_; ++p) {
                uint64_t mv = ms.out_valid[n] >> p & 1, rv = rs.out_valid[n] >> p & 1;
                uint64_t mc = ms.credit_out[n] >> p & 1, rc = rs.credit_out[n] >> p & 1;
                if (mv != rv)
                    note(cycle, v, port_name(p, false), "out_valid", mv, rv, message_of(v, p, rf[p]));
                if (mf[p] != rf[p])
                    note(cycle, v, port_name(p, false), "out_flit", mf[p], rf[p], message_of(v, p, rf[p]));
                if (mc != rc)
                    note(cycle, v, port_name(p, true), "credit_out", mc, rc,
                         "credit register of this input");
            }
        }
        ++cycles_compared_;
        signals_compared_ += static_cast<uint64_t>(nodes_) * static_cast<uint64_t>(3 * n_out_);
    }

    // The cycles around the first mismatch, model and RTL side by side, if asked for:
    // the registers that were compared, by their names in section 6.
    void write_window()
    {
        window_tried_ = true;
        if (!mismatch_vcd_) return;
        vcd* w = vcd_open(mismatch_vcd_);
        if (!w) {
            window_error_ = ENOMEM;
            return;
        }
        std::vector<int> ids;
        const char* sides[] = {"model", "rtl"};
        vcd_scope(w, "cosim");
        for (const char* side : sides) {
            vcd_scope(w, side);
            for (int v = 0; v < nodes_; ++v) {
                std::string s = "gen_node[" + std::to_string(v) + "]";
                vcd_scope(w, s.c_str());
                if (compare_all_) {
                    for (int k = 0; k < layout_.words; ++k) {
                        router_reg_place p;
                        router_regs_place(&layout_, k, &p);
                        std::string n = router_reg_name(p.reg);
                        if (p.reg == REG_FIFO) n += std::to_string(p.entry);
                        if (p.port >= 0)
                            n = (p.reg == REG_OUT_VC_Q     ? "link"
                                 : p.reg >= REG_OUT_VALID_Q ? "out"
                                                            : "in") +
                                std::to_string(p.port) + "_" + n;
                        ids.push_back(vcd_var(w, n.c_str(), router_reg_width(&layout_, p.reg, fw_)));
                    }
                } else {
                    for (int p = 0; p < n_out_; ++p) {
                        std::string pn = std::to_string(p);
                        ids.push_back(vcd_var(w, ("out_valid_" + pn).c_str(), 1));
                        ids.push_back(vcd_var(w, ("out_flit_" + pn).c_str(), fw_));
                        ids.push_back(vcd_var(w, ("credit_out_" + pn).c_str(), 1));
                    }
                }
                vcd_upscope(w);
            }
            vcd_upscope(w);
        }
        vcd_upscope(w);
        vcd_end_definitions(w);
        // Oldest first: the ring's next slot, once it has been filled all round.
        const size_t first = history_used_ < history_.size() ? 0 : next_slot_;
        for (size_t h = 0; h < history_used_; ++h) {
            const Slot& snap = history_[(first + h) % history_.size()];
            vcd_time(w, snap.cycle * 10);
            size_t id = 0;
            for (int side = 0; side < 2; ++side) {
                if (compare_all_) {
                    for (uint64_t x : side ? snap.rtl_regs : snap.model_regs) vcd_value(w, ids[id++], x);
                    continue;
                }
                const RegisterSnapshot& s = side ? snap.rtl : snap.model;
                for (int v = 0; v < nodes_; ++v) {
                    const size_t n = static_cast<size_t>(v);
                    for (int p = 0; p < n_out_; ++p) {
                        vcd_value(w, ids[id++], s.out_valid[n] >> p & 1);
                        vcd_value(w, ids[id++], s.flits(v)[p]);
                        vcd_value(w, ids[id++], s.credit_out[n] >> p & 1);
                    }
                }
            }
        }
        errno = 0;
        if (vcd_close(w))
            window_error_ = errno ? errno : EIO;
        else
            window_written_ = true;
    }

    static constexpr size_t kWindow = 16;
    struct sim_config cfg_;
    std::unique_ptr<RtlNetwork> rtl_;
    bool cosim_, compare_all_;
    FILE* mismatch_vcd_;
    struct router_regs_layout layout_;
    struct router_state model_state_, rtl_state_;  // scratch of the full comparison
    network* model_ = nullptr;
    int nodes_, ports_, channels_, n_in_, n_out_, fw_, vcs_;
    std::vector<channel_event> ej_, inj_credit_;
    std::vector<flit_t> last_head_;  // model side: the last head of each output (cosim)
    std::vector<flit_t> rtl_head_;   // RTL side: the same, for router_state()
    // The registers of the last kWindow cycles (one slot without a mismatch window to
    // write); next_slot_ is the one the next step fills.
    std::vector<Slot> history_;
    size_t next_slot_ = 0, history_used_ = 0;
    int outputs_valid_ = 0;
    uint64_t link_moves_ = 0, cycles_compared_ = 0, signals_compared_ = 0, mismatches_ = 0;
    uint64_t stop_at_ = 0;
    bool window_tried_ = false, window_written_ = false;
    int window_error_ = 0;
    std::string first_;
    std::string stop_reason_;  // why step() stopped the run, if sim_error() should say it
};

Engine* self(void* e) { return static_cast<Engine*>(e); }

void op_inject(void* e, int n, int c, flit_t f) { self(e)->inject(n, c, f); }
void op_credit(void* e, int n, int c) { self(e)->credit(n, c); }
int op_step(void* e, uint64_t cycle) { return self(e)->step(cycle); }
int op_ejections(void* e, const channel_event** l) { return self(e)->ejections(l); }
int op_inj_credits(void* e, const channel_event** l) { return self(e)->inj_credits(l); }
int op_outputs_valid(void* e) { return self(e)->outputs_valid(); }
uint64_t op_link_moves(void* e) { return self(e)->link_moves(); }
uint64_t op_conflicts(void* e) { return self(e)->conflict_cycles(); }
const char* op_stop_reason(void* e) { return self(e)->stop_reason(); }
int op_router_state(void* e, int node, struct router_state* s) { return self(e)->router_state(node, s); }

// The RTL alone cannot see its arbiters: no conflict count (null in the reports).  The
// cosimulation counts them in its model.
const engine_ops rtl_ops = {"rtl", op_inject, op_credit, op_step, op_ejections, op_inj_credits,
                            op_outputs_valid, op_router_state, op_link_moves, nullptr,
                            op_stop_reason};
const engine_ops cosim_ops = {"cosim", op_inject, op_credit, op_step, op_ejections,
                              op_inj_credits, op_outputs_valid, op_router_state, op_link_moves,
                              op_conflicts, op_stop_reason};

// The RTL network of the run: its build from the cache (built now if it is not there),
// then the network from the build's plugin.  nullptr with err; *bad_input if the request
// is wrong rather than the build.
std::unique_ptr<RtlNetwork> make_rtl_network(const struct sim_config& cfg, const RtlChoice& choice,
                                             bool* bad_input, std::string& err)
{
    // SystemC elaborates once per process: modules can be built only until the first
    // sc_start(), and the kernel cannot be restarted.
    static std::string systemc_built;
    RtlBuild b;
    *bad_input = true;
    if (!rtl_build_for(cfg, choice, b, err)) return nullptr;
    if (choice.systemc && !systemc_built.empty()) {
        err = "SystemC elaborates once per process: this one already ran " + systemc_built +
              "; one network per process with --engine systemc";
        return nullptr;
    }
    const RtlPluginInfo* plugin = rtl_cache_plugin(b, cfg.stop, bad_input, err);
    if (!plugin) return nullptr;
    *bad_input = false;
    if (choice.systemc) systemc_built = b.description;
    try {
        return std::unique_ptr<RtlNetwork>(plugin->make(&cfg));
    } catch (const std::exception& x) {
        err = "the RTL of " + b.description + " could not be set up: " + x.what();
    } catch (...) {
        err = "the RTL of " + b.description + " could not be set up";
    }
    return nullptr;
}

}  // namespace

extern "C" int rtl_engine_create(engine* e, const struct sim_config* cfg, const rtl_engine_options* o,
                                 bool* bad_input, char* err, size_t errlen)
{
    RtlChoice choice;
    std::string why;
    choice.network_top = o->network_top != 0;
    choice.systemc = o->systemc != 0;
    choice.inject_bug = o->inject_bug;
    choice.trace = o->vcd != nullptr;
    std::unique_ptr<RtlNetwork> rtl = make_rtl_network(*cfg, choice, bad_input, why);
    if (!rtl) {
        snprintf(err, errlen, "%s", why.c_str());
        return -1;
    }
    if (o->vcd && !rtl->trace_open(o->vcd)) {
        snprintf(err, errlen, "the waveform could not be started (Verilator's trace)");
        return -1;
    }
    Engine* x = new Engine(*cfg, *o, std::move(rtl));
    if (!x->ok()) {
        delete x;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!x->can_compare()) {
        delete x;
        snprintf(err, errlen, "this RTL build cannot read its routers' registers by name: "
                 "compare its outputs only (--compare outputs)");
        return -1;
    }
    e->ops = o->cosim ? &cosim_ops : &rtl_ops;
    e->impl = x;
    return 0;
}

extern "C" int rtl_engine_trace_error(const engine* e) { return self(e->impl)->trace_error(); }

extern "C" void rtl_engine_finish(engine* e, struct rtl_engine_report* r)
{
    memset(r, 0, sizeof(*r));
    self(e->impl)->finish(r);
}

extern "C" network* rtl_engine_model(const engine* e) { return self(e->impl)->model(); }

extern "C" void rtl_engine_destroy(engine* e)
{
    delete self(e->impl);
    e->impl = nullptr;
}
