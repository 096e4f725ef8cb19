package org.symdyn.systems;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.contact.ContactSet;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.JointDamping;
import org.symdyn.simulation.SimulationState;
import org.symdyn.simulation.StepGrid;

/**
 * What {@link TimeSteppingSystem} and {@link ContinuousTimeSystem} hold alike: the state and clock
 * ({@link SimulationState}), the τ input and the actuators summed onto it, the sensors with their readings, the
 * acceleration the sensors read, and the contact set whose forces a {@link ContactForceSensor} of the system reads.
 * How a step is taken is the subclass's.
 */
abstract class DeviceSystem extends SimulationState implements RigidBodySystem, ContactForces {
    final SystemDevices devices;
    final ContactSet contactSet;
    final double[] vdot;

    /**
     * The devices of a builder over {@code contactSet}; its contact force sensors read this system (through
     * {@link #pairForce}, which the subclass defines). With {@code dampingInForces} the builder's joint damping is
     * part of the devices' forces (explicit); without, the subclass applies it.
     */
    DeviceSystem(StateSpace space, ContactSet contactSet, SystemBuilder<?> b, boolean dampingInForces) {
        super(space);
        this.contactSet = contactSet;
        List<Sensor> sensors = new ArrayList<>(b.sensors);
        for (String name : b.contactSensors) {
            sensors.add(new ContactForceSensor(name, this));
        }
        this.devices = new SystemDevices(space.nv(), b.actuators, sensors,
                dampingInForces ? b.damping : JointDamping.NONE);
        this.vdot = new double[space.nv()];
    }

    /** One step of length {@code h} (s). */
    abstract void advance(double h);

    /**
     * Steps of h until t_end, counted on the grid t_0 + k h with the last step ending at t_end
     * ({@link StepGrid}).
     *
     * @return the number of steps taken
     * @throws IllegalArgumentException if t_end is not finite
     */
    final long advanceTo(double tEnd, double h) {
        return StepGrid.run(tEnd, h, this::time, this::advance);
    }

    /** The τ input (nv, live: write into it, or use {@link #setInput}); added to the actuators' forces. */
    @Override
    public final double[] input() {
        return devices.input;
    }

    /** Sets the τ input (nv numbers, copied). */
    @Override
    public final void setInput(double[] tauInput) {
        devices.setInput(tauInput);
    }

    /** The actuator named {@code name}. */
    public final Actuator actuator(String name) {
        return devices.actuator(name);
    }

    /** The actuator named {@code name}, of the given class (to set a servo's target, a motor's voltage...). */
    public final <T extends Actuator> T actuator(String name, Class<T> type) {
        return devices.cast(devices.actuator(name), name, type);
    }

    /** The actuators, in declaration order. */
    public final List<Actuator> actuators() {
        return devices.actuatorList();
    }

    @Override
    public final Sensor sensor(String name) {
        return devices.sensor(name);
    }

    @Override
    public final List<Sensor> sensors() {
        return devices.sensorList();
    }

    /** The reading of the sensor named {@code name} (live, overwritten by the next step). */
    @Override
    public final double[] reading(String name) {
        return devices.reading(name);
    }

    @Override
    public final double[] vdot() {
        return vdot;
    }

    @Override
    public final ContactSet contactSet() {
        return contactSet;
    }
}
