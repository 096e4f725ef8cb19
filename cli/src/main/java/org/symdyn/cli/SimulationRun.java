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
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;

/**
 * One simulation of a model with contact, step by step: the only place where {@code symdyn simulate} touches the
 * stepping. The command reads the state, the contacts of the last step, the sensor readings and the solver's
 * statistics from here and turns them into JSON; nothing else of the runtime leaks to it.
 *
 * <p>Stepping: {@link TimeStepper} (velocity-level time stepping, exact Coulomb cones, the default
 * {@link ContactSettings}) over the model's grounds and contact candidates ({@link ContactSet#of}), its joint limits
 * and, when it has any, its bilateral constraints (loops, bilateral contacts, couplers) bound to the same backend.
 *
 * <p><b>The seam</b> for actuators and sensors: two hooks, called once per step.
 * <ul>
 *   <li>{@link Actuation#appliedTau} gives the generalised force applied over the next step, from the time and the
 *       state at its start ({@link Actuation#constant} for now: the initial state's {@code tau});</li>
 *   <li>{@link Sensing#read} gives the readings after a step, by sensor name ({@link Sensing#NONE} for now).</li>
 * </ul>
 * A stepping system with actuators and sensors replaces the body of {@link #step()} (and these two hooks by
 * adapters around it); the command's JSON code reads only {@link #time()}, {@link #q()}, {@link #v()},
 * {@link #contacts()}, {@link #sensors()} and {@link #solver()} and does not change.
 *
 * <p>Not thread-safe; one run per simulation.
 */
final class SimulationRun {
    /** Hook 1: the generalised force applied during a step. */
    interface Actuation {
        /**
         * Writes into {@code tauOut} (nv) the generalised force applied over the step that starts at time t in
         * state (q, v). q and v are read only.
         */
        void appliedTau(double t, double[] q, double[] v, double[] tauOut);

        /** The same τ at every step. */
        static Actuation constant(double[] tau) {
            double[] copy = tau.clone();
            return (t, q, v, tauOut) -> System.arraycopy(copy, 0, tauOut, 0, copy.length);
        }
    }

    /** Hook 2: the sensor readings after a step. */
    interface Sensing {
        /** No sensors: every reading map is empty. */
        Sensing NONE = (run, out) -> {
        };

        /**
         * Puts the readings after the last step (the run's {@link #time()}, {@link #q()}, {@link #v()} and
         * {@link #contacts()}) into {@code out}, by sensor name, the same names in the same order at every step.
         */
        void read(SimulationRun run, Map<String, double[]> out);
    }

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
    private final TimeStepper stepper;
    private final Actuation actuation;
    private final Sensing sensing;
    private final double h;
    private final double[] q;
    private final double[] v;
    private final double[] tau;
    private final double[] u;
    private final Map<String, double[]> readings = new LinkedHashMap<>();
    private List<Contact> contacts = List.of();
    private long steps;
    private boolean lastConverged = true;

    /**
     * @param model     the model
     * @param functions its backend: {@code GenericModel} or a generated class
     * @param q0        initial configuration (nq), copied
     * @param v0        initial velocity (nv), copied
     * @param h         the step, s
     */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, Actuation actuation,
            Sensing sensing) {
        this(model, functions, q0, v0, h, actuation, sensing, ContactSettings.defaults());
    }

    /** As above with other contact-solver settings (tests: a solve that cannot converge). */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, Actuation actuation,
            Sensing sensing, ContactSettings settings) {
        this.model = Objects.requireNonNull(model, "model");
        this.actuation = Objects.requireNonNull(actuation, "actuation");
        this.sensing = Objects.requireNonNull(sensing, "sensing");
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step " + h + " must be a positive number of seconds");
        }
        this.h = h;
        TimeStepper.Builder builder = TimeStepper.builder(functions)
                .contacts(ContactSet.of(model))
                .jointLimits(model)
                .settings(settings);
        ConstraintSet constraints = ConstraintSet.of(model);
        if (constraints.size() > 0) {
            ConstraintData data = constraints.bind(functions);
            builder.constraints(data);
        }
        this.stepper = builder.build();
        this.q = q0.clone();
        this.v = v0.clone();
        this.tau = new double[model.nv()];
        this.u = new double[3 * ContactSet.of(model).pairCount()];
        sensing.read(this, readings);
    }

    /**
     * One step of length h: τ from {@link Actuation#appliedTau} at the current time and state, then the contact
     * step, then the contacts of the step and {@link Sensing#read}.
     *
     * @return whether the step's contact solve converged
     * @throws ArithmeticException when the dynamics cannot be evaluated (a singular mass matrix, say)
     */
    boolean step() {
        actuation.appliedTau(time(), q, v, tau);
        ContactReport report = stepper.step(q, v, tau, h, q, v);
        steps++;
        lastConverged = report.converged();
        contacts = collectContacts();
        readings.clear();
        sensing.read(this, readings);
        return lastConverged;
    }

    private List<Contact> collectContacts() {
        ContactKinematics k = stepper.contacts();
        int n = stepper.contactCount();
        if (n == 0) {
            return List.of();
        }
        k.velocity(v, u);
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
        return steps * h;
    }

    /** The step length, s. */
    double stepSize() {
        return h;
    }

    /** The steps taken so far. */
    long steps() {
        return steps;
    }

    /** The current configuration (live, read only). */
    double[] q() {
        return q;
    }

    /** The current velocity (live, read only). */
    double[] v() {
        return v;
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
