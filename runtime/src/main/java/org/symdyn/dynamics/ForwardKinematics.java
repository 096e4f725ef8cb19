package org.symdyn.dynamics;

import java.util.Arrays;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * Forward kinematics of the generic recursions (Featherstone, <i>Rigid Body Dynamics Algorithms</i> §4.4 and §5.3's
 * first pass), parents before children:
 * <pre>
 *   placements     X_i = X_J(q_i) X_T,i  (λ(i) to i),      X_0,i = X_i X_0,λ(i)  (world to i)
 *   velocities     v_i = X_i v_λ(i) + S_i q̇_i              (v_0 = 0)
 *   accelerations  a_i = X_i a_λ(i) + S_i q̈_i + c_J + v_i × S_i q̇_i,   a_0 = -g (or 0 without gravity)
 * </pre>
 * with the joint models X_J, S, v_J = S q̇ and c_J = Ṡ q̇ of {@code JointTransforms}. Spatial vectors are
 * [angular; linear] in body coordinates; a_i is the spatial (not the classical) acceleration, and with a_0 = -g it
 * carries gravity as a fictitious upward acceleration of the base, as RNEA wants it.
 *
 * <p>Reads a {@link FlatModel}, writes a {@link DynamicsWorkspace}: v_i into {@code vel}, a_i into {@code acc}.
 */
final class ForwardKinematics {
    private ForwardKinematics() {
    }

    /** X_i and X_0,i of every body at q. */
    static void placements(DynamicsWorkspace ws, double[] q) {
        ws.joints.update(q);
        ws.joints.updateWorld();
    }

    /** Every body's pose at q: R world &lt;- body at 9 b (row-major), origin (world coordinates) at 3 b. */
    static void worldPoses(DynamicsWorkspace ws, double[] q, double[] rotation, double[] position) {
        placements(ws, q);
        SpatialTransform[] x0 = ws.joints.x0;
        for (int b = 0; b < ws.nb; b++) {
            double[] e = x0[b].E;
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    rotation[9 * b + 3 * r + c] = e[3 * c + r];
                }
            }
            System.arraycopy(x0[b].r, 0, position, 3 * b, 3);
        }
    }

    /**
     * Body velocities v_i and spatial accelerations a_i, root to leaf (see the class comment), a_0 = -g, or 0 when
     * {@code withGravity} is false (the kinematic queries).
     */
    static void motionPass(FlatModel model, DynamicsWorkspace ws, double[] q, double[] v, double[] vdot,
            boolean withGravity) {
        ws.biasMotionCurrent = false;
        JointTransforms joints = ws.joints;
        joints.update(q, v);
        double[] vel = ws.vel;
        double[] acc = ws.acc;
        double[] gravity = model.gravity;
        double[] ab = ws.t6c;
        ab[0] = ab[1] = ab[2] = 0;
        ab[3] = withGravity ? -gravity[0] : 0;
        ab[4] = withGravity ? -gravity[1] : 0;
        ab[5] = withGravity ? -gravity[2] : 0;
        for (int i = 0; i < ws.nb; i++) {
            int o = 6 * i;
            int p = joints.parent[i];
            if (p < 0) {
                System.arraycopy(joints.vJ, o, vel, o, 6);
                joints.xUp[i].applyMotion(ab, 0, acc, o);
            } else {
                joints.xUp[i].applyMotion(vel, 6 * p, vel, o);
                for (int k = 0; k < 6; k++) {
                    vel[o + k] += joints.vJ[o + k];
                }
                joints.xUp[i].applyMotion(acc, 6 * p, acc, o);
                SpatialVectors.crossMotion(vel, o, joints.vJ, o, ws.t6a, 0);
                for (int k = 0; k < 6; k++) {
                    acc[o + k] += ws.t6a[k];
                }
            }
            joints.addSubspaceTimes(i, vdot, acc, o);
            for (int k = 0; k < 6; k++) {
                acc[o + k] += joints.cJ[o + k];
            }
        }
    }

    /**
     * The velocity half of {@link #motionPass}: body velocities v_i only (ws.acc is left as it was), the same
     * operations on them.
     */
    static void velocityPass(DynamicsWorkspace ws, double[] q, double[] v) {
        ws.biasMotionCurrent = false;
        JointTransforms joints = ws.joints;
        joints.update(q, v);
        double[] vel = ws.vel;
        for (int i = 0; i < ws.nb; i++) {
            int o = 6 * i;
            int p = joints.parent[i];
            if (p < 0) {
                System.arraycopy(joints.vJ, o, vel, o, 6);
            } else {
                joints.xUp[i].applyMotion(vel, 6 * p, vel, o);
                for (int k = 0; k < 6; k++) {
                    vel[o + k] += joints.vJ[o + k];
                }
            }
        }
    }

    /**
     * {@link #motionPass} at v̇ = 0 without gravity (velocities and velocity-product accelerations), skipped in a
     * state scope ({@link DynamicsWorkspace#reuse}) when the last one was for equal q and v.
     */
    static void biasMotion(FlatModel model, DynamicsWorkspace ws, double[] q, double[] v) {
        JointTransforms joints = ws.joints;
        if (ws.reuse && ws.biasMotionCurrent && joints.isCurrentFor(q) && Arrays.equals(v, ws.biasMotionV)) {
            return;
        }
        motionPass(model, ws, q, v, ws.zeroV, false);
        if (ws.reuse && v.length == ws.nv && joints.isCurrentFor(q)) {
            System.arraycopy(v, 0, ws.biasMotionV, 0, ws.nv);
            ws.biasMotionCurrent = true;
        }
    }
}
