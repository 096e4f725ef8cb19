package org.symdyn.geometry;

/**
 * The two steps every face manifold shares ({@link BoxBoxCollision}, {@link FeatureContact}, a mesh triangle's in
 * {@link Narrowphase}): clipping the incident polygon (points x, y, z, three numbers each) to the reference face's
 * side planes, and keeping at most {@link ContactManifold#CAPACITY} of the clipped points: the deepest, the farthest
 * from it, and the two spanning the largest signed areas n · ((p₁ − p₀) × (p − p₀)) on either side of the line
 * through those two, so that a face resting on a face is supported at its corners.
 */
final class FaceClipping {
    private FaceClipping() {
    }

    /**
     * The part of the polygon {@code in[0 .. 3 count)} with p · x ≤ o (Sutherland–Hodgman; a point on the plane is
     * kept) into {@code out}; its count. Each corner is followed by the crossing of the edge it starts, if any.
     */
    static int clipPlane(double[] in, int count, double[] out, double px, double py, double pz, double o) {
        int kept = 0;
        for (int c = 0; c < count; c++) {
            int d = c + 1 == count ? 0 : c + 1;
            double hc = px * in[3 * c] + py * in[3 * c + 1] + pz * in[3 * c + 2] - o;
            double hd = px * in[3 * d] + py * in[3 * d + 1] + pz * in[3 * d + 2] - o;
            if (hc <= 0) {
                out[3 * kept] = in[3 * c];
                out[3 * kept + 1] = in[3 * c + 1];
                out[3 * kept + 2] = in[3 * c + 2];
                kept++;
            }
            if ((hc < 0 && hd > 0) || (hc > 0 && hd < 0)) {
                double t = hc / (hc - hd);
                for (int q = 0; q < 3; q++) {
                    out[3 * kept + q] = in[3 * c + q] + t * (in[3 * d + q] - in[3 * c + q]);
                }
                kept++;
            }
        }
        return kept;
    }

    /**
     * Of the points k of {@code polygon[0 .. 3 count)} with {@code kept[k]}, keeps four (see the class comment):
     * {@code kept} is true for them alone afterwards; {@code depth} their signed distances, n the normal the areas
     * are measured about. Call it with more than four kept.
     */
    static void keepFour(double[] polygon, int count, double[] depth, boolean[] kept, double nx, double ny,
            double nz) {
        int p0 = -1;
        for (int k = 0; k < count; k++) {
            if (kept[k] && (p0 < 0 || depth[k] < depth[p0])) {
                p0 = k;
            }
        }
        int p1 = -1;
        double far = -1;
        for (int k = 0; k < count; k++) {
            if (kept[k] && k != p0) {
                double ex = polygon[3 * k] - polygon[3 * p0], ey = polygon[3 * k + 1] - polygon[3 * p0 + 1];
                double ez = polygon[3 * k + 2] - polygon[3 * p0 + 2];
                double d2 = ex * ex + ey * ey + ez * ez;
                if (d2 > far) {
                    far = d2;
                    p1 = k;
                }
            }
        }
        int p2 = -1, p3 = -1;
        double most = 0, least = 0;
        for (int k = 0; k < count; k++) {
            if (kept[k] && k != p0 && k != p1) {
                double area = signedArea(polygon, p0, p1, k, nx, ny, nz);
                if (p2 < 0 || area > most) {
                    most = area;
                    p2 = k;
                }
            }
        }
        for (int k = 0; k < count; k++) {
            if (kept[k] && k != p0 && k != p1 && k != p2) {
                double area = signedArea(polygon, p0, p1, k, nx, ny, nz);
                if (p3 < 0 || area < least) {
                    least = area;
                    p3 = k;
                }
            }
        }
        for (int k = 0; k < count; k++) {
            kept[k] = k == p0 || k == p1 || k == p2 || k == p3;
        }
    }

    /** n · ((p₁ − p₀) × (p_k − p₀)). */
    private static double signedArea(double[] polygon, int p0, int p1, int k, double nx, double ny, double nz) {
        double ax = polygon[3 * p1] - polygon[3 * p0], ay = polygon[3 * p1 + 1] - polygon[3 * p0 + 1];
        double az = polygon[3 * p1 + 2] - polygon[3 * p0 + 2];
        double bx = polygon[3 * k] - polygon[3 * p0], by = polygon[3 * k + 1] - polygon[3 * p0 + 1];
        double bz = polygon[3 * k + 2] - polygon[3 * p0 + 2];
        return nx * (ay * bz - az * by) + ny * (az * bx - ax * bz) + nz * (ax * by - ay * bx);
    }
}
