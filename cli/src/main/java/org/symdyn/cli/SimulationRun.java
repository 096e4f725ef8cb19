package org.symdyn.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.PainleveException;
import org.symdyn.contact.HeldShapeContacts;
import org.symdyn.contact.ShapePair;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.simulation.DormandPrince45;
import org.symdyn.simulation.Integrator;
import org.symdyn.simulation.RungeKutta4;
import org.symdyn.systems.ContinuousTimeSystem;
import org.symdyn.systems.ModelSystems;
import org.symdyn.systems.RigidBodySystem;
import org.symdyn.systems.Sensor;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * One simulation of a model with contact, step by step: the only place where {@code symdyn simulate} touches the
 * stepping. The command reads the state, the contacts of the last step, the sensor readings and the solver's
 * statistics from here and turns them into JSON; nothing else of the runtime leaks to it.
 *
 * <p>Two systems, one pipeline: the model's contacts, constraints and declared devices are bound here once, and a
 * small {@link Stepping} adapter over the chosen system gives the run its step, state, sensors, contacts and solver
 * statistics in one shape, so that the command (recording, JSON, warnings, failures) does not know which it drives.
 * <ul>
 * <li>{@value #TIME_STEPPING} (the default): a {@link TimeSteppingSystem} (velocity-level time stepping, exact
 * Coulomb cones, the given {@link ContactSettings}) with the model's joint limits. First order in h: a box dropped
 * with restitution 0.5 rebounds to 0.2544 of its height at h = 1 ms.</li>
 * <li>{@value #CONTINUOUS}: a {@link ContinuousTimeSystem} (the hybrid scheme: acceleration-level contact between
 * events, impacts located to 1e-12 s and resolved with Newton's restitution, the same settings for the impact
 * solves; contacts between collision shapes held over each segment) integrated by RK4 or DOPRI5 (its default
 * tolerances, 1e-8). Exact where the time stepper is first order (the rebound above is 0.25), but it does not
 * enforce joint limits ({@link #unenforcedJointLimits}) and a Painlevé case stops it ({@link StepFailure}).</li>
 * </ul>
 * Both are built by {@link ModelSystems} (the recipe rollouts share) and get the model's grounds, contact
 * candidates and collision shapes ({@link ContactSet#of}) and, when it has any, its bilateral
 * constraints (loops, bilateral contacts, couplers) bound to the same backend. The applied τ is the state file's
 * constant τ plus every actuator the model declares (servos, motors, torque sources, springs), read by the system
 * (time stepping: at the start of the step; continuous: at every evaluation); the declared sensors (IMUs,
 * encoders) are read after every step by the system (time stepping with v̇ = (v⁺ − v)/h, continuous with v̇ of the
 * dynamics there), and at t = 0 here with v̇ = 0 for both. The declarations come from the backend itself when it is
 * a generated class ({@link DeclaredDevices}), so a generated class and the interpreter are driven alike.
 *
 * <p>The contacts of a step are collected only when asked for ({@link #contacts()}, at a recorded step), so a run
 * that records every N-th step does not build the others' lists. Not thread-safe; one run per simulation.
 */
final class SimulationRun {
    /** {@code --system} of velocity-level time stepping (the default). */
    static final String TIME_STEPPING = "time-stepping";
    /** {@code --system} of the continuous-time hybrid scheme. */
    static final String CONTINUOUS = "continuous";
    /** {@code --integrator}: classical Runge-Kutta 4 (the default of {@value #CONTINUOUS}). */
    static final String RK4 = "rk4";
    /** {@code --integrator}: adaptive Dormand-Prince 5(4), default tolerances. */
    static final String DOPRI5 = "dopri5";
    /** Shapes overlapping at the initial state by more than this (m) are left out of contact with each other. */
    static final double OVERLAP_TOLERANCE = 1e-9;

    /**
     * One contact of a step, world coordinates, SI units.
     *
     * @param name           the contact candidate's name, or for a contact between collision shapes shape B's (the
     *                       shape the normal points into)
     * @param ground         the ground's name, or for a contact between shapes shape A's (or the ground's)
     * @param position       the contact point where the contact was detected, m: at the start of the step (time
     *                       stepping) or at its end (continuous, where the system found the pair closed)
     * @param gap            the gap there (m; negative: penetration)
     * @param normalImpulse  the impulse along the ground's normal over the step, N·s (≥ 0: the ground pushes)
     * @param tangentImpulse the friction impulse over the step, N·s (a vector in the ground's plane)
     * @param slipVelocity   the tangential velocity of the contact point after the step, m/s: the tangential part
     *                       of J v⁺ (the velocity Coulomb's law acts on; zero while the contact sticks)
     * @param shapes         true for a contact between collision shapes (else a candidate on a ground)
     * @param normal         the unit contact normal from A (the ground, or shape A) towards the candidate or shape B
     */
    record Contact(String name, String ground, double[] position, double gap, double normalImpulse,
            double[] tangentImpulse, double[] slipVelocity, boolean shapes, double[] normal) {
    }

    /**
     * The contact solver's statistics so far.
     *
     * @param steps          steps taken (time stepping: one contact solve each)
     * @param solves         the solves the other counts are of: contact solves (time stepping: one per step) or
     *                       impact solves (continuous: one per impact instant)
     * @param unconverged    solves that did not reach the solver's tolerance (they still gave their last iterate)
     * @param maxIterations  the most iterations one solve took
     * @param worstViolation the largest contact-law violation after a solve, m/s
     * @param kind           what a solve is, for messages: "contact" or "impact"
     * @param coneFallbacks  (continuous) acceleration-level problems Lemke could not solve and the cone solver did
     * @param coneUnconverged (continuous) those of them that stopped above the solver's tolerance
     */
    record SolverSummary(long steps, long solves, long unconverged, int maxIterations, double worstViolation,
            String kind, long coneFallbacks, long coneUnconverged) {
    }

    /**
     * A step the system could not take (continuous: a Painlevé or inconsistent contact problem, events
     * accumulating); the message says what and when (the time within the step where it failed).
     */
    static final class StepFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StepFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * One of the two systems behind the run, with what the run reads of it: the state and sensors through the
     * systems' common {@link RigidBodySystem}, the step, the contacts and the solver statistics each its own way.
     */
    private abstract static class Stepping {
        private final RigidBodySystem system;

        Stepping(RigidBodySystem system) {
            this.system = system;
        }

        /** One step of h; whether its contact solves converged. */
        abstract boolean step(double h);

        /** The contacts of the last step, from the system's live state (call before the next step). */
        abstract List<Contact> collectContacts(double h);

        abstract SolverSummary solver();

        /** Shape contacts dropped beyond the contact set's bound so far (0 where there are no shapes). */
        long droppedContacts() {
            return 0;
        }

        final double[] q() {
            return system.q();
        }

        final double[] v() {
            return system.v();
        }

        final long stepCount() {
            return system.stepCount();
        }

        final List<Sensor> sensors() {
            return system.sensors();
        }

        final double[] reading(String sensor) {
            return system.reading(sensor);
        }

        /**
         * The record of contact c of {@code k}: its world point and gap, the normal impulse, the friction impulse
         * (components along the contact's t1, t2) in world coordinates, and the slip velocity from the contact
         * velocities {@code u} (3 per contact) in world coordinates.
         */
        static Contact contact(ContactKinematics k, int c, double[] u, double normal, double lt1, double lt2) {
            double[] position = new double[3];
            double[] tangent = new double[3];
            double[] slip = new double[3];
            double[] n = new double[3];
            double ut1 = u[3 * c + 1];
            double ut2 = u[3 * c + 2];
            for (int i = 0; i < 3; i++) {
                position[i] = k.worldPoint(c, i);
                tangent[i] = lt1 * k.frame(c, 1, i) + lt2 * k.frame(c, 2, i);
                slip[i] = ut1 * k.frame(c, 1, i) + ut2 * k.frame(c, 2, i);
                n[i] = k.frame(c, 0, i);
            }
            return new Contact(k.ownName(c), k.otherName(c), position, k.gap(c), normal, tangent, slip,
                    k.isShapeContact(c), n);
        }
    }

    private final Model model;
    private final String systemName;
    private final List<ShapePair> excludedOverlaps = new ArrayList<>();
    private final String integratorName;
    private final Stepping system;
    private final double h;
    private final Map<String, double[]> readings = new LinkedHashMap<>();
    private List<Contact> contacts = List.of();
    private boolean contactsStale;
    private boolean lastConverged = true;

    /** The contact set's bound on shape contacts per step. */
    private final int shapeContactBound;

    /**
     * Time stepping with the default contact settings.
     *
     * @param model     the model
     * @param functions its backend: {@code GenericModel} or a generated class
     * @param q0        initial configuration (nq), copied
     * @param v0        initial velocity (nv), copied
     * @param h         the step, s
     * @param tau       the applied generalised force held over the run (nv), besides the declared actuators
     */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, double[] tau) {
        this(model, functions, q0, v0, h, tau, TIME_STEPPING, null, ContactSettings.defaults());
    }

    /** Time stepping with other contact-solver settings (tests: a solve that cannot converge). */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, double[] tau,
            ContactSettings settings) {
        this(model, functions, q0, v0, h, tau, TIME_STEPPING, null, settings);
    }

    /**
     * As above with the system: {@link #TIME_STEPPING} or {@link #CONTINUOUS}, and for continuous the integrator
     * ({@link #RK4} or {@link #DOPRI5}; null: RK4).
     *
     * @throws IllegalArgumentException for an unknown system or integrator, an integrator with time stepping, or a
     *                                  model the system cannot take
     * @throws StepFailure              the continuous system cannot evaluate its contact problem at the initial state
     */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, double[] tau,
            String system, String integrator, ContactSettings settings) {
        this(model, functions, q0, v0, h, tau, system, integrator, settings, JointDamping.of(model), false, -1);
    }

    /**
     * As above with the joints' viscous damping the run applies as a passive force −D v ({@code JointDamping.of}
     * the model by default, {@link JointDamping#NONE} for {@code --no-damping}): implicit in time stepping, explicit
     * in the continuous system. Collision shapes of one mechanism that overlap at q0 (deeper than 1e-9 m) are left
     * out of contact with each other ({@link ContactSet#withoutOverlapsAt}; {@link #excludedOverlaps()} names them) unless
     * {@code keepOverlaps}: a simulation would otherwise push apart, violently, shapes that the model puts in contact
     * from the start (convex hulls of neighbouring links). At most {@code maxShapeContacts} shape contacts per step
     * (-1: {@link ContactSet#of(Model)}'s default bound).
     */
    SimulationRun(Model model, ModelFunctions functions, double[] q0, double[] v0, double h, double[] tau,
            String system, String integrator, ContactSettings settings, JointDamping damping, boolean keepOverlaps,
            int maxShapeContacts) {
        this.model = Objects.requireNonNull(model, "model");
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step " + h + " must be a positive number of seconds");
        }
        this.h = h;
        ContactSet contactSet = ContactSet.of(model, maxShapeContacts);
        if (!keepOverlaps && contactSet.shapeCount() > 1) {
            contactSet = contactSet.withoutOverlapsAt(functions, q0, OVERLAP_TOLERANCE, excludedOverlaps);
        }
        this.shapeContactBound = contactSet.maxShapeContacts();
        this.systemName = system;
        if (TIME_STEPPING.equals(system)) {
            if (integrator != null) {
                throw new IllegalArgumentException("time stepping has no integrator (" + integrator + ")");
            }
            this.integratorName = null;
            this.system = new TimeStepped(ModelSystems.timeStepping(model, functions, contactSet)
                    .settings(settings).timeStep(h).jointDamping(damping).build(), contactSet, q0, v0, tau);
        } else if (CONTINUOUS.equals(system)) {
            this.integratorName = integrator == null ? RK4 : integrator;
            this.system = new Continuous(ModelSystems.continuous(model, functions, contactSet)
                    .integrator(integratorFactory(integratorName)).settings(settings).jointDamping(damping).build(),
                    functions, contactSet, q0, v0, tau);
        } else {
            throw new IllegalArgumentException("unknown system '" + system + "'");
        }
        // Time stepping knows v̇ only as a step's mean: its initial readings take v̇ = 0 (an IMU reads gravity alone).
        // The continuous system has the initial state's accelerations (setState solved its contact problem): its own
        // readings (an IMU on a swinging pendulum read gravity alone at t = 0 before, a helper's probe).
        double[] zero = new double[model.nv()];
        boolean continuous = CONTINUOUS.equals(system);
        for (Sensor sensor : this.system.sensors()) {
            double[] out = new double[sensor.size()];
            if (continuous) {
                System.arraycopy(this.system.reading(sensor.name()), 0, out, 0, out.length);
            } else {
                sensor.read(0, this.system.q(), this.system.v(), zero, out);
            }
            readings.put(sensor.name(), out);
        }
    }

    private static Integrator.Factory integratorFactory(String name) {
        if (RK4.equals(name)) {
            return RungeKutta4::new;
        }
        if (DOPRI5.equals(name)) {
            return DormandPrince45::new;
        }
        throw new IllegalArgumentException("unknown integrator '" + name + "'");
    }

    /**
     * One step of length h: τ (the constant input plus the declared actuators), the system's step, then the
     * sensors; the step's contacts are collected when {@link #contacts()} asks.
     *
     * @return whether the step's contact solves converged
     * @throws ArithmeticException when the dynamics cannot be evaluated (a singular mass matrix, say)
     * @throws StepFailure         when the system cannot take the step (continuous: Painlevé, events accumulating)
     */
    boolean step() {
        contactsStale = true;
        contacts = List.of();
        lastConverged = system.step(h);
        for (Sensor sensor : system.sensors()) {
            readings.put(sensor.name(), system.reading(sensor.name()));
        }
        return lastConverged;
    }

    /** "time-stepping" or "continuous". */
    String systemName() {
        return systemName;
    }

    /** "rk4" or "dopri5" for the continuous system, null for time stepping. */
    String integratorName() {
        return integratorName;
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

    /**
     * The contacts of the last step, in the contact set's pair order (empty before the first step). Time stepping:
     * the contacts its step detected. Continuous: the pairs it considered, i.e. closed after the step (in its
     * acceleration-level problem, force or not) or struck during it (an impact impulse); then the shape contacts it
     * holds after the step that are closed or were struck during it (matched by shapes and manifold slot).
     */
    List<Contact> contacts() {
        if (contactsStale) {
            contacts = system.collectContacts(h);
            contactsStale = false;
        }
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

    /** Whether the last step's contact solves converged. */
    boolean lastConverged() {
        return lastConverged;
    }

    /** The contact solver's statistics so far. */
    SolverSummary solver() {
        return system.solver();
    }

    /** The collision shape pairs left out of contact because they overlap at the initial state. */
    List<ShapePair> excludedOverlaps() {
        return Collections.unmodifiableList(excludedOverlaps);
    }

    /** The contact set's bound on shape contacts per step. */
    int maxShapeContacts() {
        return shapeContactBound;
    }

    /** Shape contacts dropped so far because a step found more than the contact set's bound. */
    long droppedContacts() {
        return system.droppedContacts();
    }

    /**
     * The model's joints whose position limits this run does not enforce: none for time stepping; for the
     * continuous system (which has no joint-limit contacts) every single-coordinate joint (revolute, prismatic)
     * with a finite bound, the joints time stepping would limit. The command warns about them.
     */
    List<String> unenforcedJointLimits() {
        List<String> names = new ArrayList<>();
        if (!CONTINUOUS.equals(systemName)) {
            return names;
        }
        for (Body body : model.bodies()) {
            Joint j = body.joint();
            if (j.isLimited()) {
                names.add(j.name());
            }
        }
        return names;
    }

    /**
     * A speed no mechanism reaches (m/s, rad/s): a state past it has diverged even while it is finite, as a box
     * resting on the floor did in continuous time with a step of 0.5 s (1.9e15 m/s after 10 s, "converged").
     */
    static final double RUNAWAY_SPEED = 1e6;

    /** The first velocity coordinate of the current state beyond {@link #RUNAWAY_SPEED}, "v[i] = x", or null. */
    String runaway() {
        double[] v = system.v();
        for (int i = 0; i < v.length; i++) {
            if (Math.abs(v[i]) > RUNAWAY_SPEED) {
                return "v[" + i + "] = " + v[i];
            }
        }
        return null;
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

    // ------------------------------------------------------------------ the two systems

    /** Velocity-level time stepping: the contacts and impulses of its stepper's last solve. */
    private static final class TimeStepped extends Stepping {
        private final TimeSteppingSystem system;
        private final TimeStepper stepper;
        private final double[] u;

        TimeStepped(TimeSteppingSystem system, ContactSet contactSet, double[] q0, double[] v0,
                double[] tau) {
            super(system);
            this.system = system;
            this.stepper = system.stepper();
            system.setState(0, q0, v0);
            system.setInput(tau);
            this.u = new double[3 * stepper.contacts().capacity()];
        }

        @Override
        boolean step(double h) {
            return system.step(h).converged();
        }

        @Override
        long droppedContacts() {
            return stepper.droppedContacts();
        }

        @Override
        List<Contact> collectContacts(double h) {
            ContactKinematics k = stepper.contacts();
            int n = stepper.contactCount();
            if (n == 0) {
                return List.of();
            }
            stepper.contactVelocities(u);
            List<Contact> list = new ArrayList<>(n);
            for (int c = 0; c < n; c++) {
                list.add(contact(k, c, u, stepper.contactImpulse(c, 0), stepper.contactImpulse(c, 1),
                        stepper.contactImpulse(c, 2)));
            }
            return Collections.unmodifiableList(list);
        }

        @Override
        SolverSummary solver() {
            return new SolverSummary(stepper.solves(), stepper.solves(), stepper.unconvergedSolves(),
                    stepper.maxIterations(), stepper.worstViolation(), "contact", 0, 0);
        }
    }

    /**
     * The continuous-time hybrid scheme. Its impulse over a step is the acceleration-level force after the step
     * times h (exact while the force is constant over the step, as for a body at rest or sliding steadily) plus the
     * impulses of the step's impacts; the contact points, gaps and slip velocities are those after the step, where
     * the system decided which pairs are closed.
     */
    private static final class Continuous extends Stepping {
        private final ContinuousTimeSystem system;
        private final ContactKinematics kinematics;
        private final boolean[] listed;
        private final double[] u;

        Continuous(ContinuousTimeSystem system, ModelFunctions functions, ContactSet contactSet, double[] q0,
                double[] v0, double[] tau) {
            super(system);
            this.system = system;
            this.kinematics = new ContactKinematics(contactSet, functions, functions.nv());
            this.listed = new boolean[contactSet.pairCount()];
            this.u = new double[3 * contactSet.pairCount()];
            // the input first: setState evaluates the contact problem (forces, sensors) with it
            system.setInput(tau);
            try {
                system.setState(0, q0, v0);
            } catch (PainleveException e) {
                throw failure(e);
            } catch (IllegalStateException | ArithmeticException e) {
                // the initial state's contact problem cannot be set up (e.g. H not positive definite there)
                throw new StepFailure("at t = 0 s: " + e.getMessage(), e);
            }
        }

        @Override
        boolean step(double h) {
            long before = system.summary().unconverged();
            try {
                system.step(h);
            } catch (PainleveException e) {
                throw failure(e);
            } catch (IllegalStateException e) {
                // events accumulating (a Zeno run) or DOPRI5 pushed below its least step: the step cannot be taken
                throw new StepFailure("at t = " + JsonWriter.formatNumber(system.time()) + " s: " + e.getMessage(),
                        e);
            }
            return system.summary().unconverged() == before;
        }

        private StepFailure failure(PainleveException e) {
            return new StepFailure("at t = " + JsonWriter.formatNumber(system.time()) + " s the acceleration-level"
                    + " contact problem has no unique solution (a Painlevé case or an inconsistent one): "
                    + e.getMessage() + "; --system time-stepping resolves it by impulses", e);
        }

        @Override
        List<Contact> collectContacts(double h) {
            boolean any = false;
            for (int p = 0; p < listed.length; p++) {
                listed[p] = system.pairClosed(p) || system.pairImpulse(p, 0) != 0 || system.pairImpulse(p, 1) != 0
                        || system.pairImpulse(p, 2) != 0;
                any |= listed[p];
            }
            HeldShapeContacts held = system.heldShapeContacts();
            if (!any && (held == null || held.count() == 0)) {
                return List.of();
            }
            List<Contact> list = new ArrayList<>();
            if (any) {
                kinematics.update(system.q(), listed, null, false); // the pairs alone, shapes or not
                kinematics.velocity(system.v(), u);
                int n = kinematics.count();
                for (int c = 0; c < n; c++) {
                    int p = kinematics.pair(c);
                    list.add(contact(kinematics, c, u, system.pairForce(p, 0) * h + system.pairImpulse(p, 0),
                            system.pairForce(p, 1) * h + system.pairImpulse(p, 1),
                            system.pairForce(p, 2) * h + system.pairImpulse(p, 2)));
                }
            }
            for (int i = 0; held != null && i < held.count(); i++) {
                double[] impulse = new double[3];
                boolean struck = false;
                for (int c = 0; c < 3; c++) {
                    impulse[c] = system.shapeContactImpulse(i, c);
                    struck |= impulse[c] != 0;
                }
                if (held.closed(i) || struck) {
                    list.add(heldContact(held, i, held.force(i, 0) * h + impulse[0], held.force(i, 1) * h + impulse[1],
                            held.force(i, 2) * h + impulse[2]));
                }
            }
            return Collections.unmodifiableList(list);
        }

        /**
         * The record of held shape contact i after the step: its point, gap and frame there, the normal impulse, the
         * friction impulse (components along its t1, t2) in world coordinates, and its slip velocity.
         */
        private static Contact heldContact(HeldShapeContacts held, int i, double normal, double lt1, double lt2) {
            double[] position = new double[3];
            double[] tangent = new double[3];
            double[] slip = new double[3];
            double[] n = new double[3];
            double ut1 = held.velocity(i, 1);
            double ut2 = held.velocity(i, 2);
            for (int c = 0; c < 3; c++) {
                position[c] = held.worldPoint(i, c);
                tangent[c] = lt1 * held.frame(i, 1, c) + lt2 * held.frame(i, 2, c);
                slip[c] = ut1 * held.frame(i, 1, c) + ut2 * held.frame(i, 2, c);
                n[c] = held.frame(i, 0, c);
            }
            return new Contact(held.ownName(i), held.otherName(i), position, held.gap(i), normal, tangent, slip, true,
                    n);
        }

        @Override
        long droppedContacts() {
            return system.droppedContacts();
        }

        @Override
        SolverSummary solver() {
            SolveSummary s = system.summary();
            return new SolverSummary(s.steps(), system.impactCount(), s.unconverged(), s.maxIterations(),
                    s.worstViolation(), "impact", system.coneFallbackCount(), system.coneFallbackUnconverged());
        }
    }
}
