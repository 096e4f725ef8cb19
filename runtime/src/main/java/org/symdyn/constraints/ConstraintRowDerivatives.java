package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.dynamics.MotionDerivatives;

/**
 * What a {@link ConstraintRows} provider adds so that the derivatives of constrained forward dynamics cover its rows
 * ({@link org.symdyn.solvers.ConstrainedDynamicsDerivatives}): the derivatives of its rows' acceleration
 * a(q, v, v̇) = G v̇ - γ (the second time derivative of φ for holonomic rows), of φ and φ̇ (for Baumgarte
 * stabilisation), and the wrenches through which its multipliers act, so that ∂(Gᵀ λ)/∂q can be formed. All
 * derivatives along q are taken in the tangent space of {@link org.symdyn.contract.DynamicsDerivatives}, at the state
 * the given {@link MotionDerivatives} was last updated at; rows are written at the given offset, all nv columns.
 * Implemented by the contact, loop and coupler rows.
 */
public interface ConstraintRowDerivatives {
    /** Rows of ∂a/∂q and ∂a/∂v at fixed v̇, a = G v̇ - γ without stabilisation terms. */
    void accelerationDerivatives(MotionDerivatives motion, DMatrixRMaj dDq, DMatrixRMaj dDv, int rowOffset);

    /** Rows of ∂φ/∂q and ∂φ̇/∂q at fixed v (∂φ̇/∂v is G). */
    void errorDerivatives(MotionDerivatives motion, DMatrixRMaj dPhiDq, DMatrixRMaj dPhidotDq, int rowOffset);

    /**
     * Adds to {@code motion} the wrenches by which the multipliers {@code multipliers[offset..offset+rowCount)} act,
     * Gᵀ λ = Σ J_eᵀ W_e, each with the body its components are fixed in ({@link MotionDerivatives#addWrench}). Rows
     * whose Gᵀ λ does not depend on q add nothing.
     */
    void addWrenches(MotionDerivatives motion, double[] multipliers, int offset);
}
