package org.symdyn.contract;

/**
 * The kind of a constraint (RBDL's ConstraintType): of a model constraint ({@link ConstraintFunctions#constraintType})
 * and of a constraint group of a solver's set. A group's rows all have the same kind; the kind decides how its
 * multipliers are resolved into spatial forces.
 */
public enum ConstraintType {
    /** A body point held along world directions: one row per normal, position error 0. */
    CONTACT,
    /** Two frames on two bodies held together along spatial axes in the predecessor frame. */
    LOOP,
    /** A linear coupling of two single-dof joints, q_j = ratio q_r + offset. */
    COUPLER,
    /** Edge-on-edge contact (Simbody's LineOnLineContact). */
    LINE_ON_LINE,
    /** Rows supplied by a user class (a custom constraint, or any row provider). */
    CUSTOM
}
