package org.symdyn.dynamics;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.model.Model;
import org.symdyn.spatial.SpatialVectors;

/**
 * The kinematic half of the constrained-dynamics derivatives: how the motion of points fixed in bodies, and the
 * generalised forces of wrenches applied at them, change along every tangent direction of q and every component of
 * v, at one state (q, v, v̇). Analytical (no finite differences): O(nb + nv) per {@link #update} and
 * {@link #updateVelocities}, O(nv) per {@link #point}, O(Σ depths) per {@link #wrenchDerivative} of contact forces.
 *
 * <p><b>Point motion in closed form</b> (both updates; the formulas at {@link #updateVelocities} and
 * {@code closedFormPoint}): one pass gives every dof's twist, the twist and acceleration of what carries it and every
 * body's twist and acceleration, in one inertial frame; a point's column along q_k is then a few cross products.
 * JMH (generic {@code ConstrainedDerivativesBenchmark}, pinned, one sitting, ns per call): solo12 on 12 declared
 * rows 40,279 → 35,225, the quadruped 40,914 → 35,352, from the directional recursions below.
 *
 * <p><b>Point motion by directions</b> ({@code updateDirectional}, kept as the tests' oracle and, velocities only,
 * run lazily for wrenches carried by a body). The recursions give, along each direction, the derivatives δv_b and δa_b of every body's
 * spatial velocity and acceleration in its own coordinates, and the body's turn and slide η_b (the column of its body
 * Jacobian, [η_ω; η_v]). For a point r fixed in body b, with u_v = v_o + ω × r and u_a = a_o + ω̇ × r + ω × u_v its
 * velocity and classical acceleration in body coordinates, a world quantity R u changes as R (δu + η_ω × u) along q
 * (the frame turns by η_ω) and as R δu along v, with δu_v = δv_o + δω × r and
 * δu_a = δa_o + δω̇ × r + δω × u_v + ω × δu_v. The recursions run without gravity here (true accelerations).
 *
 * <p><b>Wrench derivatives.</b> A wrench W = [τ; f] (world-aligned, applied at a point r fixed in body b) whose
 * components are fixed in the orientation of a carrier body c (the world for a contact's force; the predecessor for
 * a loop's wrench) adds J_eᵀ W to the generalised forces, J_e the point frame's [ω; ṗ] Jacobian. In b's
 * coordinates at its origin it is F_b = [τ' + r × f'; f'] with [τ'; f'] = Rᵀ W; along a direction it turns by the
 * relative rotation δθ = R_bᵀ (δθ_b - δθ_c) (world rotation vectors): δ[τ'; f'] = -[δθ × τ'; δθ × f']. The RNEA
 * backward pass of these δF_b, with the moving-joint term on the wrenches' composite, gives ∂(Σ J_eᵀ W_e)/∂q.
 *
 * <p><b>Wrenches fixed in the world</b> (every carrier -1: contact forces) take a closed form instead, in one
 * inertial frame (world axes, origin o at each tree's root body where it stands), with the pairs of
 * {@link DofPairs}. With S_m = [ω_m; v_m] (v_m the velocity of the point at o), W_e = [n_e; f_e] at o
 * (n_e = τ_e + p_e × f_e), and over the wrenches on the subtree of body b the sums n_b, f_b and P_b = Σ p_e f_eᵀ
 * (s_b = tr P_b): along k the wrench points slide by ω_k × p + v_k and the S_m that k moves turn by S_k × S_m, so
 * <pre>
 *   m moved by k:   ∂τ_m/∂q_k = ω_k · Z_m,   Z_m = ω_m × n_b + v_m × f_b + P_bᵀ ω_m − s_b ω_m   (b = m's body)
 *   m above k:      ∂τ_m/∂q_k = ω_m · Y_k,   Y_k = P_j ω_k − s_j ω_k + v_k × f_j              (j = k's body)
 * </pre>
 * (the v_k of the sliding points cancels the turn's v_k × f in Z). Per dof two 3-vectors, per pair a dot product of
 * 3-vectors, where the directional form ran a backward pass over the subtree per direction, which JFR put at 14 %
 * of solo12's step and its derivatives ({@code StepDerivativesBenchmark}, generated, four feet); the call went from
 * 23.8 to 22.4 µs.
 *
 * <p>Not thread-safe. No allocation, except that the wrench list grows (doubling) the first time more wrenches are
 * added than ever before.
 */
public final class MotionDerivatives {
    private final DynamicsWorkspace ws;
    private final DerivativeRecursions rec;
    private final int nb;
    private final int nv;
    private final int[] bodyOfDof;
    /** moves[k nb + b]: dof k moves body b (its joint is b's or an ancestor's). */
    private final boolean[] moves;
    /** Per body: R (9, world &lt;- body), origin (3), v and a (6 each, body coordinates, a without gravity). */
    private final double[] rot;
    private final double[] pos;
    private final double[] vel;
    private final double[] acc;
    /** Per direction k and body b, 6 entries at 6 (k nb + b): η, δv and δa along q, δa along v (δv along v is η). */
    private final double[] eta;
    private final double[] dqv;
    private final double[] dqa;
    private final double[] dva;
    private boolean current;
    /** The last update was {@link #updateVelocities}: dqa and dva are stale. */
    private boolean velocitiesOnly;
    private long stamp;
    /** The last {@link #point} computed: into which object, at which update, for which body and point. */
    private PointMotion lastFill;
    private long lastStamp;
    private int lastBody;
    private final double[] lastPoint = new double[3];
    // Applied wrenches: body, point (3), components in the body's orientation (6), carrier; their body forces.
    private int wrenchCount;
    private int[] wBody = new int[4];
    private int[] wCarrier = new int[4];
    private double[] wPoint = new double[12];
    private double[] wLocal = new double[24];
    /** The wrenches as given: world components [τ; f]. */
    private double[] wWorld = new double[24];
    private final DofPairs pairs;
    private final int[] parent;
    private final int[] vIndex;
    private final int[] dofs;
    private final double[] subspace;
    /** Per body, the closed form's sums over the wrenches on its subtree: n (3), f (3), P (9, row-major). */
    private final double[] subN;
    private final double[] subF;
    private final double[] subP;
    private final boolean[] loaded;
    /**
     * Per body: its origin from its tree's root body's, world axes, composed down the tree from the joints' own
     * translations (a difference of world positions would lose their magnitude's digits: 1.5e-13 of the entries with
     * a floating base 1 km away, against 1e-15 so).
     */
    private final double[] fromRoot;
    /** Per dof: S_m = [ω_m; v_m] (world axes, v_m at its tree's o: 3 + 3), Z_m, Y_m (3 each). */
    private final double[] dofOmega;
    private final double[] dofVel;
    /** Per dof: V_p, the twist of what carries it before it moves (world axes at o); per body: its twist there. */
    private final double[] carrierTwist;
    private final double[] bodyTwist;
    /**
     * Per body its spatial acceleration at o (no gravity); per dof the acceleration A_p,k of what carries it before
     * it moves, its Ṡ_k, and V_i,k, the twist of what carries it with dof k's own rate included (V_c,k for a chain
     * joint's dof, the parent's twist for a joint moving its child as one): the closed form of {@link #update}.
     */
    private final double[] bodyAcc;
    private final double[] carrierAcc;
    private final double[] sDot;
    private final double[] rateTwist;
    /** The last update ran the directional recursions for every query ({@link #updateDirectional}, tests' oracle). */
    private boolean directional;
    /** The state of the last update, for the directions a carried wrench needs after {@link #updateVelocities}. */
    private final double[] lastQ;
    private final double[] lastV;
    /** eta and dqv hold the directional recursions of the last update. */
    private boolean directionsCurrent;
    private final double[] dofZ;
    private final double[] dofY;
    private final double[] ext;
    private final double[] t3a = new double[3];
    private final double[] t3b = new double[3];
    private final double[] t3c = new double[3];
    private final double[] t3d = new double[3];
    private final double[] t3e = new double[3];
    private final double[] t6 = new double[6];

