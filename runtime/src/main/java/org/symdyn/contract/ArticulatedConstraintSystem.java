package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * The recursive constrained forward dynamics of the model's own constraint rows, without H, by code generated for
 * this model (the twin of the runtime's {@code org.symdyn.solvers.RecursiveConstrainedDynamics} over
 * {@code org.symdyn.dynamics.ArticulatedDelassus}): the articulated-body algorithm, G's rows propagated leaf to root
 * through its articulated inertias, straight-line with the model's zeros and constants folded. With m =
 * {@link #constraintRows()}, X_i, S_i, U_i = I^A_i S_i and D_i the ABA's quantities and T_i the n_i x m block of Gᵀ at
 * joint i's dofs, bodies leaf to root:
 * <pre>
 *   Ψ_i = T_i + S_iᵀ Φ_i,   Φ_λ(i) += X_iᵀ (Φ_i - U_i D_i⁻¹ Ψ_i),   K = Σ_i Ψ_iᵀ D_i⁻¹ Ψ_i = G H⁻¹ Gᵀ
 * </pre>
 * and, for multipliers y, the response H⁻¹ Gᵀ y root to leaf with δa_root = 0:
 * q̈_i = D_i⁻¹ (Ψ_i y - U_iᵀ X_i δa_λ(i)), δa_i = X_i δa_λ(i) + S_i q̈_i (the ABA's bias pass for the forces Gᵀ y
 * gives u_i = Ψ_i y, so it need not run again). A caller solves K λ = γ - G v̇₀ between the two calls and forms
 * v̇ = v̇₀ + H⁻¹ Gᵀ λ.
 *
 * <p>Like every method of the contract: caller-owned outputs, no allocation, no check or branch inside beyond the
 * argument checks, not thread-safe (the articulated quantities live in the instance between the two calls).
 */
public interface ArticulatedConstraintSystem extends ConstraintFunctions {
    /**
     * At (q, v, τ): the unconstrained v̇₀ = H⁻¹ (τ - C), G(q) and γ(q, v) (as {@link ConstraintFunctions} computes
     * them, no stabilisation), and K = G H⁻¹ Gᵀ (all m x m entries); keeps what {@link #articulatedResponse} needs.
     */
    void articulatedConstraintSystem(double[] q, double[] v, double[] tau, double[] vdot0, DMatrixRMaj G,
            double[] gamma, DMatrixRMaj K);

    /** dv = H⁻¹ Gᵀ λ (nv) at the configuration of the last {@link #articulatedConstraintSystem}, for λ (m). */
    void articulatedResponse(double[] lambda, double[] dv);
}
