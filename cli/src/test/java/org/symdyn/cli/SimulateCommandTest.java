package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.BooleanValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;

/** {@code symdyn simulate}, run in-process: physics, both backends, recording, the JSON shape and every error. */
class SimulateCommandTest extends FileWritingTest {
    private static final double G = 9.81;
    private static final double MU = 0.4;

    /** A 0.1 m cube of 1 kg on a floating joint, its four bottom corners contact points on a floor at z = 0. */
    static final String BLOCK = String.join("\n",
            "<?xml version=\"1.0\"?>",
            "<robot name=\"block\" xmlns:symdyn=\"urn:symdyn:1\">",
            "  <link name=\"world\"/>",
            "  <link name=\"box\">",
            "    <inertial><mass value=\"1\"/>",
            "      <inertia ixx=\"0.0016667\" iyy=\"0.0016667\" izz=\"0.0016667\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
            "    </inertial>",
            "  </link>",
            "  <joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"box\"/></joint>",
            "  <symdyn:ground name=\"floor\" point=\"0 0 0\" normal=\"0 0 1\" friction=\"" + MU + "\"/>",
            "  <symdyn:contact_point name=\"c1\" link=\"box\" point=\"0.05 0.05 -0.05\"/>",
            "  <symdyn:contact_point name=\"c2\" link=\"box\" point=\"-0.05 0.05 -0.05\"/>",
            "  <symdyn:contact_point name=\"c3\" link=\"box\" point=\"0.05 -0.05 -0.05\"/>",
            "  <symdyn:contact_point name=\"c4\" link=\"box\" point=\"-0.05 -0.05 -0.05\"/>",
            "</robot>", "");

    /** Two links on revolute joints about y, no contact. */
    static final String DOUBLE_PENDULUM = String.join("\n",
            "<?xml version=\"1.0\"?>",
            "<robot name=\"double_pendulum\">",
            "  <link name=\"base\"/>",
            "  <joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"l1\"/>"
                    + "<axis xyz=\"0 1 0\"/></joint>",
            "  <link name=\"l1\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"1\"/>",
            "    <inertia ixx=\"0.02\" iyy=\"0.02\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
            "  <joint name=\"j2\" type=\"continuous\"><parent link=\"l1\"/><child link=\"l2\"/>"
                    + "<origin xyz=\"0 0 -1\"/><axis xyz=\"0 1 0\"/></joint>",
            "  <link name=\"l2\"><inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"1\"/>",
            "    <inertia ixx=\"0.02\" iyy=\"0.02\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
            "</robot>", "");


    /** The double pendulum with its first joint limited to [-1, 1] rad (the joint element on line 4). */
    static final String LIMITED_PENDULUM = DOUBLE_PENDULUM.replace("<joint name=\"j1\" type=\"continuous\">",
            "<joint name=\"j1\" type=\"revolute\"><limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"5\"/>");

    private Path block() throws IOException {
        return write("block.urdf", BLOCK);
    }

    /** The block resting on the floor, sliding along x at v0. */
    private Path sliding(double v0) throws IOException {
        return write("slide.json", "{\"q\": [0, 0, 0.05, 0, 0, 0, 1], \"v\": [0, 0, 0, " + v0 + ", 0, 0]}\n");
    }

    static double[] numbers(JsonValue value) {
        ArrayValue a = (ArrayValue) value;
        double[] d = new double[a.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = ((NumberValue) a.get(i)).value();
        }
        return d;
    }

    static double number(JsonValue value) {
        return ((NumberValue) value).value();
    }

