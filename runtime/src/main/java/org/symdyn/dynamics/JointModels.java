package org.symdyn.dynamics;

/**
 * Conventions of joint coordinates that the generic runtime and generated code must share.
 */
public final class JointModels {
    private JointModels() {
    }

    /**
     * The in-plane basis (u₁, u₂) of a planar joint with unit normal n, so that (u₁, u₂, n) is right-handed: u₁ is
     * the projection onto the plane of x (of y when |n_x| ≥ 0.9), normalised, and u₂ = n × u₁. For n = z this is
     * u₁ = x, u₂ = y.
     *
     * @param n  the unit normal (joint axis)
     * @param u1 receives u₁
     * @param u2 receives u₂
     */
    public static void planarBasis(double[] n, double[] u1, double[] u2) {
        double ex = 1, ey = 0;
        if (Math.abs(n[0]) >= 0.9) {
            ex = 0;
            ey = 1;
        }
        double d = ex * n[0] + ey * n[1];
        double a0 = ex - d * n[0], a1 = ey - d * n[1], a2 = -d * n[2];
        double len = Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2);
        u1[0] = a0 / len;
        u1[1] = a1 / len;
        u1[2] = a2 / len;
        u2[0] = n[1] * u1[2] - n[2] * u1[1];
        u2[1] = n[2] * u1[0] - n[0] * u1[2];
        u2[2] = n[0] * u1[1] - n[1] * u1[0];
    }
}
