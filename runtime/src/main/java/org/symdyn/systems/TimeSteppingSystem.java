package org.symdyn.systems;

import java.util.Objects;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.Model;
import org.symdyn.manifold.StateSpace;

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
 * mode, ω = √(k / m). Joint damping ({@link Builder#jointDamping}: −D v, not part of τ or of the dynamics) is
 * implicit, H + h D in the step ({@link TimeStepper}), and stable at any h.
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
public final class TimeSteppingSystem extends DeviceSystem {
    private final TimeStepper stepper;
    private final int nq;
    private final int nv;
    private final double h;
    private final double[] qNext;
    private final double[] vNext;
    private final double[] tau;

    private TimeSteppingSystem(Builder b, TimeStepper stepper) {
        super(new StateSpace(b.dynamics), stepper.contacts().set(), b, false);
        this.stepper = stepper;
        this.nq = b.dynamics.nq();
        this.nv = b.dynamics.nv();
        this.h = b.h;
        this.qNext = new double[nq];
        this.vNext = new double[nv];
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
    @Override
    public TimeSteppingSystem setState(double time, double[] q0, double[] v0) {
        assignState(time, q0, v0);
        java.util.Arrays.fill(vdot, 0);
        stepper.reset();
        devices.clearReadings();
        return this;
    }

    /** One step of the system's h. */
    public ContactReport step() {
        return step(h);
    }

    /** One step of length {@code dt} (s, &gt; 0), then the sensors; returns the contact solve's report (live). */
    public ContactReport step(double dt) {
        requireState();
        double t = time();
        double[] q = q();
        double[] v = v();
        devices.forces(t, q, v, tau);
        ContactReport report = stepper.step(q, v, tau, dt, qNext, vNext);
        double inv = 1 / dt;
        for (int i = 0; i < nv; i++) {
            vdot[i] = (vNext[i] - v[i]) * inv;
        }
        System.arraycopy(qNext, 0, q, 0, nq);
        System.arraycopy(vNext, 0, v, 0, nv);
        stepped(dt);
        devices.read(time(), q, v, vdot);
        return report;
    }

    @Override
    void advance(double dt) {
        step(dt);
    }

    /**
     * Steps of h until t_end, the last one ending there (the time's rounding merged into it, not stepped alone).
     *
     * @return the number of steps taken
     */
    public long run(double tEnd) {
        requireState();
        return advanceTo(tEnd, h);
    }

    // ---------------------------------------------------------------- outputs

    /** The τ = τ_input + Σ actuators the last step used (nv, live; the implicit joint damping is not in it). */
    public double[] appliedForces() {
        return tau;
    }

    /** The step h of {@link #step()} (s). */
    public double timeStep() {
        return h;
    }

    /** The time stepper: the last step's contacts, impulses and report. */
    public TimeStepper stepper() {
        return stepper;
    }

    /** The last step's mean contact force at a pair: its impulse over h (N, contact frame; 0 out of contact). */
    @Override
    public double pairForce(int pair, int component) {
        double lastH = lastStepSize();
        return lastH == 0 ? 0 : stepper.pairImpulse(pair, component) / lastH;
    }

    /** The last step's mean contact force on each collision shape: its contacts' impulses over h (N, world). */
    @Override
    public void shapeForces(double[] out, int offset) {
        java.util.Arrays.fill(out, offset, offset + 3 * stepper.contacts().set().shapeCount(), 0);
        double lastH = lastStepSize();
        if (lastH == 0) {
            return;
        }
        var contacts = stepper.contacts();
        for (int k = 0; k < stepper.contactCount(); k++) {
            contacts.addShapeForce(k, stepper.contactImpulse(k, 0) / lastH, stepper.contactImpulse(k, 1) / lastH,
                    stepper.contactImpulse(k, 2) / lastH, out, offset);
        }
    }

    /** The contact solves since the last {@link #setState}. */
    @Override
    public SolveSummary summary() {
        return new SolveSummary(stepCount(), stepper.unconvergedSolves(), stepper.maxIterations(), stepper.meanIterations(),
                stepper.worstViolation());
    }

    /** Configures a {@link TimeSteppingSystem}. */
    public static final class Builder extends SystemBuilder<Builder> {
        private final TimeStepper.Builder stepperBuilder;
        private ContactSet contacts;
        private double h = 1e-3;

        private <T extends Dynamics & Kinematics> Builder(T model, Kinematics kinematics) {
            super(model, kinematics);
            this.stepperBuilder = TimeStepper.builder(model);
        }

        @Override
        Builder self() {
            return this;
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

        /** Whether the contact problem keeps W sparse (see {@link TimeStepper.Builder#sparseDelassus}). */
        public Builder sparseDelassus(boolean sparse) {
            stepperBuilder.sparseDelassus(sparse);
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

        public TimeSteppingSystem build() {
            checkModel();
            if (contacts != null) {
                stepperBuilder.contacts(contacts);
            } else if (!contactSensors.isEmpty()) {
                // as the continuous system: a sensor of no contacts read nothing, with no channel to say so
                throw new IllegalArgumentException("contact force sensor " + contactSensors + " needs contacts: "
                        + "give the builder a ContactSet");
            }
            stepperBuilder.jointDamping(damping);
            return new TimeSteppingSystem(this, stepperBuilder.build());
        }
    }
}
