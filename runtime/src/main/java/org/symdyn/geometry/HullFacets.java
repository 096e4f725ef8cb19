package org.symdyn.geometry;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The facets of a {@link ConvexHull}: its flat faces as convex polygons, each the union of the coplanar triangles
 * {@link Quickhull} cut it into (a box's hull has 6 squares, not 12 triangles). Built once with the hull; read by the
 * contact manifold, which clips a facet against another shape's face.
 *
 * <p>Grouping: starting from the largest triangle not yet in a facet (whose normal n_0 and offset c_0 are the best
 * determined), the triangles reached across shared edges whose unit normal m satisfies 1 − n_0 · m ≤
 * {@link #COPLANAR} (about 1e-6 rad), or whose corners x all lie within δ of the first triangle's plane,
 * |n_0 · x − c_0| ≤ δ = {@link #COPLANAR_DISTANCE} times the diagonal of the vertices' bounding box (so that the
 * slivers a mesh's float coordinates tilt join their face), join its facet. The facet's unit outward normal n_f is
 * the direction of the sum of its triangles' area vectors and its offset c_f = max over its vertices of n_f · x, so
 * every vertex lies on or below the plane n_f · x = c_f (on it, to rounding, for coplanar points). Its polygon is its boundary (the edges of its triangles not shared within it), a
 * loop counter-clockwise seen from outside, less the corners where the loop does not turn left about n_f (collinear
 * corners, and those a hair inside left by rounding), so that it is convex and the side planes of edge (v_k, v_k+1)
 * have outward normals (v_k+1 − v_k) × n_f. A vertex inside a facet (a point raised above its face by rounding)
 * belongs to the facet but is no corner of its polygon.
 */
final class HullFacets {
    /** 1 − cos of the largest angle between the normals of triangles merged into one facet. */
    static final double COPLANAR = 5e-13;
    /** δ / (the diagonal of the vertices' bounding box) for merging triangles by their corners' distance. */
    static final double COPLANAR_DISTANCE = 1e-7;

    /** Facet f: unit outward normal (3 entries) and offset c_f, 4 entries per facet (hull frame S). */
    final double[] planes;
    /** Facet f's corners (hull indices) are vertices[start[f] .. start[f + 1]), counter-clockwise from outside. */
    final int[] start;
    final int[] vertices;
    /** The facets that contain vertex i: facetsOfVertex[vertexStart[i] .. vertexStart[i + 1]). */
    final int[] vertexStart;
    final int[] facetsOfVertex;

    HullFacets(double[] points, int[] faces, double[] facePlanes) {
        int triangles = faces.length / 3;
        int n = points.length / 3;
        Map<Long, Integer> across = new HashMap<>(); // directed edge (a, b) -> its triangle
        for (int f = 0; f < triangles; f++) {
            for (int k = 0; k < 3; k++) {
                across.put(edge(faces[3 * f + k], faces[3 * f + (k + 1) % 3], n), f);
            }
        }
        int[] facetOf = new int[triangles];
        Arrays.fill(facetOf, -1);
        int[] stack = new int[triangles];
        double[] sums = new double[4 * triangles];
        double[] area = new double[4 * triangles];
        Integer[] bySize = new Integer[triangles];
        for (int f = 0; f < triangles; f++) {
            addArea(points, faces, f, area, 4 * f);
            area[4 * f + 3] = area[4 * f] * area[4 * f] + area[4 * f + 1] * area[4 * f + 1]
                    + area[4 * f + 2] * area[4 * f + 2];
            bySize[f] = f;
        }
        Arrays.sort(bySize, (p, q) -> Double.compare(area[4 * q + 3], area[4 * p + 3]));
        double delta = COPLANAR_DISTANCE * diagonal(points);
        int count = 0;
        for (Integer first : bySize) {
            int seed = first;
            if (facetOf[seed] >= 0) {
                continue;
            }
            int facet = count++;
            int top = 0;
            stack[top++] = seed;
            facetOf[seed] = facet;
            while (top > 0) {
                int f = stack[--top];
                addArea(points, faces, f, sums, 4 * facet);
                for (int k = 0; k < 3; k++) {
                    Integer g = across.get(edge(faces[3 * f + (k + 1) % 3], faces[3 * f + k], n));
                    if (g != null && facetOf[g] < 0 && (1 - (facePlanes[4 * seed] * facePlanes[4 * g]
                            + facePlanes[4 * seed + 1] * facePlanes[4 * g + 1]
                            + facePlanes[4 * seed + 2] * facePlanes[4 * g + 2]) <= COPLANAR
                            || near(points, faces, g, facePlanes, 4 * seed, delta))) {
                        facetOf[g] = facet;
                        stack[top++] = g;
                    }
                }
            }
        }
        planes = new double[4 * count];
        int[][] members = new int[count][]; // each facet's triangles
        int[] memberCount = new int[count];
        for (int f = 0; f < triangles; f++) {
            memberCount[facetOf[f]]++;
        }
        for (int g = 0; g < count; g++) {
            members[g] = new int[memberCount[g]];
            memberCount[g] = 0;
        }
        for (int f = 0; f < triangles; f++) {
            members[facetOf[f]][memberCount[facetOf[f]]++] = f;
        }
        start = new int[count + 1];
        int[] all = new int[faces.length];
        int written = 0;
        int[][] corners = new int[count][]; // each facet's vertices, interior ones included
        for (int g = 0; g < count; g++) {
            double sx = sums[4 * g], sy = sums[4 * g + 1], sz = sums[4 * g + 2];
            double len = Math.sqrt(sx * sx + sy * sy + sz * sz);
            double nx = sx / len, ny = sy / len, nz = sz / len;
            Map<Integer, Integer> next = new HashMap<>(); // the boundary's directed edges
            int[] used = new int[3 * members[g].length];
            for (int m = 0; m < members[g].length; m++) {
                int f = members[g][m];
                for (int k = 0; k < 3; k++) {
                    int from = faces[3 * f + k], to = faces[3 * f + (k + 1) % 3];
                    used[3 * m + k] = from;
                    Integer other = across.get(edge(to, from, n));
                    if (other == null || facetOf[other] != g) {
                        next.put(from, to);
                    }
                }
            }
            corners[g] = Arrays.stream(used).distinct().toArray();
            double offset = Double.NEGATIVE_INFINITY;
            for (int i : corners[g]) {
                offset = Math.max(offset, nx * points[3 * i] + ny * points[3 * i + 1] + nz * points[3 * i + 2]);
            }
            planes[4 * g] = nx;
            planes[4 * g + 1] = ny;
            planes[4 * g + 2] = nz;
            planes[4 * g + 3] = offset;
            int[] loop = boundary(next);
            if (loop == null) {
                loop = byAngle(points, next.keySet().stream().mapToInt(Integer::intValue).toArray(), nx, ny, nz);
            }
            int size = convex(points, loop, nx, ny, nz);
            start[g] = written;
            System.arraycopy(loop, 0, all, written, size);
            written += size;
        }
        start[count] = written;
        vertices = Arrays.copyOf(all, written);
        vertexStart = new int[n + 1];
        for (int[] c : corners) {
            for (int v : c) {
                vertexStart[v + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            vertexStart[i + 1] += vertexStart[i];
        }
        facetsOfVertex = new int[vertexStart[n]];
        int[] fill = Arrays.copyOf(vertexStart, n);
        for (int g = 0; g < count; g++) {
            for (int v : corners[g]) {
                facetsOfVertex[fill[v]++] = g;
            }
        }
    }

    /**
     * The facet's boundary as one loop of vertices, from its directed boundary edges (each in its triangle's
     * counter-clockwise direction, so the loop is counter-clockwise seen from outside). A facet of a convex hull is a
     * disc, whose boundary is one loop; null if rounding made it anything else.
     */
    private static int[] boundary(Map<Integer, Integer> next) {
        int[] loop = new int[next.size()];
        int first = next.keySet().iterator().next();
        int v = first, size = 0;
        do {
            if (size == loop.length) {
                break;
            }
            loop[size++] = v;
            Integer to = next.get(v);
            v = to == null ? -1 : to;
        } while (v != first && v >= 0);
        return v == first && size == loop.length ? loop : null;
    }

    /** The vertices in counter-clockwise order about n by their angle about their centroid in the plane. */
    private static int[] byAngle(double[] p, int[] vertices, double nx, double ny, double nz) {
        double cx = 0, cy = 0, cz = 0;
        for (int i : vertices) {
            cx += p[3 * i] / vertices.length;
            cy += p[3 * i + 1] / vertices.length;
            cz += p[3 * i + 2] / vertices.length;
        }
        // a basis (u, w = n × u) of the plane
        double ux = Math.abs(nx) < 0.6 ? 0 : -nz, uy = Math.abs(nx) < 0.6 ? nz : 0, uz = Math.abs(nx) < 0.6 ? -ny : nx;
        double wx = ny * uz - nz * uy, wy = nz * ux - nx * uz, wz = nx * uy - ny * ux;
        double[] angle = new double[vertices.length];
        Integer[] order = new Integer[vertices.length];
        for (int k = 0; k < vertices.length; k++) {
            int i = vertices[k];
            double dx = p[3 * i] - cx, dy = p[3 * i + 1] - cy, dz = p[3 * i + 2] - cz;
            angle[k] = Math.atan2(wx * dx + wy * dy + wz * dz, ux * dx + uy * dy + uz * dz);
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Double.compare(angle[a], angle[b]));
        int[] loop = new int[vertices.length];
        for (int k = 0; k < loop.length; k++) {
            loop[k] = vertices[order[k]];
        }
        return loop;
    }

    /**
     * Drops the corners of the loop where it does not turn left about n (collinear corners, and corners a hair inside
     * the facet's outline left by coordinates' rounding), until it is convex; returns the corners kept, in front.
     */
    private static int convex(double[] p, int[] loop, double nx, double ny, double nz) {
        int size = loop.length;
        boolean changed = true;
        while (changed && size > 3) {
            changed = false;
            for (int k = 0; k < size && size > 3; k++) {
                int a = loop[(k + size - 1) % size], b = loop[k], c = loop[(k + 1) % size];
                double ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2];
                double fx = p[3 * c] - p[3 * b], fy = p[3 * c + 1] - p[3 * b + 1], fz = p[3 * c + 2] - p[3 * b + 2];
                double turn = nx * (ey * fz - ez * fy) + ny * (ez * fx - ex * fz) + nz * (ex * fy - ey * fx);
                if (turn <= 0) {
                    System.arraycopy(loop, k + 1, loop, k, size - k - 1);
                    size--;
                    changed = true;
                    k--;
                }
            }
        }
        return size;
    }

    /** The number of facets. */
    int count() {
        return start.length - 1;
    }

    /** Of the facets containing vertex i, the one whose outward normal has the largest d · n_f (d in frame S). */
    int towards(int i, double dx, double dy, double dz) {
        int best = facetsOfVertex[vertexStart[i]];
        double most = Double.NEGATIVE_INFINITY;
        for (int k = vertexStart[i]; k < vertexStart[i + 1]; k++) {
            int g = facetsOfVertex[k];
            double dot = dx * planes[4 * g] + dy * planes[4 * g + 1] + dz * planes[4 * g + 2];
            if (dot > most) {
                most = dot;
                best = g;
            }
        }
        return best;
    }

    /** True when the corners of triangle g lie within delta of the plane planes[at..at+4). */
    private static boolean near(double[] p, int[] faces, int g, double[] planes, int at, double delta) {
        for (int k = 0; k < 3; k++) {
            int v = faces[3 * g + k];
            double h = planes[at] * p[3 * v] + planes[at + 1] * p[3 * v + 1] + planes[at + 2] * p[3 * v + 2]
                    - planes[at + 3];
            if (!(Math.abs(h) <= delta)) {
                return false;
            }
        }
        return true;
    }

    private static double diagonal(double[] p) {
        double sum = 0;
        for (int k = 0; k < 3; k++) {
            double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
            for (int i = k; i < p.length; i += 3) {
                lo = Math.min(lo, p[i]);
                hi = Math.max(hi, p[i]);
            }
            sum += (hi - lo) * (hi - lo);
        }
        return Math.sqrt(sum);
    }

    private static long edge(int a, int b, int n) {
        return (long) a * n + b;
    }

    /** Adds triangle f's area vector (v1 − v0) × (v2 − v0) (twice its area along its normal) to sums[at..]. */
    private static void addArea(double[] p, int[] faces, int f, double[] sums, int at) {
        int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
        double ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2];
        double vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2];
        sums[at] += uy * vz - uz * vy;
        sums[at + 1] += uz * vx - ux * vz;
        sums[at + 2] += ux * vy - uy * vx;
    }
}
