package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;

/**
 * Featherstone's sparse LᵀL factorisation of a joint-space inertia matrix (RBDA §6.5): H = Lᵀ L with L lower
 * triangular and L_ij ≠ 0 only when j is i or an ancestor of i in the dof tree λ. Because H_ij = 0 unless i and j
 * lie on one branch, the factorisation fills nothing in, and it and the solves cost O(n d²) and O(n d) for tree
 * depth d instead of O(n³) and O(n²).
 *
 * <p>The dof tree λ is {@link org.symdyn.contract.DofTree}. Allocation happens in the constructor only. Not thread-safe.
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
     * out (n x n, row-major) = H⁻¹ = L⁻¹ L⁻ᵀ of the last factorisation, exactly symmetric. U = L⁻¹ keeps L's pattern
     * (U_ik ≠ 0 only for k = i or an ancestor of i; from L U = I, U_ik = −U_ii Σ_m L_im U_mk over the ancestors m of
     * i from k down), so (H⁻¹)_ij = Σ_k U_ik U_jk runs over the dofs k that are ancestors of (or equal to) both i and
     * j: for j ≤ i, over j and its ancestors, the terms off i's chain being zeros of U. O(n² d) for tree depth d
     * instead of the O(n³) of a dense factor and inverse (solo12, 18 dofs: ~1,300 multiply-adds against ~3,000).
     * Measured on solo12 (one JVM, 10⁶ calls): ~1.0 µs; the same sums as outer products of U's columns over each
     * dof's subtree (fewer, contiguous multiply-adds) took ~1.25 µs.
     *
     * @param u n x n workspace holding U on return (row-major); its entries off the pattern must be zero (they stay
     *          so: a new array serves every call)
     */
    public void inverse(double[] out, double[] u) {
        if (out.length < n * n || u.length < n * n) {
            throw new IllegalArgumentException("inverse needs n x n = " + n * n + " entries in out and u");
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

    /** x ← H⁻¹ x in place: H⁻¹ = L⁻¹ L⁻ᵀ. */
    public void solve(double[] x) {
        solveLt(x);
        solveL(x);
    }
}
