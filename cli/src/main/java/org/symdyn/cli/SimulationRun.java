package org.symdyn.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;
import org.symdyn.systems.Devices;
import org.symdyn.systems.Sensor;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * One simulation of a model with contact, step by step: the only place where {@code symdyn simulate} touches the
 * stepping. The command reads the state, the contacts of the last step, the sensor readings and the solver's
 * statistics from here and turns them into JSON; nothing else of the runtime leaks to it.
 *
 * <p>Stepping: a {@link TimeSteppingSystem} (velocity-level time stepping, exact Coulomb cones, the default
 * {@link ContactSettings}) over the model's grounds and contact candidates ({@link ContactSet#of}), its joint limits
 * and, when it has any, its bilateral constraints (loops, bilateral contacts, couplers) bound to the same backend.
 * The applied τ of a step is the state file's constant τ plus every actuator the model declares (servos, motors,
 * torque sources, springs), evaluated at the start of the step; the declared sensors (IMUs, encoders) are read after
 * every step, with v̇ = (v⁺ − v)/h. The declarations come from the backend itself when it is a generated class
 * ({@link DeclaredDevices}), so a generated class and the interpreter are driven alike.
 *
 * <p>Not thread-safe; one run per simulation.
 */
final class SimulationRun {
    /**
     * One contact of a step, world coordinates, SI units.
     *
     * @param name           the contact candidate's name
     * @param ground         the ground's name
     * @param position       the contact point at the start of the step (where the contact was detected), m
     * @param gap            the gap there (m; negative: penetration)
     * @param normalImpulse  the impulse along the ground's normal over the step, N·s (≥ 0: the ground pushes)
     * @param tangentImpulse the friction impulse over the step, N·s (a vector in the ground's plane)
     * @param slipVelocity   the tangential velocity of the contact point after the step, m/s: the tangential part
     *                       of J v⁺ with the contact Jacobian J of the step (the velocity Coulomb's law acts on;
     *                       zero while the contact sticks)
     */
    record Contact(String name, String ground, double[] position, double gap, double normalImpulse,
            double[] tangentImpulse, double[] slipVelocity) {
    }

    /**
     * The contact solver's statistics so far.
     *
     * @param steps          steps taken (one contact solve each)
     * @param unconverged    solves that did not reach the solver's tolerance (the step still used the last iterate)
     * @param maxIterations  the most iterations one solve took
     * @param worstViolation the largest contact-law violation after a solve, m/s
     */
    record SolverSummary(long steps, long unconverged, int maxIterations, double worstViolation) {
    }

    private final Model model;
    private final TimeSteppingSystem system;
    private final TimeStepper stepper;
    private final double h;
    private final double[] u;
    private final Map<String, double[]> readings = new LinkedHashMap<>();
    private List<Contact> contacts = List.of();
    private boolean lastConverged = true;

