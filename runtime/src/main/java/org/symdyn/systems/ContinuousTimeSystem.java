package org.symdyn.systems;

import java.util.Objects;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contact.AccelerationProblemData;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.HeldShapeContacts;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.manifold.StateSpace;
import org.symdyn.simulation.AccelerationFunction;
import org.symdyn.simulation.ConstrainedAcceleration;
import org.symdyn.simulation.DormandPrince45;
import org.symdyn.simulation.IntegrationLoop;
import org.symdyn.simulation.Integrator;
import org.symdyn.simulation.RungeKutta4;
import org.symdyn.simulation.UnconstrainedAcceleration;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;

/**
 * The design note's RigidBodySystem: a tree with its actuators and sensors as an ordinary differential equation,
 * <pre>
 *   H(q) v̇ + C(q, v) = τ_input + Σ_a τ_a(t, q, v) − D v     [+ Gᵀ λ with G v̇ = γ for bound bilateral constraints]
 *   q̇ = N(q) v
 * </pre>
 * with D the joints' damping ({@link SystemBuilder#jointDamping}, none by default), explicit here: an explicit
 * integrator is stable in it while h d_k / H_kk stays below about 2 (semi-implicit Euler) or 2.8 (RK4) for the
 * smallest H_kk a damped dof sees; {@link TimeSteppingSystem} treats it implicitly, with no such limit.
 * integrated by one of {@link org.symdyn.simulation}'s integrators ({@link RungeKutta4} by default,
 * {@link DormandPrince45}, {@link org.symdyn.simulation.SemiImplicitEuler}); after each step the sensors read the
 * new state with v̇ from the dynamics there (one more evaluation of the right-hand side). The system is a right-hand
 * side (the actuators' τ as a {@link org.symdyn.simulation.ForceFunction}, or the hybrid contact's accelerations)
 * and, with contacts, the events of a hybrid system, both fed to the simulation package's one continuous-time step,
 * {@link IntegrationLoop}, which {@link org.symdyn.simulation.Simulator} uses too.
 *
 * <h2>Rigid contact (a {@link ContactSet}, {@link Builder#contacts}): a hybrid scheme</h2>
 * Unilateral ground contact with Coulomb friction and Newton restitution, frames and signs of
 * {@link org.symdyn.contact.ContactKinematics} (per pair [n; t1; t2], gap φ ≥ 0 apart, u = J v with u_n &gt; 0
 * separating, forces f on the body as Jᵀ f, f_n ≥ 0 pushing out of the ground). A {@link #step(double) step(h)}
 * advances exactly h as a sequence of <b>segments</b>, each one integrator step with the contact modes fixed:
 * <ol>
 * <li><b>Modes</b> at the segment start (t, q, v): a pair is <i>closed</i> when φ ≤ 1e-6 m and u_n ≤ 1e-6 m/s, and
 * then <i>sliding</i> when |u_t| &gt; 1e-6 m/s (direction ŝ_ref = u_t / |u_t|), else <i>non-sliding</i>; every other
 * pair is <i>open</i>.</li>
 * <li><b>Impacts</b> first: if a pair with φ ≤ 1e-6 m approaches (u_n &lt; −1e-6 m/s), one impulse solve over every
 * pair with φ ≤ 1e-6 m (and the bilateral rows G v⁺ = 0), as a velocity-level {@link org.symdyn.contact.ContactProblem}
 * for the settings' solver ({@link ContactSettings#solver()}, exact Coulomb cones with De Saxcé's correction):
 * <pre>
 *   v⁺ = v⁻ + H⁻¹ Jᵀ Λ,   W = J H⁻¹ Jᵀ,   σ = W Λ + J v⁻ + [e u_n⁻; 0; 0]
 *   K_μ ∋ Λ ⊥ σ + μ ‖σ_t‖ e_n ∈ K_μ*     ⇒  u_n⁺ = −e u_n⁻ where Λ_n &gt; 0 (Newton), Coulomb on Λ
 * </pre>
 * with e the ground's restitution for impacts faster than {@link ContactSettings#restitutionThreshold()}, else 0
 * (inelastic: no bounces below the threshold, which also ends a bouncing sequence). Several simultaneous pairs are
 * solved together. Then the modes are set again.</li>
 * <li><b>Between events</b> the right-hand side is the acceleration-level problem of
 * {@link org.symdyn.contact.AccelerationProblemData} over the closed pairs (its pair modes fixed for the segment),
 * solved by {@link org.symdyn.contact.AccelerationProblemSolver} (Lemke):
 * <pre>
 *   H v̇ = τ − C + Nᵀ f_N + (friction)      0 ≤ u̇_n + 2 u_n / T + φ / T² ⊥ f_N ≥ 0
 *   sliding: friction −μ f_N ŝ,  ŝ = u_t / |u_t|;  non-sliding: polygonal cone (4 edges t1, t2), sticking or starting to slip
 * </pre>
 * so that normal forces stay ≥ 0 and a contact may separate (f_N = 0, u̇_n &gt; 0) within the segment; a closed
 * pair stays in the problem for the whole segment (a separating one without the stabilisation term), and its
 * lift-off is seen at the next segment's start.
 * The Baumgarte terms (T = {@link Builder#contactStabilization}, default 0.05 s; zero at an exact contact) keep
 * rounding from drifting a contact: without them a box resting on four corners, carried by Lemke on one diagonal
 * pair, tilts about that diagonal from 1e-14 rad/s² of rounding until an LCP degenerates.</li>
 * <li><b>Events</b> after the integrator step: an open pair's gap below min(0, its starting gap) (a gap closed), or a
 * sliding pair's slip u_t · ŝ_ref ≤ 0 (it stopped, or turned by 90°). The first event is located by Illinois regula
 * falsi on re-integrations of the segment from its start to trial lengths, until the bracket is narrower than
 * {@link Builder#eventTolerance} (default 1e-12 s); the segment ends at the bracket's early side (no gap closed
 * yet: φ ≥ 0, about |u_n| × 1e-12 s from touching), and the next segment starts with step 1 there (the impact). A
 * closed pair needs no event: the complementarity problem separates it. ({@link IntegrationLoop} with this system's
 * {@link org.symdyn.simulation.HybridEvents}.)</li>
 * <li><b>Slow slips are stiff</b>: a sliding friction's direction turns with the slip at a rate ∝ 1/|u_t|, so several
 * slow-sliding contacts of one body (a box's corners and its yaw) form a mode the explicit integrators cannot follow
 * with long steps. Segments with sliding pairs are limited to 0.5 / k with k = μ f_N Σ|W_t| / |u_t| (from an extra
 * evaluation at the segment start); when a decelerating slip's predicted stop lies within the step, the segment
 * reaches 1.25 times the predicted stop with the sliding directions fixed, and the stop is located as an event. A
 * slip that starts from rest thus costs a number of segments that grows like the logarithm of its speed range.</li>
 * </ol>
 * Non-sliding pairs use the polygonal cone while they start to slip (exact along t1 and t2, the ground's tangents;
 * 1 − cos 45° short of the circle between them) until the next segment finds them sliding. Joint limits are not
 * contacts here ({@link TimeSteppingSystem} has them).
 *
 * <p><b>Contacts between collision shapes</b> (the set's shapes, {@link org.symdyn.contact.ShapeContactDetection})
 * are contacts like the pairs above, with the frames and signs of {@link org.symdyn.contact.ContactKinematics}
 * (normal from shape A towards shape B, λ acting on B and its opposite on A). Their points change from state to
 * state, so at each segment start the shape pairs are detected and every point found is <i>held</i> for the segment
 * ({@link HeldShapeContacts}): B's witness against A's tangent plane as material points, a sphere or capsule by its
 * centre, so that its rows, gap and mode stay the same contact through the integrator's stages and the event search
 * (exact for vertices, edges and faces on faces and for spheres and capsules rolling or sliding on them; first order
 * within a segment between two round sides). Then, as for a pair: the modes at the segment start (closed: gap ≤ 1e-6 m
 * and u_n ≤ 1e-6 m/s; sliding or not), one impact solve over every touching pair and shape point when one
 * approaches, the acceleration-level problem over the closed ones (a point separates when its normal force goes to
 * zero, seen at the next segment start), slip-stop events and the segment limit of slow slips. Gap events: a pair of
 * shapes with a closed point watches its other points' held gaps; a pair without one is watched as a whole, by its
 * gap, the least signed distance over its manifold points at each trial state (so that a corner or a face that was
 * not among its points at the start is seen when it touches). The pairs watched are those the detection finds at
 * the segment start within 1 mm widened by the speed bound of their shapes (|v_O| + |ω| reach, both shapes) times
 * twice the rest of the step: a pair left out would have to more than double its speed, or close 1 mm faster than
 * that, within the segment (an average acceleration of 2 mm / h²) to touch unseen; impacts, which change speeds at
 * once, happen at segment starts, where the pairs are detected again. (Limiting every segment to the time in which no
 * unwatched pair could close was the other way; it needs a bound on the accelerations all the same and cuts a fast
 * body's steps into pieces near anything.) A pair that slips through is reported by the drift guard below when it
 * penetrates. The held contacts after a step, their forces and the step's impact impulses matched to them by shapes
 * and manifold slot are {@link #heldShapeContacts()}, {@link #shapeContactImpulse} and {@link #shapeForces}; points
 * beyond the set's bound are dropped and counted ({@link #droppedContacts()}).
 *
 * <p><b>Degenerate contact sets.</b> Four coplanar corners of one body make the acceleration-level LCP's normal block
 * singular, and at a slip's stop Lemke's method can end on a secondary ray (the sample {@code ramp_box} leaving
 * its ramp). When Lemke fails on a problem without sliding contacts (and without bilateral constraints), the same
 * contact law is solved as a cone complementarity problem by the impulse solver instead ({@link #coneFallbackCount()});
 * with sliding contacts a failure is Painlevé's case and is reported. As a guard, every step checks that no pair ends it more
 * than 1e-5 m deeper in its ground than when the state was set (no shape point deeper than its pair of shapes was),
 * and throws otherwise, rather than drift silently or pass through unseen
 * (closed pairs stay in the acceleration-level problem for their whole segment, see
 * {@code AccelerationProblemData.setPairModes}, so that penetration does not grow).
 *
 * <p><b>Failures are reported.</b> An acceleration-level problem without a solution or with possibly several
 * (Painlevé), or a failed pivoting solve, throws {@link org.symdyn.contact.PainleveException} naming the contacts;
 * the state is left at the start of the segment that failed. Impulse solves that stop above the solver's tolerance
 * still give their last iterate and are counted in {@link #summary()}. A step that needs more than 10,000
 * segments throws IllegalStateException (events accumulating).
 *
 * <p><b>Contact forces</b> ({@link ContactForces}, {@link ContactForceSensor}): the acceleration-level forces at the
 * state after each step (the sensors' evaluation), zero for open pairs; impacts are impulses, summed per pair over the
 * step in {@link #pairImpulse}, with {@link #impactCount()} and {@link #lastImpactTime()}. With contacts the end of
 * every step is evaluated once more (forces and {@link #vdot()}), sensors or not.
 *
 * <p><b>Without contacts</b> and with DOPRI5, {@link #step(double)} takes one adaptive step of at most h (with
 * contacts it always advances h). <b>Commands change between steps.</b> Actuators are read at every evaluation, so a
 * command set between steps acts from the next step on. Because the adaptive {@link DormandPrince45} would otherwise
 * reuse its last evaluation (first same as last) with the old command, this system resets it before every step (and
 * every segment); an accepted step then costs seven evaluations instead of six.
 *
 * <p>Everything is allocated by {@link Builder#build()}; a step allocates nothing when the actuators and sensors
 * do not (the contact solves neither, events and impacts included). Not thread-safe.
 */
