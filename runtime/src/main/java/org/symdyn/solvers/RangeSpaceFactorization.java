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
    private final double[] l;

    /** For the dof parent array λ (λ(i) &lt; i, -1 for a root dof). */
    public RangeSpaceFactorization(int[] dofParents) {
        n = dofParents.length;
        lambda = dofParents.clone();
        for (int i = 0; i < n; i++) {
            if (lambda[i] >= i || lambda[i] < -1) {
                throw new IllegalArgumentException("dof parent array must satisfy -1 <= λ(i) < i, λ(" + i + ") = "
                        + lambda[i]);
            }
        }
        l = new double[n * n];
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
            throw new ArithmeticException("H is not positive definite (LTL pivot " + l[k * n + k] + " at dof " + k
                    + ")");
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
        System.arraycopy(h.data, 0, l, 0, n * n);
        for (int k = n - 1; k >= 0; k--) {
            double d = l[k * n + k];
            if (!(d > 0) || Double.isInfinite(d)) {
                return k;
            }
            d = Math.sqrt(d);
            l[k * n + k] = d;
            for (int i = lambda[k]; i >= 0; i = lambda[i]) {
                l[k * n + i] /= d;
            }
            // Remove row k's contribution from the ancestors' rows (only ancestor pairs are non-zero).
            for (int i = lambda[k]; i >= 0; i = lambda[i]) {
                double lki = l[k * n + i];
                for (int j = i; j >= 0; j = lambda[j]) {
                    l[i * n + j] -= lki * l[k * n + j];
                }
            }
        }
        return -1;
    }

    /** L_ij of the last factorisation (0 off the ancestor pattern is not enforced: read only i ≥ j on a branch). */
    public double l(int i, int j) {
        if (j == i) {
            return l[i * n + i];
        }
        for (int a = lambda[i]; a >= 0; a = lambda[a]) {
            if (a == j) {
                return l[i * n + j];
            }
        }
        return 0;
    }

    /** x ← L⁻ᵀ x in place (solves Lᵀ y = x). */
    public void solveLt(double[] x) {
        for (int i = n - 1; i >= 0; i--) {
            double yi = x[i] / l[i * n + i];
            x[i] = yi;
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                x[j] -= l[i * n + j] * yi;
            }
        }
    }

    /** x ← L⁻¹ x in place (solves L y = x). */
    public void solveL(double[] x) {
        for (int i = 0; i < n; i++) {
            double s = x[i];
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                s -= l[i * n + j] * x[j];
            }
            x[i] = s / l[i * n + i];
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
            double yi = xi / l[i * n + i];
            x[o + i] = yi;
            support[so + count++] = i;
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                x[o + j] -= l[i * n + j] * yi;
            }
        }
        return count;
    }

    /** y = L x (n entries each; y must not alias x): with H = Lᵀ L, L x = L⁻ᵀ H x. */
    public void multiplyL(double[] x, double[] y) {
        for (int i = 0; i < n; i++) {
            double s = l[i * n + i] * x[i];
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                s += l[i * n + j] * x[j];
            }
            y[i] = s;
        }
    }

    /** x ← H⁻¹ x in place: H⁻¹ = L⁻¹ L⁻ᵀ. */
    public void solve(double[] x) {
        solveLt(x);
        solveL(x);
    }
}
