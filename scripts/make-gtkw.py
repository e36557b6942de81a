#!/usr/bin/env python3
"""Write a GTKWave save file that groups a wormcast waveform per node and port.

usage: make-gtkw.py hypercube:D|mesh:RxC DUMPFILE OUT.gtkw [--one-port] [--width W]

The signal names are those of the RTL router array trace and of the model's VCD
(gen_node[N].wc_router.<port>), so one save file serves both."""
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: make-gtkw.py hypercube:D|mesh:RxC DUMPFILE OUT.gtkw [--one-port] [--width W]")
    topo, dump, out = sys.argv[1:4]
    one_port = "--one-port" in sys.argv
    width = int(sys.argv[sys.argv.index("--width") + 1]) if "--width" in sys.argv else 32
    kind, size = topo.split(":")
    if kind == "hypercube":
        nodes, ports, names = 1 << int(size), int(size), ["dim%d" % i for i in range(int(size))]
    else:
        r, c = (int(x) for x in size.split("x"))
        nodes, ports, names = r * c, 4, ["E", "W", "N", "S"]
    chans = 1 if one_port else ports
    fw = width + 2
    lines = ['[dumpfile] "%s"' % dump, "[timestart] 0", "[size] 1600 900", "[pos] -1 -1",
             "*-3.0 0 -1", "[sst_width] 260", "[signals_width] 320", "[sst_expanded] 1",
             "[sst_vpaned_height] 300"]

    def sig(node, name, bits, fmt="@28"):
        lines.append(fmt)
        rng = "[%d:0]" % (bits - 1) if bits > 1 else ""
        lines.append("gen_node[%d].wc_router.%s%s" % (node, name, rng))

    lines += ["@28", "gen_node[0].wc_router.clk_i"]
    for n in range(nodes):
        lines += ["@800200", "-node %d" % n]
        for label, ios in (("links out", [("link_valid_o", ports, "@28"),
                                          ("link_flit_o", ports * fw, "@22"),
                                          ("link_credit_i", ports, "@28")]),
                           ("links in", [("link_valid_i", ports, "@28"),
                                         ("link_flit_i", ports * fw, "@22"),
                                         ("link_credit_o", ports, "@28")]),
                           ("injection", [("inj_valid_i", chans, "@28"),
                                          ("inj_flit_i", chans * fw, "@22"),
                                          ("inj_credit_o", chans, "@28")]),
                           ("ejection", [("ej_valid_o", chans, "@28"),
                                         ("ej_flit_o", chans * fw, "@22"),
                                         ("ej_credit_i", chans, "@28")])):
            lines += ["@800200", "-%s (ports %s)" % (label, ",".join(names) if "link" in label else chans)]
            for name, bits, fmt in ios:
                sig(n, name, bits, fmt)
            lines += ["@1000200", "-%s (ports %s)" % (label, ",".join(names) if "link" in label else chans)]
        lines += ["@1000200", "-node %d" % n]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


main()
