package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.SharedFiles;
import org.symdyn.testing.TestJson;

/** Constraint functions against RBDL's reference values and against finite differences. */
class GenericConstraintsTest {
    private static final double NAN = Double.NaN;

    private static RigidBodyInertia rod(double m, double l) {
        return RigidBodyInertia.of(m, new double[] {l / 2, 0, 0}, 0.001 * m, 0, 0, m * l * l / 12, 0,
                m * l * l / 12);
    }

    /** The four-bar of shared/reference/README.md, built in code. */
    static Model fourBar() throws ModelException {
        double[] z = {0, 0, 1};
        return Model.builder("fourbar").root("ground").gravity(0, -9.81, 0)
                .addBody("crank", "ground", "crank_joint", JointType.REVOLUTE, z, Pose.IDENTITY, rod(1, 1))
                .addBody("coupler", "crank", "coupler_joint", JointType.REVOLUTE, z, Pose.translation(1, 0, 0),
                        rod(2, 2))
                .addBody("rocker", "coupler", "rocker_joint", JointType.REVOLUTE, z, Pose.translation(2, 0, 0),
                        rod(1.5, 1.5))
                .addConstraint(new LoopConstraintModel("closure", -1, Pose.translation(2, 0, 0), 2,
                        Pose.translation(1.5, 0, 0), List.of(new double[] {0, 0, 0, 1, 0, 0},
                                new double[] {0, 0, 0, 0, 1, 0}), NAN, SourceLocation.UNKNOWN))
                .build();
    }

