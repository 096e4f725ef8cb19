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
        int n = vertexCount();
        Map<List<Double>, Integer> welded = new HashMap<>();
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            // + 0.0 makes −0.0 and 0.0 one key
            id[i] = welded.computeIfAbsent(List.of(vertices[3 * i] + 0.0, vertices[3 * i + 1] + 0.0,
                    vertices[3 * i + 2] + 0.0), k -> welded.size());
        }
        long m = welded.size();
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
     * gives {@link #bvh()}, whose boxes compare the same (R v + p = v exactly, up to the sign of a zero).
     */
    public TriangleBvh bvh(Placement place) {
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
