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
        if (h.numRows != n || h.numCols != n) {
            throw new IllegalArgumentException("H must be " + n + "x" + n);
        }
        System.arraycopy(h.data, 0, l, 0, n * n);
        for (int k = n - 1; k >= 0; k--) {
            double d = l[k * n + k];
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new ArithmeticException("H is not positive definite (LTL pivot " + d + " at dof " + k + ")");
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

    /** x ← H⁻¹ x in place: H⁻¹ = L⁻¹ L⁻ᵀ. */
    public void solve(double[] x) {
        solveLt(x);
        solveL(x);
    }
}
