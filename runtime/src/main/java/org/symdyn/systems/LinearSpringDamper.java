package org.symdyn.systems;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;
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
 *
 * <p>Its derivatives ({@link #addForceDerivatives}), with G = J₂ − J₁ (so Δ = x₂ − x₁ moves by G δq and
 * ẋ₂ − ẋ₁ = G v) and F = T u the force on point 1:
 * <pre>
 *   ∂τ/∂v   = −c Gᵀ u uᵀ G
 *   ∂τ/∂q_k = ∂(J₁ᵀ F − J₂ᵀ F)/∂q_k at fixed F − Gᵀ (∂T/∂q_k u + T ∂u/∂q_k)
 *   ∂u/∂q_k = (I − u uᵀ) G_k / d,   ∂T/∂q_k = k u · G_k + c (∂u/∂q_k · (ẋ₂ − ẋ₁) + u · ∂(ẋ₂ − ẋ₁)/∂q_k)
 * </pre>
 * (the Jacobians' and the points' velocities' derivatives from {@link PointForceDerivatives}); zero at d = 0, where no
 * force is applied.
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
    /** Created on the first derivative call, with G and ∂(ẋ₂ − ẋ₁)/∂q (3 x nv each). */
    private PointForceDerivatives derivatives;
    private double[] g;
    private double[] dw;
    private final double[] force = new double[3];

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
        double d = measure(q, v);
        double dx = x2[0] - x1[0], dy = x2[1] - x1[1], dz = x2[2] - x1[2];
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

    /** The points' world positions x1, x2 and velocities v1, v2 at (q, v); returns their distance d. */
    private double measure(double[] q, double[] v) {
        position(q, body1, point1, x1);
        position(q, body2, point2, x2);
        velocity(q, v, body1, point1, v1);
        velocity(q, v, body2, point2, v2);
        double dx = x2[0] - x1[0], dy = x2[1] - x1[1], dz = x2[2] - x1[2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
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

    @Override
    public void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
        if (derivatives == null) {
            derivatives = new PointForceDerivatives(kinematics);
            g = new double[3 * nv];
            dw = new double[3 * nv];
        }
        double d = measure(q, v);
        if (d == 0) {
            return;
        }
        double dx = x2[0] - x1[0], dy = x2[1] - x1[1], dz = x2[2] - x1[2];
        double ux = dx / d, uy = dy / d, uz = dz / d;
        double wx = v2[0] - v1[0], wy = v2[1] - v1[1], wz = v2[2] - v1[2];
        double tn = stiffness * (d - restLength) + damping * (ux * wx + uy * wy + uz * wz);
        force[0] = tn * ux;
        force[1] = tn * uy;
        force[2] = tn * uz;
        Arrays.fill(g, 0);
        Arrays.fill(dw, 0);
        PointForceDerivatives pd = derivatives;
        if (body1 >= 0) {
            pd.update(q, body1);
            pd.addPointJacobian(x1, null, -1, g);
            pd.addPointVelocityDerivative(x1, null, v, -1, dw);
            pd.addForceDerivative(x1, force, null, false, 1, dq);
        }
        if (body2 >= 0) {
            pd.update(q, body2);
            pd.addPointJacobian(x2, null, 1, g);
            pd.addPointVelocityDerivative(x2, null, v, 1, dw);
            pd.addForceDerivative(x2, force, null, false, -1, dq);
        }
        double[] oq = dq.data;
        double[] ov = dv.data;
        for (int k = 0; k < nv; k++) {
            double gx = g[k], gy = g[nv + k], gz = g[2 * nv + k];
            double ug = ux * gx + uy * gy + uz * gz;
            if (gx == 0 && gy == 0 && gz == 0 && dw[k] == 0 && dw[nv + k] == 0 && dw[2 * nv + k] == 0) {
                continue; // a dof that moves neither point
            }
            // ∂u/∂q_k, ∂T/∂q_k, ∂F/∂q_k
            double dux = (gx - ux * ug) / d, duy = (gy - uy * ug) / d, duz = (gz - uz * ug) / d;
            double dT = stiffness * ug + damping * (dux * wx + duy * wy + duz * wz + ux * dw[k] + uy * dw[nv + k]
                    + uz * dw[2 * nv + k]);
            double fx = dT * ux + tn * dux, fy = dT * uy + tn * duy, fz = dT * uz + tn * duz;
            double cu = damping * ug; // c uᵀ G_k
            for (int j = 0; j < nv; j++) {
                double hx = g[j], hy = g[nv + j], hz = g[2 * nv + j];
                if (hx == 0 && hy == 0 && hz == 0) {
                    continue;
                }
                oq[j * nv + k] -= hx * fx + hy * fy + hz * fz;
                ov[j * nv + k] -= (hx * ux + hy * uy + hz * uz) * cu;
            }
        }
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.sameModel(name, kinematics, model);
    }
}
