package org.symdyn.contact;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.dynamics.StateScope;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.manifold.StateSpace;

/**
 * Time stepping with unilateral contact and Coulomb friction (the seed's TimeSteppingConstraintForce, with exact
 * cones): one step of length h from (q, v) under generalised force τ solves, for v⁺ and the impulses λ,
 * <pre>
 *   H(q) (v⁺ − v) = h (τ − C(q, v)) + Jᵀ λ                    (impulse-momentum, Jᵀ λ over every row below)
 *   contacts:    K_μ ∋ λ_c ⊥ u_c + μ ‖u_t‖ e_n ∈ K_μ*,  u_c = J_c v⁺ + [ω_n; 0; 0]   (Signorini + Coulomb)
 *   joint limits: 0 ≤ ±v⁺_k + ω_k ⊥ λ_k ≥ 0
 *   bilateral:   G v⁺ + β φ / h = 0                            (loops, bilateral contacts, couplers of a ConstraintData)
 *   q⁺ = q ⊕ h v⁺                                             (StateSpace.integrate: semi-implicit Euler on the manifold)
 * </pre>
 * in Delassus form, W = J H⁻¹ Jᵀ and b = J v_free + ω with v_free = v + h H⁻¹ (τ − C) ({@link SparseDelassus}:
 * Featherstone's LᵀL factor of H, which fills nothing in along the dof tree, and each row computed on the dofs its
 * contact's bodies move with; {@link ContactProblem}), solved by the settings' {@link ContactSolver} warm-started with each pair's impulse of
 * the previous step, whole or, on request ({@link Builder#islands}), island by island ({@link ContactIslands}:
 * groups of rows that W does not couple to the rest, such as separate piles of free bodies, solved as problems of
 * their own). The offsets ω make the laws position-aware: for a gap φ ≥ 0, ω = φ / h (the gap may close
 * within the step, never more); for a penetration ω = max(β min(0, φ + δ) / h, −v̄) (β
 * {@link ContactSettings#penetrationRecovery()}, δ {@link ContactSettings#penetrationSlop()}, v̄
 * {@link ContactSettings#maxRecoverySpeed()}: the recovery velocity stays in the state, so it is bounded);
 * at an impact faster than the restitution threshold on a ground of restitution e &gt; 0, ω = e u_n⁻ (Newton: the
 * contact leaves at e times its approach speed u_n⁻ = J_n v); e = 0, the default, is an inelastic impact.
 *
 * <p>Contacts: the pairs of a {@link ContactSet} whose gap, predicted at the end of the step, is within the margin
 * ({@link ContactKinematics}), and the contacts between its collision shapes ({@link ShapeContactDetection}: up to
 * four points per touching pair, at most the set's bound per step; more are dropped and counted,
 * {@link #droppedContacts()}); frames and signs as there (rows [n; t1; t2], λ_n ≥ 0 pushes the body out of the
 * ground, or shape B away from shape A). Impulses are N·s (divide by h for the mean force over the step). Each
 * contact is warm-started with its impulse of the previous step: a pair's by pair, a shape contact's by the point
 * of the same two shapes nearest to it in shape B's frame (within 0.1 of B's bounding radius; detection lists a
 * pair's points in no lasting order), its impulse vector re-expressed in the new contact frame.
 *
 * <p>Works on any backend through the contract (a generated class alone, or {@code GenericDynamics}): H and C from
 * {@link Dynamics}, or from the fused evaluation of a bound {@link ConstraintData} when bilateral constraints are
 * given; contact Jacobians from {@link Kinematics}. Every buffer is allocated by {@link Builder#build()}; a step
 * allocates nothing. Not thread-safe: one stepper per thread.
 *
 * <p><b>Joint damping</b> ({@link Builder#jointDamping}, a passive force −D v, D = diag(d) ≥ 0) is implicit: with
 * −D v⁺ in the impulse-momentum balance, H (v⁺ − v) = h (τ − C − D v⁺) + Jᵀ λ becomes
 * (H + h D)(v⁺ − v) = h (τ − C − D v) + Jᵀ λ, so every solve above uses H + h D, which is positive definite, and the
 * step is unconditionally stable in the damping (a damped joint decays as 1 / (1 + h d / H_kk) per step, never
 * oscillates or grows, however large h d).
 *
 * <p><b>Reporting.</b> Every step returns its {@link ContactReport}; a solve that did not converge still yields a
 * step (from the last iterate) and is counted ({@link #unconvergedSolves()}, {@link #summary()}).
 */
public final class TimeStepper {
    private final Dynamics dynamics;
    /** The dynamics when they can share work within one step (the interpreter), else null. */
    private final StateScope scope;
    private final ContactKinematics contacts;
    private final ConstraintData bilateral;
    private final ContactSettings settings;
    private final StateSpace space;
    private final int nv;
    private final int[] floatingV;
    private final int[] limitV;
    private final double[] limitLower;
    private final double[] limitUpper;
    private final int[] limitQ;
    private final int bilateralRows;
    private final int capacity;

