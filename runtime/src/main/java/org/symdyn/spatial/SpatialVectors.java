package org.symdyn.spatial;

/**
 * Spatial cross products on 6-vectors [angular; linear] stored in {@code double[]} at an offset. For a motion
 * vector v: {@code v × m} (motion cross, crm) and {@code v ×* f} (force cross, crf = -crmᵀ). Outputs must not
 * overlap inputs; nothing allocates.
 */
public final class SpatialVectors {
    private SpatialVectors() {
    }

    /** out = v × m = [ω × m_ω; ω × m_v + v_v × m_ω]. */
    public static void crossMotion(double[] v, int vo, double[] m, int mo, double[] out, int oo) {
        double w0 = v[vo], w1 = v[vo + 1], w2 = v[vo + 2], u0 = v[vo + 3], u1 = v[vo + 4], u2 = v[vo + 5];
        double a0 = m[mo], a1 = m[mo + 1], a2 = m[mo + 2], b0 = m[mo + 3], b1 = m[mo + 4], b2 = m[mo + 5];
        out[oo] = w1 * a2 - w2 * a1;
        out[oo + 1] = w2 * a0 - w0 * a2;
        out[oo + 2] = w0 * a1 - w1 * a0;
        out[oo + 3] = w1 * b2 - w2 * b1 + u1 * a2 - u2 * a1;
        out[oo + 4] = w2 * b0 - w0 * b2 + u2 * a0 - u0 * a2;
        out[oo + 5] = w0 * b1 - w1 * b0 + u0 * a1 - u1 * a0;
    }

    /** out = v ×* f = [ω × n + v_v × f_f; ω × f_f]. */
    public static void crossForce(double[] v, int vo, double[] f, int fo, double[] out, int oo) {
        double w0 = v[vo], w1 = v[vo + 1], w2 = v[vo + 2], u0 = v[vo + 3], u1 = v[vo + 4], u2 = v[vo + 5];
        double n0 = f[fo], n1 = f[fo + 1], n2 = f[fo + 2], l0 = f[fo + 3], l1 = f[fo + 4], l2 = f[fo + 5];
        out[oo] = w1 * n2 - w2 * n1 + u1 * l2 - u2 * l1;
        out[oo + 1] = w2 * n0 - w0 * n2 + u2 * l0 - u0 * l2;
        out[oo + 2] = w0 * n1 - w1 * n0 + u0 * l1 - u1 * l0;
        out[oo + 3] = w1 * l2 - w2 * l1;
        out[oo + 4] = w2 * l0 - w0 * l2;
        out[oo + 5] = w0 * l1 - w1 * l0;
    }

    /** The scalar product mᵀ f of a motion and a force vector (power, W). */
    public static double dot(double[] m, int mo, double[] f, int fo) {
        return m[mo] * f[fo] + m[mo + 1] * f[fo + 1] + m[mo + 2] * f[fo + 2]
                + m[mo + 3] * f[fo + 3] + m[mo + 4] * f[fo + 4] + m[mo + 5] * f[fo + 5];
    }
}
