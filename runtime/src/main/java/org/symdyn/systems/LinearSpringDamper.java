package org.symdyn.systems;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.SpringDamperSpec;

/**
 * A linear spring-damper between two points fixed in bodies (either may be the world, body −1). With x₁, x₂ the
 * points' world positions, d = ‖x₂ − x₁‖, u = (x₂ − x₁)/d and ḋ = u · (ẋ₂ − ẋ₁), the tension
 * <pre>
 *   T = k (d − restLength) + c ḋ        (N; positive pulls the points together)
 * </pre>
 * acts as the world force +T u on point 1 and −T u on point 2, which enters the equations of motion as
 * <pre>
 *   τ += J₁ᵀ (T u) − J₂ᵀ (T u)          (J_i the world point Jacobians, {@link Kinematics#pointJacobian})
 * </pre>
 * At d = 0 the direction is undefined and no force is applied (a zero-length spring at rest length 0 exerts none
 * anyway; one with a positive rest length would need a direction nothing gives).
 */
public final class LinearSpringDamper implements Actuator {
    private final String name;
    private final Kinematics kinematics;
    private final int body1;
    private final int body2;
    private final double[] point1;
    private final double[] point2;
    private final double stiffness;
    private final double damping;
    private final double restLength;
    private final int nv;

    private final double[] x1 = new double[3];
    private final double[] x2 = new double[3];
    private final double[] v1 = new double[3];
    private final double[] v2 = new double[3];
    private final DMatrixRMaj jacobian;
    private double tension;
    private double length;

    /**
     * @param kinematics the model's kinematics (kept: one instance per system, as everything here is one thread's)
     * @param body1      body of point 1, −1 for the world
     * @param point1     point 1 in body1's coordinates (world coordinates for the world), m
     * @param body2      body of point 2, −1 for the world
     * @param point2     point 2 in body2's coordinates, m
     * @param stiffness  k ≥ 0 (N/m)
     * @param damping    c ≥ 0 (N·s/m)
     * @param restLength ≥ 0 (m)
     */
    public LinearSpringDamper(String name, Kinematics kinematics, int body1, double[] point1, int body2,
            double[] point2, double stiffness, double damping, double restLength) {
        this.name = Checks.name(name);
        this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
        this.body1 = Checks.body(name, kinematics, body1);
        this.body2 = Checks.body(name, kinematics, body2);
        if (body1 == body2) {
            throw new IllegalArgumentException(name + ": both points are on body " + body1 + "; the spring does nothing");
        }
        this.point1 = Checks.vector(name, "point1", point1, 3);
        this.point2 = Checks.vector(name, "point2", point2, 3);
        this.stiffness = Checks.nonNegative(name, "stiffness", stiffness);
        this.damping = Checks.nonNegative(name, "damping", damping);
        this.restLength = Checks.nonNegative(name, "restLength", restLength);
        this.nv = kinematics.nv();
        this.jacobian = new DMatrixRMaj(3, nv);
    }

    /** From a model file's declaration. */
    public static LinearSpringDamper of(SpringDamperSpec s, Kinematics kinematics) {
        return new LinearSpringDamper(s.name(), kinematics, s.body1(), s.point1(), s.body2(), s.point2(),
                s.stiffness(), s.damping(), s.restLength());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void addForces(double t, double[] q, double[] v, double[] tau) {
        position(q, body1, point1, x1);
        position(q, body2, point2, x2);
        velocity(q, v, body1, point1, v1);
        velocity(q, v, body2, point2, v2);
        double dx = x2[0] - x1[0], dy = x2[1] - x1[1], dz = x2[2] - x1[2];
        double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        length = d;
        if (d == 0) {
            tension = 0;
            return;
        }
        double ux = dx / d, uy = dy / d, uz = dz / d;
        double ddot = ux * (v2[0] - v1[0]) + uy * (v2[1] - v1[1]) + uz * (v2[2] - v1[2]);
        double tn = stiffness * (d - restLength) + damping * ddot;
        tension = tn;
        addJacobianTranspose(q, body1, point1, tn * ux, tn * uy, tn * uz, tau);
        addJacobianTranspose(q, body2, point2, -tn * ux, -tn * uy, -tn * uz, tau);
    }

    private void position(double[] q, int body, double[] p, double[] out) {
        if (body < 0) {
            System.arraycopy(p, 0, out, 0, 3);
        } else {
            kinematics.pointPosition(q, body, p, out);
        }
    }

    private void velocity(double[] q, double[] v, int body, double[] p, double[] out) {
        if (body < 0) {
            out[0] = 0;
            out[1] = 0;
            out[2] = 0;
        } else {
            kinematics.pointVelocity(q, v, body, p, out);
        }
    }

    private void addJacobianTranspose(double[] q, int body, double[] p, double fx, double fy, double fz,
            double[] tau) {
        if (body < 0) {
            return; // the world does not move: no generalised force
        }
        kinematics.pointJacobian(q, body, p, jacobian);
        double[] j = jacobian.data;
        for (int c = 0; c < nv; c++) {
            tau[c] += j[c] * fx + j[nv + c] * fy + j[2 * nv + c] * fz;
        }
    }

    /** The tension T of the last {@link #addForces} (N; positive pulls the points together). */
    public double tension() {
        return tension;
    }

    /** The distance d of the last {@link #addForces} (m). */
    public double length() {
        return length;
    }
}
