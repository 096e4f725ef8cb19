package org.symdyn.geometry;

/**
 * The point of a triangle (a, b, c) closest to a point p (Ericson, Real-Time Collision Detection, 5.1.5): the
 * Voronoi region of p (a vertex, an edge or the face) from the signs of dot products, and the closest point
 * q = a + s (b − a) + u (c − a). No allocation.
 */
final class Triangles {
    static final int A = 0, B = 1, C = 2, AB = 3, AC = 4, BC = 5, FACE = 6;

    private Triangles() {
    }

    /** Writes s and u to su[0], su[1] and returns the region of q: {@link #A} ... {@link #FACE}. */
    static int closest(double ax, double ay, double az, double bx, double by, double bz, double cx, double cy,
            double cz, double px, double py, double pz, double[] su) {
        double abx = bx - ax, aby = by - ay, abz = bz - az;
        double acx = cx - ax, acy = cy - ay, acz = cz - az;
        double apx = px - ax, apy = py - ay, apz = pz - az;
        double d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
        if (d1 <= 0 && d2 <= 0) {
            return set(su, 0, 0, A);
        }
        double bpx = px - bx, bpy = py - by, bpz = pz - bz;
        double d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
        if (d3 >= 0 && d4 <= d3) {
            return set(su, 1, 0, B);
        }
        double vc = d1 * d4 - d3 * d2;
        if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            return set(su, d1 / (d1 - d3), 0, AB);
        }
        double cpx = px - cx, cpy = py - cy, cpz = pz - cz;
        double d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0 && d5 <= d6) {
            return set(su, 0, 1, C);
        }
        double vb = d5 * d2 - d1 * d6;
        if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            return set(su, 0, d2 / (d2 - d6), AC);
        }
        double va = d3 * d6 - d5 * d4;
        if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
            double u = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            return set(su, 1 - u, u, BC);
        }
        double denominator = va + vb + vc;
        return set(su, vb / denominator, vc / denominator, FACE);
    }

    private static int set(double[] su, double s, double u, int region) {
        su[0] = s;
        su[1] = u;
        return region;
    }
}
