package org.symdyn.io.urdf;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.symdyn.io.Messages;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.model.DeviceChecks;
import org.symdyn.model.Frame;
import org.symdyn.model.JointType;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;

/**
 * Reads the actuator and sensor elements of namespace {@value UrdfReader#NAMESPACE} ({@code servo}, {@code motor},
 * {@code torque_source}, {@code spring}, {@code imu}, {@code encoder}) into {@link DeviceSpec}s, after every link
 * has been given to the builder. A joint device needs a movable single-coordinate joint (revolute, continuous,
 * prismatic); a link may be a moving link, a link attached by fixed joints (its placement is folded into the IMU's
 * pose or the spring's point) or the root link (body −1, world coordinates). Numbers are checked by
 * {@link DeviceChecks}, each problem reported at the element; a link or joint that exists but was refused earlier
 * is skipped without a second message, as in {@link ConstraintElementReader}.
 */
final class DeviceElementReader {
    /** The element names this reader takes. */
    static final List<String> ELEMENTS = List.of("servo", "motor", "torque_source", "spring", "imu", "encoder");

    private static final double[] ZERO3 = new double[3];
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

    private final ValueReader values;
    private final ModelBuilder builder;
    private final Map<String, LinkDeclaration> links;
    private final Map<String, JointDeclaration> joints;

    DeviceElementReader(ValueReader values, ModelBuilder builder, Map<String, LinkDeclaration> links,
            Map<String, JointDeclaration> joints) {
        this.values = values;
        this.builder = builder;
        this.links = links;
        this.joints = joints;
    }

    /** One device element, a direct child of {@code <robot>}, whose name is one of {@link #ELEMENTS}. */
    void read(XmlElement e) {
        String element = e.name();
        String name = name(e, element);
        String label = element + " '" + (name == null ? "?" : name) + "'";
        int before = values.errorCount();
        DeviceSpec spec;
        boolean resolved;
        int afterNumbers;
        switch (element) {
            case "servo" -> {
                String joint = values.require(e, "joint", label + " has no 'joint' attribute");
                double kp = values.number(e, "kp", Double.NaN, true, label + ": kp");
                double kd = values.number(e, "kd", 0, false, label + ": kd");
                double target = values.number(e, "target", 0, false, label + ": target");
                double maxTorque = values.number(e, "max_torque", Double.POSITIVE_INFINITY, false,
                        label + ": max_torque");
                afterNumbers = values.errorCount();
                int body = joint(e, label, joint);
                resolved = body >= 0;
                spec = new ServoSpec(name, joint, q(body), v(body), kp, kd, target, maxTorque);
            }
            case "motor" -> {
                String joint = values.require(e, "joint", label + " has no 'joint' attribute");
                double kt = values.number(e, "torque_constant", Double.NaN, true, label + ": torque_constant");
                double r = values.number(e, "resistance", Double.NaN, true, label + ": resistance");
                double freeSpeed = values.number(e, "free_speed", Double.NaN, true, label + ": free_speed");
                double nominal = values.number(e, "nominal_voltage", Double.NaN, true, label + ": nominal_voltage");
                double gear = values.number(e, "gear_ratio", 1, false, label + ": gear_ratio");
                double voltage = values.number(e, "voltage", 0, false, label + ": voltage");
                afterNumbers = values.errorCount();
                int body = joint(e, label, joint);
                resolved = body >= 0;
                spec = new DcMotorSpec(name, joint, q(body), v(body), kt, r, freeSpeed, nominal, gear, voltage);
            }
            case "torque_source" -> {
                String joint = values.require(e, "joint", label + " has no 'joint' attribute");
                double command = values.number(e, "command", 0, false, label + ": command");
                double maxTorque = values.number(e, "max_torque", Double.POSITIVE_INFINITY, false,
                        label + ": max_torque");
                afterNumbers = values.errorCount();
                int body = joint(e, label, joint);
                resolved = body >= 0;
                spec = new TorqueSourceSpec(name, joint, v(body), command, maxTorque);
            }
            case "encoder" -> {
                String joint = values.require(e, "joint", label + " has no 'joint' attribute");
                double resolution = values.number(e, "resolution", 0, false, label + ": resolution");
                double offset = values.number(e, "offset", 0, false, label + ": offset");
                afterNumbers = values.errorCount();
                int body = joint(e, label, joint);
                resolved = body >= 0;
                spec = new EncoderSpec(name, joint, q(body), v(body), resolution, offset);
            }
            case "imu" -> {
                String link = values.require(e, "link", label + " has no 'link' attribute");
                double[] xyz = values.vector(e, "xyz", 3, ZERO3, label + ": xyz");
                double[] rpy = values.vector(e, "rpy", 3, ZERO3, label + ": rpy");
                double gyroNoise = values.number(e, "gyro_noise", 0, false, label + ": gyro_noise");
                double accelNoise = values.number(e, "accel_noise", 0, false, label + ": accel_noise");
                double[] gyroBias = values.vector(e, "gyro_bias", 3, ZERO3, label + ": gyro_bias");
                double[] accelBias = values.vector(e, "accel_bias", 3, ZERO3, label + ": accel_bias");
                long seed = seed(e, label);
                afterNumbers = values.errorCount();
                Frame f = frame(e, label, link);
                resolved = f != null;
                Pose sensor = (f == null ? Pose.IDENTITY : f.pose()).compose(Pose.fromXyzRpy(xyz, rpy));
                spec = new ImuSpec(name, link, f == null ? -1 : f.bodyIndex(), sensor.rotationArray(),
                        sensor.translationArray(), gyroNoise, accelNoise, gyroBias, accelBias, seed);
            }
            default -> { // spring
                String link1 = values.require(e, "link1", label + " has no 'link1' attribute");
                double[] point1 = values.vector(e, "point1", 3, ZERO3, label + ": point1");
                String link2 = values.require(e, "link2", label + " has no 'link2' attribute");
                double[] point2 = values.vector(e, "point2", 3, ZERO3, label + ": point2");
                double stiffness = values.number(e, "stiffness", Double.NaN, true, label + ": stiffness");
                double damping = values.number(e, "damping", 0, false, label + ": damping");
                double restLength = values.number(e, "rest_length", Double.NaN, true, label + ": rest_length");
                afterNumbers = values.errorCount();
                Frame f1 = frame(e, label, link1);
                Frame f2 = frame(e, label, link2);
                resolved = f1 != null && f2 != null;
                double[] p1 = new double[3];
                double[] p2 = new double[3];
                (f1 == null ? Pose.IDENTITY : f1.pose()).transformPoint(point1, p1);
                (f2 == null ? Pose.IDENTITY : f2.pose()).transformPoint(point2, p2);
                if (resolved && f1.bodyIndex() == f2.bodyIndex()) {
                    values.error(e, label + ": link1 '" + link1 + "' and link2 '" + link2 + "' move with the same "
                            + "body, so the spring exerts no force");
                }
                spec = new SpringDamperSpec(name, link1, f1 == null ? -1 : f1.bodyIndex(), p1, link2,
                        f2 == null ? -1 : f2.bodyIndex(), p2, stiffness, damping, restLength);
            }
        }
        rejectChildren(e, label);
        if (afterNumbers == before) {
            // Numbers are checked only when all were read: a missing or malformed one is reported once.
            for (String problem : DeviceChecks.problems(spec)) {
                values.error(e, label + ": " + problem);
            }
        }
        if (values.errorCount() == before && resolved && name != null) {
            builder.addDevice(spec, values.location(e));
        }
    }

