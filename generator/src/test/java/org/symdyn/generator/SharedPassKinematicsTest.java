package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.SharedFiles;

/**
 * The kinematics of large models from shared passes over the tree ({@link SharedPassKinematics}) against the generic
 * runtime, as {@link GeneratedVsGenericTest} checks the per-body form: every pose, frame, velocity, acceleration,
 * point quantity and Jacobian on random states at 1e-10 relative.
 */
class SharedPassKinematicsTest {

    /** Every joint type and constraint, the passes forced (the model is small). */
    @Test
    void everyJointTypeMatchesGeneric() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "EveryJointPasses").withKinematics(KinematicsForm.SHARED_PASSES));
        assertTrue(gen.source().contains("runs a straight-line pass over the whole tree"), "header");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 11);
    }

    /**
     * The compact form ({@link KinematicsForm#COMPACT}: shared kinematics passes, the dynamics and fused evaluations
     * as by size) of every sample, loops, couplers and the line-on-line rows included: the whole contract against
     * the generic runtime, and the passes in the source.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.symdyn.generator.GeneratedVsGenericTest#sampleModels")
    void theCompactFormOfEverySampleMatchesGeneric(Path file) throws Exception {
        Model model = UrdfReader.read(file);
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("org.symdyn.generated",
                "Compact" + Math.abs(file.hashCode())).withKinematics(KinematicsForm.COMPACT));
        assertTrue(gen.source().contains("private final double[] kinPose = new double["), "the shared passes");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), file.hashCode() + 5);
    }

    /** A floating quadruped with named foot frames, the passes forced. */
    @Test
    void aFloatingQuadrupedMatchesGeneric() throws Exception {
        Model model = UrdfReader.read(SharedFiles.model("hyq_no_sensors.urdf"), new UrdfReader.Options(true, false));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "HyqPasses").withKinematics(KinematicsForm.SHARED_PASSES));
        ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
        GeneratedVsGenericTest.comparePoses(model, generated, new Random(12));
        GeneratedVsGenericTest.compareKinematics(model, generated, new Random(13));
        // The index checks say what the per-body form's switch says.
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> generated.bodyJacobian(new double[model.nq()], model.bodyCount(), new DMatrixRMaj(6, model.nv())));
        assertTrue(e.getMessage().equals("body " + model.bodyCount() + " of " + model.bodyCount()), e.getMessage());
    }

    /**
     * A 30-link chain is past {@link SharedPassKinematics#MAX_PER_BODY_DEPTH_SUM} (its depth sum is 465): by
     * default it gets the passes, which match the generic runtime, and its class is a fraction of the per-body one.
     */
    @Test
    void aLongChainGetsThePassesByDefault() throws Exception {
        Model model = chain(30);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Chain30"));
        assertTrue(gen.source().contains("runs a straight-line pass over the whole tree"), "header");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 14);
        Model small = chain(19);
        assertFalse(new CodeGenerator().generate(small, GeneratorOptions.of("test.gen", "Chain19")).source()
                .contains("runs a straight-line pass over the whole tree"), "a 19-link chain (depth sum 190) keeps "
                + "per-body methods");
    }

    /**
     * A 70-link chain: past {@link ForwardDynamicsForm#MAX_FACTORISATION_WORK} (the LᵀDL of H is not derived, the
     * articulated-body algorithm is taken), past {@link StaticTables#MAX_INLINE_ELEMENTS} (its tables are filled by
     * slice methods), with the looped CRBA: every method matches the generic runtime and none is over the JIT limit
     * (the in-process compilation checks every method, the class initialiser included).
     */
    @Tag("exhaustive")
    @Test
    void aSeventyLinkChainGeneratesAndMatchesGeneric() throws Exception {
        Model model = chain(70);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Chain70"));
        String source = gen.source();
        assertTrue(source.contains("the LᵀDL factorisation of H was not derived: its work Σ|ancestors|² is 111895, past"
                + " 100000"), "header");
        assertTrue(source.contains("private static final int[] PARENTS = PARENTS$init();"), "sliced tables");
        assertTrue(source.contains("massMatrixPass(q);"), "looped CRBA");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 15);
    }

    /** A chain of n revolute links with full inertias, axes cycling z, y, x. */
    static Model chain(int n) throws Exception {
        ModelBuilder b = Model.builder("chain" + n);
        String parent = "world";
        double[][] axes = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}};
        for (int i = 0; i < n; i++) {
            b.addBody("link" + i, parent, "j" + i, JointType.REVOLUTE, axes[i % 3],
                    Pose.fromXyzRpy(new double[] {0.02, 0.01, 0.3}, new double[] {0.1, 0, 0}),
                    RigidBodyInertia.of(1 + 0.02 * i, new double[] {0.01, 0.02, 0.15}, 0.02, 0.001, -0.002, 0.03,
                            0.0015, 0.025));
            parent = "link" + i;
        }
        return b.build();
    }
}
