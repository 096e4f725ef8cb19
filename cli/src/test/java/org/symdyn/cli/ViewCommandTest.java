package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/** {@code symdyn view}: the page's data against the model's kinematics, its self-containment, and every error. */
class ViewCommandTest extends FileWritingTest {
    /** A chain with a fixed tool link (a frame that is not a body) and a contact sphere on a floor. */
    static final String ARM = String.join("\n",
            "<?xml version=\"1.0\"?>",
            "<robot name=\"arm\" xmlns:symdyn=\"urn:symdyn:1\">",
            "  <link name=\"base\"/>",
            "  <joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child link=\"upper\"/>",
            "    <origin xyz=\"0 0 1\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/>",
            "  </joint>",
            "  <link name=\"upper\"><inertial><origin xyz=\"0.25 0 0\"/><mass value=\"1\"/>",
            "    <inertia ixx=\"0.001\" iyy=\"0.02\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
            "  <joint name=\"elbow\" type=\"revolute\"><parent link=\"upper\"/><child link=\"lower\"/>",
            "    <origin xyz=\"0.5 0 0\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/>",
            "  </joint>",
            "  <link name=\"lower\"><inertial><origin xyz=\"0.25 0 0\"/><mass value=\"1\"/>",
            "    <inertia ixx=\"0.001\" iyy=\"0.02\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
            "  <joint name=\"wrist\" type=\"fixed\"><parent link=\"lower\"/><child link=\"tool\"/>",
            "    <origin xyz=\"0.5 0 0\"/></joint>",
            "  <link name=\"tool\"/>",
            "  <symdyn:ground name=\"floor\" point=\"0 0 0\" normal=\"0 0 1\" friction=\"0.5\"/>",
            "  <symdyn:contact_sphere name=\"fingertip\" link=\"tool\" center=\"0 0 0\" radius=\"0.05\"/>",
            "</robot>", "");


