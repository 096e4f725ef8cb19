package org.symdyn.dynamics;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.model.Model;
import org.symdyn.model.ParameterModel;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * ∂π/∂p of a model's declared parameters ({@link DynamicsDerivatives#inertialParameterJacobian}): each link
 * parameter changes its body's ten inertial parameters through its own link's (m, c, I_c), with
 * π = [m, m c, I_c + m (|c|² 1 - c cᵀ)] (the link's frame is its body's, so no transform); the other links merged
 * into the body do not move. Joint-origin and armature parameters give zero columns of ∂π/∂p; an armature a_j enters
 * τ as a_j v̇ on its joint's dofs, which is its column of the parameter regressor ({@link #regressor}). Sparse: one
 * body's ten entries per column.
 */
final class ParameterJacobian {
    private static final int P = DynamicsDerivatives.PARAMETERS_PER_BODY;

    /** The body of each parameter (-1 for a joint-origin parameter). */
    private final int[] body;
    /** The ten entries of each column on its body, column after column. */
    private final double[] entries;
    /** For an armature parameter, the first v index and the dof count of its joint; -1 and 0 otherwise. */
    private final int[] armatureV;
    private final int[] armatureDofs;

    ParameterJacobian(Model model) {
        List<ParameterModel> params = model.parameters();
        body = new int[params.size()];
        entries = new double[P * params.size()];
        armatureV = new int[params.size()];
        armatureDofs = new int[params.size()];
        for (int k = 0; k < params.size(); k++) {
            ParameterModel p = params.get(k);
            armatureV[k] = -1;
            if (p.field() == ParameterModel.Field.ARMATURE) {
                armatureV[k] = model.body(p.body()).joint().vIndex();
                armatureDofs[k] = model.body(p.body()).joint().nv();
            }
            if (!p.field().isLinkField()) {
                body[k] = -1;
                continue;
            }
            body[k] = p.body();
            RigidBodyInertia own = model.ownInertia(p.body());
            column(p.field(), own.mass(), new double[] {own.com(0), own.com(1), own.com(2)}, entries, P * k);
        }
    }

    /** ∂π_body/∂p for one link field at mass m and centre of mass c, into out[o..o+10). */
    private static void column(ParameterModel.Field field, double m, double[] c, double[] out, int o) {
        switch (field) {
            case MASS -> {
                double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
                out[o] = 1;
                out[o + 1] = c[0];
                out[o + 2] = c[1];
                out[o + 3] = c[2];
                out[o + 4] = cc - c[0] * c[0];
                out[o + 5] = -c[0] * c[1];
                out[o + 6] = cc - c[1] * c[1];
                out[o + 7] = -c[0] * c[2];
                out[o + 8] = -c[1] * c[2];
                out[o + 9] = cc - c[2] * c[2];
            }
            case COM_X, COM_Y, COM_Z -> {
                int k = field.ordinal() - ParameterModel.Field.COM_X.ordinal();
                // m ∂(|c|² δ_rs - c_r c_s)/∂c_k = m (2 c_k δ_rs - δ_rk c_s - c_r δ_sk)
                out[o + 1 + k] = m;
                int[][] slots = {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}};
                for (int e = 0; e < 6; e++) {
                    int r = slots[e][0];
                    int s = slots[e][1];
                    double d = (r == s ? 2 * c[k] : 0) - (r == k ? c[s] : 0) - (s == k ? c[r] : 0);
                    out[o + 4 + e] = m * d;
                }
            }
            case IXX -> out[o + 4] = 1;
            case IXY -> out[o + 5] = 1;
            case IYY -> out[o + 6] = 1;
            case IXZ -> out[o + 7] = 1;
            case IYZ -> out[o + 8] = 1;
            case IZZ -> out[o + 9] = 1;
            default -> throw new IllegalStateException("not a link field: " + field);
        }
    }

    /** Number of parameters (columns). */
    int size() {
        return body.length;
    }

    /** Writes ∂π/∂p (10·nb x size), zero outside each column's body. */
    void jacobian(DMatrixRMaj out) {
        out.zero();
        int cols = body.length;
        for (int k = 0; k < cols; k++) {
            if (body[k] < 0) {
                continue;
            }
            for (int e = 0; e < P; e++) {
                out.data[(P * body[k] + e) * cols + k] = entries[P * k + e];
            }
        }
    }

    /**
     * Y_p from the regressor y (nv x 10·nb) into yp (nv x size): Y ∂π/∂p, plus v̇ on the dofs of an armature
     * parameter's joint (τ = Y π + A v̇).
     */
    void regressor(DMatrixRMaj y, double[] vdot, DMatrixRMaj yp) {
        int nv = y.numRows;
        int cols = body.length;
        int yCols = y.numCols;
        for (int i = 0; i < nv; i++) {
            for (int k = 0; k < cols; k++) {
                double s = 0;
                if (body[k] >= 0) {
                    int o = i * yCols + P * body[k];
                    for (int e = 0; e < P; e++) {
                        s += y.data[o + e] * entries[P * k + e];
                    }
                }
                if (i >= armatureV[k] && i < armatureV[k] + armatureDofs[k]) {
                    s += vdot[i];
                }
                yp.data[i * cols + k] = s;
            }
        }
    }
}
