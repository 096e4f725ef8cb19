package org.symdyn.io.mjcf;

import org.symdyn.model.JointType;

/**
 * Reads a {@code <joint>} (or {@code <freejoint>}, which takes no defaults) with MuJoCo's rules: {@code type}
 * default hinge; {@code pos} default 0 and {@code axis} default (0, 0, 1), both in the body frame, the axis
 * normalised (zero is an error); {@code ref} (hinge in the compiler's angle unit, slide in metres) the position at
 * which the body is at its XML pose; {@code range} in the same units, used when {@code limited} is true, or is
 * {@code auto} (the default) under {@code autolimits} and a range is given; {@code armature} and {@code damping}
 * default 0. {@code stiffness} (a joint spring toward {@code springref}) and {@code frictionloss} are not modelled:
 * nonzero, each is a located warning. A ball joint's {@code range} (a cone limit) is a warning too.
 */
final class JointReader {
    private static final String[] TYPES = {"free", "ball", "slide", "hinge"};

    private final CompilerSettings compiler;

    JointReader(CompilerSettings compiler) {
        this.compiler = compiler;
    }

    /** The joint named {@code name} (given or generated), or null after reporting why it cannot be read. */
    MjcfJoint read(ResolvedElement j, String name, boolean freeElement) {
        String label = "joint '" + name + "'";
        int before = j.values().errorCount();
        String mjcfType = freeElement ? "free" : j.keyword("type", "hinge", label + ": type", TYPES);
        double[] anchor = new double[3];
        double[] axis = {0, 0, 1};
        double ref = 0;
        double lower = Double.NaN;
        double upper = Double.NaN;
        JointType type;
        switch (mjcfType) {
            case "free" -> {
                type = JointType.FLOATING;
                // align="true" moves the body's frame, so its q and v, to its inertial frame: as compiler alignfree
                // (refused in CompilerSettings), read without it every number of the body would be silently off
                if ("true".equals(j.keyword("align", "auto", label + ": align", "true", "false", "auto"))) {
                    j.error(label + ": align=\"true\" is not supported: it puts the free body's frame at its inertial"
                            + " frame (remove it, and place the body's frame there)");
                }
            }
            case "ball" -> {
                type = JointType.BALL;
                anchor = j.vector("pos", 3, anchor, label + ": pos");
            }
            default -> {
                boolean hinge = mjcfType.equals("hinge");
                double[] raw = j.vector("axis", 3, axis, label + ": axis");
                axis = Orientations.unit(raw);
                if (axis == null) {
                    if (j.values().errorCount() == before) {
                        j.error(label + ": axis is zero");
                    }
                    axis = new double[] {0, 0, 1};
                }
                if (hinge) {
                    anchor = j.vector("pos", 3, anchor, label + ": pos");
                }
                double r = j.number("ref", 0, label + ": ref");
                ref = hinge ? compiler.radians(r) : r;
                double[] range = limits(j, label);
                if (range != null) {
                    lower = hinge ? compiler.radians(range[0]) : range[0];
                    upper = hinge ? compiler.radians(range[1]) : range[1];
                }
                type = !hinge ? JointType.PRISMATIC : range != null ? JointType.REVOLUTE : JointType.CONTINUOUS;
            }
        }
        if (mjcfType.equals("ball") && j.has("range") && limited(j, label)) {
            j.warning(label + ": a ball joint's range (a cone limit) is not modelled");
        }
        double armature = number(j, "armature", label);
        double damping = number(j, "damping", label);
        double stiffness = number(j, "stiffness", label);
        if (stiffness != 0) {
            j.warning(label + ": stiffness " + stiffness + " (a joint spring) is not modelled; the joint moves"
                    + " freely (SymDyn's springs act between two points, not on a joint coordinate)");
        }
        double frictionloss = number(j, "frictionloss", label);
        if (frictionloss != 0) {
            j.warning(label + ": frictionloss " + frictionloss + " (dry joint friction) is not modelled");
        }
        if (j.values().errorCount() > before) {
            return null;
        }
        return new MjcfJoint(name, mjcfType, type, anchor, axis, ref, lower, upper, armature, damping, j);
    }

    private static double number(ResolvedElement j, String attribute, String label) {
        double v = j.number(attribute, 0, label + ": " + attribute);
        if (v < 0 && !attribute.equals("stiffness")) {
            j.error(label + ": " + attribute + " " + v + " must not be negative");
        }
        return Double.isNaN(v) ? 0 : v;
    }

    /** The range when the joint is limited, else null. */
    private double[] limits(ResolvedElement j, String label) {
        if (!limited(j, label)) {
            return null;
        }
        if (!j.has("range")) {
            j.error(label + ": limited is true but no range is given");
            return null;
        }
        double[] range = j.vector("range", 2, null, label + ": range");
        if (!(range[0] < range[1])) {
            j.error(label + ": range " + range[0] + " " + range[1] + " must have its lower bound below its upper"
                    + " bound");
            return null;
        }
        return range;
    }

    private boolean limited(ResolvedElement j, String label) {
        String limited = j.keyword("limited", "auto", label + ": limited", "true", "false", "auto");
        return switch (limited) {
            case "true" -> true;
            case "false" -> false;
            default -> {
                if (j.has("range") && !compiler.autolimits()) {
                    j.error(label + ": has a range, limited is auto and the compiler's autolimits is false; say"
                            + " limited=\"true\" or \"false\" (MuJoCo refuses it too)");
                    yield false;
                }
                yield j.has("range");
            }
        };
    }
}
