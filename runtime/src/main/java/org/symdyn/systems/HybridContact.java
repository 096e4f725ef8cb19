package org.symdyn.systems;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.dynamics.StateScope;
import org.symdyn.contact.AccelerationProblemData;
import org.symdyn.contact.AccelerationProblemSolver;
import org.symdyn.contact.AccelerationSolution;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.ContactProblem;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.ContactSolver;
import org.symdyn.contact.HeldShapeContacts;
import org.symdyn.contact.InertiaSolve;
import org.symdyn.contact.ShapeContactDetection;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.simulation.AccelerationFunction;
import org.symdyn.simulation.ForceFunction;
import org.symdyn.simulation.HybridEvents;

/**
 * The rigid contact of a {@link ContinuousTimeSystem}: the right-hand side with the acceleration-level contact
 * problem over a fixed set of pair modes, the classification of the pairs at the start of a segment (with the impact
 * solve when a touching pair approaches), and the event functions of a segment. The equations and signs are in
 * {@link ContinuousTimeSystem}'s Javadoc. Everything is allocated here; nothing per call. Not thread-safe.
 *
 * <p><b>Contacts between collision shapes</b> are detected at each segment start and <i>held</i> for the segment
 * ({@link HeldShapeContacts}: B's witness against A's tangent plane as material points, a sphere or a capsule by its
 * centre), so that each keeps its
 * rows and mode through the Runge-Kutta stages and the re-integrations of the event search, as a pair does. Their
 * event functions cover the allowed shape pairs near contact. The choice, and why: the detection at the segment start
 * keeps every pair within {@value #TRACKING_MARGIN} m widened by the speed bound s_A + s_B of its shapes
 * ({@link ShapeContactDetection}: |v_O| + |ω| reach) times twice the rest of the step, and only those pairs have
 * event functions. A pair left out is farther apart than that, so to touch within the segment (at most the rest of
 * the step, h_r) its points must close more than 1 mm + 2 h_r s in h_r: the speed bound must more than double within
 * the segment, or grow by an average acceleration of 2 mm / h_r² (2,000 m/s² at h = 1 ms). Impacts, which do change
 * speeds at once, happen at segment starts, where the pairs are detected again. The other way, limiting each segment
 * to the time in which no pair left out could close, would cost a detection per segment all the same and cut the
 * steps of fast bodies near anything into pieces, without a bound on the accelerations either. Should a pair slip
 * through, the drift guard at the end of the step ({@link #checkDrift}) reports it when it penetrates.
 */
final class HybridContact implements AccelerationFunction, HybridEvents {
    /** Gap (m) at or below which a pair touches. */
    static final double MARGIN = 1e-6;
    /** Normal speed (m/s): a touching pair approaching faster is an impact, separating faster is open. */
    static final double NORMAL_TOLERANCE = 1e-6;
    /** Tangential speed (m/s) above which a closed pair slides. */
    static final double SLIDING_TOLERANCE = 1e-6;
    /**
     * Penetration (m) a pair may gain beyond its depth when the state was set before a step is refused
     * ({@link #checkDrift}).
     */
    static final double DRIFT_TOLERANCE = 1e-5;
    /** h k_slip of the longest segment with sliding pairs (see {@link #segmentLimit}). */
    static final double SLIP_STABILITY = 0.5;
    /**
     * Distance (m) within which a shape pair's points are detected at a segment start whatever its speed (widened by
     * its speed bound times twice the rest of the step): see the class comment.
     */
    static final double TRACKING_MARGIN = 1e-3;

    private final ContactSet set;
    private final int pairs;
    private final int nv;
    private final Dynamics dynamics;
    /** The dynamics when they can share work within one evaluation (the interpreter), else null. */
    private final StateScope scope;
    private final ForceFunction forces;
    private final ConstraintData bilateral;
    private final ContactSettings settings;
    /** Every pair, every call: classification, events and impacts (the acceleration problem has its own). */
    private final ContactKinematics watch;
    private final boolean[] allPairs;
    private final AccelerationProblemData data;
    private final AccelerationProblemSolver solver;
    /** Contacts {@link #watch} can hold: the pairs, then shape contacts. */
    private final int contactCapacity;

    // Contacts between collision shapes (null, 0 without shapes): held for a segment, tracked pairs, impacts.
    final HeldShapeContacts held;
    private final ShapeContactDetection detection;
    private final int shapeCapacity;
    private final boolean[] heldWatched; // per held contact: its gap is an event (a point of a pair in contact)
    private final double[] heldFloor; // per open held contact: min(0, gap at the segment start)
    private int tracked; // shape pairs without a closed point, watched by their gap
    private final int[] trackedA;
    private final int[] trackedB;
    private final double[] trackedFloor;
    private final double[] trackedMargin;
    private int impactEntries; // the step's impact impulses on shape contacts, by key (world, N·s)
    private final long[] impactKey;
    private final double[] impactImpulse;
    private int floorsAtSet; // shape pairs penetrating when the state was set, with their least gap
    private final int[] setA;
    private final int[] setB;
    private final double[] setFloor;
    long droppedContacts;
    /** 2 h of the last step: how far ahead the contacts held after a step look (for reports). */
    double lookahead;

