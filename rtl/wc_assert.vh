// wc_assert.vh -- assertion macros of the wormcast RTL, in the spirit of pulp
// common_cells' assertions.svh, for Verilog-2005 sources.
//
//   `WC_ASSERT(name, expr, msg)
//
// checks at every rising edge of clk_i, while rst_ni is high, that expr is true, using
// the values of the cycle that ends at that edge (the same values the registers load
// from). name labels the check (a Verilog identifier), msg is a string literal saying
// what went wrong. The enclosing module must have clk_i and rst_ni. Use it at module
// level, beside the logic it checks.
//
//   `WC_ASSERT_I(name, expr, msg)
//
// is the same check as a statement, for a clocked block of checks that computes what
// they need first (inside `ifndef SYNTHESIS; the block does nothing while rst_ni is low).
//
//   Under Verilator (VERILATOR defined): a SystemVerilog immediate assertion, labelled name,
//     in a clocked always block. It is compiled only with --assert (every cosimulation
//     build: cosim/CMakeLists.txt); a failure prints "Assertion failed in
//     <instance>.name: msg" ($error) and ends the run at the end of that cycle.
//   Other simulators (Icarus Verilog, -g2005): the same check in plain Verilog; a failure
//     is $fatal, which stops the simulation with exit status 1.
//   Synthesis (SYNTHESIS defined; Yosys defines it): nothing.
//   Yosys' formal flow (FORMAL defined, not VERILATOR; scripts/prove.sh): nothing either.
//     The proofs have their own properties, in `ifdef FORMAL blocks (rtl/wc_formal.vh),
//     several of them the same rules as these checks; making these proof obligations
//     too would need the checks' block without the reset edge Yosys rejects there.
`ifndef WC_ASSERT_VH
`define WC_ASSERT_VH

`ifdef FORMAL
`ifndef VERILATOR
`define WC_ASSERT_OFF
`endif
`endif

`ifndef SYNTHESIS
`ifndef WC_ASSERT_OFF
`ifdef VERILATOR
`define WC_ASSERT(name, expr, msg) \
  always @(posedge clk_i or negedge rst_ni) begin \
    if (rst_ni) begin \
      name: assert (expr) else $error(msg); \
    end \
  end
`define WC_ASSERT_I(name, expr, msg) \
  name: assert (expr) else $error(msg);
`else
`define WC_ASSERT(name, expr, msg) \
  always @(posedge clk_i or negedge rst_ni) begin \
    if (rst_ni && !(expr)) begin \
      $fatal(1, "assertion %m.%s failed: %s", `"name`", msg); \
    end \
  end
`define WC_ASSERT_I(name, expr, msg) \
  if (!(expr)) begin \
    $fatal(1, "assertion %m.%s failed: %s", `"name`", msg); \
  end
`endif
`endif  // !WC_ASSERT_OFF
`endif  // !SYNTHESIS

`ifndef WC_ASSERT
`define WC_ASSERT(name, expr, msg)
`define WC_ASSERT_I(name, expr, msg)
`endif

`endif  // WC_ASSERT_VH
