package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Lemke's method on LCPs with known answers: P-matrices (unique solutions, checked against the closed form and
 * against enumeration of all 2ⁿ complementary bases), positive semi-definite and degenerate ones (ties, redundant
 * rows: the lexicographic rule), and problems without a solution (secondary ray).
 */
class LemkeTest {
    private static void assertLcp(double[] M, int n, double[] q, double[] z, double[] w, double tol) {
        for (int i = 0; i < n; i++) {
            double s = q[i];
            for (int j = 0; j < n; j++) {
                s += M[i * n + j] * z[j];
            }
            assertEquals(s, w[i], tol, "w = M z + q, row " + i);
            assertTrue(z[i] >= 0, "z >= 0");
            assertTrue(w[i] >= -tol, "w >= 0: " + w[i]);
            assertTrue(Math.abs(z[i] * w[i]) <= tol, "z w = 0: " + z[i] * w[i]);
        }
    }

    @Test
    void pMatrixTwoActive() {
        Lemke lemke = new Lemke(2);
        double[] M = {2, 1, 1, 2};
        double[] q = {-5, -6};
        double[] z = new double[2];
        double[] w = new double[2];
        assertEquals(Lemke.Status.SOLVED, lemke.solve(M, 2, q, z, w));
        assertEquals(4.0 / 3, z[0], 1e-15);
        assertEquals(7.0 / 3, z[1], 1e-15);
        assertEquals(0, w[0], 1e-15);
        assertEquals(0, w[1], 1e-15);
    }

    @Test
    void pMatrixOneActive() {
        Lemke lemke = new Lemke(2);
        double[] M = {2, 1, 1, 2};
        double[] q = {-1, 2};
        double[] z = new double[2];
        double[] w = new double[2];
        assertEquals(Lemke.Status.SOLVED, lemke.solve(M, 2, q, z, w));
        assertEquals(0.5, z[0], 1e-15);
        assertEquals(0, z[1], 0);
        assertEquals(2.5, w[1], 1e-15);
    }

    @Test
    void nonNegativeQIsZeroPivots() {
        Lemke lemke = new Lemke(3);
        double[] z = new double[3];
        double[] w = new double[3];
        assertEquals(Lemke.Status.SOLVED, lemke.solve(new double[9], 3, new double[] {0, 1, 2}, z, w));
        assertEquals(0, lemke.iterations());
    }

    /** Symmetric PSD of rank 1: z1 + z2 = 2, any split. */
    @Test
    void positiveSemiDefiniteSingular() {
        Lemke lemke = new Lemke(2);
        double[] M = {1, 1, 1, 1};
        double[] q = {-2, -2};
        double[] z = new double[2];
        double[] w = new double[2];
        assertEquals(Lemke.Status.SOLVED, lemke.solve(M, 2, q, z, w));
        assertEquals(2, z[0] + z[1], 1e-14);
        assertLcp(M, 2, q, z, w, 1e-14);
    }

    /** Degenerate: every ratio ties at every step (three equal rows, equal q). */
    @Test
    void degenerateTies() {
        Lemke lemke = new Lemke(3);
        double[] M = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        double[] q = {-1, -1, -1};
        double[] z = new double[3];
        double[] w = new double[3];
        assertEquals(Lemke.Status.SOLVED, lemke.solve(M, 3, q, z, w));
        assertLcp(M, 3, q, z, w, 1e-14);
        assertEquals(1, z[0] + z[1] + z[2], 1e-14);
    }

    /** The friction LCP of one contact at rest on flat ground (a 2-D pyramid, degenerate q = 0 rows). */
    @Test
    void degenerateFrictionStructure() {
        // unknowns f_N, f+, f-, λ; particle of unit mass, gravity -g on the normal row, no tangential drive
        double g = 9.81;
        double mu = 0.5;
        double[] M = {
            1, 0, 0, 0,
            0, 1, -1, 1,
            0, -1, 1, 1,
            mu, -1, -1, 0};
        double[] q = {-g, 0, 0, 0};
        double[] z = new double[4];
        double[] w = new double[4];
        Lemke lemke = new Lemke(4);
        assertEquals(Lemke.Status.SOLVED, lemke.solve(M, 4, q, z, w));
        assertLcp(M, 4, q, z, w, 1e-13);
        assertEquals(g, z[0], 1e-14);
        assertEquals(0, z[1] - z[2], 1e-14);
    }

    /** M with a negative diagonal and q < 0: w = −z − 1 < 0 for every z ≥ 0. */
    @Test
    void noSolutionOneByOne() {
        Lemke lemke = new Lemke(1);
        double[] z = new double[1];
        double[] w = new double[1];
        assertEquals(Lemke.Status.RAY, lemke.solve(new double[] {-1}, 1, new double[] {-1}, z, w));
        assertEquals(0, z[0]);
    }

    /** Skew-symmetric (PSD, copositive-plus) and infeasible: w1 = z2 − 1, w2 = −z1 − 1 < 0. */
    @Test
    void noSolutionCopositivePlus() {
        Lemke lemke = new Lemke(2);
        double[] z = new double[2];
        double[] w = new double[2];
        assertEquals(Lemke.Status.RAY, lemke.solve(new double[] {0, 1, -1, 0}, 2, new double[] {-1, -1}, z, w));
    }

