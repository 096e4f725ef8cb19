package org.symdyn.generator;

/**
 * How {@code biasForces}, {@code gravityForces}, {@code inverseDynamics} and (only with {@link #SHARED}) an
 * articulated-body {@code forwardDynamics} compute twin limbs (subtrees of the
 * same shape, such as a humanoid's legs; {@link org.symdyn.generator.symbolic.SymbolicLimbs}): unrolled in the
 * method, like the rest of the tree, or by calls of one method per limb shape that each limb runs with its own
 * numbers ({@code SharedLimbCode}). The calls make less machine code, which pays only when the unrolled method
 * is several times the processor's instruction cache.
 */
public enum LimbForm {
    /**
     * Calls in C, g and τ where the unrolled method has {@code SharedLimbCode.MIN_CHUNKS} chunks or more, else
     * unrolled; forward dynamics unrolled.
     */
    BY_SIZE,
    /**
     * Calls of shared code wherever twin limbs' code is the same, in C, g, τ and the articulated-body forward
     * dynamics (two calls per limb: the passes to the root, then the last pass).
     */
    SHARED,
    /** Every limb unrolled. */
    UNROLLED
}
