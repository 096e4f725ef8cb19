package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.contract.ArticulatedConstraintSystem;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelPart;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintRankException;
import org.symdyn.solvers.ImpulseSolver;
import org.symdyn.solvers.RecursiveConstrainedDynamics;

/**
 * The generated recursive constrained system ({@link ArticulatedConstraintSystem}) against the generic runtime on
 * random states: v̇₀, G and γ equal the generic forward dynamics and rows, K equals G H⁻¹ Gᵀ formed densely from the
 * generic H, the response equals H⁻¹ Gᵀ λ; and the solvers' recursive method on the generated class gives the
 * direct method's v̇, λ, v⁺ and Λ within 1e-12 of their scale (at least 1), with dependent rows reported as before.
 * The models cover every joint type (the planar joint's motion subspace depends on q, so the second method reads it
 * kept) and armature.
 */
class ArticulatedConstraintSystemTest {
    private static final double TOL = 1e-12;
    private static final int STATES = 100;

    /** The default parts and the recursive constraints. */
    private static GeneratorOptions options(String className) {
        java.util.Set<ModelPart> parts = java.util.EnumSet.copyOf(ModelPart.defaults());
        parts.add(ModelPart.RECURSIVE_CONSTRAINTS);
        return GeneratorOptions.of("test.gen", className).withParts(parts);
    }