    final int[] modes;
    private final double[] reference; // 2 per pair: (t1, t2) of a sliding pair's direction at the segment start
    private final double[] gapFloor; // per open pair: min(0, gap at the segment start)
    private final double[] gapAtSet; // per pair: min(0, gap when the state was set)
    private final double[] tau;
    private final double[] u;
    final double[] force; // 3 per pair: the last evaluation's contact forces, contact frame (N)
    final double[] stepImpulse; // 3 per pair: impulses of the impacts since clearStepImpulses (N·s)

    private final DMatrixRMaj hOwn;
    private final InertiaSolve inertia;
    private final ContactProblem problem;
    private final ContactSolver impulseSolver;
    private final ContactReport report = new ContactReport();
    private final double[] rows;
    private final double[] lambda;
    private final double[] dv;
    private final int[] blockPair;
    private final double[] slipRows; // tangent rows of the sliding pairs
    private final double[] slipW;
    private final double[] scratchVdot;
    private final double[] slipBias;
    private final double[] freeAcceleration;
    private final double stabilization;

    long evaluations;
    long impacts;
    long impulseSolves;
    long coneFallbacks;
    long coneUnconverged;
    long unconverged;
    long totalIterations;
    int maxIterations;
    double worstViolation;
    double lastImpactTime = Double.NaN;

    HybridContact(ContactSet set, Dynamics dynamics, Kinematics kinematics, ForceFunction forces,
            ConstraintData bilateral, ContactSettings settings, double stabilization) {
        this.set = set;
        this.pairs = set.pairCount();
        this.nv = dynamics.nv();
        this.dynamics = dynamics;
        this.scope = dynamics instanceof StateScope st ? st : null;
        this.forces = forces;
        this.bilateral = bilateral;
        this.settings = settings;
        this.watch = new ContactKinematics(set, kinematics, nv);
        this.allPairs = new boolean[pairs];
        Arrays.fill(allPairs, true);
        this.contactCapacity = watch.capacity();
        this.data = new AccelerationProblemData(new ContactKinematics(set, kinematics, nv), dynamics, null, bilateral);
        data.setContactMargin(MARGIN);
        data.setNormalVelocityTolerance(NORMAL_TOLERANCE);
        data.setSlidingTolerance(SLIDING_TOLERANCE);
        data.setContactStabilization(stabilization);
        this.solver = new AccelerationProblemSolver(data);
        this.modes = new int[pairs];
        this.reference = new double[2 * pairs];
        if (set.shapeCount() > 0) {
            held = new HeldShapeContacts(set);
            detection = watch.shapeContacts();
            shapeCapacity = held.capacity();
            data.setPairModes(modes, reference, held);
        } else {
            held = null;
            detection = null;
            shapeCapacity = 0;
            data.setPairModes(modes, reference);
        }
        int c = Math.max(1, shapeCapacity);
        heldWatched = new boolean[c];
        heldFloor = new double[c];
        trackedA = new int[c];
        trackedB = new int[c];
        trackedFloor = new double[c];
        trackedMargin = new double[c];
        impactKey = new long[c];
        impactImpulse = new double[3 * c];
        setA = new int[c];
        setB = new int[c];
        setFloor = new double[c];
        this.gapFloor = new double[pairs];
        this.gapAtSet = new double[pairs];
        this.tau = new double[nv];
        this.u = new double[Math.max(3, 3 * contactCapacity)];
        this.force = new double[3 * pairs];
        this.stepImpulse = new double[3 * pairs];
        int nb = bilateral == null ? 0 : bilateral.size();
        int capacity = 3 * contactCapacity + nb;
        this.hOwn = new DMatrixRMaj(nv, nv);
        this.inertia = new InertiaSolve(nv, capacity);
        this.problem = new ContactProblem(capacity);
        this.impulseSolver = settings.newSolver(capacity);
        this.rows = new double[Math.max(1, capacity) * nv];
        this.lambda = new double[Math.max(1, capacity)];
        this.dv = new double[nv];
        this.blockPair = new int[Math.max(1, capacity)];
        this.slipRows = new double[Math.max(1, 2 * contactCapacity * nv)];
        this.slipW = new double[Math.max(1, 4 * contactCapacity * contactCapacity)];
        this.scratchVdot = new double[nv];
        this.slipBias = new double[Math.max(3, 3 * contactCapacity)];
        this.freeAcceleration = new double[nv];
        this.stabilization = stabilization;
    }

    /** The mode of contact k of {@link #watch} after {@link #watchHeld}: a pair's, or its held contact's. */
    private int mode(int k) {
        return k < pairs ? modes[k] : held.mode(watch.heldIndex(k));
    }

