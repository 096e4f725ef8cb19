package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
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
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ConstraintDerivatives;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedDynamicsDerivatives;

/**
 * Constrained forward dynamics derivatives ({@link ConstrainedDynamicsDerivatives}) with a generated class generated
 * with derivatives bound (its own ∂τ/∂q, ∂τ/∂v and H⁻¹; its own H, C, G, γ and, where emitted, its factorisation)
 * against the generic binding, on the samples with bilateral constraints (loops, contacts) at
 * {@value GeneratedDerivativesTest#STATES} random states, the second half with Baumgarte stabilisation on every
 * group: within 1e-9 of each matrix's largest entry (at least 1),
 * the bar of the other derivatives; the generic side is checked against finite differences in the runtime's
 * ConstrainedDynamicsDerivativesTest.
 */
class GeneratedConstrainedDerivativesTest {
    private static final Map<String, Double> WORST = new ConcurrentSkipListMap<>();
    private static final String[] NAMES = {"dvdot/dq", "dvdot/dv", "dvdot/dtau", "dlambda/dq", "dlambda/dv",
        "dlambda/dtau"};

    static Stream<Path> constrainedSamples() throws Exception {
        return GeneratedVsGenericTest.sampleModels().filter(p -> {
            try {
                Model m = UrdfReader.read(p);
                return !m.constraints().isEmpty() && ConstraintSet.of(m).groups().stream()
                        .noneMatch(g -> g.type() == ConstraintType.LINE_ON_LINE);
            } catch (Exception e) {
                throw new AssertionError(p + ": " + e.getMessage(), e);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("constrainedSamples")
    void generatedBindingMatchesGeneric(Path file) throws Exception {
        Model model = UrdfReader.read(file);
        ModelFunctions generated = withDerivatives(file, model);
        ConstraintSet set = ConstraintSet.of(model);
        ConstraintData genericData = set.bindGeneric();
        ConstraintData generatedData = set.bind(generated);
        assertTrue(generated instanceof ConstraintDerivatives, "the class differentiates its own rows");
        assertFalse(generatedData.needsMotionDerivatives(), "the generated binding uses the class's row derivatives");
        String name = file.getFileName().toString();
        compare(name, model, genericData, generatedData, GeneratedDerivativesTest.STATES / 2);
        // The second half with Baumgarte stabilisation on every group (the generated class's φ, φ̇ then).
        for (int g = 0; g < set.groupCount(); g++) {
            for (ConstraintData d : new ConstraintData[] {genericData, generatedData}) {
                d.setBaumgarteCoefficients(g, 4, 6);
                d.enableBaumgarte(g);
            }
        }
        compare(name + ", Baumgarte", model, genericData, generatedData, GeneratedDerivativesTest.STATES / 2);
    }

    /**
     * The class with derivatives of each sample, generated once for the tests of this class that use it (the
     * quadruped's takes a minute of a loaded run).
     */
    private static final Map<Path, ModelFunctions> WITH_DERIVATIVES = new HashMap<>();

    private static synchronized ModelFunctions withDerivatives(Path file, Model model) throws Exception {
        ModelFunctions cached = WITH_DERIVATIVES.get(file);
        if (cached == null) {
            cached = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model, GeneratorOptions.of(
                    "org.symdyn.generated", "ConstrainedDeriv" + Math.abs(file.hashCode())).withDerivatives(true)));
            WITH_DERIVATIVES.put(file, cached);
        }
        return cached;
    }

    private static Path quadruped() throws Exception {
        return GeneratedVsGenericTest.sampleModels().filter(p -> p.getFileName().toString().equals(
                "quadruped.urdf")).findFirst().orElseThrow();
    }

    /**
     * The quadruped's generated class in other bindings, against the generic binding of the same rows at 50 random
     * states: with a contact added in code after the model's rows (model rows from the class, the code rows from the
     * runtime) and Baumgarte on one model group and on the code group; and the set built from the class alone (no
     * Model).
     */
    @Test
    void otherBindingsOfTheGeneratedRows() throws Exception {
        Path file = quadruped();
        Model model = UrdfReader.read(file);
        ModelFunctions generated = withDerivatives(file, model);
        ConstraintSet.Builder builder = ConstraintSet.builder(model);
        builder.addContact(0, new double[] {0.1, 0.05, -0.02}, new double[] {0.6, 0, 0.8}, "trunk_touch",
                ConstraintSet.NO_ID);
        ConstraintSet mixed = builder.build();
        ConstraintData genericMixed = mixed.bindGeneric();
        ConstraintData generatedMixed = mixed.bind(generated);
        for (ConstraintData d : new ConstraintData[] {genericMixed, generatedMixed}) {
            d.setBaumgarteCoefficients(1, 3, 5);
            d.enableBaumgarte(1);
            d.setBaumgarteCoefficients(mixed.groupCount() - 1, 2, 4);
            d.enableBaumgarte(mixed.groupCount() - 1);
        }
        assertTrue(generatedMixed.needsMotionDerivatives(), "the code row needs the runtime's recursions");
        compare("quadruped with a code row", model, genericMixed, generatedMixed, 50);
        ConstraintData alone = ConstraintSet.of(generated).bind(generated);
        assertFalse(alone.needsMotionDerivatives());
        compare("quadruped from the class alone", model, ConstraintSet.of(model).bindGeneric(), alone, 50);
    }

    /** The quadruped's class generated in the large-model form (shared kinematics passes, looped H), 50 states. */
    @Tag("exhaustive")
    @Test
    void theRowsOfTheLargeModelForm() throws Exception {
        Model model = UrdfReader.read(quadruped());
        ModelFunctions shared = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "QuadrupedSharedDeriv").withDerivatives(true)
                        .withKinematics(KinematicsForm.SHARED_PASSES)));
        compare("quadruped, shared passes", model, ConstraintSet.of(model).bindGeneric(),
                ConstraintSet.of(model).bind(shared), 50);
    }

    /**
     * Loops and a contact on skew frames ({@link CodeGeneratorTest#skewRows}, floating: 7 rows on 12 dofs),
     * whose G and γ the generator writes in closed form and then differentiates along q, against the generic binding
     * at 40 random states, the second half with Baumgarte stabilisation on every group.
     */
    @Test
    void closedFormRowsOnSkewFrames() throws Exception {
        Model model = CodeGeneratorTest.skewRows(true);
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "SkewDeriv").withDerivatives(true)));
        ConstraintSet set = ConstraintSet.of(model);
        ConstraintData genericData = set.bindGeneric();
        ConstraintData generatedData = set.bind(generated);
        assertFalse(generatedData.needsMotionDerivatives(), "the generated binding uses the class's row derivatives");
        compare("skew", model, genericData, generatedData, 20);
        for (int g = 0; g < set.groupCount(); g++) {
            for (ConstraintData d : new ConstraintData[] {genericData, generatedData}) {
                d.setBaumgarteCoefficients(g, 4, 6);
                d.enableBaumgarte(g);
            }
        }
        compare("skew, Baumgarte", model, genericData, generatedData, 20);
    }

    /** The derivatives of two bindings of the same rows at random states, within the class's 1e-9 bar. */
    private static void compare(String name, Model model, ConstraintData expected, ConstraintData actual, int states) {
        ConstrainedDynamicsDerivatives a = new ConstrainedDynamicsDerivatives(expected);
        ConstrainedDynamicsDerivatives b = new ConstrainedDynamicsDerivatives(actual);
        int nv = model.nv();
        int m = expected.size();
        DMatrixRMaj[] x = new DMatrixRMaj[6];
        DMatrixRMaj[] y = new DMatrixRMaj[6];
        for (int i = 0; i < 6; i++) {
            x[i] = new DMatrixRMaj(i < 3 ? nv : m, nv);
            y[i] = new DMatrixRMaj(i < 3 ? nv : m, nv);
        }
        Random rnd = new Random(name.hashCode());
        for (int n = 0; n < states; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            a.compute(q, v, tau, x[0], x[1], x[2], x[3], x[4], x[5]);
            b.compute(q, v, tau, y[0], y[1], y[2], y[3], y[4], y[5]);
            for (int i = 0; i < 6; i++) {
                double scale = Math.max(1, org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(x[i]));
                double worst = 0;
                for (int k = 0; k < x[i].data.length; k++) {
                    double e = Math.abs(x[i].data[k] - y[i].data[k]);
                    worst = e > worst || Double.isNaN(e) ? e : worst;
                }
                WORST.merge(NAMES[i] + " | " + name, worst / scale, Math::max);
                String what = name + " state " + n + ": " + NAMES[i] + " differs by " + worst + " (scale " + scale
                        + ")";
                assertTrue(worst <= GeneratedDerivativesTest.TOL * scale, what);
            }
        }
    }

    /**
     * A line-on-line contact (the edge roller: rolling, three rows), which the runtime's rows do not differentiate:
     * the generated class's own row derivatives against Richardson central differences of the constrained forward
     * dynamics of the same binding (q moved along the tangent directions), within 1e-6 of each matrix's largest
     * entry.
     */
    @Test
    void lineOnLineRowsThroughTheGeneratedClass() throws Exception {
        Path file = GeneratedVsGenericTest.sampleModels().filter(p -> p.getFileName().toString().equals(
                "edge_roller.urdf")).findFirst().orElseThrow();
        Model model = UrdfReader.read(file);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "EdgeRollerDeriv").withDerivatives(true));
        ConstraintSet set = ConstraintSet.of(model);
        assertThrows(UnsupportedOperationException.class, () -> new ConstrainedDynamicsDerivatives(
                set.bindGeneric()));
        ConstraintData data = set.bind(GeneratedVsGenericTest.instance(gen));
        ConstraintData reference = set.bind(GeneratedVsGenericTest.instance(gen));
        ConstrainedDynamicsDerivatives d = new ConstrainedDynamicsDerivatives(data);
        ConstrainedDynamics fd = new ConstrainedDynamics(reference);
        StateSpace space = new StateSpace(model);
        int nv = model.nv();
        int m = set.size();
        Random rnd = new Random(17);
        DMatrixRMaj[] out = new DMatrixRMaj[6];
        for (int i = 0; i < 6; i++) {
            out[i] = new DMatrixRMaj(i < 3 ? nv : m, nv);
        }
        String[] names = NAMES;
        for (int n = 0; n < 5; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 1);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 5);
            d.compute(q, v, tau, out[0], out[1], out[2], out[3], out[4], out[5]);
            for (int wrt = 0; wrt < 3; wrt++) {
                for (int k = 0; k < nv; k++) {
                    double[] e = new double[nv];
                    e[k] = 1;
                    double[] xi = new double[nv];
                    space.tangent(q, e, xi);
                    int which = wrt;
                    int col = k;
                    double[] diff = org.symdyn.dynamics.DynamicsDerivativesTest.richardson(t -> {
                        double[] qq = q.clone();
                        double[] vv = v.clone();
                        double[] tt = tau.clone();
                        if (which == 0) {
                            space.retract(q, xi, t, qq);
                        } else if (which == 1) {
                            vv[col] += t;
                        } else {
                            tt[col] += t;
                        }
                        double[] vdot = new double[nv];
                        fd.forwardDynamicsDirect(qq, vv, tt, vdot);
                        double[] both = Arrays.copyOf(vdot, nv + m);
                        System.arraycopy(reference.force(), 0, both, nv, m);
                        return both;
                    });
                    for (int r = 0; r < nv + m; r++) {
                        DMatrixRMaj o = r < nv ? out[which] : out[3 + which];
                        int row = r < nv ? r : r - nv;
                        double scale = Math.max(1, org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(o));
                        double err = Math.abs(o.get(row, col) - diff[r]);
                        WORST.merge((r < nv ? names[which] : names[3 + which]) + " | edge_roller (differences)",
                                err / scale, Math::max);
                        String what = "edge roller state " + n + ": " + (r < nv ? names[which] : names[3 + which])
                                + " (" + row + ", " + col + ") " + o.get(row, col) + " vs differences " + diff[r];
                        assertTrue(err <= 1e-6 * scale, what);
                    }
                }
            }
        }
    }

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf(Locale.ROOT, "constrained derivatives %-40s %.2e%n", k, v));
    }
}