    /** Workspaces for {@code model}, with recursions of their own. */
    public MotionDerivatives(Model model) {
        ws = new DynamicsWorkspace(model);
        // an update computes the joint transforms twice at one q (the world poses, then the motion pass): the second
        // reuses the first (a private workspace; the memo compares q by value)
        ws.joints.memoize(true);
        rec = new DerivativeRecursions(new FlatModel(model), ws, false);
        JointTransforms joints = ws.joints;
        nb = ws.nb;
        nv = ws.nv;
        bodyOfDof = new int[nv];
        for (int b = 0; b < nb; b++) {
            for (int d = 0; d < joints.dofs[b]; d++) {
                bodyOfDof[joints.vIndex[b] + d] = b;
            }
        }
        moves = new boolean[nv * nb];
        for (int k = 0; k < nv; k++) {
            for (int b = 0; b < nb; b++) {
                for (int a = b; a >= 0 && !moves[k * nb + b]; a = joints.parent[a]) {
                    moves[k * nb + b] = a == bodyOfDof[k];
                }
            }
        }
        rot = new double[9 * nb];
        pos = new double[3 * nb];
        vel = new double[6 * nb];
        acc = new double[6 * nb];
        eta = new double[6 * nb * nv];
        dqv = new double[6 * nb * nv];
        dqa = new double[6 * nb * nv];
        dva = new double[6 * nb * nv];
        ext = new double[6 * nb];
        pairs = new DofPairs(joints);
        parent = joints.parent;
        vIndex = joints.vIndex;
        dofs = joints.dofs;
        subspace = joints.s;
        subN = new double[3 * nb];
        subF = new double[3 * nb];
        subP = new double[9 * nb];
        loaded = new boolean[nb];
        fromRoot = new double[3 * nb];
        dofOmega = new double[3 * nv];
        dofVel = new double[3 * nv];
        carrierTwist = new double[6 * nv];
        bodyTwist = new double[6 * nb];
        bodyAcc = new double[6 * nb];
        carrierAcc = new double[6 * nv];
        sDot = new double[6 * nv];
        rateTwist = new double[6 * nv];
        lastQ = new double[ws.nq];
        lastV = new double[nv];
        dofZ = new double[3 * nv];
        dofY = new double[3 * nv];
    }

    /**
     * Counts the {@link #update}s: a caller that keeps a {@link PointMotion} may refill it only when this has changed
     * since its last fill.
     */
    public long stamp() {
        return stamp;
    }

    /** Number of velocity coordinates. */
    public int nv() {
        return nv;
    }

    /** Number of bodies. */
    public int bodyCount() {
        return nb;
    }

