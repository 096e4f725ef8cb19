package org.symdyn.io.urdf;

import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.Spelling;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * Children of URDF's elements that URDF does not have: a misspelt {@code <axiss>} left a joint turning about x, a
 * {@code <limits>} one without limits, a {@code <dynamic damping="5">} one without damping, each silently (a
 * helper's probe: H of a two-link arm 1.2 read 0.2). urdfdom skips what it does not know; so does SymDyn, with a
 * located warning naming the element meant (an error under strict reading). Checked under {@code <link>},
 * {@code <joint>}, {@code <inertial>}, {@code <visual>}, {@code <collision>} and {@code <geometry>}, in no
 * namespace: elements of other namespaces (SymDyn's, a simulator's) are theirs, and the robot's own children
 * ({@code <gazebo>}, {@code <transmission>}, ...) belong to many tools.
 */
final class UnknownChildren {
    /**
     * URDF's children of each element, and those common files carry beyond it that urdfdom skips: a link's
     * {@code <contact>} (PyBullet's friction), {@code <audio_source>} and {@code <bullet>} (its user data, also on a
     * visual) and {@code <self_collision_checking>}, a joint's legacy {@code <joint_properties>} (r2d2, minitaur), a
     * collision's
     * {@code <material>} (anymal, solo12, hyq and iiwa14 of the shared models have them) and
     * {@code <contact_coefficients>} (the ROS URDF tutorial's).
     */
    private static final Map<String, Set<String>> KNOWN = Map.of(
            "link", Set.of("inertial", "visual", "collision", "contact", "self_collision_checking", "audio_source",
                    "bullet"),
            "joint", Set.of("origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic",
                    "safety_controller", "joint_properties"),
            "inertial", Set.of("origin", "mass", "inertia"),
            "visual", Set.of("origin", "geometry", "material", "bullet"),
            "collision", Set.of("origin", "geometry", "verbose", "material", "contact_coefficients"),
            "geometry", SceneElementReader.SHAPES);

    private UnknownChildren() {
    }

    static void report(XmlElement robot, ValueReader values) {
        for (XmlElement top : robot.children()) {
            if (top.is("link") || top.is("joint")) {
                check(top, values);
            }
        }
    }

    private static void check(XmlElement e, ValueReader values) {
        Set<String> known = KNOWN.get(e.name());
        for (XmlElement c : e.children()) {
            if (!c.namespace().isEmpty()) {
                continue;
            }
            if (!known.contains(c.name())) {
                String owner = e.attribute("name");
                values.warning(c, "<" + e.name() + ">" + (owner == null || !(e.is("link") || e.is("joint")) ? ""
                        : " '" + Messages.cut(owner) + "'") + ": unknown element <" + Messages.cut(c.name()) + ">"
                        + Spelling.suggestion(c.name(), known) + "; ignored");
            } else if (KNOWN.containsKey(c.name())) {
                check(c, values);
            }
        }
    }
}
