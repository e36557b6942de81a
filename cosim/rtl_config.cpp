// SPDX-License-Identifier: MIT
//
// rtl_config.cpp - the Verilog parameters of a run's RTL build (rtl_config.h).
#include "rtl_config.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rtl_sources.h"

namespace {

// The modules that have a parameter.
enum : unsigned {
    kRouter = 1u << 0,     // rtl/wc_router.v
    kHypercube = 1u << 1,  // rtl/wc_hypercube.v
    kMesh = 1u << 2,       // rtl/wc_mesh.v
    kTorus = 1u << 3,      // rtl/wc_torus.v (rings and tori)
    kAll = kRouter | kHypercube | kMesh | kTorus,
};

bool is_mesh(const struct sim_config& c)
{
    return c.topo.kind == TOPO_MESH;
}

// The row/column topologies (mesh, ring, torus): Rows and Cols apply; a ring of N nodes
// is 1 x N (docs/microarchitecture.md section 12).
bool is_grid(const struct sim_config& c)
{
    return topology_is_grid(&c.topo);
}

// The largest N of "InjectBug == N" or "InjectBug != N" in the RTL wormcast carries: the
// faults are where the RTL tests for them, so a fault added there needs no edit here.
long inject_bug_max()
{
    static long max = -1;
    if (max >= 0) return max;
    max = 0;
    for (size_t k = 0; k < rtl_source_count; ++k) {
        const std::string text(reinterpret_cast<const char*>(rtl_sources[k].data), rtl_sources[k].size);
        if (strncmp(rtl_sources[k].path, "rtl/", 4)) continue;
        for (const char* op : {"InjectBug == ", "InjectBug != "})
            for (size_t at = text.find(op); at != std::string::npos; at = text.find(op, at + 1))
                max = std::max(max, strtol(text.c_str() + at + strlen(op), nullptr, 10));
    }
    return max;
}

// One row per Verilog parameter: THE list of what a build depends on.  A parameter the
// model gains is a row here (and in the Verilog); nothing else in the builder or the
// cache names parameters.
struct Param {
    const char* name;  // as in the Verilog
    unsigned modules;  // kRouter, kHypercube, kMesh: the modules that have it
    long (*value)(const struct sim_config& c, const RtlChoice& ch);
    long (*max)();     // the largest value the RTL has, if the options allow more; else nullptr
    const char* option;  // the option that sets it, for the message when it is above max
};

const Param kParams[] = {
    // 0 hypercube, 1 mesh, 2 ring, 3 torus: the model's enum topo_kind.
    {"Topology", kRouter | kTorus, [](const struct sim_config& c, const RtlChoice&) { return long(c.topo.kind); },
     nullptr, nullptr},
    // A parameter that does not apply to the topology gets a fixed value: builds that
    // differ only there are the same build.
    {"Dim", kRouter | kHypercube,
     [](const struct sim_config& c, const RtlChoice&) { return is_grid(c) ? 1L : long(c.topo.dim); }, nullptr,
     nullptr},
    {"Rows", kRouter | kMesh | kTorus,
     [](const struct sim_config& c, const RtlChoice&) { return is_grid(c) ? long(c.topo.rows) : 1L; }, nullptr,
     nullptr},
    {"Cols", kRouter | kMesh | kTorus,
     [](const struct sim_config& c, const RtlChoice&) { return is_grid(c) ? long(c.topo.cols) : 1L; }, nullptr,
     nullptr},
    {"AllPort", kAll, [](const struct sim_config& c, const RtlChoice&) { return c.all_port ? 1L : 0L; }, nullptr,
     nullptr},
    {"BufferDepth", kAll, [](const struct sim_config& c, const RtlChoice&) { return long(c.buffer_depth); },
     nullptr, nullptr},
    {"PayloadWidth", kAll,
     [](const struct sim_config& c, const RtlChoice&) { return long(c.payload_width); }, nullptr, nullptr},
    {"ReplicationCost", kAll,
     [](const struct sim_config& c, const RtlChoice&) { return long(c.replication_cost); }, nullptr, nullptr},
    {"RouteOrder", kAll,
     [](const struct sim_config& c, const RtlChoice&) { return long(c.topo.route_order); }, nullptr, nullptr},
    {"TreeOrder", kAll,
     [](const struct sim_config& c, const RtlChoice&) { return long(c.topo.tree_order); }, nullptr, nullptr},
    // V (section 12): 1 on hypercubes and meshes, 2 or 3 on rings and tori.
    {"NumVcs", kRouter | kTorus, [](const struct sim_config& c, const RtlChoice&) { return long(c.topo.vcs); }, nullptr,
     nullptr},
    // The faults rtl/wc_router.v knows (its header lists them).
    {"InjectBug", kAll, [](const struct sim_config&, const RtlChoice& ch) { return long(ch.inject_bug); },
     inject_bug_max, "--inject-bug"},
};

unsigned module_bit(const RtlBuild& b)
{
    if (b.module == "wc_router") return kRouter;
    if (b.module == "wc_torus") return kTorus;
    return b.module == "wc_hypercube" ? kHypercube : kMesh;
}

std::string describe(const struct sim_config& c, const RtlChoice& ch, RtlHarness h)
{
    char topo[64], b[256];
    topology_name(&c.topo, topo, sizeof(topo));
    snprintf(b, sizeof(b), "%s %s, buffer depth %d, payload width %d, ", topo,
             c.all_port ? "all-port" : "one-port", c.buffer_depth, c.payload_width);
    std::string s = b;
    if (c.replication_cost) s += "replication cost " + std::to_string(c.replication_cost) + ", ";
    if (topology_wraps(&c.topo)) s += std::to_string(c.topo.vcs) + " virtual channels, ";
    s += std::string("routes ") + dim_order_name(c.topo.route_order) + ", trees " +
         dim_order_name(c.topo.tree_order) + ", ";
    s += rtl_harness_name(h);
    if (ch.inject_bug) s += " with injected bug " + std::to_string(ch.inject_bug);
    return s;
}

}  // namespace

