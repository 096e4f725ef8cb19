package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;

/**
 * Small dense operations on the saddle-point system H x + Gᵀ y = a, G x = b shared by its solvers: the residual that
 * one step of iterative refinement corrects (the fast paths' {@link SchurComplementMethod} and
 * {@link GeneratedSchurComplement}), H x, and the finiteness check of an input or result (every solver's). Dense loops: a refinement is the rare
 * case (an ill-conditioned Schur complement, or an impulse).
 */
final class SaddlePointOps {
    private SaddlePointOps() {
    }

    /** out = H x (H nv x nv; out must not alias x). */
    static void multiply(DMatrixRMaj h, double[] x, double[] out) {
        int nv = h.numRows;
        double[] hd = h.data;
        for (int i = 0; i < nv; i++) {
            double s = 0;
            for (int j = 0; j < nv; j++) {
                s += hd[i * nv + j] * x[j];
            }
            out[i] = s;
        }
    }

    /**
     * out = a - M x for any M (H, nv x nv, or G, m x nv; out must not alias x), each row summed from a left to
     * right.
     */
    static void subtractProduct(DMatrixRMaj h, double[] a, double[] x, double[] out) {
        int rows = h.numRows;
        int cols = h.numCols;
        double[] hd = h.data;
        for (int i = 0; i < rows; i++) {
            double s = a[i];
            for (int j = 0; j < cols; j++) {
                s -= hd[i * cols + j] * x[j];
            }
            out[i] = s;
        }
    }

    /** True if the first n entries of v are finite. */
    static boolean finite(double[] v, int n) {
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(v[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Refuses a non-finite input or result: throws unless the first n entries of x are finite, with the message
     * {@code prefix + what + " has a non-finite entry (NaN or infinity)" + advice}.
     *
     * @param prefix the solver's name and a colon and space, or empty
     * @param what   the quantity, as the message names it ("v̇", "the Kokkevis matrix K")
     * @param advice what to check, appended as is, or empty
     * @throws ArithmeticException if an entry is NaN or infinite
     */
    static void checkFinite(double[] x, int n, String prefix, String what, String advice) {
        if (!finite(x, n)) {
            throw new ArithmeticException(prefix + what + " has a non-finite entry (NaN or infinity)" + advice);
        }
    }

    /**
     * r₁ = a - H x - Gᵀ y and r₂ = b - G x over the first r rows of G; when {@code aIsSolution}, {@code a} holds
     * x₀ = H⁻¹ a and r₁ = H (x₀ - x) - Gᵀ y (no product H x₀ formed separately).
     *
     * @param t  nv scratch entries
     * @param r1 receives nv entries
     * @param r2 receives r entries
     */
    static void residual(DMatrixRMaj h, DMatrixRMaj g, double[] a, boolean aIsSolution, double[] b, double[] x,
            double[] y, int r, double[] t, double[] r1, double[] r2) {
        int nv = h.numRows;
        double[] gd = g.data;
        if (aIsSolution) {
            for (int j = 0; j < nv; j++) {
                t[j] = a[j] - x[j];
            }
            multiply(h, t, r1);
        } else {
            subtractProduct(h, a, x, r1);
        }
        for (int k = 0; k < r; k++) {
            double yk = y[k];
            double s = b[k];
            int o = k * nv;
            for (int j = 0; j < nv; j++) {
                double gkj = gd[o + j];
                r1[j] -= gkj * yk;
                s -= gkj * x[j];
            }
            r2[k] = s;
        }
    }
}
