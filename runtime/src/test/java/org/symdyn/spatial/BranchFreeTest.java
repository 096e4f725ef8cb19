package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BranchFreeTest {
    /** The rule as LineOnLineContact writes it, with branches. */
    private static double senseWithBranches(double a, double b) {
        if (Math.abs(a) > Math.abs(b)) {
            return a >= 0 ? 1 : -1;
        }
        return b >= 0 ? -1 : 1;
    }

    @Test
    void edgeSenseIsTheBranchyRuleBitForBit() {
        double[] special = {0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, Double.MIN_VALUE, -Double.MIN_VALUE,
            Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.5, -0.5};
        for (double a : special) {
            for (double b : special) {
                assertEquals(Double.doubleToRawLongBits(senseWithBranches(a, b)),
                        Double.doubleToRawLongBits(BranchFree.edgeSense(a, b)), "a " + a + ", b " + b);
            }
        }
        Random rnd = new Random(18);
        for (int i = 0; i < 1_000_000; i++) {
            double a = Math.pow(10, 12 * rnd.nextDouble() - 6) * (rnd.nextBoolean() ? 1 : -1);
            double b = rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? a : -a)
                    : Math.pow(10, 12 * rnd.nextDouble() - 6) * (rnd.nextBoolean() ? 1 : -1);
            assertEquals(senseWithBranches(a, b), BranchFree.edgeSense(a, b), 0.0, "a " + a + ", b " + b);
        }
        for (double b : special) {
            assertEquals(Math.abs(BranchFree.edgeSense(Double.NaN, b)), 1.0, 0.0);
            assertEquals(Math.abs(BranchFree.edgeSense(b, Double.NaN)), 1.0, 0.0);
        }
    }
}
