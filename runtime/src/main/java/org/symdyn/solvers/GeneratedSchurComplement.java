package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstrainedSystemFactorization;

/**
 * The fast path through a generated class's own factorisation of its constrained system
 * ({@link ConstrainedSystemFactorization}: the Schur-complement method of {@link SchurComplementMethod} as
 * straight-line code for the model, its zeros and constants folded): used by {@link ConstrainedSystemSolver} when a
 * set holds exactly the model's rows and is bound to the generated class alone. The acceptance rule is the runtime
 * path's: the factorisation's pivot ratio (K's smallest pivot over its largest diagonal entry) must exceed the
 * floor, else the caller takes the runtime's own path, which then reports dependent rows as always; at or below
 * {@link ConstrainedSystemSolver#REFINE_PIVOT_RATIO} (and always for impulses) one step of iterative refinement
 * with the same factors.
 *
 * <p>Kept as measured: see the commit that added it and benchmarks/README.md ("Constrained solvers").
 */
final class GeneratedSchurComplement {
    /** The outcome of {@link #solve}. */
    static final int OK = 0;
    /** The pivot ratio was at or below the floor, or the result was not finite: take the runtime's path. */
    static final int DECLINED = 1;

    private final ConstrainedSystemFactorization system;
    private final int nv;
    private final double[] a;
    private final double[] xs;
    private final double[] t;
    private final double[] r1;
    private final double[] r2;
    private final double[] dx;
    private final double[] dy;
    private double lastPivotRatio;

    GeneratedSchurComplement(ConstrainedSystemFactorization system, int nv, int m) {
        this.system = system;
        this.nv = nv;
        a = new double[nv];
        xs = new double[nv];
        t = new double[nv];
        r1 = new double[nv];
        r2 = new double[Math.max(1, m)];
        dx = new double[nv];
        dy = new double[Math.max(1, m)];
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b (or, {@code aIsSolution}, the system with a = H a₀ for the given a₀).
     *
     * @param x receives x on {@link #OK} only (so it may alias {@code aIn})
     * @return {@link #OK} with x and y written, or {@link #DECLINED} with y undefined
     */
    int solve(DMatrixRMaj h, DMatrixRMaj g, double[] aIn, boolean aIsSolution, double[] b, double[] x, double[] y,
            double pivotFloor, double refineBelow) {
        double ratio = system.factorConstrainedSystem(h, g);
        lastPivotRatio = ratio;
        if (!(ratio > pivotFloor)) {
            return DECLINED;
        }
        double[] rhs = aIn;
        if (aIsSolution) {
            SaddlePointOps.multiply(h, aIn, a);
            rhs = a;
        }
        int m = g.numRows;
        system.solveConstrainedSystem(rhs, b, xs, y);
        if (ratio <= refineBelow) {
            SaddlePointOps.residual(h, g, aIn, aIsSolution, b, xs, y, m, t, r1, r2);
            system.solveConstrainedSystem(r1, r2, dx, dy);
            for (int i = 0; i < nv; i++) {
                xs[i] += dx[i];
            }
            for (int i = 0; i < m; i++) {
                y[i] += dy[i];
            }
        }
        if (!SaddlePointOps.finite(xs, nv) || !SaddlePointOps.finite(y, m)) {
            return DECLINED;
        }
        System.arraycopy(xs, 0, x, 0, nv);
        return OK;
    }

    /** The pivot ratio the last factorisation returned (at or below the floor when it declined; 0 if it failed). */
    double lastPivotRatio() {
        return lastPivotRatio;
    }
}
