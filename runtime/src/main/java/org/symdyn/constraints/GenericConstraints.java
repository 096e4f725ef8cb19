package org.symdyn.constraints;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.dynamics.ConstraintFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * The numeric constraint functions of a model's loop, contact, coupler and line-on-line constraints, built on
 * the generic kinematics: the oracle generated constraint code is checked against. Rows follow RBDL's definitions:
 * <ul>
 * <li>loop with frames P (predecessor) and S (successor) and axes a = [a_ω; a_v] in P: φ = a · [r; d] with
 * d = R_Pᵀ (o_S - o_P) (successor point minus predecessor point, in P) and r = ½ vee(R - Rᵀ) for R = R_Pᵀ R_S
 * (the small-angle rotation from P to S); G = aᵀ diag(R_Pᵀ, R_Pᵀ) (J_S - J_P) with J the world-aligned 6D
 * Jacobians [ω; ṗ] of the frame origins; γ = -Ġ v, which with Δv = [Δω; Δṗ] and Δa = [Δω̇; Δp̈] (world, at
 * v̇ = 0) and ω_P the predecessor's angular velocity in P is γ = -aᵀ (R_Pᵀ Δa - ω_P × R_Pᵀ Δv) blockwise;</li>
 * <li>contact at point p of a body with world normal n: φ = 0, G = nᵀ J_p, γ = -n · p̈(q, v, v̇ = 0);</li>
 * <li>coupler q_j = ratio q_r + offset: φ = q_j - ratio q_r - offset, G = e_j - ratio e_r, γ = 0;</li>
 * <li>line-on-line contact (Simbody's LineOnLineContact): rows [normal] or, when rolling, [normal, slip along
 * d_f, slip along n × d_f], evaluated by {@link LineOnLineContact} (which states the equations and signs):
 * φ = [r, 0, 0] with r the signed separation along the normal n (out of edge F, into edge B), G = Cᵀ (J_B - J_F)
 * at the contact point, γ = -Ġ v.</li>
 * </ul>
 * Velocity error is G v for every row.
 *
 * <p>No method allocates after construction; an instance is not thread-safe.
 */
public final class GenericConstraints implements ConstraintFunctions {
    private final Model model;
    private final GenericDynamics kin;
    private final int rows;
    private final int nv;
    private final DMatrixRMaj jBody;
    private final DMatrixRMaj jPoint;
    private final DMatrixRMaj jS;
    private final DMatrixRMaj jP;
    private final double[] zeroV;
    private final double[] rot = new double[9];
    private final double[] pos = new double[3];
    private final double[] tmp6 = new double[6];
    private final double[] tmp3 = new double[3];
    private final FrameState pred = new FrameState();
    private final FrameState succ = new FrameState();
    private final ConstraintModel[] constraints;
    /** Per constraint: loop axes, contact point and normal, the loop frames' origins in their bodies. */
    private final double[][][] loopAxes;
    private final double[][] contactPoint;
    private final double[][] contactNormal;
    private final double[][] predecessorOrigin;
    private final double[][] successorOrigin;
    /** Per constraint: the line-on-line evaluator (null for other types). */
    private final LineOnLineContact[] lineOnLine;

    /** Pose, velocity and bias acceleration of a frame fixed in a body, all world-aligned. */
    private static final class FrameState {
        final double[] rotation = new double[9];
        final double[] origin = new double[3];
        final double[] omega = new double[3];
        final double[] velocity = new double[3];
        final double[] omegaDot = new double[3];
        final double[] acceleration = new double[3];
    }

