package org.symdyn.dynamics;

import org.symdyn.spatial.Rotations;
import org.symdyn.spatial.SpatialTransform;

/**
 * Poses, velocities and accelerations of bodies, frames and body-fixed points from the generic forward kinematics,
 * in world coordinates (the contract's {@link org.symdyn.contract.Kinematics}):
 * <pre>
 *   pose of body b         R = E_0,bᵀ (world &lt;- body),  p = r_0,b
 *   pose of a frame        R = E_0,bᵀ R_b,f,  p = r_0,b + E_0,bᵀ p_f        (R_b,f, p_f its offset in body b)
 *   point p of body b      x = r_0,b + E_0,bᵀ p
 *   point velocity         ẋ = E_0,bᵀ (v_o + ω × p)
 *   point acceleration     ẍ = E_0,bᵀ (a_o + ω̇ × p + ω × (v_o + ω × p))
 * </pre>
 * with [ω; v_o] = v_b and [ω̇; a_o] = a_b of {@link ForwardKinematics#motionPass} in body coordinates (a_b without
 * gravity: the classical acceleration of the origin is a_o + ω × v_o, whence the last term). At q̈ = 0 the point
 * acceleration is the bias J̇ q̇ of the point Jacobian ({@link org.symdyn.contract.Kinematics#pointBiasAcceleration}).
 *
 * <p>Reads a {@link FlatModel}, writes a {@link DynamicsWorkspace}; arguments are checked by the caller.
 */
final class PointKinematics {
    private PointKinematics() {
    }

    /** R world &lt;- body and the body origin in world coordinates at q. */
    static void bodyPose(DynamicsWorkspace ws, double[] q, int body, double[] rotation, double[] position) {
        ForwardKinematics.placements(ws, q);
        SpatialTransform x0 = ws.joints.x0[body];
        Rotations.transpose(x0.E, rotation);
        System.arraycopy(x0.r, 0, position, 0, 3);
    }

    /** R world &lt;- frame and the frame origin in world coordinates at q (a frame on the world: its offset). */
    static void framePose(FlatModel model, DynamicsWorkspace ws, double[] q, int frame, double[] rotation,
            double[] position) {
        double[] frameRotation = model.frameRotation;
        double[] frameTranslation = model.frameTranslation;
        int b = model.frameBody[frame];
        if (b < 0) {
            System.arraycopy(frameRotation, 9 * frame, rotation, 0, 9);
            System.arraycopy(frameTranslation, 3 * frame, position, 0, 3);
            return;
        }
        ForwardKinematics.placements(ws, q);
        double[] e = ws.joints.x0[b].E;
        double[] r = ws.joints.x0[b].r;
        int fo = 9 * frame;
        // R_world<-frame = Eᵀ R_body<-frame; p = r + Eᵀ p_frame.
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                rotation[3 * row + col] = e[row] * frameRotation[fo + col] + e[3 + row] * frameRotation[fo + 3 + col]
                        + e[6 + row] * frameRotation[fo + 6 + col];
            }
            position[row] = r[row] + e[row] * frameTranslation[3 * frame] + e[3 + row] * frameTranslation[3 * frame + 1]
                    + e[6 + row] * frameTranslation[3 * frame + 2];
        }
    }

    /** The world position of a point of the body (body coordinates) at q. */
    static void pointPosition(DynamicsWorkspace ws, double[] q, int body, double[] point, double[] position) {
        ForwardKinematics.placements(ws, q);
        pointToWorld(ws.joints.x0[body], point, position);
    }

    /** The world velocity of a point of the body (body coordinates) at (q, v). */
    static void pointVelocity(FlatModel model, DynamicsWorkspace ws, double[] q, double[] v, int body,
            double[] point, double[] velocity) {
        ForwardKinematics.biasMotion(model, ws, q, v);
        ws.joints.updateWorld();
        double[] vel = ws.vel;
        double[] t6a = ws.t6a;
        int o = 6 * body;
        // Body coordinates: v_p = v_o + ω × p.
        t6a[0] = vel[o + 3] + vel[o + 1] * point[2] - vel[o + 2] * point[1];
        t6a[1] = vel[o + 4] + vel[o + 2] * point[0] - vel[o] * point[2];
        t6a[2] = vel[o + 5] + vel[o] * point[1] - vel[o + 1] * point[0];
        vectorToWorld(ws.joints.x0[body], t6a, 0, velocity);
    }

    /**
     * The classical world acceleration of a point of the body (body coordinates) at (q, v, v̇); with
     * {@code vdot == ws.zeroV} (the same array) the bias J̇v, whose velocity pass a state scope may reuse.
     */
    static void pointAcceleration(FlatModel model, DynamicsWorkspace ws, double[] q, double[] v, double[] vdot,
            int body, double[] point, double[] acceleration) {
        if (vdot == ws.zeroV) {
            ForwardKinematics.biasMotion(model, ws, q, v);
        } else {
            ForwardKinematics.motionPass(model, ws, q, v, vdot, false);
        }
        ws.joints.updateWorld();
        double[] vel = ws.vel;
        double[] acc = ws.acc;
        double[] t6a = ws.t6a;
        int o = 6 * body;
        double w0 = vel[o], w1 = vel[o + 1], w2 = vel[o + 2];
        double p0 = point[0], p1 = point[1], p2 = point[2];
        // Classical acceleration: a_o + ω̇ × p + ω × (v_o + ω × p), all in body coordinates.
        double vp0 = vel[o + 3] + w1 * p2 - w2 * p1;
        double vp1 = vel[o + 4] + w2 * p0 - w0 * p2;
        double vp2 = vel[o + 5] + w0 * p1 - w1 * p0;
        double d0 = acc[o], d1 = acc[o + 1], d2 = acc[o + 2];
        t6a[0] = acc[o + 3] + d1 * p2 - d2 * p1 + w1 * vp2 - w2 * vp1;
        t6a[1] = acc[o + 4] + d2 * p0 - d0 * p2 + w2 * vp0 - w0 * vp2;
        t6a[2] = acc[o + 5] + d0 * p1 - d1 * p0 + w0 * vp1 - w1 * vp0;
        vectorToWorld(ws.joints.x0[body], t6a, 0, acceleration);
    }

    /** out = r + Eᵀ p: a point of the body (body coordinates) in world coordinates, X_0,b = (E, r). */
    static void pointToWorld(SpatialTransform x0, double[] point, double[] out) {
        double[] e = x0.E;
        double[] r = x0.r;
        for (int k = 0; k < 3; k++) {
            out[k] = r[k] + e[k] * point[0] + e[3 + k] * point[1] + e[6 + k] * point[2];
        }
    }

    /** out = Eᵀ x: a body-coordinate vector (3 entries at xo) in world coordinates, X_0,b = (E, r). */
    static void vectorToWorld(SpatialTransform x0, double[] x, int xo, double[] out) {
        double[] e = x0.E;
        double x0v = x[xo], x1 = x[xo + 1], x2 = x[xo + 2];
        for (int k = 0; k < 3; k++) {
            out[k] = e[k] * x0v + e[3 + k] * x1 + e[6 + k] * x2;
        }
    }
}
