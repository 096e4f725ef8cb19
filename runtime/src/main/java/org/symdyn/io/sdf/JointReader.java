package org.symdyn.io.sdf;

import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.JointType;
import org.symdyn.spatial.Pose;

/**
 * Reads a {@code <joint>}: its type, {@code <parent>} and {@code <child>} (scoped names, {@code world} as a parent
 * attaches the child to the world; a frame stands for the link it is attached to), and each {@code <axis>}:
 * <ul>
 * <li>{@code <xyz>} (default 0 0 1, normalised) is expressed in the joint frame, or in the frame
 * {@code expressed_in} names (1.7 and later, {@code __model__} the model frame); in 1.6 in the model frame when
 * {@code <use_parent_model_frame>} is true.</li>
 * <li>{@code <limit><lower><upper>} of a revolute or prismatic joint (a bound at or beyond ±1e16, SDFormat's
 * default, is none); {@code <dynamics><damping>} the viscous damping; {@code <friction>},
 * {@code <spring_stiffness>}, {@code <initial_position>} and {@code <mimic>} are located warnings, not read.</li>
 * </ul>
 * Types: fixed, revolute, continuous, prismatic, ball; universal and revolute2 as two revolute joints through a
 * massless cross (the first about {@code <axis>}, fixed in the parent, the second about {@code <axis2>}, fixed in the
 * child). A screw joint is an error: its rotation and translation are coupled by the thread pitch, and SymDyn's joints
 * have no such coupling (it would take a revolute and a prismatic joint with a coupler constraint). gearbox is an
 * error too.
 */
final class JointReader {
    /** At or beyond this, a bound is SDFormat's "no limit". */
    static final double NO_LIMIT = 1e16;

    private static final Set<String> CHILDREN = Set.of("parent", "child", "pose", "axis", "axis2", "physics",
            "sensor", "thread_pitch", "screw_thread_pitch", "gearbox_ratio", "gearbox_reference_body");
    private static final Set<String> AXIS_CHILDREN = Set.of("xyz", "use_parent_model_frame", "limit", "dynamics",
            "initial_position", "mimic");

    private final SdfSource source;
    private final FrameGraph frames;

    JointReader(SdfSource source, FrameGraph frames) {
        this.source = source;
        this.frames = frames;
    }

    SdfJoint read(ModelTree.JointDecl decl) {
        XmlElement e = decl.element();
        ValueReader values = source.values(e);
        int before = values.errorCount();
        String label = "joint '" + decl.name() + "'";
        ModelScope scope = decl.scope();
        String typeName = values.require(e, "type", label + " has no 'type' attribute");
        JointType type = null;
        boolean twoAxes = false;
        if (typeName != null) {
            switch (typeName.trim()) {
                case "fixed" -> type = null;
                case "revolute" -> type = JointType.REVOLUTE;
                case "continuous" -> type = JointType.CONTINUOUS;
                case "prismatic" -> type = JointType.PRISMATIC;
                case "ball" -> type = JointType.BALL;
                case "universal", "revolute2" -> {
                    type = JointType.REVOLUTE;
                    twoAxes = true;
                }
                case "screw" -> values.error(e, label + ": a screw joint couples rotation and translation by its"
                        + " thread pitch; SymDyn's joints have no such coupling (it would take a revolute and a"
                        + " prismatic joint tied by a coupler constraint), so it is not read");
                case "gearbox" -> values.error(e, label + ": a gearbox joint couples two other joints; it is not"
                        + " read");
                default -> values.error(e, label + ": unknown joint type '" + Messages.cut(typeName) + "' (expected"
                        + " fixed, revolute, continuous, prismatic, ball, universal, revolute2)");
            }
        }
        for (XmlElement c : e.children()) {
            if (!c.namespace().isEmpty()) {
                continue; // a custom element of another tool (drake:, gz:): SDFormat's extension point
            }
            if (!CHILDREN.contains(c.name())) {
                values.warning(c, label + ": unknown element <" + Messages.cut(c.name()) + ">; ignored");
            } else if (c.is("physics")) {
                values.warning(c, label + ": <physics> (simulator settings) is not read");
            } else if (c.is("sensor")) {
                values.warning(c, label + ": a joint's <sensor> is not read");
            }
        }
        String parent = link(e, values, scope, "parent", label);
        String child = link(e, values, scope, "child", label);
        if (parent != null && parent.equals(child)) {
            values.error(e, label + ": parent and child are the same link '" + child + "'");
        }
        boolean moving = type != null && type != JointType.BALL;
        double[] limits = {Double.NaN, Double.NaN, Double.NaN, Double.NaN};
        double[] damping = new double[2];
        double[] axis = null;
        double[] axis2 = null;
        if (moving) {
            axis = axis(decl, values, values.single(e, "axis", label), "axis", label, type, limits, 0, damping);
            if (twoAxes) {
                XmlElement a2 = values.single(e, "axis2", label);
                axis2 = axis(decl, values, a2, "axis2", label, type, limits, 2, damping);
            }
        }
        if (!twoAxes) {
            XmlElement a2 = SdfText.first(e, "axis2");
            if (a2 != null) {
                values.warning(a2, label + ": <axis2> is read only for universal and revolute2 joints; ignored");
            }
        }
        if (type == JointType.BALL || type == null) {
            XmlElement a = SdfText.first(e, "axis");
            if (a != null && type == JointType.BALL) {
                values.warning(a, label + ": a ball joint has no axis; <axis> ignored");
            }
        }
        boolean broken = values.errorCount() > before || (typeName != null && type == null
                && !typeName.trim().equals("fixed"));
        return new SdfJoint(decl.name(), e, broken ? null : type, parent, child, axis, axis2, limits, damping,
                scope, broken);
    }