    /**
     * @throws IllegalArgumentException if a line-on-line constraint names a body out of range or a degenerate edge
     *                                  frame
     */
    public GenericConstraints(Model model) {
        this.model = model;
        this.kin = new GenericDynamics(model);
        this.rows = model.constraintRowCount();
        this.nv = model.nv();
        jBody = new DMatrixRMaj(6, nv);
        jPoint = new DMatrixRMaj(3, nv);
        jS = new DMatrixRMaj(6, nv);
        jP = new DMatrixRMaj(6, nv);
        zeroV = new double[nv];
        List<ConstraintModel> list = model.constraints();
        int n = list.size();
        constraints = list.toArray(new ConstraintModel[0]);
        loopAxes = new double[n][][];
        contactPoint = new double[n][];
        contactNormal = new double[n][];
        predecessorOrigin = new double[n][];
        successorOrigin = new double[n][];
        lineOnLine = new LineOnLineContact[n];
        for (int k = 0; k < n; k++) {
            if (constraints[k] instanceof LoopConstraintModel loop) {
                loopAxes[k] = loop.axes().toArray(new double[0][]);
                predecessorOrigin[k] = loop.predecessorFrame().translationArray();
                successorOrigin[k] = loop.successorFrame().translationArray();
            } else if (constraints[k] instanceof ContactConstraintModel contact) {
                contactPoint[k] = contact.point();
                contactNormal[k] = contact.normal();
            } else if (constraints[k] instanceof LineOnLineConstraintModel lol) {
                lineOnLine[k] = new LineOnLineContact(lol, kin);
            }
        }
    }

    @Override
    public int constraintRows() {
        return rows;
    }

