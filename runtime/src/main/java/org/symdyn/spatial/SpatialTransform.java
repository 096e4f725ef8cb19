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

    /** out = X m for a motion vector m = [ω; v]. */
    public void applyMotion(double[] m, int mo, double[] out, int oo) {
        double w0 = m[mo], w1 = m[mo + 1], w2 = m[mo + 2];
        // v - r × ω
        double u0 = m[mo + 3] - (r[1] * w2 - r[2] * w1);
        double u1 = m[mo + 4] - (r[2] * w0 - r[0] * w2);
        double u2 = m[mo + 5] - (r[0] * w1 - r[1] * w0);
        out[oo] = E[0] * w0 + E[1] * w1 + E[2] * w2;
        out[oo + 1] = E[3] * w0 + E[4] * w1 + E[5] * w2;
        out[oo + 2] = E[6] * w0 + E[7] * w1 + E[8] * w2;
        out[oo + 3] = E[0] * u0 + E[1] * u1 + E[2] * u2;
        out[oo + 4] = E[3] * u0 + E[4] * u1 + E[5] * u2;
        out[oo + 5] = E[6] * u0 + E[7] * u1 + E[8] * u2;
    }

    /** out = X⁻¹ m for a motion vector given in B coordinates: [Eᵀ ω; Eᵀ v + r × Eᵀ ω]. */
    public void applyInverseMotion(double[] m, int mo, double[] out, int oo) {
        double a0 = m[mo], a1 = m[mo + 1], a2 = m[mo + 2];
        double b0 = m[mo + 3], b1 = m[mo + 4], b2 = m[mo + 5];
        double w0 = E[0] * a0 + E[3] * a1 + E[6] * a2;
        double w1 = E[1] * a0 + E[4] * a1 + E[7] * a2;
        double w2 = E[2] * a0 + E[5] * a1 + E[8] * a2;
        double v0 = E[0] * b0 + E[3] * b1 + E[6] * b2;
        double v1 = E[1] * b0 + E[4] * b1 + E[7] * b2;
        double v2 = E[2] * b0 + E[5] * b1 + E[8] * b2;
        out[oo] = w0;
        out[oo + 1] = w1;
        out[oo + 2] = w2;
        out[oo + 3] = v0 + r[1] * w2 - r[2] * w1;
        out[oo + 4] = v1 + r[2] * w0 - r[0] * w2;
        out[oo + 5] = v2 + r[0] * w1 - r[1] * w0;
    }

    /** out = X* f for a force vector f = [n; f] given in A coordinates. */
    public void applyForce(double[] f, int fo, double[] out, int oo) {
        double l0 = f[fo + 3], l1 = f[fo + 4], l2 = f[fo + 5];
        double n0 = f[fo] - (r[1] * l2 - r[2] * l1);
        double n1 = f[fo + 1] - (r[2] * l0 - r[0] * l2);
        double n2 = f[fo + 2] - (r[0] * l1 - r[1] * l0);
        out[oo] = E[0] * n0 + E[1] * n1 + E[2] * n2;
        out[oo + 1] = E[3] * n0 + E[4] * n1 + E[5] * n2;
        out[oo + 2] = E[6] * n0 + E[7] * n1 + E[8] * n2;
        out[oo + 3] = E[0] * l0 + E[1] * l1 + E[2] * l2;
        out[oo + 4] = E[3] * l0 + E[4] * l1 + E[5] * l2;
        out[oo + 5] = E[6] * l0 + E[7] * l1 + E[8] * l2;
    }

    /**
     * out = Xᵀ f: a force given in B coordinates, expressed in A coordinates ([Eᵀ n + r × Eᵀ f; Eᵀ f]). This is
     * how RNEA and CRBA carry a child's force to its parent.
     */
    public void applyTransposeForce(double[] f, int fo, double[] out, int oo) {
        double a0 = f[fo], a1 = f[fo + 1], a2 = f[fo + 2];
        double b0 = f[fo + 3], b1 = f[fo + 4], b2 = f[fo + 5];
        double l0 = E[0] * b0 + E[3] * b1 + E[6] * b2;
        double l1 = E[1] * b0 + E[4] * b1 + E[7] * b2;
        double l2 = E[2] * b0 + E[5] * b1 + E[8] * b2;
        double n0 = E[0] * a0 + E[3] * a1 + E[6] * a2;
        double n1 = E[1] * a0 + E[4] * a1 + E[7] * a2;
        double n2 = E[2] * a0 + E[5] * a1 + E[8] * a2;
        out[oo] = n0 + r[1] * l2 - r[2] * l1;
        out[oo + 1] = n1 + r[2] * l0 - r[0] * l2;
        out[oo + 2] = n2 + r[0] * l1 - r[1] * l0;
        out[oo + 3] = l0;
        out[oo + 4] = l1;
        out[oo + 5] = l2;
    }

    /** Adds Xᵀ f to {@code acc} (the RNEA force accumulation f_λ(i) += X_iᵀ f_i). */
    public void addTransposeForce(double[] f, int fo, double[] acc, int ao) {
        double a0 = f[fo], a1 = f[fo + 1], a2 = f[fo + 2];
        double b0 = f[fo + 3], b1 = f[fo + 4], b2 = f[fo + 5];
        double l0 = E[0] * b0 + E[3] * b1 + E[6] * b2;
        double l1 = E[1] * b0 + E[4] * b1 + E[7] * b2;
        double l2 = E[2] * b0 + E[5] * b1 + E[8] * b2;
        double n0 = E[0] * a0 + E[3] * a1 + E[6] * a2;
        double n1 = E[1] * a0 + E[4] * a1 + E[7] * a2;
        double n2 = E[2] * a0 + E[5] * a1 + E[8] * a2;
        acc[ao] += n0 + r[1] * l2 - r[2] * l1;
        acc[ao + 1] += n1 + r[2] * l0 - r[0] * l2;
        acc[ao + 2] += n2 + r[0] * l1 - r[1] * l0;
        acc[ao + 3] += l0;
        acc[ao + 4] += l1;
        acc[ao + 5] += l2;
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