    /** The normal force of the last evaluation at contact k of {@link #watch} after {@link #watchHeld}. */
    private double normalForce(int k) {
        return k < pairs ? force[3 * k] : held.force(watch.heldIndex(k), 0);
    }

    /** Records the force (contact frame) of contact k of {@link #watch} after {@link #watchHeld}. */
    private void setForce(int k, double fn, double ft1, double ft2) {
        if (k < pairs) {
            force[3 * k] = fn;
            force[3 * k + 1] = ft1;
            force[3 * k + 2] = ft2;
        } else {
            held.setForce(watch.heldIndex(k), fn, ft1, ft2);
        }
    }

    /** {@link #watch} at q: every pair (contact k is pair k), then every held shape contact. */
    private void watchHeld(double[] q) {
        if (held == null) {
            watch.update(q, allPairs);
        } else {
            watch.update(q, allPairs, held, false);
        }
    }

    /**
     * {@link #watch} at (q, v): every pair (contact k is pair k), then the shape contacts detected within
     * {@value #TRACKING_MARGIN} m widened by {@code lookahead} times their speed bounds.
     */
    private void scan(double[] q, double[] v, double lookahead) {
        if (held == null) {
            watch.update(q, allPairs);
        } else {
            watch.update(q, allPairs, v, lookahead, MARGIN + TRACKING_MARGIN);
            droppedContacts += watch.dropped();
        }
    }

    ContactSet set() {
        return set;
    }

    /**
     * v̇ from the acceleration-level problem of the pairs closed at the segment start, and the contact forces.
     *
     * @throws org.symdyn.contact.PainleveException when the problem has no solution, possibly several, or Lemke
     *                                               failed
     */
    @Override
    public void accelerations(double[] q, double[] v, double t, double[] vdot) {
        // The interpreter's H, C and contact kinematics at (q, v) share one kinematics pass (see StateScope).
        if (scope != null) {
            scope.enterState();
        }
        try {
            accelerationsAt(q, v, t, vdot);
        } finally {
            if (scope != null) {
                scope.exitState();
            }
        }
    }

    private void accelerationsAt(double[] q, double[] v, double t, double[] vdot) {
        forces.forces(t, q, v, tau);
        data.update(q, v, tau);
        AccelerationSolution sol = solver.solve();
        evaluations++;
        if (!sol.solved()) {
            if (bilateral != null || data.slidingCount() > 0) {
                solver.solveOrThrow(); // the same solve again, on the error path only: throws its report
            }
            coneAccelerations(q, v, vdot);
            return;
        }
        System.arraycopy(sol.vdot(), 0, vdot, 0, nv);
        Arrays.fill(force, 0);
        if (held != null) {
            held.clearForces();
        }
        ContactKinematics kin = data.contactKinematics();
        for (int c = 0; c < data.contactCount(); c++) {
            int k = data.kinematicsIndex(c);
            double fn = sol.normalForce(c);
            double f1 = 0;
            double f2 = 0;
            if (data.isSliding(c)) {
                double f = -data.mu(c) * fn;
                f1 = f * project(data, c, -1, kin, k, 1);
                f2 = f * project(data, c, -1, kin, k, 2);
            } else {
                int first = data.frictionStart(c);
                for (int d = 0; d < data.spanningDirections(c); d++) {
                    double f = sol.frictionForce(first + d);
                    f1 += f * project(data, c, first + d, kin, k, 1);
                    f2 += f * project(data, c, first + d, kin, k, 2);
                }
            }
            int p = kin.pair(k);
            if (p >= 0) {
                force[3 * p] = fn;
                force[3 * p + 1] = f1;
                force[3 * p + 2] = f2;
            } else {
                held.setForce(kin.heldIndex(k), fn, f1, f2);
            }
        }
    }

