package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.SolverSettings.SpdSolver;
import org.symdyn.dynamics.RangeSpaceFactorization;

/**
 * The range-space method: H = Lᵀ L by {@link RangeSpaceFactorization}; x₀ = H⁻¹ a; the Schur complement
 * K = G H⁻¹ Gᵀ = (L⁻ᵀ Gᵀ)ᵀ (L⁻ᵀ Gᵀ); K y = G x₀ - b; x = x₀ - H⁻¹ Gᵀ y. (From H x + Gᵀ y = a and G x = b.)
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

    RangeSpaceMethod(RangeSpaceFactorization ltl, int maxRows) {
        nv = ltl.size();
        this.ltl = ltl;
        spd = new SpdFactorization(maxRows);
        yt = new double[Math.max(1, maxRows) * nv];
        schur = new DMatrixRMaj(maxRows, maxRows);
        x0 = new double[nv];
        rhs = new double[Math.max(1, maxRows)];
        w = new double[nv];
    }

    /** The LᵀL factorisation (for unconstrained solves with the same H). */
    RangeSpaceFactorization ltl() {
        return ltl;
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b for G with r = g.numRows rows.
     *
     * @param factorH false if {@link #ltl} already holds the factor of this H
     * @return false if the Schur complement is not positive definite (dependent rows)
     * @throws ArithmeticException if H is not positive definite
     */
    boolean solve(DMatrixRMaj h, boolean factorH, DMatrixRMaj g, double[] a, double[] b, double[] x, double[] y,
            SpdSolver kind) {
        int r = g.numRows;
        if (factorH) {
            ltl.factor(h);
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
            double s = -b[k];
            for (int i = 0; i < nv; i++) {
                s += g.data[k * nv + i] * x0[i];
            }
            rhs[k] = s;
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
        return true;
    }
}
