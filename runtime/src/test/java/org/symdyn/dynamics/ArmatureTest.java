package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A joint's armature a in the generic runtime: H_kk gains a on each of the joint's dofs (CRBA), τ gains a v̇_k
 * (RNEA), the articulated D_i gains a (ABA), and everything built on them follows: checked on a pendulum in closed
 * form and, on a tree with every joint type, against the same model without armature (H_a - H_0 = diag(a),
 * τ_a - τ_0 = a v̇, C unchanged), the ABA against the CRBA's H, H⁻¹ H = 1 and the derivatives against finite
 * differences.
 */
class ArmatureTest {
    private static final double G = 9.81;

    /**
     * A pendulum on a revolute joint about y, mass m at distance l below the axis, inertia I_yy about its centre of
     * mass, armature a: H = m l² + I_yy + a, g(θ) = m g l sin θ, v̇ = (τ - m g l sin θ) / H.
     */
    @Test
    void pendulumHasClosedFormInertiaAndAcceleration() throws ModelException {
        double m = 1.7, l = 0.45, iyy = 0.02, a = 0.35;
        Model model = Model.builder("pendulum")
                .addBody(BodySpec.builder("bob", "world", "hinge", JointType.CONTINUOUS).axis(0, 1, 0)
                        .armature(a).damping(0.1)
                        .inertia(RigidBodyInertia.of(m, new double[] {0, 0, -l}, 0.03, 0, 0, iyy, 0, 0.01)).build())
                .build();
        assertEquals(a, model.body(0).joint().armature());
        GenericDynamics dyn = new GenericDynamics(model);
        double theta = 0.7, thetaDot = -1.3, tau = 0.9;
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        dyn.massMatrix(new double[] {theta}, h);
        double expectedH = m * l * l + iyy + a;
        assertEquals(expectedH, h.get(0, 0), 1e-14);
        double[] vdot = new double[1];
        dyn.forwardDynamics(new double[] {theta}, new double[] {thetaDot}, new double[] {tau}, vdot);
        assertEquals((tau - m * G * l * Math.sin(theta)) / expectedH, vdot[0], 1e-13);
        double[] tauOut = new double[1];
        dyn.inverseDynamics(new double[] {theta}, new double[] {thetaDot}, new double[] {0.4}, tauOut);
        assertEquals(expectedH * 0.4 + m * G * l * Math.sin(theta), tauOut[0], 1e-13);
        DMatrixRMaj inv = new DMatrixRMaj(1, 1);
        dyn.inverseMassMatrix(new double[] {theta}, inv);
        assertEquals(1 / expectedH, inv.get(0, 0), 1e-14);
        // Damping is a simulation's passive force, not part of the dynamics.
        double[] c = new double[1];
        dyn.biasForces(new double[] {theta}, new double[] {thetaDot}, c);
        assertEquals(m * G * l * Math.sin(theta), c[0], 1e-13);
    }

    @Test
    void armatureChangesHAndTauByItsDiagonalOnly() throws ModelException {
        Model with = tree(true);
        Model without = tree(false);
        assertNotEquals(with.contentHash(), without.contentHash());
        GenericDynamics da = new GenericDynamics(with);
        GenericDynamics d0 = new GenericDynamics(without);
        int nv = with.nv();
        double[] arm = FlatModel.dofArmature(with);
        Random rnd = new Random(33);
        for (int state = 0; state < 6; state++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(with, rnd);
            double[] v = uniform(rnd, nv, 2);
            double[] vdot = uniform(rnd, nv, 3);
            DMatrixRMaj ha = new DMatrixRMaj(nv, nv);
            DMatrixRMaj h0 = new DMatrixRMaj(nv, nv);
            da.massMatrix(q, ha);
            d0.massMatrix(q, h0);
            double[] ta = new double[nv];
            double[] t0 = new double[nv];
            da.inverseDynamics(q, v, vdot, ta);
            d0.inverseDynamics(q, v, vdot, t0);
            double[] ca = new double[nv];
            double[] c0 = new double[nv];
            da.biasForces(q, v, ca);
            d0.biasForces(q, v, c0);
            for (int r = 0; r < nv; r++) {
                assertTrue(arm[r] > 0, "every dof of the tree has armature");
                for (int col = 0; col < nv; col++) {
                    assertEquals(h0.get(r, col) + (r == col ? arm[r] : 0), ha.get(r, col), 1e-12);
                }
                assertEquals(t0[r] + arm[r] * vdot[r], ta[r], 1e-11);
                assertEquals(c0[r], ca[r], 0.0);
            }
        }
    }