    /** The scoped name of the link a {@code <parent>} or {@code <child>} names, or null (after the error). */
    private String link(XmlElement joint, ValueReader values, ModelScope scope, String role, String label) {
        XmlElement r = values.single(joint, role, label);
        String name = SdfText.string(r);
        if (name == null || name.isEmpty()) {
            values.error(r == null ? joint : r, label + " has no <" + role + ">");
            return null;
        }
        if (name.equals(ModelScope.WORLD)) {
            if (role.equals("child")) {
                values.error(r, label + ": the world cannot be a joint's child");
                return null;
            }
            return ModelScope.WORLD;
        }
        String scoped = scope.resolve(name);
        if (!frames.has(scoped)) {
            values.error(r, label + ": " + role + " '" + Messages.cut(name) + "' names no link or frame of the model");
            return null;
        }
        String linked = frames.link(scoped);
        if (linked == null) {
            values.error(r, label + ": " + role + " '" + Messages.cut(name) + "' is attached to no link");
        }
        return linked;
    }

    /** Reads one axis element into world coordinates, its limits into {@code limits[at..at+1]}. */
    private double[] axis(ModelTree.JointDecl decl, ValueReader values, XmlElement a, String which, String label,
            JointType type, double[] limits, int at, double[] damping) {
        ModelScope scope = decl.scope();
        double[] xyz = {0, 0, 1};
        String expressedIn = decl.name();
        if (a != null) {
            for (XmlElement c : a.children()) {
                if (c.namespace().isEmpty() && !AXIS_CHILDREN.contains(c.name())) { // namespaced: another tool's
                    values.warning(c, label + ": unknown element <" + Messages.cut(c.name()) + "> in <" + which
                            + ">; ignored");
                }
            }
            XmlElement x = SdfText.first(a, "xyz");
            if (x != null) {
                int before = values.errorCount();
                xyz = SdfText.numbers(values, x, 3, label + ": " + which + " xyz");
                if (values.errorCount() == before && xyz[0] == 0 && xyz[1] == 0 && xyz[2] == 0) {
                    values.error(x, label + ": " + which + " xyz is zero");
                }
                String in = x.attribute("expressed_in");
                if (in != null && !in.isBlank()) {
                    if (!scope.version().hasFrameSemantics()) {
                        values.error(x, label + ": expressed_in needs SDFormat 1.7 or later");
                    } else {
                        String scoped = scope.resolve(in.trim());
                        if (frames.has(scoped) && !scoped.equals(ModelScope.WORLD)) {
                            expressedIn = scoped;
                        } else {
                            values.error(x, label + ": " + which + " xyz expressed_in '" + Messages.cut(in)
                                    + "' names no frame of the model");
                        }
                    }
                }
            }
            XmlElement parentFrame = SdfText.first(a, "use_parent_model_frame");
            if (parentFrame != null) {
                if (scope.version().hasFrameSemantics()) {
                    values.error(parentFrame, label + ": use_parent_model_frame was replaced by xyz expressed_in"
                            + " in SDFormat 1.7 (the file is " + scope.version() + ")");
                } else if (SdfText.bool(values, a, "use_parent_model_frame", false, label
                        + ": use_parent_model_frame")) {
                    expressedIn = scope.frame();
                }
            }
            XmlElement limit = SdfText.first(a, "limit");
            if (limit != null && type != JointType.CONTINUOUS) {
                double lower = SdfText.number(values, limit, "lower", -NO_LIMIT, label + ": limit lower");
                double upper = SdfText.number(values, limit, "upper", NO_LIMIT, label + ": limit upper");
                limits[at] = lower <= -NO_LIMIT ? Double.NaN : lower;
                limits[at + 1] = upper >= NO_LIMIT ? Double.NaN : upper;
                if (lower > upper) {
                    values.warning(limit, label + ": limit lower " + lower + " is above upper " + upper);
                }
            }
            XmlElement dynamics = SdfText.first(a, "dynamics");
            if (dynamics != null) {
                double d = SdfText.number(values, dynamics, "damping", 0, label + ": damping");
                if (d < 0) {
                    values.error(SdfText.first(dynamics, "damping"), label + ": damping " + d + " is negative");
                }
                damping[at / 2] = d;
                warnNonZero(values, dynamics, "friction", label + ": dry friction (dynamics friction) is not"
                        + " modelled; ignored");
                warnNonZero(values, dynamics, "spring_stiffness", label + ": the joint spring (spring_stiffness)"
                        + " is not modelled; ignored");
            }
            XmlElement initial = SdfText.first(a, "initial_position");
            if (initial != null) {
                values.warning(initial, label + ": initial_position is not read (q = 0 is the pose in the file)");
            }
            XmlElement mimic = SdfText.first(a, "mimic");
            if (mimic != null) {
                values.warning(mimic, label + ": <mimic> is not read (no coupling constraint is added)");
            }
        }
        Pose frame = frames.pose(expressedIn);
        double[] world = new double[3];
        frame.rotateVector(xyz, world);
        double n = Math.sqrt(world[0] * world[0] + world[1] * world[1] + world[2] * world[2]);
        if (n > 0) {
            for (int i = 0; i < 3; i++) {
                world[i] /= n;
            }
        }
        return world;
    }

    private static void warnNonZero(ValueReader values, XmlElement parent, String child, String message) {
        XmlElement c = SdfText.first(parent, child);
        if (c != null) {
            double v = SdfText.number(values, parent, child, 0, "dynamics " + child);
            if (v != 0) {
                values.warning(c, message);
            }
        }
    }
}
