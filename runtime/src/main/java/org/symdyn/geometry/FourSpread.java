package org.symdyn.geometry;

/**
 * Which four of many contact points to keep so that they support what the many did: the deepest, and those that
 * span the largest area with it (as a persistent contact manifold keeps its points). The area of four points is
 * measured without ordering them: the largest |d₁ × d₂|² over the three ways of pairing them into two diagonals
 * d₁, d₂, four times the squared area of the quadrilateral they are the diagonals of.
 */
public final class FourSpread {
    private FourSpread() {
    }

    /**
     * {@link FourSpread}'s measure of the points a, b, c, d of {@code xyz} (x, y, z at {@code stride * index}).
     */
    public static double spread(double[] xyz, int stride, int a, int b, int c, int d) {
        return Math.max(cross(xyz, stride, a, b, c, d), Math.max(cross(xyz, stride, a, c, b, d),
                cross(xyz, stride, a, d, b, c)));
    }

    /** |(p_a − p_b) × (p_c − p_d)|². */
    private static double cross(double[] p, int stride, int a, int b, int c, int d) {
        int ia = stride * a, ib = stride * b, ic = stride * c, id = stride * d;
        double ux = p[ia] - p[ib], uy = p[ia + 1] - p[ib + 1], uz = p[ia + 2] - p[ib + 2];
        double wx = p[ic] - p[id], wy = p[ic + 1] - p[id + 1], wz = p[ic + 2] - p[id + 2];
        double x = uy * wz - uz * wy, y = uz * wx - ux * wz, z = ux * wy - uy * wx;
        return x * x + y * y + z * z;
    }

    /**
     * Up to four of the m points (x, y, z, distance: 4 numbers each) into {@code out} (-1 where fewer): all when m ≤ 4;
     * else the deepest, the farthest from it, the one spanning the largest triangle with those two, and the one
     * giving the four the largest {@link #spread}.
     */
    static int[] choose(double[] points, int m, int[] out) {
        java.util.Arrays.fill(out, -1);
        if (m <= 4) {
            for (int k = 0; k < m; k++) {
                out[k] = k;
            }
            return out;
        }
        int a = 0;
        for (int k = 1; k < m; k++) {
            if (points[4 * k + 3] < points[4 * a + 3]) {
                a = k;
            }
        }
        int b = -1;
        double far = -1;
        for (int k = 0; k < m; k++) {
            double dx = points[4 * k] - points[4 * a], dy = points[4 * k + 1] - points[4 * a + 1];
            double dz = points[4 * k + 2] - points[4 * a + 2];
            double d2 = dx * dx + dy * dy + dz * dz;
            if (k != a && d2 > far) {
                far = d2;
                b = k;
            }
        }
        int c = -1;
        double best = -1;
        for (int k = 0; k < m; k++) {
            double s = cross(points, 4, b, a, k, a);
            if (k != a && k != b && s > best) {
                best = s;
                c = k;
            }
        }
        int d = -1;
        best = -1;
        for (int k = 0; k < m; k++) {
            double s = spread(points, 4, a, b, c, k);
            if (k != a && k != b && k != c && s > best) {
                best = s;
                d = k;
            }
        }
        out[0] = a;
        out[1] = b;
        out[2] = c;
        out[3] = d;
        return out;
    }
}
