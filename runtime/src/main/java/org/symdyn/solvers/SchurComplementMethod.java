package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.dynamics.RangeSpaceFactorization;

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
 * <p>Three consecutive rows on one branch of the tree (the x, y and z rows of a contact at one body point, the
 * common case of rows added in code) are swept together along that branch
 * ({@link RangeSpaceFactorization#solveLtBranch3}) and their entries of K computed as 3x3 blocks (one walk of the
 * support for nine products), the same values as row by row: solo12 standing on 12 contact rows added in code,
 * this method without H's factorisation 2185-2223 → 1875-1886 ns (nanoTime probe of the method alone, two runs
 * each, quiet machine), the whole constrained forward dynamics 4520 → 4230 ns.
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
    /** Per row: the first row of its run of three on one branch, -1 outside runs ({@link #findRuns}). */
    private final int[] runStart;
    /** Per row: its deepest non-zero column when all its non-zeros lie on that dof's branch, else -1. */
    private final int[] rowDof;
    /** Per dof d: the bits of d and its λ-ancestors (null past 64 dofs). */
    private final long[] branchMask;
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
        runStart = new int[m];
        rowDof = new int[m];
        if (nv <= 64) {
            branchMask = new long[nv];
            for (int d = 0; d < nv; d++) {
                for (int i = d; i >= 0; i = ltl.parent(i)) {
                    branchMask[d] |= 1L << i;
                }
            }
        } else {
            branchMask = null;
        }
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
            // A failed pivot of H's factorisation: no ratio of K's pivots, so the solver does not report the last one.
            lastPivotRatio = 0;
            lastPivotIndex = -1;
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
        findRuns(gd, r);
        for (int i = 0; i < r; i++) {
            int o = i * nv;
            if (runStart[i] == i) {
                int count = ltl.solveLtBranch3(yr, o, o + nv, o + 2 * nv, rowDof[i], support, o);
                System.arraycopy(support, o, support, o + nv, count);
                System.arraycopy(support, o, support, o + 2 * nv, count);
                supportSize[i] = count;
                supportSize[i + 1] = count;
                supportSize[i + 2] = count;
            } else if (runStart[i] < 0) {
                supportSize[i] = ltl.solveLtSparse(yr, o, support, o);
            }
            int count = supportSize[i];
            double s = -b[i];
            for (int p = 0; p < count; p++) {
                int c = support[o + p];
                s += yr[o + c] * z[c];
            }
            rhs[i] = s;
        }
        for (int i = 0; i < r; i++) {
            int oi = i * nv;
            int ni = supportSize[i];
            for (int j = 0; j <= i; j++) {
                if (runStart[i] >= 0 && runStart[j] >= 0) {
                    continue;
                }
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
        }
        for (int i = 0; i < r; i += runStart[i] == i ? 3 : 1) {
            if (runStart[i] != i) {
                continue;
            }
            for (int j = 0; j <= i; j += runStart[j] == j ? 3 : 1) {
                if (runStart[j] == j) {
                    block(i, j, r);
                }
            }
        }
        double maxDiagonal = 0;
        for (int i = 0; i < r; i++) {
            maxDiagonal = Math.max(maxDiagonal, k[i * r + i]);
        }
        int bad = SmallSpd.factor(k, r, ldl, pivotRatio * maxDiagonal);
        if (bad >= 0) {
            lastPivotIndex = bad;
            lastPivotRatio = 0;
            return SCHUR_PIVOT;
        }
        lastPivotRatio = SmallSpd.pivotRatio(k, r, ldl, maxDiagonal);
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

    /**
     * Marks runs of three consecutive rows that lie on one branch of the tree (their non-zero columns all the same
     * deepest dof d or its λ-ancestors: the x, y and z rows of a contact at one body point): {@code runStart[i]} is
     * the first row of row i's run, -1 outside runs; {@code rowDof} the run's d. Checked on every solve from G's
     * entries (an exact zero can appear at a special configuration, and custom rows have any pattern); needs
     * {@link #branchMask}, so models past 64 dofs solve row by row.
     */
    private void findRuns(double[] gd, int r) {
        for (int i = 0; i < r; i++) {
            runStart[i] = -1;
            rowDof[i] = -1;
            if (branchMask == null) {
                continue;
            }
            long mask = 0;
            int deepest = -1;
            int o = i * nv;
            for (int c = 0; c < nv; c++) {
                if (gd[o + c] != 0) {
                    mask |= 1L << c;
                    deepest = c;
                }
            }
            if (deepest >= 0 && (mask & ~branchMask[deepest]) == 0) {
                rowDof[i] = deepest;
            }
        }
        for (int i = 0; i + 2 < r; i++) {
            int d = rowDof[i];
            if (d >= 0 && rowDof[i + 1] == d && rowDof[i + 2] == d) {
                runStart[i] = i;
                runStart[i + 1] = i;
                runStart[i + 2] = i;
                i += 2;
            }
        }
    }

    /**
     * K's 3x3 block of the runs starting at rows i and j (j ≤ i; for j = i its lower triangle), over the smaller of
     * the two branches: one walk of the support for nine entries, each summed in the order of the row-by-row loop
     * (so the same values).
     */
    private void block(int i, int j, int r) {
        double[] yr = yRows;
        int oi = i * nv;
        int oj = j * nv;
        int ni = supportSize[i];
        int nj = supportSize[j];
        int os = ni <= nj ? oi : oj;
        int ns = ni <= nj ? ni : nj;
        int oi1 = oi + nv;
        int oi2 = oi + 2 * nv;
        int oj1 = oj + nv;
        int oj2 = oj + 2 * nv;
        double s00 = 0;
        double s01 = 0;
        double s02 = 0;
        double s10 = 0;
        double s11 = 0;
        double s12 = 0;
        double s20 = 0;
        double s21 = 0;
        double s22 = 0;
        for (int p = 0; p < ns; p++) {
            int c = support[os + p];
            double a0 = yr[oi + c];
            double a1 = yr[oi1 + c];
            double a2 = yr[oi2 + c];
            double b0 = yr[oj + c];
            double b1 = yr[oj1 + c];
            double b2 = yr[oj2 + c];
            s00 += a0 * b0;
            s01 += a0 * b1;
            s02 += a0 * b2;
            s10 += a1 * b0;
            s11 += a1 * b1;
            s12 += a1 * b2;
            s20 += a2 * b0;
            s21 += a2 * b1;
            s22 += a2 * b2;
        }
        k[i * r + j] = s00;
        k[(i + 1) * r + j] = s10;
        k[(i + 1) * r + j + 1] = s11;
        k[(i + 2) * r + j] = s20;
        k[(i + 2) * r + j + 1] = s21;
        k[(i + 2) * r + j + 2] = s22;
        if (j != i) {
            k[i * r + j + 1] = s01;
            k[i * r + j + 2] = s02;
            k[(i + 1) * r + j + 2] = s12;
        }
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
