package org.symdyn.solvers;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.SolverSettings;

/**
 * Solves the saddle-point system shared by constrained dynamics, impulses and assembly,
 * <pre>
 *   [H Gᵀ] [x]   [a]
 *   [G 0 ] [y] = [b]      i.e.  H x + Gᵀ y = a,  G x = b,
 * </pre>
 * for a symmetric H (positive definite for the range-space and null-space methods; positive definite on the null
 * space of G for the direct one) and an m x nv G, by the {@link ConstraintSolverMethod method} asked and the
 * {@link SolverSettings} of a {@link ConstraintData}. Forward dynamics: a = τ - C, b = γ, x = v̇, y = -λ. Impulses:
 * a = H v⁻, b = v⁺_target, x = v⁺, y = Λ.
 *
 * <p>Dependent rows of G are found with {@link ConstraintRankAnalysis} (always for the null-space method, and for
 * the others when {@link SolverSettings#rankCheck()} is on, or after a failed factorisation) and reported by name
 * or dropped, as the rank policy says; non-finite inputs or results raise an exception, never pass through. All
 * workspaces are allocated by the constructor; {@link #solve} does not allocate except to build an exception.
 */
public final class ConstrainedSystemSolver {
    private final int nv;
    private final int m;
    private final SolverSettings settings;
    private final List<String> rowNames;
    private final ConstraintRankAnalysis analysis;
    private final DirectMethod direct;
    private final RangeSpaceMethod rangeSpace;
    private final NullSpaceMethod nullSpace;
    private final DMatrixRMaj gAct;
    private final double[] bAct;
    private final double[] yAct;
    private final int[] identity;
    private int lastRank;

    /** Workspaces for the rows and model of a bound set (its settings and row names are used). */
    public ConstrainedSystemSolver(ConstraintData data) {
        nv = data.nv();
        m = data.size();
        settings = data.settings();
        rowNames = data.set().rowNames();
        analysis = new ConstraintRankAnalysis(m, nv);
        direct = new DirectMethod(nv, m);
        rangeSpace = new RangeSpaceMethod(data.dynamics().dofParents(), m);
        nullSpace = new NullSpaceMethod(nv, m);
        gAct = new DMatrixRMaj(m, nv);
        bAct = new double[Math.max(1, m)];
        yAct = new double[Math.max(1, m)];
        identity = new int[m];
        for (int i = 0; i < m; i++) {
            identity[i] = i;
        }
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b. Rows dropped under {@link SolverSettings.RankPolicy#DROP_DEPENDENT_ROWS} get
     * y = 0.
     *
     * @param h nv x nv
     * @param g m x nv
     * @param a nv entries
     * @param b m entries
     * @param x receives nv entries
     * @param y receives m entries
     * @throws ConstraintRankException if the rows are dependent (policy FAIL) or inconsistent
     * @throws ArithmeticException     if an input is not finite or H is not positive definite where needed
     */
    public void solve(ConstraintSolverMethod method, DMatrixRMaj h, DMatrixRMaj g, double[] a, double[] b,
            double[] x, double[] y) {
        if (g.numRows != m || g.numCols != nv || h.numRows != nv || h.numCols != nv) {
            throw new IllegalArgumentException("H must be " + nv + "x" + nv + " and G " + m + "x" + nv);
        }
        checkFinite(h.data, nv * nv, "H");
        checkFinite(g.data, m * nv, "G");
        checkFinite(a, nv, "the right-hand side (a)");
        checkFinite(b, m, "the right-hand side (b)");
        boolean analysed = settings.rankCheck() || method == ConstraintSolverMethod.NULL_SPACE;
        int r = m;
        int[] rowsOf = identity;
        if (analysed && m > 0) {
            r = analysis.decompose(g, settings.rankTolerance());
            if (r < m) {
                if (settings.rankPolicy() == SolverSettings.RankPolicy.FAIL) {
                    throw analysis.redundancyException(rowNames);
                }
                rowsOf = analysis.pivots();
            }
        }
        boolean ok;
        if (method == ConstraintSolverMethod.NULL_SPACE && m > 0) {
            rowsOf = analysis.pivots();
            for (int k = 0; k < r; k++) {
                bAct[k] = b[rowsOf[k]];
            }
            ok = nullSpace.solve(h, analysis, r, a, bAct, x, yAct, settings.spdSolver());
        } else {
            DMatrixRMaj gUse = g;
            double[] bUse = b;
            if (r < m) {
                gatherRows(g, b, rowsOf, r);
                gUse = gAct;
                bUse = bAct;
            }
            if (method == ConstraintSolverMethod.DIRECT) {
                ok = direct.solve(h, gUse, a, bUse, x, yAct, settings.kktSolver(), !analysed);
            } else {
                ok = rangeSpace.solve(h, gUse, a, bUse, x, yAct, settings.spdSolver());
            }
        }
        if (!ok || !isFinite(x, nv) || !isFinite(yAct, r)) {
            if (!analysed && m > 0 && analysis.decompose(g, settings.rankTolerance()) < m) {
                throw analysis.redundancyException(rowNames);
            }
            throw new ArithmeticException(method + ": the constrained system could not be solved (singular or"
                    + " non-finite factorisation; is H positive definite?)");
        }
        for (int i = 0; i < m; i++) {
            y[i] = 0;
        }
        for (int k = 0; k < r; k++) {
            y[rowsOf[k]] = yAct[k];
        }
        for (int k = r; k < m; k++) {
            checkDroppedRow(g, b, x, k);
        }
        lastRank = r;
    }

    /** The rank used by the last solve (m when no row was dropped). */
    public int lastRank() {
        return lastRank;
    }

    /** Number of rows dropped by the last solve. */
    public int lastDroppedRows() {
        return m - lastRank;
    }

    /** The factorisation of the last rank analysis (valid after a null-space solve or a rank-checked one). */
    public ConstraintRankAnalysis rankAnalysis() {
        return analysis;
    }

    /** The tree-sparse LᵀL factorisation used by the range-space method. */
    public RangeSpaceFactorization rangeSpaceFactorization() {
        return rangeSpace.ltl();
    }

    private void gatherRows(DMatrixRMaj g, double[] b, int[] rowsOf, int r) {
        gAct.reshape(r, nv);
        for (int k = 0; k < r; k++) {
            System.arraycopy(g.data, rowsOf[k] * nv, gAct.data, k * nv, nv);
            bAct[k] = b[rowsOf[k]];
        }
    }

    /** A dropped row must still hold; otherwise the rows contradict each other. */
    private void checkDroppedRow(DMatrixRMaj g, double[] b, double[] x, int k) {
        int row = analysis.pivots()[k];
        double s = 0;
        double scale = 1 + Math.abs(b[row]);
        for (int i = 0; i < nv; i++) {
            double t = g.data[row * nv + i] * x[i];
            s += t;
            scale += Math.abs(t);
        }
        double residual = s - b[row];
        if (!(Math.abs(residual) <= settings.consistencyTolerance() * scale)) {
            throw analysis.inconsistencyException(rowNames, k, residual);
        }
    }

    private static void checkFinite(double[] x, int n, String what) {
        if (!isFinite(x, n)) {
            throw new ArithmeticException(what + " has a non-finite entry (NaN or infinity)");
        }
    }

    private static boolean isFinite(double[] x, int n) {
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(x[i])) {
                return false;
            }
        }
        return true;
    }
}
