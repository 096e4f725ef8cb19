package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.contract.ModelPart;
import org.symdyn.generator.GenerationPipeline.ModelInput;
import org.symdyn.generator.GenerationPipeline.Problem;
import org.symdyn.generator.symbolic.UnsupportedModelException;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;

/** The pipeline the plugin and the command line share, on models written here. */
class GenerationPipelineTest {
    @TempDir
    Path dir;

    private Path pendulum(String file, String robot, double mass) throws IOException {
        return write(file, "<robot name=\"" + robot + "\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"revolute\">",
                "    <parent link=\"world\"/><child link=\"rod\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"rod\">",
                "    <inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"" + mass + "\"/>",
                "      <inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "</robot>");
    }

    /** A pendulum whose joint limits are reversed: a model warning at [5,5]. */
    private Path odd() throws IOException {
        return write("odd.urdf", "<robot name=\"odd\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"revolute\">",
                "    <parent link=\"world\"/><child link=\"rod\"/><axis xyz=\"0 1 0\"/>",
                "    <limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/>",
                "  </joint>",
                "  <link name=\"rod\"><inertial><mass value=\"1\"/>",
                "    <inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "</robot>");
    }

    private Path write(String name, String... lines) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    private static ModelInput input(Path file) {
        return ModelInput.of(file, file.toString(), null, false);
    }

    private GenerationPipeline.Builder pipeline() {
        return GenerationPipeline.builder().packageName("gen").outputDirectory(dir.resolve("out"))
                .clashHint("rename one");
    }

    private List<String> written() throws IOException {
        Path out = dir.resolve("out");
        if (!Files.exists(out)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(out)) {
            return s.filter(Files::isRegularFile).map(p -> out.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void generatesCompilesAndWritesEveryModel() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        Path b = pendulum("b.urdf", "beta", 2);
        GenerationPipeline.Result r = pipeline().build().run(List.of(input(a),
                ModelInput.of(b, b.toString(), "Swing", false)));
        assertTrue(r.succeeded(), r.problems().toString());
        assertEquals(List.of("gen/AlphaDynamics.java", "gen/Swing.java"), written());
        GenerationPipeline.Output alpha = r.outputs().get(0);
        assertEquals("gen.AlphaDynamics", alpha.generated().qualifiedName());
        assertEquals(dir.resolve("out/gen/AlphaDynamics.java"), alpha.file());
        assertTrue(alpha.written());
        assertTrue(alpha.maxMethodBytes() > 0 && alpha.maxMethodBytes() <= 8000, "" + alpha.maxMethodBytes());
        assertEquals("alpha", alpha.model().name());

        // the same again: identical bytes are not rewritten
        Path source = dir.resolve("out/gen/AlphaDynamics.java");
        FileTime longAgo = FileTime.fromMillis(946_684_800_000L);
        Files.setLastModifiedTime(source, longAgo);
        GenerationPipeline.Result again = pipeline().build().run(List.of(input(a)));
        assertFalse(again.outputs().get(0).written());
        assertEquals(longAgo, Files.getLastModifiedTime(source));
    }

    @Test
    void everyProblemOfEveryModelIsReportedInInputOrderAndNothingIsWritten() throws Exception {
        Path malformed = write("malformed.urdf", "<robot name=\"x\">", "  <link name=\"a\">", "</robot>");
        Path good = pendulum("good.urdf", "good", 1);
        Path negative = write("negative.urdf",
                "<robot name=\"neg\">",
                "  <link name=\"a\"/>",
                "  <joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                "  <link name=\"b\"><inertial><mass value=\"-1\"/>",
                "    <inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "</robot>");
        Path missing = dir.resolve("missing.urdf");
        GenerationPipeline.Result r = pipeline().build().run(List.of(input(malformed), input(good),
                input(negative), input(missing), input(dir)));
        assertFalse(r.succeeded());
        List<String> lines = r.problems().stream().map(Problem::toString).toList();
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith(malformed + ":[3,3] malformed XML"), lines.get(0));
        assertEquals(negative + ":[4,3] link 'b': mass -1.0 kg is negative", lines.get(1));
        assertEquals(missing + ":[0,0] cannot read file: no such file", lines.get(2));
        assertEquals(dir + ":[0,0] cannot read file: it is a directory", lines.get(3));
        assertEquals(List.of(), r.outputs());
        assertEquals(List.of(), written());
    }

    @Test
    void classesMayNotClashAlsoWithUpToDateModelsNorDifferOnlyInCase() throws Exception {
        Path a = pendulum("a.urdf", "arm", 1);
        Path b = pendulum("b.urdf", "arm", 2);
        Path c = pendulum("c.urdf", "ARM", 2);
        Path d = pendulum("d.urdf", "other", 2);
        GenerationPipeline.Result r = pipeline().build().run(List.of(input(a), input(b), input(c),
                ModelInput.upToDate(d, "d.urdf", "ArmDynamics")));
        assertEquals(List.of(
                b + ":[0,0] the class of robot 'arm', gen.ArmDynamics, is also the class of " + a
                        + " (robot 'arm'); rename one",
                c + ":[0,0] the class of robot 'ARM', gen.ARMDynamics, differs only in case from gen.ArmDynamics,"
                        + " the class of " + a + " (robot 'arm'); rename one",
                "d.urdf:[0,0] its class gen.ArmDynamics is also the class of " + a + " (robot 'arm'); rename one"),
                r.problems().stream().map(Problem::toString).toList());
        assertEquals(List.of(), written());

        GenerationPipeline.Result twice = pipeline().build().run(List.of(input(a),
                ModelInput.of(dir.resolve("./a.urdf"), "./a.urdf", "Other", false)));
        assertEquals(List.of("./a.urdf:[0,0] this model file is given twice (also as " + a + ")"),
                twice.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void upToDateModelsAreNeitherReadNorGenerated() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        Path broken = write("broken.urdf", "not xml at all");
        GenerationPipeline.Result r = pipeline().build().run(List.of(input(a),
                ModelInput.upToDate(broken, "broken.urdf", "Broken")));
        assertTrue(r.succeeded(), r.problems().toString());
        assertEquals(1, r.outputs().size());
        assertEquals(List.of("gen/AlphaDynamics.java"), written());
    }

    @Test
    void theCallersCheckSeesEveryClassAndCanStopTheRun() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        Path b = pendulum("b.urdf", "beta", 1);
        List<Map<ModelInput, String>> seen = new ArrayList<>();
        GenerationPipeline.Result r = pipeline().check(classes -> {
            seen.add(classes);
            return classes.keySet().stream().filter(in -> in.file().equals(b))
                    .map(in -> Problem.of(in, "taken by another execution")).toList();
        }).build().run(List.of(input(a), ModelInput.upToDate(b, b.toString(), "Beta")));
        assertEquals(List.of("AlphaDynamics", "Beta"), List.copyOf(seen.get(0).values()));
        assertEquals(List.of(b + ":[0,0] taken by another execution"),
                r.problems().stream().map(Problem::toString).toList());
        assertEquals(List.of(), written());
    }

    @Test
    void aPartAskedForThatTheModelCannotCarryIsAWarning() throws Exception {
        // A pendulum has no constraint rows: the recursive constrained system is not generated, and the run says so
        // (it used to leave it out silently; the class's parts() was the only sign).
        Path a = pendulum("a.urdf", "alpha", 1);
        EnumSet<ModelPart> parts = EnumSet.of(ModelPart.DYNAMICS, ModelPart.CONSTRAINTS,
                ModelPart.RECURSIVE_CONSTRAINTS);
        GenerationPipeline.Result r = pipeline().parts(parts).build().run(List.of(input(a)));
        assertTrue(r.succeeded(), r.problems().toString());
        assertEquals(1, r.warnings().size(), r.warnings().toString());
        assertTrue(r.warnings().get(0).toString().startsWith(a + ":[0,0] warning: the part recursive_constraints is"
                + " not generated for this model"), r.warnings().toString());
        assertEquals(EnumSet.of(ModelPart.DYNAMICS, ModelPart.CONSTRAINTS), r.outputs().get(0).generated().parts());
        assertEquals(List.of(), pipeline().outputDirectory(dir.resolve("plain")).build().run(List.of(input(a)))
                .warnings(), "no warning for the default parts");
    }

    /**
     * A chain long enough for looped derivatives (43 links) with a line-on-line row: its row derivatives are not
     * generated and the runtime has none for that kind, so the run warns (a probe found ConstrainedDynamicsDerivatives
     * refusing the class at run time, with no word at generation). The same chain shorter, or without the row, or
     * without derivatives: no warning.
     */
    @Test
    void loopedDerivativesWithLineOnLineRowsAreAWarning() throws Exception {
        GeneratorOptions derivatives = GeneratorOptions.of("gen", "Chain").withDerivatives(true);
        assertTrue(GenerationPipeline.loopedLineOnLineRows(chain(43, true), derivatives));
        assertFalse(GenerationPipeline.loopedLineOnLineRows(chain(43, false), derivatives));
        assertFalse(GenerationPipeline.loopedLineOnLineRows(chain(20, true), derivatives));
        assertFalse(GenerationPipeline.loopedLineOnLineRows(chain(43, true), GeneratorOptions.of("gen", "Chain")));
        assertTrue(GenerationPipeline.LOOPED_LINE_ON_LINE.contains("line-on-line rows' derivatives are not generated"));
    }

    /** A serial chain of n revolute links from a fixed base, and an edge of its last link on one of the base's. */
    private static Model chain(int n, boolean lineOnLine) throws Exception {
        StringBuilder x = new StringBuilder("<robot name=\"chain\" xmlns:symdyn=\"urn:symdyn:1\"><link name=\"l0\"/>");
        String inertial = "<inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\""
                + " iyz=\"0\" izz=\"0.03\"/></inertial>";
        for (int i = 1; i <= n; i++) {
            x.append(String.format(java.util.Locale.ROOT, "<link name=\"l%d\">%s</link><joint name=\"j%d\""
                    + " type=\"continuous\"><parent link=\"l%d\"/><child link=\"l%d\"/><origin xyz=\"0 0 0.1\""
                    + " rpy=\"0.3 0 0.2\"/><axis xyz=\"%d 1 0\"/></joint>", i, inertial, i, i - 1, i, i % 2));
        }
        if (lineOnLine) {
            x.append("<symdyn:line_on_line name=\"edge\" rolling=\"false\"><symdyn:edge_f link=\"l0\" xyz=\"0 0 0\""
                    + " rpy=\"0 0 1.57\" half_length=\"0.5\"/><symdyn:edge_b link=\"l").append(n).append("\""
                    + " xyz=\"0 0 -0.05\" rpy=\"3.14 0 0\" half_length=\"0.4\"/></symdyn:line_on_line>");
        }
        return org.symdyn.io.urdf.UrdfReader.parse(x.append("</robot>").toString(), "chain.urdf",
                new org.symdyn.io.urdf.UrdfReader.Options(false, false));
    }

    @Test
    void warningsAreReportedAndStrictMakesThemProblems() throws Exception {
        Path odd = odd();
        GenerationPipeline.Result lenient = pipeline().build().run(List.of(input(odd)));
        assertTrue(lenient.succeeded());
        assertEquals(1, lenient.warnings().size());
        assertTrue(lenient.warnings().get(0).toString().startsWith(odd + ":[5,5] warning: "),
                lenient.warnings().toString());
        GenerationPipeline.Result strict = pipeline().strict(true).outputDirectory(dir.resolve("strict")).build()
                .run(List.of(input(odd)));
        assertFalse(strict.succeeded());
        assertTrue(strict.problems().get(0).toString().startsWith(odd + ":[5,5] "), strict.problems().toString());
        assertFalse(Files.exists(dir.resolve("strict")));
    }

    /**
     * The progress listener hears every model read first, then each model's derivation and compile check, each
     * stage started before it ends, with the class name once known; a warning comes at once, before any derivation.
     */
    @Test
    void theProgressListenerHearsEachStageAsItGoesAndEachWarningAtOnce() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        Path odd = odd();
        List<String> heard = new ArrayList<>();
        GenerationProgress listener = new GenerationProgress() {
            @Override
            public void stageStarted(ModelInput input, Stage stage, String className) {
                heard.add("start " + input.file().getFileName() + " " + stage + " " + className);
            }

            @Override
            public void stageEnded(ModelInput input, Stage stage, long millis) {
                assertTrue(millis >= 0, "duration " + millis);
                heard.add("end " + input.file().getFileName() + " " + stage);
            }

            @Override
            public void warning(Problem warning) {
                heard.add("warning " + warning.input().file().getFileName() + " " + warning.diagnostic().location());
            }
        };
        GenerationPipeline.Result r = pipeline().progress(listener).build().run(List.of(input(a), input(odd)));
        assertTrue(r.succeeded(), r.problems().toString());
        assertEquals(List.of(
                "start a.urdf READ null", "end a.urdf READ",
                "start odd.urdf READ null", "warning odd.urdf " + odd + ":[5,5]", "end odd.urdf READ",
                "start a.urdf DERIVE AlphaDynamics", "end a.urdf DERIVE",
                "start a.urdf COMPILE_CHECK AlphaDynamics", "end a.urdf COMPILE_CHECK",
                "start odd.urdf DERIVE OddDynamics", "end odd.urdf DERIVE",
                "start odd.urdf COMPILE_CHECK OddDynamics", "end odd.urdf COMPILE_CHECK"), heard);

        // a model that cannot be read: its read starts and never ends, and nothing is derived
        heard.clear();
        Path missing = dir.resolve("missing.urdf");
        GenerationPipeline.Result bad = pipeline().outputDirectory(dir.resolve("bad")).progress(listener).build()
                .run(List.of(input(a), input(missing)));
        assertFalse(bad.succeeded());
        assertEquals(List.of("start a.urdf READ null", "end a.urdf READ", "start missing.urdf READ null"), heard);
    }

    @Test
    void outputsThatCannotBeWrittenAreNamed() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        Path file = write("plain.txt", "not a directory");
        GenerationPipeline.OutputException e = assertThrows(GenerationPipeline.OutputException.class,
                () -> GenerationPipeline.builder().packageName("gen").outputDirectory(file).build()
                        .run(List.of(input(a))));
        assertEquals(file, e.file());
        assertEquals("cannot write into it: not a directory", e.reason());

        Files.createDirectories(dir.resolve("root"));
        Files.writeString(dir.resolve("root/x"), "in the way");
        GenerationPipeline.OutputException blocked = assertThrows(GenerationPipeline.OutputException.class,
                () -> GenerationPipeline.builder().packageName("x.y").outputDirectory(dir.resolve("root")).build()
                        .run(List.of(input(a))));
        assertEquals(dir.resolve("root/x/y"), blocked.file());
        assertTrue(blocked.reason().startsWith("cannot write file: "), blocked.reason());

        assertThrows(IllegalArgumentException.class, () -> GenerationPipeline.builder().packageName("java.x")
                .build());
    }

    @Test
    void withoutAnOutputDirectoryNothingIsWritten() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        GenerationPipeline.Result r = GenerationPipeline.builder().packageName("gen").build().run(List.of(input(a)));
        assertTrue(r.succeeded());
        assertEquals(null, r.outputs().get(0).file());
        assertFalse(r.outputs().get(0).written());
        assertEquals(List.of(), written());
    }

    @Test
    void theDerivativesOptionReachesTheGeneratorAndIsOffByDefault() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 1);
        GenerationPipeline.Output plain = GenerationPipeline.builder().packageName("gen").build().run(List.of(input(a)))
                .outputs().get(0);
        GenerationPipeline.Output off = GenerationPipeline.builder().packageName("gen").derivatives(false).build()
                .run(List.of(input(a))).outputs().get(0);
        GenerationPipeline.Output on = GenerationPipeline.builder().packageName("gen").derivatives(true).build()
                .run(List.of(input(a))).outputs().get(0);
        Model model = GenerationPipeline.readModel(a, false, false);
        String direct = new CodeGenerator().generate(model, GeneratorOptions.of("gen", "AlphaDynamics"))
                .source();
        assertEquals(direct, new String(plain.source(), StandardCharsets.UTF_8));
        assertEquals(direct, new String(off.source(), StandardCharsets.UTF_8));
        assertFalse(direct.contains("DynamicsDerivatives"));
        String derived = new String(on.source(), StandardCharsets.UTF_8);
        assertTrue(derived.contains("DynamicsDerivatives"), "implements DynamicsDerivatives");
        assertTrue(derived.contains("public void inverseDynamicsDerivatives("), "has inverseDynamicsDerivatives");
        assertTrue(on.generated().operations().contains(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES));
        assertFalse(off.generated().operations().contains(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES));
    }

    /** A URDF chain of n revolute links from a world link; the first link is declared on line 2. */
    private Path chainFile(String file, int n) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("<robot name=\"chain" + n + "\"><link name=\"world\"/>");
        String[] axes = {"0 0 1", "0 1 0", "1 0 0"};
        for (int i = 0; i < n; i++) {
            lines.add("  <link name=\"l" + i + "\"><inertial><origin xyz=\"0.01 0.02 0.15\"/><mass value=\"" + (1 + 0.02 * i)
                    + "\"/><inertia ixx=\"0.02\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"0.03\" iyz=\"0.0015\" izz=\"0.025\"/>"
                    + "</inertial></link>");
            lines.add("  <joint name=\"j" + i + "\" type=\"revolute\"><parent link=\"" + (i == 0 ? "world" : "l" + (i - 1))
                    + "\"/><child link=\"l" + i + "\"/><origin xyz=\"0.02 0.01 0.3\" rpy=\"0.1 0 0\"/><axis xyz=\""
                    + axes[i % 3] + "\"/><limit effort=\"10\" velocity=\"1\" lower=\"-3\" upper=\"3\"/></joint>");
        }
        lines.add("</robot>");
        return write(file, lines.toArray(new String[0]));
    }

    @Test
    void aModelTooLargeForUnrolledDerivativesGetsLoopedOnesThatAgreeWithTheInterpreter() throws Exception {
        Path chain = chainFile("chain60.urdf", 60);
        Model model = GenerationPipeline.readModel(chain, false, false);
        // nv times the number of dofs on each dof's path to the root: 60 * (1 + 2 + ... + 60).
        assertEquals(60L * 60 * 61 / 2, CodeGenerator.derivativesWork(model));
        assertTrue(CodeGenerator.loopedDerivatives(model));
        long t0 = System.nanoTime();
        GeneratedClass generated = new CodeGenerator().generate(model, GeneratorOptions.of("gen", "Chain60Dynamics")
                .withDerivatives(true));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 120, "generated in " + seconds + " s");
        org.symdyn.contract.DynamicsDerivatives d = (org.symdyn.contract.DynamicsDerivatives) GeneratedVsGenericTest
                .instance(generated);
        org.symdyn.dynamics.GenericDynamics generic = new org.symdyn.dynamics.GenericDynamics(model);
        java.util.Random rnd = new java.util.Random(60);
        int nv = model.nv();
        for (int s = 0; s < 3; s++) {
            double[] q = new double[nv];
            double[] v = new double[nv];
            double[] a = new double[nv];
            for (int i = 0; i < nv; i++) {
                q[i] = rnd.nextDouble() * 2 - 1;
                v[i] = rnd.nextDouble() * 2 - 1;
                a[i] = rnd.nextDouble() * 2 - 1;
            }
            org.ejml.data.DMatrixRMaj[] mine = {new org.ejml.data.DMatrixRMaj(nv, nv), new org.ejml.data.DMatrixRMaj(nv,
                nv), new org.ejml.data.DMatrixRMaj(nv, nv)};
            org.ejml.data.DMatrixRMaj[] theirs = {new org.ejml.data.DMatrixRMaj(nv, nv),
                new org.ejml.data.DMatrixRMaj(nv, nv), new org.ejml.data.DMatrixRMaj(nv, nv)};
            d.inverseDynamicsDerivatives(q, v, a, mine[0], mine[1]);
            generic.inverseDynamicsDerivatives(q, v, a, theirs[0], theirs[1]);
            for (int k = 0; k < 2; k++) {
                double scale = 1;
                double worst = 0;
                for (int i = 0; i < nv * nv; i++) {
                    scale = Math.max(scale, Math.abs(theirs[k].data[i]));
                    worst = Math.max(worst, Math.abs(mine[k].data[i] - theirs[k].data[i]));
                }
                assertTrue(worst <= 1e-9 * scale, "matrix " + k + ": " + worst + " of " + scale);
            }
            d.forwardDynamicsDerivatives(q, v, a, mine[0], mine[1], mine[2]);
            generic.forwardDynamicsDerivatives(q, v, a, theirs[0], theirs[1], theirs[2]);
            for (int k = 0; k < 3; k++) {
                double scale = 1;
                double worst = 0;
                for (int i = 0; i < nv * nv; i++) {
                    scale = Math.max(scale, Math.abs(theirs[k].data[i]));
                    worst = Math.max(worst, Math.abs(mine[k].data[i] - theirs[k].data[i]));
                }
                assertTrue(worst <= 1e-9 * scale, "forward matrix " + k + ": " + worst + " of " + scale);
            }
        }
        // Through the pipeline too: no problem reported, the class written.
        GenerationPipeline.Result r = pipeline().derivatives(true).build().run(List.of(input(chain)));
        assertEquals(List.of(), r.problems());
        assertEquals(1, r.outputs().size());
    }

    /**
     * A 50-link chain (past the unrolled size) with every kind of parameter, its looped derivatives following the
     * instance's values: link l3's mass, com_x and ixy (l3 has a fixed tool merged into its body), joint j5's origin_z,
     * joint j6's origin_x (j6 hangs from a rotated fixed frame of l5, so the origin moves along a tilted direction),
     * j7's armature and l10's mass (a point mass fixed to l10, which its body's inertia minus its own must give back). At the file's values and at two other sets, ∂τ, ∂v̇, H⁻¹, the regressor, the parameter
     * regressor and ∂π/∂p agree within 1e-9 with the interpreter on the file written with those numbers.
     */
    @Test
    void loopedDerivativesFollowTheInstancesParameters() throws Exception {
        double[] file = {1.06, 0.01, 0.001, 0.3, 0.02, 0.05, 1.2};
        Path chain = write("chain50p.urdf", parameterisedChain(file, true).split("\n"));
        Model model = GenerationPipeline.readModel(chain, false, false);
        assertTrue(CodeGenerator.loopedDerivatives(model));
        assertEquals(List.of("m3", "c3x", "i3xy", "z5", "x6", "a7", "m10"), model.parameters().stream()
                .map(org.symdyn.model.ParameterModel::name).toList());
        GenerationPipeline.Result r = pipeline().derivatives(true).build().run(List.of(input(chain)));
        assertEquals(List.of(), r.problems());
        GeneratedClass generated = new CodeGenerator().generate(model, GeneratorOptions.of("gen", "Chain50Parameters")
                .withDerivatives(true));
        org.symdyn.contract.ModelFunctions instance = GeneratedVsGenericTest.instance(generated);
        org.symdyn.contract.DynamicsDerivatives d = (org.symdyn.contract.DynamicsDerivatives) instance;
        org.symdyn.contract.ModelParameters params = (org.symdyn.contract.ModelParameters) instance;
        double[][] sets = {file, {1.9, -0.03, 0.004, 0.42, -0.05, 0.3, 2.5}, {0.7, 0.05, -0.002, 0.25, 0.08, 0, 0.9}};
        java.util.Random rnd = new java.util.Random(50);
        for (double[] values : sets) {
            for (int k = 0; k < values.length; k++) {
                params.setParameter(k, values[k]);
            }
            Path at = write("chain50at.urdf", parameterisedChain(values, true).split("\n"));
            org.symdyn.dynamics.GenericDynamics oracle = new org.symdyn.dynamics.GenericDynamics(
                    GenerationPipeline.readModel(at, false, false));
            int nv = model.nv();
            double[] q = new double[nv];
            double[] v = new double[nv];
            double[] a = new double[nv];
            for (int i = 0; i < nv; i++) {
                q[i] = rnd.nextDouble() * 2 - 1;
                v[i] = rnd.nextDouble() * 2 - 1;
                a[i] = rnd.nextDouble() * 2 - 1;
            }
            String label = java.util.Arrays.toString(values);
            org.ejml.data.DMatrixRMaj[] mine = {new org.ejml.data.DMatrixRMaj(nv, nv),
                new org.ejml.data.DMatrixRMaj(nv, nv), new org.ejml.data.DMatrixRMaj(nv, nv)};
            org.ejml.data.DMatrixRMaj[] theirs = {new org.ejml.data.DMatrixRMaj(nv, nv),
                new org.ejml.data.DMatrixRMaj(nv, nv), new org.ejml.data.DMatrixRMaj(nv, nv)};
            d.inverseDynamicsDerivatives(q, v, a, mine[0], mine[1]);
            oracle.inverseDynamicsDerivatives(q, v, a, theirs[0], theirs[1]);
            assertClose(label + " dtau/dq", mine[0], theirs[0]);
            assertClose(label + " dtau/dv", mine[1], theirs[1]);
            d.forwardDynamicsDerivatives(q, v, a, mine[0], mine[1], mine[2]);
            oracle.forwardDynamicsDerivatives(q, v, a, theirs[0], theirs[1], theirs[2]);
            for (int k = 0; k < 3; k++) {
                assertClose(label + " dvdot " + k, mine[k], theirs[k]);
            }
            int np = values.length;
            org.ejml.data.DMatrixRMaj yp = new org.ejml.data.DMatrixRMaj(nv, np);
            org.ejml.data.DMatrixRMaj ypOracle = new org.ejml.data.DMatrixRMaj(nv, np);
            d.parameterRegressor(q, v, a, yp);
            oracle.parameterRegressor(q, v, a, ypOracle);
            assertClose(label + " parameter regressor", yp, ypOracle);
            int nb = model.bodyCount();
            org.ejml.data.DMatrixRMaj dpi = new org.ejml.data.DMatrixRMaj(10 * nb, np);
            org.ejml.data.DMatrixRMaj dpiOracle = new org.ejml.data.DMatrixRMaj(10 * nb, np);
            d.inertialParameterJacobian(dpi);
            oracle.inertialParameterJacobian(dpiOracle);
            assertClose(label + " dpi/dp", dpi, dpiOracle);
            // and the generated (symbolic) H at these values agrees with the oracle's: the class is one model
            org.ejml.data.DMatrixRMaj h = new org.ejml.data.DMatrixRMaj(nv, nv);
            ((org.symdyn.contract.Dynamics) instance).massMatrix(q, h);
            oracle.massMatrix(q, theirs[0]);
            assertClose(label + " H", h, theirs[0]);
        }
        System.out.printf("# chain50 with 7 parameters, looped derivatives against the interpreter at 3 value sets:"
                + " worst relative difference %.2e%n", worstParameterDifference);
        // unchanged values reuse the engine; a copy builds its own at the copied values and answers the same
        int n = model.nv();
        org.ejml.data.DMatrixRMaj c1 = new org.ejml.data.DMatrixRMaj(n, n);
        org.ejml.data.DMatrixRMaj c2 = new org.ejml.data.DMatrixRMaj(n, n);
        double[] q0 = new double[n];
        double[] v0 = new double[n];
        java.util.Arrays.fill(q0, 0.2);
        java.util.Arrays.fill(v0, -0.4);
        java.lang.reflect.Field engine = instance.getClass().getDeclaredField("derivatives");
        engine.setAccessible(true);
        d.coriolisMatrix(q0, v0, c1);
        Object built = engine.get(instance);
        d.coriolisMatrix(q0, v0, c1);
        org.junit.jupiter.api.Assertions.assertSame(built, engine.get(instance), "rebuilt with the same values");
        org.symdyn.contract.ModelFunctions copy = instance.copy();
        ((org.symdyn.contract.DynamicsDerivatives) copy).coriolisMatrix(q0, v0, c2);
        assertClose("the copy's Coriolis matrix", c2, c1);
        org.junit.jupiter.api.Assertions.assertNotSame(built, engine.get(copy), "the copy's own engine");
        // A negative mass is refused where it is set (it used to be taken, and refused by the looped engine at
        // its next build), and the instance goes on with the values it had.
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> params.setParameter(0, -1));
        assertTrue(x.getMessage().contains("mass -1.0 kg is negative"), x.getMessage());
        d.coriolisMatrix(q0, v0, c2);
        assertClose("the Coriolis matrix after the refusal", c2, c1);
        org.junit.jupiter.api.Assertions.assertSame(built, engine.get(instance), "not rebuilt");
    }

    /** The worst relative difference {@link #assertClose} saw, printed by the test that uses it. */
    private double worstParameterDifference;

    private void assertClose(String what, org.ejml.data.DMatrixRMaj mine, org.ejml.data.DMatrixRMaj theirs) {
        double scale = 1;
        double worst = 0;
        for (int i = 0; i < mine.data.length; i++) {
            scale = Math.max(scale, Math.abs(theirs.data[i]));
            worst = Math.max(worst, Math.abs(mine.data[i] - theirs.data[i]));
        }
        worstParameterDifference = Math.max(worstParameterDifference, worst / scale);
        assertTrue(worst <= 1e-9 * scale, what + ": " + worst + " of " + scale);
    }

    /**
     * The chain of {@link #loopedDerivativesFollowTheInstancesParameters} with l3's mass, com x and ixy, j5's origin
     * z, j6's origin x and j7's armature at {@code p}, the parameters declared when {@code declare}.
     */
    private static String parameterisedChain(double[] p, boolean declare) {
        StringBuilder x = new StringBuilder("<robot name=\"chain50p\" xmlns:symdyn=\"urn:symdyn:1\">"
                + "<link name=\"world\"/>\n");
        String[] axes = {"0 0 1", "0 1 0", "1 0 0"};
        for (int i = 0; i < 50; i++) {
            double mass = i == 3 ? p[0] : i == 10 ? p[6] : 1 + 0.02 * i;
            double comX = i == 3 ? p[1] : 0.01;
            double ixy = i == 3 ? p[2] : 0.001;
            x.append(String.format(java.util.Locale.ROOT, "<link name=\"l%d\"><inertial><origin xyz=\"%s 0.02 0.15\"/>"
                    + "<mass value=\"%s\"/><inertia ixx=\"0.02\" ixy=\"%s\" ixz=\"-0.002\" iyy=\"0.03\" iyz=\"0.0015\""
                    + " izz=\"0.025\"/></inertial></link>\n", i, comX, mass, ixy));
            String parent = i == 0 ? "world" : i == 6 ? "l5_frame" : "l" + (i - 1);
            double oz = i == 5 ? p[3] : 0.3;
            double ox = i == 6 ? p[4] : 0.02;
            String armature = i == 7 ? "<dynamics symdyn:armature=\"" + p[5] + "\"/>" : "";
            x.append(String.format(java.util.Locale.ROOT, "<joint name=\"j%d\" type=\"revolute\"><parent link=\"%s\"/>"
                    + "<child link=\"l%d\"/><origin xyz=\"%s 0.01 %s\" rpy=\"0.1 0 0\"/><axis xyz=\"%s\"/>%s"
                    + "<limit effort=\"10\" velocity=\"1\" lower=\"-3\" upper=\"3\"/></joint>\n", i, parent, i, ox, oz,
                    axes[i % 3], armature));
        }
        x.append("<link name=\"l3_tool\"><inertial><origin xyz=\"0.05 0 0.02\"/><mass value=\"0.4\"/><inertia"
                + " ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.002\" iyz=\"0\" izz=\"0.0015\"/></inertial></link>\n"
                + "<joint name=\"l3_tool_fix\" type=\"fixed\"><parent link=\"l3\"/><child link=\"l3_tool\"/>"
                + "<origin xyz=\"0.1 0 0.2\" rpy=\"0 0.4 0\"/></joint>\n"
                + "<link name=\"l5_frame\"/><joint name=\"l5_frame_fix\" type=\"fixed\"><parent link=\"l5\"/>"
                + "<child link=\"l5_frame\"/><origin xyz=\"0 0.02 0.05\" rpy=\"0.3 0.2 0.1\"/></joint>\n"
                + "<link name=\"l10_tip\"><inertial><origin xyz=\"0 0 0\"/><mass value=\"0.05\"/><inertia ixx=\"0\""
                + " ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial></link>\n"
                + "<joint name=\"l10_tip_fix\" type=\"fixed\"><parent link=\"l10\"/><child link=\"l10_tip\"/>"
                + "<origin xyz=\"0.013 -0.007 0.29\"/></joint>\n");
        if (declare) {
            x.append("<symdyn:parameter name=\"m3\" link=\"l3\" field=\"mass\"/>\n"
                    + "<symdyn:parameter name=\"c3x\" link=\"l3\" field=\"com_x\"/>\n"
                    + "<symdyn:parameter name=\"i3xy\" link=\"l3\" field=\"ixy\"/>\n"
                    + "<symdyn:parameter name=\"z5\" joint=\"j5\" field=\"origin_z\"/>\n"
                    + "<symdyn:parameter name=\"x6\" joint=\"j6\" field=\"origin_x\"/>\n"
                    + "<symdyn:parameter name=\"a7\" joint=\"j7\" field=\"armature\"/>\n"
                    + "<symdyn:parameter name=\"m10\" link=\"l10\" field=\"mass\"/>\n");
        }
        return x.append("</robot>").toString();
    }

    @Test
    void readModelLocatesFileProblems() throws Exception {
        Model m = GenerationPipeline.readModel(pendulum("p.urdf", "p", 1), false, false);
        assertEquals(1, m.nv());
        org.symdyn.model.ModelException e = assertThrows(org.symdyn.model.ModelException.class,
                () -> GenerationPipeline.readModel(dir.resolve("none.urdf"), false, false));
        assertEquals(List.of(dir.resolve("none.urdf") + ":[0,0] cannot read file: no such file"),
                e.diagnostics().stream().map(Object::toString).toList());
    }

    // ------------------------------------------------------------------ generator refusals keep their position

    @Test
    void aGeneratorRefusalKeepsItsPosition() {
        ModelInput in = ModelInput.of(Path.of("/models/a.urdf"), "/models/a.urdf", null, false);
        UnsupportedModelException refusal = new UnsupportedModelException(new SourceLocation("/abs/models/a.urdf",
                18, 3), "custom constraint 'x' is not supported by the generator yet");
        assertEquals("/abs/models/a.urdf:[18,3] custom constraint 'x' is not supported by the generator yet",
                refusal.getMessage());
        assertEquals("/models/a.urdf:[18,3] custom constraint 'x' is not supported by the generator yet",
                GenerationPipeline.located(in, refusal).toString());
        assertEquals(18, GenerationPipeline.located(in, refusal).diagnostic().location().line());
        assertEquals(3, GenerationPipeline.located(in, refusal).diagnostic().location().column());
        assertEquals("/models/a.urdf:[0,0] x", GenerationPipeline.located(in,
                new UnsupportedModelException(SourceLocation.UNKNOWN, "x")).toString());
    }

    // ------------------------------------------------------------------ the generator's identity

    @Test
    void theCodeHashIsTheSameFromClassDirectoriesAndFromOneJarWithTheCommandLine() throws Exception {
        Path generatorDir = dir.resolve("generator");
        Path runtimeDir = dir.resolve("runtime");
        writeClass(generatorDir, "org/symdyn/generator/A.class", "a");
        writeClass(generatorDir, "org/symdyn/generator/emit/B.class", "b");
        writeClass(runtimeDir, "org/symdyn/model/C.class", "c");
        writeClass(runtimeDir, "org/symdyn/generator/generator.properties", "version=1");
        Path jar = dir.resolve("symdyn.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            // another order, with the command line's and a library's classes, which do not count
            for (String[] e : new String[][] {{"org/symdyn/model/C.class", "c"}, {"org/symdyn/cli/Cli.class", "cli"},
                {"org/symdyn/generator/emit/B.class", "b"}, {"com/squareup/javapoet/J.class", "j"},
                {"org/symdyn/generator/A.class", "a"}}) {
                out.putNextEntry(new JarEntry(e[0]));
                out.write(e[1].getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        GeneratorIdentity.Sha256 fromDirs = new GeneratorIdentity.Sha256();
        GeneratorIdentity.hashClasses(List.of(generatorDir, runtimeDir), fromDirs);
        GeneratorIdentity.Sha256 fromJar = new GeneratorIdentity.Sha256();
        GeneratorIdentity.hashClasses(List.of(jar), fromJar);
        String hash = fromDirs.hex();
        assertEquals(hash, fromJar.hex());

        writeClass(runtimeDir, "org/symdyn/model/C.class", "changed");
        GeneratorIdentity.Sha256 changed = new GeneratorIdentity.Sha256();
        GeneratorIdentity.hashClasses(List.of(generatorDir, runtimeDir), changed);
        assertFalse(hash.equals(changed.hex()));
    }

    @Test
    void theCurrentIdentityHasTheBuildsVersion() throws Exception {
        GeneratorIdentity id = GeneratorIdentity.current();
        assertEquals(64, id.codeSha256().length());
        assertEquals(id, GeneratorIdentity.current());
        assertTrue(id.version().matches("\\d+\\.\\d+\\.\\d+.*"), id.version());
        assertEquals(id.version() + " (code " + id.codeSha256().substring(0, 12) + ")", id.toString());
    }

    private static void writeClass(Path root, String name, String content) throws IOException {
        Path p = root.resolve(name);
        Files.createDirectories(p.getParent());
        try (OutputStream out = Files.newOutputStream(p)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }
}
