package org.symdyn.io.mjcf;

import java.util.List;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.ModelBuilder;

/**
 * Joint actuators as the model's devices. MuJoCo's actuator on a joint with gear g has length l = g q and applies
 * the joint force g f, where f is the actuator force clamped to {@code forcerange} (when force-limited):
 * <ul>
 * <li>{@code motor}: f = ctrl, ctrl clamped to {@code ctrlrange} (when control-limited): a
 * {@link TorqueSourceSpec} whose command is the joint force g · ctrl, saturated at |g| times the smaller of the
 * control and force bounds (their largest magnitude when a range is not symmetric, with a warning).</li>
 * <li>{@code position}: f = kp (ctrl − l) − kv l̇: a {@link ServoSpec} with stiffness g² kp, damping g² kv and target
 * ctrl / g (0 at first), saturated at |g| times the force bound. The servo has no target range: ctrlrange is
 * not carried.</li>
 * <li>{@code velocity}: f = kv (ctrl − l̇): a {@link ServoSpec} with stiffness 0 and damping g² kv; the servo has no
 * velocity target, so it acts as a damper (target velocity 0), with a warning.</li>
 * </ul>
 * Limits follow MuJoCo ({@link MjcfLimits}): {@code ctrllimited} / {@code forcelimited} true, false or auto
 * (limited when the range is given with its lower bound below its upper one; refused under the compiler's
 * {@code autolimits="false"}). The joint's {@code actuatorfrcrange} bounds the joint force too (the smaller bound
 * holds; with two actuators on one such joint, each is bounded alone, with a warning). An actuator's own
 * {@code armature} and {@code damping} are warnings (not read). Other actuator kinds, and transmissions other than a
 * hinge or slide {@code joint}, are warnings (not read); an actuator on a tendon is {@link TendonCouplings}' call. An
 * unnamed actuator is named {@code actuator<k>} (k counting from 1), made unique.
 */
final class ActuatorReader {
    private final MjcfSource source;
    private final DefaultClasses defaults;
    private final CompilerSettings compiler;
    private final ModelBuilder builder;
    private final BodyTreeReader tree;
    private final TendonCouplings tendons;
    /** The joints with an actuatorfrcrange that an actuator read so far acts on. */
    private final java.util.Set<String> boundedJoints = new java.util.HashSet<>();

    ActuatorReader(MjcfSource source, DefaultClasses defaults, CompilerSettings compiler, ModelBuilder builder,
            BodyTreeReader tree, TendonCouplings tendons) {
        this.source = source;
        this.defaults = defaults;
        this.compiler = compiler;
        this.builder = builder;
        this.tree = tree;
        this.tendons = tendons;
    }

    /** MuJoCo's actuator kinds without defaults of their own (plugins, and kinds of recent releases): not read. */
    private static final java.util.Set<String> UNREAD_KINDS = java.util.Set.of("plugin", "pid", "orientation");

    /** Reads the actuators; returns every name given to one, written in the file or generated. */
    java.util.Set<String> read(List<XmlElement> sections) {
        List<XmlElement> entries = source.entries(sections);
        UniqueNames names = new UniqueNames(entries);
        java.util.Set<String> given = new java.util.HashSet<>();
        for (int k = 1; k <= entries.size(); k++) {
            XmlElement e = entries.get(k - 1);
            ValueReader v = source.values(e);
            String name = e.attribute("name") != null ? e.attribute("name") : names.next("actuator" + k);
            given.add(name);
            String label = e.name() + " '" + name + "'";
            if (UNREAD_KINDS.contains(e.name()) && e.namespace().isEmpty()) {
                v.warning(e, label + ": <" + e.name() + "> actuators are not read");
                continue;
            }
            if (!DefaultClasses.ACTUATORS.contains(e.name()) || !e.namespace().isEmpty()) {
                v.warning(e, "unknown element <" + Messages.cut(e.name()) + "> in <actuator>; ignored");
                continue;
            }
            ResolvedElement r = ResolvedElement.of(e, e.name(), null, defaults, source);
            if (r.has("tendon")) {
                tendons.refuse(e, label, r.get("tendon"));
                continue;
            }
            if (!e.name().equals("motor") && !e.name().equals("position") && !e.name().equals("velocity")) {
                v.warning(e, label + ": <" + e.name() + "> actuators are not read");
                continue;
            }
            String joint = r.get("joint");
            if (joint == null) {
                v.warning(e, label + ": only actuators on a joint are read (this one acts on a "
                        + (r.has("site") ? "site" : r.has("body") ? "body" : "missing target") + ")");
                continue;
            }
            joint(e, r, v, name, label, joint);
        }
        return given;
    }

