package org.symdyn.dynamics;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * The analytical derivative recursions of the generic runtime's {@link org.symdyn.contract.DynamicsDerivatives}:
 * ∂τ/∂q, ∂τ/∂v and the Christoffel-consistent Coriolis matrix by the analytical derivatives in one inertial frame
 * ({@link InertialFrameDerivatives}); forward-mode differentiation of the RNEA's motion recursion along one tangent
 * direction at a time (δv, δa, and the backward pass of forces carried across the moving joint), which
 * {@link MotionDerivatives} uses for the rows' kinematics and the applied wrenches; and the regressor, all on a
 * {@link FlatModel}'s inertias and the joint models and RNEA pass of a {@link DynamicsWorkspace} (no finite
 * differences). O(nv · nb) each, the oracle's budget; the forward-dynamics derivatives are −H⁻¹ times those of
 * the inverse dynamics at v̇ = H⁻¹ (τ - C), all through the tree factor of the CRBA's H
 * ({@link RangeSpaceFactorization}).
 *
 * <p><b>Directional derivatives of RNEA</b> (∂τ's before {@link InertialFrameDerivatives}, and still what
 * {@link MotionDerivatives} runs). Along a tangent direction the joint transform of the body j that owns
 * the direction changes as δX_j = -(S_k ×) X_j (body j turns or slides relative to its parent by S_k, in its own
 * coordinates, the tangent convention of the contract), and for a planar joint's θ the in-plane columns of S turn
 * too: δS = -(S_θ ×) S, whence δv_J and δc_J (c_J = -θ̇ S_θ × v_J). With X_j v_λ = v_j - v_J and
 * X_j a_λ = a_j - S_j q̈_j - c_J - v_j × v_J from the RNEA pass:
 * <pre>
 *   body j (q):   δv_j = (X_j v_λ) × S_k + δv_J,   δa_j = (X_j a_λ) × S_k + δS q̈ + δc_J + δv_j × v_J + v_j × δv_J
 *   body j (v):   δv_j = S_k,                       δa_j = (X_j v_λ) × S_k + δc_J
 *   below j:      δv_i = X_i δv_λ,                  δa_i = X_i δa_λ + δv_i × v_J,i
 *   forces:       δf_i = I_i δa_i + δv_i ×* I_i v_i + v_i ×* I_i δv_i,   composite leaf to root,
 *                 δ(X_jᵀ f^c_j) = X_jᵀ (S_k ×* f^c_j + δf^c_j) across the differentiated joint (q),
 *   torques:      δτ_m = S_mᵀ δf^c + δS_mᵀ f^c.
 * </pre>
 *
 * <p>Not thread-safe: one per {@link DynamicsWorkspace}, whose motion and force arrays it shares.
 */
final class DerivativeRecursions {
    /**
     * The ten basis inertias of the regressor's parameter order [m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz,
     * I_zz], in the compact form of {@link FlatModel#inertiaTimes(double[], double[], double[], int, double[], int,
     * double[], int)}: mass, first moment (3 each) and row-major rotational inertia (9 each).
     */
    private static final double[] BASIS_MASS = new double[10];
    private static final double[] BASIS_H = new double[30];
    private static final double[] BASIS_I = new double[90];

