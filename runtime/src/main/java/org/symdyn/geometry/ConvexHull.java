package org.symdyn.geometry;

/**
 * The convex hull of a set of points given in its frame S (metres): the smallest convex solid containing them.
 * Its vertices are the input points that are corners of the hull; its faces are triangles (a flat facet is
 * triangulated), each wound counter-clockwise seen from outside, with the unit outward normal n_f and offset c_f of
 * its plane, so that the hull is {x : n_f · x ≤ c_f for every face f}. Its facets ({@link #facetCount()}) are its
 * flat faces as convex polygons, the coplanar triangles merged.
 *
 * <p>Built by {@link Quickhull}: points within ε = 1e-10 times the diagonal of the points' bounding box of the
 * hull are not made vertices, so every input point is within ε of the hull. Refused with
 * {@link IllegalArgumentException}: fewer than 4 points, a NaN or infinite coordinate, and point sets without
 * volume (all coincident, collinear or coplanar within ε). Duplicate points are allowed.
 *
 * <p>A moving triangle mesh collides as its convex hull: contact with it is the contact of the hull, never of
 * the mesh's concave parts.
 */
public final class ConvexHull extends Shape implements ConvexShape {
    private final double[] vertices;
    private final int[] faces;
    private final double[] planes;
    private final double boundingRadius;
    /** Vertex i's neighbours along the hull's edges: adjacency[adjacencyStart[i] .. adjacencyStart[i + 1]). */
    final int[] adjacencyStart;
    final int[] adjacency;
    /** The hull's flat faces as polygons (coplanar triangles merged). */
    final HullFacets facets;
    /** The vertices extreme along +x, −x, +y, −y, +z, −z: where a hill climb starts. */
    private final int[] extremes = new int[6];
    /** The hull's axis-aligned bounding box in its frame: centre and half extents (metres). */
    final double[] boxCentre = new double[3];
    final double[] boxHalf = new double[3];

    /**
     * From this many vertices on, a support query climbs the hull's edge graph from the nearest of its six axis
     * extremes instead of scanning every vertex: a linear function on a convex polytope has no local maximum but the
     * global one along its edges (the simplex method's argument), so the climb ends at a maximiser after visiting
     * a few rings of vertices. Below it the scan is as fast.
     */
    static final int CLIMB_FROM = 32;

