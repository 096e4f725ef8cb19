package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.PointMotion;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.spatial.Pose;

/**
 * A loop closure (RBDL's LoopConstraint): frame P fixed in the predecessor body and frame S fixed in the successor
 * body (either may be the world, -1) held together along spatial axes a_k = [a_ω; a_v] given in P. With R_P, o_P,
 * R_S, o_S the world poses of the frames and J_P, J_S the world-aligned Jacobians [ω; ȯ] of the frame origins:
 * <ul>
 * <li>φ_k = a_k · [r; d], d = R_Pᵀ (o_S - o_P) (successor point minus predecessor point, in P), r = ½ vee(R - Rᵀ)
 * for R = R_Pᵀ R_S (the small-angle rotation from P to S);</li>
 * <li>G_k = (diag(R_P, R_P) a_k)ᵀ (J_S - J_P), and φ̇_k = G_k v;</li>
 * <li>γ_k = -Ġ_k v = -a_k · (R_Pᵀ Δa - ω_P × R_Pᵀ Δv) blockwise, with Δv = [Δω; Δȯ] and Δa = [Δω̇; Δö] (world, at
 * v̇ = 0) and ω_P the predecessor's angular velocity in P.</li>
 * </ul>
 * These are the definitions of {@link GenericConstraints}, evaluated here through any {@link Kinematics}. The
 * multiplier λ_k is the generalised force along axis k: the wrench Σ λ_k a_k (in P) acts on the successor at
 * o_S and its opposite on the predecessor at o_P.
 */
public final class LoopRows implements ConstraintRows, ConstraintRowDerivatives {
    private final int predecessorBody;
    private final Pose predecessorFrame;
    private final int successorBody;
    private final Pose successorFrame;
    private final List<double[]> axisList = new ArrayList<>();
    private double[][] axes;
    private Kinematics kin;
    private int nv;
    private DMatrixRMaj jBody;
    private DMatrixRMaj jPoint;
    private DMatrixRMaj jS;
    private DMatrixRMaj jP;
    private double[] zeroV;
    private final double[] predOrigin;
    private final double[] succOrigin;
    private final double[] rot = new double[9];
    private final double[] pos = new double[3];
    private final double[] tmp6 = new double[6];
    private final double[] tmp3 = new double[3];
    /** R_Pᵀ Δa and R_Pᵀ Δv of one block of γ. */
    private final double[] relAcc = new double[3];
    private final double[] relVel = new double[3];
    private final double[] w6 = new double[6];
    private final FrameState pred = new FrameState();
    private final FrameState succ = new FrameState();
    private PointMotion predMotion;
    private PointMotion succMotion;
    /** What the two motions were filled from: the motion derivatives and their update count. */
    private MotionDerivatives motionSource;
    private long motionStamp;
    /** Derivative workspaces: R_P, R_S, a column of the six P-coordinate rates, and 3-vectors. */
    private final double[] rP = new double[9];
    private final double[] rS = new double[9];
    private final double[] z6 = new double[6];
    private final double[] y3 = new double[3];
    private final double[] d3 = new double[3];
    private final double[] e3 = new double[3];

    /** Pose, velocity and bias acceleration (v̇ = 0) of a frame, all world-aligned. */
    private static final class FrameState {
        final double[] rotation = new double[9];
        final double[] origin = new double[3];
        final double[] omega = new double[3];
        final double[] velocity = new double[3];
        final double[] omegaDot = new double[3];
        final double[] acceleration = new double[3];
    }

    /**
     * @param predecessorBody  body index of the predecessor, -1 for the world
     * @param predecessorFrame frame P in the predecessor's body frame (in world coordinates for the world)
     * @param successorBody    body index of the successor, -1 for the world
     * @param successorFrame   frame S in the successor's body frame
     * @param axis             the first constrained axis, 6 numbers [angular; linear] in P
     */
    public LoopRows(int predecessorBody, Pose predecessorFrame, int successorBody, Pose successorFrame,
            double[] axis) {
        if (predecessorFrame == null || successorFrame == null) {
            throw new IllegalArgumentException("loop frames must not be null");
        }
        // a frame that is not finite gave finite but meaningless rows with Baumgarte off
        if (!predecessorFrame.isFinite() || !successorFrame.isFinite()) {
            throw new IllegalArgumentException("loop frames must be finite, got " + predecessorFrame + " and "
                    + successorFrame);
        }
        if (predecessorBody == successorBody) {
            throw new IllegalArgumentException("a loop needs two different bodies, got " + predecessorBody
                    + " twice");
        }
        this.predecessorBody = predecessorBody;
        this.predecessorFrame = predecessorFrame;
        this.successorBody = successorBody;
        this.successorFrame = successorFrame;
        this.predOrigin = predecessorFrame.translationArray();
        this.succOrigin = successorFrame.translationArray();
        addAxis(axis);
    }

