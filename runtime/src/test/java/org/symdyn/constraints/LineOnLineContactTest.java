package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Body;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * {@link LineOnLineContact}: geometry solved by hand, G against finite differences of r and of the material points'
 * positions, γ = -Ġ v against finite differences of G, velocity error = G v, parallel lines, virtual power of the
 * forces, and its rows inside {@link GenericConstraints}.
 */
class LineOnLineContactTest {
    private static final double NAN = Double.NaN;
    private static final RigidBodyInertia BOX = RigidBodyInertia.of(1.3, new double[] {0.05, -0.02, 0.1}, 0.02,
            0.001, 0, 0.03, 0.002, 0.025);
    /** Edge B of the hand-solved cases: x along world y, z (outward) along world -z at the identity pose. */
    private static final Pose EDGE_ALONG_Y_FACING_DOWN = Pose.of(new double[] {0, 1, 0, 1, 0, 0, 0, 0, -1},
            new double[3]);

    // ---------------------------------------------------------------- models

    /** A free block over the world; the constraint's F and B as given (-1 the world, 0 the block). */
    private static Model blockOverWorld(int bodyF, Pose edgeF, int bodyB, Pose edgeB, boolean rolling)
            throws ModelException {
        return Model.builder("block")
                .addBody("block", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, BOX)
                .addConstraint(new LineOnLineConstraintModel("edges", bodyF, edgeF, 0.5, bodyB, edgeB, 0.5, rolling,
                        NAN, SourceLocation.UNKNOWN))
                .build();
    }

