package org.symdyn.systems;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.model.JointDamping;
import org.symdyn.simulation.ForceFunction;

/**
 * What both systems share: the τ input, the actuators summed onto it, and the sensors with a reading buffer each.
 * Arrays rather than lists so that the per-step loops neither allocate nor go through an iterator.
 */
final class SystemDevices implements ForceFunction {
    final double[] input;
    final Actuator[] actuators;
    final Sensor[] sensors;
    final double[][] readings;
    private final Map<String, Integer> actuatorIndex = new HashMap<>();
    private final Map<String, Integer> sensorIndex = new HashMap<>();

    /** Joint damping added to the forces (explicit), {@link JointDamping#NONE} when the system applies it itself. */
    private final JointDamping damping;

    SystemDevices(int nv, List<Actuator> actuators, List<Sensor> sensors, JointDamping damping) {
        this.input = new double[nv];
        this.damping = damping;
        this.actuators = actuators.toArray(new Actuator[0]);
        this.sensors = sensors.toArray(new Sensor[0]);
        this.readings = new double[this.sensors.length][];
        for (int i = 0; i < this.actuators.length; i++) {
            if (actuatorIndex.put(this.actuators[i].name(), i) != null) {
                throw new IllegalArgumentException("two actuators named '" + this.actuators[i].name() + "'");
            }
        }
        for (int i = 0; i < this.sensors.length; i++) {
            if (sensorIndex.put(this.sensors[i].name(), i) != null) {
                throw new IllegalArgumentException("two sensors named '" + this.sensors[i].name() + "'");
            }
            readings[i] = new double[this.sensors[i].size()];
            Arrays.fill(readings[i], Double.NaN);
        }
    }

    /** τ = τ_input + Σ actuators(t, q, v), − D v when the damping is explicit. */
    @Override
    public void forces(double t, double[] q, double[] v, double[] tau) {
        System.arraycopy(input, 0, tau, 0, input.length);
        for (Actuator a : actuators) {
            a.addForces(t, q, v, tau);
        }
        damping.subtractFrom(v, tau);
    }

    void read(double t, double[] q, double[] v, double[] vdot) {
        for (int i = 0; i < sensors.length; i++) {
            sensors[i].read(t, q, v, vdot, readings[i]);
        }
    }

    /** Before the first step there is no measurement: NaN, so that a reading used too early is seen. */
    void clearReadings() {
        for (double[] r : readings) {
            Arrays.fill(r, Double.NaN);
        }
    }

    void setInput(double[] tau) {
        if (tau.length != input.length) {
            throw new IllegalArgumentException("the input τ needs nv = " + input.length + " entries, got "
                    + tau.length);
        }
        System.arraycopy(tau, 0, input, 0, input.length);
    }

    double[] reading(String name) {
        Integer i = sensorIndex.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no sensor named '" + name + "'; sensors: " + sensorNames());
        }
        return readings[i];
    }

    Sensor sensor(String name) {
        Integer i = sensorIndex.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no sensor named '" + name + "'; sensors: " + sensorNames());
        }
        return sensors[i];
    }

    Actuator actuator(String name) {
        Integer i = actuatorIndex.get(name);
        if (i == null) {
            List<String> names = new ArrayList<>();
            for (Actuator a : actuators) {
                names.add(a.name());
            }
            throw new IllegalArgumentException("no actuator named '" + name + "'; actuators: " + names);
        }
        return actuators[i];
    }

    <T> T cast(Object device, String name, Class<T> type) {
        if (!type.isInstance(device)) {
            throw new IllegalArgumentException("'" + name + "' is a " + device.getClass().getSimpleName() + ", not a "
                    + type.getSimpleName());
        }
        return type.cast(device);
    }

    List<String> sensorNames() {
        List<String> names = new ArrayList<>();
        for (Sensor s : sensors) {
            names.add(s.name());
        }
        return Collections.unmodifiableList(names);
    }

    List<Actuator> actuatorList() {
        return List.of(actuators);
    }

    List<Sensor> sensorList() {
        return List.of(sensors);
    }

    /** Checks a state's lengths and finiteness of time. */
    static void checkState(double time, double[] q, double[] v, int nq, int nv) {
        if (q.length != nq || v.length != nv) {
            throw new IllegalArgumentException("state must have nq = " + nq + " and nv = " + nv + " entries, got "
                    + q.length + " and " + v.length);
        }
        if (!Double.isFinite(time)) {
            throw new IllegalArgumentException("time must be finite, got " + time);
        }
    }
}
