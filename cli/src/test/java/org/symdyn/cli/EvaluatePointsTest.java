package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.testing.SharedFiles;

/**
 * {@code symdyn evaluate}'s point kinematics ({@code "points"}) and body Jacobians ({@code "body_jacobians"}), for both
 * backends, checked from the printed JSON alone: positions against the printed frame pose and the rotated point;
 * point Jacobians against central differences of printed positions at q ⊕ ±h e_k (the runtime's {@link StateSpace}
 * moves quaternions on the sphere); J̇ v against central differences of the printed J v at q ⊕ ±h v; velocity = J v
 * and acceleration = J a + J̇ v; body Jacobians against {@link GenericDynamics#bodyJacobian} in-process; generated
 * against generic. Models: a floating, branched rig with a ball joint and rotated fixed frames (written here), the
 * sample quadruped (floating, four legs, fixed foot frames, contact rows), anymal from ../shared (skipped when
 * absent), and a pendulum in closed form. Then the located errors of bad {@code points}.
 */
class EvaluatePointsTest extends FileWritingTest {
    /** Central-difference step (rad, m). */
    private static final double STEP = 1e-5;
    /** Tolerance of the finite-difference checks, relative to max(1, |value|). */
    private static final double FD_TOL = 1e-7;
    /** Tolerance of identities that hold up to rounding (velocity = J v, ...), relative to max(1, |value|). */
    private static final double ROUNDING_TOL = 1e-12;
    /** Generated against generic, relative to max(1, |value|). */
    private static final double BACKEND_TOL = 1e-10;
    /** Worst error per check and model (printed for the report). */
    private static final Map<String, Double> WORST = new TreeMap<>();

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf("worst error %-45s %.2e%n", k, v));
    }


    private static String inertial(double mass, String com) {
        return "<inertial><origin xyz=\"" + com + "\"/><mass value=\"" + mass + "\"/>"
                + "<inertia ixx=\"0.02\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.03\" iyz=\"0.002\" izz=\"0.04\"/></inertial>";
    }

    /**
     * world -floating- base; base -revolute (placed with xyz and rpy)- arm -ball- hand -fixed, rotated- sensor;
     * base -prismatic (rotated)- tail; world -fixed, rotated- marker.
     */
    private Path rig() throws IOException {
        return write("rig.urdf", String.join("\n",
                "<robot name=\"rig\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"base\"/></joint>",
                "  <link name=\"base\">" + inertial(4, "0.01 0.02 -0.03") + "</link>",
                "  <joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>",
                "    <origin xyz=\"0.2 -0.1 0.3\" rpy=\"0.3 -0.2 0.5\"/><axis xyz=\"0 1 0\"/>",
                "    <limit lower=\"-2\" upper=\"2\" effort=\"10\" velocity=\"10\"/></joint>",
                "  <link name=\"arm\">" + inertial(1.5, "0 0 -0.25") + "</link>",
                "  <joint name=\"wrist\" type=\"ball\"><parent link=\"arm\"/><child link=\"hand\"/>",
                "    <origin xyz=\"0 0.05 -0.5\"/></joint>",
                "  <link name=\"hand\">" + inertial(0.5, "0.02 0 -0.05") + "</link>",
                "  <joint name=\"sensor_mount\" type=\"fixed\"><parent link=\"hand\"/><child link=\"sensor\"/>",
                "    <origin xyz=\"0.05 0.1 -0.2\" rpy=\"1.1 0.4 -0.7\"/></joint>",
                "  <link name=\"sensor\"/>",
                "  <joint name=\"slide\" type=\"prismatic\"><parent link=\"base\"/><child link=\"tail\"/>",
                "    <origin xyz=\"-0.3 0 0\" rpy=\"0 0.4 0\"/><axis xyz=\"1 0 0\"/>",
                "    <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"10\"/></joint>",
                "  <link name=\"tail\">" + inertial(0.8, "-0.1 0 0") + "</link>",
                "  <joint name=\"marker_mount\" type=\"fixed\"><parent link=\"world\"/><child link=\"marker\"/>",
                "    <origin xyz=\"1 2 3\" rpy=\"0.1 0.2 0.3\"/></joint>",
                "  <link name=\"marker\"/>",
                "</robot>", ""));
    }

    // ------------------------------------------------------------------ checks on whole models

    @Test
    void aFloatingBranchedRigWithABallJointAndRotatedFrames() throws Exception {
        Path model = rig();
        checkModel("rig", model, false, 4, 11);
    }

    @Test
    void theSampleQuadruped() throws Exception {
        Path model = sample("quadruped.urdf");
        checkModel("quadruped", model, false, 3, 12);
    }

    /** A public robot from ../shared (33 s of a loaded run): the exhaustive run's. */
    @Tag("exhaustive")
    @Test
    void anymalFromShared() throws Exception {
        Path model = SharedFiles.model("anymal.urdf");
        checkModel("anymal", model, true, 2, 13);
    }

    /**
     * Evaluates {@code bases} random states and their finite-difference neighbours, with a point in every frame of
     * the model, by both backends, and checks everything the class comment says.
     */
    private void checkModel(String name, Path modelFile, boolean floating, int bases, long seed) throws Exception {
        Model model = UrdfReader.read(modelFile, new UrdfReader.Options(floating, false));
        StateSpace space = new StateSpace(model);
        int nq = model.nq();
        int nv = model.nv();
        Random rnd = new Random(seed);
        List<double[]> qs = new ArrayList<>();
        List<double[]> vs = new ArrayList<>();
        List<double[]> as = new ArrayList<>();
        for (int b = 0; b < bases; b++) {
            double[] q0 = randomQ(model, rnd);
            double[] v = random(nv, 2, rnd);
            double[] a = random(nv, 3, rnd);
            qs.add(q0);
            vs.add(v);
            as.add(a);
            // q0 ⊕ ±h e_k for the Jacobian, then q0 ⊕ ±h v for J̇ v (same v and a)
            for (int k = 0; k <= nv; k++) {
                double[] direction = k < nv ? unit(nv, k) : v;
                for (int sign = 1; sign >= -1; sign -= 2) {
                    double[] q = new double[nq];
                    space.integrate(q0, direction, sign * STEP, q);
                    qs.add(q);
                    vs.add(v);
                    as.add(a);
                }
            }
        }
        StringBuilder points = new StringBuilder("[");
        List<double[]> pointList = new ArrayList<>();
        for (int f = 0; f < model.frames().size(); f++) {
            double[] p = {0.1 * ((f % 3) - 1) + 0.05, 0.07 * ((f % 5) - 2) - 0.02, 0.03 * f - 0.1};
            pointList.add(p);
            points.append(f > 0 ? ", " : "").append("{\"frame\": \"").append(model.frames().get(f).name())
                    .append("\", \"point\": ").append(SymDynCliTest.list(p)).append('}');
        }
        points.append(']');
        StringBuilder states = new StringBuilder("{\"states\": [\n");
        for (int i = 0; i < qs.size(); i++) {
            states.append(i > 0 ? ",\n" : "").append("  {\"q\": ").append(SymDynCliTest.list(qs.get(i)))
                    .append(", \"v\": ").append(SymDynCliTest.list(vs.get(i)))
                    .append(", \"a\": ").append(SymDynCliTest.list(as.get(i)))
                    .append(", \"points\": ").append(points).append('}');
        }
        Path statesFile = write(name + "-states.json", states.append("\n]}\n").toString());

        List<ObjectValue> generic = null;
        for (String backend : List.of("generic", "generated")) {
            List<String> args = new ArrayList<>(List.of("evaluate", modelFile.toString(), "--states",
                    statesFile.toString(), "--backend", backend));
            if (floating) {
                args.add("--floating");
            }
            Result r = SymDynCliTest.run(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), r.err());
            assertFalse(r.err().contains("error"), r.err());
            List<ObjectValue> results = results(r);
            assertEquals(qs.size(), results.size());
            String where = name + " " + backend;
            GenericDynamics oracle = new GenericDynamics(model);
            for (int i = 0; i < results.size(); i++) {
                checkState(where + " state " + i, model, oracle, results.get(i), qs.get(i), vs.get(i), as.get(i),
                        pointList);
            }
            int perBase = 1 + 2 * (nv + 1);
            for (int b = 0; b < bases; b++) {
                checkFiniteDifferences(where + " base " + b, model, results, b * perBase, vs.get(b * perBase));
            }
            if (generic == null) {
                generic = results;
            } else {
                for (int i = 0; i < results.size(); i++) {
                    for (String key : List.of("body_poses", "body_jacobians", "points")) {
                        compare(name + " generated vs generic", generic.get(i).get(key), results.get(i).get(key),
                                BACKEND_TOL, name + " state " + i + "." + key);
                    }
                }
            }
        }
    }

    /** The identities that hold at one state, up to rounding. */
    private static void checkState(String where, Model model, GenericDynamics generic, ObjectValue result,
            double[] q, double[] v, double[] a, List<double[]> points) {
        int nv = model.nv();
        String label = where.substring(0, where.indexOf(" state"));
        ObjectValue jacobians = (ObjectValue) result.get("body_jacobians");
        List<String> bodyNames = model.bodies().stream().map(Body::name).toList();
        assertEquals(model.frames().stream().map(Frame::name).toList(), List.copyOf(jacobians.members().keySet()),
                where);
        DMatrixRMaj expected = new DMatrixRMaj(6, nv);
        for (int b = 0; b < bodyNames.size(); b++) {
            if (!model.hasFrame(bodyNames.get(b)) || !model.frame(bodyNames.get(b)).pose().isIdentity()) {
                continue; // the link frame is not the body frame: checked against the point Jacobians below
            }
            generic.bodyJacobian(q, b, expected);
            double[][] got = SymDynCliTest.matrix(jacobians.get(bodyNames.get(b)));
            assertEquals(6, got.length, where);
            for (int r = 0; r < 6; r++) {
                for (int c = 0; c < nv; c++) {
                    check(label + " body_jacobian", expected.get(r, c), got[r][c], BACKEND_TOL,
                            where + " body_jacobians." + bodyNames.get(b) + "[" + r + "][" + c + "]");
                }
            }
        }
        ArrayValue out = (ArrayValue) result.get("points");
        assertEquals(points.size(), out.size(), where);
        ObjectValue poses = (ObjectValue) result.get("body_poses");
        for (int f = 0; f < points.size(); f++) {
            Frame frame = model.frames().get(f);
            String at = where + " points[" + f + "] (" + frame.name() + ")";
            ObjectValue p = (ObjectValue) out.get(f);
            assertEquals(List.of("position", "velocity", "acceleration", "bias", "jacobian"),
                    List.copyOf(p.members().keySet()), at);
            ObjectValue pose = (ObjectValue) poses.get(frame.name());
            double[] origin = SymDynCliTest.vector(pose.get("position"));
            double[][] rotation = SymDynCliTest.matrix(pose.get("rotation"));
            double[] point = points.get(f);
            double[] position = SymDynCliTest.vector(p.get("position"));
            double[][] jac = SymDynCliTest.matrix(p.get("jacobian"));
            assertEquals(3, jac.length, at);
            double[] velocity = SymDynCliTest.vector(p.get("velocity"));
            double[] acceleration = SymDynCliTest.vector(p.get("acceleration"));
            double[] bias = SymDynCliTest.vector(p.get("bias"));
            // with the frame's Jacobian [J_w; J_v] (frame coordinates), the frame's point x moves at
            // R (J_v + J_w × x) v in the world: that is the point's Jacobian
            double[][] frameJac = SymDynCliTest.matrix(jacobians.get(frame.name()));
            assertEquals(6, frameJac.length, at);
            for (int k = 0; k < nv; k++) {
                double[] w = {frameJac[0][k], frameJac[1][k], frameJac[2][k]};
                double[] local = {frameJac[3][k] + w[1] * point[2] - w[2] * point[1],
                    frameJac[4][k] + w[2] * point[0] - w[0] * point[2],
                    frameJac[5][k] + w[0] * point[1] - w[1] * point[0]};
                for (int i = 0; i < 3; i++) {
                    double world = rotation[i][0] * local[0] + rotation[i][1] * local[1] + rotation[i][2] * local[2];
                    check(label + " point jacobian = R (J_v + J_w x point) of the frame jacobian", world, jac[i][k],
                            ROUNDING_TOL, at + " body_jacobians." + frame.name() + " column " + k);
                }
            }
            for (int i = 0; i < 3; i++) {
                double x = origin[i];
                double jv = 0;
                double ja = 0;
                for (int k = 0; k < 3; k++) {
                    x += rotation[i][k] * point[k];
                }
                assertEquals(nv, jac[i].length, at);
                for (int k = 0; k < nv; k++) {
                    jv += jac[i][k] * v[k];
                    ja += jac[i][k] * a[k];
                }
                check(label + " position = pose * point", x, position[i], ROUNDING_TOL, at + " position");
                check(label + " velocity = J v", jv, velocity[i], ROUNDING_TOL, at + " velocity");
                check(label + " acceleration = J a + bias", ja + bias[i], acceleration[i], ROUNDING_TOL,
                        at + " acceleration");
                if (frame.bodyIndex() < 0) {
                    assertEquals(0.0, velocity[i], at);
                    assertEquals(0.0, acceleration[i], at);
                    assertEquals(0.0, bias[i], at);
                }
            }
        }
    }

    /**
     * The Jacobian column k against (position(q ⊕ h e_k) - position(q ⊕ -h e_k)) / 2h, and J̇ v against
     * (J v (q ⊕ h v) - J v (q ⊕ -h v)) / 2h, for every point; base is the index of the unperturbed state.
     */
    private static void checkFiniteDifferences(String where, Model model, List<ObjectValue> results, int base,
            double[] v) {
        int nv = model.nv();
        String label = where.substring(0, where.indexOf(" base"));
        ArrayValue at0 = (ArrayValue) results.get(base).get("points");
        for (int f = 0; f < at0.size(); f++) {
            double[][] jac = SymDynCliTest.matrix(((ObjectValue) at0.get(f)).get("jacobian"));
            double[] bias = SymDynCliTest.vector(((ObjectValue) at0.get(f)).get("bias"));
            for (int k = 0; k <= nv; k++) {
                ObjectValue plus = (ObjectValue) ((ArrayValue) results.get(base + 1 + 2 * k).get("points")).get(f);
                ObjectValue minus = (ObjectValue) ((ArrayValue) results.get(base + 2 + 2 * k).get("points")).get(f);
                String key = k < nv ? "position" : "velocity";
                double[] xp = SymDynCliTest.vector(plus.get(key));
                double[] xm = SymDynCliTest.vector(minus.get(key));
                for (int i = 0; i < 3; i++) {
                    double fd = (xp[i] - xm[i]) / (2 * STEP);
                    if (k < nv) {
                        check(label + " jacobian vs FD of position", fd, jac[i][k], FD_TOL,
                                where + " points[" + f + "].jacobian[" + i + "][" + k + "]");
                    } else {
                        check(label + " bias vs FD of J v", fd, bias[i], FD_TOL,
                                where + " points[" + f + "].bias[" + i + "]");
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ closed form

    private static final double TIP = 1.0;

    /**
     * A pendulum on a hinge about y at (0.1, 0.2, 1.5), a tip frame 1 below the hinge: a point r = (rx, 0, rz) of
     * the arm is at hinge + R_y(q) r, so J = R_y'(q) r, J̇ v = R_y''(q) r v², and the arm's body Jacobian is
     * [0 1 0 0 0 0]ᵀ.
     */
    @Test
    void aPendulumInClosedForm() throws Exception {
        Path model = write("pendulum.urdf", String.join("\n",
                "<robot name=\"pendulum\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"continuous\">",
                "    <parent link=\"world\"/><child link=\"arm\"/>",
                "    <origin xyz=\"0.1 0.2 1.5\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"arm\">" + inertial(2, "0 0 -0.4") + "</link>",
                "  <joint name=\"tip_joint\" type=\"fixed\">",
                "    <parent link=\"arm\"/><child link=\"tip\"/><origin xyz=\"0 0 -" + TIP + "\"/>",
                "  </joint>",
                "  <link name=\"tip\"/>",
                "</robot>", ""));
        double[][] states = {{0.3, 1.5, 0.2}, {-2.1, -0.4, 5.0}, {Math.PI / 2, 10, -1}};
        StringBuilder json = new StringBuilder("{\"states\": [\n");
        for (double[] s : states) {
            json.append(String.format("  {\"q\": [%s], \"v\": [%s], \"a\": [%s], \"points\": [{\"frame\": \"tip\","
                    + " \"point\": [0, 0, 0]}, {\"frame\": \"tip\", \"point\": [0.2, 0, 0.3]}, {\"frame\": \"arm\","
                    + " \"point\": [0.5, 0, 0]}, {\"frame\": \"world\", \"point\": [1, 2, 3]}]},%n", s[0], s[1],
                    s[2]));
        }
        json.append("  {\"q\": [1.0]}\n]}\n");
        Path statesFile = write("states.json", json.toString());
        double[][] inArm = {{0, 0, -TIP}, {0.2, 0, 0.3 - TIP}, {0.5, 0, 0}};
        for (String backend : List.of("generic", "generated")) {
            Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString(),
                    "--backend", backend);
            assertEquals(0, r.exitCode(), r.err());
            assertEquals("", r.err());
            List<ObjectValue> results = results(r);
            assertEquals(states.length + 1, results.size());
            for (int i = 0; i < states.length; i++) {
                String where = backend + " state " + i;
                double q = states[i][0];
                double v = states[i][1];
                double a = states[i][2];
                double c = Math.cos(q);
                double s = Math.sin(q);
                ObjectValue res = results.get(i);
                assertEquals(List.of("H", "C", "g", "qdd", "tau_id", "body_poses", "body_jacobians", "points"),
                        List.copyOf(res.members().keySet()), where);
                ObjectValue jacobians = (ObjectValue) res.get("body_jacobians");
                assertEquals(List.of("world", "arm", "tip"), List.copyOf(jacobians.members().keySet()));
                assertMatrix(new double[][] {{0}, {1}, {0}, {0}, {0}, {0}},
                        SymDynCliTest.matrix(jacobians.get("arm")), where + " body jacobian");
                // the tip, merged into the arm 1 below its origin: ω × (0, 0, -1) = (-1, 0, 0) per unit of v
                assertMatrix(new double[][] {{0}, {1}, {0}, {-TIP}, {0}, {0}},
                        SymDynCliTest.matrix(jacobians.get("tip")), where + " tip jacobian");
                assertMatrix(new double[6][1], SymDynCliTest.matrix(jacobians.get("world")), where + " world jacobian");
                ArrayValue points = (ArrayValue) res.get("points");
                assertEquals(4, points.size(), where);
                for (int j = 0; j < 3; j++) {
                    double rx = inArm[j][0];
                    double rz = inArm[j][2];
                    double[] rotated = {c * rx + s * rz, 0, -s * rx + c * rz};
                    double[] d1 = {-s * rx + c * rz, 0, -c * rx - s * rz};
                    double[] d2 = {-c * rx - s * rz, 0, s * rx - c * rz};
                    ObjectValue p = (ObjectValue) points.get(j);
                    String at = where + " points[" + j + "]";
                    assertVector(new double[] {0.1 + rotated[0], 0.2, 1.5 + rotated[2]}, SymDynCliTest.vector(p.get("position")),
                            at + " position");
                    assertMatrix(new double[][] {{d1[0]}, {0}, {d1[2]}}, SymDynCliTest.matrix(p.get("jacobian")), at + " jacobian");
                    assertVector(new double[] {d1[0] * v, 0, d1[2] * v}, SymDynCliTest.vector(p.get("velocity")), at + " velocity");
                    assertVector(new double[] {d2[0] * v * v, 0, d2[2] * v * v}, SymDynCliTest.vector(p.get("bias")), at + " bias");
                    assertVector(new double[] {d1[0] * a + d2[0] * v * v, 0, d1[2] * a + d2[2] * v * v},
                            SymDynCliTest.vector(p.get("acceleration")), at + " acceleration");
                }
                ObjectValue world = (ObjectValue) points.get(3);
                assertVector(new double[] {1, 2, 3}, SymDynCliTest.vector(world.get("position")), where + " world point");
                for (String key : List.of("velocity", "acceleration", "bias")) {
                    assertVector(new double[3], SymDynCliTest.vector(world.get(key)), where + " world " + key);
                }
                assertMatrix(new double[3][1], SymDynCliTest.matrix(world.get("jacobian")), where + " world jacobian");
            }
            // a state without points: an empty list, and the body Jacobians still
            assertEquals(0, ((ArrayValue) results.get(states.length).get("points")).size());
            assertEquals(3, ((ObjectValue) results.get(states.length).get("body_jacobians")).members().size());
        }
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void badPointsAreLocatedErrors() throws Exception {
        Path model = sample("quadruped.urdf");
        String q = "[0, 0, 0.5, 0, 0, 0, 1, 0, 0.6, -1.2, 0, 0.6, -1.2, 0, -0.6, 1.2, 0, -0.6, 1.2]";
        String[] lines = {
            "{\"states\": [",
            "  {\"q\": " + q + ", \"points\": {\"frame\": \"trunk\"}},",
            "  {\"q\": " + q + ", \"points\": [3, {\"frame\": \"lf_toe\", \"point\": [0, 0, 0]}]},",
            "  {\"q\": " + q + ", \"points\": [{\"point\": [0, 0]}, {\"frame\": 7, \"point\": [0, \"x\", 0],"
                    + " \"weight\": 1}]},",
            "  {\"q\": " + q + ", \"points\": [{\"frame\": \"trunk\"}, {\"frame\": \"trunk\", \"point\": \"0 0 0\"},"
                    + " {\"frame\": \"lf_foot\", \"point\": [1, 2, 3, 4]}]},",
            "  {\"q\": " + q + ", \"points\": [{\"frame\": \"lf_foot\", \"point\": [0, 0, -0.02]}]}",
            "]}",
        };
        Path states = write("bad.json", String.join("\n", lines) + "\n");
        String frames = "(frames: world, trunk, lf_hip, lf_thigh, lf_shank, lf_foot, rf_hip, rf_thigh, ... ("
                + UrdfReader.read(model).frames().size() + " in all; symdyn inspect lists them))";
        List<String> expected = List.of(
                at(states, lines, 2, "{\"frame\": \"trunk\"}")
                        + " state 0: points must be an array of {\"frame\": NAME, \"point\": [x, y, z]}, not an object",
                at(states, lines, 3, "3,") + " state 1: points[0] must be an object {\"frame\": NAME, \"point\":"
                        + " [x, y, z]}, not a number",
                at(states, lines, 3, "\"lf_toe\"") + " state 1: points[1]: unknown frame 'lf_toe' " + frames,
                at(states, lines, 4, "{\"point\"") + " state 2: points[0]: missing \"frame\" (the name of a link or"
                        + " frame of the model)",
                at(states, lines, 4, "[0, 0]}") + " state 2: points[0].point has 2 numbers, expected 3 (x, y, z in"
                        + " the frame's coordinates)",
                at(states, lines, 4, "7,") + " state 2: points[1].frame must be a string (the name of a link or"
                        + " frame of the model), not a number",
                at(states, lines, 4, "\"x\"") + " state 2: points[1].point[1] must be a number, not a string",
                at(states, lines, 4, "1}]") + " state 2: points[1]: unknown key 'weight' (expected frame, point)",
                at(states, lines, 5, "{\"frame\": \"trunk\"}") + " state 3: points[0]: missing \"point\" (x, y, z in"
                        + " the frame's coordinates)",
                at(states, lines, 5, "\"0 0 0\"") + " state 3: points[1].point must be an array of 3 numbers (x, y,"
                        + " z in the frame's coordinates), not a string",
                at(states, lines, 5, "[1, 2, 3, 4]") + " state 3: points[2].point has 4 numbers, expected 3 (x, y, z"
                        + " in the frame's coordinates)");
        for (String backend : List.of("generic", "generated")) {
            Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", states.toString(), "--backend",
                    backend);
            assertEquals(2, r.exitCode(), r.err());
            assertEquals("", r.out());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(r.err().contains("\tat "), r.err());
            assertEquals(expected, r.errLines(), r.err());
        }

        // JSON cannot write NaN or infinity; a number beyond a double's range is the reader's error, located
        String[] huge = {"{\"states\": [",
            "  {\"q\": " + q + ", \"points\": [{\"frame\": \"lf_foot\", \"point\": [0, 0, 1e999]}]}", "]}"};
        Path hugeFile = write("huge.json", String.join("\n", huge) + "\n");
        Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", hugeFile.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals(List.of(at(hugeFile, huge, 2, "1e999") + " number out of range: 1e999 exceeds the largest"
                + " double (about 1.8e308)"), r.errLines());
    }

    /** {@code path:[line,col]} of the first occurrence of {@code text} on 1-based {@code line}. */
    private static String at(Path file, String[] lines, int line, String text) {
        int col = lines[line - 1].indexOf(text);
        assertTrue(col >= 0, text);
        return file + ":[" + line + "," + (col + 1) + "]";
    }

    // ------------------------------------------------------------------ helpers

    /** A sample model of this repository (samples/src/main/symdyn); skips when the folder is not found. */
    private static Path sample(String file) {
        Path folder = null;
        for (Path d = Path.of("").toAbsolutePath(); d != null && folder == null; d = d.getParent()) {
            Path candidate = d.resolve("samples/src/main/symdyn");
            if (Files.isDirectory(candidate)) {
                folder = candidate;
            }
        }
        assumeTrue(folder != null, "samples/src/main/symdyn not found above " + Path.of("").toAbsolutePath()
                + ": skipping a test that reads the sample " + file);
        return folder.resolve(file);
    }

    private static double[] randomQ(Model model, Random rnd) {
        double[] q = new double[model.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = rnd.nextDouble(-1.2, 1.2);
        }
        for (Body body : model.bodies()) {
            JointType type = body.joint().type();
            if (type.hasQuaternion()) {
                int first = body.joint().quaternionIndex();
                double n = 0;
                for (int k = 0; k < 4; k++) {
                    q[first + k] = rnd.nextGaussian();
                    n += q[first + k] * q[first + k];
                }
                for (int k = 0; k < 4; k++) {
                    q[first + k] /= Math.sqrt(n);
                }
            }
        }
        return q;
    }

    private static double[] random(int n, double range, Random rnd) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble(-range, range);
        }
        return x;
    }

    private static double[] unit(int n, int k) {
        double[] e = new double[n];
        e[k] = 1;
        return e;
    }

    private static List<ObjectValue> results(Result r) throws JsonException {
        ArrayValue results = (ArrayValue) ((ObjectValue) r.json()).get("results");
        return results.elements().stream().map(ObjectValue.class::cast).toList();
    }

    /** |expected - actual| within tol * max(1, |expected|); the worst error is recorded under {@code check}. */
    private static void check(String check, double expected, double actual, double tol, String where) {
        double error = Math.abs(expected - actual) / Math.max(1, Math.abs(expected));
        WORST.merge(check, error, Math::max);
        assertTrue(error <= tol, where + ": expected " + expected + " but got " + actual + " (error " + error
                + " > " + tol + ")");
    }

    /** Two JSON values of the same shape whose numbers agree to tol relative (to max(1, |number|)). */
    private static void compare(String check, JsonValue expected, JsonValue actual, double tol, String where) {
        assertEquals(expected.typeName(), actual.typeName(), where);
        if (expected instanceof ObjectValue e) {
            ObjectValue a = (ObjectValue) actual;
            assertEquals(List.copyOf(e.members().keySet()), List.copyOf(a.members().keySet()), where);
            for (String key : e.members().keySet()) {
                compare(check, e.get(key), a.get(key), tol, where + "." + key);
            }
        } else if (expected instanceof ArrayValue e) {
            ArrayValue a = (ArrayValue) actual;
            assertEquals(e.size(), a.size(), where);
            for (int i = 0; i < e.size(); i++) {
                compare(check, e.get(i), a.get(i), tol, where + "[" + i + "]");
            }
        } else if (expected instanceof NumberValue e) {
            check(check, e.value(), ((NumberValue) actual).value(), tol, where);
        } else {
            assertEquals(expected, actual, where);
        }
    }

    private static void assertVector(double[] expected, double[] actual, String where) {
        assertEquals(expected.length, actual.length, where);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], 1e-12 * Math.max(1, Math.abs(expected[i])), where + "[" + i + "]");
        }
    }

    private static void assertMatrix(double[][] expected, double[][] actual, String where) {
        assertEquals(expected.length, actual.length, where);
        for (int i = 0; i < expected.length; i++) {
            assertVector(expected[i], actual[i], where + "[" + i + "]");
        }
    }
}
