package org.symdyn.contact;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.ParameterFollower;
import org.symdyn.dynamics.PointMotion;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.solvers.SmallSpd;

/**
 * Derivatives of one {@link TimeStepper} step with contact: ∂(q⁺, v⁺)/∂(q, v, τ) at the step just taken, by implicit
 * differentiation of the solved contact problem at its solution (what an MPC or a trajectory optimiser needs of a
 * step; Le Lidec et al., "Simple", 2024, differentiate an exact-Coulomb step the same way).
 *
 * <p><b>The equations differentiated.</b> The step ({@link TimeStepper}'s Javadoc) solves, for w = v⁺ before the
 * floating bases' linear parts are carried to their new frames, and the impulses λ,
 * <pre>
 *   F(w, λ; q, v, τ) = h ID(q, v, a) + h D w − h τ − J(q)ᵀ λ = 0,   a = (w − v)/h − e(v)
 * </pre>
 * (ID the inverse dynamics, D the joints' damping, e(v) = [0; ω × v_O] on each floating base's linear rows: the
 * mixed representation the step integrates in), with each contact in the mode its solution shows:
 * <ul>
 * <li><b>sticking</b> (λ_n &gt; 0 inside the cone): J_c w + c(q, v) = 0 on its three rows (c = [ω_n; 0; 0], the
 *     position-aware offset of the normal row: φ/h, β φ/h, or e u_n⁻ at an impact with restitution);</li>
 * <li><b>sliding</b> (on the cone's boundary with a tangential velocity σ_t = J_t w ≠ 0): the normal row as above and
 *     λ_t + μ λ_n σ_t / ‖σ_t‖ = 0;</li>
 * <li><b>separated</b> (λ = 0 and the contact opening): λ = 0.</li>
 * <li>A <b>frictionless</b> contact (μ = 0) has λ_t = 0 whatever its tangential velocity: it is sliding, its normal
 *     row held and its tangential rows left out (dλ_t = 0).</li>
 * </ul>
 * Joint-limit rows are held (±w_k + ω_k = 0) or free (λ = 0) likewise. Differentiating at the solution gives one
 * linear system of nv + m unknowns (dw, dλ) for the 3 nv right-hand sides of dq, dv and dτ (solved by its Schur
 * complement on H + h D, the separated and free rows, whose dλ = 0, left out):
 * <pre>
 *   [ H + hD    −Jᵀ ] [dw]       [ h ∂ID/∂q − ∂(Jᵀλ)/∂q    h ∂ID/∂v − H (I + h ∂e/∂v)    −h I ]
 *   [   A        Λ  ] [dλ]  = −  [      ∂(mode rows)/∂q           ∂(mode rows)/∂v            0  ]
 * </pre>
 * with ∂ID/∂q, ∂ID/∂v from the backend's {@link DynamicsDerivatives} (a generated class's own, or the
 * interpreter's) and the contact rows' kinematic terms ∂(J w)/∂q and ∂(Jᵀλ)/∂q analytically from
 * {@link MotionDerivatives} on the model (the same as {@code ConstrainedDynamicsDerivatives} uses for rows a
 * generated class does not differentiate itself). Held rows carry a regularisation 10⁻¹² W_rr on their diagonal, so
 * that redundant contacts (a box on four coplanar corners) give the unique dw and the least-norm dλ while they stick
 * or slide one way; a held row zero to rounding (W_rr at most 10⁻²⁰ of the largest: a planar loop's row out of its
 * plane) constrains nothing and is left out, and {@link #dependentRows()} says so; sliding in different directions
 * (the box spinning as it slides) the step itself may not be unique, and {@link #mayNotBeUnique()} says so (see
 * there). Then
 * q⁺ = q ⊕ h w and v⁺ = carry(w) are differentiated exactly: for a floating base with E = exp(h [ω]×),
 * δθ⁺ = Eᵀ δθ + h J_r(h ω) dω, δp⁺ = Eᵀ (δp − h [w_O]× δθ + h dw_O), dv_O⁺ = Eᵀ dw_O + h Eᵀ [w_O]× J_r(−h ω) dω
 * (J_r the right Jacobian of SO(3)).
 *
 * <p><b>Conventions.</b> Derivatives along q are taken in the contract's tangent space
 * ({@link DynamicsDerivatives}: a rotation vector in child coordinates, a floating base's linear part in base
 * coordinates), and ∂q⁺ is expressed in the same tangent space at q⁺. Matrices are nv x nv.
 *
 * <p><b>Modes and their boundaries.</b> A contact exactly at a mode boundary has one-sided derivatives; the choice
 * here: λ_n = 0 is separated (the solvers project an open contact's impulse to exactly 0; a contact touching with
 * λ_n &gt; 0 is held), a contact on its cone's boundary with ‖σ_t‖ ≤ 10⁻¹² m/s is sticking. So at a boundary the
 * derivative is that of the mode on the side the classification names, and it is the limit from that side. The
 * normal row's offset has kinks of its own in φ ({@link ContactSettings#contactOffsetSlope}): a held contact at
 * φ = 0, where a body at rest sits to rounding, takes the mean of the two sides' slopes (∂ω/∂φ = (1 + β) / 2h:
 * lifted by dφ it closes the gap within the step, 1/h; pressed, it is recovered at β/h), while a joint on its limit
 * takes the side within the range, 1/h ({@link ContactSettings#limitOffsetSlope}: one coordinate moves it, so that
 * side is the one-sided limit of every direction into the range). The contacts' mean is what central differences
 * of the step give there in
 * every direction (a box resting on another at h = 1 ms and β = 0.2: ∂v_z⁺/∂z = −600, between the one-sided −1000
 * upward and −200 downward). No one-sided choice would do for a body resting on several contacts: a tilt lifts some
 * and presses others, so that its one-sided differences take the gap's slope on some contacts and the
 * penetration's on the others (a settled solo12's ∂ω_x⁺/∂roll: 37.4 both ways, 62.3 with every contact on the gap's
 * side).
 *
 * <p><b>What is exact and what is not.</b> Exact for contact points and spheres against grounds and for joint limits,
 * and for spheres, capsules and a cylinder's side (shapes) against planes and flat faces: a rounded side's contact
 * point is its centre (the sphere's, the capsule segment's or the cylinder axis's point; a cylinder's side where the
 * normal is perpendicular to its axis, as a wheel rolling upright touches), a material point, less its radius along
 * the normal
 * ({@link ContactKinematics#radius}, {@link ContactKinematics#otherRadius}), so a rolling ball's derivatives hold.
 * Where the flat side moves (a ball on a paddle, a box on a fixed ball), its point of contact is not its material
 * point: it follows the rounded side's centre along the face, and the contact frame and the rounded side's offset
 * turn with the face; those terms are included ({@link TurningContact}), and likewise for a corner of a box or hull
 * over another shape's face ({@link ContactKinematics#face}: the corner is the material point), and for two spheres
 * or capsules, whose normal turns with their centres (a capsule's centre sliding along its segment), and a ball on a
 * box's edge or corner (a centre of radius 0, sliding along the edge). Otherwise (parallel capsules, edge on edge,
 * the points a face's clipping puts on the other's edges, a cylinder's rim where it touches at a slant: a cambered
 * wheel, hyq's shins) the witness points are taken as material points of their bodies and the contact frame as
 * fixed (the turning of the normal is left out, as in the acceleration-level problem of
 * {@link AccelerationProblemData}). Bilateral rows (loops, couplers, bilateral
 * contacts of a bound {@link org.symdyn.constraints.ConstraintData}) are held: G dw + ε dλ = −(∂(G w)/∂q + (β/h) G) dq
 * (without the β term on rows whose φ is 0 by definition: a contact's),
 * with ∂(G w)/∂q and ∂(Gᵀλ)/∂q from the data's row derivatives (the rows' acceleration derivative at v = 0,
 * v̇ = w; a generated class's own rows or the runtime's), and ∂φ/∂q taken as G (exact at φ = 0); the data's own
 * Baumgarte stabilisation, which the stepper does not use, must be off. The derivative is of the solved step: a contact solve that did
 * not converge gives the derivative at its last iterate.
 *
 * <p>Allocates its workspaces in the constructor; {@link #compute} does not allocate. Not thread-safe.
 */
public final class StepDerivatives {
    /** Mode of a contact or limit row block. */
    public static final int SEPARATED = 0;
    /** Mode of a contact or limit row block. */
    public static final int STICKING = 1;
    /** Mode of a contact block. */
    public static final int SLIDING = 2;

    private static final double SLIP_FLOOR = 1e-12;
    private static final double REGULARISATION = 1e-12;
    /**
     * A held row whose W_rr is at most this fraction of the largest W_ss (its ‖J_r‖ in H⁻¹'s metric at most 10⁻¹⁰ of
     * the largest row's) is rounding, not a constraint: the out-of-plane row of a loop closed in a plane turned off
     * the axes (G_r ~ 1e-19), whose regularisation (10⁻¹² W_rr) let its noise lock the mechanism.
     */
    private static final double ROUNDING_ROW = 1e-20;
    /** A pivot of the rows' system below this fraction of its scale: the rows are dependent to rounding. */
    private static final double DEPENDENT_PIVOT = 1e-9;

