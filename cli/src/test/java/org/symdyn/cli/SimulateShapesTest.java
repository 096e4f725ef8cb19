package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;

/**
 * {@code symdyn simulate} with collision shapes on both backends: a box resting on a table link carries its weight
 * through shape contacts written with their names and normals, a Lidar reads the distance to the table, and shapes
 * that overlap in the initial state are left out of contact with a warning naming the no_contact line; the same with
 * {@code --system continuous}, and a drop's impact reported there.
 */
class SimulateShapesTest extends FileWritingTest {
    /** A table link fixed to the world, a free 0.2 m box resting on it, a Lidar on the box looking down. */
    static final String TABLE = String.join("\n",
            "<?xml version=\"1.0\"?>",
            "<robot name=\"table_box\" xmlns:symdyn=\"urn:symdyn:1\">",
            "  <link name=\"world\"/>",
            "  <link name=\"table\"><collision><origin xyz=\"0 0 -0.05\"/>",
            "    <geometry><box size=\"1 1 0.1\"/></geometry><symdyn:contact friction=\"0.6\"/></collision></link>",
            "  <joint name=\"fix\" type=\"fixed\"><parent link=\"world\"/><child link=\"table\"/></joint>",
            "  <link name=\"box\">",
            "    <inertial><mass value=\"2\"/>",
            "      <inertia ixx=\"0.0133333\" iyy=\"0.0133333\" izz=\"0.0133333\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>",
            "    </inertial>",
            "    <collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision>",
            "  </link>",
            "  <joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"box\"/></joint>",
            "  <symdyn:lidar name=\"down\" link=\"box\" xyz=\"0 0 0\" rpy=\"0 1.5707963267948966 0\" samples=\"1\""
                    + " min_angle=\"0\" max_angle=\"0\" range_min=\"0.01\" range_max=\"5\"/>",
            "</robot>", "");

