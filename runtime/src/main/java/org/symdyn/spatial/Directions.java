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
}