    /**
     * The planar leg of shared/reference/README.md: the trunk on a planar joint (x, y, θ about z, the same
     * coordinates as RBDL's chain of two prismatic joints and a revolute one), hip and knee about z; the foot
     * (0, -0.4, 0) of the shank held along world x and y.
     */
    static Model planarLeg() throws ModelException {
        double[] z = {0, 0, 1};
        return Model.builder("planar_leg").gravity(0, -9.81, 0)
                .addBody("trunk", "world", "base", JointType.PLANAR, z, Pose.IDENTITY,
                        RigidBodyInertia.of(10, new double[3], 0.12, 0, 0, 0.10, 0, 0.20))
                .addBody("thigh", "trunk", "hip", JointType.REVOLUTE, z, Pose.translation(0, -0.1, 0),
                        RigidBodyInertia.of(2, new double[] {0, -0.2, 0}, 0.03, 0, 0, 0.002, 0, 0.03))
                .addBody("shank", "thigh", "knee", JointType.REVOLUTE, z, Pose.translation(0, -0.4, 0),
                        RigidBodyInertia.of(1, new double[] {0, -0.2, 0}, 0.015, 0, 0, 0.001, 0, 0.015))
                .addConstraint(new ContactConstraintModel("foot_x", 2, new double[] {0, -0.4, 0},
                        new double[] {1, 0, 0}, NAN, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("foot_y", 2, new double[] {0, -0.4, 0},
                        new double[] {0, 1, 0}, NAN, SourceLocation.UNKNOWN))
                .build();
    }

    private static void assertClose(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what + " length");
        double scale = 1;
        for (double x : expected) {
            scale = Math.max(scale, Math.abs(x));
        }
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tol * scale, what + "[" + i + "]");
        }
    }

    private static double[] rowMajor(DMatrixRMaj m) {
        return m.data.clone();
    }

    private static double[] flatten(double[][] m) {
        int cols = m[0].length;
        double[] out = new double[m.length * cols];
        for (int i = 0; i < m.length; i++) {
            System.arraycopy(m[i], 0, out, i * cols, cols);
        }
        return out;
    }

    /**
     * G, γ, φ and φ̇ of the four-bar at RBDL's consistent and inconsistent states. 1e-11 relative: the same
     * kinematics as the unconstrained reference tests, a few more operations.
     */
    @Test
    void fourBarMatchesReference() throws Exception {
        Path file = SharedFiles.require("reference/fourbar.json");
        checkAgainstReference(fourBar(), file);
    }

    /** The planar leg with two foot contacts (its base on a planar joint). */
    @Test
    void planarLegMatchesReference() throws Exception {
        Path file = SharedFiles.require("reference/planar_leg_contact.json");
        checkAgainstReference(planarLeg(), file);
    }

    private static void checkAgainstReference(Model model, Path file) throws Exception {
        GenericConstraints c = new GenericConstraints(model);
        Map<String, Object> ref = TestJson.object(TestJson.parse(file));
        int rows = c.constraintRows();
        DMatrixRMaj g = new DMatrixRMaj(rows, model.nv());
        double[] gamma = new double[rows];
        double[] phi = new double[rows];
        double[] phidot = new double[rows];
        int checked = 0;
        for (Object sample : TestJson.list(ref.get("samples"))) {
            Map<String, Object> s = TestJson.object(sample);
            // The four-bar stores a consistent and an inconsistent state; the leg stores one state per sample.
            Object[][] cases;
            if (s.containsKey("consistent_state")) {
                Map<String, Object> consistent = TestJson.object(s.get("consistent_state"));
                Map<String, Object> inconsistent = TestJson.object(s.get("inconsistent_state"));
                cases = new Object[][] {{consistent, consistent},
                    {inconsistent, TestJson.object(inconsistent.get("baumgarte_off"))}};
            } else {
                cases = new Object[][] {{s, s}};
            }
            for (Object[] cs : cases) {
                @SuppressWarnings("unchecked")
                Map<String, Object> state = (Map<String, Object>) cs[0];
                @SuppressWarnings("unchecked")
                Map<String, Object> values = (Map<String, Object>) cs[1];
                double[] q = TestJson.vector(state.get("q"));
                double[] v = TestJson.vector(state.get("qdot"));
                c.constraintJacobian(q, g);
                assertClose(flatten(TestJson.matrix(values.get("G"))), rowMajor(g), 1e-11, "G");
                c.gamma(q, v, gamma);
                assertClose(TestJson.vector(values.get("gamma")), gamma, 1e-11, "gamma");
                c.positionError(q, phi);
                assertClose(TestJson.vector(values.get("position_error")), phi, 1e-11, "phi");
                c.velocityError(q, v, phidot);
                assertClose(TestJson.vector(values.get("velocity_error")), phidot, 1e-11, "phidot");
                checked++;
            }
        }
        assertTrue(checked >= 2, "no reference sample checked");
    }

    /** A 3-D closed chain with rotational and translational loop rows, a contact and a coupler. */
    private static Model spatialMechanism() throws ModelException {
        RigidBodyInertia box = RigidBodyInertia.of(1.2, new double[] {0.1, 0.05, -0.02}, 0.02, 0.001, 0, 0.03,
                0.002, 0.025);
        return Model.builder("spatial").root("base")
                .addBody("a", "base", "ja", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY, box)
                .addBody("b", "a", "jb", JointType.REVOLUTE, new double[] {0, 1, 0.3},
                        Pose.fromXyzRpy(new double[] {0.4, 0, 0.1}, new double[] {0.2, -0.1, 0.3}), box)
                .addBody("c", "b", "jc", JointType.BALL, null, Pose.translation(0.3, 0.1, 0), box)
                .addBody("d", "a", "jd", JointType.PRISMATIC, new double[] {1, 0, 0}, Pose.translation(0, 0.2, 0),
                        box)
                .addBody("e", "d", "je", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.translation(0, 0.1, 0),
                        box)
                .addConstraint(new LoopConstraintModel("loop", 4,
                        Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.3}, new double[] {0.3, 0.2, 0.1}), 2,
                        Pose.fromXyzRpy(new double[] {-0.1, 0, 0.2}, new double[] {-0.2, 0.4, 0}),
                        List.of(new double[] {1, 0, 0, 0, 0, 0}, new double[] {0, 0.6, 0.8, 0, 0, 0},
                                new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0, 0, 0, 0.8, -0.6}),
                        NAN, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("touch", 2, new double[] {0.1, 0.2, 0.3},
                        new double[] {0, 0.6, 0.8}, NAN, SourceLocation.UNKNOWN))
                .addConstraint(new CouplerConstraintModel("gear", 4, 0, 2.5, 0.1, NAN, SourceLocation.UNKNOWN))
                .build();
    }

    private static double[] randomState(Random rnd, Model model, double[] v) {
        double[] q = new double[model.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = rnd.nextDouble() * 2 - 1;
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextDouble() * 4 - 2;
        }
        normaliseBall(q);
        return q;
    }

    /** The ball joint's quaternion sits at q[2..6). */
    private static void normaliseBall(double[] q) {
        double n = Math.sqrt(q[2] * q[2] + q[3] * q[3] + q[4] * q[4] + q[5] * q[5]);
        for (int i = 2; i < 6; i++) {
            q[i] /= n;
        }
    }

    /** q advanced by h along v (the ball joint's quaternion by the exact rotation of ω h in body coordinates). */
    private static double[] advance(double[] q, double[] v, double h) {
        double[] out = q.clone();
        // Non-ball coordinates: v index k maps to q index k, except the ball's 3 velocities map to 4 positions.
        int[] qOfV = {0, 1, -1, -1, -1, 6, 7};
        for (int k = 0; k < v.length; k++) {
            if (qOfV[k] >= 0) {
                out[qOfV[k]] += h * v[k];
            }
        }
        double wx = v[2] * h, wy = v[3] * h, wz = v[4] * h;
        double angle = Math.sqrt(wx * wx + wy * wy + wz * wz);
        double s = angle == 0 ? 0.5 : Math.sin(angle / 2) / angle;
        double dx = wx * s, dy = wy * s, dz = wz * s, dw = Math.cos(angle / 2);
        double x = q[2], y = q[3], z = q[4], w = q[5];
        // q ⊗ dq: a rotation by ω h expressed in the child frame.
        out[2] = w * dx + x * dw + y * dz - z * dy;
        out[3] = w * dy - x * dz + y * dw + z * dx;
        out[4] = w * dz + x * dy - y * dx + z * dw;
        out[5] = w * dw - x * dx - y * dy - z * dz;
        return out;
    }

    /**
     * G v equals the time derivative of φ along the motion for holonomic rows at any configuration where the
     * loop is closed in position; away from closure the loop's G follows RBDL's definition (relative velocity in
     * the predecessor frame), so the check uses γ instead: γ = -Ġ v, by central differences of G along v.
     * Central differences with h = 1e-5 have truncation error ~h² ‖G'''‖ ≈ 1e-10 and rounding ~1e-16/h ≈ 1e-11:
     * tolerance 1e-7 relative.
     */
    @Test
    void gammaIsMinusGdotTimesV() throws ModelException {
        Model model = spatialMechanism();
        GenericConstraints c = new GenericConstraints(model);
        int rows = c.constraintRows();
        assertEquals(6, rows); // 4 loop axes, 1 contact, 1 coupler
        Random rnd = new Random(7);
        DMatrixRMaj gPlus = new DMatrixRMaj(rows, model.nv());
        DMatrixRMaj gMinus = new DMatrixRMaj(rows, model.nv());
        double[] gamma = new double[rows];
        double h = 1e-5;
        for (int n = 0; n < 50; n++) {
            double[] v = new double[model.nv()];
            double[] q = randomState(rnd, model, v);
            c.gamma(q, v, gamma);
            c.constraintJacobian(advance(q, v, h), gPlus);
            c.constraintJacobian(advance(q, v, -h), gMinus);
            double[] expected = new double[rows];
            for (int r = 0; r < rows; r++) {
                double x = 0;
                for (int k = 0; k < model.nv(); k++) {
                    x += (gPlus.get(r, k) - gMinus.get(r, k)) / (2 * h) * v[k];
                }
                expected[r] = -x;
            }
            assertClose(expected, gamma, 1e-7, "gamma");
        }
    }

    /** For the coupler and the loop's rows, dφ/dt = G v wherever the loop frames coincide in position. */
    @Test
    void jacobianIsDerivativeOfPositionErrorForCoupler() throws ModelException {
        Model model = spatialMechanism();
        GenericConstraints c = new GenericConstraints(model);
        int rows = c.constraintRows();
        Random rnd = new Random(11);
        double[] phiPlus = new double[rows];
        double[] phiMinus = new double[rows];
        double[] phidot = new double[rows];
        double h = 1e-6;
        for (int n = 0; n < 20; n++) {
            double[] v = new double[model.nv()];
            double[] q = randomState(rnd, model, v);
            c.positionError(advance(q, v, h), phiPlus);
            c.positionError(advance(q, v, -h), phiMinus);
            c.velocityError(q, v, phidot);
            int coupler = rows - 1;
            assertEquals((phiPlus[coupler] - phiMinus[coupler]) / (2 * h), phidot[coupler], 1e-8);
            int contact = rows - 2;
            assertEquals(0, phiPlus[contact]);
        }
    }

    /**
     * Line-on-line contact is evaluated (it used to be refused): the coincident edges of this model (both the x
     * axis) are the parallel, degenerate case, which must still give finite rows equal to the standalone
     * {@link LineOnLineContact}'s; 3 rows with rolling, 1 without.
     */
    @Test
    void lineOnLineRowsAreEvaluated() throws ModelException {
        for (boolean rolling : new boolean[] {true, false}) {
            LineOnLineConstraintModel edges = new LineOnLineConstraintModel("edges", -1, Pose.IDENTITY, 0.5, 0,
                    Pose.IDENTITY, 0.5, rolling, NAN, new SourceLocation("m.urdf", 12, 3));
            Model model = Model.builder("edges")
                    .addBody("a", "world", "ja", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY,
                            RigidBodyInertia.of(1, new double[3], 0.1, 0, 0, 0.1, 0, 0.1))
                    .addConstraint(edges)
                    .build();
            GenericConstraints c = new GenericConstraints(model);
            int rows = rolling ? 3 : 1;
            assertEquals(rows, c.constraintRows());
            LineOnLineContact standalone = new LineOnLineContact(edges, new GenericDynamics(model));
            assertEquals(rows, standalone.rowCount());
            double[] q = {0.4};
            double[] v = {1.3};
            double[] actual = new double[rows];
            double[] expected = new double[rows];
            c.positionError(q, actual);
            standalone.positionError(q, expected, 0);
            assertClose(expected, actual, 0, "phi");
            c.velocityError(q, v, actual);
            standalone.velocityError(q, v, expected, 0);
            assertClose(expected, actual, 0, "phidot");
            c.gamma(q, v, actual);
            standalone.gamma(q, v, expected, 0);
            assertClose(expected, actual, 0, "gamma");
            DMatrixRMaj g = new DMatrixRMaj(rows, 1);
            DMatrixRMaj expectedG = new DMatrixRMaj(rows, 1);
            c.constraintJacobian(q, g);
            standalone.jacobian(q, expectedG, 0);
            assertClose(rowMajor(expectedG), rowMajor(g), 0, "G");
            for (double x : g.data) {
                assertTrue(Double.isFinite(x), "G " + x);
            }
            for (double x : actual) {
                assertTrue(Double.isFinite(x), "gamma " + x);
            }
        }
    }
}
