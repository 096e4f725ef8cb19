package org.symdyn.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The pivot ratios a generated limb-eliminated class returns read small where its answer is not to be taken: a
 * helper found NaN at a straight leg (a pivot 0/0, every row of the leg along it) and -1.4e13 a nanoradian from it,
 * which a caller testing {@code ratio < tolerance} took for a good answer.
 */
class LimbRatiosTest {
    @Test
    void nanAndNegativeRatiosReadZero() {
        assertEquals(0.25, LimbConstrainedDynamics.smallestRatio(new double[] {1, 0.25, 0.5}), 0);
        assertEquals(0, LimbConstrainedDynamics.smallestRatio(new double[] {1, Double.NaN, 0.5}), 0);
        assertEquals(0, LimbConstrainedDynamics.smallestRatio(new double[] {-1.41e13, 0.5}), 0);
        assertEquals(0, LimbConstrainedDynamics.smallestRatio(new double[] {Double.NaN, Double.NaN}), 0);
        assertEquals(Double.POSITIVE_INFINITY, LimbConstrainedDynamics.smallestRatio(new double[0]), 0);
        assertEquals(0.5, LimbConstrainedDynamics.smallestRatio(new double[] {Double.POSITIVE_INFINITY, 0.5}), 0);
        assertEquals(0.1, LimbConstrainedDynamics.rankRatio(new double[] {0.2, 1}, new double[] {2, 1}), 1e-16);
        assertEquals(0, LimbConstrainedDynamics.rankRatio(new double[] {0, 0}, new double[] {0, 0}), 0);
        assertEquals(0, LimbConstrainedDynamics.rankRatio(new double[] {-7e-18, 1}, new double[] {1, 1}), 0);
        assertEquals(1, LimbConstrainedDynamics.rankRatio(new double[0], new double[0]), 0);
        // the generated methods' form: NaN for a q that is not finite, the ratio otherwise
        assertEquals(0, LimbConstrainedDynamics.smallestRatio(new double[] {Double.NaN, 1}, new double[] {0.1, -2}), 0);
        assertEquals(0.5, LimbConstrainedDynamics.smallestRatio(new double[] {0.5}, new double[] {1e300, -1e300}), 0);
        assertEquals(Double.NaN, LimbConstrainedDynamics.smallestRatio(new double[] {0.5}, new double[] {0, Double.NaN}));
        assertEquals(Double.NaN, LimbConstrainedDynamics.smallestRatio(new double[] {0.5},
                new double[] {Double.NEGATIVE_INFINITY}));
    }
}