    private int q(int body) {
        return body < 0 ? -1 : builder.qIndexOfBody(body);
    }

    private int v(int body) {
        return body < 0 ? -1 : builder.vIndexOfBody(body);
    }

    private String name(XmlElement e, String element) {
        return Names.check(values, e, element + " name", values.require(e, "name", element
                + " has no 'name' attribute"));
    }

    /** The IMU noise generator's seed: a decimal integer in the range of a long, default 0. */
    private long seed(XmlElement e, String label) {
        String raw = e.attribute("seed");
        if (raw == null) {
            return 0;
        }
        String t = raw.trim();
        if (!INTEGER.matcher(t).matches()) {
            values.error(e, label + ": seed '" + Messages.cut(raw) + "' is not an integer");
            return 0;
        }
        try {
            return Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException x) {
            values.error(e, label + ": seed '" + Messages.cut(raw) + "' is out of range (a 64-bit integer)");
            return 0;
        }
    }

    /**
     * The body of a movable single-coordinate joint, or -1: after an error if the joint does not exist, is fixed or
     * has several coordinates; silently if it was not given (already reported) or exists but was refused earlier.
     */
    private int joint(XmlElement e, String label, String jointName) {
        if (jointName == null) {
            return -1;
        }
        int body = builder.bodyIndexOfJoint(jointName);
        if (body >= 0) {
            JointType type = builder.jointType(body);
            if (!type.isSingleDof()) {
                values.error(e, label + ": joint '" + jointName + "' is " + type.urdfName() + "; a " + e.name()
                        + " needs a single-coordinate joint (revolute, continuous or prismatic)");
                return -1;
            }
            return body;
        }
        JointDeclaration d = joints.get(jointName);
        if (d == null) {
            values.error(e, label + ": unknown joint '" + jointName + "'");
        } else if (d.fixed()) {
            values.error(e, label + ": joint '" + jointName + "' is fixed; a " + e.name()
                    + " needs a movable single-coordinate joint (revolute, continuous or prismatic)");
        }
        return -1;
    }

    /** The link's frame, or null: after an error if the link does not exist, silently if it was refused. */
    private Frame frame(XmlElement e, String label, String link) {
        if (link == null) {
            return null;
        }
        Frame f = builder.frame(link);
        if (f == null && !links.containsKey(link)) {
            values.error(e, label + ": unknown link '" + link + "'");
        }
        return f;
    }

    private void rejectChildren(XmlElement e, String label) {
        for (XmlElement c : e.childrenInNamespace(UrdfReader.NAMESPACE)) {
            values.error(c, label + ": unknown SymDyn element '" + c.name() + "' (this element has no children)");
        }
    }
}
