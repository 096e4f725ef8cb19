package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;

/**
 * The saddle-point system H x + Gᵀ y = a, G x = b solved limb by limb, for rows that each sit on one limb of a
 * trunk: the runtime's counterpart, on H and G, of a generated class's limb-eliminated dynamics
 * ({@link org.symdyn.contract.LimbConstrainedDynamics}), for rows the class does not know (added in code).
 *
 * <p><b>Trunk and limbs</b> (from the dof tree λ alone, at construction): the trunk T holds every dof with a branch
 * point of the tree at or below it (a floating base above its legs, a torso above its arms); each limb l is an
 * unbranched chain of dofs hanging from the trunk or from the world. Two limbs never share an entry of H (neither
 * holds the other's ancestors), so H is block-arrowhead: H_ll per limb, H_lT = B_l to the trunk, H_TT. The solve
 * applies when every row's non-zero entries outside the trunk lie on one limb l (its J_l = G_l,D_l; J_T = G_l,T), no
 * limb carries more rows than it has dofs, and the tree splits into at least two blocks (a trunk and a limb, or two
 * limbs): a row that reaches only the trunk, or two limbs (a loop closed between legs), and a serial chain are left
 * to {@link SchurComplementMethod}.
 *
 * <p><b>Equations.</b> Per limb, with H_ll = L Lᵀ (Cholesky, n_l x n_l) and [Z_B | z_a | Z_J] = L⁻¹ [B | a_l | J_lᵀ]:
 * <pre>
 *   x_l = H_ll⁻¹ (a_l - B x_T - J_lᵀ y_l)                                        (the limb's rows of H x + Gᵀ y = a)
 *   K_l y_l = E_l x_T - g_l,  K_l = J_l H_ll⁻¹ J_lᵀ = Z_Jᵀ Z_J,                  (its rows of G x = b)
 *              E_l = J_T - J_l H_ll⁻¹ B = J_T - Z_Jᵀ Z_B,  g_l = b_l - Z_Jᵀ z_a
 *   (H_TT - Σ Z_Bᵀ Z_B + Σ E_lᵀ K_l⁻¹ E_l) x_T = a_T - Σ Z_Bᵀ z_a + Σ E_lᵀ K_l⁻¹ g_l   (the trunk's rows)
 * </pre>
 * The trunk's matrix is the Schur complement of the whole system onto the trunk, positive definite when H is; with
 * K_l = L_K L_Kᵀ, its terms are Fᵀ F and Fᵀ h for F = L_K⁻¹ E_l, h = L_K⁻¹ g_l (symmetric by construction), and after
 * x_T: y_l = L_K⁻ᵀ (F x_T - h), x_l = L⁻ᵀ (z_a - Z_B x_T - Z_J y_l). Nothing of size m x m or nv x nv is formed:
 * each limb costs O(n_l² (t + m_l)) and the trunk O(t³).
 *
 * <p><b>Rank.</b> G has full row rank exactly when every J_l has (G is block triangular in the limbs' columns), that
 * is when every K_l is positive definite; {@link #solve} returns the smallest pivot ratio of the K_l (L_K,ii² over
 * K_l's largest diagonal entry), and its caller takes the answer only above
 * {@link ConstrainedDynamics#LIMB_PIVOT_RATIO} (the error grows as ε / ratio, as for the generated method; measured in
 * LimbEliminationTest). Below it, and when it does not apply, the caller solves by the Schur complement and its
 * rank-revealing fall-back, which name dependent rows.
 *
 * <p>Why it exists: solo12 standing on 12 contact rows added in code (a generated class, so H, C and the rows cost
 * about 1.2 µs), the Schur complement's solve took 2.4 µs of the 3.9 µs. Through this one the whole constrained
 * forward dynamics takes 3.2-3.3 µs against 4.0-4.1 µs, the impulses 2.3 against 3.9-4.1 µs, the interpreter's
 * 5.7-6.1 against 6.4-7.0 µs (JMH, alternated; benchmarks/README.md, "Rows added in code solved limb by limb").
 * Workspaces are allocated by the constructor; solving does not allocate. Not thread-safe.
 */
