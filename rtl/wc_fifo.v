// wc_fifo -- storage of one input FIFO of the wormcast router.
//
// Implements the FIFO state of docs/microarchitecture.md, sections 6 and 7 (steps 1 and
// 10), for one router input: Depth entries, rd_ptr, wr_ptr, count. The router decides
// push and pop, and does the bypass of an empty FIFO itself, for all its inputs at once
// (see wc_router):
//   hol_valid = count > 0 ? 1 : in_valid,  hol_flit = count > 0 ? head_o : in_flit
//   pop  = count > 0 && move
//   push = in_valid && !(count == 0 && move) && !full   (otherwise bypassed)
//
// Every register here changes only on a push or a pop, so each is written as a
// counter with a load enable (wrapping pointers, an up/down count): a simulator then
// does the work only on the cycles that push or pop. A push into a full FIFO cannot happen when the upstream
// credit counter is correct (section 5); the router drops it anyway (InjectBug = 5),
// so the pointers and the count stay consistent.
//
// Ports:
//   clk_i       clock, rising edge.
//   rst_ni      asynchronous active-low reset: the FIFO becomes empty. The storage itself
//               is not reset (it is never visible while the FIFO is empty).
//   push_i      write data_i at the tail this cycle. Must be 0 while full_o is 1.
//   data_i      the flit to write.
//   pop_i       remove the head this cycle. Must be 0 while nonempty_o is 0.
//   nonempty_o  count > 0 (a function of the registers only).
//   full_o      count == Depth (a function of the registers only).
//   head_o      the oldest entry; meaningful only while nonempty_o is 1.
//
// Assertions (rtl/wc_assert.vh): no push while full, no pop while empty, count <= Depth.
`include "wc_assert.vh"

module wc_fifo #(
  parameter integer Depth = 4,  // number of entries (flits), >= 2
  parameter integer Width = 34  // bits per entry (flit width)
) (
  input              clk_i,
  input              rst_ni,
  input              push_i,
  input  [Width-1:0] data_i,
  input              pop_i,
  output             nonempty_o,
  output             full_o,
  output [Width-1:0] head_o
);

  // Pointer and count widths. Depth need not be a power of two.
  localparam integer PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam integer CntW = $clog2(Depth + 1);
  localparam integer    DepthM1 = Depth - 1;
  localparam [PtrW-1:0] PtrLast = DepthM1[PtrW-1:0];
  localparam [CntW-1:0] CntFull = Depth[CntW-1:0];

  // Read by name by the simulation harness (cosim/vl_state.h); no logic changes.
  reg  [Width-1:0] mem_q [0:Depth-1] /* verilator public_flat_rd */;
  reg  [PtrW-1:0]  rd_ptr_q /* verilator public_flat_rd */;
  reg  [PtrW-1:0]  wr_ptr_q /* verilator public_flat_rd */;
  reg  [CntW-1:0]  count_q /* verilator public_flat_rd */;

  assign nonempty_o = (count_q != {CntW{1'b0}});
  assign full_o     = (count_q == CntFull);
  assign head_o     = mem_q[rd_ptr_q];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= {PtrW{1'b0}};
    end else if (pop_i) begin
      rd_ptr_q <= (rd_ptr_q == PtrLast) ? {PtrW{1'b0}} : rd_ptr_q + 1'b1;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_ptr_q <= {PtrW{1'b0}};
    end else if (push_i) begin
      wr_ptr_q <= (wr_ptr_q == PtrLast) ? {PtrW{1'b0}} : wr_ptr_q + 1'b1;
    end
  end

  // An up/down counter: unchanged when both or neither happen.
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= {CntW{1'b0}};
    end else if (push_i && !pop_i) begin
      count_q <= count_q + 1'b1;
    end else if (pop_i && !push_i) begin
      count_q <= count_q - 1'b1;
    end
  end

  // Storage: written on push only, no reset (not observable while empty).
  always @(posedge clk_i) begin
    if (push_i) begin
      mem_q[wr_ptr_q] <= data_i;
    end
  end

  `WC_ASSERT(push_not_full, !(push_i && full_o), "push into a full FIFO")
  `WC_ASSERT(pop_not_empty, !(pop_i && !nonempty_o), "pop from an empty FIFO")
  // (Only where the counter can hold more than Depth at all.)
  if ((1 << CntW) - 1 > Depth) begin : gen_assert_count
    `WC_ASSERT(count_in_range, count_q <= CntFull, "FIFO count above Depth")
  end

`ifdef FORMAL
`include "wc_formal.vh"
  // Formal properties (scripts/prove.sh, docs/verification.md "Formal proofs"): the
  // count stays in range and the pointers agree with it; no pop from an empty FIFO, no
  // push into a full one; the reset state of section 6 in the first cycle after reset.
  localparam integer PtrSumW = PtrW + CntW + 1;
  localparam [PtrSumW-1:0] FDepth = Depth[PtrSumW-1:0];
  wire [PtrSumW-1:0] f_rd_plus_count = {{(PtrSumW - PtrW){1'b0}}, rd_ptr_q} +
                                       {{(PtrSumW - CntW){1'b0}}, count_q};
  wire [PtrSumW-1:0] f_wr_expected   = f_rd_plus_count % FDepth;
  wire               f_count_bad;
  if ((1 << CntW) - 1 > Depth) begin : gen_f_count
    assign f_count_bad = (count_q > CntFull);
  end else begin : gen_f_count_full_range
    assign f_count_bad = 1'b0;
  end
  reg f_run_q;  // a cycle after reset has passed
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_run_q <= 1'b0;
    end else begin
      f_run_q <= 1'b1;
    end
  end
  always @(`WC_FORMAL_EDGE) begin
    if (rst_ni) begin
      p_fifo_count_range:  assert (!f_count_bad);
      p_fifo_ptrs_agree:   assert ({{(PtrSumW - PtrW){1'b0}}, wr_ptr_q} == f_wr_expected);
      p_fifo_no_underflow: assert (!(pop_i && !nonempty_o));
      p_fifo_no_overflow:  assert (!(push_i && full_o));
      p_fifo_reset:        assert (f_run_q || (count_q == {CntW{1'b0}} &&
                                   rd_ptr_q == {PtrW{1'b0}} && wr_ptr_q == {PtrW{1'b0}}));
    end
  end
`endif

endmodule
