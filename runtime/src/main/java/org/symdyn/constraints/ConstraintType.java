package org.symdyn.constraints;

/**
 * The kind of a constraint group (RBDL's ConstraintType). A group's rows all have the same kind; the kind decides
 * how a group's multipliers are resolved into spatial forces ({@link ConstraintRows#bodyForces}).
 */
public enum ConstraintType {
    /** A body point held along world directions: one row per normal, position error 0 ({@link ContactRows}). */
    CONTACT,
    /** Two frames on two bodies held together along spatial axes in the predecessor frame ({@link LoopRows}). */
    LOOP,
    /** A linear coupling of two single-dof joints, q_j = ratio q_r + offset ({@link CouplerRows}). */
    COUPLER,
    /** Edge-on-edge contact (Simbody's LineOnLineContact); rows come from the model or a row provider. */
    LINE_ON_LINE,
    /** Rows supplied by a user class ({@link CustomConstraint}, or any {@link ConstraintRows}). */
    CUSTOM
}