final class LimbElimination {
    /** {@link #solve}'s answer when the rows or the tree do not have the structure (x and y untouched). */
    static final double NOT_APPLICABLE = -1;

    private final int nv;
    private final int[] trunk;
    private final int[][] limbDofs;
    /** The limb of each dof, -1 for the trunk. */
    private final int[] limbOf;
    private final int[] limbColumns;
    /** Per limb: the rows of the last solve, then their count. */
    private final int[][] limbRows;
    private final int[] rowCount;
    /** Per limb: the Cholesky factor of H_ll (n x n) and of K_l (m x m, stride n). */
    private final double[][] factorA;
    private final double[][] factorK;
    /**
     * Per limb: Z = L⁻¹ [B | a_l | J_lᵀ], n rows of stride t + n + 1: Z_B and z_a side by side, so that a row of
     * them is one rank-one update of the trunk's matrix and right-hand side ({@link #rankOne}), and Z_Jᵀ times a row
     * of Z gives a row of E_l, g_l and K_l at once.
     */
    private final double[][] z;
    /** Per limb: [F | h] = L_K⁻¹ [E_l | g_l], m rows of stride t + 1. */
    private final double[][] f;
    /** The trunk's matrix (t x t, then its factor) and right-hand side (then x_T). */
    private final double[] trunkMatrix;
    private final double[] trunkRhs;
    /** y_l's and x_l's work vectors in the back substitution; H a when a is the free solution. */
    private final double[] yWork;
    private final double[] xWork;
    private final double[] aWork;
    /** A row of Z_Jᵀ Z (E_l's, g_l's and K_l's entries of one row before they are placed). */
    private final double[] yRow;

    private LimbElimination(int nv, int[] trunk, int[][] limbDofs) {
        this.nv = nv;
        this.trunk = trunk;
        this.limbDofs = limbDofs;
        int t = trunk.length;
        limbOf = new int[nv];
        java.util.Arrays.fill(limbOf, -1);
        int limbs = limbDofs.length;
        limbRows = new int[limbs][];
        rowCount = new int[limbs];
        factorA = new double[limbs][];
        factorK = new double[limbs][];
        z = new double[limbs][];
        f = new double[limbs][];
        int widest = 0;
        limbColumns = java.util.Arrays.stream(limbDofs).flatMapToInt(java.util.Arrays::stream).toArray();
        for (int l = 0; l < limbs; l++) {
            int n = limbDofs[l].length;
            for (int d : limbDofs[l]) {
                limbOf[d] = l;
            }
            limbRows[l] = new int[n];
            factorA[l] = new double[n * n];
            factorK[l] = new double[n * n];
            z[l] = new double[n * (t + n + 1)];
            f[l] = new double[n * (t + 1)];
            widest = Math.max(widest, n);
        }
        trunkMatrix = new double[t * t];
        trunkRhs = new double[t];
        yWork = new double[widest];
        yRow = new double[t + 2 * widest + 1];
        xWork = new double[widest];
        aWork = new double[nv];
    }