const char* rtl_harness_name(RtlHarness h)
{
    switch (h) {
    case RtlHarness::RouterArray: return "router array";
    case RtlHarness::NetworkTop: return "network top";
    case RtlHarness::SystemC: break;
    }
    return "SystemC network top";
}

std::string RtlBuild::parameter_text() const
{
    std::string s;
    for (const auto& p : parameters) s += (s.empty() ? "" : " ") + p.first + "=" + std::to_string(p.second);
    return s;
}

bool rtl_build_for(const struct sim_config& cfg, const RtlChoice& choice, RtlBuild& b, std::string& err)
{
    // Every topology is rtl/wc_router.v (its Topology and NumVcs); the generate-loop
    // network tops are wc_hypercube, wc_mesh and wc_torus (rings and tori).
    b.harness = choice.systemc ? RtlHarness::SystemC
                               : choice.network_top ? RtlHarness::NetworkTop : RtlHarness::RouterArray;
    b.module = b.harness == RtlHarness::RouterArray ? "wc_router"
               : topology_wraps(&cfg.topo)          ? "wc_torus"
               : is_mesh(cfg)                       ? "wc_mesh"
                                                    : "wc_hypercube";
    b.parameters.clear();
    const unsigned mine = module_bit(b);
    for (const Param& p : kParams) {
        if (!(p.modules & mine)) continue;
        const long v = p.value(cfg, choice);
        if (p.max && v > p.max()) {
            err = std::string(p.option) + " " + std::to_string(v) + ": the RTL has " + p.name +
                  " 0.." + std::to_string(p.max()) + " (rtl/wc_router.v)";
            return false;
        }
        b.parameters.emplace_back(p.name, v);
    }
    b.description = describe(cfg, choice, b.harness);
    b.trace = choice.trace;
    if (b.trace) b.description += ", with the VCD trace";
    // NIn = P*V + J, NOut = P*V + E (section 12; V = 1: P + J both).
    const int vports = topology_link_vports(&cfg.topo);
    const int n_in = vports + (cfg.all_port ? cfg.topo.ports : 1), n_out = vports + (cfg.all_port ? vports : 1);
    const double routers = b.harness == RtlHarness::RouterArray ? 1 : cfg.topo.nodes;
    b.size = routers * n_in * n_out;
    return true;
}