    /**
     * The fallback when Lemke fails on a problem without sliding contacts: the same contact law at acceleration level
     * as a cone complementarity problem, solved by the impulse solver (ADMM or PGS, Coulomb's exact cone):
     * <pre>
     *   f_p ∈ K_μ  ⊥  a_p + μ ‖a_t,p‖ e_n ∈ K_μ*,   a = W f + b,   W = J H⁻¹ Jᵀ,
     *   b = J v̇_free + J̇ v + [(2 u_n + φ / T) / T; 0; 0],   v̇ = v̇_free + H⁻¹ Jᵀ f
     * </pre>
     * over the closed pairs (rows [n; t1; t2] of each, the contact stabilisation of time constant T on the normal
     * row as in the LCP). Why: four coplanar corners of one body (a box at a slip's stop) make the LCP's normal block
     * singular (rank 3), and Lemke's pivoting, which need not succeed on the friction matrix of Anitescu and Potra
     * (copositive, not copositive-plus), ended on a secondary ray under rounding for the sample {@code ramp_box}
     * leaving its ramp; the cone solver takes any admissible split of the load. Not quite the LCP's law: the cone is
     * Coulomb's exact one where the LCP has the 4-edge pyramid (accelerations agreed to 1e-14 on a box on four corners
     * on an incline, the corners' split of the load differs). Counted in {@link #coneFallbacks}, and in
     * {@link #coneUnconverged} when the solve stops above the solver's tolerance, apart from the impact solves.
     */
    private void coneAccelerations(double[] q, double[] v, double[] vdot) {
        inertia.factor(data.massMatrix());
        inertia.solve(data.tau(), freeAcceleration);
        watchHeld(q);
        watch.velocity(v, u);
        watch.accelerationBias(q, v, slipBias);
        problem.clear();
        double[] b = problem.offset();
        int blocks = 0;
        int n = watch.count();
        for (int p = 0; p < n; p++) {
            if (mode(p) == AccelerationProblemData.PAIR_OUT) {
                continue;
            }
            int r = addPairBlock(p, blocks++);
            for (int i = 0; i < 3; i++) {
                b[r + i] = slipBias[3 * p + i];
            }
            if (stabilization > 0 && u[3 * p] <= NORMAL_TOLERANCE) {
                b[r] += AccelerationProblemData.baumgarte(u[3 * p], watch.gap(p), stabilization);
            }
        }
        // Counted apart from the impact solves: its residuals are accelerations (m/s²), theirs velocities.
        if (!solveProblem(freeAcceleration)) {
            coneUnconverged++;
        }
        coneFallbacks++;
        for (int i = 0; i < nv; i++) {
            vdot[i] = freeAcceleration[i] + dv[i];
        }
        Arrays.fill(force, 0);
        if (held != null) {
            held.clearForces();
        }
        for (int k = 0; k < blocks; k++) {
            int r = problem.blockStart(k);
            setForce(blockPair[k], lambda[r], lambda[r + 1], lambda[r + 2]);
        }
    }

    /**
     * Opens the Coulomb block of contact p of {@link #watch} (pair p, or a shape contact after the pairs) in
     * {@link #problem} as block number {@code block}: its three rows of {@link #watch}'s Jacobian [n; t1; t2],
     * offsets and λ zero, the contact recorded in {@link #blockPair}.
     *
     * @return the block's first row
     */
    private int addPairBlock(int p, int block) {
        int r = problem.addCoulomb(watch.friction(p));
        System.arraycopy(watch.jacobian(), 3 * p * nv, rows, r * nv, 3 * nv);
        double[] b = problem.offset();
        for (int i = 0; i < 3; i++) {
            b[r + i] = 0;
            lambda[r + i] = 0;
        }
        blockPair[block] = p;
        return r;
    }

    /**
     * Completes and solves the problem built in {@link #rows}: b_r += J_r x for every row, W = J H⁻¹ Jᵀ from the
     * factor in {@link #inertia}, the impulse solver warm-started from {@link #lambda}; then {@link #dv} = H⁻¹ Jᵀ λ.
     *
     * @return whether the solve reached the solver's tolerance
     */
    private boolean solveProblem(double[] x) {
        int m = problem.rows();
        double[] b = problem.offset();
        for (int r = 0; r < m; r++) {
            double s = 0;
            int o = r * nv;
            for (int j = 0; j < nv; j++) {
                s += rows[o + j] * x[j];
            }
            b[r] += s;
        }
        inertia.delassus(rows, m, problem.delassus());
        boolean converged = impulseSolver.solve(problem, lambda, report);
        inertia.applyTranspose(lambda, m, dv);
        return converged;
    }

    /** The sliding direction of problem contact c (row &lt; 0) or F row {@code row}, along t_axis of contact k. */
    private static double project(AccelerationProblemData data, int c, int row, ContactKinematics kin, int k,
            int axis) {
        double s = 0;
        for (int i = 0; i < 3; i++) {
            double d = row < 0 ? data.slidingDirection(c, i) : data.frictionDirection(row, i);
            s += d * kin.frame(k, axis, i);
        }
        return s;
    }

    /** One per pair; with shapes also one per held shape contact and one per tracked shape pair (each up to the bound). */
    @Override
    public int eventFunctionCount() {
        return pairs + 2 * shapeCapacity;
    }

    /** Clears the impulses the last step's impacts summed ({@link #stepImpulse}, and on shapes). */
    @Override
    public void beginStep() {
        Arrays.fill(stepImpulse, 0);
        impactEntries = 0;
    }

    /**
     * As {@link #beginSegment(double, double[], double[], double)} with nothing left of the step: shape pairs are
     * watched within {@value #TRACKING_MARGIN} m only.
     */
    @Override
    public void beginSegment(double t, double[] q, double[] v) {
        beginSegment(t, q, v, 0);
    }

    /**
     * Resolves the impacts due at (t, q, v), then fixes every contact's mode there ({@link #classify}), watching the
     * shape pairs that can touch within twice the {@code remaining} step.
     */
    @Override
    public void beginSegment(double t, double[] q, double[] v, double remaining) {
        classify(t, q, v, true, 2 * remaining);
    }