public final class ContinuousTimeSystem extends DeviceSystem {
    private final AccelerationFunction rhs;
    private final IntegrationLoop loop;
    /** Rigid contact: the right-hand side and the events (null without a ContactSet). */
    private final HybridContact contact;

    private ContinuousTimeSystem(Builder b) {
        super(new StateSpace(b.dynamics), b.contacts != null ? b.contacts : ContactSet.builder(b.dynamics).build(), b,
                true);
        contact = b.contacts == null ? null
                : new HybridContact(b.contacts, b.dynamics, b.kinematics, devices, b.constraints, b.settings,
                        b.stabilization);
        if (contact != null) {
            rhs = contact;
        } else if (b.constraints != null) {
            rhs = new ConstrainedAcceleration(new ConstrainedDynamics(b.constraints), b.method, devices);
        } else {
            rhs = new UnconstrainedAcceleration(b.dynamics, devices);
        }
        Integrator integrator = Objects.requireNonNull(b.factory.create(stateSpace(), rhs),
                "integrator factory returned null");
        this.loop = contact != null ? IntegrationLoop.withEvents(integrator, contact, b.eventTolerance)
                : IntegrationLoop.restartingEachStep(integrator);
    }

    /** A builder for a model's dynamics and kinematics: a generated class or {@code GenericDynamics}. */
    public static <T extends Dynamics & Kinematics> Builder builder(T model) {
        return new Builder(model);
    }

