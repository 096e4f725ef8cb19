package org.symdyn.systems;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.Model;
import org.symdyn.simulation.StateSpace;

/**
 * The design note's TimeSteppingRigidBodySystem: a tree, its actuators and sensors, and rigid unilateral contact
 * (with joint limits and bilateral constraints as the {@link TimeStepper} has them), advanced in steps of h:
 * <pre>
 *   τ = τ_input + Σ_a τ_a(t, q, v)                          (actuators at the start of the step: semi-implicit)
 *   H(q) (v⁺ − v) = h (τ − C(q, v)) + Jᵀ λ                  (contacts, limits, bilateral rows: {@link TimeStepper})
 *   q⁺ = q ⊕ h v⁺,  t⁺ = t + h
 *   sensors read at (t⁺, q⁺, v⁺) with v̇ = (v⁺ − v) / h     (the step's mean acceleration)
 * </pre>
 * Without contact this is semi-implicit Euler, first order. It is symplectic only where H is constant: with a
 * configuration-dependent H the momentum H v is updated explicitly, and a conservative system's energy drifts
 * linearly in time at a rate proportional to h (a swinging double pendulum at h = 1 ms: +0.015 J/s on a 6.8 J
 * swing; {@code TimeSteppingSystemTest}); choose h for the run's length. Stiff actuators (a servo's kp, a
 * spring's k, a {@link CompliantContact}) are explicit here: the step must stay below about 2/ω of their fastest
 * mode, ω = √(k / m).
 *
 * <pre>
 *   TimeSteppingSystem sys = TimeSteppingSystem.builder(model)        // a generated class, or GenericDynamics
 *           .contacts(ContactSet.of(m)).timeStep(1e-3)
 *           .devices(Devices.of(specs, model, m.gravity()))
 *           .contactForceSensor("feet")
 *           .build();
 *   sys.setState(0, q0, v0);
 *   sys.run(5.0);                                                   // or sys.step() in a control loop
 *   double[] imu = sys.reading("imu");
 * </pre>
 *
 * <p>Contact forces ({@link ContactForces}) are the last step's impulses over h. Everything is allocated by
 * {@link Builder#build()}; {@link #step()} allocates nothing when the actuators and sensors do not. Not
 * thread-safe: build one system, with its own model instance ({@code copy()}), per thread.
 */
public final class TimeSteppingSystem implements RigidBodySystem, ContactForces {
    private final TimeStepper stepper;
    private final ContactSet contactSet;
    private final StateSpace space;
    private final SystemDevices devices;
    private final int nq;
    private final int nv;
    private final double h;
    private final double[] q;
    private final double[] v;
    private final double[] qNext;
    private final double[] vNext;
    private final double[] vdot;
    private final double[] tau;
    private double t;
    private double lastH;
    private long steps;
    private boolean stateSet;

    private TimeSteppingSystem(Builder b) {
        TimeStepper.Builder sb = b.stepperBuilder;
        if (b.contacts != null) {
            sb.contacts(b.contacts);
        }
        this.stepper = sb.build();
        this.contactSet = stepper.contacts().set();
        this.nq = b.dynamics.nq();
        this.nv = b.dynamics.nv();
        this.space = new StateSpace(b.dynamics);
        this.h = b.h;
        List<Sensor> sensors = new ArrayList<>(b.sensors);
        for (String name : b.contactSensors) {
            sensors.add(new ContactForceSensor(name, this));
        }
        this.devices = new SystemDevices(nv, b.actuators, sensors);
        this.q = space.neutralConfiguration();
        this.v = new double[nv];
        this.qNext = new double[nq];
        this.vNext = new double[nv];
        this.vdot = new double[nv];
        this.tau = new double[nv];
    }

    /** A builder for a model's dynamics and kinematics: a generated class or {@code GenericDynamics}. */
    public static <T extends Dynamics & Kinematics> Builder builder(T model) {
        return new Builder(model, model);
    }

    // ---------------------------------------------------------------- state

    /**
     * Sets time and state (copied; quaternions renormalised), forgets the stepper's warm starts and statistics, and
     * sets every sensor reading to NaN until the first step.
     */
    public TimeSteppingSystem setState(double time, double[] q0, double[] v0) {
        SystemDevices.checkState(time, q0, v0, nq, nv);
        System.arraycopy(q0, 0, q, 0, nq);
        System.arraycopy(v0, 0, v, 0, nv);
        space.normalize(q);
        java.util.Arrays.fill(vdot, 0);
        t = time;
        steps = 0;
        lastH = 0;
        stepper.reset();
        devices.clearReadings();
        stateSet = true;
        return this;
    }

    /** One step of the system's h. */
    public ContactReport step() {
        return step(h);
    }

    /** One step of length {@code dt} (s, &gt; 0), then the sensors; returns the contact solve's report (live). */
    public ContactReport step(double dt) {
        if (!stateSet) {
            throw new IllegalStateException("set the state first");
        }
        devices.forces(t, q, v, tau);
        ContactReport report = stepper.step(q, v, tau, dt, qNext, vNext);
        double inv = 1 / dt;
        for (int i = 0; i < nv; i++) {
            vdot[i] = (vNext[i] - v[i]) * inv;
        }
        System.arraycopy(qNext, 0, q, 0, nq);
        System.arraycopy(vNext, 0, v, 0, nv);
        t += dt;
        lastH = dt;
        steps++;
        devices.read(t, q, v, vdot);
        return report;
    }

    /**
     * Steps of h until t_end, the last one shortened to end there (a remainder below 1e-9 h is not stepped).
     *
     * @return the number of steps taken
     */
    public long run(double tEnd) {
        if (!stateSet) {
            throw new IllegalStateException("set the state first");
        }
        long n = 0;
        while (tEnd - t > 1e-9 * h) {
            step(Math.min(h, tEnd - t));
            n++;
        }
        return n;
    }

