package org.symdyn.dynamics;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * The composite-rigid-body algorithm (CRBA, Featherstone, <i>Rigid Body Dynamics Algorithms</i> §6.2): the joint-space
 * inertia matrix H(q).
 * <pre>
 *   leaf to root   I^c_i = I_i + Σ_children X_jᵀ I^c_j X_j
 *   per dof of i   F = I^c_i S_i,   H_ii = S_iᵀ F
 *   up the tree    j = i; while λ(j) exists: F = X_jᵀ F, j = λ(j), H_ji = H_ijᵀ = S_jᵀ F
 *   armature       H_kk += a_k for every dof k of a joint with armature
 * </pre>
 * The composite inertias are kept in the compact form (m, h = m c, Ī about the origin) of {@link FlatModel}, and
 * X_iᵀ I X_i is taken on that form: with X from parent to child (E, r) and h' = Eᵀ h,
 * h_p = h' + m r and Ī_p = Eᵀ Ī E - [r]×[h']× - [h' + m r]×[r]×. Entries between bodies on different branches are
 * zero.
 *
 * <p>Reads a {@link FlatModel}, writes a {@link DynamicsWorkspace} ({@code compMass}, {@code compH},
 * {@code compI}).
 */
final class CompositeRigidBody {
    private CompositeRigidBody() {
    }

    /** H(q) into h (nv x nv, every entry written). Arguments checked by the caller. */
    static void massMatrix(FlatModel model, DynamicsWorkspace ws, double[] q, DMatrixRMaj h) {
        massMatrix(model, ws, q, h, true);
    }

    /** H into h; {@code zero}: false leaves the entries between bodies on different branches as they are. */
    static void massMatrix(FlatModel model, DynamicsWorkspace ws, double[] q, DMatrixRMaj h, boolean zero) {
        JointTransforms joints = ws.joints;
        joints.update(q);
        int nb = ws.nb;
        int nv = ws.nv;
        int[] parent = joints.parent;
        double[] s = joints.s;
        double[] t6a = ws.t6a;
        System.arraycopy(model.mass, 0, ws.compMass, 0, nb);
        System.arraycopy(model.firstMoment, 0, ws.compH, 0, 3 * nb);
        System.arraycopy(model.rotInertia, 0, ws.compI, 0, 9 * nb);
        for (int i = nb - 1; i >= 0; i--) {
            if (parent[i] >= 0) {
                addTransformedInertia(ws, joints.xUp[i], i, parent[i]);
            }
        }
        // Entries between bodies on different branches stay zero.
        if (zero) {
            h.zero();
        }
        double[] hd = h.data;
        for (int i = 0; i < nb; i++) {
            int vi = joints.vIndex[i];
            for (int d = 0; d < joints.dofs[i]; d++) {
                int col = vi + d;
                FlatModel.inertiaTimes(ws.compMass, ws.compH, ws.compI, i, s, 6 * col, t6a, 0);
                for (int d2 = 0; d2 < joints.dofs[i]; d2++) {
                    hd[(vi + d2) * nv + col] = SpatialVectors.dot(s, 6 * (vi + d2), t6a, 0);
                }
                int j = i;
                while (parent[j] >= 0) {
                    joints.xUp[j].applyTransposeForce(t6a, 0, ws.t6b, 0);
                    System.arraycopy(ws.t6b, 0, t6a, 0, 6);
                    j = parent[j];
                    int vj = joints.vIndex[j];
                    for (int d2 = 0; d2 < joints.dofs[j]; d2++) {
                        double x = SpatialVectors.dot(s, 6 * (vj + d2), t6a, 0);
                        hd[(vj + d2) * nv + col] = x;
                        hd[col * nv + vj + d2] = x;
                    }
                }
            }
        }
        double[] armature = model.armature;
        for (int k = 0; k < nv; k++) {
            if (armature[k] != 0) { // a model without armature keeps H bit for bit
                hd[k * nv + k] += armature[k];
            }
        }
    }

    /**
     * I^c_p += Xᵀ I^c_i X for X from parent to child, on the compact form (m, h, Ī):
     * h_p = Eᵀ h + m r, Ī_p = Eᵀ Ī E - [r]×[h']× - [h' + m r]×[r]× with h' = Eᵀ h.
     */
    private static void addTransformedInertia(DynamicsWorkspace ws, SpatialTransform x, int i, int p) {
        double[] compMass = ws.compMass;
        double[] compH = ws.compH;
        double[] compI = ws.compI;
        double[] e = x.E;
        double[] r = x.r;
        double m = compMass[i];
        int hi = 3 * i;
        double hp0 = e[0] * compH[hi] + e[3] * compH[hi + 1] + e[6] * compH[hi + 2];
        double hp1 = e[1] * compH[hi] + e[4] * compH[hi + 1] + e[7] * compH[hi + 2];
        double hp2 = e[2] * compH[hi] + e[5] * compH[hi + 1] + e[8] * compH[hi + 2];
        // Eᵀ Ī E
        int b = 9 * i;
        double[] ie = ws.t9;
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                ie[3 * row + col] = compI[b + 3 * row] * e[col] + compI[b + 3 * row + 1] * e[3 + col]
                        + compI[b + 3 * row + 2] * e[6 + col];
            }
        }
        double rh = r[0] * hp0 + r[1] * hp1 + r[2] * hp2;
        double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        double[] hv = ws.t6a;
        hv[0] = hp0;
        hv[1] = hp1;
        hv[2] = hp2;
        int pb = 9 * p;
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                double etie = e[row] * ie[col] + e[3 + row] * ie[3 + col] + e[6 + row] * ie[6 + col];
                double extra = (row == col ? 2 * rh + m * rr : 0) - hv[row] * r[col] - r[row] * hv[col]
                        - m * r[row] * r[col];
                compI[pb + 3 * row + col] += etie + extra;
            }
        }
        compH[3 * p] += hp0 + m * r[0];
        compH[3 * p + 1] += hp1 + m * r[1];
        compH[3 * p + 2] += hp2 + m * r[2];
        compMass[p] += m;
    }
}
