package org.symdyn.dynamics;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.spatial.SpatialTransform;

/**
 * Kinematic Jacobians of the generic recursions at q, column k the motion caused by the unit velocity v_k of a dof
 * of body b or of one of its ancestors (zero for the other dofs):
 * <pre>
 *   body Jacobian (6 x nv)    J_k = X_0,body X_0,b⁻¹ S_k                 [ω; v_origin] in body coordinates
 *   point Jacobian (3 x nv)   J_k = Eᵀ S_k,lin + (Eᵀ S_k,ang) × (x - o_b)   world coordinates
 * </pre>
 * with X_0,b = (E, r) from the world to body b, o_b = r its origin and x the point in world coordinates
 * ({@link PointKinematics#pointToWorld}): ṗ = v_origin + ω × (p - origin). The signs and frames are those of
 * {@link org.symdyn.contract.Kinematics}.
 *
 * <p>Reads the {@link DynamicsWorkspace}'s joint models; arguments are checked by the caller.
 */
final class Jacobians {
    private Jacobians() {
    }

    /** The point Jacobian of a point of {@code body} (body coordinates) at q into j (3 x nv). */
    static void pointJacobian(DynamicsWorkspace ws, double[] q, int body, double[] point, DMatrixRMaj j) {
        pointJacobian(ws, q, body, point, j, true);
    }

    /** The same; {@code zero}: false leaves the columns off the body's branch as they are. */
    static void pointJacobian(DynamicsWorkspace ws, double[] q, int body, double[] point, DMatrixRMaj j,
            boolean zero) {
        ForwardKinematics.placements(ws, q);
        JointTransforms joints = ws.joints;
        int nv = ws.nv;
        double[] t6a = ws.t6a;
        double[] t6b = ws.t6b;
        if (zero) {
            j.zero();
        }
        double[] pw = ws.t6c;
        PointKinematics.pointToWorld(joints.x0[body], point, pw);
        for (int b = body; b >= 0; b = joints.parent[b]) {
            SpatialTransform x0 = joints.x0[b];
            double d0 = pw[0] - x0.r[0], d1 = pw[1] - x0.r[1], d2 = pw[2] - x0.r[2];
            for (int d = 0; d < joints.dofs[b]; d++) {
                int col = joints.vIndex[b] + d;
                PointKinematics.vectorToWorld(x0, joints.s, 6 * col, t6a);
                PointKinematics.vectorToWorld(x0, joints.s, 6 * col + 3, t6b);
                // ṗ = v_origin + ω × (p - origin)
                j.data[col] = t6b[0] + t6a[1] * d2 - t6a[2] * d1;
                j.data[nv + col] = t6b[1] + t6a[2] * d0 - t6a[0] * d2;
                j.data[2 * nv + col] = t6b[2] + t6a[0] * d1 - t6a[1] * d0;
            }
        }
    }

    /** The body Jacobian of {@code body} at q into j (6 x nv). */
    static void bodyJacobian(DynamicsWorkspace ws, double[] q, int body, DMatrixRMaj j) {
        ForwardKinematics.placements(ws, q);
        JointTransforms joints = ws.joints;
        SpatialTransform[] x0 = joints.x0;
        j.zero();
        for (int b = body; b >= 0; b = joints.parent[b]) {
            for (int d = 0; d < joints.dofs[b]; d++) {
                int col = joints.vIndex[b] + d;
                // X_body<-b S = X_0,body X_0,b⁻¹ S
                x0[b].applyInverseMotion(joints.s, 6 * col, ws.t6a, 0);
                x0[body].applyMotion(ws.t6a, 0, ws.t6b, 0);
                for (int k = 0; k < 6; k++) {
                    j.data[k * ws.nv + col] = ws.t6b[k];
                }
            }
        }
    }
}
