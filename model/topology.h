/* SPDX-License-Identifier: MIT */
/*
 * topology.h - networks, port numbering and the routing functions shared by the
 * router (route computation), the checker (who must receive what) and the drivers.
 * See docs/microarchitecture.md sections 2 and 8.
 */
#ifndef WORMCAST_TOPOLOGY_H
#define WORMCAST_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * THE table of topologies: kind, name, the form of its argument and its ranges.  The
 * enum, the parser, the names, `wormcast list` and the --topology help are derived
 * from it (TOPOLOGY_FORMS below; docs/microarchitecture.md section 2).
 */
#define TOPOLOGY_KINDS(X)                                                               \
	X(HYPERCUBE, "hypercube", "D", "D = 1..12")                                       \
	X(MESH, "mesh", "RxC", "R, C = 1..64, at least 2 nodes")                          \
	X(RING, "ring", "N", "N = 2..4096")                                               \
	X(TORUS, "torus", "RxC", "R, C = 2..64")

enum topo_kind {
#define TOPO_ENUM(id, name, form, ranges) TOPO_##id,
	TOPOLOGY_KINDS(TOPO_ENUM)
#undef TOPO_ENUM
	TOPO_KINDS
};

/*
 * "hypercube:D (D = 1..12), mesh:RxC (...), ...": what --topology accepts (a string
 * constant; every form is preceded by ", ", hence the address of character 2; written
 * as an index, not "+ 2", which clang's -Wstring-plus-int takes for a mistaken append).
 */
#define TOPO_FORM_TEXT(id, name, form, ranges) ", " name ":" form " (" ranges ")"
#define TOPOLOGY_FORMS (&(TOPOLOGY_KINDS(TOPO_FORM_TEXT))[2])

/* Mesh, ring and torus port numbers (a ring has E and W only). */
enum mesh_port {
	PORT_E = 0,	/* col + 1 */
	PORT_W = 1,	/* col - 1 */
	PORT_N = 2,	/* row - 1 */
	PORT_S = 3,	/* row + 1 */
};

/*
 * Dimension orders of routes and replication trees (docs/microarchitecture.md
 * section 8).  The values are the Verilog parameters RouteOrder / TreeOrder.
 */
enum dim_order {
	ORDER_ASCENDING = 0,	/* lowest dimension first: e-cube; X (E/W) before Y */
	ORDER_DESCENDING = 1,	/* highest dimension first; Y (N/S) before X */
};

#define TOPO_MAX_DIM 12
#define TOPO_MAX_SIDE 64
#define TOPO_MIN_TORUS_SIDE 2
#define TOPO_MAX_RING 4096
#define TOPO_MAX_PORTS 12
/* Virtual channels per link (docs/microarchitecture.md section 12). */
#define TOPO_MAX_VCS 3

struct topology {
	enum topo_kind kind;
	int dim;		/* hypercube */
	int rows, cols;		/* mesh, torus; a ring of N nodes is 1 x N */
	int nodes;
	int ports;		/* P: external ports per router */
	int vcs;		/* V: 1 on Q_d and meshes; 2 (default) or 3 on rings and tori */
	enum dim_order route_order;	/* R routing; default ascending */
	enum dim_order tree_order;	/* B trees; default: descending on Q_d, ascending on grids */
};

/*
 * Parse one of TOPOLOGY_FORMS ("hypercube:D", "mesh:RxC", "ring:N", "torus:RxC").
 * Returns 0 on success; on failure writes a one-line reason into err and returns -1.
 */
int topology_parse(const char *text, struct topology *t, char *err, size_t errlen);
int topology_init_hypercube(struct topology *t, int dim, char *err, size_t errlen);
int topology_init_mesh(struct topology *t, int rows, int cols, char *err, size_t errlen);
int topology_init_ring(struct topology *t, int nodes, char *err, size_t errlen);
int topology_init_torus(struct topology *t, int rows, int cols, char *err, size_t errlen);
/* Set V (section 12): 1 where no link wraps, 2 or 3 where they do. */
int topology_set_vcs(struct topology *t, int vcs, char *err, size_t errlen);

