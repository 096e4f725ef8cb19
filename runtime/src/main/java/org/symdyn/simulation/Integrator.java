package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * A one-step time integrator of the state (q, v) of a mechanism: q on the configuration manifold of a
 * {@link StateSpace} (quaternions stay unit), v ∈ ℝ^nv, driven by an {@link AccelerationFunction}.
 *
 * <p>Implementations: {@link RungeKutta4} (classical, order 4, fixed step), {@link SemiImplicitEuler} (symplectic
 * Euler, order 1, fixed step), {@link DormandPrince45} (embedded 5(4) pair, adaptive step). Each allocates its
 * workspaces in its constructor and {@link #step} does not allocate. An instance is not thread-safe.
 */
public interface Integrator {
    /** Creates an integrator for a state space and right-hand side (e.g. {@code RungeKutta4::new}). */
    @FunctionalInterface
    interface Factory {
        /** An integrator of {@code f} on {@code space}. */
        Integrator create(StateSpace space, AccelerationFunction f);
    }

    /**
     * Advances (q, v) from time t by one step, in place.
     *
     * <p>Fixed-step methods take exactly {@code hMax}. An adaptive method takes its proposed step, limited to
     * {@code hMax}, and retries with smaller steps until its error test passes; the returned step is the one taken.
     *
     * @param t    the time of the state (s)
     * @param hMax the step (fixed-step methods) or its upper bound (adaptive methods), &gt; 0 (s)
     * @param q    positions (nq), replaced by the positions at t + h
     * @param v    velocities (nv), replaced by the velocities at t + h
     * @return the step h taken (s)
     */
    double step(double t, double hMax, double[] q, double[] v);

    /** The classical order of the method (of its propagated solution for an embedded pair). */
    int order();

    /** True if the method chooses its own step sizes. */
    default boolean isAdaptive() {
        return false;
    }

    /** Number of {@link AccelerationFunction} evaluations so far. */
    long evaluations();

    /** The state space. */
    StateSpace stateSpace();
}