    /** Simulates the arm falling onto the floor and writes its page; returns the page. */
    static Path armPage(Path dir) throws IOException {
        Path model = dir.resolve("arm.urdf");
        Files.writeString(model, ARM, StandardCharsets.UTF_8);
        Path state = dir.resolve("arm.json");
        Files.writeString(state, "{\"q\": [0.3, 0.4]}", StandardCharsets.UTF_8);
        Path trajectory = dir.resolve("traj.json");
        Result sim = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "1", "--step", "0.005", "--every", "4", "-o", trajectory.toString());
        assertEquals(0, sim.exitCode(), sim.err());
        Path page = dir.resolve("motion.html");
        Result view = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", page.toString());
        assertEquals(0, view.exitCode(), view.err());
        // one line: what was written
        assertEquals(List.of(page + ": " + Files.size(page) + " bytes, 51 recorded states, 4 frames, 0 visual shapes,"
                + " 0 collision shapes (0 mesh triangles), 0 of 0 Lidars with readings"),
                List.of(view.out().split("\n")));
        assertEquals("", view.err());
        return page;
    }

    /** The data object embedded in a page. */
    static ObjectValue data(String page) throws JsonException {
        String start = "var SYMDYN = ";
        int from = page.indexOf(start) + start.length();
        int to = page.indexOf(";\n</script>", from);
        return (ObjectValue) JsonReader.parse("<page data>", page.substring(from, to));
    }

    @Test
    void thePageHoldsTheFramePosesOfTheModelAtEveryRecordedState() throws Exception {
        Path page = armPage(dir);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        ObjectValue trajectory = (ObjectValue) JsonReader.read(dir.resolve("traj.json"));
        ObjectValue data = data(html);
        Model model = ModelLoader.load(dir.resolve("arm.urdf"), false, false);
        GenericDynamics kinematics = new GenericDynamics(model);

        ArrayValue frames = (ArrayValue) data.get("frames");
        assertEquals(List.of("base", "upper", "lower", "tool"), frames.elements().stream()
                .map(f -> ((StringValue) ((ObjectValue) f).get("name")).value()).toList());
        assertEquals(List.of(-1.0, 0.0, 1.0, 2.0), frames.elements().stream()
                .map(f -> ((NumberValue) ((ObjectValue) f).get("parent")).value()).toList());
        assertEquals(List.of(false, true, true, true), frames.elements().stream()
                .map(f -> ((BooleanValue) ((ObjectValue) f).get("moving")).value()).toList());

        ArrayValue t = (ArrayValue) data.get("t");
        ArrayValue q = (ArrayValue) trajectory.get("q");
        assertEquals(51, t.size(), "200 steps, every 4th and t = 0");
        assertEquals(t.size(), ((ArrayValue) data.get("pos")).size());
        assertEquals(t.size(), ((ArrayValue) data.get("rot")).size());
        assertEquals(t.size(), ((ArrayValue) data.get("contacts")).size());
        double[] rotation = new double[9];
        double[] position = new double[3];
        for (int i = 0; i < t.size(); i++) {
            double[] qi = SimulateCommandTest.numbers(q.get(i));
            double[] pos = SimulateCommandTest.numbers(((ArrayValue) data.get("pos")).get(i));
            double[] rot = SimulateCommandTest.numbers(((ArrayValue) data.get("rot")).get(i));
            for (int f = 0; f < 4; f++) {
                kinematics.framePose(qi, f, rotation, position);
                for (int k = 0; k < 3; k++) {
                    assertEquals(position[k], pos[3 * f + k], 1e-6, "state " + i + " frame " + f);
                }
                for (int k = 0; k < 9; k++) {
                    assertEquals(rotation[k], rot[9 * f + k], 1e-6, "state " + i + " frame " + f);
                }
            }
        }
        // the arm falls onto the floor: its fingertip touches, and the page shows it
        int touching = 0;
        for (JsonValue step : ((ArrayValue) data.get("contacts")).elements()) {
            for (JsonValue c : ((ArrayValue) step).elements()) {
                double[] contact = SimulateCommandTest.numbers(c);
                assertEquals(5, contact.length);
                assertTrue(contact[2] > -0.005 && contact[2] < 0.02, "on or just above the floor: " + contact[2]);
                assertEquals(0, contact[4], "ground 0");
                touching++;
            }
        }
        assertTrue(touching > 5, "contacts shown: " + touching);
        List<String> signals = ((ArrayValue) data.get("signals")).elements().stream()
                .map(s -> ((StringValue) ((ObjectValue) s).get("name")).value()).toList();
        assertEquals(List.of("q shoulder", "q elbow", "v shoulder", "v elbow", "contact normal impulses, summed (N s)"),
                signals);
        assertEquals(0, (int) ((NumberValue) data.get("signal")).value(), "a fixed base: its first joint first");
        assertEquals(1, ((ArrayValue) data.get("grounds")).size());

        // self-contained: no external resource of any kind
        String lower = html.toLowerCase(java.util.Locale.ROOT);
        for (String external : List.of("src=", "href=", "http:", "https:", "@import", "url(", "fetch(",
                "xmlhttprequest", "import ")) {
            assertFalse(lower.contains(external), "the page refers to something outside: " + external);
        }
        assertTrue(html.contains("<title>SymDyn: arm</title>"));
        assertTrue(html.contains("document.body.dataset.drawn = \"1\""));
        assertTrue(html.contains("window.onerror"));
    }

    /**
     * A floating robot's plot shows its base height first, not its base x (a constant, drawn as motion at the scale
     * of its rounding).
     */
    @Test
    void aFloatingRobotsPlotShowsItsBaseHeightFirst() throws Exception {
        String html = simulateAndView("block", SimulateCommandTest.BLOCK, "{\"q\": [0, 0, 0.2, 0, 0, 0, 1]}", "0.3");
        ObjectValue data = data(html);
        int shown = (int) ((NumberValue) data.get("signal")).value();
        ObjectValue signal = (ObjectValue) ((ArrayValue) data.get("signals")).get(shown);
        assertEquals("q box:z", ((StringValue) signal.get("name")).value());
        double[] z = SimulateCommandTest.numbers(signal.get("values"));
        assertEquals(0.2, z[0], 1e-6);
        assertTrue(z[z.length - 1] < 0.06, "it fell: " + z[z.length - 1]);
        assertTrue(html.contains("signalSelect.value = String(signal)"), "the page selects it");
    }

    /**
     * Simulates the model {@code urdf} ({@code name}.urdf) from {@code state} for {@code duration} s at h = 0.01 s
     * into {@code name}.json, views it into {@code name}.html, and returns the page.
     */
    private String simulateAndView(String name, String urdf, String state, String duration) throws Exception {
        Path model = write(name + ".urdf", urdf);
        Path initial = write(name + "-initial.json", state);
        Path trajectory = dir.resolve(name + ".json");
        Result sim = SymDynCliTest.run("simulate", model.toString(), "--initial", initial.toString(), "--duration",
                duration, "--step", "0.01", "-o", trajectory.toString());
        assertEquals(0, sim.exitCode(), sim.err());
        Path page = dir.resolve(name + ".html");
        Result view = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", page.toString());
        assertEquals(0, view.exitCode(), view.err());
        return Files.readString(page, StandardCharsets.UTF_8);
    }

    @Test
    void namesCannotBreakOutOfTheScript() {
        assertEquals("\"a\\u003c/script\\u003e\\\"\\\\\\u00e9\"", MotionPage.jsString("a</script>\"\\é"));
        assertEquals("0", MotionPage.number(0));
        assertEquals("1", MotionPage.number(1));
        assertEquals("0.1", MotionPage.number(0.1));
        assertEquals("-2.5E-7", MotionPage.number(-2.5e-7));
        assertEquals("1E10", MotionPage.number(1e10));
    }

    /** Sensor readings of simulate become plot signals named by their channels, with the recorded values. */
    @Test
    void sensorChannelsArePlotSignals() throws Exception {
        ObjectValue data = data(simulateAndView("rotor", SimulateCommandTest.SERVO_ROTOR, "{\"q\": [0]}", "1"));
        ObjectValue recorded = (ObjectValue) JsonReader.read(dir.resolve("rotor.json"));
        java.util.Map<String, double[]> signals = new java.util.LinkedHashMap<>();
        for (JsonValue s : ((ArrayValue) data.get("signals")).elements()) {
            signals.put(((StringValue) ((ObjectValue) s).get("name")).value(),
                    SimulateCommandTest.numbers(((ObjectValue) s).get("values")));
        }
        List<String> imuChannels = List.of("wx", "wy", "wz", "fx", "fy", "fz");
        ArrayValue imu = (ArrayValue) ((ObjectValue) recorded.get("sensors")).get("disc_imu");
        for (int j = 0; j < 6; j++) {
            double[] values = signals.get("sensor disc_imu." + imuChannels.get(j));
            assertTrue(values != null, "signal for disc_imu." + imuChannels.get(j) + " in " + signals.keySet());
            for (int i = 0; i < imu.size(); i++) {
                assertEquals(SimulateCommandTest.numbers(imu.get(i))[j], values[i], 1e-6 * (1 + Math.abs(values[i])));
            }
        }
        assertTrue(signals.containsKey("sensor spin_encoder.q") && signals.containsKey("sensor spin_encoder.v"),
                signals.keySet().toString());
    }

    @Test
    void badTrajectoriesAreReportedWhereTheProblemIs() throws IOException {
        Path model = write("arm.urdf", ARM);
        Path out = dir.resolve("m.html");
        Object[][] cases = {
            {"[1]", ":[1,1] a trajectory is an object"},
            {"{\"q\": [[0, 0]]}", ":[1,1] missing \"t\""},
            {"{\"t\": [0, 1],\n \"q\": [[0, 0], [0, 0, 0]]}", ":[2,16] q[1] has 3 numbers, expected nq = 2 of model arm"
                    + " (was it simulated with --floating?)"},
            {"{\"t\": [0, 1], \"q\": [[0, 0]]}", ":[1,20] q has 1 entry, expected one per recorded time (2, as t)"},
            {"{\"t\": [0, 1, 0.5], \"q\": [[0, 0], [0, 0], [0, 0]]}", ":[1,14] t[2] = 0.5 is before t[1] = 1"},
            {"{\"t\": [0], \"q\": [[0, \"a\"]]}", ":[1,22] q[0][1] must be a number, not a string"},
            {"{\"t\": [0], \"q\": [[0, 0]], \"contacts\": [[{\"position\": [1, 2]}]]}", ":[1,41] contacts[0][0]:"
                    + " missing \"normal_impulse\""},
            {"{\"t\": [], \"q\": []}", ":[1,7] t is empty"},
            // another model's trajectory with as many coordinates animated this one with its numbers
            {"{\"t\": [0], \"q\": [[0, 0]], \"q_names\": [\"rail\", \"x\"]}", ":[1,38] the trajectory's coordinates"
                    + " [rail, x] are not model arm's [shoulder, elbow]: view it with the model it was simulated with"},
            {"{\"t\": [0, 1], \"q\": [[0, 0], [0, 0]], \"sensors\": {\"imu\": [[1, 2]]}}",
                ":[1,57] sensors.imu has 1 reading, expected one per recorded time (2, as t)"},
            {"{\"t\": [0, 1], \"q\": [[0, 0], [0, 0]], \"sensors\": {\"imu\": [[1, 2], [3]]}}",
                ":[1,66] sensors.imu[1] has 1 number, expected 2 numbers, as sensors.imu[0]"},
        };
        for (Object[] c : cases) {
            Path trajectory = write("bad.json", (String) c[0]);
            Result r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", out.toString());
            assertEquals(2, r.exitCode(), c[0] + ": " + r.err());
            assertEquals("", r.out());
            assertTrue(r.errLines().get(0).startsWith(trajectory + (String) c[1]), c[0] + ": " + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(Files.exists(out), "nothing written for a bad trajectory");
        }
        Path missing = dir.resolve("none.json");
        Result r = SymDynCliTest.run("view", missing.toString(), model.toString(), "-o", out.toString());
        assertEquals(2, r.exitCode());
        assertEquals(List.of(missing + ":[0,0] cannot read file: no such file"), r.errLines());
    }

    /** A zero quaternion is refused as evaluate and simulate refuse it, not drawn as no rotation. */
    @Test
    void aZeroQuaternionIsReportedLikeTheOtherCommandsReportIt() throws IOException {
        Path model = write("block.urdf", SimulateCommandTest.BLOCK);
        Path out = dir.resolve("b.html");
        Path trajectory = write("zero.json",
                "{\"t\": [0, 1, 2],\n \"q\": [[0, 0, 0, 0, 0, 0, 1],\n [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]]}");
        Result r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", out.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.errLines().get(0).startsWith(trajectory + ":[3,12] the quaternion q[1][3..6] of joint 'free'"),
                r.err());
        assertTrue(r.err().contains("must be a unit quaternion (x, y, z, w); it is zero"), r.err());
        assertEquals(1, r.errLines().size(), "the first row only: " + r.err());
        assertFalse(Files.exists(out), "nothing written");
        Files.writeString(trajectory, "{\"t\": [0, 1], \"q\": [[0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 2]]}");
        r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", out.toString());
        assertEquals(0, r.exitCode(), "any other quaternion is normalised: " + r.err());
    }

    @Test
    void badUsageExitsWithCodeTwo() throws IOException {
        Path model = write("arm.urdf", ARM);
        Path trajectory = write("t.json", "{\"t\": [0], \"q\": [[0, 0]]}");
        Result r = SymDynCliTest.run("view", trajectory.toString(), model.toString());
        assertEquals(2, r.exitCode());
        assertEquals(List.of("symdyn: view needs -o FILE (the HTML page to write)",
                "Try 'symdyn view --help' for more information."), r.errLines());
        r = SymDynCliTest.run("view", trajectory.toString(), "-o", "x.html");
        assertEquals(2, r.exitCode());
        assertTrue(r.errLines().get(0).startsWith("symdyn: view needs a trajectory file and a model file"), r.err());
        r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "extra.urdf", "-o", "x.html");
        assertEquals(2, r.exitCode());
        assertEquals("symdyn: unexpected argument 'extra.urdf' (one trajectory file and one model file only)",
                r.errLines().get(0));
        r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", dir.toString());
        assertEquals(2, r.exitCode());
        assertEquals(List.of(dir + ":[0,0] cannot write file: it is a directory"), r.errLines());
        r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o",
                dir.resolve("no/such/dir/m.html").toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.errLines().get(0).contains("cannot write file"), r.err());
        // a trajectory of another model
        Path block = write("block.urdf", SimulateCommandTest.BLOCK);
        r = SymDynCliTest.run("view", trajectory.toString(), block.toString(), "-o", dir.resolve("m.html").toString());
        assertEquals(2, r.exitCode());
        assertEquals(List.of(trajectory + ":[1,18] q[0] has 2 numbers, expected nq = 7 of model block"),
                r.errLines());
        // a minimal trajectory (t and q only) is enough
        r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", dir.resolve("m.html").toString());
        assertEquals(0, r.exitCode(), r.err());
    }
}