    private final DMatrixRMaj Hown;
    private final double[] Cown;
    /** The joints' damping, and H + h D when there is any (null otherwise). */
    private final JointDamping damping;
    private final DMatrixRMaj hDamped;
    /** H's LᵀL factor and the rows y_r = L⁻ᵀ J_rᵀ on their supports: W formed from them or read as an operator. */
    private final SparseDelassus tree;
    /** True when W is never formed ({@link Builder#sparseDelassus}): the problem reads {@link #tree}. */
    private final boolean sparseW;
    /**
     * True when each step chooses (the default for one robot): W formed when the rows are at most the dofs, read
     * through {@link #tree} with {@link #sparseSolver} when they are more (see {@link Builder#sparseDelassus}).
     */
    private final boolean eitherW;
    /** The solver of the steps that read W sparse, when {@link #eitherW}; null otherwise. */
    private final ContactSolver sparseSolver;
    private final DofBranches branches;
    /** Per floating base, the dofs r where H_rc can be non-zero for its linear columns c. */
    private final int[][] frameRows;
    private final ContactProblem problem;
    private final ContactSolver solver;
    /** Null when the problem is solved whole. */
    private final ContactIslands islands;
    private final ContactReport report = new ContactReport();
    /** The solver's name for empty reports, made once: a step without rows must not allocate it. */
    private final String solverName;
    /**
     * J of every row, row-major, for {@link StepDerivatives}: its bilateral rows copied during the step, its contact
     * and limit rows written from their supports when {@link #lastRows()} is first asked for after a step.
     */
    private final double[] rows;
    private boolean rowsWritten;
    /** The last step's q, v and h (NaN before a step or after one that failed), which StepDerivatives checks. */
    private final double[] stepQ;
    private final double[] stepV;
    private double stepH = Double.NaN;
    private final double[] lambda;
    private final double[] work;
    private final double[] vFree;
    private final double[] dv;
    /** The last step's v⁺ before {@link #carryToNewFrames}: the velocity q⁺ = q ⊕ h w was integrated with. */
    private final double[] w;
    private final double[] u;
    private final double[] phi;
    private final double[] pairImpulse; // 3 per pair: warm start and result
    private final double[] limitImpulse; // 2 per limited joint (lower, upper)
    private final double[] bilateralImpulse;
    private final int[] rowSource; // per block: pair, pairs + shape contact, -1 - 2 * limit - side, or bilateral
    private final int pairs;
    private final ImpulseMemory shapeImpulses; // warm starts of shape contacts; null without shapes
    private long droppedContacts;
    private int contactsThisStep;
    private int limitRowsThisStep;

    private long solves;
    private long unconverged;
    private long totalIterations;
    private int maxIterationsSeen;
    private double worstViolation;

    private TimeStepper(Builder b) {
        this.dynamics = b.dynamics;
        this.settings = b.settings;
        this.solverName = settings.solver().name().toLowerCase(java.util.Locale.ROOT);
        this.bilateral = b.bilateral;
        this.nv = dynamics.nv();
        this.scope = dynamics instanceof StateScope st ? st : null;
        this.space = new StateSpace(dynamics);
        sparseW = b.sparse(dynamics.dofParents());
        branches = new DofBranches(dynamics);
        this.contacts = new ContactKinematics(b.set, b.kinematics, nv, branches);
        int floating = 0;
        for (int body = 0; body < dynamics.bodyNames().size(); body++) {
            floating += dynamics.isFloating(body) ? 1 : 0;
        }
        floatingV = new int[floating];
        for (int body = 0, f = 0; body < dynamics.bodyNames().size(); body++) {
            if (dynamics.isFloating(body)) {
                floatingV[f++] = dynamics.vIndex(body);
            }
        }
        limitV = b.limits.vIndex;
        limitQ = b.limits.qIndex;
        limitLower = b.limits.lower;
        limitUpper = b.limits.upper;
        int nl = b.limits.count();
        bilateralRows = bilateral == null ? 0 : bilateral.size();
        capacity = 3 * contacts.capacity() + 2 * nl + bilateralRows;
        pairs = b.set.pairCount();
        int shapeCapacity = contacts.capacity() - pairs;
        shapeImpulses = shapeCapacity > 0 && contacts.shapeContacts() != null
                ? new ImpulseMemory(shapeCapacity, contacts.shapeContacts().placements(), b.set.groundCount()) : null;
        Hown = new DMatrixRMaj(nv, nv);
        Cown = new double[nv];
        damping = b.damping;
        hDamped = damping.isZero() ? null : new DMatrixRMaj(nv, nv);
        int entries = 3 * contacts.capacity() * contacts.stride() + (2 * nl + bilateralRows) * nv;
        tree = new SparseDelassus(dynamics.dofParents(), Math.max(1, capacity), entries);
        frameRows = new int[floating][];
        for (int f = 0; f < floating; f++) {
            frameRows[f] = relatedDofs(branches, floatingV[f] + 3, floatingV[f] + 5);
        }
        eitherW = !sparseW && b.sparseDelassus == null && !b.splitIslands;
        problem = new ContactProblem(capacity, sparseW || eitherW ? tree : null, !sparseW);
        solver = sparseW ? settings.newSparseSolver(capacity, nv, tree.entryCapacity()) : settings.newSolver(capacity);
        // PGS reads either form of W, so one instance serves both; ADMM's dense and sparse solvers hold different
        // factorisations
        sparseSolver = !eitherW ? null : settings.solver() == ContactSettings.Solver.PGS ? solver
                : settings.newSparseSolver(capacity, nv, tree.entryCapacity());
        islands = b.splitIslands ? new ContactIslands(capacity) : null;
        rows = new double[sparseW ? 1 : Math.max(1, capacity) * nv];
        lambda = new double[Math.max(1, capacity)];
        work = new double[nv];
        stepQ = new double[space.nq()];
        stepV = new double[nv];
        vFree = new double[nv];
        dv = new double[nv];
        w = new double[nv];
        u = new double[Math.max(1, capacity)];
        phi = new double[Math.max(1, bilateralRows)];
        pairImpulse = new double[3 * b.set.pairCount()];
        limitImpulse = new double[2 * nl];
        bilateralImpulse = new double[Math.max(1, bilateralRows)];
        rowSource = new int[Math.max(1, capacity)];
    }

