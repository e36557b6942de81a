/* SPDX-License-Identifier: MIT */
/*
 * topology.c - hypercube and mesh geometry and the dimension-ordered routing
 * functions.  Everything here is a pure function of the topology: the router's
 * route computation, the checker's expectations and the drivers all call these, so
 * the definition of a route exists once.
 */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

static int lowest_set_bit(unsigned x)
{
	return __builtin_ctz(x);
}

static int highest_set_bit(unsigned x)
{
	return 31 - __builtin_clz(x);
}

/* The dimension of x (!= 0) that a route or tree of order o resolves first. */
static int first_dimension(unsigned x, enum dim_order o)
{
	return o == ORDER_ASCENDING ? lowest_set_bit(x) : highest_set_bit(x);
}

const char *dim_order_name(enum dim_order o)
{
	return o == ORDER_ASCENDING ? "ascending" : "descending";
}

int dim_order_parse(const char *text, enum dim_order *o)
{
	if (!strcmp(text, "ascending"))
		*o = ORDER_ASCENDING;
	else if (!strcmp(text, "descending"))
		*o = ORDER_DESCENDING;
	else
		return -1;
	return 0;
}

int topology_init_hypercube(struct topology *t, int dim, char *err, size_t errlen)
{
	if (dim < 1 || dim > TOPO_MAX_DIM) {
		snprintf(err, errlen, "hypercube dimension %d out of range 1..%d", dim,
			 TOPO_MAX_DIM);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	t->kind = TOPO_HYPERCUBE;
	t->dim = dim;
	t->nodes = 1 << dim;
	t->ports = dim;
	t->route_order = ORDER_ASCENDING;
	t->tree_order = ORDER_DESCENDING;	/* Jeon & Kim's Algorithm B */
	return 0;
}

int topology_init_mesh(struct topology *t, int rows, int cols, char *err, size_t errlen)
{
	if (rows < 1 || rows > TOPO_MAX_SIDE || cols < 1 || cols > TOPO_MAX_SIDE) {
		snprintf(err, errlen, "mesh %dx%d out of range: rows and columns must be 1..%d",
			 rows, cols, TOPO_MAX_SIDE);
		return -1;
	}
	if (rows * cols < 2) {
		snprintf(err, errlen, "mesh %dx%d has a single node; at least 2 are needed",
			 rows, cols);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	t->kind = TOPO_MESH;
	t->rows = rows;
	t->cols = cols;
	t->nodes = rows * cols;
	t->ports = 4;
	t->route_order = ORDER_ASCENDING;
	t->tree_order = ORDER_ASCENDING;
	return 0;
}

/* A dimension or a side: util/number.h's whole number, kept small enough for an int. */
static int parse_count(const char *s, size_t n, int *out)
{
	uint64_t v;
	enum number_status st = number_uint_n(s, n, 0, 1000000, &v);

	if (st == NUMBER_SYNTAX)
		return -1;
	/* Too large: let the range check name it. */
	*out = st == NUMBER_OK ? (int)v : 1000000;
	return 0;
}

int topology_parse(const char *text, struct topology *t, char *err, size_t errlen)
{
	const char *colon = strchr(text, ':');

	if (!colon) {
		snprintf(err, errlen, "bad topology '%s': expected hypercube:D or mesh:RxC", text);
		return -1;
	}
	if ((size_t)(colon - text) == 9 && strncmp(text, "hypercube", 9) == 0) {
		int d;

		if (parse_count(colon + 1, strlen(colon + 1), &d)) {
			snprintf(err, errlen, "bad topology '%s': D must be a number", text);
			return -1;
		}
		return topology_init_hypercube(t, d, err, errlen);
	}
	if ((size_t)(colon - text) == 4 && strncmp(text, "mesh", 4) == 0) {
		const char *x = strchr(colon + 1, 'x');
		int r, c;

		if (!x || parse_count(colon + 1, (size_t)(x - colon - 1), &r) ||
		    parse_count(x + 1, strlen(x + 1), &c)) {
			snprintf(err, errlen, "bad topology '%s': expected mesh:RxC with numbers R and C",
				 text);
			return -1;
		}
		return topology_init_mesh(t, r, c, err, errlen);
	}
	snprintf(err, errlen, "unknown topology '%.*s': expected hypercube or mesh",
		 (int)(colon - text), text);
	return -1;
}

const char *topology_kind_name(enum topo_kind kind)
{
	return kind == TOPO_HYPERCUBE ? "hypercube" : "mesh";
}

const char *topology_name(const struct topology *t, char *buf, size_t len)
{
	if (t->kind == TOPO_HYPERCUBE)
		snprintf(buf, len, "hypercube:%d", t->dim);
	else
		snprintf(buf, len, "mesh:%dx%d", t->rows, t->cols);
	return buf;
}

int topology_neighbor(const struct topology *t, int node, int port)
{
	if (t->kind == TOPO_HYPERCUBE)
		return (port >= 0 && port < t->dim) ? node ^ (1 << port) : -1;

	int r = mesh_row(t, node), c = mesh_col(t, node);

	switch (port) {
	case PORT_E: return c + 1 < t->cols ? node + 1 : -1;
	case PORT_W: return c > 0 ? node - 1 : -1;
	case PORT_N: return r > 0 ? node - t->cols : -1;
	case PORT_S: return r + 1 < t->rows ? node + t->cols : -1;
	default: return -1;
	}
}

int topology_peer_port(const struct topology *t, int port)
{
	if (t->kind == TOPO_HYPERCUBE)
		return port;
	return port ^ 1;	/* E<->W, N<->S */
}

int topology_distance(const struct topology *t, int from, int to)
{
	if (t->kind == TOPO_HYPERCUBE)
		return __builtin_popcount((unsigned)(from ^ to));
	return abs(mesh_row(t, from) - mesh_row(t, to)) +
	       abs(mesh_col(t, from) - mesh_col(t, to));
}

int unicast_next_port(const struct topology *t, int node, int dest)
{
	if (node == dest)
		return -1;
	if (t->kind == TOPO_HYPERCUBE)
		return first_dimension((unsigned)(node ^ dest), t->route_order);

	int c = mesh_col(t, node), dc = mesh_col(t, dest);
	int r = mesh_row(t, node), dr = mesh_row(t, dest);

	/* XY: the column first; YX: the row first. */
	if (c != dc && (t->route_order == ORDER_ASCENDING || r == dr))
		return dc > c ? PORT_E : PORT_W;
	return dr > r ? PORT_S : PORT_N;
}

static uint32_t connected_port(const struct topology *t, int node, int port)
{
	return topology_neighbor(t, node, port) >= 0 ? 1u << port : 0;
}

uint32_t replication_children(const struct topology *t, int root, int node)
{
	if (t->kind == TOPO_HYPERCUBE) {
		unsigned x = (unsigned)(root ^ node), all = (1u << t->dim) - 1;

		if (x == 0)
			return all;
		/* Algorithm B: forward on every dimension below last_one(S xor T). */
		if (t->tree_order == ORDER_DESCENDING)
			return (1u << lowest_set_bit(x)) - 1;
		/* The mirrored tree: every dimension above the highest set bit. */
		return all & ~((2u << highest_set_bit(x)) - 1);
	}

	int rs = mesh_row(t, root), cs = mesh_col(t, root);
	int r = mesh_row(t, node), c = mesh_col(t, node);
	bool rows_first = t->tree_order == ORDER_ASCENDING;

	if (node == root)
		return connected_port(t, node, PORT_E) | connected_port(t, node, PORT_W) |
		       connected_port(t, node, PORT_N) | connected_port(t, node, PORT_S);
	/* Ascending: on the root's row, on along the row and into the columns. */
	if (rows_first && r == rs)
		return connected_port(t, node, c > cs ? PORT_E : PORT_W) |
		       connected_port(t, node, PORT_N) | connected_port(t, node, PORT_S);
	if (rows_first)
		return connected_port(t, node, r < rs ? PORT_N : PORT_S);
	/* Descending: the same with rows and columns exchanged. */
	if (c == cs)
		return connected_port(t, node, r < rs ? PORT_N : PORT_S) |
		       connected_port(t, node, PORT_E) | connected_port(t, node, PORT_W);
	return connected_port(t, node, c > cs ? PORT_E : PORT_W);
}

int replication_parent(const struct topology *t, int root, int node)
{
	if (node == root)
		return -1;
	if (t->kind == TOPO_HYPERCUBE) {
		unsigned x = (unsigned)(root ^ node);

		/* The tree's path from the root is the route of the tree order: the parent
		 * differs in the dimension that route resolves last. */
		return node ^ (1 << first_dimension(x, t->tree_order == ORDER_ASCENDING ?
						       ORDER_DESCENDING : ORDER_ASCENDING));
	}

	int rs = mesh_row(t, root), cs = mesh_col(t, root);
	int r = mesh_row(t, node), c = mesh_col(t, node);

	/* Back along the dimension the tree's route resolves last. */
	if (t->tree_order == ORDER_ASCENDING ? r != rs : c == cs)
		return node + (r < rs ? t->cols : -t->cols);
	return node + (c < cs ? 1 : -1);
}