    /** The drift guard ({@link #checkDrift}). */
    @Override
    public void endStep(double[] q) {
        checkDrift(q);
    }

    /**
     * Sets every pair's mode at (q, v): closed (gap ≤ margin and u_n ≤ tolerance), sliding or not by its tangential
     * speed; otherwise open. With {@code impacts}, first resolves the impacts: when a touching contact approaches
     * faster than the tolerance, one impulse solve over every touching contact (pairs and shape contacts) changes v in
     * place. Then holds the shape contacts ({@link #holdShapes}) detected within {@value #TRACKING_MARGIN} m widened
     * by {@code lookahead} (s) times their speed bounds.
     *
     * @return true if an impulse was applied
     */
    boolean classify(double t, double[] q, double[] v, boolean impacts, double lookahead) {
        scan(q, v, lookahead);
        watch.velocity(v, u);
        boolean impact = false;
        if (impacts) {
            int n = watch.count();
            for (int p = 0; p < n && !impact; p++) {
                impact = watch.gap(p) <= MARGIN && u[3 * p] < -NORMAL_TOLERANCE;
            }
            if (impact) {
                impulse(q, v);
                this.impacts++;
                lastImpactTime = t;
                if (held != null) {
                    scan(q, v, lookahead); // the speed bounds changed
                }
                watch.velocity(v, u);
            }
        }
        for (int p = 0; p < pairs; p++) {
            double gap = watch.gap(p);
            if (gap <= MARGIN && u[3 * p] <= NORMAL_TOLERANCE) {
                double u1 = u[3 * p + 1];
                double u2 = u[3 * p + 2];
                double speed = Math.hypot(u1, u2);
                if (speed > SLIDING_TOLERANCE) {
                    modes[p] = AccelerationProblemData.PAIR_SLIDING;
                    reference[2 * p] = u1 / speed;
                    reference[2 * p + 1] = u2 / speed;
                } else {
                    modes[p] = AccelerationProblemData.PAIR_NON_SLIDING;
                }
            } else {
                modes[p] = AccelerationProblemData.PAIR_OUT;
                gapFloor[p] = Math.min(0, gap);
            }
        }
        if (held != null) {
            holdShapes(q);
        }
        return impact;
    }

    /**
     * Holds every shape contact of the last {@link #scan} (at q, velocities in {@link #u}) for the segment, its mode
     * set as a pair's. The detection gives a shape pair's points one after another. A pair with a closed point keeps
     * each of its open points' gap as an event (above min(0, its gap now)); a pair without one is tracked as a
     * whole: its gap, the least distance over its manifold points ({@link ShapeContactDetection#pairGap}), is the
     * event (above min(0, its gap now)), so that a feature that was not among its points now is seen when it touches.
     */
    private void holdShapes(double[] q) {
        held.clear();
        tracked = 0;
        int n = watch.count();
        int k = pairs;
        while (k < n) {
            int a = watch.shapeA(k);
            int b = watch.shapeB(k);
            int end = k + 1;
            while (end < n && watch.shapeA(end) == a && watch.shapeB(end) == b) {
                end++;
            }
            boolean closed = false;
            double least = Double.POSITIVE_INFINITY;
            for (int j = k; j < end; j++) {
                closed |= watch.gap(j) <= MARGIN && u[3 * j] <= NORMAL_TOLERANCE;
                least = Math.min(least, watch.gap(j));
            }
            for (int j = k; j < end; j++) {
                int i = watch.hold(q, j, u, held);
                if (i < 0) {
                    continue;
                }
                heldWatched[i] = closed;
                double gap = watch.gap(j);
                if (gap <= MARGIN && u[3 * j] <= NORMAL_TOLERANCE) {
                    double u1 = u[3 * j + 1];
                    double u2 = u[3 * j + 2];
                    double speed = Math.hypot(u1, u2);
                    if (speed > SLIDING_TOLERANCE) {
                        held.setMode(i, AccelerationProblemData.PAIR_SLIDING, u1 / speed, u2 / speed);
                    } else {
                        held.setMode(i, AccelerationProblemData.PAIR_NON_SLIDING, 0, 0);
                    }
                } else {
                    heldFloor[i] = Math.min(0, gap);
                }
            }
            if (!closed && tracked < shapeCapacity) {
                trackedA[tracked] = a;
                trackedB[tracked] = b;
                trackedFloor[tracked] = Math.min(0, least);
                trackedMargin[tracked] = Math.max(0, least) + TRACKING_MARGIN;
                tracked++;
            }
            k = end;
        }
        droppedContacts += held.dropped();
    }

