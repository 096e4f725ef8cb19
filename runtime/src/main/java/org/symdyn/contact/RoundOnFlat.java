package org.symdyn.contact;

/**
 * What a contact between a rounded side R (a sphere, a capsule: {@link ContactKinematics#radius},
 * {@link ContactKinematics#otherRadius}; or a box's corner, r = 0, over a face: {@link ContactKinematics#face}) and a
 * flat side F that moves adds to the derivatives of its rows and of its
 * force, beyond the terms of two material points under a fixed frame. Its point of contact is R's centre c_R plus
 * the offset e = ∓r n (−r n on B, +r n on A; n from A towards B), so on F it is not a material point: it follows
 * c_R along F's face while F's face carries its normal coordinate. And n, the contact frame and e turn with F's
 * face. With ω_F,k and ω_R,k the columns of the two sides' world angular Jacobians, c_R,k and p_F,k those of R's
 * centre and of F's material point at the contact, P_t = I − n nᵀ, s_F = ±1 (+1 for F = B), s_R = −s_F and
 * e_F = (1 + φ/r) e the offset from R's centre to F's witness (φ the gap, negative in penetration):
 * <pre>
 *   Δ_k = P_t (c_R,k − p_F,k) + ω_F,k × e_F                               (the contact point's slide on F)
 *   ∂(row · u_rel)/∂q_k  += s_F row · (ω_F × Δ_k) + s_R row · (ω_R × (ω_F,k × e)) + (ω_F,k × row) · u_rel
 *   ∂(J_relᵀ f)_j/∂q_k  += s_F f · (ω_F,j × Δ_k) + s_R ω_R,j · ((ω_F,k × e) × f) + J_rel,j · (ω_F,k × f)
 * </pre>
 * for any row of the frame (it turns with the face: ∂row/∂q_k = ω_F,k × row), u_rel = J_rel v the relative velocity
 * of B's point over A's, f the force on B and J_rel = J_B − J_A at the contact points. ∂φ/∂q gains nothing (its
 * extra term is ω_F,k × n · (c_R − p_F) ∝ (ω_F,k × n) · n = 0). Exact for a sphere or capsule on a plane or flat face;
 * the caller decides when that is the contact ({@link #side}).
 *
 * <p>{@link StepDerivatives} and {@code systems.CompliantContact} use it. Allocates in the constructor only. Not
 * thread-safe.
 */
public final class RoundOnFlat {
    private final int nv;
    private final double[] slide;
    private final double[] offset = new double[3];
    private double[] flatRotation;
    private double[] roundRotation;
    private final double[] flatOmega = new double[3];
    private final double[] roundOmega = new double[3];
    private double[] relative;
    private final double[] relativeVelocity = new double[3];
    private int side;
    private boolean roundMoves;

    public RoundOnFlat(int nv) {
        this.nv = nv;
        this.slide = new double[3 * nv];
    }

    /**
     * +1 when contact k's side B is flat on a body and its point of contact follows side A (A rounded, or A's feature
     * over B's face: {@link ContactKinematics#face}), −1 for the reverse with A on a body, 0 otherwise (both rounded,
     * or two flat sides without a face: the witnesses stay material points).
     */
    public static int side(ContactKinematics contacts, int k) {
        double rb = contacts.radius(k);
        double ra = contacts.otherRadius(k);
        boolean bMoves = contacts.body(k) >= 0;
        boolean aMoves = contacts.otherBody(k) >= 0;
        if (ra > 0 && rb == 0) {
            return bMoves ? 1 : 0;
        }
        if (rb > 0 && ra == 0) {
            return aMoves ? -1 : 0;
        }
        if (ra == 0 && rb == 0) {
            int face = contacts.face(k);
            return face < 0 && bMoves ? 1 : face > 0 && aMoves ? -1 : 0;
        }
        return 0;
    }

    /**
     * Takes one contact, all world and 3 x nv row-major where a Jacobian: its {@link #side}, normal n, R's radius r,
     * its gap φ, R's centre's point Jacobian and angular Jacobian and angular velocity (all null for a fixed R), F's point
     * Jacobian at the contact and angular Jacobian and angular velocity, and J_rel and u_rel. The arrays are read
     * during the calls that follow, not copied; keep them until the next {@code set}.
     */
    public void set(int side, double nx, double ny, double nz, double radius, double gap, double[] roundPoint,
            double[] roundRotation, double[] roundOmega, double[] flatPoint, double[] flatRotation,
            double[] flatOmega, double[] relative, double[] relativeVelocity) {
        this.side = side;
        double e = side > 0 ? radius : -radius;
        offset[0] = e * nx;
        offset[1] = e * ny;
        offset[2] = e * nz;
        this.roundRotation = roundRotation;
        this.flatRotation = flatRotation;
        this.roundMoves = roundRotation != null;
        System.arraycopy(flatOmega, 0, this.flatOmega, 0, 3);
        if (roundMoves) {
            System.arraycopy(roundOmega, 0, this.roundOmega, 0, 3);
        }
        this.relative = relative;
        System.arraycopy(relativeVelocity, 0, this.relativeVelocity, 0, 3);
        double[] wf = flatRotation;
        double ef = side > 0 ? radius + gap : -(radius + gap);
        double ox = ef * nx, oy = ef * ny, oz = ef * nz;
        for (int k = 0; k < nv; k++) {
            double dx = (roundPoint == null ? 0 : roundPoint[k]) - flatPoint[k];
            double dy = (roundPoint == null ? 0 : roundPoint[nv + k]) - flatPoint[nv + k];
            double dz = (roundPoint == null ? 0 : roundPoint[2 * nv + k]) - flatPoint[2 * nv + k];
            double dn = nx * dx + ny * dy + nz * dz;
            double wx = wf[k], wy = wf[nv + k], wz = wf[2 * nv + k];
            slide[k] = dx - dn * nx + wy * oz - wz * oy;
            slide[nv + k] = dy - dn * ny + wz * ox - wx * oz;
            slide[2 * nv + k] = dz - dn * nz + wx * oy - wy * ox;
        }
    }

