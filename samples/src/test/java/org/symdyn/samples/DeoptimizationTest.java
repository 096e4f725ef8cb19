package org.symdyn.samples;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.symdyn.testing.DeoptimizationCheck;

/**
 * Issue 18: the compiled form of every sample's generated class does not depend on the state values it has seen. A
 * fresh JVM warms all six classes (fixed-base arm, floating-base quadruped, closed loops, the line-on-line edge
 * roller) with small angles only, then calls every method with angles over the whole circle; no method of a
 * generated class may be deoptimised. And the reverse: warmed over the whole circle, then small angles. Before
 * issue 18 the first order deoptimised the quadrant branches of the inlined sine/cosine (e.g.
 * {@code Arm7Dynamics.forwardDynamics$0 reason=unstable_if}). The reverse order is the exhaustive run's (a fresh JVM
 * over every sample class: a minute of a loaded run); the generator's DeoptimizationTest runs both orders on two
 * public robots in the default run.
 */
class DeoptimizationTest {
    private static final List<String> CLASSES = SampleCases.ALL.stream()
            .map(c -> c.generated().get().getClass().getName()).toList();

    private static void check(boolean smallFirst) throws Exception {
        DeoptimizationCheck.assertNoDeoptimisation(smallFirst, List.of(), CLASSES);
    }

    @Test
    void smallAnglesThenTheWholeCircle() throws Exception {
        check(true);
    }

    @Tag("exhaustive")
    @Test
    void theWholeCircleThenSmallAngles() throws Exception {
        check(false);
    }
}
