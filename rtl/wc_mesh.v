// wc_mesh -- a Rows x Cols mesh of wormcast routers (no NIs).
//
// docs/microarchitecture.md, section 2: node index = row*Cols + col, row 0 on top; ports
// E = 0 (col+1), W = 1 (col-1), N = 2 (row-1), S = 3 (row+1). Output port E of (r,c)
// drives input port W of (r,c+1), output W drives input E of (r,c-1), output N drives
// input S of (r-1,c), output S drives input N of (r+1,c); each credit goes back the other
// way. A port without a neighbour has its inputs tied to 0 (valid 0, flit 0, credit 0);
// route computation never selects it, so its outputs stay 0. Node n = row*Cols + col
// gets node_id_i = n; its instance is gen_row[row].gen_node[col].u_router. N = Rows*Cols nodes, P = 4, J = E = 4 (all-port) or 1 (one-port),
// FW = PayloadWidth + 2.
//
// Every channel uses the valid / flit / credit handshake of section 5 (valid and flit
// from the sender's output register, credit from the receiver's register; one credit =
// one slot freed in the previous cycle; BufferDepth initial credits).
//
// Ports (node n, channel c at index n*J + c; node n, port p at index n*4 + p; flit
// vectors hold FW bits per index):
//   clk_i              clock, rising edge.
//   rst_ni             asynchronous active-low reset.
//   inj_valid_i        [N*J]     injection valid, driven by the NIs.
//   inj_flit_i         [N*J*FW]  injection flit.
//   inj_credit_o       [N*J]     injection credit back to the NIs (router register).
//   ej_valid_o         [N*E]     ejection valid to the NIs (router output register).
//   ej_flit_o          [N*E*FW]  ejection flit.
//   ej_credit_i        [N*E]     ejection credit from the NIs (NI register).
//   obs_link_valid_o   [N*4]     observation: out_valid_q of router n's link output p.
//   obs_link_flit_o    [N*4*FW]  observation: out_flit_q of router n's link output p.
//   obs_link_credit_o  [N*4]     observation: credit_out_q of router n's link input p.
module wc_mesh #(
  parameter integer Rows         = 4,  // mesh rows, 1..64
  parameter integer Cols         = 4,  // mesh columns, 1..64 (Rows*Cols >= 2, <= 4096)
  parameter integer AllPort      = 1,  // 1 = all-port (J = E = 4), 0 = one-port (J = E = 1)
  parameter integer BufferDepth  = 4,  // flits per input FIFO and initial credits, 2..64
  parameter integer PayloadWidth = 32, // payload bits per flit W, 32..62
  // T_r: cycles a replicating broadcast head is held in every router, 0..255 (wc_router)
  parameter integer ReplicationCost = 0,
  parameter integer RouteOrder   = 0,  // R routing: 0 ascending (XY), 1 descending (wc_router)
  parameter integer TreeOrder    = 0,  // B tree: 0 ascending, 1 descending (default ascending: row first)
  parameter integer InjectBug    = 0   // deliberate fault in every router (wc_router); 0 = none
) (
  input                                                           clk_i,
  input                                                           rst_ni,
  input  [Rows*Cols*((AllPort != 0) ? 4 : 1)-1:0]                 inj_valid_i,
  input  [Rows*Cols*((AllPort != 0) ? 4 : 1)*(PayloadWidth+2)-1:0] inj_flit_i,
  output [Rows*Cols*((AllPort != 0) ? 4 : 1)-1:0]                 inj_credit_o,
  output [Rows*Cols*((AllPort != 0) ? 4 : 1)-1:0]                 ej_valid_o,
  output [Rows*Cols*((AllPort != 0) ? 4 : 1)*(PayloadWidth+2)-1:0] ej_flit_o,
  input  [Rows*Cols*((AllPort != 0) ? 4 : 1)-1:0]                 ej_credit_i,
  output [Rows*Cols*4-1:0]                                        obs_link_valid_o,
  output [Rows*Cols*4*(PayloadWidth+2)-1:0]                       obs_link_flit_o,
  output [Rows*Cols*4-1:0]                                        obs_link_credit_o
);

  localparam integer N  = Rows * Cols;
  localparam integer P  = 4;
  localparam integer J  = (AllPort != 0) ? 4 : 1;
  localparam integer FW = PayloadWidth + 2;

  // Per router n, port p at index n*P + p.
  wire [N*P-1:0]    link_valid;   // output register of router n, port p
  wire [N*P*FW-1:0] link_flit;
  wire [N*P-1:0]    link_credit;  // credit_out_q of router n, link input p
  wire [N*P-1:0]    in_valid;     // what arrives on input p of router n
  wire [N*P*FW-1:0] in_flit;
  wire [N*P-1:0]    in_credit;    // credit arriving at output p of router n

  // Nested loops over rows and columns (each at most 64 iterations).
  genvar gr, gc, gp;
  generate
    for (gr = 0; gr < Rows; gr = gr + 1) begin : gen_row
      for (gc = 0; gc < Cols; gc = gc + 1) begin : gen_node
        localparam integer Row    = gr;
        localparam integer Col    = gc;
        localparam integer Node   = gr * Cols + gc;
        localparam [11:0]  NodeId = Node[11:0];

        for (gp = 0; gp < P; gp = gp + 1) begin : gen_port
          // Neighbour in direction gp, and its port that faces this node (E<->W, N<->S).
          localparam integer Exists = (gp == 0) ? ((Col + 1 < Cols) ? 1 : 0) :
                                      (gp == 1) ? ((Col > 0)        ? 1 : 0) :
                                      (gp == 2) ? ((Row > 0)        ? 1 : 0) :
                                                  ((Row + 1 < Rows) ? 1 : 0);
          localparam integer Nb     = (gp == 0) ? Node + 1 :
                                      (gp == 1) ? Node - 1 :
                                      (gp == 2) ? Node - Cols : Node + Cols;
          localparam integer NbPort = gp ^ 1;
          if (Exists != 0) begin : gen_link
            // Input gp of this node is fed by output NbPort of the neighbour in direction
            // gp; the credit for this node's output gp comes from that neighbour's input
            // NbPort.
            assign in_valid[Node*P + gp]           = link_valid[Nb*P + NbPort];
            assign in_flit[(Node*P + gp)*FW +: FW] = link_flit[(Nb*P + NbPort)*FW +: FW];
            assign in_credit[Node*P + gp]          = link_credit[Nb*P + NbPort];
          end else begin : gen_border
            assign in_valid[Node*P + gp]           = 1'b0;
            assign in_flit[(Node*P + gp)*FW +: FW] = {FW{1'b0}};
            assign in_credit[Node*P + gp]          = 1'b0;
          end
        end

        wc_router #(
          .Topology     (1),
          .Dim          (1),
          .Rows         (Rows),
          .Cols         (Cols),
          .AllPort      (AllPort),
          .BufferDepth  (BufferDepth),
          .PayloadWidth    (PayloadWidth),
          .ReplicationCost (ReplicationCost),
          .RouteOrder      (RouteOrder),
          .TreeOrder       (TreeOrder),
          .InjectBug       (InjectBug)
        ) u_router (
          .clk_i         (clk_i),
          .rst_ni        (rst_ni),
          .node_id_i     (NodeId),
          .link_valid_i  (in_valid[Node*P +: P]),
          .link_flit_i   (in_flit[Node*P*FW +: P*FW]),
          .link_credit_o (link_credit[Node*P +: P]),
          .link_valid_o  (link_valid[Node*P +: P]),
          .link_flit_o   (link_flit[Node*P*FW +: P*FW]),
          .link_credit_i (in_credit[Node*P +: P]),
          .inj_valid_i   (inj_valid_i[Node*J +: J]),
          .inj_flit_i    (inj_flit_i[Node*J*FW +: J*FW]),
          .inj_credit_o  (inj_credit_o[Node*J +: J]),
          .ej_valid_o    (ej_valid_o[Node*J +: J]),
          .ej_flit_o     (ej_flit_o[Node*J*FW +: J*FW]),
          .ej_credit_i   (ej_credit_i[Node*J +: J])
        );
      end
    end
  endgenerate

  assign obs_link_valid_o  = link_valid;
  assign obs_link_flit_o   = link_flit;
  assign obs_link_credit_o = link_credit;

endmodule