    /**
     * The solver for the dof tree λ ({@code dofParents[i] < i}, -1 at a root), or null when the tree does not split
     * into a trunk and limbs (a serial chain: one block).
     */
    static LimbElimination forTree(int[] dofParents) {
        int nv = dofParents.length;
        int[] children = new int[nv];
        for (int d = 0; d < nv; d++) {
            if (dofParents[d] >= 0) {
                children[dofParents[d]]++;
            }
        }
        // A dof is in the trunk when a branch point lies at or below it: children are numbered after parents, so one
        // sweep from the leaves carries the mark up.
        boolean[] inTrunk = new boolean[nv];
        for (int d = nv - 1; d >= 0; d--) {
            if (children[d] >= 2) {
                inTrunk[d] = true;
            }
            if (inTrunk[d] && dofParents[d] >= 0) {
                inTrunk[dofParents[d]] = true;
            }
        }
        int t = 0;
        for (boolean b : inTrunk) {
            t += b ? 1 : 0;
        }
        int[] trunk = new int[t];
        java.util.List<int[]> limbs = new java.util.ArrayList<>();
        for (int d = 0, k = 0; d < nv; d++) {
            if (inTrunk[d]) {
                trunk[k++] = d;
            } else if (dofParents[d] < 0 || inTrunk[dofParents[d]]) {
                limbs.add(chainFrom(d, dofParents));
            }
        }
        if (limbs.isEmpty() || (t == 0 && limbs.size() < 2)) {
            return null;
        }
        return new LimbElimination(nv, trunk, limbs.toArray(new int[0][]));
    }

