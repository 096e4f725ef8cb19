package org.symdyn.manifold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.simulation.SimulationModels;

/** The kinematic map q̇ = N(q) v, the chart q₀ ⊕ u, its inverse and the chart rate J⁻¹(u) ξ. */
class StateSpaceTest {

    @Test
    void sizesAndComponents() throws Exception {
        StateSpace s = new StateSpace(SimulationModels.everyJoint());
        assertEquals(7 + 4 + 1 + 1 + 3, s.nq());
        assertEquals(6 + 3 + 1 + 1 + 3, s.nv());
        assertTrue(s.hasQuaternions());
        // Floating: [ω (rotation), v (moves p = q[0..3))], ball: rotation, then scalars.
        for (int i = 0; i < 3; i++) {
            assertTrue(s.isRotationComponent(i));
            assertEquals(-1, s.positionIndexOf(i));
            assertFalse(s.isRotationComponent(3 + i));
            assertEquals(i, s.positionIndexOf(3 + i));
            assertTrue(s.isRotationComponent(6 + i));
        }
        assertEquals(11, s.positionIndexOf(9));
        assertEquals(15, s.positionIndexOf(13));
        assertFalse(new StateSpace(SimulationModels.pendulum()).hasQuaternions());
    }

    /** q̇ = N(q) v is the derivative of q ⊕ (h ξ(q, v)) at h = 0 (central differences). */
    @Test
    void qdotIsTheDerivativeOfIntegrate() throws Exception {
        Model model = SimulationModels.everyJoint();
        StateSpace s = new StateSpace(model);
        Random rnd = new Random(3);
        double h = 1e-6;
        for (int n = 0; n < 20; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(model.nv(), 2, rnd);
            double[] qdot = new double[model.nq()];
            s.qdot(q, v, qdot);
            double[] plus = new double[model.nq()];
            double[] minus = new double[model.nq()];
            s.integrate(q, v, h, plus);
            s.integrate(q, v, -h, minus);
            for (int i = 0; i < qdot.length; i++) {
                assertEquals((plus[i] - minus[i]) / (2 * h), qdot[i], 1e-8, "q̇[" + i + "]");
            }
        }
    }

    /** The generic kinematics agree: the body's world velocity equals d/dt of its pose along q̇. */
    @Test
    void floatingPositionRateIsTheWorldVelocityOfTheOrigin() throws Exception {
        Model model = SimulationModels.freeBody();
        StateSpace s = new StateSpace(model);
        GenericDynamics kin = new GenericDynamics(model);
        Random rnd = new Random(5);
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(6, 2, rnd);
        double[] qdot = new double[7];
        s.qdot(q, v, qdot);
        double[] pv = new double[3];
        kin.pointVelocity(q, v, 0, new double[3], pv);
        for (int i = 0; i < 3; i++) {
            assertEquals(pv[i], qdot[i], 1e-14);
        }
    }

    /**
     * The chart: along q(s) = q₀ ⊕ (u + s K) with K = J⁻¹(u) ξ(q(0), v), dq/ds = N(q(0)) v. This is what makes
     * Runge-Kutta stages in the chart consistent with the kinematics for large rotations too.
     */
    @Test
    void chartRateGivesTheKinematicsInTheChart() throws Exception {
        Model model = SimulationModels.everyJoint();
        StateSpace s = new StateSpace(model);
        Random rnd = new Random(7);
        int nq = model.nq();
        int nv = model.nv();
        double h = 1e-6;
        for (int n = 0; n < 20; n++) {
            double[] q0 = TestMechanisms.randomQ(model, rnd);
            // Rotations up to about 2.5 rad (and tiny ones: the series branch).
            double[] u = TestMechanisms.random(nv, n % 4 == 0 ? 1e-3 : 1.4, rnd);
            double[] v = TestMechanisms.random(nv, 2, rnd);
            double[] q1 = new double[nq];
            s.retract(q0, u, q1);
            double[] xi = new double[nv];
            s.tangent(q1, v, xi);
            double[] k = new double[nv];
            s.chartRate(u, xi, k);
            double[] up = u.clone();
            double[] um = u.clone();
            for (int i = 0; i < nv; i++) {
                up[i] += h * k[i];
                um[i] -= h * k[i];
            }
            double[] qp = new double[nq];
            double[] qm = new double[nq];
            s.retract(q0, up, qp);
            s.retract(q0, um, qm);
            double[] qdot = new double[nq];
            s.qdot(q1, v, qdot);
            for (int i = 0; i < nq; i++) {
                assertEquals(qdot[i], (qp[i] - qm[i]) / (2 * h), 2e-8, "sample " + n + " q̇[" + i + "]");
            }
        }
    }

    /** difference inverts retract; quaternions come out unit; aliasing q₀ and the output is allowed. */
    @Test
    void differenceInvertsRetract() throws Exception {
        Model model = SimulationModels.everyJoint();
        StateSpace s = new StateSpace(model);
        Random rnd = new Random(11);
        for (int n = 0; n < 20; n++) {
            double[] q0 = TestMechanisms.randomQ(model, rnd);
            double[] u = TestMechanisms.random(model.nv(), 1.5, rnd);
            double[] q1 = new double[model.nq()];
            s.retract(q0, u, q1);
            assertTrue(s.quaternionNormError(q1) < 1e-15);
            double[] back = new double[model.nv()];
            s.difference(q0, q1, back);
            assertTrue(TestMechanisms.maxDiff(u, back) < 1e-13, "u " + TestMechanisms.maxDiff(u, back));
            double[] alias = q0.clone();
            s.retract(alias, u, alias);
            assertTrue(TestMechanisms.maxDiff(q1, alias) == 0);
            double[] v = TestMechanisms.random(model.nv(), 1, rnd);
            double[] out = new double[model.nq()];
            s.integrate(q0, v, 0.1, out);
            alias = q0.clone();
            s.integrate(alias, v, 0.1, alias);
            assertTrue(TestMechanisms.maxDiff(out, alias) == 0);
        }
    }
}
