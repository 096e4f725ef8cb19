package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link JointEncoder}: counts of its resolution, ties to even, and a resolution below an ulp of the count. */
class JointEncoderTest {
    private static double reading(double resolution, double q) {
        double[] out = new double[2];
        new JointEncoder("e", 0, 0, resolution, 0.25).read(0, new double[] {q}, new double[] {3}, new double[1], out);
        assertEquals(3, out[1], 0, "the rate unquantised");
        return out[0];
    }

    /**
     * A resolution so small that q / resolution passes 2^52 counts quantises nothing, and reads q: 1e-310 turned
     * q = 0.5 into infinitely many counts and an infinite reading (symdyn simulate then stopped on "internal error").
     */
    @Test
    void readsCountsOfItsResolution() {
        assertEquals(0.25 + 0.5, reading(0.1, 0.52), 1e-15);
        assertEquals(0.25 + 0.4, reading(0.2, 0.5), 1e-15, "a tie to the even count");
        assertEquals(0.25 + 0.5, reading(0, 0.5), 0, "resolution 0 reads q");
        assertEquals(0.25 + 0.5, reading(1e-310, 0.5), 0);
        assertEquals(0.25 - 0.5, reading(Double.MIN_VALUE, -0.5), 0);
        assertEquals(0.25 + 0.5, reading(1e-17, 0.5), 0, "2^52 counts and more: every double is whole");
    }
}
