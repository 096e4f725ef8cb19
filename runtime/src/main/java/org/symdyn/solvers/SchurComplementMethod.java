package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;

/**
 * The structure-exploiting solve of H x + Gᵀ y = a, G x = b for a positive definite, tree-sparse H (the fast path
 * of the direct and range-space methods, impulses and assembly with positive weights):
 * <ol>
 * <li>H = Lᵀ L along the dof tree ({@link RangeSpaceFactorization}, shared with the rest of the solve);</li>
 * <li>z = L⁻ᵀ a; for each row k, y_k = L⁻ᵀ g_k by {@link RangeSpaceFactorization#solveLtSparse}, which skips the
 * dofs a row does not touch and records the support (a contact row on a leg: that leg and the base);</li>
 * <li>the Schur complement K = G H⁻¹ Gᵀ = Yᵀ Y (lower triangle) by dot products over the smaller support of each
 * pair, and its right-hand side G H⁻¹ a - b = Yᵀ z - b;</li>
 * <li>K y = Yᵀ z - b by the small dense Cholesky or LDLᵀ of {@link SmallSpd}, whose pivots are checked against a
 * floor relative to K's largest diagonal entry: a pivot below it means dependent (or nearly dependent) rows, and
 * the caller falls back to the rank-revealing path;</li>
 * <li>x = L⁻¹ (z - Y y).</li>
 * </ol>
 * One LᵀL, one dense L⁻ᵀ and one dense L⁻¹ sweep, m sparse L⁻ᵀ sweeps, m(m+1)/2 sparse dot products, an m x m
 * factorisation. Nothing allocates.
 *
 * <p>Kept as measured (solo12, 12 rows, interleaved A/B rounds in one JVM): the Schur complement by inner products
 * over the smaller support of each pair of rows. Two rewrites were slower and were dropped: sweeping all m columns
 * of Gᵀ together dof by dof (dense over the rows, vectorisable, but twice the arithmetic: the whole fast solve
 * 1.25x slower) and K by outer products along each row's support (1.04-1.05x slower). A right-looking
 * {@link SmallSpd} was within noise of the left-looking one (0.96-1.05).
 *
 * <p>Whole-solve numbers (JMH, {@code SolveKernelsBenchmark}, against the rank-revealing path) are in the commit
 * messages of issue 17 and in that benchmark's Javadoc.
 */
final class SchurComplementMethod {
    /** The outcome of {@link #solve}. */
    static final int OK = 0;
    /** H is not positive definite (an LᵀL pivot was not positive). */
    static final int H_NOT_POSITIVE_DEFINITE = 1;
    /** A pivot of the Schur complement's factorisation was at or below the floor. */
    static final int SCHUR_PIVOT = 2;
    /** The result was not finite (x is then left untouched). */
    static final int NOT_FINITE = 3;

    private final int nv;
    private final RangeSpaceFactorization ltl;
    private final double[] yRows;
    private final int[] support;
    private final int[] supportSize;
    private final double[] k;
    private final double[] z;
    private final double[] rhs;
    private final double[] w;
    private final double[] dx;
    private final double[] c2;
    private final double[] du;
    private double lastPivotRatio;
    private int lastPivotIndex;

