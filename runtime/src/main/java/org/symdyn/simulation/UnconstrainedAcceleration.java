package org.symdyn.simulation;

import java.util.Objects;
import org.symdyn.contract.Dynamics;

/**
 * v̇ = H(q)⁻¹ (τ(t, q, v) - C(q, v)) by {@link Dynamics#forwardDynamics} (the generic ABA or generated code), with τ
 * from a {@link ForceFunction}. Allocates its τ buffer once; not thread-safe (neither is the dynamics instance).
 */
public final class UnconstrainedAcceleration implements AccelerationFunction {
    private final Dynamics dynamics;
    private final ForceFunction forces;
    private final double[] tau;

    /** Passive motion: τ = 0. */
    public UnconstrainedAcceleration(Dynamics dynamics) {
        this(dynamics, ForceFunction.ZERO);
    }

    /** Motion under applied forces τ(t, q, v). */
    public UnconstrainedAcceleration(Dynamics dynamics, ForceFunction forces) {
        this.dynamics = Objects.requireNonNull(dynamics, "dynamics");
        this.forces = Objects.requireNonNull(forces, "forces");
        this.tau = new double[dynamics.nv()];
    }

    @Override
    public void accelerations(double[] q, double[] v, double t, double[] vdot) {
        forces.forces(t, q, v, tau);
        dynamics.forwardDynamics(q, v, tau, vdot);
    }

    /** The τ of the last evaluation (nv); read only. */
    public double[] lastForces() {
        return tau;
    }
}