    /** Sets time and state (copied; quaternions renormalised) and reads the sensors there. */
    @Override
    public ContinuousTimeSystem setState(double time, double[] q0, double[] v0) {
        assignState(time, q0, v0);
        loop.reset();
        if (contact != null) {
            contact.reset(q());
            contact.lookahead = 0;
        }
        readSensors();
        return this;
    }

    /**
     * One step of at most {@code hMax} (exactly hMax for a fixed-step integrator, and for any integrator when the
     * system has contacts: then split internally at events), then the sensors.
     *
     * @return the step taken (s)
     * @throws org.symdyn.contact.PainleveException (with contacts) when an acceleration-level problem has no
     *                                               solution or possibly several; the state is left at the start of
     *                                               the segment that failed ({@link #time()})
     * @throws IllegalStateException                 (with contacts) when a step needs more than 10,000 segments
     *                                               (events accumulating: a Zeno run), or when a pair ends the step
     *                                               more than 1e-5 m deeper in its ground than when the state was
     *                                               set (the contact drifted; see the class comment: the time and
     *                                               state are then the step's end, not counted as a step, the
     *                                               sensors not read)
     */
    public double step(double hMax) {
        if (contact != null) {
            contact.lookahead = 2 * hMax;
        }
        double taken = loop.step(this, hMax);
        readSensors();
        return taken;
    }

