package org.symdyn.constraints;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;
import org.symdyn.spatial.Pose;

/** Small allocation-free 3-D helpers shared by the row providers (row-major 3x3 rotations). */
final class FrameMath {
    private FrameMath() {
    }

    /** out[off..off+3) = Rᵀ x (world vector into the frame's coordinates). */
    static void rotateToFrame(double[] r, double[] x, int xo, double[] out, int off) {
        double x0 = x[xo], x1 = x[xo + 1], x2 = x[xo + 2];
        out[off] = r[0] * x0 + r[3] * x1 + r[6] * x2;
        out[off + 1] = r[1] * x0 + r[4] * x1 + r[7] * x2;
        out[off + 2] = r[2] * x0 + r[5] * x1 + r[8] * x2;
    }

    /** out[off..off+3) = R x (frame vector into world coordinates). */
    static void rotateToWorld(double[] r, double[] x, int xo, double[] out, int off) {
        double x0 = x[xo], x1 = x[xo + 1], x2 = x[xo + 2];
        out[off] = r[0] * x0 + r[1] * x1 + r[2] * x2;
        out[off + 1] = r[3] * x0 + r[4] * x1 + r[5] * x2;
        out[off + 2] = r[6] * x0 + r[7] * x1 + r[8] * x2;
    }

    /** (Aᵀ B)_ij = column i of A · column j of B, summed over the rows in order. */
    static double columnDot(double[] a, int i, double[] b, int j) {
        return a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
    }

    static double dot6(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
    }

    static void setIdentity(double[] r) {
        for (int i = 0; i < 9; i++) {
            r[i] = i % 4 == 0 ? 1 : 0;
        }
    }

    /** Copies a pose's rotation (row-major) and translation. */
    static void copy(Pose pose, double[] rotation, double[] origin) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rotation[3 * i + j] = pose.rotation(i, j);
            }
            origin[i] = pose.translation(i);
        }
    }

    /**
     * World pose of a frame fixed in a body (body -1: the world, the frame's pose is already in world coordinates):
     * R_world<-F = R_world<-body R_body<-F, o = p_body + R_world<-body o_F.
     *
     * @param bodyRot scratch (9) receiving the body's rotation
     * @param bodyPos scratch (3) receiving the body's origin
     */
    static void framePose(Kinematics kin, double[] q, int body, Pose frame, double[] rotation, double[] origin,
            double[] bodyRot, double[] bodyPos) {
        if (body < 0) {
            copy(frame, rotation, origin);
            return;
        }
        kin.bodyPose(q, body, bodyRot, bodyPos);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rotation[3 * i + j] = bodyRot[3 * i] * frame.rotation(0, j) + bodyRot[3 * i + 1] * frame.rotation(1, j)
                        + bodyRot[3 * i + 2] * frame.rotation(2, j);
            }
            origin[i] = bodyPos[i] + bodyRot[3 * i] * frame.translation(0) + bodyRot[3 * i + 1] * frame.translation(1)
                    + bodyRot[3 * i + 2] * frame.translation(2);
        }
    }

    static void checkBody(Kinematics kin, int body, boolean worldAllowed, String what) {
        if (body < (worldAllowed ? -1 : 0) || body >= kin.bodyCount()) {
            throw new IllegalArgumentException(what + ": body index " + body + " is not a "
                    + (worldAllowed ? "body or the world (-1)" : "moving body") + " of model '" + kin.modelName()
                    + "' (" + kin.bodyCount() + " bodies)");
        }
    }

    /** Row {@code row} of m set to zero. */
    static void zeroRow(DMatrixRMaj m, int row) {
        Arrays.fill(m.data, row * m.numCols, (row + 1) * m.numCols, 0);
    }

    /** Row {@code row} of m = Σ_i n_i d[i·nv + k] over k: a world direction n times a 3 x nv derivative array d. */
    static void directionRow(double[] n, double[] d, DMatrixRMaj m, int row) {
        int nv = m.numCols;
        int o = row * nv;
        for (int k = 0; k < nv; k++) {
            m.data[o + k] = n[0] * d[k] + n[1] * d[nv + k] + n[2] * d[2 * nv + k];
        }
    }
}
