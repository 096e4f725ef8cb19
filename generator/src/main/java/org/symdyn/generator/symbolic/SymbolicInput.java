package org.symdyn.generator.symbolic;

/**
 * What an input symbol of an {@link ExpressionGraph} stands for: one entry of one of the generated method's inputs
 * (or a value computed from one). The derivation names inputs by meaning only; the emitter maps each kind to Java
 * (for example {@code q[3]}, or an inlined sine of {@code q[3]}) and the closed-form printer to Symja
 * ({@code Sin(q3)}), so that nothing is parsed back from source text.
 *
 * @param kind  what the input is
 * @param index the entry: a q index for {@link Kind#Q}, {@link Kind#SIN_Q} and {@link Kind#COS_Q}, the q index of
 *              a quaternion's x for {@link Kind#QUAT_X} to {@link Kind#QUAT_W}, a v index for
 *              {@link Kind#V}, {@link Kind#VDOT} and {@link Kind#TAU}, a parameter index, a point coordinate
 *              (0..2), the entry of a run-time matrix, vector or factor array, a limb constant, an entry of
 *              a limb's parent motion, or a call's result
 */
public record SymbolicInput(Kind kind, int index) {
    /** The kinds of input, each with the prefix of its symbol's name. */
    public enum Kind {
        /** Joint position q[k]. */
        Q("q"),
        /** Joint velocity v[k]. */
        V("v"),
        /** Joint acceleration v̇[k]. */
        VDOT("vdot"),
        /** Generalised force τ[k]. */
        TAU("tau"),
        /** sin q[k] of a joint angle. */
        SIN_Q("s"),
        /** cos q[k] of a joint angle. */
        COS_Q("c"),
        /** Model parameter k (a settable mass, centre of mass, inertia or joint offset). */
        PARAMETER("par"),
        /** Coordinate k of a point given at run time in body coordinates. */
        POINT("point"),
        /**
         * x of the quaternion q[k..k+4) prescaled by a power of two, 2^-e with e the exponent of |x|+|y|+|z|+|w|
         * (see {@code QuaternionBlock}): the rotation of a quaternion does not depend on its norm, and the prescaled
         * one gives it, and its derivatives, without under- or overflow for any non-zero finite norm.
         */
        QUAT_X("qx"),
        /** y of the prescaled quaternion q[k..k+4) (see {@link #QUAT_X}). */
        QUAT_Y("qy"),
        /** z of the prescaled quaternion q[k..k+4) (see {@link #QUAT_X}). */
        QUAT_Z("qz"),
        /** w of the prescaled quaternion q[k..k+4) (see {@link #QUAT_X}). */
        QUAT_W("qw"),
        /** Entry k = i·nv + j of a joint-space inertia matrix H given at run time (row-major). */
        MASS_MATRIX("hm"),
        /** Entry k = r·nv + j of a constraint Jacobian G given at run time (row-major). */
        CONSTRAINT_JACOBIAN("gm"),
        /** Entry k of the first right-hand side a of a saddle-point system H x + Gᵀ y = a, G x = b. */
        SADDLE_A("sa"),
        /** Entry k of the second right-hand side b of a saddle-point system. */
        SADDLE_B("sb"),
        /** Entry k of the factors a generated factorisation keeps between its factorise and solve methods. */
        FACTOR("fac"),
        /**
         * Entry k of what the recursive constrained system keeps between its two methods
         * ({@link SymbolicArticulatedBody#constrainedSystem}).
         */
        ARTICULATED("art"),
        /** Multiplier λ[k] of constraint row k. */
        MULTIPLIER("lam"),
        /**
         * Model constant k of a limb's shared code ({@link ExpressionGraph#withConstantsAsInputs}): each call passes
         * its limb's values.
         */
        CONSTANT("k"),
        /**
         * Entry k of the motion a limb's shared code receives from its parent body: the parent's spatial velocity
         * (0..5) and acceleration (6..11), parent coordinates ({@link SymbolicLimbs}).
         */
        PARENT_MOTION("pm"),
        /** Result k of a call of a limb's shared code ({@link ExpressionGraph#call}). */
        CALL("call"),
        /**
         * Value k that the first part of a limb's shared forward dynamics leaves in its scratch array for the second
         * ({@link SymbolicLimbs#deriveForward}).
         */
        LIMB_STATE("ls");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    public SymbolicInput {
        if (kind == null || index < 0) {
            throw new IllegalArgumentException("input " + kind + " " + index);
        }
    }

    /**
     * The name of the input's symbol: the kind's prefix and the index ({@code q3}, {@code s3}, {@code par0},
     * {@code point2}); unique per input, a Java identifier, never of the temporaries' form {@code t<n>}.
     */
    public String symbolName() {
        return kind.prefix + index;
    }
}
