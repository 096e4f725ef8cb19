package org.symdyn.geometry;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The facets of a {@link ConvexHull}: its flat faces as convex polygons, each the union of the coplanar triangles
 * {@link Quickhull} cut it into (a box's hull has 6 squares, not 12 triangles). Built once with the hull; read by the
 * contact manifold, which clips a facet against another shape's face.
 *
 * <p>Grouping: starting from a triangle not yet in a facet, the triangles reached across shared edges whose unit
 * normal m satisfies 1 − n_0 · m ≤ {@link #COPLANAR} (n_0 the first triangle's normal; about 1e-6 rad) join its
 * facet. The facet's unit outward normal n_f is the direction of the sum of its triangles' area vectors and its
 * offset c_f = max over its vertices of n_f · x, so every vertex lies on or below the plane n_f · x = c_f (on it, to
 * rounding, for coplanar points). Its vertices, each once, are ordered counter-clockwise seen from outside (by angle
 * about their centroid in the plane), so that the side planes of edge (v_k, v_k+1) have outward normals
 * (v_k+1 − v_k) × n_f.
 */
final class HullFacets {
    /** 1 − cos of the largest angle between the normals of triangles merged into one facet. */
    static final double COPLANAR = 5e-13;

    /** Facet f: unit outward normal (3 entries) and offset c_f, 4 entries per facet (hull frame S). */
    final double[] planes;
    /** Facet f's vertices (hull indices) are vertices[start[f] .. start[f + 1]), counter-clockwise from outside. */
    final int[] start;
    final int[] vertices;
    /** The facets that contain vertex i: facetsOfVertex[vertexStart[i] .. vertexStart[i + 1]). */
    final int[] vertexStart;
    final int[] facetsOfVertex;
    /** The most vertices of any facet. */
    final int largest;

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
        int count = 0;
        for (int seed = 0; seed < triangles; seed++) {
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
                    if (g != null && facetOf[g] < 0 && 1 - (facePlanes[4 * seed] * facePlanes[4 * g]
                            + facePlanes[4 * seed + 1] * facePlanes[4 * g + 1]
                            + facePlanes[4 * seed + 2] * facePlanes[4 * g + 2]) <= COPLANAR) {
                        facetOf[g] = facet;
                        stack[top++] = g;
                    }
                }
            }
        }
        planes = new double[4 * count];
        int[][] members = new int[count][];
        int[] memberCount = new int[count];
        for (int f = 0; f < triangles; f++) {
            memberCount[facetOf[f]]++;
        }
        for (int g = 0; g < count; g++) {
            members[g] = new int[3 * memberCount[g]];
            memberCount[g] = 0;
        }
        for (int f = 0; f < triangles; f++) {
            int g = facetOf[f];
            for (int k = 0; k < 3; k++) {
                members[g][memberCount[g]++] = faces[3 * f + k];
            }
        }
        start = new int[count + 1];
        int[] all = new int[faces.length];
        int written = 0;
        int most = 0;
        for (int g = 0; g < count; g++) {
            double sx = sums[4 * g], sy = sums[4 * g + 1], sz = sums[4 * g + 2];
            double len = Math.sqrt(sx * sx + sy * sy + sz * sz);
            double nx = sx / len, ny = sy / len, nz = sz / len;
            int[] unique = Arrays.stream(members[g]).distinct().toArray();
            double offset = Double.NEGATIVE_INFINITY;
            double cx = 0, cy = 0, cz = 0;
            for (int i : unique) {
                offset = Math.max(offset, nx * points[3 * i] + ny * points[3 * i + 1] + nz * points[3 * i + 2]);
                cx += points[3 * i] / unique.length;
                cy += points[3 * i + 1] / unique.length;
                cz += points[3 * i + 2] / unique.length;
            }
            planes[4 * g] = nx;
            planes[4 * g + 1] = ny;
            planes[4 * g + 2] = nz;
            planes[4 * g + 3] = offset;
            // a basis (u, w = n × u) of the plane: angles about the centroid, counter-clockwise about n
            double ux, uy, uz;
            if (Math.abs(nx) < 0.6) {
                ux = 0;
                uy = nz;
                uz = -ny; // n × e_x
            } else {
                ux = -nz;
                uy = 0;
                uz = nx; // e_y × n
            }
            double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
            ux /= ul;
            uy /= ul;
            uz /= ul;
            double wx = ny * uz - nz * uy, wy = nz * ux - nx * uz, wz = nx * uy - ny * ux;
            double[] angle = new double[unique.length];
            Integer[] order = new Integer[unique.length];
            for (int k = 0; k < unique.length; k++) {
                int i = unique[k];
                double dx = points[3 * i] - cx, dy = points[3 * i + 1] - cy, dz = points[3 * i + 2] - cz;
                angle[k] = Math.atan2(wx * dx + wy * dy + wz * dz, ux * dx + uy * dy + uz * dz);
                order[k] = k;
            }
            Arrays.sort(order, (p, q) -> Double.compare(angle[p], angle[q]));
            start[g] = written;
            for (Integer k : order) {
                all[written++] = unique[k];
            }
            most = Math.max(most, unique.length);
        }
        start[count] = written;
        vertices = Arrays.copyOf(all, written);
        largest = most;
        vertexStart = new int[n + 1];
        for (int v : vertices) {
            vertexStart[v + 1]++;
        }
        for (int i = 0; i < n; i++) {
            vertexStart[i + 1] += vertexStart[i];
        }
        facetsOfVertex = new int[written];
        int[] fill = Arrays.copyOf(vertexStart, n);
        for (int g = 0; g < count; g++) {
            for (int k = start[g]; k < start[g + 1]; k++) {
                facetsOfVertex[fill[vertices[k]]++] = g;
            }
        }
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