    private final TimeStepper stepper;
    /** The stepper's bilateral rows, or null. */
    private final org.symdyn.constraints.ConstraintData bilateral;
    private final DMatrixRMaj bilateralForceDq;
    private final DMatrixRMaj bilateralRowsDq;
    /** Per bilateral row: its offset β φ / h depends on q (∂φ/∂q = G), or φ is 0 by definition (a contact's rows). */
    private final boolean[] holonomicBilateral;
    private final DMatrixRMaj bilateralRowsDv;
    private final double[] bilateralLambda;
    private final DynamicsDerivatives dynamics;
    /** The motion derivatives of the step's compute: {@link #motions}' current ones. */
    private MotionDerivatives motion;
    /** The motion derivatives on the given model with the dynamics' parameter values. */
    private final ParameterFollower<MotionDerivatives> motions;
    private final PointMotion pointB;
    private final PointMotion pointA;
    private final int nv;
    private final int nq;
    /** The number of row blocks of the last {@link #compute}, whose modes {@link #mode} gives. */
    private int blocks;
    private final int capacity;
    private final int[] floatingV;
    private final int[] ballV;
    private final DMatrixRMaj H;
    private final DMatrixRMaj dIdDq;
    private final DMatrixRMaj dIdDv;
    private final DMatrixRMaj dForceDq;
    private final double[] rowsDq; // ∂(J w)/∂q, m x nv
    private final double[] offsetDq; // ∂c_n/∂q of each contact's normal row, per row (m x nv)
    private final double[] offsetDv;
    /** dw along q | v | τ, nv x 3nv. */
    private final double[] rhs;
    /** The w rows' right-hand sides along q | v (nv x 2nv). */
    private final double[] r1;
    /**
     * The rows in the system (held, sliding): their J, A, Λ (row stride capacity); their count. zy: per row F | r2
     * along q | r2 along v (row stride zw = 3 nv), then in place S⁻¹ of those.
     */
    private final double[] jRows;
    private final double[] aRows;
    private final boolean[] heldA;
    /** Per row in the system: its row in the step's problem. */
    private final int[] sourceRow;
    private final double[] lam;
    private final double[] zy;
    private final int zw;
    private int systemRows;
    /**
     * The Schur complement's factors and products ({@link #solve}): the workspace of the inverse of the step's factor
     * H + h D = Lᵀ L (U = L⁻¹ where it is formed), and M⁻¹.
     */
    private final double[] uInv;
    private final double[] mInv;
    /** S's Cholesky factor (lower, p x p, row stride p) when every row in the system is held. */
    private final double[] sChol;
    private final double[] gT;
    /** Tᵀ (nv x nv). */
    private final double[] tT;
    private final double[] s;
    private final int[] pivots;
    /** The smallest pivot of the last solve over its scale (1 without rows). */
    private double smallestPivotRatio = 1;
    /** The last compute's floor of W_rr under which a held row is rounding, and how many such rows it left out. */
    private double roundingFloor;
    private int roundingRows;
    /** Per row in the system: the columns where its A is nonzero, and how many. */
    private final int[] nonzeros;
    private final int[] nonzeroCount;
    private final double[] acc;
    private final int[] modes;
    /** Per block of the last compute: a contact with friction (μ λ_n &gt; 0). */
    private final boolean[] rubs;
    /** Per contact of the last {@link #compute}: whether its normal offset is the restitution's e u_n⁻. */
    private final boolean[] restituting;
    private final double[] a;
    private final double[] zero;
    private final double[] point = new double[3];
    private final double[] wrench = new double[6];
    /**
     * The terms of a contact whose frame turns or whose point slides ({@link TurningContact}) for
     * {@link #contactRowMotion}'s contact, its kind, J_rel and u_rel of its points (3 x nv and 3), and the
     * impulses' extra ∂(Jᵀλ)/∂q of all such contacts, added to ∂(Jᵀλ)/∂q after the wrenches'.
     */
    private final TurningContact turning;
    private int turningKind;
    private final double[] relative;
    private final double[] relativeVelocity = new double[3];
    private final double[] axisA = new double[3];
    private final double[] axisB = new double[3];
    private final DMatrixRMaj turningForceDq;
    private boolean turningForces;
    /** Per ball joint, then per floating joint: E = exp(h [ω]×), J_r(h ω), and (floating) J_r(−h ω), 9 each. */
    private final double[] e3;
    private final double[] jr;
    private final double[] jrNeg;
    private final double[] tmp = new double[3];
    private final double[] dOmega = new double[9];
    private final double[] dVo = new double[9];
    private final DMatrixRMaj dqDq;
    private final DMatrixRMaj dqDv;
    private final DMatrixRMaj dqDtau;
    private final DMatrixRMaj dvDq;
    private final DMatrixRMaj dvDv;
    private final DMatrixRMaj dvDtau;

    /**
     * Workspaces for the steps of {@code stepper}, whose dynamics must implement {@link DynamicsDerivatives} (a class
     * generated with derivatives, or {@code GenericDynamics}), on {@code model} (the model of those dynamics: its
     * kinematic derivatives serve the contact rows).
     *
     * @throws IllegalArgumentException      if the dynamics have no derivatives, the model is not theirs (its content
     *                                       hash differs), the stepper keeps W sparse (its rows are not kept dense), or
     *                                       its bilateral rows' data has Baumgarte stabilisation on
     * @throws UnsupportedOperationException for a model with a planar joint, or bilateral rows without derivatives
     *                                       (line-on-line and custom rows)
     */
    public StepDerivatives(TimeStepper stepper, Model model) {
        this.stepper = Objects.requireNonNull(stepper, "stepper");
        Objects.requireNonNull(model, "model");
        if (stepper.sparseDelassus()) {
            // said here rather than at the first derivative: a scene of several free bodies is sparse by default
            throw new IllegalArgumentException("step derivatives read the step's dense rows, and this stepper keeps W"
                    + " sparse (the default from " + TimeStepper.Builder.SPARSE_FROM_NV + " dofs in several trees): build"
                    + " it with TimeStepper.Builder.sparseDelassus(false)");
        }
        if (!(stepper.dynamics() instanceof DynamicsDerivatives dd)) {
            throw new IllegalArgumentException("step derivatives need the inverse dynamics derivatives of the"
                    + " stepper's dynamics (" + stepper.dynamics().getClass().getName() + " does not implement"
                    + " DynamicsDerivatives): generate the class with derivatives (symdyn generate --derivatives) or"
                    + " step GenericDynamics");
        }
        this.bilateral = stepper.bilateral();
        if (bilateral != null) {
            bilateral.checkRowDerivatives();
            checkNoBaumgarte();
        }
        this.dynamics = dd;
        this.nv = dd.nv();
        this.nq = dd.nq();
        if (model.nv() != nv || model.nq() != nq) {
            throw new IllegalArgumentException("model " + model.name() + " (nv = " + model.nv() + ") is not the model"
                    + " of the stepper's dynamics (nv = " + nv + ")");
        }
        // same sizes are not the same model: another model's kinematics would give wrong row derivatives silently
        if (dd.modelHash() != null && !model.contentHash().equals(dd.modelHash())) {
            throw new IllegalArgumentException("model " + model.name() + " is not the model of the stepper's dynamics "
                    + dd.modelName() + " (content hash " + model.contentHash() + ", the dynamics' " + dd.modelHash()
                    + ")");
        }
        int floating = 0;
        int balls = 0;
        for (int b = 0; b < model.bodyCount(); b++) {
            JointType t = model.body(b).joint().type();
            if (t == JointType.PLANAR) {
                throw new UnsupportedOperationException("step derivatives of a model with a planar joint ("
                        + model.body(b).joint().name() + ") are not implemented");
            }
            floating += t == JointType.FLOATING ? 1 : 0;
            balls += t == JointType.BALL ? 1 : 0;
        }
        floatingV = new int[floating];
        ballV = new int[balls];
        e3 = new double[9 * (balls + floating)];
        jr = new double[9 * (balls + floating)];
        jrNeg = new double[9 * floating];
        for (int b = 0, f = 0, c = 0; b < model.bodyCount(); b++) {
            JointType t = model.body(b).joint().type();
            if (t == JointType.FLOATING) {
                floatingV[f++] = model.body(b).joint().vIndex();
            } else if (t == JointType.BALL) {
                ballV[c++] = model.body(b).joint().vIndex();
            }
        }
        this.motions = new ParameterFollower<>(model, stepper.dynamics(), MotionDerivatives::new);
        this.motion = motions.current();
        this.pointB = new PointMotion(nv);
        this.pointA = new PointMotion(nv);
        this.capacity = stepper.lastProblem().capacity();
        H = new DMatrixRMaj(nv, nv);
        dIdDq = new DMatrixRMaj(nv, nv);
        dIdDv = new DMatrixRMaj(nv, nv);
        dForceDq = new DMatrixRMaj(nv, nv);
        turning = new TurningContact(nv);
        relative = new double[3 * nv];
        turningForceDq = new DMatrixRMaj(nv, nv);
        rowsDq = new double[Math.max(1, capacity) * nv];
        offsetDq = new double[Math.max(1, capacity) * nv];
        offsetDv = new double[Math.max(1, capacity) * nv];
        int rows = Math.max(1, capacity);
        rhs = new double[nv * 3 * nv];
        r1 = new double[nv * 2 * nv];
        jRows = new double[rows * nv];
        aRows = new double[rows * nv];
        heldA = new boolean[rows];
        sourceRow = new int[rows];
        lam = new double[rows * rows];
        zw = 3 * nv;
        zy = new double[rows * zw];
        uInv = new double[nv * nv];
        mInv = new double[nv * nv];
        sChol = new double[rows * rows];
        gT = new double[rows * nv];
        tT = new double[nv * nv];
        s = new double[rows * rows];
        pivots = new int[rows];
        nonzeros = new int[rows * nv];
        nonzeroCount = new int[rows];
        acc = new double[3 * nv];
        modes = new int[Math.max(1, capacity)];
        rubs = new boolean[Math.max(1, capacity)];
        restituting = new boolean[Math.max(1, capacity)];
        a = new double[nv];
        zero = new double[nv];
        int nb = bilateral == null ? 0 : bilateral.size();
        bilateralForceDq = new DMatrixRMaj(nv, nv);
        bilateralRowsDq = new DMatrixRMaj(Math.max(1, nb), nv);
        bilateralRowsDv = new DMatrixRMaj(Math.max(1, nb), nv);
        bilateralLambda = new double[Math.max(1, nb)];
        holonomicBilateral = new boolean[Math.max(1, nb)];
        if (bilateral != null) {
            for (org.symdyn.constraints.ConstraintGroup g : bilateral.set().groups()) {
                for (int k = 0; k < g.size(); k++) {
                    holonomicBilateral[g.rowOffset() + k] = g.holonomic(k);
                }
            }
        }
        dqDq = new DMatrixRMaj(nv, nv);
        dqDv = new DMatrixRMaj(nv, nv);
        dqDtau = new DMatrixRMaj(nv, nv);
        dvDq = new DMatrixRMaj(nv, nv);
        dvDv = new DMatrixRMaj(nv, nv);
        dvDtau = new DMatrixRMaj(nv, nv);
    }

