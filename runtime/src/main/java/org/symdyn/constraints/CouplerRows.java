package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.model.Body;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * A linear coupling of two single-dof joints (gears, belts, URDF {@code <mimic>}): q_j = ratio · q_r + offset.
 * One row: φ = q_j - ratio q_r - offset, G = e_j - ratio e_r (unit rows of the joints' velocity indices),
 * φ̇ = v_j - ratio v_r, γ = 0. The multiplier λ is the generalised force on joint j; joint r receives -ratio λ.
 */
public final class CouplerRows implements ConstraintRows, ConstraintRowDerivatives {
    private final int jointBody;
    private final int referenceBody;
    private final int jointParent;
    private final int referenceParent;
    private final int qj;
    private final int vj;
    private final int qr;
    private final int vr;
    private final double ratio;
    private final double offset;
    /** Motion subspace of each joint in its child body's coordinates: [a; 0] revolute, [0; a] prismatic. */
    private final double[] sJoint = new double[6];
    private final double[] sReference = new double[6];
    private Kinematics kin;
    private final double[] rotChild = new double[9];
    private final double[] posChild = new double[3];
    private final double[] rotParent = new double[9];
    private final double[] posParent = new double[3];
    private final double[] tmp = new double[3];

    /**
     * @param model         the model the joints belong to (for their coordinates and axes)
     * @param jointBody     the body of the driven joint
     * @param referenceBody the body of the reference joint
     * @throws IllegalArgumentException if a joint is not single-dof or the bodies coincide
     */
    public CouplerRows(Model model, int jointBody, int referenceBody, double ratio, double offset) {
        if (jointBody == referenceBody) {
            throw new IllegalArgumentException("a coupler needs two different joints");
        }
        Body j = body(model, jointBody);
        Body r = body(model, referenceBody);
        this.jointBody = jointBody;
        this.referenceBody = referenceBody;
        this.jointParent = j.parentIndex();
        this.referenceParent = r.parentIndex();
        this.qj = j.joint().qIndex();
        this.vj = j.joint().vIndex();
        this.qr = r.joint().qIndex();
        this.vr = r.joint().vIndex();
        this.ratio = ratio;
        this.offset = offset;
        subspace(j, sJoint);
        subspace(r, sReference);
    }

    /** The row of a model's coupler constraint. */
    public static CouplerRows of(Model model, CouplerConstraintModel c) {
        return new CouplerRows(model, c.joint(), c.referenceJoint(), c.ratio(), c.offset());
    }

    private static Body body(Model model, int index) {
        if (index < 0 || index >= model.bodyCount()) {
            throw new IllegalArgumentException("coupler: body index " + index + " is not a moving body of model '"
                    + model.name() + "'");
        }
        Body b = model.body(index);
        if (!b.joint().type().isSingleDof()) {
            throw new IllegalArgumentException("coupler: joint '" + b.joint().name() + "' is "
                    + b.joint().type().urdfName() + ", a coupler needs single-dof joints");
        }
        return b;
    }

    private static void subspace(Body b, double[] s) {
        int o = b.joint().type() == JointType.PRISMATIC ? 3 : 0;
        for (int i = 0; i < 3; i++) {
            s[o + i] = b.joint().axis(i);
        }
    }

    @Override
    public ConstraintType type() {
        return ConstraintType.COUPLER;
    }

    @Override
    public int rowCount() {
        return 1;
    }

    @Override
    public void bind(Kinematics kinematics) {
        if (kin != null) {
            throw new IllegalStateException("coupler rows are already bound");
        }
        FrameMath.checkBody(kinematics, jointBody, false, "coupler joint");
        FrameMath.checkBody(kinematics, referenceBody, false, "coupler reference");
        kin = kinematics;
    }

    @Override
    public void positionError(double[] q, double[] phi, int off) {
        phi[off] = q[qj] - ratio * q[qr] - offset;
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot, int off) {
        phidot[off] = v[vj] - ratio * v[vr];
    }

    @Override
    public void jacobian(double[] q, DMatrixRMaj g, int rowOffset) {
        int row = rowOffset * g.numCols;
        for (int col = 0; col < g.numCols; col++) {
            g.data[row + col] = 0;
        }
        g.data[row + vj] += 1;
        g.data[row + vr] -= ratio;
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma, int off) {
        gamma[off] = 0;
    }

    /** G is constant and γ = 0: a = G v̇ has no derivative along q or v. */
    @Override
    public void accelerationDerivatives(MotionDerivatives motion, DMatrixRMaj dDq, DMatrixRMaj dDv, int rowOffset) {
        FrameMath.zeroRow(dDq, rowOffset);
        FrameMath.zeroRow(dDv, rowOffset);
    }

    /** ∂φ/∂q = G (the joints are scalar), φ̇ = G v does not depend on q. */
    @Override
    public void errorDerivatives(MotionDerivatives motion, DMatrixRMaj dPhiDq, DMatrixRMaj dPhidotDq,
            int rowOffset) {
        jacobian(null, dPhiDq, rowOffset);
        FrameMath.zeroRow(dPhidotDq, rowOffset);
    }

    /** Gᵀ λ is constant: nothing to add. */
    @Override
    public void addWrenches(MotionDerivatives motion, double[] multipliers, int offset) {
    }

    @Override
    public int maxBodyForces() {
        return 4;
    }

    /**
     * A generalised force τ on a single-dof joint is the spatial force τ S (S the joint's motion subspace in the
     * child's coordinates) on the child body at its origin and -τ S on the parent at the same point. Entries:
     * driven child (+λ), its parent (-λ), reference child (-ratio λ), its parent (+ratio λ); a parent's frame is
     * the child's body frame as seen from the parent at q.
     */
    @Override
    public void bodyForces(double[] q, double[] multipliers, int off, boolean inWorld, ConstraintForces out) {
        double lambda = multipliers[off];
        out.reset(inWorld);
        jointPair(q, jointBody, jointParent, sJoint, lambda, inWorld, out);
        jointPair(q, referenceBody, referenceParent, sReference, -ratio * lambda, inWorld, out);
    }

    private void jointPair(double[] q, int child, int parent, double[] s, double tau, boolean inWorld,
            ConstraintForces out) {
        kin.bodyPose(q, child, rotChild, posChild);
        int c = out.add(child);
        FrameMath.setIdentity(out.frameRotation(c));
        double[] o = out.frameOrigin(c);
        o[0] = o[1] = o[2] = 0;
        System.arraycopy(posChild, 0, out.originInWorld(c), 0, 3);
        double[] fc = out.force(c);
        if (inWorld) {
            for (int block = 0; block < 6; block += 3) {
                for (int i = 0; i < 3; i++) {
                    tmp[i] = tau * s[block + i];
                }
                FrameMath.rotateToWorld(rotChild, tmp, 0, fc, block);
            }
        } else {
            for (int i = 0; i < 6; i++) {
                fc[i] = tau * s[i];
            }
        }
        int p = out.add(parent);
        double[] rp = out.frameRotation(p);
        double[] op = out.frameOrigin(p);
        if (parent < 0) {
            System.arraycopy(rotChild, 0, rp, 0, 9);
            System.arraycopy(posChild, 0, op, 0, 3);
        } else {
            kin.bodyPose(q, parent, rotParent, posParent);
            // R_parent<-child = R_parentᵀ R_child; origin = R_parentᵀ (p_child - p_parent).
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    rp[3 * i + j] = rotParent[i] * rotChild[j] + rotParent[3 + i] * rotChild[3 + j]
                            + rotParent[6 + i] * rotChild[6 + j];
                }
                tmp[i] = posChild[i] - posParent[i];
            }
            FrameMath.rotateToFrame(rotParent, tmp, 0, op, 0);
        }
        System.arraycopy(posChild, 0, out.originInWorld(p), 0, 3);
        double[] fp = out.force(p);
        for (int i = 0; i < 6; i++) {
            fp[i] = -fc[i];
        }
    }
}
