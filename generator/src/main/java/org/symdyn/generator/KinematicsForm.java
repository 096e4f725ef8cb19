package org.symdyn.generator;

/**
 * The forms of the methods whose unrolled source grows with n times the tree depth. PER_BODY: each body's
 * kinematics its own straight-line method from the root, H unrolled, the fused evaluations emitted. SHARED_PASSES
 * (the large-model forms): the kinematics from straight-line passes over the tree and small query methods
 * ({@link SharedPassKinematics}), the second pass of the CRBA looped ({@link LoopedMassMatrix}), the fused
 * evaluations as the interface's separate calls; source linear in the bodies.
 */
public enum KinematicsForm {
    /**
     * Per body up to a sum over bodies of their depth of {@value SharedPassKinematics#MAX_PER_BODY_DEPTH_SUM}
     * (every shared model and sample), shared passes above it (long chains, large trees).
     */
    BY_SIZE,
    /** Per-body kinematics, unrolled H, emitted fused evaluations: fastest per call, source quadratic in depth. */
    PER_BODY,
    /** Shared kinematics passes, looped CRBA, the fused evaluations as separate calls: linear source. */
    SHARED_PASSES
}
