package org.symdyn.geometry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A static triangle mesh in its frame S (metres): a surface, not a solid, for scenery fixed to the world (terrain,
 * a staircase, a bin), which collides and is ray cast triangle by triangle so that concave scenes are exact. A
 * moving mesh collides as its {@link ConvexHull} instead. The triangles a query needs come from a bounding-volume
 * hierarchy of their boxes ({@link TriangleBvh}), built on first use ({@link #bvh()} in S for rays,
 * {@link #bvh(Placement)} in the world for contact) and kept with the mesh: O(n log n) once, about 70-110 bytes per
 * triangle, then about log n box tests for a query meeting few triangles.
 *
 * <p>Triangle t has corners v[i0], v[i1], v[i2] and the unit normal (v1 − v0) × (v2 − v0) / |...| (its front
 * side, counter-clockwise seen from the front). Refused with {@link IllegalArgumentException} naming the triangle
 * or vertex: no triangles, a non-finite coordinate, an index out of range, and a triangle whose area is below
 * {@link #MIN_RELATIVE_AREA} times the square of its longest edge (zero-area: its normal is undefined).
 */
public final class TriangleMesh extends Shape {
    /** Smallest accepted area of a triangle relative to the square of its longest edge. */
    public static final double MIN_RELATIVE_AREA = 1e-12;

    private final double[] vertices;
    private final int[] triangles;
    /** The hierarchy in frame S, built at its first use (immutable: a race builds it twice, harmlessly). */
    private volatile TriangleBvh bvh;
    /** {@link #neighbourSides()}, built at its first use (immutable, as {@link #bvh}). */
    private volatile double[] neighbourSides;
    /** {@link #touchesRidge()}, built at its first use (immutable, as {@link #bvh}). */
    private volatile boolean[] touchesRidge;

    /** An edge is a ridge when the surface bends convexly across it by at least this angle's cosine: 60°. */
    static final double RIDGE_COS = 0.5;
    /** Hierarchies at placements other than the identity, the most recent last (copy on write). */
    private volatile Placed[] placed = new Placed[0];

    /** The most hierarchies at distinct placements a mesh keeps. */
    static final int PLACED_CACHE = 4;

    private record Placed(double[] r, double[] p, TriangleBvh bvh) {
    }

    private TriangleMesh(double[] vertices, int[] triangles) {
        this.vertices = vertices;
        this.triangles = triangles;
    }

    /**
     * @param vertices  (x0, y0, z0, x1, ...) in frame S (metres; copied)
     * @param triangles (i0, i1, i2, ...) vertex indices, three per triangle (copied)
     */
    public static TriangleMesh of(double[] vertices, int[] triangles) {
        if (vertices.length % 3 != 0 || triangles.length % 3 != 0) {
            throw new IllegalArgumentException("triangle mesh: vertex coordinates and triangle indices come in "
                    + "threes, got " + vertices.length + " and " + triangles.length);
        }
        if (triangles.length == 0) {
            throw new IllegalArgumentException("triangle mesh has no triangles");
        }
        for (int i = 0; i < vertices.length; i++) {
            if (!Double.isFinite(vertices[i])) {
                throw new IllegalArgumentException("triangle mesh vertex " + i / 3 + " has a non-finite coordinate "
                        + "xyz".charAt(i % 3) + " = " + vertices[i]);
            }
        }
        int n = vertices.length / 3;
        for (int t = 0; t < triangles.length / 3; t++) {
            for (int k = 0; k < 3; k++) {
                int i = triangles[3 * t + k];
                if (i < 0 || i >= n) {
                    throw new IllegalArgumentException("triangle mesh triangle " + t + " has vertex index " + i
                            + " outside [0, " + n + ")");
                }
            }
            double area2 = crossLength(vertices, triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]);
            double longest = Math.max(edge2(vertices, triangles[3 * t], triangles[3 * t + 1]),
                    Math.max(edge2(vertices, triangles[3 * t + 1], triangles[3 * t + 2]),
                            edge2(vertices, triangles[3 * t + 2], triangles[3 * t])));
            if (!(area2 / 2 > MIN_RELATIVE_AREA * longest)) {
                throw new IllegalArgumentException("triangle mesh triangle " + t + " (vertices " + triangles[3 * t]
                        + ", " + triangles[3 * t + 1] + ", " + triangles[3 * t + 2] + ") has zero area");
            }
        }
        return new TriangleMesh(vertices.clone(), triangles.clone());
    }

    /** |(v_j − v_i) × (v_k − v_i)|, twice the area. */
    static double crossLength(double[] v, int i, int j, int k) {
        double ux = v[3 * j] - v[3 * i], uy = v[3 * j + 1] - v[3 * i + 1], uz = v[3 * j + 2] - v[3 * i + 2];
        double wx = v[3 * k] - v[3 * i], wy = v[3 * k + 1] - v[3 * i + 1], wz = v[3 * k + 2] - v[3 * i + 2];
        double cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
        return Math.sqrt(cx * cx + cy * cy + cz * cz);
    }

    /** v_i · (v_j × v_k), six times the signed volume of the tetrahedron (0, v_i, v_j, v_k). */
    static double tripleProduct(double[] v, int i, int j, int k) {
        int a = 3 * i, b = 3 * j, c = 3 * k;
        return v[a] * (v[b + 1] * v[c + 2] - v[b + 2] * v[c + 1]) + v[a + 1] * (v[b + 2] * v[c] - v[b] * v[c + 2])
                + v[a + 2] * (v[b] * v[c + 1] - v[b + 1] * v[c]);
    }

    private static double edge2(double[] v, int i, int j) {
        double x = v[3 * j] - v[3 * i], y = v[3 * j + 1] - v[3 * i + 1], z = v[3 * j + 2] - v[3 * i + 2];
        return x * x + y * y + z * z;
    }

    /** The number of vertices. */
    public int vertexCount() {
        return vertices.length / 3;
    }

    /** Coordinate k (frame S, metres) of vertex i. */
    public double vertex(int i, int k) {
        return vertices[3 * i + k];
    }

    /** The number of triangles. */
    public int triangleCount() {
        return triangles.length / 3;
    }

    /** Vertex index of corner k (0, 1, 2) of triangle t. */
    public int triangleVertex(int t, int k) {
        return triangles[3 * t + k];
    }

    /**
     * The volume the mesh encloses (m³), Σ_t v0 · (v1 × v2) / 6 over its triangles (divergence theorem), when it is
     * a closed surface: after merging vertices of equal coordinates, every edge is met by exactly two triangles, once
     * in each direction (consistent winding). Positive when the normals point out, negative when they point in; NaN
     * when the surface is open, has an edge of three or more triangles, or is wound inconsistently.
     */
    public double enclosedVolume() {
        int[] id = weldedIds();
        long m = welded(id);
        Map<Long, Integer> directed = new HashMap<>();
        double six = 0;
        for (int t = 0; t < triangleCount(); t++) {
            for (int k = 0; k < 3; k++) {
                long a = id[triangles[3 * t + k]], b = id[triangles[3 * t + (k + 1) % 3]];
                if (a == b || directed.merge(a * m + b, 1, Integer::sum) > 1) {
                    return Double.NaN;
                }
            }
            six += tripleProduct(vertices, triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]);
        }
        for (long edge : directed.keySet()) {
            if (!directed.containsKey((edge % m) * m + edge / m)) {
                return Double.NaN;
            }
        }
        return six / 6;
    }

    /**
     * Vertex ids after merging vertices of equal coordinates (STL and many OBJ files repeat a vertex for each
     * triangle that uses it): equal ids for equal (x, y, z), numbered 0, 1, ... in order of first appearance.
     */
    private int[] weldedIds() {
        int n = vertexCount();
        Map<List<Double>, Integer> welded = new HashMap<>();
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            // + 0.0 makes −0.0 and 0.0 one key
            id[i] = welded.computeIfAbsent(List.of(vertices[3 * i] + 0.0, vertices[3 * i + 1] + 0.0,
                    vertices[3 * i + 2] + 0.0), k -> welded.size());
        }
        return id;
    }

    /** The number of distinct ids in {@link #weldedIds()}. */
    private static int welded(int[] id) {
        int m = 0;
        for (int i : id) {
            m = Math.max(m, i + 1);
        }
        return m;
    }

    /**
     * For edge k of triangle t (from corner k to corner k + 1, mod 3), at [9 t + 3 k, 9 t + 3 k + 3): the unit
     * direction u', in frame S, that lies in the plane of the neighbouring triangle t' across that edge, is
     * perpendicular to the edge and points away from t' (towards t's side of the edge when they are coplanar).
     * NaN when the edge is on the boundary or is met by three or more triangles. Neighbours are found after merging
     * vertices of equal coordinates; the winding of t' does not matter.
     *
     * <p>What it is for (the internal-edge problem of triangle meshes): a contact on t's edge, with normal n from
     * the edge towards the other shape, is the neighbour's to report when n · u' < 0. The directions n a shared edge
     * may give lie between the two faces' normals, n · u ≥ 0 and n · u' ≥ 0 with u t's own outward direction: an
     * arc at a convex edge, only the face normal where the two triangles are coplanar, none at a concave edge. A
     * contact outside the arc is over the neighbour's face, which gives the exact contact; the edge's, with its
     * tilted normal, would lift a ball rolling across a flat mesh at every internal edge.
     *
     * <p>Built at the first call (O(n) with hashing), then kept with the mesh and shared by every thread; 72 bytes
     * per triangle. The array is the mesh's own: read it, do not write it.
     */
    double[] neighbourSides() {
        double[] sides = neighbourSides;
        if (sides == null) {
            sides = buildNeighbourSides();
            neighbourSides = sides;
        }
        return sides;
    }

    /**
     * Per triangle t: whether a corner of t lies on a ridge, an edge across which the surface bends convexly by β ≥
     * 60° (cos β ≤ {@link #RIDGE_COS}; β = 90° for a right-angled step, 127° for the roof z = −2 |x|). With f t's unit
     * normal, u its outward in-plane direction of the edge ((v_k+1 − v_k) × f, normalised) and u' the neighbour's
     * ({@link #neighbourSides}), sin β = u' · f &gt; 0 (the neighbour falls away below t's plane) and cos β = −u' · u.
     * A triangle of a grid that meets the ridge only at a corner has coplanar neighbours all round: this is how it
     * knows the solid is a wedge there (see {@link Narrowphase#triangleManifold}). Built at the first call (O(n)
     * with hashing), then kept with the mesh; the array is the mesh's own: read it, do not write it.
     */
    boolean[] touchesRidge() {
        boolean[] ridge = touchesRidge;
        if (ridge == null) {
            ridge = buildTouchesRidge();
            touchesRidge = ridge;
        }
        return ridge;
    }

    private boolean[] buildTouchesRidge() {
        double[] sides = neighbourSides();
        int[] id = weldedIds();
        boolean[] onRidge = new boolean[welded(id)];
        int count = triangleCount();
        double[] f = new double[3];
        for (int t = 0; t < count; t++) {
            faceNormal(t, f);
            for (int k = 0; k < 3; k++) {
                int s = 9 * t + 3 * k;
                if (Double.isNaN(sides[s])) {
                    continue;
                }
                int a = 3 * triangles[3 * t + k], b = 3 * triangles[3 * t + (k + 1) % 3];
                double ex = vertices[b] - vertices[a], ey = vertices[b + 1] - vertices[a + 1];
                double ez = vertices[b + 2] - vertices[a + 2];
                double ux = ey * f[2] - ez * f[1], uy = ez * f[0] - ex * f[2], uz = ex * f[1] - ey * f[0];
                double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
                double sin = sides[s] * f[0] + sides[s + 1] * f[1] + sides[s + 2] * f[2];
                double cos = -(sides[s] * ux + sides[s + 1] * uy + sides[s + 2] * uz) / ul;
                if (sin > 0 && cos <= RIDGE_COS) {
                    onRidge[id[triangles[3 * t + k]]] = true;
                    onRidge[id[triangles[3 * t + (k + 1) % 3]]] = true;
                }
            }
        }
        boolean[] ridge = new boolean[count];
        for (int t = 0; t < count; t++) {
            ridge[t] = onRidge[id[triangles[3 * t]]] || onRidge[id[triangles[3 * t + 1]]]
                    || onRidge[id[triangles[3 * t + 2]]];
        }
        return ridge;
    }

    /** f ← the unit normal (v1 − v0) × (v2 − v0) / |...| of triangle t (frame S). */
    private void faceNormal(int t, double[] f) {
        int a = 3 * triangles[3 * t], b = 3 * triangles[3 * t + 1], c = 3 * triangles[3 * t + 2];
        double e1x = vertices[b] - vertices[a], e1y = vertices[b + 1] - vertices[a + 1];
        double e1z = vertices[b + 2] - vertices[a + 2];
        double e2x = vertices[c] - vertices[a], e2y = vertices[c + 1] - vertices[a + 1];
        double e2z = vertices[c + 2] - vertices[a + 2];
        double nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        f[0] = nx / len;
        f[1] = ny / len;
        f[2] = nz / len;
    }

    private double[] buildNeighbourSides() {
        int[] id = weldedIds();
        long m = welded(id);
        int count = triangleCount();
        // undirected edge -> {first triangle edge 3 t + k on it, second, how many}
        Map<Long, int[]> edges = new HashMap<>();
        for (int t = 0; t < count; t++) {
            for (int k = 0; k < 3; k++) {
                long a = id[triangles[3 * t + k]], b = id[triangles[3 * t + (k + 1) % 3]];
                int[] on = edges.computeIfAbsent(Math.min(a, b) * m + Math.max(a, b), key -> new int[] {-1, -1, 0});
                if (on[2] < 2) {
                    on[on[2]] = 3 * t + k;
                }
                on[2]++;
            }
        }
        int[] partner = new int[3 * count];
        java.util.Arrays.fill(partner, -1);
        for (int[] on : edges.values()) {
            if (on[2] == 2) {
                partner[on[0]] = on[1];
                partner[on[1]] = on[0];
            }
        }
        double[] sides = new double[9 * count];
        java.util.Arrays.fill(sides, Double.NaN);
        for (int e = 0; e < 3 * count; e++) {
            if (partner[e] >= 0) {
                outwardInPlane(partner[e] / 3, partner[e] % 3, sides, 3 * e);
            }
        }
        return sides;
    }

    /**
     * out[o..o+3) = the unit direction in triangle t's plane, perpendicular to its edge k and pointing away from its
     * third corner: −(w − (w · e / e · e) e) / |...|, e the edge and w the third corner, both from the edge's start.
     */
    private void outwardInPlane(int t, int k, double[] out, int o) {
        int a = 3 * triangles[3 * t + k], b = 3 * triangles[3 * t + (k + 1) % 3], c = 3 * triangles[3 * t + (k + 2) % 3];
        double ex = vertices[b] - vertices[a], ey = vertices[b + 1] - vertices[a + 1], ez = vertices[b + 2] - vertices[a + 2];
        double wx = vertices[c] - vertices[a], wy = vertices[c + 1] - vertices[a + 1], wz = vertices[c + 2] - vertices[a + 2];
        double f = (wx * ex + wy * ey + wz * ez) / (ex * ex + ey * ey + ez * ez);
        double ux = f * ex - wx, uy = f * ey - wy, uz = f * ez - wz;
        double len = Math.sqrt(ux * ux + uy * uy + uz * uz);
        out[o] = ux / len;
        out[o + 1] = uy / len;
        out[o + 2] = uz / len;
    }

    /**
     * The bounding-volume hierarchy of the triangles' boxes in frame S (the ray casts' index): built at the first
     * call (O(n log n); see {@link TriangleBvh} for its cost and memory), then kept with the mesh and shared by every
     * thread.
     */
    public TriangleBvh bvh() {
        TriangleBvh b = bvh;
        if (b == null) {
            b = TriangleBvh.of(this, null);
            bvh = b;
        }
        return b;
    }

    /**
     * The bounding-volume hierarchy of the triangles' world boxes with the mesh fixed at {@code place}: each box the
     * min and max over the triangle's corners of R v + p, the numbers contact detection tests. Built at the first
     * call for a placement and kept with the mesh for the last {@value #PLACED_CACHE} placements (equal R and p, bit
     * for bit), so that the systems a rollout batch builds anew for each rollout share it; the identity placement
     * gives {@link #bvh()}, whose boxes compare the same (R v + p = v exactly, up to the sign of a zero). The first
     * call also finds each triangle's neighbours across its edges, which contact with the mesh needs
     * ({@link Narrowphase#triangleManifold}).
     */
    public TriangleBvh bvh(Placement place) {
        neighbourSides(); // contact needs the edges' neighbours too: built with the contact index, not mid-step
        touchesRidge();
        if (isIdentity(place)) {
            return bvh();
        }
        Placed[] cache = placed;
        for (Placed c : cache) {
            if (java.util.Arrays.equals(c.r, place.r) && java.util.Arrays.equals(c.p, place.p)) {
                return c.bvh;
            }
        }
        Placed made = new Placed(place.r.clone(), place.p.clone(), TriangleBvh.of(this, place));
        Placed[] next = java.util.Arrays.copyOfRange(cache, Math.max(0, cache.length + 1 - PLACED_CACHE),
                cache.length + 1);
        next[next.length - 1] = made;
        placed = next;
        return made.bvh;
    }

    private static boolean isIdentity(Placement place) {
        double[] r = place.r, p = place.p;
        return r[0] == 1 && r[4] == 1 && r[8] == 1 && r[1] == 0 && r[2] == 0 && r[3] == 0 && r[5] == 0 && r[6] == 0
                && r[7] == 0 && p[0] == 0 && p[1] == 0 && p[2] == 0;
    }

    /** The convex hull of the mesh's vertices: how the mesh collides when it moves. */
    public ConvexHull convexHull() {
        return ConvexHull.of(vertices);
    }

    @Override
    public String toString() {
        return "TriangleMesh{vertices=" + vertexCount() + ", triangles=" + triangleCount() + "}";
    }
}
