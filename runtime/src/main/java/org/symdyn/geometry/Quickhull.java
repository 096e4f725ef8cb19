package org.symdyn.geometry;

import java.util.Arrays;

/**
 * The convex hull of a finite point set in three dimensions by quickhull (Barber, Dobkin and Huhdanpaa 1996):
 * start from a tetrahedron of extreme points, then repeatedly add the point farthest above some face, replacing the
 * faces it sees by a fan from it to their horizon. Each point outside the current hull is kept in the conflict list
 * of one face it lies above, so a point is tested only against the faces that replace its face.
 *
 * <p>Tolerance: a point is above a face when its height n · x − c exceeds ε = {@link #RELATIVE_TOLERANCE} times the
 * diagonal of the points' bounding box. Points within ε of the hull are not vertices of it, so every input point
 * lies at most ε above every face plane of the result. The faces are triangles wound counter-clockwise seen from
 * outside; a flat facet of the hull comes out as several coplanar triangles.
 *
 * <p>Refused with {@link IllegalArgumentException} naming the cause: fewer than 4 points, a non-finite coordinate,
 * all points coincident, collinear or coplanar within ε (a hull without volume), and the numerically degenerate case
 * where the faces a point sees do not form a disc.
 */
final class Quickhull {
    /** ε / (bounding-box diagonal). */
    static final double RELATIVE_TOLERANCE = 1e-10;

    private final double[] p;
    private final int n;
    private final double eps;

    private int faceCount;
    private int[] faceVertex = new int[3 * 64];
    private int[] neighbour = new int[3 * 64];
    private double[] plane = new double[4 * 64];
    private boolean[] dead = new boolean[64];
    private int[] conflictHead = new int[64];

    private final int[] nextConflict;

