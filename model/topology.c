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
	t->vcs = 1;
	t->route_order = ORDER_ASCENDING;
	t->tree_order = ORDER_DESCENDING;	/* Jeon & Kim's Algorithm B */
	return 0;
}

/*
 * The row/column topologies: P = 4 (E, W, N, S; a ring E and W only), V = 1 where no
 * link wraps and 2 (the dateline classes) where they do, XY routes, row-first trees.
 */
static int init_grid(struct topology *t, enum topo_kind kind, int rows, int cols)
{
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->rows = rows;
	t->cols = cols;
	t->nodes = rows * cols;
	t->ports = kind == TOPO_RING ? 2 : 4;
	t->vcs = topology_wraps(t) ? 2 : 1;
	t->route_order = ORDER_ASCENDING;
	t->tree_order = ORDER_ASCENDING;
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
	return init_grid(t, TOPO_MESH, rows, cols);
}

int topology_init_ring(struct topology *t, int nodes, char *err, size_t errlen)
{
	if (nodes < 2 || nodes > TOPO_MAX_RING) {
		snprintf(err, errlen, "ring of %d nodes out of range 2..%d", nodes, TOPO_MAX_RING);
		return -1;
	}
	return init_grid(t, TOPO_RING, 1, nodes);
}

int topology_init_torus(struct topology *t, int rows, int cols, char *err, size_t errlen)
{
	if (rows < TOPO_MIN_TORUS_SIDE || rows > TOPO_MAX_SIDE || cols < TOPO_MIN_TORUS_SIDE ||
	    cols > TOPO_MAX_SIDE) {
		snprintf(err, errlen, "torus %dx%d out of range: rows and columns must be %d..%d",
			 rows, cols, TOPO_MIN_TORUS_SIDE, TOPO_MAX_SIDE);
		return -1;
	}
	return init_grid(t, TOPO_TORUS, rows, cols);
}