    /** Without the part (the default) the class is as before: no recursion, and the solvers use the direct method. */
    @Test
    void theDefaultPartsLeaveItOut() throws Exception {
        Model model = TestMechanisms.fourBar();
        GeneratedClass plain = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "PlainFourBar"));
        assertFalse(plain.source().contains("articulatedConstraintSystem"));
        ConstraintData data = ConstraintSet.of(model).bind(GeneratedVsGenericTest.instance(plain));
        assertNull(data.generatedArticulatedSystem());
        assertNull(new ConstrainedDynamics(data).recursiveMethod());
    }

    /**
     * The part needs the constraints part (refused with a message otherwise), and a class whose model has no rows
     * leaves the recursion out and does not claim it in parts().
     */
    @Test
    void thePartIsClaimedOnlyWhereItIsEmitted() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelPart.ofOptionList("dynamics,recursive_constraints"));
        assertTrue(e.getMessage().contains("needs constraints"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GeneratorOptions.of("test.gen", "NoRows")
                .withParts(java.util.EnumSet.of(ModelPart.DYNAMICS, ModelPart.RECURSIVE_CONSTRAINTS)));
        Model pendulum = Model.builder("pendulum")
                .addBody("bob", "world", "hinge", org.symdyn.model.JointType.REVOLUTE, new double[] {0, 1, 0},
                        org.symdyn.spatial.Pose.IDENTITY, org.symdyn.spatial.RigidBodyInertia.of(1.0,
                                new double[] {0, 0, -0.5}, 0.1, 0, 0, 0.1, 0, 0.01))
                .build();
        ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(pendulum,
                options("NoRowsPendulum")));
        assertFalse(f instanceof ArticulatedConstraintSystem);
        assertFalse(f.parts().contains(ModelPart.RECURSIVE_CONSTRAINTS));
        ModelFunctions withRows = GeneratedVsGenericTest.instance(new CodeGenerator().generate(
                TestMechanisms.fourBar(), options("WithRowsFourBar")));
        assertTrue(withRows.parts().contains(ModelPart.RECURSIVE_CONSTRAINTS));
    }

    static Stream<Arguments> models() throws Exception {
        Path samples = Path.of("..", "samples", "src", "main", "symdyn");
        return Stream.of(
                Arguments.of("every joint type (floating, planar, ball, prismatic; loop, contact, coupler)",
                        CodeGeneratorTest.everyJointType()),
                Arguments.of("every joint type with armature", ArmatureGenerationTest.withArmature(
                        CodeGeneratorTest.everyJointType(), i -> 0.05 + 0.1 * i)),
                Arguments.of("fourbar (built)", TestMechanisms.fourBar()),
                Arguments.of("planar leg", TestMechanisms.planarLeg()),
                Arguments.of("spatial mechanism", TestMechanisms.spatialMechanism()),
                Arguments.of("quadruped.urdf", UrdfReader.read(samples.resolve("quadruped.urdf"))),
                Arguments.of("slider_crank.urdf", UrdfReader.read(samples.resolve("slider_crank.urdf"))),
                Arguments.of("edge_roller.urdf", UrdfReader.read(samples.resolve("edge_roller.urdf"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void generatedRecursionMatchesTheGenericRuntime(String name, Model model) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                options("Articulated" + Math.abs(name.hashCode())));
        ModelFunctions f = GeneratedVsGenericTest.instance(gen);
        ArticulatedConstraintSystem art = (ArticulatedConstraintSystem) f;
        int nv = model.nv();
        int m = art.constraintRows();
        ConstraintData generic = ConstraintSet.of(model).bindGeneric();
        GenericDynamics dyn = new GenericDynamics(model);
        Random rnd = new Random(name.hashCode());
        DMatrixRMaj g = new DMatrixRMaj(m, nv);
        DMatrixRMaj k = new DMatrixRMaj(m, m);
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        double[] vdot0 = new double[nv];
        double[] gamma = new double[m];
        for (int n = 0; n < STATES; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            String at = name + " state " + n;
            art.articulatedConstraintSystem(q, v, tau, vdot0, g, gamma, k);
            double[] expected = new double[nv];
            dyn.forwardDynamics(q, v, tau, expected);
            GeneratedVsGenericTest.assertClose(expected, vdot0, TOL, "vdot0", at);
            DMatrixRMaj gRef = new DMatrixRMaj(m, nv);
            generic.functions().constraintJacobian(q, gRef);
            GeneratedVsGenericTest.assertClose(gRef.data, g.data, TOL, "G", at);
            double[] gammaRef = new double[m];
            generic.functions().gamma(q, v, gammaRef);
            GeneratedVsGenericTest.assertClose(gammaRef, gamma, TOL, "gamma", at);
            dyn.massMatrix(q, h);
            DMatrixRMaj gt = new DMatrixRMaj(nv, m);
            CommonOps_DDRM.transpose(gRef, gt);
            DMatrixRMaj hInvGt = new DMatrixRMaj(nv, m);
            assertTrue(CommonOps_DDRM.solve(h, gt, hInvGt));
            DMatrixRMaj kRef = new DMatrixRMaj(m, m);
            CommonOps_DDRM.mult(gRef, hInvGt, kRef);
            GeneratedVsGenericTest.assertClose(kRef.data, k.data, 1e-10, "K", at);
            double[] lambda = GeneratedVsGenericTest.random(rnd, m, 5);
            double[] dv = new double[nv];
            art.articulatedResponse(lambda, dv);
            double[] dvRef = new double[nv];
            for (int i = 0; i < nv; i++) {
                for (int r = 0; r < m; r++) {
                    dvRef[i] += hInvGt.get(i, r) * lambda[r];
                }
            }
            GeneratedVsGenericTest.assertClose(dvRef, dv, 1e-10, "response", at);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void solversRecursiveMethodOnTheGeneratedClassMatchesTheDirectMethod(String name, Model model) throws Exception {
        ModelFunctions f = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                options("ArticulatedSolve" + Math.abs(name.hashCode()))));
        ConstraintData data = ConstraintSet.of(model).bind(f);
        assertNotNull(data.generatedArticulatedSystem());
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        ImpulseSolver imp = new ImpulseSolver(data);
        assertTrue(fd.recursiveMethod().isGenerated());
        int nv = model.nv();
        Random rnd = new Random(31 * name.hashCode());
        double[] a = new double[nv];
        double[] b = new double[nv];
        for (int n = 0; n < STATES; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            String at = name + " state " + n;
            if (n % 10 == 5) {
                data.enableBaumgarte(0);
            }
            fd.forwardDynamicsDirect(q, v, tau, a);
            double[] lambda = data.force().clone();
            fd.forwardDynamicsRecursive(q, v, tau, b);
            assertFalse(fd.recursiveMethod().lastFellBack(), at);
            GeneratedVsGenericTest.assertClose(a, b, TOL, "constrained vdot", at);
            GeneratedVsGenericTest.assertClose(lambda, data.force(), TOL, "lambda", at);
            data.disableBaumgarte(0);
            double[] vMinus = GeneratedVsGenericTest.random(rnd, nv, 2);
            imp.solveDirect(q, vMinus, a);
            double[] impulse = data.impulse().clone();
            imp.solveRecursive(q, vMinus, b);
            GeneratedVsGenericTest.assertClose(a, b, TOL, "impulse v+", at);
            GeneratedVsGenericTest.assertClose(impulse, data.impulse(), TOL, "impulse", at);
        }
    }

    /** Dependent rows (a loop closed along x twice) are reported exactly as by the direct method. */
    @Test
    void dependentRowsAreReportedAsByTheDirectMethod() throws Exception {
        double[] x = {0, 0, 0, 1, 0, 0};
        double[] y = {0, 0, 0, 0, 1, 0};
        Model model = TestMechanisms.fourBarWithAxes(x, y, x);
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                options("RedundantArticulated")));
        ConstraintData data = ConstraintSet.of(model).bind(generated);
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        assertTrue(fd.recursiveMethod().isGenerated());
        double[] q = {-0.6267463657112392, 1.9327102732977162, -2.4162820189990875};
        double[] v = {0.9345454184438046, -1.262049653047284, -0.550848343503073};
        double[] tau = {0.3935663892622818, -0.6841094728691886, 4.850863919853213};
        ConstraintRankException direct = assertThrows(ConstraintRankException.class,
                () -> fd.forwardDynamicsDirect(q, v, tau, new double[3]));
        ConstraintRankException recursive = assertThrows(ConstraintRankException.class,
                () -> fd.forwardDynamicsRecursive(q, v, tau, new double[3]));
        assertEquals(direct.getMessage(), recursive.getMessage());
        assertEquals(direct.involvedRows(), recursive.involvedRows());
    }
}
