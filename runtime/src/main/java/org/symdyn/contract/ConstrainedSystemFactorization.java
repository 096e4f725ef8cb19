package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * The saddle-point system of constrained dynamics and impulses for the model's own constraint rows,
 * <pre>
 *   [H Gᵀ] [x]   [a]
 *   [G 0 ] [y] = [b]      i.e.  H x + Gᵀ y = a,  G x = b,
 * </pre>
 * factorised and solved by code generated for this model: its H and G (as {@link ModelFunctions#constrainedSystem}
 * or {@link ModelFunctions#impulseSystem} compute them) have a sparsity known at build time, entries that are
 * identically zero or constant, and a fixed number m = {@link #constraintRows()} of rows, so the whole solve is
 * straight-line code with those zeros and constants folded. Forward dynamics: a = τ - C, b = γ, x = v̇, y = -λ;
 * impulses: a = H v⁻, b = the target velocities, x = v⁺, y = Λ (org.symdyn.solvers uses it on its fast path when a
 * set holds exactly the model's rows and is bound to the generated class alone).
 *
 * <p>The factorisation (the Schur-complement, or range-space, method):
 * <ol>
 * <li>H = Lᵀ D L with L unit lower triangular and L_ij ≠ 0 only for j a λ-ancestor of i in the dof tree
 * ({@link DofTree}): branch-induced sparsity, no fill-in (RBDA §6.5);</li>
 * <li>V = D⁻¹ L⁻ᵀ Gᵀ (nv x m, column r zero outside the dofs row r touches and their ancestors);</li>
 * <li>the Schur complement K = G H⁻¹ Gᵀ = (L⁻ᵀ Gᵀ)ᵀ V (m x m) and its K = U E Uᵀ, U unit lower triangular, E
 * diagonal.</li>
 * </ol>
 * The solve: z = L⁻ᵀ a; y from K y = Vᵀ z - b (that is G H⁻¹ a - b); x = L⁻¹ (D⁻¹ z - V y).
 *
 * <p>Beyond the contract's argument checks (exact shapes and lengths), nothing is checked or branched on inside: a
 * failed factorisation shows in the returned ratio (not positive) and its solve's values are then meaningless. Like every method of the contract: caller-owned outputs, no
 * allocation, not thread-safe (the factors live in the instance between the two calls).
 */
public interface ConstrainedSystemFactorization extends ConstraintFunctions {
    /**
     * Factorises the system for this H (nv x nv, symmetric; its lower triangle is read) and G
     * ({@link #constraintRows()} x nv), both as this class computes them (entries it knows to be zero or constant
     * are not read), and keeps the factors for {@link #solveConstrainedSystem}.
     *
     * @return the smallest pivot of K's factorisation (E's smallest entry) over K's largest diagonal entry when every
     *         pivot of H's (D's entries) is positive and finite and E and K's diagonal are finite; 0 otherwise (H not
     *         positive definite, or a non-finite pivot: a non-finite entry of H or G reaches one of them). A ratio near 0 means dependent or nearly dependent rows: a caller
     *         compares it with its rank tolerance and takes a rank-revealing path below it.
     */
    double factorConstrainedSystem(DMatrixRMaj H, DMatrixRMaj G);

    /**
     * x (nv) and y ({@link #constraintRows()}) with H x + Gᵀ y = a, G x = b for the H and G of the last
     * {@link #factorConstrainedSystem}. Meaningful only when that call returned a positive ratio.
     */
    void solveConstrainedSystem(double[] a, double[] b, double[] x, double[] y);

    /**
     * The ratio {@link #factorConstrainedSystem} returns, from its pivots: {@code pivots[0..nv)} the entries of D,
     * {@code pivots[nv..nv+m)} those of E, {@code pivots[nv+m..nv+2m)} K's diagonal (what generated code calls).
     */
    static double pivotRatio(double[] pivots, int nv, int m) {
        for (int i = 0; i < nv; i++) {
            double d = pivots[i];
            if (!(d > 0) || d == Double.POSITIVE_INFINITY) {
                return 0;
            }
        }
        double minPivot = Double.POSITIVE_INFINITY;
        double maxDiagonal = 0;
        for (int i = 0; i < m; i++) {
            double e = pivots[nv + i];
            double k = pivots[nv + m + i];
            if (!(Math.abs(e) < Double.POSITIVE_INFINITY) || !(Math.abs(k) < Double.POSITIVE_INFINITY)) {
                return 0;
            }
            minPivot = Math.min(minPivot, e);
            maxDiagonal = Math.max(maxDiagonal, k);
        }
        if (m == 0) {
            return 1;
        }
        double ratio = minPivot / maxDiagonal;
        return ratio > 0 ? ratio : 0;
    }
}
