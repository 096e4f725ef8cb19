package org.symdyn.spatial;

import org.ejml.data.DMatrixRMaj;

/**
 * A mutable Plücker transform X from frame A to frame B (Featherstone, <i>Rigid Body Dynamics Algorithms</i>,
 * §2.8): E rotates A coordinates into B coordinates and r is the position of B's origin in A coordinates, so that
 * for a motion vector m = [ω; v] (angular first) {@code X m = [E ω; E (v - r × ω)]} and for a force f = [n; f]
 * {@code X* f = [E (n - r × f); E f]}.
 *
 * <p>Vectors are {@code double[]} with an offset so that algorithms can keep all bodies' vectors in one flat
 * array. No method allocates; output ranges must not overlap input ranges.
 */
public final class SpatialTransform {
    /** Row-major 3x3 rotation B <- A. */
    public final double[] E = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    /** Origin of B in A coordinates (metres). */
    public final double[] r = new double[3];

    /** Sets X from the placement of B in A (R = A <- B, p = origin of B in A): E = Rᵀ, r = p. */
    public SpatialTransform setFromPose(Pose pose) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                E[3 * i + j] = pose.rotation(j, i);
            }
            r[i] = pose.translation(i);
        }
        return this;
    }

    /** Copies another transform into this one. */
    public SpatialTransform set(SpatialTransform other) {
        System.arraycopy(other.E, 0, E, 0, 9);
        System.arraycopy(other.r, 0, r, 0, 3);
        return this;
    }

    /** Sets the identity. */
    public SpatialTransform setIdentity() {
        for (int i = 0; i < 9; i++) {
            E[i] = (i % 4 == 0) ? 1 : 0;
        }
        r[0] = r[1] = r[2] = 0;
        return this;
    }

    /** The placement of B in A (rotation A <- B = Eᵀ, translation r) as an immutable {@link Pose}. */
    public Pose toPose() {
        double[] rot = new double[9];
        Rotations.transpose(E, rot);
        return Pose.of(rot, r);
    }

    /**
     * this = X_CA = X_CB X_BA, the composition of {@code bc} (B to C) after {@code ab} (A to B). May be called with
     * {@code this == bc} or {@code this == ab}.
     */
    public SpatialTransform setProduct(SpatialTransform bc, SpatialTransform ab) {
        // E_CA = E_CB E_BA; r_CA (origin of C in A) = r_BA + E_BAᵀ r_CB.
        double[] e1 = bc.E, e2 = ab.E;
        double r0 = ab.r[0] + e2[0] * bc.r[0] + e2[3] * bc.r[1] + e2[6] * bc.r[2];
        double r1 = ab.r[1] + e2[1] * bc.r[0] + e2[4] * bc.r[1] + e2[7] * bc.r[2];
        double r2 = ab.r[2] + e2[2] * bc.r[0] + e2[5] * bc.r[1] + e2[8] * bc.r[2];
        double a00 = e1[0] * e2[0] + e1[1] * e2[3] + e1[2] * e2[6];
        double a01 = e1[0] * e2[1] + e1[1] * e2[4] + e1[2] * e2[7];
        double a02 = e1[0] * e2[2] + e1[1] * e2[5] + e1[2] * e2[8];
        double a10 = e1[3] * e2[0] + e1[4] * e2[3] + e1[5] * e2[6];
        double a11 = e1[3] * e2[1] + e1[4] * e2[4] + e1[5] * e2[7];
        double a12 = e1[3] * e2[2] + e1[4] * e2[5] + e1[5] * e2[8];
        double a20 = e1[6] * e2[0] + e1[7] * e2[3] + e1[8] * e2[6];
        double a21 = e1[6] * e2[1] + e1[7] * e2[4] + e1[8] * e2[7];
        double a22 = e1[6] * e2[2] + e1[7] * e2[5] + e1[8] * e2[8];
        E[0] = a00; E[1] = a01; E[2] = a02;
        E[3] = a10; E[4] = a11; E[5] = a12;
        E[6] = a20; E[7] = a21; E[8] = a22;
        r[0] = r0; r[1] = r1; r[2] = r2;
        return this;
    }

    /** out = X m for a motion vector m = [ω; v]: [E ω; E (v - r × ω)]. */
    public void applyMotion(double[] m, int mo, double[] out, int oo) {
        rotateAfterShift(m[mo], m[mo + 1], m[mo + 2], m[mo + 3], m[mo + 4], m[mo + 5], out, oo, oo + 3);
    }

    /** out = X⁻¹ m for a motion vector given in B coordinates: [Eᵀ ω; Eᵀ v + r × Eᵀ ω]. */
    public void applyInverseMotion(double[] m, int mo, double[] out, int oo) {
        shiftAfterRotate(m[mo], m[mo + 1], m[mo + 2], m[mo + 3], m[mo + 4], m[mo + 5], out, oo, oo + 3, false);
    }

    /** out = X* f for a force vector f = [n; f] given in A coordinates: [E (n - r × f); E f]. */
    public void applyForce(double[] f, int fo, double[] out, int oo) {
        rotateAfterShift(f[fo + 3], f[fo + 4], f[fo + 5], f[fo], f[fo + 1], f[fo + 2], out, oo + 3, oo);
    }

    /**
     * out = Xᵀ f: a force given in B coordinates, expressed in A coordinates ([Eᵀ n + r × Eᵀ f; Eᵀ f]). This is
     * how RNEA and CRBA carry a child's force to its parent.
     */
    public void applyTransposeForce(double[] f, int fo, double[] out, int oo) {
        shiftAfterRotate(f[fo + 3], f[fo + 4], f[fo + 5], f[fo], f[fo + 1], f[fo + 2], out, oo + 3, oo, false);
    }

    /** Adds Xᵀ f to {@code acc} (the RNEA force accumulation f_λ(i) += X_iᵀ f_i). */
    public void addTransposeForce(double[] f, int fo, double[] acc, int ao) {
        shiftAfterRotate(f[fo + 3], f[fo + 4], f[fo + 5], f[fo], f[fo + 1], f[fo + 2], acc, ao + 3, ao, true);
    }

    /**
     * The half that X applies to both kinds of vector, whose halves are a and b (motion: a = ω, b = v; force:
     * a = f, b = n): out[ao..ao+3) = E a and out[bo..bo+3) = E (b - r × a).
     */
    private void rotateAfterShift(double a0, double a1, double a2, double b0, double b1, double b2, double[] out,
            int ao, int bo) {
        double[] e = E;
        double[] t = r;
        double u0 = b0 - (t[1] * a2 - t[2] * a1);
        double u1 = b1 - (t[2] * a0 - t[0] * a2);
        double u2 = b2 - (t[0] * a1 - t[1] * a0);
        out[ao] = e[0] * a0 + e[1] * a1 + e[2] * a2;
        out[ao + 1] = e[3] * a0 + e[4] * a1 + e[5] * a2;
        out[ao + 2] = e[6] * a0 + e[7] * a1 + e[8] * a2;
        out[bo] = e[0] * u0 + e[1] * u1 + e[2] * u2;
        out[bo + 1] = e[3] * u0 + e[4] * u1 + e[5] * u2;
        out[bo + 2] = e[6] * u0 + e[7] * u1 + e[8] * u2;
    }

    /**
     * The half that X⁻¹ (motion) and Xᵀ (force) apply, halves a and b as in {@link #rotateAfterShift}: with
     * a' = Eᵀ a, out[ao..ao+3) = a' and out[bo..bo+3) = Eᵀ b + r × a', or both added to out when
     * {@code accumulate}.
     */
    private void shiftAfterRotate(double a0, double a1, double a2, double b0, double b1, double b2, double[] out,
            int ao, int bo, boolean accumulate) {
        double[] e = E;
        double[] t = r;
        double p0 = e[0] * a0 + e[3] * a1 + e[6] * a2;
        double p1 = e[1] * a0 + e[4] * a1 + e[7] * a2;
        double p2 = e[2] * a0 + e[5] * a1 + e[8] * a2;
        double q0 = e[0] * b0 + e[3] * b1 + e[6] * b2;
        double q1 = e[1] * b0 + e[4] * b1 + e[7] * b2;
        double q2 = e[2] * b0 + e[5] * b1 + e[8] * b2;
        double s0 = q0 + t[1] * p2 - t[2] * p1;
        double s1 = q1 + t[2] * p0 - t[0] * p2;
        double s2 = q2 + t[0] * p1 - t[1] * p0;
        if (accumulate) {
            s0 = out[bo] + s0;
            s1 = out[bo + 1] + s1;
            s2 = out[bo + 2] + s2;
            p0 = out[ao] + p0;
            p1 = out[ao + 1] + p1;
            p2 = out[ao + 2] + p2;
        }
        out[bo] = s0;
        out[bo + 1] = s1;
        out[bo + 2] = s2;
        out[ao] = p0;
        out[ao + 1] = p1;
        out[ao + 2] = p2;
    }

    /** The full 6x6 motion transform [E 0; -E [r]× E] into {@code out} (resized to 6x6). */
    public void toMotionMatrix(DMatrixRMaj out) {
        out.reshape(6, 6);
        out.zero();
        double[] rx = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out.set(i, j, E[3 * i + j]);
                out.set(i + 3, j + 3, E[3 * i + j]);
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += E[3 * i + k] * rx[3 * k + j];
                }
                out.set(i + 3, j, -s);
            }
        }
    }
}
