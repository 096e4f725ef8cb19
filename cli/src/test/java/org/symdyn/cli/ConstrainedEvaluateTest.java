package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NullValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;
import org.symdyn.testing.SharedFiles;
import org.symdyn.testing.TestJson;

/**
 * {@code symdyn evaluate} on constrained models: the four-bar and the planar leg of shared/reference/README.md,
 * written as URDF files with SymDyn's extension elements, against RBDL's values (cross-checked with Simbody) at the
 * README's 1e-9 relative tolerance for constrained quantities; Baumgarte from the model file; both backends; refused
 * solves of redundant rows; the new states-file keys.
 */
class ConstrainedEvaluateTest {
    private static final double TOL = 1e-9;
    /** Worst relative error per quantity over the reference comparisons (printed for the report). */
    private static final Map<String, Double> WORST = new TreeMap<>();

    private static final List<String> METHODS = List.of("direct", "range_space", "null_space", "recursive");
    /**
     * RBDL's key of each method's results in the reference files. RBDL has no recursive method: it solves the same
     * system, so it is held to RBDL's direct results.
     */
    private static final Map<String, String> RBDL = Map.of("direct", "direct", "range_space", "range_space_sparse",
            "null_space", "null_space", "recursive", "direct");

    private static final List<String> UNCONSTRAINED_KEYS = List.of("H", "C", "g", "qdd", "tau_id", "body_poses",
            "body_jacobians", "points");
    private static final List<String> CONSTRAINED_KEYS = List.of("G", "gamma", "phi", "phidot", "qdd_direct",
            "lambda_direct", "qdd_range_space", "lambda_range_space", "qdd_null_space", "lambda_null_space",
            "qdd_recursive", "lambda_recursive", "v_plus_direct", "impulse_direct", "v_plus_range_space",
            "impulse_range_space", "v_plus_null_space", "impulse_null_space", "v_plus_recursive",
            "impulse_recursive");

