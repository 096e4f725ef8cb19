package org.symdyn.io.mjcf;

import org.symdyn.model.JointType;

/**
 * Reads a {@code <joint>} (or {@code <freejoint>}, which takes no defaults) with MuJoCo's rules: {@code type}
 * default hinge; {@code pos} default 0 and {@code axis} default (0, 0, 1), both in the body frame, the axis
 * normalised (zero is an error); {@code ref} (hinge in the compiler's angle unit, slide in metres) the position at
 * which the body is at its XML pose; {@code range} in the same units, used when {@code limited} is true, or is
 * {@code auto} (the default) under {@code autolimits} and a range is given; {@code armature} and {@code damping}
 * default 0; {@code actuatorfrcrange} under {@code actuatorfrclimited} (the same rule, {@link MjcfLimits}) bounds
 * the force its actuators apply ({@link ActuatorReader}). {@code stiffness} (a joint spring toward
 * {@code springref}), {@code springdamper} and {@code frictionloss} are not modelled: nonzero, each is a located
 * warning. A ball joint's {@code range} (a cone limit) is a warning too.
 */
final class JointReader {
    private static final String[] TYPES = {"free", "ball", "slide", "hinge"};

    private final CompilerSettings compiler;
    private final boolean dampersDisabled;

    /** @param dampersDisabled the option's flags switch joint damping off: every joint's damping is 0 */
    JointReader(CompilerSettings compiler, boolean dampersDisabled) {
        this.compiler = compiler;
        this.dampersDisabled = dampersDisabled;
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
        if (mjcfType.equals("ball") && j.has("range") && MjcfLimits.range(j, "limited", "range", compiler, label)
                != null) {
            j.warning(label + ": a ball joint's range (a cone limit) is not modelled");
        }
        double armature = number(j, "armature", label);
        double damping = number(j, "damping", label);
        if (dampersDisabled) {
            damping = 0; // read and checked all the same; the option's damper flags switch it off
        }
        double stiffness = number(j, "stiffness", label);
        if (stiffness != 0) {
            j.warning(label + ": stiffness " + stiffness + " (a joint spring) is not modelled; the joint moves"
                    + " freely (SymDyn's springs act between two points, not on a joint coordinate)");
        }
        if (j.has("springdamper")) {
            double[] sd = j.vector("springdamper", 2, null, label + ": springdamper");
            if (sd[0] != 0 || sd[1] != 0) {
                j.warning(label + ": springdamper " + sd[0] + " " + sd[1] + " (a spring and a damper from a time"
                        + " constant and a damping ratio) is not modelled; the joint keeps damping "
                        + damping);
            }
        }
        double actuatorForceBound = actuatorForceBound(j, mjcfType, label);
        double frictionloss = number(j, "frictionloss", label);
        if (frictionloss != 0) {
            j.warning(label + ": frictionloss " + frictionloss + " (dry joint friction) is not modelled");
        }
        if (j.values().errorCount() > before) {
            return null;
        }
        return new MjcfJoint(name, mjcfType, type, anchor, axis, ref, lower, upper, armature, damping,
                actuatorForceBound, j);
    }

    private static double number(ResolvedElement j, String attribute, String label) {
        double v = j.number(attribute, 0, label + ": " + attribute);
        if (v < 0 && !attribute.equals("stiffness")) {
            j.error(label + ": " + attribute + " " + v + " must not be negative");
        }
        return Double.isNaN(v) ? 0 : v;
    }

    /** The range when the joint is limited ({@link MjcfLimits}), else null. */
    private double[] limits(ResolvedElement j, String label) {
        double[] range = MjcfLimits.range(j, "limited", "range", compiler, label);
        if (range != null && !(range[0] < range[1])) {
            j.error(label + ": range " + range[0] + " " + range[1] + " must have its lower bound below its upper"
                    + " bound");
            return null;
        }
        return range;
    }

    /**
     * The bound on the joint's actuator force, {@code actuatorfrcrange} when {@code actuatorfrclimited}
     * ({@link MjcfLimits}): the larger magnitude of the range (a range not symmetric about 0 is a warning), infinity
     * when not limited.
     */
    private double actuatorForceBound(ResolvedElement j, String mjcfType, String label) {
        if (mjcfType.equals("free") || mjcfType.equals("ball")) {
            return Double.POSITIVE_INFINITY; // MuJoCo bounds no actuator force on these
        }
        double[] range = MjcfLimits.range(j, "actuatorfrclimited", "actuatorfrcrange", compiler, label);
        if (range == null) {
            return Double.POSITIVE_INFINITY;
        }
        if (!(range[0] < range[1])) {
            j.error(label + ": actuatorfrcrange " + range[0] + " " + range[1] + " must have its lower bound below its"
                    + " upper bound");
            return Double.POSITIVE_INFINITY;
        }
        double bound = Math.max(Math.abs(range[0]), Math.abs(range[1]));
        if (range[0] != -range[1]) {
            j.warning(label + ": actuatorfrcrange " + range[0] + " " + range[1] + " is not symmetric about 0; the"
                    + " bound is ±" + bound);
        }
        return bound;
    }
}