    private Quickhull(double[] p) {
        this.p = p;
        this.n = p.length / 3;
        nextConflict = new int[n];
        double[] lo = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        double[] hi = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                lo[k] = Math.min(lo[k], p[3 * i + k]);
                hi[k] = Math.max(hi[k], p[3 * i + k]);
            }
        }
        double diagonal = Math.sqrt(square(hi[0] - lo[0]) + square(hi[1] - lo[1]) + square(hi[2] - lo[2]));
        if (diagonal == 0) {
            throw new IllegalArgumentException("convex hull: all " + n + " points coincide");
        }
        eps = RELATIVE_TOLERANCE * diagonal;
    }

    /** The hull of the points (x0, y0, z0, x1, ...): {vertices, faces} as {@code double[3m]} and {@code int[3f]}. */
    static Object[] build(double[] points) {
        if (points.length % 3 != 0) {
            throw new IllegalArgumentException("convex hull: coordinates come in threes, got " + points.length);
        }
        if (points.length < 12) {
            throw new IllegalArgumentException("convex hull needs at least 4 points, got " + points.length / 3);
        }
        for (int i = 0; i < points.length; i++) {
            if (!Double.isFinite(points[i])) {
                throw new IllegalArgumentException("convex hull point " + i / 3 + " has a non-finite coordinate "
                        + "xyz".charAt(i % 3) + " = " + points[i]);
            }
        }
        Quickhull hull = new Quickhull(points);
        hull.run();
        return hull.result();
    }

    private void run() {
        int[] tetra = initialTetrahedron();
        int a = tetra[0], b = tetra[1], c = tetra[2], d = tetra[3];
        int[][] triples = {{a, b, c}, {a, b, d}, {a, c, d}, {b, c, d}};
        int[] opposite = {d, c, b, a};
        for (int f = 0; f < 4; f++) {
            int[] t = triples[f];
            int face = addFace(t[0], t[1], t[2]);
            if (height(face, opposite[f]) > 0) {
                faceVertex[3 * face + 1] = t[2];
                faceVertex[3 * face + 2] = t[1];
                computePlane(face);
            }
        }
        for (int f = 0; f < 4; f++) {
            for (int e = 0; e < 3; e++) {
                neighbour[3 * f + e] = findFaceWithEdge(faceVertex[3 * f + (e + 1) % 3], faceVertex[3 * f + e], 4);
            }
        }
        Arrays.fill(conflictHead, -1);
        for (int i = 0; i < n; i++) {
            if (i != a && i != b && i != c && i != d) {
                assign(i, 0, 4);
            }
        }
        int[] stackFace = new int[16];
        int[] stackEdge = new int[16];
        int[] horizonFace = new int[16];
        int[] horizonEdge = new int[16];
        int[] removed = new int[16];
        int[] progress = new int[16];
        boolean[] visited = new boolean[dead.length];
        while (true) {
            int start = -1;
            for (int f = 0; f < faceCount && start < 0; f++) {
                if (!dead[f] && conflictHead[f] >= 0) {
                    start = f;
                }
            }
            if (start < 0) {
                return;
            }
            int eye = -1;
            double best = Double.NEGATIVE_INFINITY;
            for (int i = conflictHead[start]; i >= 0; i = nextConflict[i]) {
                double h = height(start, i);
                if (h > best) {
                    best = h;
                    eye = i;
                }
            }
            // Depth-first walk over the faces the eye sees; entering a face across edge e and leaving it by
            // edges e+1, e+2 lists the horizon in counter-clockwise order.
            if (visited.length < faceCount) {
                visited = Arrays.copyOf(visited, dead.length);
            }
            int removedCount = 0;
            int horizonCount = 0;
            int top = 0;
            stackFace[0] = start;
            stackEdge[0] = 0;
            visited[start] = true;
            removed[removedCount++] = start;
            progress[0] = 0;
            while (top >= 0) {
                int f = stackFace[top];
                if (progress[top] == 3) {
                    top--;
                    continue;
                }
                int e = (stackEdge[top] + progress[top]) % 3;
                progress[top]++;
                int g = neighbour[3 * f + e];
                if (visited[g]) {
                    continue;
                }
                if (height(g, eye) > eps) {
                    visited[g] = true;
                    if (removedCount == removed.length) {
                        removed = Arrays.copyOf(removed, 2 * removedCount);
                    }
                    removed[removedCount++] = g;
                    top++;
                    if (top == stackFace.length) {
                        stackFace = Arrays.copyOf(stackFace, 2 * top);
                        stackEdge = Arrays.copyOf(stackEdge, 2 * top);
                        progress = Arrays.copyOf(progress, 2 * top);
                    }
                    stackFace[top] = g;
                    stackEdge[top] = (edgeTo(g, f) + 1) % 3;
                    progress[top] = 0;
                } else {
                    if (horizonCount == horizonFace.length) {
                        horizonFace = Arrays.copyOf(horizonFace, 2 * horizonCount);
                        horizonEdge = Arrays.copyOf(horizonEdge, 2 * horizonCount);
                    }
                    horizonFace[horizonCount] = f;
                    horizonEdge[horizonCount++] = e;
                }
            }
            for (int k = 0; k < horizonCount; k++) {
                int next = (k + 1) % horizonCount;
                int end = faceVertex[3 * horizonFace[k] + (horizonEdge[k] + 1) % 3];
                if (end != faceVertex[3 * horizonFace[next] + horizonEdge[next]]) {
                    throw new IllegalArgumentException("convex hull: the points are numerically degenerate near point "
                            + eye + " (the faces it sees within tolerance " + eps + " m do not form a disc)");
                }
            }
            int first = faceCount;
            for (int k = 0; k < horizonCount; k++) {
                int f = horizonFace[k];
                int e = horizonEdge[k];
                int outside = neighbour[3 * f + e];
                int face = addFace(faceVertex[3 * f + e], faceVertex[3 * f + (e + 1) % 3], eye);
                neighbour[3 * face] = outside;
                neighbour[3 * outside + edgeTo(outside, f)] = face;
            }
            for (int k = 0; k < horizonCount; k++) {
                int face = first + k;
                neighbour[3 * face + 1] = first + (k + 1) % horizonCount;
                neighbour[3 * face + 2] = first + (k + horizonCount - 1) % horizonCount;
            }
            if (visited.length < faceCount) {
                visited = Arrays.copyOf(visited, dead.length);
            }
            for (int r = 0; r < removedCount; r++) {
                int f = removed[r];
                dead[f] = true;
                visited[f] = false;
                int i = conflictHead[f];
                conflictHead[f] = -1;
                while (i >= 0) {
                    int following = nextConflict[i];
                    if (i != eye) {
                        assign(i, first, faceCount);
                    }
                    i = following;
                }
            }
        }
    }

    /** Puts point i in the conflict list of the face in [from, to) it is highest above, if above any by more than ε. */
    private void assign(int i, int from, int to) {
        int best = -1;
        double bestHeight = eps;
        for (int f = from; f < to; f++) {
            if (!dead[f]) {
                double h = height(f, i);
                if (h > bestHeight) {
                    bestHeight = h;
                    best = f;
                }
            }
        }
        if (best >= 0) {
            nextConflict[i] = conflictHead[best];
            conflictHead[best] = i;
        }
    }

    /** The index e of face f's edge whose neighbour is g. */
    private int edgeTo(int f, int g) {
        for (int e = 0; e < 3; e++) {
            if (neighbour[3 * f + e] == g) {
                return e;
            }
        }
        throw new IllegalStateException("quickhull: faces " + f + " and " + g + " are not adjacent");
    }

    private int findFaceWithEdge(int from, int to, int faces) {
        for (int f = 0; f < faces; f++) {
            for (int e = 0; e < 3; e++) {
                if (faceVertex[3 * f + e] == from && faceVertex[3 * f + (e + 1) % 3] == to) {
                    return f;
                }
            }
        }
        throw new IllegalStateException("quickhull: open initial tetrahedron");
    }

    private int addFace(int a, int b, int c) {
        if (faceCount == dead.length) {
            int cap = 2 * faceCount;
            faceVertex = Arrays.copyOf(faceVertex, 3 * cap);
            neighbour = Arrays.copyOf(neighbour, 3 * cap);
            plane = Arrays.copyOf(plane, 4 * cap);
            dead = Arrays.copyOf(dead, cap);
            int old = conflictHead.length;
            conflictHead = Arrays.copyOf(conflictHead, cap);
            Arrays.fill(conflictHead, old, cap, -1);
        }
        int f = faceCount++;
        faceVertex[3 * f] = a;
        faceVertex[3 * f + 1] = b;
        faceVertex[3 * f + 2] = c;
        dead[f] = false;
        conflictHead[f] = -1;
        computePlane(f);
        return f;
    }

    /** The unit normal (b − a) × (c − a) / |...| and the offset n · (a + b + c)/3 of face f. */
    private void computePlane(int f) {
        int a = faceVertex[3 * f], b = faceVertex[3 * f + 1], c = faceVertex[3 * f + 2];
        unitNormal(p, a, b, c, plane, 4 * f);
        plane[4 * f + 3] = (plane[4 * f] * (p[3 * a] + p[3 * b] + p[3 * c])
                + plane[4 * f + 1] * (p[3 * a + 1] + p[3 * b + 1] + p[3 * c + 1])
                + plane[4 * f + 2] * (p[3 * a + 2] + p[3 * b + 2] + p[3 * c + 2])) / 3;
    }

    /**
     * Writes (v_b − v_a) × (v_c − v_a) / |...| to out[at..at+3), v_i the point (p[3i], p[3i+1], p[3i+2]): the unit
     * normal of triangle (a, b, c), counter-clockwise seen from the side it points to.
     */
    static void unitNormal(double[] p, int a, int b, int c, double[] out, int at) {
        double ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
        double vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        out[at] = nx / len;
        out[at + 1] = ny / len;
        out[at + 2] = nz / len;
    }

    /** n · x_i − c of face f. */
    private double height(int f, int i) {
        return plane[4 * f] * p[3 * i] + plane[4 * f + 1] * p[3 * i + 1] + plane[4 * f + 2] * p[3 * i + 2]
                - plane[4 * f + 3];
    }

    private int[] initialTetrahedron() {
        int[] extreme = new int[6];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                if (p[3 * i + k] < p[3 * extreme[2 * k] + k]) {
                    extreme[2 * k] = i;
                }
                if (p[3 * i + k] > p[3 * extreme[2 * k + 1] + k]) {
                    extreme[2 * k + 1] = i;
                }
            }
        }
        int a = 0, b = 0;
        double far = -1;
        for (int i = 0; i < 6; i++) {
            for (int j = i + 1; j < 6; j++) {
                double d = distanceSquared(extreme[i], extreme[j]);
                if (d > far) {
                    far = d;
                    a = extreme[i];
                    b = extreme[j];
                }
            }
        }
        double ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
        double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        int c = -1;
        double best = eps;
        for (int i = 0; i < n; i++) {
            double wx = p[3 * i] - p[3 * a], wy = p[3 * i + 1] - p[3 * a + 1], wz = p[3 * i + 2] - p[3 * a + 2];
            double cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
            double d = Math.sqrt(cx * cx + cy * cy + cz * cz) / ul;
            if (d > best) {
                best = d;
                c = i;
            }
        }
        if (c < 0) {
            throw new IllegalArgumentException("convex hull: the " + n + " points are collinear within " + eps
                    + " m (a hull needs volume)");
        }
        double vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        double nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        int d = -1;
        best = eps;
        for (int i = 0; i < n; i++) {
            double h = Math.abs(nx * (p[3 * i] - p[3 * a]) + ny * (p[3 * i + 1] - p[3 * a + 1])
                    + nz * (p[3 * i + 2] - p[3 * a + 2])) / nl;
            if (h > best) {
                best = h;
                d = i;
            }
        }
        if (d < 0) {
            throw new IllegalArgumentException("convex hull: the " + n + " points are coplanar within " + eps
                    + " m (a hull needs volume)");
        }
        return new int[] {a, b, c, d};
    }

    private Object[] result() {
        int[] newIndex = new int[n];
        Arrays.fill(newIndex, -1);
        int vertices = 0;
        int faces = 0;
        for (int f = 0; f < faceCount; f++) {
            if (!dead[f]) {
                faces++;
                for (int e = 0; e < 3; e++) {
                    int v = faceVertex[3 * f + e];
                    if (newIndex[v] < 0) {
                        newIndex[v] = vertices++;
                    }
                }
            }
        }
        double[] vertex = new double[3 * vertices];
        for (int i = 0; i < n; i++) {
            if (newIndex[i] >= 0) {
                System.arraycopy(p, 3 * i, vertex, 3 * newIndex[i], 3);
            }
        }
        int[] face = new int[3 * faces];
        int k = 0;
        for (int f = 0; f < faceCount; f++) {
            if (!dead[f]) {
                for (int e = 0; e < 3; e++) {
                    face[k++] = newIndex[faceVertex[3 * f + e]];
                }
            }
        }
        return new Object[] {vertex, face};
    }

    private double distanceSquared(int i, int j) {
        return square(p[3 * i] - p[3 * j]) + square(p[3 * i + 1] - p[3 * j + 1]) + square(p[3 * i + 2] - p[3 * j + 2]);
    }

    private static double square(double x) {
        return x * x;
    }
}
