package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ConstraintType;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.solvers.ConstrainedDynamicsDerivatives;

/**
 * {@code symdyn evaluate --derivatives} and {@code symdyn generate --derivatives}. Evaluate: the seven keys per state
 * on both backends, with the generic backend's numbers those of {@link GenericModel}'s derivatives (the same calls,
 * bit for bit through JSON's shortest round-trip form) and the generated backend's within 1e-9 of them; the
 * regressor times the model's inertial parameters is the state's tau_id. Models: the samples' slider-crank (a ball
 * joint, constraints) and edge roller (a floating base). Generate: the written class implements
 * {@code DynamicsDerivatives} with the option and not without it, and the report counts the new methods.
 */
class EvaluateDerivativesTest {
    private static final List<String> KEYS = List.of("dtau_dq", "dtau_dv", "dqdd_dq", "dqdd_dv", "Minv",
            "coriolis_matrix", "regressor");

    @TempDir
    Path dir;

    @Test
    void sliderCrank() throws Exception {
        check("slider_crank.urdf");
    }

    @Test
    void edgeRoller() throws Exception {
        check("edge_roller.urdf");
    }

    /**
     * A model with declared parameters also gets "parameter_regressor" (one column per parameter): the generic
     * backend's is GenericModel's bit for bit, the generated backend's within 1e-9; models without parameters do
     * not get the key (checked in {@link #check}).
     */
    @Test
    void aModelWithParametersGetsTheirRegressor() throws Exception {
        Path model = dir.resolve("arm.urdf");
        Files.writeString(model, String.join("\n",
                "<robot name=\"arm\" xmlns:symdyn=\"urn:symdyn:1\">",
                "  <link name=\"world\"/>",
                "  <link name=\"upper\"><inertial><origin xyz=\"0.01 0.02 -0.3\"/><mass value=\"1.5\"/>",
                "    <inertia ixx=\"0.06\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.05\" iyz=\"0.002\" izz=\"0.01\"/>",
                "  </inertial></link>",
                "  <link name=\"fore\"><inertial><origin xyz=\"0 0 -0.2\"/><mass value=\"0.8\"/>",
                "    <inertia ixx=\"0.02\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.002\"/></inertial></link>",
                "  <joint name=\"shoulder\" type=\"revolute\"><parent link=\"world\"/><child link=\"upper\"/>",
                "    <axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>",
                "  <joint name=\"elbow\" type=\"revolute\"><parent link=\"upper\"/><child link=\"fore\"/>",
                "    <origin xyz=\"0.01 0.02 -0.5\"/><axis xyz=\"1 0 0\"/>",
                "    <limit lower=\"-2\" upper=\"2\" effort=\"1\" velocity=\"1\"/></joint>",
                "  <symdyn:parameter name=\"upperMass\" link=\"upper\" field=\"mass\"/>",
                "  <symdyn:parameter name=\"upperComX\" link=\"upper\" field=\"com_x\"/>",
                "  <symdyn:parameter name=\"foreIxx\" link=\"fore\" field=\"ixx\"/>",
                "  <symdyn:parameter name=\"elbowOffset\" joint=\"elbow\" field=\"origin_z\"/>",
                "</robot>", ""), StandardCharsets.UTF_8);
        Model m = UrdfReader.read(model);
        Path states = states(m, new Random(21));
        SymDynCliTest.Result generic = withDerivativesOnBothBackends(model, states, "arm with parameters");
        GenericModel reference = new GenericModel(m);
        List<JsonValue> results = ((ArrayValue) ((ObjectValue) generic.json()).get("results")).elements();
        List<StatesReader.State> read = StatesReader.read(states, m);
        for (int i = 0; i < results.size(); i++) {
            StatesReader.State s = read.get(i);
            DMatrixRMaj yp = new DMatrixRMaj(m.nv(), 4);
            reference.parameterRegressor(s.q(), s.v(), s.a(), yp);
            assertRows(yp, ((ObjectValue) results.get(i)).get("parameter_regressor"), "parameter_regressor");
        }
    }

