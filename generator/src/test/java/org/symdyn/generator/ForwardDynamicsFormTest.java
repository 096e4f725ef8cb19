package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelParameters;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.ForwardDynamicsForm;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.SharedFiles;

/**
 * Both forms of the generated forward dynamics (the LᵀDL of H and the unrolled articulated-body algorithm), forced
 * by the options, against the generic runtime's articulated-body algorithm on random states (1e-10 relative, as
 * {@link GeneratedVsGenericTest}); and the default choice by operation count.
 */
class ForwardDynamicsFormTest {

    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("iiwa14_no_collision.urdf", false),
                Arguments.of("hyq_no_sensors.urdf", true),
                Arguments.of("solo12.urdf", true),
                Arguments.of("romeo_small.urdf", true));
    }

    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("models")
    void bothFormsMatchGenericOnSharedModels(String file, boolean floating) throws Exception {
        Path path = SharedFiles.model(file);
        Model model = UrdfReader.read(path, new UrdfReader.Options(floating, false));
        for (ForwardDynamicsForm form : new ForwardDynamicsForm[] {ForwardDynamicsForm.ARTICULATED_BODY,
            ForwardDynamicsForm.FACTORISED_MASS_MATRIX}) {
            compareForwardDynamics(model, generate(model, form, "Fd" + Math.abs(file.hashCode()) + form.ordinal()),
                    new Random(file.hashCode()), form + " " + file);
        }
    }

    /** Every joint type (floating base, a general revolute axis, ball, planar, prismatic, continuous). */
    @Test
    void articulatedBodyFormMatchesGenericOnEveryJointType() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        compareForwardDynamics(model, generate(model, ForwardDynamicsForm.ARTICULATED_BODY, "EveryJointAba"),
                new Random(3), "every joint type");
    }

    /** Settable inertial and joint-placement parameters enter the articulated inertias symbolically. */
    @Test
    void articulatedBodyFormFollowsParameters() throws Exception {
        Model model = UrdfReader.parse(ParameterTest.arm(1.5, 0.01, 0.06, 0.002, -0.1), "arm.urdf",
                UrdfReader.Options.DEFAULT);
        ModelFunctions generated = generate(model, ForwardDynamicsForm.ARTICULATED_BODY, "ArmAba");
        compareForwardDynamics(model, generated, new Random(4), "arm");
        double[] other = {2.25, -0.03, 0.08, -0.004, -0.35};
        for (int k = 0; k < other.length; k++) {
            ((ModelParameters) generated).setParameter(k, other[k]);
        }
        Model changed = UrdfReader.parse(ParameterTest.arm(other[0], other[1], other[2], other[3], other[4]),
                "arm.urdf", UrdfReader.Options.DEFAULT);
        compareForwardDynamics(changed, generated, new Random(5), "arm, parameters changed");
    }

    /**
     * A chain of 24 revolute links: the articulated-body algorithm is O(n) where the factorisation of the (dense)
     * H is O(n³), so the default picks it and says so in the header.
     */
    @Test
    void aLongChainGetsTheArticulatedBodyAlgorithm() throws Exception {
        org.symdyn.model.ModelBuilder b = Model.builder("chain24");
        String parent = "world";
        double[][] axes = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
        for (int i = 0; i < 24; i++) {
            b.addBody("link" + i, parent, "j" + i, JointType.REVOLUTE, axes[i % 3],
                    Pose.fromXyzRpy(new double[] {0.02, 0.01, 0.3}, new double[] {0.1, 0, 0}),
                    RigidBodyInertia.of(1 + 0.02 * i, new double[] {0.01, 0.02, 0.15}, 0.02, 0.001, -0.002, 0.03,
                            0.0015, 0.025));
            parent = "link" + i;
        }
        Model model = b.build();
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Chain24"));
        assertTrue(gen.source().contains("Forward dynamics: the articulated-body algorithm"), "header");
        ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
        compareForwardDynamics(model, generated, new Random(6), "chain24");
        int aba = gen.operations().get(GeneratedMethod.FORWARD_DYNAMICS).flops();
        assertTrue(aba < gen.operations().get(GeneratedMethod.MASS_MATRIX).flops()
                + gen.operations().get(GeneratedMethod.BIAS_FORCES).flops(),
                "the articulated-body algorithm costs less than H and C alone: " + gen.operations());
    }

    /** Arms this small keep the factorisation of H, which has fewer operations. */
    @Test
    void aSmallArmKeepsTheFactorisation() throws Exception {
        Model model = UrdfReader.read(SharedFiles.model("iiwa14_no_collision.urdf"));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "IiwaDefault"));
        assertTrue(gen.source().contains("Forward dynamics: H⁻¹ (τ - C) through the branch-sparse LᵀDL"),
                "header");
    }

    private static ModelFunctions generate(Model model, ForwardDynamicsForm form, String name) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", name).withForwardDynamics(form));
        assertTrue(gen.source().contains(form == ForwardDynamicsForm.ARTICULATED_BODY
                ? "Forward dynamics: the articulated-body algorithm" : "Forward dynamics: H⁻¹ (τ - C)"), "header");
        assertTrue(gen.source().contains("as the generator's options asked"), "header");
        return GeneratedVsGenericTest.instance(gen);
    }

    private static void compareForwardDynamics(Model model, ModelFunctions generated, Random rnd, String what) {
        GenericDynamics generic = new GenericDynamics(model);
        int nv = model.nv();
        assertEquals(nv, generated.nv());
        double[] expected = new double[nv];
        double[] actual = new double[nv];
        for (int n = 0; n < GeneratedVsGenericTest.STATES; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            generic.forwardDynamics(q, v, tau, expected);
            generated.forwardDynamics(q, v, tau, actual);
            GeneratedVsGenericTest.assertClose(expected, actual, "vdot", what);
        }
    }
}
