package org.symdyn.solvers;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.SolverSettings;

/**
 * K λ = r for the constraint-space matrix K = G H⁻¹ Gᵀ (m x m, symmetric) of the methods that form K without the
 * saddle-point system ({@link KokkevisContactDynamics}, {@link RecursiveConstrainedDynamics}), with the rank
 * handling of {@link ConstrainedSystemSolver}:
 * <ul>
 * <li><b>fast path</b> ({@link SolverSettings#exploitStructure()}, the default): {@link SmallSpd} on a copy of K;
 * a pivot at or below max({@link ConstrainedSystemSolver#SCHUR_RANK_RATIO}, rank tolerance) times K's largest
 * diagonal entry (with the rank check on; {@link SpdFactorization#PIVOT_RATIO} with it off) or a non-finite λ sends
 * the solve to</li>
 * <li>the <b>rank-revealing path</b>: the QR of G ({@link ConstraintRankAnalysis}) finds dependent rows, which are
 * reported by name (policy FAIL) or dropped (their λ = 0, and {@link #checkDroppedRows} verifies that the answer
 * still satisfies them), and K's independent block is factorised by {@link SpdFactorization}.</li>
 * </ul>
 * Allocation happens in the constructor only. Not thread-safe.
 */
final class DelassusSolve {
    private final String method;
    /** "method: ", built once: a message prefix concatenated per call would allocate on every solve. */
    private final String prefix;
    private final SolverSettings settings;
    private final List<String> rowNames;
    private final int m;
    private final ConstraintRankAnalysis analysis;
    private final SpdFactorization spd;
    private final DMatrixRMaj kAct;
    private final double[] factor;
    private final double[] rhsAct;
    private final double[] lambdaAct;
    private final int[] identity;
    private int[] rowsOf;
    private int rank;
    private boolean fellBack;
    /** K's smallest pivot at or below the rank floor times its largest diagonal entry on the last solve. */
    private boolean nearlyDependent;
    /** The last solve's path: the fast one (K's factor in {@link #factor}), or the rank-revealing one. */
    private boolean fast;
    /** True when {@link #spd} holds the factor of the kept rows' block of the last rank-revealing solve. */
    private boolean keptFactored;
    private double pivotRatio = 1;

    /**
     * @param method the method's name for messages ("Kokkevis", "recursive")
     */
    DelassusSolve(ConstraintData data, String method) {
        this.method = method;
        this.prefix = method + ": ";
        settings = data.settings();
        rowNames = data.set().rowNames();
        m = data.size();
        analysis = new ConstraintRankAnalysis(m, data.nv());
        spd = new SpdFactorization(m);
        kAct = new DMatrixRMaj(m, m);
        factor = new double[Math.max(1, m * m)];
        rhsAct = new double[Math.max(1, m)];
        lambdaAct = new double[Math.max(1, m)];
        identity = new int[m];
        for (int i = 0; i < m; i++) {
            identity[i] = i;
        }
        rowsOf = identity;
    }

    /**
     * λ (m entries, 0 on dropped rows) with K λ = r on the rows kept.
     *
     * @param g the rows' Jacobian (m x nv), for the rank analysis
     * @return the rank used (m when no row was dropped)
     * @throws ConstraintRankException if the rows are dependent and the policy is FAIL
     * @throws ArithmeticException     if K or r is not finite, or K's independent block is not positive definite
     */
    int solve(DMatrixRMaj k, double[] r, DMatrixRMaj g, double[] lambda) {
        double[] kd = k.data;
        SaddlePointOps.checkFinite(kd, m * m, prefix, "K = G H⁻¹ Gᵀ", "; check q, v and τ");
        SaddlePointOps.checkFinite(r, m, prefix, "the right-hand side of K λ", "; check q, v and τ");
        fellBack = false;
        fast = false;
        keptFactored = false;
        rowsOf = identity;
        nearlyDependent = false;
        if (settings.exploitStructure()) {
            if (solveFast(kd, r, lambda)) {
                fast = true;
                rank = m;
                return m;
            }
            fellBack = true;
            nearlyDependent = true;
        } else {
            // the fast path's pivot test alone: K's conditioning, which the rank-revealing path does not measure
            nearlyDependent = !factorsAboveFloor(kd);
        }
        // Off the fast path (a small pivot, or the structure not exploited): no pivot ratio, so refine.
        pivotRatio = 0;
        boolean analysed = settings.rankCheck();
        int kept = m;
        if (analysed && m > 0) {
            kept = analysis.decompose(g, settings.rankTolerance());
            if (kept < m) {
                if (settings.rankPolicy() == SolverSettings.RankPolicy.FAIL) {
                    throw analysis.redundancyException(rowNames);
                }
                rowsOf = analysis.pivots();
            }
        }
        boolean factored = factorKept(kd, kept);
        if (!factored && !analysed && m > 0) {
            // the rows' QR now: it names dependent rows, and drops them under DROP_DEPENDENT_ROWS with the rank check
            // off as well as on
            kept = analysis.decompose(g, settings.rankTolerance());
            if (kept < m) {
                if (settings.rankPolicy() == SolverSettings.RankPolicy.FAIL) {
                    throw analysis.redundancyException(rowNames);
                }
                rowsOf = analysis.pivots();
                factored = factorKept(kd, kept);
            }
        }
        if (!factored) {
            throw new ArithmeticException(method + ": K = G H⁻¹ Gᵀ is not positive definite (rows " + rowNames
                    + "); are the rows independent and the inertias physical?");
        }
        keptFactored = true;
        rank = kept;
        solveKeptRows(r, lambda);
        SaddlePointOps.checkFinite(lambda, m, prefix, "λ", "; check q, v and τ");
        return kept;
    }