    /** A chain a (revolute), b (prismatic), c (ball) and a free block: bodies 0, 1, 2, 3. */
    private static ModelBuilder chainAndBlock() {
        return Model.builder("chain")
                .addBody("a", "world", "ja", JointType.REVOLUTE, new double[] {0, 0.3, 1},
                        Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.3}, new double[] {0.1, -0.2, 0.3}), BOX)
                .addBody("b", "a", "jb", JointType.PRISMATIC, new double[] {1, 0.5, 0},
                        Pose.fromXyzRpy(new double[] {0.4, 0, 0.1}, new double[] {0.2, 0.1, -0.3}), BOX)
                .addBody("c", "b", "jc", JointType.BALL, null, Pose.translation(0.3, 0.1, 0), BOX)
                .addBody("block", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, BOX);
    }

    private static Pose edge(double x, double y, double z, double roll, double pitch, double yaw) {
        return Pose.fromXyzRpy(new double[] {x, y, z}, new double[] {roll, pitch, yaw});
    }

    /** Constraint variants over {@link #chainAndBlock()}: world, a body of the chain and the free block as F or B. */
    private static List<LineOnLineConstraintModel> variants() {
        List<LineOnLineConstraintModel> list = new ArrayList<>();
        list.add(new LineOnLineConstraintModel("c_block", 2, edge(0.1, -0.2, 0.15, 0.3, 0.2, -0.4), 0.4, 3,
                edge(-0.1, 0.05, 0.2, -0.5, 0.1, 1.2), 0.3, true, NAN, SourceLocation.UNKNOWN));
        list.add(new LineOnLineConstraintModel("world_c", -1, edge(0.2, 0.1, -0.1, 0.4, -0.3, 0.2), 1, 2,
                edge(0.05, 0.1, 0, 1.1, 0.4, -0.7), 0.2, true, NAN, SourceLocation.UNKNOWN));
        list.add(new LineOnLineConstraintModel("block_a", 3, edge(0, 0.1, 0.1, 0.2, 0.6, 0.9), 0.5, 0,
                edge(0.3, 0, 0.05, -0.4, 0.2, 0.1), 0.5, false, NAN, SourceLocation.UNKNOWN));
        list.add(new LineOnLineConstraintModel("a_c", 0, edge(0.2, 0.2, 0, -0.2, 0.3, 0.5), 0.5, 2,
                edge(0, -0.1, 0.1, 0.7, -0.6, 0.3), 0.5, true, NAN, SourceLocation.UNKNOWN));
        list.add(new LineOnLineConstraintModel("block_world", 3, edge(0.1, 0, -0.1, 0.9, 0.1, 0.2), 0.5, -1,
                edge(0, 0.3, 0, 0.1, -0.2, 1.4), 0.5, true, NAN, SourceLocation.UNKNOWN));
        return list;
    }

    private static Model withConstraint(ModelBuilder builder, LineOnLineConstraintModel c) throws ModelException {
        return builder.addConstraint(c).build();
    }

    // ---------------------------------------------------------------- states

    private static double[] randomState(Random rnd, Model model, double[] v) {
        double[] q = new double[model.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = rnd.nextDouble() * 2 - 1;
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextDouble() * 4 - 2;
        }
        for (Body body : model.bodies()) {
            Joint j = body.joint();
            if (j.type() == JointType.BALL) {
                normalise(q, j.qIndex());
            } else if (j.type() == JointType.FLOATING) {
                normalise(q, j.qIndex() + 3);
            }
        }
        return q;
    }

    private static void normalise(double[] q, int at) {
        double n = Math.sqrt(q[at] * q[at] + q[at + 1] * q[at + 1] + q[at + 2] * q[at + 2] + q[at + 3] * q[at + 3]);
        for (int i = at; i < at + 4; i++) {
            q[i] /= n;
        }
    }

    /**
     * q moved by h along v: a smooth curve through q with tangent v (quaternions rotated by ω h in the child frame,
     * a floating base's position along R v_origin), which is all central differences need.
     */
    static double[] advance(Model model, double[] q, double[] v, double h) {
        double[] out = q.clone();
        for (Body body : model.bodies()) {
            Joint j = body.joint();
            int qi = j.qIndex();
            int vi = j.vIndex();
            switch (j.type()) {
                case BALL -> rotateQuaternion(q, qi, v, vi, h, out);
                case FLOATING -> {
                    double[] r = new double[9];
                    org.symdyn.spatial.Rotations.fromQuaternion(q[qi + 3], q[qi + 4], q[qi + 5], q[qi + 6], r);
                    for (int i = 0; i < 3; i++) {
                        out[qi + i] += h * (r[3 * i] * v[vi + 3] + r[3 * i + 1] * v[vi + 4] + r[3 * i + 2] * v[vi + 5]);
                    }
                    rotateQuaternion(q, qi + 3, v, vi, h, out);
                }
                default -> {
                    for (int k = 0; k < j.nv(); k++) {
                        out[qi + k] += h * v[vi + k];
                    }
                }
            }
        }
        return out;
    }

    /** out[qi..qi+4) = q ⊗ exp(ω h / 2) with ω = v[vi..vi+3) in the child frame. */
    private static void rotateQuaternion(double[] q, int qi, double[] v, int vi, double h, double[] out) {
        double wx = v[vi] * h, wy = v[vi + 1] * h, wz = v[vi + 2] * h;
        double angle = Math.sqrt(wx * wx + wy * wy + wz * wz);
        double s = angle == 0 ? 0.5 : Math.sin(angle / 2) / angle;
        double dx = wx * s, dy = wy * s, dz = wz * s, dw = Math.cos(angle / 2);
        double x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
        out[qi] = w * dx + x * dw + y * dz - z * dy;
        out[qi + 1] = w * dy - x * dz + y * dw + z * dx;
        out[qi + 2] = w * dz + x * dy - y * dx + z * dw;
        out[qi + 3] = w * dw - x * dx - y * dy - z * dz;
    }

    private static double scale(double[] x) {
        double s = 1;
        for (double e : x) {
            s = Math.max(s, Math.abs(e));
        }
        return s;
    }

    private static void assertClose(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what + " length");
        double s = Math.max(scale(expected), scale(actual));
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tol * s, what + "[" + i + "]");
        }
    }

    private static void assertFinite(double[] x, String what) {
        for (int i = 0; i < x.length; i++) {
            assertTrue(Double.isFinite(x[i]), what + "[" + i + "] = " + x[i]);
        }
    }

    /** True when the closest points are within a few metres: the lines are far from parallel. */
    private static boolean wellConditioned(LineOnLineContact c, double[] q) {
        double[] a = new double[3];
        double[] b = new double[3];
        if (c.closestPoints(q, a, b)) {
            return false;
        }
        return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) < 5
                && Math.sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) < 5;
    }

    // ---------------------------------------------------------------- geometry by hand

    /**
     * Edge F: the world x axis, outward +z. Edge B: along world y through (0.3, -0.2, 0.5), outward -z. The lines'
     * common perpendicular is vertical at x = 0.3, y = 0: Q_f = (0.3, 0, 0), Q_b = (0.3, 0, 0.5), n = +z (out of F,
     * into B), r = 0.5, C_o = (0.3, 0, 0.25), C = (x, y, z).
     */
    @Test
    void perpendicularEdgesSolvedByHand() throws ModelException {
        Model model = blockOverWorld(-1, Pose.IDENTITY, 0, EDGE_ALONG_Y_FACING_DOWN, true);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        assertEquals(3, c.rowCount());
        double[] q = {0.3, -0.2, 0.5, 0, 0, 0, 1};
        double[] qf = new double[3];
        double[] qb = new double[3];
        assertFalse(c.closestPoints(q, qf, qb));
        assertArrayEquals(new double[] {0.3, 0, 0}, qf, 1e-15);
        assertArrayEquals(new double[] {0.3, 0, 0.5}, qb, 1e-15);
        assertFalse(c.isParallel(q));
        assertEquals(0.5, c.separation(q), 1e-15);
        double[] rot = new double[9];
        double[] origin = new double[3];
        c.contactFrame(q, rot, origin);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, rot, 1e-15);
        assertArrayEquals(new double[] {0.3, 0, 0.25}, origin, 1e-15);
        double[] phi = new double[3];
        c.positionError(q, phi, 0);
        assertArrayEquals(new double[] {0.5, 0, 0}, phi, 1e-15);

        // Penetration: B's edge 0.1 below F's: the normal keeps its direction (set by the outward directions).
        double[] below = {0.3, -0.2, -0.1, 0, 0, 0, 1};
        assertEquals(-0.1, c.separation(below), 1e-15);
        c.contactFrame(below, rot, origin);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, rot, 1e-15);
        assertArrayEquals(new double[] {0.3, 0, -0.05}, origin, 1e-15);
    }

    /** Reversing edge B's direction (d_b = -y) flips d_f × d_b but not the normal. */
    @Test
    void normalDoesNotDependOnEdgeDirections() throws ModelException {
        Pose reversed = Pose.of(new double[] {0, -1, 0, -1, 0, 0, 0, 0, -1}, new double[3]);
        Model model = blockOverWorld(-1, Pose.IDENTITY, 0, reversed, false);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        assertEquals(1, c.rowCount());
        double[] q = {0.3, -0.2, 0.5, 0, 0, 0, 1};
        assertEquals(0.5, c.separation(q), 1e-15);
        double[] rot = new double[9];
        double[] origin = new double[3];
        c.contactFrame(q, rot, origin);
        assertArrayEquals(new double[] {0, 0, 1}, new double[] {rot[2], rot[5], rot[8]}, 1e-15);
        double[] qf = new double[3];
        double[] qb = new double[3];
        c.closestPoints(q, qf, qb);
        assertArrayEquals(new double[] {0.3, 0, 0}, qf, 1e-15);
        assertArrayEquals(new double[] {0.3, 0, 0.5}, qb, 1e-15);
    }

    /**
     * Roles swapped: F is the block (edge along y, outward -z, at height 0.5), B the world's x axis (outward +z).
     * The normal points out of F and into B, so n = -z and r = (P_b - P_f)·n = 0.5 again; C_x = d_f = y,
     * C_y = n × d_f = x.
     */
    @Test
    void normalPointsOutOfFAndIntoB() throws ModelException {
        Model model = blockOverWorld(0, EDGE_ALONG_Y_FACING_DOWN, -1, Pose.IDENTITY, true);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        double[] q = {0.3, -0.2, 0.5, 0, 0, 0, 1};
        assertEquals(0.5, c.separation(q), 1e-15);
        double[] rot = new double[9];
        double[] origin = new double[3];
        c.contactFrame(q, rot, origin);
        assertArrayEquals(new double[] {0, 1, 0, 1, 0, 0, 0, 0, -1}, rot, 1e-15);
        assertArrayEquals(new double[] {0.3, 0, 0.25}, origin, 1e-15);
        double[] qf = new double[3];
        double[] qb = new double[3];
        c.closestPoints(q, qf, qb);
        assertArrayEquals(new double[] {0.3, 0, 0.5}, qf, 1e-15);
        assertArrayEquals(new double[] {0.3, 0, 0}, qb, 1e-15);
    }

    /**
     * The block of {@link #perpendicularEdgesSolvedByHand} with v = [ω; v_o] = [(0, 0, 3); (1, 0, 2)] (body = world
     * axes at the identity rotation): B's point at C_o moves at v_o + ω × (C_o - o_B) = (1, 0, 2) + (-0.6, 0, 0),
     * so ṙ = 2 and the slips are 0.4 along x and 0 along y. Spinning about the vertical keeps d_b horizontal and
     * the block's height accelerates at 0: γ_n = -r̈ = 0.
     */
    @Test
    void velocityErrorsSolvedByHand() throws ModelException {
        Model model = blockOverWorld(-1, Pose.IDENTITY, 0, EDGE_ALONG_Y_FACING_DOWN, true);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        double[] q = {0.3, -0.2, 0.5, 0, 0, 0, 1};
        double[] v = {0, 0, 3, 1, 0, 2};
        double[] e = new double[3];
        c.velocityError(q, v, e, 0);
        assertArrayEquals(new double[] {2, 0.4, 0}, e, 1e-14);
        double[] gamma = new double[3];
        c.gamma(q, v, gamma, 0);
        assertEquals(0, gamma[0], 1e-13);
    }

    /**
     * λ = (2, 0.5, -1) in C = (x, y, z) of the hand-solved pose: the force on B is 2 z + 0.5 x - y (λ_n &gt; 0
     * pushes B away from F), applied at C_o = (0.3, 0, 0.25); about B's origin (0.3, -0.2, 0.5) its moment is
     * (C_o - o_B) × f.
     */
    @Test
    void forceOnBSolvedByHand() throws ModelException {
        Model model = blockOverWorld(-1, Pose.IDENTITY, 0, EDGE_ALONG_Y_FACING_DOWN, true);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        double[] q = {0.3, -0.2, 0.5, 0, 0, 0, 1};
        double[] lambda = {9, 2, 0.5, -1};
        double[] f = new double[3];
        c.contactForce(q, lambda, 1, f);
        assertArrayEquals(new double[] {0.5, -1, 2}, f, 1e-15);
        double[] r = {0, 0.2, -0.25};
        double[] expected = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0], 0.5,
            -1, 2};
        double[] spatial = new double[6];
        c.forceOnB(q, lambda, 1, LineOnLineContact.Coordinates.WORLD, spatial);
        assertArrayEquals(expected, spatial, 1e-15);
        c.forceOnB(q, lambda, 1, LineOnLineContact.Coordinates.BODY, spatial);
        assertArrayEquals(expected, spatial, 1e-15); // identity rotation
        // On F (the world, origin 0): -f at C_o.
        double[] co = {0.3, 0, 0.25};
        c.forceOnF(q, lambda, 1, LineOnLineContact.Coordinates.WORLD, spatial);
        assertArrayEquals(new double[] {-(co[1] * f[2] - co[2] * f[1]), -(co[2] * f[0] - co[0] * f[2]),
            -(co[0] * f[1] - co[1] * f[0]), -0.5, 1, -2}, spatial, 1e-15);
    }

    // ---------------------------------------------------------------- finite differences

    /**
     * Each column of G against central differences (h = 1e-6) along that coordinate: row 0 against r(q), every row
     * against the motion of the material points of B and F at C_o (their world positions by
     * {@code pointPosition}), dotted with C's axes at q. Truncation ~h² |x'''| ≈ 1e-12, rounding ~1e-16 / h ≈
     * 1e-10 for O(1) positions: tolerance 1e-7 relative.
     */
    @Test
    void jacobianMatchesFiniteDifferences() throws ModelException {
        Random rnd = new Random(3);
        double h = 1e-6;
        int checked = 0;
        for (LineOnLineConstraintModel cm : variants()) {
            Model model = withConstraint(chainAndBlock(), cm);
            GenericDynamics kin = new GenericDynamics(model);
            LineOnLineContact c = new LineOnLineContact(cm, kin);
            int rows = c.rowCount();
            int nv = model.nv();
            DMatrixRMaj g = new DMatrixRMaj(rows, nv);
            double[] rot = new double[9];
            double[] co = new double[3];
            for (int n = 0; n < 20; n++) {
                double[] v = new double[nv];
                double[] q = randomState(rnd, model, v);
                if (!wellConditioned(c, q)) {
                    continue;
                }
                c.jacobian(q, g, 0);
                c.contactFrame(q, rot, co);
                double[] coB = materialPoint(kin, q, cm.bodyB(), co);
                double[] coF = materialPoint(kin, q, cm.bodyF(), co);
                for (int k = 0; k < nv; k++) {
                    double[] e = new double[nv];
                    e[k] = 1;
                    double[] qp = advance(model, q, e, h);
                    double[] qm = advance(model, q, e, -h);
                    double[] column = new double[rows];
                    for (int r = 0; r < rows; r++) {
                        column[r] = g.get(r, k);
                    }
                    double rDot = (c.separation(qp) - c.separation(qm)) / (2 * h);
                    assertEquals(rDot, column[0], 1e-7 * Math.max(1, Math.abs(rDot)), cm.name() + " dr/dq" + k);
                    double[] slip = new double[3];
                    for (int i = 0; i < 3; i++) {
                        slip[i] = (position(kin, qp, cm.bodyB(), coB, i) - position(kin, qm, cm.bodyB(), coB, i)
                                - position(kin, qp, cm.bodyF(), coF, i) + position(kin, qm, cm.bodyF(), coF, i))
                                / (2 * h);
                    }
                    double[] expected = new double[rows];
                    // Rows: n = C_z (column 2 of the frame), then C_x, C_y.
                    expected[0] = rot[2] * slip[0] + rot[5] * slip[1] + rot[8] * slip[2];
                    if (rows == 3) {
                        expected[1] = rot[0] * slip[0] + rot[3] * slip[1] + rot[6] * slip[2];
                        expected[2] = rot[1] * slip[0] + rot[4] * slip[1] + rot[7] * slip[2];
                    }
                    assertClose(expected, column, 1e-7, cm.name() + " G column " + k);
                }
                checked++;
            }
        }
        assertTrue(checked >= 60, "only " + checked + " states checked");
    }

    /** The point of {@code body} at the world point x, in body coordinates (x itself for the world). */
    private static double[] materialPoint(GenericDynamics kin, double[] q, int body, double[] x) {
        if (body < 0) {
            return x.clone();
        }
        double[] r = new double[9];
        double[] o = new double[3];
        kin.bodyPose(q, body, r, o);
        double[] out = new double[3];
        for (int i = 0; i < 3; i++) {
            out[i] = r[i] * (x[0] - o[0]) + r[3 + i] * (x[1] - o[1]) + r[6 + i] * (x[2] - o[2]);
        }
        return out;
    }

    private static double position(GenericDynamics kin, double[] q, int body, double[] point, int i) {
        if (body < 0) {
            return point[i];
        }
        double[] out = new double[3];
        kin.pointPosition(q, body, point, out);
        return out[i];
    }

    /**
     * γ = -Ġ v against central differences of G along v (h = 1e-5): truncation h² |d³G/dt³| |v| / 6 ≈ 1e-10 for
     * O(1) geometry and speeds, up to 1e2-1e3 times more for lines a few tens of degrees from parallel (t_f, t_b
     * carry 1/sin²θ), and rounding ~1e-16 |G| |v| / h ≈ 1e-11; the worst seen here is 1.5e-9 relative, so the
     * tolerance is 1e-7 relative (a 1e-4 relative error in Ċ_o's tangential part already fails it). Also velocity
     * error = G v (the same arithmetic up to rounding: 1e-12).
     */
    @Test
    void gammaIsMinusGdotTimesV() throws ModelException {
        Random rnd = new Random(5);
        double h = 1e-5;
        int checked = 0;
        for (LineOnLineConstraintModel cm : variants()) {
            Model model = withConstraint(chainAndBlock(), cm);
            LineOnLineContact c = new LineOnLineContact(cm, new GenericDynamics(model));
            checked += checkGammaAndVelocityError(model, c, rnd, h, 30, true);
        }
        assertTrue(checked >= 100, "only " + checked + " states checked");
    }

    private static int checkGammaAndVelocityError(Model model, LineOnLineContact c, Random rnd, double h, int samples,
            boolean requireWellConditioned) {
        int rows = c.rowCount();
        int nv = model.nv();
        DMatrixRMaj g = new DMatrixRMaj(rows, nv);
        DMatrixRMaj gPlus = new DMatrixRMaj(rows, nv);
        DMatrixRMaj gMinus = new DMatrixRMaj(rows, nv);
        double[] gamma = new double[rows];
        double[] e = new double[rows];
        int checked = 0;
        for (int n = 0; n < samples; n++) {
            double[] v = new double[nv];
            double[] q = randomState(rnd, model, v);
            if (requireWellConditioned && !wellConditioned(c, q)) {
                continue;
            }
            c.gamma(q, v, gamma, 0);
            assertFinite(gamma, "gamma");
            c.jacobian(advance(model, q, v, h), gPlus, 0);
            c.jacobian(advance(model, q, v, -h), gMinus, 0);
            double[] expected = new double[rows];
            for (int r = 0; r < rows; r++) {
                double x = 0;
                for (int k = 0; k < nv; k++) {
                    x += (gPlus.get(r, k) - gMinus.get(r, k)) / (2 * h) * v[k];
                }
                expected[r] = -x;
            }
            assertClose(expected, gamma, 1e-7, c.model().name() + " gamma");

            c.jacobian(q, g, 0);
            c.velocityError(q, v, e, 0);
            double[] gv = new double[rows];
            for (int r = 0; r < rows; r++) {
                for (int k = 0; k < nv; k++) {
                    gv[r] += g.get(r, k) * v[k];
                }
            }
            assertClose(gv, e, 1e-12, c.model().name() + " velocity error");
            checked++;
        }
        return checked;
    }

    /** With the rows stacked at an offset, only those rows (and entries) are written. */
    @Test
    void rowsAreWrittenAtTheirOffset() throws ModelException {
        LineOnLineConstraintModel cm = variants().get(0);
        Model model = withConstraint(chainAndBlock(), cm);
        LineOnLineContact c = new LineOnLineContact(cm, new GenericDynamics(model));
        double[] v = new double[model.nv()];
        double[] q = randomState(new Random(1), model, v);
        DMatrixRMaj g = new DMatrixRMaj(5, model.nv());
        g.fill(7);
        c.jacobian(q, g, 1);
        DMatrixRMaj g3 = new DMatrixRMaj(3, model.nv());
        c.jacobian(q, g3, 0);
        for (int k = 0; k < model.nv(); k++) {
            assertEquals(7, g.get(0, k));
            assertEquals(7, g.get(4, k));
            for (int r = 0; r < 3; r++) {
                assertEquals(g3.get(r, k), g.get(r + 1, k));
            }
        }
        double[] out = {7, 7, 7, 7, 7};
        c.gamma(q, v, out, 2);
        assertEquals(7, out[0]);
        assertEquals(7, out[1]);
        double[] gamma = new double[3];
        c.gamma(q, v, gamma, 0);
        assertArrayEquals(gamma, new double[] {out[2], out[3], out[4]});
        assertThrows(IllegalArgumentException.class, () -> c.jacobian(q, g, 3));
        assertThrows(IllegalArgumentException.class, () -> c.jacobian(q, new DMatrixRMaj(3, 2), 0));
    }

    // ---------------------------------------------------------------- parallel lines

    /**
     * Edge B (along x, outward -z) on a body moved by prismatic joints x, y, z and turned about its own edge (a
     * revolute joint about x); edge F (along x, outward +z) on a body turning about the world x axis. Every motion
     * keeps the lines parallel (the x axes' images are exactly (1, 0, 0)), so the parallel branch is exercised and
     * can be differentiated.
     */
    private static Model parallelModel(boolean rolling) throws ModelException {
        double[] x = {1, 0, 0};
        return Model.builder("parallel")
                .addBody("f", "world", "jf", JointType.REVOLUTE, x, Pose.translation(0, 0.1, -0.2), BOX)
                .addBody("px", "world", "jx", JointType.PRISMATIC, x, Pose.IDENTITY, BOX)
                .addBody("py", "px", "jy", JointType.PRISMATIC, new double[] {0, 1, 0}, Pose.IDENTITY, BOX)
                .addBody("pz", "py", "jz", JointType.PRISMATIC, new double[] {0, 0, 1}, Pose.IDENTITY, BOX)
                .addBody("b", "pz", "jb", JointType.REVOLUTE, x, Pose.translation(0.1, 0.2, 0.6), BOX)
                .addConstraint(new LineOnLineConstraintModel("parallel", 0, Pose.translation(0.05, 0.1, 0.2), 0.5, 4,
                        Pose.of(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, new double[] {-0.1, 0.05, 0.1}), 0.5,
                        rolling, NAN, SourceLocation.UNKNOWN))
                .build();
    }

    /**
     * At q = 0 the lines are y = 0.2, z = 0 (F) and y = 0.25, z = 0.7 (B), both along x, with centres
     * P_f = (0, 0.1, -0.2) + (0.05, 0.1, 0.2) = (0.05, 0.2, 0) and P_b = (0.1, 0.2, 0.6) + (-0.1, 0.05, 0.1) =
     * (0, 0.25, 0.7). Closest points: each centre moved halfway to the projection of the other centre:
     * Q_f = (0.025, 0.2, 0), Q_b = (0.025, 0.25, 0.7). The normal is along the offset u = (0, 0.05, 0.7), out of F
     * (u·s_f = 0.7 = -u·s_b, a tie that the rule settles by s_b: n = +u/|u|): r = |u|.
     */
    @Test
    void parallelLinesSolvedByHand() throws ModelException {
        Model model = parallelModel(true);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        double[] q = new double[model.nq()];
        double[] qf = new double[3];
        double[] qb = new double[3];
        assertTrue(c.closestPoints(q, qf, qb));
        assertTrue(c.isParallel(q));
        assertArrayEquals(new double[] {0.025, 0.2, 0}, qf, 1e-15);
        assertArrayEquals(new double[] {0.025, 0.25, 0.7}, qb, 1e-15);
        double len = Math.sqrt(0.05 * 0.05 + 0.7 * 0.7);
        assertEquals(len, c.separation(q), 1e-15);
        double[] rot = new double[9];
        double[] origin = new double[3];
        c.contactFrame(q, rot, origin);
        assertArrayEquals(new double[] {0, 0.05 / len, 0.7 / len}, new double[] {rot[2], rot[5], rot[8]}, 1e-15);
        assertArrayEquals(new double[] {1, 0, 0}, new double[] {rot[0], rot[3], rot[6]}, 1e-15);
        assertArrayEquals(new double[] {0.025, 0.225, 0.35}, origin, 1e-15);
    }

    /**
     * In the parallel branch: G's normal row against differences of r, γ against differences of G, velocity error
     * = G v, over motions that keep the lines parallel (tolerances as in the general tests).
     */
    @Test
    void parallelBranchIsDifferentiable() throws ModelException {
        Model model = parallelModel(true);
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        Random rnd = new Random(9);
        int checked = checkGammaAndVelocityError(model, c, rnd, 1e-5, 30, false);
        assertEquals(30, checked);
        DMatrixRMaj g = new DMatrixRMaj(3, model.nv());
        double h = 1e-6;
        for (int n = 0; n < 30; n++) {
            double[] v = new double[model.nv()];
            double[] q = randomState(rnd, model, v);
            assertTrue(c.isParallel(q));
            c.jacobian(q, g, 0);
            double gv = 0;
            for (int k = 0; k < model.nv(); k++) {
                gv += g.get(0, k) * v[k];
            }
            double rDot = (c.separation(advance(model, q, v, h)) - c.separation(advance(model, q, v, -h))) / (2 * h);
            assertEquals(rDot, gv, 1e-7 * Math.max(1, Math.abs(rDot)));
        }
    }

    /**
     * Coincident lines (both edges the x axis through the origin, the case GenericConstraints used to refuse):
     * everything finite, the normal is s_f, r = 0, the closest points the midpoints.
     */
    @Test
    void coincidentLinesGiveNoNaN() throws ModelException {
        Model model = Model.builder("edges")
                .addBody("a", "world", "ja", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.IDENTITY, BOX)
                .addConstraint(new LineOnLineConstraintModel("edges", -1, Pose.IDENTITY, 0.5, 0,
                        Pose.translation(0.4, 0, 0), 0.5, true, NAN, SourceLocation.UNKNOWN))
                .build();
        LineOnLineContact c = new LineOnLineContact((LineOnLineConstraintModel) model.constraints().get(0),
                new GenericDynamics(model));
        double[] q = {0.3};
        double[] v = {1.5};
        double[] qf = new double[3];
        double[] qb = new double[3];
        assertTrue(c.closestPoints(q, qf, qb));
        assertArrayEquals(new double[] {0.2, 0, 0}, qf, 1e-15);
        assertArrayEquals(new double[] {0.2, 0, 0}, qb, 1e-15);
        assertEquals(0, c.separation(q), 1e-15);
        double[] rot = new double[9];
        double[] origin = new double[3];
        c.contactFrame(q, rot, origin);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, rot, 1e-15);
        double[] out = new double[3];
        c.positionError(q, out, 0);
        assertFinite(out, "phi");
        c.velocityError(q, v, out, 0);
        assertFinite(out, "phidot");
        c.gamma(q, v, out, 0);
        assertFinite(out, "gamma");
        DMatrixRMaj g = new DMatrixRMaj(3, 1);
        c.jacobian(q, g, 0);
        assertFinite(g.data, "G");
        double[] lambda = {1, 2, 3};
        double[] spatial = new double[6];
        c.forceOnB(q, lambda, 0, LineOnLineContact.Coordinates.BODY, spatial);
        assertFinite(spatial, "force");
        // Exactly parallel but a hair apart, and nearly parallel: still finite.
        double[] rotX = {1, 0, 0, 0, Math.cos(1e-13), -Math.sin(1e-13), 0, Math.sin(1e-13), Math.cos(1e-13)};
        for (Pose edgeB : new Pose[] {Pose.translation(0.4, 0, 1e-14), Pose.of(new double[] {1, 0, 0, 1e-12, 1, 0,
            0, 0, 1}, new double[] {0.4, 0, 0}), Pose.of(rotX, new double[] {0, 0, 1})}) {
            Model m2 = Model.builder("edges")
                    .addBody("a", "world", "ja", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY, BOX)
                    .addConstraint(new LineOnLineConstraintModel("edges", -1, Pose.IDENTITY, 0.5, 0, edgeB, 0.5,
                            true, NAN, SourceLocation.UNKNOWN))
                    .build();
            LineOnLineContact c2 = new LineOnLineContact((LineOnLineConstraintModel) m2.constraints().get(0),
                    new GenericDynamics(m2));
            double[] q0 = {0};
            assertTrue(c2.isParallel(q0));
            c2.gamma(q0, v, out, 0);
            assertFinite(out, "gamma");
            c2.jacobian(q0, g, 0);
            assertFinite(g.data, "G");
            assertTrue(Double.isFinite(c2.separation(q0)));
        }
    }

    // ---------------------------------------------------------------- forces

    /**
     * Virtual power: Gᵀ λ equals J_Bᵀ f_B + J_Fᵀ f_F for the spatial forces at the body origins, with the body
     * Jacobians [ω; v_o] in body coordinates (forces in BODY coordinates) and in world-aligned coordinates (forces
     * in WORLD coordinates, J rotated by diag(R, R)). The world, when it is F or B, takes no generalised force.
     */
    @Test
    void forcesAreConsistentWithG() throws ModelException {
        Random rnd = new Random(13);
        for (LineOnLineConstraintModel cm : variants()) {
            Model model = withConstraint(chainAndBlock(), cm);
            GenericDynamics kin = new GenericDynamics(model);
            LineOnLineContact c = new LineOnLineContact(cm, kin);
            int rows = c.rowCount();
            int nv = model.nv();
            DMatrixRMaj g = new DMatrixRMaj(rows, nv);
            for (int n = 0; n < 10; n++) {
                double[] v = new double[nv];
                double[] q = randomState(rnd, model, v);
                double[] lambda = new double[rows + 1];
                for (int i = 0; i < lambda.length; i++) {
                    lambda[i] = rnd.nextDouble() * 2 - 1;
                }
                c.jacobian(q, g, 0);
                double[] gtl = new double[nv];
                for (int k = 0; k < nv; k++) {
                    for (int r = 0; r < rows; r++) {
                        gtl[k] += g.get(r, k) * lambda[r + 1];
                    }
                }
                for (LineOnLineContact.Coordinates coords : LineOnLineContact.Coordinates.values()) {
                    double[] tau = new double[nv];
                    double[] spatial = new double[6];
                    c.forceOnB(q, lambda, 1, coords, spatial);
                    addGeneralisedForce(kin, q, cm.bodyB(), spatial, coords, tau);
                    c.forceOnF(q, lambda, 1, coords, spatial);
                    addGeneralisedForce(kin, q, cm.bodyF(), spatial, coords, tau);
                    assertClose(gtl, tau, 1e-12, cm.name() + " " + coords + " Gᵀλ");
                }
                // Equal and opposite forces; contactForce is the linear part on B in world coordinates.
                double[] onB = new double[6];
                double[] onF = new double[6];
                double[] fc = new double[3];
                c.forceOnB(q, lambda, 1, LineOnLineContact.Coordinates.WORLD, onB);
                c.forceOnF(q, lambda, 1, LineOnLineContact.Coordinates.WORLD, onF);
                c.contactForce(q, lambda, 1, fc);
                for (int i = 0; i < 3; i++) {
                    assertEquals(-onB[3 + i], onF[3 + i], 1e-15);
                    assertEquals(fc[i], onB[3 + i], 1e-15);
                }
            }
        }
    }

    private static void addGeneralisedForce(GenericDynamics kin, double[] q, int body, double[] spatial,
            LineOnLineContact.Coordinates coords, double[] tau) {
        if (body < 0) {
            return;
        }
        int nv = kin.nv();
        DMatrixRMaj j = new DMatrixRMaj(6, nv);
        kin.bodyJacobian(q, body, j);
        double[] r = new double[9];
        kin.bodyPose(q, body, r, new double[3]);
        for (int k = 0; k < nv; k++) {
            double[] col = new double[6];
            for (int i = 0; i < 6; i++) {
                col[i] = j.get(i, k);
            }
            if (coords == LineOnLineContact.Coordinates.WORLD) {
                double[] world = new double[6];
                for (int i = 0; i < 3; i++) {
                    for (int m = 0; m < 3; m++) {
                        world[i] += r[3 * i + m] * col[m];
                        world[3 + i] += r[3 * i + m] * col[3 + m];
                    }
                }
                col = world;
            }
            for (int i = 0; i < 6; i++) {
                tau[k] += col[i] * spatial[i];
            }
        }
    }

    // ---------------------------------------------------------------- construction and allocation

    @Test
    void badArgumentsAreRefused() throws ModelException {
        Model model = chainAndBlock().build();
        GenericDynamics kin = new GenericDynamics(model);
        assertThrows(IllegalArgumentException.class, () -> new LineOnLineContact(new LineOnLineConstraintModel("x",
                4, Pose.IDENTITY, 1, 0, Pose.IDENTITY, 1, true, NAN, SourceLocation.UNKNOWN), kin));
        assertThrows(IllegalArgumentException.class, () -> new LineOnLineContact(new LineOnLineConstraintModel("x",
                -2, Pose.IDENTITY, 1, 0, Pose.IDENTITY, 1, true, NAN, SourceLocation.UNKNOWN), kin));
        Pose degenerate = Pose.of(new double[] {1, 0, 1, 0, 1, 0, 0, 0, 0}, new double[3]); // z along x
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LineOnLineContact(new LineOnLineConstraintModel("bad", -1, Pose.IDENTITY, 1, 0, degenerate,
                        1, true, NAN, SourceLocation.UNKNOWN), kin));
        assertTrue(e.getMessage().contains("bad"), e.getMessage());
    }

    @Test
    void hotPathMethodsDoNotAllocate() throws ModelException {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long id = Thread.currentThread().getId();

        LineOnLineConstraintModel cm = variants().get(0);
        Model model = withConstraint(chainAndBlock(), cm);
        LineOnLineContact c = new LineOnLineContact(cm, new GenericDynamics(model));
        double[] v = new double[model.nv()];
        double[] q = randomState(new Random(2), model, v);
        DMatrixRMaj g = new DMatrixRMaj(3, model.nv());
        double[] out = new double[3];
        double[] out6 = new double[6];
        double[] rot = new double[9];
        double[] lambda = {1, 2, 3};
        long before = 0;
        double sink = 0;
        for (int round = 0; round < 3; round++) { // the first rounds warm up (class loading, compilation)
            before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 5_000; i++) {
                c.positionError(q, out, 0);
                c.velocityError(q, v, out, 0);
                c.jacobian(q, g, 0);
                c.gamma(q, v, out, 0);
                c.forceOnB(q, lambda, 0, LineOnLineContact.Coordinates.BODY, out6);
                c.forceOnF(q, lambda, 0, LineOnLineContact.Coordinates.WORLD, out6);
                c.contactFrame(q, rot, out);
                sink += c.separation(q) + (c.closestPoints(q, out, rot) ? 1 : 0);
            }
        }
        long allocated = mx.getThreadAllocatedBytes(id) - before;
        assertTrue(Double.isFinite(sink));
        assertTrue(allocated < 4096, "hot-path methods allocated " + allocated + " bytes in 5000 rounds");
    }

    // ---------------------------------------------------------------- inside GenericConstraints

    /**
     * A model with a coupler and two line-on-line constraints (3 rows rolling, 1 row not): GenericConstraints
     * stacks 1 + 3 + 1 rows, each equal to the standalone class's, and its γ matches differences of its G.
     */
    @Test
    void genericConstraintsStackTheRows() throws ModelException {
        List<LineOnLineConstraintModel> vs = variants();
        LineOnLineConstraintModel rollingOne = vs.get(0);
        LineOnLineConstraintModel slidingOne = vs.get(2);
        Model model = chainAndBlock()
                .addConstraint(new CouplerConstraintModel("gear", 1, 0, 0.5, 0.1, NAN, SourceLocation.UNKNOWN))
                .addConstraint(rollingOne)
                .addConstraint(slidingOne)
                .build();
        GenericConstraints gc = new GenericConstraints(model);
        assertEquals(5, gc.constraintRows());
        int nv = model.nv();
        LineOnLineContact a = new LineOnLineContact(rollingOne, new GenericDynamics(model));
        LineOnLineContact b = new LineOnLineContact(slidingOne, new GenericDynamics(model));
        DMatrixRMaj g = new DMatrixRMaj(5, nv);
        DMatrixRMaj expectedG = new DMatrixRMaj(5, nv);
        double[] phi = new double[5];
        double[] phidot = new double[5];
        double[] gamma = new double[5];
        double[] expected = new double[5];
        Random rnd = new Random(17);
        for (int n = 0; n < 20; n++) {
            double[] v = new double[nv];
            double[] q = randomState(rnd, model, v);
            gc.constraintJacobian(q, g);
            expectedG.zero();
            expectedG.set(0, 1, 1); // the coupler q_b = 0.5 q_a + 0.1 (v indices: a 0, b 1)
            expectedG.set(0, 0, -0.5);
            a.jacobian(q, expectedG, 1);
            b.jacobian(q, expectedG, 4);
            assertArrayEquals(expectedG.data, g.data, 0);

            gc.positionError(q, phi);
            expected[0] = q[1] - 0.5 * q[0] - 0.1;
            a.positionError(q, expected, 1);
            b.positionError(q, expected, 4);
            assertArrayEquals(expected, phi, 1e-15);

            gc.velocityError(q, v, phidot);
            expected[0] = v[1] - 0.5 * v[0];
            a.velocityError(q, v, expected, 1);
            b.velocityError(q, v, expected, 4);
            assertArrayEquals(expected, phidot, 1e-15);

            gc.gamma(q, v, gamma);
            expected[0] = 0;
            a.gamma(q, v, expected, 1);
            b.gamma(q, v, expected, 4);
            assertArrayEquals(expected, gamma, 0);
        }
        // γ = -Ġ v through GenericConstraints (h = 1e-5, tolerance as above), on well-conditioned states.
        DMatrixRMaj gPlus = new DMatrixRMaj(5, nv);
        DMatrixRMaj gMinus = new DMatrixRMaj(5, nv);
        double h = 1e-5;
        int checked = 0;
        for (int n = 0; n < 30; n++) {
            double[] v = new double[nv];
            double[] q = randomState(rnd, model, v);
            if (!wellConditioned(a, q) || !wellConditioned(b, q)) {
                continue;
            }
            gc.gamma(q, v, gamma);
            gc.constraintJacobian(advance(model, q, v, h), gPlus);
            gc.constraintJacobian(advance(model, q, v, -h), gMinus);
            for (int r = 0; r < 5; r++) {
                double x = 0;
                for (int k = 0; k < nv; k++) {
                    x += (gPlus.get(r, k) - gMinus.get(r, k)) / (2 * h) * v[k];
                }
                expected[r] = -x;
            }
            assertClose(expected, gamma, 1e-7, "GenericConstraints gamma");
            checked++;
        }
        assertTrue(checked >= 10, "only " + checked + " states checked");
    }
}
