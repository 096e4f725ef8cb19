package org.symdyn.io.mjcf;

import org.symdyn.model.JointType;

/**
 * One {@code <joint>} or {@code <freejoint>} as read, defaults applied, angles in radians.
 *
 * @param name      the joint's name (generated when the file gives none: see {@link BodyTreeReader})
 * @param mjcfType  free, ball, slide or hinge
 * @param type      SymDyn's joint type: FLOATING, BALL, PRISMATIC, REVOLUTE (limited) or CONTINUOUS
 * @param anchor    {@code pos} in the body frame for a hinge or ball joint (the point it turns about); zero for
 *                  slide and free joints, whose motion does not depend on it
 * @param axis      the unit axis in the body frame (hinge, slide)
 * @param ref       the position at which the body is at its XML pose ({@code ref}, rad or m; 0 otherwise)
 * @param lower     lower limit, NaN when not limited
 * @param upper     upper limit, NaN when not limited
 * @param armature  rotor inertia added to each of the joint's diagonal entries of H
 * @param damping   viscous damping per dof
 * @param actuatorForceBound the bound on the force its actuators apply ({@code actuatorfrcrange}), infinity if none
 * @param resolved  the element with its class
 */
record MjcfJoint(String name, String mjcfType, JointType type, double[] anchor, double[] axis, double ref,
        double lower, double upper, double armature, double damping, double actuatorForceBound,
        ResolvedElement resolved) {
}
