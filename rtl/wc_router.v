// wc_router -- the wormcast enhanced all-port wormhole router (one node, no NI).
//
// Implements docs/microarchitecture.md, sections 3 to 8, cycle for cycle:
// per-input FIFOs with bypass, route computation, all-or-nothing allocation with a
// rotating priority, lockstep replication (MR), output registers, credit counters.
// Per-hop latency is one cycle: link input -> route -> allocation -> crossbar -> output
// register. Every output of the module comes straight from a register.
//
// Replication cost (section 7, steps 5 and 12). With ReplicationCost = T_r > 0, a
// broadcast head granted a set that holds a link output does not move in the cycle of
// its grant nor in the T_r - 1 cycles after it (a down-counter hold_q per input, loaded
// at the grant); its outputs stay owned meanwhile. With ReplicationCost = 0 (the
// default) the counter and its logic are not generated.
//
// Port numbering (section 3). P external ports (P = Dim on the hypercube, 4 on the mesh:
// E=0, W=1, N=2, S=3), J injection and E ejection channels (J = E = P all-port, 1
// one-port). Router input ports 0..P-1 are the link inputs, P..P+J-1 the injection
// channels; output ports 0..P-1 are the link outputs, P..P+E-1 the ejection channels.
// All vectors are flattened: port k of a group occupies bits [k*FW +: FW] of a flit
// vector and bit k of a valid / credit vector, FW = PayloadWidth + 2.
//
// Every channel uses the valid / flit / credit handshake of section 5:
//   valid  the sender's output register holds a flit for the receiver this cycle;
//   flit   the flit (holds its last value while valid = 0);
//   credit driven by the receiver's register: one buffer slot of that input was freed
//          in the previous cycle. The sender starts with BufferDepth credits and may
//          use a credit in the cycle it arrives.
//
// Ports:
//   clk_i           clock, rising edge.
//   rst_ni          asynchronous active-low reset (section 6 reset state).
//   node_id_i       this router's node index (12 bits); constant in a network.
//   link_valid_i    [P]     valid of the link into input port i (from the neighbour's
//                           output register).
//   link_flit_i     [P*FW]  flit of the link into input port i.
//   link_credit_o   [P]     credit_out_q of link input i, back to the neighbour.
//   link_valid_o    [P]     out_valid_q of link output i, to the neighbour.
//   link_flit_o     [P*FW]  out_flit_q of link output i.
//   link_credit_i   [P]     credit returned by the neighbour for link output i.
//   inj_valid_i     [J]     valid of injection channel j (driven by the NI).
//   inj_flit_i      [J*FW]  flit of injection channel j.
//   inj_credit_o    [J]     credit_out_q of input P+j, back to the NI.
//   ej_valid_o      [E]     out_valid_q of output P+e, to the NI.
//   ej_flit_o       [E*FW]  out_flit_q of output P+e.
//   ej_credit_i     [E]     credit returned by the NI for ejection channel e.
//
// Structure. The per-input blocks (FIFO storage, route computation) are generate
// instances; what couples the ports (allocation, move, next route, crossbar control)
// is a few combinational processes that walk the ports in loops with constant bounds,
// so every part-select has a constant offset once the loops are unrolled. The shape is
// chosen for simulation speed as much as for synthesis (docs/performance.md, "RTL
// simulation speed"): a cycle-based simulator such as Verilator re-evaluates all
// combinational logic that depends on an input each time the model is evaluated --
// twice per clock cycle -- and once more after the clock edge, while a register's
// update runs once per edge. So:
//   - the combinational part works on narrow per-port control bits and masks, and
//     skips idle inputs (a process guards the per-input work by "has a flit and a
//     route", the allocation by "some head is waiting");
//   - the wide flits are only selected at the input of the output registers, which
//     load on a send (xbar_sel says from which input), and only the low 16 bits of a
//     head-of-line flit (kind and routing fields) go through the combinational path;
//   - FIFO pointers and counts and the credit counters are counters with load
//     enables, updated only when they change.
//
// InjectBug (deliberate faults for the cosimulation's self-test; 0 = correct router):
//   1  wrong routing bit (wc_route: R in the other dimension order than RouteOrder)
//   2  lost credit: the first credit of link input 0 is never sent
//   3  one replication branch missing (wc_route: B mask drops its lowest link)
//   4  IR not delivering at intermediate routers (wc_route)
//   5  credit counters reset to BufferDepth + 1 (a downstream FIFO gets one flit too many)
//   6  output released before the tail: an input whose head of line is a tail no longer
//      counts as owning its outputs in the allocation, so another head can be granted
//      them while (or before) the tail crosses.
//   7  replication hold one cycle too long: hold_q is loaded with ReplicationCost
//      instead of ReplicationCost - 1, so a replicating head waits T_r + 1 cycles
//      (no effect with ReplicationCost = 0).
// Faults 8 to 11 change internal state first: 8 and 9 never reach an output, 10 and
// 11 only later (or not at all). Only the comparison of every register (section 11)
// catches them where they happen; they show that it does.
//   8  a mesh border input's tie-off is lost: an input port without a neighbour takes
//      its idle link (valid 1, flit 0: a BODY flit) into its FIFO every cycle until
//      the FIFO is full. A body flit with no message in progress never moves, so
//      nothing leaves that input (mesh only).
//   9  the credit counter of a mesh output without a neighbour counts the flits sent
//      on the opposite output (E <-> W, N <-> S) and wraps below zero; route() never
//      selects that output, so its credits are never used (mesh only).
//   10 rr_q wraps one early, at NIn - 2: input NIn - 1 never has the first priority,
//      which changes a grant only when heads compete for an output.
//   11 a flit stored behind another one in a FIFO (pushed while the FIFO is not
//      empty) has its top payload bit flipped; the output sees it only when the
//      flit leaves, cycles later.
//   12 TreeOrder ignored (wc_route: the B tree of the topology's default order; no effect
//      with the default TreeOrder).
//   13 the path broadcast (B with ir) takes a wrong position on its path (wc_route: on the
//      hypercube no Gray decoding, on the mesh every row eastwards), so it leaves the
//      Hamiltonian path; no effect on other messages.
// Faults in the virtual channels (section 12; rings and tori, NumVcs > 1):
//   14 no dateline (wc_route): every hop in class 0.
//   15 switch allocation lets two VCs send on the same link in one cycle (the later
//      input in the scan loads the link's register; both move).
//   16 out_vc_q is never loaded: a flit goes out in the class of the link's last flit.