    // ---------------------------------------------------------------- inputs

    /** The τ input (nv, live: write into it, or use {@link #setInput}); added to the actuators' forces. */
    public double[] input() {
        return devices.input;
    }

    /** Sets the τ input (nv numbers, copied). */
    public void setInput(double[] tauInput) {
        devices.setInput(tauInput);
    }

    /** The actuator named {@code name}. */
    public Actuator actuator(String name) {
        return devices.actuator(name);
    }

    /** The actuator named {@code name}, of the given class (to set a servo's target, a motor's voltage...). */
    public <T extends Actuator> T actuator(String name, Class<T> type) {
        return devices.cast(devices.actuator(name), name, type);
    }

    public List<Actuator> actuators() {
        return devices.actuatorList();
    }

    // ---------------------------------------------------------------- outputs

    public double time() {
        return t;
    }

    /** Positions (nq), live: read only. */
    public double[] q() {
        return q;
    }

    /** Velocities (nv), live: read only. */
    public double[] v() {
        return v;
    }

    /** The last step's mean acceleration (v⁺ − v)/h (nv, live; 0 before the first step). */
    public double[] vdot() {
        return vdot;
    }

    /** The τ = τ_input + Σ actuators the last step used (nv, live). */
    public double[] appliedForces() {
        return tau;
    }

    /** The step h of {@link #step()} (s). */
    public double timeStep() {
        return h;
    }

    /** The length of the last step taken (s; 0 before the first). */
    public double lastStepSize() {
        return lastH;
    }

    public long stepCount() {
        return steps;
    }

    /** The reading of the sensor named {@code name} (live, overwritten by the next step; NaN before the first). */
    public double[] reading(String name) {
        return devices.reading(name);
    }

    /** The sensor named {@code name}. */
    public Sensor sensor(String name) {
        return devices.sensor(name);
    }

    public List<Sensor> sensors() {
        return devices.sensorList();
    }

    /** The time stepper: the last step's contacts, impulses and report. */
    public TimeStepper stepper() {
        return stepper;
    }

    @Override
    public ContactSet contactSet() {
        return contactSet;
    }

    /** The last step's mean contact force at a pair: its impulse over h (N, contact frame; 0 out of contact). */
    @Override
    public double pairForce(int pair, int component) {
        return lastH == 0 ? 0 : stepper.pairImpulse(pair, component) / lastH;
    }

    /** The contact solves since the last {@link #setState}. */
    public SolveSummary summary() {
        return new SolveSummary(steps, stepper.unconvergedSolves(), stepper.maxIterations(), stepper.meanIterations(),
                stepper.worstViolation());
    }

    /** Configures a {@link TimeSteppingSystem}. */
    public static final class Builder {
        private final Dynamics dynamics;
        private final Kinematics kinematics;
        private final TimeStepper.Builder stepperBuilder;
        private ContactSet contacts;
        private double h = 1e-3;
        private final List<Actuator> actuators = new ArrayList<>();
        private final List<Sensor> sensors = new ArrayList<>();
        private final List<String> contactSensors = new ArrayList<>();

        private <T extends Dynamics & Kinematics> Builder(T model, Kinematics kinematics) {
            this.dynamics = Objects.requireNonNull(model, "model");
            this.kinematics = kinematics;
            this.stepperBuilder = TimeStepper.builder(model);
        }

        /** Rigid unilateral contact: the grounds and candidates (default: none). */
        public Builder contacts(ContactSet set) {
            this.contacts = Objects.requireNonNull(set, "contacts");
            return this;
        }

        /** The contact solver's settings (default {@link ContactSettings#defaults()}). */
        public Builder settings(ContactSettings settings) {
            stepperBuilder.settings(settings);
            return this;
        }

        /** Bilateral constraints bound to this model (see {@link TimeStepper.Builder#constraints}). */
        public Builder constraints(ConstraintData data) {
            stepperBuilder.constraints(data);
            return this;
        }

        /** The position limits of the model's joints as unilateral rows (the model of these dynamics). */
        public Builder jointLimits(Model model) {
            stepperBuilder.jointLimits(model);
            return this;
        }

        /** The step of {@link #step()} and {@link #run} (s, &gt; 0; default 1 ms). */
        public Builder timeStep(double h) {
            if (!(h > 0) || Double.isInfinite(h)) {
                throw new IllegalArgumentException("time step " + h + " must be a positive number of seconds");
            }
            this.h = h;
            return this;
        }

        public Builder actuator(Actuator a) {
            actuators.add(Objects.requireNonNull(a, "actuator"));
            return this;
        }

        public Builder actuators(Collection<? extends Actuator> as) {
            as.forEach(this::actuator);
            return this;
        }

        public Builder sensor(Sensor s) {
            sensors.add(Objects.requireNonNull(s, "sensor"));
            return this;
        }

        public Builder sensors(Collection<? extends Sensor> ss) {
            ss.forEach(this::sensor);
            return this;
        }

        /** Every actuator and sensor of a binding. */
        public Builder devices(Devices d) {
            actuators(d.actuators());
            return sensors(d.sensors());
        }

        /** A {@link ContactForceSensor} of this system's contacts (each step's impulses over h). */
        public Builder contactForceSensor(String name) {
            contactSensors.add(Checks.name(name));
            return this;
        }

        public TimeSteppingSystem build() {
            if (kinematics.nv() != dynamics.nv()) {
                throw new IllegalArgumentException("kinematics and dynamics of different models");
            }
            return new TimeSteppingSystem(this);
        }
    }
}