/* True if the rows or columns close into rings (ring, torus): dateline classes. */
static inline bool topology_wraps(const struct topology *t)
{
	return t->kind == TOPO_RING || t->kind == TOPO_TORUS;
}

/* The row/column topologies: mesh, ring, torus (E/W/N/S ports, node = row*cols + col). */
static inline bool topology_is_grid(const struct topology *t)
{
	return t->kind != TOPO_HYPERCUBE;
}

/* P*V: the virtual link ports of a router; link port p, class c is p*V + c. */
static inline int topology_link_vports(const struct topology *t)
{
	return t->ports * t->vcs;
}

/*
 * The class (VC) of a hop of a message across link port `port` of `node`: origin is
 * the message's source (R) or root (B).  Dateline classes 0/1 on a dimension that
 * wraps, 0 elsewhere; B hops are class 2 with V = 3 (section 12).
 */
int topology_hop_class(const struct topology *t, bool broadcast, int origin, int node,
		       int port);

/* "ascending" / "descending"; parse returns 0, or -1 for anything else. */
const char *dim_order_name(enum dim_order o);
int dim_order_parse(const char *text, enum dim_order *o);

/* "hypercube:6", "mesh:4x4", "ring:16", "torus:8x8" into buf. */
const char *topology_name(const struct topology *t, char *buf, size_t len);
const char *topology_kind_name(enum topo_kind kind);

/*
 * The RTL plugins (cosim/rtl_models.h, loaded with dlopen) call the two functions
 * below from the executable, which exports them.  Every other C function of wormcast
 * is hidden (C_VISIBILITY_PRESET in CMakeLists.txt): an exported function is one
 * link-time optimisation must keep callable from outside, and it then does not inline
 * the model's per-cycle path (NIs, checker, credits) into the simulation loop.
 */
#define WORMCAST_PLUGIN_API __attribute__((visibility("default")))

/* The neighbour across port p, or -1 if the port is unconnected. */
WORMCAST_PLUGIN_API int topology_neighbor(const struct topology *t, int node, int port);

/* The input port of neighbour(node, p) that output port p of node drives. */
WORMCAST_PLUGIN_API int topology_peer_port(const struct topology *t, int port);

/* Hop count of the dimension-ordered minimal routes (the same in both orders). */
int topology_distance(const struct topology *t, int from, int to);

/*
 * Next output port of an R message at node towards dest in t->route_order (e-cube
 * lowest differing bit first, or XY; descending: highest first, or YX), or -1 if
 * node == dest.
 */
int unicast_next_port(const struct topology *t, int node, int dest);

/*
 * Link ports on which a B message of root `root` leaves `node`: the children of node
 * in the replication tree of t->tree_order, whose path from the root to any node is
 * the route in that order (descending on Q_d: Jeon & Kim's Algorithm B; ascending on
 * a mesh: the root's row, then the columns).  At the root this is every connected port.
 */
uint32_t replication_children(const struct topology *t, int root, int node);

/* Parent of node in the replication tree of root (-1 for the root itself). */
int replication_parent(const struct topology *t, int root, int node);

/*
 * The path broadcast (a B header with ir = 1, docs/microarchitecture.md section 8): one
 * message along a Hamiltonian path, received by every node on it (IR).  Q_d: the
 * reflected Gray code from the root (g(k) xor root, k = 0 .. 2^d - 1); mesh: the
 * boustrophedon of the node indices (row 0 eastwards, row 1 westwards, ...), run both
 * ways from the root.
 *   path_children  the link ports on which the message leaves node (0 at an end);
 *   path_parent    the node it arrives from (-1 for the root);
 *   path_depth     hops from the root along the path;
 *   path_length    the largest depth: 2^d - 1 on Q_d, max(q, p - 1 - q) on a mesh with
 *                  the root at position q of the boustrophedon.
 */
uint32_t path_children(const struct topology *t, int root, int node);
int path_parent(const struct topology *t, int root, int node);
int path_depth(const struct topology *t, int root, int node);
int path_length(const struct topology *t, int root);

static inline int mesh_row(const struct topology *t, int node) { return node / t->cols; }
static inline int mesh_col(const struct topology *t, int node) { return node % t->cols; }

#endif
