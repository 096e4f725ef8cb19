package org.symdyn.solvers;

/**
 * Cholesky (L Lᵀ) and LDLᵀ of small symmetric positive definite matrices on plain row-major arrays, in place, with
 * the pivots checked against a floor: the kernels of the Schur complement G H⁻¹ Gᵀ (constraint rows, typically
 * 1-30) in {@link SchurComplementMethod} and of the Kokkevis matrix.
 *
 * <p>Why not EJML's {@code LinearSolverChol_DDRM} / {@code LinearSolverCholLDL_DDRM} (through
 * {@link SpdFactorization}): for these sizes its general routines spend much of their time in bookkeeping (copies
 * into its own column vectors, reshapes, a separate pivot scan). Measured on a 12 x 12 Schur complement, factorise
 * and solve, one JVM, medians: Cholesky 457 ns here against 626 ns, LDLᵀ 497 against 662-684 ns.
 *
 * <p>Only the lower triangle of the input is read; the factor overwrites it (L below the diagonal; the diagonal
 * holds L_jj for Cholesky, d_j for LDLᵀ). No allocation.
 */
public final class SmallSpd {
    private SmallSpd() {
    }

    /**
     * Factorises the n x n matrix in {@code a} (row-major, stride n) in place.
     *
     * @param ldl   LDLᵀ instead of L Lᵀ
     * @param floor a pivot (d_j of LDLᵀ, L_jj² of Cholesky) must exceed it (NaN fails too)
     * @return -1 on success, else the index of the first pivot at or below the floor (the factor is then invalid)
     */
    public static int factor(double[] a, int n, boolean ldl, double floor) {
        if (ldl) {
            for (int j = 0; j < n; j++) {
                int rj = j * n;
                double d = a[rj + j];
                for (int p = 0; p < j; p++) {
                    double ljp = a[rj + p];
                    d -= ljp * ljp * a[p * n + p];
                }
                if (!(d > floor)) {
                    return j;
                }
                a[rj + j] = d;
                double inv = 1 / d;
                for (int i = j + 1; i < n; i++) {
                    int ri = i * n;
                    double s = a[ri + j];
                    for (int p = 0; p < j; p++) {
                        s -= a[ri + p] * a[rj + p] * a[p * n + p];
                    }
                    a[ri + j] = s * inv;
                }
            }
            return -1;
        }
        for (int j = 0; j < n; j++) {
            int rj = j * n;
            double d = a[rj + j];
            for (int p = 0; p < j; p++) {
                double ljp = a[rj + p];
                d -= ljp * ljp;
            }
            if (!(d > floor)) {
                return j;
            }
            double ljj = Math.sqrt(d);
            a[rj + j] = ljj;
            double inv = 1 / ljj;
            for (int i = j + 1; i < n; i++) {
                int ri = i * n;
                double s = a[ri + j];
                for (int p = 0; p < j; p++) {
                    s -= a[ri + p] * a[rj + p];
                }
                a[ri + j] = s * inv;
            }
        }
        return -1;
    }

    /**
     * The smallest pivot of a successful {@link #factor} (d_j of LDLᵀ, L_jj² of Cholesky) over {@code maxDiagonal},
     * the largest diagonal entry of the matrix factorised: how far it is from singular (0 when maxDiagonal is not
     * positive).
     */
    public static double pivotRatio(double[] f, int n, boolean ldl, double maxDiagonal) {
        double minPivot = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double d = f[i * n + i];
            minPivot = Math.min(minPivot, ldl ? d : d * d);
        }
        return maxDiagonal > 0 ? minPivot / maxDiagonal : 0;
    }

    /** x = A⁻¹ b for the factor of {@link #factor} (n entries; x may alias b). */
    public static void solve(double[] f, int n, boolean ldl, double[] b, double[] x) {
        // L u = b
        for (int i = 0; i < n; i++) {
            int ri = i * n;
            double s = b[i];
            for (int p = 0; p < i; p++) {
                s -= f[ri + p] * x[p];
            }
            x[i] = ldl ? s : s / f[ri + i];
        }
        if (ldl) {
            for (int i = 0; i < n; i++) {
                x[i] /= f[i * n + i];
            }
        }
        // Lᵀ x = u (unit diagonal for LDLᵀ)
        for (int i = n - 1; i >= 0; i--) {
            double s = x[i];
            for (int p = i + 1; p < n; p++) {
                s -= f[p * n + i] * x[p];
            }
            x[i] = ldl ? s : s / f[i * n + i];
        }
    }

    /**
     * X = A⁻¹ X in place for the Cholesky factor of {@link #factor} (ldl false) and many right-hand sides: X is n x
     * cols, row-major. Row operations over all columns at once, so that the inner loops run along contiguous rows
     * instead of one dependent chain of {@link #solve} per column (which took an eighth of the constrained
     * derivatives' time on solo12's 12 rows in a profile).
     */
    public static void solveRows(double[] f, int n, double[] x, int cols) {
        forwardRows(f, n, x, cols, cols);
        for (int i = n - 1; i >= 0; i--) {
            int ri = i * cols;
            for (int p = i + 1; p < n; p++) {
                subtractRow(x, ri, f[p * n + i], p * cols, cols);
            }
            scaleRow(x, ri, 1 / f[i * n + i], cols);
        }
    }

    /**
     * X = L⁻¹ X in place for the Cholesky factor L of {@link #factor} (ldl false): X has n rows of the given stride,
     * of which the first {@code width} columns are solved (row operations, as in {@link #solveRows}).
     */
    public static void forwardRows(double[] f, int n, double[] x, int stride, int width) {
        for (int i = 0; i < n; i++) {
            int ri = i * stride;
            for (int p = 0; p < i; p++) {
                subtractRow(x, ri, f[i * n + p], p * stride, width);
            }
            scaleRow(x, ri, 1 / f[i * n + i], width);
        }
    }

    /** v = L⁻ᵀ v in place (the first n entries) for the Cholesky factor L of {@link #factor} (ldl false). */
    public static void backwardCholesky(double[] f, int n, double[] v) {
        for (int i = n - 1; i >= 0; i--) {
            double s = v[i];
            for (int p = i + 1; p < n; p++) {
                s -= f[p * n + i] * v[p];
            }
            v[i] = s / f[i * n + i];
        }
    }

    /** x[ri + j] -= l x[rp + j] for the cols entries of a row. */
    private static void subtractRow(double[] x, int ri, double l, int rp, int cols) {
        for (int j = 0; j < cols; j++) {
            x[ri + j] -= l * x[rp + j];
        }
    }

    /** x[ri + j] *= inv for the cols entries of a row. */
    private static void scaleRow(double[] x, int ri, double inv, int cols) {
        for (int j = 0; j < cols; j++) {
            x[ri + j] *= inv;
        }
    }
}
