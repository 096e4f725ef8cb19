package org.symdyn.dynamics;

import org.ejml.data.DMatrixRMaj;

/**
 * Featherstone's sparse LᵀL factorisation of a joint-space inertia matrix (RBDA §6.5): H = Lᵀ L with L lower
 * triangular and L_ij ≠ 0 only when j is i or an ancestor of i in the dof tree λ. Because H_ij = 0 unless i and j
 * lie on one branch, the factorisation fills nothing in, and it and the solves cost O(n d²) and O(n d) for tree
 * depth d instead of O(n³) and O(n²).
 *
 * <p>The dof tree λ is {@link org.symdyn.contract.DofTree}. Allocation happens in the constructor, and in a row
 * sweep ({@link #solveRows}, {@link #solveSquareBlocks}) wider than the row workspace already has (none if the
 * constructor reserved it wide enough). Not thread-safe.
 */
public final class RangeSpaceFactorization {
    private final int n;
    private final int[] lambda;
    /** Row k of L off the diagonal, compact: L[k][anc[p]] = lc[p] for p in [rowStart[k], rowStart[k + 1]). */
    private final int[] rowStart;
    /** The ancestors of each dof, nearest first (λ(k), λ(λ(k)), ...), rows one after the other. */
    private final int[] anc;
    private final double[] lc;
    /** L_kk. */
    private final double[] diag;
    /** 1 / L_kk: the sweeps multiply (a division's latency on every step of a sweep's dependency chain). */
    private final double[] invDiag;
    /**
     * The dofs that have each dof among their ancestors, with the position of that entry in their row of L: for
     * p in [descStart[k], descStart[k + 1]), L[descRow[p]][k] = lc[descPos[p]]. The row sweeps' leaf-to-root pass
     * gathers into row k from these rows (see {@link #sweepRows}).
     */
    private final int[] descStart;
    private final int[] descRow;
    private final int[] descPos;
    /**
     * p itself for every entry of {@link #lc}: the positions of row k's ancestors' entries, so that the root-to-leaf
     * pass gathers through the same (rows, positions) lists as the leaf-to-root one ({@link #gatherRow}).
     */
    private final int[] ancPos;
    /** One past the largest dof of each dof's subtree (k itself included). */
    private final int[] subtreeEnd;
    /** {@link #inverse} by the row sweeps: one tree of {@link #SWEPT_INVERSE_DOFS} dofs or more. */
    private final boolean sweptInverse;
    /** The row sweeps' copy of the rows, each from index 0 (reserved by the constructor or widened by a sweep). */
    private double[][] rows;

    /**
     * For the dof parent array λ (λ(i) &lt; i, -1 for a root dof).
     *
     * <p>Storage: each row of L along its ancestor list, contiguous, with the ancestors' indices precomputed, so
     * that the loops read arrays in order instead of chasing λ from dof to dof (each step a dependent load), and
     * 1 / L_kk kept so that the sweeps multiply instead of dividing on their dependency chains. Measured on solo12
     * (18 dofs, depth 9; the factorisation, two dense sweeps and the 12 sparse sweeps of a 12-row contact solve;
     * interleaved A/B rounds in one JVM, medians): n x n storage chasing λ 1801-1874 ns, this 1424-1508 ns
     * (ratio 0.79-0.81); the reciprocals alone 0.94-0.96 of dividing.
     */
    public RangeSpaceFactorization(int[] dofParents) {
        this(dofParents, 0);
    }