    static {
        BASIS_MASS[0] = 1;
        for (int k = 0; k < 3; k++) {
            BASIS_H[3 * (1 + k) + k] = 1;
        }
        int[][] entries = {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}};
        for (int p = 0; p < 6; p++) {
            int r = entries[p][0], c = entries[p][1];
            BASIS_I[9 * (4 + p) + 3 * r + c] = 1;
            BASIS_I[9 * (4 + p) + 3 * c + r] = 1;
        }
    }

    private final FlatModel model;
    private final DynamicsWorkspace ws;
    private final int nb;
    private final int nv;
    private final int[] parent;
    private final int[] vIndex;
    private final int[] dofs;
    private final int[] kind;
    private final SpatialTransform[] xUp;
    private final double[] s;
    private final double[] vJ;
    private final double[] cJ;
    /** The workspace's motion pass: v_i, a_i. */
    private final double[] vel;
    private final double[] acc;

    /** Per state: X_i v_λ = v_i - v_J, X_i a_λ and S_i q̈_i. */
    private final double[] xv;
    private final double[] xa;
    private final double[] sqdd;
    /**
     * Per direction: δv, δa, δf (composite), and which bodies take part; read and written by
     * {@link MotionDerivatives} too.
     */
    final double[] dv;
    final double[] da;
    final double[] df;
    final boolean[] inSubtree;
    final boolean[] active;
    /**
     * H of the CRBA and its tree factor: −H⁻¹ ∂τ and H⁻¹ by row sweeps. They replaced 3 nv articulated-body
     * responses (one per column of ∂τ/∂q, ∂τ/∂v and the identity); measured (DerivativesBenchmark, generic, pinned,
     * one run each, load 1.3-2.1, ns per call of forwardDynamicsDerivatives): solo12 54,809 -> 20,299, iiwa14
     * 13,822 -> 7,510 (the inverse dynamics derivatives inside them: 13,778 and 4,122 before, 13,015 and 3,949 after).
     */
    private final DMatrixRMaj massMatrix;
    private final RangeSpaceFactorization treeFactor;
    /** The workspace of {@link RangeSpaceFactorization#inverse} (L⁻¹ where it forms it; off the pattern, zeros). */
    private final double[] inverseFactor;
    private final double[] tau;
    private final double[] accel;
    private final InertialFrameDerivatives inertialFrame;
    private final double[] t6a = new double[6];
    private final double[] t6b = new double[6];
    private final double[] t6c = new double[6];

    /** The recursions on {@code model} and {@code ws}, the dynamics' derivatives included. */
    DerivativeRecursions(FlatModel model, DynamicsWorkspace ws) {
        this(model, ws, true);
    }

    /**
     * @param dynamics false for the directional motion recursions alone ({@link MotionDerivatives}): no H, tree
     *                 factor or {@link InertialFrameDerivatives} is allocated, and the dynamics' derivative methods
     *                 must not be called
     */
    DerivativeRecursions(FlatModel model, DynamicsWorkspace ws, boolean dynamics) {
        this.model = model;
        this.ws = ws;
        JointTransforms joints = ws.joints;
        nb = joints.nb;
        nv = joints.nv;
        parent = joints.parent;
        vIndex = joints.vIndex;
        dofs = joints.dofs;
        kind = joints.kind;
        xUp = joints.xUp;
        s = joints.s;
        vJ = joints.vJ;
        cJ = joints.cJ;
        vel = ws.vel;
        acc = ws.acc;
        xv = new double[6 * nb];
        xa = new double[6 * nb];
        sqdd = new double[6 * nb];
        dv = new double[6 * nb];
        da = new double[6 * nb];
        df = new double[6 * nb];
        inSubtree = new boolean[nb];
        active = new boolean[nb];
        massMatrix = dynamics ? new DMatrixRMaj(nv, nv) : null;
        treeFactor = dynamics ? new RangeSpaceFactorization(org.symdyn.contract.DofTree.parents(nv, parent, vIndex,
                dofs), 3 * nv) : null;
        inverseFactor = dynamics ? new double[nv * nv] : null;
        tau = dynamics ? new double[nv] : null;
        accel = dynamics ? new double[nv] : null;
        inertialFrame = dynamics ? new InertialFrameDerivatives(model, joints) : null;
    }

    // ---------------------------------------------------------------- inverse and forward dynamics

    /**
     * ∂τ/∂q and ∂τ/∂v at (q, v, v̇) by the analytical derivatives in one inertial frame ({@link InertialFrameDerivatives}).
     * Arguments checked by the caller.
     */
    void inverseDynamics(double[] q, double[] v, double[] vdot, DMatrixRMaj dq, DMatrixRMaj dvOut) {
        inertialFrame.compute(q, v, vdot, dq, dvOut);
    }

    /**
     * The motion pass without gravity at (q, v, v̇) and the per-state terms of {@link #motion}: what
     * {@link MotionDerivatives} needs (true accelerations, no body forces).
     */
    void prepareMotionOnly(double[] q, double[] v, double[] vdot) {
        ForwardKinematics.motionPass(model, ws, q, v, vdot, false);
        prepareMotion(vdot);
    }

    /**
     * The velocity half of {@link #prepareMotionOnly} at (q, v): body velocities and X_i v_λ, what
     * {@link #motion} without accelerations reads (the accelerations' pass and terms are left as they were).
     */
    void prepareVelocitiesOnly(double[] q, double[] v) {
        ForwardKinematics.velocityPass(ws, q, v);
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            for (int k = 0; k < 6; k++) {
                xv[o + k] = vel[o + k] - vJ[o + k];
            }
        }
    }

    /** xv, xa and S q̈ of every body from the workspace's last motion pass (package-private for the tests' directional oracle). */
    void prepareMotion(double[] vdot) {
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            for (int k = 0; k < 6; k++) {
                xv[o + k] = vel[o + k] - vJ[o + k];
                sqdd[o + k] = 0;
            }
            ws.joints.addSubspaceTimes(i, vdot, sqdd, o);
            SpatialVectors.crossMotion(vel, o, vJ, o, t6a, 0);
            for (int k = 0; k < 6; k++) {
                xa[o + k] = acc[o + k] - sqdd[o + k] - cJ[o + k] - t6a[k];
            }
        }
    }

    /**
     * ∂v̇/∂q = -H⁻¹ ∂τ/∂q, ∂v̇/∂v = -H⁻¹ ∂τ/∂v at v̇ = FD(q, v, τ), and H⁻¹, all through the tree factor of the CRBA's
     * H: v̇ = H⁻¹ (τ - C) with C from the RNEA (what the generated classes that solve at run time do), then the row
     * sweeps. The articulated-body algorithm gave v̇ before; the factor needed for the sweeps makes it the cheaper
     * way: romeo_small's generic forwardDynamicsDerivatives 34,218 -> 29,880 ns, solo12 12,681 -> 10,710, iiwa14
     * 4,653 -> 3,868 (JMH, pinned, one run each).
     */
    void forwardDynamics(double[] q, double[] v, double[] tauIn, DMatrixRMaj dq, DMatrixRMaj dvOut,
            DMatrixRMaj hInv) {
        // The CRBA, the RNEA and the derivatives' pass each compute the joint models at this q: outside a caller's
        // state scope (whose memo a switch here would discard) they are memoised for the call: JMH, ns per call,
        // iiwa14 3,911 -> 3,577, solo12 10,606 -> 9,730, romeo_small 29,887 -> 28,456 (the same bits).
        boolean memo = !ws.reuse;
        if (memo) {
            ws.joints.memoize(true);
        }
        try {
            CompositeRigidBody.massMatrix(model, ws, q, massMatrix);
            treeFactor.factor(massMatrix);
            RecursiveNewtonEuler.inverseDynamics(model, ws, q, v, ws.zeroV, true, tau);
            for (int i = 0; i < nv; i++) {
                accel[i] = tauIn[i] - tau[i];
            }
            treeFactor.solve(accel);
            inverseDynamics(q, v, accel, dq, dvOut);
        } finally {
            if (memo) {
                ws.joints.memoize(false);
            }
        }
        treeFactor.solveSquareBlocks(dq.data, dvOut.data, -1, hInv.data);
    }

    /** H⁻¹ from the CRBA's H and its tree factor ({@link RangeSpaceFactorization#inverse}). */
    void inverseMassMatrix(double[] q, DMatrixRMaj hInv) {
        CompositeRigidBody.massMatrix(model, ws, q, massMatrix);
        treeFactor.factor(massMatrix);
        treeFactor.inverse(hInv.data, inverseFactor);
    }

    /** δv and δa of body j and every body below it along dof k of body j (a position direction or a velocity one). */
    void motion(int j, int k, boolean wrtQ, double[] v) {
        motion(j, k, wrtQ, v, true);
    }

    /**
     * δv of body j and every body below it along dof k of body j, and δa too if {@code accelerations} (without, da is
     * left as it was: what {@link MotionDerivatives#updateVelocities} needs, a third of the work of both).
     */
    void motion(int j, int k, boolean wrtQ, double[] v, boolean accelerations) {
        if (accelerations) {
            markSubtree(j);
        } else if (subtreeRoot != j) {
            // velocities alone read only inSubtree, the same for every dof of body j (a floating base's six
            // directions, each twice, mark it once), and no forces: the subtree without markSubtree's other writes
            subtreeRoot = j;
            for (int i = 0; i < nb; i++) {
                inSubtree[i] = i == j || (i > j && parent[i] >= 0 && inSubtree[parent[i]]);
            }
        }
        int o = 6 * j;
        int sk = 6 * k;
        boolean planarTheta = kind[j] == JointTransforms.PLANAR && k == vIndex[j] + 2;
        if (wrtQ) {
            SpatialVectors.crossMotion(xv, o, s, sk, dv, o);
            if (accelerations) {
                SpatialVectors.crossMotion(xa, o, s, sk, da, o);
            }
            if (planarTheta) {
                // δv_J = -N × v_J, δS q̈ = -N × S q̈, δc_J = -θ̇ N × δv_J with N = S_θ.
                double thetaDot = v[k];
                SpatialVectors.crossMotion(s, sk, vJ, o, t6a, 0);
                SpatialVectors.crossMotion(s, sk, sqdd, o, t6b, 0);
                SpatialVectors.crossMotion(s, sk, t6a, 0, t6c, 0);
                for (int c = 0; c < 6; c++) {
                    t6a[c] = -t6a[c];
                    dv[o + c] += t6a[c];
                }
                if (accelerations) {
                    for (int c = 0; c < 6; c++) {
                        da[o + c] += -t6b[c] + thetaDot * t6c[c];
                    }
                    // + v_j × δv_J
                    SpatialVectors.crossMotion(vel, o, t6a, 0, t6b, 0);
                    for (int c = 0; c < 6; c++) {
                        da[o + c] += t6b[c];
                    }
                }
            }
            if (accelerations) {
                // + δv_j × v_J
                SpatialVectors.crossMotion(dv, o, vJ, o, t6a, 0);
                for (int c = 0; c < 6; c++) {
                    da[o + c] += t6a[c];
                }
            }
        } else {
            System.arraycopy(s, sk, dv, o, 6);
            if (accelerations) {
                SpatialVectors.crossMotion(xv, o, s, sk, da, o);
                if (kind[j] == JointTransforms.PLANAR) {
                    addPlanarBiasRate(j, k, v, da, o);
                }
            }
        }
        if (!accelerations && dv[o] == 0 && dv[o + 1] == 0 && dv[o + 2] == 0 && dv[o + 3] == 0 && dv[o + 4] == 0
                && dv[o + 5] == 0) {
            // a zero seed stays zero below (X 0 = 0): a floating root's position directions, whose body velocities
            // do not change when the whole tree is moved (6 of solo12's 36 velocity passes, each over every body)
            for (int i = j + 1; i < nb; i++) {
                if (inSubtree[i]) {
                    Arrays.fill(dv, 6 * i, 6 * i + 6, 0);
                }
            }
            return;
        }
        propagateBelow(j, accelerations);
    }

    /**
     * out += ∂c_J/∂v_k of a planar body j: c_J = -θ̇ N × v_J, so ∂c_J/∂v_k = -[k is θ] N × v_J - θ̇ N × S_k.
     */
    private void addPlanarBiasRate(int j, int k, double[] v, double[] out, int o) {
        int theta = vIndex[j] + 2;
        int sn = 6 * theta;
        double thetaDot = v[theta];
        SpatialVectors.crossMotion(s, sn, s, 6 * k, t6a, 0);
        for (int c = 0; c < 6; c++) {
            out[o + c] -= thetaDot * t6a[c];
        }
        if (k == theta) {
            SpatialVectors.crossMotion(s, sn, vJ, 6 * j, t6a, 0);
            for (int c = 0; c < 6; c++) {
                out[o + c] -= t6a[c];
            }
        }
    }

    /** The body of the last {@link #markSubtree} (inSubtree is its subtree), or -1. */
    private int subtreeRoot = -1;

    /** inSubtree: j and its descendants; active: those and j's ancestors. */
    void markSubtree(int j) {
        markSubtree(j, true);
    }

    /** {@link #markSubtree}, zeroing df off the subtree only if {@code zeroForces} (a caller zeroing all of it). */
    void markSubtree(int j, boolean zeroForces) {
        subtreeRoot = j;
        for (int i = 0; i < nb; i++) {
            inSubtree[i] = i == j || (i > j && parent[i] >= 0 && inSubtree[parent[i]]);
            active[i] = inSubtree[i];
            if (zeroForces && !inSubtree[i]) {
                int o = 6 * i;
                for (int c = 0; c < 6; c++) {
                    df[o + c] = 0;
                }
            }
        }
        for (int a = parent[j]; a >= 0; a = parent[a]) {
            active[a] = true;
        }
    }

    /** Below body j: δv_i = X_i δv_λ, and δa_i = X_i δa_λ + δv_i × v_J,i if {@code accelerations}. */
    private void propagateBelow(int j, boolean accelerations) {
        for (int i = j + 1; i < nb; i++) {
            if (!inSubtree[i]) {
                continue;
            }
            int o = 6 * i;
            int p = 6 * parent[i];
            xUp[i].applyMotion(dv, p, dv, o);
            if (!accelerations) {
                continue;
            }
            xUp[i].applyMotion(da, p, da, o);
            SpatialVectors.crossMotion(dv, o, vJ, o, t6a, 0);
            for (int c = 0; c < 6; c++) {
                da[o + c] += t6a[c];
            }
        }
    }

    /**
     * The backward pass of one direction (dof k of body j): composite δf leaf to root, column k of {@code out} the
     * δτ of every dof (zero off the active bodies). {@code wrtQ} adds the terms of the moving transform X_j and, for
     * a planar θ, of the turning S, both acting on the composite forces {@code fc} (the RNEA pass's, or those of
     * applied wrenches for {@link MotionDerivatives}).
     */
    void backward(int j, int k, boolean wrtQ, DMatrixRMaj out, double[] fc) {
        double[] data = out.data;
        boolean planarTheta = wrtQ && kind[j] == JointTransforms.PLANAR && k == vIndex[j] + 2;
        for (int i = nb - 1; i >= 0; i--) {
            int vi = vIndex[i];
            if (!active[i]) {
                for (int d = 0; d < dofs[i]; d++) {
                    data[(vi + d) * nv + k] = 0;
                }
                continue;
            }
            int o = 6 * i;
            for (int d = 0; d < dofs[i]; d++) {
                int m = vi + d;
                double x = SpatialVectors.dot(s, 6 * m, df, o);
                if (planarTheta && i == j) {
                    // δS_mᵀ f^c with δS_m = -N × S_m.
                    SpatialVectors.crossMotion(s, 6 * k, s, 6 * m, t6a, 0);
                    x -= SpatialVectors.dot(t6a, 0, fc, o);
                }
                data[m * nv + k] = x;
            }
            int p = parent[i];
            if (p < 0) {
                continue;
            }
            if (wrtQ && i == j) {
                SpatialVectors.crossForce(s, 6 * k, fc, o, t6a, 0);
                for (int c = 0; c < 6; c++) {
                    t6a[c] += df[o + c];
                }
                xUp[i].addTransposeForce(t6a, 0, df, 6 * p);
            } else {
                xUp[i].addTransposeForce(df, o, df, 6 * p);
            }
        }
    }

    /** f becomes the composite of the body forces f (6 per body, body coordinates): leaf to root, f_λ += X_iᵀ f_i. */
    void composite(double[] f) {
        for (int i = nb - 1; i > 0; i--) {
            if (parent[i] >= 0) {
                xUp[i].addTransposeForce(f, 6 * i, f, 6 * parent[i]);
            }
        }
    }

    /** Marks body b and its ancestors as taking part in the next {@link #backward}. */
    void activate(int b) {
        for (int a = b; a >= 0 && !active[a]; a = parent[a]) {
            active[a] = true;
        }
    }

    // ---------------------------------------------------------------- Coriolis matrix

    /** C(q, v) by the analytical derivatives in one inertial frame ({@link InertialFrameDerivatives#coriolis}). */
    void coriolisMatrix(double[] q, double[] v, DMatrixRMaj out) {
        inertialFrame.coriolis(q, v, out);
    }

    // ---------------------------------------------------------------- regressor

    /**
     * Y(q, v, v̇): column 10 i + p is Σ over body i's ancestors-and-self b of S_bᵀ X_{b←i}ᵀ (I_p a_i + v_i ×* I_p v_i)
     * for the basis inertia I_p.
     */
    void regressor(double[] q, double[] v, double[] vdot, DMatrixRMaj y) {
        ForwardKinematics.motionPass(model, ws, q, v, vdot, true);
        y.zero();
        double[] data = y.data;
        int cols = 10 * nb;
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            for (int p = 0; p < 10; p++) {
                FlatModel.inertiaTimes(BASIS_MASS, BASIS_H, BASIS_I, p, acc, o, t6a, 0);
                FlatModel.inertiaTimes(BASIS_MASS, BASIS_H, BASIS_I, p, vel, o, t6b, 0);
                SpatialVectors.crossForce(vel, o, t6b, 0, t6c, 0);
                for (int c = 0; c < 6; c++) {
                    t6a[c] += t6c[c];
                }
                int col = 10 * i + p;
                for (int b = i; b >= 0; b = parent[b]) {
                    int vb = vIndex[b];
                    for (int d = 0; d < dofs[b]; d++) {
                        data[(vb + d) * cols + col] = SpatialVectors.dot(s, 6 * (vb + d), t6a, 0);
                    }
                    if (parent[b] >= 0) {
                        xUp[b].applyTransposeForce(t6a, 0, t6b, 0);
                        System.arraycopy(t6b, 0, t6a, 0, 6);
                    }
                }
            }
        }
    }
}