    @Test
    void aBoxOnATableLinkCarriesItsWeightOnBothBackendsAndItsLidarSeesTheTable()
            throws IOException, JsonException {
        Path model = write("table_box.urdf", TABLE);
        Path state = write("rest.json", "{\"q\": [0, 0, 0.1, 0, 0, 0, 1]}\n");
        double[][] last = new double[2][];
        String[] backends = {"generic", "generated"};
        for (int b = 0; b < 2; b++) {
            Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                    "0.2", "--step", "0.001", "--every", "50", "--backend", backends[b]);
            assertEquals(0, r.exitCode(), r.err());
            ObjectValue json = (ObjectValue) r.json();
            ArrayValue contacts = (ArrayValue) json.get("contacts");
            ArrayValue step = (ArrayValue) contacts.get(contacts.size() - 1);
            assertEquals(4, step.size(), "the box's four bottom corners on the table");
            double normal = 0;
            for (JsonValue c : step.elements()) {
                ObjectValue contact = (ObjectValue) c;
                assertEquals("box/collision0", ((JsonValue.StringValue) contact.get("name")).value());
                assertEquals("table/collision0", ((JsonValue.StringValue) contact.get("other")).value());
                double[] n = SimulateCommandTest.numbers(contact.get("normal"));
                assertEquals(1, n[2], 1e-12, "the normal points up, out of the table");
                normal += SimulateCommandTest.number(contact.get("normal_impulse"));
            }
            assertEquals(2 * 9.81 * 0.001, normal, 1e-9 * 2 * 9.81 * 0.001, "the impulses carry m g h");
            ArrayValue q = (ArrayValue) json.get("q");
            last[b] = SimulateCommandTest.numbers(q.get(q.size() - 1));
            assertEquals(0.1, last[b][2], 1e-9, "at rest on the table");
            ArrayValue down = (ArrayValue) ((ObjectValue) json.get("sensors")).get("down");
            double range = SimulateCommandTest.numbers(down.get(down.size() - 1))[0];
            assertEquals(0.1, range, 1e-9, "the Lidar at the box's centre looks down 0.1 m to the table top");
        }
        for (int i = 0; i < last[0].length; i++) {
            assertEquals(last[0][i], last[1][i], 1e-9, "both backends, q[" + i + "]");
        }
    }

    /**
     * {@code --max-contacts}: a bound of 2 drops two of the box's four corners each step and the run says so, naming
     * the bound and the option (the box then tips off its supported edge); the default (four per pair) drops none.
     */
    @Test
    void maxContactsBoundsTheShapeContactsAndTheWarningNamesIt() throws IOException {
        Path model = write("table_box.urdf", TABLE);
        Path state = write("rest.json", "{\"q\": [0, 0, 0.1, 0, 0, 0, 1]}\n");
        Result bounded = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.01", "--step", "0.001", "--max-contacts", "2");
        assertEquals(0, bounded.exitCode(), bounded.err());
        assertTrue(bounded.err().contains("20 contacts between collision shapes were dropped over the run: a step"
                + " found more than the bound of 2 shape contacts per step; the simulation missed them (raise the"
                + " bound with --max-contacts)"), bounded.err());
        Result free = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.01", "--step", "0.001");
        assertEquals(0, free.exitCode(), free.err());
        assertEquals("", free.err());
        Result bad = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.01", "--step", "0.001", "--max-contacts", "-3");
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().startsWith("symdyn: --max-contacts must be a number of contacts from 0 to 1024, not -3"),
                bad.err());
        Result huge = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.01", "--step", "0.001", "--max-contacts", "100000000");
        assertEquals(2, huge.exitCode(), huge.err());
        Result most = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.01", "--step", "0.001", "--max-contacts", "1024");
        assertEquals(0, most.exitCode(), most.err());
    }

    /**
     * The contact-solve options: the box started 10 µm into the table (its overlap kept) ends 0.1 µm deep with
     * {@code --penetration-slop 1e-7} and at the surface without it (penetration recovery β = 0.2 per step: 0.8²⁰⁰ of
     * the depth is left after 0.2 s), projected Gauss-Seidel to 1e-6 m/s converging within its 50 sweeps; bad values
     * are usage errors (exit 2) naming the option.
     */
    @Test
    void theContactSolveOptionsReachTheSolve() throws IOException, JsonException {
        Path model = write("table_box.urdf", TABLE);
        Path state = write("deep.json", "{\"q\": [0, 0, " + (0.1 - 1e-5) + ", 0, 0, 0, 1]}\n");
        String[][] runs = {{"--penetration-slop", "1e-7"}, {"--penetration-slop", "0"}};
        double[] expected = {0.1 - 1e-7, 0.1};
        for (int k = 0; k < runs.length; k++) {
            Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                    "0.2", "--step", "0.001", "--every", "200", "--keep-initial-overlaps", "--solver", "pgs",
                    "--tolerance", "1e-6", "--max-iterations", "50", runs[k][0], runs[k][1]);
            assertEquals(0, r.exitCode(), r.err());
            ObjectValue json = (ObjectValue) r.json();
            ObjectValue solver = (ObjectValue) json.get("solver");
            assertTrue(((JsonValue.BooleanValue) solver.get("converged")).value(), solver.toString());
            assertTrue(SimulateCommandTest.number(solver.get("max_iterations")) <= 50, solver.toString());
            ArrayValue q = (ArrayValue) json.get("q");
            // each solve may leave 1e-6 m/s, which recovery at β = 0.2 holds to 1e-6 h / β = 5e-9 m
            assertEquals(expected[k], SimulateCommandTest.numbers(q.get(q.size() - 1))[2], 1e-8, runs[k][1]);
        }
        String[][] bad = {{"--solver", "lemke", "--solver must be admm or pgs"},
            {"--tolerance", "0", "--tolerance: "}, {"--max-iterations", "0", "--max-iterations: "},
            {"--penetration-slop", "-1", "--penetration-slop: "}};
        for (String[] b : bad) {
            Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                    "0.01", "--step", "0.001", b[0], b[1]);
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().contains(b[2]), r.err());
        }
    }

    /**
     * Shapes of one mechanism (here a box on a slider from the world, which the table is fixed to) that overlap in the
     * initial state are left out of contact with a warning; a free box sunk into the table keeps its contact and is
     * pushed out (it fell through the table when that pair was left out too).
     */
    @Test
    void shapesOverlappingInTheInitialStateAreLeftOutWithAWarning() throws IOException, JsonException {
        Path slider = write("table_slider.urdf", TABLE.replace("<joint name=\"free\" type=\"floating\">",
                "<joint name=\"lift\" type=\"prismatic\"><axis xyz=\"0 0 1\"/>"
                        + "<limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"10\"/>"));
        Path height = write("sunk_slider.json", "{\"q\": [0.05]}\n");
        Result r = SymDynCliTest.run("simulate", slider.toString(), "--initial", height.toString(), "--duration",
                "0.01", "--step", "0.001");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("collision shapes 'table/collision0' and 'box/collision0' overlap in the initial"
                + " state: left out of contact with each other (add <symdyn:no_contact link1=\"table\""
                + " link2=\"box\"/>"), r.err());
        Result kept = SymDynCliTest.run("simulate", slider.toString(), "--initial", height.toString(), "--duration",
                "0.01", "--step", "0.001", "--keep-initial-overlaps");
        assertEquals(0, kept.exitCode(), kept.err());
        assertTrue(!kept.err().contains("overlap in the initial state"), kept.err());
        ArrayValue contacts = (ArrayValue) ((ObjectValue) kept.json()).get("contacts");
        assertTrue(((ArrayValue) contacts.get(1)).size() > 0, "kept: the sunk box is pushed out of the table");

        Path model = write("table_box.urdf", TABLE);
        Path state = write("sunk.json", "{\"q\": [0, 0, 0.05, 0, 0, 0, 1]}\n");
        Result free = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                "0.1", "--step", "0.001");
        assertEquals(0, free.exitCode(), free.err());
        assertTrue(!free.err().contains("overlap in the initial state"), free.err());
        ArrayValue q = (ArrayValue) ((ObjectValue) free.json()).get("q");
        double z = SimulateCommandTest.numbers(q.get(q.size() - 1))[2];
        assertTrue(z > 0.05, "the free box is pushed out of the table, not through it: z " + z);
    }

    /**
     * {@code --system continuous} with collision shapes (it refused them before issue 31): at rest the box's four
     * corners are listed closed with impulses m g h between them, on both backends; dropped from 5 cm, the impact is
     * located at √(2 d / g) and its impulse m √(2 g d) is reported on the box's contacts in the step it happened.
     */
    @Test
    void theContinuousSystemCarriesTheBoxOnShapeContactsAndReportsItsImpact() throws IOException, JsonException {
        Path model = write("table_box.urdf", TABLE);
        Path state = write("rest.json", "{\"q\": [0, 0, 0.1, 0, 0, 0, 1]}\n");
        double m = 2, g = 9.81, h = 0.001;
        for (String backend : new String[] {"generic", "generated"}) {
            Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", state.toString(), "--duration",
                    "0.2", "--step", "0.001", "--every", "50", "--backend", backend, "--system", "continuous");
            assertEquals(0, r.exitCode(), r.err());
            ObjectValue json = (ObjectValue) r.json();
            ArrayValue contacts = (ArrayValue) json.get("contacts");
            ArrayValue step = (ArrayValue) contacts.get(contacts.size() - 1);
            assertEquals(4, step.size(), backend + ": the box's four bottom corners on the table");
            double normal = 0;
            for (JsonValue c : step.elements()) {
                ObjectValue contact = (ObjectValue) c;
                assertEquals("box/collision0", ((JsonValue.StringValue) contact.get("name")).value());
                assertEquals("table/collision0", ((JsonValue.StringValue) contact.get("other")).value());
                assertEquals(1, SimulateCommandTest.numbers(contact.get("normal"))[2], 1e-12);
                normal += SimulateCommandTest.number(contact.get("normal_impulse"));
            }
            assertEquals(m * g * h, normal, 1e-9 * m * g * h, backend + ": the impulses carry m g h");
            ArrayValue q = (ArrayValue) json.get("q");
            assertEquals(0.1, SimulateCommandTest.numbers(q.get(q.size() - 1))[2], 1e-9, "at rest on the table");
        }
        double d = 0.05;
        Path high = write("high.json", "{\"q\": [0, 0, " + (0.1 + d) + ", 0, 0, 0, 1]}\n");
        Result r = SymDynCliTest.run("simulate", model.toString(), "--initial", high.toString(), "--duration", "0.2",
                "--step", "0.001", "--system", "continuous");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        ArrayValue contacts = (ArrayValue) json.get("contacts");
        int impactStep = (int) Math.ceil(Math.sqrt(2 * d / g) / h); // the step during which the box lands
        double normal = 0;
        for (JsonValue c : ((ArrayValue) contacts.get(impactStep)).elements()) {
            normal += SimulateCommandTest.number(((ObjectValue) c).get("normal_impulse"));
        }
        // the impact's impulse, and the force after it times h (which the part of the step before it did not carry)
        assertEquals(m * Math.sqrt(2 * g * d), normal, 1.01 * m * g * h, "the impact's impulse m √(2 g d)");
        assertEquals(0, ((ArrayValue) contacts.get(impactStep - 1)).size(), "nothing touches before");
        ArrayValue q = (ArrayValue) json.get("q");
        assertEquals(0.1, SimulateCommandTest.numbers(q.get(q.size() - 1))[2], 1e-9, "landed and at rest");
        assertEquals(1, SimulateCommandTest.number(((ObjectValue) json.get("solver")).get("impacts")), 0);
    }
}