    /**
     * The derivatives of the step the stepper just took from (q, v) under τ with step h (the same arguments, not
     * changed since: a step taken in place, with qOut and vOut the arrays q and v, leaves the new state there, so keep
     * a copy of the old one; τ is checked for its length only, since the derivatives read the step's solution, not
     * τ). Fills the six matrices below.
     *
     * @throws IllegalArgumentException if an array has the wrong length, or q, v or h are not those of the
     *                                  stepper's last step, or the bilateral rows' data has Baumgarte stabilisation
     *                                  on
     * @throws IllegalStateException    if the stepper has not taken a step (or its last one threw), or the linear
     *                                  system of the step's modes is singular
     */
    public void compute(double[] q, double[] v, double[] tau, double h) {
        blocks = 0; // mode() answers nothing of a compute that was refused or threw
        Arguments.checkLength(q, nq, "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(tau, nv, "tau");
        double lastH = stepper.lastStepSize();
        if (Double.isNaN(lastH)) {
            throw new IllegalStateException("the stepper has taken no step to differentiate (or its last step threw)");
        }
        if (h != lastH) {
            throw new IllegalArgumentException("h = " + h + " is not the last step's h = " + lastH);
        }
        if (!stepper.lastStepStartedAt(q, v)) {
            throw new IllegalArgumentException("q and v are not the state the last step started from: pass the"
                    + " step's own q and v, unchanged (a step taken in place overwrites them: keep a copy)");
        }
        motion = motions.current(); // a joint origin set as a parameter moves the contact points
        if (bilateral != null) {
            checkNoBaumgarte();
        }
        ContactProblem problem = stepper.lastProblem();
        ContactKinematics contacts = stepper.contacts();
        vBefore = v;
        int m = problem.rows();
        double[] J = stepper.lastRows();
        double[] lambda = stepper.lastImpulses();
        double[] w = stepper.lastIntegratedVelocity();
        double beta = stepper.settings().penetrationRecovery();
        // a = (w − v)/h − e(v)
        for (int i = 0; i < nv; i++) {
            a[i] = (w[i] - v[i]) / h;
        }
        for (int vi : floatingV) {
            double wx = v[vi], wy = v[vi + 1], wz = v[vi + 2];
            double vx = v[vi + 3], vy = v[vi + 4], vz = v[vi + 5];
            a[vi + 3] -= wy * vz - wz * vy;
            a[vi + 4] -= wz * vx - wx * vz;
            a[vi + 5] -= wx * vy - wy * vx;
        }
        dynamics.inverseDynamicsDerivatives(q, v, a, dIdDq, dIdDv);
        // H(q): the step's own when it has one (the same q), else computed here
        DMatrixRMaj stepH = stepper.lastMassMatrix();
        if (stepH != null) {
            System.arraycopy(stepH.data, 0, H.data, 0, nv * nv);
        } else {
            dynamics.massMatrix(q, H);
        }

        // restitution offsets differentiate u_n⁻ = J_n(q) v at v: their point motions first (update forgets wrenches)
        int nc = stepper.contactCount();
        Arrays.fill(offsetDq, 0, m * nv, 0);
        Arrays.fill(offsetDv, 0, m * nv, 0);
        boolean restitution = false;
        for (int c = 0; c < nc; c++) {
            restituting[c] = restitutionActive(contacts, c, h);
            restitution |= restituting[c];
        }
        if (restitution) {
            motion.updateVelocities(q, v);
            for (int c = 0; c < nc; c++) {
                if (restituting[c]) {
                    int r = problem.blockStart(c);
                    double e = contacts.restitution(c);
                    contactRowMotion(contacts, c, 1, offsetDq, r * nv, v);
                    for (int j = 0; j < nv; j++) {
                        offsetDq[r * nv + j] *= e;
                        offsetDv[r * nv + j] = e * J[r * nv + j];
                    }
                }
            }
        }
        int nb = bilateral == null ? 0 : bilateral.size();
        if (nb > 0) {
            // the rows' acceleration a(q, v, v̇) = G v̇ − γ₀ at v = 0, v̇ = w is G(q) w (γ₀ = −Ġ v vanishes with v):
            // its ∂a/∂q is ∂(G w)/∂q; and ∂(Gᵀ λ)/∂q of the rows' impulses (the last nb rows of the step)
            System.arraycopy(lambda, m - nb, bilateralLambda, 0, nb);
            if (bilateral.needsMotionDerivatives()) {
                motion.update(q, zero, w);
            }
            bilateral.rowDerivatives(q, zero, w, bilateralLambda, motion, bilateralForceDq, bilateralRowsDq,
                    bilateralRowsDv);
        }
        // velocities only: the rows' ∂(J w)/∂q, the gaps' ∂φ/∂q and ∂(Jᵀλ)/∂q read no accelerations
        motion.updateVelocities(q, w);
        for (int c = 0; c < nc; c++) {
            int r = problem.blockStart(c);
            contactRowMotion(contacts, c, 3, rowsDq, r * nv, w);
            if (!restituting[c]) {
                // c_n = φ/h (φ ≥ 0) or max(β φ/h, −v̄) (ContactSettings.contactOffset), φ = n · (p_B − p_A) −
                // radius: ∂φ/∂q = n · (∂p_B − ∂p_A), from the point motions contactRowMotion left in pointB and
                // pointA
                double scale = stepper.settings().contactOffsetSlope(contacts.gap(c), h);
                gapDerivative(contacts, c, scale, offsetDq, r * nv);
            }
            addContactWrenches(contacts, c, lambda[r], lambda[r + 1], lambda[r + 2]);
        }
        motion.wrenchDerivative(dForceDq);
        if (turningForces) {
            CommonOps_DDRM.addEquals(dForceDq, turningForceDq);
            Arrays.fill(turningForceDq.data, 0);
            turningForces = false;
        }

        // the system, by blocks: r1 (the w rows' right-hand sides along q and v; along τ it is h I), then the held
        // rows' A, Λ and r2, then the Schur complement on M = H + h D
        double[] Hd = H.data;
        double[] iq = dIdDq.data, iv = dIdDv.data, fq = dForceDq.data, bq = bilateralForceDq.data;
        for (int r = 0; r < nv; r++) {
            int o = r * 2 * nv;
            int or = r * nv;
            for (int j = 0; j < nv; j++) {
                int i = or + j;
                r1[o + j] = -(h * iq[i] - fq[i] - (nb > 0 ? bq[i] : 0));
                r1[o + nv + j] = -(h * iv[i]) + Hd[i];
            }
        }
        // + h H ∂e/∂v on the v columns: e_O = ω × v_O, ∂e_O/∂ω = −[v_O]×, ∂e_O/∂v_O = [ω]×
        for (int vi : floatingV) {
            double wx = v[vi], wy = v[vi + 1], wz = v[vi + 2];
            double vx = v[vi + 3], vy = v[vi + 4], vz = v[vi + 5];
            skew(-vx, -vy, -vz, dOmega); // −[v_O]×
            skew(wx, wy, wz, dVo); // [ω]×
            for (int i = 0; i < nv; i++) {
                for (int c = 0; c < 3; c++) {
                    double s1 = 0, s2 = 0;
                    for (int r = 0; r < 3; r++) {
                        double hir = Hd[i * nv + vi + 3 + r];
                        s1 += hir * dOmega[3 * r + c];
                        s2 += hir * dVo[3 * r + c];
                    }
                    r1[i * 2 * nv + nv + vi + c] += h * s1;
                    r1[i * 2 * nv + nv + vi + 3 + c] += h * s2;
                }
            }
        }
        systemRows = 0;
        double wMax = 0;
        for (int r = 0; r < m; r++) {
            wMax = Math.max(wMax, problem.w(r, r));
        }
        roundingFloor = ROUNDING_ROW * wMax;
        roundingRows = 0;
        for (int block = 0; block < problem.blockCount(); block++) {
            int r = problem.blockStart(block);
            int kind = problem.blockKind(block);
            rubs[block] = kind == ContactProblem.COULOMB && problem.blockFriction(block) * lambda[r] > 0;
            if (kind == ContactProblem.COULOMB) {
                modes[block] = contactRows(problem, block, J, lambda, w, r);
            } else if (kind == ContactProblem.UNILATERAL) {
                modes[block] = limitRow(problem, block, J, lambda, r, h, q);
            } else {
                bilateralRow(problem, J, r, m - nb, h, beta);
                modes[block] = STICKING;
            }
        }
        solve(h, restitution);
        map(w, h);
        blocks = problem.blockCount();
    }

    private boolean restitutionActive(ContactKinematics contacts, int c, double h) {
        double e = contacts.restitution(c);
        if (!(e > 0)) {
            return false;
        }
        double gap = contacts.gap(c);
        double un = 0;
        double[] J = stepper.lastRows();
        int r = stepper.lastProblem().blockStart(c);
        for (int j = 0; j < nv; j++) {
            un += J[r * nv + j] * vBefore[j];
        }
        double offset = stepper.settings().contactOffset(gap, h);
        return un < -stepper.settings().restitutionThreshold() && gap + h * un <= 0 && e * un < offset;
    }

    /** The step's v, during {@link #compute} (the restitution offsets read u_n⁻ = J_n v). */
    private double[] vBefore;

    /**
     * Out[o + d nv..o + (d + 1) nv) = ∂(row_d · ṗ)/∂q of contact c's rows d &lt; rows at the motion's state (v = its
     * velocity); leaves the point motions of the contact's points in pointB and pointA (pointA only with another
     * body). One {@link MotionDerivatives#point} per body for all rows: asked per row, the same object refilled
     * recomputed it each time (JFR: the point motions were 68 of 634 samples of solo12's step and derivatives, four
     * fills per foot where one serves).
     */
    private void contactRowMotion(ContactKinematics contacts, int c, int rows, double[] out, int o, double[] vel) {
        int body = contacts.body(c);
        double radius = contacts.radius(c);
        for (int i = 0; i < 3; i++) {
            point[i] = contacts.center(c, i);
        }
        motion.point(body, point, pointB);
        double[] dv = pointB.dVelocityDq();
        double[] dw = pointB.dOmegaDq();
        int other = contacts.otherBody(c);
        double[] av = null;
        double[] aw = null;
        if (other >= 0) {
            for (int i = 0; i < 3; i++) {
                point[i] = contacts.otherCenter(c, i);
            }
            motion.point(other, point, pointA);
            av = pointA.dVelocityDq();
            aw = pointA.dOmegaDq();
        }
        // the contact point is the centre + d, d = −r n fixed in the world: ṗ = ċ + ω × d, so
        // row · ∂ṗ = row · ∂ċ + row · (∂ω × d) = row · ∂ċ + ∂ω · (d × row); on A, d = +r_A n
        double dx = -radius * contacts.frame(c, 0, 0), dy = -radius * contacts.frame(c, 0, 1);
        double dz = -radius * contacts.frame(c, 0, 2);
        double otherRadius = contacts.otherRadius(c);
        double ex = otherRadius * contacts.frame(c, 0, 0), ey = otherRadius * contacts.frame(c, 0, 1);
        double ez = otherRadius * contacts.frame(c, 0, 2);
        for (int d = 0; d < rows; d++) {
            double fx = contacts.frame(c, d, 0), fy = contacts.frame(c, d, 1), fz = contacts.frame(c, d, 2);
            double cx = dy * fz - dz * fy, cy = dz * fx - dx * fz, cz = dx * fy - dy * fx;
            int od = o + d * nv;
            for (int j = 0; j < nv; j++) {
                out[od + j] = fx * dv[j] + fy * dv[nv + j] + fz * dv[2 * nv + j]
                        + cx * dw[j] + cy * dw[nv + j] + cz * dw[2 * nv + j];
            }
            if (av != null) {
                double gx = ey * fz - ez * fy, gy = ez * fx - ex * fz, gz = ex * fy - ey * fx;
                for (int j = 0; j < nv; j++) {
                    out[od + j] -= fx * av[j] + fy * av[nv + j] + fz * av[2 * nv + j]
                            + gx * aw[j] + gy * aw[nv + j] + gz * aw[2 * nv + j];
                }
            }
        }
        turningKind = TurningContact.kind(contacts, c);
        if (turningKind != TurningContact.NONE) {
            double nx = contacts.frame(c, 0, 0), ny = contacts.frame(c, 0, 1), nz = contacts.frame(c, 0, 2);
            // the step's rows at this contact (o is its first row's offset, as in out) at the motion's velocities
            TurningContact.relative(contacts, c, stepper.lastRows(), o, vel, nv, relative, relativeVelocity);
            PointMotion a = other >= 0 ? pointA : null;
            turning.set(turningKind, nx, ny, nz, otherRadius, radius, contacts.gap(c),
                    a == null ? null : a.dPositionDq(), a == null ? null : a.dRotationDq(),
                    a == null ? null : a.omega(), TurningContact.axis(contacts, c, true, axisA), pointB.dPositionDq(),
                    pointB.dRotationDq(), pointB.omega(), TurningContact.axis(contacts, c, false, axisB), relative,
                    relativeVelocity);
            for (int d = 0; d < rows; d++) {
                turning.addRowDerivative(contacts.frame(c, d, 0), contacts.frame(c, d, 1), contacts.frame(c, d, 2), 1,
                        out, o + d * nv);
            }
        }
    }

    /**
     * Out[o..o+nv) = scale ∂φ/∂q of contact c, φ = n · (p_B − p_A) (the centre's position for a sphere), from the point
     * motions {@link #contactRowMotion} left for c.
     */
    private void gapDerivative(ContactKinematics contacts, int c, double scale, double[] out, int o) {
        double nx = contacts.frame(c, 0, 0), ny = contacts.frame(c, 0, 1), nz = contacts.frame(c, 0, 2);
        double[] dp = pointB.dPositionDq();
        for (int j = 0; j < nv; j++) {
            out[o + j] = scale * (nx * dp[j] + ny * dp[nv + j] + nz * dp[2 * nv + j]);
        }
        if (contacts.otherBody(c) >= 0) {
            double[] ap = pointA.dPositionDq();
            for (int j = 0; j < nv; j++) {
                out[o + j] -= scale * (nx * ap[j] + ny * ap[nv + j] + nz * ap[2 * nv + j]);
            }
        }
    }

    /** The impulse f = λ_n n + λ_t1 t1 + λ_t2 t2 on B at its contact point and −f on A, as wrenches. */
    private void addContactWrenches(ContactKinematics contacts, int c, double ln, double l1, double l2) {
        if (ln == 0 && l1 == 0 && l2 == 0) {
            return;
        }
        double fx = ln * contacts.frame(c, 0, 0) + l1 * contacts.frame(c, 1, 0) + l2 * contacts.frame(c, 2, 0);
        double fy = ln * contacts.frame(c, 0, 1) + l1 * contacts.frame(c, 1, 1) + l2 * contacts.frame(c, 2, 1);
        double fz = ln * contacts.frame(c, 0, 2) + l1 * contacts.frame(c, 1, 2) + l2 * contacts.frame(c, 2, 2);
        double radius = contacts.radius(c);
        double dx = -radius * contacts.frame(c, 0, 0), dy = -radius * contacts.frame(c, 0, 1);
        double dz = -radius * contacts.frame(c, 0, 2);
        for (int i = 0; i < 3; i++) {
            point[i] = contacts.center(c, i);
        }
        // at the centre: the moment d × f of the force at centre + d, both fixed in the world
        wrench[0] = dy * fz - dz * fy;
        wrench[1] = dz * fx - dx * fz;
        wrench[2] = dx * fy - dy * fx;
        wrench[3] = fx;
        wrench[4] = fy;
        wrench[5] = fz;
        motion.addWrench(contacts.body(c), point, wrench, -1);
        int other = contacts.otherBody(c);
        if (other >= 0) {
            for (int i = 0; i < 3; i++) {
                point[i] = contacts.otherCenter(c, i);
            }
            // −f at A's centre + e, e = r_A n: the moment e × (−f)
            double otherRadius = contacts.otherRadius(c);
            double ex = otherRadius * contacts.frame(c, 0, 0), ey = otherRadius * contacts.frame(c, 0, 1);
            double ez = otherRadius * contacts.frame(c, 0, 2);
            wrench[0] = -(ey * fz - ez * fy);
            wrench[1] = -(ez * fx - ex * fz);
            wrench[2] = -(ex * fy - ey * fx);
            wrench[3] = -fx;
            wrench[4] = -fy;
            wrench[5] = -fz;
            motion.addWrench(other, point, wrench, -1);
        }
        if (turningKind != TurningContact.NONE) {
            turning.addForceDerivative(fx, fy, fz, 1, turningForceDq.data);
            turningForces = true;
        }
    }

    /** The three rows of a contact block in its mode (the held rows appended, none if separated); returns the mode. */
    private int contactRows(ContactProblem problem, int block, double[] J, double[] lambda, double[] w,
            int r) {
        double ln = lambda[r];
        double s1 = 0, s2 = 0;
        for (int j = 0; j < nv; j++) {
            s1 += J[(r + 1) * nv + j] * w[j];
            s2 += J[(r + 2) * nv + j] * w[j];
        }
        double mu = problem.blockFriction(block);
        if (!(ln > 0)) {
            // separated: λ = 0 (the solvers project an open contact's impulse to exactly 0), so dλ = 0: its rows
            // and its columns −Jᵀ leave the system
            return SEPARATED;
        }
        if (rounding(problem, r)) {
            // its normal row is rounding: the contact constrains nothing, and its rows all leave the system
            return SEPARATED;
        }
        double lt = Math.sqrt(lambda[r + 1] * lambda[r + 1] + lambda[r + 2] * lambda[r + 2]);
        double slip = Math.sqrt(s1 * s1 + s2 * s2);
        // frictionless (μ = 0): λ_t = 0 whatever the slip, so dλ_t = 0 and its rows leave the system, as a separated
        // contact's do; it was held sticking at rest (a ball on a μ = 0 floor rolled instead of sliding)
        boolean frictionless = !(mu * ln > 0);
        boolean sliding = frictionless || !(lt < mu * ln * (1 - 1e-9)) && slip > SLIP_FLOOR;
        // the normal row (and, sticking, the tangential rows): J_d dw + ε dλ_d = −(∂(J_d w)/∂q + ∂c_d/∂q) dq − ∂c_d/∂v dv
        int rows = sliding ? 1 : 3;
        int normal = systemRows;
        for (int d = 0; d < rows; d++) {
            int i = heldRow(problem, J, r + d);
            if (i < 0) {
                continue;
            }
            for (int j = 0; j < nv; j++) {
                zy[i * zw + nv + j] = -(rowsDq[(r + d) * nv + j] + offsetDq[(r + d) * nv + j]);
                zy[i * zw + 2 * nv + j] = -offsetDv[(r + d) * nv + j];
            }
        }
        if (!sliding) {
            return STICKING;
        }
        if (frictionless) {
            return SLIDING;
        }
        // dλ_t + μ ŝ dλ_n + (μ λ_n / ‖σ_t‖) P (J_t dw + ∂(J_t w)/∂q dq) = 0, ŝ = σ_t / ‖σ_t‖, P = I − ŝ ŝᵀ
        double u1 = s1 / slip, u2 = s2 / slip;
        double g = mu * ln / slip;
        for (int d = 0; d < 2; d++) {
            double sd = d == 0 ? u1 : u2;
            // row d of P = I − ŝ ŝᵀ
            double pa = (d == 0 ? 1 : 0) - sd * u1;
            double pb = (d == 1 ? 1 : 0) - sd * u2;
            int i = row(J, r + 1 + d, 1, false);
            lam[i * capacity + normal] = mu * sd;
            for (int j = 0; j < nv; j++) {
                double jt = pa * J[(r + 1) * nv + j] + pb * J[(r + 2) * nv + j];
                double rq = pa * rowsDq[(r + 1) * nv + j] + pb * rowsDq[(r + 2) * nv + j];
                aRows[i * nv + j] = g * jt;
                zy[i * zw + nv + j] = -g * rq;
                zy[i * zw + 2 * nv + j] = 0;
            }
        }
        return SLIDING;
    }

    /**
     * Appends problem row r held: A = J_r, Λ = ε = 10⁻¹² W_rr; returns its index among the system's rows, or -1 for a
     * row that is rounding ({@link #ROUNDING_ROW}: it constrains nothing, and is counted, not appended).
     */
    private int heldRow(ContactProblem problem, double[] J, int r) {
        if (rounding(problem, r)) {
            return -1;
        }
        return row(J, r, REGULARISATION * Math.max(problem.w(r, r), Double.MIN_NORMAL), true);
    }

    /** True, and counted, if problem row r is rounding ({@link #ROUNDING_ROW}): it constrains nothing. */
    private boolean rounding(ContactProblem problem, int r) {
        if (problem.w(r, r) > roundingFloor) {
            return false;
        }
        roundingRows++;
        return true;
    }

    /**
     * Appends problem row r to the system's rows: its column −J_rᵀ in the w rows and Λ's diagonal entry; a held row's
     * A row is J_r (the caller fills any other).
     */
    private int row(double[] J, int r, double diagonal, boolean isHeld) {
        int i = systemRows++;
        System.arraycopy(J, r * nv, jRows, i * nv, nv);
        Arrays.fill(lam, i * capacity, i * capacity + capacity, 0);
        lam[i * capacity + i] = diagonal;
        heldA[i] = isHeld;
        sourceRow[i] = r;
        if (isHeld) {
            System.arraycopy(J, r * nv, aRows, i * nv, nv);
        }
        return i;
    }

    /** A joint-limit row: held (±dw_k + ε dλ = −∂ω/∂q dq) or free (dλ = 0, out of the system); returns the mode. */
    private int limitRow(ContactProblem problem, int block, double[] J, double[] lambda, int r, double h,
            double[] q) {
        if (!(lambda[r] > 0)) {
            return SEPARATED;
        }
        int src = stepper.rowSource(block);
        int limit = (-1 - src) / 2;
        boolean upper = ((-1 - src) & 1) == 1;
        int vi = stepper.limitV(limit);
        double sign = upper ? -1 : 1;
        double gap = sign * (q[stepper.limitQ(limit)] - stepper.limitBound(limit, upper));
        int i = heldRow(problem, J, r);
        if (i < 0) {
            return SEPARATED;
        }
        Arrays.fill(zy, i * zw + nv, i * zw + 3 * nv, 0);
        zy[i * zw + nv + vi] = -sign * stepper.settings().limitOffsetSlope(gap, h);
        return STICKING;
    }

    /**
     * A bilateral row, held: G_i dw + ε dλ_i = −(∂(G_i w)/∂q + (β/h) G_i) dq, its offset β φ / h differentiated with
     * ∂φ/∂q = G (exact where φ = 0, to first order in the drift elsewhere); a row whose φ is 0 by definition (a
     * bilateral contact's, {@link org.symdyn.constraints.ConstraintGroup#holonomic}) has no such term.
     */
    private void bilateralRow(ContactProblem problem, double[] J, int r, int first, double h,
            double beta) {
        int b = r - first;
        int i = heldRow(problem, J, r);
        if (i < 0) {
            return;
        }
        double slope = holonomicBilateral[b] ? beta / h : 0;
        for (int j = 0; j < nv; j++) {
            zy[i * zw + nv + j] = -(bilateralRowsDq.data[b * nv + j] + slope * J[r * nv + j]);
            zy[i * zw + 2 * nv + j] = 0;
        }
    }

    /**
     * Solves the system for dw along q, v and τ into rhs (nv x 3nv), by its Schur complement on M = H + h D (symmetric
     * positive definite): with G = M⁻¹ Jᵀ and F = A M⁻¹ (F = Gᵀ on held rows) over the p rows in the system,
     * <pre>
     *   S = Λ + A G,   T = M⁻¹ − G S⁻¹ F,   dw = T r1 + G S⁻¹ r2
     * </pre>
     * (eliminate dw = M⁻¹ (r1 + Jᵀ dλ) from the rows: S dλ = r2 − F r1). Along τ, r1 = h I and r2 = 0, so dw/dτ = h T;
     * r2 along v is nonzero only under restitution ({@code velocityRows}).
     *
     * <p>Why this form: the LU with partial pivoting of the whole (nv + m)² matrix it replaces eliminated 3 nv
     * right-hand sides through all nv + m rows (solo12 on four feet: 30 rows, 54 columns, ~57k multiply-adds; 202 of
     * 634 JFR samples, 32 %, of StepDerivativesBenchmark.stepAndDerivatives). This form has ~20k on solo12, and
     * separated or free rows never enter. What the step already has is reused: M⁻¹ from its LᵀL factor of M
     * along the dof tree ({@link org.symdyn.dynamics.RangeSpaceFactorization#inverse}: U Uᵀ, ~1,300 multiply-adds
     * on solo12 against the ~3,000 of a dense Cholesky, L⁻¹ and their product, or the row sweeps from 16 dofs) and, when every row is held, S = Λ + W from its
     * Delassus entries. Held rows make S symmetric positive definite: S = C Cᵀ, K = C⁻¹ Gᵀ and Y' = C⁻¹ r2 in one
     * forward sweep, so that G S⁻¹ F = Kᵀ K (its lower half) and G S⁻¹ r2 = Kᵀ Y' (the LU's two sweeps and the full
     * product, which sliding rows still take, cost ~5k more). At these sizes (18 to 54 columns) the JIT's loops run
     * scalar, ~3 multiply-adds per ns, so the count of multiply-adds is the time. Tried and not kept (measured, one
     * JVM): skipping r1's zero rows per block of columns (its branch sparsity, a third fewer multiply-adds in T r1)
     * through an index list, 4.6 µs against 3.5 µs for the dense block kernel; 4 x 4 blocks in
     * {@link #productTn}, C⁻¹ formed for a block product instead of the forward sweep, and (earlier) Math.fma in
     * the products: no difference that the noise let one see.
     */
    private void solve(double h, boolean velocityRows) {
        int p = systemRows;
        // M⁻¹ from the step's own factor of M = H + h D (Featherstone's LᵀL along the dof tree, no fill-in)
        stepper.lastFactor().inverse(mInv, uInv);
        // Gᵀ = J M⁻¹ and F = A M⁻¹ by rows (a contact row is zero off its body's branch: skip its zeros)
        boolean allHeld = true;
        for (int i = 0; i < p; i++) {
            rowTimesInverse(jRows, i, gT, i * nv);
            if (heldA[i]) {
                System.arraycopy(gT, i * nv, zy, i * zw, nv);
            } else {
                rowTimesInverse(aRows, i, zy, i * zw);
                allHeld = false;
            }
        }
        double scale = 0;
        if (allHeld) {
            // S = Λ + J M⁻¹ Jᵀ = Λ + W on these rows: the step's own Delassus entries (the same M), Λ diagonal
            ContactProblem problem = stepper.lastProblem();
            for (int i = 0; i < p; i++) {
                int ri = sourceRow[i];
                for (int c = 0; c <= i; c++) {
                    double x = problem.w(ri, sourceRow[c]) + (c == i ? lam[i * capacity + i] : 0);
                    s[i * capacity + c] = x;
                    s[c * capacity + i] = x;
                    scale = Math.max(scale, Math.abs(x));
                }
            }
        } else {
            // S = Λ + A G, S_ic = Λ_ic + A_i · Gᵀ_c over A_i's nonzeros (a contact row's branch); between two held
            // rows S_ic = J_i M⁻¹ J_cᵀ = S_ci (their Λ is diagonal), taken from the row above.
            for (int i = 0; i < p; i++) {
                int count = 0;
                for (int j = 0; j < nv; j++) {
                    if (aRows[i * nv + j] != 0) {
                        nonzeros[i * nv + count++] = j;
                    }
                }
                nonzeroCount[i] = count;
            }
            for (int i = 0; i < p; i++) {
                int oi = i * nv;
                int count = nonzeroCount[i];
                for (int c = 0; c < p; c++) {
                    double x;
                    if (c < i && heldA[i] && heldA[c]) {
                        x = s[c * capacity + i];
                    } else {
                        x = lam[i * capacity + c];
                        int oc = c * nv;
                        for (int t = 0; t < count; t++) {
                            int j = nonzeros[oi + t];
                            x += aRows[oi + j] * gT[oc + j];
                        }
                    }
                    s[i * capacity + c] = x;
                    scale = Math.max(scale, Math.abs(x));
                }
            }
        }
        int cols = 3 * nv;
        int r2Width = velocityRows ? 2 * nv : nv;
        smallestPivotRatio = 1;
        if (allHeld && choleskyS(p)) {
            for (int i = 0; i < p; i++) {
                double c = sChol[i * p + i];
                smallestPivotRatio = Math.min(smallestPivotRatio, c * c / Math.max(s[i * capacity + i],
                        Double.MIN_NORMAL));
            }
            // S = C Cᵀ symmetric positive definite (every row held: F = Gᵀ): with K = C⁻¹ Gᵀ and Y = C⁻¹ r2,
            // G S⁻¹ Gᵀ = Kᵀ K and G S⁻¹ r2 = Kᵀ Y, one forward sweep of [Gᵀ | r2] instead of the LU's two
            forwardS(p, nv + r2Width);
            // T = M⁻¹ − Kᵀ K, symmetric: its lower triangle, then mirrored
            System.arraycopy(mInv, 0, tT, 0, nv * nv);
            productTn(zy, 0, zw, zy, 0, zw, p, nv, nv, tT, 0, nv, -1, true, true);
            for (int i = 0; i < nv; i++) {
                for (int j = 0; j < i; j++) {
                    tT[j * nv + i] = tT[i * nv + j];
                }
            }
            productTn(tT, 0, nv, r1, 0, 2 * nv, nv, nv, 2 * nv, rhs, 0, cols, 1, false);
            productTn(zy, 0, zw, zy, nv, zw, p, nv, r2Width, rhs, 0, cols, 1, true);
        } else {
            // LU with partial pivoting; Z = S⁻¹ F, Y = S⁻¹ r2, in place, one pass over the rows of [F | r2_q | r2_v]
            factorS(p, scale);
            solveS(p, nv + r2Width);
            // Tᵀ = M⁻¹ − Zᵀ Gᵀ
            System.arraycopy(mInv, 0, tT, 0, nv * nv);
            productTn(zy, 0, zw, gT, 0, nv, p, nv, nv, tT, 0, nv, -1, true);
            // dw/dq | dw/dv = T [r1_q | r1_v] + G [Y_q | Y_v]
            productTn(tT, 0, nv, r1, 0, 2 * nv, nv, nv, 2 * nv, rhs, 0, cols, 1, false);
            productTn(gT, 0, nv, zy, nv, zw, p, nv, r2Width, rhs, 0, cols, 1, true);
        }
        // dw/dτ = h T
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                rhs[i * cols + 2 * nv + j] = h * tT[j * nv + i];
            }
        }
    }

    /**
     * S (p x p, its lower triangle) = C Cᵀ into sChol (stride p, {@link SmallSpd#factor}); false when a pivot is not
     * positive (rows so redundant that rounding ate their regularisation: the LU then solves the system from S, which
     * this leaves as it is).
     */
    private boolean choleskyS(int p) {
        for (int i = 0; i < p; i++) {
            System.arraycopy(s, i * capacity, sChol, i * p, i + 1);
        }
        return SmallSpd.factor(sChol, p, false, 0) < 0;
    }

    /** The first {@code width} columns of zy's p rows become C⁻¹ of themselves (C from {@link #choleskyS}). */
    private void forwardS(int p, int width) {
        double[] x = zy;
        for (int r = 0; r < p; r++) {
            System.arraycopy(x, r * zw, acc, 0, width);
            for (int c = 0; c < r; c++) {
                double f = sChol[r * p + c];
                if (f == 0) {
                    continue;
                }
                int oc = c * zw;
                for (int j = 0; j < width; j++) {
                    acc[j] -= f * x[oc + j];
                }
            }
            double inv = 1 / sChol[r * p + r];
            for (int j = 0; j < width; j++) {
                x[r * zw + j] = acc[j] * inv;
            }
        }
    }

    /**
     * c[i, j] = (accumulate ? c[i, j] : 0) + alpha Σ_l at[l, i] b[l, j] for i &lt; n, j &lt; m, l &lt; k: the product
     * Aᵀ B of at (k x n) and b (k x m), each from its offset with its row stride. Blocks of 2 x 4 entries of c in
     * registers, the inner loop over l loading two entries of at and four of b for eight products. A row update per l
     * (c_i += a_il b_l, what this replaced) loads and stores every entry of c each time, and at 18 to 54 columns the
     * JIT does not make it a vector loop (measured: 2 to 3 multiply-adds per ns for rows of 18 to 144 entries); this
     * kernel runs at ~3.5.
     */
    private static void productTn(double[] at, int ao, int lda, double[] b, int bo, int ldb, int k, int n, int m,
            double[] c, int co, int ldc, double alpha, boolean accumulate) {
        productTn(at, ao, lda, b, bo, ldb, k, n, m, c, co, ldc, alpha, accumulate, false);
    }

    /**
     * {@link #productTn}, and with {@code lower} only the blocks that reach the lower triangle (j ≤ i; some entries
     * above it come along, the caller mirrors the lower triangle over them): a symmetric product for half the work.
     */
    private static void productTn(double[] at, int ao, int lda, double[] b, int bo, int ldb, int k, int n, int m,
            double[] c, int co, int ldc, double alpha, boolean accumulate, boolean lower) {
        int i = 0;
        for (; i + 1 < n; i += 2) {
            int j = 0;
            int mi = lower ? Math.min(m, i + 2) : m;
            for (; j + 3 < mi; j += 4) {
                double c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
                for (int l = 0; l < k; l++) {
                    int pa = ao + l * lda + i;
                    int pb = bo + l * ldb + j;
                    double a0 = at[pa], a1 = at[pa + 1];
                    double b0 = b[pb], b1 = b[pb + 1], b2 = b[pb + 2], b3 = b[pb + 3];
                    c00 += a0 * b0;
                    c01 += a0 * b1;
                    c02 += a0 * b2;
                    c03 += a0 * b3;
                    c10 += a1 * b0;
                    c11 += a1 * b1;
                    c12 += a1 * b2;
                    c13 += a1 * b3;
                }
                int o0 = co + i * ldc + j;
                int o1 = o0 + ldc;
                put(c, o0, alpha * c00, accumulate);
                put(c, o0 + 1, alpha * c01, accumulate);
                put(c, o0 + 2, alpha * c02, accumulate);
                put(c, o0 + 3, alpha * c03, accumulate);
                put(c, o1, alpha * c10, accumulate);
                put(c, o1 + 1, alpha * c11, accumulate);
                put(c, o1 + 2, alpha * c12, accumulate);
                put(c, o1 + 3, alpha * c13, accumulate);
            }
            for (; j < mi; j++) {
                double c0 = 0, c1 = 0;
                for (int l = 0; l < k; l++) {
                    int pa = ao + l * lda + i;
                    double bj = b[bo + l * ldb + j];
                    c0 += at[pa] * bj;
                    c1 += at[pa + 1] * bj;
                }
                put(c, co + i * ldc + j, alpha * c0, accumulate);
                put(c, co + (i + 1) * ldc + j, alpha * c1, accumulate);
            }
        }
        for (; i < n; i++) {
            int mi = lower ? Math.min(m, i + 1) : m;
            for (int j = 0; j < mi; j++) {
                double c0 = 0;
                for (int l = 0; l < k; l++) {
                    c0 += at[ao + l * lda + i] * b[bo + l * ldb + j];
                }
                put(c, co + i * ldc + j, alpha * c0, accumulate);
            }
        }
    }

    private static void put(double[] c, int o, double x, boolean accumulate) {
        c[o] = accumulate ? c[o] + x : x;
    }

    /** out[o..o+nv) = row i of rows times M⁻¹ (nv entries each), skipping the row's zeros. */
    private void rowTimesInverse(double[] rows, int i, double[] out, int o) {
        Arrays.fill(acc, 0, nv, 0);
        for (int c = 0; c < nv; c++) {
            double f = rows[i * nv + c];
            if (f == 0) {
                continue;
            }
            int oc = c * nv;
            for (int j = 0; j < nv; j++) {
                acc[j] += f * mInv[oc + j];
            }
        }
        System.arraycopy(acc, 0, out, o, nv);
    }

    /** S (p x p, row stride capacity) = P L U in place, the row swaps in pivots. */
    private void factorS(int p, double scale) {
        for (int c = 0; c < p; c++) {
            int best = c;
            double max = Math.abs(s[c * capacity + c]);
            for (int r = c + 1; r < p; r++) {
                double x = Math.abs(s[r * capacity + c]);
                if (x > max) {
                    max = x;
                    best = r;
                }
            }
            if (!(max > 1e-300 * scale) || scale == 0) {
                throw new IllegalStateException("the step's linearised contact system is singular (row " + c
                        + ")");
            }
            smallestPivotRatio = Math.min(smallestPivotRatio, max / scale);
            pivots[c] = best;
            if (best != c) {
                for (int j = 0; j < p; j++) {
                    double x = s[c * capacity + j];
                    s[c * capacity + j] = s[best * capacity + j];
                    s[best * capacity + j] = x;
                }
            }
            double d = s[c * capacity + c];
            for (int r = c + 1; r < p; r++) {
                double f = s[r * capacity + c] / d;
                s[r * capacity + c] = f;
                if (f == 0) {
                    continue;
                }
                for (int j = c + 1; j < p; j++) {
                    s[r * capacity + j] -= f * s[c * capacity + j];
                }
            }
        }
    }

    /** The first {@code width} columns of zy's p rows become S⁻¹ of themselves, by the factors of {@link #factorS}. */
    private void solveS(int p, int width) {
        double[] x = zy;
        for (int c = 0; c < p; c++) {
            int b = pivots[c];
            if (b != c) {
                for (int j = 0; j < width; j++) {
                    double y = x[c * zw + j];
                    x[c * zw + j] = x[b * zw + j];
                    x[b * zw + j] = y;
                }
            }
        }
        // L y = x, then U x = y, each row gathered in acc (a separate array: no store into a row being read)
        for (int r = 1; r < p; r++) {
            System.arraycopy(x, r * zw, acc, 0, width);
            for (int c = 0; c < r; c++) {
                double f = s[r * capacity + c];
                if (f == 0) {
                    continue;
                }
                int oc = c * zw;
                for (int j = 0; j < width; j++) {
                    acc[j] -= f * x[oc + j];
                }
            }
            System.arraycopy(acc, 0, x, r * zw, width);
        }
        for (int r = p - 1; r >= 0; r--) {
            System.arraycopy(x, r * zw, acc, 0, width);
            for (int c = r + 1; c < p; c++) {
                double f = s[r * capacity + c];
                if (f == 0) {
                    continue;
                }
                int oc = c * zw;
                for (int j = 0; j < width; j++) {
                    acc[j] -= f * x[oc + j];
                }
            }
            double inv = 1 / s[r * capacity + r];
            for (int j = 0; j < width; j++) {
                x[r * zw + j] = acc[j] * inv;
            }
        }
    }

    /** dw/dx is in rhs rows 0..nv (columns q | v | τ): maps it to q⁺ = q ⊕ h w and v⁺ = carry(w). */
    private void map(double[] w, double h) {
        // the rotations and their Jacobians, once for the three blocks
        for (int b = 0; b < ballV.length + floatingV.length; b++) {
            int vi = b < ballV.length ? ballV[b] : floatingV[b - ballV.length];
            double px = h * w[vi], py = h * w[vi + 1], pz = h * w[vi + 2];
            rotation(px, py, pz, e3, 9 * b);
            rightJacobian(px, py, pz, jr, 9 * b);
            if (b >= ballV.length) {
                rightJacobian(-px, -py, -pz, jrNeg, 9 * (b - ballV.length));
            }
        }
        int cols = 3 * nv;
        for (int x = 0; x < 3; x++) {
            double[] oq = (x == 0 ? dqDq : x == 1 ? dqDv : dqDtau).data;
            double[] ov = (x == 0 ? dvDq : x == 1 ? dvDv : dvDtau).data;
            for (int i = 0; i < nv; i++) {
                for (int j = 0; j < nv; j++) {
                    double dwij = rhs[i * cols + x * nv + j];
                    ov[i * nv + j] = dwij;
                    oq[i * nv + j] = (x == 0 && i == j ? 1 : 0) + h * dwij;
                }
            }
            for (int b = 0; b < ballV.length; b++) {
                rotationBlock(ballV[b], 9 * b, h, x, oq);
            }
            for (int f = 0; f < floatingV.length; f++) {
                int vi = floatingV[f];
                int e = 9 * (ballV.length + f);
                int n = 9 * f;
                rotationBlock(vi, e, h, x, oq);
                // δp⁺ = Eᵀ (δp − h [w_O]× δθ + h dw_O);  dv_O⁺ = Eᵀ dw_O + h Eᵀ [w_O]× J_r(−h ω) dω
                double ox = w[vi + 3], oy = w[vi + 4], oz = w[vi + 5];
                for (int j = 0; j < nv; j++) {
                    double t0 = (x == 0 && j == vi + 3 ? 1 : 0) + h * rhs[(vi + 3) * cols + x * nv + j];
                    double t1 = (x == 0 && j == vi + 4 ? 1 : 0) + h * rhs[(vi + 4) * cols + x * nv + j];
                    double t2 = (x == 0 && j == vi + 5 ? 1 : 0) + h * rhs[(vi + 5) * cols + x * nv + j];
                    // − h [w_O]× δθ for x = q, column j of the base's rotation
                    if (x == 0 && j >= vi && j < vi + 3) {
                        double ex = j == vi ? 1 : 0, ey = j == vi + 1 ? 1 : 0, ez = j == vi + 2 ? 1 : 0;
                        t0 -= h * (oy * ez - oz * ey);
                        t1 -= h * (oz * ex - ox * ez);
                        t2 -= h * (ox * ey - oy * ex);
                    }
                    oq[(vi + 3) * nv + j] = e3[e] * t0 + e3[e + 3] * t1 + e3[e + 6] * t2;
                    oq[(vi + 4) * nv + j] = e3[e + 1] * t0 + e3[e + 4] * t1 + e3[e + 7] * t2;
                    oq[(vi + 5) * nv + j] = e3[e + 2] * t0 + e3[e + 5] * t1 + e3[e + 8] * t2;
                    double d0 = rhs[vi * cols + x * nv + j];
                    double d1 = rhs[(vi + 1) * cols + x * nv + j];
                    double d2 = rhs[(vi + 2) * cols + x * nv + j];
                    // g = J_r(−h ω) dω, then [w_O]× g
                    double g0 = jrNeg[n] * d0 + jrNeg[n + 1] * d1 + jrNeg[n + 2] * d2;
                    double g1 = jrNeg[n + 3] * d0 + jrNeg[n + 4] * d1 + jrNeg[n + 5] * d2;
                    double g2 = jrNeg[n + 6] * d0 + jrNeg[n + 7] * d1 + jrNeg[n + 8] * d2;
                    double c0 = rhs[(vi + 3) * cols + x * nv + j] + h * (oy * g2 - oz * g1);
                    double c1 = rhs[(vi + 4) * cols + x * nv + j] + h * (oz * g0 - ox * g2);
                    double c2 = rhs[(vi + 5) * cols + x * nv + j] + h * (ox * g1 - oy * g0);
                    ov[(vi + 3) * nv + j] = e3[e] * c0 + e3[e + 3] * c1 + e3[e + 6] * c2;
                    ov[(vi + 4) * nv + j] = e3[e + 1] * c0 + e3[e + 4] * c1 + e3[e + 7] * c2;
                    ov[(vi + 5) * nv + j] = e3[e + 2] * c0 + e3[e + 5] * c1 + e3[e + 8] * c2;
                }
            }
        }
    }

    /**
     * The rotation rows of a quaternion joint at vi: δθ⁺ = Eᵀ δθ + h J_r(h ω) dω, E = exp(h [ω]×) and J_r(h ω) at
     * e3[e..e+9) and jr[e..e+9) (row-major, from {@link #map}'s start).
     */
    private void rotationBlock(int vi, int e, double h, int x, double[] oq) {
        int cols = 3 * nv;
        for (int j = 0; j < nv; j++) {
            double d0 = rhs[vi * cols + x * nv + j];
            double d1 = rhs[(vi + 1) * cols + x * nv + j];
            double d2 = rhs[(vi + 2) * cols + x * nv + j];
            double t0 = x == 0 && j == vi ? 1 : 0;
            double t1 = x == 0 && j == vi + 1 ? 1 : 0;
            double t2 = x == 0 && j == vi + 2 ? 1 : 0;
            for (int r = 0; r < 3; r++) {
                tmp[r] = e3[e + r] * t0 + e3[e + 3 + r] * t1 + e3[e + 6 + r] * t2
                        + h * (jr[e + 3 * r] * d0 + jr[e + 3 * r + 1] * d1 + jr[e + 3 * r + 2] * d2);
            }
            oq[vi * nv + j] = tmp[0];
            oq[(vi + 1) * nv + j] = tmp[1];
            oq[(vi + 2) * nv + j] = tmp[2];
        }
    }

    /** out = [x]×, row-major. */
    private static void skew(double x, double y, double z, double[] out) {
        out[0] = 0;
        out[1] = -z;
        out[2] = y;
        out[3] = z;
        out[4] = 0;
        out[5] = -x;
        out[6] = -y;
        out[7] = x;
        out[8] = 0;
    }

    /** out[o..o+9) = R = exp([φ]×), row-major. */
    private static void rotation(double px, double py, double pz, double[] out, int o) {
        double t2 = px * px + py * py + pz * pz;
        double a, b;
        if (t2 < 1e-8) {
            a = 1 - t2 / 6;
            b = 0.5 - t2 / 24;
        } else {
            double t = Math.sqrt(t2);
            a = StrictMath.sin(t) / t;
            b = (1 - StrictMath.cos(t)) / t2;
        }
        // R = I + a [φ]× + b [φ]×²
        skewSquare(px, py, pz, a, b, out, o);
    }

    /** out[o..o+9) = J_r(φ) = I − (1 − cos θ)/θ² [φ]× + (θ − sin θ)/θ³ [φ]×², row-major. */
    private static void rightJacobian(double px, double py, double pz, double[] out, int o) {
        double t2 = px * px + py * py + pz * pz;
        double a, b;
        if (t2 < 1e-8) {
            a = 0.5 - t2 / 24;
            b = 1.0 / 6 - t2 / 120;
        } else {
            double t = Math.sqrt(t2);
            a = (1 - StrictMath.cos(t)) / t2;
            b = (t - StrictMath.sin(t)) / (t2 * t);
        }
        skewSquare(px, py, pz, -a, b, out, o);
    }

    /** out[o..o+9) = I + a [φ]× + b [φ]×². */
    private static void skewSquare(double px, double py, double pz, double a, double b, double[] out, int o) {
        double xx = px * px, yy = py * py, zz = pz * pz, xy = px * py, xz = px * pz, yz = py * pz;
        out[o] = 1 + b * (-yy - zz);
        out[o + 1] = -a * pz + b * xy;
        out[o + 2] = a * py + b * xz;
        out[o + 3] = a * pz + b * xy;
        out[o + 4] = 1 + b * (-xx - zz);
        out[o + 5] = -a * px + b * yz;
        out[o + 6] = -a * py + b * xz;
        out[o + 7] = a * px + b * yz;
        out[o + 8] = 1 + b * (-xx - yy);
    }

    /** ∂q⁺/∂q (tangent spaces, nv x nv) of the last {@link #compute}. */
    public DMatrixRMaj dqNextDq() {
        return dqDq;
    }

    public DMatrixRMaj dqNextDv() {
        return dqDv;
    }

    public DMatrixRMaj dqNextDtau() {
        return dqDtau;
    }

    public DMatrixRMaj dvNextDq() {
        return dvDq;
    }

    public DMatrixRMaj dvNextDv() {
        return dvDv;
    }

    public DMatrixRMaj dvNextDtau() {
        return dvDtau;
    }

    /**
     * The mode of block b of the last {@link #compute} ({@link #SEPARATED}, {@link #STICKING}, {@link #SLIDING}).
     *
     * @throws IndexOutOfBoundsException unless 0 ≤ b &lt; the number of blocks of that step
     */
    public int mode(int block) {
        return modes[Objects.checkIndex(block, blocks)];
    }

    /**
     * True if the held rows of the last {@link #compute} were linearly dependent (a pivot of their system under
     * 10⁻⁹ of its scale: their regularisation chose dλ), as a box's on four coplanar corners are, or if a held row
     * was zero to rounding (W_rr at most 10⁻²⁰ of the largest: the out-of-plane row of a planar loop turned off the
     * axes), which constrains nothing and was left out. While they stick, or slide together, dw is unique and exact,
     * and dλ is the least-norm one.
     */
    public boolean dependentRows() {
        return smallestPivotRatio < DEPENDENT_PIVOT || roundingRows > 0;
    }

    /**
     * True if the last step may not have a unique answer, and then no derivative: {@link #dependentRows()} with a
     * contact sliding. Dependent normal rows leave the split of the normal impulses among them free (a box on four
     * coplanar corners: a twist of +λ, −λ, +λ, −λ moves neither the normal rows nor the box); where contacts slide in
     * different directions (the box spinning as it slides) the friction of that split turns the box, so the
     * solver's choice of it decides v⁺, and another solver (PGS against ADMM) or warm start gives another v⁺, all
     * satisfying the step's conditions. The derivative is then not to be used: the sliding rows make the system
     * unsymmetric, its regularisation no longer picks a least-norm dλ, and a pivot near 0 can make it arbitrarily
     * large (10¹² on a walker whose four feet slide apart); finite differences of the solver follow its own choices.
     * Where all contacts slide one way (a box sliding straight) v⁺ is unique nonetheless; this says "may". A
     * frictionless contact (μ = 0, classified sliding) has no friction to turn anything, and does not count.
     */
    public boolean mayNotBeUnique() {
        if (!(smallestPivotRatio < DEPENDENT_PIVOT)) { // rows left out as rounding are not in the system
            return false;
        }
        for (int b = 0; b < blocks; b++) {
            if (modes[b] == SLIDING && rubs[b]) {
                return true;
            }
        }
        return false;
    }

    private void checkNoBaumgarte() {
        if (bilateral.anyBaumgarteEnabled()) {
            throw new IllegalArgumentException("the stepper's constraint data has Baumgarte stabilisation on, which"
                    + " the step does not use and its derivatives cannot: switch it off on that data");
        }
    }
}
