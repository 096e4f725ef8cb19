package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.PointMotion;
import org.symdyn.model.ContactConstraintModel;

/**
 * A point p fixed in a body held along one or more world directions n_k (RBDL's ContactConstraint; one group per
 * body and point). Row k: φ_k = 0 (a contact has no reference position), φ̇_k = n_k · ṗ, G_k = n_kᵀ J_p with J_p the
 * world point Jacobian (ṗ = J_p v), γ_k = -n_k · p̈(q, v, v̇ = 0) (the classical point acceleration at zero joint
 * acceleration, gravity excluded). The multiplier λ_k is the force (N) the ground applies to the body along n_k.
 */
public final class ContactRows implements ConstraintRows, ConstraintRowDerivatives {
    private final int body;
    private final double[] point;
    private final List<double[]> normalList = new ArrayList<>();
    /** Row of each normal relative to the offset the methods get (k, unless placed by {@link #addNormalAt}). */
    private final List<Integer> rowList = new ArrayList<>();
    private double[][] normals;
    private int[] rows;
    private Kinematics kin;
    private DMatrixRMaj jPoint;
    private final double[] p3 = new double[3];
    private final double[] rot = new double[9];
    private final double[] f = new double[3];
    private final double[] w6 = new double[6];
    private PointMotion motion;
    /** What {@link #motion} was filled from: the motion derivatives and their update count. */
    private MotionDerivatives motionSource;
    private long motionStamp;

    /**
     * @param body   the body index (not the world)
     * @param point  the point in body coordinates (m)
     * @param normal the first direction, world coordinates (unit for λ in newtons)
     */
    public ContactRows(int body, double[] point, double[] normal) {
        if (point == null || point.length != 3) {
            throw new IllegalArgumentException("contact point must have 3 coordinates");
        }
        this.body = body;
        this.point = point.clone();
        addNormal(normal);
    }

    /** Rows whose first normal is written at {@code row} relative to the offset (see {@link #addNormalAt}). */
    ContactRows(int body, double[] point, double[] normal, int row) {
        if (point == null || point.length != 3) {
            throw new IllegalArgumentException("contact point must have 3 coordinates");
        }
        this.body = body;
        this.point = point.clone();
        addNormalAt(normal, row);
    }

    /** The rows of a model's contact constraint (one normal). */
    public static ContactRows of(ContactConstraintModel c) {
        return new ContactRows(c.body(), c.point(), c.normal());
    }

    /**
     * Adds a row along another world direction (before binding). The direction is used as given, so that rows built
     * from a model match the model's own constraint functions; {@link ConstraintSet#addContact} requires unit
     * normals, for which λ_k is a force in newtons.
     *
     * @throws IllegalArgumentException if the direction is zero or not finite
     * @throws IllegalStateException    once bound
     */
    public void addNormal(double[] normal) {
        addNormalAt(normal, normalList.size());
    }

    /**
     * Adds a row along another world direction written at {@code row} relative to the offset the methods are given,
     * instead of after the previous rows: so that contact rows of a model at one body point that are not adjacent
     * in the model's row order still share one point Jacobian and one bias acceleration
     * ({@link GenericConstraints}). The rows must be distinct.
     */
    void addNormalAt(double[] normal, int row) {
        if (kin != null) {
            throw new IllegalStateException("contact rows are bound: no more normals");
        }
        if (normal == null || normal.length != 3) {
            throw new IllegalArgumentException("contact normal must have 3 coordinates");
        }
        double n = Math.sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
        if (!(n > 0) || !Double.isFinite(n)) {
            throw new IllegalArgumentException("contact normal must be a finite non-zero vector, |n| = " + n);
        }
        if (rowList.contains(row) || row < 0) {
            throw new IllegalArgumentException("contact row " + row + " is taken or negative");
        }
        normalList.add(normal.clone());
        rowList.add(row);
    }

    /** The body index. */
    public int body() {
        return body;
    }

    /** The point in body coordinates (a copy). */
    public double[] point() {
        return point.clone();
    }

    /** True if this contact is on {@code otherBody} at exactly {@code otherPoint} (RBDL's grouping rule). */
    public boolean isAt(int otherBody, double[] otherPoint) {
        return body == otherBody && point[0] == otherPoint[0] && point[1] == otherPoint[1]
                && point[2] == otherPoint[2];
    }

    @Override
    public ConstraintType type() {
        return ConstraintType.CONTACT;
    }

    @Override
    public int rowCount() {
        return normalList.size();
    }

    @Override
    public void bind(Kinematics kinematics) {
        if (kin != null) {
            throw new IllegalStateException("contact rows are already bound");
        }
        FrameMath.checkBody(kinematics, body, false, "contact");
        kin = kinematics;
        normals = normalList.toArray(new double[0][]);
        rows = rowList.stream().mapToInt(Integer::intValue).toArray();
        jPoint = new DMatrixRMaj(3, kinematics.nv());
        motion = new PointMotion(kinematics.nv());
    }

