package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SinCosTest {
    /** ulps of {@code expected} between the two values. */
    private static double ulps(double actual, double expected) {
        return Math.abs(actual - expected) / Math.ulp(expected);
    }

    private static void assertClose(double x) {
        double s = SinCos.sin(x);
        double c = SinCos.cos(x);
        // Math.sin is itself within 1 ulp of the truth; 2 ulps of it is the claim of the Javadoc.
        assertTrue(ulps(s, Math.sin(x)) <= 2 || Math.abs(s - Math.sin(x)) <= 1.2e-16,
                () -> "sin " + x + ": " + s + " vs " + Math.sin(x));
        assertTrue(ulps(c, Math.cos(x)) <= 2 || Math.abs(c - Math.cos(x)) <= 1.2e-16,
                () -> "cos " + x + ": " + c + " vs " + Math.cos(x));
    }

    @Test
    void reductionConstantsSumToHalfPi() {
        // π/2 to 40 digits; the three parts must reproduce it to well beyond double precision.
        BigDecimal halfPi = new BigDecimal("1.570796326794896619231321691639751442098584699687552910487");
        BigDecimal sum = new BigDecimal(SinCos.PI_OVER_2_HI).add(new BigDecimal(SinCos.PI_OVER_2_MID))
                .add(new BigDecimal(SinCos.PI_OVER_2_LO));
        assertTrue(sum.subtract(halfPi).abs().doubleValue() < 1e-36, "three-part pi/2 error " + sum.subtract(halfPi));
        // The first two parts have 33 significant bits, so that k times either is exact for |k| < 2^20.
        for (double part : new double[] {SinCos.PI_OVER_2_HI, SinCos.PI_OVER_2_MID}) {
            long mantissa = Double.doubleToRawLongBits(part) & 0x000f_ffff_ffff_ffffL;
            assertEquals(0, mantissa & ((1L << 20) - 1), "low 20 bits of " + part);
        }
        BigDecimal twoOverPi = BigDecimal.ONE.divide(halfPi, MathContext.DECIMAL128);
        assertEquals(twoOverPi.doubleValue(), SinCos.TWO_OVER_PI, 0.0);
    }

    /**
     * The kernels on |r| ≤ π/4 against the Taylor series summed in BigDecimal (exact to ~30 digits there): within
     * 1.5 ulps (measured 0.75 for sin and 1.1 for cos when the coefficients were fitted).
     */
    @Test
    void kernelsAreWithinOneAndAHalfUlpOfTheSeries() {
        Random r = new Random(3);
        double worstSin = 0;
        double worstCos = 0;
        for (int i = 0; i < 20_000; i++) {
            double x = (Math.PI / 4) * (i < 10_000 ? i / 10_000.0 : 2 * r.nextDouble() - 1);
            worstSin = Math.max(worstSin, ulps(SinCos.sinKernel(x), series(x, true)));
            worstCos = Math.max(worstCos, ulps(SinCos.cosKernel(x), series(x, false)));
        }
        assertTrue(worstSin <= 1.5, "sin kernel " + worstSin + " ulps");
        assertTrue(worstCos <= 1.5, "cos kernel " + worstCos + " ulps");
    }

    /** sin x or cos x by the Taylor series in 40-digit decimal arithmetic (|x| ≤ 1), rounded once to double. */
    private static double series(double x, boolean sine) {
        MathContext mc = new MathContext(40);
        BigDecimal bx = new BigDecimal(x);
        BigDecimal x2 = bx.multiply(bx, mc);
        BigDecimal term = sine ? bx : BigDecimal.ONE;
        BigDecimal sum = term;
        for (int n = sine ? 2 : 1; n < 40; n++) {
            int a = sine ? 2 * n - 2 : 2 * n - 1;
            term = term.multiply(x2, mc).divide(new BigDecimal((long) a * (a + 1)), mc).negate();
            sum = sum.add(term, mc);
        }
        return sum.doubleValue();
    }

    @Test
    void matchesMathOnRandomAngles() {
        Random r = new Random(7);
        for (double range : new double[] {1, 4, 100, 1e4, SinCos.REDUCTION_LIMIT}) {
            for (int i = 0; i < 200_000; i++) {
                assertClose(range * (2 * r.nextDouble() - 1));
            }
        }
    }

    @Test
    void quadrantBoundariesAndMultiplesOfHalfPi() {
        for (int k = -2000; k <= 2000; k++) {
            double x = k * Math.PI / 4;
            for (double y : new double[] {x, Math.nextUp(x), Math.nextDown(x), x + 1e-9, x - 1e-9}) {
                assertClose(y);
            }
        }
        assertEquals(1.0, SinCos.cos(0.0), 0.0);
        assertEquals(0.0, SinCos.sin(0.0), 0.0);
        assertEquals(1e-300, SinCos.sin(1e-300), 0.0);
    }

    @Test
    void largeAndNonFiniteArgumentsFallBackToStrictMath() {
        // StrictMath, not Math: Math's intrinsics may give other last bits on another processor (a helper saw a
        // rollout of a joint at 2e6 rad change with them switched off), which would break the rollouts' same bits
        for (double x : new double[] {SinCos.REDUCTION_LIMIT, -SinCos.REDUCTION_LIMIT, 1e7, -3.3e12, 1e300,
            Double.MAX_VALUE}) {
            assertEquals(StrictMath.sin(x), SinCos.sin(x), 0.0, "sin " + x);
            assertEquals(StrictMath.cos(x), SinCos.cos(x), 0.0, "cos " + x);
        }
        for (double x : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertTrue(Double.isNaN(SinCos.sin(x)), "sin " + x);
            assertTrue(Double.isNaN(SinCos.cos(x)), "cos " + x);
        }
    }

    @Test
    void pythagoreanIdentity() {
        Random r = new Random(11);
        for (int i = 0; i < 100_000; i++) {
            double x = 50 * (2 * r.nextDouble() - 1);
            double s = SinCos.sin(x);
            double c = SinCos.cos(x);
            assertEquals(1.0, s * s + c * c, 4e-16, "x = " + x);
        }
    }

    /** The quadrant choice before issue 18, by branches: the reference for the branch-free one. */
    private static double branchyQuadrant(double r, int n) {
        double v = (n & 1) == 0 ? SinCos.sinKernel(r) : SinCos.cosKernel(r);
        return (n & 2) == 0 ? v : -v;
    }

    /**
     * The branch-free quadrant selection gives the same bits as the branches it replaced (issue 18): on random angles
     * of every magnitude up to the reduction limit, both signs, every quadrant boundary, and signed zeros.
     */
    @Test
    void branchFreeQuadrantIsTheBranchyOneBitForBit() {
        Random rnd = new Random(18);
        java.util.List<Double> xs = new java.util.ArrayList<>(java.util.List.of(0.0, -0.0, 1e-300, -1e-300,
                Double.MIN_VALUE, -Double.MIN_VALUE, Math.nextDown(SinCos.REDUCTION_LIMIT)));
        for (int i = 0; i < 400_000; i++) {
            double x = Math.pow(10, 8 * rnd.nextDouble() - 2) * (rnd.nextBoolean() ? 1 : -1);
            if (Math.abs(x) < SinCos.REDUCTION_LIMIT) {
                xs.add(x);
            }
        }
        for (int k = -5000; k <= 5000; k++) {
            double x = k * Math.PI / 4;
            xs.addAll(java.util.List.of(x, Math.nextUp(x), Math.nextDown(x)));
        }
        for (double x : xs) {
            double k = Math.rint(x * SinCos.TWO_OVER_PI);
            double r = SinCos.reduce(x, k);
            long sin = Double.doubleToRawLongBits(branchyQuadrant(r, (int) k));
            long cos = Double.doubleToRawLongBits(branchyQuadrant(r, (int) k + 1));
            assertEquals(sin, Double.doubleToRawLongBits(SinCos.sin(x)), () -> "sin " + x);
            assertEquals(cos, Double.doubleToRawLongBits(SinCos.cos(x)), () -> "cos " + x);
        }
    }
}
