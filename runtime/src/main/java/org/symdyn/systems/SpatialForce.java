package org.symdyn.systems;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;

/**
 * A wrench applied to one body, settable at run time ({@link #set}): six numbers [n; f] (N·m, N), given either
 * <ul>
 * <li>in <b>body</b> coordinates about the body origin ({@link #inBody}), or</li>
 * <li>in <b>world</b> coordinates, the force f applied at a point fixed in the body and n a pure torque
 * ({@link #inWorld}).</li>
 * </ul>
 * Both become the body wrench w_B = [n_B + p × f_B; f_B] (p the application point, body coordinates; n_B = Rᵀ n,
 * f_B = Rᵀ f for a world wrench, R = R_world←body) and enter the equations of motion as τ += J_Bᵀ w_B, with J_B the
 * body Jacobian ({@link Kinematics#bodyJacobian}: [ω; v_origin] = J_B v), since the power w_B · (J_B v) = τ · v.
 *
 * <p>Its derivatives ({@link #addForceDerivatives}): ∂τ/∂q of the wrench as set, held fixed in the world for a
 * world wrench and turning with the body for a body one ({@link PointForceDerivatives}); ∂τ/∂v = 0.
 */
public final class SpatialForce implements Actuator {
    private final String name;
    private final Kinematics kinematics;
    private final int body;
    private final boolean world;
    private final double[] point;
    private final double[] wrench = new double[6];
    private final double[] rotation = new double[9];
    private final double[] origin = new double[3];
    private final DMatrixRMaj jacobian;
    private final int nv;
    /** Created on the first derivative call: most forces are never differentiated. */
    private PointForceDerivatives derivatives;
    private final double[] worldForce = new double[3];
    private final double[] worldTorque = new double[3];
    private final double[] worldPoint = new double[3];

    private SpatialForce(String name, Kinematics kinematics, int body, boolean world, double[] point) {
        this.name = Checks.name(name);
        this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
        if (body < 0 || body >= kinematics.bodyNames().size()) {
            throw new IllegalArgumentException(name + ": body " + body + " outside 0.."
                    + (kinematics.bodyNames().size() - 1) + " of model " + kinematics.modelName());
        }
        this.body = body;
        this.world = world;
        this.point = point;
        this.nv = kinematics.nv();
        this.jacobian = new DMatrixRMaj(6, nv);
    }

    /** A wrench [n; f] in the body's coordinates about its origin (initially zero). */
    public static SpatialForce inBody(String name, Kinematics kinematics, int body) {
        return new SpatialForce(name, kinematics, body, false, new double[3]);
    }

    /**
     * A wrench [n; f] in world coordinates: f applied at {@code point} (body coordinates, m), n a pure torque
     * (initially zero).
     */
    public static SpatialForce inWorld(String name, Kinematics kinematics, int body, double[] point) {
        return new SpatialForce(name, kinematics, body, true, Checks.vector(name, "point", point, 3));
    }

    @Override
    public String name() {
        return name;
    }

    /** Sets the wrench [n; f] (6 numbers, copied; N·m and N) in this force's coordinates. */
    public void set(double[] nf) {
        if (nf.length != 6) {
            throw new IllegalArgumentException(name + ": a wrench has 6 numbers [n; f], got " + nf.length);
        }
        System.arraycopy(nf, 0, wrench, 0, 6);
    }

    /** Sets the wrench [n; f] in this force's coordinates. */
    public void set(double nx, double ny, double nz, double fx, double fy, double fz) {
        wrench[0] = nx;
        wrench[1] = ny;
        wrench[2] = nz;
        wrench[3] = fx;
        wrench[4] = fy;
        wrench[5] = fz;
    }

    /** Component i of the wrench as set (0-2 torque, 3-5 force). */
    public double wrench(int i) {
        return wrench[i];
    }

    public int body() {
        return body;
    }

    @Override
    public void addForces(double t, double[] q, double[] v, double[] tau) {
        double nx = wrench[0], ny = wrench[1], nz = wrench[2];
        double fx = wrench[3], fy = wrench[4], fz = wrench[5];
        if (world) {
            kinematics.bodyPose(q, body, rotation, origin);
            double[] r = rotation;
            // Rᵀ x: R is row-major world <- body
            double bx = r[0] * nx + r[3] * ny + r[6] * nz;
            double by = r[1] * nx + r[4] * ny + r[7] * nz;
            double bz = r[2] * nx + r[5] * ny + r[8] * nz;
            double gx = r[0] * fx + r[3] * fy + r[6] * fz;
            double gy = r[1] * fx + r[4] * fy + r[7] * fz;
            double gz = r[2] * fx + r[5] * fy + r[8] * fz;
            // the moment of f about the body origin: p × f
            nx = bx + point[1] * gz - point[2] * gy;
            ny = by + point[2] * gx - point[0] * gz;
            nz = bz + point[0] * gy - point[1] * gx;
            fx = gx;
            fy = gy;
            fz = gz;
        }
        kinematics.bodyJacobian(q, body, jacobian);
        double[] j = jacobian.data;
        for (int c = 0; c < nv; c++) {
            tau[c] += j[c] * nx + j[nv + c] * ny + j[2 * nv + c] * nz + j[3 * nv + c] * fx + j[4 * nv + c] * fy
                    + j[5 * nv + c] * fz;
        }
    }

    @Override
    public void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
        if (derivatives == null) {
            derivatives = new PointForceDerivatives(kinematics);
        }
        PointForceDerivatives d = derivatives;
        d.update(q, body);
        if (world) {
            for (int i = 0; i < 3; i++) {
                worldTorque[i] = wrench[i];
                worldForce[i] = wrench[3 + i];
            }
            d.worldPoint(point, worldPoint);
        } else {
            for (int i = 0; i < 3; i++) {
                worldTorque[i] = d.rotation(i, 0) * wrench[0] + d.rotation(i, 1) * wrench[1]
                        + d.rotation(i, 2) * wrench[2];
                worldForce[i] = d.rotation(i, 0) * wrench[3] + d.rotation(i, 1) * wrench[4]
                        + d.rotation(i, 2) * wrench[5];
                worldPoint[i] = d.origin(i);
            }
        }
        d.addForceDerivative(worldPoint, worldForce, worldTorque, !world, 1, dq);
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.sameModel(name, kinematics, model);
    }
}