    @Test
    void derivativesAreForEvaluateAndGenerateOnly() {
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", "m.urdf", "--derivatives");
        assertEquals(2, r.exitCode());
        assertEquals(List.of("symdyn: option --derivatives is only for evaluate and generate",
                "Try 'symdyn inspect --help' for more information."), r.errLines());
        r = SymDynCliTest.run("evaluate", "m.urdf", "--states", "s.json", "--derivatives", "--derivatives");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("symdyn: option --derivatives given twice"), r.err());
        r = SymDynCliTest.run("evaluate", "m.urdf", "--states", "s.json", "--derivatives=yes");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("symdyn: option --derivatives takes no value"), r.err());
    }

    @Test
    void generateWithDerivativesWritesAClassThatImplementsThem() throws Exception {
        Path model = Path.of("..", "samples", "src", "main", "symdyn", "double_pendulum.urdf");
        Path plainDir = dir.resolve("plain");
        Path derivedDir = dir.resolve("derived");
        SymDynCliTest.Result plain = SymDynCliTest.run("generate", model.toString(), "-d", plainDir.toString(),
                "-p", "x.y");
        assertEquals(0, plain.exitCode(), plain.err());
        Path report = dir.resolve("report.json");
        SymDynCliTest.Result derived = SymDynCliTest.run("generate", model.toString(), "-d", derivedDir.toString(),
                "-p", "x.y", "--derivatives", "--report", report.toString());
        assertEquals(0, derived.exitCode(), derived.err());
        String without = Files.readString(plainDir.resolve("x/y/DoublePendulumDynamics.java"));
        String with = Files.readString(derivedDir.resolve("x/y/DoublePendulumDynamics.java"));
        assertFalse(without.contains("DynamicsDerivatives"));
        assertTrue(with.contains("DynamicsDerivatives"));
        assertTrue(with.contains("public void forwardDynamicsDerivatives("));
        ObjectValue operations = (ObjectValue) ((ObjectValue) ((ArrayValue) ((ObjectValue) JsonReader.parse("report",
                Files.readString(report))).get("models")).get(0)).get("operations");
        for (String key : List.of("inverse_dynamics_derivatives", "forward_dynamics_derivatives",
                "inverse_mass_matrix", "coriolis_matrix", "regressor")) {
            assertTrue(operations.members().containsKey(key), key + " in the report's operations");
        }
    }

    @Test
    void aModelPastTheUnrolledSizeGetsLoopedDerivativesOnBothCommandsParametersOrNot() throws Exception {
        // A 45-link chain: derivative size 45 * (1 + ... + 45) = 46,575, past the unrolled derivatives' 40,000: the
        // class loops over its own numbers for them (LoopedDerivatives).
        StringBuilder urdf = new StringBuilder("<robot name=\"long\" xmlns:symdyn=\"urn:symdyn:1\">\n"
                + "<link name=\"world\"/>\n");
        for (int i = 0; i < 45; i++) {
            urdf.append("<link name=\"l").append(i).append("\"><inertial><origin xyz=\"0 0 0.1\"/><mass value=\"1\"/>")
                    .append("<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>")
                    .append("</inertial></link>\n<joint name=\"j").append(i).append("\" type=\"continuous\"><parent link=\"")
                    .append(i == 0 ? "world" : "l" + (i - 1)).append("\"/><child link=\"l").append(i)
                    .append("\"/><origin xyz=\"0 0 0.2\"/><axis xyz=\"0 1 0\"/></joint>\n");
        }
        Path model = dir.resolve("long.urdf");
        Files.writeString(model, urdf + "</robot>\n");
        Model m = UrdfReader.read(model);
        Path states = states(m, new Random(45));

        SymDynCliTest.Result generate = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("out")
                .toString(), "-p", "x", "--derivatives");
        assertEquals(0, generate.exitCode(), generate.err());
        SymDynCliTest.Result evaluate = SymDynCliTest.run("evaluate", model.toString(), "--states",
                states.toString(), "--backend", "generated", "--derivatives");
        assertEquals(0, evaluate.exitCode(), evaluate.err());
        GenericModel reference = new GenericModel(m);
        List<JsonValue> results = ((ArrayValue) ((ObjectValue) evaluate.json()).get("results")).elements();
        List<StatesReader.State> read = StatesReader.read(states, m);
        DMatrixRMaj a = new DMatrixRMaj(45, 45);
        DMatrixRMaj b = new DMatrixRMaj(45, 45);
        for (int i = 0; i < results.size(); i++) {
            reference.inverseDynamicsDerivatives(read.get(i).q(), read.get(i).v(), read.get(i).a(), a, b);
            assertRows(a, ((ObjectValue) results.get(i)).get("dtau_dq"), "dtau_dq");
            assertRows(b, ((ObjectValue) results.get(i)).get("dtau_dv"), "dtau_dv");
        }

        // With a symbolic parameter the looped derivatives follow it: generated (exit 0), and evaluated at the file's
        // value like the model without it.
        Path withParameter = dir.resolve("long_parameter.urdf");
        Files.writeString(withParameter, urdf + "<symdyn:parameter name=\"m3\" link=\"l3\" field=\"mass\"/>\n</robot>\n");
        SymDynCliTest.Result generated = SymDynCliTest.run("generate", withParameter.toString(), "-d",
                dir.resolve("out2").toString(), "-p", "x", "--derivatives");
        assertEquals(0, generated.exitCode(), generated.err());
        assertTrue(Files.exists(dir.resolve("out2").resolve("x").resolve("LongDynamics.java")), "class written");
        SymDynCliTest.Result evaluated = SymDynCliTest.run("evaluate", withParameter.toString(), "--states",
                states.toString(), "--backend", "generated", "--derivatives");
        assertEquals(0, evaluated.exitCode(), evaluated.err());
        List<JsonValue> withResults = ((ArrayValue) ((ObjectValue) evaluated.json()).get("results")).elements();
        for (int i = 0; i < withResults.size(); i++) {
            reference.inverseDynamicsDerivatives(read.get(i).q(), read.get(i).v(), read.get(i).a(), a, b);
            assertRows(a, ((ObjectValue) withResults.get(i)).get("dtau_dq"), "dtau_dq with a parameter");
        }
    }

    private void check(String file) throws Exception {
        Path model = Path.of("..", "samples", "src", "main", "symdyn", file);
        Model m = UrdfReader.read(model);
        Path states = states(m, new Random(file.hashCode()));
        SymDynCliTest.Result plain = SymDynCliTest.run("evaluate", model.toString(), "--states", states.toString());
        assertEquals(0, plain.exitCode(), plain.err());
        for (String key : KEYS) {
            assertFalse(first(plain).members().containsKey(key), key + " without --derivatives");
        }
        SymDynCliTest.Result generic = withDerivativesOnBothBackends(model, states, file);
        assertFalse(first(generic).members().containsKey("parameter_regressor"), "a model without parameters");

        GenericModel reference = new GenericModel(m);
        int nv = m.nv();
        int cols = 10 * m.bodyCount();
        double[] pi = new double[cols];
        reference.inertialParameters(pi);
        List<JsonValue> results = ((ArrayValue) ((ObjectValue) generic.json()).get("results")).elements();
        List<StatesReader.State> read = StatesReader.read(states, m);
        for (int i = 0; i < results.size(); i++) {
            ObjectValue r = (ObjectValue) results.get(i);
            StatesReader.State s = read.get(i);
            DMatrixRMaj a = new DMatrixRMaj(nv, nv);
            DMatrixRMaj b = new DMatrixRMaj(nv, nv);
            DMatrixRMaj c = new DMatrixRMaj(nv, nv);
            reference.inverseDynamicsDerivatives(s.q(), s.v(), s.a(), a, b);
            assertRows(a, r.get("dtau_dq"), "dtau_dq");
            assertRows(b, r.get("dtau_dv"), "dtau_dv");
            reference.forwardDynamicsDerivatives(s.q(), s.v(), s.tau(), a, b, c);
            assertRows(a, r.get("dqdd_dq"), "dqdd_dq");
            assertRows(b, r.get("dqdd_dv"), "dqdd_dv");
            assertRows(c, r.get("Minv"), "Minv");
            reference.coriolisMatrix(s.q(), s.v(), a);
            assertRows(a, r.get("coriolis_matrix"), "coriolis_matrix");
            double[][] y = SymDynCliTest.matrix(r.get("regressor"));
            assertEquals(nv, y.length);
            double[] tauId = SymDynCliTest.vector(r.get("tau_id"));
            for (int k = 0; k < nv; k++) {
                assertEquals(cols, y[k].length);
                double sum = 0;
                double scale = Math.abs(tauId[k]);
                for (int p = 0; p < cols; p++) {
                    sum += y[k][p] * pi[p];
                    scale += Math.abs(y[k][p] * pi[p]);
                }
                assertEquals(tauId[k], sum, 1e-12 * scale, "regressor pi = tau_id, row " + k);
            }
            checkConstrained(m, s, r);
        }
    }

    /**
     * The constrained derivatives: those of ConstrainedDynamicsDerivatives on the generic binding, bit for bit; for
     * line-on-line rows null, with the reason in constraint_errors naming the keys.
     */
    private static void checkConstrained(Model m, StatesReader.State s, ObjectValue r) {
        if (m.constraints().isEmpty()) {
            for (String key : ConstrainedEvaluation.DERIVATIVE_KEYS) {
                assertFalse(r.members().containsKey(key), key + " without constraints");
            }
            return;
        }
        ConstraintSet set = ConstraintSet.of(m);
        boolean supported = set.groups().stream().noneMatch(g -> g.type() == ConstraintType.LINE_ON_LINE);
        if (!supported) {
            for (String key : ConstrainedEvaluation.DERIVATIVE_KEYS) {
                assertTrue(r.get(key) instanceof JsonValue.NullValue, key + " null for line-on-line rows");
            }
            assertTrue(r.get("constraint_errors").toString().contains("dlambda_dtau"), "the keys are named");
            return;
        }
        int nv = m.nv();
        int rows = set.size();
        DMatrixRMaj[] o = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv),
            new DMatrixRMaj(rows, nv), new DMatrixRMaj(rows, nv), new DMatrixRMaj(rows, nv)};
        new ConstrainedDynamicsDerivatives(set.bind(new GenericModel(m))).compute(s.q(), s.v(), s.tau(), o[0], o[1],
                o[2], o[3], o[4], o[5]);
        for (int i = 0; i < o.length; i++) {
            assertRows(o[i], r.get(ConstrainedEvaluation.DERIVATIVE_KEYS.get(i)),
                    ConstrainedEvaluation.DERIVATIVE_KEYS.get(i));
        }
    }

    /** evaluate --derivatives on both backends: both succeed and agree within 1e-9; the generic run's result. */
    private static SymDynCliTest.Result withDerivativesOnBothBackends(Path model, Path states, String what)
            throws Exception {
        SymDynCliTest.Result generic = SymDynCliTest.run("evaluate", model.toString(), "--states", states.toString(),
                "--derivatives");
        assertEquals(0, generic.exitCode(), generic.err());
        SymDynCliTest.Result generated = SymDynCliTest.run("evaluate", model.toString(), "--states",
                states.toString(), "--derivatives", "--backend", "generated");
        assertEquals(0, generated.exitCode(), generated.err());
        ObjectValue first = first(generic);
        if (first.members().get("dlambda_dq") instanceof JsonValue.NullValue) {
            // Rows the runtime does not differentiate (line-on-line): the generated class differentiates its own.
            for (String key : ConstrainedEvaluation.DERIVATIVE_KEYS) {
                assertFalse(first(generated).get(key) instanceof JsonValue.NullValue, key + " from the generated class");
            }
            Set<String> skip = new HashSet<>(ConstrainedEvaluation.DERIVATIVE_KEYS);
            skip.add("constraint_errors");
            SymDynCliTest.assertJsonClose(without(generic.json(), skip), without(generated.json(), skip), 1e-9, what);
            return generic;
        }
        SymDynCliTest.assertJsonClose(generic.json(), generated.json(), 1e-9, what);
        return generic;
    }

    /** The value with the object members named in {@code keys} removed at every depth. */
    private static JsonValue without(JsonValue value, Set<String> keys) {
        if (value instanceof ObjectValue o) {
            Map<String, JsonValue> kept = new LinkedHashMap<>();
            o.members().forEach((k, v) -> {
                if (!keys.contains(k)) {
                    kept.put(k, without(v, keys));
                }
            });
            return new ObjectValue(kept, o.position());
        }
        if (value instanceof ArrayValue a) {
            return new ArrayValue(a.elements().stream().map(e -> without(e, keys)).toList(), a.position());
        }
        return value;
    }

    private static ObjectValue first(SymDynCliTest.Result r) throws Exception {
        return (ObjectValue) ((ArrayValue) ((ObjectValue) r.json()).get("results")).get(0);
    }

    private static void assertRows(DMatrixRMaj expected, JsonValue actual, String key) {
        double[][] rows = SymDynCliTest.matrix(actual);
        assertEquals(expected.numRows, rows.length, key);
        for (int r = 0; r < rows.length; r++) {
            assertEquals(expected.numCols, rows[r].length, key);
            for (int c = 0; c < rows[r].length; c++) {
                assertEquals(expected.get(r, c), rows[r][c], 0, key + "[" + r + "][" + c + "]");
            }
        }
    }

    /** Three random states: q = neutral ⊕ u for a random u (unit quaternions); v, tau, a random. */
    private Path states(Model m, Random rnd) throws IOException {
        StringBuilder sb = new StringBuilder("{\"states\": [");
        StateSpace space = new StateSpace(m);
        for (int n = 0; n < 3; n++) {
            double[] q = new double[m.nq()];
            space.retract(m.neutralConfiguration(), random(rnd, m.nv(), 1.5), q);
            sb.append(n > 0 ? ", " : "").append("{\"q\": ").append(SymDynCliTest.list(q))
                    .append(", \"v\": ").append(SymDynCliTest.list(random(rnd, m.nv(), 2)))
                    .append(", \"tau\": ").append(SymDynCliTest.list(random(rnd, m.nv(), 10)))
                    .append(", \"a\": ").append(SymDynCliTest.list(random(rnd, m.nv(), 3))).append('}');
        }
        Path p = dir.resolve("states.json");
        Files.writeString(p, sb.append("]}\n").toString(), StandardCharsets.UTF_8);
        return p;
    }

    private static double[] random(Random rnd, int n, double range) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * range;
        }
        return x;
    }
}
