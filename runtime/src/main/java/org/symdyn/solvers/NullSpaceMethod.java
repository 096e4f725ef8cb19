package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.SolverSettings.SpdSolver;

/**
 * The null-space method on a {@link ConstraintRankAnalysis} Gᵀ P = Q R of rank r, with Y = Q[:, 0:r],
 * Z = Q[:, r:nv] and R₁₁ = R[0:r, 0:r]; the independent rows (pivot order) satisfy G_act = R₁₁ᵀ Yᵀ. Then
 * x = Y p_y + Z p_z with R₁₁ᵀ p_y = b_act and (Zᵀ H Z) p_z = Zᵀ (a - H Y p_y), and the multipliers from
 * G_actᵀ y = Y R₁₁ y = a - H x: R₁₁ y = Yᵀ (a - H x). (RBDL solves the last step with (G Y) where its transpose
 * is needed, which is why its null-space λ is wrong for two or more rows.)
 */
final class NullSpaceMethod {
    private final int nv;
    private final SpdFactorization spd;
    private final DMatrixRMaj hz;
    private final DMatrixRMaj zhz;
    private final double[] t;
    private final double[] p;
    private final double[] pz;

    NullSpaceMethod(int nv, int maxRows) {
        this.nv = nv;
        spd = new SpdFactorization(nv);
        hz = new DMatrixRMaj(nv, nv);
        zhz = new DMatrixRMaj(nv, nv);
        t = new double[nv];
        p = new double[Math.max(1, Math.max(nv, maxRows))];
        pz = new double[nv];
    }

    /**
     * @param bAct right-hand side of the r independent rows, in pivot order
     * @param y    receives the r multipliers of those rows, in pivot order
     * @return false if Zᵀ H Z is not positive definite
     */
    boolean solve(DMatrixRMaj h, ConstraintRankAnalysis qr, int r, double[] a, double[] bAct, double[] x,
            double[] y, SpdSolver kind) {
        DMatrixRMaj q = qr.Q();
        DMatrixRMaj rr = qr.R();
        double[] qd = q.data;
        double[] hd = h.data;
        // R₁₁ᵀ p_y = b_act (forward substitution; R₁₁ᵀ is lower triangular).
        for (int i = 0; i < r; i++) {
            double s = bAct[i];
            for (int j = 0; j < i; j++) {
                s -= rr.get(j, i) * p[j];
            }
            p[i] = s / rr.get(i, i);
        }
        for (int i = 0; i < nv; i++) {
            double s = 0;
            for (int k = 0; k < r; k++) {
                s += qd[i * nv + k] * p[k];
            }
            x[i] = s;
        }
        int nz = nv - r;
        if (nz > 0) {
            // t = a - H x_y
            SaddlePointOps.subtractProduct(h, a, x, t);
            hz.reshape(nv, nz);
            for (int i = 0; i < nv; i++) {
                for (int c = 0; c < nz; c++) {
                    double s = 0;
                    for (int j = 0; j < nv; j++) {
                        s += hd[i * nv + j] * qd[j * nv + r + c];
                    }
                    hz.data[i * nz + c] = s;
                }
            }
            zhz.reshape(nz, nz);
            for (int c = 0; c < nz; c++) {
                double s = 0;
                for (int i = 0; i < nv; i++) {
                    s += qd[i * nv + r + c] * t[i];
                }
                pz[c] = s;
                for (int e = 0; e <= c; e++) {
                    double z = 0;
                    for (int i = 0; i < nv; i++) {
                        z += qd[i * nv + r + c] * hz.data[i * nz + e];
                    }
                    zhz.data[c * nz + e] = z;
                    zhz.data[e * nz + c] = z;
                }
            }
            if (!spd.factor(zhz, kind)) {
                return false;
            }
            spd.solve(pz, pz, nz);
            for (int i = 0; i < nv; i++) {
                double s = 0;
                for (int c = 0; c < nz; c++) {
                    s += qd[i * nv + r + c] * pz[c];
                }
                x[i] += s;
            }
        }
        // R₁₁ y = Yᵀ (a - H x) (back substitution).
        SaddlePointOps.subtractProduct(h, a, x, t);
        QrSubstitution.transposeProduct(qd, nv, nv, r, t, p);
        QrSubstitution.backSubstitute(rr, p, y, r);
        return true;
    }
}
