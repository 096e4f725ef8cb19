package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.SolverSettings.SpdSolver;
import org.symdyn.dynamics.RangeSpaceFactorization;

/**
 * The range-space method: H = Lᵀ L by {@link RangeSpaceFactorization}; x₀ = H⁻¹ a; the Schur complement
 * K = G H⁻¹ Gᵀ = (L⁻ᵀ Gᵀ)ᵀ (L⁻ᵀ Gᵀ); K y = G x₀ - b; x = x₀ - H⁻¹ Gᵀ y. (From H x + Gᵀ y = a and G x = b.) Then
 * refined once with the same factors: the residual [a - H x - Gᵀ y; b - G x] from H and G themselves, solved the
 * same way and added. This is the solvers' rank-revealing path, taken where the rows are nearly dependent, where an
 * unrefined solve was as far from the exact answer as the direct method's unrefined LU (see {@link DirectMethod}).
 */
final class RangeSpaceMethod {
    private final int nv;
    private final RangeSpaceFactorization ltl;
    private final SpdFactorization spd;
    private final double[] yt;
    private final DMatrixRMaj schur;
    private final double[] x0;
    private final double[] rhs;
    private final double[] w;
    private final double[] t;
    private final double[] r1;
    private final double[] r2;
    private final double[] dx;
    private final double[] dy;

    RangeSpaceMethod(RangeSpaceFactorization ltl, int maxRows) {
        nv = ltl.size();
        this.ltl = ltl;
        spd = new SpdFactorization(maxRows);
        yt = new double[Math.max(1, maxRows) * nv];
        schur = new DMatrixRMaj(maxRows, maxRows);
        x0 = new double[nv];
        rhs = new double[Math.max(1, maxRows)];
        w = new double[nv];
        t = new double[nv];
        r1 = new double[nv];
        r2 = new double[Math.max(1, maxRows)];
        dx = new double[nv];
        dy = new double[Math.max(1, maxRows)];
    }

    /** The LᵀL factorisation (for unconstrained solves with the same H). */
    RangeSpaceFactorization ltl() {
        return ltl;
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b for G with r = g.numRows rows.
     *
     * @param factorH false if {@link #ltl} already holds the factor of this H
     * @return false if H or the Schur complement is not positive definite (H positive definite only on G's null
     *         space, or dependent rows): the caller then solves in the null space
     */
    boolean solve(DMatrixRMaj h, boolean factorH, DMatrixRMaj g, double[] a, double[] b, double[] x, double[] y,
            SpdSolver kind) {
        int r = g.numRows;
        if (factorH && ltl.tryFactor(h) >= 0) {
            return false;
        }
        System.arraycopy(a, 0, x0, 0, nv);
        ltl.solve(x0);
        if (r == 0) {
            System.arraycopy(x0, 0, x, 0, nv);
            return true;
        }
        // Rows of (L⁻ᵀ Gᵀ)ᵀ.
        for (int k = 0; k < r; k++) {
            System.arraycopy(g.data, k * nv, w, 0, nv);
            ltl.solveLt(w);
            System.arraycopy(w, 0, yt, k * nv, nv);
        }
        schur.reshape(r, r);
        for (int i = 0; i < r; i++) {
            for (int j = 0; j <= i; j++) {
                double s = 0;
                for (int c = 0; c < nv; c++) {
                    s += yt[i * nv + c] * yt[j * nv + c];
                }
                schur.data[i * r + j] = s;
                schur.data[j * r + i] = s;
            }
        }
        if (!spd.factor(schur, kind)) {
            return false;
        }
        solveFactored(g, b, r, x, y);
        SaddlePointOps.residual(h, g, a, false, b, x, y, r, t, r1, r2);
        System.arraycopy(r1, 0, x0, 0, nv);
        ltl.solve(x0);
        solveFactored(g, r2, r, dx, dy);
        for (int i = 0; i < nv; i++) {
            x[i] += dx[i];
        }
        for (int k = 0; k < r; k++) {
            y[k] += dy[k];
        }
        return true;
    }

    /** With x₀ = H⁻¹ a in {@link #x0} and K factorised: K y = G x₀ - b, x = x₀ - H⁻¹ Gᵀ y. */
    private void solveFactored(DMatrixRMaj g, double[] b, int r, double[] x, double[] y) {
        for (int k = 0; k < r; k++) {
            double s = -b[k];
            for (int i = 0; i < nv; i++) {
                s += g.data[k * nv + i] * x0[i];
            }
            rhs[k] = s;
        }
        spd.solve(rhs, y, r);
        for (int i = 0; i < nv; i++) {
            double s = 0;
            for (int k = 0; k < r; k++) {
                s += g.data[k * nv + i] * y[k];
            }
            w[i] = s;
        }
        ltl.solve(w);
        for (int i = 0; i < nv; i++) {
            x[i] = x0[i] - w[i];
        }
    }
}
