package org.symdyn.generator;

import java.util.Locale;

/**
 * The generated methods whose operations are counted ({@link OperationCounts}), in the order the class header lists
 * them. Each is named by its {@link #key()} in the class header, the {@code generate --report} JSON and the
 * plugin's log.
 */
public enum GeneratedMethod {
    /** {@code massMatrix}: H(q). */
    MASS_MATRIX,
    /** {@code biasForces}: C(q, v). */
    BIAS_FORCES,
    /** {@code gravityForces}: g(q). */
    GRAVITY,
    /** {@code inverseDynamics}: τ = H v̇ + C. */
    INVERSE_DYNAMICS,
    /** {@code forwardDynamics}: v̇ = H⁻¹ (τ - C). */
    FORWARD_DYNAMICS,
    /** {@code positionError}: φ(q). */
    POSITION_ERROR,
    /** {@code velocityError}: φ̇(q, v). */
    VELOCITY_ERROR,
    /** {@code constraintJacobian}: G(q). */
    CONSTRAINT_JACOBIAN,
    /** {@code gamma}: γ(q, v), the rows' velocity-product acceleration. */
    GAMMA,
    /** {@code constrainedSystem}: H, C, G and γ in one evaluation. */
    CONSTRAINED_SYSTEM,
    /** {@code constrainedSystem} with φ and φ̇ too. */
    CONSTRAINED_SYSTEM_WITH_ERRORS,
    /** {@code impulseSystem}: H and G in one evaluation. */
    IMPULSE_SYSTEM,
    /** {@code inverseDynamicsDerivatives}: ∂τ/∂q and ∂τ/∂v. */
    INVERSE_DYNAMICS_DERIVATIVES,
    /** {@code forwardDynamicsDerivatives}: ∂v̇/∂q, ∂v̇/∂v and ∂v̇/∂τ = H⁻¹. */
    FORWARD_DYNAMICS_DERIVATIVES,
    /** {@code inverseMassMatrix}: H⁻¹. */
    INVERSE_MASS_MATRIX,
    /** {@code coriolisMatrix}: the Coriolis matrix. */
    CORIOLIS_MATRIX,
    /** {@code regressor}: Y with τ = Y π. */
    REGRESSOR,
    /** {@code inertialParameters}: π. */
    INERTIAL_PARAMETERS,
    /** {@code inertialParameterJacobian}: ∂π/∂p. */
    INERTIAL_PARAMETER_JACOBIAN,
    /** {@code parameterRegressor}: Y ∂π/∂p. */
    PARAMETER_REGRESSOR,
    /** {@code factorConstrainedSystem}: the factorisation of [H Gᵀ; G 0]. */
    CONSTRAINED_SYSTEM_FACTORISATION,
    /** {@code solveConstrainedSystem}: the solve from that factorisation. */
    CONSTRAINED_SYSTEM_SOLVE,
    /** {@code articulatedConstraintSystem}: v̇₀, G, γ and K = G H⁻¹ Gᵀ by the recursive constrained system. */
    ARTICULATED_CONSTRAINT_SYSTEM,
    /** {@code articulatedResponse}: H⁻¹ Gᵀ λ from what that method kept. */
    ARTICULATED_RESPONSE,
    /** {@code limbConstrainedDynamics}: v̇ and λ with each limb's rows eliminated inside the limb. */
    LIMB_CONSTRAINED_DYNAMICS,
    /** {@code limbImpulse}: v⁺ and Λ by the same elimination. */
    LIMB_IMPULSE,
    /** {@code constraintAccelerationDerivatives}: ∂a/∂q and ∂a/∂v of the rows' acceleration. */
    CONSTRAINT_ACCELERATION_DERIVATIVES,
    /** {@code constraintForceDerivative}: ∂(Gᵀ λ)/∂q. */
    CONSTRAINT_FORCE_DERIVATIVE,
    /** {@code constraintErrorDerivatives}: ∂φ/∂q and ∂φ̇/∂q. */
    CONSTRAINT_ERROR_DERIVATIVES;

    /** The name in lower case, such as {@code mass_matrix}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The key with spaces, such as {@code mass matrix}, as a method's Javadoc states its count. */
    String words() {
        return key().replace('_', ' ');
    }
}
