package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * Derivatives of a model's own constraint rows, for the derivatives of constrained forward dynamics
 * ({@code org.symdyn.solvers.ConstrainedDynamicsDerivatives}): a class generated with derivatives for a model with
 * constraints implements it, from its symbolic G, γ, φ and φ̇. Every ∂/∂q is taken along the tangent directions of
 * {@link DynamicsDerivatives} (column k: dof k's direction), at fixed v, v̇ and λ; rows in the model's constraint
 * order, as {@link ConstraintFunctions}.
 *
 * <ul>
 * <li>{@link #constraintAccelerationDerivatives}: ∂a/∂q and ∂a/∂v (rows x nv) of the rows' acceleration
 * a(q, v, v̇) = G(q) v̇ - γ(q, v), γ = -Ġ v without stabilisation terms;</li>
 * <li>{@link #constraintForceDerivative}: ∂(G(q)ᵀ λ)/∂q (nv x nv) at fixed multipliers λ;</li>
 * <li>{@link #constraintErrorDerivatives}: ∂φ/∂q and ∂φ̇/∂q (rows x nv), for Baumgarte stabilisation
 * (∂φ̇/∂v is G).</li>
 * </ul>
 * Arguments as the package states (exact lengths and shapes, outputs overwritten, no output aliasing an input or
 * another output); no allocation; not thread-safe.
 */
public interface ConstraintDerivatives extends ConstraintFunctions {
    /** ∂a/∂q and ∂a/∂v of a = G v̇ - γ (rows x nv each). */
    void constraintAccelerationDerivatives(double[] q, double[] v, double[] vdot, DMatrixRMaj dAdq, DMatrixRMaj dAdv);

    /** ∂(Gᵀ λ)/∂q (nv x nv) for multipliers λ (one per row). */
    void constraintForceDerivative(double[] q, double[] lambda, DMatrixRMaj dForceDq);

    /** ∂φ/∂q and ∂φ̇/∂q (rows x nv each). */
    void constraintErrorDerivatives(double[] q, double[] v, DMatrixRMaj dPhiDq, DMatrixRMaj dPhidotDq);
}