int topology_set_vcs(struct topology *t, int vcs, char *err, size_t errlen)
{
	int lo = topology_wraps(t) ? 2 : 1, hi = topology_wraps(t) ? TOPO_MAX_VCS : 1;

	if (vcs < lo || vcs > hi) {
		snprintf(err, errlen, "%d virtual channels per link on a %s: %s", vcs,
			 topology_kind_name(t->kind), topology_wraps(t) ?
			 "2 (dateline classes) or 3 (and a class for broadcasts)" :
			 "only 1 (no link wraps round)");
		return -1;
	}
	t->vcs = vcs;
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

/* The table's columns, by kind. */
#define TOPO_NAME(id, name, form, ranges) name,
#define TOPO_FORM(id, name, form, ranges) form,
static const char *const kind_names[TOPO_KINDS] = { TOPOLOGY_KINDS(TOPO_NAME) };
static const char *const kind_forms[TOPO_KINDS] = { TOPOLOGY_KINDS(TOPO_FORM) };
#undef TOPO_NAME
#undef TOPO_FORM

/* The kinds whose argument is RxC rather than one number. */
static bool two_sides(enum topo_kind k)
{
	return kind_forms[k][0] == 'R';
}

int topology_parse(const char *text, struct topology *t, char *err, size_t errlen)
{
	const char *colon = strchr(text, ':'), *arg;
	int k, a, b = 0;

	if (!colon) {
		snprintf(err, errlen, "bad topology '%s': expected %s", text, TOPOLOGY_FORMS);
		return -1;
	}
	for (k = 0; k < TOPO_KINDS; k++)
		if (strlen(kind_names[k]) == (size_t)(colon - text) &&
		    !strncmp(text, kind_names[k], (size_t)(colon - text)))
			break;
	if (k == TOPO_KINDS) {
		snprintf(err, errlen, "unknown topology '%.*s': expected %s", (int)(colon - text),
			 text, TOPOLOGY_FORMS);
		return -1;
	}
	arg = colon + 1;
	if (two_sides(k)) {
		const char *x = strchr(arg, 'x');

		if (!x || parse_count(arg, (size_t)(x - arg), &a) ||
		    parse_count(x + 1, strlen(x + 1), &b)) {
			snprintf(err, errlen, "bad topology '%s': expected %s:%s with numbers R and C",
				 text, kind_names[k], kind_forms[k]);
			return -1;
		}
	} else if (parse_count(arg, strlen(arg), &a)) {
		snprintf(err, errlen, "bad topology '%s': %s must be a number", text, kind_forms[k]);
		return -1;
	}
	switch ((enum topo_kind)k) {
	case TOPO_HYPERCUBE: return topology_init_hypercube(t, a, err, errlen);
	case TOPO_MESH: return topology_init_mesh(t, a, b, err, errlen);
	case TOPO_RING: return topology_init_ring(t, a, err, errlen);
	default: return topology_init_torus(t, a, b, err, errlen);
	}
}

const char *topology_kind_name(enum topo_kind kind)
{
	return kind_names[kind];
}

const char *topology_name(const struct topology *t, char *buf, size_t len)
{
	if (t->kind == TOPO_HYPERCUBE)
		snprintf(buf, len, "%s:%d", kind_names[t->kind], t->dim);
	else if (t->kind == TOPO_RING)
		snprintf(buf, len, "%s:%d", kind_names[t->kind], t->nodes);
	else
		snprintf(buf, len, "%s:%dx%d", kind_names[t->kind], t->rows, t->cols);
	return buf;
}

/*
 * One dimension of a grid: its size and whether it closes into a ring.  X is the
 * row (columns, ports E/W), Y the column (rows, ports N/S).
 */
static int axis_size(const struct topology *t, bool y)
{
	return y ? t->rows : t->cols;
}

static int axis_coord(const struct topology *t, bool y, int node)
{
	return y ? mesh_row(t, node) : mesh_col(t, node);
}

/* Coordinate a moved one step the way dir (+1, -1), or -1 off a mesh border. */
static int axis_step(const struct topology *t, int n, int a, int dir)
{
	a += dir;
	if (a >= 0 && a < n)
		return a;
	return topology_wraps(t) ? (a + n) % n : -1;
}

/*
 * The way (+1, -1; 0 if a == b) from coordinate a to b in a dimension of size n:
 * the shortest way round a ring, ties (the opposite node) the positive way.
 */
static int axis_way(const struct topology *t, int n, int a, int b)
{
	if (a == b)
		return 0;
	if (!topology_wraps(t))
		return b > a ? 1 : -1;
	return 2 * ((b - a + n) % n) <= n ? 1 : -1;
}

static int axis_distance(const struct topology *t, int n, int a, int b)
{
	int f = (b - a + n) % n;

	if (!topology_wraps(t))
		return abs(b - a);
	return f < n - f ? f : n - f;
}

static int axis_port(bool y, int dir)
{
	return y ? (dir > 0 ? PORT_S : PORT_N) : (dir > 0 ? PORT_E : PORT_W);
}

int topology_neighbor(const struct topology *t, int node, int port)
{
	if (t->kind == TOPO_HYPERCUBE)
		return (port >= 0 && port < t->dim) ? node ^ (1 << port) : -1;
	if (port < 0 || port >= t->ports)
		return -1;

	bool y = port == PORT_N || port == PORT_S;
	int dir = port == PORT_E || port == PORT_S ? 1 : -1;
	int a = axis_step(t, axis_size(t, y), axis_coord(t, y, node), dir);

	if (a < 0)
		return -1;
	return y ? a * t->cols + mesh_col(t, node) : mesh_row(t, node) * t->cols + a;
}

int topology_peer_port(const struct topology *t, int port)
{
	if (t->kind == TOPO_HYPERCUBE)
		return port;
	return port ^ 1;	/* E<->W, N<->S */
}

/*
 * The bits set in x, without a call: __builtin_popcount() is a libgcc call (21
 * instructions) unless the target has POPCNT, and the lower bounds ask the distance of
 * every pair of nodes.
 */
static inline int popcount32(uint32_t x)
{
	x -= (x >> 1) & 0x55555555u;
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (int)((x * 0x01010101u) >> 24);
}

int topology_distance(const struct topology *t, int from, int to)
{
	if (t->kind == TOPO_HYPERCUBE)
		return popcount32((uint32_t)(from ^ to));
	return axis_distance(t, t->rows, mesh_row(t, from), mesh_row(t, to)) +
	       axis_distance(t, t->cols, mesh_col(t, from), mesh_col(t, to));
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
		return axis_port(false, axis_way(t, t->cols, c, dc));
	return axis_port(true, axis_way(t, t->rows, r, dr));
}

int topology_hop_class(const struct topology *t, bool broadcast, int origin, int node,
		       int port)
{
	if (broadcast && t->vcs == 3)
		return 2;
	if (!topology_wraps(t))
		return 0;

	bool y = port == PORT_N || port == PORT_S;
	int n = axis_size(t, y), s = axis_coord(t, y, origin), c = axis_coord(t, y, node);

	/* The dateline is the link between n - 1 and 0: class 1 on it and after it. */
	if (port == PORT_E || port == PORT_S)
		return (c + 1) % n < s;
	return (c - 1 + n) % n > s;
}

/*
 * The ports of one dimension on which node (coordinate a there) forwards the tree of
 * a root at coordinate s: towards every neighbour whose route from s arrives from a.
 */
static uint32_t axis_children(const struct topology *t, bool y, int s, int a)
{
	int n = axis_size(t, y);
	uint32_t m = 0;

	for (int dir = 1; dir >= -1; dir -= 2) {
		int b = axis_step(t, n, a, dir);

		if (b >= 0 && b != s && axis_way(t, n, s, b) == dir)
			m |= 1u << axis_port(y, dir);
	}
	return m;
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

	/*
	 * A grid: the dimension the tree resolves first is covered from the root, and
	 * every node of the root's line (the root's row when ascending) covers its line
	 * of the other dimension; a node elsewhere only continues along that line.
	 */
	bool y_first = t->tree_order == ORDER_DESCENDING;
	int s1 = axis_coord(t, y_first, root), a1 = axis_coord(t, y_first, node);
	int s2 = axis_coord(t, !y_first, root), a2 = axis_coord(t, !y_first, node);
	uint32_t m = axis_children(t, !y_first, s2, a2);

	if (a2 == s2)
		m |= axis_children(t, y_first, s1, a1);
	return m;
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

	/* Back along the dimension the tree's route resolves last. */
	bool y_last = t->tree_order == ORDER_ASCENDING;
	int s = axis_coord(t, y_last, root), a = axis_coord(t, y_last, node);

	if (a == s)
		y_last = !y_last;
	s = axis_coord(t, y_last, root);
	a = axis_coord(t, y_last, node);
	a = axis_step(t, axis_size(t, y_last), a, -axis_way(t, axis_size(t, y_last), s, a));
	return y_last ? a * t->cols + mesh_col(t, node) : mesh_row(t, node) * t->cols + a;
}

/*
 * The path broadcast (B header with ir = 1; docs/microarchitecture.md section 8) runs
 * along a Hamiltonian path.  Q_d: the reflected Gray code g(k) = k xor (k >> 1)
 * relabelled by xor root, so the root is position 0 and node's position is the Gray
 * decoding of root xor node.  Mesh: the boustrophedon of the node indices (even rows
 * eastwards, odd rows westwards, one hop south between rows); the root sits at its own
 * position on it and the message runs both ways from there.
 */
static int gray_decode(unsigned g)
{
	unsigned k = 0;

	for (; g; g >>= 1)
		k ^= g;
	return (int)k;
}

static int path_position(const struct topology *t, int root, int node)
{
	int r, c;

	if (t->kind == TOPO_HYPERCUBE)
		return gray_decode((unsigned)(root ^ node));
	r = mesh_row(t, node);
	c = mesh_col(t, node);
	return r * t->cols + (r % 2 ? t->cols - 1 - c : c);
}

static int path_node(const struct topology *t, int root, int pos)
{
	int r, c;

	if (t->kind == TOPO_HYPERCUBE)
		return root ^ pos ^ (pos >> 1);
	r = pos / t->cols;
	c = pos % t->cols;
	return r * t->cols + (r % 2 ? t->cols - 1 - c : c);
}

/* The port of node whose neighbour is `other` (a neighbour), as a one-bit mask. */
static uint32_t port_to(const struct topology *t, int node, int other)
{
	for (int q = 0; q < t->ports; q++)
		if (topology_neighbor(t, node, q) == other)
			return 1u << q;
	return 0;
}

uint32_t path_children(const struct topology *t, int root, int node)
{
	int k = path_position(t, root, node), q = path_position(t, root, root);
	uint32_t m = 0;

	if (k >= q && k + 1 < t->nodes)
		m |= port_to(t, node, path_node(t, root, k + 1));
	if (k <= q && k > 0)
		m |= port_to(t, node, path_node(t, root, k - 1));
	return m;
}

int path_parent(const struct topology *t, int root, int node)
{
	int k = path_position(t, root, node), q = path_position(t, root, root);

	if (k == q)
		return -1;
	return path_node(t, root, k > q ? k - 1 : k + 1);
}

int path_depth(const struct topology *t, int root, int node)
{
	return abs(path_position(t, root, node) - path_position(t, root, root));
}

int path_length(const struct topology *t, int root)
{
	int q = path_position(t, root, root);

	return q > t->nodes - 1 - q ? q : t->nodes - 1 - q;
}
