package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.generator.symbolic.SymbolicLimbs;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.SharedFiles;

/**
 * Twin limbs computed by calls of shared code ({@link SharedLimbCode}, {@link SymbolicLimbs}): which subtrees are
 * twins, which twins share code, when the generator uses the calls, and that C, g and τ with calls agree with the
 * generic runtime (every other quantity too, through {@link GeneratedVsGenericTest#compare}).
 */
class SharedLimbCodeTest {

    private static Model read(String file, boolean floating) throws Exception {
        return UrdfReader.read(SharedFiles.model(file), new UrdfReader.Options(floating, false));
    }

    private static List<List<String>> twinNames(Model model) {
        List<List<String>> out = new ArrayList<>();
        for (List<Integer> group : SymbolicLimbs.twins(model)) {
            List<String> names = new ArrayList<>();
            for (int b : group) {
                names.add(model.body(b).joint().name());
            }
            out.add(names);
        }
        return out;
    }

    @Test
    void romeosTwinsAreItsArmsThenItsLegs() throws Exception {
        Model romeo = read("romeo_small.urdf", true);
        List<List<String>> twins = twinNames(romeo);
        assertEquals(List.of(List.of("LShoulderPitch", "RShoulderPitch"), List.of("LHipYaw", "RHipYaw")), twins);
    }

    @Test
    void quadrupedLegsAreTwinsAndArmsHaveNone() throws Exception {
        assertEquals(List.of(List.of("lf_haa_joint", "rf_haa_joint", "lh_haa_joint", "rh_haa_joint")),
                twinNames(read("hyq_no_sensors.urdf", true)));
        assertTrue(SymbolicLimbs.twins(read("iiwa14_no_collision.urdf", false)).isEmpty());
        assertTrue(SymbolicLimbs.twins(read("panda.urdf", false)).isEmpty());
    }

    /**
     * Three arms of four joints (revolute about a tilted axis, revolute, prismatic, continuous) with full inertias on
     * a floating torso, or hanging from the world; the first two mirror each other (y offsets, tilts and centres of
     * mass of opposite signs) and carry two fingers of two joints each, which are below {@link SymbolicLimbs#MIN_DOF}.
     * The third, without fingers, has no twin.
     */
    static Model threeArms(boolean floating) throws Exception {
        ModelBuilder b = Model.builder("three_arms" + (floating ? "_floating" : "")).gravity(0.4, -0.3, -9.7);
        String base = "world";
        if (floating) {
            b.addBody("torso", "world", "free", JointType.FLOATING, null, Pose.IDENTITY,
                    RigidBodyInertia.of(8, new double[] {0.01, -0.02, 0.1}, 0.3, 0.01, -0.02, 0.25, 0.015, 0.2));
            base = "torso";
        }
        double[] side = {0.2, -0.2, 0.05};
        for (int a = 0; a < 3; a++) {
            double y = side[a];
            String p = "arm" + a;
            b.addBody(p + "_1", base, p + "_j1", JointType.REVOLUTE, new double[] {0.3, y > 0 ? 0.4 : -0.4, 0.866},
                    Pose.fromXyzRpy(new double[] {0.05, y, 0.3}, new double[] {y, 0.1, -y}),
                    RigidBodyInertia.of(1.2, new double[] {0.02, y / 10, 0.1}, 0.02, 0.001, -0.002, 0.03, 0.0015,
                            0.025));
            b.addBody(p + "_2", p + "_1", p + "_j2", JointType.REVOLUTE, new double[] {0, a == 2 ? -1 : 1, 0},
                    Pose.translation(0, 0, 0.25), RigidBodyInertia.of(0.9, new double[] {0.01, y / 20, 0.12}, 0.015,
                            0, 0, 0.02, 0.001, 0.01));
            b.addBody(p + "_3", p + "_2", p + "_j3", JointType.PRISMATIC, new double[] {0, 0, 1},
                    Pose.translation(0.02, 0, 0.22), RigidBodyInertia.of(0.5, new double[] {0, 0, 0.05}, 0.004, 0,
                            0, 0.004, 0, 0.002));
            b.addBody(p + "_4", p + "_3", p + "_j4", JointType.CONTINUOUS, new double[] {1, 0, 0},
                    Pose.fromXyzRpy(new double[] {0, y / 4, 0.1}, new double[] {0.2, 0, 0}),
                    RigidBodyInertia.of(0.3, new double[] {0.03, 0, 0.01}, 0.001, 0.0001, 0, 0.002, 0, 0.0015));
            for (int f = 0; f < 2 && a < 2; f++) {
                String finger = p + "_finger" + f;
                b.addBody(finger + "_1", p + "_4", finger + "_j1", JointType.REVOLUTE, new double[] {0, 0, 1},
                        Pose.translation(0.05, f == 0 ? 0.02 : -0.02, 0), RigidBodyInertia.of(0.05,
                                new double[] {0.02, 0, 0}, 1e-5, 0, 0, 2e-5, 0, 2e-5));
                b.addBody(finger + "_2", finger + "_1", finger + "_j2", JointType.REVOLUTE, new double[] {0, 0, 1},
                        Pose.translation(0.04, 0, 0), RigidBodyInertia.of(0.03, new double[] {0.015, 0, 0}, 1e-5, 0,
                                0, 1e-5, 0, 1e-5));
            }
        }
        return b.build();
    }

