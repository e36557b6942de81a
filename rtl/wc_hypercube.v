// wc_hypercube -- a Q_Dim network of 2^Dim wormcast routers (no NIs).
//
// docs/microarchitecture.md, section 2: output port i of node T drives input port i of
// node T xor 2^i, and the credit of that input goes back to output port i of T.
// N = 2^Dim nodes, P = Dim ports, J = E = Dim (all-port) or 1 (one-port),
// FW = PayloadWidth + 2. Node n's router gets node_id_i = n; its instance is
// gen_hi[n / 2^(Dim/2)].gen_node[n % 2^(Dim/2)].u_router.
//
// Every channel uses the valid / flit / credit handshake of section 5 (valid and flit
// from the sender's output register, credit from the receiver's register; one credit =
// one slot freed in the previous cycle; BufferDepth initial credits).
//
// Ports (node n, channel c at index n*J + c; node n, port p at index n*P + p; flit
// vectors hold FW bits per index):
//   clk_i              clock, rising edge.
//   rst_ni             asynchronous active-low reset.
//   inj_valid_i        [N*J]     injection valid, driven by the NIs.
//   inj_flit_i         [N*J*FW]  injection flit.
//   inj_credit_o       [N*J]     injection credit back to the NIs (router register).
//   ej_valid_o         [N*E]     ejection valid to the NIs (router output register).
//   ej_flit_o          [N*E*FW]  ejection flit.
//   ej_credit_i        [N*E]     ejection credit from the NIs (NI register).
//   obs_link_valid_o   [N*P]     observation: out_valid_q of router n's link output p.
//   obs_link_flit_o    [N*P*FW]  observation: out_flit_q of router n's link output p.
//   obs_link_credit_o  [N*P]     observation: credit_out_q of router n's link input p.
module wc_hypercube #(
  parameter integer Dim          = 3,  // hypercube dimension, 1..12 (N = 2^Dim nodes)
  parameter integer AllPort      = 1,  // 1 = all-port (J = E = Dim), 0 = one-port (J = E = 1)
  parameter integer BufferDepth  = 4,  // flits per input FIFO and initial credits, 2..64
  parameter integer PayloadWidth = 32, // payload bits per flit W, 32..62
  // T_r: cycles a replicating broadcast head is held in every router, 0..255 (wc_router)
  parameter integer ReplicationCost = 0,
  parameter integer RouteOrder   = 0,  // R routing: 0 ascending (e-cube), 1 descending (wc_router)
  parameter integer TreeOrder    = 1,  // B tree: 0 ascending, 1 descending (default descending: Jeon & Kim's Algorithm B)
  parameter integer InjectBug    = 0   // deliberate fault in every router (wc_router); 0 = none
) (
  input                                                              clk_i,
  input                                                              rst_ni,
  input  [(1 << Dim)*((AllPort != 0) ? Dim : 1)-1:0]                 inj_valid_i,
  input  [(1 << Dim)*((AllPort != 0) ? Dim : 1)*(PayloadWidth+2)-1:0] inj_flit_i,
  output [(1 << Dim)*((AllPort != 0) ? Dim : 1)-1:0]                 inj_credit_o,
  output [(1 << Dim)*((AllPort != 0) ? Dim : 1)-1:0]                 ej_valid_o,
  output [(1 << Dim)*((AllPort != 0) ? Dim : 1)*(PayloadWidth+2)-1:0] ej_flit_o,
  input  [(1 << Dim)*((AllPort != 0) ? Dim : 1)-1:0]                 ej_credit_i,
  output [(1 << Dim)*Dim-1:0]                                        obs_link_valid_o,
  output [(1 << Dim)*Dim*(PayloadWidth+2)-1:0]                       obs_link_flit_o,
  output [(1 << Dim)*Dim-1:0]                                        obs_link_credit_o
);

  localparam integer N  = 1 << Dim;
  localparam integer P  = Dim;
  localparam integer J  = (AllPort != 0) ? Dim : 1;
  localparam integer FW = PayloadWidth + 2;

  // Per router n, port p at index n*P + p.
  wire [N*P-1:0]    link_valid;   // output register of router n, port p
  wire [N*P*FW-1:0] link_flit;
  wire [N*P-1:0]    link_credit;  // credit_out_q of router n, link input p
  wire [N*P-1:0]    in_valid;     // what arrives on input p of router n
  wire [N*P*FW-1:0] in_flit;
  wire [N*P-1:0]    in_credit;    // credit arriving at output p of router n

  // Two nested loops (high and low halves of the node index) keep every generate loop
  // at most 2^ceil(Dim/2) iterations, below Verilator's default --unroll-count.
  localparam integer LoBits = Dim / 2;
  localparam integer NLo    = 1 << LoBits;
  localparam integer NHi    = N / NLo;

  genvar gh, gl, gp;
  generate
    for (gh = 0; gh < NHi; gh = gh + 1) begin : gen_hi
      for (gl = 0; gl < NLo; gl = gl + 1) begin : gen_node
        localparam integer Node   = gh * NLo + gl;
        localparam [11:0]  NodeId = Node[11:0];

        for (gp = 0; gp < P; gp = gp + 1) begin : gen_port
          localparam integer Nb = Node ^ (1 << gp);  // neighbour across port gp
          assign in_valid[Node*P + gp]           = link_valid[Nb*P + gp];
          assign in_flit[(Node*P + gp)*FW +: FW] = link_flit[(Nb*P + gp)*FW +: FW];
          assign in_credit[Node*P + gp]          = link_credit[Nb*P + gp];
        end

        wc_router #(
          .Topology     (0),
          .Dim          (Dim),
          .Rows         (1),
          .Cols         (1),
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
