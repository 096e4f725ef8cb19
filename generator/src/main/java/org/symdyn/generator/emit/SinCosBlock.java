package org.symdyn.generator.emit;

import com.squareup.javapoet.CodeBlock;
import org.symdyn.spatial.SinCos;

/**
 * The statements that define sin x and cos x of one joint angle x in a generated method: {@link SinCos}'s single
 * argument reduction, both kernel polynomials and the quadrant choice, written out inline so that HotSpot compiles
 * them into the method (no call, and the two values share one reduction), with {@link StrictMath#sin}/{@link
 * StrictMath#cos} beyond {@link SinCos#REDUCTION_LIMIT}. The results are bit for bit those of {@link SinCos#sin} and
 * {@link SinCos#cos}; the generator's tests check that. SinCos is named fully qualified, so that the generated class
 * imports nothing from SymDyn but the contract (its constants are compile-time constants: javac inlines them).
 *
 * <p>The quadrant is chosen by bit operations with masks from the quadrant number n ({@link SinCos#quadrant}'s
 * selection and sign flip), never by a branch: a branch that a profile saw go one way only is compiled out by C2, and the first
 * angle in another quadrant then deoptimises the whole method (issue 18). The fallback beyond the reduction limit
 * is the one branch left; {@link SinCos} says why and what to do about it.
 *
 * <p>For A/B timing only: with the system property {@value #BRANCHY_PROPERTY}{@code =true} at generation time the
 * block is emitted in its branchy form (quadrant chosen by {@code ?:}, multiply and add as separate operations; the
 * same values within an ulp, with the deoptimisation cliff). {@link JavaExpressions} reads the same switch for the line-on-line edge side. Nothing else uses it.
 */
final class SinCosBlock {
    /** System property: emit the branchy quadrant choice (and edge side), for A/B timing only. */
    static final String BRANCHY_PROPERTY = "symdyn.generator.branchyTrig";

    /** True when {@link #BRANCHY_PROPERTY} is set to true now (read at each generation). */
    static boolean branchy() {
        return Boolean.getBoolean(BRANCHY_PROPERTY);
    }

    /**
     * Estimated bytecode of one block: javac's output measured 249 bytes with both values before the fused steps
     * (each {@code Math.fma} call is one byte more than a multiply and an add: about 265 now), and in a method with more
     * than 255 local slots each local access takes a {@code wide} prefix byte more.
     */
    static final int BYTES = 290;

    /** {@link SinCos}, fully qualified (no import). */
    private static final String SIN_COS = SinCos.class.getName();

    private SinCosBlock() {
    }

    /** c₀ + z·(c₁ + z·(... + z·c_n)) over the named constants of {@link SinCos}. */
    private static CodeBlock horner(String z, String... coefficients) {
        CodeBlock.Builder b = CodeBlock.builder();
        int last = coefficients.length - 1;
        for (int i = 0; i < last; i++) {
            b.add("$L.$L + $L * ", SIN_COS, coefficients[i], z);
            if (i < last - 1) {
                b.add("(");
            }
        }
        b.add("$L.$L", SIN_COS, coefficients[last]);
        b.add(")".repeat(Math.max(0, last - 1)));
        return b.build();
    }

    /** c₀ + z·(c₁ + z·(... + z·c_n)) as nested {@link Math#fma}: fma(z, fma(z, ..., c_n-1), c₀). */
    private static CodeBlock fmaHorner(String z, String... coefficients) {
        int last = coefficients.length - 1;
        CodeBlock inner = CodeBlock.of("$L.$L", SIN_COS, coefficients[last]);
        for (int i = last - 1; i >= 0; i--) {
            inner = CodeBlock.of("Math.fma($L, $L, $L.$L)", z, inner, SIN_COS, coefficients[i]);
        }
        return inner;
    }

