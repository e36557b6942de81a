// wc_route -- combinational route computation of the wormcast router for one input.
//
// Implements docs/microarchitecture.md, section 8: route(flit, i) for a head flit at
// router T (node_id_i) that waits on input port i (in_port_i). The result is an NOut-bit
// output mask, NOut = P + E, bit o = output port o (0..P-1 links, P..P+E-1 ejection).
//
//   ej(i) = P + i (all-port) or P (one-port), and only for a link input (i < P); an
//   injection input never ejects, so every "+ ej(i)" below adds nothing for i >= P.
//
//   Dimension orders (RouteOrder for R, TreeOrder for B): 0 = ascending (lowest
//   dimension first; X before Y), 1 = descending (highest first; Y before X).
//   R, hypercube: x = (address xor T) mod 2^Dim. x == 0: {ej(i)}. Else {lowest (RouteOrder
//      0) or highest (1) set bit of x}, plus ej(i) if ir.
//   R, mesh: XY (0): column differs: E/W towards it; else row differs: S/N towards it.
//      YX (1): the row first, then the column. At the destination {ej(i)}. Plus ej(i) if
//      ir and not at the destination.
//   B, hypercube: x = (S xor T) mod 2^Dim. x == 0 (root): all links. Else, TreeOrder 1
//      (Jeon & Kim's Algorithm B): links {0..k-1}, k = lowest set bit of x (none if x is
//      odd); TreeOrder 0 (mirrored): links {k+1..Dim-1}, k = highest set bit of x. Plus
//      ej(i).
//   B, mesh: root: every existing link. TreeOrder 0 (row, then columns): on the root's
//      row away from the root along the row, plus N and S; elsewhere away from the
//      root's row along the column. TreeOrder 1 (column, then rows): the same with rows
//      and columns exchanged. Plus ej(i).
//   B with ir = 1 (the path broadcast), hypercube: k = the Gray decoding of x (bit b of
//      k = XOR of bits b..Dim-1 of x), the position of T on the root's Gray-code path:
//      the link of the lowest 0 bit of k (none at the end, k all ones). Plus ej(i) if
//      x != 0.
//   B with ir = 1, mesh: the boustrophedon (even rows eastwards, odd rows westwards, one
//      hop south between rows). next: even row E, or S at the last column; odd row W,
//      or S at column 0. previous: even row W, or N at column 0; odd row E, or N at the
//      last column. T after the root on the path: next; before it: previous; the root:
//      both. Only existing links. Plus ej(i) if T is not the root.
//   Mesh only: the link part of every mask is ANDed with the set of neighbours that
//   exist, so a border port is never selected (this only changes anything for an
//   address outside the mesh, which the NI never sends).
//   The address is a node index; on the hypercube only its low Dim bits are used.
//
//   Rings and tori (Topology 2 and 3; docs/microarchitecture.md section 12): a ring of N
//   nodes is Rows = 1, Cols = N with P = 2 (E, W); a torus has P = 4 and every port
//   connected. R routes and B trees are the mesh's, dimension by dimension, with the
//   shortest way round each ring (f = (b - a) mod n: the positive way, E or S, iff
//   2f <= n; ties the positive way). A node forwards the tree of root coordinate s
//   towards its neighbour b in a dimension iff b != s and the way from s to b is the way
//   from here to b. Every link of the mask is a virtual output p*V + class: the
//   dateline class (1 iff the hop crosses or has crossed the link between n - 1 and 0
//   of its dimension, counted from the origin: R the source field, B the root), or
//   class 2 for B with NumVcs = 3.
//   The mask has NOut = P*V + E bits: virtual links p*V + c, then the ejection channels;
//   ej(i) = P*V + i (all-port) or P*V (one-port) for a (virtual) link input i < P*V.
//
// The result is all zero when the flit is not a head (flit[0] == 0). The ir bit selects,
// for B, the path instead of the tree (docs/microarchitecture.md section 8).
//
// On the hypercube and the mesh the whole computation is one process under "if the flit
// is a head": in hardware that is the same AND with is_head as before, and a simulator
// skips it for body and tail flits, which are most of what passes an input. On rings
// and tori it is continuous assignments of small functions on coordinates of
// $clog2(Rows) / $clog2(Cols) bits, ANDed with is_head at the end (see gen_torus).
//
// Ports:
//   node_id_i  this router's node index T (`WC_FLIT_ADDR_BITS = 12 bits; an input rather
//              than a parameter so that one router module serves every node).
//   in_port_i  index i of the input port (0..NIn-1; NIn <= 24 so 5 bits suffice).
//   flit_lo_i  bits [`WC_FLIT_ROUTE_BITS-1:0] = [15:0] of the head-of-line flit of that
//              input: the kind and, for a head, the header fields that route: type, ir,
//              address (section 4; the layout is rtl/wc_defs.vh); on rings and tori bits
//              [`WC_FLIT_SOURCE_MSB:0] = [27:0], with the source (the dateline class of R).
//              The rest of the flit never influences routing.
//   route_o    the NOut-bit output mask.
//
// InjectBug (deliberate faults for the cosimulation's self-test, 0 = correct):
//   1: R routes in the other dimension order than RouteOrder (hypercube: the other end of
//      x; mesh: Y before X, or X before Y).
//   3: every B mask loses its lowest link bit (one replication branch missing).
//   4: R with ir = 1 is not delivered at intermediate routers.
//   12: TreeOrder is ignored: B uses the topology's default tree (descending on the
//      hypercube, ascending on the mesh), as if the parameter were not passed down.
//   13: the path broadcast's position on its path is wrong: on the hypercube x itself
//      (no Gray decoding), on the mesh every row taken as even (eastwards).
//   14: rings and tori: no dateline, every hop in class 0 (section 12).
//   Other values do not affect this module.
`include "wc_defs.vh"

module wc_route #(
  // 0 = hypercube Q_Dim, 1 = Rows x Cols mesh, 2 = ring of Cols nodes, 3 = Rows x Cols torus
  parameter integer Topology     = 0,
  parameter integer Dim          = 3,  // hypercube dimension (Topology 0), 1..12
  parameter integer Rows         = 4,  // mesh / torus rows (Topology 1, 3), 1..64; ring: 1
  parameter integer Cols         = 4,  // mesh / torus columns, 1..64; ring: nodes, 2..4096
  parameter integer AllPort      = 1,  // 1 = all-port (E = P*V ejection channels), 0 = one-port
  parameter integer RouteOrder   = 0,  // R: 0 = ascending (e-cube, XY), 1 = descending (YX)
  // B tree: 0 = ascending (mesh: row first), 1 = descending (hypercube: Algorithm B)
  parameter integer TreeOrder    = (Topology == 0) ? 1 : 0,
  parameter integer NumVcs       = 1,  // V: 1 (Topology 0, 1), 2 or 3 (Topology 2, 3)
  parameter integer InjectBug    = 0   // deliberate fault, see above; 0 = correct
) (
  input  [`WC_FLIT_ADDR_BITS-1:0]                                node_id_i,
  input  [4:0]                                                   in_port_i,
  input  [((Topology >= 2) ? `WC_FLIT_SOURCE_MSB + 1 : `WC_FLIT_ROUTE_BITS)-1:0] flit_lo_i,
  output [((Topology == 0) ? Dim : (Topology == 2) ? 2 : 4) * NumVcs * ((AllPort != 0) ? 2 : 1)
          + ((AllPort != 0) ? 0 : 1) - 1:0]                      route_o
);

  localparam integer P    = (Topology == 0) ? Dim : (Topology == 2) ? 2 : 4;
  localparam integer PV   = P * NumVcs;
  localparam integer E    = (AllPort != 0) ? PV : 1;

  localparam [4:0] PortP = PV[4:0];
  // Rings and tori (section 12): coordinate width (the larger dimension's), the
  // columns as a 12-bit constant and whether they are a power of two.
  localparam integer RowW     = (Rows > 1) ? $clog2(Rows) : 1;
  localparam integer ColW     = (Cols > 1) ? $clog2(Cols) : 1;
  localparam integer TorW     = (RowW > ColW) ? RowW : ColW;
  localparam [11:0]  ColsW12  = Cols[11:0];
  localparam integer ColsPow2 = ((1 << ColW) == Cols) ? 1 : 0;
  // The orders in effect (InjectBug 1: the other route order; 12: the default tree).
  localparam integer RouteDesc = (InjectBug == 1) ? 1 - RouteOrder : RouteOrder;
  localparam integer TreeDesc  = (InjectBug == 12) ? ((Topology == 0) ? 1 : 0) : TreeOrder;

  // Header fields (section 4, rtl/wc_defs.vh).
  wire        is_head = flit_lo_i[`WC_FLIT_HEAD_BIT];
  wire        hdr_b   = flit_lo_i[`WC_FLIT_TYPE_BIT];  // `WC_HDR_TYPE_B (1) = B, else R
  wire        hdr_ir  = flit_lo_i[`WC_FLIT_IR_BIT];
  wire [`WC_FLIT_ADDR_BITS-1:0] addr = flit_lo_i[`WC_FLIT_ADDR_MSB:`WC_FLIT_ADDR_LSB];
  // The tail bit does not influence routing.
  wire unused_tail_bit = flit_lo_i[`WC_FLIT_TAIL_BIT];

  // ej(i) as a mask over the E ejection outputs; zero for an injection input.
  wire         is_link = (in_port_i < PortP);
  wire [E-1:0] ej_sel;
  genvar ge;
  generate
    for (ge = 0; ge < E; ge = ge + 1) begin : gen_ej
      if (AllPort != 0) begin : gen_all_port
        assign ej_sel[ge] = is_link & (in_port_i == ge);
      end else begin : gen_one_port
        assign ej_sel[ge] = is_link;
      end
    end
  endgenerate

  reg [P-1:0] links;  // link part of the mask
  reg         ej;     // deliver locally (on ej(i))
  wire [PV-1:0] vlinks;  // the links as virtual outputs p*V + class

  generate
    if (Topology == 0) begin : gen_hypercube
      localparam [11:0] DimMask = (12'd1 << Dim) - 12'd1;
      wire [11:0]  x_full = (addr ^ node_id_i) & DimMask;
      wire [P-1:0] x      = x_full[P-1:0];  // the dimensions still to correct
      wire         unused_x_full = ^x_full;  // bits >= Dim are zero by construction
      // Scratch of the process below.
      reg         at_t;
      reg [P-1:0] low;        // the lowest set bit of x
      reg [P-1:0] high;       // the highest set bit of x
      reg [P-1:0] below_low;  // bits below the lowest set bit of x; all ones if x == 0
      reg [P-1:0] above_high; // bits above the highest set bit of x; all ones if x == 0
      reg [P-1:0] r_hop;
      reg [P-1:0] b_tree;
      reg [P-1:0] b_links;
      reg         seen;       // some bit of x at or above b is set (loop below)
      reg [P-1:0] path_pos;   // T's position on the root's Gray-code path (Gray decoding of x)
      reg [P-1:0] path_next;  // one-hot: the dimension from that position to the next
      reg         parity;     // XOR of the bits of x at or above b (loop below)
      integer     b;

      always @* begin
        links      = {P{1'b0}};
        ej         = 1'b0;
        at_t       = 1'b0;
        low        = {P{1'b0}};
        high       = {P{1'b0}};
        below_low  = {P{1'b0}};
        above_high = {P{1'b0}};
        r_hop      = {P{1'b0}};
        b_tree     = {P{1'b0}};
        b_links    = {P{1'b0}};
        seen       = 1'b0;
        path_pos   = {P{1'b0}};
        path_next  = {P{1'b0}};
        parity     = 1'b0;
        if (is_head) begin
          at_t      = (x == {P{1'b0}});
          low       = x & (~x + 1'b1);
          below_low = ~x & (x - 1'b1);
          // From the top down: high is the first set bit met, above_high the bits before it.
          for (b = P - 1; b >= 0; b = b - 1) begin
            high[b]       = x[b] & ~seen;
            seen          = seen | x[b];
            above_high[b] = ~seen;
            // Gray decoding, from the top down (fault 13: none).
            parity        = parity ^ x[b];
            path_pos[b]   = (InjectBug == 13) ? x[b] : parity;
          end
          // The lowest 0 bit of the position; zero at the end of the path (all ones).
          path_next = ~path_pos & (path_pos + 1'b1);
          r_hop  = (RouteDesc != 0) ? high : low;
          b_tree = (TreeDesc != 0) ? below_low : above_high;
          if (InjectBug == 3) begin
            // Fault: the lowest child link of every B mask is dropped.
            b_links = b_tree & (b_tree - 1'b1);
          end else begin
            b_links = b_tree;
          end
          if (hdr_b) begin
            links = hdr_ir ? path_next : b_links;
            ej    = ~at_t;
          end else begin
            links = at_t ? {P{1'b0}} : r_hop;
            // Fault 4: the ir bit is ignored.
            ej    = at_t | (hdr_ir & (InjectBug != 4));
          end
        end
      end

      assign vlinks = links;

    end else if (Topology == 1) begin : gen_mesh
      localparam integer RowsM1  = Rows - 1;
      localparam integer ColsM1  = Cols - 1;
      localparam [11:0]  ColsW   = Cols[11:0];
      localparam [11:0]  LastRow = RowsM1[11:0];
      localparam [11:0]  LastCol = ColsM1[11:0];
      // Port numbering (section 2): E = 0 (col+1), W = 1 (col-1), N = 2 (row-1), S = 3 (row+1).
      wire [11:0] my_r = node_id_i / ColsW;
      wire [11:0] my_c = node_id_i % ColsW;
      wire [3:0]  exist = {my_r != LastRow, my_r != 12'd0, my_c != 12'd0, my_c != LastCol};
      // Scratch of the process below.
      reg [11:0] d_r, d_c;  // row and column of the address
      reg        same_r, same_c, at_t;
      reg [3:0]  go_x, go_y, r_hop, b_raw, b_ex;
      reg        odd_row, after;     // the path broadcast: T's row runs westwards; T after S
      reg [3:0]  p_next, p_prev, p_raw;

      always @* begin
        links  = 4'b0000;
        ej     = 1'b0;
        d_r    = 12'd0;
        d_c    = 12'd0;
        same_r = 1'b0;
        same_c = 1'b0;
        at_t   = 1'b0;
        go_x   = 4'b0000;
        go_y   = 4'b0000;
        r_hop  = 4'b0000;
        b_raw  = 4'b0000;
        b_ex   = 4'b0000;
        odd_row = 1'b0;
        after  = 1'b0;
        p_next = 4'b0000;
        p_prev = 4'b0000;
        p_raw  = 4'b0000;
        if (is_head) begin
          d_r    = addr / ColsW;
          d_c    = addr % ColsW;
          same_r = (d_r == my_r);
          same_c = (d_c == my_c);
          at_t   = same_r & same_c;
          go_x   = (d_c > my_c) ? 4'b0001 : 4'b0010;  // E : W
          go_y   = (d_r > my_r) ? 4'b1000 : 4'b0100;  // S : N
          if (RouteDesc != 0) begin
            r_hop = !same_r ? go_y : !same_c ? go_x : 4'b0000;  // YX
          end else begin
            r_hop = !same_c ? go_x : !same_r ? go_y : 4'b0000;  // XY
          end
          // B (d_r / d_c are the root's row / column). go_x and go_y point towards the
          // root; flipping them points away from it.
          if (TreeDesc != 0) begin
            // The root, the root's column, or a row.
            b_raw = at_t   ? 4'b1111 :
                    same_c ? (go_y ^ 4'b1100) | 4'b0011 :   // away from the root: S if r > rs
                             (go_x ^ 4'b0011);               // away from the root's column
          end else begin
            // The root, the root's row, or a column.
            b_raw = at_t   ? 4'b1111 :
                    same_r ? (go_x ^ 4'b0011) | 4'b1100 :   // away from the root: E if c > cs
                             (go_y ^ 4'b1100);               // away from the root's row
          end
          b_ex  = b_raw & exist;
          // The path broadcast along the boustrophedon (fault 13: every row eastwards).
          odd_row = my_r[0] & (InjectBug != 13);
          after   = (my_r > d_r) | (same_r & (odd_row ? (my_c < d_c) : (my_c > d_c)));
          p_next  = odd_row ? ((my_c != 12'd0)  ? 4'b0010 : 4'b1000)    // W : S
                            : ((my_c != LastCol) ? 4'b0001 : 4'b1000);  // E : S
          p_prev  = odd_row ? ((my_c != LastCol) ? 4'b0001 : 4'b0100)   // E : N
                            : ((my_c != 12'd0)  ? 4'b0010 : 4'b0100);  // W : N
          p_raw   = at_t ? (p_next | p_prev) : after ? p_next : p_prev;
          if (hdr_b & hdr_ir) begin
            links = p_raw & exist;
            ej    = ~at_t;
          end else if (hdr_b) begin
            // Fault 3: the lowest child link of every B mask is dropped.
            links = (InjectBug == 3) ? (b_ex & (b_ex - 1'b1)) : b_ex;
            ej    = ~at_t;
          end else begin
            links = r_hop & exist;
            // Fault 4: the ir bit is ignored.
            ej    = at_t | (hdr_ir & (InjectBug != 4));
          end
        end
      end
      assign vlinks = links;

    end else begin : gen_torus
      // Rings (Topology 2: Rows = 1, ports E, W) and tori (Topology 3): section 12.
      // Continuous assignments on TorW-bit coordinates, without a divider: node
      // indices become coordinates by slices (Cols a power of two) or by comparing with
      // the first node of every row (torus_rc). Written as one process on 12-bit
      // coordinates with / and %, the same function cost Yosys minutes per instance.
      localparam integer VcW   = (NumVcs > 1) ? $clog2(NumVcs) : 1;
      localparam integer BClassI = (NumVcs == 3) ? 2 : 0;
      localparam [VcW-1:0] BClass = BClassI[VcW-1:0];
      localparam [TorW:0]  RowsN = Rows[TorW:0];
      localparam [TorW:0]  ColsN = Cols[TorW:0];
      localparam integer   RowsLI = Rows - 1;
      localparam integer   ColsLI = Cols - 1;
      localparam [TorW-1:0] RowsL = RowsLI[TorW-1:0];  // the last row
      localparam [TorW-1:0] ColsL = ColsLI[TorW-1:0];  // the last column
      // The coordinates of this node, of the address (destination or root) and of the
      // source field (bits [TorW-1:0]: column, [2*TorW-1:TorW]: row).
      wire [2*TorW-1:0] my_rc  = torus_rc(node_id_i);
      wire [2*TorW-1:0] d_rc   = torus_rc(addr);
      wire [2*TorW-1:0] src_rc = torus_rc(flit_lo_i[`WC_FLIT_SOURCE_MSB:`WC_FLIT_SOURCE_LSB]);
      wire [TorW-1:0] my_r = my_rc[2*TorW-1:TorW];
      wire [TorW-1:0] my_c = my_rc[TorW-1:0];
      wire [TorW-1:0] d_r  = d_rc[2*TorW-1:TorW];
      wire [TorW-1:0] d_c  = d_rc[TorW-1:0];
      // The origin in each dimension (the dateline class): R its source, B its root.
      wire [TorW-1:0] o_r  = hdr_b ? d_r : src_rc[2*TorW-1:TorW];
      wire [TorW-1:0] o_c  = hdr_b ? d_c : src_rc[TorW-1:0];
      wire       same_r = (d_r == my_r);
      wire       same_c = (d_c == my_c);
      wire       at_t   = same_r & same_c;
      wire [3:0] go_x   = torus_pos(my_c, d_c, ColsN) ? 4'b0001 : 4'b0010;  // E : W
      wire [3:0] go_y   = torus_pos(my_r, d_r, RowsN) ? 4'b1000 : 4'b0100;  // S : N
      wire [3:0] r_hop  = (RouteOrder != 0) ?
                          (!same_r ? go_y : !same_c ? go_x : 4'b0000) :   // YX
                          (!same_c ? go_x : !same_r ? go_y : 4'b0000);    // XY
      // B: the children along each dimension around the root's coordinate.
      wire [3:0] b_x    = {2'b00, torus_child(my_c, d_c, ColsN, ColsL, 1'b0),
                           torus_child(my_c, d_c, ColsN, ColsL, 1'b1)};
      wire [3:0] b_y    = (Topology == 2) ? 4'b0000 :
                          {torus_child(my_r, d_r, RowsN, RowsL, 1'b1),
                           torus_child(my_r, d_r, RowsN, RowsL, 1'b0), 2'b00};
      wire [3:0] b_all  = (TreeOrder != 0) ?
                          (b_x | (same_c ? b_y : 4'b0000)) :  // the root's column, then the rows
                          (b_y | (same_r ? b_x : 4'b0000));   // the root's row, then the columns
      // The dateline class of a hop on each port (section 12); fault 14: always class 0.
      wire [3:0] cls    = (InjectBug == 14) ? 4'b0000 :
                          {torus_next(my_r, RowsL) < o_r,   // S
                           torus_prev(my_r, RowsL) > o_r,   // N
                           torus_prev(my_c, ColsL) > o_c,   // W
                           torus_next(my_c, ColsL) < o_c};  // E

      always @* begin
        links = is_head ? (hdr_b ? b_all[P-1:0] : r_hop[P-1:0]) : {P{1'b0}};
        ej    = is_head & (hdr_b ? ~at_t : (at_t | hdr_ir));
      end

      if (P < 4) begin : gen_ring_unused
        // A ring has no N and S.
        wire unused_ns = ^{r_hop[3:2], b_all[3:2], cls[3:2]};
      end

      // Link p goes out on virtual output p*V + class.
      genvar gv;
      for (gv = 0; gv < PV; gv = gv + 1) begin : gen_vlink
        localparam integer Port  = gv / NumVcs;
        localparam integer ClsI  = gv % NumVcs;
        localparam [VcW-1:0] Cls = ClsI[VcW-1:0];
        wire [VcW-1:0] hop_cls = (hdr_b && NumVcs == 3) ? BClass : {{VcW-1{1'b0}}, cls[Port]};
        assign vlinks[gv] = links[Port] & (hop_cls == Cls);
      end
    end
  endgenerate

  // Rings and tori: the coordinates of node index n (< Rows * Cols) as {row, column},
  // TorW bits each. Cols a power of two: slices; otherwise the last row whose first
  // node is at most n (a ring has one row: the column is n).
  function automatic [2*TorW-1:0] torus_rc;
    input [11:0] n;
    reg   [11:0] r, c, first;
    integer      q;
    begin
      r = 12'd0;
      c = n;
      for (q = 1; q < Rows; q = q + 1) begin
        first = q[11:0] * ColsW12;
        r = (n >= first) ? q[11:0] : r;
        c = (n >= first) ? n - first : c;
      end
      r = (ColsPow2 != 0 && Rows > 1) ? n >> ColW : r;
      c = (ColsPow2 != 0 && Rows > 1) ? n & (ColsW12 - 12'd1) : c;
      torus_rc = {r[TorW-1:0], c[TorW-1:0]};
    end
  endfunction

  // The way from coordinate a to b in a ring of n: 1 = positive (E, S), ties included:
  // f = (b - a) mod n, positive iff 2f <= n.
  function automatic torus_pos;
    input [TorW-1:0] a;
    input [TorW-1:0] b;
    input [TorW:0]   n;
    reg   [TorW:0]   f;
    begin
      f         = (b >= a) ? {1'b0, b - a} : {1'b0, b} + n - {1'b0, a};
      torus_pos = ({f, 1'b0} <= {1'b0, n});
    end
  endfunction

  // The neighbours of coordinate a in a ring whose last coordinate is last (n - 1),
  // the positive and the negative way.
  function automatic [TorW-1:0] torus_next;
    input [TorW-1:0] a;
    input [TorW-1:0] last;
    begin
      torus_next = (a == last) ? {TorW{1'b0}} : a + 1'b1;
    end
  endfunction

  function automatic [TorW-1:0] torus_prev;
    input [TorW-1:0] a;
    input [TorW-1:0] last;
    begin
      torus_prev = (a == {TorW{1'b0}}) ? last : a - 1'b1;
    end
  endfunction

  // Does the node at coordinate a forward the tree of root coordinate s the way dir
  // (1 positive) in a ring of n: its neighbour b that way is not s, and the way from s
  // to b is dir.
  function automatic torus_child;
    input [TorW-1:0] a;
    input [TorW-1:0] s;
    input [TorW:0]   n;
    input [TorW-1:0] last;  // n - 1
    input            dir;
    reg   [TorW-1:0] b;
    begin
      b           = dir ? torus_next(a, last) : torus_prev(a, last);
      torus_child = (b != s) && (torus_pos(s, b, n) == dir);
    end
  endfunction

  assign route_o = {ej_sel & {E{ej}}, vlinks};

endmodule