    @Override
    public void positionError(double[] q, double[] phi, int offset) {
        for (int k = 0; k < normals.length; k++) {
            phi[offset + rows[k]] = 0;
        }
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot, int offset) {
        kin.pointVelocity(q, v, body, point, p3);
        for (int k = 0; k < normals.length; k++) {
            double[] n = normals[k];
            phidot[offset + rows[k]] = n[0] * p3[0] + n[1] * p3[1] + n[2] * p3[2];
        }
    }

    @Override
    public void jacobian(double[] q, DMatrixRMaj g, int rowOffset) {
        kin.pointJacobian(q, body, point, jPoint);
        int nv = jPoint.numCols;
        double[] j = jPoint.data;
        for (int k = 0; k < normals.length; k++) {
            double[] n = normals[k];
            int row = (rowOffset + rows[k]) * g.numCols;
            for (int col = 0; col < nv; col++) {
                g.data[row + col] = n[0] * j[col] + n[1] * j[nv + col] + n[2] * j[2 * nv + col];
            }
        }
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma, int offset) {
        kin.pointBiasAcceleration(q, v, body, point, p3);
        for (int k = 0; k < normals.length; k++) {
            double[] n = normals[k];
            gamma[offset + rows[k]] = -(n[0] * p3[0] + n[1] * p3[1] + n[2] * p3[2]);
        }
    }

    /** a_k = n_k · p̈: rows n_kᵀ ∂p̈/∂q and n_kᵀ ∂p̈/∂v. */
    @Override
    public void accelerationDerivatives(MotionDerivatives md, DMatrixRMaj dDq, DMatrixRMaj dDv, int rowOffset) {
        PointMotion pm = pointMotion(md);
        for (int k = 0; k < normals.length; k++) {
            FrameMath.directionRow(normals[k], pm.dAccelerationDq(), dDq, rowOffset + rows[k]);
            FrameMath.directionRow(normals[k], pm.dAccelerationDv(), dDv, rowOffset + rows[k]);
        }
    }

    /** φ = 0; φ̇_k = n_k · ṗ: rows n_kᵀ ∂ṗ/∂q. */
    @Override
    public void errorDerivatives(MotionDerivatives md, DMatrixRMaj dPhiDq, DMatrixRMaj dPhidotDq, int rowOffset) {
        PointMotion pm = pointMotion(md);
        for (int k = 0; k < normals.length; k++) {
            FrameMath.zeroRow(dPhiDq, rowOffset + rows[k]);
            FrameMath.directionRow(normals[k], pm.dVelocityDq(), dPhidotDq, rowOffset + rows[k]);
        }
    }

    /** The force f = Σ λ_k n_k at p, its direction fixed in the world. */
    @Override
    public void addWrenches(MotionDerivatives md, double[] multipliers, int offset) {
        w6[0] = w6[1] = w6[2] = w6[3] = w6[4] = w6[5] = 0;
        for (int k = 0; k < normals.length; k++) {
            double l = multipliers[offset + rows[k]];
            w6[3] += l * normals[k][0];
            w6[4] += l * normals[k][1];
            w6[5] += l * normals[k][2];
        }
        md.addWrench(body, point, w6, -1);
    }

    /** The point's motion at md's state, filled once per update of md. */
    private PointMotion pointMotion(MotionDerivatives md) {
        if (md != motionSource || md.stamp() != motionStamp) {
            md.point(body, point, motion);
            motionSource = md;
            motionStamp = md.stamp();
        }
        return motion;
    }

    @Override
    public int maxBodyForces() {
        return 2;
    }

    /**
     * Entry 0: the body, frame at p with the body's orientation, force [0; f] with f = Σ λ_k n_k (so
     * J_pᵀ f = Gᵀ λ); entry 1: the world, frame at p's world position with world orientation, force [0; -f].
     */
    @Override
    public void bodyForces(double[] q, double[] multipliers, int offset, boolean inWorld, ConstraintForces out) {
        f[0] = f[1] = f[2] = 0;
        for (int k = 0; k < normals.length; k++) {
            double l = multipliers[offset + rows[k]];
            f[0] += l * normals[k][0];
            f[1] += l * normals[k][1];
            f[2] += l * normals[k][2];
        }
        kin.bodyPose(q, body, rot, p3);
        out.reset(inWorld);
        int e = out.add(body);
        FrameMath.setIdentity(out.frameRotation(e));
        System.arraycopy(point, 0, out.frameOrigin(e), 0, 3);
        FrameMath.rotateToWorld(rot, point, 0, out.originInWorld(e), 0);
        for (int i = 0; i < 3; i++) {
            out.originInWorld(e)[i] += p3[i];
        }
        double[] fe = out.force(e);
        fe[0] = fe[1] = fe[2] = 0;
        if (inWorld) {
            System.arraycopy(f, 0, fe, 3, 3);
        } else {
            FrameMath.rotateToFrame(rot, f, 0, fe, 3);
        }
        int w = out.add(-1);
        FrameMath.setIdentity(out.frameRotation(w));
        System.arraycopy(out.originInWorld(e), 0, out.frameOrigin(w), 0, 3);
        System.arraycopy(out.originInWorld(e), 0, out.originInWorld(w), 0, 3);
        double[] fw = out.force(w);
        fw[0] = fw[1] = fw[2] = 0;
        fw[3] = -f[0];
        fw[4] = -f[1];
        fw[5] = -f[2];
    }
}
