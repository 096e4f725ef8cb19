package org.symdyn.solvers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ejml.data.DMatrixRMaj;

/**
 * The saddle-point system H x + Gᵀ y = a, G x = b solved limb by limb, for rows that each sit on one limb of a
 * trunk: the runtime's counterpart, on H and G, of a generated class's limb-eliminated dynamics
 * ({@link org.symdyn.contract.LimbConstrainedDynamics}), for rows the class does not know (added in code).
 *
 * <p><b>Trunk and limbs</b> (from the dof tree λ alone, at construction): the trunk T holds every dof with a branch
 * point of the tree at or below it (a floating base above its legs, a torso above its arms); each limb l is an
 * unbranched chain of dofs hanging from the trunk or from the world. Two limbs never share an entry of a tree-sparse
 * H (neither holds the other's ancestors), so H is block-arrowhead: A_l = H_ll per limb, B_l = H_lT to the trunk,
 * H_TT. The solve applies when every row's non-zero entries outside the trunk lie on one limb l (its J_l = G_l,D_l;
 * J_T = G_l,T), no limb carries more rows than it has dofs, and the tree splits into at least two blocks (a trunk and
 * a limb, or two limbs): a row that reaches only the trunk, or two limbs (a loop closed between legs), and a serial
 * chain are left to {@link SchurComplementMethod}.
 *
 * <p><b>Equations.</b> Per limb, with A_l = L Lᵀ (Cholesky, n_l x n_l) and [Z_B | z_a | Z_J] = L⁻¹ [B_l | a_l | J_lᵀ]:
 * <pre>
 *   x_l = A_l⁻¹ (a_l - B_l x_T - J_lᵀ y_l)                                       (the limb's rows of H x + Gᵀ y = a)
 *   K_l y_l = E_l x_T - g_l,  K_l = J_l A_l⁻¹ J_lᵀ = Z_Jᵀ Z_J,                  (its rows of G x = b)
 *              E_l = J_T - J_l A_l⁻¹ B_l = J_T - Z_Jᵀ Z_B,  g_l = b_l - Z_Jᵀ z_a
 *   (M₀ + Σ E_lᵀ K_l⁻¹ E_l) x_T = a_T - Σ Z_Bᵀ z_a + Σ E_lᵀ K_l⁻¹ g_l,  M₀ = H_TT - Σ Z_Bᵀ Z_B   (the trunk's rows)
 * </pre>
 * The trunk's matrix is the Schur complement of the whole system onto the trunk, positive definite when H is; with
 * K_l = L_K L_Kᵀ, its terms are Fᵀ F and Fᵀ h for F = L_K⁻¹ E_l, h = L_K⁻¹ g_l (symmetric by construction), and after
 * x_T: y_l = L_K⁻ᵀ (F x_T - h), x_l = L⁻ᵀ (z_a - Z_B x_T - Z_J y_l). Nothing of size m x m or nv x nv is formed:
 * each limb costs O(n_l² (t + m_l)) and the trunk O(t³ + m t²). An impulse (a = H x₀ for a known x₀) is solved for
 * Δx = x - x₀ (a = 0, b - G x₀), so that x₀ is neither multiplied by H nor recovered from it.
 *
 * <p><b>Conditioning.</b> The whole G H⁻¹ Gᵀ is blockdiag(K_l) + E M₀⁻¹ Eᵀ. Each row r of limb l is solved against
 * its limb's pivot d_r (of K_l's Cholesky, L_K,rr²), which may be far smaller than the row's own diagonal entry of
 * G H⁻¹ Gᵀ, K_l,rr + ‖L_M₀⁻¹ e_r‖² (e_r its row of E_l): a row that barely moves its limb (a normal along a straight
 * leg) but moves the trunk, or rows dependent with another limb's through the trunk. {@link #solve} returns the
 * smallest ratio 1 / ((K_l⁻¹)_rr (K_l,rr + ‖L_M₀⁻¹ e_r‖²)) over all rows: row r's pivot were it eliminated last, at
 * most d_r, over its whole entry (invariant under scaling the rows or the dofs, 1 for a row that moves nothing but
 * its limb, and small for an ill-conditioned K_l in any order of its rows), and its caller takes the answer only
 * above {@link #ACCEPT_RATIO}, with
 * every pivot also above the Schur path's rank floor times G H⁻¹ Gᵀ's largest diagonal entry (a row of roundoff
 * alone has ratio 1). G has full row rank if every J_l has (G is block triangular in the limbs' columns); where a
 * ratio is small, or the rows do not have the structure, the caller solves by the Schur complement and its
 * rank-revealing fall-back, which name dependent rows.
 *
 * <p>Why it exists: solo12 standing on 12 contact rows added in code (a generated class, so H, C and the rows cost
 * about 1.2 µs), the Schur complement's solve took 2.4 µs of the 4.2 µs. Through this one the whole constrained
 * forward dynamics takes 3.7-3.8 µs, the impulses 2.7-2.9 against 3.9-4.1 µs, the interpreter's 5.9-6.2 against
 * 6.7-6.8 µs (JMH, alternated; benchmarks/README.md, "Rows added in code solved limb by limb").
 * Workspaces are allocated by the constructor; solving does not allocate. Not thread-safe.
 */
