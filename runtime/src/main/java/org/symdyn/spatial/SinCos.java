package org.symdyn.spatial;

/**
 * Sine and cosine of one angle from a single argument reduction, the form the generated classes inline for every
 * joint angle (HotSpot's {@link Math#sin} and {@link Math#cos} are two separate calls of ~10 ns each that reduce the
 * same argument twice; for a 7-dof arm they were a third of the generated bias-force time).
 *
 * <p>Method, for |x| &lt; {@link #REDUCTION_LIMIT}:
 * <ol>
 * <li>k = rint(x · 2/π), r = x − k·π/2 with π/2 split into three parts ({@link #PI_OVER_2_HI} and
 *     {@link #PI_OVER_2_MID} carry 33 significant bits, so k times either is exact for |k| &lt; 2²⁰; Cody and
 *     Waite's reduction), so |r| ≤ π/4 (plus a few ulps);</li>
 * <li>sin r and cos r by polynomials of degree 13 and 14 in Horner form (fitted to sin and cos on |r| ≤ π/4 with
 *     errors under 1.3·10⁻¹⁷ relative, see the coefficients); each Horner step and each reduction step is one
 *     {@link Math#fma} (see below);</li>
 * <li>the quadrant n = k mod 4 picks (sin x, cos x) = (s, c), (c, −s), (−s, −c) or (−c, s), by bit operations
 *     on n rather than by branches ({@link #quadrant}): see below.</li>
 * </ol>
 * Beyond the limit (and for a non-finite x) the result is {@link StrictMath#sin} / {@link StrictMath#cos}, whose
 * reduction is exact for every double and whose bits are the same on every machine. Accuracy (tested): within 2 ulps of {@code Math.sin}/{@code Math.cos} on random
 * arguments up to the limit, and within 1.2·10⁻¹⁶ absolute everywhere below it, which is what dynamics needs.
 * Results are deterministic ({@link Math#fma} rounds once, exactly as specified, on every platform), so the
 * generic runtime and a generated class that inlines these steps get the same bits.
 *
 * <p><b>Why fused multiply-adds.</b> Each Horner step c + z·p and each reduction step x − k·c is one
 * {@code Math.fma}: one instruction instead of two wherever the processor has FMA (x86-64 since 2013's Haswell and
 * Piledriver, every AArch64), and one rounding instead of two. With the branch-free quadrant selection below, the
 * sines and cosines were what made issue 18's generated code 6-12 % slower than the branchy form on trig-heavy
 * methods; with the fused steps it is 2-14 % faster than the branchy form (interleaved A/B, iiwa14 and solo12,
 * mass matrix, bias forces, gravity, inverse dynamics; forward dynamics within the compile noise; numbers in
 * benchmarks/README.md). On a processor without FMA (HotSpot's {@code -XX:-UseFMA}) {@code Math.fma} is a slow
 * software routine: generate with {@code --math-trig} there.
 *
 * <p><b>No branch on the angle within the limit.</b> The quadrant is selected by bit operations on the two kernel
 * values with masks computed from the integer n (swap: a mask from n &amp; 1; sign: bit 1 of n moved to the sign
 * bit), not by {@code if}s or {@code ?:}. With branches, a method that the JIT compiled while it only saw small angles (one
 * quadrant) had the other quadrants compiled out as "never taken", and the first larger angle threw the compiled code
 * away (deoptimisation: a call of 40-110 µs, then milliseconds of interpreted code while C2 recompiled; issue 18).
 * The bit form gives the same bits as the branches by construction (a selection, then a negation).
 *
 * <p><b>The one branch left</b> is the fallback for |x| ≥ {@link #REDUCTION_LIMIT} ≈ 1.65·10⁶ rad (about 260,000
 * turns) and non-finite x. A profile that never saw such an argument compiles the fallback out, so the first one
 * deoptimises the caller once (it is then recompiled with both paths). Joint angles of a real mechanism stay far
 * below the limit except for a continuous joint (a wheel) that turns one way for hours: wrap such an angle into
 * (−π, π] in the controller (which also keeps its resolution), or include one call with a large angle in the warm-up.
 * Making the fallback branch-free would need Payne and Hanek's reduction or both {@code Math} calls on every call.
 */
