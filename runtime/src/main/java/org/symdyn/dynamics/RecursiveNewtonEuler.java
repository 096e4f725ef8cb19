package org.symdyn.dynamics;

import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * The recursive Newton-Euler algorithm (RNEA, Featherstone, <i>Rigid Body Dynamics Algorithms</i> §5.3): inverse
 * dynamics τ = H(q) q̈ + C(q, q̇) with gravity, or without it (a_0 = 0).
 * <pre>
 *   root to leaf   v_i, a_i of {@link ForwardKinematics#motionPass} (a_0 = -g)
 *   body forces    f_i = I_i a_i + v_i ×* I_i v_i
 *   leaf to root   τ_i = S_iᵀ f_i,   f_λ(i) += X_iᵀ f_i
 * </pre>
 * I_i the rigid inertia about body i's origin in its coordinates ({@link FlatModel}), ×* the spatial cross product
 * for forces; forces are [moment about the body origin; force] in body coordinates. After the call the workspace's
 * {@code force} holds the composite forces f^c_i (each body's own plus its subtree's), which the derivative
 * recursions differentiate.
 *
 * <p>Reads a {@link FlatModel}, writes a {@link DynamicsWorkspace}.
 */
final class RecursiveNewtonEuler {
    private RecursiveNewtonEuler() {
    }

    /** τ (nv) at (q, v, v̇), gravity included when {@code withGravity}. Arguments checked by the caller. */
    static void inverseDynamics(FlatModel model, DynamicsWorkspace ws, double[] q, double[] v, double[] vdot,
            boolean withGravity, double[] tau) {
        ForwardKinematics.motionPass(model, ws, q, v, vdot, withGravity);
        int nb = ws.nb;
        double[] vel = ws.vel;
        double[] acc = ws.acc;
        double[] force = ws.force;
        double[] t6a = ws.t6a;
        double[] t6b = ws.t6b;
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            // f = I a + v ×* I v
            model.inertiaTimes(i, acc, o, force, o);
            model.inertiaTimes(i, vel, o, t6a, 0);
            SpatialVectors.crossForce(vel, o, t6a, 0, t6b, 0);
            for (int k = 0; k < 6; k++) {
                force[o + k] += t6b[k];
            }
        }
        JointTransforms joints = ws.joints;
        int[] parent = joints.parent;
        int[] vIndex = joints.vIndex;
        int[] dofs = joints.dofs;
        double[] s = joints.s;
        SpatialTransform[] xUp = joints.xUp;
        for (int i = nb - 1; i >= 0; i--) {
            int o = 6 * i;
            int vi = vIndex[i];
            for (int d = 0; d < dofs[i]; d++) {
                tau[vi + d] = SpatialVectors.dot(s, 6 * (vi + d), force, o);
            }
            if (parent[i] >= 0) {
                xUp[i].addTransposeForce(force, o, force, 6 * parent[i]);
            }
        }
    }
}