    /**
     * The longest segment (s) the explicit integrators can take stably from (q, v) with the current modes: +∞ without
     * sliding pairs. A sliding pair's friction −μ f_N u_t/|u_t| turns with the slip at a rate ∝ 1/|u_t|: slow slips
     * of several contacts of one body (a box's corners and its yaw) form a stiff mode with rate about
     * k = μ f_N Σ|W_t| / |u_t| (W_t the pair's tangential rows of J H⁻¹ Jᵀ over every sliding pair, f_N from the
     * acceleration solve here), and a step with h k beyond the integrator's stability bound (2.8 for RK4) makes it
     * grow. The segment is limited to {@value #SLIP_STABILITY} / max k; as a slip starts from rest this costs a number
     * of segments that grows like the logarithm of the speed range, and nothing once it is fast. A decelerating slip
     * would approach its stop geometrically under that limit and never reach it (k grows as |u_t| falls), so when the
     * earliest predicted stop t_s = |u_t| / (−u̇_t · ŝ) lies within the {@code remaining} step the segment may reach
     * 1.25 t_s, past the stop, which is then located as an event. In that segment the sliding pairs keep their
     * starting directions ({@link AccelerationProblemData#PAIR_SLIDING_FIXED}): near the stop a direction that
     * followed the slip would be set by rounding (k → ∞ as |u_t| → 0) inside the step; a fixed one keeps the segment
     * smooth, at an error of the slip's turning over less than one step.
     */
    @Override
    public double segmentLimit(double t, double[] q, double[] v, double remaining) {
        boolean sliding = false;
        for (int p = 0; p < pairs && !sliding; p++) {
            sliding = modes[p] == AccelerationProblemData.PAIR_SLIDING;
        }
        for (int i = 0; held != null && i < held.count() && !sliding; i++) {
            sliding = held.mode(i) == AccelerationProblemData.PAIR_SLIDING;
        }
        if (!sliding) {
            return Double.POSITIVE_INFINITY;
        }
        accelerations(q, v, t, scratchVdot); // f_N, and H(q) in the data
        inertia.factor(data.massMatrix());
        watchHeld(q);
        watch.velocity(v, u);
        double[] jac = watch.jacobian();
        int m = 0;
        int n = watch.count();
        for (int p = 0; p < n; p++) {
            if (mode(p) == AccelerationProblemData.PAIR_SLIDING) {
                System.arraycopy(jac, (3 * p + 1) * nv, slipRows, m * nv, 2 * nv);
                m += 2;
            }
        }
        inertia.delassus(slipRows, m, slipW);
        watch.accelerationBias(q, v, slipBias);
        double stop = Double.POSITIVE_INFINITY;
        double k = 0;
        int row = 0;
        for (int p = 0; p < n; p++) {
            if (mode(p) != AccelerationProblemData.PAIR_SLIDING) {
                continue;
            }
            double rowSum = 0;
            for (int a = 0; a < 2; a++) {
                double sum = 0;
                for (int b = 0; b < m; b++) {
                    sum += Math.abs(slipW[(row + a) * m + b]);
                }
                rowSum = Math.max(rowSum, sum);
            }
            row += 2;
            double u1 = u[3 * p + 1];
            double u2 = u[3 * p + 2];
            double speed = Math.hypot(u1, u2);
            double kp = watch.friction(p) * Math.max(0, normalForce(p)) * rowSum / speed;
            if (kp > k) {
                k = kp;
            }
            // u̇_t = J_t v̇ + k_t along the slip
            double a1 = slipBias[3 * p + 1];
            double a2 = slipBias[3 * p + 2];
            int o1 = (3 * p + 1) * nv;
            int o2 = (3 * p + 2) * nv;
            for (int j = 0; j < nv; j++) {
                a1 += jac[o1 + j] * scratchVdot[j];
                a2 += jac[o2 + j] * scratchVdot[j];
            }
            double along = (a1 * u1 + a2 * u2) / speed;
            if (along < 0) {
                stop = Math.min(stop, speed / -along);
            }
        }
        double limit = k > 0 ? SLIP_STABILITY / k : Double.POSITIVE_INFINITY;
        if (1.25 * stop <= remaining && 1.25 * stop > limit) {
            for (int p = 0; p < pairs; p++) {
                if (modes[p] == AccelerationProblemData.PAIR_SLIDING) {
                    modes[p] = AccelerationProblemData.PAIR_SLIDING_FIXED;
                }
            }
            for (int i = 0; held != null && i < held.count(); i++) {
                if (held.mode(i) == AccelerationProblemData.PAIR_SLIDING) {
                    held.setMode(i, AccelerationProblemData.PAIR_SLIDING_FIXED, held.reference(i, 0),
                            held.reference(i, 1));
                }
            }
            return 1.25 * stop;
        }
        return limit;
    }