    /**
     * @param x   the Java expression of the angle, e.g. {@code q[3]}
     * @param sin the local to define as sin x, or null if the method does not need it
     * @param cos the local to define as cos x, or null
     */
    static CodeBlock code(String x, String sin, String cos) {
        String tag = sin != null ? sin : cos;
        String k = "k$" + tag;
        String r = "r$" + tag;
        String z = "z$" + tag;
        String n = "n$" + tag;
        String sr = "sr$" + tag;
        String cr = "cr$" + tag;
        CodeBlock.Builder b = CodeBlock.builder();
        if (sin != null) {
            b.addStatement("final double $L", sin);
        }
        if (cos != null) {
            b.addStatement("final double $L", cos);
        }
        b.beginControlFlow("if (Math.abs($L) < $L.REDUCTION_LIMIT)", x, SIN_COS);
        b.addStatement("final double $L = Math.rint($L * $L.TWO_OVER_PI)", k, x, SIN_COS);
        if (branchy()) {
            b.addStatement("final double $L = (($L - $L * $L.PI_OVER_2_HI) - $L * $L.PI_OVER_2_MID) - $L * "
                    + "$L.PI_OVER_2_LO", r, x, k, SIN_COS, k, SIN_COS, k, SIN_COS);
            b.addStatement("final double $L = $L * $L", z, r, r);
            b.addStatement("final double $L = $L + $L * $L * ($L)", sr, r, r, z,
                    horner(z, "S3", "S5", "S7", "S9", "S11", "S13"));
            b.addStatement("final double $L = 1 + $L * ($L)", cr, z,
                    horner(z, "C2", "C4", "C6", "C8", "C10", "C12", "C14"));
        } else {
            b.addStatement("final double $L = Math.fma(-$L, $L.PI_OVER_2_LO, Math.fma(-$L, $L.PI_OVER_2_MID, "
                    + "Math.fma(-$L, $L.PI_OVER_2_HI, $L)))", r, k, SIN_COS, k, SIN_COS, k, SIN_COS, x);
            b.addStatement("final double $L = $L * $L", z, r, r);
            b.addStatement("final double $L = Math.fma($L * $L, $L, $L)", sr, r, z,
                    fmaHorner(z, "S3", "S5", "S7", "S9", "S11", "S13"), r);
            b.addStatement("final double $L = Math.fma($L, $L, 1)", cr, z,
                    fmaHorner(z, "C2", "C4", "C6", "C8", "C10", "C12", "C14"));
        }
        b.addStatement("final int $L = (int) $L", n, k);
        // (sin x, cos x) = (s, c), (c, -s), (-s, -c), (-c, s) for n mod 4 = 0..3.
        if (!branchy()) {
            // SinCos.quadrant without a branch: a mask from n & 1 selects s or c bitwise, bit 1 of n (of n + 1 for
            // the cosine) becomes the sign bit.
            String m = "m$" + tag;
            String sb = "sb$" + tag;
            String cb = "cb$" + tag;
            b.addStatement("final long $L = -(long) ($L & 1)", m, n);
            b.addStatement("final long $L = Double.doubleToRawLongBits($L)", sb, sr);
            b.addStatement("final long $L = Double.doubleToRawLongBits($L)", cb, cr);
            if (sin != null) {
                b.addStatement("$L = Double.longBitsToDouble((($L & ~$L) | ($L & $L)) ^ ((long) ($L & 2) << 62))",
                        sin, sb, m, cb, m, n);
            }
            if (cos != null) {
                b.addStatement("$L = Double.longBitsToDouble((($L & ~$L) | ($L & $L)) ^ ((long) (($L + 1) & 2) << 62))",
                        cos, cb, m, sb, m, n);
            }
        } else if (sin != null) {
            b.addStatement("final double $L = ($L & 1) == 0 ? $L : $L", "a$" + tag, n, sr, cr);
            b.addStatement("$L = ($L & 2) == 0 ? $L : -$L", sin, n, "a$" + tag, "a$" + tag);
        }
        if (branchy() && cos != null) {
            b.addStatement("final double $L = ($L & 1) == 0 ? $L : $L", "b$" + tag, n, cr, sr);
            b.addStatement("$L = (($L + 1) & 2) == 0 ? $L : -$L", cos, n, "b$" + tag, "b$" + tag);
        }
        b.nextControlFlow("else");
        if (sin != null) {
            b.addStatement("$L = StrictMath.sin($L)", sin, x);
        }
        if (cos != null) {
            b.addStatement("$L = StrictMath.cos($L)", cos, x);
        }
        b.endControlFlow();
        return b.build();
    }
}