    private ConvexHull(double[] vertices, int[] faces) {
        this.vertices = vertices;
        this.faces = faces;
        this.planes = new double[4 * (faces.length / 3)];
        double r = 0;
        for (int i = 0; i < vertices.length; i += 3) {
            r = Math.max(r, Math.sqrt(vertices[i] * vertices[i] + vertices[i + 1] * vertices[i + 1]
                    + vertices[i + 2] * vertices[i + 2]));
        }
        boundingRadius = r;
        for (int f = 0; f < faces.length / 3; f++) {
            int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
            Quickhull.unitNormal(vertices, a, b, c, planes, 4 * f);
            // the offset of the highest corner, so that every vertex is on or below the plane
            double offset = Double.NEGATIVE_INFINITY;
            for (int corner : new int[] {a, b, c}) {
                offset = Math.max(offset, planes[4 * f] * vertices[3 * corner]
                        + planes[4 * f + 1] * vertices[3 * corner + 1] + planes[4 * f + 2] * vertices[3 * corner + 2]);
            }
            planes[4 * f + 3] = offset;
        }
        facets = new HullFacets(vertices, faces, planes);
        int n = vertices.length / 3;
        int[] degree = new int[n + 1];
        for (int f = 0; f < faces.length / 3; f++) {
            for (int k = 0; k < 3; k++) {
                degree[faces[3 * f + k]] += 2; // each corner meets two edges of the face (shared edges twice)
            }
        }
        int[] start = new int[n + 1];
        for (int i = 0; i < n; i++) {
            start[i + 1] = start[i] + degree[i];
        }
        int[] fill = start.clone();
        int[] all = new int[start[n]];
        for (int f = 0; f < faces.length / 3; f++) {
            for (int k = 0; k < 3; k++) {
                int a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
                all[fill[a]++] = b;
                all[fill[b]++] = a;
            }
        }
        // keep each neighbour once
        int[] compactStart = new int[n + 1];
        int w = 0;
        for (int i = 0; i < n; i++) {
            compactStart[i] = w;
            for (int k = start[i]; k < start[i + 1]; k++) {
                boolean seen = false;
                for (int j = compactStart[i]; j < w && !seen; j++) {
                    seen = all[j] == all[k];
                }
                if (!seen) {
                    all[w++] = all[k];
                }
            }
        }
        compactStart[n] = w;
        adjacencyStart = compactStart;
        adjacency = java.util.Arrays.copyOf(all, w);
        for (int axis = 0; axis < 6; axis++) {
            double sign = (axis & 1) == 0 ? 1 : -1;
            int best = 0;
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double h = sign * vertices[3 * i + axis / 2];
                if (h > max) {
                    max = h;
                    best = i;
                }
            }
            extremes[axis] = best;
        }
        for (int k = 0; k < 3; k++) {
            double hi = vertices[3 * extremes[2 * k] + k], lo = vertices[3 * extremes[2 * k + 1] + k];
            boxCentre[k] = 0.5 * (hi + lo);
            boxHalf[k] = 0.5 * (hi - lo);
        }
    }

    /** The hull of the points (x0, y0, z0, x1, y1, z1, ...) (frame S, metres; the array is not kept). */
    public static ConvexHull of(double... points) {
        Object[] built = Quickhull.build(points.clone());
        return new ConvexHull((double[]) built[0], (int[]) built[1]);
    }

    /** The number of vertices. */
    public int vertexCount() {
        return vertices.length / 3;
    }

    /** Coordinate k (0, 1, 2 for x, y, z; frame S, metres) of vertex i. */
    public double vertex(int i, int k) {
        return vertices[3 * i + k];
    }

    /** The number of triangular faces. */
    public int faceCount() {
        return faces.length / 3;
    }

    /** Vertex index of corner k (0, 1, 2, counter-clockwise seen from outside) of face f. */
    public int faceVertex(int f, int k) {
        return faces[3 * f + k];
    }

    /** Component k of face f's unit outward normal n_f (frame S). */
    public double faceNormal(int f, int k) {
        return planes[4 * f + k];
    }

    /** c_f (metres): face f lies in the plane n_f · x = c_f and the hull in n_f · x ≤ c_f. */
    public double faceOffset(int f) {
        return planes[4 * f + 3];
    }

    /**
     * The number of facets: the hull's flat faces, each the union of its coplanar triangles, as convex polygons
     * (a box given by its 8 corners has 6 facets of 4 vertices and 12 triangular faces). See {@link HullFacets}.
     */
    public int facetCount() {
        return facets.count();
    }

    /** The number of vertices of facet g. */
    public int facetSize(int g) {
        return facets.start[g + 1] - facets.start[g];
    }

    /**
     * Vertex index of corner k of facet g, corners counter-clockwise seen from outside (a vertex inside the facet's
     * outline, a point its face's rounding left as a vertex, is no corner).
     */
    public int facetVertex(int g, int k) {
        return facets.vertices[facets.start[g] + k];
    }

    /** Component k of facet g's unit outward normal (frame S). */
    public double facetNormal(int g, int k) {
        return facets.planes[4 * g + k];
    }

    /** Facet g's offset c_g (metres): its corners lie on the plane n_g · x = c_g (to rounding), the hull below. */
    public double facetOffset(int g) {
        return facets.planes[4 * g + 3];
    }

    /** The hull's volume (m³): Σ_f v0 · (v1 × v2) / 6 over its outward-wound triangular faces. */
    public double volume() {
        double six = 0;
        for (int f = 0; f < faces.length / 3; f++) {
            six += TriangleMesh.tripleProduct(vertices, faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]);
        }
        return six / 6;
    }

    /**
     * A vertex maximising d · x: below {@link #CLIMB_FROM} vertices the lowest index among equals by a scan; above,
     * a vertex no edge neighbour improves on, by a hill climb (see {@link #CLIMB_FROM}). No allocation.
     */
    @Override
    public void support(double dx, double dy, double dz, double[] out) {
        int best = 3 * supportIndex(dx, dy, dz);
        out[0] = vertices[best];
        out[1] = vertices[best + 1];
        out[2] = vertices[best + 2];
    }

    /** The index of the vertex {@link #support} returns. */
    int supportIndex(double dx, double dy, double dz) {
        int n = vertices.length / 3;
        if (n < CLIMB_FROM) {
            int best = 0;
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double h = dx * vertices[3 * i] + dy * vertices[3 * i + 1] + dz * vertices[3 * i + 2];
                if (h > max) {
                    max = h;
                    best = i;
                }
            }
            return best;
        }
        int current = extremes[Math.abs(dx) >= Math.abs(dy) && Math.abs(dx) >= Math.abs(dz) ? (dx >= 0 ? 0 : 1)
                : Math.abs(dy) >= Math.abs(dz) ? (dy >= 0 ? 2 : 3) : (dz >= 0 ? 4 : 5)];
        double value = dx * vertices[3 * current] + dy * vertices[3 * current + 1] + dz * vertices[3 * current + 2];
        while (true) {
            int next = current;
            for (int k = adjacencyStart[current]; k < adjacencyStart[current + 1]; k++) {
                int j = adjacency[k];
                double h = dx * vertices[3 * j] + dy * vertices[3 * j + 1] + dz * vertices[3 * j + 2];
                if (h > value) {
                    value = h;
                    next = j;
                }
            }
            if (next == current) {
                return current;
            }
            current = next;
        }
    }

    @Override
    public double boundingRadius() {
        return boundingRadius;
    }

    @Override
    public String toString() {
        return "ConvexHull{vertices=" + vertexCount() + ", faces=" + faceCount() + "}";
    }
}