    /** The ABA's v̇ solves the CRBA's H v̇ = τ - C; H⁻¹ H = 1; ∂τ/∂v̇ = H by differences of the RNEA. */
    @Test
    void articulatedBodyAgreesWithTheMassMatrix() throws ModelException {
        Model model = tree(true);
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        Random rnd = new Random(6);
        for (int state = 0; state < 6; state++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            double[] v = uniform(rnd, nv, 2);
            double[] tau = uniform(rnd, nv, 10);
            DMatrixRMaj h = new DMatrixRMaj(nv, nv);
            dyn.massMatrix(q, h);
            double[] c = new double[nv];
            dyn.biasForces(q, v, c);
            DMatrixRMaj rhs = new DMatrixRMaj(nv, 1);
            for (int k = 0; k < nv; k++) {
                rhs.set(k, 0, tau[k] - c[k]);
            }
            DMatrixRMaj expected = new DMatrixRMaj(nv, 1);
            assertTrue(CommonOps_DDRM.solve(h.copy(), rhs, expected));
            double[] vdot = new double[nv];
            dyn.forwardDynamics(q, v, tau, vdot);
            for (int k = 0; k < nv; k++) {
                assertEquals(expected.get(k, 0), vdot[k], 1e-10 * Math.max(1, Math.abs(expected.get(k, 0))));
            }
            DMatrixRMaj inv = new DMatrixRMaj(nv, nv);
            dyn.inverseMassMatrix(q, inv);
            DMatrixRMaj product = new DMatrixRMaj(nv, nv);
            CommonOps_DDRM.mult(inv, h, product);
            for (int r = 0; r < nv; r++) {
                for (int col = 0; col < nv; col++) {
                    assertEquals(r == col ? 1 : 0, product.get(r, col), 1e-11);
                }
            }
            // τ is affine in v̇ with slope H.
            double[] vdot0 = uniform(rnd, nv, 3);
            DMatrixRMaj slope = differences(nv, k -> t -> {
                double[] a = vdot0.clone();
                a[k] += t;
                double[] out = new double[nv];
                dyn.inverseDynamics(q, v, a, out);
                return out;
            });
            assertMatrixClose(h, slope, 1e-8);
        }
    }

    /** ∂v̇/∂q, ∂v̇/∂v, ∂v̇/∂τ and ∂τ/∂q, ∂τ/∂v of the model with armature against finite differences. */
    @Test
    void derivativesMatchFiniteDifferences() throws ModelException {
        Model model = tree(true);
        GenericDynamics dyn = new GenericDynamics(model);
        GenericDynamics fd = new GenericDynamics(model);
        int nv = model.nv();
        Random rnd = new Random(61);
        for (int state = 0; state < 4; state++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            double[] v = uniform(rnd, nv, 2);
            double[] vdot = uniform(rnd, nv, 3);
            double[] tau = uniform(rnd, nv, 10);
            DMatrixRMaj dq = new DMatrixRMaj(nv, nv);
            DMatrixRMaj dv = new DMatrixRMaj(nv, nv);
            DMatrixRMaj dtau = new DMatrixRMaj(nv, nv);
            dyn.forwardDynamicsDerivatives(q, v, tau, dq, dv, dtau);
            assertMatrixClose(differences(nv, k -> t -> {
                double[] delta = new double[nv];
                delta[k] = 1;
                double[] a = new double[nv];
                fd.forwardDynamics(DynamicsPropertyTest.integrate(model, q, delta, t), v, tau, a);
                return a;
            }), dq, 1e-6);
            assertMatrixClose(differences(nv, k -> t -> {
                double[] w = v.clone();
                w[k] += t;
                double[] a = new double[nv];
                fd.forwardDynamics(q, w, tau, a);
                return a;
            }), dv, 1e-6);
            assertMatrixClose(differences(nv, k -> t -> {
                double[] x = tau.clone();
                x[k] += t;
                double[] a = new double[nv];
                fd.forwardDynamics(q, v, x, a);
                return a;
            }), dtau, 1e-6);
            dyn.inverseDynamicsDerivatives(q, v, vdot, dq, dv);
            assertMatrixClose(differences(nv, k -> t -> {
                double[] delta = new double[nv];
                delta[k] = 1;
                double[] out = new double[nv];
                fd.inverseDynamics(DynamicsPropertyTest.integrate(model, q, delta, t), v, vdot, out);
                return out;
            }), dq, 1e-6);
            assertMatrixClose(differences(nv, k -> t -> {
                double[] w = v.clone();
                w[k] += t;
                double[] out = new double[nv];
                fd.inverseDynamics(q, w, vdot, out);
                return out;
            }), dv, 1e-6);
        }
    }

    @Test
    void negativeOrNonFiniteArmatureAndDampingAreRefusedAtTheJoint() {
        for (double bad : new double[] {-0.1, Double.NaN, Double.POSITIVE_INFINITY}) {
            ModelException e = assertThrows(ModelException.class, () -> Model.builder("bad")
                    .addBody(BodySpec.builder("bob", "world", "hinge", JointType.REVOLUTE).armature(bad)
                            .inertia(RigidBodyInertia.of(1, new double[3], 1, 0, 0, 1, 0, 1)).build())
                    .build());
            assertTrue(e.getMessage().contains("joint 'hinge': armature"), e.getMessage());
            e = assertThrows(ModelException.class, () -> Model.builder("bad")
                    .addBody(BodySpec.builder("bob", "world", "hinge", JointType.REVOLUTE).damping(bad)
                            .inertia(RigidBodyInertia.of(1, new double[3], 1, 0, 0, 1, 0, 1)).build())
                    .build());
            assertTrue(e.getMessage().contains("joint 'hinge': damping"), e.getMessage());
        }
    }