    @Override
    void advance(double h) {
        step(h);
    }

    /**
     * Steps of (at most) h until t_end, the last one ending there (the time's rounding merged into it, not stepped
     * alone).
     *
     * @return the number of steps taken
     */
    public long run(double tEnd, double h) {
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step " + h + " must be a positive number of seconds");
        }
        return advanceTo(tEnd, h);
    }

    private void readSensors() {
        double t = time();
        double[] q = q();
        double[] v = v();
        if (contact != null) {
            // the modes at this state, impacts deferred to the next step: forces and v̇ as the next step starts
            contact.classify(t, q, v, false, contact.lookahead);
            rhs.accelerations(q, v, t, vdot);
            devices.read(t, q, v, vdot);
        } else if (devices.sensors.length > 0) {
            rhs.accelerations(q, v, t, vdot);
            devices.read(t, q, v, vdot);
        }
    }

    /**
     * The contact force (N, contact frame [n; t1; t2]) at a pair at the current state: the acceleration-level
     * solution the sensors saw after the last step (or {@link #setState}); zero for open pairs and without contacts.
     * Impacts are impulses, not forces: see {@link #pairImpulse}.
     */
    @Override
    public double pairForce(int pair, int component) {
        checkPair(pair, component);
        return contact == null ? 0 : contact.force[3 * pair + component];
    }

    /** The sum of the impulses (N·s, contact frame) of the impacts at a pair during the last step (0 if none). */
    public double pairImpulse(int pair, int component) {
        checkPair(pair, component);
        return contact == null ? 0 : contact.stepImpulse[3 * pair + component];
    }

    /**
     * Whether a pair is closed at the current state (after the last step, or {@link #setState}): touching (gap ≤
     * 1e-6 m) and not separating (u_n ≤ 1e-6 m/s), so part of the acceleration-level problem whose forces
     * {@link #pairForce} gives. A closed pair may carry no force (Lemke carries a box on four corners on one
     * diagonal pair), so this, not a non-zero force, tells a caller which contacts the system considered. False
     * for open pairs and without contacts; a touching pair that approaches is open here (its impact is the next
     * step's).
     */
    public boolean pairClosed(int pair) {
        checkPair(pair, 0);
        return contact != null && contact.modes[pair] != AccelerationProblemData.PAIR_OUT;
    }

    /**
     * The world contact force (N) on each collision shape at the current state, summed over its held contacts that
     * are closed (+ the force as shape B, − as shape A; see {@link #heldShapeContacts()}); zeros without shapes.
     */
    @Override
    public void shapeForces(double[] out, int offset) {
        java.util.Arrays.fill(out, offset, offset + 3 * contactSet.shapeCount(), 0);
        HeldShapeContacts h = contact == null ? null : contact.held;
        if (h == null) {
            return;
        }
        int shapes = contactSet.shapeCount();
        for (int i = 0; i < h.count(); i++) {
            if (!h.closed(i)) {
                continue;
            }
            int a = h.shapeA(i);
            int b = h.shapeB(i);
            for (int c = 0; c < 3; c++) {
                double f = h.force(i, 0) * h.frame(i, 0, c) + h.force(i, 1) * h.frame(i, 1, c)
                        + h.force(i, 2) * h.frame(i, 2, c);
                out[offset + 3 * b + c] += f;
                if (a < shapes) {
                    out[offset + 3 * a + c] -= f;
                }
            }
        }
    }

    /**
     * The contacts between collision shapes at the current state (after the last step, or {@link #setState}): every
     * point the detection found there within 1 mm (widened by the shapes' speed bounds times twice the last step),
     * each with its shapes, gap, frame, point and velocity, and whether it is closed (in the acceleration-level
     * problem: gap ≤ 1e-6 m, u_n ≤ 1e-6 m/s) with its force there ({@link HeldShapeContacts#force}, N, contact frame;
     * zero for open ones). Live: overwritten by the next step; read only. Null without collision shapes.
     */
    public HeldShapeContacts heldShapeContacts() {
        return contact == null ? null : contact.held;
    }

    /**
     * The impulse (N·s, the contact's frame) of the last step's impacts at held shape contact i of
     * {@link #heldShapeContacts()}, matched by its key (its two shapes and its point's slot in their manifold, as
     * time stepping keys warm starts); zero if none. An impact on a pair that the last step left farther apart than
     * the held contacts reach is not attributed to any.
     */
    public double shapeContactImpulse(int i, int component) {
        HeldShapeContacts h = contact == null ? null : contact.held;
        if (h == null || i < 0 || i >= h.count() || component < 0 || component > 2) {
            throw new IndexOutOfBoundsException("held shape contact " + i + " component " + component + " (held: "
                    + (h == null ? 0 : h.count()) + ", components 0..2)");
        }
        return contact.heldImpulse(i, component);
    }

    /**
     * Shape contacts dropped since {@link #setState} because a detection found more than the contact set's bound
     * ({@link ContactSet#maxShapeContacts()}), counted at each segment start.
     */
    public long droppedContacts() {
        return contact == null ? 0 : contact.droppedContacts;
    }

    private void checkPair(int pair, int component) {
        if (pair < 0 || pair >= contactSet.pairCount() || component < 0 || component > 2) {
            throw new IndexOutOfBoundsException("pair " + pair + " component " + component + " (pairs: "
                    + contactSet.pairCount() + ", components 0..2)");
        }
    }

    /** Impact solves since {@link #setState} (one per instant, however many pairs it involved). */
    public long impactCount() {
        return contact == null ? 0 : contact.impacts;
    }

    /** The time of the last impact (s; NaN if none since {@link #setState}). */
    public double lastImpactTime() {
        return contact == null ? Double.NaN : contact.lastImpactTime;
    }

    /**
     * Acceleration-level problems without sliding contacts that Lemke could not solve and the cone solver did
     * (see the class comment) since {@link #setState}.
     */
    public long coneFallbackCount() {
        return contact == null ? 0 : contact.coneFallbacks;
    }

    /** Cone-solver fallbacks (see {@link #coneFallbackCount()}) that stopped above the solver's tolerance. */
    public long coneFallbackUnconverged() {
        return contact == null ? 0 : contact.coneUnconverged;
    }

    /** Events located (steps cut at a gap closing or a slip stopping) since {@link #setState}. */
    public long eventCount() {
        return loop.eventCount();
    }

    /** Integration segments (pieces of steps between events) since {@link #setState}. */
    public long segmentCount() {
        return loop.segmentCount();
    }

    /**
     * The impact solves since {@link #setState} ({@code steps} counts the system's steps; the iterations and
     * violations, m/s, are those of the impulse solves). The acceleration-level solves are Lemke's pivoting solves,
     * which succeed or throw, except where the cone solver replaced a failed one without sliding contacts: those are
     * counted apart ({@link #coneFallbackCount()}, {@link #coneFallbackUnconverged()}).
     */
    @Override
    public SolveSummary summary() {
        long steps = stepCount();
        if (contact == null) {
            return new SolveSummary(steps, 0, 0, 0, 0);
        }
        return new SolveSummary(steps, contact.unconverged, contact.maxIterations,
                contact.impulseSolves == 0 ? 0 : (double) contact.totalIterations / contact.impulseSolves,
                contact.worstViolation);
    }

    /** The integrator. */
    public Integrator integrator() {
        return loop.integrator();
    }

    /** Configures a {@link ContinuousTimeSystem}. */
    public static final class Builder extends SystemBuilder<Builder> {
        private Integrator.Factory factory = RungeKutta4::new;
        private ConstraintData constraints;
        private ConstraintSolverMethod method = ConstraintSolverMethod.DIRECT;
        private ContactSet contacts;
        private ContactSettings settings = ContactSettings.defaults();
        private double eventTolerance = 1e-12;
        private double stabilization = 0.05;

        private <T extends Dynamics & Kinematics> Builder(T model) {
            super(model, model);
        }

        @Override
        Builder self() {
            return this;
        }

        /** The integrator (default {@code RungeKutta4::new}; e.g. {@code DormandPrince45.factory(1e-10, 1e-10)}). */
        public Builder integrator(Integrator.Factory f) {
            this.factory = Objects.requireNonNull(f, "integrator factory");
            return this;
        }

        /** Bilateral constraints of this model ([H Gᵀ; G 0][v̇; −λ] = [τ − C; γ], Baumgarte as the data says). */
        public Builder constraints(ConstraintData data) {
            Objects.requireNonNull(data, "data");
            data.checkModelOf(dynamics, "system's dynamics");
            this.constraints = data;
            return this;
        }

        /** The constrained solution method (default direct). */
        public Builder solverMethod(ConstraintSolverMethod m) {
            this.method = Objects.requireNonNull(m, "method");
            return this;
        }

        /**
         * Rigid unilateral contact: the grounds, candidates and collision shapes (default: none); see the class
         * comment.
         */
        public Builder contacts(ContactSet set) {
            this.contacts = Objects.requireNonNull(set, "contacts");
            return this;
        }

        /**
         * The impact solver's settings (default {@link ContactSettings#defaults()}): its solver, tolerance, iteration
         * limit and the restitution threshold; the margin and penetration recovery are time stepping's and unused.
         */
        public Builder settings(ContactSettings s) {
            this.settings = Objects.requireNonNull(s, "settings");
            return this;
        }

        /** The width (s, &gt; 0) to which an event's time is located (default 1e-12 s). */
        public Builder eventTolerance(double seconds) {
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("event tolerance " + seconds + " must be a positive number of "
                        + "seconds");
            }
            this.eventTolerance = seconds;
            return this;
        }

        /**
         * Baumgarte stabilisation of the closed contacts (time constant T in s, default 0.05 s; 0 turns it off): see
         * the class comment.
         */
        public Builder contactStabilization(double seconds) {
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("contact stabilisation time constant " + seconds + " must be a "
                        + "finite number of seconds >= 0");
            }
            this.stabilization = seconds;
            return this;
        }

        public ContinuousTimeSystem build() {
            checkModel();
            if (contacts != null) {
                if (!contacts.modelName().equals(dynamics.modelName())) {
                    throw new IllegalArgumentException("the contact set is for model " + contacts.modelName()
                            + ", not " + dynamics.modelName());
                }
                for (var c : contacts.candidates()) {
                    if (c.body() >= dynamics.bodyNames().size()) {
                        throw new IllegalArgumentException("contact candidate '" + c.name() + "' is on body "
                                + c.body() + ", beyond the " + dynamics.bodyNames().size() + " bodies of "
                                + dynamics.modelName());
                    }
                }
            } else if (!contactSensors.isEmpty()) {
                throw new IllegalArgumentException("contact force sensor " + contactSensors + " needs contacts: "
                        + "give the builder a ContactSet");
            }
            return new ContinuousTimeSystem(this);
        }
    }
}
