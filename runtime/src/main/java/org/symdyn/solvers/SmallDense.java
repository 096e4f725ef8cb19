package org.symdyn.solvers;

/**
 * Products of small dense matrices on plain row-major arrays: C = β C + α op(A) B, the kernel of the constrained
 * dynamics derivatives' dense algebra (nv and m of a robot: 10-60).
 *
 * <p>Why not a row-update loop (C[i][:] += A[i][k] B[k][:]) or EJML's products: both write C's row once per k, and
 * the JIT keeps neither the row nor the sums in registers across k, so each multiply-add waits on a store and a load.
 * Here a 2 x 4 block of C is summed at once in registers over all of k: eight independent chains, each loaded
 * value of A used four times and of B twice. Measured, one 18 x 18 x 18 product (5832 multiply-adds), same JVM:
 * row updates 5390 ns, one row by four columns 2670 ns, this 2 x 4 block 1730 ns. They are O(nv³), the bulk of a
 * KKT-based derivative of constrained dynamics.
 */
final class SmallDense {
    private SmallDense() {
    }

    /**
     * C = β C + α op(A) B with C n x cols, B kd x cols, op(A) n x kd: A itself (row-major n x kd) or, when
     * {@code transposeA}, Aᵀ of a row-major kd x n array. β is 0 or 1 (0: C is overwritten, its old values unread).
     */
    static void multiply(double alpha, double[] a, boolean transposeA, double[] b, double beta, double[] c, int n,
            int kd, int cols) {
        // op(A)(i, k) is at ri + k·sk: row-major A (ri = i·kd, sk = 1) or Aᵀ of a kd x n array (ri = i, sk = n).
        int sk = transposeA ? n : 1;
        int rowStep = transposeA ? 1 : kd;
        int i = 0;
        for (; i + 1 < n; i += 2) {
            int r0 = i * rowStep;
            int r1 = r0 + rowStep;
            int c0 = i * cols;
            int c1 = c0 + cols;
            int j = 0;
            for (; j + 3 < cols; j += 4) {
                double s00 = 0;
                double s01 = 0;
                double s02 = 0;
                double s03 = 0;
                double s10 = 0;
                double s11 = 0;
                double s12 = 0;
                double s13 = 0;
                for (int k = 0, ak = 0, bk = j; k < kd; k++, ak += sk, bk += cols) {
                    double x0 = a[r0 + ak];
                    double x1 = a[r1 + ak];
                    double b0 = b[bk];
                    double b1 = b[bk + 1];
                    double b2 = b[bk + 2];
                    double b3 = b[bk + 3];
                    s00 += x0 * b0;
                    s01 += x0 * b1;
                    s02 += x0 * b2;
                    s03 += x0 * b3;
                    s10 += x1 * b0;
                    s11 += x1 * b1;
                    s12 += x1 * b2;
                    s13 += x1 * b3;
                }
                store(c, c0 + j, alpha * s00, beta);
                store(c, c0 + j + 1, alpha * s01, beta);
                store(c, c0 + j + 2, alpha * s02, beta);
                store(c, c0 + j + 3, alpha * s03, beta);
                store(c, c1 + j, alpha * s10, beta);
                store(c, c1 + j + 1, alpha * s11, beta);
                store(c, c1 + j + 2, alpha * s12, beta);
                store(c, c1 + j + 3, alpha * s13, beta);
            }
            for (; j < cols; j++) {
                double s0 = 0;
                double s1 = 0;
                for (int k = 0, ak = 0; k < kd; k++, ak += sk) {
                    double bb = b[k * cols + j];
                    s0 += a[r0 + ak] * bb;
                    s1 += a[r1 + ak] * bb;
                }
                store(c, c0 + j, alpha * s0, beta);
                store(c, c1 + j, alpha * s1, beta);
            }
        }
        if (i < n) {
            int r0 = i * rowStep;
            int c0 = i * cols;
            for (int j = 0; j < cols; j++) {
                double s0 = 0;
                for (int k = 0, ak = 0; k < kd; k++, ak += sk) {
                    s0 += a[r0 + ak] * b[k * cols + j];
                }
                store(c, c0 + j, alpha * s0, beta);
            }
        }
    }

    private static void store(double[] c, int index, double value, double beta) {
        c[index] = beta == 0 ? value : c[index] + value;
    }
}
