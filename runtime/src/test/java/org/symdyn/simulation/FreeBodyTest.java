package org.symdyn.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.model.Model;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.spatial.Rotations;

/**
 * A torque-free rigid body on a floating joint (no gravity) tumbling for 5 s: its quaternion stays unit to 1e-12 and
 * its momentum (linear, and angular about the world origin) is conserved to the integrator's truncation error.
 */
class FreeBodyTest {
    private static final double[] Q0 = {0.1, 0.2, 0.3, 0.1, -0.3, 0.2, Math.sqrt(1 - 0.14)};
    /** ω (rad/s) about all body axes, origin velocity (m/s), both in body coordinates. */
    private static final double[] V0 = {3, -4, 5, 0.5, 0.2, -0.1};

    /** World spatial momentum [L about the world origin; P] (N·m·s, N·s) of the body at (q, v). */
    static double[] momentum(Model model, double[] q, double[] v) {
        RigidBodyInertia inertia = model.body(0).inertia();
        double[] hb = new double[6];
        inertia.multiply(v, 0, hb, 0); // [angular about the body origin; linear], body coordinates
        double[] r = new double[9];
        Rotations.fromQuaternion(q[3], q[4], q[5], q[6], r);
        double[] n = new double[3];
        double[] f = new double[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                n[i] += r[3 * i + j] * hb[j];
                f[i] += r[3 * i + j] * hb[3 + j];
            }
        }
        return new double[] {n[0] + q[1] * f[2] - q[2] * f[1], n[1] + q[2] * f[0] - q[0] * f[2],
            n[2] + q[0] * f[1] - q[1] * f[0], f[0], f[1], f[2]};
    }

    private static double norm(double[] x, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += x[i] * x[i];
        }
        return Math.sqrt(s);
    }

    /** Records max | |quat| - 1 | and the largest change of the momentum over a run. */
    static final class MomentumMonitor implements StepListener {
        final Model model;
        double[] initial;
        double maxQuaternion;
        double maxAngular;
        double maxLinear;
        double maxEnergy;
        double initialEnergy;

        MomentumMonitor(Model model) {
            this.model = model;
        }

        @Override
        public void onStep(Simulator sim) {
            double[] h = momentum(model, sim.q(), sim.v());
            if (initial == null) {
                initial = h;
                initialEnergy = sim.totalEnergy();
            }
            double[] d = new double[6];
            for (int i = 0; i < 6; i++) {
                d[i] = h[i] - initial[i];
            }
            maxAngular = Math.max(maxAngular, norm(d, 0, 3));
            maxLinear = Math.max(maxLinear, norm(d, 3, 6));
            maxQuaternion = Math.max(maxQuaternion, sim.quaternionNormError());
            maxEnergy = Math.max(maxEnergy, Math.abs(sim.totalEnergy() - initialEnergy));
        }
    }

    private static MomentumMonitor tumble(Integrator.Factory integrator, double h, String what) throws Exception {
        Model model = SimulationModels.freeBody();
        Simulator sim = Simulator.builder(model).integrator(integrator).build();
        sim.setState(0, Q0, V0);
        MomentumMonitor m = new MomentumMonitor(model);
        sim.run(5, h, m);
        assertEquals(5, sim.time(), 1e-12);
        System.out.printf("free body %-24s 5 s: max||quat|-1| %.2e, |L-L0| %.3e (|L0| %.4f N·m·s), |P-P0| %.3e, "
                + "|E-E0| %.3e J (E0 %.4f J), %d steps%n", what, m.maxQuaternion, m.maxAngular,
                norm(m.initial, 0, 3), m.maxLinear, m.maxEnergy, m.initialEnergy, sim.stepCount());
        return m;
    }

    /**
     * RK4 at h = 1e-3 s. Quaternion: every step ends with a product of unit quaternions renormalised, so the norm
     * error is rounding (asserted ≤ 1e-12 at every step). Momentum: the equations conserve it exactly, so its change
     * is RK4's global error, ~ C (|ω| h)⁴ |ω| t relative; with |ω| ≈ 7 rad/s, t = 5 s and C ≤ 1 that is
     * ≤ (7e-3)⁴ · 35 ≈ 8e-8: asserted 1e-7 |L0|. Halving h must divide the change by about 16 (≥ 8 asserted), which
     * shows it is truncation error and not, say, a wrong kinematic map (which would not converge).
     */
    @Test
    void rk4KeepsTheQuaternionUnitAndConservesMomentum() throws Exception {
        MomentumMonitor m = tumble(RungeKutta4::new, 1e-3, "RK4 h=1e-3");
        MomentumMonitor half = tumble(RungeKutta4::new, 5e-4, "RK4 h=5e-4");
        double l0 = norm(m.initial, 0, 3);
        assertTrue(m.maxQuaternion <= 1e-12, "quaternion norm error " + m.maxQuaternion);
        assertTrue(m.maxAngular <= 1e-7 * l0, "angular momentum change " + m.maxAngular);
        assertTrue(m.maxLinear <= 1e-7 * norm(m.initial, 3, 6), "linear momentum change " + m.maxLinear);
        assertTrue(m.maxAngular > 8 * half.maxAngular, "halving h: " + m.maxAngular + " vs " + half.maxAngular);
    }

    /** The adaptive method conserves momentum to about its tolerance; semi-implicit Euler keeps unit quaternions. */
    @Test
    void otherIntegrators() throws Exception {
        MomentumMonitor dp = tumble(DormandPrince45.factory(1e-10, 1e-10), 0.1, "DOPRI5 tol 1e-10");
        assertTrue(dp.maxQuaternion <= 1e-12);
        assertTrue(dp.maxAngular <= 1e-7 * norm(dp.initial, 0, 3), "DOPRI angular momentum " + dp.maxAngular);
        MomentumMonitor euler = tumble(SemiImplicitEuler::new, 1e-3, "semi-implicit Euler h=1e-3");
        assertTrue(euler.maxQuaternion <= 1e-12);
    }
}
