// wc_router -- the wormcast enhanced all-port wormhole router (one node, no NI).
//
// Implements docs/microarchitecture.md, sections 3 to 8, cycle for cycle:
// per-input FIFOs with bypass, route computation, all-or-nothing allocation with a
// rotating priority, lockstep replication (MR), output registers, credit counters.
// Per-hop latency is one cycle: link input -> route -> allocation -> crossbar -> output
// register. Every output of the module comes straight from a register.
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
// InjectBug (deliberate faults for the cosimulation's self-test; 0 = correct router):
//   1  wrong routing bit (wc_route: highest differing bit / Y before X)
//   2  lost credit: the first credit of link input 0 is never sent
//   3  one replication branch missing (wc_route: B mask drops its lowest link)
//   4  IR not delivering at intermediate routers (wc_route)
//   5  credit counters reset to BufferDepth + 1 (a downstream FIFO gets one flit too many)
//   6  output released before the tail: an input whose head of line is a tail no longer
//      counts as owning its outputs in the allocation, so another head can be granted
//      them while (or before) the tail crosses.
module wc_router #(
  parameter integer Topology     = 0,  // 0 = hypercube Q_Dim, 1 = Rows x Cols mesh
  parameter integer Dim          = 3,  // hypercube dimension (Topology 0), 1..12
  parameter integer Rows         = 4,  // mesh rows (Topology 1), 1..64
  parameter integer Cols         = 4,  // mesh columns (Topology 1), 1..64
  parameter integer AllPort      = 1,  // 1 = all-port (J = E = P), 0 = one-port (J = E = 1)
  parameter integer BufferDepth  = 4,  // flits per input FIFO and initial credits, 2..64
  parameter integer PayloadWidth = 32, // payload bits per flit W, 32..62
  parameter integer InjectBug    = 0   // deliberate fault, see above; 0 = correct router
) (
  input                                                   clk_i,
  input                                                   rst_ni,
  input  [11:0]                                           node_id_i,
  // Link inputs.
  input  [((Topology == 0) ? Dim : 4)-1:0]                link_valid_i,
  input  [((Topology == 0) ? Dim : 4)*(PayloadWidth+2)-1:0] link_flit_i,
  output [((Topology == 0) ? Dim : 4)-1:0]                link_credit_o,
  // Link outputs.
  output [((Topology == 0) ? Dim : 4)-1:0]                link_valid_o,
  output [((Topology == 0) ? Dim : 4)*(PayloadWidth+2)-1:0] link_flit_o,
  input  [((Topology == 0) ? Dim : 4)-1:0]                link_credit_i,
  // Injection channels (NI -> router).
  input  [((AllPort != 0) ? ((Topology == 0) ? Dim : 4) : 1)-1:0] inj_valid_i,
  input  [((AllPort != 0) ? ((Topology == 0) ? Dim : 4) : 1)*(PayloadWidth+2)-1:0]
                                                          inj_flit_i,
  output [((AllPort != 0) ? ((Topology == 0) ? Dim : 4) : 1)-1:0] inj_credit_o,
  // Ejection channels (router -> NI).
  output [((AllPort != 0) ? ((Topology == 0) ? Dim : 4) : 1)-1:0] ej_valid_o,
  output [((AllPort != 0) ? ((Topology == 0) ? Dim : 4) : 1)*(PayloadWidth+2)-1:0]
                                                          ej_flit_o,
  input  [((AllPort != 0) ? ((Topology == 0) ? Dim : 4) : 1)-1:0] ej_credit_i
);

  localparam integer P    = (Topology == 0) ? Dim : 4;
  localparam integer J    = (AllPort != 0) ? P : 1;
  localparam integer E    = J;
  localparam integer NIn  = P + J;
  localparam integer NOut = P + E;
  localparam integer FW   = PayloadWidth + 2;
  localparam integer RrW  = $clog2(NIn);
  localparam integer CredMax = (InjectBug == 5) ? BufferDepth + 1 : BufferDepth;
  localparam integer CredW   = $clog2(CredMax + 1);

  localparam integer     NInM1     = NIn - 1;
  localparam [RrW-1:0]   RrLast    = NInM1[RrW-1:0];
  localparam [CredW-1:0] CredReset = CredMax[CredW-1:0];

  // ---------------------------------------------------------------------------
  // Registers (section 6).
  // ---------------------------------------------------------------------------
  reg  [NIn*NOut-1:0]   route_q;
  wire [NIn*NOut-1:0]   route_d;
  reg  [NIn-1:0]        credit_out_q;
  wire [NIn-1:0]        credit_out_d;
  reg  [NOut-1:0]       out_valid_q;
  wire [NOut-1:0]       out_valid_d;
  reg  [NOut*FW-1:0]    out_flit_q;
  wire [NOut*FW-1:0]    out_flit_d;
  reg  [NOut*CredW-1:0] credits_q;
  wire [NOut*CredW-1:0] credits_d;
  reg  [RrW-1:0]        rr_q;
  wire [RrW-1:0]        rr_d;

  // Inputs gathered by router port index.
  wire [NIn-1:0]    in_valid  = {inj_valid_i, link_valid_i};
  wire [NIn*FW-1:0] in_flit   = {inj_flit_i, link_flit_i};
  wire [NOut-1:0]   credit_in = {ej_credit_i, link_credit_i};

  wire [NIn-1:0]      hol_valid;
  wire [NIn*FW-1:0]   hol_flit;
  wire [NIn*NOut-1:0] req;
  wire [NIn-1:0]      grant;
  wire [NIn*NOut-1:0] cur;
  wire [NIn-1:0]      move;
  wire [NOut-1:0]     ready;

  // ---------------------------------------------------------------------------
  // Steps 1, 3, 5, 6, 9, 10 per input: FIFO / head of line, route, current route, move.
  // ---------------------------------------------------------------------------
  genvar gi;
  generate
    for (gi = 0; gi < NIn; gi = gi + 1) begin : gen_input
      localparam [4:0] PortIdx = gi;
      // Outputs that route() can ever select for this input: every link, plus the
      // paired ejection channel for a link input. Only helps synthesis remove constant
      // crossbar paths and route_q bits; route() never sets the other bits.
      localparam integer EjBit = P + ((AllPort != 0) ? gi : 0);
      localparam integer PossInt = (gi < P) ? (((1 << P) - 1) | (1 << EjBit))
                                            : ((1 << P) - 1);
      localparam [NOut-1:0] PossMask = PossInt[NOut-1:0];

      wire [NOut-1:0] route_mask;
      wire [NOut-1:0] route_cur_q = route_q[gi*NOut +: NOut];
      wire [NOut-1:0] req_i;
      wire [NOut-1:0] cur_i;
      wire            is_tail = hol_flit[gi*FW + 1];

      wc_fifo #(
        .Depth (BufferDepth),
        .Width (FW)
      ) u_fifo (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .in_valid_i  (in_valid[gi]),
        .in_data_i   (in_flit[gi*FW +: FW]),
        .deq_i       (move[gi]),
        .hol_valid_o (hol_valid[gi]),
        .hol_data_o  (hol_flit[gi*FW +: FW])
      );

      wc_route #(
        .Topology     (Topology),
        .Dim          (Dim),
        .Rows         (Rows),
        .Cols         (Cols),
        .AllPort      (AllPort),
        .PayloadWidth (PayloadWidth),
        .InjectBug    (InjectBug)
      ) u_route (
        .node_id_i (node_id_i),
        .in_port_i (PortIdx),
        .flit_i    (hol_flit[gi*FW +: FW]),
        .route_o   (route_mask)
      );

      // Step 3: a valid head (route_mask is zero for non-heads) with no route in progress.
      assign req_i = (hol_valid[gi] && route_cur_q == {NOut{1'b0}}) ?
                     (route_mask & PossMask) : {NOut{1'b0}};
      assign req[gi*NOut +: NOut] = req_i;
      // Step 5.
      assign cur_i = route_cur_q | (grant[gi] ? req_i : {NOut{1'b0}});
      assign cur[gi*NOut +: NOut] = cur_i;
      // Step 6: leave once towards all outputs of the message, or not at all.
      assign move[gi] = hol_valid[gi] && (cur_i != {NOut{1'b0}}) &&
                        ((cur_i & ~ready) == {NOut{1'b0}});
      // Step 9.
      assign route_d[gi*NOut +: NOut] = (move[gi] && is_tail) ? {NOut{1'b0}}
                                                               : (cur_i & PossMask);
    end
  endgenerate

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

  // ---------------------------------------------------------------------------
  // Step 4: all-or-nothing allocation, greedy in the order rr_q, rr_q+1, ... (mod NIn).
  // The request vector is rotated so that entry n is input (rr_q + n) mod NIn, walked
  // with a fixed priority, and the grants are rotated back.
  // ---------------------------------------------------------------------------
  // owns[j]: input j's route_q counts as taken.
  wire [NIn-1:0] owns;
  genvar gt;
  generate
    for (gt = 0; gt < NIn; gt = gt + 1) begin : gen_owns
      if (InjectBug == 6) begin : gen_bug_early_release
        // Fault: an input whose head of line is its tail no longer holds its outputs.
        assign owns[gt] = ~(hol_valid[gt] & hol_flit[gt*FW + 1]);
      end else begin : gen_hold_to_tail
        assign owns[gt] = 1'b1;
      end
    end
  endgenerate

  reg [NOut-1:0] taken_init;
  integer        tj;
  always @* begin
    taken_init = {NOut{1'b0}};
    for (tj = 0; tj < NIn; tj = tj + 1) begin
      if (owns[tj]) begin
        taken_init = taken_init | route_q[tj*NOut +: NOut];
      end
    end
  end

  // The rotation is done as log2(NIn) stages; stage s rotates by 2^s when rr_q[s] is set
  // (rotations commute, so the stages compose to a rotation by rr_q).
  reg [NIn*NOut-1:0] req_rot, req_tmp;
  reg [NIn-1:0]      grant_rot, grant_tmp, grant_unrot;
  reg [NOut-1:0]     taken_walk;
  reg [NOut-1:0]     req_n;
  integer            st, an;
  always @* begin
    // Rotate requests: entry n becomes input (rr_q + n) mod NIn.
    req_rot = req;
    for (st = 0; st < RrW; st = st + 1) begin
      req_tmp = req_rot;
      if (rr_q[st]) begin
        for (an = 0; an < NIn; an = an + 1) begin
          req_tmp[an*NOut +: NOut] = req_rot[((an + ((1 << st) % NIn)) % NIn)*NOut +: NOut];
        end
      end
      req_rot = req_tmp;
    end
    // Fixed-priority greedy walk over the rotated order.
    taken_walk = taken_init;
    grant_rot  = {NIn{1'b0}};
    for (an = 0; an < NIn; an = an + 1) begin
      req_n = req_rot[an*NOut +: NOut];
      if (req_n != {NOut{1'b0}} && (req_n & taken_walk) == {NOut{1'b0}}) begin
        grant_rot[an] = 1'b1;
        taken_walk    = taken_walk | req_n;
      end
    end
    // Rotate the grants back: input i is entry (i - rr_q) mod NIn.
    grant_unrot = grant_rot;
    for (st = 0; st < RrW; st = st + 1) begin
      grant_tmp = grant_unrot;
      if (rr_q[st]) begin
        for (an = 0; an < NIn; an = an + 1) begin
          grant_tmp[an] = grant_unrot[(an + NIn - ((1 << st) % NIn)) % NIn];
        end
      end
      grant_unrot = grant_tmp;
    end
  end
  assign grant = grant_unrot;

  // ---------------------------------------------------------------------------
  // Steps 2, 7, 8 per output: readiness, crossbar, credit counter.
  // ---------------------------------------------------------------------------
  genvar go;
  generate
    for (go = 0; go < NOut; go = go + 1) begin : gen_output
      wire [CredW-1:0] cred_q = credits_q[go*CredW +: CredW];
      reg  [FW-1:0]    xbar_flit;
      reg              xbar_valid;
      integer          xi;

      // Step 2: a credit arriving this cycle is usable this cycle.
      assign ready[go] = (cred_q != {CredW{1'b0}}) | credit_in[go];

      // Step 7: at most one input owns this output (the last one wins otherwise).
      always @* begin
        xbar_valid = 1'b0;
        xbar_flit  = hol_flit[0 +: FW];
        for (xi = 0; xi < NIn; xi = xi + 1) begin
          if (move[xi] && cur[xi*NOut + go]) begin
            xbar_valid = 1'b1;
            xbar_flit  = hol_flit[xi*FW +: FW];
          end
        end
      end

      assign out_valid_d[go] = xbar_valid;
      assign out_flit_d[go*FW +: FW] = xbar_valid ? xbar_flit : out_flit_q[go*FW +: FW];

      // Step 8.
      assign credits_d[go*CredW +: CredW] = cred_q - {{(CredW-1){1'b0}}, xbar_valid}
                                                   + {{(CredW-1){1'b0}}, credit_in[go]};
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
      out_valid_q  <= {NOut{1'b0}};
      out_flit_q   <= {NOut*FW{1'b0}};
      credits_q    <= {NOut{CredReset}};
      rr_q         <= {RrW{1'b0}};
    end else begin
      route_q      <= route_d;
      credit_out_q <= credit_out_d;
      out_valid_q  <= out_valid_d;
      out_flit_q   <= out_flit_d;
      credits_q    <= credits_d;
      rr_q         <= rr_d;
    end
  end

  // Outputs: straight from registers.
  assign link_valid_o  = out_valid_q[P-1:0];
  assign link_flit_o   = out_flit_q[P*FW-1:0];
  assign ej_valid_o    = out_valid_q[NOut-1:P];
  assign ej_flit_o     = out_flit_q[NOut*FW-1:P*FW];
  assign link_credit_o = credit_out_q[P-1:0];
  assign inj_credit_o  = credit_out_q[NIn-1:P];

endmodule
