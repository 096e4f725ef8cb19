package org.symdyn.systems;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;

/**
 * Working actuators and sensors made from declarations ({@link DeviceSpec}s: a generated class's
 * {@link DeclaredDevices#devices()} or a model's), for one model's {@link Kinematics}, in declaration order:
 * <table>
 * <caption>declaration → device</caption>
 * <tr><td>{@link ServoSpec}</td><td>{@link PdServo}</td></tr>
 * <tr><td>{@link DcMotorSpec}</td><td>{@link DcMotor}</td></tr>
 * <tr><td>{@link TorqueSourceSpec}</td><td>{@link JointTorqueSource}</td></tr>
 * <tr><td>{@link SpringDamperSpec}</td><td>{@link LinearSpringDamper}</td></tr>
 * <tr><td>{@link ImuSpec}</td><td>{@link Imu} (needs the model's gravity)</td></tr>
 * <tr><td>{@link EncoderSpec}</td><td>{@link JointEncoder}</td></tr>
 * </table>
 * Every index is checked against the kinematics' model (nq, nv, bodies) and names must be unique, so that a
 * declaration of another model fails here and not in a step. The devices hold the given kinematics instance: like
 * it, they serve one thread (bind again with a {@code copy()} for another).
 */
public final class Devices {
    private final Map<String, Actuator> actuators;
    private final Map<String, Sensor> sensors;

    private Devices(Map<String, Actuator> actuators, Map<String, Sensor> sensors) {
        this.actuators = actuators;
        this.sensors = sensors;
    }

    /**
     * Binds declarations to a model's kinematics. IMUs that share a seed (the default 0 of a URDF, an MJCF file's,
     * which has none) would draw one noise sequence: the second and later of them draw from
     * {@code Sensor.streamSeed(seed, k)} instead (k their count so far), so that each IMU's noise is its own;
     * an IMU with a seed of its own keeps it.
     *
     * @param gravity g_W of the model (m/s², world coordinates), needed by IMUs; may be null when there is none
     * @throws IllegalArgumentException for a duplicate name, an index outside the model, or an IMU without gravity
     */
    public static Devices of(List<? extends DeviceSpec> specs, Kinematics kinematics, double[] gravity) {
        Objects.requireNonNull(specs, "specs");
        Objects.requireNonNull(kinematics, "kinematics");
        Map<String, Actuator> acts = new LinkedHashMap<>();
        Map<String, Sensor> sens = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        Set<Long> imuSeeds = new HashSet<>();
        int imus = 0;
        for (DeviceSpec d : specs) {
            Objects.requireNonNull(d, "a device spec");
            if (!names.add(d.name())) {
                throw new IllegalArgumentException("duplicate device name '" + d.name() + "'");
            }
            String n = d.name();
            if (d instanceof ServoSpec s) {
                Checks.qIndex(n, kinematics, s.qIndex());
                Checks.vIndex(n, kinematics, s.vIndex());
                acts.put(n, PdServo.of(s));
            } else if (d instanceof DcMotorSpec s) {
                Checks.vIndex(n, kinematics, s.vIndex());
                acts.put(n, DcMotor.of(s));
            } else if (d instanceof TorqueSourceSpec s) {
                Checks.vIndex(n, kinematics, s.vIndex());
                acts.put(n, JointTorqueSource.of(s));
            } else if (d instanceof SpringDamperSpec s) {
                acts.put(n, LinearSpringDamper.of(s, kinematics));
            } else if (d instanceof ImuSpec s) {
                if (gravity == null) {
                    throw new IllegalArgumentException("IMU '" + n + "' needs the model's gravity; pass it to bind");
                }
                Imu imu = Imu.of(s, kinematics, gravity);
                imus++;
                // IMUs that share a seed (the default 0, or MJCF's, which has none) would draw one noise sequence,
                // perfectly correlated: the second and later of them mix their count among the IMUs into it
                if (!imuSeeds.add(s.seed())) {
                    imu.seed(Sensor.streamSeed(s.seed(), imus));
                }
                sens.put(n, imu);
            } else if (d instanceof EncoderSpec s) {
                Checks.qIndex(n, kinematics, s.qIndex());
                Checks.vIndex(n, kinematics, s.vIndex());
                sens.put(n, JointEncoder.of(s));
            } else {
                throw new IllegalArgumentException("unknown device kind " + d.getClass().getName());
            }
        }
        return new Devices(Collections.unmodifiableMap(acts), Collections.unmodifiableMap(sens));
    }

    /** The devices a generated class (or the generic model) declares, bound to that same instance. */
    public static <T extends Kinematics & DeclaredDevices> Devices declared(T model, double[] gravity) {
        return of(model.devices(), model, gravity);
    }

    /** The actuators, in declaration order (unmodifiable). */
    public List<Actuator> actuators() {
        return List.copyOf(actuators.values());
    }

    /** The sensors, in declaration order (unmodifiable). */
    public List<Sensor> sensors() {
        return List.copyOf(sensors.values());
    }

    /** The actuator named {@code name}. @throws IllegalArgumentException if there is none */
    public Actuator actuator(String name) {
        return named(actuators, "actuator", name);
    }

    /** The actuator named {@code name}, of the given class (e.g. {@code PdServo.class}, to set its target). */
    public <T extends Actuator> T actuator(String name, Class<T> type) {
        return typed(actuator(name), "actuator", name, type);
    }

    /** The sensor named {@code name}. @throws IllegalArgumentException if there is none */
    public Sensor sensor(String name) {
        return named(sensors, "sensor", name);
    }

    /** The sensor named {@code name}, of the given class. */
    public <T extends Sensor> T sensor(String name, Class<T> type) {
        return typed(sensor(name), "sensor", name, type);
    }

    private static <D> D named(Map<String, D> devices, String kind, String name) {
        D d = devices.get(name);
        if (d == null) {
            throw new IllegalArgumentException("no " + kind + " named '" + name + "'; " + kind + "s: "
                    + devices.keySet());
        }
        return d;
    }

    private static <T> T typed(Object device, String kind, String name, Class<T> type) {
        if (!type.isInstance(device)) {
            throw new IllegalArgumentException(kind + " '" + name + "' is a " + device.getClass().getSimpleName()
                    + ", not a " + type.getSimpleName());
        }
        return type.cast(device);
    }

    @Override
    public String toString() {
        return "Devices{actuators=" + actuators.keySet() + ", sensors=" + sensors.keySet() + "}";
    }
}