public final class SinCos {
    /** 2/π rounded to double. */
    public static final double TWO_OVER_PI = 0x1.45f306dc9c883p-1;
    /** π/2 rounded to 33 significant bits. */
    public static final double PI_OVER_2_HI = 0x1.921fb544p0;
    /** The next 33 bits of π/2. */
    public static final double PI_OVER_2_MID = 0x1.0b4611a6p-34;
    /** π/2 − {@link #PI_OVER_2_HI} − {@link #PI_OVER_2_MID}, rounded to double. */
    public static final double PI_OVER_2_LO = 0x1.3198a2e037073p-69;
    /**
     * Arguments of at least this magnitude (2¹⁹·π) go to {@link StrictMath#sin}/{@link StrictMath#cos}: the same bits
     * on every machine, as the reduction below (Math's intrinsics may differ in the last bit between processors, and
     * a rollout of a joint wound past 1.6e6 rad gave other bits with them switched off).
     */
    public static final double REDUCTION_LIMIT = 0x1p19 * Math.PI;

    // Kernel coefficients: Chebyshev fits (mpmath's chebyfit at 50 digits, rounded to double) of
    // P(z) = (sin r - r) / r³ and Q(z) = (cos r - 1 + z/2) / z² on 0 <= z = r² <= (π/4)², degree 5 each. Fit errors:
    // 2.0e-17 on P (so at most 1.3e-17 relative on sin r) and 1.3e-18 on Q (4.9e-19 absolute on cos r); in double
    // arithmetic the kernels measured within 0.75 ulp (sin) and 1.1 ulp (cos) of the exact values on a dense grid.

    /** sin r = r + r·z·(S3 + z·(S5 + z·(S7 + z·(S9 + z·(S11 + z·S13))))), z = r². */
    public static final double S3 = -0x1.5555555555555p-3;
    public static final double S5 = 0x1.1111111110bb2p-7;
    public static final double S7 = -0x1.a01a019e83aaep-13;
    public static final double S9 = 0x1.71de37968a100p-19;
    public static final double S11 = -0x1.ae600b02b6262p-26;
    public static final double S13 = 0x1.5e0b19f8b1451p-33;

    /** cos r = 1 + z·(C2 + z·(C4 + z·(C6 + z·(C8 + z·(C10 + z·(C12 + z·C14)))))), z = r². */
    public static final double C2 = -0.5;
    public static final double C4 = 0x1.5555555555555p-5;
    public static final double C6 = -0x1.6c16c16c16967p-10;
    public static final double C8 = 0x1.a01a019f4eb01p-16;
    public static final double C10 = -0x1.27e4fa17da09ep-22;
    public static final double C12 = 0x1.1eeb68e93b64cp-29;
    public static final double C14 = -0x1.907da367a37cbp-37;

    private SinCos() {
    }

    /** sin x (radians). */
    public static double sin(double x) {
        if (!(Math.abs(x) < REDUCTION_LIMIT)) {
            return StrictMath.sin(x);
        }
        double k = Math.rint(x * TWO_OVER_PI);
        double r = reduce(x, k);
        return quadrant(sinKernel(r), cosKernel(r), (int) k);
    }

    /** cos x (radians). */
    public static double cos(double x) {
        if (!(Math.abs(x) < REDUCTION_LIMIT)) {
            return StrictMath.cos(x);
        }
        double k = Math.rint(x * TWO_OVER_PI);
        double r = reduce(x, k);
        // cos x = sin(x + π/2): one quadrant further.
        return quadrant(sinKernel(r), cosKernel(r), (int) k + 1);
    }

    /** r = x − k·π/2 in three steps; the first two products are exact for |k| &lt; 2²⁰. */
    public static double reduce(double x, double k) {
        return Math.fma(-k, PI_OVER_2_LO, Math.fma(-k, PI_OVER_2_MID, Math.fma(-k, PI_OVER_2_HI, x)));
    }

    /** sin r for |r| ≤ π/4. */
    public static double sinKernel(double r) {
        double z = r * r;
        return Math.fma(r * z, Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, S13, S11), S9), S7), S5), S3), r);
    }

    /** cos r for |r| ≤ π/4. */
    public static double cosKernel(double r) {
        double z = r * r;
        return Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, Math.fma(z, C14, C12), C10), C8), C6), C4), C2), 1);
    }

    /**
     * sin(r + n·π/2) from s = {@link #sinKernel}(r) and c = {@link #cosKernel}(r), for any int n (two's complement
     * makes n mod 4 right for negative n), without a branch: s for n mod 4 = 0, c for 1, −s for 2, −c for 3. A bit
     * selection (mask from n &amp; 1) and a sign flip (bit 1 of n moved to the sign bit): the same bits as choosing
     * with {@code ?:} by construction. The generated classes inline exactly these operations.
     */
    public static double quadrant(double s, double c, int n) {
        long swap = -(long) (n & 1); // all ones in quadrants 1 and 3
        long bits = (Double.doubleToRawLongBits(s) & ~swap) | (Double.doubleToRawLongBits(c) & swap);
        return Double.longBitsToDouble(bits ^ ((long) (n & 2) << 62));
    }
}
