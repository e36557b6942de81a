// tb_fifo_misuse -- drives one wc_fifo against its contract, to show that its assertions
// (rtl/wc_assert.vh) catch it under Icarus: Misuse = 0 pushes into a full FIFO, 1 pops
// an empty one. Either way the simulation must end in $fatal (exit status 1) naming the
// assertion; reaching the end prints "TB RESULT: NOT CAUGHT". Run by
// tests/test_rtl_assertions.py.
module tb_fifo_misuse #(
  parameter integer Misuse = 0  // 0: push while full, 1: pop while empty
);

  localparam integer Depth = 4;
  localparam integer Width = 34;

  reg              clk;
  reg              rst_n;
  reg              push;
  reg              pop;
  reg  [Width-1:0] data;
  wire             nonempty;
  wire             full;
  wire [Width-1:0] head;
  integer          k;

  wc_fifo #(
    .Depth (Depth),
    .Width (Width)
  ) dut (
    .clk_i      (clk),
    .rst_ni     (rst_n),
    .push_i     (push),
    .data_i     (data),
    .pop_i      (pop),
    .nonempty_o (nonempty),
    .full_o     (full),
    .head_o     (head)
  );

  always #5 clk = ~clk;

  initial begin
    clk   = 1'b0;
    rst_n = 1'b0;
    push  = 1'b0;
    pop   = 1'b0;
    data  = {Width{1'b0}};
    #12 rst_n = 1'b1;
    // Inputs change at the falling edge, between rising edges.
    for (k = 0; k < Depth + 2; k = k + 1) begin
      @(negedge clk);
      push = (Misuse == 0);
      pop  = (Misuse == 1);
      data = k;
    end
    @(negedge clk);
    $display("TB RESULT: NOT CAUGHT (full %0d nonempty %0d head %0h)", full, nonempty, head);
    $finish;
  end

endmodule