    /**
     * A stepper for a model's dynamics and kinematics: a generated class ({@code ModelFunctions}) or
     * {@code GenericDynamics}.
     */
    public static <T extends Dynamics & Kinematics> Builder builder(T model) {
        return new Builder(model, model);
    }

    /**
     * One step: (q, v) under τ for h seconds to (qOut, vOut). qOut and vOut may alias q and v.
     *
     * @return the contact solve's report (this stepper's, overwritten by the next step)
     */
    public ContactReport step(double[] q, double[] v, double[] tau, double h, double[] qOut, double[] vOut) {
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step " + h + " must be a positive number of seconds");
        }
        // before anything is computed: a short qOut or vOut failed only at the end, deep inside the integration
        Arguments.checkLength(q, space.nq(), "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(tau, nv, "tau");
        Arguments.checkLength(qOut, space.nq(), "qOut");
        Arguments.checkLength(vOut, nv, "vOut");
        // copied before qOut and vOut, which may alias them, are written
        System.arraycopy(q, 0, stepQ, 0, stepQ.length);
        System.arraycopy(v, 0, stepV, 0, nv);
        stepH = Double.NaN;
        // The interpreter's H, C and contact kinematics at (q, v) share one kinematics pass (see StateScope).
        if (scope != null) {
            scope.enterState();
        }
        try {
            ContactReport report = stepAt(q, v, tau, h, qOut, vOut);
            stepH = h;
            return report;
        } finally {
            if (scope != null) {
                scope.exitState();
            }
        }
    }