    @TempDir
    Path dir;

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf("worst relative error %-40s %.2e%n", k, v));
    }

    // ------------------------------------------------------------------ models

    /** A slender rod along x: com (l/2, 0, 0), inertia about the com diag(0.001 m, m l²/12, m l²/12). */
    private static String rod(String name, double m, double l) {
        double i = m * l * l / 12;
        return "  <link name=\"" + name + "\"><inertial><origin xyz=\"" + l / 2 + " 0 0\"/><mass value=\"" + m
                + "\"/><inertia ixx=\"" + 0.001 * m + "\" ixy=\"0\" ixz=\"0\" iyy=\"" + i + "\" iyz=\"0\" izz=\"" + i
                + "\"/></inertial></link>";
    }

    private static String revoluteZ(String name, String parent, String child, String xyz) {
        return "  <joint name=\"" + name + "\" type=\"continuous\"><parent link=\"" + parent + "\"/><child link=\""
                + child + "\"/><origin xyz=\"" + xyz + "\"/><axis xyz=\"0 0 1\"/></joint>";
    }

    /**
     * The four-bar: crank a = 1 (m 1), coupler b = 2 (m 2), rocker c = 1.5 (m 1.5), ground d = 2; the loop holds
     * the rocker's (1.5, 0, 0) on the ground's (2, 0, 0) along the given axes (x and y), with the given Baumgarte
     * attribute (empty for none).
     */
    private Path fourBar(String file, String loopAttributes, String... axes) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "<?xml version=\"1.0\"?>",
                "<robot name=\"fourbar\" xmlns:symdyn=\"urn:symdyn:1\">",
                "  <symdyn:gravity xyz=\"0 -9.81 0\"/>",
                "  <link name=\"ground\"/>",
                rod("crank", 1, 1),
                rod("coupler", 2, 2),
                rod("rocker", 1.5, 1.5),
                revoluteZ("crank_joint", "ground", "crank", "0 0 0"),
                revoluteZ("coupler_joint", "crank", "coupler", "1 0 0"),
                revoluteZ("rocker_joint", "coupler", "rocker", "2 0 0"),
                "  <symdyn:loop name=\"closure\"" + loopAttributes + ">",
                "    <symdyn:predecessor link=\"ground\" xyz=\"2 0 0\"/>",
                "    <symdyn:successor link=\"rocker\" xyz=\"1.5 0 0\"/>"));
        for (String axis : axes) {
            lines.add("    <symdyn:axis value=\"" + axis + "\"/>");
        }
        lines.add("  </symdyn:loop>");
        lines.add("</robot>");
        return write(file, lines);
    }

    private Path fourBar() throws IOException {
        return fourBar("fourbar.urdf", "", "0 0 0 1 0 0", "0 0 0 0 1 0");
    }

    private static String inertial(double m, String com, double ixx, double iyy, double izz) {
        return "<inertial><origin xyz=\"" + com + "\"/><mass value=\"" + m + "\"/><inertia ixx=\"" + ixx
                + "\" ixy=\"0\" ixz=\"0\" iyy=\"" + iyy + "\" iyz=\"0\" izz=\"" + izz + "\"/></inertial>";
    }

    /**
     * The planar leg: trunk (m 10, com 0, diag(0.12, 0.1, 0.2)) on a planar joint (x, y, θ about z) to the world;
     * thigh (m 2, com (0, -0.2, 0), diag(0.03, 0.002, 0.03)) at trunk (0, -0.1, 0), shank (m 1, com (0, -0.2, 0),
     * diag(0.015, 0.001, 0.015)) at thigh (0, -0.4, 0), revolute z; the foot (0, -0.4, 0) on the shank held along
     * world x and y by two contacts.
     */
    private Path planarLeg() throws IOException {
        return write("planar_leg.urdf", List.of(
                "<?xml version=\"1.0\"?>",
                "<robot name=\"planar_leg\" xmlns:symdyn=\"urn:symdyn:1\">",
                "  <symdyn:gravity xyz=\"0 -9.81 0\"/>",
                "  <link name=\"world\"/>",
                "  <link name=\"trunk\">" + inertial(10, "0 0 0", 0.12, 0.1, 0.2) + "</link>",
                "  <link name=\"thigh\">" + inertial(2, "0 -0.2 0", 0.03, 0.002, 0.03) + "</link>",
                "  <link name=\"shank\">" + inertial(1, "0 -0.2 0", 0.015, 0.001, 0.015) + "</link>",
                "  <joint name=\"base\" type=\"planar\"><parent link=\"world\"/><child link=\"trunk\"/>"
                        + "<axis xyz=\"0 0 1\"/></joint>",
                revoluteZ("hip", "trunk", "thigh", "0 -0.1 0"),
                revoluteZ("knee", "thigh", "shank", "0 -0.4 0"),
                "  <symdyn:contact name=\"foot_x\" link=\"shank\" point=\"0 -0.4 0\" normal=\"1 0 0\"/>",
                "  <symdyn:contact name=\"foot_y\" link=\"shank\" point=\"0 -0.4 0\" normal=\"0 1 0\"/>",
                "</robot>"));
    }

    private Path write(String name, List<String> lines) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    // ------------------------------------------------------------------ states

    /** One state of a states file: its JSON members, written with round-trip doubles. */
    private static final class StateText {
        private final StringBuilder sb = new StringBuilder("{");

        StateText put(String key, double[] values) {
            sb.append(sb.length() > 1 ? ", " : "").append('"').append(key).append("\": ")
                    .append(SymDynCliTest.list(values));
            return this;
        }

        @Override
        public String toString() {
            return sb + "}";
        }
    }

    private Path states(String name, List<StateText> states) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("{\"states\": [");
        for (int i = 0; i < states.size(); i++) {
            lines.add("  " + states.get(i) + (i + 1 < states.size() ? "," : ""));
        }
        lines.add("]}");
        return write(name, lines);
    }

    private static List<ObjectValue> results(Result r) throws JsonException {
        assertEquals(0, r.exitCode(), r.err());
        List<ObjectValue> out = new ArrayList<>();
        for (JsonValue v : ((ArrayValue) ((ObjectValue) r.json()).get("results")).elements()) {
            out.add((ObjectValue) v);
        }
        return out;
    }

    // ------------------------------------------------------------------ comparisons

    /** The rows of a matrix, concatenated. */
    private static double[] flatten(JsonValue rows) {
        List<Double> out = new ArrayList<>();
        for (JsonValue row : ((ArrayValue) rows).elements()) {
            for (double x : SymDynCliTest.vector(row)) {
                out.add(x);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double[] flattenReference(Object rows) {
        double[][] m = TestJson.matrix(rows);
        return Arrays.stream(m).flatMapToDouble(Arrays::stream).toArray();
    }

    /**
     * max |expected - actual| / max |expected|, at most {@link #TOL}; a reference that is zero up to rounding
     * (max below 1e-6, as φ and φ̇ at a closed configuration) is compared relative to 1.
     */
    private static void check(String quantity, double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length, quantity + " length");
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            diff = Math.max(diff, Math.abs(expected[i] - actual[i]));
        }
        double rel = diff / (scale < 1e-6 ? 1 : scale);
        WORST.merge(quantity, rel, Math::max);
        assertTrue(rel <= TOL, quantity + ": relative error " + rel + "\n expected " + Arrays.toString(expected)
                + "\n actual   " + Arrays.toString(actual));
    }

    private static void check(String quantity, Object expected, JsonValue actual) {
        check(quantity, TestJson.vector(expected), SymDynCliTest.vector(actual));
    }

    private static Map<String, Object> map(Object o) {
        return TestJson.object(o);
    }

    // ------------------------------------------------------------------ four-bar

    /**
     * Per reference sample three states: the consistent state (q, q̇, τ) with the assembly inputs (q_init and
     * weights of the position assembly, v_init of the velocity assembly, both at that q); the impulse state (q,
     * v⁻, τ); the inconsistent state (Baumgarte off). Every constrained key against RBDL.
     */
    @Test
    void fourBarMatchesTheReference() throws Exception {
        Map<String, Object> ref = map(TestJson.parse(SharedFiles.require("reference/fourbar.json")));
        List<Object> samples = TestJson.list(ref.get("samples"));
        List<StateText> states = new ArrayList<>();
        for (Object o : samples) {
            Map<String, Object> s = map(o);
            Map<String, Object> cs = map(s.get("consistent_state"));
            Map<String, Object> aq = map(s.get("assembly_q"));
            Map<String, Object> av = map(s.get("assembly_qdot"));
            assertEquals(1e-12, (Double) aq.get("tolerance"));
            assertEquals(100.0, (Double) aq.get("max_iter"));
            assertEquals(TestJson.list(cs.get("q")), TestJson.list(av.get("q")), "v_init belongs to the state's q");
            assertEquals(TestJson.list(av.get("weights")), TestJson.list(aq.get("weights")));
            states.add(new StateText().put("q", TestJson.vector(cs.get("q")))
                    .put("v", TestJson.vector(cs.get("qdot"))).put("tau", TestJson.vector(cs.get("tau")))
                    .put("q_init", TestJson.vector(aq.get("q_init")))
                    .put("weights", TestJson.vector(aq.get("weights")))
                    .put("v_init", TestJson.vector(av.get("qdot_init"))));
            states.add(new StateText().put("q", TestJson.vector(cs.get("q")))
                    .put("v", TestJson.vector(cs.get("impulse_qdot_minus")))
                    .put("tau", TestJson.vector(cs.get("tau"))));
            Map<String, Object> in = map(s.get("inconsistent_state"));
            states.add(new StateText().put("q", TestJson.vector(in.get("q"))).put("v", TestJson.vector(in.get("qdot")))
                    .put("tau", TestJson.vector(in.get("tau"))));
        }
        Path statesFile = states("fourbar_states.json", states);
        Result r = SymDynCliTest.run("evaluate", fourBar().toString(), "--states", statesFile.toString());
        assertEquals("", r.err());
        List<ObjectValue> results = results(r);
        assertEquals(3 * samples.size(), results.size());
        for (int k = 0; k < samples.size(); k++) {
            Map<String, Object> s = map(samples.get(k));
            Map<String, Object> cs = map(s.get("consistent_state"));

            ObjectValue consistent = results.get(3 * k);
            List<String> keys = new ArrayList<>(UNCONSTRAINED_KEYS);
            keys.addAll(CONSTRAINED_KEYS);
            keys.add("assembly_q");
            keys.add("assembly_v");
            assertEquals(keys, List.copyOf(consistent.members().keySet()));
            checkTerms("fourbar", cs, consistent);
            checkDynamics("fourbar", cs, consistent);

            Map<String, Object> aq = map(s.get("assembly_q"));
            ObjectValue assembled = (ObjectValue) consistent.get("assembly_q");
            assertEquals(List.of("q", "success", "error"), List.copyOf(assembled.members().keySet()));
            check("fourbar assembly_q.q", aq.get("q_out"), assembled.get("q"));
            assertEquals(JsonValue.of((Boolean) aq.get("success")), assembled.get("success"));
            double error = ((NumberValue) assembled.get("error")).value();
            assertTrue(error >= 0 && error < 1e-12, "assembly error " + error);
            ObjectValue assembledV = (ObjectValue) consistent.get("assembly_v");
            assertEquals(List.of("v"), List.copyOf(assembledV.members().keySet()));
            check("fourbar assembly_v.v", map(s.get("assembly_qdot")).get("qdot_out"), assembledV.get("v"));

            ObjectValue impulse = results.get(3 * k + 1);
            assertEquals(UNCONSTRAINED_KEYS.size() + CONSTRAINED_KEYS.size(), impulse.members().size());
            checkImpulses("fourbar", cs, impulse);

            Map<String, Object> in = map(s.get("inconsistent_state"));
            ObjectValue inconsistent = results.get(3 * k + 2);
            Map<String, Object> off = map(in.get("baumgarte_off"));
            checkTerms("fourbar inconsistent", off, inconsistent);
            checkDynamics("fourbar inconsistent", off, inconsistent);
        }
    }

    /** G, gamma, phi and phidot against a reference state's G, gamma, position_error and velocity_error. */
    private static void checkTerms(String prefix, Map<String, Object> expected, ObjectValue result) {
        check(prefix + " G", flattenReference(expected.get("G")), flatten(result.get("G")));
        assertEquals(TestJson.list(expected.get("G")).size(), ((ArrayValue) result.get("G")).size());
        check(prefix + " gamma", expected.get("gamma"), result.get("gamma"));
        check(prefix + " phi", expected.get("position_error"), result.get("phi"));
        check(prefix + " phidot", expected.get("velocity_error"), result.get("phidot"));
    }

    /** qdd by each method against RBDL's same method, λ by each method against RBDL's direct λ. */
    private static void checkDynamics(String prefix, Map<String, Object> expected, ObjectValue result) {
        Object lambda = map(expected.get("fd_direct")).get("lambda");
        for (String method : METHODS) {
            Map<String, Object> fd = map(expected.get("fd_" + RBDL.get(method)));
            check(prefix + " qdd_" + method, fd.get("qddot"), result.get("qdd_" + method));
            check(prefix + " lambda_" + method, lambda, result.get("lambda_" + method));
        }
    }

    /** v⁺ by each method against RBDL's same method, Λ by each method against RBDL's direct Λ. */
    private static void checkImpulses(String prefix, Map<String, Object> expected, ObjectValue result) {
        assertEquals(List.of(0.0, 0.0), TestJson.list(expected.get("impulse_v_plus")), "targets v+ = 0");
        Object impulse = map(expected.get("impulse_direct")).get("impulse");
        for (String method : METHODS) {
            Map<String, Object> im = map(expected.get("impulse_" + RBDL.get(method)));
            check(prefix + " v_plus_" + method, im.get("qdot_plus"), result.get("v_plus_" + method));
            check(prefix + " impulse_" + method, impulse, result.get("impulse_" + method));
        }
    }

    /** A baumgarte_time_constant of 0.1 s on the loop: gamma and the dynamics of RBDL's stabilised solve. */
    @Test
    void baumgarteFromTheModelFile() throws Exception {
        Map<String, Object> ref = map(TestJson.parse(SharedFiles.require("reference/fourbar.json")));
        Path model = fourBar("stabilised.urdf", " baumgarte_time_constant=\"0.1\"", "0 0 0 1 0 0", "0 0 0 0 1 0");
        List<Object> samples = TestJson.list(ref.get("samples"));
        List<StateText> states = new ArrayList<>();
        for (Object o : samples) {
            Map<String, Object> in = map(map(o).get("inconsistent_state"));
            states.add(new StateText().put("q", TestJson.vector(in.get("q"))).put("v", TestJson.vector(in.get("qdot")))
                    .put("tau", TestJson.vector(in.get("tau"))));
        }
        Path statesFile = states("stabilised_states.json", states);
        for (String backend : List.of("generic", "generated")) {
            Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString(), "--backend",
                    backend);
            assertEquals("", r.err());
            List<ObjectValue> results = results(r);
            for (int k = 0; k < samples.size(); k++) {
                Map<String, Object> on = map(map(map(samples.get(k)).get("inconsistent_state"))
                        .get("baumgarte_on_Tstab_0.1"));
                assertEquals(10.0, (Double) on.get("baumgarte_alpha"));
                checkTerms("fourbar baumgarte " + backend, on, results.get(k));
                checkDynamics("fourbar baumgarte " + backend, on, results.get(k));
            }
        }
    }

    /**
     * The generated backend: G, gamma, qdd_direct and lambda_direct against the reference, and its whole output
     * within 1e-9 of the generic backend's.
     */
    @Test
    void theGeneratedBackendMatchesTheReference() throws Exception {
        Map<String, Object> ref = map(TestJson.parse(SharedFiles.require("reference/fourbar.json")));
        List<Object> samples = TestJson.list(ref.get("samples"));
        List<StateText> states = new ArrayList<>();
        for (Object o : samples) {
            Map<String, Object> s = map(o);
            Map<String, Object> cs = map(s.get("consistent_state"));
            states.add(new StateText().put("q", TestJson.vector(cs.get("q")))
                    .put("v", TestJson.vector(cs.get("qdot"))).put("tau", TestJson.vector(cs.get("tau")))
                    .put("q_init", TestJson.vector(map(s.get("assembly_q")).get("q_init")))
                    .put("v_init", TestJson.vector(map(s.get("assembly_qdot")).get("qdot_init"))));
        }
        Path model = fourBar();
        Path statesFile = states("generated_states.json", states);
        Result generated = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString(),
                "--backend", "generated");
        assertEquals("", generated.err());
        List<ObjectValue> results = results(generated);
        for (int k = 0; k < samples.size(); k++) {
            Map<String, Object> s = map(samples.get(k));
            Map<String, Object> cs = map(s.get("consistent_state"));
            ObjectValue result = results.get(k);
            check("fourbar generated G", flattenReference(cs.get("G")), flatten(result.get("G")));
            check("fourbar generated gamma", cs.get("gamma"), result.get("gamma"));
            Map<String, Object> fd = map(cs.get("fd_direct"));
            check("fourbar generated qdd_direct", fd.get("qddot"), result.get("qdd_direct"));
            check("fourbar generated lambda_direct", fd.get("lambda"), result.get("lambda_direct"));
            check("fourbar generated assembly_q.q", map(s.get("assembly_q")).get("q_out"),
                    ((ObjectValue) result.get("assembly_q")).get("q"));
        }
        Result generic = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString());
        SymDynCliTest.assertJsonClose(generic.json(), generated.json(), TOL, "");
    }

    /**
     * The recursive keys on the generic backend come from the method without H (their agreement with RBDL's direct
     * results above would hold as well if they silently came from the direct method).
     */
    @Test
    void theGenericBackendRunsTheRecursiveMethod() throws Exception {
        org.symdyn.model.Model model = org.symdyn.io.urdf.UrdfReader.read(fourBar());
        assertTrue(new ConstrainedEvaluation(model, new org.symdyn.constraints.GenericModel(model), false)
                .recursiveWithoutH());
    }

    // ------------------------------------------------------------------ planar leg

    /** Per sample: the state (q, q̇, τ) with v_init and weights of the velocity assembly, and the impulse state. */
    @Test
    void planarLegMatchesTheReference() throws Exception {
        Map<String, Object> ref = map(TestJson.parse(SharedFiles.require("reference/planar_leg_contact.json")));
        List<Object> samples = TestJson.list(ref.get("samples"));
        List<StateText> states = new ArrayList<>();
        for (Object o : samples) {
            Map<String, Object> s = map(o);
            Map<String, Object> av = map(s.get("assembly_qdot"));
            states.add(new StateText().put("q", TestJson.vector(s.get("q"))).put("v", TestJson.vector(s.get("qdot")))
                    .put("tau", TestJson.vector(s.get("tau"))).put("v_init", TestJson.vector(av.get("qdot_init")))
                    .put("weights", TestJson.vector(av.get("weights"))));
            states.add(new StateText().put("q", TestJson.vector(s.get("q")))
                    .put("v", TestJson.vector(s.get("impulse_qdot_minus"))).put("tau", TestJson.vector(s.get("tau"))));
        }
        Path model = planarLeg();
        Path statesFile = states("leg_states.json", states);
        Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString());
        assertEquals("", r.err());
        List<ObjectValue> results = results(r);
        for (int k = 0; k < samples.size(); k++) {
            Map<String, Object> s = map(samples.get(k));
            ObjectValue state = results.get(2 * k);
            List<String> keys = new ArrayList<>(UNCONSTRAINED_KEYS);
            keys.addAll(CONSTRAINED_KEYS);
            keys.add("assembly_v");
            assertEquals(keys, List.copyOf(state.members().keySet()));
            checkTerms("leg", s, state);
            checkDynamics("leg", s, state);
            check("leg assembly_v.v", map(s.get("assembly_qdot")).get("qdot_out"),
                    ((ObjectValue) state.get("assembly_v")).get("v"));
            checkImpulses("leg", s, results.get(2 * k + 1));
        }
        Result generated = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString(),
                "--backend", "generated");
        assertEquals("", generated.err());
        SymDynCliTest.assertJsonClose(r.json(), generated.json(), TOL, "");
    }

    // ------------------------------------------------------------------ refused solves, states, other models

    /**
     * A third loop axis in the plane of the other two makes the rows dependent at every state: the run goes on,
     * every solve's keys are null, constraint_errors and a warning per state name the rows; G, gamma, phi and
     * phidot are still printed.
     */
    @Test
    void redundantRowsGiveNullsAndAWarningNamingTheRows() throws Exception {
        Path model = fourBar("redundant.urdf", "", "0 0 0 1 0 0", "0 0 0 0 1 0", "0 0 0 1 1 0");
        Path statesFile = write("redundant_states.json", List.of("{\"states\": [",
                "  {\"q\": [-0.6, 1.9, -2.4], \"v\": [0.9, -1.2, -0.5], \"q_init\": [-0.5, 1.9, -2.3],",
                "   \"v_init\": [0.1, -1.4, -1.5]},",
                "  {\"q\": [0.3, 1.5, -2.0]}",
                "]}"));
        for (String backend : List.of("generic", "generated")) {
            Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString(),
                    "--backend", backend);
            List<ObjectValue> results = results(r);
            assertEquals(2, results.size());
            List<String> lines = r.errLines();
            assertEquals(2, lines.size(), r.err());
            for (int i = 0; i < 2; i++) {
                ObjectValue result = results.get(i);
                assertEquals(3, ((ArrayValue) result.get("G")).size());
                assertEquals(3, SymDynCliTest.vector(result.get("phi")).length);
                for (String key : CONSTRAINED_KEYS.subList(4, CONSTRAINED_KEYS.size())) {
                    assertTrue(result.get(key) instanceof NullValue, key);
                }
                ArrayValue errors = (ArrayValue) result.get("constraint_errors");
                assertEquals(1, errors.size(), errors.toString());
                ObjectValue error = (ObjectValue) errors.get(0);
                List<String> keys = new ArrayList<>(CONSTRAINED_KEYS.subList(4, CONSTRAINED_KEYS.size()));
                if (i == 0) {
                    assertTrue(result.get("assembly_q") instanceof NullValue);
                    assertTrue(result.get("assembly_v") instanceof NullValue);
                    keys.add("assembly_q");
                    keys.add("assembly_v");
                } else {
                    assertNull(result.get("assembly_q"));
                }
                assertEquals(JsonValue.strings(keys), error.get("keys"));
                List<String> rows = new ArrayList<>();
                for (JsonValue row : ((ArrayValue) error.get("rows")).elements()) {
                    rows.add(((StringValue) row).value());
                }
                assertEquals(List.of("closure[0]", "closure[1]", "closure[2]"), rows.stream().sorted().toList());
                String message = ((StringValue) error.get("message")).value();
                assertTrue(message.startsWith("constraint rows are linearly dependent (rank 2 of 3 rows"), message);
                assertFalse(message.contains("RankPolicy"), message);
                String line = lines.get(i);
                assertTrue(line.startsWith(statesFile + ":[" + (i == 0 ? 2 : 4) + ",3] warning: state " + i + ": "
                        + message + " (qdd_direct, lambda_direct, "), line);
                assertTrue(line.contains("'closure[2]'") && line.contains("'closure[0]'"), line);
                assertTrue(line.endsWith(i == 0 ? "assembly_q, assembly_v set to null)"
                        : "impulse_recursive set to null)"), line);
            }
        }
    }

    /**
     * Position assembly with weights: a heavy weight keeps its coordinate. From the straight configuration q = 0
     * the x row of G is zero (a singular configuration): that assembly is refused, the rest of the state is not.
     */
    @Test
    void assemblyWeightsAndASingularGuess() throws Exception {
        Path statesFile = write("far.json", List.of("{\"states\": [",
                "  {\"q\": [-0.6, 1.9, -2.4], \"q_init\": [-0.5, 1.9, -2.3], \"weights\": [1000000, 1, 1]},",
                "  {\"q\": [-0.6, 1.9, -2.4], \"q_init\": [0, 0, 0]}",
                "]}"));
        Result r = SymDynCliTest.run("evaluate", fourBar().toString(), "--states", statesFile.toString());
        List<ObjectValue> results = results(r);
        ObjectValue heavy = (ObjectValue) results.get(0).get("assembly_q");
        assertEquals(JsonValue.of(true), heavy.get("success"));
        double[] q = SymDynCliTest.vector(heavy.get("q"));
        assertTrue(Math.abs(q[0] + 0.5) < 1e-4 * Math.abs(q[1] - 1.9), Arrays.toString(q));
        assertTrue(((NumberValue) heavy.get("error")).value() < 1e-12);
        assertNull(results.get(0).get("constraint_errors"));

        ObjectValue straight = results.get(1);
        assertTrue(straight.get("assembly_q") instanceof NullValue);
        assertTrue(straight.get("qdd_direct") instanceof ArrayValue);
        ObjectValue error = (ObjectValue) ((ArrayValue) straight.get("constraint_errors")).get(0);
        assertEquals(JsonValue.strings(List.of("assembly_q")), error.get("keys"));
        assertEquals(JsonValue.strings(List.of("closure[0]")), error.get("rows"));
        assertEquals(List.of(statesFile + ":[3,3] warning: state 1: constraint rows are linearly dependent (rank 1"
                + " of 2 rows, relative tolerance 1.0e-10): 'closure[0]' is zero (it constrains nothing at this"
                + " state). The rows are redundant, or the configuration is singular for them."
                + " (assembly_q set to null)"), r.errLines());
    }

    @Test
    void theNewStateKeysAreCheckedLikeTheOthers() throws IOException {
        Path model = fourBar();
        Path statesFile = write("bad.json", List.of("{\"states\": [",
                "  {\"q\": [0, 0, 0], \"q_init\": [0, 0], \"v_init\": [1, 2, \"x\"], \"weights\": [1, 0, -2]},",
                "  {\"q\": [0, 0, 0], \"weights\": 1, \"q_init\": null, \"w\": []}",
                "]}"));
        Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", statesFile.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        String p = statesFile.toString();
        assertEquals(List.of(
                p + ":[2,30] state 0: q_init has 2 numbers, expected nq = 3",
                p + ":[2,55] state 0: v_init[2] must be a number, not a string",
                p + ":[2,76] state 0: weights[1] must be positive, not 0",
                p + ":[2,79] state 0: weights[2] must be positive, not -2",
                p + ":[3,31] state 1: weights must be an array of nv = 3 numbers, not a number",
                p + ":[3,44] state 1: q_init must be an array of nq = 3 numbers, not null",
                p + ":[3,55] state 1: unknown key 'w' (expected q, v, tau, a, q_init, v_init, weights,"
                        + " points)"),
                r.errLines());
    }

    @Test
    void aFloatingQInitNeedsANonZeroQuaternion() throws IOException {
        Path model = write("box.urdf", List.of("<robot name=\"box\">",
                "  <link name=\"box\">" + inertial(1, "0 0 0", 0.1, 0.1, 0.1) + "</link>", "</robot>"));
        Path statesFile = write("zero.json", List.of("{\"states\": [",
                "  {\"q\": [0, 0, 0, 0, 0, 0, 1], \"q_init\": [0, 0, 0, 0, 0, 0, 0]}]}"));
        Result r = SymDynCliTest.run("evaluate", "--floating", model.toString(), "--states", statesFile.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals(List.of(statesFile + ":[2,52] state 0: the quaternion q_init[3..6] of joint 'floating_base'"
                + " must be a unit quaternion (x, y, z, w); it is zero"), r.errLines());
    }

    /**
     * Issue 10 item 16: a floating body with a contact at quaternion norms from 1e-300 to 1e300. The generated γ
     * was non-finite below a norm of about 1e-77 ("are the inputs too large?"), and the states reader refused norms
     * below 1e-150 or above 1e150; now every non-zero finite norm evaluates, and both backends print the numbers of
     * the unit quaternion.
     */
    @Test
    void quaternionsOfAnyNonZeroNormEvaluateInBothBackends() throws Exception {
        Path model = write("ball.urdf", List.of("<robot name=\"ball\" xmlns:symdyn=\"urn:symdyn:1\">",
                "  <link name=\"ball\">" + inertial(1, "0.1 0 0", 0.1, 0.2, 0.3) + "</link>",
                "  <symdyn:contact name=\"touch\" link=\"ball\" point=\"0.3 0.2 -0.1\" normal=\"0 0 1\"/>",
                "</robot>"));
        double[] unit = {0.5, -0.1, 0.3, 0.806225774829855};
        List<String> states = new java.util.ArrayList<>();
        for (double scale : new double[] {1, 1e-300, 1e-160, 1e-100, 1e-78, 1e100, 1e300}) {
            states.add("{\"q\": [0.1, 0.2, 0.3, " + unit[0] * scale + ", " + unit[1] * scale + ", " + unit[2] * scale
                    + ", " + unit[3] * scale + "], \"v\": [0.3, -0.2, 0.5, 0.1, 0.2, -0.3]}");
        }
        Path statesFile = write("norms.json", List.of("{\"states\": [" + String.join(",\n", states) + "]}"));
        for (String backend : List.of("generic", "generated")) {
            Result r = SymDynCliTest.run("evaluate", "--floating", model.toString(), "--states", statesFile.toString(),
                    "--backend", backend);
            assertEquals(0, r.exitCode(), backend + ": " + r.err());
            List<ObjectValue> results = results(r);
            assertEquals(states.size(), results.size());
            for (int i = 0; i < results.size(); i++) {
                for (String key : List.of("H", "C", "G", "gamma", "qdd")) {
                    boolean matrix = key.equals("H") || key.equals("G");
                    double[] expected = matrix ? flatten(results.get(0).get(key)) : SymDynCliTest.vector(results.get(0).get(key));
                    double[] actual = matrix ? flatten(results.get(i).get(key)) : SymDynCliTest.vector(results.get(i).get(key));
                    for (int k = 0; k < expected.length; k++) {
                        assertEquals(expected[k], actual[k], 1e-12 * Math.max(1, Math.abs(expected[k])),
                                backend + " state " + i + " " + key + "[" + k + "]");
                    }
                }
            }
        }
    }

    /** A model without constraints: the same keys as before, assembly inputs accepted and ignored. */
    @Test
    void modelsWithoutConstraintsKeepTheirOutput() throws Exception {
        Path model = write("pendulum.urdf", List.of("<robot name=\"pendulum\">", "  <link name=\"base\"/>",
                "  <link name=\"arm\">" + inertial(2, "0 0 -0.4", 0.03, 0.03, 0.01) + "</link>",
                "  <joint name=\"hinge\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/>"
                        + "<axis xyz=\"0 1 0\"/></joint>",
                "</robot>"));
        Path plain = write("plain.json", List.of("{\"states\": [{\"q\": [0.3], \"v\": [1]}]}"));
        Path extra = write("extra.json", List.of(
                "{\"states\": [{\"q\": [0.3], \"v\": [1], \"q_init\": [0.1], \"v_init\": [2], \"weights\": [3]}]}"));
        Result a = SymDynCliTest.run("evaluate", model.toString(), "--states", plain.toString());
        Result b = SymDynCliTest.run("evaluate", model.toString(), "--states", extra.toString());
        assertEquals(UNCONSTRAINED_KEYS, List.copyOf(results(a).get(0).members().keySet()));
        assertEquals(a.out(), b.out());
        assertEquals("", b.err());
    }
}