    /** The unbranched chain of dofs from d down to its leaf (each next dof the only child of the last). */
    private static int[] chainFrom(int d, int[] dofParents) {
        java.util.List<Integer> chain = new java.util.ArrayList<>();
        chain.add(d);
        for (int c = d + 1; c < dofParents.length; c++) {
            if (dofParents[c] == chain.get(chain.size() - 1)) {
                chain.add(c);
            }
        }
        return chain.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b limb by limb (see the class comment).
     *
     * @param aIsSolution true: {@code a} holds H⁻¹ a (an impulse's v⁻), and the right-hand side is H times it
     * @return the smallest pivot ratio of the limbs' K_l (1 without rows; 0 if a factorisation failed or the answer
     *         is not finite, and then x and y are not valid), or {@link #NOT_APPLICABLE} with x and y untouched
     */
    double solve(DMatrixRMaj h, DMatrixRMaj g, double[] a, boolean aIsSolution, double[] b, double[] x,
            double[] y) {
        if (!assignRows(g)) {
            return NOT_APPLICABLE;
        }
        if (aIsSolution) {
            SaddlePointOps.multiply(h, a, aWork);
            a = aWork;
        }
        double[] hd = h.data;
        double[] gd = g.data;
        int t = trunk.length;
        for (int i = 0; i < t; i++) {
            for (int j = 0; j <= i; j++) {
                trunkMatrix[i * t + j] = hd[trunk[i] * nv + trunk[j]];
            }
            trunkRhs[i] = a[trunk[i]];
        }
        double ratio = 1;
        for (int l = 0; l < limbDofs.length; l++) {
            double limbRatio = eliminate(l, hd, gd, a, b);
            if (!(limbRatio > 0)) {
                return 0;
            }
            ratio = Math.min(ratio, limbRatio);
        }
        if (t > 0) {
            if (SmallSpd.factor(trunkMatrix, t, false, 0) >= 0) {
                return 0;
            }
            SmallSpd.solve(trunkMatrix, t, false, trunkRhs, trunkRhs);
            for (int i = 0; i < t; i++) {
                x[trunk[i]] = trunkRhs[i];
            }
        }
        for (int l = 0; l < limbDofs.length; l++) {
            backSubstitute(l, x, y);
        }
        return SaddlePointOps.finite(x, nv) && SaddlePointOps.finite(y, g.numRows) ? ratio : 0;
    }

    /**
     * Each row to the one limb its non-zero entries outside the trunk lie on; false if a row has none there, or
     * entries on two limbs, or a limb gets more rows than dofs.
     */
    private boolean assignRows(DMatrixRMaj g) {
        java.util.Arrays.fill(rowCount, 0);
        double[] gd = g.data;
        int[] cols = limbColumns;
        for (int r = 0; r < g.numRows; r++) {
            int limb = -1;
            int o = r * nv;
            for (int p = 0; p < cols.length; p++) {
                int c = cols[p];
                if (gd[o + c] != 0) {
                    int l = limbOf[c];
                    if (limb >= 0 && l != limb) {
                        return false;
                    }
                    limb = l;
                }
            }
            if (limb < 0 || rowCount[limb] == limbDofs[limb].length) {
                return false;
            }
            limbRows[limb][rowCount[limb]++] = r;
        }
        return true;
    }

    /**
     * Limb l's part (the class comment's equations): Z, the trunk's updates, and with rows K_l's factor and [F | h].
     * Returns K_l's pivot ratio (1 without rows), or 0 if H_ll or K_l is not positive definite.
     */
    private double eliminate(int l, double[] hd, double[] gd, double[] a, double[] b) {
        int[] dofs = limbDofs[l];
        int n = dofs.length;
        int m = rowCount[l];
        int[] rows = limbRows[l];
        int t = trunk.length;
        int stride = t + n + 1;
        int zj = t + 1;
        double[] lA = factorA[l];
        double[] zl = z[l];
        for (int i = 0; i < n; i++) {
            int hi = dofs[i] * nv;
            for (int j = 0; j <= i; j++) {
                lA[i * n + j] = hd[hi + dofs[j]];
            }
            int zi = i * stride;
            for (int j = 0; j < t; j++) {
                zl[zi + j] = hd[hi + trunk[j]];
            }
            zl[zi + t] = a[dofs[i]];
            for (int k = 0; k < m; k++) {
                zl[zi + zj + k] = gd[rows[k] * nv + dofs[i]];
            }
        }
        if (SmallSpd.factor(lA, n, false, 0) >= 0) {
            return 0;
        }
        int width = zj + m;
        forwardSubstitute(lA, n, zl, stride, width);
        for (int p = 0; p < n; p++) {
            rankOne(zl, p * stride, -1.0);
        }
        if (m == 0) {
            return 1;
        }
        double[] lK = factorK[l];
        double[] fl = f[l];
        double[] yk = yRow;
        int fs = t + 1;
        double maxDiagonal = 0;
        for (int k = 0; k < m; k++) {
            java.util.Arrays.fill(yk, 0, width, 0.0);
            for (int p = 0; p < n; p++) {
                int zp = p * stride;
                double c = zl[zp + zj + k];
                for (int j = 0; j < width; j++) {
                    yk[j] += c * zl[zp + j];
                }
            }
            int gk = rows[k] * nv;
            int fk = k * fs;
            for (int j = 0; j < t; j++) {
                fl[fk + j] = gd[gk + trunk[j]] - yk[j];
            }
            fl[fk + t] = b[rows[k]] - yk[t];
            for (int j = 0; j <= k; j++) {
                lK[k * m + j] = yk[zj + j];
            }
            maxDiagonal = Math.max(maxDiagonal, yk[zj + k]);
        }
        if (SmallSpd.factor(lK, m, false, 0) >= 0) {
            return 0;
        }
        double ratio = SmallSpd.pivotRatio(lK, m, false, maxDiagonal);
        forwardSubstitute(lK, m, fl, fs, fs);
        for (int k = 0; k < m; k++) {
            rankOne(fl, k * fs, 1.0);
        }
        return ratio;
    }

    /**
     * The trunk's matrix (lower triangle) and right-hand side gain sign · w wᵀ and sign · w s for the row
     * [w | s] = {@code w[o .. o + t]}. Written out for a trunk of 6 dofs (a floating base above its limbs, the common
     * case): solo12 on 12 rows added in code, this solve 1,888-2,015 ns with the loops, 1,670-1,734 ns with the
     * six written out (plain loops, one JVM each, alternated).
     */
    private void rankOne(double[] w, int o, double sign) {
        int t = trunk.length;
        double s = w[o + t];
        double[] mt = trunkMatrix;
        double[] rt = trunkRhs;
        if (t == 6) {
            double w0 = w[o], w1 = w[o + 1], w2 = w[o + 2], w3 = w[o + 3], w4 = w[o + 4], w5 = w[o + 5];
            double v0 = sign * w0, v1 = sign * w1, v2 = sign * w2, v3 = sign * w3, v4 = sign * w4, v5 = sign * w5;
            mt[0] += v0 * w0;
            mt[6] += v1 * w0; mt[7] += v1 * w1;
            mt[12] += v2 * w0; mt[13] += v2 * w1; mt[14] += v2 * w2;
            mt[18] += v3 * w0; mt[19] += v3 * w1; mt[20] += v3 * w2; mt[21] += v3 * w3;
            mt[24] += v4 * w0; mt[25] += v4 * w1; mt[26] += v4 * w2; mt[27] += v4 * w3; mt[28] += v4 * w4;
            mt[30] += v5 * w0; mt[31] += v5 * w1; mt[32] += v5 * w2; mt[33] += v5 * w3; mt[34] += v5 * w4; mt[35] += v5 * w5;
            rt[0] += v0 * s; rt[1] += v1 * s; rt[2] += v2 * s; rt[3] += v3 * s; rt[4] += v4 * s; rt[5] += v5 * s;
            return;
        }
        for (int i = 0; i < t; i++) {
            double vi = sign * w[o + i];
            int ri = i * t;
            for (int j = 0; j <= i; j++) {
                mt[ri + j] += vi * w[o + j];
            }
            rt[i] += vi * s;
        }
    }

    /** y_l = L_K⁻ᵀ (F x_T - h) and x_l = L⁻ᵀ (z_a - Z_B x_T - Z_J y_l), with x_T already in x. */
    private void backSubstitute(int l, double[] x, double[] y) {
        int[] dofs = limbDofs[l];
        int n = dofs.length;
        int m = rowCount[l];
        int[] rows = limbRows[l];
        int t = trunk.length;
        int fs = t + 1;
        double[] fl = f[l];
        double[] u = yWork;
        for (int k = 0; k < m; k++) {
            double s = -fl[k * fs + t];
            for (int j = 0; j < t; j++) {
                s += fl[k * fs + j] * trunkRhs[j];
            }
            u[k] = s;
        }
        backSubstitute(factorK[l], m, u);
        for (int k = 0; k < m; k++) {
            y[rows[k]] = u[k];
        }
        double[] zl = z[l];
        int stride = t + n + 1;
        double[] w = xWork;
        for (int i = 0; i < n; i++) {
            int zi = i * stride;
            double s = zl[zi + t];
            for (int j = 0; j < t; j++) {
                s -= zl[zi + j] * trunkRhs[j];
            }
            for (int k = 0; k < m; k++) {
                s -= zl[zi + t + 1 + k] * u[k];
            }
            w[i] = s;
        }
        backSubstitute(factorA[l], n, w);
        for (int i = 0; i < n; i++) {
            x[dofs[i]] = w[i];
        }
    }

    /** X ← L⁻¹ X in place for a Cholesky factor L (n x n) and X of n rows of the given stride, the first width columns. */
    private static void forwardSubstitute(double[] lf, int n, double[] xs, int stride, int width) {
        for (int i = 0; i < n; i++) {
            int ri = i * stride;
            for (int p = 0; p < i; p++) {
                double lip = lf[i * n + p];
                int rp = p * stride;
                for (int j = 0; j < width; j++) {
                    xs[ri + j] -= lip * xs[rp + j];
                }
            }
            double inv = 1 / lf[i * n + i];
            for (int j = 0; j < width; j++) {
                xs[ri + j] *= inv;
            }
        }
    }

    /** v ← L⁻ᵀ v in place (the first n entries). */
    private static void backSubstitute(double[] lf, int n, double[] v) {
        for (int i = n - 1; i >= 0; i--) {
            double s = v[i];
            for (int p = i + 1; p < n; p++) {
                s -= lf[p * n + i] * v[p];
            }
            v[i] = s / lf[i * n + i];
        }
    }
}