    /** How many times the source calls a method whose name starts with {@code prefix} (its definition excluded). */
    private static int calls(String source, String prefix) {
        Matcher m = Pattern.compile("\\n\\s+" + Pattern.quote(prefix) + "\\d+a?\\(limb\\$").matcher(source);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @ParameterizedTest(name = "floating={0}")
    @ValueSource(booleans = {false, true})
    void threeArmsWithCallsMatchGeneric(boolean floating) throws Exception {
        Model model = threeArms(floating);
        List<List<Integer>> twins = SymbolicLimbs.twins(model);
        assertEquals(1, twins.size(), "one group: the arms with fingers");
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "ThreeArms" + floating).withLimbs(LimbForm.SHARED)
                .withForwardDynamics(ForwardDynamicsForm.ARTICULATED_BODY));
        String source = gen.source();
        assertEquals(2, calls(source, "forwardDynamics$limb"), "FD calls the shared passes to the root once per twin");
        assertEquals(2, Pattern.compile("forwardDynamics\\$limb0b\\(limb").matcher(source).results().count(),
                "and the last pass once per twin");
        assertEquals(2, calls(source, "biasForces$limb"), "C calls the shared code once per twin");
        assertEquals(2, calls(source, "gravityForces$limb"), "g calls the shared code once per twin");
        assertEquals(2, calls(source, "inverseDynamics$limb"), "τ calls the shared code once per twin");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), floating ? 71 : 72);
    }

    @Test
    void sharedCodeWithMathTrig() throws Exception {
        // The mathTrig option: the shared code's sines and cosines as Math calls on the angles in its scratch array.
        Model model = threeArms(true);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "ThreeArmsMathTrig").withMathTrig(true).withLimbs(LimbForm.SHARED)
                .withForwardDynamics(ForwardDynamicsForm.ARTICULATED_BODY));
        assertTrue(gen.source().contains("Math.sin(s[18])"), "a limb's sine from its scratch array");
        assertEquals(2, calls(gen.source(), "biasForces$limb"));
        GeneratedVsGenericTest.compare(model, GeneratedVsGenericTest.instance(gen), new Random(76));
    }

    @Test
    void limbsWhoseLinkIsAPointMassShareCode() throws Exception {
        // Each arm's first link is massless and carries a point mass on a fixed link: the whole model merges them
        // into a body without rotational inertia about its centre, and so does each limb's own model, which accepts
        // it with a warning (a point mass is refused only where it makes H singular): the arms share code.
        ModelBuilder b = Model.builder("point_masses");
        for (int a = 0; a < 2; a++) {
            String p = "arm" + a;
            b.addBody(p + "_0", "world", p + "_j0", JointType.REVOLUTE, new double[] {0, 0, 1},
                    Pose.translation(0, a == 0 ? 0.2 : -0.2, 0.3), RigidBodyInertia.ZERO);
            b.addFixedLink(p + "_tip", p + "_0", Pose.translation(0.1, 0, 0), RigidBodyInertia.of(0.5,
                    new double[3], 0, 0, 0, 0, 0, 0), org.symdyn.model.SourceLocation.UNKNOWN,
                    org.symdyn.model.SourceLocation.UNKNOWN);
            String parent = p + "_0";
            for (int j = 1; j < 3; j++) {
                b.addBody(p + "_" + j, parent, p + "_j" + j, JointType.REVOLUTE, new double[] {0, 1, 0},
                        Pose.translation(0.1, 0, 0.2), RigidBodyInertia.of(1, new double[] {0.05, 0.01, 0.02}, 0.02,
                                0, 0, 0.03, 0, 0.025));
                parent = p + "_" + j;
            }
        }
        Model model = b.build();
        assertEquals(1, SymbolicLimbs.twins(model).size(), "the arms are twins in shape");
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "PointMasses").withLimbs(LimbForm.SHARED));
        assertEquals(2, calls(gen.source(), "biasForces$limb"), "shared");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 77);
    }

    @Test
    void mirroredTwinStaysUnrolled() throws Exception {
        // Without fingers, all three arms have the same shape; the third's mirrored axis makes its code differ.
        ModelBuilder b = Model.builder("mirrored");
        for (int a = 0; a < 3; a++) {
            String p = "arm" + a;
            String parent = "world";
            for (int j = 0; j < 3; j++) {
                b.addBody(p + "_" + j, parent, p + "_j" + j, JointType.REVOLUTE,
                        new double[] {0, a == 2 && j == 1 ? -1 : 1, 0},
                        Pose.translation(0.1 + 0.05 * a, 0.25 - 0.1 * a, 0.3), RigidBodyInertia.of(1,
                                new double[] {0.01, 0.02 + 0.01 * a, 0.1}, 0.02, 0, 0, 0.03, 0, 0.025));
                parent = p + "_" + j;
            }
        }
        Model model = b.build();
        assertEquals(1, SymbolicLimbs.twins(model).size());
        assertEquals(3, SymbolicLimbs.twins(model).get(0).size());
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Mirrored").withLimbs(LimbForm.SHARED));
        assertEquals(2, calls(gen.source(), "biasForces$limb"), "the two arms of the same code");
        assertFalse(gen.source().contains("biasForces$limb1"), "one shared method");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 73);
    }

    /**
     * A floating body with eight legs of eight joints (70 dof), each leg's numbers its own (mirrored and scaled):
     * by default its C and τ are far past {@link SharedLimbCode#MIN_CHUNKS}, so they call shared code, and the
     * constants tables (eight legs' worth) must not push the class initialiser past the JIT's limit, which the
     * generator checks.
     */
    @Test
    void eightLegsCallSharedCodeByDefault() throws Exception {
        ModelBuilder b = Model.builder("eight_legs");
        b.addBody("body", "world", "free", JointType.FLOATING, null, Pose.IDENTITY,
                RigidBodyInertia.of(20, new double[] {0.01, 0.02, -0.03}, 1.1, 0.02, 0.01, 1.3, -0.03, 1.6));
        double[][] axes = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
        for (int leg = 0; leg < 8; leg++) {
            double angle = leg * Math.PI / 4 + 0.1;
            double scale = 1 + 0.03 * leg;
            String parent = "body";
            for (int j = 0; j < 8; j++) {
                String link = "leg" + leg + "_" + j;
                Pose placement = j == 0
                        ? Pose.fromXyzRpy(new double[] {0.3 * Math.cos(angle), 0.3 * Math.sin(angle), -0.05},
                                new double[] {0, 0, angle})
                        : Pose.translation(0.12 * scale, 0.01 * (leg % 2 == 0 ? 1 : -1), -0.02);
                b.addBody(link, parent, link + "_joint", JointType.REVOLUTE, axes[j], placement,
                        RigidBodyInertia.of(0.8 / scale, new double[] {0.06 * scale, 0.005, -0.01}, 0.002, 0.0001,
                                -0.0002, 0.003, 0.00015, 0.0025));
                parent = link;
            }
        }
        Model model = b.build();
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "EightLegs"));
        assertEquals(8, calls(gen.source(), "biasForces$limb"), "C calls shared code for every leg");
        assertEquals(8, calls(gen.source(), "inverseDynamics$limb"), "τ calls shared code for every leg");
        assertEquals(0, calls(gen.source(), "forwardDynamics$limb"), "FD: only on request");
        GeneratedVsGenericTest.compare(model, GeneratedVsGenericTest.instance(gen), new Random(74));
    }

    static Stream<Arguments> sharedModels() {
        return Stream.of(Arguments.of("hyq_no_sensors.urdf", true), Arguments.of("solo12.urdf", true));
    }

    /** More robots for the exhaustive run: a fixed base, a third quadruped, the humanoid (28 s of a loaded run). */
    static Stream<Arguments> moreSharedModels() {
        return Stream.of(Arguments.of("hyq_no_sensors.urdf", false), Arguments.of("anymal.urdf", true),
                Arguments.of("romeo_small.urdf", false));
    }

    @Tag("exhaustive")
    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("moreSharedModels")
    void callsOnMoreRobotsMatchGeneric(String file, boolean floating) throws Exception {
        callsOnRealRobotsMatchGeneric(file, floating);
    }

    /** Calls forced where the generator would not use them by default: the calls' arithmetic on real robots. */
    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("sharedModels")
    void callsOnRealRobotsMatchGeneric(String file, boolean floating) throws Exception {
        Model model = read(file, floating);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Shared" + Math.abs(file.hashCode()) + floating)
                .withLimbs(LimbForm.SHARED)
                .withForwardDynamics(ForwardDynamicsForm.ARTICULATED_BODY));
        assertTrue(calls(gen.source(), "forwardDynamics$limb") >= 2, "FD calls shared code");
        assertTrue(calls(gen.source(), "biasForces$limb") >= 2, "C calls shared code");
        assertTrue(calls(gen.source(), "gravityForces$limb") >= 2, "g calls shared code");
        GeneratedVsGenericTest.compare(model, GeneratedVsGenericTest.instance(gen), new Random(file.hashCode()));
    }

    @Test
    void byDefaultOnlyMethodsTooLargeForTheCacheCall() throws Exception {
        String romeo = new CodeGenerator().generate(read("romeo_small.urdf", true),
                GeneratorOptions.of("org.symdyn.generated", "RomeoDefault")).source();
        assertEquals(2, calls(romeo, "biasForces$limb"), "C: 30 chunks unrolled");
        assertEquals(2, calls(romeo, "inverseDynamics$limb"), "τ: 31 chunks unrolled");
        assertEquals(0, calls(romeo, "forwardDynamics$limb"), "FD: only on request");
        assertEquals(0, calls(romeo, "gravityForces$limb"), "g: 12 chunks unrolled, under MIN_CHUNKS");
        String hyq = new CodeGenerator().generate(read("hyq_no_sensors.urdf", true),
                GeneratorOptions.of("org.symdyn.generated", "HyqDefault")).source();
        assertFalse(hyq.contains("$limb"), "hyq: every method under MIN_CHUNKS");
        String unrolled = new CodeGenerator().generate(read("romeo_small.urdf", true),
                GeneratorOptions.of("org.symdyn.generated", "RomeoUnrolled")
                        .withLimbs(LimbForm.UNROLLED)).source();
        assertFalse(unrolled.contains("$limb"), "UNROLLED");
    }
}
