package org.symdyn.spatial;

/**
 * Unit directions from the vectors model files give. The vector is scaled by its largest component before its
 * length is taken, so that no square overflows or underflows: any finite non-zero vector has a direction, from
 * (1e200, 0, 0) to (1e-160, 1e-160, 0) and the smallest subnormal, and the result is as accurate as for vectors
 * of moderate length.
 */
public final class Directions {
    private Directions() {
    }

    /** The unit vector along {@code v} (any length), or null if {@code v} is zero or has a non-finite entry. */
    public static double[] unit(double[] v) {
        double max = 0;
        for (double x : v) {
            if (!Double.isFinite(x)) {
                return null;
            }
            max = Math.max(max, Math.abs(x));
        }
        if (max == 0) {
            return null;
        }
        double[] out = new double[v.length];
        double sum = 0;
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] / max;
            sum += out[i] * out[i];
        }
        double n = Math.sqrt(sum);
        for (int i = 0; i < v.length; i++) {
            out[i] /= n;
        }
        return out;
    }

    /**
     * Completes a unit normal n to a right-handed orthonormal frame (t1, t2, n): t1 is perpendicular to n and to
     * the coordinate axis least aligned with n, t2 = n × t1. Deterministic, continuous away from the switches
     * between axes, no allocation.
     */
    public static void tangentBasis(double[] n, double[] t1, double[] t2) {
        double ax = Math.abs(n[0]), ay = Math.abs(n[1]), az = Math.abs(n[2]);
        // t1 = unit(e × n) for the axis e least aligned with n
        double x, y, z;
        if (ax <= ay && ax <= az) {
            x = 0; y = -n[2]; z = n[1];
        } else if (ay <= az) {
            x = n[2]; y = 0; z = -n[0];
        } else {
            x = -n[1]; y = n[0]; z = 0;
        }
        double inv = 1 / Math.sqrt(x * x + y * y + z * z);
        t1[0] = x * inv;
        t1[1] = y * inv;
        t1[2] = z * inv;
        t2[0] = n[1] * t1[2] - n[2] * t1[1];
        t2[1] = n[2] * t1[0] - n[0] * t1[2];
        t2[2] = n[0] * t1[1] - n[1] * t1[0];
    }
}
