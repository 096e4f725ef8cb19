package org.symdyn.io.sdf;

import org.symdyn.io.XmlElement;
import org.symdyn.model.JointType;

/**
 * A joint as read, its axes resolved to the world at the initial configuration.
 *
 * @param name   scoped name
 * @param type   null for a fixed joint; REVOLUTE, CONTINUOUS, PRISMATIC or BALL; for a universal (or revolute2)
 *               joint REVOLUTE with {@code axis2} set
 * @param parent the scoped name of the parent link, or {@link ModelScope#WORLD}
 * @param child  the scoped name of the child link
 * @param axis   the first axis in world coordinates (unit), null when the type has none
 * @param axis2  the second axis of a universal joint in world coordinates, else null
 * @param limits lower, upper (NaN: none) for each axis: {lower1, upper1, lower2, upper2}
 * @param damping viscous damping of each axis (N m s/rad or N s/m): {damping1, damping2}
 * @param broken the joint has an error: it is kept fixed so that its subtree is still read
 */
record SdfJoint(String name, XmlElement element, JointType type, String parent, String child, double[] axis,
        double[] axis2, double[] limits, double[] damping, ModelScope scope, boolean broken) {
}
