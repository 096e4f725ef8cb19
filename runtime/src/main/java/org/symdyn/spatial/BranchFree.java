package org.symdyn.spatial;

/**
 * Piecewise-constant functions of state values computed without a branch, for the generated classes.
 *
 * <p>A branch on a value of the state ({@code if}, {@code ?:}) is a hazard in code that a real-time loop calls: C2
 * compiles a branch that the profile saw go one way only as "never taken", and the first value that takes the other
 * way throws the compiled method away (deoptimisation: one call of tens of microseconds, then interpreted or C1 code
 * for milliseconds while C2 recompiles). The functions here select by bit operations instead, so their compiled form
 * does not depend on which values they have seen (issue 18). {@link SinCos#quadrant} is the same idea for the sine
 * and cosine quadrants.
 */
public final class BranchFree {
    private static final long SIGN = 0x8000_0000_0000_0000L;
    private static final long ONE = Double.doubleToRawLongBits(1.0);

    private BranchFree() {
    }

    /**
     * Simbody's normal-sense rule of a line-on-line contact: sgn⁺(a) if |a| &gt; |b|, else −sgn⁺(b), with sgn⁺(x) = 1
     * for x ≥ 0 (also −0) and −1 below; the rule of {@code LineOnLineContact} and of the generator's
     * {@code edgeSense(a, b)}, equal to it for every non-NaN a and b (with a NaN it returns one of ±1).
     *
     * <p>How: the bit patterns of non-negative doubles order like the values, so the sign of
     * bits(|b|) − bits(|a|) (no overflow: both are below 2⁶³) says whether |a| &gt; |b|; it becomes a mask that picks
     * the sign bit of a + 0 (+0 for −0) or of −(b + 0); the result is 1.0 with that sign.
     */
    public static double edgeSense(double a, double b) {
        long ba = Double.doubleToRawLongBits(a + 0.0);
        long bb = Double.doubleToRawLongBits(b + 0.0);
        long aFirst = ((bb & ~SIGN) - (ba & ~SIGN)) >> 63; // all ones when |a| > |b|
        long sign = ((ba & aFirst) | (~bb & ~aFirst)) & SIGN;
        return Double.longBitsToDouble(ONE | sign);
    }
}