    SchurComplementMethod(RangeSpaceFactorization ltl, int maxRows) {
        this.ltl = ltl;
        this.nv = ltl.size();
        int m = Math.max(1, maxRows);
        yRows = new double[m * nv];
        support = new int[m * nv];
        supportSize = new int[m];
        k = new double[m * m];
        z = new double[nv];
        rhs = new double[m];
        w = new double[nv];
        dx = new double[nv];
        c2 = new double[m];
        du = new double[m];
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b (G with r = g.numRows rows).
     *
     * @param factorH      false if {@link #ltl} already holds H's factor (a caller that factorised it)
     * @param aIsSolution  true: {@code a} holds H⁻¹ a itself (an impulse's v⁻, whose a = H v⁻), so z = L a
     * @param pivotRatio   a pivot of K's factorisation must exceed this times K's largest diagonal entry
     * @param refineBelow  one step of iterative refinement ({@link #refine}) when the pivot ratio is at or below this
     * @param x            receives x on {@link #OK} only (so it may alias {@code a})
     * @return {@link #OK}, {@link #H_NOT_POSITIVE_DEFINITE}, {@link #SCHUR_PIVOT} or {@link #NOT_FINITE}; y is
     *         valid on OK only
     */
    int solve(DMatrixRMaj h, boolean factorH, DMatrixRMaj g, double[] a, boolean aIsSolution, double[] b,
            double[] x, double[] y, boolean ldl, double pivotRatio, double refineBelow) {
        if (factorH && ltl.tryFactor(h) >= 0) {
            return H_NOT_POSITIVE_DEFINITE;
        }
        int r = g.numRows;
        if (aIsSolution) {
            ltl.multiplyL(a, z);
        } else {
            System.arraycopy(a, 0, z, 0, nv);
            ltl.solveLt(z);
        }
        lastPivotRatio = 1;
        lastPivotIndex = -1;
        if (r == 0) {
            ltl.solveL(z);
            if (!SaddlePointOps.finite(z, nv)) {
                return NOT_FINITE;
            }
            System.arraycopy(z, 0, x, 0, nv);
            return OK;
        }
        double[] gd = g.data;
        double[] yr = yRows;
        System.arraycopy(gd, 0, yr, 0, r * nv);
        for (int i = 0; i < r; i++) {
            int o = i * nv;
            int count = ltl.solveLtSparse(yr, o, support, o);
            supportSize[i] = count;
            double s = -b[i];
            for (int p = 0; p < count; p++) {
                int c = support[o + p];
                s += yr[o + c] * z[c];
            }
            rhs[i] = s;
        }
        double maxDiagonal = 0;
        for (int i = 0; i < r; i++) {
            int oi = i * nv;
            int ni = supportSize[i];
            for (int j = 0; j <= i; j++) {
                int oj = j * nv;
                int nj = supportSize[j];
                // Over the smaller support: the other row is zero outside its own.
                int os = ni <= nj ? oi : oj;
                int ns = ni <= nj ? ni : nj;
                double s = 0;
                for (int p = 0; p < ns; p++) {
                    int c = support[os + p];
                    s += yr[oi + c] * yr[oj + c];
                }
                k[i * r + j] = s;
            }
            maxDiagonal = Math.max(maxDiagonal, k[i * r + i]);
        }
        int bad = SmallSpd.factor(k, r, ldl, pivotRatio * maxDiagonal);
        if (bad >= 0) {
            lastPivotIndex = bad;
            lastPivotRatio = 0;
            return SCHUR_PIVOT;
        }
        double minPivot = Double.POSITIVE_INFINITY;
        for (int i = 0; i < r; i++) {
            double d = k[i * r + i];
            minPivot = Math.min(minPivot, ldl ? d : d * d);
        }
        lastPivotRatio = maxDiagonal > 0 ? minPivot / maxDiagonal : 0;
        backSolve(z, rhs, y, r, ldl);
        if (lastPivotRatio <= refineBelow) {
            refine(h, g, a, aIsSolution, b, z, y, r, ldl);
        }
        if (!SaddlePointOps.finite(z, nv) || !SaddlePointOps.finite(y, r)) {
            return NOT_FINITE;
        }
        System.arraycopy(z, 0, x, 0, nv);
        return OK;
    }

    /** With K factorised and t = L⁻ᵀ a', u = K⁻¹ c: t ← L⁻¹ (t - Y u) (so t = x', u = y' of the system at a', b'). */
    private void backSolve(double[] t, double[] c, double[] u, int r, boolean ldl) {
        SmallSpd.solve(k, r, ldl, c, u);
        double[] yr = yRows;
        for (int i = 0; i < r; i++) {
            double ui = u[i];
            int o = i * nv;
            for (int p = 0, count = supportSize[i]; p < count; p++) {
                int col = support[o + p];
                t[col] -= yr[o + col] * ui;
            }
        }
        ltl.solveL(t);
    }

    /**
     * One step of iterative refinement in working precision: the residuals r₁ = a - H x - Gᵀ y, r₂ = b - G x,
     * the correction from the same factors, added. Forming G H⁻¹ Gᵀ squares the conditioning of the rows (the
     * normal-equations effect): on ill-conditioned states of the test mechanisms the unrefined answer differed from
     * the KKT LU's by up to 1e-12 relative where both are 3e-14 from the exact one (Schur pivot ratios 5e-4 to
     * 2e-3); one step brings it back to the LU's accuracy (see FastPathTest).
     */
    private void refine(DMatrixRMaj h, DMatrixRMaj g, double[] a, boolean aIsSolution, double[] b, double[] x,
            double[] y, int r, boolean ldl) {
        SaddlePointOps.residual(h, g, a, aIsSolution, b, x, y, r, dx, w, c2);
        // Correction: the same steps on (r₁, r₂).
        ltl.solveLt(w);
        double[] yr = yRows;
        for (int i = 0; i < r; i++) {
            int o = i * nv;
            double s = -c2[i];
            for (int p = 0, count = supportSize[i]; p < count; p++) {
                int col = support[o + p];
                s += yr[o + col] * w[col];
            }
            c2[i] = s;
        }
        backSolve(w, c2, du, r, ldl);
        for (int i = 0; i < nv; i++) {
            x[i] += w[i];
        }
        for (int i = 0; i < r; i++) {
            y[i] += du[i];
        }
    }

    /** The smallest pivot of K's factorisation over K's largest diagonal entry in the last solve (0 if it failed). */
    double lastPivotRatio() {
        return lastPivotRatio;
    }

    /** The row whose pivot failed in the last solve, -1 if none. */
    int lastPivotIndex() {
        return lastPivotIndex;
    }
}