    private ContactReport stepAt(double[] q, double[] v, double[] tau, double h, double[] qOut, double[] vOut) {
        DMatrixRMaj H;
        double[] C;
        if (bilateral != null) {
            bilateral.computeSystem(q, v);
            H = bilateral.H();
            C = bilateral.C();
        } else {
            dynamics.massMatrixOnTree(q, Hown); // Hown is zero off the tree from its construction on
            dynamics.biasForces(q, v, Cown);
            H = Hown;
            C = Cown;
        }
        DMatrixRMaj Hh = hDamped == null ? H : damped(H, h);
        tree.factor(Hh);
        rowsWritten = false;
        for (int i = 0; i < nv; i++) {
            work[i] = tau[i] - C[i];
        }
        if (hDamped != null) {
            damping.subtractFrom(v, work);
        }
        removeFrameRotation(H, v);
        tree.solve(work, dv);
        for (int i = 0; i < nv; i++) {
            vFree[i] = v[i] + h * dv[i];
        }
        problem.clear();
        contacts.update(q, v, h, settings.margin());
        int nc = contacts.count();
        contactsThisStep = nc;
        double beta = settings.penetrationRecovery();
        // contact rows
        contacts.velocity(v, u); // u⁻ for restitution
        double[] b = problem.offset();
        int blocks = 0;
        for (int k = 0; k < nc; k++) {
            int r = problem.addCoulomb(contacts.friction(k));
            double gap = contacts.gap(k);
            double offset = settings.contactOffset(gap, h);
            double e = contacts.restitution(k);
            double un = u[3 * k];
            if (e > 0 && un < -settings.restitutionThreshold() && gap + h * un <= 0) {
                offset = Math.min(offset, e * un);
            }
            b[r] = offset;
            b[r + 1] = 0;
            b[r + 2] = 0;
            addContactRows(k, r, b);
            int p = contacts.pair(k);
            if (p >= 0) {
                lambda[r] = pairImpulse[3 * p];
                lambda[r + 1] = pairImpulse[3 * p + 1];
                lambda[r + 2] = pairImpulse[3 * p + 2];
                rowSource[blocks++] = p;
            } else {
                shapeImpulses.recall(contacts, k, lambda, r);
                rowSource[blocks++] = pairs + k;
            }
        }
        droppedContacts += contacts.dropped();
        // joint-limit rows
        int limitRows = 0;
        for (int i = 0; i < limitV.length; i++) {
            int vi = limitV[i];
            double qi = q[limitQ[i]];
            double lower = qi - limitLower[i];
            if (lower + h * Math.min(0, v[vi]) <= settings.margin()) {
                int r = addLimitRow(vi, 1, lower, h);
                lambda[r] = limitImpulse[2 * i];
                rowSource[blocks++] = -1 - 2 * i;
                limitRows++;
            }
            double upper = limitUpper[i] - qi;
            if (upper - h * Math.max(0, v[vi]) <= settings.margin()) {
                int r = addLimitRow(vi, -1, upper, h);
                lambda[r] = limitImpulse[2 * i + 1];
                rowSource[blocks++] = -2 - 2 * i;
                limitRows++;
            }
        }
        limitRowsThisStep = limitRows;
        // bilateral rows
        if (bilateralRows > 0) {
            DMatrixRMaj G = bilateral.G();
            bilateral.positionError(q, phi);
            for (int i = 0; i < bilateralRows; i++) {
                int r = problem.addBilateral();
                b[r] = beta * phi[i] / h;
                tree.addDenseRow(G.data, i * nv, branches);
                b[r] += dot(G.data, i * nv, vFree);
                if (!sparseW) {
                    System.arraycopy(G.data, i * nv, rows, r * nv, nv);
                }
                lambda[r] = bilateralImpulse[i];
                rowSource[blocks++] = Integer.MIN_VALUE;
            }
        }
        int m = problem.rows();
        // Woodbury's sparse path pays when the rows outnumber the dofs (solo12 on its round feet: 48 rows on 18
        // dofs, W's 48 x 48 against σ I + Yᵀ Y's 18 x 18); with fewer rows the formed W and its small dense
        // factorisations are cheaper (the quadruped's four points: 12 rows)
        boolean readSparse = sparseW || (eitherW && m > nv);
        if (eitherW) {
            problem.readSparse(readSparse);
        }
        if (!readSparse) {
            tree.formDense(problem, problem.delassus());
        }
        ContactSolver use = readSparse && eitherW ? sparseSolver : solver;
        boolean ok = m == 0 || (islands == null ? use.solve(problem, lambda, report)
                : islands.solve(solver, problem, lambda, report));
        if (m == 0) {
            emptyReport();
        }
        tree.applyTranspose(lambda, dv);
        for (int i = 0; i < nv; i++) {
            vOut[i] = vFree[i] + dv[i];
        }
        keepImpulses();
        System.arraycopy(vOut, 0, w, 0, nv);
        space.integrate(q, vOut, h, qOut);
        carryToNewFrames(h, vOut);
        solves++;
        if (!ok) {
            unconverged++;
        }
        totalIterations += report.iterations;
        maxIterationsSeen = Math.max(maxIterationsSeen, report.iterations);
        if (!(report.violation <= worstViolation)) {
            worstViolation = report.violation;
        }
        return report;
    }

    /**
     * work += H [0; ω × v_O] on each floating base's linear rows: the step is taken with the base's linear velocity
     * held in the world (the mixed representation), so that a body moving and spinning freely keeps its world
     * velocity exactly. In base coordinates, C holds the term m ω × v_O of the rotating frame; semi-implicit Euler
     * on it would make |v_O| grow by ½ h² |ω|² per step (4 % after 1 s for a ball rolling at 20 rad/s). With
     * v = S(q) v_m, S = diag(1, Rᵀ) on the base, the equations of motion in v_m have the bias C + H Ṡ v_m =
     * C − H [0; ω × v_O].
     */
    /** H + h D into this stepper's own matrix (H itself may be a bound ConstraintData's, left as it is). */
    private DMatrixRMaj damped(DMatrixRMaj H, double h) {
        hDamped.setTo(H);
        for (int k = 0; k < nv; k++) {
            hDamped.data[k * nv + k] += h * damping.coefficient(k);
        }
        return hDamped;
    }

    private void removeFrameRotation(DMatrixRMaj H, double[] v) {
        double[] Hd = H.data;
        for (int f = 0; f < floatingV.length; f++) {
            int vi = floatingV[f];
            double wx = v[vi], wy = v[vi + 1], wz = v[vi + 2];
            double vx = v[vi + 3], vy = v[vi + 4], vz = v[vi + 5];
            double ex = wy * vz - wz * vy, ey = wz * vx - wx * vz, ez = wx * vy - wy * vx;
            int c = vi + 3;
            // only the rows on the base's branches: H is zero elsewhere in these columns
            for (int r : frameRows[f]) {
                int o = r * nv + c;
                work[r] += Hd[o] * ex + Hd[o + 1] * ey + Hd[o + 2] * ez;
            }
        }
    }

