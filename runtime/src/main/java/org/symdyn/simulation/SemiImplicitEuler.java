package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * Semi-implicit (symplectic) Euler with a fixed step: velocities first, then positions with the new velocities,
 * <pre>
 *   v₁ = v₀ + h f(q₀, v₀, t),     q₁ = q₀ ⊕ (h ξ(q₀, v₁))     ({@link StateSpace#integrate})
 * </pre>
 * First order, one evaluation of f per step. For a separable Hamiltonian with constant mass matrix (a particle, a
 * planar pendulum's angle) it is symplectic and its energy error stays bounded (oscillates with amplitude O(h))
 * instead of drifting; with a configuration-dependent H(q), velocity-dependent forces or constraints it is only
 * "nearly" so: expect bounded-looking but O(h) errors. Quaternions rotate by h ω and are renormalised. No
 * allocation per step; not thread-safe.
 */
public final class SemiImplicitEuler implements Integrator {
    private final StateSpace space;
    private final AccelerationFunction f;
    private final double[] a;
    private long evaluations;

    /** Symplectic Euler for f on space. */
    public SemiImplicitEuler(StateSpace space, AccelerationFunction f) {
        this.space = space;
        this.f = f;
        this.a = new double[space.nv()];
    }

    @Override
    public double step(double t, double h, double[] q, double[] v) {
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step must be positive and finite, got " + h);
        }
        f.accelerations(q, v, t, a);
        evaluations++;
        for (int i = 0; i < a.length; i++) {
            v[i] += h * a[i];
        }
        space.integrate(q, v, h, q);
        return h;
    }

    @Override
    public int order() {
        return 1;
    }

    @Override
    public long evaluations() {
        return evaluations;
    }

    @Override
    public StateSpace stateSpace() {
        return space;
    }

    @Override
    public String toString() {
        return "SemiImplicitEuler";
    }
}