`include "wc_assert.vh"
`include "wc_defs.vh"

module wc_router #(
  // 0 = hypercube Q_Dim, 1 = Rows x Cols mesh, 2 = ring of Cols nodes (Rows = 1),
  // 3 = Rows x Cols torus (section 12)
  parameter integer Topology     = 0,
  parameter integer Dim          = 3,  // hypercube dimension (Topology 0), 1..12
  parameter integer Rows         = 4,  // mesh / torus rows (Topology 1, 3), 1..64; ring: 1
  parameter integer Cols         = 4,  // mesh / torus columns, 1..64; ring: nodes, 2..4096
  parameter integer AllPort      = 1,  // 1 = all-port (J = P, E = P*V), 0 = one-port (J = E = 1)
  parameter integer BufferDepth  = 4,  // flits per input FIFO (per VC) and initial credits, 2..64
  parameter integer PayloadWidth = 32, // payload bits per flit W, 32..62
  // T_r: cycles a replicating broadcast head is held (section 7, step 5), 0..255
  parameter integer ReplicationCost = 0,
  parameter integer RouteOrder   = 0,  // R routing (section 8): 0 ascending (e-cube, XY), 1 descending
  // B replication tree: 0 ascending (mesh: row first), 1 descending (hypercube: Algorithm B)
  parameter integer TreeOrder    = (Topology == 0) ? 1 : 0,
  // V, virtual channels per link (section 12): 1 on Topology 0 and 1; 2 or 3 on rings and tori
  parameter integer NumVcs       = 1,
  parameter integer InjectBug    = 0   // deliberate fault, see above; 0 = correct router
) (
  input                                                   clk_i,
  input                                                   rst_ni,
  input  [`WC_FLIT_ADDR_BITS-1:0]                         node_id_i,
  // Link inputs.
  input  [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)-1:0]                link_valid_i,
  input  [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*((NumVcs > 1) ? $clog2(NumVcs) : 1)-1:0] link_vc_i,
  input  [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*(PayloadWidth+2)-1:0] link_flit_i,
  output [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*NumVcs-1:0]         link_credit_o,
  // Link outputs.
  output [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)-1:0]                link_valid_o,
  output [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*((NumVcs > 1) ? $clog2(NumVcs) : 1)-1:0] link_vc_o,
  output [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*(PayloadWidth+2)-1:0] link_flit_o,
  input  [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*NumVcs-1:0]         link_credit_i,
  // Injection channels (NI -> router).
  input  [((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) : 1)-1:0] inj_valid_i,
  input  [((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) : 1)*(PayloadWidth+2)-1:0]
                                                          inj_flit_i,
  output [((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) : 1)-1:0] inj_credit_o,
  // Ejection channels (router -> NI).
  output [((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*NumVcs : 1)-1:0] ej_valid_o,
  output [((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*NumVcs : 1)*(PayloadWidth+2)-1:0]
                                                          ej_flit_o,
  input  [((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4)*NumVcs : 1)-1:0] ej_credit_i
);

  localparam integer P    = ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4);
  localparam integer V    = NumVcs;
  localparam integer VcW  = (V > 1) ? $clog2(V) : 1;  // a link's vc (unused when V = 1)
  localparam integer PV   = P * V;                    // virtual link ports (section 12)
  localparam integer J    = (AllPort != 0) ? P : 1;
  localparam integer E    = (AllPort != 0) ? PV : 1;
  localparam integer NIn  = PV + J;                   // virtual inputs
  localparam integer NOut = PV + E;                   // virtual outputs
  localparam integer NPhy = P + E;                    // output registers: links, ejection
  localparam integer FW   = PayloadWidth + 2;
  // head bits route() reads: the routing fields, on rings and tori with the source
  localparam integer RtW  = (Topology >= 2) ? `WC_FLIT_SOURCE_MSB + 1 : `WC_FLIT_ROUTE_BITS;
  localparam integer RrW  = $clog2(NIn);  // rr_q
  localparam integer SelW = $clog2(NIn);  // an input index in xbar_sel
  localparam integer CredMax = (InjectBug == 5) ? BufferDepth + 1 : BufferDepth;
  localparam integer CredW   = $clog2(CredMax + 1);

  // The last value of rr_q (InjectBug 10: one too early).
  localparam integer     NInM1     = (InjectBug == 10) ? NIn - 2 : NIn - 1;
  localparam [RrW-1:0]   RrLast    = NInM1[RrW-1:0];
  localparam [CredW-1:0] CredReset = CredMax[CredW-1:0];

  // ---------------------------------------------------------------------------
  // Registers (section 6). The FIFOs are in the wc_fifo instances. The metacomments
  // let the simulation harness read them by name (the deadlock report and the
  // register comparison, cosim/vl_state.h); they change no logic.
  // ---------------------------------------------------------------------------
  reg  [NIn*NOut-1:0]   route_q      /* verilator public_flat_rd */;
  reg  [NIn*NOut-1:0]   route_d;
  reg  [NIn-1:0]        credit_out_q /* verilator public_flat_rd */;
  wire [NIn-1:0]        credit_out_d;
  reg  [NPhy-1:0]       out_valid_q  /* verilator public_flat_rd */;
  reg  [NPhy-1:0]       out_valid_d;
  reg  [NPhy*FW-1:0]    out_flit_q   /* verilator public_flat_rd */;
  reg  [NOut*CredW-1:0] credits_q    /* verilator public_flat_rd */;
  reg  [RrW-1:0]        rr_q         /* verilator public_flat_rd */;
  wire [RrW-1:0]        rr_d;

  wire [NIn-1:0]  in_valid;
  wire [NOut-1:0] credit_in = {ej_credit_i, link_credit_i};
  // The flits sent per virtual output (with V = 1, out_valid_d).
  reg  [NOut-1:0] vout_sent;
  // out_valid_d as the credit counters count it (InjectBug 9 miscounts).
  wire [NOut-1:0] cred_sent;

  // InjectBug 8 and 9: the mesh ports without a neighbour (section 2), E, W, N, S.
  generate
    if (Topology == 1 && (InjectBug == 8 || InjectBug == 9)) begin : gen_bug_border
      localparam [11:0] ColsW   = Cols[11:0];
      localparam integer RowsM1 = Rows - 1;
      localparam integer ColsM1 = Cols - 1;
      localparam [11:0] LastRow = RowsM1[11:0];
      localparam [11:0] LastCol = ColsM1[11:0];
      wire [11:0] my_r = node_id_i / ColsW;
      wire [11:0] my_c = node_id_i % ColsW;
      wire [3:0]  missing = {my_r == LastRow, my_r == 12'd0, my_c == 12'd0, my_c == LastCol};
      wire unused_vc = ^{link_vc_i, vout_sent};
      if (InjectBug == 8) begin : gen_bug_tie_off
        assign in_valid  = {inj_valid_i, link_valid_i | missing};
        assign cred_sent = out_valid_d;
      end else begin : gen_bug_border_credit
        assign in_valid  = {inj_valid_i, link_valid_i};
        // E <-> W and N <-> S: output o ^ 1.
        assign cred_sent = {out_valid_d[NOut-1:4],
                            (missing & {out_valid_d[2], out_valid_d[3], out_valid_d[0], out_valid_d[1]}) |
                            (~missing & out_valid_d[3:0])};
      end
    end else if (V == 1) begin : gen_ports
      assign in_valid  = {inj_valid_i, link_valid_i};
      assign cred_sent = out_valid_d;
      wire unused_vc = ^{link_vc_i, vout_sent};
    end else begin : gen_vc_ports
      // Section 12: link input p carries a flit of class link_vc_i[p] into virtual
      // input p*V + class.
      genvar gk;
      for (gk = 0; gk < PV; gk = gk + 1) begin : gen_vin
        localparam integer   ClsI = gk % V;
        localparam [VcW-1:0] Cls  = ClsI[VcW-1:0];
        assign in_valid[gk] = link_valid_i[gk / V] & (link_vc_i[(gk / V)*VcW +: VcW] == Cls);
      end
      assign in_valid[NIn-1:PV] = inj_valid_i;
      assign cred_sent = vout_sent;
    end
  endgenerate

  // Per input, bit (or slice) i for input i. The FIFO outputs are functions of the
  // registers only.
  wire [NIn-1:0]      fifo_nonempty;  // count[i] > 0
  wire [NIn-1:0]      fifo_full;      // count[i] == BufferDepth
  wire [NIn*FW-1:0]   fifo_head;      // fifo[i][rd_ptr]
  wire [NIn*FW-1:0]   in_flits;       // in_flit[i]: the flit on input i's link or channel
  wire [NIn-1:0]      hol_tail;       // is_tail(hol_flit[i])
  wire [NIn-1:0]      hol_b;          // hdr_type(hol_flit[i]) == B (meaningful for a head)
  wire [NIn*NOut-1:0] route_mask;     // route(hol_flit[i], i); zero unless a head
  wire [NIn-1:0]      owns;           // input i's route_q counts as taken (step 4)
  reg  [NIn-1:0]      move;           // step 6

  // Step 1, valid part: an empty FIFO is bypassed.
  wire [NIn-1:0] hol_valid = fifo_nonempty | in_valid;
  // Step 10: pop a buffered head that moves; push an arriving flit unless it was
  // bypassed (moved while the FIFO was empty). A push into a full FIFO is dropped: it
  // only happens with InjectBug 5.
  wire [NIn-1:0] fifo_pop  = fifo_nonempty & move;
  wire [NIn-1:0] fifo_push = in_valid & ~(~fifo_nonempty & move) & ~fifo_full;

  // ---------------------------------------------------------------------------
  // Per input: FIFO, head-of-line flit (step 1) and route computation (step 3).
  // ---------------------------------------------------------------------------
  genvar gi;
  generate
    for (gi = 0; gi < NIn; gi = gi + 1) begin : gen_input
      localparam [4:0] PortIdx = gi;

      wire [FW-1:0]   in_flit;
      wire            nonempty;
      wire [FW-1:0]   head;
      wire [RtW-1:0]  hol_lo;  // hol_flit[RtW-1:0]: the kind and the routing fields
      wire [NOut-1:0] route_raw;

      // The input's own slice of the link or injection port.
      if (gi < PV) begin : gen_link_in
        assign in_flit = link_flit_i[(gi/V)*FW +: FW];
      end else begin : gen_inj_in
        assign in_flit = inj_flit_i[(gi-PV)*FW +: FW];
      end

      assign in_flits[gi*FW +: FW] = in_flit;

      // What the FIFO stores (InjectBug 11: the top bit of a flit stored behind
      // another one flipped).
      wire [FW-1:0] stored;
      if (InjectBug == 11) begin : gen_bug_stored_flip
        assign stored = in_flit ^ {fifo_nonempty[gi], {FW-1{1'b0}}};
      end else begin : gen_stored
        assign stored = in_flit;
      end

      wc_fifo #(
        .Depth (BufferDepth),
        .Width (FW)
      ) u_fifo (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .push_i     (fifo_push[gi]),
        .data_i     (stored),
        .pop_i      (fifo_pop[gi]),
        .nonempty_o (nonempty),
        .full_o     (fifo_full[gi]),
        .head_o     (head)
      );
      assign fifo_nonempty[gi]      = nonempty;
      assign fifo_head[gi*FW +: FW] = head;

      // Step 1, flit part. Only the low bits are needed before the clock edge (route,
      // tail); the whole flit is selected at the output register (step 7 below).
      assign hol_lo       = nonempty ? head[RtW-1:0] : in_flit[RtW-1:0];
      assign hol_tail[gi] = hol_lo[`WC_FLIT_TAIL_BIT];
      assign hol_b[gi]    = hol_lo[`WC_FLIT_TYPE_BIT];  // `WC_HDR_TYPE_B (1) = B

      wc_route #(
        .Topology     (Topology),
        .Dim          (Dim),
        .Rows         (Rows),
        .Cols         (Cols),
        .AllPort      (AllPort),
        .RouteOrder   (RouteOrder),
        .TreeOrder    (TreeOrder),
        .NumVcs       (NumVcs),
        .InjectBug    (InjectBug)
      ) u_route (
        .node_id_i (node_id_i),
        .in_port_i (PortIdx),
        .flit_lo_i (hol_lo),
        .route_o   (route_raw)
      );

      // route() never selects an output outside poss_mask(gi); saying so lets synthesis
      // drop the constant-zero route_q bits and crossbar paths.
      assign route_mask[gi*NOut +: NOut] = route_raw & poss_mask(gi);

      if (InjectBug == 6) begin : gen_bug_early_release
        // Fault: an input whose head of line is its tail no longer holds its outputs.
        assign owns[gi] = ~(hol_valid[gi] & hol_tail[gi]);
      end else begin : gen_hold_to_tail
        assign owns[gi] = 1'b1;
      end
    end
  endgenerate

  // poss_out(i, o): route() can select output o for input i: every link, plus the paired
  // ejection channel (all-port) or the single one (one-port) for a link input.
  // poss_mask(i): the same as a mask. Both are only called with constants (genvars and
  // unrolled loop indices), so they are constants.
  function automatic poss_out;
    input integer in_idx;
    input integer out_idx;
    begin
      poss_out = (out_idx < PV) ||
                 (in_idx < PV && out_idx == PV + ((AllPort != 0) ? in_idx : 0));
    end
  endfunction

  function automatic [NOut-1:0] poss_mask;
    input integer in_idx;
    integer ob;
    begin
      for (ob = 0; ob < NOut; ob = ob + 1) begin
        poss_mask[ob] = poss_out(in_idx, ob);
      end
    end
  endfunction

  // ---------------------------------------------------------------------------
  // Steps 2 to 9. Idle inputs, most of them at any load, cost a simulator a test each
  // (see the header); in hardware the guards are ordinary muxes.
  // ---------------------------------------------------------------------------
  reg  [NOut-1:0] cred_avail;  // credits_q[o] > 0
  reg  [NOut-1:0] held;        // OR of route_q[j] over the inputs that own theirs
  reg  [NIn-1:0]  route_idle;  // route_q[i] == 0: no message in progress at input i
  wire [NIn-1:0]  first_pass = {NIn{1'b1}} << rr_q;  // inputs rr_q..NIn-1, see step 4
  integer         ci, co;

  // Functions of the registers alone.
  always @* begin
    for (co = 0; co < NOut; co = co + 1) begin
      cred_avail[co] = (credits_q[co*CredW +: CredW] != {CredW{1'b0}});
    end
    for (ci = 0; ci < NIn; ci = ci + 1) begin
      route_idle[ci] = (route_q[ci*NOut +: NOut] == {NOut{1'b0}});
    end
  end

  // Step 4's starting point: the outputs owned by messages in progress. Also a function
  // of the registers alone, except with InjectBug 6.
  integer hi;
  always @* begin
    held = {NOut{1'b0}};
    for (hi = 0; hi < NIn; hi = hi + 1) begin
      if (owns[hi]) begin
        held = held | route_q[hi*NOut +: NOut];
      end
    end
  end

  // Step 2: a credit arriving this cycle is usable this cycle.
  wire [NOut-1:0] ready = cred_avail | credit_in;

  // Step 3: a valid head of line (route_mask is zero for non-heads) with no route in
  // progress requests its route. A stale flit held on a link while its valid is 0 is
  // not a head waiting.
  reg [NIn*NOut-1:0] req;
  integer            ri;
  always @* begin
    req = {NIn*NOut{1'b0}};
    for (ri = 0; ri < NIn; ri = ri + 1) begin
      if (hol_valid[ri] && route_idle[ri]) begin
        req[ri*NOut +: NOut] = route_mask[ri*NOut +: NOut];
      end
    end
  end

  // Step 4: all-or-nothing allocation, greedy in the order rr_q, rr_q+1, ... (mod NIn).
  // Instead of rotating the requests by rr_q and the grants back, the walk makes two
  // passes over the inputs in fixed order: the first admits the inputs i >= rr_q
  // (first_pass[i] set), the second the others; that is the same order, with constant
  // indices only. Most cycles no head is waiting and there is nothing to walk.
  reg [NIn-1:0] grant;
  /* verilator tracing_off */
  reg [NOut-1:0] taken;  // outputs held or granted so far in the walk
  reg [NOut-1:0] req_a;  // req of the input visited
  integer        ai, apass;
  /* verilator tracing_on */
  always @* begin
    grant = {NIn{1'b0}};
    taken = held;
    req_a = {NOut{1'b0}};
    if (req != {NIn*NOut{1'b0}}) begin
      for (apass = 0; apass < 2; apass = apass + 1) begin
        for (ai = 0; ai < NIn; ai = ai + 1) begin
          req_a = req[ai*NOut +: NOut];
          if ((first_pass[ai] == (apass == 0)) && req_a != {NOut{1'b0}} &&
              (req_a & taken) == {NOut{1'b0}}) begin
            grant[ai] = 1'b1;
            taken     = taken | req_a;
          end
        end
      end
    end
  end

  // Steps 5 and 12: the replication hold. hold[i]: input i may not move this cycle.
  wire [NIn-1:0] hold;
`ifdef FORMAL
`include "wc_formal.vh"
  wire [NIn-1:0] f_hold_bad;  // hold_q[i] out of its range (the properties at the end)
`endif
  generate
    if (ReplicationCost > 0) begin : gen_hold
      localparam integer HoldW = $clog2(ReplicationCost + 1);
      // Cycles still to wait after the grant cycle (InjectBug 7: one too many).
      localparam integer HoldCycles = (InjectBug == 7) ? ReplicationCost : ReplicationCost - 1;
      localparam [HoldW-1:0] HoldLoad = HoldCycles[HoldW-1:0];
      genvar gh;
      for (gh = 0; gh < NIn; gh = gh + 1) begin : gen_input_hold
        reg  [HoldW-1:0] hold_q /* verilator public_flat_rd */;
        // A broadcast head granted now with a link output: the router replicates and
        // forwards it, and holds it from this cycle on.
        wire             charge = grant[gh] & hol_b[gh] & (|req[gh*NOut +: PV]);
        wire             counting = (hold_q != {HoldW{1'b0}});
        wire [HoldW-1:0] hold_d = charge   ? HoldLoad :
                                  counting ? hold_q - 1'b1 : {HoldW{1'b0}};
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            hold_q <= {HoldW{1'b0}};
          end else begin
            hold_q <= hold_d;
          end
        end
        assign hold[gh] = charge | counting;
`ifdef FORMAL
        // Section 6: hold_q is 0..T_r-1.
        localparam integer     FHoldMaxI = ReplicationCost - 1;
        localparam [HoldW-1:0] FHoldMax  = FHoldMaxI[HoldW-1:0];
        assign f_hold_bad[gh] = (hold_q > FHoldMax);
`endif
      end
    end else begin : gen_no_hold
      assign hold = {NIn{1'b0}};
`ifdef FORMAL
      assign f_hold_bad = {NIn{1'b0}};
`endif
      // Without a replication cost the header type plays no part here.
      wire unused_hol_b = ^hol_b;
    end
  endgenerate

  // Steps 5, 6, 9 and the control of step 7, input by input: the current route, the
  // move, the next route and, per output, the input whose flit it loads (xbar_sel). At
  // most one input owns an output (with InjectBug 6 the last one wins).
  reg [NPhy*SelW-1:0] xbar_sel;
  /* verilator tracing_off */
  reg [NOut-1:0]      cur_m;  // step 5 for the input visited
  integer             mi, mo;
  /* verilator tracing_on */
  // Only an input with a flit and a route (in progress, or granted now) can move or
  // change its route; for the others route_d = route_q and move = 0.
  wire [NIn-1:0] busy = hol_valid & (~route_idle | grant);
  generate
    if (V == 1) begin : gen_move
      always @* begin
        move        = {NIn{1'b0}};
        route_d     = route_q;
        out_valid_d = {NOut{1'b0}};
        xbar_sel    = {NOut*SelW{1'b0}};
        cur_m       = {NOut{1'b0}};
        vout_sent   = {NOut{1'b0}};
        for (mi = 0; mi < NIn; mi = mi + 1) begin
          if (busy[mi]) begin
            // Step 5.
            cur_m = route_q[mi*NOut +: NOut] | (grant[mi] ? req[mi*NOut +: NOut] : {NOut{1'b0}});
            route_d[mi*NOut +: NOut] = cur_m;
            // Step 6: leave once towards all outputs of the message, or not at all, and
            // not during a replication hold.
            if ((cur_m & ~ready) == {NOut{1'b0}} && !hold[mi]) begin
              move[mi]    = 1'b1;
              out_valid_d = out_valid_d | cur_m;
              vout_sent   = vout_sent | cur_m;
              // Step 9: the tail releases the route.
              if (hol_tail[mi]) begin
                route_d[mi*NOut +: NOut] = {NOut{1'b0}};
              end
              // Step 7, control: the outputs route() can give this input (poss_out is a
              // constant here) load its flit.
              for (mo = 0; mo < NOut; mo = mo + 1) begin
                if (poss_out(mi, mo) && cur_m[mo]) begin
                  xbar_sel[mo*SelW +: SelW] = mi[SelW-1:0];
                end
              end
            end
          end
        end
      end
    end else begin : gen_move_vc
      // Section 12, step 6b: switch allocation. The eligible inputs, visited from
      // sw_rr_q on (two passes in fixed order, as in step 4), each move if none of their
      // links is used yet this cycle; the first one that loses a link is visited first
      // in the next cycle.
      reg  [RrW-1:0]  sw_rr_q /* verilator public_flat_rd */;
      reg  [RrW-1:0]  sw_rr_d;
      reg  [P*VcW-1:0] out_vc_q /* verilator public_flat_rd */;
      reg  [P*VcW-1:0] out_vc_d;
      wire [NIn-1:0]  sw_first = {NIn{1'b0}} | ({NIn{1'b1}} << sw_rr_q);
      // The walk in three processes: the first decides which inputs move (sw_go) and
      // where the next walk starts (sw_rr_d), with no branch on the links taken so far;
      // the other two do what the moves imply, without a branch on anything but
      // constants. As one process with such branches (the same logic) Yosys 0.23's
      // proc_dlatch took 28 s on a one-port ring node with V = 2 and did not finish in
      // 27 min on an 8 x 8 torus node; so it takes seconds.
      reg  [NIn-1:0]  sw_go;  // input i moves this cycle
      // Step 5 of every input, for both: a branch on a variable that an earlier
      // iteration of the loop may have set (cur_m, used) is what proc_dlatch cannot cope
      // with.
      wire [NIn*NOut-1:0] sw_step5;
      genvar gw;
      for (gw = 0; gw < NIn; gw = gw + 1) begin : gen_step5
        assign sw_step5[gw*NOut +: NOut] = route_q[gw*NOut +: NOut] |
                                           (grant[gw] ? req[gw*NOut +: NOut] : {NOut{1'b0}});
      end
      /* verilator tracing_off */
      reg  [P-1:0]    used;   // links taken by the inputs that moved so far
      reg  [P-1:0]    lk;     // the links of the input visited
      reg             lost;   // some eligible input lost a link
      reg             can;    // the input visited (busy, in its pass) has its outputs
                              // ready and no replication hold
      reg             lose;   // ... and one of its links is taken (InjectBug 15: never)
      reg  [NOut-1:0] sw_cur; // step 5 for the input visited
      reg             hit;    // the input visited moves and loads the output visited
      integer         wpass, wi, so, spass, vi;
      /* verilator tracing_on */
      always @* begin
        sw_go   = {NIn{1'b0}};
        sw_rr_d = sw_rr_q;
        sw_cur  = {NOut{1'b0}};
        used    = {P{1'b0}};
        lk      = {P{1'b0}};
        lost    = 1'b0;
        can     = 1'b0;
        lose    = 1'b0;
        for (wpass = 0; wpass < 2; wpass = wpass + 1) begin
          for (wi = 0; wi < NIn; wi = wi + 1) begin
            if (busy[wi] && (sw_first[wi] == (wpass == 0))) begin
              sw_cur = sw_step5[wi*NOut +: NOut];
              for (so = 0; so < P; so = so + 1) begin
                lk[so] = |sw_cur[so*V +: V];
              end
              can     = (sw_cur & ~ready) == {NOut{1'b0}} && !hold[wi];
              // InjectBug 15: a link taken by two VCs in one cycle.
              lose    = can && (lk & used) != {P{1'b0}} && InjectBug != 15;
              sw_rr_d = (lose && !lost) ? wi[RrW-1:0] : sw_rr_d;
              lost    = lost | lose;
              used    = used | (lk & {P{can && !lose}});
              sw_go[wi] = can && !lose;
            end
          end
        end
      end
      // Steps 5, 6 and 9 per input: independent of the other inputs.
      always @* begin
        move      = {NIn{1'b0}};
        route_d   = route_q;
        cur_m     = {NOut{1'b0}};
        vout_sent = {NOut{1'b0}};
        for (vi = 0; vi < NIn; vi = vi + 1) begin
          cur_m     = sw_step5[vi*NOut +: NOut];
          move[vi]  = sw_go[vi];
          vout_sent = vout_sent | (cur_m & {NOut{sw_go[vi]}});
          // Step 9: the tail releases the route.
          route_d[vi*NOut +: NOut] = !busy[vi] ? route_q[vi*NOut +: NOut] :
                                     (sw_go[vi] && hol_tail[vi]) ? {NOut{1'b0}} : cur_m;
        end
      end
      // Step 7, control, in the walk's order (with InjectBug 15 two inputs can load one
      // link; the later one in the walk wins): the outputs route() can give an input
      // (poss_out is a constant here) load its flit.
      always @* begin
        out_valid_d = {NPhy{1'b0}};
        xbar_sel    = {NPhy*SelW{1'b0}};
        out_vc_d    = out_vc_q;
        hit         = 1'b0;
        for (spass = 0; spass < 2; spass = spass + 1) begin
          for (mi = 0; mi < NIn; mi = mi + 1) begin
            for (mo = 0; mo < NOut; mo = mo + 1) begin
              if (poss_out(mi, mo)) begin
                hit = sw_go[mi] && (sw_first[mi] == (spass == 0)) && sw_step5[mi*NOut + mo];
                if (mo < PV) begin
                  out_valid_d[mo / V] = out_valid_d[mo / V] | hit;
                  xbar_sel[(mo / V)*SelW +: SelW] = hit ? mi[SelW-1:0] :
                                                    xbar_sel[(mo / V)*SelW +: SelW];
                  // InjectBug 16: the link keeps the class of its last flit.
                  if (InjectBug != 16) begin
                    out_vc_d[(mo / V)*VcW +: VcW] = hit ? vc_of(mo) :
                                                    out_vc_d[(mo / V)*VcW +: VcW];
                  end
                end else begin
                  out_valid_d[mo - PV + P] = out_valid_d[mo - PV + P] | hit;
                  xbar_sel[(mo - PV + P)*SelW +: SelW] = hit ? mi[SelW-1:0] :
                                                         xbar_sel[(mo - PV + P)*SelW +: SelW];
                end
              end
            end
          end
        end
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          sw_rr_q  <= {RrW{1'b0}};
          out_vc_q <= {P*VcW{1'b0}};
        end else begin
          sw_rr_q  <= sw_rr_d;
          out_vc_q <= out_vc_d;
        end
      end
      assign link_vc_o = out_vc_q;
    end
  endgenerate

  // The class of virtual link output o (a constant where it is called).
  function automatic [VcW-1:0] vc_of;
    input integer o;
    integer k;
    begin
      vc_of = {VcW{1'b0}};
      for (k = 0; k < V; k = k + 1) begin
        if (o % V == k) begin
          vc_of = k[VcW-1:0];
        end
      end
    end
  endfunction

  // Step 10: credit_out_d = move (InjectBug 2: the first credit of link input 0 is lost).
  generate
    if (InjectBug == 2) begin : gen_bug_lost_credit
      reg  dropped_q;
      wire dropped_d = dropped_q | move[0];
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          dropped_q <= 1'b0;
        end else begin
          dropped_q <= dropped_d;
        end
      end
      assign credit_out_d = {move[NIn-1:1], move[0] & dropped_q};
    end else begin : gen_credit_out
      assign credit_out_d = move;
    end
  endgenerate

  // Step 11.
  assign rr_d = (rr_q == RrLast) ? {RrW{1'b0}} : rr_q + 1'b1;

  // ---------------------------------------------------------------------------
  // State update.
  // ---------------------------------------------------------------------------
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      route_q      <= {NIn*NOut{1'b0}};
      credit_out_q <= {NIn{1'b0}};
      out_valid_q  <= {NPhy{1'b0}};
      rr_q         <= {RrW{1'b0}};
    end else begin
      route_q      <= route_d;
      credit_out_q <= credit_out_d;
      out_valid_q  <= out_valid_d;
      rr_q         <= rr_d;
    end
  end

  // Step 8: credits_q[o] counts down when output o sends a flit and up when a credit
  // comes back, and stays when both or neither happen: an up/down counter per output.
  integer ko;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credits_q <= {NOut{CredReset}};
    end else begin
      for (ko = 0; ko < NOut; ko = ko + 1) begin
        if (cred_sent[ko] && !credit_in[ko]) begin
          credits_q[ko*CredW +: CredW] <= credits_q[ko*CredW +: CredW] - 1'b1;
        end else if (credit_in[ko] && !cred_sent[ko]) begin
          credits_q[ko*CredW +: CredW] <= credits_q[ko*CredW +: CredW] + 1'b1;
        end
      end
    end
  end

  // Step 7, data path: an output register loads only when a flit is sent, and then the
  // head-of-line flit of the input that drives it, xbar_sel[o] (the FIFO head, or the
  // arriving flit if the FIFO is empty). The flits are the wide part of the router;
  // selecting them at the register input moves them once per clock edge instead of at
  // every evaluation of the combinational logic.
  function automatic [FW-1:0] pick_flit;
    input [SelW-1:0]   sel;
    input [NIn-1:0]    nonempty;
    input [NIn*FW-1:0] heads;
    input [NIn*FW-1:0] arriving;
    integer            k;
    begin
      pick_flit = {FW{1'b0}};
      for (k = 0; k < NIn; k = k + 1) begin
        if (sel == k[SelW-1:0]) begin
          pick_flit = nonempty[k] ? heads[k*FW +: FW] : arriving[k*FW +: FW];
        end
      end
    end
  endfunction

  integer xo;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_flit_q <= {NPhy*FW{1'b0}};
    end else begin
      for (xo = 0; xo < NPhy; xo = xo + 1) begin
        if (out_valid_d[xo]) begin
          out_flit_q[xo*FW +: FW] <= pick_flit(xbar_sel[xo*SelW +: SelW], fifo_nonempty,
                                               fifo_head, in_flits);
        end
      end
    end
  end

`ifdef FORMAL
  // ---------------------------------------------------------------------------
  // Formal properties of the router's own state (scripts/prove.sh proves them with the
  // harness formal/wc_router_formal.v, which constrains the inputs to the handshake of
  // section 5 and checks the end-to-end properties; docs/verification.md "Formal
  // proofs"). Plain immediate assertions in clocked blocks: Yosys (read_verilog -formal)
  // and Verilator (--assert) both take them.
  // ---------------------------------------------------------------------------
  localparam [CredW-1:0] FCredDepth = BufferDepth[CredW-1:0];
  localparam integer     FWaitW     = $clog2(NIn + 1) + 1;
  localparam [FWaitW-1:0] FWaitMax  = NIn[FWaitW-1:0];
  localparam integer     FNInM1     = NIn - 1;
  localparam [RrW-1:0]   FRrLast    = FNInM1[RrW-1:0];

  // Per port, a bit per property that fails (a label inside a generate loop would not
  // be unique in Yosys).
  reg  [NOut-1:0] f_owned, f_owned_twice, f_cred_bad;
  reg  [NIn-1:0]  f_route_impossible, f_arrival_full;
  integer         fi, fo;
  always @* begin
    f_owned       = {NOut{1'b0}};
    f_owned_twice = {NOut{1'b0}};
    f_route_impossible = {NIn{1'b0}};
    for (fi = 0; fi < NIn; fi = fi + 1) begin
      f_owned_twice = f_owned_twice | (f_owned & route_q[fi*NOut +: NOut]);
      f_owned       = f_owned | route_q[fi*NOut +: NOut];
      f_route_impossible[fi] = ((route_q[fi*NOut +: NOut] & ~poss_mask(fi)) != {NOut{1'b0}});
    end
    for (fo = 0; fo < NOut; fo = fo + 1) begin
      // (Only where the counter can hold more than BufferDepth at all.)
      f_cred_bad[fo] = ((1 << CredW) - 1 > BufferDepth) &&
                       ({1'b0, credits_q[fo*CredW +: CredW]} > {1'b0, FCredDepth});
    end
    f_arrival_full = in_valid & ~(~fifo_nonempty & move) & fifo_full;
  end

  // Bounded wait (step 4): a head whose outputs are all free of messages in progress
  // is granted within NIn cycles, when the rotation gives its input the first place.
  reg [NIn*FWaitW-1:0] f_wait_q;
  reg [NIn-1:0]        f_wait_bad;
  integer              fw;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_wait_q <= {NIn*FWaitW{1'b0}};
    end else begin
      for (fw = 0; fw < NIn; fw = fw + 1) begin
        if (req[fw*NOut +: NOut] != {NOut{1'b0}} && !grant[fw] &&
            (req[fw*NOut +: NOut] & held) == {NOut{1'b0}}) begin
          if (f_wait_q[fw*FWaitW +: FWaitW] != {FWaitW{1'b1}}) begin
            f_wait_q[fw*FWaitW +: FWaitW] <= f_wait_q[fw*FWaitW +: FWaitW] + 1'b1;
          end
        end else begin
          f_wait_q[fw*FWaitW +: FWaitW] <= {FWaitW{1'b0}};
        end
      end
    end
  end
  always @* begin
    for (fw = 0; fw < NIn; fw = fw + 1) begin
      f_wait_bad[fw] = (f_wait_q[fw*FWaitW +: FWaitW] >= FWaitMax);
    end
  end

  // The mesh ports without a neighbour (section 2): their input never holds a flit,
  // their output never sends and keeps all its credits.
  wire [3:0] f_missing;
  generate
    if (Topology == 1) begin : gen_f_border
      localparam [11:0] FColsW   = Cols[11:0];
      localparam integer FRowsM1 = Rows - 1;
      localparam integer FColsM1 = Cols - 1;
      wire [11:0] f_r = node_id_i / FColsW;
      wire [11:0] f_c = node_id_i % FColsW;
      assign f_missing = {f_r == FRowsM1[11:0], f_r == 12'd0, f_c == 12'd0,
                          f_c == FColsM1[11:0]};
    end else begin : gen_f_no_border
      assign f_missing = 4'b0000;
    end
  endgenerate
  reg [3:0] f_border_bad;
  integer   fb;
  always @* begin
    for (fb = 0; fb < 4; fb = fb + 1) begin
      f_border_bad[fb] = (Topology == 1) && f_missing[fb] &&
                         (fifo_nonempty[fb] || out_valid_q[fb] ||
                          credits_q[fb*CredW +: CredW] != FCredDepth);
    end
  end

  reg [RrW-1:0] f_rr_prev_q;
  reg           f_run_q;  // a cycle after reset has passed
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_rr_prev_q <= {RrW{1'b0}};
      f_run_q     <= 1'b0;
    end else begin
      f_rr_prev_q <= rr_q;
      f_run_q     <= 1'b1;
    end
  end

  always @(`WC_FORMAL_EDGE) begin
    if (rst_ni) begin
      // Reset values (section 6), in the first cycle after reset.
      p_reset_values: assert (f_run_q || (route_q == {NIn*NOut{1'b0}} &&
                              credit_out_q == {NIn{1'b0}} && out_valid_q == {NPhy{1'b0}} &&
                              out_flit_q == {NPhy*FW{1'b0}} &&
                              credits_q == {NOut{FCredDepth}} && rr_q == {RrW{1'b0}}));
      // One message owns an output at a time, and only an output route() can give.
      p_one_owner_per_output: assert (f_owned_twice == {NOut{1'b0}});
      p_route_possible:       assert (f_route_impossible == {NIn{1'b0}});
      // Credits guarantee room: a flit never arrives at a full FIFO.
      p_arrival_finds_room:   assert (f_arrival_full == {NIn{1'b0}});
      // Credit counters stay within 0..BufferDepth (section 6).
      p_credits_range:        assert (f_cred_bad == {NOut{1'b0}});
      // hold_q within 0..T_r-1 (section 6).
      p_hold_range:           assert (f_hold_bad == {NIn{1'b0}});
      // rr_q counts modulo NIn, one step per cycle (section 6).
      p_rr_step:              assert (!f_run_q ||
                                      rr_q == ((f_rr_prev_q == FRrLast) ? {RrW{1'b0}}
                                                                        : f_rr_prev_q + 1'b1));
      // Bounded wait.
      p_bounded_wait:         assert (f_wait_bad == {NIn{1'b0}});
      // Mesh ports without a neighbour stay idle.
      p_border_port_idle:     assert (f_border_bad == 4'b0000);
    end
  end
`endif

  // Outputs: straight from registers.
  assign link_valid_o  = out_valid_q[P-1:0];
  assign link_flit_o   = out_flit_q[P*FW-1:0];
  assign ej_valid_o    = out_valid_q[NPhy-1:P];
  assign ej_flit_o     = out_flit_q[NPhy*FW-1:P*FW];
  assign link_credit_o = credit_out_q[PV-1:0];
  assign inj_credit_o  = credit_out_q[NIn-1:PV];
  generate
    if (V == 1) begin : gen_no_vc_out
      assign link_vc_o = {P*VcW{1'b0}};
    end
  endgenerate

`ifndef SYNTHESIS
  // ---------------------------------------------------------------------------
  // Assertions (rtl/wc_assert.vh): the invariants of sections 6 and 7 that the logic
  // above relies on, checked at every clock edge on the values the registers load
  // from. They are computed in the clocked block below, once per edge, rather than as
  // combinational logic, which a simulator evaluates several times per cycle; each
  // check is skipped when nothing it watches happens. Simulation only.
  // ---------------------------------------------------------------------------
  reg [NIn-1:0] a_in_msg_q;  // a message is in progress: granted, tail not yet gone

  // "In progress" as section 6 defines it, kept apart from route_q.
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_in_msg_q <= {NIn{1'b0}};
    end else begin
      a_in_msg_q <= (a_in_msg_q | grant) & ~(move & hol_tail);
    end
  end


  always @(posedge clk_i or negedge rst_ni) begin : a_check
    reg [NOut-1:0] owned, owned_twice;  // OR of every route_q; outputs in two of them
    reg [NOut-1:0] granted, granted_taken;  // granted so far; granted while taken
    reg [NOut-1:0] cur, sent, sent_twice;  // step 5 of an input; what the movers send
    reg [NPhy-1:0] load_foreign;  // registers loading from an input that does not send there
    reg [NOut-1:0] vouts;  // the virtual outputs of an output register
    reg [P-1:0]    links, links_twice;  // links of the movers; links used by two of them
    reg [NIn-1:0]  idle_body;  // idle inputs whose head of line is not a head
    reg [SelW-1:0] sel;
    integer        i, o, k;
    if (rst_ni) begin
      owned       = {NOut{1'b0}};
      owned_twice = {NOut{1'b0}};
      for (i = 0; i < NIn; i = i + 1) begin
        owned_twice = owned_twice | (owned & route_q[i*NOut +: NOut]);
        owned       = owned | route_q[i*NOut +: NOut];
      end
      `WC_ASSERT_I(one_owner_per_output, owned_twice == {NOut{1'b0}},
                   "two inputs own the same output (route_q)")
      `WC_ASSERT_I(route_iff_message, a_in_msg_q == ~route_idle,
                   "route_q is not zero exactly while a message is in progress at its input")
      if (grant != {NIn{1'b0}}) begin
        granted       = {NOut{1'b0}};
        granted_taken = {NOut{1'b0}};
        for (i = 0; i < NIn; i = i + 1) begin
          if (grant[i]) begin
            granted_taken = granted_taken | (req[i*NOut +: NOut] & (owned | granted));
            granted       = granted | req[i*NOut +: NOut];
          end
        end
        `WC_ASSERT_I(granted_outputs_free, granted_taken == {NOut{1'b0}},
                     "a head was granted an output that another message holds or was granted")
      end
      idle_body = {NIn{1'b0}};
      for (i = 0; i < NIn; i = i + 1) begin
        if (hol_valid[i] && route_idle[i]) begin
          idle_body[i] = ~(fifo_nonempty[i] ? fifo_head[i*FW + `WC_FLIT_HEAD_BIT]
                                            : in_flits[i*FW + `WC_FLIT_HEAD_BIT]);
        end
      end
      `WC_ASSERT_I(idle_input_sees_head, idle_body == {NIn{1'b0}},
                   "a body or tail flit at an input with no message in progress")
      sent         = {NOut{1'b0}};
      sent_twice   = {NOut{1'b0}};
      links        = {P{1'b0}};
      links_twice  = {P{1'b0}};
      load_foreign = {NPhy{1'b0}};
      if (move != {NIn{1'b0}}) begin
        for (i = 0; i < NIn; i = i + 1) begin
          if (move[i]) begin
            cur        = route_q[i*NOut +: NOut] |
                         (grant[i] ? req[i*NOut +: NOut] : {NOut{1'b0}});
            sent_twice = sent_twice | (sent & cur);
            sent       = sent | cur;
            for (k = 0; k < P; k = k + 1) begin
              links_twice[k] = links_twice[k] | (links[k] & (|cur[k*V +: V]));
              links[k]       = links[k] | (|cur[k*V +: V]);
            end
          end
        end
        // Output register o (a link, or an ejection channel) and its virtual outputs.
        for (o = 0; o < NPhy; o = o + 1) begin
          if (out_valid_d[o]) begin
            vouts = {NOut{1'b0}};
            for (k = 0; k < NOut; k = k + 1) begin
              vouts[k] = (o < P) ? (k / V == o) : (k == o - P + PV);
            end
            sel = xbar_sel[o*SelW +: SelW];
            if (!move[sel] || ((route_q[sel*NOut +: NOut] |
                                (grant[sel] ? req[sel*NOut +: NOut] : {NOut{1'b0}})) & vouts)
                              == {NOut{1'b0}}) begin
              load_foreign[o] = 1'b1;
            end
          end
        end
      end
      `WC_ASSERT_I(one_sender_per_output, sent_twice == {NOut{1'b0}},
                   "two inputs send to the same output in one cycle (crossbar select)")
      `WC_ASSERT_I(one_flit_per_link, links_twice == {P{1'b0}},
                   "two virtual channels send on the same link in one cycle (switch allocation)")
      `WC_ASSERT_I(crossbar_valid, vout_sent == sent &&
                   out_valid_d == {sent[NOut-1:PV], links},
                   "out_valid_d differs from the outputs of the inputs that move")
      `WC_ASSERT_I(output_loads_from_owner, load_foreign == {NPhy{1'b0}},
                   "an output register loads a flit from an input that does not send to it")
      `WC_ASSERT_I(send_needs_credit, (vout_sent & ~ready) == {NOut{1'b0}},
                   "an output sends a flit without a credit")
      `WC_ASSERT_I(arrival_finds_room,
                   (in_valid & ~(~fifo_nonempty & move) & fifo_full) == {NIn{1'b0}},
                   "a flit arrives at a full FIFO (the upstream credit counter is wrong)")
    end
  end

  // Per output, so that the failure names it. (Only where a counter can hold more than
  // BufferDepth at all.)
  localparam [CredW-1:0] CredDepth = BufferDepth[CredW-1:0];
  genvar ga;
  for (ga = 0; ga < NOut; ga = ga + 1) begin : gen_assert_out
    if ((1 << CredW) - 1 > BufferDepth) begin : gen_bound
      `WC_ASSERT(credits_in_range, credits_q[ga*CredW +: CredW] <= CredDepth,
                 "the credit counter of this output is above BufferDepth")
    end
  end
`endif

endmodule
