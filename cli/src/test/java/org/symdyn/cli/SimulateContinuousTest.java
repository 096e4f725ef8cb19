package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.cli.SimulateCommandTest.number;
import static org.symdyn.cli.SimulateCommandTest.numbers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.BooleanValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;

/**
 * {@code symdyn simulate --system continuous}: the continuous-time hybrid scheme through the command, in the time
 * stepper's output format. Between events the cases here have constant accelerations, which RK4 and DOPRI5
 * integrate to rounding, and impacts are located to 1e-12 s: hence bars of 1e-9 (and 1e-6 for the rebound, as the
 * runtime's own test) where time stepping needs step-sized ones.
 */
class SimulateContinuousTest extends FileWritingTest {
    private static final double G = 9.81;
    /** The block's corners, 0.05 m below its centre. */
    private static final double HALF = 0.05;


    /** {@link SimulateCommandTest#BLOCK} (1 kg, four corners, μ = 0.4) on a floor of restitution e. */
    private Path bouncyBlock(double e) throws IOException {
        String urdf = SimulateCommandTest.BLOCK.replace("friction=\"0.4\"/>", "friction=\"0.4\" restitution=\"" + e
                + "\"/>");
        assertTrue(urdf.contains("restitution"), "the floor got its restitution");
        return write("bouncy.urdf", urdf);
    }

    /** The block held flat with its corners {@code height} above the floor, at rest. */
    private Path held(double height) throws IOException {
        return write("held.json", "{\"q\": [0, 0, " + (HALF + height) + ", 0, 0, 0, 1]}\n");
    }

