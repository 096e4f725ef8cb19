package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * Everything one model evaluates, behind one interface: {@link Dynamics}, {@link Kinematics}, the model's own
 * {@link ConstraintFunctions}, and the fused evaluations a constrained solver needs. Every generated class
 * implements it, so a generated class alone runs every solver of the runtime (no interpreter and no model file at
 * run time); {@link org.symdyn.constraints.GenericModel} implements it by interpretation.
 *
 * <p>The fused evaluations fill several outputs from one pass over (q, v): a generated class shares its sines,
 * cosines and kinematics between H, C, G, γ (and φ, φ̇), which separate calls would each recompute. The defaults
 * here make the separate calls, for implementations with nothing to share. Outputs are as in the separate
 * methods: H nv x nv, C nv, G constraintRows x nv, γ, φ, φ̇ constraintRows; γ is the unstabilised -Ġ v (a
 * solver adds Baumgarte's -2α φ̇ - β² φ itself, from φ and φ̇).
 *
 * <p>As for {@link Dynamics}: caller-owned outputs, no allocation, not thread-safe; {@link #copy()} per thread.
 */
public interface ModelFunctions extends Dynamics, Kinematics, ConstraintFunctions {
    /** H(q), C(q, v), G(q) and γ(q, v) together. */
    default void constrainedSystem(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma) {
        massMatrix(q, H);
        biasForces(q, v, C);
        constraintJacobian(q, G);
        gamma(q, v, gamma);
    }

    /** H(q), C(q, v), G(q), γ(q, v), φ(q) and φ̇(q, v) together (for Baumgarte stabilisation). */
    default void constrainedSystem(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma, double[] phi, double[] phidot) {
        constrainedSystem(q, v, H, C, G, gamma);
        positionError(q, phi);
        velocityError(q, v, phidot);
    }

    /** H(q) and G(q) together (what an impulse solve needs). */
    default void impulseSystem(double[] q, DMatrixRMaj H, DMatrixRMaj G) {
        massMatrix(q, H);
        constraintJacobian(q, G);
    }

    @Override
    ModelFunctions copy();
}
