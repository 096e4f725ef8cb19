package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.lu.LUDecompositionAlt_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.dense.row.linsol.lu.LinearSolverLu_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.symdyn.constraints.SolverSettings.KktSolver;

/**
 * The direct method: assembles K = [H Gᵀ; G 0] ((nv + r) square) and solves K [x; y] = [a; b] with LU (partial
 * pivoting) or Householder QR, on storage sized for r ≤ m at construction, then refines once: the residual
 * [a - H x - Gᵀ y; b - G x] from H and G themselves, solved with the same factors and added. The solvers take it off
 * their fast paths with the rank check off (with it on, the direct method solves in the null space of the check's
 * QR, {@link NullSpaceMethod}), so no rank analysis precedes it and a tiny LU pivot counts as a failed
 * factorisation. Where rows are nearly dependent the unrefined LU was up to 7e-7 from the exact answer (a four-bar's
 * links almost stretched, two tip rows, relative angle 1e-6), where one step brings it to the conditioning's floor
 * (see RecursiveConstrainedDynamicsTest).
 */
final class DirectMethod {
    /** Below this |U_ii| / max |U_jj| an LU factorisation is treated as singular (exact rank loss reaches ~1e-16). */
    private static final double LU_PIVOT_RATIO = 1e-14;

    private final int nv;
    private final DMatrixRMaj k;
    private final DMatrixRMaj rhs;
    private final DMatrixRMaj sol;
    private final DMatrixRMaj correction;
    private final double[] t;
    private final double[] r1;
    private final double[] r2;
    private final LUDecompositionAlt_DDRM lu;
    private final LinearSolverDense<DMatrixRMaj> luSolver;
    private final LinearSolverDense<DMatrixRMaj> qrSolver;

    DirectMethod(int nv, int maxRows) {
        this.nv = nv;
        int n = nv + maxRows;
        k = new DMatrixRMaj(n, n);
        rhs = new DMatrixRMaj(n, 1);
        sol = new DMatrixRMaj(n, 1);
        correction = new DMatrixRMaj(n, 1);
        t = new double[nv];
        r1 = new double[nv];
        r2 = new double[Math.max(1, maxRows)];
        lu = new LUDecompositionAlt_DDRM();
        luSolver = new LinearSolverLu_DDRM(lu);
        qrSolver = LinearSolverFactory_DDRM.qr(n, n);
        // Size EJML's internal arrays now.
        for (int i = 0; i < n; i++) {
            k.set(i, i, 1);
        }
        luSolver.setA(k);
        luSolver.solve(rhs, sol);
        qrSolver.setA(k);
        qrSolver.solve(rhs, sol);
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b for G with r = g.numRows rows.
     *
     * @return false if the factorisation failed or looks singular (a tiny LU pivot)
     */
    boolean solve(DMatrixRMaj h, DMatrixRMaj g, double[] a, double[] b, double[] x, double[] y, KktSolver kind) {
        int r = g.numRows;
        int n = nv + r;
        k.reshape(n, n);
        rhs.reshape(n, 1);
        sol.reshape(n, 1);
        double[] kd = k.data;
        for (int i = 0; i < nv; i++) {
            System.arraycopy(h.data, i * nv, kd, i * n, nv);
            for (int j = 0; j < r; j++) {
                kd[i * n + nv + j] = g.data[j * nv + i];
            }
            rhs.data[i] = a[i];
        }
        for (int j = 0; j < r; j++) {
            System.arraycopy(g.data, j * nv, kd, (nv + j) * n, nv);
            for (int c = 0; c < r; c++) {
                kd[(nv + j) * n + nv + c] = 0;
            }
            rhs.data[nv + j] = b[j];
        }
        LinearSolverDense<DMatrixRMaj> solver = kind == KktSolver.QR ? qrSolver : luSolver;
        if (!solver.setA(k)) {
            return false;
        }
        if (kind == KktSolver.LU && !pivotsOk(n)) {
            return false;
        }
        solver.solve(rhs, sol);
        System.arraycopy(sol.data, 0, x, 0, nv);
        System.arraycopy(sol.data, nv, y, 0, r);
        SaddlePointOps.residual(h, g, a, false, b, x, y, r, t, r1, r2);
        correction.reshape(n, 1);
        System.arraycopy(r1, 0, rhs.data, 0, nv);
        System.arraycopy(r2, 0, rhs.data, nv, r);
        solver.solve(rhs, correction);
        for (int i = 0; i < nv; i++) {
            x[i] += correction.data[i];
        }
        for (int j = 0; j < r; j++) {
            y[j] += correction.data[nv + j];
        }
        return true;
    }

    private boolean pivotsOk(int n) {
        double[] u = lu.getLU().data;
        double max = 0;
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double d = Math.abs(u[i * n + i]);
            max = Math.max(max, d);
            min = Math.min(min, d);
        }
        return min > LU_PIVOT_RATIO * max;
    }
}
