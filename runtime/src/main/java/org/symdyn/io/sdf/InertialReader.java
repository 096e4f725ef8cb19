package org.symdyn.io.sdf;

import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A link's {@code <inertial>}: {@code <mass>} (kg, default 1), {@code <inertia>} ixx ixy ixz iyy iyz izz (kg m²,
 * defaults 1 0 0 1 0 1), the inertia about the centre of mass in the inertial frame, whose origin is the centre of
 * mass; the inertial frame is placed by {@code <inertial><pose>} in the link frame (or the frame its
 * {@code relative_to} names). A link without {@code <inertial>} has SDFormat's default, 1 kg with unit moments at
 * the link origin, as Gazebo simulates it, with a warning. {@code <inertial auto="true">} (1.11, from the
 * collision shapes' volume) is an error: no density is read.
 */
final class InertialReader {
    private static final String[] NAMES = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    private static final double[] DEFAULTS = {1, 0, 0, 1, 0, 1};

    private final SdfSource source;
    private final FrameGraph frames;

    InertialReader(SdfSource source, FrameGraph frames) {
        this.source = source;
        this.frames = frames;
    }

    /**
     * The link's inertia expressed in the frame {@code into} (given by its world pose W ← into): mass, centre of
     * mass and inertia about it in that frame's axes.
     */
    RigidBodyInertia read(ModelTree.LinkDecl link, Pose into) {
        XmlElement e = link.element();
        ValueReader values = source.values(e);
        String label = "link '" + link.name() + "'";
        XmlElement inertial = values.single(e, "inertial", label);
        Pose world;
        double mass = 1;
        double[] m = DEFAULTS.clone();
        if (inertial == null) {
            values.warning(e, label + " has no <inertial>: SDFormat's default of 1 kg with unit moments of inertia"
                    + " (kg m²) at the link origin is used, as Gazebo does");
            world = frames.pose(link.name());
        } else {
            if (values.bool(inertial, "auto", false, label + ": inertial auto")) {
                values.error(inertial, label + ": <inertial auto=\"true\"> (inertia from the collision shapes'"
                        + " volume and density) is not read: write the mass and inertia");
            }
            world = frames.pose(PoseElement.of(inertial, values, link.scope().version(), label + ": inertial"),
                    link.name(), link.scope(), inertial);
            mass = SdfText.number(values, inertial, "mass", 1, label + ": mass");
            XmlElement inertia = values.single(inertial, "inertia", label);
            if (inertia != null) {
                for (int i = 0; i < 6; i++) {
                    m[i] = SdfText.number(values, inertia, NAMES[i], DEFAULTS[i], label + ": inertia " + NAMES[i]);
                }
            }
            for (XmlElement c : inertial.children()) {
                if (!c.namespace().isEmpty() || !(c.is("mass") || c.is("inertia") || c.is("pose")
                        || c.is("fluid_added_mass"))) {
                    values.warning(c, label + ": unknown element <" + c.name() + "> in <inertial>; ignored");
                } else if (c.is("fluid_added_mass")) {
                    values.warning(c, label + ": fluid_added_mass is not modelled; ignored");
                }
            }
        }
        RigidBodyInertia inFrame = RigidBodyInertia.of(mass, new double[3], m[0], m[1], m[2], m[3], m[4], m[5]);
        return inFrame.expressedIn(into.inverse().compose(world));
    }
}
