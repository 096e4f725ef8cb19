package org.symdyn.simulation;

import java.util.Objects;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;

/**
 * Constrained forward dynamics as a right-hand side: v̇ from
 * <pre>
 *   [H Gᵀ] [ v̇]   [τ - C]
 *   [G 0 ] [-λ] = [  γ  ]       (H v̇ + C = τ + Gᵀ λ,  G v̇ = γ)
 * </pre>
 * by {@link ConstrainedDynamics} of a bound {@link ConstraintData}, with τ from a {@link ForceFunction} and the
 * solution method selectable at any time (all methods give the same v̇). γ carries the Baumgarte terms
 * -2α φ̇ - β² φ of the groups that enable them, so Baumgarte stabilisation is switched through the set's per-group
 * settings. After each evaluation the multipliers λ of that evaluation are in {@link ConstraintData#force()} (note:
 * an integrator evaluates at intermediate stages, so after a step they belong to its last stage, not necessarily
 * the final state). Not thread-safe.
 */
public final class ConstrainedAcceleration implements AccelerationFunction {
    private final ConstrainedDynamics dynamics;
    private final ForceFunction forces;
    private final double[] tau;
    private ConstraintSolverMethod method;

    /** Passive motion (τ = 0) by the direct method. */
    public ConstrainedAcceleration(ConstrainedDynamics dynamics) {
        this(dynamics, ConstraintSolverMethod.DIRECT, ForceFunction.ZERO);
    }

    /** Motion under τ(t, q, v) by the given method. */
    public ConstrainedAcceleration(ConstrainedDynamics dynamics, ConstraintSolverMethod method, ForceFunction forces) {
        this.dynamics = Objects.requireNonNull(dynamics, "dynamics");
        this.method = Objects.requireNonNull(method, "method");
        this.forces = Objects.requireNonNull(forces, "forces");
        this.tau = new double[dynamics.constraintData().nv()];
    }

    @Override
    public void accelerations(double[] q, double[] v, double t, double[] vdot) {
        forces.forces(t, q, v, tau);
        dynamics.forwardDynamics(method, q, v, tau, vdot);
    }

    /** The solution method. */
    public ConstraintSolverMethod method() {
        return method;
    }

    /** Selects the solution method for the following evaluations. */
    public ConstrainedAcceleration method(ConstraintSolverMethod m) {
        this.method = Objects.requireNonNull(m, "method");
        return this;
    }

    /** The constrained dynamics solver. */
    public ConstrainedDynamics constrainedDynamics() {
        return dynamics;
    }

    /** The τ of the last evaluation (nv); read only. */
    public double[] lastForces() {
        return tau;
    }
}