    /**
     * v⁺ was solved in the bases' frames at the start of the step; re-expresses each floating base's linear part
     * in its frame at the end, v_O ← exp(h ω̂)ᵀ v_O (the frame turned by h ω in the step; ω is unchanged by a turn
     * about itself).
     */
    private void carryToNewFrames(double h, double[] v) {
        for (int f = 0; f < floatingV.length; f++) {
            int vi = floatingV[f];
            double ax = -h * v[vi], ay = -h * v[vi + 1], az = -h * v[vi + 2];
            double angle = Math.sqrt(ax * ax + ay * ay + az * az);
            if (angle == 0) {
                continue;
            }
            double kx = ax / angle, ky = ay / angle, kz = az / angle;
            double c = StrictMath.cos(angle), s = StrictMath.sin(angle); // same bits on every processor
            double x = v[vi + 3], y = v[vi + 4], z = v[vi + 5];
            double dot = kx * x + ky * y + kz * z;
            double cx = ky * z - kz * y, cy = kz * x - kx * z, cz = kx * y - ky * x;
            // Rodrigues: x c + (k × x) s + k (k · x)(1 − c)
            v[vi + 3] = x * c + cx * s + kx * dot * (1 - c);
            v[vi + 4] = y * c + cy * s + ky * dot * (1 - c);
            v[vi + 5] = z * c + cz * s + kz * dot * (1 - c);
        }
    }

    private int addLimitRow(int vi, double sign, double gap, double h) {
        int r = problem.addUnilateral();
        problem.offset()[r] = settings.limitOffset(gap, h);
        tree.addUnitRow(branches, vi, sign);
        problem.offset()[r] += sign * vFree[vi];
        return r;
    }

    /**
     * Contact k's three rows (problem rows r, r + 1, r + 2) into the sparse W, and J v_free into their offsets:
     * the contact's rows computed on its support only ({@link ContactKinematics#supportLength}).
     */
    private void addContactRows(int k, int r, double[] b) {
        int stride = contacts.stride();
        int[] support = contacts.supportBuffer();
        double[] values = contacts.rowBuffer();
        int so = k * stride;
        int len = contacts.supportLength(k);
        tree.addRows3(support, so, len, values, 3 * k * stride, (3 * k + 1) * stride, (3 * k + 2) * stride);
        for (int d = 0; d < 3; d++) {
            int vo = (3 * k + d) * stride;
            double s = 0;
            for (int e = 0; e < len; e++) {
                s += values[vo + e] * vFree[support[so + e]];
            }
            b[r + d] += s;
        }
    }

    private static double dot(double[] a, int o, double[] x) {
        double s = 0;
        for (int j = 0; j < x.length; j++) {
            s += a[o + j] * x[j];
        }
        return s;
    }

    /** The dofs r with r related to c0 or c1 in the dof tree (one is the other or its λ-ancestor). */
    private static int[] relatedDofs(DofBranches tree, int c0, int c1) {
        int n = tree.size();
        boolean[] related = new boolean[n];
        for (int c : new int[] {c0, c1}) {
            for (int r = 0; r < n; r++) {
                for (int i = r; i >= 0 && !related[r]; i = tree.parent(i)) {
                    related[r] = i == c;
                }
                for (int i = c; i >= 0 && !related[r]; i = tree.parent(i)) {
                    related[r] = i == r;
                }
            }
        }
        int count = 0;
        for (boolean x : related) {
            count += x ? 1 : 0;
        }
        int[] out = new int[count];
        for (int r = 0, o = 0; r < n; r++) {
            if (related[r]) {
                out[o++] = r;
            }
        }
        return out;
    }

    private void emptyReport() {
        report.solver = solverName;
        report.iterations = 0;
        report.converged = true;
        report.primalFeasibility = 0;
        report.dualFeasibility = 0;
        report.complementarity = 0;
        report.violation = 0;
        report.penalty = Double.NaN;
        report.rows = 0;
        report.contacts = 0;
        report.worstBlock = -1;
        report.islands = 0;
        report.largestIslandRows = 0;
    }

    /** Keeps this step's impulses per pair, limit and bilateral row for the next warm start; zero for the rest. */
    private void keepImpulses() {
        java.util.Arrays.fill(pairImpulse, 0);
        java.util.Arrays.fill(limitImpulse, 0);
        if (shapeImpulses != null) {
            shapeImpulses.beginKeeping();
        }
        int bil = 0;
        for (int k = 0; k < problem.blockCount(); k++) {
            int r = problem.blockStart(k);
            int src = rowSource[k];
            if (src >= pairs) {
                shapeImpulses.keep(contacts, src - pairs, lambda, r);
            } else if (src >= 0) {
                pairImpulse[3 * src] = lambda[r];
                pairImpulse[3 * src + 1] = lambda[r + 1];
                pairImpulse[3 * src + 2] = lambda[r + 2];
            } else if (src == Integer.MIN_VALUE) {
                bilateralImpulse[bil++] = lambda[r];
            } else {
                limitImpulse[-1 - src] = lambda[r];
            }
        }
        if (shapeImpulses != null) {
            shapeImpulses.endKeeping();
        }
    }

