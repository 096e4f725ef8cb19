package org.symdyn.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.Model;

/**
 * Convergence orders: RK4 (error ratio ≈ 2⁴ = 16 when h halves), semi-implicit Euler (≈ 2), on a simple pendulum
 * and, for RK4, on a tumbling free body (quaternion coordinates: the chart construction must keep order 4 on SO(3));
 * Dormand-Prince 5(4) meets its tolerance per step and globally.
 */
class IntegratorOrderTest {
    /** Pendulum released from rest 1.2 rad above the bottom (large swing: clearly nonlinear). */
    private static final double[] PENDULUM_Q0 = {-Math.PI / 2 + 1.2};
    private static final double[] PENDULUM_V0 = {0};
    private static final double T = 3;

    private static double[][] integrate(Integrator.Factory factory, Model model, double[] q0, double[] v0,
            double tEnd, double h) {
        StateSpace space = new StateSpace(model);
        Integrator integrator = factory.create(space, new UnconstrainedAcceleration(new GenericDynamics(model)));
        double[] q = q0.clone();
        double[] v = v0.clone();
        long n = Math.round(tEnd / h);
        for (long i = 0; i < n; i++) {
            integrator.step(i * h, h, q, v);
        }
        return new double[][] {q, v};
    }

    /** max over chart coordinates of q (StateSpace.difference) and over v. */
    private static double error(StateSpace space, double[][] a, double[][] ref) {
        double[] u = new double[space.nv()];
        space.difference(ref[0], a[0], u);
        double e = 0;
        for (int i = 0; i < u.length; i++) {
            e = Math.max(e, Math.max(Math.abs(u[i]), Math.abs(a[1][i] - ref[1][i])));
        }
        return e;
    }

    private static double[] ratios(Integrator.Factory factory, Model model, double[] q0, double[] v0, double tEnd,
            double[] steps, double[][] ref, String what) {
        StateSpace space = new StateSpace(model);
        double[] errors = new double[steps.length];
        for (int k = 0; k < steps.length; k++) {
            errors[k] = error(space, integrate(factory, model, q0, v0, tEnd, steps[k]), ref);
        }
        double[] r = new double[steps.length - 1];
        StringBuilder sb = new StringBuilder(what + ":");
        for (int k = 0; k < r.length; k++) {
            r[k] = errors[k] / errors[k + 1];
            sb.append(String.format(" e(%g)=%.3e", steps[k], errors[k]));
        }
        sb.append(String.format(" e(%g)=%.3e ratios", steps[r.length], errors[r.length]));
        for (double x : r) {
            sb.append(String.format(" %.2f", x));
        }
        System.out.println(sb);
        return r;
    }

    @Test
    void rungeKutta4IsFourthOrderOnAPendulum() throws Exception {
        Model model = SimulationModels.pendulum();
        double[][] ref = integrate(RungeKutta4::new, model, PENDULUM_Q0, PENDULUM_V0, T, 1e-4);
        double[] r = ratios(RungeKutta4::new, model, PENDULUM_Q0, PENDULUM_V0, T, new double[] {0.02, 0.01, 0.005},
                ref, "RK4 pendulum");
        for (double x : r) {
            assertTrue(x > 14 && x < 18, "RK4 error ratio " + x);
        }
    }

    @Test
    void semiImplicitEulerIsFirstOrderOnAPendulum() throws Exception {
        Model model = SimulationModels.pendulum();
        double[][] ref = integrate(RungeKutta4::new, model, PENDULUM_Q0, PENDULUM_V0, T, 1e-4);
        double[] r = ratios(SemiImplicitEuler::new, model, PENDULUM_Q0, PENDULUM_V0, T,
                new double[] {2e-3, 1e-3, 5e-4}, ref, "semi-implicit Euler pendulum");
        for (double x : r) {
            assertTrue(x > 1.8 && x < 2.2, "semi-implicit Euler error ratio " + x);
        }
    }

    /**
     * A free body tumbling (ω ≈ 3-5 rad/s about all axes) for 2 s: RK4 in the chart of each step keeps order 4 in the
     * quaternion and in v. (Updating the quaternion with the stages' ω but without J⁻¹ would give order 2.)
     */
    @Test
    void rungeKutta4IsFourthOrderOnATumblingBody() throws Exception {
        Model model = SimulationModels.freeBody();
        double[] q0 = {0.1, 0.2, 0.3, 0.1, -0.3, 0.2, Math.sqrt(1 - 0.14)};
        double[] v0 = {3, -4, 5, 0.5, 0.2, -0.1};
        double[][] ref = integrate(RungeKutta4::new, model, q0, v0, 2, 2.5e-4);
        double[] r = ratios(RungeKutta4::new, model, q0, v0, 2, new double[] {0.02, 0.01, 0.005}, ref,
                "RK4 tumbling body");
        for (double x : r) {
            assertTrue(x > 14 && x < 18, "RK4 error ratio on SO(3) " + x);
        }
        r = ratios(SemiImplicitEuler::new, model, q0, v0, 2, new double[] {1e-3, 5e-4}, ref,
                "semi-implicit Euler tumbling body");
        assertTrue(r[0] > 1.8 && r[0] < 2.2, "semi-implicit Euler ratio on SO(3) " + r[0]);
    }

