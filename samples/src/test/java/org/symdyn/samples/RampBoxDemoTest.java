package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The ramp demo's scenario (issue 12): the box released at rest on the 20° ramp (μ 0.2) slides down with
 * a = g (sin θ − μ cos θ) within 1e-6 relative while all four corners are on the ramp, runs onto the flat (μ 0.6)
 * and stops (speed at most 1e-9 m/s from then on), every contact solve converged.
 */
class RampBoxDemoTest {
    @Test
    void slidesDownTheRampAndStopsOnTheFlat() throws Exception {
        RampBoxDemo.Result r = RampBoxDemo.run(RampBoxDemo.T_END);
        double tEnd = r.time()[r.time().length - 1];
        assertEquals(3.0, tEnd, 1e-9);
        assertTrue(r.summary().allConverged(), r.summary()::toString);
        assertEquals(Math.toRadians(20), r.theta(), 1e-15);
        assertEquals(0.2, r.mu());
        assertTrue(r.mu() < Math.tan(r.theta()), "the ramp's friction lets the box slide");

        // On the ramp: the analytic acceleration, from the first step until it reaches the flat.
        double a = r.expectedAcceleration();
        assertEquals(1.5115406841, a, 1e-9);
        assertTrue(r.rampSteps() >= 1200, "steps on the ramp: " + r.rampSteps());
        assertTrue(r.onRamp()[0], "on the ramp from the first step");
        assertTrue(r.rampAccelerationError() <= 1e-6, "ramp acceleration error " + r.rampAccelerationError());
        // Slide length 1.2 m / cos θ less the box's half length 0.1 m before its front corners meet the floor.
        double expectedFlat = Math.sqrt(2 * (1.2 / Math.cos(r.theta()) - 0.1) / a);
        assertEquals(expectedFlat, r.flatTime(), 2e-3, "reaches the flat");

        // Stops on the flat and stays stopped, level, resting on the floor.
        double stop = r.stopTime(1e-9);
        assertTrue(stop > r.flatTime() && stop <= 2.0, "stopped at " + stop);
        assertTrue(r.maxSpeedFrom(stop) <= 1e-9, "speed after stopping " + r.maxSpeedFrom(stop));
        assertTrue(r.speed()[r.speed().length - 1] <= 1e-9);
        double[] q = r.finalQ();
        assertTrue(q[0] > 0.1, "on the flat: x " + q[0]);
        assertEquals(RampBoxDemo.HALF_HEIGHT, q[2], 1e-6, "resting on the floor");
        assertEquals(1, Math.abs(q[6]), 1e-9, "level");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RampBoxDemo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("all solves converged") && out.contains("reached the flat"), out);
        assertFalse(out.contains("NaN"), out);
        String json = r.trajectory().json();
        assertEquals(301, r.trajectory().samples());
        assertTrue(json.contains("\"ground\": \"ramp\"") && json.contains("\"ground\": \"floor\""));
    }
}
