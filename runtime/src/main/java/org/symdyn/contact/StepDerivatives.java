package org.symdyn.contact;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.PointMotion;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

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
 * </ul>
 * Joint-limit rows are held (±w_k + ω_k = 0) or free (λ = 0) likewise. Differentiating at the solution gives one
 * linear system of nv + m unknowns (dw, dλ) for the 3 nv right-hand sides of dq, dv and dτ:
 * <pre>
 *   [ H + hD    −Jᵀ ] [dw]       [ h ∂ID/∂q − ∂(Jᵀλ)/∂q    h ∂ID/∂v − H (I + h ∂e/∂v)    −h I ]
 *   [   A        Λ  ] [dλ]  = −  [      ∂(mode rows)/∂q           ∂(mode rows)/∂v            0  ]
 * </pre>
 * with ∂ID/∂q, ∂ID/∂v from the backend's {@link DynamicsDerivatives} (a generated class's own, or the
 * interpreter's) and the contact rows' kinematic terms ∂(J w)/∂q and ∂(Jᵀλ)/∂q analytically from
 * {@link MotionDerivatives} on the model (the same as {@code ConstrainedDynamicsDerivatives} uses for rows a
 * generated class does not differentiate itself). Held rows carry a regularisation 10⁻¹² W_rr on their diagonal, so
 * that redundant contacts (a box on four coplanar corners) give the unique dw and the least-norm dλ. Then
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
 * λ_n &gt; 0 is held), a contact on its cone's boundary with ‖σ_t‖ ≤ 10⁻¹² m/s is sticking. So at a boundary the derivative is that of the mode on the side the classification names, and it is
 * the limit from that side.
 *
 * <p><b>What is exact and what is not.</b> Exact for contact points and spheres against grounds and for joint limits.
 * For contacts between collision shapes the witness points are taken as material points of their bodies and the
 * contact frame as fixed (the curvature of rolling shapes and the turning of a face's normal are left out, as in
 * the acceleration-level problem of {@link AccelerationProblemData}). Bilateral rows (loops, couplers, bilateral
 * contacts of a bound {@link org.symdyn.constraints.ConstraintData}) are held: G dw + ε dλ = −(∂(G w)/∂q + (β/h) G) dq,
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

    private final TimeStepper stepper;
    /** The stepper's bilateral rows, or null. */
    private final org.symdyn.constraints.ConstraintData bilateral;
    private final DMatrixRMaj bilateralForceDq;
    private final DMatrixRMaj bilateralRowsDq;
    private final DMatrixRMaj bilateralRowsDv;
    private final double[] bilateralLambda;
    private final DynamicsDerivatives dynamics;
    private final MotionDerivatives motion;
    private final PointMotion pointB;
    private final PointMotion pointA;
    private final int nv;
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
    private final double[] k; // the (nv + m)² system
    private final double[] rhs; // (nv + m) x 3nv
    private final int[] modes;
    /** Per contact of the last {@link #compute}: whether its normal offset is the restitution's e u_n⁻. */
    private final boolean[] restituting;
    private final double[] a;
    private final double[] zero;
    private final double[] point = new double[3];
    private final double[] wrench = new double[6];
    private final double[] e3 = new double[9];
    private final double[] jr = new double[9];
    private final double[] jrNeg = new double[9];
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
     * @throws IllegalArgumentException      if the dynamics have no derivatives, the model is not theirs, or the
     *                                       stepper keeps W sparse (its rows are not kept dense)
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
        }
        this.dynamics = dd;
        this.nv = dd.nv();
        if (model.nv() != nv || model.nq() != dd.nq()) {
            throw new IllegalArgumentException("model " + model.name() + " (nv = " + model.nv() + ") is not the model"
                    + " of the stepper's dynamics (nv = " + nv + ")");
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
        for (int b = 0, f = 0, c = 0; b < model.bodyCount(); b++) {
            JointType t = model.body(b).joint().type();
            if (t == JointType.FLOATING) {
                floatingV[f++] = model.body(b).joint().vIndex();
            } else if (t == JointType.BALL) {
                ballV[c++] = model.body(b).joint().vIndex();
            }
        }
        this.motion = new MotionDerivatives(model);
        this.pointB = new PointMotion(nv);
        this.pointA = new PointMotion(nv);
        this.capacity = stepper.lastProblem().capacity();
        int n = nv + capacity;
        H = new DMatrixRMaj(nv, nv);
        dIdDq = new DMatrixRMaj(nv, nv);
        dIdDv = new DMatrixRMaj(nv, nv);
        dForceDq = new DMatrixRMaj(nv, nv);
        rowsDq = new double[Math.max(1, capacity) * nv];
        offsetDq = new double[Math.max(1, capacity) * nv];
        offsetDv = new double[Math.max(1, capacity) * nv];
        k = new double[n * n];
        rhs = new double[n * 3 * nv];
        modes = new int[Math.max(1, capacity)];
        restituting = new boolean[Math.max(1, capacity)];
        a = new double[nv];
        zero = new double[nv];
        int nb = bilateral == null ? 0 : bilateral.size();
        bilateralForceDq = new DMatrixRMaj(nv, nv);
        bilateralRowsDq = new DMatrixRMaj(Math.max(1, nb), nv);
        bilateralRowsDv = new DMatrixRMaj(Math.max(1, nb), nv);
        bilateralLambda = new double[Math.max(1, nb)];
        dqDq = new DMatrixRMaj(nv, nv);
        dqDv = new DMatrixRMaj(nv, nv);
        dqDtau = new DMatrixRMaj(nv, nv);
        dvDq = new DMatrixRMaj(nv, nv);
        dvDv = new DMatrixRMaj(nv, nv);
        dvDtau = new DMatrixRMaj(nv, nv);
    }

    /**
     * The derivatives of the step the stepper just took from (q, v) under τ with step h (the same arguments, not
     * changed since). Fills the six matrices below.
     *
     * @throws IllegalStateException if the linear system of the step's modes is singular
     */
    public void compute(double[] q, double[] v, double[] tau, double h) {
        ContactProblem problem = stepper.lastProblem();
        ContactKinematics contacts = stepper.contacts();
        vBefore = v;
        int m = problem.rows();
        int n = nv + m;
        double[] J = stepper.lastRows();
        double[] lambda = stepper.lastImpulses();
        double[] w = stepper.lastIntegratedVelocity();
        double[] W = stepper.lastDelassus();
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
        dynamics.massMatrix(q, H);

        // restitution offsets differentiate u_n⁻ = J_n(q) v at v: their point motions first (update forgets wrenches)
        int nc = stepper.contactCount();
        Arrays.fill(offsetDq, 0, m * nv, 0);
        Arrays.fill(offsetDv, 0, m * nv, 0);
        boolean restitution = false;
        for (int c = 0; c < nc; c++) {
            restituting[c] = restitutionActive(contacts, c, h, beta);
            restitution |= restituting[c];
        }
        if (restitution) {
            motion.update(q, v, zero);
            for (int c = 0; c < nc; c++) {
                if (restituting[c]) {
                    int r = problem.blockStart(c);
                    double e = contacts.restitution(c);
                    contactRowMotion(contacts, c, 0, pointB, pointA, offsetDq, r * nv);
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
        motion.update(q, w, zero);
        motion.clearWrenches();
        for (int c = 0; c < nc; c++) {
            int r = problem.blockStart(c);
            for (int d = 0; d < 3; d++) {
                contactRowMotion(contacts, c, d, pointB, pointA, rowsDq, (r + d) * nv);
            }
            if (!restituting[c]) {
                // c_n = φ/h (φ ≥ 0) or β φ/h, φ = n · (p_B − p_A) − radius: ∂φ/∂q = n · (∂p_B − ∂p_A)
                double scale = contacts.gap(c) >= 0 ? 1 / h : beta / h;
                gapDerivative(contacts, c, scale, offsetDq, r * nv);
            }
            addContactWrenches(contacts, c, lambda[r], lambda[r + 1], lambda[r + 2]);
        }
        motion.wrenchDerivative(dForceDq);

        // the system
        Arrays.fill(k, 0, n * n, 0);
        Arrays.fill(rhs, 0, n * 3 * nv, 0);
        int cols = 3 * nv;
        double[] Hd = H.data;
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                k[i * n + j] = Hd[i * nv + j];
                rhs[i * cols + j] = -(h * dIdDq.data[i * nv + j] - dForceDq.data[i * nv + j]
                        - (nb > 0 ? bilateralForceDq.data[i * nv + j] : 0));
                rhs[i * cols + nv + j] = -(h * dIdDv.data[i * nv + j]) + Hd[i * nv + j];
            }
            k[i * n + i] += h * stepper.damping().coefficient(i);
            rhs[i * cols + 2 * nv + i] = h;
            for (int r = 0; r < m; r++) {
                k[i * n + nv + r] = -J[r * nv + i];
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
                    rhs[i * cols + nv + vi + c] += h * s1;
                    rhs[i * cols + nv + vi + 3 + c] += h * s2;
                }
            }
        }
        for (int block = 0; block < problem.blockCount(); block++) {
            int r = problem.blockStart(block);
            int kind = problem.blockKind(block);
            if (kind == ContactProblem.COULOMB) {
                modes[block] = contactRows(problem, block, J, W, lambda, w, r, n, cols);
            } else if (kind == ContactProblem.UNILATERAL) {
                modes[block] = limitRow(problem, block, J, W, lambda, w, r, n, cols, h, beta, q);
            } else {
                bilateralRow(problem, J, W, r, m - nb, n, cols, h, beta);
                modes[block] = STICKING;
            }
        }
        solve(n, cols);
        map(w, h);
    }

    private boolean restitutionActive(ContactKinematics contacts, int c, double h, double beta) {
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
        double offset = gap >= 0 ? gap / h : beta * gap / h;
        return un < -stepper.settings().restitutionThreshold() && gap + h * un <= 0 && e * un < offset;
    }

    /** The step's v, during {@link #compute} (the restitution offsets read u_n⁻ = J_n v). */
    private double[] vBefore;

    /** Out[o..o+nv) = ∂(row_d · ṗ)/∂q of contact c's row d at the motion's state (v = its velocity). */
    private void contactRowMotion(ContactKinematics contacts, int c, int d, PointMotion pb, PointMotion pa,
            double[] out, int o) {
        double fx = contacts.frame(c, d, 0), fy = contacts.frame(c, d, 1), fz = contacts.frame(c, d, 2);
        int body = contacts.body(c);
        double radius = contacts.radius(c);
        for (int i = 0; i < 3; i++) {
            point[i] = contacts.center(c, i);
        }
        motion.point(body, point, pb);
        double[] dv = pb.dVelocityDq();
        double[] dw = pb.dOmegaDq();
        // the contact point is the centre + d, d = −r n fixed in the world: ṗ = ċ + ω × d, so
        // row · ∂ṗ = row · ∂ċ + row · (∂ω × d) = row · ∂ċ + ∂ω · (d × row)
        double dx = -radius * contacts.frame(c, 0, 0), dy = -radius * contacts.frame(c, 0, 1);
        double dz = -radius * contacts.frame(c, 0, 2);
        double cx = dy * fz - dz * fy, cy = dz * fx - dx * fz, cz = dx * fy - dy * fx;
        for (int j = 0; j < nv; j++) {
            out[o + j] = fx * dv[j] + fy * dv[nv + j] + fz * dv[2 * nv + j]
                    + cx * dw[j] + cy * dw[nv + j] + cz * dw[2 * nv + j];
        }
        int other = contacts.otherBody(c);
        if (other >= 0) {
            for (int i = 0; i < 3; i++) {
                point[i] = contacts.otherBodyPoint(c, i);
            }
            motion.point(other, point, pa);
            double[] av = pa.dVelocityDq();
            for (int j = 0; j < nv; j++) {
                out[o + j] -= fx * av[j] + fy * av[nv + j] + fz * av[2 * nv + j];
            }
        }
    }

    /** Out[o..o+nv) = scale ∂φ/∂q of contact c, φ = n · (p_B − p_A) (the centre's position for a sphere). */
    private void gapDerivative(ContactKinematics contacts, int c, double scale, double[] out, int o) {
        double nx = contacts.frame(c, 0, 0), ny = contacts.frame(c, 0, 1), nz = contacts.frame(c, 0, 2);
        for (int i = 0; i < 3; i++) {
            point[i] = contacts.center(c, i);
        }
        motion.point(contacts.body(c), point, pointB);
        double[] dp = pointB.dPositionDq();
        for (int j = 0; j < nv; j++) {
            out[o + j] = scale * (nx * dp[j] + ny * dp[nv + j] + nz * dp[2 * nv + j]);
        }
        int other = contacts.otherBody(c);
        if (other >= 0) {
            for (int i = 0; i < 3; i++) {
                point[i] = contacts.otherBodyPoint(c, i);
            }
            motion.point(other, point, pointA);
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
                point[i] = contacts.otherBodyPoint(c, i);
            }
            wrench[0] = wrench[1] = wrench[2] = 0;
            wrench[3] = -fx;
            wrench[4] = -fy;
            wrench[5] = -fz;
            motion.addWrench(other, point, wrench, -1);
        }
    }

    /** The three rows of a contact block in its mode; returns the mode. */
    private int contactRows(ContactProblem problem, int block, double[] J, double[] W, double[] lambda, double[] w,
            int r, int n, int cols) {
        int m = problem.rows();
        double ln = lambda[r];
        double s1 = 0, s2 = 0;
        for (int j = 0; j < nv; j++) {
            s1 += J[(r + 1) * nv + j] * w[j];
            s2 += J[(r + 2) * nv + j] * w[j];
        }
        double mu = problem.blockFriction(block);
        if (!(ln > 0)) {
            // separated: λ = 0 (the solvers project an open contact's impulse to exactly 0)
            for (int d = 0; d < 3; d++) {
                k[(nv + r + d) * n + nv + r + d] = 1;
            }
            return SEPARATED;
        }
        double lt = Math.sqrt(lambda[r + 1] * lambda[r + 1] + lambda[r + 2] * lambda[r + 2]);
        double slip = Math.sqrt(s1 * s1 + s2 * s2);
        boolean sliding = !(lt < mu * ln * (1 - 1e-9)) && slip > SLIP_FLOOR;
        // the normal row (and, sticking, the tangential rows): J_d dw + ε dλ_d = −(∂(J_d w)/∂q + ∂c_d/∂q) dq − ∂c_d/∂v dv
        int rows = sliding ? 1 : 3;
        for (int d = 0; d < rows; d++) {
            int row = nv + r + d;
            for (int j = 0; j < nv; j++) {
                k[row * n + j] = J[(r + d) * nv + j];
                rhs[row * cols + j] = -(rowsDq[(r + d) * nv + j] + offsetDq[(r + d) * nv + j]);
                rhs[row * cols + nv + j] = -offsetDv[(r + d) * nv + j];
            }
            k[row * n + nv + r + d] = REGULARISATION * Math.max(W[(r + d) * m + r + d], Double.MIN_NORMAL);
        }
        if (!sliding) {
            return STICKING;
        }
        // dλ_t + μ ŝ dλ_n + (μ λ_n / ‖σ_t‖) P (J_t dw + ∂(J_t w)/∂q dq) = 0, ŝ = σ_t / ‖σ_t‖, P = I − ŝ ŝᵀ
        double u1 = s1 / slip, u2 = s2 / slip;
        double g = mu * ln / slip;
        for (int d = 0; d < 2; d++) {
            int row = nv + r + 1 + d;
            double sd = d == 0 ? u1 : u2;
            // row d of P = I − ŝ ŝᵀ
            double pa = (d == 0 ? 1 : 0) - sd * u1;
            double pb = (d == 1 ? 1 : 0) - sd * u2;
            k[row * n + nv + r + 1 + d] = 1;
            k[row * n + nv + r] = mu * sd;
            for (int j = 0; j < nv; j++) {
                double jt = pa * J[(r + 1) * nv + j] + pb * J[(r + 2) * nv + j];
                double rq = pa * rowsDq[(r + 1) * nv + j] + pb * rowsDq[(r + 2) * nv + j];
                k[row * n + j] = g * jt;
                rhs[row * cols + j] = -g * rq;
            }
        }
        return SLIDING;
    }

    /** A joint-limit row: held (±dw_k + ε dλ = −∂ω/∂q dq) or free (dλ = 0); returns the mode. */
    private int limitRow(ContactProblem problem, int block, double[] J, double[] W, double[] lambda, double[] w, int r,
            int n, int cols, double h, double beta, double[] q) {
        int row = nv + r;
        if (!(lambda[r] > 0)) {
            k[row * n + nv + r] = 1;
            return SEPARATED;
        }
        int src = stepper.rowSource(block);
        int limit = (-1 - src) / 2;
        boolean upper = ((-1 - src) & 1) == 1;
        int vi = stepper.limitV(limit);
        double sign = upper ? -1 : 1;
        double gap = sign * (q[stepper.limitQ(limit)] - stepper.limitBound(limit, upper));
        for (int j = 0; j < nv; j++) {
            k[row * n + j] = J[r * nv + j];
        }
        int m = problem.rows();
        k[row * n + nv + r] = REGULARISATION * Math.max(W[r * m + r], Double.MIN_NORMAL);
        rhs[row * cols + vi] = -sign * (gap >= 0 ? 1 / h : beta / h);
        return STICKING;
    }

    /**
     * A bilateral row, held: G_i dw + ε dλ_i = −(∂(G_i w)/∂q + (β/h) G_i) dq, its offset β φ / h differentiated with
     * ∂φ/∂q = G (exact where φ = 0, to first order in the drift elsewhere).
     */
    private void bilateralRow(ContactProblem problem, double[] J, double[] W, int r, int first, int n, int cols,
            double h, double beta) {
        int row = nv + r;
        int i = r - first;
        int m = problem.rows();
        for (int j = 0; j < nv; j++) {
            k[row * n + j] = J[r * nv + j];
            rhs[row * cols + j] = -(bilateralRowsDq.data[i * nv + j] + beta / h * J[r * nv + j]);
        }
        k[row * n + nv + r] = REGULARISATION * Math.max(W[r * m + r], Double.MIN_NORMAL);
    }

    /** Solves k X = rhs (n x n, n x cols) by LU with partial pivoting, X into rhs. */
    private void solve(int n, int cols) {
        double scale = 0;
        for (int i = 0; i < n * n; i++) {
            scale = Math.max(scale, Math.abs(k[i]));
        }
        for (int c = 0; c < n; c++) {
            int p = c;
            double best = Math.abs(k[c * n + c]);
            for (int r = c + 1; r < n; r++) {
                double x = Math.abs(k[r * n + c]);
                if (x > best) {
                    best = x;
                    p = r;
                }
            }
            if (!(best > 1e-300 * scale) || scale == 0) {
                throw new IllegalStateException("the step's linearised contact system is singular (column " + c
                        + ")");
            }
            if (p != c) {
                swapRows(k, n, c, p, n);
                swapRows(rhs, cols, c, p, cols);
            }
            double d = k[c * n + c];
            for (int r = c + 1; r < n; r++) {
                double f = k[r * n + c] / d;
                if (f == 0) {
                    continue;
                }
                k[r * n + c] = f;
                for (int j = c + 1; j < n; j++) {
                    k[r * n + j] -= f * k[c * n + j];
                }
                for (int j = 0; j < cols; j++) {
                    rhs[r * cols + j] -= f * rhs[c * cols + j];
                }
            }
        }
        // back substitution by rows: X_c = rhs_c / U_cc, then rhs_p −= U_pc X_c for p < c, each an update of a
        // whole row of cols entries (independent adds the JIT vectorises). The column-by-column dot products it
        // replaces were chains of dependent adds down a strided column: JFR put this solve at half of solo12's
        // step derivatives, most of it there.
        for (int c = n - 1; c >= 0; c--) {
            double inv = 1 / k[c * n + c];
            int oc = c * cols;
            for (int j = 0; j < cols; j++) {
                rhs[oc + j] *= inv;
            }
            for (int p = 0; p < c; p++) {
                double f = k[p * n + c];
                if (f == 0) {
                    continue;
                }
                int op = p * cols;
                for (int j = 0; j < cols; j++) {
                    rhs[op + j] -= f * rhs[oc + j];
                }
            }
        }
    }

    private static void swapRows(double[] x, int stride, int a, int b, int count) {
        for (int j = 0; j < count; j++) {
            double t = x[a * stride + j];
            x[a * stride + j] = x[b * stride + j];
            x[b * stride + j] = t;
        }
    }

    /** dw/dx is in rhs rows 0..nv (columns q | v | τ): maps it to q⁺ = q ⊕ h w and v⁺ = carry(w). */
    private void map(double[] w, double h) {
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
            for (int vi : ballV) {
                rotationBlock(w, vi, h, x, oq);
            }
            for (int vi : floatingV) {
                rotationBlock(w, vi, h, x, oq);
                // δp⁺ = Eᵀ (δp − h [w_O]× δθ + h dw_O);  dv_O⁺ = Eᵀ dw_O + h Eᵀ [w_O]× J_r(−h ω) dω
                double ox = w[vi + 3], oy = w[vi + 4], oz = w[vi + 5];
                rightJacobian(-h * w[vi], -h * w[vi + 1], -h * w[vi + 2], jrNeg);
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
                    oq[(vi + 3) * nv + j] = e3[0] * t0 + e3[3] * t1 + e3[6] * t2;
                    oq[(vi + 4) * nv + j] = e3[1] * t0 + e3[4] * t1 + e3[7] * t2;
                    oq[(vi + 5) * nv + j] = e3[2] * t0 + e3[5] * t1 + e3[8] * t2;
                    double d0 = rhs[vi * cols + x * nv + j];
                    double d1 = rhs[(vi + 1) * cols + x * nv + j];
                    double d2 = rhs[(vi + 2) * cols + x * nv + j];
                    // g = J_r(−h ω) dω, then [w_O]× g
                    double g0 = jrNeg[0] * d0 + jrNeg[1] * d1 + jrNeg[2] * d2;
                    double g1 = jrNeg[3] * d0 + jrNeg[4] * d1 + jrNeg[5] * d2;
                    double g2 = jrNeg[6] * d0 + jrNeg[7] * d1 + jrNeg[8] * d2;
                    double c0 = rhs[(vi + 3) * cols + x * nv + j] + h * (oy * g2 - oz * g1);
                    double c1 = rhs[(vi + 4) * cols + x * nv + j] + h * (oz * g0 - ox * g2);
                    double c2 = rhs[(vi + 5) * cols + x * nv + j] + h * (ox * g1 - oy * g0);
                    ov[(vi + 3) * nv + j] = e3[0] * c0 + e3[3] * c1 + e3[6] * c2;
                    ov[(vi + 4) * nv + j] = e3[1] * c0 + e3[4] * c1 + e3[7] * c2;
                    ov[(vi + 5) * nv + j] = e3[2] * c0 + e3[5] * c1 + e3[8] * c2;
                }
            }
        }
    }

    /**
     * The rotation rows of a quaternion joint at vi: δθ⁺ = Eᵀ δθ + h J_r(h ω) dω, and leaves E = exp(h [ω]×) in e3
     * (row-major) for the caller.
     */
    private void rotationBlock(double[] w, int vi, double h, int x, double[] oq) {
        double px = h * w[vi], py = h * w[vi + 1], pz = h * w[vi + 2];
        rotation(px, py, pz, e3);
        rightJacobian(px, py, pz, jr);
        int cols = 3 * nv;
        for (int j = 0; j < nv; j++) {
            double d0 = rhs[vi * cols + x * nv + j];
            double d1 = rhs[(vi + 1) * cols + x * nv + j];
            double d2 = rhs[(vi + 2) * cols + x * nv + j];
            double t0 = x == 0 && j == vi ? 1 : 0;
            double t1 = x == 0 && j == vi + 1 ? 1 : 0;
            double t2 = x == 0 && j == vi + 2 ? 1 : 0;
            for (int r = 0; r < 3; r++) {
                tmp[r] = e3[r] * t0 + e3[3 + r] * t1 + e3[6 + r] * t2
                        + h * (jr[3 * r] * d0 + jr[3 * r + 1] * d1 + jr[3 * r + 2] * d2);
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

    /** R = exp([φ]×), row-major. */
    private static void rotation(double px, double py, double pz, double[] out) {
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
        skewSquare(px, py, pz, a, b, out);
    }

    /** J_r(φ) = I − (1 − cos θ)/θ² [φ]× + (θ − sin θ)/θ³ [φ]×², row-major. */
    private static void rightJacobian(double px, double py, double pz, double[] out) {
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
        skewSquare(px, py, pz, -a, b, out);
    }

    /** out = I + a [φ]× + b [φ]×². */
    private static void skewSquare(double px, double py, double pz, double a, double b, double[] out) {
        double xx = px * px, yy = py * py, zz = pz * pz, xy = px * py, xz = px * pz, yz = py * pz;
        out[0] = 1 + b * (-yy - zz);
        out[1] = -a * pz + b * xy;
        out[2] = a * py + b * xz;
        out[3] = a * pz + b * xy;
        out[4] = 1 + b * (-xx - zz);
        out[5] = -a * px + b * yz;
        out[6] = -a * py + b * xz;
        out[7] = a * px + b * yz;
        out[8] = 1 + b * (-xx - yy);
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

    /** The mode of block b of the last step ({@link #SEPARATED}, {@link #STICKING}, {@link #SLIDING}). */
    public int mode(int block) {
        return modes[block];
    }
}