    @Override
    public void positionError(double[] q, double[] phi) {
        int row = 0;
        for (int k = 0; k < constraints.length; k++) {
            ConstraintModel c = constraints[k];
            if (c instanceof LoopConstraintModel loop) {
                framePose(q, loop.predecessorBody(), loop.predecessorFrame(), pred);
                framePose(q, loop.successorBody(), loop.successorFrame(), succ);
                double[] rp = pred.rotation;
                double[] rs = succ.rotation;
                // R = R_Pᵀ R_S; d = R_Pᵀ (o_S - o_P)
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        rot[3 * i + j] = rp[i] * rs[j] + rp[3 + i] * rs[3 + j] + rp[6 + i] * rs[6 + j];
                    }
                    pos[i] = succ.origin[i] - pred.origin[i];
                }
                tmp6[0] = 0.5 * (rot[7] - rot[5]);
                tmp6[1] = 0.5 * (rot[2] - rot[6]);
                tmp6[2] = 0.5 * (rot[3] - rot[1]);
                rotateToFrame(rp, pos, tmp6, 3);
                for (double[] a : loopAxes[k]) {
                    phi[row++] = dot6(a, tmp6);
                }
            } else if (c instanceof ContactConstraintModel) {
                phi[row++] = 0;
            } else if (c instanceof CouplerConstraintModel coupler) {
                phi[row++] = q[qIndex(coupler.joint())] - coupler.ratio() * q[qIndex(coupler.referenceJoint())]
                        - coupler.offset();
            } else if (c instanceof LineOnLineConstraintModel) {
                lineOnLine[k].positionError(q, phi, row);
                row += lineOnLine[k].rowCount();
            }
        }
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot) {
        int row = 0;
        for (int k = 0; k < constraints.length; k++) {
            ConstraintModel c = constraints[k];
            if (c instanceof LoopConstraintModel loop) {
                frameState(q, v, loop.predecessorBody(), loop.predecessorFrame(), predecessorOrigin[k], pred);
                frameState(q, v, loop.successorBody(), loop.successorFrame(), successorOrigin[k], succ);
                for (int i = 0; i < 3; i++) {
                    tmp3[i] = succ.omega[i] - pred.omega[i];
                    pos[i] = succ.velocity[i] - pred.velocity[i];
                }
                rotateToFrame(pred.rotation, tmp3, tmp6, 0);
                rotateToFrame(pred.rotation, pos, tmp6, 3);
                for (double[] a : loopAxes[k]) {
                    phidot[row++] = dot6(a, tmp6);
                }
            } else if (c instanceof ContactConstraintModel contact) {
                kin.pointVelocity(q, v, contact.body(), contactPoint[k], pos);
                double[] n = contactNormal[k];
                phidot[row++] = n[0] * pos[0] + n[1] * pos[1] + n[2] * pos[2];
            } else if (c instanceof CouplerConstraintModel coupler) {
                phidot[row++] = v[vIndex(coupler.joint())] - coupler.ratio() * v[vIndex(coupler.referenceJoint())];
            } else if (c instanceof LineOnLineConstraintModel) {
                lineOnLine[k].velocityError(q, v, phidot, row);
                row += lineOnLine[k].rowCount();
            }
        }
    }

    @Override
    public void constraintJacobian(double[] q, DMatrixRMaj g) {
        if (g.numRows != rows || g.numCols != nv) {
            throw new IllegalArgumentException("G must be " + rows + "x" + nv + ", got " + g.numRows + "x"
                    + g.numCols);
        }
        g.zero();
        int row = 0;
        for (int k = 0; k < constraints.length; k++) {
            ConstraintModel c = constraints[k];
            if (c instanceof LoopConstraintModel loop) {
                frameJacobian(q, loop.successorBody(), successorOrigin[k], jS);
                frameJacobian(q, loop.predecessorBody(), predecessorOrigin[k], jP);
                framePose(q, loop.predecessorBody(), loop.predecessorFrame(), pred);
                double[] rp = pred.rotation;
                for (double[] a : loopAxes[k]) {
                    // Axis in world coordinates: diag(R_P, R_P) a, so that row = (R_P a)ᵀ (J_S - J_P).
                    for (int i = 0; i < 3; i++) {
                        tmp6[i] = rp[3 * i] * a[0] + rp[3 * i + 1] * a[1] + rp[3 * i + 2] * a[2];
                        tmp6[3 + i] = rp[3 * i] * a[3] + rp[3 * i + 1] * a[4] + rp[3 * i + 2] * a[5];
                    }
                    for (int col = 0; col < nv; col++) {
                        double x = 0;
                        for (int e = 0; e < 6; e++) {
                            x += tmp6[e] * (jS.data[e * nv + col] - jP.data[e * nv + col]);
                        }
                        g.data[row * nv + col] = x;
                    }
                    row++;
                }
            } else if (c instanceof ContactConstraintModel contact) {
                kin.pointJacobian(q, contact.body(), contactPoint[k], jPoint);
                double[] n = contactNormal[k];
                for (int col = 0; col < nv; col++) {
                    g.data[row * nv + col] = n[0] * jPoint.data[col] + n[1] * jPoint.data[nv + col]
                            + n[2] * jPoint.data[2 * nv + col];
                }
                row++;
            } else if (c instanceof CouplerConstraintModel coupler) {
                g.data[row * nv + vIndex(coupler.joint())] += 1;
                g.data[row * nv + vIndex(coupler.referenceJoint())] -= coupler.ratio();
                row++;
            } else if (c instanceof LineOnLineConstraintModel) {
                lineOnLine[k].jacobian(q, g, row);
                row += lineOnLine[k].rowCount();
            }
        }
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma) {
        int row = 0;
        for (int k = 0; k < constraints.length; k++) {
            ConstraintModel c = constraints[k];
            if (c instanceof LoopConstraintModel loop) {
                frameState(q, v, loop.predecessorBody(), loop.predecessorFrame(), predecessorOrigin[k], pred);
                frameState(q, v, loop.successorBody(), loop.successorFrame(), successorOrigin[k], succ);
                double[] rp = pred.rotation;
                // ω_P in P coordinates.
                rotateToFrame(rp, pred.omega, tmp3, 0);
                double w0 = tmp3[0], w1 = tmp3[1], w2 = tmp3[2];
                for (int block = 0; block < 2; block++) {
                    double[] dv = pos;
                    if (block == 0) {
                        for (int i = 0; i < 3; i++) {
                            pos[i] = succ.omega[i] - pred.omega[i];
                            tmp3[i] = succ.omegaDot[i] - pred.omegaDot[i];
                        }
                    } else {
                        for (int i = 0; i < 3; i++) {
                            pos[i] = succ.velocity[i] - pred.velocity[i];
                            tmp3[i] = succ.acceleration[i] - pred.acceleration[i];
                        }
                    }
                    // R_Pᵀ Δa - ω_P × (R_Pᵀ Δv)
                    double a0 = rp[0] * tmp3[0] + rp[3] * tmp3[1] + rp[6] * tmp3[2];
                    double a1 = rp[1] * tmp3[0] + rp[4] * tmp3[1] + rp[7] * tmp3[2];
                    double a2 = rp[2] * tmp3[0] + rp[5] * tmp3[1] + rp[8] * tmp3[2];
                    double b0 = rp[0] * dv[0] + rp[3] * dv[1] + rp[6] * dv[2];
                    double b1 = rp[1] * dv[0] + rp[4] * dv[1] + rp[7] * dv[2];
                    double b2 = rp[2] * dv[0] + rp[5] * dv[1] + rp[8] * dv[2];
                    tmp6[3 * block] = a0 - (w1 * b2 - w2 * b1);
                    tmp6[3 * block + 1] = a1 - (w2 * b0 - w0 * b2);
                    tmp6[3 * block + 2] = a2 - (w0 * b1 - w1 * b0);
                }
                for (double[] a : loopAxes[k]) {
                    gamma[row++] = -dot6(a, tmp6);
                }
            } else if (c instanceof ContactConstraintModel contact) {
                kin.pointAcceleration(q, v, zeroV, contact.body(), contactPoint[k], pos);
                double[] n = contactNormal[k];
                gamma[row++] = -(n[0] * pos[0] + n[1] * pos[1] + n[2] * pos[2]);
            } else if (c instanceof CouplerConstraintModel) {
                gamma[row++] = 0;
            } else if (c instanceof LineOnLineConstraintModel) {
                lineOnLine[k].gamma(q, v, gamma, row);
                row += lineOnLine[k].rowCount();
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    private int qIndex(int body) {
        return model.body(body).joint().qIndex();
    }

    private int vIndex(int body) {
        return model.body(body).joint().vIndex();
    }

    private static double dot6(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
    }

    /** out[off..off+3) = Rᵀ x. */
    private static void rotateToFrame(double[] r, double[] x, double[] out, int off) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        out[off] = r[0] * x0 + r[3] * x1 + r[6] * x2;
        out[off + 1] = r[1] * x0 + r[4] * x1 + r[7] * x2;
        out[off + 2] = r[2] * x0 + r[5] * x1 + r[8] * x2;
    }

    private void framePose(double[] q, int body, Pose frame, FrameState out) {
        if (body < 0) {
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    out.rotation[3 * i + j] = frame.rotation(i, j);
                }
                out.origin[i] = frame.translation(i);
            }
            return;
        }
        kin.bodyPose(q, body, rot, pos);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out.rotation[3 * i + j] = rot[3 * i] * frame.rotation(0, j) + rot[3 * i + 1] * frame.rotation(1, j)
                        + rot[3 * i + 2] * frame.rotation(2, j);
            }
            out.origin[i] = pos[i] + rot[3 * i] * frame.translation(0) + rot[3 * i + 1] * frame.translation(1)
                    + rot[3 * i + 2] * frame.translation(2);
        }
    }

    /** Pose, world velocities and world bias accelerations (v̇ = 0) of a frame. */
    private void frameState(double[] q, double[] v, int body, Pose frame, double[] origin, FrameState out) {
        framePose(q, body, frame, out);
        if (body < 0) {
            for (int i = 0; i < 3; i++) {
                out.omega[i] = out.velocity[i] = out.omegaDot[i] = out.acceleration[i] = 0;
            }
            return;
        }
        kin.bodyPose(q, body, rot, pos);
        kin.bodyVelocity(q, v, body, tmp6);
        rotateToWorld(rot, tmp6, out.omega);
        kin.bodyAcceleration(q, v, zeroV, body, tmp6);
        // d/dt (R ω_b) = R ω̇_b since ω × ω = 0.
        rotateToWorld(rot, tmp6, out.omegaDot);
        kin.pointVelocity(q, v, body, origin, out.velocity);
        kin.pointAcceleration(q, v, zeroV, body, origin, out.acceleration);
    }

    private static void rotateToWorld(double[] r, double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        for (int i = 0; i < 3; i++) {
            out[i] = r[3 * i] * x0 + r[3 * i + 1] * x1 + r[3 * i + 2] * x2;
        }
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

    // ---------------------------------------------------------------- metadata (delegated)

    @Override
    public String modelName() {
        return kin.modelName();
    }

    @Override
    public String sourceSha256() {
        return kin.sourceSha256();
    }

    @Override
    public int nq() {
        return kin.nq();
    }

    @Override
    public int nv() {
        return nv;
    }

    @Override
    public List<String> qNames() {
        return kin.qNames();
    }

    @Override
    public List<String> vNames() {
        return kin.vNames();
    }

    @Override
    public List<String> bodyNames() {
        return kin.bodyNames();
    }

    @Override
    public List<String> jointNames() {
        return kin.jointNames();
    }

    @Override
    public int parent(int body) {
        return kin.parent(body);
    }

    @Override
    public boolean isFloating(int body) {
        return kin.isFloating(body);
    }

    @Override
    public List<String> frameNames() {
        return kin.frameNames();
    }
}
