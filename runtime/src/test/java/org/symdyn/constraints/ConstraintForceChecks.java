package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Kinematics;

/** Checks of resolved constraint forces shared by the constraint tests. */
public final class ConstraintForceChecks {
    private ConstraintForceChecks() {
    }

    /**
     * Σ_k J_kᵀ f_k with J_k the world-aligned Jacobian [ω; ȯ] of entry k's frame origin: the generalised force of
     * resolved body forces, to compare with Gᵀ λ. Also asserts that each entry's frame origin in world coordinates
     * matches its body-frame coordinates.
     */
    public static double[] generalisedForce(Kinematics kin, double[] q, ConstraintForces forces) {
        int nv = kin.nv();
        double[] out = new double[nv];
        double[] rot = new double[9];
        double[] pos = new double[3];
        DMatrixRMaj jb = new DMatrixRMaj(6, nv);
        DMatrixRMaj jp = new DMatrixRMaj(3, nv);
        for (int k = 0; k < forces.count(); k++) {
            int body = forces.body(k);
            if (body < 0) {
                continue; // the world does not move
            }
            kin.bodyPose(q, body, rot, pos);
            double[] f = forces.force(k).clone();
            if (!forces.resolvedInWorld()) {
                // World <- frame = world <- body · body <- frame.
                double[] rf = forces.frameRotation(k);
                double[] r = new double[9];
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        for (int e = 0; e < 3; e++) {
                            r[3 * i + j] += rot[3 * i + e] * rf[3 * e + j];
                        }
                    }
                }
                double[] w = new double[6];
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        w[i] += r[3 * i + j] * f[j];
                        w[3 + i] += r[3 * i + j] * f[3 + j];
                    }
                }
                f = w;
            }
            // The frame origin's world position must be consistent with its body-frame coordinates.
            double[] ow = new double[3];
            kin.pointPosition(q, body, forces.frameOrigin(k), ow);
            assertTrue(TestMechanisms.maxDiff(ow, forces.originInWorld(k)) < 1e-12);
            kin.bodyJacobian(q, body, jb);
            kin.pointJacobian(q, body, forces.frameOrigin(k), jp);
            for (int c = 0; c < nv; c++) {
                double s = 0;
                for (int i = 0; i < 3; i++) {
                    double wi = rot[3 * i] * jb.get(0, c) + rot[3 * i + 1] * jb.get(1, c) + rot[3 * i + 2] * jb.get(2,
                            c);
                    s += wi * f[i] + jp.get(i, c) * f[3 + i];
                }
                out[c] += s;
            }
        }
        return out;
    }
}
