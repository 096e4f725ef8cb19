package org.symdyn.generator;

/**
 * The forms of the methods whose unrolled source grows with n times the tree depth. PER_BODY: each body's
 * kinematics its own straight-line method from the root ({@link KinematicsMethods}), H unrolled, every fused
 * evaluation emitted. SHARED_PASSES (the large-model forms): the kinematics from straight-line passes over the tree
 * and small query methods ({@link SharedPassKinematics}), the second pass of the CRBA looped
 * ({@link LoopedMassMatrix}), the fused evaluations as the interface's separate calls; source linear in the bodies.
 */
public enum KinematicsForm {
    /**
     * The kinematics from shared passes; up to a sum over bodies of their depth of
     * {@value SharedPassKinematics#MAX_PER_BODY_DEPTH_SUM} (every shared model and sample) H unrolled and the fused
     * evaluations emitted (for a model without constraint rows one fused H and C, which the overload with φ and φ̇
     * and the impulse system reach through the interface's defaults), above it the large-model forms (long chains,
     * large trees).
     */
    BY_SIZE,
    /**
     * Per-body kinematics, unrolled H, every fused evaluation emitted: a body's query computes its branch only, at
     * source quadratic in depth (arm7: 68 % of its class).
     */
    PER_BODY,
    /** Shared kinematics passes, looped CRBA, the fused evaluations as separate calls: linear source. */
    SHARED_PASSES
}
