package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.emit.MethodSizes;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.testing.SharedFiles;

/**
 * The generated derivatives ({@link GeneratorOptions#derivatives()}: {@link DynamicsDerivatives}) against the
 * generic runtime's analytical ones ({@link GenericModel}, itself checked against finite differences in the runtime's
 * DynamicsDerivativesTest) on {@value #STATES} random states of every public model (fixed base, and floating for
 * the quadrupeds and the humanoid), every sample model and a model with every joint type: ∂τ/∂q, ∂τ/∂v, ∂v̇/∂q,
 * ∂v̇/∂v, ∂v̇/∂τ, H⁻¹, the Coriolis matrix, the regressor and the inertial parameters. The bar is 1e-9 relative to
 * the largest entry of each matrix (at least 1): the two backends evaluate the same equations for ∂τ and C (the
 * generic runtime's loops, themselves checked against a directional oracle in InertialFrameDerivativesTest, against
 * straight-line code with its constants folded) and different ones for ∂v̇ (an unrolled LᵀDL solve against the row
 * sweeps), so they differ by rounding amplified by the conditioning (of H for the forward dynamics). Outputs given to the generated class are
 * filled with NaN first, so an entry it fails to write fails. Every method of every class stays under HotSpot's
 * 8000-byte limit (the compiler refuses it otherwise); the worst difference per quantity is printed at the end.
 */
class GeneratedDerivativesTest {
    static final int STATES = 200;
    static final double TOL = 1e-9;
    static final Map<String, Double> WORST = new ConcurrentSkipListMap<>();

    @AfterAll
    static void printWorst() {
        WORST.forEach((what, worst) -> System.out.printf(Locale.ROOT, "%-28s worst relative difference %.2e%n", what,
                worst));
    }

    /** The shared models but the humanoid, whose derivatives (38 s and 17 s of a run) only the exhaustive run checks. */
    static Stream<Arguments> models() {
        return GeneratedVsGenericTest.models().filter(a -> !a.get()[0].equals("romeo_small.urdf"));
    }

    static Stream<Arguments> exhaustiveModels() {
        return Stream.of(Arguments.of("romeo_small.urdf", false), Arguments.of("romeo_small.urdf", true));
    }

