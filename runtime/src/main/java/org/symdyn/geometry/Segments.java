package org.symdyn.geometry;

/**
 * Closest points of two segments P(s) = p + s u and Q(t) = q + t w, s, t in [0, 1] (Ericson, Real-Time Collision
 * Detection, 5.1.9, with a deterministic choice for parallel segments). No allocation.
 */
final class Segments {
    private Segments() {
    }

    /**
     * Writes to st[0], st[1] parameters s, t of a closest pair. |P(s) − Q(t)|² is convex in (s, t); the pair
     * returned is optimal in each parameter given the other (each clamped to [0, 1]), which for a convex function
     * on a box is the minimum. Parallel segments (|u × w|² ≤ 1e-20 |u|² |w|²) have a whole set of closest pairs;
     * the one returned has s at the middle of the part of P that faces Q (or the end nearest Q).
     */
    static void closest(double px, double py, double pz, double ux, double uy, double uz, double qx, double qy,
            double qz, double wx, double wy, double wz, double[] st) {
        double rx = px - qx, ry = py - qy, rz = pz - qz;
        double a = ux * ux + uy * uy + uz * uz;
        double e = wx * wx + wy * wy + wz * wz;
        double b = ux * wx + uy * wy + uz * wz;
        double c = ux * rx + uy * ry + uz * rz;
        double f = wx * rx + wy * ry + wz * rz;
        double denominator = a * e - b * b;
        double s;
        if (denominator > 1e-20 * a * e) {
            s = clamp((b * f - c * e) / denominator);
        } else {
            // Q's ends projected on P's line: s = (q − p) · u / a and (q + w − p) · u / a.
            double s0 = -c / a, s1 = (b - c) / a;
            double lo = Math.max(0, Math.min(s0, s1)), hi = Math.min(1, Math.max(s0, s1));
            s = lo <= hi ? (lo + hi) / 2 : clamp(Math.min(s0, s1) > 1 ? 1 : 0);
        }
        double t = (b * s + f) / e;
        if (t < 0) {
            t = 0;
            s = clamp(-c / a);
        } else if (t > 1) {
            t = 1;
            s = clamp((b - c) / a);
        }
        st[0] = s;
        st[1] = t;
    }

    static double clamp(double x) {
        return x < 0 ? 0 : x > 1 ? 1 : x;
    }
}
