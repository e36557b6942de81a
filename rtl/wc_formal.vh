// wc_formal.vh -- what the formal properties of the wormcast RTL (`ifdef FORMAL blocks
// beside the logic; scripts/prove.sh, docs/verification.md "Formal proofs") share.
//
//   always @(`WC_FORMAL_EDGE) if (rst_ni) begin ... assert (...); ... end
//
// is a block of checks sampled at every rising edge of clk_i while rst_ni is high.
// Yosys (read_verilog -formal) takes only the clock in the event list of a block of
// assertions; Verilator (--assert) wants the asynchronous reset there too, as in every
// other block that reads rst_ni (else it reports SYNCASYNCNET).
`ifndef WC_FORMAL_VH
`define WC_FORMAL_VH
`ifdef VERILATOR
`define WC_FORMAL_EDGE posedge clk_i or negedge rst_ni
`else
`define WC_FORMAL_EDGE posedge clk_i
`endif
`endif  // WC_FORMAL_VH