    @Tag("exhaustive")
    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("exhaustiveModels")
    void generatedDerivativesMatchGenericOnLargeModels(String file, boolean floating) throws Exception {
        generatedDerivativesMatchGeneric(file, floating);
    }

    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("models")
    void generatedDerivativesMatchGeneric(String file, boolean floating) throws Exception {
        Model model = UrdfReader.read(SharedFiles.model(file), new UrdfReader.Options(floating, false));
        check(model, "Deriv" + Math.abs(file.hashCode()) + (floating ? "F" : ""), file.hashCode() + (floating ? 7 : 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.symdyn.generator.GeneratedVsGenericTest#sampleModels")
    void generatedDerivativesMatchGenericOnSamples(Path file) throws Exception {
        check(UrdfReader.read(file), "DerivSample" + Math.abs(file.hashCode()), file.hashCode());
    }

    /**
     * ∂τ's operation count against the inverse dynamics' (mul + add, the generator's count): in each tree's root
     * coordinates ({@code SymbolicDerivatives}) iiwa14 has 4,470 against 630 (7.1x) and solo12 floating 8,812 against
     * 1,745 (5.0x); in world coordinates they had 8.6x and 8.1x. The budgets sit between, so that a pass written back
     * in world coordinates, or an identity lost, fails here before a benchmark shows it.
     */
    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("derivativeBudgets")
    void inverseDynamicsDerivativesStayWithinTheirOperationBudget(String file, boolean floating, double budget)
            throws Exception {
        Model model = UrdfReader.read(SharedFiles.model(file), new UrdfReader.Options(floating, false));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Budget" + (floating ? "F" : "")).withDerivatives(true));
        int derivatives = gen.operations().get(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES).flops();
        int id = gen.operations().get(GeneratedMethod.INVERSE_DYNAMICS).flops();
        assertTrue(derivatives <= budget * id, file + ": ∂τ " + derivatives + " operations, " + (double) derivatives / id
                + "x the inverse dynamics' " + id + " (budget " + budget + "x)");
    }

    static Stream<Arguments> derivativeBudgets() {
        return Stream.of(Arguments.of("iiwa14_no_collision.urdf", false, 7.5),
                Arguments.of("solo12.urdf", true, 6.0));
    }

    /** Floating, revolute, ball, planar, prismatic and continuous joints (and constraints, which play no part). */
    @Test
    void everyJointType() throws Exception {
        check(CodeGeneratorTest.everyJointType(), "DerivEveryJoint", 11);
    }

    /**
     * Past {@link DerivativeMethods#SOLVED_FORWARD_DERIVATIVES_WORK} (and short of the looped size), ∂v̇ and H⁻¹ are
     * solved at run time from the class's own methods and the tree factor: a 23-link chain and a 23-dof tree with a
     * floating base, a planar, a ball, a prismatic and a continuous joint about a revolute chain (derivative sizes
     * 6,348 and 7,200), against the generic runtime on every quantity; H⁻¹ exactly symmetric from both methods; the
     * forward dynamics' derivatives counted as the methods they call plus the sweeps.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chain", "mixed"})
    void solvedForwardDerivativesMatchGeneric(String which) throws Exception {
        Model model = which.equals("chain") ? LoopedDerivativesTest.chain(23) : mixedTree();
        assertTrue(DerivativeMethods.solvedForwardDerivatives(model), "size " + CodeGenerator.derivativesWork(model));
        assertFalse(CodeGenerator.loopedDerivatives(model));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "DerivSolved" + which).withDerivatives(true));
        assertTrue(gen.source().contains("derivativesFactor.solveSquareBlocks("));
        OperationCounts ops = gen.operations();
        assertTrue(ops.get(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES).flops() > ops.sum(
                GeneratedMethod.BIAS_FORCES, GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES,
                GeneratedMethod.MASS_MATRIX).flops());
        DynamicsDerivatives generated = (DynamicsDerivatives) GeneratedVsGenericTest.instance(gen);
        compare(model, generated, new Random(23));
        int nv = model.nv();
        Random rnd = new Random(5);
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
        DMatrixRMaj dq = new DMatrixRMaj(nv, nv);
        DMatrixRMaj dv = new DMatrixRMaj(nv, nv);
        DMatrixRMaj minv = new DMatrixRMaj(nv, nv);
        DMatrixRMaj alone = new DMatrixRMaj(nv, nv);
        generated.forwardDynamicsDerivatives(q, new double[nv], new double[nv], dq, dv, minv);
        generated.inverseMassMatrix(q, alone);
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                assertEquals(minv.get(i, j), minv.get(j, i), 0);
                assertEquals(alone.get(i, j), alone.get(j, i), 0);
            }
        }
    }

    /** Floating base, planar stage, ball, ten revolute links about tilted axes, a prismatic and a continuous joint. */
    private static Model mixedTree() throws Exception {
        org.symdyn.model.ModelBuilder b = Model.builder("mixed23")
                .addBody("base", "world", "free", org.symdyn.model.JointType.FLOATING, null,
                        org.symdyn.spatial.Pose.IDENTITY, inertia(4))
                .addBody("stage", "base", "plane", org.symdyn.model.JointType.PLANAR, new double[] {0, 0, 1},
                        org.symdyn.spatial.Pose.translation(0, 0.3, 0), inertia(2))
                .addBody("wrist", "stage", "ball", org.symdyn.model.JointType.BALL, null,
                        org.symdyn.spatial.Pose.translation(0.2, 0, 0.1), inertia(1.2));
        String parent = "wrist";
        for (int i = 0; i < 10; i++) {
            b.addBody("l" + i, parent, "j" + i, org.symdyn.model.JointType.REVOLUTE,
                    new double[] {0.2 * (i % 3), 0.3, 0.9 - 0.1 * i},
                    org.symdyn.spatial.Pose.fromXyzRpy(new double[] {0.05, 0.02, 0.2}, new double[] {0.1 * i, 0.2, 0}),
                    inertia(1 + 0.1 * i));
            parent = "l" + i;
        }
        return b.addBody("slide", parent, "rail", org.symdyn.model.JointType.PRISMATIC, new double[] {1, 0, 0},
                        org.symdyn.spatial.Pose.translation(0, 0, 0.1), inertia(0.4))
                .addBody("tool", "slide", "spin", org.symdyn.model.JointType.CONTINUOUS, new double[] {0, 0, 1},
                        org.symdyn.spatial.Pose.IDENTITY, inertia(0.2))
                .build();
    }

    private static org.symdyn.spatial.RigidBodyInertia inertia(double m) {
        return org.symdyn.spatial.RigidBodyInertia.of(m, new double[] {0.01, 0.02, 0.05}, 0.02 * m, 0.001, -0.002,
                0.03 * m, 0.0015, 0.025 * m);
    }

    /** Without the option the class does not implement the derivatives (and costs nothing more to generate). */
    @Test
    void derivativesAreAnOption() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        GeneratedClass plain = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "NoDerivatives"));
        assertFalse(plain.source().contains("DynamicsDerivatives"));
        assertFalse(plain.operations().contains(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES));
        assertFalse(GeneratedVsGenericTest.instance(plain) instanceof DynamicsDerivatives);
        GeneratedClass with = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "WithDerivatives").withDerivatives(true));
        assertTrue(with.source().contains(
                "implements ModelFunctions, ModelParameters, DeclaredDevices, DynamicsDerivatives"));
        for (GeneratedMethod method : new GeneratedMethod[] {GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES,
            GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES, GeneratedMethod.INVERSE_MASS_MATRIX,
            GeneratedMethod.CORIOLIS_MATRIX, GeneratedMethod.REGRESSOR, GeneratedMethod.INERTIAL_PARAMETERS}) {
            assertTrue(with.operations().contains(method), method.key());
        }
    }

    /** The argument policy, with the generic backend's messages. */
    @Test
    void argumentsAreCheckedAsByTheGenericBackend() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        DynamicsDerivatives generated = (DynamicsDerivatives) GeneratedVsGenericTest.instance(new CodeGenerator()
                .generate(model, GeneratorOptions.of("test.gen", "Checked").withDerivatives(true)));
        GenericModel generic = new GenericModel(model);
        int nv = model.nv();
        double[] q = model.neutralConfiguration();
        double[] v = new double[nv];
        DMatrixRMaj m = new DMatrixRMaj(nv, nv);
        DMatrixRMaj wrong = new DMatrixRMaj(nv, nv + 1);
        for (DynamicsDerivatives d : new DynamicsDerivatives[] {generated, generic}) {
            assertEquals("dtauDv must be " + nv + "x" + nv + ", got " + nv + "x" + (nv + 1),
                    assertThrows(IllegalArgumentException.class,
                            () -> d.inverseDynamicsDerivatives(q, v, v, m, wrong)).getMessage());
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> d.forwardDynamicsDerivatives(q, v, v, m, m, new DMatrixRMaj(nv, nv))).getMessage()
                    .startsWith("dvdotDv must not be the same array as dvdotDq"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.coriolisMatrix(q, v, wrong))
                    .getMessage().startsWith("coriolis must be"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.inverseMassMatrix(v, m))
                    .getMessage().startsWith("q must have"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.regressor(q, v, v, m))
                    .getMessage().startsWith("Y must be"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.inertialParameters(v))
                    .getMessage().startsWith("pi must have"));
        }
    }

    /** Generates with derivatives, checks method sizes and compares {@value #STATES} states. */
    static void check(Model model, String className, long seed) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", className).withDerivatives(true));
        InProcessCompiler.Compiled compiled = InProcessCompiler.compile(gen);
        int largest = compiled.methodSizes().values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(largest <= MethodSizes.HUGE_METHOD_LIMIT, "largest method " + largest);
        DynamicsDerivatives generated = (DynamicsDerivatives) compiled.type().getDeclaredConstructor().newInstance();
        assertTrue(generated instanceof ModelFunctions);
        compare(model, generated, new Random(seed));
    }

    /**
     * A helper's finding: a 43-link chain past the looped derivatives' size, every link carrying a fixed child with
     * mass and declaring all ten inertial numbers and its armature as parameters (473), generated without
     * derivatives and was refused with them: the builder calls of its looped derivatives were split by bodies
     * alone, and its 473 declarations went into one method (8,572 and 8,887 bytes of bytecode, over HotSpot's 8,000).
     * Now split by estimated bytes: it generates, every method under the limit (the in-process compilation checks),
     * and agrees with the generic runtime, at the file's values and after setting some.
     */
    @Test
    void aLoopedChainWithManyParametersGenerates() throws Exception {
        StringBuilder urdf = new StringBuilder("<robot name=\"many\" xmlns:symdyn=\"urn:symdyn:1\"><link name=\"l0\"/>\n");
        StringBuilder params = new StringBuilder();
        String[] fields = {"mass", "com_x", "com_y", "com_z", "ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
        int n = 43;
        for (int i = 1; i <= n; i++) {
            urdf.append(String.format(Locale.ROOT, "<link name=\"l%d\"><inertial><origin xyz=\"0.01 0.02 0.1\"/><mass"
                    + " value=\"%.3f\"/><inertia ixx=\"0.03\" ixy=\"0.001\" ixz=\"-0.002\" iyy=\"0.04\" iyz=\"0.0015\""
                    + " izz=\"0.02\"/></inertial></link>\n"
                    + "<joint name=\"j%d\" type=\"revolute\"><parent link=\"l%d\"/><child link=\"l%d\"/>"
                    + "<origin xyz=\"0 0 0.3\"/><axis xyz=\"%s\"/><limit lower=\"-3\" upper=\"3\" effort=\"1\""
                    + " velocity=\"1\"/><dynamics symdyn:armature=\"0.01\"/></joint>\n"
                    + "<link name=\"t%d\"><inertial><mass value=\"0.2\"/><inertia ixx=\"0.001\" ixy=\"0\" ixz=\"0\""
                    + " iyy=\"0.001\" iyz=\"0\" izz=\"0.001\"/></inertial></link>\n"
                    + "<joint name=\"f%d\" type=\"fixed\"><parent link=\"l%d\"/><child link=\"t%d\"/>"
                    + "<origin xyz=\"0.05 0 0.1\"/></joint>\n", i, 1 + 0.01 * i, i, i - 1, i,
                    i % 3 == 0 ? "1 0 0" : i % 3 == 1 ? "0 1 0" : "0 0 1", i, i, i, i));
            for (String f : fields) {
                params.append("<symdyn:parameter name=\"p").append(i).append('_').append(f).append("\" link=\"l")
                        .append(i).append("\" field=\"").append(f).append("\"/>\n");
            }
            params.append("<symdyn:parameter name=\"a").append(i).append("\" joint=\"j").append(i)
                    .append("\" field=\"armature\"/>\n");
        }
        Model model = UrdfReader.parse(urdf.append(params).append("</robot>").toString(), "many.urdf",
                UrdfReader.Options.DEFAULT);
        assertEquals(11 * n, model.parameters().size());
        assertTrue(CodeGenerator.loopedDerivatives(model), "past the looped size");
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "ManyParameters")
                .withDerivatives(true));
        ModelFunctions instance = GeneratedVsGenericTest.instance(gen); // compiles: every method under the limit
        compare(model, (DynamicsDerivatives) instance, new Random(43));
        double[] values = new double[model.parameters().size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = model.parameters().get(k).value();
        }
        values[0] = 1.7; // l1's mass
        values[values.length - 1] = 0.05; // j43's armature
        ((org.symdyn.contract.ModelParameters) instance).setParameter(0, 1.7);
        ((org.symdyn.contract.ModelParameters) instance).setParameter(values.length - 1, 0.05);
        compare(model.withParameters(values), (DynamicsDerivatives) instance, new Random(44));
    }

    static void compare(Model model, DynamicsDerivatives generated, Random rnd) {
        GenericModel generic = new GenericModel(model);
        int nv = model.nv();
        int cols = DynamicsDerivatives.PARAMETERS_PER_BODY * model.bodyCount();
        DMatrixRMaj[] a = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
        DMatrixRMaj[] b = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
        DMatrixRMaj ya = new DMatrixRMaj(nv, cols);
        DMatrixRMaj yb = new DMatrixRMaj(nv, cols);
        double[] pa = new double[cols];
        double[] pb = new double[cols];
        generic.inertialParameters(pa);
        generated.inertialParameters(nan(pb));
        assertClose(pa, pb, "inertial parameters");
        for (int n = 0; n < STATES; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] vdot = GeneratedVsGenericTest.random(rnd, nv, 3);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            generic.inverseDynamicsDerivatives(q, v, vdot, a[0], a[1]);
            generated.inverseDynamicsDerivatives(q, v, vdot, nan(b[0]), nan(b[1]));
            assertClose(a[0].data, b[0].data, "dtau/dq");
            assertClose(a[1].data, b[1].data, "dtau/dv");
            generic.forwardDynamicsDerivatives(q, v, tau, a[0], a[1], a[2]);
            generated.forwardDynamicsDerivatives(q, v, tau, nan(b[0]), nan(b[1]), nan(b[2]));
            assertClose(a[0].data, b[0].data, "dvdot/dq");
            assertClose(a[1].data, b[1].data, "dvdot/dv");
            assertClose(a[2].data, b[2].data, "dvdot/dtau");
            generic.inverseMassMatrix(q, a[0]);
            generated.inverseMassMatrix(q, nan(b[0]));
            assertClose(a[0].data, b[0].data, "Minv");
            generic.coriolisMatrix(q, v, a[0]);
            generated.coriolisMatrix(q, v, nan(b[0]));
            assertClose(a[0].data, b[0].data, "Coriolis matrix");
            generic.regressor(q, v, vdot, ya);
            generated.regressor(q, v, vdot, nan(yb));
            assertClose(ya.data, yb.data, "regressor");
        }
    }

    private static DMatrixRMaj nan(DMatrixRMaj m) {
        Arrays.fill(m.data, Double.NaN);
        return m;
    }

    private static double[] nan(double[] x) {
        Arrays.fill(x, Double.NaN);
        return x;
    }

    /** ‖expected - actual‖∞ ≤ {@link #TOL} max(1, ‖expected‖∞); NaN fails. */
    private static void assertClose(double[] expected, double[] actual, String quantity) {
        double scale = 1;
        for (double x : expected) {
            scale = Math.max(scale, Math.abs(x));
        }
        double worst = 0;
        int at = -1;
        for (int i = 0; i < expected.length; i++) {
            double d = Math.abs(expected[i] - actual[i]);
            if (Double.isNaN(d) || d > worst) {
                worst = Double.isNaN(d) ? Double.NaN : d;
                at = i;
                if (Double.isNaN(d)) {
                    break;
                }
            }
        }
        double relative = worst / scale;
        WORST.merge(quantity, relative, (x, y) -> Double.isNaN(x) || Double.isNaN(y) ? Double.NaN : Math.max(x, y));
        assertTrue(worst <= TOL * scale, quantity + ": worst difference " + worst + " at entry " + at
                + " against scale " + scale + (at >= 0 ? " (expected " + expected[at] + ", got " + actual[at] + ")"
                : ""));
    }
}