    /** The rows of a model's loop constraint (all its axes). */
    public static LoopRows of(LoopConstraintModel c) {
        List<double[]> a = c.axes();
        LoopRows rows = new LoopRows(c.predecessorBody(), c.predecessorFrame(), c.successorBody(),
                c.successorFrame(), a.get(0));
        for (int k = 1; k < a.size(); k++) {
            rows.addAxis(a.get(k));
        }
        return rows;
    }

    /**
     * Adds a row along another spatial axis [angular; linear] in P (before binding).
     *
     * @throws IllegalArgumentException if the axis does not have 6 finite numbers or is zero
     * @throws IllegalStateException    once bound
     */
    public void addAxis(double[] axis) {
        if (kin != null) {
            throw new IllegalStateException("loop rows are bound: no more axes");
        }
        if (axis == null || axis.length != 6) {
            throw new IllegalArgumentException("a loop axis has 6 numbers [angular; linear]");
        }
        double n = 0;
        for (double x : axis) {
            n += x * x;
        }
        if (!(n > 0) || !Double.isFinite(n)) {
            throw new IllegalArgumentException("a loop axis must be finite and non-zero");
        }
        axisList.add(axis.clone());
    }

    /** True if this loop joins the same bodies at the same frames (RBDL's grouping rule). */
    public boolean joins(int otherPredecessor, Pose otherPredecessorFrame, int otherSuccessor,
            Pose otherSuccessorFrame) {
        return predecessorBody == otherPredecessor && successorBody == otherSuccessor
                && predecessorFrame.equals(otherPredecessorFrame) && successorFrame.equals(otherSuccessorFrame);
    }

    /** Predecessor body index (-1 for the world). */
    public int predecessorBody() {
        return predecessorBody;
    }

    /** Successor body index (-1 for the world). */
    public int successorBody() {
        return successorBody;
    }

    @Override
    public ConstraintType type() {
        return ConstraintType.LOOP;
    }

    @Override
    public int rowCount() {
        return axisList.size();
    }

    @Override
    public void bind(Kinematics kinematics) {
        if (kin != null) {
            throw new IllegalStateException("loop rows are already bound");
        }
        FrameMath.checkBody(kinematics, predecessorBody, true, "loop predecessor");
        FrameMath.checkBody(kinematics, successorBody, true, "loop successor");
        kin = kinematics;
        nv = kinematics.nv();
        axes = axisList.toArray(new double[0][]);
        jBody = new DMatrixRMaj(6, nv);
        jPoint = new DMatrixRMaj(3, nv);
        jS = new DMatrixRMaj(6, nv);
        jP = new DMatrixRMaj(6, nv);
        zeroV = new double[nv];
        predMotion = new PointMotion(nv);
        succMotion = new PointMotion(nv);
    }