    /**
     * Dormand-Prince with rtol = atol = 1e-8: every accepted step's true local error (against 200 RK4 sub-steps from
     * the same state) is within the tolerance scale (error norm ≤ 1); the global error after 3 s (about 75 steps, the
     * local errors accumulate) stays within 100 tolerances; and the global error scales with the tolerance: 100 times
     * tighter tolerances give a global error at least 30 times smaller.
     */
    @Test
    void dormandPrinceMeetsItsTolerance() throws Exception {
        Model model = SimulationModels.pendulum();
        StateSpace space = new StateSpace(model);
        double tol = 1e-8;
        DormandPrince45 dp = new DormandPrince45(space, new UnconstrainedAcceleration(new GenericDynamics(model)))
                .tolerances(tol, tol);
        RungeKutta4 fine = new RungeKutta4(space, new UnconstrainedAcceleration(new GenericDynamics(model)));
        double[] q = PENDULUM_Q0.clone();
        double[] v = PENDULUM_V0.clone();
        double t = 0;
        double worstLocal = 0;
        while (T - t > 1e-12) {
            double[] qr = q.clone();
            double[] vr = v.clone();
            double h = dp.step(t, T - t, q, v);
            assertTrue(dp.lastErrorNorm() <= 1);
            for (int i = 0; i < 200; i++) {
                fine.step(t + i * h / 200, h / 200, qr, vr);
            }
            double sq = tol + tol * Math.max(Math.abs(qr[0]), Math.abs(q[0]));
            double sv = tol + tol * Math.max(Math.abs(vr[0]), Math.abs(v[0]));
            double local = Math.sqrt(0.5 * (Math.pow((q[0] - qr[0]) / sq, 2) + Math.pow((v[0] - vr[0]) / sv, 2)));
            worstLocal = Math.max(worstLocal, local);
            t += h;
        }
        assertEquals(T, t, 1e-12);
        double[][] ref = integrate(RungeKutta4::new, model, PENDULUM_Q0, PENDULUM_V0, T, 1e-4);
        double global = error(space, new double[][] {q, v}, ref);
        System.out.printf("DOPRI5 rtol=atol=%g: %d accepted, %d rejected, %d evaluations, worst true local error "
                + "norm %.3f, global error at %g s %.3e%n", tol, dp.acceptedSteps(), dp.rejectedSteps(),
                dp.evaluations(), worstLocal, T, global);
        assertTrue(worstLocal <= 1, "true local error norm " + worstLocal);
        assertTrue(global < 100 * tol, "global error " + global);
        assertTrue(dp.acceptedSteps() > 10);
        // FSAL: an accepted step after the first costs 6 evaluations (rejections 6 more; the start 2 extra).
        assertEquals(2 + 6 * (dp.acceptedSteps() + dp.rejectedSteps()), dp.evaluations());

        Integrator tight = DormandPrince45.factory(tol / 100, tol / 100).create(space,
                new UnconstrainedAcceleration(new GenericDynamics(model)));
        q = PENDULUM_Q0.clone();
        v = PENDULUM_V0.clone();
        t = 0;
        while (T - t > 1e-12) {
            t += tight.step(t, T - t, q, v);
        }
        double tightGlobal = error(space, new double[][] {q, v}, ref);
        System.out.printf("DOPRI5 rtol=atol=%g: global error %.3e%n", tol / 100, tightGlobal);
        assertTrue(tightGlobal < global / 30, "tighter tolerance: " + tightGlobal + " vs " + global);
    }

    /** A step that is too large is rejected and retried; the count is reported. */
    @Test
    void dormandPrinceRejectsTooLargeSteps() throws Exception {
        Model model = SimulationModels.pendulum();
        StateSpace space = new StateSpace(model);
        DormandPrince45 dp = new DormandPrince45(space, new UnconstrainedAcceleration(new GenericDynamics(model)))
                .tolerances(1e-10, 1e-10).initialStep(0.5);
        double[] q = PENDULUM_Q0.clone();
        double[] v = PENDULUM_V0.clone();
        double h = dp.step(0, 1, q, v);
        assertTrue(dp.rejectedSteps() >= 1, "rejections " + dp.rejectedSteps());
        assertTrue(h < 0.5 && h > 0);
        assertEquals(1, dp.acceptedSteps());
    }
}
