package org.symdyn.constraints;

import static org.symdyn.constraints.LineOnLineContact.cross;
import static org.symdyn.constraints.LineOnLineContact.rotate;

import org.symdyn.contract.Kinematics;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.spatial.Pose;

/**
 * One edge of a {@link LineOnLineContact} and the motion of its body, world-aligned: the edge's direction d, outward
 * direction s and centre P from the body's pose (R, o), the body's ω and v_o, ḋ = ω × d, the velocity of the edge
 * centre v(P) = v_o + ω × (P - o) and of the body's material point at the contact origin C_o, and the bias
 * acceleration T = a_o + α × (C_o - o) + ω × (Ċ_o - v_o) of that point at v̇ = 0. Body -1 is the world: identity
 * pose, at rest.
 */
final class LineOnLineEdge {
    final int body;
    /** Edge direction, outward direction and centre in body coordinates. */
    final double[] dLocal = new double[3];
    final double[] sLocal = new double[3];
    final double[] pLocal = new double[3];

    final double[] rotation = new double[9];
    final double[] origin = new double[3];
    final double[] d = new double[3];
    final double[] s = new double[3];
    /** Edge centre minus body origin, world. */
    final double[] arm = new double[3];
    final double[] centre = new double[3];

    /** Body velocity in body coordinates [ω; v_o]. */
    final double[] bodyVelocity = new double[6];
    final double[] omega = new double[3];
    final double[] velocity = new double[3];
    final double[] centreVelocity = new double[3];
    final double[] dDot = new double[3];
    final double[] contactVelocity = new double[3];

    final double[] alpha = new double[3];
    final double[] acceleration = new double[3];
    /** C_o in body coordinates. */
    final double[] contactLocal = new double[3];
    private final double[] tmp = new double[3];
    private final double[] t6 = new double[6];

    /** @throws IllegalArgumentException if the edge frame is degenerate ({@code name} names it) */
    LineOnLineEdge(int body, Pose edge, String name) {
        this.body = body;
        LineOnLineConstraintModel.edgeAxes(edge, name, dLocal, sLocal);
        for (int i = 0; i < 3; i++) {
            pLocal[i] = edge.translation(i);
        }
    }

    /** The body's pose at q, and d, s, the arm P - o and the centre P. */
    void pose(Kinematics kin, double[] q) {
        double[] r = rotation;
        if (body < 0) {
            for (int i = 0; i < 9; i++) {
                r[i] = (i % 4 == 0) ? 1 : 0;
            }
            origin[0] = origin[1] = origin[2] = 0;
        } else {
            kin.bodyPose(q, body, r, origin);
        }
        rotate(r, dLocal, d);
        rotate(r, sLocal, s);
        rotate(r, pLocal, arm);
        for (int i = 0; i < 3; i++) {
            centre[i] = origin[i] + arm[i];
        }
    }

    /** ω, v_o, v(P), ḋ and the velocity of the material point at {@code co} (after {@link #pose}). */
    void velocity(Kinematics kin, double[] q, double[] v, double[] co) {
        if (body < 0) {
            for (int i = 0; i < 3; i++) {
                omega[i] = velocity[i] = centreVelocity[i] = dDot[i] = 0;
                contactVelocity[i] = 0;
            }
            for (int i = 0; i < 6; i++) {
                bodyVelocity[i] = 0;
            }
            return;
        }
        double[] bv = bodyVelocity;
        kin.bodyVelocity(q, v, body, bv);
        double[] r = rotation;
        for (int i = 0; i < 3; i++) {
            omega[i] = r[3 * i] * bv[0] + r[3 * i + 1] * bv[1] + r[3 * i + 2] * bv[2];
            velocity[i] = r[3 * i] * bv[3] + r[3 * i + 1] * bv[4] + r[3 * i + 2] * bv[5];
        }
        cross(omega, arm, centreVelocity);
        cross(omega, d, dDot);
        for (int i = 0; i < 3; i++) {
            centreVelocity[i] += velocity[i];
            tmp[i] = co[i] - origin[i];
        }
        cross(omega, tmp, contactVelocity);
        for (int i = 0; i < 3; i++) {
            contactVelocity[i] += velocity[i];
        }
    }

    /**
     * T = a_o + α × (C_o - o) + ω × (Ċ_o - v_o): d/dt of the velocity of the material point at C_o at v̇ = 0, into
     * {@link #acceleration}, and α into {@link #alpha} (after {@link #velocity}).
     *
     * @param zeroV nv zeros
     */
    void bias(Kinematics kin, double[] q, double[] v, double[] zeroV, double[] co, double[] coDot) {
        if (body < 0) {
            alpha[0] = alpha[1] = alpha[2] = 0;
            acceleration[0] = acceleration[1] = acceleration[2] = 0;
            return;
        }
        kin.bodyAcceleration(q, v, zeroV, body, t6);
        double[] bv = bodyVelocity;
        // Classical acceleration of the origin in body coordinates: a_spatial + ω × v_o.
        double l0 = t6[3] + bv[1] * bv[5] - bv[2] * bv[4];
        double l1 = t6[4] + bv[2] * bv[3] - bv[0] * bv[5];
        double l2 = t6[5] + bv[0] * bv[4] - bv[1] * bv[3];
        double[] r = rotation;
        double[] acc = acceleration;
        for (int i = 0; i < 3; i++) {
            alpha[i] = r[3 * i] * t6[0] + r[3 * i + 1] * t6[1] + r[3 * i + 2] * t6[2];
            acc[i] = r[3 * i] * l0 + r[3 * i + 1] * l1 + r[3 * i + 2] * l2;
        }
        for (int i = 0; i < 3; i++) {
            tmp[i] = co[i] - origin[i];
        }
        addCross(alpha, tmp, acc);
        for (int i = 0; i < 3; i++) {
            tmp[i] = coDot[i] - velocity[i];
        }
        addCross(omega, tmp, acc);
    }

    /** out += a × b. */
    private static void addCross(double[] a, double[] b, double[] out) {
        out[0] += a[1] * b[2] - a[2] * b[1];
        out[1] += a[2] * b[0] - a[0] * b[2];
        out[2] += a[0] * b[1] - a[1] * b[0];
    }

    /** out = Rᵀ (x - o): a world point in the body's coordinates. */
    void toBody(double[] x, double[] out) {
        double[] r = rotation;
        double x0 = x[0] - origin[0], x1 = x[1] - origin[1], x2 = x[2] - origin[2];
        out[0] = r[0] * x0 + r[3] * x1 + r[6] * x2;
        out[1] = r[1] * x0 + r[4] * x1 + r[7] * x2;
        out[2] = r[2] * x0 + r[5] * x1 + r[8] * x2;
    }
}
