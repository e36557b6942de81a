// wc_fifo -- per-input flit FIFO of the wormcast router, with bypass.
//
// Implements docs/microarchitecture.md, section 7, steps 1 and 10, for one router input.
//
// Head of line (combinational):
//   hol_valid_o = count_q > 0 ? 1              : in_valid_i
//   hol_data_o  = count_q > 0 ? mem[rd_ptr_q]  : in_data_i
// so an empty FIFO is bypassed and a flit can leave in the cycle it arrives.
//
// Update at the clock edge:
//   pop  = count_q > 0 && deq_i
//   push = in_valid_i && !(count_q == 0 && deq_i)     (otherwise the flit was bypassed)
// A push into a full FIFO cannot happen when the upstream credit counter is correct
// (section 5); if it happens anyway (InjectBug = 5 in wc_router) the push is dropped, so
// the pointers and the count stay consistent.
//
// Ports:
//   clk_i       clock, rising edge.
//   rst_ni      asynchronous active-low reset: the FIFO becomes empty. The storage itself
//               is not reset (it is never visible while the FIFO is empty).
//   in_valid_i  a flit arrives this cycle (the upstream link's `valid`, section 5).
//   in_data_i   the arriving flit (the upstream link's `flit`); ignored when !in_valid_i
//               except that it is the head of line of an empty FIFO.
//   deq_i       the head of line leaves this cycle (the router's move[i]). Must only be
//               asserted when hol_valid_o is 1.
//   hol_valid_o the head of line is a valid flit.
//   hol_data_o  the head-of-line flit.
//
// The credit that the router returns upstream for this input is deq_i, registered in the
// router (credit_out_q), not here.
module wc_fifo #(
  parameter integer Depth = 4,  // number of entries (flits), >= 2
  parameter integer Width = 34  // bits per entry (flit width)
) (
  input              clk_i,
  input              rst_ni,
  input              in_valid_i,
  input  [Width-1:0] in_data_i,
  input              deq_i,
  output             hol_valid_o,
  output [Width-1:0] hol_data_o
);

  // Pointer and count widths. Depth need not be a power of two.
  localparam integer PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam integer CntW = $clog2(Depth + 1);
  localparam integer    DepthM1 = Depth - 1;
  localparam [PtrW-1:0] PtrLast = DepthM1[PtrW-1:0];
  localparam [CntW-1:0] CntFull = Depth[CntW-1:0];

  reg [Width-1:0] mem_q [0:Depth-1];
  reg [PtrW-1:0]  rd_ptr_q, rd_ptr_d;
  reg [PtrW-1:0]  wr_ptr_q, wr_ptr_d;
  reg [CntW-1:0]  count_q, count_d;

  wire nonempty = (count_q != {CntW{1'b0}});
  wire full     = (count_q == CntFull);
  wire pop      = nonempty & deq_i;
  wire push     = in_valid_i & ~(~nonempty & deq_i) & ~full;

  assign hol_valid_o = nonempty ? 1'b1 : in_valid_i;
  assign hol_data_o  = nonempty ? mem_q[rd_ptr_q] : in_data_i;

  always @* begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d  = count_q;
    if (pop) begin
      rd_ptr_d = (rd_ptr_q == PtrLast) ? {PtrW{1'b0}} : rd_ptr_q + 1'b1;
    end
    if (push) begin
      wr_ptr_d = (wr_ptr_q == PtrLast) ? {PtrW{1'b0}} : wr_ptr_q + 1'b1;
    end
    if (push && !pop) begin
      count_d = count_q + 1'b1;
    end else if (pop && !push) begin
      count_d = count_q - 1'b1;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= {PtrW{1'b0}};
      wr_ptr_q <= {PtrW{1'b0}};
      count_q  <= {CntW{1'b0}};
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q  <= count_d;
    end
  end

  // Storage: written on push only, no reset (not observable while empty).
  always @(posedge clk_i) begin
    if (push) begin
      mem_q[wr_ptr_q] <= in_data_i;
    end
  end

endmodule
