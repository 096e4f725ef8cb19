package org.symdyn.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.Dynamics;
import org.symdyn.it.dyn.Pendulum;
import org.symdyn.it.dyn.TwoLinkArmDynamics;

/** The generated classes against the mass matrices and gravity torques worked out by hand. */
class GeneratedDynamicsTest {
    private static final double TOL = 1e-12;

    @Test
    void pendulum() {
        Pendulum p = new Pendulum();
        assertEquals(1, p.nq());
        assertEquals(1, p.nv());
        // H = Iyy + m l^2 = 0.1 + 2 * 0.5^2, whatever q
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        p.massMatrix(new double[] {0.3}, h);
        assertEquals(0.6, h.get(0, 0), TOL);
        // bob at (-l sin q, 0, -l cos q): V = -m g l cos q, so g(q) = dV/dq = m g l sin q
        double[] g = new double[1];
        p.gravityForces(new double[] {0.3}, g);
        assertEquals(2 * 9.81 * 0.5 * Math.sin(0.3), g[0], TOL);
    }

    @Test
    void twoLinkArm() {
        TwoLinkArmDynamics arm = new TwoLinkArmDynamics();
        assertEquals(2, arm.nv());
        double m1 = 1.5, a1 = 0.25, i1 = 0.03, l1 = 0.5, m2 = 0.8, a2 = 0.2, i2 = 0.02;
        DMatrixRMaj h = new DMatrixRMaj(2, 2);
        for (double q2 : new double[] {0, 0.7, -2.1}) {
            arm.massMatrix(new double[] {0.4, q2}, h);
            double c = Math.cos(q2);
            assertEquals(i1 + m1 * a1 * a1 + i2 + m2 * (l1 * l1 + a2 * a2 + 2 * l1 * a2 * c), h.get(0, 0), TOL);
            assertEquals(i2 + m2 * (a2 * a2 + l1 * a2 * c), h.get(0, 1), TOL);
            assertEquals(h.get(0, 1), h.get(1, 0), TOL);
            assertEquals(i2 + m2 * a2 * a2, h.get(1, 1), TOL);
        }
    }

    @Test
    void forwardDynamicsInvertsInverseDynamics() {
        Dynamics arm = new TwoLinkArmDynamics();
        double[] q = {0.4, 0.7}, v = {-1.2, 0.5}, tau = {3, -1}, vdot = new double[2], back = new double[2];
        arm.forwardDynamics(q, v, tau, vdot);
        arm.inverseDynamics(q, v, vdot, back);
        assertEquals(tau[0], back[0], 1e-10);
        assertEquals(tau[1], back[1], 1e-10);
    }
}