final class LimbElimination {
    /**
     * {@link ConstrainedSystemSolver} takes the answer when {@link #solve}'s ratio is above this. The error grows as
     * ε / ratio: against the dense KKT system refined exactly, at most 5.5e-15 / ratio relative over 999 random
     * states of five robots with one row per limb and with as many as its dofs (LimbEliminationTest). Rows built to
     * be ill-ordered (six Kahan-like rows on a 6-dof limb, every Cholesky pivot 0.1 of its diagonal entry, K_l's
     * scaled condition number 4e5) were solved 1.8e-11 off while each pivot over its row's entry read 0.069: the
     * ratio is therefore each row's pivot were it eliminated last, 1 / (K_l⁻¹)_rr, over its entry, which bounds
     * the condition number of K_l scaled to a unit diagonal by m² / ratio (below 1e-5 for those rows, declined).
     * 0.05 keeps a taken answer within 1e-12; solo12 standing has 0.62.
     */
    static final double ACCEPT_RATIO = 0.05;

    /** {@link #solve}'s answer when the rows or the tree do not have the structure (x and y untouched). */
    static final double NOT_APPLICABLE = -1;

    private final int nv;
    private final int[] trunk;
    private final int[][] limbDofs;
    /** The limb of each dof, -1 for the trunk. */
    private final int[] limbOf;
    /** Every limb's dofs (the columns a row is assigned by). */
    private final int[] limbColumns;
    /** Per limb: the rows of the last solve, then their count. */
    private final int[][] limbRows;
    private final int[] rowCount;
    /** Per limb: the Cholesky factor of A_l (n x n), and K_l then its factor (m x m, stride m). */
    private final double[][] factorA;
    private final double[][] factorK;
    /**
     * Per limb: Z = L⁻¹ [B_l | a_l | J_lᵀ], n rows of stride t + n + 1: Z_B and z_a side by side, so that a row of
     * them is one rank-one update of the trunk's matrix and right-hand side ({@link #rankOne}), and Z_Jᵀ times a row
     * of Z gives a row of E_l, g_l and K_l at once.
     */
    private final double[][] z;
    /** Per limb: [E_l | g_l], then [F | h] = L_K⁻¹ [E_l | g_l], m rows of stride t + 1. */
    private final double[][] f;
    /** Per limb: each row's diagonal entry of G H⁻¹ Gᵀ, K_l,rr + ‖L_M₀⁻¹ e_r‖². */
    private final double[][] rowScale;
    /** The trunk's matrix (t x t, lower triangle, then its factor) and right-hand side (then x_T). */
    private final double[] trunkMatrix;
    private final double[] trunkRhs;
    /** M₀'s factor, and L_M₀⁻¹ Eᵀ for all rows (t x m). */
    private final double[] trunkFactor0;
    private final double[] coupling;
    /** A row of Z_Jᵀ Z (E_l's, g_l's and K_l's entries of one row before they are placed). */
    private final double[] yRow;
    /** y_l's and x_l's work vectors in the back substitution. */
    private final double[] yWork;
    private final double[] xWork;
    /** L_K⁻¹ e_k in {@link #inverseDiagonal}. */
    private final double[] inverseColumn;
    /** An impulse's a (zeros) and b - G x₀. */
    private final double[] zeros;
    private final double[] bShift;