    /**
     * The event functions at (q, v) for the modes of the last {@link #classify}: an open pair's gap above its floor
     * (m), a sliding pair's slip along its starting direction (m/s), +∞ for the rest. With shapes, then, per held
     * contact: the same for a sliding one, its held gap above its floor for an open point of a pair in contact, +∞
     * for the rest; and per tracked shape pair its gap ({@link ShapeContactDetection#pairGap}) above its floor. An
     * event has occurred where one is negative.
     *
     * @return true if some event function is negative
     */
    @Override
    public boolean events(double[] q, double[] v, double[] g) {
        watchHeld(q);
        watch.velocity(v, u);
        boolean any = false;
        for (int p = 0; p < pairs; p++) {
            double x;
            switch (modes[p]) {
                case AccelerationProblemData.PAIR_OUT -> x = watch.gap(p) - gapFloor[p];
                case AccelerationProblemData.PAIR_SLIDING, AccelerationProblemData.PAIR_SLIDING_FIXED ->
                        x = u[3 * p + 1] * reference[2 * p] + u[3 * p + 2] * reference[2 * p + 1];
                default -> x = Double.POSITIVE_INFINITY;
            }
            g[p] = x;
            any |= x < 0;
        }
        if (held != null) {
            any |= shapeEvents(q, g);
        }
        return any;
    }

    private boolean shapeEvents(double[] q, double[] g) {
        boolean any = false;
        Arrays.fill(g, pairs, pairs + 2 * shapeCapacity, Double.POSITIVE_INFINITY);
        for (int k = pairs; k < watch.count(); k++) {
            int i = watch.heldIndex(k);
            double x;
            switch (held.mode(i)) {
                case AccelerationProblemData.PAIR_OUT -> x = heldWatched[i] ? watch.gap(k) - heldFloor[i]
                        : Double.POSITIVE_INFINITY;
                case AccelerationProblemData.PAIR_SLIDING, AccelerationProblemData.PAIR_SLIDING_FIXED ->
                        x = u[3 * k + 1] * held.reference(i, 0) + u[3 * k + 2] * held.reference(i, 1);
                default -> x = Double.POSITIVE_INFINITY;
            }
            g[pairs + i] = x;
            any |= x < 0;
        }
        if (tracked > 0) {
            detection.place(q);
            for (int j = 0; j < tracked; j++) {
                double x = detection.pairGap(trackedA[j], trackedB[j], trackedMargin[j]) - trackedFloor[j];
                g[pairs + shapeCapacity + j] = x;
                any |= x < 0;
            }
        }
        return any;
    }

    /**
     * The impact solve at (q, v⁻), in place: v⁺ = v⁻ + H⁻¹ Jᵀ Λ over every touching contact of {@link #watch} (pairs
     * and detected shape contacts; and the bilateral rows), with Newton's law on the post-impact normal velocity and
     * Coulomb's cone on Λ, as a {@link ContactProblem} (W = J H⁻¹ Jᵀ, b = J v⁻ + [e u_n⁻; 0; 0]) for the settings'
     * solver.
     */
    private void impulse(double[] q, double[] v) {
        DMatrixRMaj h;
        if (bilateral != null) {
            bilateral.computeSystem(q, v);
            h = bilateral.H();
        } else {
            dynamics.massMatrix(q, hOwn);
            h = hOwn;
        }
        inertia.factor(h);
        problem.clear();
        double[] b = problem.offset();
        int blocks = 0;
        int n = watch.count();
        for (int p = 0; p < n; p++) {
            if (!(watch.gap(p) <= MARGIN)) {
                continue;
            }
            int r = addPairBlock(p, blocks++);
            double un = u[3 * p];
            double e = watch.restitution(p);
            // Newton: u_n⁺ ≥ −e u_n⁻ for impacts faster than the threshold, u_n⁺ ≥ 0 (inelastic) for slower ones
            b[r] = e > 0 && un < -settings.restitutionThreshold() ? e * un : 0;
        }
        if (bilateral != null) {
            DMatrixRMaj g = bilateral.G();
            for (int i = 0; i < bilateral.size(); i++) {
                int r = problem.addBilateral();
                System.arraycopy(g.data, i * nv, rows, r * nv, nv);
                b[r] = 0;
                lambda[r] = 0;
                blockPair[blocks++] = -1;
            }
        }
        if (!solveProblem(v)) {
            unconverged++;
        }
        impulseSolves++;
        totalIterations += report.iterations();
        maxIterations = Math.max(maxIterations, report.iterations());
        if (!(report.contactLawViolation() <= worstViolation)) {
            worstViolation = report.contactLawViolation();
        }
        for (int i = 0; i < nv; i++) {
            v[i] += dv[i];
        }
        for (int k = 0; k < blocks; k++) {
            int p = blockPair[k];
            if (p >= pairs) {
                recordImpact(p, problem.blockStart(k));
            } else if (p >= 0) {
                int r = problem.blockStart(k);
                stepImpulse[3 * p] += lambda[r];
                stepImpulse[3 * p + 1] += lambda[r + 1];
                stepImpulse[3 * p + 2] += lambda[r + 2];
            }
        }
    }

