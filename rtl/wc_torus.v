// wc_torus -- a ring or a Rows x Cols torus of wormcast routers with virtual channels
// (no NIs).
//
// docs/microarchitecture.md, sections 2 and 12: node index = row*Cols + col, row 0 on
// top; ports E = 0 (col+1), W = 1 (col-1), N = 2 (row-1), S = 3 (row+1), every one
// connected, the last column to the first and the last row to the first (mod Cols,
// mod Rows). A ring (Topology 2) is Rows = 1 with ports E and W only. Output port p of
// (r,c) drives input port p^1 of its neighbour in direction p: the link's valid, vc
// and flit, and the neighbour's V credit wires come back for that link. Node n gets
// node_id_i = n; its instance is gen_row[row].gen_node[col].u_router. N = Rows*Cols
// nodes, P = 2 (ring) or 4 (torus), V = NumVcs, J = P (all-port) or 1 injection
// channels, E = P*V (all-port: one per virtual input, section 12) or 1 ejection
// channels, FW = PayloadWidth + 2, VcW = ceil(log2 V).
//
// Every channel uses the valid / flit / credit handshake of section 5 (valid, vc and
// flit from the sender's output registers, credit from the receiver's register; one
// credit = one slot of that VC freed in the previous cycle; BufferDepth initial
// credits per VC).
//
// Ports (node n, channel c at index n*J + c or n*E + c; node n, port p at index n*P + p;
// node n, virtual link input p*V + k at index (n*P + p)*V + k; flit vectors hold FW bits
// per index, vc vectors VcW):
//   clk_i              clock, rising edge.
//   rst_ni             asynchronous active-low reset.
//   inj_valid_i        [N*J]       injection valid, driven by the NIs.
//   inj_flit_i         [N*J*FW]    injection flit.
//   inj_credit_o       [N*J]       injection credit back to the NIs (router register).
//   ej_valid_o         [N*E]       ejection valid to the NIs (router output register).
//   ej_flit_o          [N*E*FW]    ejection flit.
//   ej_credit_i        [N*E]       ejection credit from the NIs (NI register).
//   obs_link_valid_o   [N*P]       observation: out_valid_q of router n's link output p.
//   obs_link_vc_o      [N*P*VcW]   observation: out_vc_q of router n's link output p.
//   obs_link_flit_o    [N*P*FW]    observation: out_flit_q of router n's link output p.
//   obs_link_credit_o  [N*P*V]     observation: credit_out_q of router n's virtual link
//                                  input p*V + k.
module wc_torus #(
  parameter integer Topology     = 3,  // 2 = ring of Cols nodes (Rows = 1), 3 = Rows x Cols torus
  parameter integer Rows         = 4,  // torus rows, 2..64; ring: 1
  parameter integer Cols         = 4,  // torus columns, 2..64; ring: nodes, 2..4096
  parameter integer NumVcs       = 2,  // V, virtual channels per link: 2 or 3 (section 12)
  parameter integer AllPort      = 1,  // 1 = all-port (J = P, E = P*V), 0 = one-port (J = E = 1)
  parameter integer BufferDepth  = 4,  // flits per input FIFO (per VC) and initial credits, 2..64
  parameter integer PayloadWidth = 32, // payload bits per flit W, 32..62
  // T_r: cycles a replicating broadcast head is held in every router, 0..255 (wc_router)
  parameter integer ReplicationCost = 0,
  parameter integer RouteOrder   = 0,  // R routing: 0 ascending (XY), 1 descending (wc_router)
  parameter integer TreeOrder    = 0,  // B tree: 0 ascending (row first), 1 descending
  parameter integer InjectBug    = 0   // deliberate fault in every router (wc_router); 0 = none
) (
  input                                                                clk_i,
  input                                                                rst_ni,
  input  [Rows*Cols*((AllPort != 0) ? ((Topology == 2) ? 2 : 4) : 1)-1:0] inj_valid_i,
  input  [Rows*Cols*((AllPort != 0) ? ((Topology == 2) ? 2 : 4) : 1)*(PayloadWidth+2)-1:0]
                                                                       inj_flit_i,
  output [Rows*Cols*((AllPort != 0) ? ((Topology == 2) ? 2 : 4) : 1)-1:0] inj_credit_o,
  output [Rows*Cols*((AllPort != 0) ? ((Topology == 2) ? 2 : 4)*NumVcs : 1)-1:0] ej_valid_o,
  output [Rows*Cols*((AllPort != 0) ? ((Topology == 2) ? 2 : 4)*NumVcs : 1)*(PayloadWidth+2)-1:0]
                                                                       ej_flit_o,
  input  [Rows*Cols*((AllPort != 0) ? ((Topology == 2) ? 2 : 4)*NumVcs : 1)-1:0] ej_credit_i,
  output [Rows*Cols*((Topology == 2) ? 2 : 4)-1:0]                     obs_link_valid_o,
  output [Rows*Cols*((Topology == 2) ? 2 : 4)*((NumVcs > 1) ? $clog2(NumVcs) : 1)-1:0]
                                                                       obs_link_vc_o,
  output [Rows*Cols*((Topology == 2) ? 2 : 4)*(PayloadWidth+2)-1:0]    obs_link_flit_o,
  output [Rows*Cols*((Topology == 2) ? 2 : 4)*NumVcs-1:0]              obs_link_credit_o
);

  localparam integer N   = Rows * Cols;
  localparam integer P   = (Topology == 2) ? 2 : 4;
  localparam integer V   = NumVcs;
  localparam integer VcW = (V > 1) ? $clog2(V) : 1;
  localparam integer J   = (AllPort != 0) ? P : 1;
  localparam integer E   = (AllPort != 0) ? P * V : 1;
  localparam integer FW  = PayloadWidth + 2;

  // Per router n, port p at index n*P + p (credits: (n*P + p)*V + k).
  wire [N*P-1:0]     link_valid;   // output registers of router n, port p
  wire [N*P*VcW-1:0] link_vc;
  wire [N*P*FW-1:0]  link_flit;
  wire [N*P*V-1:0]   link_credit;  // credit_out_q of router n, virtual link input p*V + k
  wire [N*P-1:0]     in_valid;     // what arrives on input p of router n
  wire [N*P*VcW-1:0] in_vc;
  wire [N*P*FW-1:0]  in_flit;
  wire [N*P*V-1:0]   in_credit;    // credits arriving at output p of router n, per VC

  // Nested loops over rows and columns (each at most 64 iterations; a ring's one row
  // has up to 4096).
  genvar gr, gc, gp;
  generate
    for (gr = 0; gr < Rows; gr = gr + 1) begin : gen_row
      for (gc = 0; gc < Cols; gc = gc + 1) begin : gen_node
        localparam integer Node   = gr * Cols + gc;
        localparam [11:0]  NodeId = Node[11:0];

        for (gp = 0; gp < P; gp = gp + 1) begin : gen_port
          // Neighbour in direction gp (round the ring), and its port that faces this node.
          localparam integer NbRow  = (gp == 2) ? (gr + Rows - 1) % Rows :
                                      (gp == 3) ? (gr + 1) % Rows : gr;
          localparam integer NbCol  = (gp == 0) ? (gc + 1) % Cols :
                                      (gp == 1) ? (gc + Cols - 1) % Cols : gc;
          localparam integer Nb     = NbRow * Cols + NbCol;
          localparam integer NbPort = gp ^ 1;
          // Input gp of this node is fed by output NbPort of that neighbour; the credits
          // of this node's output gp come from the neighbour's virtual inputs NbPort*V + k.
          assign in_valid[Node*P + gp]              = link_valid[Nb*P + NbPort];
          assign in_vc[(Node*P + gp)*VcW +: VcW]    = link_vc[(Nb*P + NbPort)*VcW +: VcW];
          assign in_flit[(Node*P + gp)*FW +: FW]    = link_flit[(Nb*P + NbPort)*FW +: FW];
          assign in_credit[(Node*P + gp)*V +: V]    = link_credit[(Nb*P + NbPort)*V +: V];
        end

        wc_router #(
          .Topology        (Topology),
          .Dim             (1),
          .Rows            (Rows),
          .Cols            (Cols),
          .AllPort         (AllPort),
          .BufferDepth     (BufferDepth),
          .PayloadWidth    (PayloadWidth),
          .ReplicationCost (ReplicationCost),
          .RouteOrder      (RouteOrder),
          .TreeOrder       (TreeOrder),
          .NumVcs          (NumVcs),
          .InjectBug       (InjectBug)
        ) u_router (
          .clk_i         (clk_i),
          .rst_ni        (rst_ni),
          .node_id_i     (NodeId),
          .link_valid_i  (in_valid[Node*P +: P]),
          .link_vc_i     (in_vc[Node*P*VcW +: P*VcW]),
          .link_flit_i   (in_flit[Node*P*FW +: P*FW]),
          .link_credit_o (link_credit[Node*P*V +: P*V]),
          .link_valid_o  (link_valid[Node*P +: P]),
          .link_vc_o     (link_vc[Node*P*VcW +: P*VcW]),
          .link_flit_o   (link_flit[Node*P*FW +: P*FW]),
          .link_credit_i (in_credit[Node*P*V +: P*V]),
          .inj_valid_i   (inj_valid_i[Node*J +: J]),
          .inj_flit_i    (inj_flit_i[Node*J*FW +: J*FW]),
          .inj_credit_o  (inj_credit_o[Node*J +: J]),
          .ej_valid_o    (ej_valid_o[Node*E +: E]),
          .ej_flit_o     (ej_flit_o[Node*E*FW +: E*FW]),
          .ej_credit_i   (ej_credit_i[Node*E +: E])
        );
      end
    end
  endgenerate

  assign obs_link_valid_o  = link_valid;
  assign obs_link_vc_o     = link_vc;
  assign obs_link_flit_o   = link_flit;
  assign obs_link_credit_o = link_credit;

endmodule