    private void joint(XmlElement e, ResolvedElement r, ValueReader v, String name, String label, String joint) {
        MjcfJoint j = tree.joints().get(joint);
        if (j == null) {
            tree.reportMissingJoint(v, e, joint, label);
            return;
        }
        if (!j.type().isSingleDof()) {
            v.warning(e, label + ": only actuators on hinge and slide joints are read");
            return;
        }
        int before = v.errorCount();
        double[] gears = r.numbers("gear", label + ": gear");
        double gear = gears.length == 0 ? 1 : gears[0];
        if (gear == 0) {
            r.error(label + ": gear 0 transmits nothing");
        }
        // Only a motor's control is a force; a servo's is its target, which the servo does not bound.
        double ctrlBound = e.is("motor") ? bound(r, "ctrl", label) : Double.POSITIVE_INFINITY;
        double forceBound = bound(r, "force", label);
        if (v.errorCount() > before) {
            return;
        }
        for (String unread : new String[] {"armature", "damping"}) {
            if (r.has(unread) && r.number(unread, 0, label + ": " + unread) != 0) {
                v.warning(e, label + ": the actuator's " + unread + " is not read (give it to the joint)");
            }
        }
        int body = builder.bodyIndexOfJoint(joint);
        int q = builder.qIndexOfBody(body);
        int dof = builder.vIndexOfBody(body);
        double g = Math.abs(gear);
        // The joint's actuatorfrcrange bounds the sum of its actuators' forces: exact for one actuator.
        double jointBound = j.actuatorForceBound();
        if (jointBound < Double.POSITIVE_INFINITY && !boundedJoints.add(joint)) {
            v.warning(e, label + ": joint '" + Messages.cut(joint) + "' has more than one actuator; its"
                    + " actuatorfrcrange (a bound on their sum) bounds each of them alone");
        }
        switch (e.name()) {
            case "motor" -> builder.addDevice(new TorqueSourceSpec(name, joint, dof, 0,
                    Math.min(g * Math.min(ctrlBound, forceBound), jointBound)), v.location(e));
            case "position" -> {
                double kp = r.number("kp", 1, label + ": kp");
                double kv = r.number("kv", 0, label + ": kv");
                for (String unread : new String[] {"dampratio", "timeconst"}) {
                    if (r.has(unread) && r.number(unread, 0, label + ": " + unread) != 0) {
                        v.warning(e, label + ": " + unread + " is not read (the servo's damping is kv gear², "
                                + gear * gear * kv + ")");
                    }
                }
                builder.addDevice(new ServoSpec(name, joint, q, dof, gear * gear * kp, gear * gear * kv, 0,
                        Math.min(g * forceBound, jointBound)), v.location(e));
            }
            default -> {
                double kv = r.number("kv", 1, label + ": kv");
                v.warning(e, label + ": a velocity actuator is read as a damper (a servo with stiffness 0 and"
                        + " target velocity 0): the servo has no velocity command");
                builder.addDevice(new ServoSpec(name, joint, q, dof, 0, gear * gear * kv, 0,
                        Math.min(g * forceBound, jointBound)), v.location(e));
            }
        }
    }

    /** The largest magnitude of {@code <prefix>range} when limited ({@link MjcfLimits}), else infinity. */
    private double bound(ResolvedElement r, String prefix, String label) {
        String attribute = prefix + "range";
        double[] range = MjcfLimits.range(r, prefix + "limited", attribute, compiler, label);
        if (range == null) {
            return Double.POSITIVE_INFINITY;
        }
        if (!(range[0] <= range[1])) {
            r.error(label + ": " + attribute + " " + range[0] + " " + range[1] + " has its lower bound above its"
                    + " upper bound");
            return Double.POSITIVE_INFINITY;
        }
        if (range[0] != -range[1]) {
            r.warning(label + ": " + attribute + " " + range[0] + " " + range[1] + " is not symmetric; the limit"
                    + " is ±" + Math.max(-range[0], range[1]));
        }
        double b = Math.max(-range[0], range[1]);
        if (!(b > 0)) {
            r.error(label + ": " + attribute + " " + range[0] + " " + range[1] + " allows no force");
            return Double.POSITIVE_INFINITY;
        }
        return b;
    }
}
