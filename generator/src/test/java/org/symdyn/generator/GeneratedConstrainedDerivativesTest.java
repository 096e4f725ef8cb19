package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;
import org.symdyn.model.urdf.UrdfReader;
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
        CodeGenerator.GeneratedClass gen = new CodeGenerator().generate(model, new CodeGenerator.Options(
                "org.symdyn.generated", "ConstrainedDeriv" + Math.abs(file.hashCode())).withDerivatives(true));
        ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
        ConstraintSet set = ConstraintSet.of(model);
        ConstraintData genericData = set.bindGeneric();
        ConstraintData generatedData = set.bind(generated);
        ConstrainedDynamicsDerivatives a = new ConstrainedDynamicsDerivatives(genericData);
        ConstrainedDynamicsDerivatives b = new ConstrainedDynamicsDerivatives(generatedData);
        int nv = model.nv();
        int m = set.size();
        DMatrixRMaj[] x = new DMatrixRMaj[6];
        DMatrixRMaj[] y = new DMatrixRMaj[6];
        for (int i = 0; i < 6; i++) {
            x[i] = new DMatrixRMaj(i < 3 ? nv : m, nv);
            y[i] = new DMatrixRMaj(i < 3 ? nv : m, nv);
        }
        String[] names = {"dvdot/dq", "dvdot/dv", "dvdot/dtau", "dlambda/dq", "dlambda/dv", "dlambda/dtau"};
        Random rnd = new Random(file.getFileName().toString().hashCode());
        String name = file.getFileName().toString();
        for (int n = 0; n < GeneratedDerivativesTest.STATES; n++) {
            if (n == GeneratedDerivativesTest.STATES / 2) {
                // The second half with Baumgarte stabilisation on every group (the generated class's φ, φ̇ then).
                for (int g = 0; g < set.groupCount(); g++) {
                    for (ConstraintData d : new ConstraintData[] {genericData, generatedData}) {
                        d.setBaumgarteCoefficients(g, 4, 6);
                        d.enableBaumgarte(g);
                    }
                }
            }
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
                WORST.merge(names[i] + " | " + name, worst / scale, Math::max);
                double w = worst;
                int state = n;
                int which = i;
                assertTrue(worst <= GeneratedDerivativesTest.TOL * scale, () -> name + " state " + state + ": "
                        + names[which] + " differs by " + w + " (scale " + scale + ")");
            }
        }
    }

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf(Locale.ROOT, "constrained derivatives %-40s %.2e%n", k, v));
    }
}