    /** Random P-matrices (M = A Aᵀ + skew + I): the unique solution, compared with brute-force enumeration. */
    @Test
    void randomPMatricesAgreeWithEnumeration() {
        Random random = new Random(11);
        Lemke lemke = new Lemke(6);
        int maxPivots = 0;
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + random.nextInt(6);
            double[] A = new double[n * n];
            double[] S = new double[n * n];
            for (int i = 0; i < n * n; i++) {
                A[i] = random.nextGaussian();
                S[i] = random.nextGaussian();
            }
            double[] M = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < n; k++) {
                        s += A[i * n + k] * A[j * n + k];
                    }
                    M[i * n + j] = s + S[i * n + j] - S[j * n + i] + (i == j ? 0.1 : 0);
                }
            }
            double[] q = new double[n];
            for (int i = 0; i < n; i++) {
                q[i] = random.nextGaussian() * 3;
            }
            double[] z = new double[n];
            double[] w = new double[n];
            assertEquals(Lemke.Status.SOLVED, lemke.solve(M, n, q, z, w), "trial " + trial);
            maxPivots = Math.max(maxPivots, lemke.iterations());
            assertLcp(M, n, q, z, w, 1e-10);
            double[] expected = enumerate(M, n, q);
            for (int i = 0; i < n; i++) {
                assertEquals(expected[i], z[i], 1e-9 * (1 + Math.abs(expected[i])), "trial " + trial);
            }
        }
        assertTrue(maxPivots <= 20, "pivots " + maxPivots);
    }

    /** Random singular PSD matrices with repeated rows (redundant constraints), feasible q: always solved. */
    @Test
    void randomRedundantPsd() {
        Random random = new Random(7);
        Lemke lemke = new Lemke(8);
        for (int trial = 0; trial < 300; trial++) {
            int n = 2 + random.nextInt(7);
            int rank = 1 + random.nextInt(n - 1);
            double[] B = new double[n * rank];
            for (int i = 0; i < n; i++) {
                int src = i < rank ? i : random.nextInt(rank); // repeated rows: identical contacts
                for (int k = 0; k < rank; k++) {
                    B[i * rank + k] = i < rank ? random.nextGaussian() : B[src * rank + k];
                }
            }
            double[] M = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < rank; k++) {
                        s += B[i * rank + k] * B[j * rank + k];
                    }
                    M[i * n + j] = s;
                }
            }
            // q = M y − x with y ≥ 0 random: feasible (z = y gives M y + q = x ≥ 0 ... shifted to be feasible)
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                y[i] = random.nextInt(3) == 0 ? 0 : random.nextDouble();
            }
            double[] q = new double[n];
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int j = 0; j < n; j++) {
                    s += M[i * n + j] * y[j];
                }
                q[i] = -s + (y[i] == 0 ? random.nextDouble() : 0); // y solves LCP(q, M)
            }
            double[] z = new double[n];
            double[] w = new double[n];
            assertEquals(Lemke.Status.SOLVED, lemke.solve(M, n, q, z, w), "trial " + trial);
            assertLcp(M, n, q, z, w, 1e-10);
        }
    }

    @Test
    void allocationFree() {
        Lemke lemke = new Lemke(4);
        double[] M = {2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 2};
        double[] q = {-1, -2, 1, -3};
        double[] z = new double[4];
        double[] w = new double[4];
        long bytes = AllocationProbe.allocatedBytes(2000,
                () -> lemke.solve(M, 4, q, z, w));
        assertTrue(bytes < 2000, "allocated " + bytes + " bytes over 2000 solves");
    }

    /** The unique solution of a P-matrix LCP by trying every complementary basis. */
    private static double[] enumerate(double[] M, int n, double[] q) {
        for (int mask = 0; mask < (1 << n); mask++) {
            // z_i basic for i in mask: M_aa z_a = −q_a
            int k = Integer.bitCount(mask);
            int[] idx = new int[k];
            int c = 0;
            for (int i = 0; i < n; i++) {
                if ((mask & (1 << i)) != 0) {
                    idx[c++] = i;
                }
            }
            double[][] a = new double[k][k + 1];
            for (int r = 0; r < k; r++) {
                for (int s = 0; s < k; s++) {
                    a[r][s] = M[idx[r] * n + idx[s]];
                }
                a[r][k] = -q[idx[r]];
            }
            double[] za = gauss(a, k);
            if (za == null) {
                continue;
            }
            double[] z = new double[n];
            boolean ok = true;
            for (int r = 0; r < k; r++) {
                z[idx[r]] = za[r];
                ok &= za[r] >= -1e-12;
            }
            for (int i = 0; i < n && ok; i++) {
                double s = q[i];
                for (int j = 0; j < n; j++) {
                    s += M[i * n + j] * z[j];
                }
                ok &= s >= -1e-10;
            }
            if (ok) {
                return z;
            }
        }
        throw new AssertionError("no complementary basis solves the LCP");
    }

    private static double[] gauss(double[][] a, int k) {
        for (int c = 0; c < k; c++) {
            int p = c;
            for (int r = c + 1; r < k; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[p][c])) {
                    p = r;
                }
            }
            if (Math.abs(a[p][c]) < 1e-13) {
                return null;
            }
            double[] t = a[c];
            a[c] = a[p];
            a[p] = t;
            for (int r = c + 1; r < k; r++) {
                double f = a[r][c] / a[c][c];
                for (int s = c; s <= k; s++) {
                    a[r][s] -= f * a[c][s];
                }
            }
        }
        double[] x = new double[k];
        for (int r = k - 1; r >= 0; r--) {
            double s = a[r][k];
            for (int s2 = r + 1; s2 < k; s2++) {
                s -= a[r][s2] * x[s2];
            }
            x[r] = s / a[r][r];
        }
        return x;
    }
}
