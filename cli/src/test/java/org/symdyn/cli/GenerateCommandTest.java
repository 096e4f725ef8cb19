package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratedMethod;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.generator.OperationCounts;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.testing.SharedFiles;

/** {@code symdyn generate} and {@code evaluate --backend generated}, run in-process through {@link SymDynCli#run}. */
class GenerateCommandTest {
    @TempDir
    Path dir;

    private static final List<String> ENTRY_KEYS = List.of("model", "class", "nq", "nv", "generation_ms",
            "operations", "max_method_bytes");

    private Path write(String name, String... lines) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    /**
     * A planar arm of two links on hinges about y, so that H depends on the elbow angle; {@code name} is the robot
     * name, and {@code extra} lines go before {@code </robot>}.
     */
    private Path arm(String file, String name, String... extra) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "<robot name=\"" + name + "\" xmlns:sd=\"urn:symdyn:1\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"shoulder\" type=\"revolute\">",
                "    <parent link=\"world\"/><child link=\"upper\"/><origin xyz=\"0 0 1\"/><axis xyz=\"0 1 0\"/>",
                "    <limit lower=\"-3\" upper=\"3\" effort=\"10\" velocity=\"5\"/>",
                "  </joint>",
                "  <link name=\"upper\">",
                "    <inertial><origin xyz=\"0.25 0 0\"/><mass value=\"1.5\"/>",
                "      <inertia ixx=\"0.01\" iyy=\"0.03\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "  <joint name=\"elbow\" type=\"continuous\">",
                "    <parent link=\"upper\"/><child link=\"fore\"/><origin xyz=\"0.5 0 0\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"fore\">",
                "    <inertial><origin xyz=\"0.2 0 0\"/><mass value=\"0.8\"/>",
                "      <inertia ixx=\"0.005\" iyy=\"0.02\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>"));
        lines.addAll(List.of(extra));
        lines.add("</robot>");
        return write(file, lines.toArray(String[]::new));
    }

    /** Bad input: exit 2, located diagnostics on stderr, nothing on stdout, no stack trace. */
    private static void assertCleanFailure(Result r) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("at org."), r.err());
        assertFalse(r.err().isBlank());
    }

    /** Every regular file under {@code root}, or none when it does not exist. */
    private static List<Path> filesUnder(Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    // ------------------------------------------------------------------ class names

    @Test
    void classNamesComeFromTheRobotName() {
        Map<String, String> expected = Map.of(
                "iiwa14", "Iiwa14Dynamics",
                "2dof_planar", "Model2dofPlanarDynamics",
                "romeo_small", "RomeoSmallDynamics",
                "ur5-e.v2", "Ur5EV2Dynamics",
                "myRobot", "MyRobotDynamics",
                "ABB irb 120", "ABBIrb120Dynamics",
                "", "ModelDynamics",
                "__--", "ModelDynamics",
                "r\u00f4bot", "RBotDynamics",
                "7", "Model7Dynamics");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String name = org.symdyn.generator.CodeGenerator.defaultClassName(e.getKey());
            assertEquals(e.getValue(), name, "robot '" + e.getKey() + "'");
            assertTrue(org.symdyn.generator.JavaNames.classNameProblem(name) == null, name);
        }
    }

    // ------------------------------------------------------------------ generate

    @Test
    void generateWritesTheCompiledSourceAndAReport() throws Exception {
        Path model = arm("arm.urdf", "2dof_planar");
        Path out = dir.resolve("src");
        Path report = dir.resolve("reports/nested/report.json");
        Result r = SymDynCliTest.run("generate", model.toString(), "-d", out.toString(), "-p", "com.example.robots",
                "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.out(), "with --report nothing goes to stdout");
        assertEquals("", r.err());

        Path source = out.resolve("com/example/robots/Model2dofPlanarDynamics.java");
        assertEquals(List.of(source), filesUnder(out));
        String text = Files.readString(source);
        assertTrue(text.startsWith("package com.example.robots;\n"), text.substring(0, 200));
        assertTrue(text.contains("public final class Model2dofPlanarDynamics implements "), "class declaration");

        // the written bytes compile and evaluate H like the generic runtime
        Model m = UrdfReader.read(model);
        Dynamics written = (Dynamics) InProcessCompiler.compile(new GeneratedClass(
                "com.example.robots", "Model2dofPlanarDynamics", text, 2, 2, new OperationCounts(Map.of()), Map.of()))
                .type().getConstructor().newInstance();
        double[] q = {0.4, -1.1};
        DMatrixRMaj h1 = new DMatrixRMaj(2, 2);
        DMatrixRMaj h2 = new DMatrixRMaj(2, 2);
        new GenericDynamics(m).massMatrix(q, h1);
        written.massMatrix(q, h2);
        for (int k = 0; k < 4; k++) {
            assertEquals(h1.data[k], h2.data[k], 1e-12 * Math.max(1, Math.abs(h1.data[k])), "H");
        }

        ArrayValue models = reportModels(report);
        assertEquals(1, models.size());
        ObjectValue entry = (ObjectValue) models.get(0);
        assertEquals(ENTRY_KEYS, List.copyOf(entry.members().keySet()));
        assertEquals(JsonValue.of(model.toString()), entry.get("model"));
        assertEquals(JsonValue.of("com.example.robots.Model2dofPlanarDynamics"), entry.get("class"));
        assertEquals(2.0, number(entry, "nq"));
        assertEquals(2.0, number(entry, "nv"));
        ObjectValue ops = (ObjectValue) entry.get("operations");
        List<String> reported = GenerateCommand.OPERATIONS.stream().map(GeneratedMethod::key).toList();
        assertEquals(reported, List.copyOf(ops.members().keySet()));
        for (String key : reported) {
            ObjectValue count = (ObjectValue) ops.get(key);
            assertEquals(List.of("mul", "add", "trig"), List.copyOf(count.members().keySet()), key);
            for (String c : count.members().keySet()) {
                double n = number(count, c);
                assertTrue(n >= 0 && n == Math.rint(n), key + "." + c + " = " + n);
            }
        }
        ObjectValue h = (ObjectValue) ops.get("mass_matrix");
        assertTrue(number(h, "mul") > 0, "H depends on the elbow angle");
        assertTrue(number(h, "trig") > 0, "H needs cos(elbow)");
        assertTrue(number((ObjectValue) ops.get("bias_forces"), "mul") > 0);
        assertEquals(0.0, number((ObjectValue) ops.get("gamma"), "mul"), "no constraints");
        ObjectValue millis = (ObjectValue) entry.get("generation_ms");
        for (String phase : List.of("mass_matrix", "bias_forces", "total", "compile")) {
            assertTrue(millis.members().containsKey(phase), phase + " in " + millis.members().keySet());
        }
        for (String phase : millis.members().keySet()) {
            assertTrue(number(millis, phase) >= 0, phase);
        }
        double maxBytes = number(entry, "max_method_bytes");
        assertTrue(maxBytes > 0 && maxBytes <= 8000, "max_method_bytes " + maxBytes);
    }

    @Test
    void withoutAReportEachModelGetsASummaryLine() throws Exception {
        Path a = arm("a.urdf", "arm");
        Path b = arm("b.urdf", "other_arm");
        Path out = dir.resolve("out");
        Result r = SymDynCliTest.run("generate", a.toString(), b.toString(), "--dir=" + out, "--package=x.y");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        List<String> lines = List.of(r.out().split("\n"));
        assertEquals(2, lines.size(), r.out());
        Path armFile = out.resolve("x/y/ArmDynamics.java");
        Path otherFile = out.resolve("x/y/OtherArmDynamics.java");
        assertTrue(lines.get(0).matches("x\\.y\\.ArmDynamics: 2 dof \\(nq 2\\), generated in \\d+ ms \\+ compiled in"
                + " \\d+ ms, mass matrix \\d+ flops \\(\\d+ mul, \\d+ add\\) -> \\Q" + armFile + "\\E"), lines.get(0));
        assertTrue(lines.get(1).startsWith("x.y.OtherArmDynamics: 2 dof"), lines.get(1));
        assertEquals(List.of(armFile, otherFile), filesUnder(out).stream().sorted().toList());
        assertTrue(Files.readString(otherFile).contains("public final class OtherArmDynamics "));
    }

    @Test
    void mathTrigOptionWritesMathCalls() throws Exception {
        Path model = arm("arm.urdf", "arm");
        Path out = dir.resolve("out");
        Result r = SymDynCliTest.run("generate", model.toString(), "-d", out.toString(), "-p", "robots",
                "--math-trig");
        assertEquals(0, r.exitCode(), r.err());
        String source = Files.readString(out.resolve("robots/ArmDynamics.java"));
        assertTrue(source.contains("Math.sin(q[0])") && !source.contains("SinCos."), source);
        Result plain = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("o2").toString(), "-p",
                "robots");
        assertEquals(0, plain.exitCode(), plain.err());
        assertTrue(Files.readString(dir.resolve("o2/robots/ArmDynamics.java")).contains("SinCos.REDUCTION_LIMIT"));
    }

    @Test
    void partsOptionLeavesKinematicsOut() throws Exception {
        Path model = arm("arm.urdf", "arm");
        Path out = dir.resolve("out");
        Result r = SymDynCliTest.run("generate", model.toString(), "-d", out.toString(), "-p", "robots",
                "--parts", "dynamics,constraints");
        assertEquals(0, r.exitCode(), r.err());
        String source = Files.readString(out.resolve("robots/ArmDynamics.java"));
        assertTrue(source.contains("pointJacobian: this class was generated without the kinematics part"), source);
        assertTrue(source.contains("return EnumSet.of(ModelPart.DYNAMICS, ModelPart.CONSTRAINTS)"), source);
    }

    @Test
    void aReportWithoutTheConstraintsPartListsWhatTheClassCarries() throws Exception {
        Path model = arm("arm.urdf", "arm");
        Path report = dir.resolve("parts.json");
        Result r = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("out").toString(), "-p",
                "robots", "--parts", "dynamics,derivatives", "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue ops = (ObjectValue) ((ObjectValue) reportModels(report).get(0)).get("operations");
        List<String> keys = List.copyOf(ops.members().keySet());
        List<String> dynamics = GenerateCommand.DYNAMICS_OPERATIONS.stream().map(GeneratedMethod::key).toList();
        assertEquals(dynamics, keys.subList(0, dynamics.size()), "the dynamics part first, in report order");
        assertFalse(keys.contains(GeneratedMethod.CONSTRAINT_JACOBIAN.key()), keys.toString());
        assertTrue(keys.contains(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES.key()), keys.toString());
        assertTrue(number((ObjectValue) ops.get("inverse_dynamics_derivatives"), "mul") > 0);
    }

    @Test
    void badPartsAreUsageErrors() throws Exception {
        Path model = arm("arm.urdf", "arm");
        Result unknown = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("o1").toString(), "-p",
                "robots", "--parts", "dynamics,wings");
        assertCleanFailure(unknown);
        assertTrue(unknown.err().contains("unknown part 'wings'"), unknown.err());
        Result noDynamics = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("o2").toString(),
                "-p", "robots", "--parts", "kinematics");
        assertCleanFailure(noDynamics);
        assertTrue(noDynamics.err().contains("dynamics cannot be left out"), noDynamics.err());
        Result badForm = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("o3").toString(), "-p",
                "robots", "--kinematics-form", "sideways");
        assertCleanFailure(badForm);
        assertTrue(badForm.err().contains("unknown form 'sideways'"), badForm.err());
        assertEquals(List.of(), filesUnder(dir.resolve("o1")));
    }

    @Test
    void classOptionNamesTheClass() throws Exception {
        Path model = arm("arm.urdf", "arm");
        Path out = dir.resolve("out");
        Result r = SymDynCliTest.run("generate", "--class", "Elbow", model.toString(), "-d", out.toString(), "-p",
                "robots");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of(out.resolve("robots/Elbow.java")), filesUnder(out));
        assertTrue(r.out().startsWith("robots.Elbow: 2 dof (nq 2), "), r.out());

        Result two = SymDynCliTest.run("generate", model.toString(), model.toString(), "-d", dir.resolve("o2")
                .toString(), "-p", "robots", "--class", "Elbow");
        assertCleanFailure(two);
        assertEquals("symdyn: option --class needs exactly one model file (2 given); without it each class is named"
                + " after its robot", two.errLines().get(0));
        assertFalse(Files.exists(dir.resolve("o2")));
    }

    @Test
    void aBadModelAmongOthersStopsEverythingAndEveryBadModelIsReported() throws Exception {
        Path good = arm("good.urdf", "good");
        Path malformed = write("malformed.urdf", "<robot name=\"x\">", "  <link name=\"a\">", "</robot>");
        Path negative = write("negative.urdf",
                "<robot name=\"neg\">",
                "  <link name=\"a\"/>",
                "  <joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                "  <link name=\"b\"><inertial><mass value=\"-1\"/>",
                "    <inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "</robot>");
        Path edges = arm("edges.urdf", "edges",
                "  <sd:line_on_line name=\"rub\" rolling=\"true\">",
                "    <sd:edge_f link=\"fore\" half_length=\"0.2\"/><sd:edge_b link=\"world\" half_length=\"1\"/>",
                "  </sd:line_on_line>");
        Path out = dir.resolve("out");
        Path report = dir.resolve("report.json");

        Result one = SymDynCliTest.run("generate", good.toString(), malformed.toString(), "-d", out.toString(), "-p",
                "x", "--report", report.toString());
        assertCleanFailure(one);
        assertEquals(1, one.errLines().size(), one.err());
        assertTrue(one.err().startsWith(malformed + ":[3,"), one.err());
        assertEquals(List.of(), filesUnder(out));
        assertFalse(Files.exists(report));

        Result all = SymDynCliTest.run("generate", malformed.toString(), good.toString(), negative.toString(),
                edges.toString(), "-d", out.toString(), "-p", "x", "--report", report.toString());
        assertCleanFailure(all);
        List<String> lines = all.errLines();
        for (String l : lines) {
            assertTrue(l.matches("\\S+:\\[\\d+,\\d+\\] .+"), l);
        }
        assertTrue(lines.get(0).startsWith(malformed + ":[3,"), all.err());
        assertTrue(lines.get(lines.size() - 1).startsWith(negative + ":[4,3] "), all.err());
        assertEquals(lines.size(), lines.stream().filter(l -> l.startsWith(malformed + ":")
                || l.startsWith(negative + ":")).count(), "only the bad files: " + all.err());
        assertEquals(List.of(), filesUnder(out));
        assertFalse(Files.exists(report));

        // a constrained model alone is fine: the generator derives its line-on-line rows
        Result alone = SymDynCliTest.run("generate", edges.toString(), "-d", out.toString(), "-p", "x", "--report",
                report.toString());
        assertEquals(0, alone.exitCode(), alone.err());
        assertEquals(List.of(out.resolve("x/EdgesDynamics.java")), filesUnder(out));
        ObjectValue ops = (ObjectValue) ((ObjectValue) reportModels(report).get(0)).get("operations");
        assertTrue(number((ObjectValue) ops.get("constraint_jacobian"), "mul") > 0, "G of the edge contact");
    }

    @Test
    void twoModelsMayNotShareAClass() throws Exception {
        Path a = arm("a.urdf", "arm");
        Path b = arm("b.urdf", "arm");
        Path c = arm("c.urdf", "ARM");
        Path out = dir.resolve("out");
        Result same = SymDynCliTest.run("generate", a.toString(), b.toString(), "-d", out.toString(), "-p", "x");
        assertCleanFailure(same);
        assertEquals(List.of(b + ":[0,0] the class of robot 'arm', x.ArmDynamics, is also the class of " + a
                + " (robot 'arm'); generate one of them in another run, named with --class"), same.errLines());

        Result cased = SymDynCliTest.run("generate", a.toString(), c.toString(), "-d", out.toString(), "-p", "x");
        assertCleanFailure(cased);
        assertEquals(List.of(c + ":[0,0] the class of robot 'ARM', x.ARMDynamics, differs only in case from"
                + " x.ArmDynamics, the class of " + a + " (robot 'arm'); generate one of them in another run, named"
                + " with --class"), cased.errLines());
        assertEquals(List.of(), filesUnder(out));

        Result again = SymDynCliTest.run("generate", a.toString(), a.getParent().resolve("./a.urdf").toString(), "-d",
                out.toString(), "-p", "x");
        assertCleanFailure(again);
        assertEquals(List.of(a.getParent().resolve("./a.urdf") + ":[0,0] this model file is given twice (also as " + a
                + ")"), again.errLines());
        assertEquals(List.of(), filesUnder(out));
    }

    @Test
    void outputsThatCannotBeWrittenAreReported() throws Exception {
        Path model = arm("arm.urdf", "arm");
        Path file = write("plain.txt", "not a directory");
        Result r = SymDynCliTest.run("generate", model.toString(), "-d", file.toString(), "-p", "x");
        assertCleanFailure(r);
        assertEquals(List.of(file + ":[0,0] cannot write into it: not a directory"), r.errLines());

        Result rep = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("o").toString(), "-p", "x",
                "--report", dir.toString());
        assertCleanFailure(rep);
        assertEquals(List.of(dir + ":[0,0] cannot write the report: it is a directory"), rep.errLines());
        assertFalse(Files.exists(dir.resolve("o")));
        // a report that cannot be created (a file where its directory should be) is refused before any class is
        // written (a report under /proc was refused after the sources were)
        Path unwritable = file.resolve("r.json");
        Result late = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("o2").toString(), "-p", "x",
                "--report", unwritable.toString());
        assertCleanFailure(late);
        assertTrue(late.err().startsWith(file + ":[0,0] cannot write") || late.err().startsWith(unwritable
                + ":[0,0] cannot write"), late.err());
        assertFalse(Files.exists(dir.resolve("o2")), "nothing written");
        // the check leaves no directory behind when the run then fails (here: no such model)
        Result missing = SymDynCliTest.run("generate", dir.resolve("nothing.urdf").toString(), "-d",
                dir.resolve("o3").toString(), "-p", "x", "--report", dir.resolve("fresh/nested/r.json").toString());
        assertCleanFailure(missing);
        assertFalse(Files.exists(dir.resolve("fresh")), "the report's directories are not left behind");

        // a file where the package directory should be
        Path root = dir.resolve("root");
        Files.createDirectories(root);
        Files.writeString(root.resolve("x"), "in the way");
        Result blocked = SymDynCliTest.run("generate", model.toString(), "-d", root.toString(), "-p", "x.y");
        assertCleanFailure(blocked);
        assertEquals(1, blocked.errLines().size(), blocked.err());
        assertTrue(blocked.err().startsWith(root.resolve("x/y") + ":[0,0] cannot write file: "), blocked.err());
    }

    // ------------------------------------------------------------------ the iiwa (../shared)

    @Test
    void theIiwaMeetsTheOperationBarsAndTheGeneratedBackendAgreesWithTheGenericOne() throws Exception {
        Path iiwa = SharedFiles.model("iiwa14_no_collision.urdf");
        Path out = dir.resolve("gen");
        Path report = dir.resolve("iiwa.json");
        Result r = SymDynCliTest.run("generate", iiwa.toString(), "-d", out.toString(), "-p", "org.example",
                "--report", report.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertEquals(List.of(out.resolve("org/example/Iiwa14Dynamics.java")), filesUnder(out));
        ObjectValue entry = (ObjectValue) reportModels(report).get(0);
        assertEquals(ENTRY_KEYS, List.copyOf(entry.members().keySet()));
        assertEquals(JsonValue.of("org.example.Iiwa14Dynamics"), entry.get("class"));
        assertEquals(7.0, number(entry, "nq"));
        assertEquals(7.0, number(entry, "nv"));
        ObjectValue ops = (ObjectValue) entry.get("operations");
        double h = flops((ObjectValue) ops.get("mass_matrix"));
        double c = flops((ObjectValue) ops.get("bias_forces"));
        assertTrue(h > 0 && h <= 450, "mass matrix: " + h + " flops, the bar is 450");
        assertTrue(c > 0 && c <= 850, "bias forces: " + c + " flops, the bar is 850");
        assertTrue(number(entry, "max_method_bytes") <= 8000);

        Model model = UrdfReader.read(iiwa);
        Random rnd = new Random(14);
        StringBuilder states = new StringBuilder("{\"states\": [\n");
        for (int n = 0; n < 5; n++) {
            double[] q = new double[7];
            double[] v = new double[7];
            double[] tau = new double[7];
            double[] a = new double[7];
            for (int k = 0; k < 7; k++) {
                q[k] = rnd.nextDouble(-Math.PI, Math.PI);
                v[k] = rnd.nextDouble(-2, 2);
                tau[k] = rnd.nextDouble(-50, 50);
                a[k] = rnd.nextDouble(-5, 5);
            }
            states.append(n == 0 ? "  " : ",\n  ").append("{\"q\": ").append(SymDynCliTest.list(q))
                    .append(", \"v\": ").append(SymDynCliTest.list(v)).append(", \"tau\": ")
                    .append(SymDynCliTest.list(tau)).append(", \"a\": ").append(SymDynCliTest.list(a)).append('}');
        }
        Path statesFile = write("iiwa-states.json", states.append("\n]}").toString());
        Result generic = SymDynCliTest.run("evaluate", iiwa.toString(), "--states", statesFile.toString());
        Result generated = SymDynCliTest.run("evaluate", iiwa.toString(), "--states", statesFile.toString(),
                "--backend", "generated");
        assertEquals(0, generic.exitCode(), generic.err());
        assertEquals(0, generated.exitCode(), generated.err());
        assertEquals("", generated.err());
        assertEquals(5, ((ArrayValue) ((ObjectValue) generated.json()).get("results")).size());
        assertEquals(model.frames().size(), ((ObjectValue) ((ObjectValue) ((ArrayValue) ((ObjectValue)
                generated.json()).get("results")).get(0)).get("body_poses")).members().size());
        SymDynCliTest.assertJsonClose(generic.json(), generated.json(), 1e-10, "");
    }

    // ------------------------------------------------------------------ helpers

    private static ArrayValue reportModels(Path report) throws JsonException {
        JsonValue json = JsonReader.read(report);
        ObjectValue root = assertInstanceOf(ObjectValue.class, json);
        assertEquals(List.of("models"), List.copyOf(root.members().keySet()));
        return assertInstanceOf(ArrayValue.class, root.get("models"));
    }

    private static double number(ObjectValue o, String key) {
        return assertInstanceOf(NumberValue.class, o.get(key), key).value();
    }

    private static double flops(ObjectValue count) {
        return number(count, "mul") + number(count, "add");
    }
}