    /**
     * Adds the impulse λ[r..r+3) of shape contact k of {@link #watch} to the step's impact impulses, in the world, by
     * the contact's key (its shapes and slot; unrecorded beyond the bound: for reports only).
     */
    private void recordImpact(int k, int r) {
        long key = watch.shapeContactKey(k);
        int e = 0;
        while (e < impactEntries && impactKey[e] != key) {
            e++;
        }
        if (e == impactEntries) {
            if (e == shapeCapacity) {
                return;
            }
            impactKey[e] = key;
            impactImpulse[3 * e] = 0;
            impactImpulse[3 * e + 1] = 0;
            impactImpulse[3 * e + 2] = 0;
            impactEntries++;
        }
        for (int i = 0; i < 3; i++) {
            impactImpulse[3 * e + i] += lambda[r] * watch.frame(k, 0, i) + lambda[r + 1] * watch.frame(k, 1, i)
                    + lambda[r + 2] * watch.frame(k, 2, i);
        }
    }

    /**
     * Component c (contact frame, as held) of the impulse of the step's impacts at held contact i, by its key
     * (N·s; zero when none).
     */
    double heldImpulse(int i, int c) {
        long key = held.key(i);
        for (int e = 0; e < impactEntries; e++) {
            if (impactKey[e] == key) {
                return impactImpulse[3 * e] * held.frame(i, c, 0) + impactImpulse[3 * e + 1] * held.frame(i, c, 1)
                        + impactImpulse[3 * e + 2] * held.frame(i, c, 2);
            }
        }
        return 0;
    }

    /** The last impact solve's report (live). */
    ContactReport report() {
        return report;
    }

    /**
     * Throws when some pair penetrates more than {@value #DRIFT_TOLERANCE} m deeper than when the state was set. The
     * scheme keeps closed contacts at φ̈ ≥ −2φ̇/T − φ/T² and removes approach speed by impacts, so penetration should
     * not grow; it would (about 1.5 mm/s after a tilted box lands while sliding) if closed pairs left the problem at
     * Runge-Kutta stages where their normal velocity separates. A guard: a number that drifts silently is worse than
     * a step that stops and says so.
     */
    void checkDrift(double[] q) {
        if (held == null) {
            watch.update(q, allPairs);
        } else {
            watch.update(q, allPairs, null, 0, MARGIN);
        }
        for (int p = 0; p < pairs; p++) {
            double gap = watch.gap(p);
            if (gap < gapAtSet[p] - DRIFT_TOLERANCE) {
                throw drifted(p, gap, gapAtSet[p]);
            }
        }
        // a shape pair against its least gap when the state was set (0 unless it penetrated then)
        for (int k = pairs; k < watch.count(); k++) {
            double gap = watch.gap(k);
            if (gap < -DRIFT_TOLERANCE) {
                double floor = 0;
                for (int e = 0; e < floorsAtSet; e++) {
                    if (setA[e] == watch.shapeA(k) && setB[e] == watch.shapeB(k)) {
                        floor = setFloor[e];
                    }
                }
                if (gap < floor - DRIFT_TOLERANCE) {
                    throw drifted(k, gap, floor);
                }
            }
        }
    }

    private IllegalStateException drifted(int k, double gap, double atSet) {
        return new IllegalStateException("contact " + watch.name(k) + " penetrates " + (-gap) + " m, " + (atSet - gap)
                + " m deeper than when the state was set: the acceleration-level contact drifted"
                + (k < pairs ? "" : " or the shapes met unseen within a segment (faster than the detection looks ahead)")
                + "; time stepping resolves contact by impulses");
    }

    void reset(double[] q) {
        if (held == null) {
            watch.update(q, allPairs);
        } else {
            watch.update(q, allPairs, null, 0, MARGIN);
        }
        for (int p = 0; p < pairs; p++) {
            gapAtSet[p] = Math.min(0, watch.gap(p));
        }
        floorsAtSet = 0;
        for (int k = pairs; k < watch.count(); k++) {
            double gap = watch.gap(k);
            if (gap < 0) {
                int e = 0;
                while (e < floorsAtSet && !(setA[e] == watch.shapeA(k) && setB[e] == watch.shapeB(k))) {
                    e++;
                }
                if (e == floorsAtSet) {
                    if (e == shapeCapacity) {
                        continue;
                    }
                    setA[e] = watch.shapeA(k);
                    setB[e] = watch.shapeB(k);
                    setFloor[e] = 0;
                    floorsAtSet++;
                }
                setFloor[e] = Math.min(setFloor[e], gap);
            }
        }
        if (held != null) {
            held.clear();
        }
        tracked = 0;
        impactEntries = 0;
        droppedContacts = 0;
        Arrays.fill(stepImpulse, 0);
        Arrays.fill(force, 0);
        impacts = 0;
        impulseSolves = 0;
        coneFallbacks = 0;
        coneUnconverged = 0;
        Arrays.fill(modes, AccelerationProblemData.PAIR_OUT);

        unconverged = 0;
        totalIterations = 0;
        maxIterations = 0;
        worstViolation = 0;
        lastImpactTime = Double.NaN;
    }
}