    /**
     * Computes every body's motion derivatives at (q, v, v̇), for the {@link #point} and {@link #wrenchDerivative}
     * queries that follow: the inertial-frame pass of {@link #updateVelocities} and the accelerations of
     * {@code closedFormPoint} (true accelerations, no gravity).
     *
     * @throws IllegalArgumentException if q is not of nq entries or v, v̇ not of nv
     */
    public void update(double[] q, double[] v, double[] vdot) {
        Arguments.checkLength(q, ws.nq, "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(vdot, nv, "vdot");
        closedForm(q, v, vdot);
    }

    /** Both updates' closed form; velocities alone for a null v̇. */
    private void closedForm(double[] q, double[] v, double[] vdot) {
        ForwardKinematics.worldPoses(ws, q, rot, pos);
        inertialFrame(v);
        if (vdot != null) {
            inertialAccelerations(v, vdot);
        }
        System.arraycopy(q, 0, lastQ, 0, q.length);
        System.arraycopy(v, 0, lastV, 0, nv);
        directionsCurrent = false;
        directional = false;
        wrenchCount = 0;
        stamp++;
        current = true;
        velocitiesOnly = vdot == null;
    }

    /**
     * {@link #update} by the directional recursions, every direction's motion carried through its subtree in body
     * coordinates (what {@link #update} ran before its closed form): kept as the closed form's oracle in tests.
     */
    void updateDirectional(double[] q, double[] v, double[] vdot) {
        Arguments.checkLength(q, ws.nq, "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(vdot, nv, "vdot");
        ForwardKinematics.worldPoses(ws, q, rot, pos);
        rec.prepareMotionOnly(q, v, vdot);
        System.arraycopy(ws.vel, 0, vel, 0, 6 * nb);
        System.arraycopy(ws.acc, 0, acc, 0, 6 * nb);
        for (int k = 0; k < nv; k++) {
            int j = bodyOfDof[k];
            rec.motion(j, k, true, v);
            store(k, rec.dv, dqv);
            store(k, rec.da, dqa);
            rec.motion(j, k, false, v);
            store(k, rec.dv, eta);
            store(k, rec.da, dva);
        }
        inertialFrame(v);
        directionsCurrent = true;
        directional = true;
        wrenchCount = 0;
        stamp++;
        current = true;
        velocitiesOnly = false;
    }

    /**
     * The velocity half of {@link #update} at (q, v): what a {@link #point}'s pose, velocities and their derivatives
     * along q and v, and {@link #wrenchDerivative}, need; a point's accelerations and their derivatives come out NaN
     * until the next {@link #update}. In closed form in one inertial frame (world axes, origin o at each tree's root
     * body where it stands): one pass gives every dof's twist S_k = [ω_k; v_k], the twist V_p,k of what carries it
     * before it moves ({@link DofPairs}) and every body's twist V_b, at o. Along q_k (k moving b) the twists that k
     * moves turn by S_k ×, so ∂V_b/∂q_k = S_k × (V_b − V_p,k), and a point p of b slides by ∂p = v_k + ω_k × (p − o):
     * <pre>
     *   ∂ω/∂q_k = ω_k × Δω,   ∂ṗ/∂q_k = (ω_k × Δv + v_k × Δω) + ∂ω/∂q_k × (p − o) + ω_b × ∂p,   ΔV = V_b − V_p,k
     * </pre>
     * and along v the point's Jacobian (ω_k, ∂p). Per point O(nv) with a few cross products per column, where the
     * directional form (what {@link #update} still runs, for the accelerations) carried each direction's motion
     * through its subtree: JFR put that at 11 % of solo12's step and derivatives, which read velocities only.
     *
     * @throws IllegalArgumentException if q is not of nq entries or v not of nv
     */
    public void updateVelocities(double[] q, double[] v) {
        Arguments.checkLength(q, ws.nq, "q");
        Arguments.checkLength(v, nv, "v");
        closedForm(q, v, null);
    }

    /**
     * The directional recursions of the velocities (δv along q, η) at the last closed-form update's state, for a
     * wrench carried by a body; a no-op when they are current.
     */
    private void ensureDirections() {
        if (directionsCurrent) {
            return;
        }
        rec.prepareVelocitiesOnly(lastQ, lastV);
        for (int k = 0; k < nv; k++) {
            int j = bodyOfDof[k];
            rec.motion(j, k, true, lastV, false);
            store(k, rec.dv, dqv);
            rec.motion(j, k, false, lastV, false);
            store(k, rec.dv, eta);
        }
        directionsCurrent = true;
    }

    /**
     * Every body's origin from its tree's root body's ({@link #fromRoot}), every dof's twist S_k and carrier twist
     * V_p,k, and every body's twist V_b, world axes at o, from the world poses and the joints at this q.
     */
    private void inertialFrame(double[] v) {
        for (int b = 0; b < nb; b++) {
            int p = parent[b];
            int b3 = 3 * b;
            int b6 = 6 * b;
            if (p < 0) {
                fromRoot[b3] = 0;
                fromRoot[b3 + 1] = 0;
                fromRoot[b3 + 2] = 0;
                Arrays.fill(bodyTwist, b6, b6 + 6, 0.0);
            } else {
                double[] r = ws.joints.xUp[b].r;
                rotate(p, r[0], r[1], r[2], fromRoot, b3, 1);
                for (int c = 0; c < 3; c++) {
                    fromRoot[b3 + c] += fromRoot[3 * p + c];
                }
                System.arraycopy(bodyTwist, 6 * p, bodyTwist, b6, 6);
            }
            double d0 = fromRoot[b3], d1 = fromRoot[b3 + 1], d2 = fromRoot[b3 + 2];
            for (int d = 0; d < dofs[b]; d++) {
                int m = vIndex[b] + d;
                int o6 = 6 * m;
                int o = 3 * m;
                rotate(b, subspace[o6], subspace[o6 + 1], subspace[o6 + 2], dofOmega, o, 1);
                rotate(b, subspace[o6 + 3], subspace[o6 + 4], subspace[o6 + 5], dofVel, o, 1);
                double w0 = dofOmega[o], w1 = dofOmega[o + 1], w2 = dofOmega[o + 2];
                // at o: the twist's velocity at b's origin plus (p_b − o) × ω
                dofVel[o] += d1 * w2 - d2 * w1;
                dofVel[o + 1] += d2 * w0 - d0 * w2;
                dofVel[o + 2] += d0 * w1 - d1 * w0;
            }
            // V_p: the parent's twist for a joint that moves its child as one, else the chain's twist before the dof
            for (int d = 0; d < dofs[b]; d++) {
                int m = vIndex[b] + d;
                System.arraycopy(bodyTwist, b6, carrierTwist, 6 * m, 6);
                if (!pairs.together[b]) {
                    addTwist(b6, m, v[m]);
                }
            }
            if (pairs.together[b]) {
                for (int d = 0; d < dofs[b]; d++) {
                    int m = vIndex[b] + d;
                    addTwist(b6, m, v[m]);
                }
            }
        }
    }

    /**
     * Every body's spatial acceleration at o and, per dof, A_p,k, Ṡ_k and V_i,k (see the fields), after
     * {@link #inertialFrame}: a += S v̇ + Ṡ v dof by dof, Ṡ = V_c × S for a joint moving its child as one, V_p × S
     * taken before the dof moves for a chain, as {@link InertialFrameDerivatives}' pass has them.
     */
    private void inertialAccelerations(double[] v, double[] vdot) {
        for (int b = 0; b < nb; b++) {
            int p = parent[b];
            int b6 = 6 * b;
            if (p < 0) {
                Arrays.fill(bodyAcc, b6, b6 + 6, 0.0);
            } else {
                System.arraycopy(bodyAcc, 6 * p, bodyAcc, b6, 6);
            }
            // A_p: the parent's for every dof of a joint moving its child as one (nothing of the joint added yet),
            // else the chain's acceleration before the dof
            boolean together = pairs.together[b];
            for (int d = 0; d < dofs[b]; d++) {
                int m = vIndex[b] + d;
                int m6 = 6 * m;
                int m3 = 3 * m;
                System.arraycopy(bodyAcc, b6, carrierAcc, m6, 6);
                if (together) {
                    crossMotion(bodyTwist, b6, m3, sDot, m6);
                    System.arraycopy(carrierTwist, m6, rateTwist, m6, 6);
                } else {
                    crossMotion(carrierTwist, m6, m3, sDot, m6);
                    for (int c = 0; c < 3; c++) {
                        rateTwist[m6 + c] = carrierTwist[m6 + c] + dofOmega[m3 + c] * v[m];
                        rateTwist[m6 + 3 + c] = carrierTwist[m6 + 3 + c] + dofVel[m3 + c] * v[m];
                    }
                    addAcceleration(b6, m, v[m], vdot[m]);
                }
            }
            if (together) {
                for (int d = 0; d < dofs[b]; d++) {
                    int m = vIndex[b] + d;
                    addAcceleration(b6, m, v[m], vdot[m]);
                }
            }
        }
    }

    /** bodyAcc at b6 += S_m v̇_m + Ṡ_m v_m. */
    private void addAcceleration(int b6, int m, double rate, double accel) {
        int m3 = 3 * m;
        int m6 = 6 * m;
        for (int c = 0; c < 3; c++) {
            bodyAcc[b6 + c] += dofOmega[m3 + c] * accel + sDot[m6 + c] * rate;
            bodyAcc[b6 + 3 + c] += dofVel[m3 + c] * accel + sDot[m6 + 3 + c] * rate;
        }
    }

    /** out at oo = x (6 entries at xo) × S_m, dof m's twist gathered from its two halves. */
    private void crossMotion(double[] x, int xo, int m3, double[] out, int oo) {
        for (int c = 0; c < 3; c++) {
            t6[c] = dofOmega[m3 + c];
            t6[3 + c] = dofVel[m3 + c];
        }
        SpatialVectors.crossMotion(x, xo, t6, 0, out, oo);
    }

    /** bodyTwist at b6 += S_m x. */
    private void addTwist(int b6, int m, double x) {
        int o = 3 * m;
        for (int c = 0; c < 3; c++) {
            bodyTwist[b6 + c] += dofOmega[o + c] * x;
            bodyTwist[b6 + 3 + c] += dofVel[o + c] * x;
        }
    }

    /**
     * Copies the recursion's per-body values of direction k on the direction's subtree. Off it they are zero, and stay
     * so from the constructor: the subtree of a direction is the model's, the same at every update, and nothing else
     * writes these arrays. Six entries at a time by hand: a System.arraycopy or Arrays.fill call per body (what this
     * was, zeros included) cost more than the copy.
     */
    private void store(int k, double[] from, double[] to) {
        int base = 6 * k * nb;
        boolean[] in = rec.inSubtree;
        for (int b = 0; b < nb; b++) {
            if (in[b]) {
                int o = 6 * b;
                int t = base + o;
                to[t] = from[o];
                to[t + 1] = from[o + 1];
                to[t + 2] = from[o + 2];
                to[t + 3] = from[o + 3];
                to[t + 4] = from[o + 4];
                to[t + 5] = from[o + 5];
            }
        }
    }

    /**
     * The motion of the point {@code point} (body coordinates; world coordinates for body -1, the world) and its
     * derivatives at the last {@link #update}'s state, into {@code out}.
     *
     * @throws IllegalStateException     before the first update
     * @throws IllegalArgumentException  if point does not have 3 entries or out is for another nv
     * @throws IndexOutOfBoundsException if body is not -1 or a body index
     */
    public void point(int body, double[] point, PointMotion out) {
        checkCurrent();
        Arguments.checkLength(point, 3, "point");
        if (out.nv != nv) {
            throw new IllegalArgumentException("the point motion has " + out.nv + " columns, the model " + nv);
        }
        if (body == -1) {
            out.setWorldPoint(point);
            return;
        }
        Arguments.checkIndex(body, nb, "body");
        // Rows at one point (a contact's x, y and z rows, each its own provider) ask in turn: copy the last fill.
        PointMotion last = lastFill;
        if (last != null && last != out && lastStamp == stamp && lastBody == body && lastPoint[0] == point[0]
                && lastPoint[1] == point[1] && lastPoint[2] == point[2]) {
            out.copyFrom(last);
            return;
        }
        lastFill = out;
        lastStamp = stamp;
        lastBody = body;
        System.arraycopy(point, 0, lastPoint, 0, 3);
        if (!directional) {
            closedFormPoint(body, point[0], point[1], point[2], out);
            return;
        }
        int b6 = 6 * body;
        double r0 = point[0], r1 = point[1], r2 = point[2];
        double w0 = vel[b6], w1 = vel[b6 + 1], w2 = vel[b6 + 2];
        // u_v = v_o + ω × r, u_a = a_o + ω̇ × r + ω × u_v (body coordinates).
        double uv0 = vel[b6 + 3] + w1 * r2 - w2 * r1;
        double uv1 = vel[b6 + 4] + w2 * r0 - w0 * r2;
        double uv2 = vel[b6 + 5] + w0 * r1 - w1 * r0;
        double dw0 = acc[b6], dw1 = acc[b6 + 1], dw2 = acc[b6 + 2];
        double ua0 = acc[b6 + 3] + dw1 * r2 - dw2 * r1 + w1 * uv2 - w2 * uv1;
        double ua1 = acc[b6 + 4] + dw2 * r0 - dw0 * r2 + w2 * uv0 - w0 * uv2;
        double ua2 = acc[b6 + 5] + dw0 * r1 - dw1 * r0 + w0 * uv1 - w1 * uv0;
        System.arraycopy(rot, 9 * body, out.rotation, 0, 9);
        rotate(body, r0, r1, r2, out.position, 0, 1);
        for (int i = 0; i < 3; i++) {
            out.position[i] += pos[3 * body + i];
        }
        rotate(body, w0, w1, w2, out.omega, 0, 1);
        rotate(body, uv0, uv1, uv2, out.velocity, 0, 1);
        rotate(body, dw0, dw1, dw2, out.omegaDot, 0, 1);
        rotate(body, ua0, ua1, ua2, out.acceleration, 0, 1);
        for (int k = 0; k < nv; k++) {
            if (!moves[k * nb + body]) {
                zeroColumn(out, k);
                continue;
            }
            int o = 6 * (k * nb + body);
            double e0 = eta[o], e1 = eta[o + 1], e2 = eta[o + 2];
            // The point's slide in body coordinates, η_v + η_ω × r: its turn and slide are the pose's derivative
            // along q (δθ = R η_ω, δp = R (η_v + η_ω × r)) and its velocity's along v.
            double dv0 = eta[o + 3] + e1 * r2 - e2 * r1;
            double dv1 = eta[o + 4] + e2 * r0 - e0 * r2;
            double dv2 = eta[o + 5] + e0 * r1 - e1 * r0;
            column(out.dRotationDq, k, body, e0, e1, e2);
            column(out.dPositionDq, k, body, dv0, dv1, dv2);
            // Along q: R (δu + η_ω × u).
            double x0 = dqv[o], x1 = dqv[o + 1], x2 = dqv[o + 2];
            column(out.dOmegaDq, k, body, x0 + e1 * w2 - e2 * w1, x1 + e2 * w0 - e0 * w2, x2 + e0 * w1 - e1 * w0);
            double du0 = dqv[o + 3] + x1 * r2 - x2 * r1;
            double du1 = dqv[o + 4] + x2 * r0 - x0 * r2;
            double du2 = dqv[o + 5] + x0 * r1 - x1 * r0;
            column(out.dVelocityDq, k, body, du0 + e1 * uv2 - e2 * uv1, du1 + e2 * uv0 - e0 * uv2,
                    du2 + e0 * uv1 - e1 * uv0);
            double y0 = dqa[o], y1 = dqa[o + 1], y2 = dqa[o + 2];
            column(out.dOmegaDotDq, k, body, y0 + e1 * dw2 - e2 * dw1, y1 + e2 * dw0 - e0 * dw2,
                    y2 + e0 * dw1 - e1 * dw0);
            double da0 = dqa[o + 3] + y1 * r2 - y2 * r1 + x1 * uv2 - x2 * uv1 + w1 * du2 - w2 * du1;
            double da1 = dqa[o + 4] + y2 * r0 - y0 * r2 + x2 * uv0 - x0 * uv2 + w2 * du0 - w0 * du2;
            double da2 = dqa[o + 5] + y0 * r1 - y1 * r0 + x0 * uv1 - x1 * uv0 + w0 * du1 - w1 * du0;
            column(out.dAccelerationDq, k, body, da0 + e1 * ua2 - e2 * ua1, da1 + e2 * ua0 - e0 * ua2,
                    da2 + e0 * ua1 - e1 * ua0);
            // Along v: δω = η_ω, δv_o = η_v, so δu_v is the slide above; R δu.
            double z0 = dva[o], z1 = dva[o + 1], z2 = dva[o + 2];
            column(out.dOmegaDotDv, k, body, z0, z1, z2);
            column(out.dAccelerationDv, k, body,
                    dva[o + 3] + z1 * r2 - z2 * r1 + e1 * uv2 - e2 * uv1 + w1 * dv2 - w2 * dv1,
                    dva[o + 4] + z2 * r0 - z0 * r2 + e2 * uv0 - e0 * uv2 + w2 * dv0 - w0 * dv2,
                    dva[o + 5] + z0 * r1 - z1 * r0 + e0 * uv1 - e1 * uv0 + w0 * dv1 - w1 * dv0);
        }
    }

    /**
     * {@link #point} in closed form: after {@link #updateVelocities} the velocities of its comment, accelerations NaN;
     * after {@link #update} also the accelerations. With A_b the body's spatial acceleration at o, ΔA = A_b − A_p,k,
     * w = S_k × V_p,k and V_i,k of the fields, the moved part's Ṡ_m turning with it gives
     * <pre>
     *   ∂A_b/∂q_k = S_k × ΔA + ΔV × w,   ∂A_b/∂v_k = Ṡ_k + S_k × (V_b − V_i,k)
     * </pre>
     * and the point's classical acceleration p̈ = a_o + ω̇ × x + ω × u (u = v_o + ω × x, x = p − o) is differentiated
     * through them: ∂p̈ = ∂a_o + ∂ω̇ × x + ω̇ × ∂x + ∂ω × u + ω × ∂u.
     */
    private void closedFormPoint(int body, double r0, double r1, double r2, PointMotion out) {
        boolean accelerations = !velocitiesOnly;
        System.arraycopy(rot, 9 * body, out.rotation, 0, 9);
        rotate(body, r0, r1, r2, t3a, 0, 1);
        int b3 = 3 * body;
        // x = p − o
        double x0 = t3a[0] + fromRoot[b3], x1 = t3a[1] + fromRoot[b3 + 1], x2 = t3a[2] + fromRoot[b3 + 2];
        for (int i = 0; i < 3; i++) {
            out.position[i] = t3a[i] + pos[b3 + i];
        }
        int b6 = 6 * body;
        double w0 = bodyTwist[b6], w1 = bodyTwist[b6 + 1], w2 = bodyTwist[b6 + 2];
        double v0 = bodyTwist[b6 + 3], v1 = bodyTwist[b6 + 4], v2 = bodyTwist[b6 + 5];
        double u0 = v0 + w1 * x2 - w2 * x1;
        double u1 = v1 + w2 * x0 - w0 * x2;
        double u2 = v2 + w0 * x1 - w1 * x0;
        out.omega[0] = w0;
        out.omega[1] = w1;
        out.omega[2] = w2;
        out.velocity[0] = u0;
        out.velocity[1] = u1;
        out.velocity[2] = u2;
        double g0 = Double.NaN, g1 = Double.NaN, g2 = Double.NaN;
        double h0 = Double.NaN, h1 = Double.NaN, h2 = Double.NaN;
        if (accelerations) {
            g0 = bodyAcc[b6];
            g1 = bodyAcc[b6 + 1];
            g2 = bodyAcc[b6 + 2];
            h0 = bodyAcc[b6 + 3];
            h1 = bodyAcc[b6 + 4];
            h2 = bodyAcc[b6 + 5];
        }
        out.omegaDot[0] = g0;
        out.omegaDot[1] = g1;
        out.omegaDot[2] = g2;
        out.acceleration[0] = h0 + g1 * x2 - g2 * x1 + w1 * u2 - w2 * u1;
        out.acceleration[1] = h1 + g2 * x0 - g0 * x2 + w2 * u0 - w0 * u2;
        out.acceleration[2] = h2 + g0 * x1 - g1 * x0 + w0 * u1 - w1 * u0;
        for (int k = 0; k < nv; k++) {
            if (!moves[k * nb + body]) {
                zeroColumn(out, k);
                continue;
            }
            int o = 3 * k;
            int o6 = 6 * k;
            double a0 = dofOmega[o], a1 = dofOmega[o + 1], a2 = dofOmega[o + 2];
            double c0 = dofVel[o], c1 = dofVel[o + 1], c2 = dofVel[o + 2];
            double e0 = w0 - carrierTwist[o6], e1 = w1 - carrierTwist[o6 + 1], e2 = w2 - carrierTwist[o6 + 2];
            double f0 = v0 - carrierTwist[o6 + 3], f1 = v1 - carrierTwist[o6 + 4], f2 = v2 - carrierTwist[o6 + 5];
            // ∂ω = ω_k × Δω; ∂v_o = ω_k × Δv + v_k × Δω; ∂p = v_k + ω_k × x
            double dw0 = a1 * e2 - a2 * e1, dw1 = a2 * e0 - a0 * e2, dw2 = a0 * e1 - a1 * e0;
            double dv0 = a1 * f2 - a2 * f1 + c1 * e2 - c2 * e1;
            double dv1 = a2 * f0 - a0 * f2 + c2 * e0 - c0 * e2;
            double dv2 = a0 * f1 - a1 * f0 + c0 * e1 - c1 * e0;
            double dp0 = c0 + a1 * x2 - a2 * x1, dp1 = c1 + a2 * x0 - a0 * x2, dp2 = c2 + a0 * x1 - a1 * x0;
            // ∂u = ∂v_o + ∂ω × x + ω × ∂p
            double du0 = dv0 + dw1 * x2 - dw2 * x1 + w1 * dp2 - w2 * dp1;
            double du1 = dv1 + dw2 * x0 - dw0 * x2 + w2 * dp0 - w0 * dp2;
            double du2 = dv2 + dw0 * x1 - dw1 * x0 + w0 * dp1 - w1 * dp0;
            set(out.dRotationDq, k, a0, a1, a2);
            set(out.dPositionDq, k, dp0, dp1, dp2);
            set(out.dOmegaDq, k, dw0, dw1, dw2);
            set(out.dVelocityDq, k, du0, du1, du2);
            if (!accelerations) {
                continue;
            }
            // w = S_k × V_p,k
            double p0 = carrierTwist[o6], p1 = carrierTwist[o6 + 1], p2 = carrierTwist[o6 + 2];
            double q0 = carrierTwist[o6 + 3], q1 = carrierTwist[o6 + 4], q2 = carrierTwist[o6 + 5];
            double ww0 = a1 * p2 - a2 * p1, ww1 = a2 * p0 - a0 * p2, ww2 = a0 * p1 - a1 * p0;
            double wv0 = a1 * q2 - a2 * q1 + c1 * p2 - c2 * p1;
            double wv1 = a2 * q0 - a0 * q2 + c2 * p0 - c0 * p2;
            double wv2 = a0 * q1 - a1 * q0 + c0 * p1 - c1 * p0;
            // ΔA
            double ga0 = g0 - carrierAcc[o6], ga1 = g1 - carrierAcc[o6 + 1], ga2 = g2 - carrierAcc[o6 + 2];
            double ha0 = h0 - carrierAcc[o6 + 3], ha1 = h1 - carrierAcc[o6 + 4], ha2 = h2 - carrierAcc[o6 + 5];
            // ∂ω̇ = ω_k × Δω̇ + Δω × w_ω;  ∂a_o = ω_k × Δa + v_k × Δω̇ + Δω × w_v + Δv × w_ω
            double dg0 = a1 * ga2 - a2 * ga1 + e1 * ww2 - e2 * ww1;
            double dg1 = a2 * ga0 - a0 * ga2 + e2 * ww0 - e0 * ww2;
            double dg2 = a0 * ga1 - a1 * ga0 + e0 * ww1 - e1 * ww0;
            double dh0 = a1 * ha2 - a2 * ha1 + c1 * ga2 - c2 * ga1 + e1 * wv2 - e2 * wv1 + f1 * ww2 - f2 * ww1;
            double dh1 = a2 * ha0 - a0 * ha2 + c2 * ga0 - c0 * ga2 + e2 * wv0 - e0 * wv2 + f2 * ww0 - f0 * ww2;
            double dh2 = a0 * ha1 - a1 * ha0 + c0 * ga1 - c1 * ga0 + e0 * wv1 - e1 * wv0 + f0 * ww1 - f1 * ww0;
            set(out.dOmegaDotDq, k, dg0, dg1, dg2);
            // ∂p̈ = ∂a_o + ∂ω̇ × x + ω̇ × ∂p + ∂ω × u + ω × ∂u
            set(out.dAccelerationDq, k,
                    dh0 + dg1 * x2 - dg2 * x1 + g1 * dp2 - g2 * dp1 + dw1 * u2 - dw2 * u1 + w1 * du2 - w2 * du1,
                    dh1 + dg2 * x0 - dg0 * x2 + g2 * dp0 - g0 * dp2 + dw2 * u0 - dw0 * u2 + w2 * du0 - w0 * du2,
                    dh2 + dg0 * x1 - dg1 * x0 + g0 * dp1 - g1 * dp0 + dw0 * u1 - dw1 * u0 + w0 * du1 - w1 * du0);
            // along v: ∂A_b/∂v_k = Ṡ_k + S_k × (V_b − V_i,k); ∂V_b/∂v_k = S_k, ∂u/∂v_k = ∂p
            double ei0 = w0 - rateTwist[o6], ei1 = w1 - rateTwist[o6 + 1], ei2 = w2 - rateTwist[o6 + 2];
            double fi0 = v0 - rateTwist[o6 + 3], fi1 = v1 - rateTwist[o6 + 4], fi2 = v2 - rateTwist[o6 + 5];
            double zg0 = sDot[o6] + a1 * ei2 - a2 * ei1;
            double zg1 = sDot[o6 + 1] + a2 * ei0 - a0 * ei2;
            double zg2 = sDot[o6 + 2] + a0 * ei1 - a1 * ei0;
            double zh0 = sDot[o6 + 3] + a1 * fi2 - a2 * fi1 + c1 * ei2 - c2 * ei1;
            double zh1 = sDot[o6 + 4] + a2 * fi0 - a0 * fi2 + c2 * ei0 - c0 * ei2;
            double zh2 = sDot[o6 + 5] + a0 * fi1 - a1 * fi0 + c0 * ei1 - c1 * ei0;
            set(out.dOmegaDotDv, k, zg0, zg1, zg2);
            set(out.dAccelerationDv, k,
                    zh0 + zg1 * x2 - zg2 * x1 + a1 * u2 - a2 * u1 + w1 * dp2 - w2 * dp1,
                    zh1 + zg2 * x0 - zg0 * x2 + a2 * u0 - a0 * u2 + w2 * dp0 - w0 * dp2,
                    zh2 + zg0 * x1 - zg1 * x0 + a0 * u1 - a1 * u0 + w0 * dp1 - w1 * dp0);
        }
        if (!accelerations) {
            int n = 3 * nv;
            Arrays.fill(out.dOmegaDotDq, 0, n, Double.NaN);
            Arrays.fill(out.dAccelerationDq, 0, n, Double.NaN);
            Arrays.fill(out.dOmegaDotDv, 0, n, Double.NaN);
            Arrays.fill(out.dAccelerationDv, 0, n, Double.NaN);
        }
    }

    /** Column k of a 3 x nv array. */
    private void set(double[] m, int k, double x0, double x1, double x2) {
        m[k] = x0;
        m[nv + k] = x1;
        m[2 * nv + k] = x2;
    }

    /** Column k of every derivative of {@code out} set to zero: dof k does not move the body. */
    private void zeroColumn(PointMotion out, int k) {
        zero(out.dRotationDq, k);
        zero(out.dPositionDq, k);
        zero(out.dOmegaDq, k);
        zero(out.dVelocityDq, k);
        zero(out.dOmegaDotDq, k);
        zero(out.dAccelerationDq, k);
        zero(out.dOmegaDotDv, k);
        zero(out.dAccelerationDv, k);
    }

    private void zero(double[] m, int k) {
        m[k] = 0;
        m[nv + k] = 0;
        m[2 * nv + k] = 0;
    }

    /** Forgets the applied wrenches. */
    public void clearWrenches() {
        wrenchCount = 0;
    }

    /**
     * Adds a wrench W = [τ; f] (world-aligned, N m and N) applied at {@code point} of {@code body} (body
     * coordinates), its components fixed in the orientation of {@code carrier} (-1: the world), at the last
     * {@link #update}'s q. A wrench on the world (body -1) moves nothing and is ignored. {@link #update} forgets
     * the wrenches added before it.
     *
     * @throws IllegalStateException     before the first update
     * @throws IllegalArgumentException  if point does not have 3 entries or wrench 6
     * @throws IndexOutOfBoundsException if body or carrier is not -1 or a body index
     */
    public void addWrench(int body, double[] point, double[] wrench, int carrier) {
        checkCurrent();
        Arguments.checkLength(point, 3, "point");
        Arguments.checkLength(wrench, 6, "wrench");
        if (carrier != -1) {
            Arguments.checkIndex(carrier, nb, "carrier");
        }
        if (body == -1) {
            return;
        }
        Arguments.checkIndex(body, nb, "body");
        if (wrenchCount == wBody.length) {
            int n = 2 * wBody.length;
            wBody = Arrays.copyOf(wBody, n);
            wCarrier = Arrays.copyOf(wCarrier, n);
            wPoint = Arrays.copyOf(wPoint, 3 * n);
            wLocal = Arrays.copyOf(wLocal, 6 * n);
            wWorld = Arrays.copyOf(wWorld, 6 * n);
        }
        int e = wrenchCount++;
        wBody[e] = body;
        wCarrier[e] = carrier;
        System.arraycopy(point, 0, wPoint, 3 * e, 3);
        System.arraycopy(wrench, 0, wWorld, 6 * e, 6);
        // [τ'; f'] = Rᵀ W, in the body's orientation at the point.
        transposeRotate(body, wrench, 0, wLocal, 6 * e);
        transposeRotate(body, wrench, 3, wLocal, 6 * e + 3);
    }

    /**
     * ∂(Σ_e J_eᵀ W_e)/∂q (nv x nv, tangent directions) of the wrenches added since {@link #clearWrenches} into
     * {@code out} (overwritten).
     *
     * @throws IllegalStateException    before the first update
     * @throws IllegalArgumentException if out is not nv x nv
     */
    public void wrenchDerivative(DMatrixRMaj out) {
        checkCurrent();
        Arguments.checkShape(out, nv, nv, "out");
        for (int e = 0; e < wrenchCount; e++) {
            if (wCarrier[e] != -1) {
                carriedWrenchDerivative(out);
                return;
            }
        }
        worldWrenchDerivative(out.data);
    }

    /** {@link #wrenchDerivative} of wrenches all fixed in the world: the closed form of the class comment. */
    private void worldWrenchDerivative(double[] out) {
        Arrays.fill(subN, 0);
        Arrays.fill(subF, 0);
        Arrays.fill(subP, 0);
        Arrays.fill(loaded, false);
        for (int e = 0; e < wrenchCount; e++) {
            int b = wBody[e];
            int p3 = 3 * e;
            rotate(b, wPoint[p3], wPoint[p3 + 1], wPoint[p3 + 2], t3a, 0, 1);
            double p0 = t3a[0] + fromRoot[3 * b];
            double p1 = t3a[1] + fromRoot[3 * b + 1];
            double p2 = t3a[2] + fromRoot[3 * b + 2];
            int w6 = 6 * e;
            double f0 = wWorld[w6 + 3], f1 = wWorld[w6 + 4], f2 = wWorld[w6 + 5];
            int b3 = 3 * b;
            subN[b3] += wWorld[w6] + p1 * f2 - p2 * f1;
            subN[b3 + 1] += wWorld[w6 + 1] + p2 * f0 - p0 * f2;
            subN[b3 + 2] += wWorld[w6 + 2] + p0 * f1 - p1 * f0;
            subF[b3] += f0;
            subF[b3 + 1] += f1;
            subF[b3 + 2] += f2;
            int b9 = 9 * b;
            subP[b9] += p0 * f0;
            subP[b9 + 1] += p0 * f1;
            subP[b9 + 2] += p0 * f2;
            subP[b9 + 3] += p1 * f0;
            subP[b9 + 4] += p1 * f1;
            subP[b9 + 5] += p1 * f2;
            subP[b9 + 6] += p2 * f0;
            subP[b9 + 7] += p2 * f1;
            subP[b9 + 8] += p2 * f2;
            loaded[b] = true;
        }
        for (int i = nb - 1; i >= 0; i--) {
            int p = parent[i];
            if (p < 0 || !loaded[i]) {
                continue;
            }
            loaded[p] = true;
            for (int c = 0; c < 3; c++) {
                subN[3 * p + c] += subN[3 * i + c];
                subF[3 * p + c] += subF[3 * i + c];
            }
            for (int c = 0; c < 9; c++) {
                subP[9 * p + c] += subP[9 * i + c];
            }
        }
        Arrays.fill(out, 0, nv * nv, 0.0);
        for (int b = 0; b < nb; b++) {
            if (loaded[b]) {
                dofVectors(b);
            }
        }
        for (int j = 0; j < nb; j++) {
            if (!loaded[j]) {
                continue;
            }
            for (int d = 0; d < dofs[j]; d++) {
                int k = vIndex[j] + d;
                int ok = 3 * k;
                double w0 = dofOmega[ok], w1 = dofOmega[ok + 1], w2 = dofOmega[ok + 2];
                double y0 = dofY[ok], y1 = dofY[ok + 1], y2 = dofY[ok + 2];
                for (int e = pairs.firstMoved(j, d); e < dofs[j]; e++) {
                    int om = 3 * (vIndex[j] + e);
                    out[(vIndex[j] + e) * nv + k] = w0 * dofZ[om] + w1 * dofZ[om + 1] + w2 * dofZ[om + 2];
                }
                for (int m : pairs.belowDofs[j]) {
                    // zero unless m's body carries a wrench below it: dofZ is then current
                    if (loaded[bodyOfDof[m]]) {
                        int om = 3 * m;
                        out[m * nv + k] = w0 * dofZ[om] + w1 * dofZ[om + 1] + w2 * dofZ[om + 2];
                    }
                }
                for (int e = 0; e < pairs.firstMoved(j, d); e++) {
                    int om = 3 * (vIndex[j] + e);
                    out[(vIndex[j] + e) * nv + k] = dofOmega[om] * y0 + dofOmega[om + 1] * y1 + dofOmega[om + 2] * y2;
                }
                for (int m : pairs.aboveDofs[j]) {
                    int om = 3 * m;
                    out[m * nv + k] = dofOmega[om] * y0 + dofOmega[om + 1] * y1 + dofOmega[om + 2] * y2;
                }
            }
        }
    }

    /** ω_m, Z_m and Y_m of body b's dofs from its subtree's sums (world axes, origin at b's root body). */
    private void dofVectors(int b) {
        int b3 = 3 * b;
        int b9 = 9 * b;
        double n0 = subN[b3], n1 = subN[b3 + 1], n2 = subN[b3 + 2];
        double f0 = subF[b3], f1 = subF[b3 + 1], f2 = subF[b3 + 2];
        double[] p = subP;
        double trace = p[b9] + p[b9 + 4] + p[b9 + 8];
        for (int d = 0; d < dofs[b]; d++) {
            int o = 3 * (vIndex[b] + d);
            double w0 = dofOmega[o], w1 = dofOmega[o + 1], w2 = dofOmega[o + 2];
            double v0 = dofVel[o], v1 = dofVel[o + 1], v2 = dofVel[o + 2];
            double vf0 = v1 * f2 - v2 * f1;
            double vf1 = v2 * f0 - v0 * f2;
            double vf2 = v0 * f1 - v1 * f0;
            // Z = ω × n + v × f + Pᵀ ω − s ω
            dofZ[o] = w1 * n2 - w2 * n1 + vf0 + p[b9] * w0 + p[b9 + 3] * w1 + p[b9 + 6] * w2 - trace * w0;
            dofZ[o + 1] = w2 * n0 - w0 * n2 + vf1 + p[b9 + 1] * w0 + p[b9 + 4] * w1 + p[b9 + 7] * w2 - trace * w1;
            dofZ[o + 2] = w0 * n1 - w1 * n0 + vf2 + p[b9 + 2] * w0 + p[b9 + 5] * w1 + p[b9 + 8] * w2 - trace * w2;
            // Y = P ω − s ω + v × f
            dofY[o] = p[b9] * w0 + p[b9 + 1] * w1 + p[b9 + 2] * w2 - trace * w0 + vf0;
            dofY[o + 1] = p[b9 + 3] * w0 + p[b9 + 4] * w1 + p[b9 + 5] * w2 - trace * w1 + vf1;
            dofY[o + 2] = p[b9 + 6] * w0 + p[b9 + 7] * w1 + p[b9 + 8] * w2 - trace * w2 + vf2;
        }
    }

    /**
     * {@link #wrenchDerivative} when some wrench is carried by a body: the directional RNEA backward pass of the
     * class comment, one direction at a time. Package-private as the closed form's oracle in tests.
     */
    void carriedWrenchDerivative(DMatrixRMaj out) {
        ensureDirections();
        Arrays.fill(ext, 0);
        for (int e = 0; e < wrenchCount; e++) {
            addBodyForce(wBody[e], e, wLocal, 6 * e, wLocal, 6 * e + 3, ext);
        }
        rec.composite(ext);
        double[] df = rec.df;
        for (int k = 0; k < nv; k++) {
            int j = bodyOfDof[k];
            rec.markSubtree(j, false);
            Arrays.fill(df, 0);
            boolean turned = false;
            for (int e = 0; e < wrenchCount; e++) {
                int b = wBody[e];
                int c = wCarrier[e];
                // δθ (world) = R_b η_b,ω - R_c η_c,ω, then in b's coordinates.
                worldTurn(k, b, t3a);
                if (c >= 0) {
                    worldTurn(k, c, t3b);
                    for (int i = 0; i < 3; i++) {
                        t3a[i] -= t3b[i];
                    }
                }
                if (t3a[0] == 0 && t3a[1] == 0 && t3a[2] == 0) {
                    continue;
                }
                transposeRotate(b, t3a, 0, t3c, 0);
                // δ[τ'; f'] = -[δθ × τ'; δθ × f'] = [τ' × δθ; f' × δθ], then at the origin as a body force.
                cross(wLocal, 6 * e, t3c, 0, t3d);
                cross(wLocal, 6 * e + 3, t3c, 0, t3e);
                addBodyForce(b, e, t3d, 0, t3e, 0, df);
                rec.activate(b);
                turned = true;
            }
            if (!turned && ws.joints.parent[j] < 0) {
                // no wrench turns, and a root's moving transform has no parent to act on: the column is zero (a
                // floating root's translations; three full backward passes of solo12's eighteen)
                for (int i = 0; i < nv; i++) {
                    out.data[i * nv + k] = 0;
                }
                continue;
            }
            rec.backward(j, k, true, out, ext);
        }
    }

    /** Adds F_b = [τ' + r × f'; f'] of wrench e's point, for local components τ' and f', into body b's entry. */
    private void addBodyForce(int b, int e, double[] w, int tau, double[] f, int force, double[] into) {
        int b6 = 6 * b;
        int p = 3 * e;
        double f0 = f[force], f1 = f[force + 1], f2 = f[force + 2];
        into[b6] += w[tau] + wPoint[p + 1] * f2 - wPoint[p + 2] * f1;
        into[b6 + 1] += w[tau + 1] + wPoint[p + 2] * f0 - wPoint[p] * f2;
        into[b6 + 2] += w[tau + 2] + wPoint[p] * f1 - wPoint[p + 1] * f0;
        into[b6 + 3] += f0;
        into[b6 + 4] += f1;
        into[b6 + 5] += f2;
    }

    /** R_b η_b,ω of direction k: body b's turn, world coordinates (zero off the direction's subtree). */
    private void worldTurn(int k, int b, double[] out) {
        int o = 6 * (k * nb + b);
        rotate(b, eta[o], eta[o + 1], eta[o + 2], out, 0, 1);
    }

    /** Column k of a 3 x nv derivative array m = R_b x. */
    private void column(double[] m, int k, int b, double x0, double x1, double x2) {
        rotate(b, x0, x1, x2, m, k, nv);
    }

    /** out[oo], out[oo + stride], out[oo + 2 stride] = R_b x. */
    private void rotate(int b, double x0, double x1, double x2, double[] out, int oo, int stride) {
        int o = 9 * b;
        out[oo] = rot[o] * x0 + rot[o + 1] * x1 + rot[o + 2] * x2;
        out[oo + stride] = rot[o + 3] * x0 + rot[o + 4] * x1 + rot[o + 5] * x2;
        out[oo + 2 * stride] = rot[o + 6] * x0 + rot[o + 7] * x1 + rot[o + 8] * x2;
    }

    private void transposeRotate(int b, double[] x, int xo, double[] out, int oo) {
        int o = 9 * b;
        double x0 = x[xo], x1 = x[xo + 1], x2 = x[xo + 2];
        out[oo] = rot[o] * x0 + rot[o + 3] * x1 + rot[o + 6] * x2;
        out[oo + 1] = rot[o + 1] * x0 + rot[o + 4] * x1 + rot[o + 7] * x2;
        out[oo + 2] = rot[o + 2] * x0 + rot[o + 5] * x1 + rot[o + 8] * x2;
    }

    private static void cross(double[] a, int ao, double[] b, int bo, double[] out) {
        double x = a[ao + 1] * b[bo + 2] - a[ao + 2] * b[bo + 1];
        double y = a[ao + 2] * b[bo] - a[ao] * b[bo + 2];
        double z = a[ao] * b[bo + 1] - a[ao + 1] * b[bo];
        out[0] = x;
        out[1] = y;
        out[2] = z;
    }

    private void checkCurrent() {
        if (!current) {
            throw new IllegalStateException("no state yet: call update(q, v, vdot) first");
        }
    }
}
