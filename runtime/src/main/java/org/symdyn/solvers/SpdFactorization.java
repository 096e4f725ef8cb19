package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.chol.CholeskyDecompositionInner_DDRM;
import org.ejml.dense.row.linsol.chol.LinearSolverCholLDL_DDRM;
import org.ejml.dense.row.linsol.chol.LinearSolverChol_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.symdyn.constraints.SolverSettings.SpdSolver;

/**
 * Cholesky or LDLᵀ of a symmetric positive definite block of varying size up to a maximum, on preallocated storage
 * (EJML's in-place decompositions: the factorised matrix is overwritten).
 */
final class SpdFactorization {
    private final CholeskyDecompositionInner_DDRM cholesky;
    private final LinearSolverDense<DMatrixRMaj> chol;
    private final LinearSolverDense<DMatrixRMaj> ldl;
    private final DMatrixRMaj b;
    private final DMatrixRMaj x;
    private LinearSolverDense<DMatrixRMaj> current;

    SpdFactorization(int maxSize) {
        int n = Math.max(1, maxSize);
        cholesky = new CholeskyDecompositionInner_DDRM(true);
        chol = new LinearSolverChol_DDRM(cholesky);
        ldl = new LinearSolverCholLDL_DDRM();
        b = new DMatrixRMaj(n, 1);
        x = new DMatrixRMaj(n, 1);
        // Size EJML's internal arrays now, not in the first solve.
        DMatrixRMaj eye = new DMatrixRMaj(n, n);
        for (LinearSolverDense<DMatrixRMaj> s : java.util.List.of(chol, ldl)) {
            eye.zero();
            for (int i = 0; i < n; i++) {
                eye.set(i, i, 1);
            }
            s.setA(eye);
            s.solve(b, x);
        }
    }

    /**
     * Factorises {@code a} (overwritten); false if it is not numerically positive definite: a pivot (d_i of LDLᵀ,
     * L_ii² of Cholesky) not above {@link #PIVOT_RATIO} times the largest diagonal entry of {@code a}. Exact rank
     * loss leaves pivots at rounding level (~1e-16), which EJML would otherwise accept.
     */
    boolean factor(DMatrixRMaj a, SpdSolver kind) {
        int n = a.numRows;
        double maxDiagonal = 0;
        for (int i = 0; i < n; i++) {
            maxDiagonal = Math.max(maxDiagonal, a.data[i * n + i]);
        }
        double floor = PIVOT_RATIO * maxDiagonal;
        current = kind == SpdSolver.LDLT ? ldl : chol;
        if (!current.setA(a)) {
            return false;
        }
        if (kind == SpdSolver.LDLT) {
            double[] d = ((LinearSolverCholLDL_DDRM) ldl).getDecomposition().getDiagonal();
            for (int i = 0; i < n; i++) {
                if (!(d[i] > floor)) {
                    return false;
                }
            }
        } else {
            double[] t = cholesky.getT().data;
            for (int i = 0; i < n; i++) {
                double l = t[i * n + i];
                if (!(l * l > floor)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Relative pivot floor of {@link #factor}. */
    static final double PIVOT_RATIO = 1e-14;

    /** out[0..n) = A⁻¹ rhs[0..n) for the last factorised A (n x n); out may alias rhs. */
    void solve(double[] rhs, double[] out, int n) {
        b.reshape(n, 1);
        x.reshape(n, 1);
        System.arraycopy(rhs, 0, b.data, 0, n);
        current.solve(b, x);
        System.arraycopy(x.data, 0, out, 0, n);
    }
}
