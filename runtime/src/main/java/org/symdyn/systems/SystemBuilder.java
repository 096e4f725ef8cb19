package org.symdyn.systems;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.JointDamping;

/**
 * What the builders of {@link TimeSteppingSystem} and {@link ContinuousTimeSystem} take alike: the model's dynamics
 * and kinematics, actuators, sensors and the names of contact force sensors of the system itself.
 *
 * @param <B> the concrete builder, returned by every setter
 */
abstract class SystemBuilder<B extends SystemBuilder<B>> {
    final Dynamics dynamics;
    final Kinematics kinematics;
    final List<Actuator> actuators = new ArrayList<>();
    final List<Sensor> sensors = new ArrayList<>();
    final List<String> contactSensors = new ArrayList<>();
    JointDamping damping = JointDamping.NONE;

    SystemBuilder(Dynamics dynamics, Kinematics kinematics) {
        this.dynamics = Objects.requireNonNull(dynamics, "model");
        this.kinematics = kinematics;
    }

    abstract B self();

    /** An actuator, summed onto the input τ. */
    public final B actuator(Actuator a) {
        actuators.add(Objects.requireNonNull(a, "actuator"));
        return self();
    }

    /** Actuators, in order. */
    public final B actuators(Collection<? extends Actuator> as) {
        as.forEach(this::actuator);
        return self();
    }

    /** A sensor, read after every step. */
    public final B sensor(Sensor s) {
        sensors.add(Objects.requireNonNull(s, "sensor"));
        return self();
    }

    /** Sensors, in order. */
    public final B sensors(Collection<? extends Sensor> ss) {
        ss.forEach(this::sensor);
        return self();
    }

    /** Every actuator and sensor of a binding. */
    public final B devices(Devices d) {
        actuators(d.actuators());
        return sensors(d.sensors());
    }

    /** A {@link ContactForceSensor} of this system's contacts (what the system's {@code pairForce} gives). */
    public final B contactForceSensor(String name) {
        contactSensors.add(Checks.name(name));
        return self();
    }

    /**
     * The joints' viscous damping, a passive force −d v per dof that the system applies (implicitly in
     * {@link TimeSteppingSystem}, explicitly in {@link ContinuousTimeSystem}; see each); default none. The dynamics
     * do not carry it: {@code JointDamping.of(model)} gives a model's, {@link JointDamping#NONE} switches it off.
     *
     * @throws IllegalArgumentException if it is for another number of dofs than the dynamics'
     */
    public final B jointDamping(JointDamping d) {
        damping = Objects.requireNonNull(d, "damping").checkSize(dynamics.nv());
        return self();
    }

    /**
     * @throws IllegalArgumentException if the kinematics are of another model than the dynamics, or a device does
     *                                  not fit the model ({@link Actuator#checkFits}, {@link Sensor#checkFits})
     */
    final void checkModel() {
        if (kinematics.nv() != dynamics.nv()) {
            throw new IllegalArgumentException("kinematics and dynamics of different models");
        }
        actuators.forEach(a -> a.checkFits(dynamics));
        sensors.forEach(s -> s.checkFits(dynamics));
    }
}
