package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintRankException;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.solvers.ImpulseSolver;

/**
 * The generated factorisation of a model's constrained system ({@link ConstrainedSystemFactorization}) against the
 * runtime's own fast path on the same bound class, on random states: forward dynamics by the direct and range-space
 * methods and impulses give the same v̇, λ, v⁺ and Λ within 1e-12 of their scale (at least 1; issue 17 asks 1e-12),
 * the generated path is the one taken wherever the runtime's fast path was, its pivot ratio is the runtime's, and
 * dependent rows are reported as before.
 */
class ConstrainedSystemFactorizationTest {
    private static final double TOL = 1e-12;
    private static final int STATES = 100;

    static Stream<Arguments> models() throws Exception {
        Path samples = Path.of("..", "samples", "src", "main", "symdyn");
        return Stream.of(
                Arguments.of("fourbar (built)", TestMechanisms.fourBar()),
                Arguments.of("planar leg", TestMechanisms.planarLeg()),
                Arguments.of("spatial mechanism", TestMechanisms.spatialMechanism()),
                Arguments.of("fourbar.urdf", UrdfReader.read(samples.resolve("fourbar.urdf"))),
                Arguments.of("quadruped.urdf", UrdfReader.read(samples.resolve("quadruped.urdf"))),
                Arguments.of("slider_crank.urdf", UrdfReader.read(samples.resolve("slider_crank.urdf"))),
                Arguments.of("edge_roller.urdf", UrdfReader.read(samples.resolve("edge_roller.urdf"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void generatedFactorisationMatchesTheRuntimes(String name, Model model) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "Saddle" + Math.abs(name.hashCode())));
        ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
        int m = model.constraints().isEmpty() ? 0 : ((ConstrainedSystemFactorization) generated).constraintRows();
        assertTrue(m > 0, name + " has constraint rows");
        assertTrue(gen.source().contains("is factorised by straight-line code for this model"), "header");
        ConstraintData own = ConstraintSet.of(model).bind(generated);
        // The Schur-complement factorisation is what is tested: not the limb-eliminated answer.
        own.settings().limbElimination(false);
        assertNotNull(own.generatedFactorization(), "a set of exactly the model's rows, bound alone");
        ConstraintData runtime = ConstraintSet.of(model).bind(GeneratedVsGenericTest.instance(gen));
        runtime.settings().generatedFactorization(false);
        // ... against the runtime's Schur complement (not its limb-by-limb solve, which forms no G H⁻¹ Gᵀ).
        runtime.settings().limbElimination(false);
        ConstrainedDynamics fdOwn = new ConstrainedDynamics(own);
        ConstrainedDynamics fdRuntime = new ConstrainedDynamics(runtime);
        ImpulseSolver impOwn = new ImpulseSolver(own);
        ImpulseSolver impRuntime = new ImpulseSolver(runtime);
        int nv = model.nv();
        Random rnd = new Random(name.hashCode());
        int used = 0;
        for (int n = 0; n < STATES; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                double[] expected = new double[nv];
                double[] actual = new double[nv];
                fdRuntime.forwardDynamics(method, q, v, tau, expected);
                fdOwn.forwardDynamics(method, q, v, tau, actual);
                String at = name + " " + method + " state " + n;
                GeneratedVsGenericTest.assertClose(expected, actual, TOL, "constrained vdot", at);
                GeneratedVsGenericTest.assertClose(runtime.force(), own.force(), TOL, "lambda", at);
                boolean fast = !fdRuntime.systemSolver().lastFellBack();
                assertEquals(fast, fdOwn.systemSolver().lastUsedGeneratedFactorization(), at
                        + ": the generated factorisation is used exactly where the runtime's fast path is");
                if (fast) {
                    used++;
                    double r = fdRuntime.systemSolver().lastSchurPivotRatio();
                    assertEquals(r, fdOwn.systemSolver().lastSchurPivotRatio(), 1e-9 * r, at + ": pivot ratio");
                }
            }
            double[] vMinus = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] expected = new double[nv];
            double[] actual = new double[nv];
            impRuntime.solveDirect(q, vMinus, expected);
            impOwn.solveDirect(q, vMinus, actual);
            GeneratedVsGenericTest.assertClose(expected, actual, TOL, "impulse v+", name + " state " + n);
            GeneratedVsGenericTest.assertClose(runtime.impulse(), own.impulse(), TOL, "impulse",
                    name + " state " + n);
            assertEquals(!impRuntime.systemSolver().lastFellBack(),
                    impOwn.systemSolver().lastUsedGeneratedFactorization(), name + " impulse state " + n);
        }
        assertTrue(used >= STATES, name + ": the generated factorisation solved " + used + " of " + 2 * STATES);
    }

