package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * The shared machinery of the explicit Runge-Kutta methods: stages evaluated in the chart q = q₀ ⊕ u around the
 * step's initial configuration q₀ (see {@link StateSpace}), which makes any explicit tableau a
 * Runge-Kutta-Munthe-Kaas method on the configuration manifold with its classical order.
 *
 * <p>For stage s with coefficients a_sj:
 * <pre>
 *   u_s = h Σ_j a_sj K_j,   q_s = q₀ ⊕ u_s,   v_s = v₀ + h Σ_j a_sj A_j,
 *   A_s = f(q_s, v_s, t + c_s h),   K_s = J⁻¹(u_s) ξ(q_s, v_s)      (chart rate, {@link StateSpace#chartRate})
 * </pre>
 * and the result u₁ = h Σ b_j K_j, q₁ = q₀ ⊕ u₁, v₁ = v₀ + h Σ b_j A_j. Allocation happens in the constructor only.
 */
final class RungeKuttaStages {
    final StateSpace space;
    final AccelerationFunction f;
    final int nq;
    final int nv;
    /** The step's initial state. */
    final double[] q0;
    final double[] v0;
    /** The last stage's state. */
    final double[] qs;
    final double[] vs;
    /** Chart coordinates of the last stage (or of the result). */
    final double[] u;
    /** ξ of the last stage (before J⁻¹). */
    final double[] xi;
    /** Chart rates K_s and accelerations A_s per stage. */
    final double[][] k;
    final double[][] a;
    long evaluations;

    RungeKuttaStages(StateSpace space, AccelerationFunction f, int stages) {
        this.space = space;
        this.f = f;
        this.nq = space.nq();
        this.nv = space.nv();
        q0 = new double[nq];
        v0 = new double[nv];
        qs = new double[nq];
        vs = new double[nv];
        u = new double[nv];
        xi = new double[nv];
        k = new double[stages][nv];
        a = new double[stages][nv];
    }

    /** Stores the initial state of a step. */
    void begin(double[] q, double[] v) {
        if (q.length != nq || v.length != nv) {
            throw new IllegalArgumentException("state must have nq = " + nq + " and nv = " + nv + " entries, got "
                    + q.length + " and " + v.length);
        }
        System.arraycopy(q, 0, q0, 0, nq);
        System.arraycopy(v, 0, v0, 0, nv);
    }

    /** Stage 0 at the initial state: K_0 = ξ(q₀, v₀), A_0 = f(q₀, v₀, t). */
    void firstStage(double t) {
        f.accelerations(q0, v0, t, a[0]);
        evaluations++;
        space.tangent(q0, v0, k[0]);
    }

    /** Stage s from the coefficients row[0..s) (see the class comment). */
    void stage(int s, double[] row, double t, double h) {
        combine(row, s, h);
        f.accelerations(qs, vs, t, a[s]);
        evaluations++;
        space.tangent(qs, vs, xi);
        space.chartRate(u, xi, k[s]);
    }

    /** u = h Σ_j w_j K_j, q_s = q₀ ⊕ u, v_s = v₀ + h Σ_j w_j A_j over j &lt; count. */
    void combine(double[] w, int count, double h) {
        for (int i = 0; i < nv; i++) {
            u[i] = 0;
            vs[i] = 0;
        }
        for (int j = 0; j < count; j++) {
            double c = w[j];
            if (c != 0) {
                double[] kj = k[j];
                double[] aj = a[j];
                for (int i = 0; i < nv; i++) {
                    u[i] += c * kj[i];
                    vs[i] += c * aj[i];
                }
            }
        }
        for (int i = 0; i < nv; i++) {
            u[i] *= h;
            vs[i] = v0[i] + h * vs[i];
        }
        space.retract(q0, u, qs);
    }
}
