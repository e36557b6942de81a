// tb_router_directed -- self-checking directed testbench for the wormcast RTL (Icarus).
//
// DUT: wc_hypercube, Dim = 3, all-port, BufferDepth = 4, PayloadWidth = 32.
// The testbench is the NI of every node (docs/microarchitecture.md, sections 5 and 9,
// without start-up cost): per injection channel a queue of flits and a credit counter
// that starts at BufferDepth and uses an arriving credit in the same cycle; per ejection
// channel an always-ready sink whose credit register is set by every ejected flit (the
// router sees the credit in the cycle after the flit was on the ejection channel).
//
// Timing convention: cycle c is the clock period whose rising edge ends it; cycle 0 is
// the first cycle after reset. The testbench drives injection inputs and samples all DUT
// outputs at the falling edge in the middle of a cycle.
//
// Tests:
//   (a) R unicast, 5 flits, 0 -> 7: head on the links at n+1, n+2, n+3 (0->1->3->7),
//       on node 7's ejection channel 2 at n+4, the 5 flits on consecutive cycles.
//   (b) B from root 0, 4 flits: every other node T receives it on ejection channel
//       lowest_bit(T), head at n + popcount(T) + 1 (node 7: n+4), flits consecutive.
//   (c) R with ir = 1, 3 flits, 0 -> 7: delivered at 1 (channel 0, n+2), 3 (channel 1,
//       n+3) and 7 (channel 2, n+4).
//   (d) contention: every node sends two R messages (to n^7, 6 flits, and to n^5, 2
//       flits, both on injection channel 0) and node 0 one SINGLE-flit R to 6; only
//       contents, order and exactly-once delivery are checked.
//   (e) SINGLE-flit B from root 5.
//   (f) back-pressure: a stalled sink makes the buffers along a path fill up.
// Every ejected flit is checked against the scoreboard (right node, right channel,
// right message, flits in order, nothing delivered twice, nothing unexpected), and at
// the end of every test every expected delivery must be complete, every NI credit
// counter back at BufferDepth, every NI receive buffer empty (and never above
// BufferDepth), and on every link the credits returned must equal the flits sent.
//
// Prints one PASS / FAIL line per test and "TB RESULT: PASS" or "TB RESULT: FAIL" at the
// end; always ends with $finish (run_icarus.sh turns FAIL into a non-zero exit).
module tb_router_directed #(
  parameter integer InjectBug = 0  // passed to the DUT; nonzero must make the test fail
);

  localparam integer Dim   = 3;
  localparam integer N     = 1 << Dim;
  localparam integer P     = Dim;
  localparam integer J     = Dim;        // all-port
  localparam integer Depth = 4;
  localparam integer W     = 32;
  localparam integer FW    = W + 2;
  localparam integer NCh   = N * J;
  localparam integer QD    = 64;         // flit queue entries per injection channel
  localparam integer MaxM  = 64;         // messages
  localparam integer MaxL  = 8;          // flits per message

  localparam [1:0] KBody = 2'b00, KHead = 2'b01, KTail = 2'b10, KSingle = 2'b11;

  reg               clk;
  reg               rst_n;
  reg  [NCh-1:0]    inj_valid;
  reg  [NCh*FW-1:0] inj_flit;
  wire [NCh-1:0]    inj_credit;
  wire [NCh-1:0]    ej_valid;
  wire [NCh*FW-1:0] ej_flit;
  reg  [NCh-1:0]    ej_credit;
  wire [N*P-1:0]    obs_valid;
  wire [N*P*FW-1:0] obs_flit;
  wire [N*P-1:0]    obs_credit;

  wc_hypercube #(
    .Dim          (Dim),
    .AllPort      (1),
    .BufferDepth  (Depth),
    .PayloadWidth (W),
    .InjectBug    (InjectBug)
  ) dut (
    .clk_i             (clk),
    .rst_ni            (rst_n),
    .inj_valid_i       (inj_valid),
    .inj_flit_i        (inj_flit),
    .inj_credit_o      (inj_credit),
    .ej_valid_o        (ej_valid),
    .ej_flit_o         (ej_flit),
    .ej_credit_i       (ej_credit),
    .obs_link_valid_o  (obs_valid),
    .obs_link_flit_o   (obs_flit),
    .obs_link_credit_o (obs_credit)
  );

  // ---------------------------------------------------------------------------
  // Clock, cycle counter, error counting.
  // ---------------------------------------------------------------------------
  integer cycle;
  integer errors;
  integer test_errors;

  initial begin
    clk = 1'b0;
    forever #5 clk = ~clk;
  end

  always @(posedge clk) begin
    if (rst_n) cycle <= cycle + 1;
  end

  task fail;
    input [8*64-1:0] what;
    begin
      $display("  ERROR cycle %0d: %0s", cycle, what);
      errors = errors + 1;
    end
  endtask

  // ---------------------------------------------------------------------------
  // Messages (scoreboard).
  // ---------------------------------------------------------------------------
  integer           n_msgs;
  reg   [FW-1:0]    msg_flit   [0:MaxM*MaxL-1];
  integer           msg_len    [0:MaxM-1];
  integer           msg_src    [0:MaxM-1];
  integer           msg_t0     [0:MaxM-1];   // injection cycle of the head, -1: untimed
  reg   [N-1:0]     msg_expect [0:MaxM-1];   // nodes that must receive it
  reg   [N-1:0]     msg_done   [0:MaxM-1];   // nodes that received the whole message
  reg   [N-1:0]     msg_seen   [0:MaxM-1];   // nodes that received its head
  integer           msg_hops_b [0:MaxM-1];   // 1 = B (arrival channel = lowest bit)
  integer           seq_ctr    [0:N-1];
  integer           id_of      [0:N*64-1];   // (source, seq) -> message id

  // Injection queues.
  reg   [FW-1:0]    q_flit [0:NCh*QD-1];
  integer           q_time [0:NCh*QD-1];
  integer           q_rd   [0:NCh-1];
  integer           q_wr   [0:NCh-1];
  integer           cred   [0:NCh-1];

  // Ejection-side state per channel: message in progress and next flit index.
  integer           rx_msg [0:NCh-1];
  integer           rx_pos [0:NCh-1];

  // Link observation log.
  integer           n_link_log;
  integer           link_log_cycle [0:1023];
  integer           link_log_idx   [0:1023];   // router n, port p: n*P + p
  reg   [FW-1:0]    link_log_flit  [0:1023];

  function integer popcount;
    input integer x;
    integer b;
    begin
      popcount = 0;
      for (b = 0; b < 12; b = b + 1) popcount = popcount + ((x >> b) & 1);
    end
  endfunction

  function integer lowest_bit;
    input integer x;
    integer b;
    begin
      lowest_bit = -1;
      for (b = 11; b >= 0; b = b - 1) if ((x >> b) & 1) lowest_bit = b;
    end
  endfunction

  function integer highest_bit;
    input integer x;
    integer b;
    begin
      highest_bit = -1;
      for (b = 0; b < 12; b = b + 1) if ((x >> b) & 1) highest_bit = b;
    end
  endfunction

  // Header payload (section 4): [0] type, [1] ir, [13:2] address, [25:14] source,
  // [W-1:26] seq.
  function [FW-1:0] make_head;
    input integer typ, ir, addr, src, seq, single;
    reg [W-1:0] pl;
    begin
      pl = 0;
      pl[0]     = typ[0];
      pl[1]     = ir[0];
      pl[13:2]  = addr[11:0];
      pl[25:14] = src[11:0];
      pl[W-1:26] = seq[W-27:0];
      make_head = {pl, (single != 0) ? KSingle : KHead};
    end
  endfunction

  // Queue one message on channel ch of node src, head offered from cycle t0 on.
  // typ 0 = R (addr = destination), 1 = B (addr = root = src). timed: check latency.
  task send;
    input integer src, ch, typ, ir, addr, len, t0, timed;
    integer m, k, c, t, hop_node, x;
    reg [W-1:0] data;
    begin
      m = n_msgs;
      n_msgs = n_msgs + 1;
      msg_len[m] = len;
      msg_src[m] = src;
      msg_t0[m]  = timed ? t0 : -1;
      msg_hops_b[m] = typ;
      msg_done[m] = 0;
      msg_seen[m] = 0;
      id_of[src*64 + seq_ctr[src]] = m;
      msg_flit[m*MaxL] = make_head(typ, ir, addr, src, seq_ctr[src], len == 1);
      for (k = 1; k < len; k = k + 1) begin
        data = {m[7:0], k[7:0], 16'hC0DE} ^ {src[7:0], 24'h5A3C96};
        msg_flit[m*MaxL + k] = {data, (k == len - 1) ? KTail : KBody};
      end
      seq_ctr[src] = seq_ctr[src] + 1;
      // Expected receivers.
      msg_expect[m] = 0;
      if (typ == 1) begin
        msg_expect[m] = ~(8'd1 << src);
      end else if (ir != 0) begin
        // Every router on the e-cube path after the source.
        hop_node = src;
        x = src ^ addr;
        while (x != 0) begin
          hop_node = hop_node ^ (1 << lowest_bit(x));
          x = x & (x - 1);
          msg_expect[m][hop_node] = 1'b1;
        end
      end else begin
        msg_expect[m][addr] = 1'b1;
      end
      // Enqueue.
      c = src*J + ch;
      for (k = 0; k < len; k = k + 1) begin
        t = q_wr[c];
        q_flit[c*QD + t] = msg_flit[m*MaxL + k];
        q_time[c*QD + t] = t0;
        q_wr[c] = t + 1;
      end
    end
  endtask

  // ---------------------------------------------------------------------------
  // NI injection side: at the falling edge of cycle c, offer the next flit if its time
  // has come and the channel has a credit (counter or a credit arriving this cycle).
  // ---------------------------------------------------------------------------
  integer ic;
  reg     have;
  always @(negedge clk) begin
    if (rst_n) begin
      for (ic = 0; ic < NCh; ic = ic + 1) begin
        have = (q_rd[ic] != q_wr[ic]) && (q_time[ic*QD + q_rd[ic]] <= cycle);
        if (have && (cred[ic] > 0 || inj_credit[ic])) begin
          inj_valid[ic] = 1'b1;
          inj_flit[ic*FW +: FW] = q_flit[ic*QD + q_rd[ic]];
          q_rd[ic] = q_rd[ic] + 1;
          cred[ic] = cred[ic] - 1 + inj_credit[ic];
        end else begin
          inj_valid[ic] = 1'b0;
          cred[ic] = cred[ic] + inj_credit[ic];
        end
        if (cred[ic] > Depth) fail("injection credit counter above BufferDepth");
      end
    end
  end

  // NI ejection side: a receive buffer of BufferDepth flits per channel, drained by a
  // sink at one flit per cycle (bypass when empty); the sink is always ready except
  // before stall_until[ch]. Each drained flit sets the credit register, so with a ready
  // sink the credit follows the ejected flit by one cycle.
  integer rb      [0:NCh-1];   // receive buffer occupancy
  integer stall_until [0:NCh-1];
  integer rc;
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      ej_credit <= {NCh{1'b0}};
    end else begin
      for (rc = 0; rc < NCh; rc = rc + 1) begin
        rb[rc] = rb[rc] + ej_valid[rc];
        if (rb[rc] > Depth) fail("NI receive buffer overflow (more flits than credits)");
        if (cycle >= stall_until[rc] && rb[rc] > 0) begin
          rb[rc] = rb[rc] - 1;
          ej_credit[rc] <= 1'b1;
        end else begin
          ej_credit[rc] <= 1'b0;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Ejection checker (falling edge, during cycle c).
  // ---------------------------------------------------------------------------
  integer      ec, en, ee, em, epos, eexp, esrc, eseq;
  reg [FW-1:0] ef;
  always @(negedge clk) begin
    if (rst_n) begin
      for (ec = 0; ec < NCh; ec = ec + 1) begin
        if (ej_valid[ec]) begin
          en = ec / J;
          ee = ec % J;
          ef = ej_flit[ec*FW +: FW];
          if (ef[0]) begin
            // Head: identify the message.
            if (rx_msg[ec] >= 0) fail("head while a message is in progress on the channel");
            esrc = ef[2+25:2+14];
            eseq = ef[FW-1:2+26];
            em   = id_of[esrc*64 + eseq];
            if (em < 0 || em >= n_msgs) begin
              fail("head of an unknown message");
              em = -1;
            end else begin
              if (!msg_expect[em][en]) fail("message delivered to a node that must not get it");
              if (msg_seen[em][en]) fail("message delivered twice to a node");
              msg_seen[em][en] = 1'b1;
              // Arrival channel = link input it came in on.
              eexp = msg_hops_b[em] ? lowest_bit(msg_src[em] ^ en)
                                    : highest_bit(msg_src[em] ^ en);
              if (ee != eexp) begin
                $display("  node %0d: head on ejection channel %0d, expected %0d", en, ee, eexp);
                fail("wrong ejection channel");
              end
              if (msg_t0[em] >= 0 && cycle != msg_t0[em] + popcount(msg_src[em] ^ en) + 1) begin
                $display("  node %0d: head at cycle %0d, expected %0d", en, cycle,
                         msg_t0[em] + popcount(msg_src[em] ^ en) + 1);
                fail("head latency");
              end
            end
            rx_msg[ec] = em;
            rx_pos[ec] = 0;
          end
          em = rx_msg[ec];
          epos = rx_pos[ec];
          if (em < 0) begin
            fail("flit on an ejection channel with no message in progress");
          end else begin
            if (ef !== msg_flit[em*MaxL + epos]) begin
              $display("  node %0d ch %0d: flit %0d = %h, expected %h", en, ee, epos, ef,
                       msg_flit[em*MaxL + epos]);
              fail("flit contents");
            end
            if (msg_t0[em] >= 0 &&
                cycle != msg_t0[em] + popcount(msg_src[em] ^ en) + 1 + epos) begin
              fail("flits not on consecutive cycles");
            end
            rx_pos[ec] = epos + 1;
            if (ef[1]) begin
              if (epos + 1 != msg_len[em]) fail("tail before the end of the message");
              msg_done[em][en] = 1'b1;
              rx_msg[ec] = -1;
            end
          end
        end
      end
    end
  end

  // Link observation log, and per-link flit / credit counts (router n port p at n*P + p:
  // flits sent by output p of n, credits sent by link input p of n).
  integer lc;
  integer link_flits [0:N*P-1];
  integer link_creds [0:N*P-1];
  always @(negedge clk) begin
    if (rst_n) begin
      for (lc = 0; lc < N*P; lc = lc + 1) begin
        link_flits[lc] = link_flits[lc] + obs_valid[lc];
        link_creds[lc] = link_creds[lc] + obs_credit[lc];
        if (obs_valid[lc] && n_link_log < 1024) begin
          link_log_cycle[n_link_log] = cycle;
          link_log_idx[n_link_log]   = lc;
          link_log_flit[n_link_log]  = obs_flit[lc*FW +: FW];
          n_link_log = n_link_log + 1;
        end
      end
    end
  end

  // Is there a link log entry for router node, port p at cycle cyc carrying flit f?
  function integer link_seen;
    input integer node, p, cyc;
    input [FW-1:0] f;
    integer k;
    begin
      link_seen = 0;
      for (k = 0; k < n_link_log; k = k + 1) begin
        if (link_log_cycle[k] == cyc && link_log_idx[k] == node*P + p && link_log_flit[k] == f)
          link_seen = 1;
      end
    end
  endfunction

  // ---------------------------------------------------------------------------
  // Test sequencing.
  // ---------------------------------------------------------------------------
  task wait_cycles;
    input integer k;
    integer i;
    begin
      for (i = 0; i < k; i = i + 1) @(negedge clk);
    end
  endtask

  // Start a test: clear the link log, remember the first message and error count.
  integer first_msg;
  task begin_test;
    begin
      first_msg   = n_msgs;
      test_errors = errors;
      n_link_log  = 0;
    end
  endtask

  // End a test: every expected delivery complete, queues empty, credits back.
  task end_test;
    input [8*80-1:0] name;
    integer m, c;
    begin
      for (m = first_msg; m < n_msgs; m = m + 1) begin
        if (msg_done[m] != msg_expect[m]) begin
          $display("  message %0d: delivered to %b, expected %b", m, msg_done[m], msg_expect[m]);
          fail("undelivered message");
        end
      end
      // Every flit sent on a link came back as a credit from the receiving input.
      for (c = 0; c < N*P; c = c + 1) begin
        if (link_flits[c] != link_creds[((c / P) ^ (1 << (c % P)))*P + (c % P)]) begin
          $display("  link %0d -> %0d: %0d flits, %0d credits", c / P,
                   (c / P) ^ (1 << (c % P)), link_flits[c],
                   link_creds[((c / P) ^ (1 << (c % P)))*P + (c % P)]);
          fail("link credits do not balance the flits sent");
        end
      end
      for (c = 0; c < NCh; c = c + 1) begin
        if (rb[c] != 0) fail("NI receive buffer not drained");
        if (q_rd[c] != q_wr[c]) fail("injection queue not empty");
        if (cred[c] != Depth) fail("NI credit counter not back at BufferDepth");
        if (rx_msg[c] >= 0) fail("ejection channel left in the middle of a message");
      end
      if (errors == test_errors) $display("PASS %0s", name);
      else                       $display("FAIL %0s (%0d errors)", name, errors - test_errors);
    end
  endtask

  integer i, n0, k;
  initial begin
    errors = 0;
    cycle = 0;
    n_msgs = 0;
    n_link_log = 0;
    inj_valid = {NCh{1'b0}};
    inj_flit  = {NCh*FW{1'b0}};
    for (i = 0; i < N; i = i + 1) seq_ctr[i] = 0;
    for (i = 0; i < N*64; i = i + 1) id_of[i] = -1;
    for (i = 0; i < NCh; i = i + 1) begin
      q_rd[i] = 0;
      q_wr[i] = 0;
      cred[i] = Depth;
      rx_msg[i] = -1;
      rx_pos[i] = 0;
      rb[i] = 0;
      stall_until[i] = 0;
    end
    for (i = 0; i < N*P; i = i + 1) begin
      link_flits[i] = 0;
      link_creds[i] = 0;
    end
    rst_n = 1'b0;
    #26;            // release reset after the rising edge at 25
    rst_n = 1'b1;   // cycle 0 is the period that ends with the rising edge at 35

    // (a) R unicast 0 -> 7, 5 flits, injection channel 0 (first hop port 0).
    begin_test;
    wait_cycles(3);
    n0 = cycle + 1;
    send(0, 0, 0, 0, 7, 5, n0, 1);
    wait_cycles(20);
    if (!link_seen(0, 0, n0 + 1, msg_flit[first_msg*MaxL])) fail("head not on link 0->1 at n+1");
    if (!link_seen(1, 1, n0 + 2, msg_flit[first_msg*MaxL])) fail("head not on link 1->3 at n+2");
    if (!link_seen(3, 2, n0 + 3, msg_flit[first_msg*MaxL])) fail("head not on link 3->7 at n+3");
    for (k = 1; k < 5; k = k + 1) begin
      if (!link_seen(3, 2, n0 + 3 + k, msg_flit[first_msg*MaxL + k]))
        fail("body / tail not on link 3->7 on consecutive cycles");
    end
    if (n_link_log != 15) fail("unexpected link traffic");
    end_test("(a) R unicast 0->7, 5 flits: head at node 7 ejection channel 2 at n+4");

    // (b) B from root 0, 4 flits, injection channel 0.
    begin_test;
    n0 = cycle + 1;
    send(0, 0, 1, 0, 0, 4, n0, 1);
    wait_cycles(20);
    if (!link_seen(0, 0, n0 + 1, msg_flit[first_msg*MaxL]) ||
        !link_seen(0, 1, n0 + 1, msg_flit[first_msg*MaxL]) ||
        !link_seen(0, 2, n0 + 1, msg_flit[first_msg*MaxL]))
      fail("root did not replicate onto all ports at n+1");
    if (n_link_log != 7*4) fail("unexpected link traffic (tree has 7 edges)");
    end_test("(b) B from root 0, 4 flits: all 7 nodes, node 7 head at n+4");

    // (c) R with ir = 1, 0 -> 7, 3 flits.
    begin_test;
    n0 = cycle + 1;
    send(0, 0, 0, 1, 7, 3, n0, 1);
    wait_cycles(20);
    end_test("(c) R+IR 0->7, 3 flits: delivered at 1 (n+2), 3 (n+3), 7 (n+4)");

    // (d) contention: all nodes at once, two messages each on channel 0.
    begin_test;
    n0 = cycle + 1;
    for (i = 0; i < N; i = i + 1) begin
      send(i, 0, 0, 0, i ^ 7, 6, n0, 0);
      send(i, 0, 0, (i == 2) ? 1 : 0, i ^ 5, 2, n0, 0);
    end
    send(0, 1, 0, 0, 6, 1, n0, 0);
    wait_cycles(80);
    end_test("(d) contention: 17 unicasts incl. SINGLE and IR, contents and exactly-once");

    // (e) SINGLE-flit B from root 5.
    begin_test;
    n0 = cycle + 1;
    send(5, 0, 1, 0, 5, 1, n0, 1);
    wait_cycles(20);
    end_test("(e) SINGLE-flit B from root 5");

    // (f) back-pressure: node 7's sink on ejection channel 2 stalls for 30 cycles while
    // two 6-flit unicasts 0 -> 7 and one 5-flit unicast 1 -> 7 (both arrive on link
    // input 2 of node 7) fill the buffers along the path.
    begin_test;
    n0 = cycle + 1;
    stall_until[7*J + 2] = n0 + 30;
    send(0, 0, 0, 0, 7, 6, n0, 0);
    send(0, 0, 0, 0, 7, 6, n0, 0);
    send(1, 1, 0, 0, 7, 5, n0, 0);
    wait_cycles(80);
    end_test("(f) back-pressure: stalled sink, buffers fill, nothing lost or duplicated");

    if (errors == 0) $display("TB RESULT: PASS");
    else             $display("TB RESULT: FAIL (%0d errors)", errors);
    $finish;
  end

endmodule
