// wc_router_formal -- formal harness of one wc_router: the environment of
// docs/microarchitecture.md (sections 5 and 9) as assumptions, and the end-to-end
// properties of the router as assertions, for Yosys and ABC (scripts/prove.sh).
//
// Why a harness file and not only assertions beside the logic: the properties below
// need an environment (upstream senders that obey the credit handshake, receivers that
// return a credit only for a flit they hold) and a reference of section 8's route
// function written from the document, independently of rtl/wc_route.v. Neither is part
// of any module's logic, and Yosys' open Verilog frontend has no `bind`. The invariants
// of one module's own state are kept beside its logic, under `ifdef FORMAL (rtl/*.v);
// they are proof obligations here too, since the harness instantiates the router.
//
// Method (docs/verification.md, "Formal proofs"):
//   - every free choice is a top-level input (a new value in every step); a choice made
//     once (node index, tracked flit) is an input assumed stable;
//   - reset (rst_ni low) in step 0 only, so every reachable state after reset is covered;
//   - data independence: the router reads only the low 16 bits of a head (kind, type,
//     ir, address); every flit of input s carries, in bits the router never reads for
//     routing, a tag (s, n): s in flit[20:16] (the header's source field) and n, the
//     number of flits input s accepted before it, in flit[33:28] (the header's seq
//     field). On rings and tori the router also reads a head's source field (the
//     dateline class of an R hop, section 12), so there s moves to flit[38:34], the top
//     of a wider seq field (W = 37), and the source field carries a node index. The outputs then tell, per flit, which input it left and in which order,
//     so loss, duplication and reordering are visible at the ports. The tag bits are the
//     top of the flit, so a corrupted stored flit (InjectBug 11) shows too. One flit,
//     chosen by the solver (track_in_i, track_n_i), is also compared bit for bit.
//
// Ports (all free inputs of the proof):
//   clk_i        clock.
//   in_valid_i   [NIn]     valid of every router input (links, then injection channels;
//                          with V > 1 virtual inputs: VC c of link i is input i*V + c, at
//                          most one VC of a link valid per cycle, section 12).
//   in_flit_i    [NIn*FW]  their flits.
//   credit_i     [NOut]    credits returned by the receivers of the (virtual) outputs
//                          (links, then ejection channels).
//   node_i       the router's node index; stable.
//   track_in_i   the input of the tracked flit; stable.
//   track_n_i    the tag n of the tracked flit; stable.
module wc_router_formal #(
  // 0 = hypercube Q_Dim, 1 = Rows x Cols mesh, 2 = ring of Cols nodes (Rows = 1),
  // 3 = Rows x Cols torus (section 12)
  parameter integer Topology        = 0,
  parameter integer Dim             = 3,  // hypercube dimension (Topology 0)
  parameter integer Rows            = 3,  // mesh / torus rows (Topology 1, 3); ring: 1
  parameter integer Cols            = 3,  // mesh / torus columns; ring: its nodes
  parameter integer AllPort         = 1,  // 1 = all-port, 0 = one-port
  parameter integer BufferDepth     = 2,  // flits per input FIFO (per VC)
  parameter integer ReplicationCost = 0,  // T_r (section 7, step 5)
  parameter integer RouteOrder      = 0,  // R routing: 0 ascending, 1 descending
  // B replication tree: 0 ascending, 1 descending
  parameter integer TreeOrder       = (Topology == 0) ? 1 : 0,
  parameter integer NumVcs          = 1,  // V, virtual channels per link (section 12)
  parameter integer InjectBug       = 0   // the router's deliberate fault (rtl/wc_router.v)
) (
  input                                           clk_i,
  // Virtual inputs (section 12; with V = 1 the router's inputs): P*V link VCs, then J
  // injection channels. The harness multiplexes the link VCs onto the physical links.
  input  [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) * NumVcs
          + ((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) : 1)
          - 1:0]                                  in_valid_i,
  input  [(((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) * NumVcs
          + ((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) : 1))
          * ((Topology >= 2) ? 39 : 34) - 1:0]    in_flit_i,
  // Virtual outputs: P*V link VCs, then E ejection channels.
  input  [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) * NumVcs
          + ((AllPort != 0) ? ((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) * NumVcs
                            : 1) - 1:0]           credit_i,
  input  [11:0]                                   node_i,
  input  [4:0]                                    track_in_i,
  input  [5:0]                                    track_n_i
);

  // Payload width: the smallest (32) where the router reads only the low 16 bits of a
  // head; on rings and tori it also reads the source field (bits 16..27: the dateline
  // class of an R hop), so the input tag moves above the tag n, into bits the router
  // never reads (37: seq has 11 bits).
  localparam integer W     = (Topology >= 2) ? 37 : 32;
  localparam integer FW    = W + 2;
  localparam integer P     = (Topology == 0) ? Dim : (Topology == 2) ? 2 : 4;
  localparam integer V     = NumVcs;
  localparam integer VcW   = (V > 1) ? $clog2(V) : 1;
  localparam integer PV    = P * V;                // link virtual ports
  localparam integer J     = (AllPort != 0) ? P : 1;
  localparam integer E     = (AllPort != 0) ? PV : 1;
  localparam integer NIn   = PV + J;
  localparam integer NOut  = PV + E;
  localparam integer Nodes = (Topology == 0) ? (1 << Dim) : Rows * Cols;
  localparam integer TagW  = 6;                   // tag n: the low 6 bits of seq
  localparam integer TagLo = 28;                  // flit bit of seq (payload bit 26)
  // flit bit of the tag s: the header's source field, or above n on rings and tori
  localparam integer SrcLo = (Topology >= 2) ? TagLo + TagW : 16;
  localparam integer CW    = $clog2(BufferDepth + 2);  // counters 0..BufferDepth + 1
  localparam [CW-1:0] Depth = BufferDepth[CW-1:0];

  // ---------------------------------------------------------------------------
  // Reset in the first step only; f_past: a previous step exists.
  // ---------------------------------------------------------------------------
  reg f_init = 1'b1;
  reg f_past = 1'b0;
  always @(posedge clk_i) begin
    f_init <= 1'b0;
    f_past <= 1'b1;
  end
  /* verilator lint_off SYNCASYNCNET */
  wire rst_ni = ~f_init;  // the harness samples it, the router resets with it
  /* verilator lint_on SYNCASYNCNET */

  // The choices made once.
  localparam [11:0] NodesW  = Nodes[11:0];
  localparam [11:0] ColsW   = Cols[11:0];
  localparam integer RowsM1 = Rows - 1;
  localparam integer ColsM1 = Cols - 1;
  localparam [11:0] LastRow = RowsM1[11:0];
  localparam [11:0] LastCol = ColsM1[11:0];
  localparam [11:0] DimMask = (12'd1 << Dim) - 12'd1;
  always @(posedge clk_i) begin
    if (f_past) begin
      a_node_stable:  assume (node_i == $past(node_i));
      a_track_stable: assume (track_in_i == $past(track_in_i) && track_n_i == $past(track_n_i));
    end
  end
  always @* begin
    a_node_range: assume (node_i < NodesW);
  end

  // The node's row and column on the mesh, and the links that exist at this node
  // (section 2): E, W, N, S. All links of Q_d.
  wire [11:0]  node_r, node_c;
  wire [P-1:0] exist;
  generate
    if (Topology == 1) begin : gen_exist_mesh
      assign node_r = node_i / ColsW;
      assign node_c = node_i % ColsW;
      assign exist  = {node_r != LastRow, node_r != 12'd0, node_c != 12'd0,
                       node_c != LastCol};
    end else if (Topology >= 2) begin : gen_exist_torus
      // Every link of a ring or a torus exists (section 12).
      assign node_r = node_i / ColsW;
      assign node_c = node_i % ColsW;
      assign exist  = {P{1'b1}};
    end else begin : gen_exist_hc
      assign node_r = 12'd0;
      assign node_c = 12'd0;
      assign exist  = {P{1'b1}};
    end
  endgenerate

  // ---------------------------------------------------------------------------
  // The reference route function: docs/microarchitecture.md section 8, written from
  // the text (not from rtl/wc_route.v). flit: a head; inp: the input port; t: the node.
  // ---------------------------------------------------------------------------
  // Q_d: the links of the route.
  function automatic [P-1:0] ref_links_hc;
    input [11:0] addr;
    input        is_b;
    input [11:0] t;
    reg   [11:0] x;
    reg          found;
    reg   [P-1:0] pick;
    integer      b;
    begin
      x = (addr ^ t) & DimMask;
      ref_links_hc = {P{1'b0}};
      pick  = {P{1'b0}};
      found = 1'b0;
      if (!is_b) begin
        // The lowest (ascending) or the highest (descending) dimension still to correct.
        for (b = 0; b < P; b = b + 1) begin
          if (x[b] && (RouteOrder != 0 || !found)) begin
            pick  = {P{1'b0}};
            pick[b] = 1'b1;
            found = 1'b1;
          end
        end
        ref_links_hc = pick;
      end else if (x == 12'd0) begin
        ref_links_hc = {P{1'b1}};  // the root replicates onto every link
      end else begin
        // Descending tree: the dimensions below last_one(x); ascending: those above the
        // highest set bit of x.
        for (b = 0; b < P; b = b + 1) begin
          if (TreeOrder != 0) begin
            found = found | x[b];
            ref_links_hc[b] = !found;
          end
        end
        found = 1'b0;
        for (b = P - 1; b >= 0; b = b - 1) begin
          if (TreeOrder == 0) begin
            found = found | x[b];
            ref_links_hc[b] = !found;
          end
        end
      end
    end
  endfunction

  // The path broadcast (B with ir), Q_d: the reflected Gray code from the root. T's
  // position k on the path is the Gray decoding of x = S xor T (bit b of k: the XOR of
  // bits b..d-1 of x); the next node is across the lowest 0 bit of k; none at the end
  // of the path (k all ones).
  function automatic [P-1:0] ref_path_hc;
    input [11:0] addr;
    input [11:0] t;
    reg   [11:0] x;
    reg   [P-1:0] k;
    reg          par, found;
    integer      b;
    begin
      x   = (addr ^ t) & DimMask;
      par = 1'b0;
      for (b = P - 1; b >= 0; b = b - 1) begin
        par  = par ^ x[b];
        k[b] = par;
      end
      ref_path_hc = {P{1'b0}};
      found = 1'b0;
      for (b = 0; b < P; b = b + 1) begin
        if (!k[b] && !found) begin
          ref_path_hc[b] = 1'b1;
          found = 1'b1;
        end
      end
    end
  endfunction

  // The path broadcast, mesh: the boustrophedon (row 0 eastwards, row 1 westwards, ...).
  // From the root both ways; T after the root on the path goes on to the next node, T
  // before it to the previous one. E, W, N, S = bits 0..3; (ar, ac) the root's row and
  // column, (r, c) this node's.
  function automatic [3:0] ref_path_mesh;
    input [11:0] ar;
    input [11:0] ac;
    input [11:0] r;
    input [11:0] c;
    reg   [3:0]  ex, nxt, prv;
    reg          odd, after;
    begin
      ex    = {r != LastRow, r != 12'd0, c != 12'd0, c != LastCol};  // S, N, W, E
      odd   = r[0];
      nxt   = odd ? ((c != 12'd0) ? 4'b0010 : 4'b1000)     // W : S
                  : ((c != LastCol) ? 4'b0001 : 4'b1000);  // E : S
      prv   = odd ? ((c != LastCol) ? 4'b0001 : 4'b0100)   // E : N
                  : ((c != 12'd0) ? 4'b0010 : 4'b0100);    // W : N
      after = (r > ar) || (r == ar && (odd ? (c < ac) : (c > ac)));
      ref_path_mesh = ((r == ar && c == ac) ? (nxt | prv) : after ? nxt : prv) & ex;
    end
  endfunction

  // Mesh: the links of the route, E, W, N, S = bits 0..3.
  // (r, c): this node's row and column. The address's are found by comparing with the
  // first node of every row, which costs far less than a divider per call.
  function automatic [3:0] ref_links_mesh;
    input [11:0] addr;
    input        is_b;
    input        is_path;  // a B header with ir: the path broadcast
    input [11:0] r;
    input [11:0] c;
    reg   [11:0] ar, ac, first;
    reg   [3:0]  ex, l;
    integer      q;
    begin
      ar = 12'd0;
      ac = addr;
      for (q = 1; q < Rows; q = q + 1) begin
        first = q[11:0] * ColsW;
        if (addr >= first) begin
          ar = q[11:0];
          ac = addr - first;
        end
      end
      ex = {r != LastRow, r != 12'd0, c != 12'd0, c != LastCol};  // S, N, W, E
      l  = 4'b0000;
      if (is_b && is_path) begin
        l = ref_path_mesh(ar, ac, r, c);
      end else if (ar == r && ac == c) begin
        l = is_b ? ex : 4'b0000;  // the root replicates onto every link it has
      end else if (!is_b) begin
        if (ac != c && (RouteOrder == 0 || ar == r)) begin
          l = (ac > c) ? 4'b0001 : 4'b0010;   // E : W
        end else begin
          l = (ar > r) ? 4'b1000 : 4'b0100;   // S : N
        end
      end else if (TreeOrder == 0) begin
        // Row first: on the root's row on along the row, and N and S; else on along
        // the column, away from the root's row.
        l = (ar == r) ? (((c > ac) ? 4'b0001 : 4'b0010) | 4'b1100)
                      : ((r > ar) ? 4'b1000 : 4'b0100);
      end else begin
        l = (ac == c) ? (((r > ar) ? 4'b1000 : 4'b0100) | 4'b0011)
                      : ((c > ac) ? 4'b0001 : 4'b0010);
      end
      ref_links_mesh = l & ex;
    end
  endfunction

  // Rings and tori (section 12), one wrapping dimension of size n at a time, written
  // from the text with f = (b - a) mod n, the distance the positive way.
  function automatic [12:0] fwd;  // (b - a) mod n
    input [11:0] a;
    input [11:0] b;
    input [12:0] n;
    begin
      fwd = (b >= a) ? {1'b0, b - a} : {1'b0, b} + n - {1'b0, a};
    end
  endfunction

  // R from coordinate a to b: {negative, positive}; the positive way iff 2f <= n (the
  // tie rule: the opposite node of an even ring is reached the positive way).
  function automatic [1:0] ring_r;
    input [11:0] a;
    input [11:0] b;
    input [12:0] n;
    reg   [12:0] f;
    begin
      f = fwd(a, b, n);
      ring_r = (f == 13'd0) ? 2'b00 : ({f, 1'b0} <= {1'b0, n}) ? 2'b01 : 2'b10;
    end
  endfunction

  // The B tree of root coordinate s at coordinate t: {negative, positive} children.
  // The positive branch is 1 <= f <= n/2, the negative one the rest; the root sends
  // both ways (only the positive way when n = 2); a node forwards on its own branch
  // while the next node is still on it.
  function automatic [1:0] ring_b;
    input [11:0] s;
    input [11:0] t;
    input [12:0] n;
    reg   [12:0] f;
    begin
      f = fwd(s, t, n);
      if (f == 13'd0) begin
        ring_b = (n == 13'd2) ? 2'b01 : 2'b11;
      end else if ({f, 1'b0} <= {1'b0, n}) begin
        ring_b = {1'b0, {f + 13'd1, 1'b0} <= {1'b0, n}};
      end else begin
        ring_b = {{f - 13'd1, 1'b0} > {1'b0, n}, 1'b0};
      end
    end
  endfunction

  // The class of a hop from coordinate t towards the positive (pos = 1) or negative
  // way, of a message whose origin in this dimension is s: 1 iff it crosses or has
  // crossed the dateline (the link between n - 1 and 0).
  function automatic dateline;
    input [11:0] s;
    input [11:0] t;
    input [12:0] n;
    input        pos;
    reg   [12:0] u;
    begin
      if (pos) begin
        u = ({1'b0, t} + 13'd1 == n) ? 13'd0 : {1'b0, t} + 13'd1;
        dateline = u < {1'b0, s};
      end else begin
        u = (t == 12'd0) ? n - 13'd1 : {1'b0, t} - 13'd1;
        dateline = u > {1'b0, s};
      end
    end
  endfunction

  // Links (E, W, N, S = bits 0..3) and, per link, the class of the hop (bit k: 1 =
  // class 1) of a head at node (r, c) of a ring or torus. A ring is row 0 of a torus
  // with one row.
  function automatic [7:0] ref_links_torus;
    input [11:0] addr;
    input [11:0] src;
    input        is_b;
    input [11:0] r;
    input [11:0] c;
    reg   [11:0] ar, ac, sr, sc;
    reg   [1:0]  x, y;
    reg   [3:0]  l, cls;
    begin
      ar = addr / ColsW;
      ac = addr % ColsW;
      // The origin of the message in each dimension: R its source, B its root.
      sr = is_b ? ar : src / ColsW;
      sc = is_b ? ac : src % ColsW;
      l  = 4'b0000;
      if (!is_b) begin
        x = ring_r(c, ac, Cols[12:0]);  // {W, E}
        y = ring_r(r, ar, Rows[12:0]);  // {N, S}
        if (x != 2'b00 && (RouteOrder == 0 || y == 2'b00)) begin
          l = {2'b00, x};
        end else begin
          l = {y[0], y[1], 2'b00};
        end
      end else begin
        x = ring_b(ac, c, Cols[12:0]);
        y = (Topology == 2) ? 2'b00 : ring_b(ar, r, Rows[12:0]);
        if (TreeOrder == 0) begin
          // Row first: along the root's row, and every node of it into its column.
          l = {y[0], y[1], (r == ar) ? x : 2'b00};
        end else begin
          l = {(c == ac) ? {y[0], y[1]} : 2'b00, x};
        end
      end
      cls = {dateline(sr, r, Rows[12:0], 1'b1), dateline(sr, r, Rows[12:0], 1'b0),
             dateline(sc, c, Cols[12:0], 1'b0), dateline(sc, c, Cols[12:0], 1'b1)};
      ref_links_torus = {cls, l};
    end
  endfunction

  /* verilator lint_off UNUSEDSIGNAL */  // the routing bits of the flit; lm beyond P
  function automatic [NOut-1:0] ref_route;
    input [FW-1:0] flit;
    input integer  inp;
    input [11:0]   t;
    reg   [11:0]   addr;
    reg            is_b, at_t, ej;
    reg   [3:0]    lm, cls;
    reg   [7:0]    lt;
    reg   [P-1:0]  links;
    integer        k, c;
    begin
      addr = flit[15:4];
      is_b = flit[2];
      cls  = 4'b0000;
      if (Topology == 0) begin
        at_t  = ((addr ^ t) & DimMask) == 12'd0;
        links = (is_b && flit[3]) ? ref_path_hc(addr, t) : ref_links_hc(addr, is_b, t);
      end else if (Topology == 1) begin
        at_t  = (addr == t);
        lm    = ref_links_mesh(addr, is_b, flit[3], node_r, node_c);
        links = lm[P-1:0];
      end else begin
        at_t  = (addr == t);
        lt    = ref_links_torus(addr, flit[27:16], is_b, node_r, node_c);
        links = lt[P-1:0];
        cls   = lt[7:4];
      end
      // The local copy: R at its destination or with ir on the way, B (tree or path)
      // except at the root.
      ej = is_b ? !at_t : (at_t || flit[3]);
      // Link p goes out on virtual output p*V + its class (section 12); a B copy with
      // V = 3 always in class 2.
      ref_route = {NOut{1'b0}};
      for (k = 0; k < P; k = k + 1) begin
        c = (is_b && V == 3) ? 2 : (V > 1 && cls[k]) ? 1 : 0;
        if (links[k]) begin
          ref_route[k * V + c] = 1'b1;
        end
      end
      // ej(i): only a link input delivers; PV + i all-port, PV one-port.
      if (ej && inp < PV) begin
        ref_route[(AllPort != 0) ? PV + inp : PV] = 1'b1;
      end
    end
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // The router.
  // ---------------------------------------------------------------------------
  wire [NIn-1:0]     credit_o;   // per virtual input
  wire [NOut-1:0]    out_valid;  // per virtual output
  wire [NOut*FW-1:0] out_flit;

  // The physical links (section 12, "The class on the wire"): a link carries the flit
  // of at most one of its VCs per cycle (an assumption on the senders, below), with
  // its class on vc; an output link's flit appears on the virtual output of its class.
  reg  [P-1:0]      lk_valid;
  reg  [P*VcW-1:0]  lk_vc;
  reg  [P*FW-1:0]   lk_flit;
  wire [P-1:0]      lo_valid;
  wire [P*VcW-1:0]  lo_vc;
  wire [P*FW-1:0]   lo_flit;
  integer           lp, lc;
  always @* begin
    lk_valid = {P{1'b0}};
    lk_vc    = {P*VcW{1'b0}};
    lk_flit  = {P*FW{1'b0}};
    for (lp = 0; lp < P; lp = lp + 1) begin
      for (lc = 0; lc < V; lc = lc + 1) begin
        if (in_valid_i[lp * V + lc]) begin
          lk_valid[lp]              = 1'b1;
          lk_vc[lp*VcW +: VcW]      = lc[VcW-1:0];
          lk_flit[lp*FW +: FW]      = in_flit_i[(lp * V + lc)*FW +: FW];
        end
      end
    end
  end
  genvar gl;
  generate
    for (gl = 0; gl < PV; gl = gl + 1) begin : gen_vout
      localparam integer LinkP = gl / V;
      localparam integer ClsI  = gl % V;
      localparam [VcW-1:0] Cls = ClsI[VcW-1:0];
      assign out_valid[gl] = lo_valid[LinkP] && (V == 1 || lo_vc[LinkP*VcW +: VcW] == Cls);
      assign out_flit[gl*FW +: FW] = lo_flit[LinkP*FW +: FW];
    end
    if (V > 1) begin : gen_links_one_vc
      // The senders of a link: one VC per cycle.
      integer   ap, av;
      reg [3:0] nv;
      reg       two;
      always @* begin
        two = 1'b0;
        for (ap = 0; ap < P; ap = ap + 1) begin
          nv = 4'd0;
          for (av = 0; av < V; av = av + 1) begin
            nv = nv + {3'b000, in_valid_i[ap * V + av]};
          end
          two = two | (nv > 4'd1);
        end
        a_link_one_vc: assume (!two);
      end
    end
  endgenerate

  /* verilator lint_off UNUSEDSIGNAL */  // lo_vc with V = 1
  wc_router #(
    .Topology        (Topology),
    .Dim             (Dim),
    .Rows            (Rows),
    .Cols            (Cols),
    .AllPort         (AllPort),
    .BufferDepth     (BufferDepth),
    .PayloadWidth    (W),
    .ReplicationCost (ReplicationCost),
    .RouteOrder      (RouteOrder),
    .TreeOrder       (TreeOrder),
    .NumVcs          (NumVcs),
    .InjectBug       (InjectBug)
  ) u_dut (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .node_id_i     (node_i),
    .link_valid_i  (lk_valid),
    .link_vc_i     (lk_vc),
    .link_flit_i   (lk_flit),
    .link_credit_o (credit_o[PV-1:0]),
    .link_valid_o  (lo_valid),
    .link_vc_o     (lo_vc),
    .link_flit_o   (lo_flit),
    .link_credit_i (credit_i[PV-1:0]),
    .inj_valid_i   (in_valid_i[NIn-1:PV]),
    .inj_flit_i    (in_flit_i[NIn*FW-1:PV*FW]),
    .inj_credit_o  (credit_o[NIn-1:PV]),
    .ej_valid_o    (out_valid[NOut-1:PV]),
    .ej_flit_o     (out_flit[NOut*FW-1:PV*FW]),
    .ej_credit_i   (credit_i[NOut-1:PV])
  );
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Receivers (section 5): output o's receiver holds what it received and has not yet
  // credited back; it returns a credit only for a flit it holds, one per cycle. A link
  // without a neighbour never returns a credit.
  // ---------------------------------------------------------------------------
  reg [NOut*CW-1:0] pend_q;  // per output: flits received, not yet credited
  integer po;
  always @(posedge clk_i) begin
    for (po = 0; po < NOut; po = po + 1) begin
      if (!rst_ni) begin
        pend_q[po*CW +: CW] <= {CW{1'b0}};
      end else begin
        pend_q[po*CW +: CW] <= pend_q[po*CW +: CW] + {{(CW - 1){1'b0}}, out_valid[po]}
                               - {{(CW - 1){1'b0}}, credit_i[po]};
      end
    end
  end

  // Per port, a bit per property that fails in this cycle; one labelled assertion per
  // property below (a label within a generate loop would not be unique in Yosys).
  wire [NOut-1:0] bad_overflow, bad_border_out, bad_worm_head, bad_worm_held;
  wire [NIn-1:0]  bad_credit, bad_sender_cred, bad_progress, bad_copies, bad_order;
  wire [NIn-1:0]  bad_from_nowhere, bad_head_route, bad_worm_route, bad_tracked;
  wire [NIn-1:0]  bad_sw_wait;

  genvar go;
  generate
    for (go = 0; go < NOut; go = go + 1) begin : gen_out
      wire [CW-1:0] pend = pend_q[go*CW +: CW];
      wire          border;
      if (go < PV) begin : gen_link
        assign border = !exist[go / V];
      end else begin : gen_ej
        assign border = 1'b0;
      end
      always @* begin
        assume (!credit_i[go] || (rst_ni && pend != {CW{1'b0}}));
        assume (!(credit_i[go] && border));
      end

      // Output o carries one worm from head to tail: owner and "worm open" of the
      // output, from the tags of what it carried.
      reg       open_q;
      reg [4:0] owner_q;
      wire          flit_head = out_flit[go*FW];
      wire          flit_tail = out_flit[go*FW + 1];
      wire [4:0]    flit_src  = out_flit[go*FW + SrcLo +: 5];
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          open_q  <= 1'b0;
          owner_q <= 5'd0;
        end else if (out_valid[go]) begin
          open_q  <= !flit_tail;
          owner_q <= flit_src;
        end
      end
      assign bad_overflow[go]   = rst_ni && pend > Depth;
      assign bad_border_out[go] = rst_ni && border && out_valid[go];
      assign bad_worm_head[go]  = rst_ni && out_valid[go] && !open_q && !flit_head;
      assign bad_worm_held[go]  = rst_ni && out_valid[go] && open_q &&
                                  (flit_head || flit_src != owner_q);
    end
  endgenerate

  // ---------------------------------------------------------------------------
  // Senders and the per-input checks, for every input s.
  // ---------------------------------------------------------------------------
  // The tracked flit: whether it was sent, and its value.
  wire [NIn-1:0] trk_hit;
  reg            trk_seen_q;
  reg [FW-1:0]   trk_q;

  genvar gs;
  generate
    for (gs = 0; gs < NIn; gs = gs + 1) begin : gen_in
      localparam [4:0] S = gs;
      wire          v    = in_valid_i[gs];
      wire [FW-1:0] f    = in_flit_i[gs*FW +: FW];
      wire          link = (gs < PV);
      wire          border;
      if (gs < PV) begin : gen_link
        assign border = !exist[gs / V];
      end else begin : gen_inj
        assign border = 1'b0;
      end

      // Sender: credit counter (starts at BufferDepth, a credit usable in the cycle it
      // arrives), whether a worm is open, the tag of the next flit.
      reg [CW-1:0]   cred_q;
      reg            worm_q;
      reg [TagW-1:0] n_q;
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          cred_q <= Depth;
          worm_q <= 1'b0;
          n_q    <= {TagW{1'b0}};
        end else begin
          cred_q <= cred_q - {{(CW - 1){1'b0}}, v} + {{(CW - 1){1'b0}}, credit_o[gs]};
          if (v) begin
            worm_q <= !f[1];
            n_q    <= n_q + 1'b1;
          end
        end
      end

      wire [NOut-1:0] head_route = ref_route(f, gs, node_i);
      always @* begin
        // Link handshake (section 5): a flit only with a credit; none during reset, none
        // on a link without a neighbour.
        assume (!v || (rst_ni && (cred_q != {CW{1'b0}} || credit_o[gs])));
        assume (!(v && border));
        if (v) begin
          // Worms (section 4): a head first, then body flits, then the tail.
          assume (worm_q ? !f[0] : f[0]);
          assume (f[SrcLo +: 5] == S && f[TagLo +: TagW] == n_q);
          if (f[0]) begin
            // A header the NI or a neighbour sends: a node of the network, a route that
            // is not empty; injected: R to another node, or B from this node (the root).
            assume (f[15:4] < NodesW);
            assume (head_route != {NOut{1'b0}});
            if (!link) begin
              assume (f[2] ? f[15:4] == node_i : f[15:4] != node_i);
            end
            if (Topology >= 2) begin
              // Rings and tori: the source is a node (the NI's own when injected), and
              // there is no path broadcast (the NI refuses it, section 8).
              assume (f[27:16] < NodesW && (link || f[27:16] == node_i));
              assume (!(f[2] && f[3]));
            end
          end
        end
      end

      // The tracked flit is sent now.
      assign trk_hit[gs] = rst_ni && v && track_in_i == S && n_q == track_n_i;

      // What the outputs carry from input s this cycle: mask, the flit (all copies of
      // one flit leave in the same cycle), whether all copies are equal.
      reg [NOut-1:0] m;
      reg [FW-1:0]   mf;
      reg            same;
      integer        o;
      always @* begin
        m    = {NOut{1'b0}};
        mf   = {FW{1'b0}};
        same = 1'b1;
        for (o = NOut - 1; o >= 0; o = o - 1) begin
          if (out_valid[o] && out_flit[o*FW + SrcLo +: 5] == S) begin
            m[o] = 1'b1;
            mf   = out_flit[o*FW +: FW];
          end
        end
        for (o = 0; o < NOut; o = o + 1) begin
          if (m[o] && out_flit[o*FW +: FW] != mf) begin
            same = 1'b0;
          end
        end
      end
      wire left = (m != {NOut{1'b0}});

      // Receiving side of input s: the tag of the next flit expected at the outputs,
      // the worm in progress and its outputs.
      reg [TagW-1:0] dn_q;
      reg            dworm_q;
      reg [NOut-1:0] droute_q;
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          dn_q     <= {TagW{1'b0}};
          dworm_q  <= 1'b0;
          droute_q <= {NOut{1'b0}};
        end else if (left) begin
          dn_q     <= dn_q + 1'b1;
          dworm_q  <= !mf[1];
          droute_q <= m;
        end
      end

      // Flits within the router at input s this cycle: accepted up to this cycle, not
      // yet left (a flit seen at the outputs now left in the previous cycle).
      wire [TagW-1:0] in_router = n_q + {{(TagW - 1){1'b0}}, v} - dn_q -
                                  {{(TagW - 1){1'b0}}, left};
      // The worm in progress after this cycle's outputs, and downstream room on all its
      // outputs (a receiver holding fewer than BufferDepth flits, or returning a credit).
      wire            dworm_now  = left ? !mf[1] : dworm_q;
      wire [NOut-1:0] droute_now = left ? m : droute_q;
      reg room;
      integer ro;
      always @* begin
        room = 1'b1;
        for (ro = 0; ro < NOut; ro = ro + 1) begin
          // The flit on the output now is not counted by the receiver yet but has used
          // its credit.
          if (droute_now[ro] && !(pend_q[ro*CW +: CW] + {{(CW - 1){1'b0}}, out_valid[ro]}
                                  < Depth ||
                                  credit_i[ro])) begin
            room = 1'b0;
          end
        end
      end
      // A worm in progress (its head left, the tail not yet) with a flit at this input
      // and room on all its outputs moves that flit now: it is on the outputs next cycle.
      reg must_move_q;
      always @(posedge clk_i) begin
        must_move_q <= rst_ni && dworm_now && in_router != {TagW{1'b0}} && room;
      end
      // With V > 1 it may lose a link to another VC in switch allocation (section 12,
      // step 6b): excused when a link of its worm carries another input's flit now,
      // but only for NIn cycles in a row (the bounded wait of step 6b).
      reg     lost;
      integer lo;
      always @* begin
        lost = 1'b0;
        for (lo = 0; lo < PV; lo = lo + 1) begin
          if (V > 1 && droute_q[lo] && lo_valid[lo / V] &&
              lo_flit[(lo / V)*FW + SrcLo +: 5] != S) begin
            lost = 1'b1;
          end
        end
      end
      reg [4:0] lost_n_q;
      always @(posedge clk_i) begin
        if (!rst_ni || !(must_move_q && !left)) begin
          lost_n_q <= 5'd0;
        end else if (lost_n_q != 5'd31) begin
          lost_n_q <= lost_n_q + 5'd1;
        end
      end

      wire [NOut-1:0] ref_m = ref_route(mf, gs, node_i);
      assign bad_credit[gs]       = rst_ni && (credit_o[gs] != left);
      assign bad_sender_cred[gs]  = rst_ni && cred_q > Depth;
      assign bad_progress[gs]     = rst_ni && must_move_q && !left && !lost;
      assign bad_sw_wait[gs]      = rst_ni && must_move_q && !left &&
                                    {27'd0, lost_n_q} >= NIn;
      assign bad_copies[gs]       = rst_ni && left && !same;
      assign bad_order[gs]        = rst_ni && left && mf[TagLo +: TagW] != dn_q;
      assign bad_from_nowhere[gs] = rst_ni && left && in_router[TagW-1];
      assign bad_head_route[gs]   = rst_ni && left && !dworm_q && (!mf[0] || m != ref_m);
      assign bad_worm_route[gs]   = rst_ni && left && dworm_q && (mf[0] || m != droute_q);
      assign bad_tracked[gs]      = rst_ni && left && trk_seen_q && track_in_i == S &&
                                    mf[TagLo +: TagW] == track_n_i && mf != trk_q;
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      trk_seen_q <= 1'b0;
    end else if (trk_hit != {NIn{1'b0}}) begin
      trk_seen_q <= 1'b1;
      trk_q      <= in_flit_i[track_in_i*FW +: FW];
    end
  end

  // ---------------------------------------------------------------------------
  // The end-to-end properties (docs/verification.md lists them).
  // ---------------------------------------------------------------------------
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // No receiver gets more flits than it has room for (no overflow downstream).
      p_receiver_no_overflow: assert (bad_overflow == {NOut{1'b0}});
      // A mesh link without a neighbour never carries a flit.
      p_border_output_idle:   assert (bad_border_out == {NOut{1'b0}});
      // An output carries a worm head first, then only that worm's flits to its tail.
      p_output_worm_starts_with_head: assert (bad_worm_head == {NOut{1'b0}});
      p_output_held_head_to_tail:     assert (bad_worm_held == {NOut{1'b0}});
      // A credit goes back to the sender exactly when one of its flits left the input.
      p_credit_per_flit:      assert (bad_credit == {NIn{1'b0}});
      // The router never returns a credit for a slot it did not fill.
      p_no_spurious_credit:   assert (bad_sender_cred == {NIn{1'b0}});
      // A flit of a worm in progress moves as soon as all its outputs have room (with
      // V > 1: unless another VC takes one of its links in that cycle).
      p_worm_progress:        assert (bad_progress == {NIn{1'b0}});
      // With V > 1, one that lost a link to another VC moves within NIn cycles.
      p_switch_bounded_wait:  assert (bad_sw_wait == {NIn{1'b0}});
      // Every copy of a flit leaves in the same cycle and is the same flit (MR lockstep).
      p_copies_identical:     assert (bad_copies == {NIn{1'b0}});
      // The flits of an input leave in the order they arrived, each once: no loss, no
      // duplication, no reordering (a B copy is one departure to several outputs).
      p_in_order_once:        assert (bad_order == {NIn{1'b0}});
      p_no_flit_from_nowhere: assert (bad_from_nowhere == {NIn{1'b0}});
      // A head leaves on exactly the outputs section 8 decodes from its header, the rest
      // of its worm on exactly the same outputs.
      p_head_route:           assert (bad_head_route == {NIn{1'b0}});
      p_worm_route:           assert (bad_worm_route == {NIn{1'b0}});
      // The tracked flit leaves bit for bit as it arrived.
      p_tracked_flit_intact:  assert (bad_tracked == {NIn{1'b0}});
    end
  end

endmodule
