package org.symdyn.dynamics;

import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.spatial.SpatialTransform;

/**
 * Spatial inertias as dense row-major 6x6 matrices [Ī [h]×; [h]×ᵀ m 1] acting on [ω; v], the form in which
 * {@link ArticulatedBodyAlgorithm} keeps its articulated-body inertias I^A (36 numbers per body, in one flat array):
 * the rigid inertia of a body, the product with a motion vector, and the congruence Xᵀ A X that carries a child's
 * articulated inertia to its parent.
 *
 * <p><b>Why not {@link org.symdyn.spatial.ArticulatedBodyInertia}.</b> That type stores the 21 numbers of the upper
 * triangle. The dense form carries the lower triangle as separately rounded numbers (the (i, j) and (j, i) entries of
 * Eᵀ A E are sums taken in different orders, equal in exact arithmetic only), and the recursions read both, so the
 * symmetric type cannot give the same results bit for bit. Per body and congruence, in multiplications and
 * additions:
 * <pre>
 *                                  dense 6x6 (here)              ArticulatedBodyInertia (21 numbers)
 *   I m                            36 mul + 30 add               36 mul + 30 add
 *   Xᵀ A X: rotation Eᵀ B E        162 mul + 108 add (3 blocks)  144 mul + 144 add (48 of them 0 + x), with
 *                                                                index-array loads and a transposed-or-not choice
 *                                                                per product
 *   Xᵀ A X: shift by r, added      54 mul + 99 add/sub           51 mul + 69 add/sub, 21 of them behind an
 *     to the parent's                                            accumulate-or-set choice
 *   I^A - U D⁻¹ Uᵀ (n dofs)        n² (42 mul + 36 sub)          no in-place rank-n update: a second instance
 *                                                                filled (21 writes, through a checking setter or
 *                                                                new API), then 21 sub
 *   storage per body               36 doubles                    21 doubles, an object and 30 of scratch
 * </pre>
 * The symmetric form does fewer multiplications in the congruence, but it changes the rounding of every articulated
 * inertia (so every generic forward dynamics result and the references recorded from them), and the ABA's
 * rank-n update has no allocation-free counterpart in that type.
 *
 * <p>Not thread-safe: an instance holds the scratch of {@link #addCongruence}.
 */
final class DenseInertias {
    private final double[] t9 = new double[9];
    private final double[] b11 = new double[9];
    private final double[] b12 = new double[9];
    private final double[] b22 = new double[9];
    private final double[] p9 = new double[9];
    private final double[] q9 = new double[9];

    /**
     * Writes the rigid inertia [Ī [h]×; [h]×ᵀ m 1] of one body (h = m c, Ī about the body origin) at {@code o} of
     * {@code out}.
     */
    static void setRigid(RigidBodyInertia inertia, double[] out, int o) {
        double m = inertia.mass();
        double h0 = m * inertia.com(0), h1 = m * inertia.com(1), h2 = m * inertia.com(2);
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                out[o + 6 * r + c] = inertia.inertiaAboutOrigin(r, c);
                out[o + 6 * (r + 3) + c + 3] = r == c ? m : 0;
            }
        }
        // [h]× in the upper right block, its transpose in the lower left.
        setCross(out, o + 3, h0, h1, h2);
        setCross(out, o + 18, -h0, -h1, -h2);
    }

    /** out = A x for a row-major 6x6 A. */
    static void times(double[] a, int ao, double[] x, int xo, double[] out, int oo) {
        for (int r = 0; r < 6; r++) {
            int b = ao + 6 * r;
            out[oo + r] = a[b] * x[xo] + a[b + 1] * x[xo + 1] + a[b + 2] * x[xo + 2] + a[b + 3] * x[xo + 3]
                    + a[b + 4] * x[xo + 4] + a[b + 5] * x[xo + 5];
        }
    }

    /**
     * target[to..] += Xᵀ A X for a symmetric row-major 6x6 A (in child coordinates) and the motion transform
     * X = [E 0; -E [r]× E] = diag(E, E) [1 0; -R 1], R = [r]×. With the rotated blocks B_jk = Eᵀ A_jk E,
     * Q = B22 R and P = B12 R:
     * <pre>
     *   Xᵀ A X = [ B11 - P - Pᵀ - R Q   B12 - Qᵀ ]
     *            [ B12ᵀ - Q             B22      ]
     * </pre>
     * (216 multiplications instead of the 432 of two dense 6x6 products).
     */
    void addCongruence(SpatialTransform x, double[] a, double[] target, int to) {
        double[] e = x.E;
        double r0 = x.r[0], r1 = x.r[1], r2 = x.r[2];
        rotateBlock(e, a, 0, b11);
        rotateBlock(e, a, 3, b12);
        rotateBlock(e, a, 21, b22);
        for (int i = 0; i < 3; i++) {
            int k = 3 * i;
            // Row i of M R: (M_i1 r2 - M_i2 r1, M_i2 r0 - M_i0 r2, M_i0 r1 - M_i1 r0).
            q9[k] = b22[k + 1] * r2 - b22[k + 2] * r1;
            q9[k + 1] = b22[k + 2] * r0 - b22[k] * r2;
            q9[k + 2] = b22[k] * r1 - b22[k + 1] * r0;
            p9[k] = b12[k + 1] * r2 - b12[k + 2] * r1;
            p9[k + 1] = b12[k + 2] * r0 - b12[k] * r2;
            p9[k + 2] = b12[k] * r1 - b12[k + 1] * r0;
        }
        for (int j = 0; j < 3; j++) {
            // Column j of R Q: (r1 Q_2j - r2 Q_1j, r2 Q_0j - r0 Q_2j, r0 Q_1j - r1 Q_0j).
            double rq0 = r1 * q9[6 + j] - r2 * q9[3 + j];
            double rq1 = r2 * q9[j] - r0 * q9[6 + j];
            double rq2 = r0 * q9[3 + j] - r1 * q9[j];
            target[to + j] += b11[j] - p9[j] - p9[3 * j] - rq0;
            target[to + 6 + j] += b11[3 + j] - p9[3 + j] - p9[3 * j + 1] - rq1;
            target[to + 12 + j] += b11[6 + j] - p9[6 + j] - p9[3 * j + 2] - rq2;
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double c21 = b12[3 * j + i] - q9[3 * i + j];
                target[to + 6 * (i + 3) + j] += c21;
                target[to + 6 * j + i + 3] += c21;
                target[to + 6 * (i + 3) + j + 3] += b22[3 * i + j];
            }
        }
    }

    /** out = Eᵀ A_blk E for the 3x3 block of the row-major 6x6 A starting at {@code off}. */
    private void rotateBlock(double[] e, double[] a, int off, double[] out) {
        for (int i = 0; i < 3; i++) {
            int ai = off + 6 * i;
            for (int j = 0; j < 3; j++) {
                t9[3 * i + j] = a[ai] * e[j] + a[ai + 1] * e[3 + j] + a[ai + 2] * e[6 + j];
            }
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out[3 * i + j] = e[i] * t9[j] + e[3 + i] * t9[3 + j] + e[6 + i] * t9[6 + j];
            }
        }
    }

    /** Writes [h]× into the 3x3 block at {@code off} of a row-major 6x6. */
    private static void setCross(double[] out, int off, double h0, double h1, double h2) {
        out[off] = 0;
        out[off + 1] = -h2;
        out[off + 2] = h1;
        out[off + 6] = h2;
        out[off + 7] = 0;
        out[off + 8] = -h0;
        out[off + 12] = -h1;
        out[off + 13] = h0;
        out[off + 14] = 0;
    }
}