    /**
     * A floating trunk with a ball-jointed arm (revolute elbow), a planar skate with a prismatic toe and a continuous
     * wheel; with {@code armature} every joint has one (different per joint).
     */
    static Model tree(boolean armature) throws ModelException {
        double k = armature ? 1 : 0;
        return Model.builder(armature ? "armature_tree" : "armature_tree_bare")
                .addBody(spec("trunk", "world", "root", JointType.FLOATING, null, Pose.IDENTITY,
                        inertia(8.0, 0.02, -0.01, 0.03, 0.3, 0.5, 0.6), 0.4 * k))
                .addBody(spec("upper_arm", "trunk", "shoulder", JointType.BALL, null,
                        pose(0.2, 0.15, 0.1, 0, 0.4, 0), inertia(1.1, 0, 0, -0.15, 0.012, 0.012, 0.003), 0.05 * k))
                .addBody(spec("forearm", "upper_arm", "elbow", JointType.REVOLUTE, new double[] {0, 1, 0},
                        pose(0, 0, -0.3, 0, 0, 0), inertia(0.7, 0, 0, -0.12, 0.006, 0.006, 0.001), 0.12 * k))
                .addBody(spec("skate", "trunk", "glide", JointType.PLANAR, new double[] {0, 0, 1},
                        pose(-0.2, -0.1, -0.25, 0.1, 0, 0), inertia(0.6, 0.03, 0, -0.02, 0.002, 0.003, 0.004),
                        0.02 * k))
                .addBody(spec("toe", "skate", "toe_slide", JointType.PRISMATIC, new double[] {1, 0.2, 0},
                        pose(0.1, 0, -0.05, 0, 0, 0.2), inertia(0.2, 0, 0.02, 0, 0.0004, 0.0003, 0.0005), 0.3 * k))
                .addBody(spec("wheel", "toe", "spin", JointType.CONTINUOUS, new double[] {0, 0.3, 1},
                        pose(0, 0.05, 0, 1.2, 0, 0), inertia(0.1, 0, 0, 0.01, 0.0002, 0.0002, 0.0003), 0.008 * k))
                .build();
    }

    private static BodySpec spec(String link, String parent, String joint, JointType type, double[] axis,
            Pose placement, RigidBodyInertia inertia, double armature) {
        BodySpec.Builder b = BodySpec.builder(link, parent, joint, type).placement(placement).inertia(inertia)
                .armature(armature);
        if (axis != null) {
            b.axis(axis);
        }
        return b.build();
    }

    private static RigidBodyInertia inertia(double m, double cx, double cy, double cz, double a, double b, double c) {
        return RigidBodyInertia.of(m, new double[] {cx, cy, cz}, a, 0.1 * Math.min(a, b) * 0.3,
                -0.05 * Math.min(a, c), b, 0.02 * Math.min(b, c), c);
    }

    private static Pose pose(double x, double y, double z, double roll, double pitch, double yaw) {
        return Pose.fromXyzRpy(new double[] {x, y, z}, new double[] {roll, pitch, yaw});
    }

    private static double[] uniform(Random rnd, int n, double half) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * half;
        }
        return x;
    }

    /**
     * Column k: d/dt f_k(t) at 0 by the fourth-order central stencil with step 1e-4 (truncation and round-off far
     * below the 1e-6 bars).
     */
    private static DMatrixRMaj differences(int n, Function<Integer, java.util.function.DoubleFunction<double[]>> f) {
        double h = 1e-4;
        DMatrixRMaj out = new DMatrixRMaj(n, n);
        for (int k = 0; k < n; k++) {
            java.util.function.DoubleFunction<double[]> fk = f.apply(k);
            double[] m2 = fk.apply(-2 * h);
            double[] m1 = fk.apply(-h);
            double[] p1 = fk.apply(h);
            double[] p2 = fk.apply(2 * h);
            for (int r = 0; r < m2.length; r++) {
                out.set(r, k, (m2[r] - 8 * m1[r] + 8 * p1[r] - p2[r]) / (12 * h));
            }
        }
        return out;
    }

    /** max |expected - actual| ≤ tol · max(1, max |expected|). */
    private static void assertMatrixClose(DMatrixRMaj expected, DMatrixRMaj actual, double tol) {
        double scale = 1;
        double err = 0;
        for (int i = 0; i < expected.getNumElements(); i++) {
            scale = Math.max(scale, Math.abs(expected.data[i]));
            err = Math.max(err, Math.abs(expected.data[i] - actual.data[i]));
        }
        assertTrue(err <= tol * scale, "error " + err + " against scale " + scale);
    }
}
