package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;

/** The command line, run in-process through {@link SymDynCli#run}. */
class SymDynCliTest {
    @TempDir
    Path dir;

    /** What one run printed and returned. */
    record Result(int exitCode, String out, String err) {
        JsonValue json() throws JsonException {
            return JsonReader.parse("<stdout>", out);
        }

        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = SymDynCli.run(args, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Output that cannot be written (a full disk, a closed pipe) is exit 2 with the reason, for a command's results
     * and for {@code --help} and {@code --version} alike: a PrintStream swallows the write error.
     */
    @Test
    void anUnwritableStandardOutputIsReported() throws IOException {
        Path model = write("one.urdf", "<robot name=\"one\"><link name=\"a\"/></robot>");
        java.io.OutputStream full = new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        for (String[] args : new String[][] {{"inspect", model.toString()}, {"--help"}, {"inspect", "--help"},
            {"--version"}}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code;
            try (PrintStream o = new PrintStream(full, true, StandardCharsets.UTF_8);
                    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
                code = SymDynCli.run(args, o, e);
            }
            String text = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, code, String.join(" ", args) + ": " + text);
            assertTrue(text.startsWith("cannot write the results to standard output"), text);
        }
    }

    private Path write(String name, String... lines) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    /** Bad input: exit 2, only diagnostics on stderr, nothing on stdout, no stack trace. */
    private static void assertCleanFailure(Result r) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("at org."), r.err());
        assertFalse(r.err().contains("at java."), r.err());
        assertFalse(r.err().isBlank());
    }

    // ------------------------------------------------------------------ models used below

    /** A tree: base (root) -> link1 (revolute) -> link2 (prismatic) -> tool (fixed); base -> link3 (continuous). */
    private static final String[] TREE = {
        "<?xml version=\"1.0\"?>",
        "<robot name=\"tree\">",
        "  <link name=\"base\">",
        "    <inertial><mass value=\"3\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
        "    </inertial>",
        "  </link>",
        "  <joint name=\"j1\" type=\"revolute\">",
        "    <parent link=\"base\"/><child link=\"link1\"/><axis xyz=\"0 0 1\"/>",
        "    <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>",
        "  </joint>",
        "  <link name=\"link1\">",
        "    <inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
        "    </inertial>",
        "  </link>",
        "  <joint name=\"j2\" type=\"prismatic\">",
        "    <parent link=\"link1\"/><child link=\"link2\"/><origin xyz=\"0 0 0.5\"/><axis xyz=\"1 0 0\"/>",
        "    <limit lower=\"0\" upper=\"0.3\" effort=\"1\" velocity=\"1\"/>",
        "  </joint>",
        "  <link name=\"link2\">",
        "    <inertial><mass value=\"0.5\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
        "    </inertial>",
        "  </link>",
        "  <joint name=\"tool_joint\" type=\"fixed\">",
        "    <parent link=\"link2\"/><child link=\"tool\"/><origin xyz=\"0.1 0 0\"/>",
        "  </joint>",
        "  <link name=\"tool\"/>",
        "  <joint name=\"j3\" type=\"continuous\">",
        "    <parent link=\"base\"/><child link=\"link3\"/><origin xyz=\"0 0.2 0\"/><axis xyz=\"0 1 0\"/>",
        "    <mimic joint=\"j1\" multiplier=\"2\" offset=\"0.1\"/>",
        "  </joint>",
        "  <link name=\"link3\">",
        "    <inertial><mass value=\"0.2\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
        "    </inertial>",
        "  </link>",
        "</robot>",
    };

    private static final double MASS = 2.0;
    private static final double COM = 0.4; // l: hinge to centre of mass
    private static final double IYY = 0.03; // about the centre of mass, around the hinge axis
    private static final double TIP = 1.0; // hinge to the tip frame
    private static final double GRAVITY = 9.81;

    /**
     * A pendulum: an arm on a continuous hinge about y at (0.1, 0.2, 1.5) in the world, its centre of mass l = 0.4
     * below the hinge (along -z of the arm at q = 0), mass 2, inertia 0.03 about y through the centre of mass, and a
     * tip frame 1 below the hinge on a fixed joint.
     */
    private Path pendulum() throws IOException {
        return write("pendulum.urdf",
                "<robot name=\"pendulum\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"continuous\">",
                "    <parent link=\"world\"/><child link=\"arm\"/>",
                "    <origin xyz=\"0.1 0.2 1.5\" rpy=\"0 0 0\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"arm\">",
                "    <inertial>",
                "      <origin xyz=\"0 0 -" + COM + "\"/><mass value=\"" + MASS + "\"/>",
                "      <inertia ixx=\"0.02\" iyy=\"" + IYY + "\" izz=\"0.04\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
                "    </inertial>",
                "  </link>",
                "  <joint name=\"tip_joint\" type=\"fixed\">",
                "    <parent link=\"arm\"/><child link=\"tip\"/><origin xyz=\"0 0 -" + TIP + "\"/>",
                "  </joint>",
                "  <link name=\"tip\"/>",
                "</robot>");
    }

    // ------------------------------------------------------------------ inspect

    @Test
    void inspectPrintsTheStructure() throws IOException, JsonException {
        Path model = write("tree.urdf", TREE);
        Result r = run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        JsonValue expected = JsonReader.parse("expected", """
                {
                  "name": "tree",
                  "format": "URDF",
                  "nq": 3,
                  "nv": 3,
                  "q_names": ["j1", "j2", "j3"],
                  "v_names": ["j1", "j2", "j3"],
                  "bodies": [
                    {"name": "link1", "parent": "base", "joint": "j1", "joint_type": "revolute"},
                    {"name": "link2", "parent": "link1", "joint": "j2", "joint_type": "prismatic"},
                    {"name": "link3", "parent": "base", "joint": "j3", "joint_type": "continuous"}
                  ],
                  "frames": [
                    {"name": "base", "body": "base"},
                    {"name": "link1", "body": "link1"},
                    {"name": "link2", "body": "link2"},
                    {"name": "tool", "body": "link2"},
                    {"name": "link3", "body": "link3"}
                  ],
                  "constraints": [
                    {"name": "j3_mimic", "type": "coupler", "rows": 1}
                  ],
                  "collision_shapes": [],
                  "collision_shapes_per_link": {},
                  "visual_shapes": 0,
                  "no_contact": [],
                  "lidars": [],
                  "warnings": []
                }
                """);
        assertEquals(expected, r.json());
        assertEquals(List.of("name", "format", "nq", "nv", "q_names", "v_names", "bodies", "frames", "constraints",
                "collision_shapes", "collision_shapes_per_link", "visual_shapes", "no_contact", "lidars", "warnings"),
                List.copyOf(((ObjectValue) r.json()).members().keySet()));
        assertTrue(r.out().contains("  \"nq\": 3,\n"), "pretty-printed with two-space indentation:\n" + r.out());
    }

    /** A joint's armature and damping are listed with its body when nonzero, and only then. */
    @Test
    void inspectShowsArmatureAndDamping() throws IOException, JsonException {
        String[] lines = TREE.clone();
        lines[1] = "<robot name=\"tree\" xmlns:symdyn=\"urn:symdyn:1\">";
        int j2 = List.of(lines).indexOf("  <joint name=\"j2\" type=\"prismatic\">");
        lines[j2 + 2] = lines[j2 + 2] + "<dynamics damping=\"0.5\" symdyn:armature=\"0.02\"/>";
        Path model = write("armature.urdf", lines);
        Result r = run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        ArrayValue bodies = (ArrayValue) ((ObjectValue) r.json()).get("bodies");
        assertEquals(JsonReader.parse("expected", "{\"name\": \"link2\", \"parent\": \"link1\", \"joint\": \"j2\","
                + " \"joint_type\": \"prismatic\", \"armature\": 0.02, \"damping\": 0.5}"), bodies.get(1));
        assertEquals(List.of("name", "parent", "joint", "joint_type"),
                List.copyOf(((ObjectValue) bodies.get(0)).members().keySet()));
    }

    @Test
    void inspectListsWarningsWithTheirLocation() throws IOException, JsonException {
        String[] lines = TREE.clone();
        // link3's principal moments 0.01, 0.01, 0.03 violate the triangle inequality: a warning
        int link3 = List.of(lines).indexOf("  <link name=\"link3\">");
        lines[link3 + 1] = lines[link3 + 1].replace("izz=\"0.01\"", "izz=\"0.03\"");
        Path model = write("warned.urdf", lines);
        Result r = run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        ArrayValue warnings = (ArrayValue) ((ObjectValue) r.json()).get("warnings");
        assertEquals(1, warnings.size(), r.out());
        String w = ((StringValue) warnings.get(0)).value();
        assertTrue(w.startsWith(model + ":[" + (link3 + 1) + ",3] warning: "), w);
        assertTrue(w.contains("triangle inequality"), w);

        Result strict = run("inspect", "--strict", model.toString());
        assertCleanFailure(strict);
        assertTrue(strict.err().startsWith(model + ":[" + (link3 + 1) + ",3] "), strict.err());
    }

    /**
     * evaluate spools each state's result to a temporary file and prints the document at the end (a helper's
     * finding: holding every result tree, 131,000 states ran out of a 256 MB heap); the text is exactly what the
     * writer gives the whole document.
     */
    @Test
    void evaluatePrintsWhatTheWriterGivesTheWholeDocument() throws IOException, JsonException {
        Path model = write("tree.urdf", TREE);
        Path states = write("states.json", "{\"states\": [{\"q\": [0.1, 0.2, 0.3]}, {\"q\": [-1, 0, 2], \"v\": [1, 2, 3]},"
                + " {\"q\": [0, 0, 0], \"tau\": [1, 0, -1]}]}");
        Result r = run("evaluate", model.toString(), "--states", states.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(SymDynCli.WRITER.write(r.json()) + "\n", r.out());
        assertEquals(3, ((ArrayValue) ((ObjectValue) r.json()).get("results")).size());
    }

    @Test
    void optionsMayStandBeforeOrAfterTheModel() throws IOException, JsonException {
        Path model = write("tree.urdf", TREE);
        String m = model.toString();
        Result reference = run("inspect", m, "--floating", "--strict");
        assertEquals(0, reference.exitCode(), reference.err());
        for (String[] args : List.of(
                new String[] {"inspect", "--floating", "--strict", m},
                new String[] {"--strict", "inspect", m, "--floating"},
                new String[] {"--floating", "--strict", "inspect", m},
                new String[] {"inspect", "--strict", m, "--floating"})) {
            Result r = run(args);
            assertEquals(0, r.exitCode(), r.err());
            assertEquals(reference.out(), r.out(), String.join(" ", args));
        }
        ObjectValue json = (ObjectValue) reference.json();
        assertEquals(10.0, ((NumberValue) json.get("nq")).value(), "7 floating-base coordinates + 3 joints");
        assertEquals(9.0, ((NumberValue) json.get("nv")).value());
        ObjectValue base = (ObjectValue) ((ArrayValue) json.get("bodies")).get(0);
        assertEquals(JsonReader.parse("x", """
                {"name": "base", "parent": "world", "joint": "floating_base", "joint_type": "floating"}"""), base);

        // evaluate: options anywhere too
        Path states = write("states.json", "{\"states\": [{\"q\": [0.1, 0.2, 0.3]}]}");
        Result e1 = run("evaluate", m, "--states", states.toString(), "--backend", "generic");
        Result e2 = run("--backend=generic", "--states=" + states, "evaluate", m);
        Result e3 = run("evaluate", "--states", states.toString(), m);
        assertEquals(0, e1.exitCode(), e1.err());
        assertEquals(e1.out(), e2.out());
        assertEquals(e1.out(), e3.out());
    }

    // ------------------------------------------------------------------ evaluate

    /**
     * The pendulum's closed form. With R = R_y(q) the arm's rotation, the centre of mass is at
     * o + R (0, 0, -l) = o + (-l sin q, 0, -l cos q), so its height is z_o - l cos q and the potential energy
     * V = -m g l cos q (+ const). The kinetic energy is T = ½ (m l² + I_yy) q̇². Lagrange's equation gives
     * (m l² + I_yy) q̈ + m g l sin q = τ, hence
     * <ul>
     * <li>H = m l² + I_yy (constant), no Coriolis term for one coordinate, so C(q, v) = g(q) = m g l sin q;</li>
     * <li>q̈ = (τ - m g l sin q) / H and τ_id = H a + m g l sin q;</li>
     * <li>arm frame at the hinge o with rotation R_y(q) = [[c, 0, s], [0, 1, 0], [-s, 0, c]]; the tip frame at
     * o + R (0, 0, -L) = o + (-L sin q, 0, -L cos q), same rotation; the world frame at the identity.</li>
     * </ul>
     */
    @Test
    void evaluateMatchesThePendulumClosedForm() throws IOException, JsonException {
        Path model = pendulum();
        double[][] states = {
            {0.3, 1.5, 0.7, 0.2},
            {-2.1, -0.4, -3.0, 5.0},
            {0.0, 0.0, 0.0, 0.0},
            {Math.PI / 2, 10, 1, -1},
        };
        StringBuilder json = new StringBuilder("{\"states\": [\n");
        for (int i = 0; i < states.length; i++) {
            double[] s = states[i];
            json.append(String.format("  {\"q\": [%s], \"v\": [%s], \"tau\": [%s], \"a\": [%s]},%n",
                    s[0], s[1], s[2], s[3]));
        }
        json.append("  {\"q\": [1.0]}\n]}\n"); // v, tau and a missing: zeros
        Path statesFile = write("states.json", json.toString());
        Result r = run("evaluate", model.toString(), "--states", statesFile.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        ArrayValue results = (ArrayValue) ((ObjectValue) r.json()).get("results");
        assertEquals(states.length + 1, results.size());

        double h = MASS * COM * COM + IYY;
        for (int i = 0; i <= states.length; i++) {
            double[] s = i < states.length ? states[i] : new double[] {1.0, 0, 0, 0};
            double q = s[0];
            double tau = s[2];
            double a = s[3];
            double grav = MASS * GRAVITY * COM * Math.sin(q);
            ObjectValue res = (ObjectValue) results.get(i);
            assertEquals(List.of("H", "C", "g", "qdd", "tau_id", "body_poses", "body_jacobians", "points"),
                    List.copyOf(res.members().keySet()));
            assertClose(h, matrix(res.get("H"))[0][0], "H");
            assertEquals(1, matrix(res.get("H")).length);
            assertClose(grav, vector(res.get("g"))[0], "g");
            assertClose(grav, vector(res.get("C"))[0], "C");
            assertClose((tau - grav) / h, vector(res.get("qdd"))[0], "qdd");
            assertClose(h * a + grav, vector(res.get("tau_id"))[0], "tau_id");

            ObjectValue poses = (ObjectValue) res.get("body_poses");
            assertEquals(List.of("world", "arm", "tip"), List.copyOf(poses.members().keySet()));
            double c = Math.cos(q);
            double sn = Math.sin(q);
            double[][] ry = {{c, 0, sn}, {0, 1, 0}, {-sn, 0, c}};
            assertPose(poses.get("world"), new double[] {0, 0, 0}, new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
            assertPose(poses.get("arm"), new double[] {0.1, 0.2, 1.5}, ry);
            assertPose(poses.get("tip"), new double[] {0.1 - TIP * sn, 0.2, 1.5 - TIP * c}, ry);
        }
    }

    @Test
    void evaluatePrintsTheDynamicsToFullPrecision() throws Exception {
        Path model = write("tree.urdf", TREE);
        double[] q = {0.3, 0.12, -1.7};
        double[] v = {0.4, -0.25, 2.0};
        double[] tau = {1.0, -2.0, 0.5};
        double[] a = {-0.3, 0.6, 0.9};
        Path states = write("states.json", "{\"states\": [{\"q\": " + list(q) + ", \"v\": " + list(v)
                + ", \"tau\": " + list(tau) + ", \"a\": " + list(a) + "}]}");
        Result r = run("evaluate", model.toString(), "--states", states.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue res = (ObjectValue) ((ArrayValue) ((ObjectValue) r.json()).get("results")).get(0);
        assertBitwiseEqualsGeneric(UrdfReader.read(model), q, v, tau, a, res);
    }

    @Test
    void floatingBaseStatesAreCheckedForAZeroQuaternion() throws IOException, JsonException {
        Path model = write("tree.urdf", TREE);
        Path good = write("good.json", "{\"states\": [{\"q\": [1, 2, 3, 0, 0, 0, 1, 0.1, 0.2, 0.3],",
                " \"v\": [0, 0, 0, 0, 0, 0, 0, 0, 0]}]}");
        Result ok = run("evaluate", "--floating", model.toString(), "--states", good.toString());
        assertEquals(0, ok.exitCode(), ok.err());
        ObjectValue base = (ObjectValue) ((ObjectValue) ((ObjectValue) ((ArrayValue) ((ObjectValue) ok.json())
                .get("results")).get(0)).get("body_poses")).get("base");
        assertEquals(JsonValue.array(1, 2, 3), base.get("position"));

        Path zero = write("zero.json", "{\"states\": [", "  {\"q\": [1, 2, 3, 0, 0, 0, 0, 0.1, 0.2, 0.3]}]}");
        Result bad = run("evaluate", "--floating", model.toString(), "--states", zero.toString());
        assertCleanFailure(bad);
        assertEquals(List.of(zero + ":[2,19] state 0: the quaternion q[3..6] of joint 'floating_base' must be a unit"
                + " quaternion (x, y, z, w); it is zero"), bad.errLines());
    }

    // ------------------------------------------------------------------ errors

    @Test
    void badModelFilesGiveLocatedDiagnostics() throws IOException {
        Path negative = write("negative.urdf",
                "<robot name=\"x\">",
                "  <link name=\"a\"/>",
                "  <joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                "  <link name=\"b\"><inertial><mass value=\"-1\"/>",
                "    <inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "  <joint name=\"k\" type=\"screw\"><parent link=\"b\"/><child link=\"c\"/></joint>",
                "  <link name=\"c\"/>",
                "</robot>");
        Result r = run("inspect", negative.toString());
        assertCleanFailure(r);
        List<String> lines = r.errLines();
        assertTrue(lines.size() >= 2, r.err());
        for (String line : lines) {
            assertTrue(line.matches("\\Q" + negative + "\\E:\\[\\d+,\\d+\\] .+"), line);
        }
        assertTrue(lines.get(0).startsWith(negative + ":[4,3] "), r.err());
        assertTrue(r.err().contains(negative + ":[6,3] "), r.err());

        Path malformed = write("malformed.urdf", "<robot name=\"x\">", "  <link name=\"a\">", "</robot>");
        Result m = run("evaluate", malformed.toString(), "--states", "whatever.json");
        assertCleanFailure(m);
        assertEquals(1, m.errLines().size(), m.err());
        assertTrue(m.err().matches("\\Q" + malformed + "\\E:\\[3,\\d+\\] malformed XML: .+\n"), m.err());

        Path missing = dir.resolve("missing.urdf");
        Result n = run("inspect", missing.toString());
        assertCleanFailure(n);
        assertEquals(List.of(missing + ":[0,0] cannot read file: no such file"), n.errLines());

        Result d = run("inspect", dir.toString());
        assertCleanFailure(d);
        assertEquals(List.of(dir + ":[0,0] cannot read file: it is a directory"), d.errLines());
    }

    @Test
    void statesFileSyntaxErrorsGiveLineAndColumn() throws IOException {
        Path model = pendulum();
        Path states = write("states.json", "{\"states\": [", "  {\"q\": [0.1,]}", "]}");
        Result r = run("evaluate", model.toString(), "--states", states.toString());
        assertCleanFailure(r);
        assertEquals(List.of(states + ":[2,14] trailing comma before ']'"), r.errLines());

        // strict (issue 13, on Jackson): no NaN, no duplicate keys, nothing after the document, each located
        Map<String, String> refused = Map.of(
                "{\"states\": [\n  {\"q\": [NaN]}\n]}",
                ":[2,10] invalid number: JSON has no NaN or Infinity ('NaN')",
                "{\"states\": [\n  {\"q\": [0.1], \"v\": [1],\n   \"q\": [0.2]}\n]}",
                ":[3,4] duplicate key 'q' in the object that starts at [2,3]",
                "{\"states\": [{\"q\": [0.1]}]}\n{\"states\": []}\n",
                ":[2,1] unexpected '{' after the JSON value",
                "{\"states\": [{\"q\": [0.1]}]} garbage",
                ":[1,28] unexpected 'garbage' after the JSON value");
        for (Map.Entry<String, String> e : refused.entrySet()) {
            Path bad = write("strict.json", e.getKey());
            Result b = run("evaluate", model.toString(), "--states", bad.toString());
            assertCleanFailure(b);
            assertEquals(List.of(bad + e.getValue()), b.errLines(), e.getKey());
        }

        Path missing = dir.resolve("nothing.json");
        Result m = run("evaluate", model.toString(), "--states", missing.toString());
        assertCleanFailure(m);
        assertEquals(List.of(missing + ":[0,0] cannot read file: no such file"), m.errLines());
    }

    @Test
    void statesWithWrongLengthsOrMissingQAreRefusedWithEveryProblem() throws IOException {
        Path model = pendulum();
        Path states = write("states.json",
                "{\"states\": [",
                "  {\"q\": [0.1], \"v\": [1]},",
                "  {\"q\": [0.1, 0.2], \"v\": [1]},",
                "  {\"v\": [1], \"tau\": [1, 2, 3]},",
                "  {\"q\": [null], \"V\": [1]},",
                "  [0.1],",
                "  {\"q\": 0.5, \"a\": []}",
                "]}");
        Result r = run("evaluate", model.toString(), "--states", states.toString());
        assertCleanFailure(r);
        String p = states.toString();
        assertEquals(List.of(
                p + ":[3,9] state 1: q has 2 numbers, expected nq = 1",
                p + ":[4,3] state 2: missing \"q\" (an array of nq = 1 numbers)",
                p + ":[4,21] state 2: tau has 3 numbers, expected nv = 1",
                p + ":[5,10] state 3: q[0] must be a number, not null",
                p + ":[5,22] state 3: unknown key 'V' (expected q, v, tau, a, q_init, v_init, weights,"
                        + " points)",
                p + ":[6,3] state 4: a state must be an object {\"q\": [...], ...}, not an array",
                p + ":[7,9] state 5: q must be an array of nq = 1 numbers, not a number",
                p + ":[7,19] state 5: a has 0 numbers, expected nv = 1"), r.errLines());

        Path notStates = write("top.json", "[1, 2]");
        Result t = run("evaluate", model.toString(), "--states", notStates.toString());
        assertCleanFailure(t);
        assertEquals(List.of(notStates + ":[1,1] a states file holds an object {\"states\": [...]}, not an array"),
                t.errLines());

        Path noKey = write("nokey.json", "{\"state\": []}");
        Result k = run("evaluate", model.toString(), "--states", noKey.toString());
        assertCleanFailure(k);
        assertEquals(List.of(
                noKey + ":[1,1] missing \"states\": expected {\"states\": [{\"q\": [...]}, ...]}",
                noKey + ":[1,11] unknown key 'state' (a states file has only \"states\")"), k.errLines());

        Path empty = write("empty.json", "{\"states\": []}");
        Result e = run("evaluate", model.toString(), "--states", empty.toString());
        assertEquals(0, e.exitCode(), e.err());
        assertEquals("{\n  \"results\": []\n}\n", e.out());
    }

    @Test
    void nonFiniteResultsAreRefusedNotPrinted() throws IOException {
        Path model = pendulum();
        Path states = write("big.json", "{\"states\": [", "  {\"q\": [0.1], \"tau\": [1e308]},",
                "  {\"q\": [0.1], \"v\": [1e200]},", "  {\"q\": [0.1]}", "]}");
        Result r = run("evaluate", model.toString(), "--states", states.toString());
        assertCleanFailure(r);
        List<String> lines = r.errLines();
        assertEquals(2, lines.size(), r.err());
        assertEquals(states + ":[2,3] state 0: the dynamics gave non-finite values in qdd (a result overflowed or is"
                + " undefined at this state)",
                lines.get(0));
        assertTrue(lines.get(1).startsWith(states + ":[3,3] state 1: the dynamics gave non-finite values in "),
                lines.get(1));
    }

    @Test
    void evaluateReportsModelWarningsOnStandardError() throws IOException, JsonException {
        String[] lines = TREE.clone();
        int link3 = List.of(lines).indexOf("  <link name=\"link3\">");
        lines[link3 + 1] = lines[link3 + 1].replace("izz=\"0.01\"", "izz=\"0.03\"");
        Path model = write("warned.urdf", lines);
        Path states = write("states.json", "{\"states\": [{\"q\": [0, 0, 0]}]}");
        Result r = run("evaluate", model.toString(), "--states", states.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.errLines().get(0).startsWith(model + ":[" + (link3 + 1) + ",3] warning: "), r.err());
        assertEquals(1, ((ArrayValue) ((ObjectValue) r.json()).get("results")).size());
    }

    @Test
    void backends() throws IOException, JsonException {
        Path model = pendulum();
        Path states = write("states.json", "{\"states\": [",
                "  {\"q\": [0.1]},",
                "  {\"q\": [0.3], \"v\": [1.5], \"tau\": [0.7], \"a\": [0.2]},",
                "  {\"q\": [-2.1], \"v\": [-0.4], \"tau\": [-3.0], \"a\": [5.0]},",
                "  {\"q\": [1.5707963267948966], \"v\": [10], \"tau\": [1], \"a\": [-1]}",
                "]}");
        Result generic = run("evaluate", model.toString(), "--states", states.toString(), "--backend", "generic");
        assertEquals(0, generic.exitCode(), generic.err());
        assertEquals(run("evaluate", model.toString(), "--states", states.toString()).out(), generic.out());

        Result generated = run("evaluate", model.toString(), "--states", states.toString(), "--backend", "generated");
        assertEquals(0, generated.exitCode(), generated.err());
        assertEquals("", generated.err());
        assertEquals(4, ((ArrayValue) ((ObjectValue) generated.json()).get("results")).size());
        assertJsonClose(generic.json(), generated.json(), 1e-12, "");

        Result unknown = run("evaluate", model.toString(), "--states", states.toString(), "--backend", "gpu");
        assertCleanFailure(unknown);
        assertEquals(List.of("unknown backend 'gpu' (available: generic, generated)"), unknown.errLines());
    }

    @Test
    void theGeneratedBackendEvaluatesAConstrainedModelLikeTheGenericOne() throws IOException, JsonException {
        String[] lines = TREE.clone();
        int end = List.of(lines).indexOf("</robot>");
        lines[1] = "<robot name=\"tree\" xmlns:sd=\"urn:symdyn:1\">";
        List<String> withEdges = new ArrayList<>(List.of(lines).subList(0, end));
        withEdges.add("  <sd:line_on_line name=\"edges\" rolling=\"true\">");
        withEdges.add("    <sd:edge_f link=\"link1\" half_length=\"0.5\"/><sd:edge_b link=\"link3\" half_length=\"1\"/>");
        withEdges.add("  </sd:line_on_line>");
        withEdges.add("</robot>");
        Path model = write("edges.urdf", withEdges.toArray(String[]::new));
        Path states = write("states.json", "{\"states\": [{\"q\": [0.2, 0.1, -0.3], \"v\": [1, -2, 0.5],"
                + " \"tau\": [0.1, 0.2, 0.3], \"a\": [-1, 0, 1]}]}");
        Result generic = run("evaluate", model.toString(), "--states", states.toString());
        Result generated = run("evaluate", model.toString(), "--states", states.toString(), "--backend", "generated");
        assertEquals(0, generic.exitCode(), generic.err());
        assertEquals(0, generated.exitCode(), generated.err());
        // Four rows (the mimic coupler and three rolling rows) on three dof: dependent, so every solve is refused
        // the same way by both backends, with a warning naming the rows. Which rows the pivoted factorisation calls
        // dependent, and their coefficients, hang on rounding in each backend's G: messages and rows are not
        // compared.
        for (Result r : List.of(generic, generated)) {
            assertEquals(1, r.errLines().size(), r.err());
            assertTrue(r.errLines().get(0).startsWith(states + ":[1,13] warning: state 0: constraint rows are"
                    + " linearly dependent (rank 2 of 4 rows"), r.err());
            assertTrue(r.errLines().get(0).endsWith("impulse_recursive set to null)"), r.err());
        }
        assertJsonClose(withoutDiagnosis(generic.json()), withoutDiagnosis(generated.json()), 1e-12, "");
    }

    /** The document with every "message" and "rows" member removed. */
    private static JsonValue withoutDiagnosis(JsonValue value) {
        if (value instanceof ObjectValue o) {
            Map<String, JsonValue> members = new java.util.LinkedHashMap<>();
            o.members().forEach((k, v) -> {
                if (!k.equals("message") && !k.equals("rows")) {
                    members.put(k, withoutDiagnosis(v));
                }
            });
            return JsonValue.object(members);
        }
        if (value instanceof ArrayValue a) {
            return JsonValue.array(a.elements().stream().map(SymDynCliTest::withoutDiagnosis).toList());
        }
        return value;
    }

    @Test
    void usage() {
        // issue 13, item 8: no arguments is a usage error: the help on standard error, exit code 2
        Result none = run();
        assertEquals(2, none.exitCode());
        assertEquals("", none.out());
        assertEquals(SymDynCli.usage(null), none.err());
        assertTrue(none.err().startsWith("Usage: symdyn [-hV] COMMAND"), none.err());

        Map<List<String>, String> helps = Map.of(
                List.of("--help"), SymDynCli.usage(null),
                List.of("-h"), SymDynCli.usage(null),
                List.of("help"), SymDynCli.usage(null),
                List.of("--bogus", "--help"), SymDynCli.usage(null),
                List.of("inspect", "model.urdf", "--help"), SymDynCli.usage("inspect"),
                List.of("--strict", "evaluate", "-h"), SymDynCli.usage("evaluate"),
                List.of("help", "generate"), SymDynCli.usage("generate"),
                List.of("generate", "--help"), SymDynCli.usage("generate"));
        for (Map.Entry<List<String>, String> e : helps.entrySet()) {
            Result help = run(e.getKey().toArray(String[]::new));
            assertEquals(0, help.exitCode(), String.join(" ", e.getKey()));
            assertEquals(e.getValue(), help.out(), String.join(" ", e.getKey()));
            assertEquals("", help.err());
        }
        for (String command : List.of("inspect", "evaluate", "simulate", "rollouts", "view", "generate")) {
            assertTrue(SymDynCli.usage(command).startsWith(SymDynCli.usage(command).lines().findFirst().get()
                    + "\nUsage: symdyn " + command + " "), SymDynCli.usage(command));
            assertTrue(SymDynCli.usage(null).contains("\n  " + command + " "), "listed: " + command);
        }

        Map<List<String>, String> errors = Map.ofEntries(
                Map.entry(List.of("inspect", "m.urdf", "--bogus"), "symdyn: unknown option '--bogus'"),
                Map.entry(List.of("frobnicate", "m.urdf"),
                        "symdyn: unknown command 'frobnicate' (commands: inspect, evaluate, simulate, rollouts, view, generate)"),
                Map.entry(List.of("inspect"), "symdyn: inspect needs a model file"),
                Map.entry(List.of("--strict"), "symdyn: missing command (inspect, evaluate, simulate, rollouts, view or generate)"),
                Map.entry(List.of("inspect", "a.urdf", "b.urdf"),
                        "symdyn: unexpected argument 'b.urdf' (one model file only)"),
                Map.entry(List.of("evaluate", "a.urdf", "b.urdf", "--states", "s.json"),
                        "symdyn: unexpected argument 'b.urdf' (one model file only)"),
                Map.entry(List.of("evaluate", "m.urdf"), "symdyn: evaluate needs --states FILE"),
                Map.entry(List.of("evaluate", "m.urdf", "--states"), "symdyn: option --states needs a value"),
                Map.entry(List.of("inspect", "m.urdf", "--states", "s.json"),
                        "symdyn: option --states is only for evaluate"),
                Map.entry(List.of("inspect", "m.urdf", "--backend", "generic"),
                        "symdyn: option --backend is only for evaluate, simulate and rollouts"),
                Map.entry(List.of("inspect", "m.urdf", "--strict", "--strict"), "symdyn: option --strict given twice"),
                Map.entry(List.of("generate"), "symdyn: generate needs one or more model files"),
                Map.entry(List.of("generate", "m.urdf", "-p", "x"),
                        "symdyn: generate needs -d DIR (where the sources go)"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out"),
                        "symdyn: generate needs -p PACKAGE (the package of the generated classes)"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out", "--dir=other", "-p", "x"),
                        "symdyn: option -d given twice"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out", "--package", "com.1x"),
                        "symdyn: package 'com.1x' is not a package name: '1x' is not a Java identifier"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out", "-p", "x", "--class", "a.B"),
                        "symdyn: class name 'a.B' is not a Java identifier (letters, digits, _ and $, not starting with a digit)"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out", "-p", "x", "--class", "record"),
                        "symdyn: class name 'record' is a restricted identifier, which cannot name a class (var, yield, record,"
                                + " sealed, permits)"),
                Map.entry(List.of("generate", "a.urdf", "b.urdf", "-d", "out", "-p", "x", "--class", "Arm"),
                        "symdyn: option --class needs exactly one model file (2 given); without it each class is"
                                + " named after its robot"),
                Map.entry(List.of("evaluate", "m.urdf", "--states", "s.json", "-d", "out"),
                        "symdyn: option -d is only for generate"),
                Map.entry(List.of("inspect", "m.urdf", "--report", "r.json"),
                        "symdyn: option --report is only for generate"),
                Map.entry(List.of("inspect", "m.urdf", "--math-trig"), "symdyn: option --math-trig is only for generate"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out", "-p", "x", "--math-trig=yes"),
                        "symdyn: option --math-trig takes no value"),
                Map.entry(List.of("generate", "m.urdf", "-d", "out", "-p", "x", "--states", "s.json"),
                        "symdyn: option --states is only for evaluate"));
        for (Map.Entry<List<String>, String> e : errors.entrySet()) {
            Result r = run(e.getKey().toArray(String[]::new));
            assertCleanFailure(r);
            // the error first, then a one-line hint at the command's help, not the help itself
            String command = List.of("inspect", "evaluate", "generate").contains(e.getKey().get(0))
                    ? e.getKey().get(0) + " " : "";
            assertEquals(List.of(e.getValue(), "Try 'symdyn " + command + "--help' for more information."),
                    r.errLines(), String.join(" ", e.getKey()));
        }
        Result help = run("help", "frobnicate");
        assertCleanFailure(help);
        assertEquals(List.of("symdyn: unknown command 'frobnicate' (commands: inspect, evaluate, simulate, rollouts, view, generate)",
                "Try 'symdyn --help' for more information."), help.errLines());
    }

    /** Issue 13, item 8: the version of symdyn and the generator's identity, as the Maven plugin logs it. */
    @Test
    void version() throws Exception {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"},
                new String[] {"inspect", "m.urdf", "--version"})) {
            Result r = run(args);
            assertEquals(0, r.exitCode(), r.err());
            assertEquals("", r.err());
            List<String> lines = List.of(r.out().split("\n"));
            assertEquals(3, lines.size(), r.out());
            assertTrue(lines.get(0).matches("symdyn \\d+\\.\\d+\\.\\d+\\S*"), lines.get(0));
            assertEquals("generator " + org.symdyn.generator.GeneratorIdentity.current(), lines.get(1));
            assertTrue(lines.get(1).matches("generator \\d+\\.\\d+\\.\\d+\\S* \\(code [0-9a-f]{12}\\)"),
                    lines.get(1));
            assertTrue(lines.get(2).startsWith("Java " + System.getProperty("java.version")), lines.get(2));
        }
    }

    @Test
    void doubleDashEndsOptions() throws IOException {
        Path model = write("tree.urdf", TREE);
        Result r = run("inspect", "--strict", "--", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        Result dashed = run("inspect", "--", "-odd.urdf");
        assertCleanFailure(dashed);
        assertEquals(List.of("-odd.urdf:[0,0] cannot read file: no such file"), dashed.errLines());
        Result option = run("inspect", "-odd.urdf");
        assertCleanFailure(option);
        assertEquals("symdyn: unknown option '-odd.urdf'", option.errLines().get(0));
    }

    // ------------------------------------------------------------------ shared public model

    @Test
    void inspectAndEvaluateTheIiwa() throws Exception {
        Path iiwa = org.symdyn.testing.SharedFiles.model("iiwa14_no_collision.urdf");
        Result r = run("inspect", iiwa.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals("iiwa14", ((StringValue) json.get("name")).value());
        assertEquals(7.0, ((NumberValue) json.get("nq")).value());
        assertEquals(7.0, ((NumberValue) json.get("nv")).value());
        List<String> joints = new ArrayList<>();
        List<String> links = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            joints.add("iiwa_joint_" + i);
            links.add("iiwa_link_" + i);
        }
        assertEquals(JsonValue.strings(joints), json.get("q_names"));
        assertEquals(JsonValue.strings(joints), json.get("v_names"));
        ArrayValue bodies = (ArrayValue) json.get("bodies");
        assertEquals(7, bodies.size());
        for (int i = 0; i < 7; i++) {
            ObjectValue b = (ObjectValue) bodies.get(i);
            assertEquals(JsonValue.of(links.get(i)), b.get("name"));
            assertEquals(JsonValue.of(i == 0 ? "base" : links.get(i - 1)), b.get("parent"));
            assertEquals(JsonValue.of(joints.get(i)), b.get("joint"));
            assertEquals(JsonValue.of("revolute"), b.get("joint_type"));
        }
        ArrayValue frames = (ArrayValue) json.get("frames");
        assertEquals(JsonReader.parse("x", "{\"name\": \"base\", \"body\": \"base\"}"), frames.get(0));
        assertEquals(JsonReader.parse("x", "{\"name\": \"iiwa_link_ee\", \"body\": \"iiwa_link_7\"}"),
                frames.get(frames.size() - 1));

        double[] q = {0.1, -0.4, 0.7, 1.2, -0.3, 0.9, -1.1};
        double[] v = {0.5, 0.1, -0.2, 0.3, 1.0, -0.7, 0.25};
        double[] tau = {3, -2, 1, 0.5, -0.25, 0.1, 0};
        double[] a = {-1, 0.5, 0.25, 2, -0.5, 1, 3};
        Path states = write("iiwa.json", "{\"states\": [{\"q\": " + list(q) + ", \"v\": " + list(v) + ", \"tau\": "
                + list(tau) + ", \"a\": " + list(a) + "}]}");
        Result e = run("evaluate", iiwa.toString(), "--states", states.toString());
        assertEquals(0, e.exitCode(), e.err());
        ObjectValue res = (ObjectValue) ((ArrayValue) ((ObjectValue) e.json()).get("results")).get(0);
        assertBitwiseEqualsGeneric(UrdfReader.read(iiwa), q, v, tau, a, res);
        double[][] h = matrix(res.get("H"));
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 7; j++) {
                assertClose(h[i][j], h[j][i], "H symmetric");
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The CLI's JSON equals, bit for bit, what the generic dynamics computes in-process. */
    private static void assertBitwiseEqualsGeneric(Model model, double[] q, double[] v, double[] tau, double[] a,
            ObjectValue res) {
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        dyn.massMatrix(q, h);
        double[][] hOut = matrix(res.get("H"));
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                assertBits(h.get(i, j), hOut[i][j], "H");
            }
        }
        double[] x = new double[nv];
        dyn.biasForces(q, v, x);
        assertBits(x, vector(res.get("C")), "C");
        dyn.gravityForces(q, x);
        assertBits(x, vector(res.get("g")), "g");
        dyn.forwardDynamics(q, v, tau, x);
        assertBits(x, vector(res.get("qdd")), "qdd");
        dyn.inverseDynamics(q, v, a, x);
        assertBits(x, vector(res.get("tau_id")), "tau_id");
        ObjectValue poses = (ObjectValue) res.get("body_poses");
        assertEquals(model.frames().size(), poses.members().size());
        double[] rot = new double[9];
        double[] pos = new double[3];
        for (int f = 0; f < model.frames().size(); f++) {
            dyn.framePose(q, f, rot, pos);
            ObjectValue pose = (ObjectValue) poses.get(model.frames().get(f).name());
            assertBits(pos, vector(pose.get("position")), "position");
            double[][] r = matrix(pose.get("rotation"));
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    assertBits(rot[3 * i + j], r[i][j], "rotation");
                }
            }
        }
    }

    /**
     * Two JSON documents with the same structure (keys in the same order, arrays of the same sizes, the same
     * strings) whose numbers agree to {@code tol} relative (to the number's magnitude, at least 1).
     */
    static void assertJsonClose(JsonValue expected, JsonValue actual, double tol, String where) {
        assertEquals(expected.typeName(), actual.typeName(), where);
        if (expected instanceof ObjectValue e) {
            ObjectValue a = (ObjectValue) actual;
            assertEquals(List.copyOf(e.members().keySet()), List.copyOf(a.members().keySet()), where);
            for (String key : e.members().keySet()) {
                assertJsonClose(e.get(key), a.get(key), tol, where + "." + key);
            }
        } else if (expected instanceof ArrayValue e) {
            ArrayValue a = (ArrayValue) actual;
            assertEquals(e.size(), a.size(), where);
            for (int i = 0; i < e.size(); i++) {
                assertJsonClose(e.get(i), a.get(i), tol, where + "[" + i + "]");
            }
        } else if (expected instanceof NumberValue e) {
            double x = e.value();
            double y = ((NumberValue) actual).value();
            assertEquals(x, y, tol * Math.max(1, Math.abs(x)), where);
        } else {
            assertEquals(expected, actual, where);
        }
    }

    static String list(double[] values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            sb.append(i > 0 ? ", " : "").append(values[i]);
        }
        return sb.append(']').toString();
    }

    /** A JSON array of numbers as a double[] (shared by the command-line tests). */
    static double[] vector(JsonValue value) {
        ArrayValue array = (ArrayValue) value;
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((NumberValue) array.get(i)).value();
        }
        return out;
    }

    /** A JSON array of arrays of numbers as rows. */
    static double[][] matrix(JsonValue value) {
        ArrayValue rows = (ArrayValue) value;
        double[][] out = new double[rows.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = vector(rows.get(i));
        }
        return out;
    }

    private static void assertPose(JsonValue pose, double[] position, double[][] rotation) {
        ObjectValue p = (ObjectValue) pose;
        assertEquals(List.of("position", "rotation"), List.copyOf(p.members().keySet()));
        double[] got = vector(p.get("position"));
        assertEquals(3, got.length);
        for (int i = 0; i < 3; i++) {
            assertClose(position[i], got[i], "position");
        }
        double[][] r = matrix(p.get("rotation"));
        assertEquals(3, r.length);
        for (int i = 0; i < 3; i++) {
            assertEquals(3, r[i].length);
            for (int j = 0; j < 3; j++) {
                assertClose(rotation[i][j], r[i][j], "rotation");
            }
        }
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, 1e-12 * Math.max(1, Math.abs(expected)), what);
    }

    private static void assertBits(double expected, double actual, String what) {
        assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(actual),
                what + ": expected " + expected + " but the output says " + actual);
    }

    private static void assertBits(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            assertBits(expected[i], actual[i], what + "[" + i + "]");
        }
    }
}