    /** Shape contacts dropped so far because a step found more than the set's bound (see {@link ContactSet}). */
    public long droppedContacts() {
        return droppedContacts;
    }

    /** The contacts of the last step (which pairs, gaps, frames). */
    public ContactKinematics contacts() {
        return contacts;
    }

    /** The number of contacts of the last step. */
    public int contactCount() {
        return contactsThisStep;
    }

    /** The number of active joint-limit rows of the last step. */
    public int limitRowCount() {
        return limitRowsThisStep;
    }

    /**
     * The impulse (N·s) of the last step at contact k in its frame: component 0 normal, 1 and 2 along t1, t2 (see
     * {@link ContactKinematics}).
     */
    public double contactImpulse(int k, int component) {
        if (k < 0 || k >= contactsThisStep || component < 0 || component > 2) {
            throw new IndexOutOfBoundsException("contact " + k + " component " + component + " (contacts: "
                    + contactsThisStep + ")");
        }
        return lambda[problem.blockStart(k) + component];
    }

    /**
     * The impulse of the last step of each candidate-ground pair (3 per pair, [n; t1; t2]; zero for pairs not in
     * contact). Shape contacts have no fixed pair: read them by contact with {@link #contactImpulse}.
     */
    public double pairImpulse(int pair, int component) {
        return pairImpulse[3 * pair + component];
    }

    /** The contact problem of the last step (live: overwritten by the next step; read only). */
    public ContactProblem problem() {
        return problem;
    }

    /** The report of the last step. */
    public ContactReport report() {
        return report;
    }

    public ContactSettings settings() {
        return settings;
    }

    /** Contact solves so far (steps with at least one row, and empty ones). */
    public long solves() {
        return solves;
    }

    /** Solves that did not reach the tolerance. */
    public long unconvergedSolves() {
        return unconverged;
    }

    /** The most iterations one solve took. */
    public int maxIterations() {
        return maxIterationsSeen;
    }

    /** Iterations over solves. */
    public double meanIterations() {
        return solves == 0 ? 0 : (double) totalIterations / solves;
    }

    /** The largest contact-law violation after a solve (m/s). */
    public double worstViolation() {
        return worstViolation;
    }

    /** One line for logs: solves, unconverged ones, iterations, worst violation. */
    public String summary() {
        return solves + " contact solves (" + settings.solver() + "), " + unconverged + " not converged, mean "
                + String.format(java.util.Locale.ROOT, "%.2f", meanIterations()) + " / max " + maxIterationsSeen
                + " iterations, worst contact-law violation " + worstViolation + " m/s"
                + (droppedContacts == 0 ? "" : ", " + droppedContacts + " shape contacts dropped beyond the bound of "
                        + (contacts.capacity() - pairs) + " per step (ContactSet maxShapeContacts)");
    }

    // ---------------------------------------------------------------- the last step, for StepDerivatives

    ContactProblem lastProblem() {
        return problem;
    }

    /** The last step's h; NaN before the first step and after a step that threw. */
    double lastStepSize() {
        return stepH;
    }

    /** True if (q, v) is, bit for bit, the state the last step started from. */
    boolean lastStepStartedAt(double[] q, double[] v) {
        return java.util.Arrays.equals(q, stepQ) && java.util.Arrays.equals(v, stepV);
    }

    /**
     * The last step's rows J (row-major, nv columns; problem.rows() of them). The contact and limit rows are written
     * here, from the supports the step kept, the first time they are asked for after a step: a step whose
     * derivatives nobody takes does not fill m x nv entries.
     */
    double[] lastRows() {
        if (sparseW) {
            throw new IllegalStateException("this stepper keeps W sparse (TimeStepper.Builder.sparseDelassus):"
                    + " its rows are not kept dense; build it with sparseDelassus(false) for step derivatives");
        }
        if (!rowsWritten) {
            writeDenseRows();
            rowsWritten = true;
        }
        return rows;
    }

    /** The dense contact and limit rows of the last step (its bilateral rows were copied during it). */
    private void writeDenseRows() {
        int stride = contacts.stride();
        int[] support = contacts.supportBuffer();
        double[] values = contacts.rowBuffer();
        for (int k = 0; k < problem.blockCount(); k++) {
            int src = rowSource[k];
            if (src == Integer.MIN_VALUE) {
                continue;
            }
            int r = problem.blockStart(k);
            if (src >= 0) { // contact k: the step's first blocks are its contacts, in order
                int so = k * stride;
                int len = contacts.supportLength(k);
                for (int d = 0; d < 3; d++) {
                    int o = (r + d) * nv;
                    java.util.Arrays.fill(rows, o, o + nv, 0);
                    for (int e = 0; e < len; e++) {
                        rows[o + support[so + e]] = values[(3 * k + d) * stride + e];
                    }
                }
            } else { // a limit: src = −1 − (2 limit + side), side 1 for the upper bound, whose row is −e_v
                int code = -1 - src;
                int o = r * nv;
                java.util.Arrays.fill(rows, o, o + nv, 0);
                rows[o + limitV[code >> 1]] = (code & 1) == 0 ? 1 : -1;
            }
        }
    }

