package org.symdyn.systems;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ModelInfo;

/**
 * Something that applies generalised forces computed from the time, the state and its own command (the design
 * note's Actuator: torque sources, servos, springs, motors, compliant contact). A system sums the forces of all its
 * actuators, adds its τ input and hands the sum to the dynamics: H(q) v̇ + C(q, v) = τ_input + Σ τ_actuator(t, q, v).
 *
 * <p>Units and signs are the contract's ({@link org.symdyn.contract.Dynamics}): τ along the velocity coordinates v,
 * N·m for rotations and N for translations, a floating base's entries the wrench [n; f] on the base in base
 * coordinates. Gravity is never part of τ (the dynamics' C holds it).
 *
 * <p>Implementations own their scratch arrays: {@link #addForces} must not allocate, and an instance is not
 * thread-safe. Commands (targets, voltages, wrenches) may be changed between calls; a system reads them at every
 * evaluation.
 */
public interface Actuator {

    /** The actuator's name, unique within a system (sensor and actuator names share no namespace). */
    String name();

    /**
     * Adds this actuator's generalised forces τ(t, q, v) to {@code tau}, leaving the entries it does not act on
     * unchanged (so that a system can sum several actuators into one array).
     *
     * @param t   time (s)
     * @param q   positions (nq), read only
     * @param v   velocities (nv), read only
     * @param tau the caller's generalised forces (nv), accumulated into
     */
    void addForces(double t, double[] q, double[] v, double[] tau);

    /**
     * Adds ∂τ/∂q and ∂τ/∂v of this actuator's forces at (t, q, v) to {@code dq} and {@code dv} (nv x nv each, row i
     * the force on v_i; ∂/∂q along the contract's tangent directions), what the derivatives of a system's step need
     * ({@link SystemStepDerivatives}). A force clamped at a limit has zero derivative there: at the limit exactly,
     * the clamped side's (a one-sided derivative). Must not allocate.
     *
     * <p>The default refuses: an actuator without analytical derivatives throws UnsupportedOperationException
     * naming it, so that a step's derivatives are never silently missing a force's.
     *
     * @throws UnsupportedOperationException if this actuator has no analytical derivatives
     */
    default void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
        throw new UnsupportedOperationException("actuator '" + name() + "' (" + getClass().getSimpleName()
                + ") has no analytical force derivatives: the derivatives of a step cannot include its forces"
                + " (apply them through the τ input and chain their derivatives, or remove the actuator)");
    }

    /**
     * Refuses this actuator for a system of {@code model} if it does not fit it: an index outside the model's q, v or
     * bodies, or kinematics of another model. A system's builder asks every device once, so that a device made by
     * hand for another model is refused there, by name, instead of failing in a step or acting on the wrong joint.
     * The default accepts.
     *
     * @throws IllegalArgumentException naming the device and what does not fit
     */
    default void checkFits(ModelInfo model) {
    }
}