    private static Result simulate(Path model, Path state, String duration, String step, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("simulate", model.toString(), "--initial",
                state.toString(), "--duration", duration, "--step", step));
        args.addAll(List.of(more));
        return SymDynCliTest.run(args.toArray(String[]::new));
    }

    private static double sumNormal(ArrayValue stepContacts) {
        double sum = 0;
        for (JsonValue c : stepContacts.elements()) {
            sum += number(((ObjectValue) c).get("normal_impulse"));
        }
        return sum;
    }

    /**
     * The apex of the first flight after the first impact, from the records: z + v_z²/(2g) of the centre minus the
     * corners' offset, the same at every record of the free flight (checked); NaN if there was none.
     */
    private static double reboundApex(ObjectValue json) {
        ArrayValue q = (ArrayValue) json.get("q");
        ArrayValue v = (ArrayValue) json.get("v");
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        int impact = -1;
        for (int i = 1; i < contacts.size() && impact < 0; i++) {
            if (((ArrayValue) contacts.get(i)).size() > 0) {
                impact = i;
            }
        }
        assertTrue(impact > 0, "the block landed");
        double apex = Double.NaN;
        for (int i = impact + 1; i < q.size() && ((ArrayValue) contacts.get(i)).size() == 0; i++) {
            double z = numbers(q.get(i))[2];
            double vz = numbers(v.get(i))[5];
            double a = z + vz * vz / (2 * G) - HALF;
            if (!Double.isNaN(apex)) {
                assertEquals(apex, a, 1e-12, "the apex is constant in free flight, record " + i);
            }
            apex = a;
        }
        return apex;
    }

    /**
     * The time stepper's rebound: its highest corner height between the first step with a normal impulse and the
     * next (its contacts list pairs within its look-ahead, impulse or not, and its flight is not exactly ballistic).
     */
    private static double highestAfterTheFirstImpact(ObjectValue json) {
        ArrayValue q = (ArrayValue) json.get("q");
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        int i = 1;
        while (i < q.size() && !(sumNormal((ArrayValue) contacts.get(i)) > 0)) {
            i++;
        }
        while (i < q.size() && sumNormal((ArrayValue) contacts.get(i)) > 0) {
            i++;
        }
        double highest = Double.NaN;
        for (; i < q.size() && !(sumNormal((ArrayValue) contacts.get(i)) > 0); i++) {
            double z = numbers(q.get(i))[2] - HALF;
            highest = Double.isNaN(highest) ? z : Math.max(highest, z);
        }
        return highest;
    }

    /**
     * Dropped flat from 0.2 m on a floor of restitution 0.5, the block lands on its four corners at once at
     * √(2H/g) and rebounds to e² H = 0.05 m (time stepping: 0.2544 H at 1 ms); the impact step lists the four
     * corners with normal impulses summing to (1 + e) m √(2 g H).
     */
    @ParameterizedTest
    @ValueSource(strings = {"rk4", "dopri5"})
    void aBoxDroppedWithRestitutionReboundsToESquaredItsHeight(String integrator) throws IOException,
            JsonException {
        double e = 0.5;
        double height = 0.2;
        Path model = bouncyBlock(e);
        Path state = held(height);
        Result r = simulate(model, state, "0.35", "0.001", "--system", "continuous", "--integrator", integrator);
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals(List.of("model", "step", "every", "system", "integrator", "q_names", "v_names", "t", "q", "v",
                "contacts", "sensors", "sensor_channels", "solver"), List.copyOf(json.members().keySet()));
        assertEquals("continuous", ((StringValue) json.get("system")).value());
        assertEquals(integrator, ((StringValue) json.get("integrator")).value());
        double apex = reboundApex(json);
        double ratio = apex / height;
        System.out.printf("simulate --system continuous --integrator %s: rebound %.15f of the drop height, rel. error"
                + " %.2e%n", integrator, ratio, Math.abs(ratio / (e * e) - 1));
        assertEquals(e * e, ratio, 1e-6 * e * e, "rebound to e^2 H");

        ArrayValue contacts = (ArrayValue) json.get("contacts");
        int impact = 1;
        while (((ArrayValue) contacts.get(impact)).size() == 0) {
            impact++;
        }
        double impactTime = Math.sqrt(2 * height / G);
        assertEquals(Math.ceil(impactTime / 0.001), impact, "the impact falls in the step that ends after it");
        ArrayValue corners = (ArrayValue) contacts.get(impact);
        assertEquals(4, corners.size(), "four corners strike together");
        assertEquals((1 + e) * Math.sqrt(2 * G * height), sumNormal(corners), 1e-9, "Newton: (1 + e) m v");
        // four coplanar corners are statically indeterminate: the solve may leave self-balancing friction impulses
        // between them (1e-4 N s here), but no net friction in a straight drop
        double[] friction = new double[3];
        for (JsonValue c : corners.elements()) {
            double[] tangent = numbers(((ObjectValue) c).get("tangent_impulse"));
            for (int k = 0; k < 3; k++) {
                friction[k] += tangent[k];
            }
        }
        assertEquals(0, Math.hypot(friction[0], friction[1]), 1e-9, "no net friction in a straight drop");
        ObjectValue solver = (ObjectValue) json.get("solver");
        assertEquals(List.of("steps", "impacts", "converged", "unconverged", "max_iterations", "worst_violation",
                "cone_fallbacks", "cone_fallbacks_unconverged"),
                List.copyOf(solver.members().keySet()));
        assertEquals(350, number(solver.get("steps")));
        assertEquals(1, number(solver.get("impacts")), "one bounce so far (the next lands at 0.40 s)");
        assertEquals(true, ((BooleanValue) solver.get("converged")).value());

        // the time stepper on the same drop, for the record: first order in h
        Result stepped = simulate(model, state, "0.35", "0.001");
        assertEquals(0, stepped.exitCode(), stepped.err());
        double steppedRatio = highestAfterTheFirstImpact((ObjectValue) stepped.json()) / height;
        System.out.printf("simulate (time stepping, h = 1 ms): rebound %.6f of the drop height%n", steppedRatio);
        assertTrue(Math.abs(steppedRatio - e * e) > 100 * Math.abs(ratio - e * e), "continuous is the closer");
    }

    /**
     * Both backends give the same numbers, to 1e-9: {@link SimulateCommandTest#BALL} thrown spinning (bounces,
     * sliding, rolling, the wall; one contact per ground, so every impulse is unique) the whole JSON; the block
     * dropped on its four corners (impacts, bounces, coming to rest) its states, its solver numbers and per step
     * its summed impulses. Not the block's impulse per corner: four coplanar corners share a load in a way the
     * model leaves open, and each backend's rounding may pick another split of the same total (1e-4 N s apart).
     */
    @Test
    void bothBackendsGiveTheSameNumbers() throws IOException, JsonException {
        Path ball = write("ball.urdf", SimulateCommandTest.BALL);
        Path thrown = write("throw.json", "{\"q\": [0, 0, 0.2, 0, 0, 0, 1],"
                + " \"v\": [2, -5, 1, 2, 0.5, -1], \"tau\": [0, 0, 0, 0.3, 0, 0]}\n");
        Path block = bouncyBlock(0.5);
        Path drop = held(0.1);
        for (String integrator : List.of("rk4", "dopri5")) {
            ObjectValue[] balls = bothBackends(ball, thrown, integrator);
            int[] contactSteps = {0};
            SimulateCommandTest.compare("", balls[0], balls[1], contactSteps); // "": it counts ".contacts[" steps
            assertTrue(contactSteps[0] > 100, "the ball has contacts: " + contactSteps[0]);
            assertTrue(number(((ObjectValue) balls[0].get("solver")).get("impacts")) >= 1);

            ObjectValue[] blocks = bothBackends(block, drop, integrator);
            for (String key : List.of("t", "q", "v", "solver")) {
                SimulateCommandTest.compare("block " + integrator + "." + key, blocks[0].get(key), blocks[1].get(key),
                        new int[1]);
            }
            ArrayValue a = (ArrayValue) blocks[0].get("contacts");
            ArrayValue b = (ArrayValue) blocks[1].get("contacts");
            assertEquals(a.size(), b.size());
            int withContacts = 0;
            for (int i = 0; i < a.size(); i++) {
                ArrayValue x = (ArrayValue) a.get(i);
                ArrayValue y = (ArrayValue) b.get(i);
                assertEquals(x.size(), y.size(), "block " + integrator + ": contacts at record " + i);
                assertEquals(sumNormal(x), sumNormal(y), 1e-9, "block " + integrator + ": impulse at record " + i);
                withContacts += x.size() > 0 ? 1 : 0;
            }
            assertTrue(withContacts > 50, "the block lands, bounces and rests: " + withContacts);
            assertTrue(number(((ObjectValue) blocks[0].get("solver")).get("impacts")) >= 2);
        }
    }

    private ObjectValue[] bothBackends(Path model, Path state, String integrator) throws JsonException {
        ObjectValue[] runs = new ObjectValue[2];
        String[] backends = {"generic", "generated"};
        for (int b = 0; b < 2; b++) {
            Result r = simulate(model, state, "0.6", "0.002", "--system", "continuous", "--integrator", integrator,
                    "--backend", backends[b]);
            assertEquals(0, r.exitCode(), r.err());
            runs[b] = (ObjectValue) r.json();
        }
        return runs;
    }

    /**
     * At rest on its four corners the block stays, every step lists the four corners (closed, whether or not the
     * solution loads each), their normal impulses sum to m g h, friction and slip are zero.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rk4", "dopri5"})
    void aBoxAtRestCarriesItsWeightEveryStep(String integrator) throws IOException, JsonException {
        double h = 0.002;
        Result r = simulate(bouncyBlock(0.5), held(0), "0.2", String.valueOf(h), "--system", "continuous",
                "--integrator", integrator);
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        ArrayValue q = (ArrayValue) json.get("q");
        assertEquals(101, contacts.size());
        double worst = 0;
        for (int i = 1; i < contacts.size(); i++) {
            ArrayValue step = (ArrayValue) contacts.get(i);
            assertEquals(4, step.size(), "four corners at step " + i);
            double sum = sumNormal(step);
            worst = Math.max(worst, Math.abs(sum / (G * h) - 1));
            assertEquals(G * h, sum, 1e-9 * G * h, "m g h, step " + i);
            for (JsonValue c : step.elements()) {
                ObjectValue contact = (ObjectValue) c;
                assertEquals(0, number(contact.get("gap")), 1e-12);
                assertEquals(0, numbers(contact.get("position"))[2], 1e-12);
                for (String key : List.of("tangent_impulse", "slip_velocity")) {
                    for (double x : numbers(contact.get(key))) {
                        assertEquals(0, x, 1e-12, key + " at step " + i);
                    }
                }
            }
            assertEquals(HALF, numbers(q.get(i))[2], 1e-12, "stays");
        }
        System.out.printf("at rest (%s): worst |sum normal impulse / (m g h) - 1| = %.2e%n", integrator, worst);
        ObjectValue solver = (ObjectValue) json.get("solver");
        assertEquals(0, number(solver.get("impacts")));
        assertEquals(100, number(solver.get("steps")));
    }

    /**
     * The continuous system knows the initial accelerations: its t = 0 readings are taken at them, and continue into
     * the next record's (an IMU on a swinging pendulum read gravity alone at t = 0, 5 m/s² off, a helper's probe).
     */
    @Test
    void theContinuousSystemsFirstReadingsAreAtTheInitialAccelerations() throws Exception {
        Path model = write("pendulum.urdf", """
                <robot name="pend" xmlns:symdyn="urn:symdyn:1">
                  <link name="world"/>
                  <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
                    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.001"/></inertial></link>
                  <joint name="hinge" type="continuous"><parent link="world"/><child link="rod"/><axis xyz="0 1 0"/></joint>
                  <symdyn:imu name="imu" link="rod" xyz="0.1 0 -0.8" rpy="0.3 0 0"/>
                </robot>
                """);
        Path state = write("swing.json", "{\"q\": [1], \"v\": [0.5]}\n");
        Result r = simulate(model, state, "0.00002", "0.00001", "--system", "continuous");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        ArrayValue imu = (ArrayValue) ((ObjectValue) json.get("sensors")).get("imu");
        double[] first = numbers(imu.get(0));
        double[] next = numbers(imu.get(1));
        for (int i = 0; i < 6; i++) {
            assertEquals(next[i], first[i], 1e-3, "channel " + i + ": " + java.util.Arrays.toString(first) + " then "
                    + java.util.Arrays.toString(next));
        }
    }

    /**
     * Damping that RK4 cannot follow at the given step is warned about at the joint, with the step it needs (a spinning
     * rod of axial inertia 1e-4 kg m² and damping 1 N m s: it decays at 1e4/s, so RK4 needs h below 2.78e-4 s); a step
     * below that, the adaptive integrator and --no-damping are not warned about. (Cassie's ball joint diverged this way
     * at h = 2 ms and the run blamed its loop rows.)
     */
    @Test
    void dampingTooStiffForRk4IsWarnedAbout() throws Exception {
        Path model = write("damped.urdf", """
                <robot name="damped">
                  <link name="world"/>
                  <link name="rod"><inertial><mass value="1"/>
                    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.0001"/></inertial></link>
                  <joint name="spin" type="continuous"><parent link="world"/><child link="rod"/><axis xyz="0 0 1"/>
                    <dynamics damping="1"/></joint>
                </robot>
                """);
        Path state = write("spinning.json", "{\"q\": [0], \"v\": [1]}\n");
        Result r = simulate(model, state, "0.01", "0.001", "--system", "continuous");
        assertTrue(r.err().contains("damped.urdf:[5,3] warning: the damping of spin makes it decay at 10000/s or faster,"
                + " which --integrator rk4 follows only with --step below 0.000278 s"), r.err());
        for (String[] quiet : new String[][] {{"--step", "0.0002"}, {"--integrator", "dopri5"}, {"--no-damping"}}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("0.01", "0.001", "--system",
                    "continuous"));
            if (quiet[0].equals("--step")) {
                args.set(1, quiet[1]);
            } else {
                args.addAll(java.util.Arrays.asList(quiet));
            }
            Result ok = simulate(model, state, args.get(0), args.get(1),
                    args.subList(2, args.size()).toArray(new String[0]));
            assertEquals(0, ok.exitCode(), ok.err());
            assertTrue(!ok.err().contains("decay at"), String.join(" ", quiet) + ": " + ok.err());
        }
        // a loop stiffens the damped dof: the four-bar's light, damped rocker runs well at h = 5 ms, and the estimate
        // through the constrained mobility says nothing (H⁻¹ alone warned)
        String fourBar = java.nio.file.Files.readString(Path.of(System.getProperty("user.dir")).resolveSibling("samples")
                .resolve("src/main/symdyn/fourbar.urdf"));
        Path damped = write("fourbar_damped.urdf", fourBar.replace("<mass value=\"1.5\"/>", "<mass value=\"0.01\"/>")
                .replace("iyy=\"0.28125\" iyz=\"0\" izz=\"0.28125\"", "iyy=\"0.001875\" iyz=\"0\" izz=\"0.001875\"")
                .replace("<child link=\"rocker\"/>", "<child link=\"rocker\"/><dynamics damping=\"10\"/>"));
        double[] q = SimulateCommandTest.fourBarClosed(1);
        Path closed = write("closed.json", "{\"q\": [" + q[0] + ", " + q[1] + ", " + q[2] + "]}\n");
        Result loop = simulate(damped, closed, "0.05", "0.005", "--system", "continuous");
        assertEquals(0, loop.exitCode(), loop.err());
        assertTrue(!loop.err().contains("decay at"), loop.err());
    }

    @Test
    void badSystemAndIntegratorValuesExitWithCodeTwo() throws IOException {
        Path model = bouncyBlock(0.5);
        Path state = held(0.1);
        Result r = simulate(model, state, "0.01", "0.001", "--system", "implicit");
        assertClean(r);
        assertEquals(List.of("unknown system 'implicit' (available: time-stepping, continuous)"), r.errLines());
        r = simulate(model, state, "0.01", "0.001", "--system", "continuous", "--integrator", "euler");
        assertClean(r);
        assertEquals(List.of("unknown integrator 'euler' (available: rk4, dopri5)"), r.errLines());
        for (String[] more : new String[][] {{"--integrator", "rk4"},
            {"--system", "time-stepping", "--integrator", "dopri5"}}) {
            r = simulate(model, state, "0.01", "0.001", more);
            assertClean(r);
            assertEquals(List.of("symdyn: --integrator " + more[more.length - 1] + " needs --system continuous (time"
                    + " stepping has no integrator)", "Try 'symdyn simulate --help' for more information."),
                    r.errLines());
        }
        // the continuous system keeps contacts closed exactly: a penetration slop would be silently unused
        r = simulate(model, state, "0.01", "0.001", "--system", "continuous", "--penetration-slop", "0.01");
        assertClean(r);
        assertEquals(List.of("symdyn: --penetration-slop needs --system time-stepping (the continuous system"
                + " recovers no penetration)", "Try 'symdyn simulate --help' for more information."), r.errLines());
    }

    /**
     * Painlevé's rod (μ = 4, 30° up, sliding away from its end on the floor): the continuous system has no
     * consistent contact force at the initial state; simulate stops with exit code 2 naming the step, the time and
     * the contact, and points to time stepping, which runs it.
     */
    @Test
    void aPainleveCaseStopsTheRunWithALocatedMessage() throws IOException {
        double l = 0.5;
        double inertia = l * l / 3;
        Path model = write("rod.urdf", String.join("\n",
                "<?xml version=\"1.0\"?>",
                "<robot name=\"rod\" xmlns:symdyn=\"urn:symdyn:1\">",
                "  <link name=\"world\"/>",
                "  <link name=\"rod\"><inertial><mass value=\"1\"/>",
                "    <inertia ixx=\"" + 1e-4 * l * l + "\" iyy=\"" + inertia + "\" izz=\"" + inertia
                        + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "  <joint name=\"base\" type=\"floating\"><parent link=\"world\"/><child link=\"rod\"/></joint>",
                "  <symdyn:ground name=\"floor\" point=\"0 0 0\" normal=\"0 0 1\" friction=\"4\"/>",
                "  <symdyn:contact_point name=\"end\" link=\"rod\" point=\"" + -l + " 0 0\"/>",
                "</robot>", ""));
        double theta = Math.toRadians(30);
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        // the end on the floor, the rod turned by −θ about y; the whole rod slides along −x (body frame: Rᵀ(−1, 0, 0))
        Path state = write("slide.json", "{\"q\": [" + l * c + ", 0, " + l * s + ", 0, " + Math.sin(-theta / 2)
                + ", 0, " + Math.cos(-theta / 2) + "],\n \"v\": [0, 0, 0, " + -c + ", 0, " + s + "]}\n");
        Result r = simulate(model, state, "0.01", "0.001", "--system", "continuous");
        assertClean(r);
        assertEquals(1, r.errLines().size(), r.err());
        String line = r.errLines().get(0);
        System.out.println("Painleve through simulate: " + line);
        assertTrue(line.startsWith(state + ":[1,1] step 0 (t = 0 s): at t = 0 s the acceleration-level contact"
                + " problem has no unique solution"), line);
        assertTrue(line.contains("end@floor"), line);
        assertTrue(line.endsWith("--system time-stepping resolves it by impulses"), line);
        Result stepped = simulate(model, state, "0.01", "0.001");
        assertEquals(0, stepped.exitCode(), stepped.err());
    }

    /** A limited revolute joint: continuous does not enforce the limit and says so on standard error. */
    @Test
    void unenforcedJointLimitsAreWarnedAbout() throws IOException, JsonException {
        Path model = write("limited.urdf", SimulateCommandTest.DOUBLE_PENDULUM
                .replace("name=\"j1\" type=\"continuous\"", "name=\"j1\" type=\"revolute\"")
                .replace("<axis xyz=\"0 1 0\"/></joint>\n  <link name=\"l1\">",
                        "<axis xyz=\"0 1 0\"/><limit lower=\"-0.5\" upper=\"0.5\" effort=\"1\" velocity=\"1\"/>"
                                + "</joint>\n  <link name=\"l1\">"));
        assertTrue(Files.readString(model).contains("<limit"), "the limit is in the model");
        Path state = write("swing.json", "{\"v\": [1, 0]}\n");
        Result r = simulate(model, state, "0.1", "0.01", "--system", "continuous", "--integrator", "dopri5");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("warning: --system continuous does not enforce joint limits: j1 may pass theirs"
                + " (--system time-stepping enforces them)"), r.errLines());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals(11, ((ArrayValue) json.get("t")).size(), "a model without grounds advances h per step");
        Result stepped = simulate(model, state, "0.1", "0.01");
        assertEquals(0, stepped.exitCode(), stepped.err());
        assertEquals("", stepped.err());
    }

    private static void assertClean(Result r) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    /**
     * A 1 kg box (0.2 x 0.2 x 0.1 m, the samples' ramp_box) slides down a 20° ramp (μ 0.2) onto a floor (μ 0.6),
     * lands tilted and slides to a stop on its four corners. The landing used to sink the corners (closed pairs
     * dropped at Runge-Kutta stages) and the stop to end in Lemke's secondary ray (the four-corner problem is
     * degenerate); now the run completes: no corner deeper than 1e-9 m, every solve converged, and after the stop the
     * box rests with its normal impulses summing to m g h, where the time stepper also stops it (within 5 mm: its
     * error is first order in h).
     */
    @Test
    void aBoxLeavingARampStopsAndRestsOnItsFourCorners() throws IOException, JsonException {
        Path model = write("ramp_box.urdf", """
                <?xml version="1.0"?>
                <robot name="ramp_box" xmlns:symdyn="urn:symdyn:1">
                  <link name="world"/>
                  <link name="box">
                    <inertial><origin xyz="0 0 0"/><mass value="1"/>
                      <inertia ixx="0.004166666666666667" ixy="0" ixz="0" iyy="0.004166666666666667" iyz="0"
                               izz="0.006666666666666667"/></inertial>
                  </link>
                  <joint name="box_free" type="floating"><parent link="world"/><child link="box"/></joint>
                  <symdyn:ground name="ramp" point="0 0 0" normal="0.3420201433256687 0 0.9396926207859084" friction="0.2"/>
                  <symdyn:ground name="floor" point="0 0 0" normal="0 0 1" friction="0.6"/>
                  <symdyn:contact_point name="corner_fl" link="box" point="0.1 0.1 -0.05"/>
                  <symdyn:contact_point name="corner_fr" link="box" point="0.1 -0.1 -0.05"/>
                  <symdyn:contact_point name="corner_hl" link="box" point="-0.1 0.1 -0.05"/>
                  <symdyn:contact_point name="corner_hr" link="box" point="-0.1 -0.1 -0.05"/>
                </robot>
                """);
        // At rest on the ramp at x = -1.2 (bottom face on the ramp plane, pitched 20° about y).
        double theta = Math.atan2(0.3420201433256687, 0.9396926207859084);
        double x = -1.2;
        double[] n = {Math.sin(theta), 0, Math.cos(theta)};
        double z = -x * Math.tan(theta);
        Path state = write("ramp.json", "{\"q\": [" + (x + 0.05 * n[0]) + ", 0, " + (z + 0.05 * n[2]) + ", 0, "
                + Math.sin(theta / 2) + ", 0, " + Math.cos(theta / 2) + "]}\n");
        double h = 1e-3;
        Result continuous = simulate(model, state, "2.5", "0.001", "--system", "continuous");
        assertEquals(0, continuous.exitCode(), continuous.err());
        Result stepped = simulate(model, state, "2.5", "0.001");
        assertEquals(0, stepped.exitCode(), stepped.err());
        ObjectValue json = (ObjectValue) continuous.json();
        ObjectValue solver = (ObjectValue) json.get("solver");
        assertEquals(0.0, number(solver.get("unconverged")), "every impulse solve converged: " + solver);
        assertTrue(number(solver.get("cone_fallbacks")) > 0, "Lemke failed at the stop and the cone solver took over: "
                + solver);
        assertEquals(0.0, number(solver.get("cone_fallbacks_unconverged")), "every cone solve converged: " + solver);
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        ArrayValue qs = (ArrayValue) json.get("q");
        ArrayValue vs = (ArrayValue) json.get("v");
        for (int i = 0; i < contacts.size(); i++) {
            for (JsonValue c : ((ArrayValue) contacts.get(i)).elements()) {
                double gap = number(((ObjectValue) c).get("gap"));
                assertTrue(gap >= -1e-9, "record " + i + ": a corner " + gap + " m deep");
            }
        }
        int last = qs.size() - 1;
        for (int i = last - 500; i <= last; i++) { // the last 0.5 s
            double[] v = numbers(vs.get(i));
            double speed = 0;
            for (double vi : v) {
                speed = Math.max(speed, Math.abs(vi));
            }
            assertTrue(speed <= 1e-9, "record " + i + " still moves: " + speed);
            assertEquals(G * h, sumNormal((ArrayValue) contacts.get(i)), 1e-9 * G * h, "record " + i + ": m g h");
        }
        double xContinuous = numbers(qs.get(last))[0];
        ArrayValue steppedQ = (ArrayValue) ((ObjectValue) stepped.json()).get("q");
        double xStepped = numbers(steppedQ.get(steppedQ.size() - 1))[0];
        assertTrue(xContinuous > 0.1, "the box came off the ramp onto the floor: x = " + xContinuous);
        assertEquals(xStepped, xContinuous, 5e-3, "where both systems stop the box");
    }
}
