// wc_defs.vh -- the flit and header layout of docs/microarchitecture.md, section 4.
//
// GENERATED from model/flit.h by rtl/gen_wc_defs.c; do not edit. Change model/flit.h
// and run "cmake --build build --target wc_defs". The test flit_layout fails while
// this file differs from what model/flit.h says. Each macro is the C macro of the
// same name with a WC_ prefix (FLIT_HEAD_BIT is `WC_FLIT_HEAD_BIT).
`ifndef WC_DEFS_VH
`define WC_DEFS_VH

// The kind, flit[1:0].
`define WC_FLIT_KIND_BITS     2   // width of the kind field
`define WC_FLIT_HEAD_BIT      0   // flit[0]: is_head (HEAD, SINGLE)
`define WC_FLIT_TAIL_BIT      1   // flit[1]: is_tail (TAIL, SINGLE)
`define WC_FLIT_KIND_BODY     0   // kind of a body flit
`define WC_FLIT_KIND_HEAD     1   // kind of a head flit
`define WC_FLIT_KIND_TAIL     2   // kind of a tail flit
`define WC_FLIT_KIND_SINGLE   3   // kind of a one-flit message

// The header in payload bits (the payload is flit[W+1:2]).
`define WC_HDR_TYPE_BIT       0   // payload bit of hdr_type
`define WC_HDR_TYPE_R         0   // hdr_type of a regular unicast
`define WC_HDR_TYPE_B         1   // hdr_type of a broadcast
`define WC_HDR_IR_BIT         1   // payload bit of ir
`define WC_HDR_ADDR_SHIFT     2   // lowest payload bit of address
`define WC_HDR_SOURCE_SHIFT   14  // lowest payload bit of source
`define WC_HDR_SEQ_SHIFT      26  // lowest payload bit of seq (W - 26 bits)
`define WC_FLIT_ADDR_BITS     12  // bits of a node index (address, source, node_id_i)
`define WC_FLIT_MIN_PAYLOAD   32  // smallest payload width W
`define WC_FLIT_MAX_PAYLOAD   62  // largest payload width W

// The header in flit bits, as route computation decodes it.
`define WC_FLIT_TYPE_BIT      2   // flit bit of hdr_type
`define WC_FLIT_IR_BIT        3   // flit bit of ir
`define WC_FLIT_ADDR_LSB      4   // lowest flit bit of address
`define WC_FLIT_ADDR_MSB      15  // highest flit bit of address
`define WC_FLIT_SOURCE_LSB    16  // lowest flit bit of source
`define WC_FLIT_SOURCE_MSB    27  // highest flit bit of source
`define WC_FLIT_SEQ_LSB       28  // lowest flit bit of seq
`define WC_FLIT_ROUTE_BITS    16  // route computation reads flit[FLIT_ROUTE_BITS-1:0]

`endif  // WC_DEFS_VH
