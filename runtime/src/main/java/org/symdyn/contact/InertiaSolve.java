package org.symdyn.contact;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.solvers.SmallSpd;

/**
 * The solve-inertia operator of the contact problems (the seed's {@code solve_inertia}): one Cholesky factor
 * H = L Lᵀ of the joint-space inertia per state, then x = H⁻¹ b and the Delassus matrix W = J H⁻¹ Jᵀ of m rows
 * J (row-major, nv columns) as W = Yᵀ Y with Y = L⁻¹ Jᵀ, which keeps W symmetric to the last bit and positive
 * semi-definite whatever the rows (redundant contacts give a singular W, never an indefinite one).
 *
 * <p>Plain arrays and {@link SmallSpd}'s kernel: for nv ≤ ~50 and a few tens of rows the general routines spend
 * their time in bookkeeping (see {@link SmallSpd}). Allocation-free after construction; not thread-safe.
 */
public final class InertiaSolve {
    private final int nv;
    private final double[] factor;
    private final double[] y; // Y = L⁻¹ Jᵀ, column per row of J: m x nv, row-major (row i = L⁻¹ J_iᵀ)
    private final double[] column;

    /**
     * @param nv          velocity count
     * @param maximumRows the most rows of J {@link #delassus} will be given
     */
    public InertiaSolve(int nv, int maximumRows) {
        this.nv = nv;
        factor = new double[nv * nv];
        y = new double[Math.max(1, maximumRows) * nv];
        column = new double[nv];
    }

    /**
     * Factorises H (nv x nv, symmetric; the lower triangle is read).
     *
     * @throws IllegalStateException if H is not positive definite (a pivot at or below 1e-300 relative scale)
     */
    public void factor(DMatrixRMaj H) {
        System.arraycopy(H.data, 0, factor, 0, nv * nv);
        double max = 0;
        for (int i = 0; i < nv; i++) {
            max = Math.max(max, Math.abs(factor[i * nv + i]));
        }
        int bad = SmallSpd.factor(factor, nv, false, max * 1e-14);
        if (bad >= 0) {
            throw new IllegalStateException("the joint-space inertia H is not positive definite (pivot " + bad
                    + "); the model's inertias or its configuration are not physical");
        }
    }

    /** x = H⁻¹ b for the last factor (x may alias b). */
    public void solve(double[] b, double[] x) {
        SmallSpd.solve(factor, nv, false, b, x);
    }

    /**
     * W = J H⁻¹ Jᵀ (m x m, row-major into {@code W} with stride m) for the first m rows of {@code J} (row-major,
     * nv columns), and keeps Y = L⁻¹ Jᵀ for {@link #applyTranspose}.
     */
    public void delassus(double[] J, int m, double[] W) {
        for (int r = 0; r < m; r++) {
            int o = r * nv;
            // forward substitution L y = J_rᵀ
            for (int i = 0; i < nv; i++) {
                int ri = i * nv;
                double s = J[o + i];
                for (int p = 0; p < i; p++) {
                    s -= factor[ri + p] * y[o + p];
                }
                y[o + i] = s / factor[ri + i];
            }
        }
        for (int r = 0; r < m; r++) {
            int o = r * nv;
            for (int c = 0; c <= r; c++) {
                int oc = c * nv;
                double s = 0;
                for (int j = 0; j < nv; j++) {
                    s += y[o + j] * y[oc + j];
                }
                W[r * m + c] = s;
                W[c * m + r] = s;
            }
        }
    }

    /**
     * dv = H⁻¹ Jᵀ λ for the rows of the last {@link #delassus} (m entries of λ): the velocity change an impulse λ
     * makes, computed as L⁻ᵀ (Σ_r λ_r L⁻¹ J_rᵀ) from the kept rows of Y: no second pass over J.
     */
    public void applyTranspose(double[] lambda, int m, double[] dv) {
        for (int j = 0; j < nv; j++) {
            column[j] = 0;
        }
        for (int r = 0; r < m; r++) {
            double l = lambda[r];
            if (l != 0) {
                int o = r * nv;
                for (int j = 0; j < nv; j++) {
                    column[j] += y[o + j] * l;
                }
            }
        }
        // back substitution Lᵀ dv = column
        for (int i = nv - 1; i >= 0; i--) {
            double s = column[i];
            for (int p = i + 1; p < nv; p++) {
                s -= factor[p * nv + i] * dv[p];
            }
            dv[i] = s / factor[i * nv + i];
        }
    }
}