    @Override
    public void positionError(double[] q, double[] phi, int offset) {
        FrameMath.framePose(kin, q, predecessorBody, predecessorFrame, pred.rotation, pred.origin, rot, pos);
        FrameMath.framePose(kin, q, successorBody, successorFrame, succ.rotation, succ.origin, rot, pos);
        double[] rp = pred.rotation;
        double[] rs = succ.rotation;
        // R = R_Pᵀ R_S; only its skew part is needed.
        double r01 = FrameMath.columnDot(rp, 0, rs, 1);
        double r02 = FrameMath.columnDot(rp, 0, rs, 2);
        double r10 = FrameMath.columnDot(rp, 1, rs, 0);
        double r12 = FrameMath.columnDot(rp, 1, rs, 2);
        double r20 = FrameMath.columnDot(rp, 2, rs, 0);
        double r21 = FrameMath.columnDot(rp, 2, rs, 1);
        tmp6[0] = 0.5 * (r21 - r12);
        tmp6[1] = 0.5 * (r02 - r20);
        tmp6[2] = 0.5 * (r10 - r01);
        for (int i = 0; i < 3; i++) {
            tmp3[i] = succ.origin[i] - pred.origin[i];
        }
        FrameMath.rotateToFrame(rp, tmp3, 0, tmp6, 3);
        for (int k = 0; k < axes.length; k++) {
            phi[offset + k] = FrameMath.dot6(axes[k], tmp6);
        }
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot, int offset) {
        frameState(q, v, predecessorBody, predecessorFrame, predOrigin, pred);
        frameState(q, v, successorBody, successorFrame, succOrigin, succ);
        for (int i = 0; i < 3; i++) {
            tmp3[i] = succ.omega[i] - pred.omega[i];
            pos[i] = succ.velocity[i] - pred.velocity[i];
        }
        FrameMath.rotateToFrame(pred.rotation, tmp3, 0, tmp6, 0);
        FrameMath.rotateToFrame(pred.rotation, pos, 0, tmp6, 3);
        for (int k = 0; k < axes.length; k++) {
            phidot[offset + k] = FrameMath.dot6(axes[k], tmp6);
        }
    }

    @Override
    public void jacobian(double[] q, DMatrixRMaj g, int rowOffset) {
        frameJacobian(q, successorBody, succOrigin, jS);
        frameJacobian(q, predecessorBody, predOrigin, jP);
        FrameMath.framePose(kin, q, predecessorBody, predecessorFrame, pred.rotation, pred.origin, rot, pos);
        double[] rp = pred.rotation;
        for (int k = 0; k < axes.length; k++) {
            double[] a = axes[k];
            // The axis in world coordinates, diag(R_P, R_P) a, so the row is (R_P a)ᵀ (J_S - J_P).
            FrameMath.rotateToWorld(rp, a, 0, tmp6, 0);
            FrameMath.rotateToWorld(rp, a, 3, tmp6, 3);
            int row = (rowOffset + k) * g.numCols;
            for (int col = 0; col < nv; col++) {
                double x = 0;
                for (int e = 0; e < 6; e++) {
                    x += tmp6[e] * (jS.data[e * nv + col] - jP.data[e * nv + col]);
                }
                g.data[row + col] = x;
            }
        }
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma, int offset) {
        frameState(q, v, predecessorBody, predecessorFrame, predOrigin, pred);
        frameState(q, v, successorBody, successorFrame, succOrigin, succ);
        double[] rp = pred.rotation;
        FrameMath.rotateToFrame(rp, pred.omega, 0, tmp3, 0);
        double w0 = tmp3[0], w1 = tmp3[1], w2 = tmp3[2];
        for (int block = 0; block < 2; block++) {
            double[] dv = block == 0 ? succ.omega : succ.velocity;
            double[] pv = block == 0 ? pred.omega : pred.velocity;
            double[] da = block == 0 ? succ.omegaDot : succ.acceleration;
            double[] pa = block == 0 ? pred.omegaDot : pred.acceleration;
            for (int i = 0; i < 3; i++) {
                pos[i] = dv[i] - pv[i];
                tmp3[i] = da[i] - pa[i];
            }
            // R_Pᵀ Δa - ω_P × (R_Pᵀ Δv): the derivative of the relative motion seen in the rotating frame P.
            FrameMath.rotateToFrame(rp, tmp3, 0, relAcc, 0);
            FrameMath.rotateToFrame(rp, pos, 0, relVel, 0);
            tmp6[3 * block] = relAcc[0] - (w1 * relVel[2] - w2 * relVel[1]);
            tmp6[3 * block + 1] = relAcc[1] - (w2 * relVel[0] - w0 * relVel[2]);
            tmp6[3 * block + 2] = relAcc[2] - (w0 * relVel[1] - w1 * relVel[0]);
        }
        for (int k = 0; k < axes.length; k++) {
            gamma[offset + k] = -FrameMath.dot6(axes[k], tmp6);
        }
    }