    /** The factor of the last step's H + h D (its inverse serves {@link StepDerivatives}). */
    SparseDelassus lastFactor() {
        return tree;
    }

    /**
     * The last step's H(q), the stepper's own when it has no bilateral rows (null otherwise: a bound ConstraintData's
     * H may be recomputed by its row derivatives).
     */
    DMatrixRMaj lastMassMatrix() {
        return bilateral == null ? Hown : null;
    }

    /** True when this stepper keeps W sparse ({@link Builder#sparseDelassus}). */
    public boolean sparseDelassus() {
        return sparseW;
    }

    /** The last step's impulses, one per row. */
    double[] lastImpulses() {
        return lambda;
    }

    /**
     * The last step's contact velocities [u_n, u_t1, u_t2] per contact ({@link #contactCount()} × 3 entries of
     * {@code u}): J(q) w, the velocities its contact law holds (a sticking contact's tangential ones 0 to the solve's
     * tolerance, a sliding one's opposite its friction impulse), w the step's v⁺ before the floating bases' linear
     * parts are carried to their new frames. J(q) v⁺ of the returned v⁺ is not that: v⁺ of a floating base is in the
     * frame at q⁺ (a rolling ball read a slip of 6.9e-4 m/s that way after 1 s).
     */
    public void contactVelocities(double[] u) {
        contacts.velocity(w, u);
    }

    /** The last step's v⁺ before the bases' linear parts were carried to their new frames. */
    double[] lastIntegratedVelocity() {
        return w;
    }

    /** Block k's source: a pair, pairs + a shape contact, −1 − 2 limit − side, or Integer.MIN_VALUE (bilateral). */
    int rowSource(int block) {
        return rowSource[block];
    }

    int limitQ(int limit) {
        return limitQ[limit];
    }

    int limitV(int limit) {
        return limitV[limit];
    }

    double limitBound(int limit, boolean upper) {
        return upper ? limitUpper[limit] : limitLower[limit];
    }

    ConstraintData bilateral() {
        return bilateral;
    }

    JointDamping damping() {
        return damping;
    }

    Dynamics dynamics() {
        return dynamics;
    }

    /** Forgets warm starts and statistics (after the state was set elsewhere). */
    public void reset() {
        java.util.Arrays.fill(pairImpulse, 0);
        if (shapeImpulses != null) {
            shapeImpulses.clear();
        }
        droppedContacts = 0;
        java.util.Arrays.fill(limitImpulse, 0);
        java.util.Arrays.fill(bilateralImpulse, 0);
        solves = 0;
        unconverged = 0;
        totalIterations = 0;
        maxIterationsSeen = 0;
        worstViolation = 0;
    }

    /** Configures a {@link TimeStepper}. */
    public static final class Builder {
        private final Dynamics dynamics;
        private final Kinematics kinematics;
        private ContactSet set;
        private ContactSettings settings = ContactSettings.defaults();
        private ConstraintData bilateral;
        private JointLimits limits = JointLimits.NONE;
        private JointDamping damping = JointDamping.NONE;
        private boolean splitIslands;
        /** null: chosen by {@link #sparse(int[])}'s rule. */
        private Boolean sparseDelassus;

        private Builder(Dynamics dynamics, Kinematics kinematics) {
            this.dynamics = Objects.requireNonNull(dynamics, "model");
            this.kinematics = kinematics;
        }

        /** The grounds, candidates and collision shapes (default: none). */
        public Builder contacts(ContactSet contacts) {
            this.set = Objects.requireNonNull(contacts, "contacts");
            return this;
        }

        public Builder settings(ContactSettings s) {
            this.settings = Objects.requireNonNull(s, "settings");
            return this;
        }

        /**
         * When true, each step's problem is solved island by island ({@link ContactIslands}); default false: solved
         * whole. Exact where the solves converge; where they do not, the last iterates differ, and on 30 boxes in
         * a bin the split run left more solves unconverged (1,115 of 1,500 against 851) and the pile still moving
         * at the end (1.5e-2 m/s against 3e-11 m/s).
         */
        public Builder islands(boolean split) {
            this.splitIslands = split;
            return this;
        }

