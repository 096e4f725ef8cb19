package org.symdyn.simulation;

/**
 * The right-hand side of the equations of motion for an integrator: the accelerations v̇ (nv) at state (q, v) and
 * time t, where v̇ is the time derivative of the velocity coordinates v (for a floating joint, of [ω; v_origin] in
 * child coordinates; see {@link org.symdyn.model.JointType}). SI units: t in s, v̇ in rad/s² or m/s².
 *
 * <p>Implementations: {@link UnconstrainedAcceleration} (v̇ = H⁻¹ (τ - C)), {@link ConstrainedAcceleration}
 * ([H Gᵀ; G 0][v̇; -λ] = [τ - C; γ] by a selectable method), or any user function (for instance adding contact or
 * spring forces). Implementations used by the integrators of this package must not allocate and must depend on
 * (q, v, t) only (the adaptive integrator reuses its last evaluation as the next step's first, see
 * {@link DormandPrince45}).
 */
@FunctionalInterface
public interface AccelerationFunction {
    /**
     * Writes v̇(q, v, t) into {@code vdot}.
     *
     * @param q    positions (nq); read only
     * @param v    velocities (nv); read only
     * @param t    time (s)
     * @param vdot receives the accelerations (nv)
     */
    void accelerations(double[] q, double[] v, double t, double[] vdot);
}
