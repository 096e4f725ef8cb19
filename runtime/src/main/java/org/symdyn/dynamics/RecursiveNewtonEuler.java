package org.symdyn.dynamics;

import org.symdyn.spatial.SpatialVectors;

/**
 * The recursive Newton-Euler algorithm (RNEA, Featherstone, <i>Rigid Body Dynamics Algorithms</i> §5.3): inverse
 * dynamics τ = H(q) q̈ + C(q, q̇) with gravity, or without it (a_0 = 0).
 * <pre>
 *   root to leaf   v_i, a_i of {@link ForwardKinematics#motionPass} (a_0 = -g)
 *   body forces    f_i = I_i a_i + v_i ×* I_i v_i
 *   leaf to root   τ_i = S_iᵀ f_i + A_i q̈_i,   f_λ(i) += X_iᵀ f_i
 * </pre>
 * A_i the diagonal of joint i's armature ({@link FlatModel}): the rotor's reflected inertia, which moves with the
 * joint coordinate and not with the links, so it adds to τ and to nothing the links feel.
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
        double[] vel = ws.vel;
        double[] force = ws.force;
        for (int i = 0; i < ws.nb; i++) {
            int o = 6 * i;
            // f = I a + v ×* I v
            model.inertiaTimes(i, ws.acc, o, force, o);
            model.inertiaTimes(i, vel, o, ws.t6a, 0);
            SpatialVectors.crossForce(vel, o, ws.t6a, 0, ws.t6b, 0);
            for (int k = 0; k < 6; k++) {
                force[o + k] += ws.t6b[k];
            }
        }
        JointTransforms joints = ws.joints;
        for (int i = ws.nb - 1; i >= 0; i--) {
            int o = 6 * i;
            int vi = joints.vIndex[i];
            for (int d = 0; d < joints.dofs[i]; d++) {
                int k = vi + d;
                tau[k] = SpatialVectors.dot(joints.s, 6 * k, force, o);
                if (model.armature[k] != 0) {
                    tau[k] += model.armature[k] * vdot[k];
                }
            }
            if (joints.parent[i] >= 0) {
                joints.xUp[i].addTransposeForce(force, o, force, 6 * joints.parent[i]);
            }
        }
    }
}
