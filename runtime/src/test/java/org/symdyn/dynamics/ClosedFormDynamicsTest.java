package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** The generic runtime against equations of motion derived by hand. */
class ClosedFormDynamicsTest {
    private static final double G = 9.81;
    /** Closed forms and recursions differ only by rounding of O(10) operations on O(1..100) values. */
    private static final double TOL = 1e-12;

    private static RigidBodyInertia rod(double m, double lc, double izz) {
        return RigidBodyInertia.of(m, new double[] {lc, 0, 0}, 0.01, 0, 0, izz, 0, izz);
    }

    /**
     * Planar double pendulum: revolute z joints, links along x, gravity -g y. With lengths l1, centres of mass
     * lc1, lc2, masses m1, m2 and inertias I1, I2 about the centres of mass:
     * H11 = I1 + I2 + m1 lc1² + m2 (l1² + lc2² + 2 l1 lc2 cos q2), H12 = I2 + m2 (lc2² + l1 lc2 cos q2),
     * H22 = I2 + m2 lc2²; Coriolis with h = m2 l1 lc2 sin q2: c1 = -h (2 q̇1 q̇2 + q̇2²), c2 = h q̇1²;
     * gravity from V = g (m1 lc1 sin q1 + m2 (l1 sin q1 + lc2 sin(q1 + q2))).
     */
    @Test
    void doublePendulumMatchesLagrange() throws ModelException {
        double m1 = 1.3, m2 = 0.7, l1 = 0.9, lc1 = 0.4, lc2 = 0.6, i1 = 0.05, i2 = 0.03;
        Model model = Model.builder("double_pendulum").gravity(0, -G, 0)
                .addBody("link1", "world", "j1", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY,
                        rod(m1, lc1, i1))
                .addBody("link2", "link1", "j2", JointType.REVOLUTE, new double[] {0, 0, 1},
                        Pose.translation(l1, 0, 0), rod(m2, lc2, i2))
                .build();
        GenericDynamics dyn = new GenericDynamics(model);
        Random rnd = new Random(1);
        DMatrixRMaj h = new DMatrixRMaj(2, 2);
        double[] c = new double[2];
        double[] g = new double[2];
        double[] qdd = new double[2];
        for (int n = 0; n < 50; n++) {
            double q1 = rnd.nextDouble() * 6 - 3, q2 = rnd.nextDouble() * 6 - 3;
            double w1 = rnd.nextDouble() * 4 - 2, w2 = rnd.nextDouble() * 4 - 2;
            double[] q = {q1, q2};
            double[] v = {w1, w2};
            double h11 = i1 + i2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * Math.cos(q2));
            double h12 = i2 + m2 * (lc2 * lc2 + l1 * lc2 * Math.cos(q2));
            double h22 = i2 + m2 * lc2 * lc2;
            double hh = m2 * l1 * lc2 * Math.sin(q2);
            double g1 = G * ((m1 * lc1 + m2 * l1) * Math.cos(q1) + m2 * lc2 * Math.cos(q1 + q2));
            double g2 = G * m2 * lc2 * Math.cos(q1 + q2);
            double c1 = -hh * (2 * w1 * w2 + w2 * w2) + g1;
            double c2 = hh * w1 * w1 + g2;
            dyn.massMatrix(q, h);
            assertEquals(h11, h.get(0, 0), TOL);
            assertEquals(h12, h.get(0, 1), TOL);
            assertEquals(h12, h.get(1, 0), TOL);
            assertEquals(h22, h.get(1, 1), TOL);
            dyn.biasForces(q, v, c);
            assertEquals(c1, c[0], TOL);
            assertEquals(c2, c[1], TOL);
            dyn.gravityForces(q, g);
            assertEquals(g1, g[0], TOL);
            assertEquals(g2, g[1], TOL);
            double[] tau = {rnd.nextDouble() * 10 - 5, rnd.nextDouble() * 10 - 5};
            dyn.forwardDynamics(q, v, tau, qdd);
            // Solve the 2x2 system by Cramer's rule.
            double det = h11 * h22 - h12 * h12;
            double r1 = tau[0] - c1, r2 = tau[1] - c2;
            assertEquals((h22 * r1 - h12 * r2) / det, qdd[0], 1e-10);
            assertEquals((h11 * r2 - h12 * r1) / det, qdd[1], 1e-10);
        }
    }

    /** A single pendulum about y with gravity -g z: H = I_yy + m l², g(q) = m g l cos q for com along x. */
    @Test
    void singlePendulumAboutY() throws ModelException {
        double m = 2.0, l = 0.5, iyy = 0.02;
        Model model = Model.builder("pendulum")
                .addBody("bob", "world", "hinge", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.IDENTITY,
                        RigidBodyInertia.of(m, new double[] {l, 0, 0}, 0.01, 0, 0, iyy, 0, 0.01))
                .build();
        GenericDynamics dyn = new GenericDynamics(model);
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        double[] g = new double[1];
        for (double q = -3; q <= 3; q += 0.25) {
            dyn.massMatrix(new double[] {q}, h);
            assertEquals(iyy + m * l * l, h.get(0, 0), TOL);
            dyn.gravityForces(new double[] {q}, g);
            // Rotating about +y by q lowers a point on +x: z = -l sin q, V = -m g l sin q, dV/dq = -m g l cos q.
            assertEquals(-m * G * l * Math.cos(q), g[0], TOL);
        }
    }

    /** A body on a floating joint falls freely: v̇ = [0; Rᵀ g] whatever its pose and spin about its centre. */
    @Test
    void freeFallingBody() throws ModelException {
        Model model = Model.builder("ball")
                .addBody("body", "world", "free", JointType.FLOATING, null, Pose.IDENTITY,
                        RigidBodyInertia.of(3, new double[3], 0.1, 0, 0, 0.2, 0, 0.3))
                .build();
        GenericDynamics dyn = new GenericDynamics(model);
        Random rnd = new Random(2);
        double[] a = new double[6];
        for (int n = 0; n < 20; n++) {
            double[] quat = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            double norm = Math.sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
            double[] q = {1, 2, 3, quat[0] / norm, quat[1] / norm, quat[2] / norm, quat[3] / norm};
            // No angular velocity: the linear and angular parts decouple, so gyroscopic terms vanish.
            double[] v = {0, 0, 0, rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            dyn.forwardDynamics(q, v, new double[6], a);
            double[] rot = new double[9];
            org.symdyn.spatial.Rotations.fromQuaternion(q[3], q[4], q[5], q[6], rot);
            for (int k = 0; k < 3; k++) {
                assertEquals(0, a[k], TOL);
                // Rᵀ (0, 0, -g): row k of Rᵀ is column k of R.
                assertEquals(-G * rot[6 + k], a[3 + k], TOL);
            }
        }
    }

    /** A slider along z under gravity: H = m, g = m g, for any position. */
    @Test
    void prismaticJoint() throws ModelException {
        double m = 4.5;
        Model model = Model.builder("slider")
                .addBody("carriage", "world", "rail", JointType.PRISMATIC, new double[] {0, 0, 2}, Pose.IDENTITY,
                        RigidBodyInertia.of(m, new double[] {0.1, 0.2, 0.3}, 0.1, 0, 0, 0.1, 0, 0.1))
                .build();
        GenericDynamics dyn = new GenericDynamics(model);
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        double[] c = new double[1];
        double[] a = new double[1];
        for (double q = -1; q <= 1; q += 0.5) {
            dyn.massMatrix(new double[] {q}, h);
            assertEquals(m, h.get(0, 0), TOL);
            dyn.biasForces(new double[] {q}, new double[] {0.7}, c);
            assertEquals(m * G, c[0], TOL);
            dyn.forwardDynamics(new double[] {q}, new double[] {0.7}, new double[] {m * G + 9}, a);
            assertEquals(9 / m, a[0], TOL);
        }
    }
}