    /** Factorises K's block of the first {@code kept} rows of {@link #rowsOf}; false if it is not positive definite. */
    private boolean factorKept(double[] kd, int kept) {
        kAct.reshape(kept, kept);
        for (int a = 0; a < kept; a++) {
            for (int b = 0; b < kept; b++) {
                kAct.data[a * kept + b] = kd[rowsOf[a] * m + rowsOf[b]];
            }
        }
        return spd.factor(kAct, settings.spdSolver());
    }

    /**
     * After x has been formed from the λ of {@link #solve}: each dropped row must still hold, G_k x = b_k within
     * the consistency tolerance, or the rows were inconsistent.
     *
     * @throws ConstraintRankException naming the row that does not hold
     */
    void checkDroppedRows(DMatrixRMaj g, double[] b, double[] x) {
        for (int a = rank; a < m; a++) {
            analysis.checkDroppedRow(g, b, x, a, settings.consistencyTolerance(), rowNames);
        }
    }

    /**
     * The smallest pivot of K's factorisation over its largest diagonal entry on the last fast-path solve (0 when it
     * took the rank-revealing path, 1 without rows): how far the rows are from dependent in H⁻¹'s metric.
     */
    double pivotRatio() {
        return m == 0 ? 1 : pivotRatio;
    }

    /**
     * δ = K⁻¹ r with the factor of the last solve (for one step of iterative refinement): K's own after the fast
     * path; after the rank-revealing path, that of the kept rows' block, δ = 0 on the dropped rows (the refinement
     * of the reduced system). The rank-revealing path serves the worst-conditioned K, where the step matters most:
     * an iiwa14 held to the world in 6D at a nearly stretched configuration (K's condition number 1.4e9) gave v̇ and
     * λ 2.8e-10 from the exact solution unrefined (the direct method's KKT LU: 4e-12).
     *
     * @return false (δ untouched) if the last solve factorised nothing
     */
    boolean solveAgain(double[] r, double[] delta) {
        if (fast) {
            SmallSpd.solve(factor, m, settings.spdSolver() == SolverSettings.SpdSolver.LDLT, r, delta);
            return true;
        }
        if (!keptFactored) {
            return false;
        }
        solveKeptRows(r, delta);
        return true;
    }

    /** out = K⁻¹ r on the kept rows by {@link #spd}'s factor of their block, 0 on the dropped rows. */
    private void solveKeptRows(double[] r, double[] out) {
        for (int a = 0; a < rank; a++) {
            rhsAct[a] = r[rowsOf[a]];
        }
        spd.solve(rhsAct, lambdaAct, rank);
        for (int i = 0; i < m; i++) {
            out[i] = 0;
        }
        for (int a = 0; a < rank; a++) {
            out[rowsOf[a]] = lambdaAct[a];
        }
    }

    /** The rank used by the last solve. */
    int rank() {
        return rank;
    }

    /** True if the last solve left the fast path for the rank-revealing one. */
    boolean fellBack() {
        return fellBack;
    }

    /**
     * True if K's factorisation on the last solve had a pivot at or below the fast path's floor
     * ({@link ConstrainedSystemSolver#rankFloor}) times its largest diagonal entry, whichever path solved: rows
     * nearly dependent in H⁻¹'s metric, where K squares their conditioning and an answer through K loses accuracy
     * that the direct method's QR keeps. With the structure exploited this is {@link #fellBack()}.
     */
    boolean nearlyDependent() {
        return nearlyDependent;
    }

    /** True if {@link SmallSpd} factorises a copy of K with every pivot above the fast path's floor. */
    private boolean factorsAboveFloor(double[] kd) {
        double maxDiagonal = 0;
        for (int i = 0; i < m; i++) {
            System.arraycopy(kd, i * m, factor, i * m, i + 1);
            maxDiagonal = Math.max(maxDiagonal, kd[i * m + i]);
        }
        boolean ldl = settings.spdSolver() == SolverSettings.SpdSolver.LDLT;
        return m == 0 || SmallSpd.factor(factor, m, ldl, ConstrainedSystemSolver.rankFloor(settings) * maxDiagonal) < 0;
    }

    /** K λ = r by {@link SmallSpd} on a copy of K; false (λ untouched) on a small pivot or a non-finite λ. */
    private boolean solveFast(double[] kd, double[] r, double[] lambda) {
        double maxDiagonal = 0;
        for (int i = 0; i < m; i++) {
            System.arraycopy(kd, i * m, factor, i * m, i + 1);
            maxDiagonal = Math.max(maxDiagonal, kd[i * m + i]);
        }
        double ratio = ConstrainedSystemSolver.rankFloor(settings);
        boolean ldl = settings.spdSolver() == SolverSettings.SpdSolver.LDLT;
        if (SmallSpd.factor(factor, m, ldl, ratio * maxDiagonal) >= 0) {
            pivotRatio = 0;
            return false;
        }
        pivotRatio = SmallSpd.pivotRatio(factor, m, ldl, maxDiagonal);
        SmallSpd.solve(factor, m, ldl, r, lambdaAct);
        for (int j = 0; j < m; j++) {
            if (!Double.isFinite(lambdaAct[j])) {
                return false;
            }
        }
        System.arraycopy(lambdaAct, 0, lambda, 0, m);
        return true;
    }
}
