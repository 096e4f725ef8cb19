package org.symdyn.io.mjcf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.Frame;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;

/**
 * Sensors as the model's devices:
 * <ul>
 * <li>{@code jointpos} and {@code jointvel} on a hinge or slide joint: an {@link EncoderSpec} (exact reading:
 * resolution 0, offset 0), which reads both the position and the velocity.</li>
 * <li>{@code gyro} and {@code accelerometer} on a site: one {@link ImuSpec} per site, named after the site, in the
 * site's frame, with each sensor's {@code noise} as the standard deviation of its white noise (0 when the site has
 * only one of the two).</li>
 * <li>Other sensors: a located warning each (not read).</li>
 * </ul>
 * An unnamed encoder is named {@code sensor<k>} (k counting from 1), made unique by the builder's name check.
 * MuJoCo keeps a namespace per kind of element, SymDyn one for all devices: an encoder named as an actuator, or an
 * IMU (named after its site) named as an encoder or an actuator, takes the name with {@code _sensor} appended (and
 * {@code _} while that is taken), with a warning that says so. Two sensors of one name are an error, as in MuJoCo.
 */
final class SensorReader {
    private final MjcfSource source;
    private final ModelBuilder builder;
    private final BodyTreeReader tree;

    /** The gyro and accelerometer noise of one site, and where the first of its sensors is. */
    private static final class Imu {
        final XmlElement first;
        double gyroNoise;
        double accelNoise;

        Imu(XmlElement first) {
            this.first = first;
        }
    }

    /** Names taken by devices: the actuators' (given), then each sensor's as it is added. */
    private final java.util.Set<String> taken;
    private final java.util.Set<String> actuators;
    /** The sensors' names written in the file: a renamed sensor takes none of them. */
    private final java.util.Set<String> written = new java.util.HashSet<>();

    SensorReader(MjcfSource source, ModelBuilder builder, BodyTreeReader tree, java.util.Set<String> actuatorNames) {
        this.source = source;
        this.builder = builder;
        this.tree = tree;
        this.actuators = java.util.Set.copyOf(actuatorNames);
        this.taken = new java.util.HashSet<>(actuatorNames);
    }

    /**
     * {@code name}, or when {@code clashes} (another kind of element has it in MuJoCo's own namespaces) the name with
     * {@code _sensor} appended, made free, and a warning at {@code e}.
     */
    private String deviceName(XmlElement e, String name, boolean clashes, String what) {
        if (!clashes) {
            return name;
        }
        String free = name + "_sensor";
        while (taken.contains(free) || written.contains(free)) {
            free = free + "_";
        }
        source.values(e).warning(e, what + " is named '" + Messages.cut(free) + "': '" + Messages.cut(name)
                + "' is taken by " + (actuators.contains(name) ? "an actuator" : "a sensor") + ", and SymDyn's"
                + " actuators and sensors share one namespace");
        return free;
    }

    void read(List<XmlElement> sections) {
        for (XmlElement section : sections) {
            for (XmlElement e : source.children(section)) {
                if (e.attribute("name") != null) {
                    written.add(e.attribute("name"));
                }
            }
        }
        Map<String, Imu> imus = new LinkedHashMap<>();
        int k = 0;
        for (XmlElement section : sections) {
            for (XmlElement e : source.children(section)) {
                k++;
                ValueReader v = source.values(e);
                String name = e.attribute("name") != null ? e.attribute("name") : "sensor" + k;
                String label = e.name() + " sensor '" + Messages.cut(name) + "'";
                switch (e.name()) {
                    case "jointpos", "jointvel" -> encoder(e, v, name, label);
                    case "gyro", "accelerometer" -> {
                        String site = v.require(e, "site", label + " has no site");
                        if (site == null) {
                            continue;
                        }
                        if (!tree.sites().containsKey(site)) {
                            v.error(e, label + ": site '" + Messages.cut(site) + "' is not a site");
                            continue;
                        }
                        Imu imu = imus.computeIfAbsent(site, s -> new Imu(e));
                        double noise = v.number(e, "noise", 0, false, label + ": noise");
                        if (e.is("gyro")) {
                            imu.gyroNoise = noise;
                        } else {
                            imu.accelNoise = noise;
                        }
                    }
                    default -> v.warning(e, label + ": <" + Messages.cut(e.name()) + "> sensors are not read");
                }
            }
        }
        for (Map.Entry<String, Imu> entry : imus.entrySet()) {
            MjcfSite site = tree.sites().get(entry.getKey());
            Imu imu = entry.getValue();
            Frame f = builder.frame(site.body().link());
            if (f == null) {
                continue;
            }
            Pose inBody = f.pose().compose(site.inLink());
            String device = deviceName(imu.first, entry.getKey(), taken.contains(entry.getKey()),
                    "the IMU of site '" + Messages.cut(entry.getKey()) + "'");
            taken.add(device);
            builder.addDevice(new ImuSpec(device, site.body().link(), f.bodyIndex(), inBody.rotationArray(),
                    inBody.translationArray(), imu.gyroNoise, imu.accelNoise, new double[3], new double[3], 0),
                    source.values(imu.first).location(imu.first));
        }
    }

    private void encoder(XmlElement e, ValueReader v, String name, String label) {
        String joint = v.require(e, "joint", label + " has no joint");
        if (joint == null) {
            return;
        }
        MjcfJoint j = tree.joints().get(joint);
        if (j == null) {
            tree.reportMissingJoint(v, e, joint, label);
            return;
        }
        if (!j.type().isSingleDof()) {
            v.warning(e, label + ": only hinge and slide joints have encoders; not read");
            return;
        }
        int body = builder.bodyIndexOfJoint(joint);
        String device = deviceName(e, name, actuators.contains(name), label);
        taken.add(device);
        builder.addDevice(new EncoderSpec(device, joint, builder.qIndexOfBody(body), builder.vIndexOfBody(body), 0,
                0), v.location(e));
    }
}
