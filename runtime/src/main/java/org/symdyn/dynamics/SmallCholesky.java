package org.symdyn.dynamics;

/**
 * In-place Cholesky factorisation and inversion of small symmetric positive definite matrices (the joint-space
 * blocks D = Sᵀ I^A S of multi-dof joints, at most 6x6), without allocation.
 */
final class SmallCholesky {
    private SmallCholesky() {
    }

    /**
     * Replaces the row-major n x n symmetric positive definite {@code a} by its inverse.
     *
     * @param work at least n * n entries of scratch
     * @throws ArithmeticException if {@code a} is not positive definite (a non-physical inertia reached the
     *                             recursion)
     */
    static void invertInPlace(double[] a, int n, double[] work) {
        // L Lᵀ = A, L in work (lower triangle).
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double sum = a[i * n + j];
                for (int k = 0; k < j; k++) {
                    sum -= work[i * n + k] * work[j * n + k];
                }
                if (i == j) {
                    if (!(sum > 0)) {
                        throw new ArithmeticException("joint-space block is not positive definite (pivot " + sum
                                + ")");
                    }
                    work[i * n + i] = Math.sqrt(sum);
                } else {
                    work[i * n + j] = sum / work[j * n + j];
                }
            }
        }
        // A⁻¹ column by column: solve L y = e_c, then Lᵀ x = y.
        for (int c = 0; c < n; c++) {
            for (int i = 0; i < n; i++) {
                double sum = i == c ? 1 : 0;
                for (int k = 0; k < i; k++) {
                    sum -= work[i * n + k] * a[k * n + c];
                }
                a[i * n + c] = sum / work[i * n + i];
            }
            for (int i = n - 1; i >= 0; i--) {
                double sum = a[i * n + c];
                for (int k = i + 1; k < n; k++) {
                    sum -= work[k * n + i] * a[k * n + c];
                }
                a[i * n + c] = sum / work[i * n + i];
            }
        }
    }
}