    /**
     * Row k's acceleration G_k v̇ - γ_k = a_k · [R_Pᵀ y_ω; R_Pᵀ y_v] with y = Δẍ - ω_P × Δẋ per block (world; Δ
     * successor minus predecessor, ẋ the frames' ω or origin velocity, ẍ their ω̇ or classical acceleration at the
     * state's v̇). Along q:
     * δ(R_Pᵀ y) = R_Pᵀ (δy - δθ_P × y), δy = δΔẍ - δω_P × Δẋ - ω_P × δΔẋ; along v the frame does not turn.
     */
    @Override
    public void accelerationDerivatives(MotionDerivatives md, DMatrixRMaj dDq, DMatrixRMaj dDv, int rowOffset) {
        motions(md);
        PointMotion p = predMotion;
        PointMotion sm = succMotion;
        for (int wrtV = 0; wrtV < 2; wrtV++) {
            boolean v = wrtV == 1;
            DMatrixRMaj out = v ? dDv : dDq;
            for (int col = 0; col < nv; col++) {
                for (int block = 0; block < 2; block++) {
                    double[] xs = block == 0 ? sm.omega() : sm.velocity();
                    double[] xp = block == 0 ? p.omega() : p.velocity();
                    double[] as = block == 0 ? sm.omegaDot() : sm.acceleration();
                    double[] ap = block == 0 ? p.omegaDot() : p.acceleration();
                    double[] dxs = v ? (block == 0 ? sm.dOmegaDv() : sm.dVelocityDv())
                            : (block == 0 ? sm.dOmegaDq() : sm.dVelocityDq());
                    double[] dxp = v ? (block == 0 ? p.dOmegaDv() : p.dVelocityDv())
                            : (block == 0 ? p.dOmegaDq() : p.dVelocityDq());
                    double[] das = v ? (block == 0 ? sm.dOmegaDotDv() : sm.dAccelerationDv())
                            : (block == 0 ? sm.dOmegaDotDq() : sm.dAccelerationDq());
                    double[] dap = v ? (block == 0 ? p.dOmegaDotDv() : p.dAccelerationDv())
                            : (block == 0 ? p.dOmegaDotDq() : p.dAccelerationDq());
                    double[] dwp = v ? p.dOmegaDv() : p.dOmegaDq();
                    double[] w = p.omega();
                    for (int i = 0; i < 3; i++) {
                        pos[i] = xs[i] - xp[i];
                        tmp3[i] = column(dxs, i, col) - column(dxp, i, col);
                        d3[i] = column(dwp, i, col);
                        y3[i] = column(das, i, col) - column(dap, i, col);
                        e3[i] = as[i] - ap[i];
                    }
                    // δy = δΔẍ - δω_P × Δẋ - ω_P × δΔẋ; y = Δẍ - ω_P × Δẋ.
                    subtractCross(d3, pos, y3);
                    subtractCross(w, tmp3, y3);
                    subtractCross(w, pos, e3);
                    if (!v) {
                        for (int i = 0; i < 3; i++) {
                            d3[i] = column(p.dRotationDq(), i, col);
                        }
                        subtractCross(d3, e3, y3);
                    }
                    FrameMath.rotateToFrame(rP, y3, 0, z6, 3 * block);
                }
                for (int k = 0; k < axes.length; k++) {
                    out.data[(rowOffset + k) * nv + col] = FrameMath.dot6(axes[k], z6);
                }
            }
        }
    }