    /**
     * @param model     the model
     * @param functions its backend: {@code GenericModel} or a generated class
     * @param q0        initial configuration (nq), copied
     * @param v0        initial velocity (nv), copied
     * @param h         the step, s
     * @param tau       the applied generalised force held over the run (nv), besides the declared actuators
     */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, double[] tau) {
        this(model, functions, q0, v0, h, tau, ContactSettings.defaults());
    }

    /** As above with other contact-solver settings (tests: a solve that cannot converge). */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, double[] tau,
            ContactSettings settings) {
        this.model = Objects.requireNonNull(model, "model");
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step " + h + " must be a positive number of seconds");
        }
        this.h = h;
        List<DeviceSpec> declared = functions instanceof DeclaredDevices d ? d.devices() : model.devices();
        TimeSteppingSystem.Builder builder = TimeSteppingSystem.builder(functions)
                .contacts(ContactSet.of(model))
                .jointLimits(model)
                .settings(settings)
                .timeStep(h)
                .devices(Devices.of(declared, functions, model.gravity()));
        ConstraintSet constraints = ConstraintSet.of(model);
        if (constraints.size() > 0) {
            ConstraintData data = constraints.bind(functions);
            builder.constraints(data);
        }
        this.system = builder.build();
        this.stepper = system.stepper();
        system.setState(0, q0, v0);
        system.setInput(tau);
        this.u = new double[3 * ContactSet.of(model).pairCount()];
        // before the first step v̇ is unknown: the initial readings take v̇ = 0 (an IMU reads gravity alone)
        double[] zero = new double[model.nv()];
        for (Sensor sensor : system.sensors()) {
            double[] out = new double[sensor.size()];
            sensor.read(0, system.q(), system.v(), zero, out);
            readings.put(sensor.name(), out);
        }
    }

    /**
     * One step of length h: τ (the constant input plus the declared actuators at the current time and state), the
     * contact step, then the contacts of the step and the sensors.
     *
     * @return whether the step's contact solve converged
     * @throws ArithmeticException when the dynamics cannot be evaluated (a singular mass matrix, say)
     */
    boolean step() {
        ContactReport report = system.step(h);
        lastConverged = report.converged();
        contacts = collectContacts();
        for (Sensor sensor : system.sensors()) {
            readings.put(sensor.name(), system.reading(sensor.name()));
        }
        return lastConverged;
    }

    private List<Contact> collectContacts() {
        ContactKinematics k = stepper.contacts();
        int n = stepper.contactCount();
        if (n == 0) {
            return List.of();
        }
        k.velocity(system.v(), u);
        List<Contact> list = new ArrayList<>(n);
        ContactSet set = k.set();
        for (int c = 0; c < n; c++) {
            double[] position = new double[3];
            double[] tangent = new double[3];
            double[] slip = new double[3];
            double lt1 = stepper.contactImpulse(c, 1);
            double lt2 = stepper.contactImpulse(c, 2);
            double ut1 = u[3 * c + 1];
            double ut2 = u[3 * c + 2];
            for (int i = 0; i < 3; i++) {
                position[i] = k.worldPoint(c, i);
                tangent[i] = lt1 * k.frame(c, 1, i) + lt2 * k.frame(c, 2, i);
                slip[i] = ut1 * k.frame(c, 1, i) + ut2 * k.frame(c, 2, i);
            }
            list.add(new Contact(set.candidates().get(k.candidate(c)).name(), set.grounds().get(k.ground(c)).name(),
                    position, k.gap(c), stepper.contactImpulse(c, 0), tangent, slip));
        }
        return Collections.unmodifiableList(list);
    }

    /** The time of the current state: steps taken × h (not summed, so no rounding builds up), s. */
    double time() {
        return system.stepCount() * h;
    }

    /** The step length, s. */
    double stepSize() {
        return h;
    }

    /** The steps taken so far. */
    long steps() {
        return system.stepCount();
    }

    /** The current configuration (live, read only). */
    double[] q() {
        return system.q();
    }

    /** The current velocity (live, read only). */
    double[] v() {
        return system.v();
    }

    /** The model being simulated. */
    Model model() {
        return model;
    }

    /** The contacts of the last step, in the contact set's pair order (empty before the first step). */
    List<Contact> contacts() {
        return contacts;
    }

    /** The sensor readings after the last step (or at the start), by name (live: overwritten by the next step). */
    Map<String, double[]> sensors() {
        return Collections.unmodifiableMap(readings);
    }

    /** Each sensor's channel names ("imu.wx", ...), by sensor name, in the readings' order. */
    Map<String, List<String>> sensorChannels() {
        Map<String, List<String>> channels = new LinkedHashMap<>();
        for (Sensor sensor : system.sensors()) {
            channels.put(sensor.name(), sensor.channels());
        }
        return channels;
    }

    /** Whether the last step's contact solve converged. */
    boolean lastConverged() {
        return lastConverged;
    }

    /** The contact solver's statistics so far. */
    SolverSummary solver() {
        return new SolverSummary(stepper.solves(), stepper.unconvergedSolves(), stepper.maxIterations(),
                stepper.worstViolation());
    }

    /**
     * The names of the coordinates of the current state that are not finite ({@code q[2]}, {@code v[0]}, ...; at
     * most {@code limit}, then "..."), or null when all are finite.
     */
    String nonFinite(int limit) {
        double[] q = system.q();
        double[] v = system.v();
        List<String> bad = new ArrayList<>();
        int count = 0;
        for (int i = 0; i < q.length; i++) {
            if (!Double.isFinite(q[i]) && count++ < limit) {
                bad.add("q[" + i + "]");
            }
        }
        for (int i = 0; i < v.length; i++) {
            if (!Double.isFinite(v[i]) && count++ < limit) {
                bad.add("v[" + i + "]");
            }
        }
        if (count == 0) {
            return null;
        }
        return String.join(", ", bad) + (count > limit ? ", ... (" + count + " in all)" : "");
    }
}
