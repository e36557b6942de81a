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

enum topo_kind {
	TOPO_HYPERCUBE,
	TOPO_MESH,
};

/* Mesh port numbers. */
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
#define TOPO_MAX_PORTS 12

struct topology {
	enum topo_kind kind;
	int dim;		/* hypercube */
	int rows, cols;		/* mesh */
	int nodes;
	int ports;		/* P: external ports per router */
	enum dim_order route_order;	/* R routing; default ascending */
	enum dim_order tree_order;	/* B trees; default: descending on Q_d, ascending on meshes */
};

/*
 * Parse "hypercube:D" or "mesh:RxC".  Returns 0 on success; on failure writes a
 * one-line reason into err and returns -1.
 */
int topology_parse(const char *text, struct topology *t, char *err, size_t errlen);
int topology_init_hypercube(struct topology *t, int dim, char *err, size_t errlen);
int topology_init_mesh(struct topology *t, int rows, int cols, char *err, size_t errlen);

/* "ascending" / "descending"; parse returns 0, or -1 for anything else. */
const char *dim_order_name(enum dim_order o);
int dim_order_parse(const char *text, enum dim_order *o);

/* "hypercube:6" or "mesh:4x4" into buf. */
const char *topology_name(const struct topology *t, char *buf, size_t len);
const char *topology_kind_name(enum topo_kind kind);

/* The neighbour across port p, or -1 if the port is unconnected. */
int topology_neighbor(const struct topology *t, int node, int port);

/* The input port of neighbour(node, p) that output port p of node drives. */
int topology_peer_port(const struct topology *t, int port);

/* Hop count of the dimension-ordered routes (the same in both orders). */
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

static inline int mesh_row(const struct topology *t, int node) { return node / t->cols; }
static inline int mesh_col(const struct topology *t, int node) { return node % t->cols; }

#endif