    /**
     * For the dof parent array λ, with the row workspace of the row sweeps ({@link #solveRows},
     * {@link #solveSquareBlocks}) allocated now for up to {@code rowColumns} columns, so that no sweep that wide
     * allocates later; at least n columns for a tree that {@link #inverse} sweeps ({@link #SWEPT_INVERSE_DOFS}).
     */
    public RangeSpaceFactorization(int[] dofParents, int rowColumns) {
        n = dofParents.length;
        lambda = dofParents.clone();
        int total = 0;
        for (int i = 0; i < n; i++) {
            if (lambda[i] >= i || lambda[i] < -1) {
                throw new IllegalArgumentException("dof parent array must satisfy -1 <= λ(i) < i, λ(" + i + ") = "
                        + lambda[i]);
            }
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                total++;
            }
        }
        rowStart = new int[n + 1];
        anc = new int[total];
        int o = 0;
        for (int i = 0; i < n; i++) {
            rowStart[i] = o;
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                anc[o++] = j;
            }
        }
        rowStart[n] = o;
        lc = new double[total];
        diag = new double[n];
        invDiag = new double[n];
        descStart = new int[n + 1];
        for (int p = 0; p < total; p++) {
            descStart[anc[p] + 1]++;
        }
        for (int k = 0; k < n; k++) {
            descStart[k + 1] += descStart[k];
        }
        descRow = new int[total];
        descPos = new int[total];
        ancPos = new int[total];
        for (int p = 0; p < total; p++) {
            ancPos[p] = p;
        }
        int[] filled = new int[n];
        for (int j = 0; j < n; j++) {
            for (int p = rowStart[j]; p < rowStart[j + 1]; p++) {
                int e = descStart[anc[p]] + filled[anc[p]]++;
                descRow[e] = j;
                descPos[e] = p;
            }
        }
        subtreeEnd = new int[n];
        for (int k = n - 1; k >= 0; k--) {
            subtreeEnd[k] = Math.max(subtreeEnd[k], k + 1);
            if (lambda[k] >= 0) {
                subtreeEnd[lambda[k]] = Math.max(subtreeEnd[lambda[k]], subtreeEnd[k]);
            }
        }
        int roots = 0;
        for (int i = 0; i < n; i++) {
            roots += lambda[i] < 0 ? 1 : 0;
        }
        sweptInverse = n >= SWEPT_INVERSE_DOFS && roots == 1;
        int columns = Math.max(rowColumns, sweptInverse ? n : 0);
        if (columns > 0) {
            rows = new double[n][columns];
        }
    }

    /** Size n. */
    public int size() {
        return n;
    }

    /**
     * Factorises H (n x n, symmetric positive definite, tree-sparse; its lower triangle is read).
     *
     * @throws ArithmeticException if a pivot is not positive (H is not positive definite)
     */
    public void factor(DMatrixRMaj h) {
        int k = tryFactor(h);
        if (k >= 0) {
            throw new ArithmeticException("H is not positive definite (LTL pivot " + diag[k] + " at dof " + k + ")");
        }
    }

    /**
     * Factorises H like {@link #factor} without throwing when it is not positive definite.
     *
     * @return -1 on success, else the dof whose pivot was not positive (the factor is then invalid)
     */
    public int tryFactor(DMatrixRMaj h) {
        if (h.numRows != n || h.numCols != n) {
            throw new IllegalArgumentException("H must be " + n + "x" + n);
        }
        double[] hd = h.data;
        for (int k = 0; k < n; k++) {
            diag[k] = hd[k * n + k];
            for (int p = rowStart[k], end = rowStart[k + 1]; p < end; p++) {
                lc[p] = hd[k * n + anc[p]];
            }
        }
        for (int k = n - 1; k >= 0; k--) {
            double d = diag[k];
            if (!(d > 0) || Double.isInfinite(d)) {
                return k;
            }
            d = Math.sqrt(d);
            diag[k] = d;
            double inv = 1 / d;
            invDiag[k] = inv;
            int start = rowStart[k];
            int end = rowStart[k + 1];
            for (int p = start; p < end; p++) {
                lc[p] *= inv;
            }
            // Remove row k's contribution from its ancestors' rows: for the p-th ancestor i, the ancestors of i are
            // row k's entries after p, in the same order, and row i holds them from its start.
            for (int p = start; p < end; p++) {
                int i = anc[p];
                double lki = lc[p];
                diag[i] -= lki * lki;
                int ri = rowStart[i] - (p + 1);
                for (int q = p + 1; q < end; q++) {
                    lc[ri + q] -= lki * lc[q];
                }
            }
        }
        return -1;
    }

    /** L_ij of the last factorisation (0 off the ancestor pattern). */
    public double l(int i, int j) {
        if (j == i) {
            return diag[i];
        }
        for (int p = rowStart[i]; p < rowStart[i + 1]; p++) {
            if (anc[p] == j) {
                return lc[p];
            }
        }
        return 0;
    }

    /** x ← L⁻ᵀ x in place (solves Lᵀ y = x). */
    public void solveLt(double[] x) {
        for (int i = n - 1; i >= 0; i--) {
            double yi = x[i] * invDiag[i];
            x[i] = yi;
            for (int p = rowStart[i], end = rowStart[i + 1]; p < end; p++) {
                x[anc[p]] -= lc[p] * yi;
            }
        }
    }

    /** x ← L⁻¹ x in place (solves L y = x). */
    public void solveL(double[] x) {
        for (int i = 0; i < n; i++) {
            double s = x[i];
            for (int p = rowStart[i], end = rowStart[i + 1]; p < end; p++) {
                s -= lc[p] * x[anc[p]];
            }
            x[i] = s * invDiag[i];
        }
    }

    /**
     * x[o..o+n) ← L⁻ᵀ x[o..o+n) in place, skipping the dofs where the running value is exactly zero (they stay
     * zero and change nothing else), and lists the dofs of the non-zero results. A vector supported on branches of
     * the tree (a row of a constraint Jacobian: a contact on a leg touches only that leg and the base) keeps that
     * support, so this costs O(support x depth) instead of O(n x depth).
     *
     * @param support receives the dofs with a non-zero result at {@code support[so..)}, in decreasing order
     * @return their number
     */
    public int solveLtSparse(double[] x, int o, int[] support, int so) {
        int count = 0;
        for (int i = n - 1; i >= 0; i--) {
            double xi = x[o + i];
            if (xi == 0) {
                continue;
            }
            double yi = xi * invDiag[i];
            x[o + i] = yi;
            support[so + count++] = i;
            for (int p = rowStart[i], end = rowStart[i + 1]; p < end; p++) {
                x[o + anc[p]] -= lc[p] * yi;
            }
        }
        return count;
    }

    /**
     * The sweep of {@link #solveLtSparse} for three vectors at once, each zero off the branch of dof {@code d} (d and
     * its λ-ancestors), as the rows of one body point's contact are: x[o_c..o_c+n) ← L⁻ᵀ x[o_c..o_c+n) for
     * c = 0, 1, 2, visiting only that branch, leaf first, and listing it in {@code support[so..)} (decreasing order).
     * Updates go from a dof to its ancestors only, so entries off the branch stay zero. Where one of the three is
     * zero on the branch, its updates subtract zeros: the same values as three separate sparse sweeps, at the cost
     * of one walk of the branch and its rows of L.
     *
     * @return the branch's length (the support's size)
     */
    public int solveLtBranch3(double[] x, int o0, int o1, int o2, int d, int[] support, int so) {
        int count = 0;
        for (int i = d; i >= 0; i = lambda[i]) {
            support[so + count++] = i;
        }
        solveLtOn3(x, o0, o1, o2, support, so, count); // the same updates in the same order: the same bits
        return count;
    }

    /**
     * x ← L⁻ᵀ x on a given support: {@code support[so..so+len)} lists dofs in decreasing order and holds, with each
     * dof, all its λ-ancestors (an ancestor-closed set, such as the union of two bodies' branches); x is zero off it
     * and stays so. The sweep of {@link #solveLtSparse} without its scan of all n dofs: O(len x depth).
     */
    public void solveLtOn(double[] x, int[] support, int so, int len) {
        for (int e = so, end = so + len; e < end; e++) {
            int i = support[e];
            double yi = x[i] * invDiag[i];
            x[i] = yi;
            for (int p = rowStart[i], stop = rowStart[i + 1]; p < stop; p++) {
                x[anc[p]] -= lc[p] * yi;
            }
        }
    }

    /**
     * {@link #solveLtOn} for three vectors on one support at once (a contact's three rows), each in x at offsets
     * o0, o1, o2 (nv entries each): one walk of the support and of L's rows for the three.
     */
    public void solveLtOn3(double[] x, int o0, int o1, int o2, int[] support, int so, int len) {
        for (int e = so, end = so + len; e < end; e++) {
            int i = support[e];
            double inv = invDiag[i];
            double y0 = x[o0 + i] * inv;
            double y1 = x[o1 + i] * inv;
            double y2 = x[o2 + i] * inv;
            x[o0 + i] = y0;
            x[o1 + i] = y1;
            x[o2 + i] = y2;
            for (int p = rowStart[i], stop = rowStart[i + 1]; p < stop; p++) {
                int a = anc[p];
                double l = lc[p];
                x[o0 + a] -= l * y0;
                x[o1 + a] -= l * y1;
                x[o2 + a] -= l * y2;
            }
        }
    }

    /** The dof parent λ(i) (-1 for a root dof). */
    public int parent(int i) {
        return lambda[i];
    }

    /** y = L x (n entries each; y must not alias x): with H = Lᵀ L, L x = L⁻ᵀ H x. */
    public void multiplyL(double[] x, double[] y) {
        for (int i = 0; i < n; i++) {
            double s = diag[i] * x[i];
            for (int p = rowStart[i], end = rowStart[i + 1]; p < end; p++) {
                s += lc[p] * x[anc[p]];
            }
            y[i] = s;
        }
    }

    /**
     * From this many dofs in one tree, {@link #inverse} sweeps the identity's rows ({@link #sweepRows}) instead of
     * forming U = L⁻¹. A forest keeps U: each row's sweep starts at column 0, so the columns of the trees before its
     * own would cost without use (a pile of free bodies), and its n x n workspace would be reserved for nothing.
     * Measured (plain loops in one JVM, pinned, the two forms alternated, ns per call): romeo_small (37 dofs) 3,550-3,745
     * against 5,262-5,724; hyq (18) 972 against 1,270; solo12 (18) 1,056-1,058 against 1,162-1,181; anymal (18) 1,051
     * against 1,087; but panda (9) 376 against 299, iiwa14 (7) 252-255 against 167-169, kinova (6) 224 against 110.
     */
    static final int SWEPT_INVERSE_DOFS = 16;

    /**
     * out (n x n, row-major) = H⁻¹ = L⁻¹ L⁻ᵀ of the last factorisation, exactly symmetric.
     *
     * <p>For one tree of {@link #SWEPT_INVERSE_DOFS} dofs or more, by the row sweeps of {@link #solveSquareBlocks}
     * on the identity alone (row k over its first subtreeEnd(k) columns; the constructor reserves their workspace,
     * so nothing allocates): the same values, bit for bit, as solveSquareBlocks' inverse; u is then not read or
     * written (it must still have n² entries). Otherwise U = L⁻¹ keeps L's pattern
     * (U_ik ≠ 0 only for k = i or an ancestor of i; from L U = I, U_ik = −U_ii Σ_m L_im U_mk over the ancestors m of
     * i from k down), so (H⁻¹)_ij = Σ_k U_ik U_jk runs over the dofs k that are ancestors of (or equal to) both i and
     * j: for j ≤ i, over j and its ancestors, the terms off i's chain being zeros of U. O(n² d) for tree depth d
     * instead of the O(n³) of a dense factor and inverse (solo12, 18 dofs: ~1,300 multiply-adds against ~3,000;
     * measured there, one JVM, 10⁶ calls, before solo12 took the sweeps: ~1.0 µs, and the same sums as outer
     * products of U's columns over each dof's subtree, fewer and contiguous multiply-adds, ~1.25 µs).
     *
     * @param u n x n workspace holding U on return (row-major) where U is formed; its entries off the pattern must
     *          be zero (they stay so: a new array serves every call)
     */
    public void inverse(double[] out, double[] u) {
        if (out.length < n * n || u.length < n * n) {
            throw new IllegalArgumentException("inverse needs n x n = " + n * n + " entries in out and u");
        }
        if (sweptInverse) {
            invertBySweeps(out);
            return;
        }
        for (int i = 0; i < n; i++) {
            int start = rowStart[i];
            int end = rowStart[i + 1];
            double inv = invDiag[i];
            int oi = i * n;
            u[oi + i] = inv;
            // ancestors nearest first: those from the row's start to k's entry are k and its descendants on i's chain
            for (int t = start; t < end; t++) {
                int k = anc[t];
                double x = 0;
                for (int q = start; q <= t; q++) {
                    x += lc[q] * u[anc[q] * n + k];
                }
                u[oi + k] = -inv * x;
            }
        }
        for (int i = 0; i < n; i++) {
            int oi = i * n;
            for (int j = 0; j <= i; j++) {
                int oj = j * n;
                double x = u[oi + j] * u[oj + j];
                for (int p = rowStart[j], end = rowStart[j + 1]; p < end; p++) {
                    int k = anc[p];
                    x += u[oi + k] * u[oj + k];
                }
                out[oi + j] = x;
                out[oj + i] = x;
            }
        }
    }

    /**
     * X ← s H⁻¹ X in place for X of n rows and {@code m} columns, row-major in {@code x[0 .. n m)}: the two sweeps
     * of {@link #solve} with every step a whole row (row k gathers L_jk times its descendants' rows, then L_ka times
     * its ancestors'), 2 m Σ_k |ancestors(k)| multiply-adds at the vector width (see {@link #sweepRows}). The scale s
     * folds a sign or a step into the solve.
     *
     * <p>The first call, and a call wider than any before, allocates the row workspace (n x m), unless the
     * constructor reserved it; later calls allocate nothing.
     *
     * @throws IllegalArgumentException if {@code m} is negative or {@code x} has fewer than n m entries
     */
    public void solveRows(double[] x, int m, double s) {
        if (m < 0 || x.length < n * m) {
            throw new IllegalArgumentException("solveRows needs n x m = " + n + " x " + m + " entries, has "
                    + x.length);
        }
        double[][] r = rows(m);
        for (int k = 0; k < n; k++) {
            System.arraycopy(x, k * m, r[k], 0, m);
            scale(r[k], s, m);
        }
        sweepRows(m, m);
        for (int k = 0; k < n; k++) {
            System.arraycopy(r[k], 0, x, k * m, m);
        }
    }

    /**
     * A ← s H⁻¹ A and B ← s H⁻¹ B (n x n each, row-major) and, when {@code inverse} is not null, inverse ← H⁻¹
     * (n x n, exactly symmetric: its lower triangle mirrored), in one pair of sweeps over rows of up to 2 n (3 n) columns:
     * the forward dynamics' derivatives ∂v̇/∂q = −H⁻¹ ∂τ/∂q, ∂v̇/∂v = −H⁻¹ ∂τ/∂v and ∂v̇/∂τ = H⁻¹ from ∂τ and this
     * factor. One wide sweep instead of three of n columns: each row step is then one long loop (measured, 37 dofs:
     * 11.4 multiply-adds per ns over 111 columns against 6.1 over 37).
     *
     * <p>The identity's columns of row k are swept only over its first 2 n + {@link #subtreeEnd}(k) (romeo_small:
     * a leg's rows over 86 of 111). Leaf to root, row k of L⁻ᵀ I is zero past k's subtree, so its descendants, whose
     * subtrees lie inside it, read nothing beyond. Root to leaf, the mirrored lower triangle needs row i up to column
     * i only, and row k is read by its descendants up to their own columns, which lie in k's subtree; its ancestors,
     * whose subtrees hold k's, have those columns.
     *
     * <p>The first call, and a call with an inverse after calls without one, allocates the row workspace (n x 2 n or
     * n x 3 n) unless the constructor reserved it; later calls allocate nothing.
     *
     * @throws IllegalArgumentException if an array has fewer than n² entries
     */
    public void solveSquareBlocks(double[] a, double[] b, double s, double[] inverse) {
        int nn = n * n;
        if (a.length < nn || b.length < nn || inverse != null && inverse.length < nn) {
            throw new IllegalArgumentException("solveSquareBlocks needs n x n = " + nn + " entries in every block");
        }
        int width = inverse == null ? 2 * n : 3 * n;
        double[][] r = rows(width);
        for (int k = 0; k < n; k++) {
            double[] rk = r[k];
            System.arraycopy(a, k * n, rk, 0, n);
            System.arraycopy(b, k * n, rk, n, n);
            // the scale over both blocks from index 0, where C2 vectorises it (see sweepRows)
            scale(rk, s, 2 * n);
        }
        if (inverse != null) {
            identityFrom(2 * n);
        }
        sweepRows(width, inverse == null ? width : 2 * n);
        for (int k = 0; k < n; k++) {
            System.arraycopy(r[k], 0, a, k * n, n);
            System.arraycopy(r[k], n, b, k * n, n);
        }
        if (inverse != null) {
            mirrorFrom(2 * n, inverse);
        }
    }

    /** out = H⁻¹ by the row sweeps on the identity, mirrored from the lower triangle (see {@link #inverse}). */
    private void invertBySweeps(double[] out) {
        rows(n);
        identityFrom(0);
        sweepRows(n, 0);
        mirrorFrom(0, out);
    }

    /**
     * Columns [from, from + n) of the row workspace set to the identity. All n columns, not only row k's cut: the
     * leaf-to-root pass reads a descendant's row up to k's cut, past the descendant's own, where an earlier call
     * (solveRows) may have left values.
     */
    private void identityFrom(int from) {
        for (int k = 0; k < n; k++) {
            java.util.Arrays.fill(rows[k], from, from + n, 0.0);
            rows[k][from + k] = 1;
        }
    }

    /** out (n x n) = the lower triangle of the workspace's columns [from, from + n), mirrored: exactly symmetric. */
    private void mirrorFrom(int from, double[] out) {
        for (int i = 0; i < n; i++) {
            double[] ri = rows[i];
            System.arraycopy(ri, from, out, i * n, i + 1);
            for (int j = 0; j < i; j++) {
                out[j * n + i] = ri[from + j];
            }
        }
    }

    /** The row workspace, at least n x m (allocated when narrower). */
    private double[][] rows(int m) {
        if (rows == null || n > 0 && rows[0].length < m) {
            rows = new double[n][m];
        }
        return rows;
    }

    /**
     * rows ← H⁻¹ rows: Lᵀ's sweep from the leaves, then L's from the root, a whole row per step. Row k runs over
     * its first m columns, or, when {@code identityFrom} &lt; m, over its first identityFrom + subtreeEnd(k) (the
     * columns from identityFrom on are the identity's, see {@link #solveSquareBlocks}).
     *
     * <p>Both passes gather: row k takes its descendants' rows (leaf to root, Lᵀ y = x: y_k = (x_k − Σ L_jk y_j) /
     * L_kk) or its ancestors' (root to leaf), four rows per loop over the columns ({@link #subtract4}), so that row k
     * is loaded and stored once per four rows instead of once per row. The rows are arrays of their own, read from
     * index 0, because C2 (JDK 17 and 25) vectorises y[c] += a x[c] between two arrays from index 0 and not the same
     * loop at two offsets of one array, nor with an offset in either (measured on this project's machines, 37
     * columns: 6.1 multiply-adds per ns against 1.9-2.0); romeo_small's 37 x 37 block took 7,900 ns in place and
     * 5,700-6,000 ns so (a plain loop, pinned). Gathering four rows at a time against one axpy per row, romeo_small's
     * 111 columns (plain loop, pinned, the sweeps alone): 6,700-7,300 ns against 8,000-8,400; the whole
     * forwardDynamicsDerivatives of its generated class, with the identity's columns cut as above, 23.0-23.4 µs
     * against 25.9-27.8.
     */
    private void sweepRows(int m, int identityFrom) {
        boolean cut = identityFrom < m;
        for (int k = n - 1; k >= 0; k--) {
            gatherRow(k, descRow, descPos, descStart[k], descStart[k + 1], cut ? identityFrom + subtreeEnd[k] : m);
        }
        for (int k = 0; k < n; k++) {
            gatherRow(k, anc, ancPos, rowStart[k], rowStart[k + 1], cut ? identityFrom + subtreeEnd[k] : m);
        }
    }

    /**
     * One step of a row sweep over row k's first w columns: x_k ← (x_k − Σ_e L_e x_row[e]) / L_kk for e in
     * [start, end), L_e = lc[pos[e]], four rows per loop over the columns.
     */
    private void gatherRow(int k, int[] row, int[] pos, int start, int end, int w) {
        double[][] r = rows;
        double[] xk = r[k];
        int p = start;
        for (; p + 3 < end; p += 4) {
            subtract4(xk, lc[pos[p]], r[row[p]], lc[pos[p + 1]], r[row[p + 1]], lc[pos[p + 2]], r[row[p + 2]],
                    lc[pos[p + 3]], r[row[p + 3]], w);
        }
        for (; p < end; p++) {
            axpy(-lc[pos[p]], r[row[p]], xk, w);
        }
        scale(xk, invDiag[k], w);
    }

    /** y[0 .. m) −= a0 x0 + a1 x1 + a2 x2 + a3 x3. */
    private static void subtract4(double[] y, double a0, double[] x0, double a1, double[] x1, double a2, double[] x2,
            double a3, double[] x3, int m) {
        for (int c = 0; c < m; c++) {
            y[c] -= a0 * x0[c] + a1 * x1[c] + a2 * x2[c] + a3 * x3[c];
        }
    }

    /** y[0 .. m) += a x[0 .. m). */
    private static void axpy(double a, double[] x, double[] y, int m) {
        for (int c = 0; c < m; c++) {
            y[c] += a * x[c];
        }
    }

    /** x[0 .. m) *= a (nothing for a = 1). */
    private static void scale(double[] x, double a, int m) {
        if (a == 1) {
            return;
        }
        for (int c = 0; c < m; c++) {
            x[c] *= a;
        }
    }

    /** x ← H⁻¹ x in place: H⁻¹ = L⁻¹ L⁻ᵀ. */
    public void solve(double[] x) {
        solveLt(x);
        solveL(x);
    }
}