    /** out[o + k] += scale × the extra ∂(row · u_rel)/∂q_k of a row of the contact's frame (world). */
    public void addRowDerivative(double fx, double fy, double fz, double scale, double[] out, int o) {
        double[] w = flatOmega;
        double[] wf = flatRotation;
        double ux = relativeVelocity[0], uy = relativeVelocity[1], uz = relativeVelocity[2];
        double ex = offset[0], ey = offset[1], ez = offset[2];
        // row · (ω_F × Δ) = Δ · (row × ω_F)
        double ax = side * (fy * w[2] - fz * w[1]), ay = side * (fz * w[0] - fx * w[2]);
        double az = side * (fx * w[1] - fy * w[0]);
        // (ω_F,k × row) · u_rel = ω_F,k · (row × u_rel)
        double bx = fy * uz - fz * uy, by = fz * ux - fx * uz, bz = fx * uy - fy * ux;
        if (roundMoves) {
            // s_R row · (ω_R × (ω_F,k × e)) = s_R ω_F,k · (e × (row × ω_R)), s_R = −side
            double[] r = roundOmega;
            double cx = fy * r[2] - fz * r[1], cy = fz * r[0] - fx * r[2], cz = fx * r[1] - fy * r[0];
            bx -= side * (ey * cz - ez * cy);
            by -= side * (ez * cx - ex * cz);
            bz -= side * (ex * cy - ey * cx);
        }
        for (int k = 0; k < nv; k++) {
            out[o + k] += scale * (ax * slide[k] + ay * slide[nv + k] + az * slide[2 * nv + k]
                    + bx * wf[k] + by * wf[nv + k] + bz * wf[2 * nv + k]);
        }
    }

    /** out (nv x nv, row-major) += scale × the extra ∂(J_relᵀ f)/∂q of the force f on B (world). */
    public void addForceDerivative(double fx, double fy, double fz, double scale, double[] out) {
        double[] wj = flatRotation;
        // s_F f · (ω_F,j × Δ_k) = Δ_k · (s_F f × ω_F,j)
        double sx = side * fx, sy = side * fy, sz = side * fz;
        for (int j = 0; j < nv; j++) {
            double ox = wj[j], oy = wj[nv + j], oz = wj[2 * nv + j];
            if (ox == 0 && oy == 0 && oz == 0) {
                continue;
            }
            double ax = sy * oz - sz * oy, ay = sz * ox - sx * oz, az = sx * oy - sy * ox;
            for (int k = 0; k < nv; k++) {
                out[j * nv + k] += scale * (ax * slide[k] + ay * slide[nv + k] + az * slide[2 * nv + k]);
            }
        }
        double[] wf = flatRotation;
        if (roundMoves) {
            // s_R ω_R,j · ((ω_F,k × e) × f) = (ω_R,j · e)(ω_F,k · f_R) − (e · f_R)(ω_R,j · ω_F,k), f_R = s_R f
            double[] wr = roundRotation;
            double rx = -side * fx, ry = -side * fy, rz = -side * fz;
            double ef = offset[0] * rx + offset[1] * ry + offset[2] * rz;
            for (int j = 0; j < nv; j++) {
                double ox = wr[j], oy = wr[nv + j], oz = wr[2 * nv + j];
                if (ox == 0 && oy == 0 && oz == 0) {
                    continue;
                }
                double we = ox * offset[0] + oy * offset[1] + oz * offset[2];
                for (int k = 0; k < nv; k++) {
                    double wfx = wf[k], wfy = wf[nv + k], wfz = wf[2 * nv + k];
                    out[j * nv + k] += scale * (we * (wfx * rx + wfy * ry + wfz * rz)
                            - ef * (ox * wfx + oy * wfy + oz * wfz));
                }
            }
        }
        // f turns with F's face: J_rel,j · (ω_F,k × f) = ω_F,k · (f × J_rel,j)
        for (int j = 0; j < nv; j++) {
            double jx = relative[j], jy = relative[nv + j], jz = relative[2 * nv + j];
            if (jx == 0 && jy == 0 && jz == 0) {
                continue;
            }
            double ax = fy * jz - fz * jy, ay = fz * jx - fx * jz, az = fx * jy - fy * jx;
            for (int k = 0; k < nv; k++) {
                out[j * nv + k] += scale * (ax * wf[k] + ay * wf[nv + k] + az * wf[2 * nv + k]);
            }
        }
    }
}
