package org.symdyn.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A run's steps are counted on the grid, whatever the rounding of the time's sum: summing h until t_end ended 1,000 s
 * of 1 ms steps with a step of 1.7e-8 s (a review's probe), past the band a fixed merge rule allowed.
 */
class StepGridTest {
    /** The clock as the systems keep it (t += the step taken), driven by the grid; every step's length checked. */
    private static void run(double t0, double tEnd, double h, long expected) {
        long n = StepGrid.count(t0, tEnd, h);
        assertEquals(expected, n, "steps from " + t0 + " to " + tEnd + " of " + h);
        double t = t0;
        for (long k = 1; k <= n; k++) {
            double dt = StepGrid.end(t0, tEnd, h, k, n) - t;
            if (k < n) {
                assertEquals(h, dt, 1e-9 * h, "step " + k);
            } else {
                assertTrue(dt > 1e-6 * h && dt < h * (1 + 1e-6), "the last step " + dt + " of " + h);
            }
            t += dt;
        }
        assertEquals(tEnd, t, 1e-12 * Math.max(1, Math.abs(tEnd)));
    }

    @Test
    void longRunsEndWithoutASliver() {
        run(0, 1000, 1e-3, 1_000_000);
        run(0, 1000, 1e-4, 10_000_000);
        run(0, 670, 2e-3, 335_000);
        run(0, 2, 1e-4, 20_000);
        run(12.345, 12.345 + 50, 1e-3, 50_000);
    }

    @Test
    void aRemainderIsAShortLastStepAndNothingIsNoStep() {
        run(0, 0.0105, 0.001, 11); // 10 steps and half of one
        assertEquals(0, StepGrid.count(1, 1, 1e-3));
        assertEquals(0, StepGrid.count(1, 0.5, 1e-3), "backwards: no step");
        assertEquals(1, StepGrid.count(0, 1e-3 * (1 + 1e-7), 1e-3), "a remainder of 1e-7 h joins the step");
        assertThrows(IllegalArgumentException.class, () -> StepGrid.count(0, Double.NaN, 1e-3));
        assertThrows(IllegalArgumentException.class, () -> StepGrid.count(0, 1, 0));
    }
}