    private LimbElimination(int nv, int[] trunk, int[][] limbDofs, int maxRows) {
        this.nv = nv;
        this.trunk = trunk;
        this.limbDofs = limbDofs;
        int t = trunk.length;
        limbOf = new int[nv];
        Arrays.fill(limbOf, -1);
        limbColumns = Arrays.stream(limbDofs).flatMapToInt(Arrays::stream).toArray();
        int limbs = limbDofs.length;
        limbRows = new int[limbs][];
        rowCount = new int[limbs];
        factorA = new double[limbs][];
        factorK = new double[limbs][];
        z = new double[limbs][];
        f = new double[limbs][];
        rowScale = new double[limbs][];
        int widest = 0;
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
            rowScale[l] = new double[n];
            widest = Math.max(widest, n);
        }
        trunkMatrix = new double[t * t];
        trunkRhs = new double[t];
        trunkFactor0 = new double[t * t];
        coupling = new double[t * Math.max(1, maxRows)];
        yRow = new double[t + widest + 1];
        yWork = new double[widest];
        xWork = new double[widest];
        inverseColumn = new double[widest];
        zeros = new double[nv];
        bShift = new double[Math.max(1, maxRows)];
    }

    /**
     * The solver for the dof tree λ ({@code dofParents[i] < i}, -1 at a root) and up to {@code maxRows} rows, or null
     * when the tree does not split into a trunk and limbs (a serial chain: one block).
     */
    static LimbElimination forTree(int[] dofParents, int maxRows) {
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
        List<int[]> limbs = new ArrayList<>();
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
        return new LimbElimination(nv, trunk, limbs.toArray(new int[0][]), maxRows);
    }

    /** The unbranched chain of dofs from d down to its leaf (each next dof the only child of the last). */
    private static int[] chainFrom(int d, int[] dofParents) {
        List<Integer> chain = new ArrayList<>();
        chain.add(d);
        for (int c = d + 1; c < dofParents.length; c++) {
            if (dofParents[c] == chain.get(chain.size() - 1)) {
                chain.add(c);
            }
        }
        return chain.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The trunk's dofs (a copy). */
    int[] trunkDofs() {
        return trunk.clone();
    }

    /** Each limb's dofs, root first (copies). */
    int[][] limbs() {
        int[][] out = new int[limbDofs.length][];
        for (int l = 0; l < out.length; l++) {
            out[l] = limbDofs[l].clone();
        }
        return out;
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b limb by limb (see the class comment); H is read in its lower triangle and must be
     * tree-sparse (zero between limbs).
     *
     * @param aIsSolution true: {@code a} holds x₀ = H⁻¹ a (an impulse's v⁻), and Δx = x - x₀ is solved for
     * @param pivotFloor  every pivot d_r must also exceed this times the largest diagonal entry of G H⁻¹ Gᵀ (the
     *                    Schur path's rank test: the ratio above is blind to a row that is all roundoff)
     * @return the smallest ratio of a row's pivot were it eliminated last to its diagonal entry of G H⁻¹ Gᵀ (1
     *         without rows; 0 if a factorisation failed, a pivot is under the floor or the answer is not finite, and
     *         then x and y are not valid), or {@link #NOT_APPLICABLE} with x and y untouched (also for an H whose
     *         diagonal is not finite, which a Cholesky factor would pass with an infinite pivot)
     */
    double solve(DMatrixRMaj h, DMatrixRMaj g, double[] a, boolean aIsSolution, double[] b, double[] x,
            double[] y, double pivotFloor) {
        for (int i = 0; i < nv; i++) {
            if (!Double.isFinite(h.data[i * nv + i])) {
                return NOT_APPLICABLE;
            }
        }
        if (!assignRows(g)) {
            return NOT_APPLICABLE;
        }
        double[] x0 = null;
        if (aIsSolution) {
            x0 = a;
            SaddlePointOps.subtractProduct(g, b, x0, bShift);
            a = zeros;
            b = bShift;
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
        for (int l = 0; l < limbDofs.length; l++) {
            if (!eliminate(l, hd, gd, a, b)) {
                return 0;
            }
        }
        if (t > 0 && !couplings(g.numRows)) {
            return 0;
        }
        for (int l = 0; l < limbDofs.length; l++) {
            if (!addRows(l)) {
                return 0;
            }
        }
        double ratio = rowRatio(pivotFloor);
        if (!(ratio > 0)) {
            return 0;
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
        if (x0 != null) {
            for (int i = 0; i < nv; i++) {
                x[i] += x0[i];
            }
        }
        return SaddlePointOps.finite(x, nv) && SaddlePointOps.finite(y, g.numRows) ? ratio : 0;
    }

    /**
     * Each row to the one limb its non-zero entries outside the trunk lie on; false if a row has none there, or
     * entries on two limbs, or a limb gets more rows than dofs.
     */
    private boolean assignRows(DMatrixRMaj g) {
        Arrays.fill(rowCount, 0);
        double[] gd = g.data;
        int[] cols = limbColumns;
        for (int r = 0; r < g.numRows; r++) {
            int limb = -1;
            int o = r * nv;
            for (int c : cols) {
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
     * Limb l's first part (the class comment's equations): A_l's factor, Z, M₀'s and the right-hand side's terms, and
     * with rows K_l (lower triangle) and [E_l | g_l]. False if A_l is not positive definite.
     */
    private boolean eliminate(int l, double[] hd, double[] gd, double[] a, double[] b) {
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
            return false;
        }
        int width = zj + m;
        SmallSpd.forwardRows(lA, n, zl, stride, width);
        for (int p = 0; p < n; p++) {
            rankOne(zl, p * stride, -1.0);
        }
        double[] kl = factorK[l];
        double[] fl = f[l];
        double[] yk = yRow;
        int fs = t + 1;
        for (int k = 0; k < m; k++) {
            double c0 = zl[zj + k];
            for (int j = 0; j < width; j++) {
                yk[j] = c0 * zl[j];
            }
            for (int p = 1; p < n; p++) {
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
                kl[k * m + j] = yk[zj + j];
            }
        }
        return true;
    }

    /**
     * ‖L_M₀⁻¹ e_r‖² for every row r of every limb into {@link #rowScale} (its K_l,rr added later): all rows' E at once
     * as the columns of a t x m matrix, so that the substitution runs along rows of m entries (one substitution per
     * row was 2.06-2.11 µs for the whole solve of solo12's 12 rows against 1.87-1.91 µs without the check). False if
     * M₀ is not positive definite.
     */
    private boolean couplings(int m) {
        int t = trunk.length;
        System.arraycopy(trunkMatrix, 0, trunkFactor0, 0, t * t);
        if (SmallSpd.factor(trunkFactor0, t, false, 0) >= 0) {
            return false;
        }
        int fs = t + 1;
        for (int l = 0, col = 0; l < limbDofs.length; l++) {
            double[] fl = f[l];
            for (int k = 0; k < rowCount[l]; k++, col++) {
                for (int j = 0; j < t; j++) {
                    coupling[j * m + col] = fl[k * fs + j];
                }
            }
        }
        SmallSpd.forwardRows(trunkFactor0, t, coupling, m, m);
        for (int l = 0, col = 0; l < limbDofs.length; l++) {
            double[] scale = rowScale[l];
            for (int k = 0; k < rowCount[l]; k++, col++) {
                double s = 0;
                for (int j = 0; j < t; j++) {
                    double w = coupling[j * m + col];
                    s += w * w;
                }
                scale[k] = s;
            }
        }
        return true;
    }

    /**
     * Limb l's rows, once M₀ is factorised: each row's diagonal entry of G H⁻¹ Gᵀ, K_l's factor, [F | h] and the
     * trunk's Fᵀ F and Fᵀ h. False if K_l is not positive definite.
     */
    private boolean addRows(int l) {
        int m = rowCount[l];
        if (m == 0) {
            return true;
        }
        int t = trunk.length;
        int fs = t + 1;
        double[] kl = factorK[l];
        double[] fl = f[l];
        double[] scale = rowScale[l];
        for (int k = 0; k < m; k++) {
            scale[k] = kl[k * m + k] + (t > 0 ? scale[k] : 0);
        }
        if (SmallSpd.factor(kl, m, false, 0) >= 0) {
            return false;
        }
        SmallSpd.forwardRows(kl, m, fl, fs, fs);
        for (int k = 0; k < m; k++) {
            rankOne(fl, k * fs, 1.0);
        }
        return true;
    }

    /**
     * The smallest ratio over every row of its pivot were it eliminated last, 1 / (K_l⁻¹)_rr (at most its Cholesky
     * pivot d_r = L_K,rr²), to its diagonal entry of G H⁻¹ Gᵀ (1 without rows), or 0 if the smallest pivot d_r is at
     * or below {@code pivotFloor} times the largest such entry.
     */
    private double rowRatio(double pivotFloor) {
        double ratio = 1;
        double smallestPivot = Double.POSITIVE_INFINITY;
        double largestScale = 0;
        for (int l = 0; l < limbDofs.length; l++) {
            int m = rowCount[l];
            double[] kl = factorK[l];
            double[] scale = rowScale[l];
            for (int k = 0; k < m; k++) {
                double pivot = kl[k * m + k] * kl[k * m + k];
                ratio = Math.min(ratio, 1 / (inverseDiagonal(kl, m, k) * scale[k]));
                smallestPivot = Math.min(smallestPivot, pivot);
                largestScale = Math.max(largestScale, scale[k]);
            }
        }
        return smallestPivot > pivotFloor * largestScale || largestScale == 0 ? ratio : 0;
    }

    /**
     * (K⁻¹)_kk = ‖L⁻¹ e_k‖² for K = L Lᵀ, L the Cholesky factor in {@code f} (m x m, lower): 1 / (K⁻¹)_kk is row k's
     * pivot were it eliminated last, at most its pivot L_kk² in this order, and small whenever K is ill-conditioned,
     * which L_kk² alone is not for rows ordered badly (see {@link #ACCEPT_RATIO}).
     */
    private double inverseDiagonal(double[] f, int m, int k) {
        double[] x = inverseColumn;
        double sum = 0;
        for (int i = k; i < m; i++) {
            double s = i == k ? 1 : 0;
            for (int j = k; j < i; j++) {
                s -= f[i * m + j] * x[j];
            }
            x[i] = s / f[i * m + i];
            sum += x[i] * x[i];
        }
        return sum;
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
            double w0 = w[o];
            double w1 = w[o + 1];
            double w2 = w[o + 2];
            double w3 = w[o + 3];
            double w4 = w[o + 4];
            double w5 = w[o + 5];
            double v0 = sign * w0;
            double v1 = sign * w1;
            double v2 = sign * w2;
            double v3 = sign * w3;
            double v4 = sign * w4;
            double v5 = sign * w5;
            mt[0] += v0 * w0;
            mt[6] += v1 * w0;
            mt[7] += v1 * w1;
            mt[12] += v2 * w0;
            mt[13] += v2 * w1;
            mt[14] += v2 * w2;
            mt[18] += v3 * w0;
            mt[19] += v3 * w1;
            mt[20] += v3 * w2;
            mt[21] += v3 * w3;
            mt[24] += v4 * w0;
            mt[25] += v4 * w1;
            mt[26] += v4 * w2;
            mt[27] += v4 * w3;
            mt[28] += v4 * w4;
            mt[30] += v5 * w0;
            mt[31] += v5 * w1;
            mt[32] += v5 * w2;
            mt[33] += v5 * w3;
            mt[34] += v5 * w4;
            mt[35] += v5 * w5;
            rt[0] += v0 * s;
            rt[1] += v1 * s;
            rt[2] += v2 * s;
            rt[3] += v3 * s;
            rt[4] += v4 * s;
            rt[5] += v5 * s;
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

    /** y_l = L_K⁻ᵀ (F x_T - h) and x_l = L⁻ᵀ (z_a - Z_B x_T - Z_J y_l), with x_T in {@link #trunkRhs}. */
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
        SmallSpd.backwardCholesky(factorK[l], m, u);
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
        SmallSpd.backwardCholesky(factorA[l], n, w);
        for (int i = 0; i < n; i++) {
            x[dofs[i]] = w[i];
        }
    }
}