    /** Dependent rows (a loop closed along x twice) are found and reported by name exactly as by the runtime. */
    @Test
    void dependentRowsAreReportedAsBefore() throws Exception {
        double[] x = {0, 0, 0, 1, 0, 0};
        double[] y = {0, 0, 0, 0, 1, 0};
        Model model = TestMechanisms.fourBarWithAxes(x, y, x);
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "RedundantFourBar")));
        ConstraintData data = ConstraintSet.of(model).bind(generated);
        assertNotNull(data.generatedFactorization());
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        double[] q = {-0.6267463657112392, 1.9327102732977162, -2.4162820189990875};
        double[] v = {0.9345454184438046, -1.262049653047284, -0.550848343503073};
        double[] tau = {0.3935663892622818, -0.6841094728691886, 4.850863919853213};
        for (boolean rankCheck : new boolean[] {true, false}) {
            data.settings().rankCheck(rankCheck);
            for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                ConstraintRankException e = assertThrows(ConstraintRankException.class,
                        () -> fd.forwardDynamics(method, q, v, tau, new double[3]), method + " check " + rankCheck);
                assertEquals(ConstraintRankException.Kind.REDUNDANT, e.kind());
                assertEquals(2, e.rank());
                assertTrue(e.involvedRows().containsAll(List.of("closure[0]", "closure[2]")), e.getMessage());
                assertFalse(fd.systemSolver().lastUsedGeneratedFactorization(), method + " check " + rankCheck);
            }
        }
        // H and G of that state are in the data's workspaces now: the generated factorisation sees the dependence.
        double ratio = data.generatedFactorization().factorConstrainedSystem(data.H(), data.G());
        assertTrue(data.H().get(0, 0) > 0, "H computed");
        assertTrue(ratio >= 0 && ratio <= org.symdyn.solvers.ConstrainedSystemSolver.SCHUR_RANK_RATIO,
                "pivot ratio of the dependent rows: " + ratio);
    }

    /**
     * Assembly (its weights in H's place) and the relaxed constrained inverse dynamics call the same solver with
     * other matrices than the data's H: they must not get the generated factorisation, whose folded constants are
     * those of H. Same results with it on and off.
     */
    @Test
    void otherMatricesKeepTheRuntimesFactorisation() throws Exception {
        Model model = UrdfReader.read(Path.of("..", "samples", "src", "main", "symdyn", "fourbar.urdf"));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "FourbarAssembly"));
        ConstraintData on = ConstraintSet.of(model).bind(GeneratedVsGenericTest.instance(gen));
        ConstraintData off = ConstraintSet.of(model).bind(GeneratedVsGenericTest.instance(gen));
        off.settings().generatedFactorization(false);
        assertNotNull(on.generatedFactorization());
        org.symdyn.solvers.Assembly assemblyOn = new org.symdyn.solvers.Assembly(on);
        org.symdyn.solvers.Assembly assemblyOff = new org.symdyn.solvers.Assembly(off);
        Random rnd = new Random(12);
        double[] weights = {1, 2, 0.5};
        for (int n = 0; n < 20; n++) {
            double[] q0 = GeneratedVsGenericTest.random(rnd, model.nq(), 1);
            double[] qOn = new double[model.nq()];
            double[] qOff = new double[model.nq()];
            boolean convergedOn = assemblyOn.assembleQ(q0, weights, qOn);
            boolean convergedOff = assemblyOff.assembleQ(q0, weights, qOff);
            assertEquals(convergedOff, convergedOn, "state " + n);
            assertEquals(0, TestMechanisms.maxDiff(qOn, qOff), "assembled q, state " + n);
            double[] v0 = GeneratedVsGenericTest.random(rnd, model.nv(), 1);
            double[] vOn = new double[model.nv()];
            double[] vOff = new double[model.nv()];
            assemblyOn.assembleV(qOn, v0, weights, vOn);
            assemblyOff.assembleV(qOff, v0, weights, vOff);
            assertEquals(0, TestMechanisms.maxDiff(vOn, vOff), "assembled v, state " + n);
        }
    }

    /** A settable parameter changes H: the generated factorisation reads it, as the runtime's does. */
    @Test
    void followsChangedParameters() throws Exception {
        String urdf = ParameterTest.arm(1.5, 0.01, 0.06, 0.002, -0.1).replace("</robot>", String.join("\n",
                "  <symdyn:loop name=\"hold\">",
                "    <symdyn:predecessor link=\"world\" xyz=\"0.3 0.1 0.2\" rpy=\"0 0 0\"/>",
                "    <symdyn:successor link=\"fore\" xyz=\"0 0 -0.4\" rpy=\"0 0 0\"/>",
                "    <symdyn:axis value=\"0 0 0 1 0 0\"/>",
                "  </symdyn:loop>", "</robot>"));
        Model model = UrdfReader.parse(urdf, "arm.urdf", UrdfReader.Options.DEFAULT);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "ArmLoopParameters"));
        ModelFunctions a = GeneratedVsGenericTest.instance(gen);
        ModelFunctions b = GeneratedVsGenericTest.instance(gen);
        double[] changed = {2.25, -0.03, 0.08, -0.004, -0.35};
        for (int k = 0; k < changed.length; k++) {
            ((org.symdyn.contract.ModelParameters) a).setParameter(k, changed[k]);
            ((org.symdyn.contract.ModelParameters) b).setParameter(k, changed[k]);
        }
        ConstraintData own = ConstraintSet.of(model).bind(a);
        // The Schur-complement factorisation is what is tested: not the limb-eliminated answer.
        own.settings().limbElimination(false);
        ConstraintData runtime = ConstraintSet.of(model).bind(b);
        runtime.settings().generatedFactorization(false);
        // ... against the runtime's Schur complement (not its limb-by-limb solve, which forms no G H⁻¹ Gᵀ).
        runtime.settings().limbElimination(false);
        ConstrainedDynamics fdOwn = new ConstrainedDynamics(own);
        ConstrainedDynamics fdRuntime = new ConstrainedDynamics(runtime);
        Random rnd = new Random(13);
        int nv = model.nv();
        for (int n = 0; n < 50; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            double[] expected = new double[nv];
            double[] actual = new double[nv];
            fdRuntime.forwardDynamicsDirect(q, v, tau, expected);
            fdOwn.forwardDynamicsDirect(q, v, tau, actual);
            GeneratedVsGenericTest.assertClose(expected, actual, TOL, "vdot, parameters changed", "state " + n);
            assertEquals(!fdRuntime.systemSolver().lastFellBack(), fdOwn.systemSolver()
                    .lastUsedGeneratedFactorization(), "state " + n);
        }
    }

    /** A non-finite input is refused with the runtime path's exception: the generated path declines it. */
    @Test
    void nonFiniteInputsAreRefusedAsBefore() throws Exception {
        Model model = UrdfReader.read(Path.of("..", "samples", "src", "main", "symdyn", "quadruped.urdf"));
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "QuadrupedNonFinite")));
        ConstraintData data = ConstraintSet.of(model).bind(generated);
        data.settings().limbElimination(false);
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        ImpulseSolver impulses = new ImpulseSolver(data);
        int nv = model.nv();
        Random rnd = new Random(8);
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
        double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
        double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
        fd.forwardDynamicsDirect(q, v, tau, new double[nv]);
        assertTrue(fd.systemSolver().lastUsedGeneratedFactorization());
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
            for (int k = 0; k < nv; k++) {
                double[] t = tau.clone();
                t[k] = bad;
                ArithmeticException e = assertThrows(ArithmeticException.class,
                        () -> fd.forwardDynamicsDirect(q, v, t, new double[nv]), "tau[" + k + "] = " + bad);
                assertTrue(e.getMessage().contains("right-hand side (a) has a non-finite entry"), e.getMessage());
                double[] vm = v.clone();
                vm[k] = bad;
                assertThrows(ArithmeticException.class, () -> impulses.solveDirect(q, vm, new double[nv]),
                        "v-[" + k + "] = " + bad);
            }
            double[] qBad = q.clone();
            qBad[7] = bad;
            assertThrows(ArithmeticException.class, () -> fd.forwardDynamicsDirect(qBad, v, tau, new double[nv]),
                    "q[7] = " + bad);
        }
    }

    /**
     * A system singular in every state (a rolling line-on-line contact whose row is identically zero for a planar
     * arm) is not factorised by generated code; the header says why and the runtime's solvers keep it.
     */
    @Test
    void aSystemSingularInEveryStateIsLeftToTheRuntime() throws Exception {
        String urdf = String.join("\n",
                "<robot name=\"edges\" xmlns:sd=\"urn:symdyn:1\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"shoulder\" type=\"revolute\">",
                "    <parent link=\"world\"/><child link=\"upper\"/><origin xyz=\"0 0 1\"/><axis xyz=\"0 1 0\"/>",
                "    <limit lower=\"-3\" upper=\"3\" effort=\"10\" velocity=\"5\"/>",
                "  </joint>",
                "  <link name=\"upper\"><inertial><origin xyz=\"0.25 0 0\"/><mass value=\"1.5\"/>",
                "    <inertia ixx=\"0.01\" iyy=\"0.03\" izz=\"0.03\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "  <joint name=\"elbow\" type=\"continuous\">",
                "    <parent link=\"upper\"/><child link=\"fore\"/><origin xyz=\"0.5 0 0\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"fore\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"0.8\"/>",
                "    <inertia ixx=\"0.005\" iyy=\"0.02\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "  <sd:line_on_line name=\"rub\" rolling=\"true\">",
                "    <sd:edge_f link=\"fore\" half_length=\"0.2\"/><sd:edge_b link=\"world\" half_length=\"1\"/>",
                "  </sd:line_on_line>",
                "</robot>");
        Model model = UrdfReader.parse(urdf, "edges.urdf", UrdfReader.Options.DEFAULT);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "EdgesSingular"));
        assertTrue(gen.source().contains("is not factorised by generated code: a pivot of its factorisation is "
                + "identically zero"), "header");
        assertFalse(GeneratedVsGenericTest.instance(gen) instanceof ConstrainedSystemFactorization);
    }

    /** Rows added in code, or bound with separate dynamics: the runtime's own factorisation. */
    @Test
    void onlyForExactlyTheModelsRowsBoundAlone() throws Exception {
        Model model = UrdfReader.read(Path.of("..", "samples", "src", "main", "symdyn", "quadruped.urdf"));
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "QuadrupedRows")));
        assertTrue(generated instanceof ConstrainedSystemFactorization);
        ConstraintSet.Builder more = ConstraintSet.builder(model);
        more.addContact(model.bodyCount() - 1, new double[] {0.01, 0, 0}, new double[] {0, 0, 1});
        assertNull(more.build().bind(generated).generatedFactorization(), "a row added in code");
        assertNull(ConstraintSet.of(model).bind(new org.symdyn.dynamics.GenericDynamics(model),
                new org.symdyn.dynamics.GenericDynamics(model), (ConstrainedSystemFactorization) generated)
                .generatedFactorization(), "separate dynamics");
        assertNotNull(ConstraintSet.of(model).bind(generated).generatedFactorization());
    }
}
