package org.symdyn.generator.emit;

import com.squareup.javapoet.CodeBlock;

/**
 * The statements that define the prescaled quaternion of a floating or ball joint in a generated method (the inputs
 * {@code QUAT_X} to {@code QUAT_W} of {@link org.symdyn.generator.symbolic.SymbolicInput}): the quaternion
 * q[k..k+4) times 2^-e, e the binary exponent of m = |x| + |y| + |z| + |w| clamped to [-1022, 1022], so that the
 * largest component lands in [1/4, 2) for any non-zero finite norm, and s = 2 / |q|² of the rotation and its
 * derivative (|q|⁴ in γ) neither underflow nor overflow. Multiplying by a power of two is exact: for norms where
 * the unscaled formulas did not under- or overflow, every result is bit for bit what it was. The runtime's
 * {@link org.symdyn.spatial.Rotations#fromQuaternion} prescales the same way.
 *
 * <p>Branch-free (issue 18's rule, see {@link SinCosBlock}): the exponent is read from m's bits, clamped by
 * {@code Math.min}/{@code Math.max} on ints (C2 intrinsics, conditional moves), and the scale is built from its
 * bits.
 */
final class QuaternionBlock {
    /** Estimated bytecode of one block with all four components. */
    static final int BYTES = 90;

    private QuaternionBlock() {
    }

    /**
     * @param at    the q index of the quaternion's x
     * @param names the locals to define as the prescaled x, y, z, w (null: not needed)
     */
    static CodeBlock code(int at, String[] names) {
        String m = "qm$" + at;
        String k = "qk$" + at;
        CodeBlock.Builder b = CodeBlock.builder();
        b.addStatement("final double $L = Math.abs(q[$L]) + Math.abs(q[$L]) + Math.abs(q[$L]) + Math.abs(q[$L])", m,
                at, at + 1, at + 2, at + 3);
        b.addStatement("final double $L = Double.longBitsToDouble((long) (2046 - Math.min(2045, Math.max(1, "
                + "(int) (Double.doubleToRawLongBits($L) >>> 52)))) << 52)", k, m);
        for (int c = 0; c < 4; c++) {
            if (names[c] != null) {
                b.addStatement("final double $L = q[$L] * $L", names[c], at + c, k);
            }
        }
        return b.build();
    }
}
