package org.symdyn.simulation;

import java.util.Arrays;

/**
 * Applied generalised forces τ(t, q, v) (nv): joint torques (N·m) and forces (N) along the velocity coordinates; for
 * a floating joint the wrench [n; f] on the child in child coordinates (see {@link org.symdyn.contract.Dynamics}).
 * Gravity is not part of τ: the dynamics include it through C(q, v). Implementations must overwrite every entry and
 * must not allocate.
 */
@FunctionalInterface
public interface ForceFunction {
    /** No applied forces: τ = 0 (passive motion under gravity and constraints). */
    ForceFunction ZERO = (t, q, v, tau) -> Arrays.fill(tau, 0.0);

    /**
     * Writes τ(t, q, v) into {@code tau}.
     *
     * @param t   time (s)
     * @param q   positions (nq); read only
     * @param v   velocities (nv); read only
     * @param tau receives the generalised forces (nv)
     */
    void forces(double t, double[] q, double[] v, double[] tau);
}
