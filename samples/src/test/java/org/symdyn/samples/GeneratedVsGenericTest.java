package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.symdyn.model.Model;
import org.symdyn.samples.Comparison.Quantity;

/**
 * Regression test of every generated sample class (built by this module's plugin execution) against the generic
 * runtime on the model read from the same classpath resource: for each model, each quantity (H, C, g, inverse and
 * forward dynamics, the pose of every frame, every kinematics method for every body and random points, the fused
 * evaluations, and for constrained models φ, φ̇, G and γ) on
 * {@value Comparison#STATES} random states, within 1e-10 relative to the largest entry of the quantity, at least 1
 * (see {@link Comparison}). One dynamic test per model and quantity; the seed depends on both, so a failure is
 * reproducible alone.
 */
class GeneratedVsGenericTest {
    @TestFactory
    Stream<DynamicContainer> everyGeneratedClassAgreesWithTheGenericRuntime() {
        return SampleCases.ALL.stream().map(c -> {
            List<DynamicTest> tests = new ArrayList<>();
            for (Quantity quantity : Quantity.values()) {
                tests.add(DynamicTest.dynamicTest(quantity.label, () -> {
                    Model model = SampleModels.load(c.file());
                    if (quantity.isConstraint() && model.constraintRowCount() == 0) {
                        // Nothing to compare; the generated class must say so.
                        assertEquals(0, SampleCases.Generated.of(c.generated().get()).functions()
                                .constraintRows());
                        return;
                    }
                    double worst = Comparison.check(quantity, model, c.generated().get(),
                            new Random(31L * c.file().hashCode() + quantity.name().hashCode()), Comparison.STATES);
                    System.out.printf(Locale.ROOT, "%-16s %-17s %d states, worst relative difference %.2e%n",
                            c.name(), quantity.label, Comparison.STATES, worst);
                }));
            }
            return DynamicContainer.dynamicContainer(c.name(), tests);
        });
    }
}
