package org.symdyn.io.urdf;

import org.symdyn.io.XmlElement;
import org.symdyn.model.JointType;
import org.symdyn.spatial.Pose;

/**
 * A {@code <joint>} as read from the file.
 *
 * @param name          the joint name (null if missing, already reported)
 * @param element       the {@code <joint>} element
 * @param fixed         true for {@code type="fixed"}
 * @param type          the movable joint type, null for fixed joints and unreadable types
 * @param parent        the parent link name, null if missing (already reported)
 * @param parentElement the {@code <parent>} element, or the joint element when there is none
 * @param child         the child link name, null if missing (already reported)
 * @param childElement  the {@code <child>} element, or the joint element when there is none
 * @param origin        the joint frame in the parent link frame
 * @param axis          the axis as written (not normalised; the builder does that and rejects zero)
 * @param lower         lower limit or NaN
 * @param upper         upper limit or NaN
 * @param armature      {@code <dynamics symdyn:armature>}, the rotor's reflected inertia (kg m² or kg), 0 when absent
 * @param damping       {@code <dynamics damping>}, viscous damping (N m s/rad or N s/m), 0 when absent
 * @param mimic         the {@code <mimic>} element or null (a mimic on a fixed joint is dropped with a warning)
 * @param broken        true if the joint had errors of its own (already reported): it is then kept in the tree
 *                      as a fixed joint, so that its descendants are still read and checked
 */
record JointDeclaration(String name, XmlElement element, boolean fixed, JointType type, String parent,
        XmlElement parentElement, String child, XmlElement childElement, Pose origin, double[] axis, double lower,
        double upper, double armature, double damping, XmlElement mimic, boolean broken) {

    /** True if the joint becomes a moving body's joint (movable and without errors). */
    boolean movable() {
        return !fixed && type != null && !broken;
    }

    /** How messages name the joint. */
    String label() {
        return "joint '" + name + "'";
    }
}
