package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;

/**
 * The two halves of solving with a QR factorisation A P = Q R restricted to its leading r columns: the product
 * Q₁ᵀ c with the first columns of Q, and back substitution with the leading upper triangle R₁₁. Dense loops in a
 * fixed order, allocation-free.
 */
final class QrSubstitution {
    private QrSubstitution() {
    }

    /**
     * out[k] = Σ_l Q[l, k] c[l] for k &lt; cols, l &lt; rows, with Q row-major of row length {@code stride}: the first
     * cols entries of Qᵀ c, each summed over l in order.
     */
    static void transposeProduct(double[] q, int stride, int rows, int cols, double[] c, double[] out) {
        for (int k = 0; k < cols; k++) {
            double s = 0;
            for (int l = 0; l < rows; l++) {
                s += q[l * stride + k] * c[l];
            }
            out[k] = s;
        }
    }

    /**
     * Solves R₁₁ y = b for the leading n x n upper triangle of {@code r} by back substitution, from the last row up;
     * y may be b itself.
     */
    static void backSubstitute(DMatrixRMaj r, double[] b, double[] y, int n) {
        for (int i = n - 1; i >= 0; i--) {
            double s = b[i];
            for (int j = i + 1; j < n; j++) {
                s -= r.get(i, j) * y[j];
            }
            y[i] = s / r.get(i, i);
        }
    }
}