        /**
         * Whether the contact problem keeps W = J H⁻¹ Jᵀ sparse ({@link SparseDelassus}: rows y_r = L⁻ᵀ J_rᵀ on
         * their bodies' branches) instead of forming the m x m matrix from the same rows
         * ({@link SparseDelassus#formDense}). PGS then sweeps through the accumulator Σ λ y; ADMM takes its λ steps
         * through the sparse Cholesky of σ I + Yᵀ Y (nv x nv, {@link SparseNormalMatrix}) instead of factorising
         * W + ρ I. The cost of a solve then grows with the contacts times their supports and the iterations, not
         * with the m² entries of W or the m³ of its factorisation: what a pile of free bodies needs (H is
         * block-diagonal, each contact couples two bodies). Not with {@link #islands} (they split a dense W); a
         * stepper asked to be sparse serves no {@link StepDerivatives} (they read W and the dense rows).
         *
         * <p>Default: sparse when islands are off and the model has at least {@value #SPARSE_FROM_NV} dofs in at
         * least two trees (several bodies that move independently, as in a pile; each root of the dof tree starts
         * one), for either solver. A single robot (or islands on) is not sparse by default, and then, unless
         * {@code sparseDelassus(false)} was asked for, each step chooses: W formed when its rows are at most the dofs
         * (a humanoid's eight foot points, 24 rows on 71 dofs; the quadruped's four, 12 on 18: W's m x m and its
         * small dense factorisations are cheap), read sparse when they are more (solo12 on its round hull feet, four
         * points each: 48 rows on 18 dofs, where ADMM's λ steps through the 18 x 18 σ I + Yᵀ Y cost less than W's
         * formation and factorisations). {@link StepDerivatives} reads only W's diagonal, which either form gives.
         * Islands always form W. Measured ({@code PileStepBenchmark} and {@code ShapeContactStepBenchmark},
         * benchmarks' README): PGS on a pile of 10 free boxes (60 dofs, 46 contacts) steps in 40 µs sparse against
         * 73 µs with W formed, 30 boxes in 1.6 ms against 12.9 ms; ADMM (on a loaded machine, so ratios only) 10
         * boxes 0.25 ms against 0.65 ms, 30 boxes 2.3 ms against 37 ms, 100 boxes 13 ms sparse (with W formed its
         * m x m buffers for the stepper's 2,600 rows would not fit a default heap); solo12 on its hulls 15.8 µs read
         * sparse against 19.3 µs formed (loaded, one run). The two paths solve the same problem; their results
         * differ by rounding.
         *
         * @throws IllegalArgumentException from {@link #build()} when sparse is asked for with islands
         */
        public Builder sparseDelassus(boolean sparse) {
            this.sparseDelassus = sparse;
            return this;
        }

        /** See {@link #sparseDelassus}. */
        public static final int SPARSE_FROM_NV = 60;

        boolean sparse(int[] dofParents) {
            if (sparseDelassus != null) {
                return sparseDelassus;
            }
            int trees = 0;
            for (int parent : dofParents) {
                if (parent < 0) {
                    trees++;
                }
            }
            return !splitIslands && dofParents.length >= SPARSE_FROM_NV && trees >= 2;
        }

        /**
         * Bilateral constraints (loops, bilateral contacts, couplers) as equality rows of the same problem; the
         * data must be bound to this stepper's model (same sizes and hash). H and C then come from its fused
         * evaluation.
         */
        public Builder constraints(ConstraintData data) {
            Objects.requireNonNull(data, "data");
            data.checkModelOf(dynamics, "stepper's dynamics");
            this.bilateral = data;
            return this;
        }

        /**
         * The position limits of the model's single-dof joints (URDF {@code <limit lower upper>}; a bound given alone
         * counts too) as unilateral rows. The model must be the one of this stepper's dynamics.
         */
        public Builder jointLimits(Model model) {
            if (!model.contentHash().equals(dynamics.modelHash())) {
                throw new IllegalArgumentException("model " + model.name() + " is not the model of "
                        + dynamics.modelName() + " (content hashes differ)");
            }
            limits = JointLimits.of(model);
            return this;
        }

        /**
         * The joints' viscous damping, a passive force −D v treated implicitly (see the class comment); default none.
         * {@code JointDamping.of(model)} gives a model's.
         *
         * @throws IllegalArgumentException if it is for another number of dofs
         */
        public Builder jointDamping(JointDamping d) {
            this.damping = Objects.requireNonNull(d, "damping").checkSize(dynamics.nv());
            return this;
        }

        public TimeStepper build() {
            if (set == null) {
                set = ContactSet.builder(dynamics).build();
            }
            if (!set.modelName().equals(dynamics.modelName())) {
                throw new IllegalArgumentException("the contact set is for model " + set.modelName() + ", not "
                        + dynamics.modelName());
            }
            for (var c : set.candidates()) {
                if (c.body() >= dynamics.bodyNames().size()) {
                    throw new IllegalArgumentException("contact candidate '" + c.name() + "' is on body " + c.body()
                            + ", beyond the " + dynamics.bodyNames().size() + " bodies of " + dynamics.modelName());
                }
            }
            if (Boolean.TRUE.equals(sparseDelassus) && splitIslands) {
                throw new IllegalArgumentException("islands split a dense W; with sparseDelassus(true) the"
                        + " solve already costs what the contacts touch: leave islands off");
            }
            return new TimeStepper(this);
        }
    }
}
