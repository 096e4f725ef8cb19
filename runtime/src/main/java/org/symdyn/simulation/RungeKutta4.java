package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * The classical fourth-order Runge-Kutta method with a fixed step, on the configuration manifold: tableau
 * <pre>
 *   c = (0, ½, ½, 1),  a₂₁ = ½, a₃₂ = ½, a₄₃ = 1,  b = (1/6, 1/3, 1/3, 1/6)
 * </pre>
 * applied to (u, v) in the chart q = q₀ ⊕ u of the step's initial configuration (Runge-Kutta-Munthe-Kaas, see
 * {@link StateSpace} and {@link RungeKuttaStages}): u̇ = J⁻¹(u) ξ(q, v), v̇ = f(q, v, t). Global error O(h⁴) in q and
 * v, quaternions included (unit to rounding). Four evaluations of f per step. Not symplectic: energy drifts like
 * O(h⁴) t on conservative systems. No allocation per step; not thread-safe.
 */
public final class RungeKutta4 implements Integrator {
    private static final double[][] A = {{}, {0.5}, {0, 0.5}, {0, 0, 1}};
    private static final double[] C = {0, 0.5, 0.5, 1};
    private static final double[] B = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};

    private final RungeKuttaStages st;

    /** RK4 for f on space. */
    public RungeKutta4(StateSpace space, AccelerationFunction f) {
        st = new RungeKuttaStages(space, f, 4);
    }

    @Override
    public double step(double t, double h, double[] q, double[] v) {
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step must be positive and finite, got " + h);
        }
        st.begin(q, v);
        st.firstStage(t);
        for (int s = 1; s < 4; s++) {
            st.stage(s, A[s], t + C[s] * h, h);
        }
        st.combine(B, 4, h);
        System.arraycopy(st.qs, 0, q, 0, st.nq);
        System.arraycopy(st.vs, 0, v, 0, st.nv);
        return h;
    }

    @Override
    public int order() {
        return 4;
    }

    @Override
    public long evaluations() {
        return st.evaluations;
    }

    @Override
    public StateSpace stateSpace() {
        return st.space;
    }

    @Override
    public String toString() {
        return "RungeKutta4";
    }
}