    private static void assertCleanFailure(Result r) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(r.err().isBlank());
    }

    /**
     * {@code --no-constraints} leaves the model's bilateral rows out: the block held at a corner by a
     * {@code <symdyn:contact>} row runs, with the option, the very trajectory of the block without the row; without
     * the option, another.
     */
    @Test
    void noConstraintsLeavesTheModelsRowsOut() throws IOException, JsonException {
        Path held = write("held.urdf", BLOCK.replace("</robot>",
                "  <symdyn:contact name=\"hold_x\" link=\"box\" point=\"0.05 0.05 -0.05\" normal=\"1 0 0\"/>\n</robot>"));
        List<String> common = List.of("--initial", sliding(2).toString(), "--duration", "0.1", "--step", "0.001",
                "--every", "10");
        JsonValue[] q = new JsonValue[3];
        String[][] runs = {{held.toString()}, {held.toString(), "--no-constraints"}, {block().toString()}};
        for (int k = 0; k < 3; k++) {
            List<String> args = new ArrayList<>(List.of("simulate"));
            args.addAll(List.of(runs[k]));
            args.addAll(common);
            Result r = SymDynCliTest.run(args.toArray(new String[0]));
            assertEquals(0, r.exitCode(), r.err());
            q[k] = ((ObjectValue) r.json()).get("q");
        }
        assertEquals(q[2].toString(), q[1].toString(), "the rows left out");
        assertFalse(q[2].toString().equals(q[0].toString()), "the rows held");
    }

    @Test
    void aBlockSlidingOnFlatGroundStopsAtV0OverMuG() throws IOException, JsonException {
        double v0 = 2;
        double h = 0.001;
        Result r = SymDynCliTest.run("simulate", block().toString(), "--initial", sliding(v0).toString(),
                "--duration", "0.8", "--step", String.valueOf(h));
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        ObjectValue json = (ObjectValue) r.json();
        ArrayValue t = (ArrayValue) json.get("t");
        ArrayValue v = (ArrayValue) json.get("v");
        ArrayValue q = (ArrayValue) json.get("q");
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        assertEquals(801, t.size());
        double stop = v0 / (MU * G);
        double stoppedAt = Double.NaN;
        for (int i = 1; i < t.size(); i++) {
            double[] vi = numbers(v.get(i));
            double ti = number(t.get(i));
            assertEquals(i * h, ti, 1e-15);
            ArrayValue step = (ArrayValue) contacts.get(i);
            assertEquals(4, step.size(), "four corners in contact at step " + i);
            double normal = 0;
            double[] friction = new double[3];
            for (JsonValue c : step.elements()) {
                ObjectValue contact = (ObjectValue) c;
                normal += number(contact.get("normal_impulse"));
                double[] ti3 = numbers(contact.get("tangent_impulse"));
                for (int k = 0; k < 3; k++) {
                    friction[k] += ti3[k];
                }
                assertEquals(0, numbers(contact.get("position"))[2], 1e-9, "contact points on the floor");
                double[] slip = numbers(contact.get("slip_velocity"));
                assertEquals(vi[3], slip[0], 1e-9, "a translating block's corners slip at its speed");
                assertEquals(0, slip[2], 1e-12, "slip is tangential");
            }
            assertEquals(G * h, normal, 1e-9, "the floor carries the weight, step " + i);
            assertEquals(0, friction[2], 1e-12);
            if (Double.isNaN(stoppedAt)) {
                // sliding: friction μ m g h against the motion
                assertEquals(-Math.min(MU * G * h, numbers(v.get(i - 1))[3]), friction[0], 1e-9, "step " + i);
                if (Math.abs(vi[3]) <= 1e-9) {
                    stoppedAt = ti;
                }
            } else {
                assertEquals(0, vi[3], 1e-9, "stays at rest after stopping");
            }
        }
        assertTrue(Math.abs(stoppedAt - stop) <= h + 1e-12, "stopped at " + stoppedAt + ", v0/(mu g) = " + stop);
        double x = numbers(q.get(q.size() - 1))[0];
        assertEquals(v0 * v0 / (2 * MU * G), x, 2 * v0 * h, "distance v0^2 / (2 mu g)");
        ObjectValue solver = (ObjectValue) json.get("solver");
        assertEquals(800, number(solver.get("steps")));
        assertEquals(true, ((BooleanValue) solver.get("converged")).value());
        assertEquals(0, number(solver.get("unconverged")));
    }

    /** A rotor about the vertical (gravity does not turn it) with a servo, an IMU on it and an encoder. */
    static final String SERVO_ROTOR = String.join("\n",
            "<?xml version=\"1.0\"?>",
            "<robot name=\"rotor\" xmlns:symdyn=\"urn:symdyn:1\">",
            "  <link name=\"base\"/>",
            "  <joint name=\"spin\" type=\"continuous\"><parent link=\"base\"/><child link=\"disc\"/>"
                    + "<axis xyz=\"0 0 1\"/></joint>",
            "  <link name=\"disc\"><inertial><mass value=\"2\"/>",
            "    <inertia ixx=\"0.05\" iyy=\"0.05\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
            "  <symdyn:servo name=\"spin_servo\" joint=\"spin\" kp=\"5\" kd=\"1\" target=\"0.8\" max_torque=\"3\"/>",
            "  <symdyn:imu name=\"disc_imu\" link=\"disc\" xyz=\"0.1 0 0\" rpy=\"0 0 0\"/>",
            "  <symdyn:encoder name=\"spin_encoder\" joint=\"spin\" resolution=\"0.01\"/>",
            "</robot>", "");

    /**
     * Declared devices act and report through simulate, alike on both backends: the servo (ζ = kd / (2 √(kp I)) =
     * 0.71) brings the rotor to its target, the encoder reads it quantised, and the IMU, at rest at the end, reads
     * the specific force of gravity alone (+9.81 along z: an accelerometer at rest feels the support).
     */
    @Test
    void declaredServosAndSensorsActAndReportOnBothBackends() throws IOException, JsonException {
        Path model = write("rotor.urdf", SERVO_ROTOR);
        Path state = write("rest.json", "{\"q\": [0], \"v\": [0]}\n");
        ObjectValue[] runs = new ObjectValue[2];
        String[] backends = {"generic", "generated"};
        for (int b = 0; b < 2; b++) {
            Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                    "10", "--step", "0.001", "--every", "100", "--backend", backends[b]);
            assertEquals(0, r.exitCode(), r.err());
            runs[b] = (ObjectValue) r.json();
            ArrayValue q = (ArrayValue) runs[b].get("q");
            double qEnd = numbers(q.get(q.size() - 1))[0];
            assertEquals(0.8, qEnd, 1e-6, backends[b] + ": the servo reaches its target");
            ObjectValue sensors = (ObjectValue) runs[b].get("sensors");
            ArrayValue imu = (ArrayValue) sensors.get("disc_imu");
            ArrayValue encoder = (ArrayValue) sensors.get("spin_encoder");
            assertEquals(q.size(), imu.size(), "one reading per recorded time");
            assertEquals(q.size(), encoder.size());
            double[] f = numbers(imu.get(imu.size() - 1));
            assertEquals(6, f.length);
            assertEquals(G, f[5], 1e-9, "specific force at rest: gravity alone, upward");
            assertEquals(0, f[3], 1e-6);
            assertEquals(0, f[4], 1e-6);
            assertEquals(0, f[2], 1e-6, "at rest: no angular velocity");
            for (int i = 0; i < q.size(); i++) {
                double qi = numbers(q.get(i))[0];
                assertEquals(0.01 * Math.rint(qi / 0.01), numbers(encoder.get(i))[0], 1e-15, "encoder, record " + i);
            }
            // during the motion the IMU, 0.1 m off the axis, feels the centripetal term ω² r
            double[] mid = numbers(imu.get(5));
            double w = numbers(((ArrayValue) runs[b].get("v")).get(5))[0];
            assertEquals(w, mid[2], 1e-12, "gyro: the rotor's rate");
            assertTrue(Math.abs(w) > 0.05, "still turning at record 5: " + w);
            assertEquals(-w * w * 0.1, mid[3], 1e-9, "centripetal, along -x in the sensor frame");
        }
        compare("", runs[0], runs[1], new int[1]);
    }

    /**
     * A joint that starts beyond its limit is pushed back by the stepper's recovery velocity, which stays: the command
     * warns at the joint's line with the velocity it will leave (β |φ| / h), and says nothing for a state within the
     * limits or for the continuous system, which does not enforce them (its own warning says so).
     */
    @Test
    void aJointStartingBeyondItsLimitIsWarnedAbout() throws IOException {
        Path model = write("limited.urdf", LIMITED_PENDULUM);
        Path beyond = write("beyond.json", "{\"q\": [1.5, 0]}\n");
        Result r = SymDynCliTest.run("simulate", "-q", model.toString(), "--initial", beyond.toString(), "--duration",
                "0.01", "--step", "0.001");
        assertEquals(0, r.exitCode(), r.err());
        List<String> warnings = r.errLines().stream().filter(l -> l.contains("starts at q")).toList();
        assertEquals(1, warnings.size(), r.err());
        assertTrue(warnings.get(0).startsWith(model + ":[4,3] warning: joint 'j1' starts at q = 1.5, beyond its"
                + " upper limit 1 by 0.5: the time stepper recovers"), warnings.get(0));
        org.symdyn.contact.ContactSettings defaults = org.symdyn.contact.ContactSettings.defaults();
        double beta = defaults.penetrationRecovery();
        String velocity = LimitViolations.number(beta * 0.5 / 0.001) + " rad/s";
        assertTrue(warnings.get(0).contains("moving at about " + velocity), warnings.get(0) + " / " + velocity);
        Path within = write("within.json", "{\"q\": [0.999, 0]}\n");
        r = SymDynCliTest.run("simulate", "-q", model.toString(), "--initial", within.toString(), "--duration", "0.01",
                "--step", "0.001");
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(r.err().contains("starts at q"), r.err());
        r = SymDynCliTest.run("simulate", "-q", model.toString(), "--initial", beyond.toString(), "--duration",
                "0.01", "--step", "0.001", "--system", "continuous");
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(r.err().contains("starts at q"), r.err());
        // the lower bound, and no recovery at all (beta = 0, an API setting)
        org.symdyn.model.Model m;
        try {
            m = org.symdyn.io.urdf.UrdfReader.read(model);
        } catch (org.symdyn.model.ModelException e) {
            throw new AssertionError(e);
        }
        List<org.symdyn.model.Diagnostic> below = LimitViolations.of(m, new double[] {-1.25, 0}, 0.01, defaults);
        assertEquals(1, below.size());
        assertTrue(below.get(0).message().contains("starts at q = -1.25, beyond its lower limit -1 by 0.25:"),
                below.get(0).message());
        assertTrue(below.get(0).message().contains("moving at about 5 rad/s"), below.get(0).message());
        String none = LimitViolations.of(m, new double[] {1.5, 0}, 0.01, defaults.penetrationRecovery(0)).get(0)
                .message();
        assertTrue(none.contains("with no penetration recovery the time stepper only keeps it from going further"),
                none);
        assertEquals(List.of(), LimitViolations.of(m, new double[] {1 + 1e-9, 7}, 0.01, defaults),
                "roundoff at a bound");
    }

    /**
     * An MJCF free body given no q starts where the file places it (MuJoCo's qpos0), not at the world's origin: a box
     * at z = 1 above a plane used to start inside the floor there and left it at 20 m/s. It falls from 1 m instead.
     */
    @Test
    void anMjcfBodyGivenNoStateStartsWhereTheFilePlacesIt() throws IOException, JsonException {
        Path model = write("drop.xml", """
                <mujoco model="drop"><worldbody><geom name="floor" type="plane" size="0 0 1"/>
                <body name="box" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
                </worldbody></mujoco>
                """);
        Path empty = write("empty.json", "{}\n");
        Result r = SymDynCliTest.run("simulate", "-q", model.toString(), "--initial", empty.toString(), "--duration",
                "0.1", "--step", "0.001");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        ArrayValue q = (ArrayValue) json.get("q");
        assertEquals(1, numbers(q.get(0))[2], 0, "starts at the XML pose");
        double t = number(((ArrayValue) json.get("t")).get(q.size() - 1));
        // semi-implicit Euler: z = 1 − g h² n (n + 1) / 2 after n steps
        int n = (int) Math.round(t / 0.001);
        assertEquals(1 - 9.81 * 1e-6 * n * (n + 1) / 2, numbers(q.get(q.size() - 1))[2], 1e-9, "falling freely");
    }

    /**
     * A state that diverges while it stays finite stops the run, as a non-finite one does: a speed past
     * {@link SimulationRun#RUNAWAY_SPEED}. (A box resting on the floor in continuous time with a step of 0.5 s reached
     * 1.9e15 m/s and exited 0.) Here the block is simply thrown faster than any mechanism moves.
     */
    @Test
    void aRunawaySpeedStopsTheRun() throws IOException {
        Path fast = write("fast.json", "{\"q\": [0, 0, 1, 0, 0, 0, 1], \"v\": [0, 0, 0, 2e6, 0, 0]}\n");
        Result r = SymDynCliTest.run("simulate", block().toString(), "--initial", fast.toString(), "--duration",
                "0.01", "--step", "0.001");
        assertCleanFailure(r);
        assertTrue(r.err().contains("a speed passed 1000000.0 (v[3] = 2000000.0)"), r.err());
        assertTrue(r.err().contains("try a smaller --step"), r.err());
    }

    /**
     * A run stopped after some steps keeps what it recorded when a file was asked for: the trajectory up to the last
     * recorded state, which the message names (it was lost). Standard output stays empty either way.
     */
    @Test
    void aStoppedRunWritesWhatItRecordedToTheFile() throws IOException, JsonException {
        // thrown at 900,000 m/s along x and pushed (20,000 m/s a step): past 1e6 m/s at the sixth step
        Path fast = write("faster.json", "{\"q\": [0, 0, 1, 0, 0, 0, 1], \"v\": [0, 0, 0, 900000, 0, 0],"
                + " \"tau\": [0, 0, 0, 2e7, 0, 0]}\n");
        Path out = dir.resolve("stopped.json");
        Result r = SymDynCliTest.run("simulate", block().toString(), "--initial", fast.toString(), "--duration",
                "0.1", "--step", "0.001", "-o", out.toString());
        assertCleanFailure(r);
        assertTrue(r.err().contains("a speed passed 1000000.0"), r.err());
        assertTrue(r.err().contains("is written to " + out), r.err());
        ObjectValue json = (ObjectValue) JsonReader.parse(out.toString(), java.nio.file.Files.readString(out));
        ArrayValue t = (ArrayValue) json.get("t");
        assertTrue(t.size() >= 2, "the states before the failure: " + t.size());
        double last = number(t.get(t.size() - 1));
        assertTrue(r.err().contains("up to t = " + org.symdyn.cli.json.JsonWriter.formatNumber(last) + " s"),
                r.err());
        assertTrue(numbers(((ArrayValue) json.get("v")).get(t.size() - 1))[3] <= 1e6, "only good states");

    }

    /**
     * An initial state that leaves a loop open is warned about at the loop (a four-bar started 2.8 m open diverged at
     * its fifth step with advice about the step size); an assembled one is not.
     */
    @Test
    void anInitialStateOffTheConstraintsIsWarnedAbout() throws IOException {
        Path model = write("fourbar.urdf", java.nio.file.Files.readString(Path.of(System.getProperty("user.dir"))
                .resolveSibling("samples").resolve("src/main/symdyn/fourbar.urdf")));
        Path open = write("open.json", "{\"q\": [0.5, 0.3, -0.2]}\n");
        Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", open.toString(), "--duration",
                "0.002", "--step", "0.001");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("fourbar.urdf:[47,3] warning: constraint 'closure' does not hold at the initial"
                + " state"), r.err());
        assertTrue(r.err().contains("its first steps pull the constraint shut"), r.err());
        // the continuous system holds the accelerations only: it says so
        Result c = SymDynCliTest.run("simulate", model.toString(), "--initial", open.toString(), "--duration",
                "0.002", "--step", "0.001", "--system", "continuous");
        assertTrue(c.err().contains("the continuous system keeps the constraint as far from closed as it starts"),
                c.err());
        double[] q = fourBarClosed(1);
        Path closed = write("closed.json", "{\"q\": [" + q[0] + ", " + q[1] + ", " + q[2] + "]}\n");
        Result ok = SymDynCliTest.run("simulate", model.toString(), "--initial", closed.toString(), "--duration",
                "0.002", "--step", "0.001");
        assertEquals(0, ok.exitCode(), ok.err());
        assertFalse(ok.err().contains("does not hold"), ok.err());
        // closed, but the crank alone turning: the velocities move the loop apart
        Path moving = write("moving.json", "{\"q\": [" + q[0] + ", " + q[1] + ", " + q[2] + "], \"v\": [1, 0, 0]}\n");
        Result apart = SymDynCliTest.run("simulate", model.toString(), "--initial", moving.toString(), "--duration",
                "0.002", "--step", "0.001");
        assertEquals(0, apart.exitCode(), apart.err());
        assertTrue(apart.err().contains("the initial velocities move its row"), apart.err());
    }

    /**
     * The joint angles of the sample four-bar (crank 1 m, coupler 2 m, rocker 1.5 m, ground pivots 2 m apart) with the
     * crank at {@code crank} rad, the coupler's end B 2 m from the crank's tip A and 1.5 m from the rocker's pivot.
     */
    static double[] fourBarClosed(double crank) {
        double ax = Math.cos(crank), ay = Math.sin(crank);
        double dx = 2 - ax, dy = -ay, dist = Math.hypot(dx, dy);
        double along = (4 - 2.25 + dist * dist) / (2 * dist), across = Math.sqrt(4 - along * along);
        double bx = ax + (along * dx + across * dy) / dist, by = ay + (along * dy - across * dx) / dist;
        double t2 = Math.atan2(by - ay, bx - ax) - crank;
        return new double[] {crank, t2, Math.atan2(-by, 2 - bx) - crank - t2};
    }

    @Test
    void theJsonHasTheDocumentedShape() throws IOException, JsonException {
        Result r = SymDynCliTest.run("simulate", block().toString(), "--initial", sliding(1).toString(),
                "--duration", "0.01", "--step", "0.005");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals(List.of("model", "step", "every", "q_names", "v_names", "t", "q", "v", "contacts", "sensors",
                "sensor_channels", "solver"), List.copyOf(json.members().keySet()));
        assertEquals("block", ((StringValue) json.get("model")).value());
        assertEquals(0.005, number(json.get("step")));
        assertEquals(1, number(json.get("every")));
        assertEquals(7, ((ArrayValue) json.get("q_names")).size());
        assertEquals(6, ((ArrayValue) json.get("v_names")).size());
        assertEquals(List.of(0.0, 0.005, 0.01), boxed(numbers(json.get("t"))));
        for (JsonValue qi : ((ArrayValue) json.get("q")).elements()) {
            assertEquals(7, numbers(qi).length);
        }
        for (JsonValue vi : ((ArrayValue) json.get("v")).elements()) {
            assertEquals(6, numbers(vi).length);
        }
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        assertEquals(3, contacts.size());
        assertEquals(0, ((ArrayValue) contacts.get(0)).size(), "no step, no contacts at t = 0");
        ObjectValue first = (ObjectValue) ((ArrayValue) contacts.get(1)).get(0);
        assertEquals(List.of("name", "ground", "position", "gap", "normal_impulse", "tangent_impulse",
                "slip_velocity"), List.copyOf(first.members().keySet()));
        assertEquals("c1", ((StringValue) first.get("name")).value());
        assertEquals("floor", ((StringValue) first.get("ground")).value());
        assertEquals(3, numbers(first.get("position")).length);
        assertEquals(3, numbers(first.get("tangent_impulse")).length);
        assertEquals(3, numbers(first.get("slip_velocity")).length);
        assertEquals(new ObjectValue(java.util.Map.of(), JsonValue.Position.NONE), json.get("sensors"));
        assertEquals(List.of("steps", "converged", "unconverged", "max_iterations", "worst_violation"),
                List.copyOf(((ObjectValue) json.get("solver")).members().keySet()));
    }

    private static List<Double> boxed(double[] d) {
        List<Double> list = new ArrayList<>();
        for (double x : d) {
            list.add(x);
        }
        return list;
    }

    @Test
    void everyNthStepIsRecordedWithTheStartAndTheLast() throws IOException, JsonException {
        Path model = block();
        Path state = sliding(1);
        Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.02", "--step", "0.001", "--every", "7");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        double[] t = numbers(json.get("t"));
        assertEquals(4, t.length);
        assertEquals(0, t[0]);
        assertEquals(0.007, t[1], 1e-15);
        assertEquals(0.014, t[2], 1e-15);
        assertEquals(0.02, t[3], 1e-15);
        assertEquals(4, ((ArrayValue) json.get("q")).size());
        assertEquals(4, ((ArrayValue) json.get("v")).size());
        assertEquals(4, ((ArrayValue) json.get("contacts")).size());
        assertEquals(20, number(((ObjectValue) json.get("solver")).get("steps")));
        // the same states as a run recording every step
        Result all = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.02", "--step", "0.001");
        ArrayValue allQ = (ArrayValue) ((ObjectValue) all.json()).get("q");
        assertEquals(21, allQ.size());
        ArrayValue q = (ArrayValue) json.get("q");
        int[] steps = {0, 7, 14, 20};
        for (int i = 0; i < steps.length; i++) {
            assertEquals(allQ.get(steps[i]), q.get(i), "step " + steps[i]);
        }
        // exactly a multiple: the last step is recorded once
        Result even = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.02", "--step", "0.001", "--every", "10");
        assertEquals(List.of(0.0, 0.01, 0.02), boxed(numbers(((ObjectValue) even.json()).get("t"))));
    }

    /**
     * A ball (one contact per ground, so that the impulses are unique; a box on four coplanar corners has a
     * statically indeterminate load whose split each solve picks from its warm start) dropped spinning onto a
     * bouncy floor towards a wall: impacts with restitution, sliding, rolling and a second ground.
     */
    static final String BALL = String.join("\n",
            "<?xml version=\"1.0\"?>",
            "<robot name=\"ball\" xmlns:symdyn=\"urn:symdyn:1\">",
            "  <link name=\"world\"/>",
            "  <link name=\"ball\">",
            "    <inertial><mass value=\"1\"/>",
            "      <inertia ixx=\"0.004\" iyy=\"0.004\" izz=\"0.004\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
            "  </link>",
            "  <joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"ball\"/></joint>",
            "  <symdyn:ground name=\"floor\" point=\"0 0 0\" normal=\"0 0 1\" friction=\"0.3\" restitution=\"0.5\"/>",
            "  <symdyn:ground name=\"wall\" point=\"0.5 0 0\" normal=\"-1 0 0\" friction=\"0.2\"/>",
            "  <symdyn:contact_sphere name=\"shell\" link=\"ball\" center=\"0 0 0\" radius=\"0.1\"/>",
            "</robot>", "");

    @Test
    void bothBackendsGiveTheSameTrajectoryOnAContactScene() throws IOException, JsonException {
        Path model = write("ball.urdf", BALL);
        Path state = write("throw.json", "{\"q\": [0, 0, 0.2, 0, 0, 0, 1],"
                + " \"v\": [2, -5, 1, 2, 0.5, -1], \"tau\": [0, 0, 0, 0.3, 0, 0]}\n");
        Path out1 = dir.resolve("generic.json");
        Path out2 = dir.resolve("generated.json");
        Result generic = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.6", "--step", "0.002", "--backend", "generic", "-o", out1.toString());
        assertEquals(0, generic.exitCode(), generic.err());
        assertEquals("", generic.out(), "the trajectory goes to the file");
        Result generated = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(),
                "--duration", "0.6", "--step", "0.002", "--backend", "generated", "--output", out2.toString());
        assertEquals(0, generated.exitCode(), generated.err());
        ObjectValue a = (ObjectValue) JsonReader.read(out1);
        ObjectValue b = (ObjectValue) JsonReader.read(out2);
        assertEquals("", generic.err(), "every solve converged");
        assertEquals("", generated.err(), "every solve converged");
        int[] contactSteps = {0};
        compare("", a, b, contactSteps);
        assertTrue(contactSteps[0] > 100, "the scene has contacts: " + contactSteps[0]);
        java.util.Set<String> grounds = new java.util.TreeSet<>();
        for (JsonValue step : ((ArrayValue) a.get("contacts")).elements()) {
            for (JsonValue c : ((ArrayValue) step).elements()) {
                grounds.add(((StringValue) ((ObjectValue) c).get("ground")).value());
            }
        }
        assertEquals(java.util.Set.of("floor", "wall"), grounds, "the ball touches both grounds");
    }

    /** Same structure, same strings and booleans, numbers equal to 1e-9 (absolute, or relative when larger). */
    static void compare(String where, JsonValue a, JsonValue b, int[] contacts) {
        if (a instanceof NumberValue x && b instanceof NumberValue y) {
            if (where.endsWith("max_iterations") || where.endsWith("worst_violation")) {
                return; // iteration counts and residuals may differ by rounding
            }
            double scale = Math.max(1, Math.max(Math.abs(x.value()), Math.abs(y.value())));
            assertEquals(x.value(), y.value(), 1e-9 * scale, where);
        } else if (a instanceof ArrayValue x && b instanceof ArrayValue y) {
            assertEquals(x.size(), y.size(), where + " size");
            for (int i = 0; i < x.size(); i++) {
                compare(where + "[" + i + "]", x.get(i), y.get(i), contacts);
            }
            if (where.startsWith(".contacts[")) {
                contacts[0] += x.size() > 0 ? 1 : 0;
            }
        } else if (a instanceof ObjectValue x && b instanceof ObjectValue y) {
            assertEquals(x.members().keySet(), y.members().keySet(), where);
            for (String key : x.members().keySet()) {
                compare(where + "." + key, x.get(key), y.get(key), contacts);
            }
        } else {
            assertEquals(a, b, where);
        }
    }

    @Test
    void aMissingQIsTheNeutralConfigurationAndAModelWithoutContactsRuns() throws IOException, JsonException {
        Path model = write("dp.urdf", DOUBLE_PENDULUM);
        Path state = write("v.json", "{\"v\": [1, 0]}");
        Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.1", "--step", "0.01");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals(List.of(0.0, 0.0), boxed(numbers(((ArrayValue) json.get("q")).get(0))));
        assertEquals(List.of(1.0, 0.0), boxed(numbers(((ArrayValue) json.get("v")).get(0))));
        for (JsonValue c : ((ArrayValue) json.get("contacts")).elements()) {
            assertEquals(0, ((ArrayValue) c).size());
        }
        assertTrue(numbers(((ArrayValue) json.get("q")).get(10))[0] > 0.05, "it swings");
    }

    /**
     * A horizontal slider with damping d = 3 N s/m and mass 2 kg: time stepping applies the damping implicitly,
     * v after n steps of h is v₀ / (1 + h d / m)ⁿ; with --no-damping v stays v₀, on both systems.
     */
    @Test
    void jointDampingIsAppliedUnlessSwitchedOff() throws IOException, JsonException {
        Path model = write("slider.urdf", String.join("\n",
                "<robot name=\"slider\">",
                "  <link name=\"base\"/>",
                "  <joint name=\"rail\" type=\"prismatic\"><parent link=\"base\"/><child link=\"cart\"/>"
                        + "<axis xyz=\"1 0 0\"/><dynamics damping=\"3\"/></joint>",
                "  <link name=\"cart\"><inertial><mass value=\"2\"/>",
                "    <inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "</robot>", ""));
        Path state = write("v.json", "{\"v\": [1.5]}");
        String[] run = {"simulate", model.toString(), "--initial", state.toString(), "--duration", "0.1", "--step",
            "0.01"};
        Result damped = SymDynCliTest.run(run);
        assertEquals(0, damped.exitCode(), damped.err());
        assertEquals(1.5 / Math.pow(1 + 0.01 * 3 / 2, 10), last(damped, "v"), 1e-12);
        Result continuous = SymDynCliTest.run(java.util.stream.Stream.concat(java.util.Arrays.stream(run),
                java.util.stream.Stream.of("--system", "continuous")).toArray(String[]::new));
        assertEquals(0, continuous.exitCode(), continuous.err());
        assertEquals(1.5 * Math.exp(-0.1 * 3 / 2), last(continuous, "v"), 1e-9);
        for (String system : new String[] {"time-stepping", "continuous"}) {
            Result free = SymDynCliTest.run(java.util.stream.Stream.concat(java.util.Arrays.stream(run),
                    java.util.stream.Stream.of("--system", system, "--no-damping")).toArray(String[]::new));
            assertEquals(0, free.exitCode(), free.err());
            assertEquals(1.5, last(free, "v"), 1e-12, system);
        }
    }

    /** The first entry of the last record of {@code key} ("q" or "v"). */
    private static double last(Result r, String key) throws JsonException {
        ArrayValue records = (ArrayValue) ((ObjectValue) r.json()).get(key);
        return numbers(records.get(records.size() - 1))[0];
    }

    @Test
    void aFloatingQuaternionDefaultsToIdentity() throws IOException, JsonException {
        Path state = write("up.json", "{\"v\": [0, 0, 0, 0, 0, 0]}");
        Result r = SymDynCliTest.run("simulate", block().toString(), "--initial", state.toString(), "--duration",
                "0.01", "--step", "0.01");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0),
                boxed(numbers(((ArrayValue) ((ObjectValue) r.json()).get("q")).get(0))));
    }

    @Test
    void badStateFilesAreReportedWhereTheProblemIs() throws IOException {
        String model = block().toString();
        Path wrong = write("wrong.json", "{\n  \"q\": [0, 0, 0.05],\n  \"v\": [0, 0, 0, 1, 0, \"x\"],\n"
                + "  \"w\": 1\n}\n");
        Result r = SymDynCliTest.run("simulate", model, "--initial", wrong.toString(), "--duration", "1", "--step",
                "0.01");
        assertCleanFailure(r);
        assertEquals(List.of(
                wrong + ":[2,8] q has 3 numbers, expected nq = 7",
                wrong + ":[3,24] v[5] must be a number, not a string",
                wrong + ":[4,8] unknown key 'w' (expected q, v, tau)"), r.errLines());

        Path syntax = write("syntax.json", "{\"q\": [0, 0,\n ]}");
        r = SymDynCliTest.run("simulate", model, "--initial", syntax.toString(), "--duration", "1", "--step", "0.01");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(syntax + ":[2,"), r.err());

        Path zero = write("zero.json", "{\"q\": [0, 0, 0.05, 0, 0, 0, 0]}");
        r = SymDynCliTest.run("simulate", model, "--initial", zero.toString(), "--duration", "1", "--step", "0.01");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(zero + ":[1,20] the quaternion q[3..6] of joint 'free'"), r.err());

        Path array = write("array.json", "[1, 2]");
        r = SymDynCliTest.run("simulate", model, "--initial", array.toString(), "--duration", "1", "--step", "0.01");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(array + ":[1,1] an initial state is an object"), r.err());

        Path missing = dir.resolve("missing.json");
        r = SymDynCliTest.run("simulate", model, "--initial", missing.toString(), "--duration", "1", "--step",
                "0.01");
        assertCleanFailure(r);
        assertEquals(List.of(missing + ":[0,0] cannot read file: no such file"), r.errLines());
    }

    @Test
    void badOptionsAndModelsExitWithCodeTwo() throws IOException {
        String model = block().toString();
        String state = sliding(1).toString();
        String[][] cases = {
            {"--step", "0", "--duration", "1"},
            {"--step", "-0.01", "--duration", "1"},
            {"--step", "0.01", "--duration", "0"},
            {"--step", "0.01", "--duration", "-1"},
            {"--step", "0.01", "--duration", "1", "--every", "0"},
            {"--step", "0.01", "--duration", "1", "--every", "-3"},
            {"--step", "0.03", "--duration", "0.1"},
            {"--step", "0.01", "--duration", "Infinity"},
            {"--step", "NaN", "--duration", "1"},
            {"--step", "1e-12", "--duration", "1000"},
            {"--step", "1e-310", "--duration", "1"},
            {"--step", "abc", "--duration", "1"},
        };
        String[] expected = {
            "symdyn: --step must be a positive number of seconds, not 0",
            "symdyn: --step must be a positive number of seconds, not -0.01",
            "symdyn: --duration must be a positive number of seconds, not 0",
            "symdyn: --duration must be a positive number of seconds, not -1",
            "symdyn: --every must be a positive number of steps, not 0",
            "symdyn: --every must be a positive number of steps, not -3",
            "symdyn: --duration 0.1 is not a whole number of steps of 0.03 s (3.3333333333333335 steps)",
            "symdyn: --duration must be a positive number of seconds, not Infinity",
            "symdyn: --step must be a positive number of seconds, not NaN",
            "symdyn: --duration 1000 / --step 1.0E-12 is 1.0E15 steps, more than 100000000",
            "symdyn: --duration 1 / --step 1.0E-310 is too many steps, more than 100000000",
            "symdyn: ",
        };
        for (int i = 0; i < cases.length; i++) {
            List<String> args = new ArrayList<>(List.of("simulate", model, "--initial", state));
            args.addAll(List.of(cases[i]));
            Result r = SymDynCliTest.run(args.toArray(String[]::new));
            assertCleanFailure(r);
            assertTrue(r.errLines().get(0).startsWith(expected[i]), String.join(" ", cases[i]) + ": " + r.err());
            assertEquals("Try 'symdyn simulate --help' for more information.", r.errLines().get(1));
        }
        Result r = SymDynCliTest.run("simulate", model, "--initial", state, "--step", "0.01");
        assertCleanFailure(r);
        assertEquals("symdyn: simulate needs --duration SECONDS", r.errLines().get(0));
        r = SymDynCliTest.run("simulate", model, "--duration", "1", "--step", "0.01");
        assertCleanFailure(r);
        assertEquals("symdyn: simulate needs --initial STATE.json or --keyframe NAME", r.errLines().get(0));
        r = SymDynCliTest.run("simulate", model, "--initial", state, "--duration", "1", "--step", "0.01",
                "--backend", "fast");
        assertCleanFailure(r);
        assertEquals(List.of("unknown backend 'fast' (available: generic, generated)"), r.errLines());
        r = SymDynCliTest.run("simulate", model, "--initial", state, "--duration", "1", "--step", "0.01", "-o",
                dir.toString());
        assertCleanFailure(r);
        assertEquals(List.of(dir + ":[0,0] cannot write file: it is a directory"), r.errLines());

        Path bad = write("bad.urdf", "<robot name=\"bad\">\n  <link name=\"a\"/>\n  <joint name=\"j\" type=\"hinge\">"
                + "<parent link=\"a\"/><child link=\"b\"/></joint>\n  <link name=\"b\"/>\n</robot>\n");
        r = SymDynCliTest.run("simulate", bad.toString(), "--initial", state, "--duration", "1", "--step", "0.01");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(bad + ":[3,"), r.err());
    }

    @Test
    void anUnconvergedSolveIsReportedAndWarnedNotAnError() throws Exception {
        org.symdyn.model.Model model = ModelLoader.load(block(), false, false);
        SimulationRun run = new SimulationRun(model, new org.symdyn.constraints.GenericModel(model),
                new double[] {0, 0, 0.05, 0, 0, 0, 1}, new double[] {0, 0, 2, 1, 0, 0}, 0.001,
                new double[6],
                org.symdyn.contact.ContactSettings.defaults().maxIterations(1));
        StatesReader.State state = StatesReader.readInitial(sliding(1), model);
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        ObjectValue json;
        try (java.io.PrintStream e = new java.io.PrintStream(err, true, StandardCharsets.UTF_8)) {
            json = (ObjectValue) SimulateCommand.simulate(run, 10, 5, state, e,
                    new StepMeter(new Progress(e, true, false), 10, run.stepSize()));
        }
        ObjectValue solver = (ObjectValue) json.get("solver");
        assertEquals(false, ((BooleanValue) solver.get("converged")).value());
        long unconverged = (long) number(solver.get("unconverged"));
        assertTrue(unconverged >= 1, "unconverged: " + unconverged);
        assertEquals(1, number(solver.get("max_iterations")));
        assertTrue(number(solver.get("worst_violation")) > 0);
        String warning = err.toString(StandardCharsets.UTF_8);
        assertTrue(warning.matches("warning: " + unconverged + " of 10 contact solves did not converge \\(first at"
                + " step \\d+, t = [0-9.]+ s; their steps used the last iterate\\); worst contact-law violation \\S+"
                + " m/s; --solver, --tolerance, --max-iterations and --penetration-slop set the solve \\(a pile of"
                + " bodies: --solver pgs --tolerance 1e-6 --penetration-slop 1e-7\\)\\R"), warning);
        assertEquals(1, warning.lines().count(), warning);
    }

    @Test
    void aDivergingRunNamesTheStepAndTime() throws IOException {
        Path model = write("dp.urdf", DOUBLE_PENDULUM);
        Path state = write("huge.json", "{\"q\": [0.3, 0.5],\n \"tau\": [1e200, -1e200]}");
        Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "1", "--step", "0.01");
        assertCleanFailure(r);
        assertEquals(1, r.errLines().size(), r.err());
        String line = r.errLines().get(0);
        assertTrue(line.matches("\\Q" + state + "\\E:\\[1,1\\] step \\d+ \\(t = [0-9.]+ s\\): .*"), line);
        assertTrue(line.contains("not finite") || line.contains("cannot be evaluated")
                || line.contains("a speed passed"), line);
    }
}