    /**
     * φ_k = a_k · [r; d]: δd = R_Pᵀ (δo_S - δo_P - δθ_P × (o_S - o_P)), δr = ½ vee(δM - δMᵀ) with
     * δM = R_Pᵀ [δθ_S - δθ_P]× R_S; φ̇_k = a_k · R_Pᵀ Δẋ blockwise: δ(R_Pᵀ Δẋ) = R_Pᵀ (δΔẋ - δθ_P × Δẋ).
     */
    @Override
    public void errorDerivatives(MotionDerivatives md, DMatrixRMaj dPhiDq, DMatrixRMaj dPhidotDq, int rowOffset) {
        motions(md);
        PointMotion p = predMotion;
        PointMotion sm = succMotion;
        for (int col = 0; col < nv; col++) {
            for (int i = 0; i < 3; i++) {
                d3[i] = column(p.dRotationDq(), i, col);
                e3[i] = column(sm.dRotationDq(), i, col) - d3[i];
            }
            // δr from δM = R_Pᵀ [e]× R_S: only its skew part.
            double[] m = rot;
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    // ([e]× R_S)_{i c} summed against R_P's column r.
                    double x = 0;
                    for (int i = 0; i < 3; i++) {
                        int i1 = (i + 1) % 3;
                        int i2 = (i + 2) % 3;
                        double ex = e3[i1] * rS[3 * i2 + c] - e3[i2] * rS[3 * i1 + c];
                        x += rP[3 * i + r] * ex;
                    }
                    m[3 * r + c] = x;
                }
            }
            z6[0] = 0.5 * (m[7] - m[5]);
            z6[1] = 0.5 * (m[2] - m[6]);
            z6[2] = 0.5 * (m[3] - m[1]);
            for (int i = 0; i < 3; i++) {
                pos[i] = sm.position()[i] - p.position()[i];
                y3[i] = column(sm.dPositionDq(), i, col) - column(p.dPositionDq(), i, col);
            }
            subtractCross(d3, pos, y3);
            FrameMath.rotateToFrame(rP, y3, 0, z6, 3);
            for (int k = 0; k < axes.length; k++) {
                dPhiDq.data[(rowOffset + k) * nv + col] = FrameMath.dot6(axes[k], z6);
            }
            for (int block = 0; block < 2; block++) {
                double[] xs = block == 0 ? sm.omega() : sm.velocity();
                double[] xp = block == 0 ? p.omega() : p.velocity();
                double[] dxs = block == 0 ? sm.dOmegaDq() : sm.dVelocityDq();
                double[] dxp = block == 0 ? p.dOmegaDq() : p.dVelocityDq();
                for (int i = 0; i < 3; i++) {
                    pos[i] = xs[i] - xp[i];
                    y3[i] = column(dxs, i, col) - column(dxp, i, col);
                }
                subtractCross(d3, pos, y3);
                FrameMath.rotateToFrame(rP, y3, 0, z6, 3 * block);
            }
            for (int k = 0; k < axes.length; k++) {
                dPhidotDq.data[(rowOffset + k) * nv + col] = FrameMath.dot6(axes[k], z6);
            }
        }
    }

    /** The wrench W = diag(R_P, R_P) Σ λ_k a_k on the successor at o_S and -W on the predecessor at o_P, fixed in P. */
    @Override
    public void addWrenches(MotionDerivatives md, double[] multipliers, int offset) {
        motions(md);
        for (int e = 0; e < 6; e++) {
            double x = 0;
            for (int k = 0; k < axes.length; k++) {
                x += multipliers[offset + k] * axes[k][e];
            }
            w6[e] = x;
        }
        FrameMath.rotateToWorld(rP, w6, 0, tmp6, 0);
        FrameMath.rotateToWorld(rP, w6, 3, tmp6, 3);
        md.addWrench(successorBody, succOrigin, tmp6, predecessorBody);
        for (int e = 0; e < 6; e++) {
            tmp6[e] = -tmp6[e];
        }
        md.addWrench(predecessorBody, predOrigin, tmp6, predecessorBody);
    }

    /** Both frames' motion at md's state, and R_P, R_S: filled once per update of md. */
    private void motions(MotionDerivatives md) {
        if (md == motionSource && md.stamp() == motionStamp) {
            return;
        }
        motionSource = md;
        motionStamp = md.stamp();
        md.point(predecessorBody, predOrigin, predMotion);
        md.point(successorBody, succOrigin, succMotion);
        frameRotation(predMotion.rotation(), predecessorFrame, rP);
        frameRotation(succMotion.rotation(), successorFrame, rS);
    }

    /** R_body R_frame (the body's rotation is the identity for the world, whose frames are in world coordinates). */
    private static void frameRotation(double[] body, Pose frame, double[] out) {
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                out[3 * r + c] = body[3 * r] * frame.rotation(0, c) + body[3 * r + 1] * frame.rotation(1, c)
                        + body[3 * r + 2] * frame.rotation(2, c);
            }
        }
    }

    private double column(double[] m, int row, int col) {
        return m[row * nv + col];
    }

    /** out -= a × b. */
    private static void subtractCross(double[] a, double[] b, double[] out) {
        out[0] -= a[1] * b[2] - a[2] * b[1];
        out[1] -= a[2] * b[0] - a[0] * b[2];
        out[2] -= a[0] * b[1] - a[1] * b[0];
    }

    @Override
    public int maxBodyForces() {
        return 2;
    }

    /**
     * Entry 0: the predecessor at frame P, force -w; entry 1: the successor at frame S, force +w; where
     * w = Σ λ_k a_k in P coordinates (world-aligned: diag(R_P, R_P) w). In frame coordinates the successor's force
     * is diag(R_Sᵀ R_P, R_Sᵀ R_P) w.
     */
    @Override
    public void bodyForces(double[] q, double[] multipliers, int offset, boolean inWorld, ConstraintForces out) {
        for (int e = 0; e < 6; e++) {
            double x = 0;
            for (int k = 0; k < axes.length; k++) {
                x += multipliers[offset + k] * axes[k][e];
            }
            w6[e] = x;
        }
        FrameMath.framePose(kin, q, predecessorBody, predecessorFrame, pred.rotation, pred.origin, rot, pos);
        FrameMath.framePose(kin, q, successorBody, successorFrame, succ.rotation, succ.origin, rot, pos);
        // World-aligned wrench.
        FrameMath.rotateToWorld(pred.rotation, w6, 0, tmp6, 0);
        FrameMath.rotateToWorld(pred.rotation, w6, 3, tmp6, 3);
        out.reset(inWorld);
        int p = out.add(predecessorBody);
        FrameMath.copy(predecessorFrame, out.frameRotation(p), out.frameOrigin(p));
        System.arraycopy(pred.origin, 0, out.originInWorld(p), 0, 3);
        double[] fp = out.force(p);
        for (int e = 0; e < 6; e++) {
            fp[e] = -(inWorld ? tmp6[e] : w6[e]);
        }
        int s = out.add(successorBody);
        FrameMath.copy(successorFrame, out.frameRotation(s), out.frameOrigin(s));
        System.arraycopy(succ.origin, 0, out.originInWorld(s), 0, 3);
        double[] fs = out.force(s);
        if (inWorld) {
            System.arraycopy(tmp6, 0, fs, 0, 6);
        } else {
            FrameMath.rotateToFrame(succ.rotation, tmp6, 0, fs, 0);
            FrameMath.rotateToFrame(succ.rotation, tmp6, 3, fs, 3);
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Pose, world velocities and world bias accelerations (v̇ = 0) of a frame. */
    private void frameState(double[] q, double[] v, int body, Pose frame, double[] origin, FrameState out) {
        FrameMath.framePose(kin, q, body, frame, out.rotation, out.origin, rot, pos);
        if (body < 0) {
            for (int i = 0; i < 3; i++) {
                out.omega[i] = out.velocity[i] = out.omegaDot[i] = out.acceleration[i] = 0;
            }
            return;
        }
        kin.bodyPose(q, body, rot, pos);
        kin.bodyVelocity(q, v, body, tmp6);
        FrameMath.rotateToWorld(rot, tmp6, 0, out.omega, 0);
        kin.bodyAcceleration(q, v, zeroV, body, tmp6);
        // d/dt (R ω_b) = R ω̇_b because ω × ω = 0.
        FrameMath.rotateToWorld(rot, tmp6, 0, out.omegaDot, 0);
        kin.pointVelocity(q, v, body, origin, out.velocity);
        kin.pointBiasAcceleration(q, v, body, origin, out.acceleration);
    }

    /** Rows 0-2: ω (world) = R_b J_body,ω; rows 3-5: point Jacobian of the frame origin. Zero for the world. */
    private void frameJacobian(double[] q, int body, double[] origin, DMatrixRMaj out) {
        out.zero();
        if (body < 0) {
            return;
        }
        kin.bodyPose(q, body, rot, pos);
        kin.bodyJacobian(q, body, jBody);
        kin.pointJacobian(q, body, origin, jPoint);
        for (int col = 0; col < nv; col++) {
            double a0 = jBody.data[col], a1 = jBody.data[nv + col], a2 = jBody.data[2 * nv + col];
            for (int i = 0; i < 3; i++) {
                out.data[i * nv + col] = rot[3 * i] * a0 + rot[3 * i + 1] * a1 + rot[3 * i + 2] * a2;
                out.data[(3 + i) * nv + col] = jPoint.data[i * nv + col];
            }
        }
    }
}
