package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.emit.MethodSizes;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.SharedFiles;

/** Generated classes for models made in code: every joint type, every constraint type the generator supports. */
class CodeGeneratorTest {
    private static final double NAN = Double.NaN;

    static RigidBodyInertia box(double m) {
        return RigidBodyInertia.of(m, new double[] {0.1, -0.05, 0.02}, 0.02, 0.001, -0.002, 0.03, 0.0015, 0.025);
    }

    /** A floating base carrying a revolute arm with a ball wrist, a planar stage, a prismatic slide, constraints. */
    static Model everyJointType() throws ModelException {
        return Model.builder("every_joint").gravity(0.3, -9.7, -0.2)
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(5))
                .addBody("upper", "base", "shoulder", JointType.REVOLUTE, new double[] {0.2, 0.3, 0.9},
                        Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.3}, new double[] {0.4, -0.3, 1.2}), box(1.5))
                .addBody("wrist", "upper", "ball", JointType.BALL, null, Pose.translation(0.5, 0, 0), box(0.7))
                .addBody("stage", "base", "plane", JointType.PLANAR, new double[] {0, 0, 1},
                        Pose.translation(0, 0.3, 0), box(2))
                .addBody("slide", "stage", "rail", JointType.PRISMATIC, new double[] {1, 0, 0},
                        Pose.fromXyzRpy(new double[] {0, 0, 0.1}, new double[] {0, 1.5707963267948966, 0}), box(0.4))
                .addBody("tool", "slide", "spin", JointType.CONTINUOUS, new double[] {0, 0, 1}, Pose.IDENTITY,
                        box(0.2))
                .addConstraint(new LoopConstraintModel("loop", 2,
                        Pose.fromXyzRpy(new double[] {0.1, 0, 0}, new double[] {0.1, 0.2, 0.3}), 5,
                        Pose.translation(0, 0.2, 0.1), java.util.List.of(new double[] {0, 0, 1, 0, 0, 0},
                                new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0, 0, 0, 0.6, 0.8}),
                        NAN, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("touch", 1, new double[] {0.3, 0, 0},
                        new double[] {0, 0, 1}, NAN, SourceLocation.UNKNOWN))
                .addConstraint(new CouplerConstraintModel("gear", 5, 1, -1.5, 0.25, NAN, SourceLocation.UNKNOWN))
                .build();
    }

    /**
     * Rows whose G and γ the generator writes in closed form on frames {@link #everyJointType} does not have: two
     * branches of revolute, prismatic and continuous joints on skew axes and offsets from the root (a floating base,
     * or the world), closed by a loop between two moving bodies whose frames are rotated, on four axes (one of them
     * mixed), and by a loop from a branch to the root on two axes, with a contact at an offset point along a tilted
     * normal: 7 rows.
     */
    static Model skewRows(boolean floating) throws ModelException {
        var b = Model.builder("skew");
        String root = "world";
        if (floating) {
            b.addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(4));
            root = "base";
        }
        int first = floating ? 1 : 0;
        b.addBody("a1", root, "ja1", JointType.REVOLUTE, new double[] {0, 0, 1},
                Pose.fromXyzRpy(new double[] {0.1, 0.2, 0}, new double[] {0, 0.3, 0}), box(1.3))
                .addBody("a2", "a1", "ja2", JointType.REVOLUTE, new double[] {0, 1, 0},
                        Pose.fromXyzRpy(new double[] {0.4, 0, 0.1}, new double[] {0.1, 0, 0}), box(1.3))
                .addBody("a3", "a2", "ja3", JointType.PRISMATIC, new double[] {0.6, 0, 0.8},
                        Pose.fromXyzRpy(new double[] {0.3, 0.1, 0}, new double[] {0, 0, 0.4}), box(1.3))
                .addBody("b1", root, "jb1", JointType.REVOLUTE, new double[] {1, 0, 0},
                        Pose.fromXyzRpy(new double[] {-0.1, -0.2, 0}, new double[] {0, 0, 0.5}), box(1.3))
                .addBody("b2", "b1", "jb2", JointType.CONTINUOUS, new double[] {0, 0.6, 0.8},
                        Pose.fromXyzRpy(new double[] {0.2, 0.3, 0}, new double[] {0.3, 0.2, 0.1}), box(1.3))
                .addBody("b3", "b2", "jb3", JointType.REVOLUTE, new double[] {0, 0, 1},
                        Pose.translation(0.3, 0, -0.1), box(1.3))
                .addConstraint(new LoopConstraintModel("closure", first + 2,
                        Pose.fromXyzRpy(new double[] {0.2, 0.1, -0.1}, new double[] {0.3, -0.2, 0.5}), first + 5,
                        Pose.fromXyzRpy(new double[] {0.1, 0, 0.2}, new double[] {-0.4, 0.1, 0.2}),
                        List.of(new double[] {1, 0, 0, 0, 0, 0}, new double[] {0, 0, 0, 0, 1, 0},
                                new double[] {0, 0, 0, 0, 0, 1}, new double[] {0, 0.6, 0, 0.8, 0, 0}),
                        NAN, SourceLocation.UNKNOWN))
                .addConstraint(new LoopConstraintModel("anchor", first + 4,
                        Pose.fromXyzRpy(new double[] {0.05, 0.1, 0}, new double[] {0.2, 0.3, -0.1}), first - 1,
                        Pose.fromXyzRpy(new double[] {0.3, -0.2, 0.1}, new double[] {0, 0.4, 0}),
                        List.of(new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0.8, 0.6, 0, 0, 0}),
                        NAN, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("touch", first + 1, new double[] {0.15, -0.05, 0.2},
                        new double[] {0.6, 0, 0.8}, NAN, SourceLocation.UNKNOWN));
        return b.build();
    }

    /** Kinematics forms are named in any case, as parts are (ModelPart.ofOptionName); an unknown one lists them. */
    @Test
    void kinematicsFormsAreReadInAnyCase() {
        assertEquals(KinematicsForm.COMPACT, KinematicsForm.ofOptionName("Compact"));
        assertEquals(KinematicsForm.SHARED_PASSES, KinematicsForm.ofOptionName(" SHARED-passes "));
        for (KinematicsForm form : KinematicsForm.values()) {
            assertEquals(form, KinematicsForm.ofOptionName(form.optionName()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KinematicsForm.ofOptionName("sideways"));
        assertTrue(e.getMessage().contains("unknown form 'sideways': the forms are by-size"), e.getMessage());
    }

    @Test
    void everyJointTypeAndConstraintMatchesGeneric() throws Exception {
        Model model = everyJointType();
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "EveryJoint"));
        ModelFunctions instance = GeneratedVsGenericTest.instance(gen);
        assertEquals(model.nq(), instance.nq());
        assertEquals(model.qNames(), instance.qNames());
        assertEquals(5, instance.constraintRows());
        GeneratedVsGenericTest.checkAll(model, instance, 3);
    }

    /** One body turned about z by a continuous joint: its pose's rotation holds cos q and sin q. */
    private static GeneratedClass spinner(GeneratorOptions options) throws ModelException {
        Model model = Model.builder("spinner")
                .addBody("disc", "world", "spin", JointType.CONTINUOUS, new double[] {0, 0, 1}, Pose.IDENTITY,
                        box(1))
                .build();
        return new CodeGenerator().generate(model, options);
    }

    /**
     * The sine and cosine a generated class computes inline are bit for bit {@link org.symdyn.spatial.SinCos}'s
     * (read back through the pose of a link turned by one revolute joint about z), also in every quadrant, at the
     * quadrant boundaries and beyond the reduction limit, where both fall back to Math.
     */
    @Test
    void inlinedSineAndCosineAreSinCosBitForBit() throws Exception {
        GeneratedClass gen = spinner(GeneratorOptions.of("test.gen", "Spinner"));
        org.symdyn.contract.FrameKinematics k = (org.symdyn.contract.FrameKinematics) InProcessCompiler
                .compile(gen).type().getDeclaredConstructor().newInstance();
        int disc = k.frameNames().indexOf("disc");
        double[] rotation = new double[9];
        double[] position = new double[3];
        Random r = new Random(5);
        java.util.List<Double> angles = new java.util.ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            angles.add(Math.pow(10, 6 * r.nextDouble() - 2) * (r.nextBoolean() ? 1 : -1));
        }
        for (int j = -40; j <= 40; j++) {
            angles.add(j * Math.PI / 4);
            angles.add(Math.nextUp(j * Math.PI / 4));
        }
        angles.addAll(java.util.List.of(0.0, org.symdyn.spatial.SinCos.REDUCTION_LIMIT, -4e6, 1e300));
        for (double x : angles) {
            k.framePose(new double[] {x}, disc, rotation, position);
            // R = Rz(x) row-major: cos x at (0,0), sin x at (1,0).
            assertEquals(org.symdyn.spatial.SinCos.cos(x), rotation[0], 0.0, "cos " + x);
            assertEquals(org.symdyn.spatial.SinCos.sin(x), rotation[3], 0.0, "sin " + x);
        }
    }

    /** With the mathTrig option the class calls Math.sin and Math.cos, bit for bit, and does not use SinCos. */
    @Test
    void mathTrigOptionCallsMath() throws Exception {
        GeneratedClass gen = spinner(GeneratorOptions.of("test.gen", "MathSpinner").withMathTrig(true));
        assertFalse(gen.source().contains("SinCos."), "SinCos is not used");
        assertTrue(gen.source().contains("Math.sin(q[0])") && gen.source().contains("Math.cos(q[0])"));
        org.symdyn.contract.FrameKinematics k = (org.symdyn.contract.FrameKinematics) InProcessCompiler
                .compile(gen).type().getDeclaredConstructor().newInstance();
        int disc = k.frameNames().indexOf("disc");
        double[] rotation = new double[9];
        double[] position = new double[3];
        Random r = new Random(6);
        for (int i = 0; i < 2000; i++) {
            double x = 20 * (2 * r.nextDouble() - 1);
            k.framePose(new double[] {x}, disc, rotation, position);
            assertEquals(Math.cos(x), rotation[0], 0.0, "cos " + x);
            assertEquals(Math.sin(x), rotation[3], 0.0, "sin " + x);
        }
    }

    /**
     * Issue 10 item 16: the generated γ was non-finite for quaternion norms below about 1e-77 (s = 2 / |q|² and its
     * derivative, with |q|⁴, underflowed) where the generic backend was fine. Now the generated and the generic
     * backend prescale each quaternion by a power of two and give, for any non-zero finite norm (subnormal
     * components and Double.MAX_VALUE included), the results of the unit quaternion: H, C, G, γ, φ, φ̇ and every
     * frame pose.
     */
    @Test
    void quaternionsOfAnyNonZeroFiniteNormGiveTheUnitQuaternionsResults() throws Exception {
        Model model = everyJointType();
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "QuaternionScale")));
        ModelFunctions generic = new org.symdyn.constraints.GenericModel(model);
        Random rnd = new Random(16);
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
        double[] v = GeneratedVsGenericTest.random(rnd, model.nv(), 1);
        List<Integer> quaternions = new java.util.ArrayList<>();
        for (int b = 0; b < model.bodyCount(); b++) {
            if (generated.quaternionIndex(b) >= 0) {
                quaternions.add(generated.quaternionIndex(b));
            }
        }
        assertEquals(2, quaternions.size(), "a floating base and a ball joint");
        double[] expected = fused(generic, q, v);
        double[] unitGenerated = fused(generated, q, v);
        GeneratedVsGenericTest.assertClose(expected, unitGenerated, "unit quaternions");
        for (double scale : new double[] {1e-300, 1e-200, 1e-154, 1e-100, 1e-78, 1e-77, 1e-50, 3, 1e50, 1e77, 1e100,
            1e200, 1e300}) {
            double[] qs = q.clone();
            for (int at : quaternions) {
                for (int i = 0; i < 4; i++) {
                    qs[at + i] *= scale;
                }
            }
            GeneratedVsGenericTest.assertClose(expected, fused(generated, qs, v), 1e-12, "generated, norm " + scale,
                    "");
            GeneratedVsGenericTest.assertClose(expected, fused(generic, qs, v), 1e-12, "generic, norm " + scale, "");
        }
        // Extremes: a subnormal quaternion (a half turn about x) and one of components Double.MAX_VALUE.
        double[] half = q.clone();
        double[] big = q.clone();
        double[] halfUnit = q.clone();
        double[] bigUnit = q.clone();
        for (int at : quaternions) {
            for (int i = 0; i < 4; i++) {
                half[at + i] = i == 0 ? Double.MIN_VALUE : 0;
                halfUnit[at + i] = i == 0 ? 1 : 0;
                big[at + i] = i == 3 ? -Double.MAX_VALUE : Double.MAX_VALUE;
                bigUnit[at + i] = i == 3 ? -0.5 : 0.5;
            }
        }
        GeneratedVsGenericTest.assertClose(fused(generic, halfUnit, v), fused(generated, half, v), 1e-12,
                "generated, subnormal", "");
        GeneratedVsGenericTest.assertClose(fused(generic, halfUnit, v), fused(generic, half, v), 1e-12,
                "generic, subnormal", "");
        GeneratedVsGenericTest.assertClose(fused(generic, bigUnit, v), fused(generated, big, v), 1e-12,
                "generated, MAX_VALUE", "");
        GeneratedVsGenericTest.assertClose(fused(generic, bigUnit, v), fused(generic, big, v), 1e-12,
                "generic, MAX_VALUE", "");
    }

    /** H, C, G, γ, φ, φ̇ and every frame pose, one after the other in one array. */
    private static double[] fused(ModelFunctions f, double[] q, double[] v) {
        int nv = f.nv();
        int rows = f.constraintRows();
        org.ejml.data.DMatrixRMaj h = new org.ejml.data.DMatrixRMaj(nv, nv);
        org.ejml.data.DMatrixRMaj g = new org.ejml.data.DMatrixRMaj(rows, nv);
        double[] c = new double[nv];
        double[] gamma = new double[rows];
        double[] phi = new double[rows];
        double[] phidot = new double[rows];
        f.constrainedSystem(q, v, h, c, g, gamma, phi, phidot);
        int frames = f.frameNames().size();
        double[] out = new double[nv * nv + nv + rows * nv + 3 * rows + 12 * frames];
        int at = 0;
        for (double[] part : new double[][] {h.data, c, g.data, gamma, phi, phidot}) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        double[] rotation = new double[9];
        double[] position = new double[3];
        for (int k = 0; k < frames; k++) {
            f.framePose(q, k, rotation, position);
            System.arraycopy(rotation, 0, out, at, 9);
            System.arraycopy(position, 0, out, at + 9, 3);
            at += 12;
        }
        return out;
    }

    /** Same model and options, same bytes: the generated source does not depend on hashing or timing. */
    @Test
    void outputIsReproducible() throws Exception {
        Model model = everyJointType();
        GeneratorOptions options = GeneratorOptions.of("test.gen", "EveryJoint");
        String first = new CodeGenerator().generate(model, options).source();
        String second = new CodeGenerator().generate(model, options).source();
        assertEquals(first, second);
    }

    @Test
    void headerStatesModelHashAndCounts() throws Exception {
        var path = SharedFiles.model("iiwa14_no_collision.urdf");
        Model model = UrdfReader.read(path);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Iiwa"));
        assertTrue(gen.source().contains(model.sourceSha256()));
        assertTrue(gen.source().contains("@Generated(\"org.symdyn.generator.CodeGenerator\")"));
        OperationCount h = gen.operations().get(GeneratedMethod.MASS_MATRIX);
        assertTrue(gen.source().contains("mass_matrix: " + h), "per-method counts in the Javadoc");
        for (GeneratedMethod fused : List.of(GeneratedMethod.CONSTRAINED_SYSTEM,
                GeneratedMethod.CONSTRAINED_SYSTEM_WITH_ERRORS, GeneratedMethod.IMPULSE_SYSTEM)) {
            assertTrue(gen.source().contains(fused.key() + ": " + gen.operations().get(fused)),
                    fused.key() + " in the header");
        }
        // The fused evaluation computes each sine and cosine once for H and C (CRBA and RNEA share no other
        // arithmetic on a model without constraints), and never more arithmetic than the separate calls.
        OperationCount fused = gen.operations().get(GeneratedMethod.CONSTRAINED_SYSTEM);
        assertEquals(h.trig(), fused.trig(), "fused " + gen.operations());
        assertTrue(fused.flops() <= h.flops() + gen.operations().get(GeneratedMethod.BIAS_FORCES).flops(),
                "fused " + fused);
        assertTrue(gen.source().contains(model.contentHash()), "model content hash in the header");
        // The bars for iiwa14: H at most 450 flops, C at most 850.
        assertTrue(h.flops() <= 450, "mass matrix flops " + h);
        assertTrue(gen.operations().get(GeneratedMethod.BIAS_FORCES).flops() <= 850, "bias forces " + gen.operations());
        // H does not depend on the first (vertical) joint: sin and cos of the other six, each once.
        assertEquals(12, h.trig(), "trig calls");
        // The only allocations: the workspace (at construction), copy(), the exception for a bad frame index and the
        // parameters' rules (at class initialisation);
        // with the shared kinematics passes (the compact form) also their scratch arrays, at construction.
        assertOnlyConstructionAllocations(gen.source(), false);
        assertOnlyConstructionAllocations(new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "Iiwa")
                .withKinematics(KinematicsForm.COMPACT)).source(), true);
    }

    private static void assertOnlyConstructionAllocations(String source, boolean sharedPasses) {
        for (String line : source.split("\n")) {
            if (line.contains("new ") && !line.trim().startsWith("*")) {
                assertTrue(line.contains("double[] w = new double[") || line.contains("= new Iiwa()")
                        || line.contains("throw new IndexOutOfBoundsException")
                        // the parameters' rules, once, when the class is initialised
                        || line.contains("static final ParameterRules PARAMETER_RULES = new ParameterRules(")
                        || sharedPasses && line.strip()
                                .matches("private final double\\[] kin[A-Z][a-zA-Z]* = new double\\[\\d+];"),
                        "allocation in: " + line);
            }
        }
    }

    /**
     * The class imports nothing from SymDyn but the contract package: Javadoc links to other packages and the
     * SinCos constants are written fully qualified.
     */
    @Test
    void generatedClassImportsOnlyTheContract() throws Exception {
        String source = new CodeGenerator().generate(everyJointType(), GeneratorOptions.of("test.gen", "EveryJoint")).source();
        List<String> imports = source.lines().filter(l -> l.startsWith("import ")).toList();
        assertTrue(imports.contains("import org.symdyn.contract.ModelFunctions;"), imports.toString());
        assertTrue(imports.contains("import org.symdyn.contract.ModelParameters;"), imports.toString());
        for (String line : imports) {
            assertTrue(!line.startsWith("import org.symdyn.") || line.startsWith("import org.symdyn.contract."),
                    "import from outside the contract: " + line);
        }
        assertTrue(source.contains("implements ModelFunctions, ModelParameters"), "the whole contract");
    }

    @Test
    void everyMethodStaysUnderTheCompileLimit() throws Exception {
        var path = SharedFiles.model("romeo_small.urdf");
        Model model = UrdfReader.read(path, new UrdfReader.Options(true, false));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Romeo"));
        Map<String, Integer> sizes = InProcessCompiler.compile(gen).methodSizes();
        int largest = sizes.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(largest <= MethodSizes.HUGE_METHOD_LIMIT, "largest method " + largest);
        assertTrue(sizes.keySet().stream().anyMatch(k -> k.startsWith("forwardDynamics$")),
                "romeo's forward dynamics is split into chunks");
        // Its bias forces (30 chunks) pass values in fields, and a field is written again once its value is read.
        String chunks = chunkText(gen.source(), "biasForces");
        java.util.List<String> writes = java.util.regex.Pattern.compile("(?m)^\\s*(w\\$\\d+) = ").matcher(chunks)
                .results().map(r -> r.group(1)).toList();
        assertTrue(writes.size() > 100, "field writes: " + writes.size());
        assertTrue(new java.util.HashSet<>(writes).size() < writes.size(), "no field slot is reused");
        assertFalse(chunks.contains("w["), "romeo's bias forces read the array workspace");
    }

    @Test
    void smallMethodsKeepTheArrayWorkspace() throws Exception {
        Model model = UrdfReader.read(SharedFiles.model("iiwa14_no_collision.urdf"),
                new UrdfReader.Options(false, false));
        String source = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "Iiwa")).source();
        String chunks = chunkText(source, "biasForces");
        assertTrue(chunks.contains("w[") && !chunks.contains("w$"), "iiwa14's bias forces (5 chunks) use the array");
    }

    /** The text of the chunk methods {@code name$0}, {@code name$1}, ... of a generated source. */
    private static String chunkText(String source, String name) {
        StringBuilder out = new StringBuilder();
        for (int c = 0;; c++) {
            int start = source.indexOf("private void " + name + "$" + c + "(");
            if (start < 0) {
                return out.toString();
            }
            out.append(source, start, source.indexOf("\n    }\n", start));
        }
    }

    @Test
    void oversizedMethodsAreRefusedWithTheirName() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> InProcessCompiler.checkSizes("x.Y", Map.of("massMatrix([D)V", 8001)));
        assertTrue(e.getMessage().contains("x.Y.massMatrix([D)V has 8001 bytes"), e.getMessage());
    }

    /**
     * The closed form of a small model in the Javadoc: the double pendulum's H depends on the elbow angle only,
     * through its cosine; its gravity terms on sines of the absolute angles.
     */
    @Test
    void closedFormOfTheDoublePendulumIsReadable() throws Exception {
        Model model = UrdfReader.read(java.nio.file.Path.of("..", "samples", "src", "main", "symdyn",
                "double_pendulum.urdf"));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Pendulum").withClosedForm(true));
        String src = gen.source();
        int at = src.indexOf("H[0][0] = ");
        assertTrue(at > 0, "closed form in the Javadoc");
        String h00 = src.substring(at, src.indexOf('\n', at));
        assertTrue(h00.contains("Cos(q1)") && !h00.contains("q0"), h00);
        String h11 = src.substring(src.indexOf("H[1][1] = "), src.indexOf('\n', src.indexOf("H[1][1] = ")));
        assertFalse(h11.contains("q"), "H[1][1] is a constant: " + h11);
        assertTrue(src.contains("g[0] = "), "gravity terms");
        assertTrue(gen.generationMillis().containsKey("closed_form"));
        // The code itself is unchanged by the option.
        String plain = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "Pendulum"))
                .source();
        assertEquals(strip(plain), strip(src.replaceAll("(?s)<h2>Closed form</h2>.*?</pre>\\n", "")));
    }

    private static String strip(String javadoc) {
        return javadoc.replaceAll("(?m)^\\s*\\*.*$", "").replaceAll("\\s+", " ");
    }

    /** Two edges in contact, one on a floating body, one on an arm; with and without rolling. */
    @Test
    void lineOnLineRowsMatchGeneric() throws Exception {
        for (boolean rolling : new boolean[] {false, true}) {
            Model model = Model.builder("edges")
                    .addBody("arm", "world", "hinge", JointType.REVOLUTE, new double[] {0, 1, 0},
                            Pose.translation(0, 0, 0.5), box(1))
                    .addBody("block", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box(2))
                    .addConstraint(new org.symdyn.model.LineOnLineConstraintModel("edges", 0,
                            Pose.fromXyzRpy(new double[] {0.2, 0, 0.1}, new double[] {0.1, 0.2, 0.3}), 0.5, 1,
                            Pose.fromXyzRpy(new double[] {0, 0.1, -0.1}, new double[] {1.2, -0.4, 0.7}), 0.5, rolling,
                            NAN, SourceLocation.UNKNOWN))
                    .build();
            GeneratedClass gen = new CodeGenerator().generate(model,
                    GeneratorOptions.of("test.gen", "Edges" + rolling));
            ModelFunctions instance = GeneratedVsGenericTest.instance(gen);
            assertEquals(rolling ? 3 : 1, instance.constraintRows());
            GeneratedVsGenericTest.checkAll(model, instance, rolling ? 5 : 6);
        }
    }
}
