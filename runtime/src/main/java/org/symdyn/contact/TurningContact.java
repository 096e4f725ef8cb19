package org.symdyn.contact;

import java.util.Arrays;

/**
 * What a contact whose frame turns and whose point of contact is not a material point adds to the derivatives of its
 * rows and of its force, beyond the terms of two material points under a fixed frame (which the callers compute:
 * {@link StepDerivatives}, {@code systems.CompliantContact}). Each side X (A, B; s_X = −1, +1) touches at its centre
 * c_X plus an offset e_X along the normal n (from A towards B): a sphere's or capsule's centre and e_A = r_A n,
 * e_B = −r_B n ({@link ContactKinematics#radius}, {@link ContactKinematics#otherRadius}); a flat side's witness and
 * e = 0. Two kinds are exact ({@link #kind}):
 * <ul>
 * <li><b>On a moving face</b> (a sphere, a capsule or a corner, {@link ContactKinematics#face}, side R, on a flat side
 *     F that moves): the frame turns with F, W_k = ω_F,k (F's angular Jacobian), and F's point of contact is not its
 *     material point: it slides on F with R's centre, Δ_k = P_t (c_R,k − p_F,k) + W_k × e_F, P_t = I − n nᵀ and
 *     e_F = ±(r_R + φ) n the offset from R's centre (a vertex: r_R = 0) to F's witness, + for R = A (φ the gap,
 *     negative in penetration).</li>
 * <li><b>Two rounded sides</b> (two spheres): n = (c_B − c_A)/L turns with the centres, W_k = n × (c_B,k − c_A,k)/L,
 *     L = r_A + r_B + φ; the points stay their centres plus the offsets, nothing slides.</li>
 * </ul>
 * With the rows turning, ∂row/∂q_k = W_k × row, the offsets turning, ∂e_X/∂q_k = W_k × e_X, u_rel = J_rel v the
 * relative velocity of B's point over A's (J_rel = J_B − J_A at the points), f the force on B and Ω_X the sides'
 * angular Jacobians:
 * <pre>
 *   ∂(row · u_rel)/∂q_k += s_F Δ_k · (row × ω_F) + W_k · (row × u_rel + Σ_X s_X e_X × (row × ω_X))
 *   ∂(J_relᵀ f)_j/∂q_k  += s_F Δ_k · (f × Ω_F,j) + W_k · (f × J_rel,j + Σ_X s_X ((Ω_X,j · e_X) f − (e_X · f) Ω_X,j))
 * </pre>
 * (the Δ terms only on a moving face). ∂φ/∂q gains nothing: its extra term is W_k × n · (c_B − c_A − ...) ∝
 * (W_k × n) · n = 0. Not exact, and left as material points under a fixed frame: two capsules, a capsule on a sphere
 * (the closest point slides along the segment), edge on edge.
 *
 * <p>Allocates in the constructor only. Not thread-safe.
 */
public final class TurningContact {
    /** Kind: material points under a fixed frame. */
    public static final int NONE = 0;
    /** Kind: B is a moving face, A's sphere, capsule or corner on it. */
    public static final int ON_FACE_OF_B = 1;
    /** Kind: A is a moving face, B's sphere, capsule or corner on it. */
    public static final int ON_FACE_OF_A = -1;
    /** Kind: two spheres. */
    public static final int TWO_SPHERES = 2;

    private final int nv;
    private final double[] turn;
    private final double[] slide;
    private final double[] offsetA = new double[3];
    private final double[] offsetB = new double[3];
    private double[] angularA;
    private double[] angularB;
    private final double[] omegaA = new double[3];
    private final double[] omegaB = new double[3];
    private double[] relative;
    private final double[] relativeVelocity = new double[3];
    private int kind;

    public TurningContact(int nv) {
        this.nv = nv;
        this.turn = new double[3 * nv];
        this.slide = new double[3 * nv];
    }

    /**
     * The kind of contact k: {@link #ON_FACE_OF_B} when B moves and its face, recorded by the detection
     * ({@link ContactKinematics#face}), carries A's sphere or capsule or a vertex of A's box, hull or mesh;
     * {@link #ON_FACE_OF_A} the reverse with A moving; {@link #TWO_SPHERES} for two spheres of a shape contact apart
     * from their centres; else {@link #NONE} (a ball on a box's edge or corner, a cylinder's rim, two capsules, two
     * faces' edges: material points under a fixed frame).
     */
    public static int kind(ContactKinematics contacts, int k) {
        double rb = contacts.radius(k);
        double ra = contacts.otherRadius(k);
        int face = contacts.face(k);
        boolean faceOfB = face < 0 && contacts.body(k) >= 0 && rb == 0;
        boolean faceOfA = face > 0 && contacts.otherBody(k) >= 0 && ra == 0;
        if (faceOfB && (ra > 0 || contacts.polyhedral(k, true))) {
            return ON_FACE_OF_B;
        }
        if (faceOfA && (rb > 0 || contacts.polyhedral(k, false))) {
            return ON_FACE_OF_A;
        }
        // two spheres, their centres apart (coincident centres leave the normal to the detection's choice)
        return contacts.spheres(k) && ra + rb + contacts.gap(k) > 1e-9 * (ra + rb) ? TWO_SPHERES : NONE;
    }

    /**
     * Takes one contact of a {@link #kind} other than NONE, all world and 3 x nv row-major where a Jacobian: the
     * normal n, both radii and the gap φ; per side its centre's point Jacobian, its angular Jacobian and angular
     * velocity (all null for a side fixed in the world); and J_rel and u_rel. The Jacobian arrays are read during the
     * calls that follow, not copied: keep them until the next {@code set}.
     */
    public void set(int kind, double nx, double ny, double nz, double radiusA, double radiusB, double gap,
            double[] pointA, double[] angularA, double[] omegaA, double[] pointB, double[] angularB, double[] omegaB,
            double[] relative, double[] relativeVelocity) {
        this.kind = kind;
        this.angularA = angularA;
        this.angularB = angularB;
        copy(omegaA, this.omegaA);
        copy(omegaB, this.omegaB);
        this.relative = relative;
        System.arraycopy(relativeVelocity, 0, this.relativeVelocity, 0, 3);
        for (int i = 0; i < 3; i++) {
            double n = i == 0 ? nx : i == 1 ? ny : nz;
            offsetA[i] = radiusA * n;
            offsetB[i] = -radiusB * n;
        }
        if (kind == TWO_SPHERES) {
            double length = radiusA + radiusB + gap;
            for (int k = 0; k < nv; k++) {
                // W_k = n × (c_B,k − c_A,k) / L
                double dx = at(pointB, k) - at(pointA, k);
                double dy = at(pointB, nv + k) - at(pointA, nv + k);
                double dz = at(pointB, 2 * nv + k) - at(pointA, 2 * nv + k);
                turn[k] = (ny * dz - nz * dy) / length;
                turn[nv + k] = (nz * dx - nx * dz) / length;
                turn[2 * nv + k] = (nx * dy - ny * dx) / length;
            }
            return;
        }
        boolean faceB = kind == ON_FACE_OF_B;
        double[] flatPoint = faceB ? pointB : pointA;
        double[] roundPoint = faceB ? pointA : pointB;
        double[] wf = faceB ? angularB : angularA;
        System.arraycopy(wf, 0, turn, 0, 3 * nv);
        // e_F: from R's centre to F's witness, (r_R + φ) along ±n
        double ef = faceB ? radiusA + gap : -(radiusB + gap);
        double ox = ef * nx, oy = ef * ny, oz = ef * nz;
        for (int k = 0; k < nv; k++) {
            double dx = at(roundPoint, k) - flatPoint[k];
            double dy = at(roundPoint, nv + k) - flatPoint[nv + k];
            double dz = at(roundPoint, 2 * nv + k) - flatPoint[2 * nv + k];
            double dn = nx * dx + ny * dy + nz * dz;
            double wx = wf[k], wy = wf[nv + k], wz = wf[2 * nv + k];
            slide[k] = dx - dn * nx + wy * oz - wz * oy;
            slide[nv + k] = dy - dn * ny + wz * ox - wx * oz;
            slide[2 * nv + k] = dz - dn * nz + wx * oy - wy * ox;
        }
        // the flat side touches at its witness: no offset of its own
        Arrays.fill(faceB ? offsetB : offsetA, 0);
    }

    private static double at(double[] a, int i) {
        return a == null ? 0 : a[i];
    }

    private static void copy(double[] from, double[] to) {
        if (from == null) {
            Arrays.fill(to, 0);
        } else {
            System.arraycopy(from, 0, to, 0, 3);
        }
    }

    /** out[o + k] += scale × the extra ∂(row · u_rel)/∂q_k of a row of the contact's frame (world). */
    public void addRowDerivative(double fx, double fy, double fz, double scale, double[] out, int o) {
        double ux = relativeVelocity[0], uy = relativeVelocity[1], uz = relativeVelocity[2];
        // row × u_rel + Σ_X s_X e_X × (row × ω_X)
        double bx = fy * uz - fz * uy, by = fz * ux - fx * uz, bz = fx * uy - fy * ux;
        for (int side = -1; side <= 1; side += 2) {
            double[] w = side > 0 ? omegaB : omegaA;
            double[] e = side > 0 ? offsetB : offsetA;
            double cx = fy * w[2] - fz * w[1], cy = fz * w[0] - fx * w[2], cz = fx * w[1] - fy * w[0];
            bx += side * (e[1] * cz - e[2] * cy);
            by += side * (e[2] * cx - e[0] * cz);
            bz += side * (e[0] * cy - e[1] * cx);
        }
        double ax = 0, ay = 0, az = 0;
        boolean slides = kind == ON_FACE_OF_B || kind == ON_FACE_OF_A;
        if (slides) {
            // s_F (row × ω_F)
            double[] w = kind == ON_FACE_OF_B ? omegaB : omegaA;
            ax = kind * (fy * w[2] - fz * w[1]);
            ay = kind * (fz * w[0] - fx * w[2]);
            az = kind * (fx * w[1] - fy * w[0]);
        }
        for (int k = 0; k < nv; k++) {
            double v = bx * turn[k] + by * turn[nv + k] + bz * turn[2 * nv + k];
            if (slides) {
                v += ax * slide[k] + ay * slide[nv + k] + az * slide[2 * nv + k];
            }
            out[o + k] += scale * v;
        }
    }

    /** out (nv x nv, row-major) += scale × the extra ∂(J_relᵀ f)/∂q of the force f on B (world). */
    public void addForceDerivative(double fx, double fy, double fz, double scale, double[] out) {
        double efA = offsetA[0] * fx + offsetA[1] * fy + offsetA[2] * fz;
        double efB = offsetB[0] * fx + offsetB[1] * fy + offsetB[2] * fz;
        boolean slides = kind == ON_FACE_OF_B || kind == ON_FACE_OF_A;
        double[] wf = kind == ON_FACE_OF_B ? angularB : angularA;
        for (int j = 0; j < nv; j++) {
            // g_j = f × J_rel,j + Σ_X s_X ((Ω_X,j · e_X) f − (e_X · f) Ω_X,j)
            double jx = relative[j], jy = relative[nv + j], jz = relative[2 * nv + j];
            double gx = fy * jz - fz * jy, gy = fz * jx - fx * jz, gz = fx * jy - fy * jx;
            if (angularA != null) {
                double ox = angularA[j], oy = angularA[nv + j], oz = angularA[2 * nv + j];
                double oe = ox * offsetA[0] + oy * offsetA[1] + oz * offsetA[2];
                gx -= oe * fx - efA * ox;
                gy -= oe * fy - efA * oy;
                gz -= oe * fz - efA * oz;
            }
            if (angularB != null) {
                double ox = angularB[j], oy = angularB[nv + j], oz = angularB[2 * nv + j];
                double oe = ox * offsetB[0] + oy * offsetB[1] + oz * offsetB[2];
                gx += oe * fx - efB * ox;
                gy += oe * fy - efB * oy;
                gz += oe * fz - efB * oz;
            }
            // s_F (f × Ω_F,j)
            double ax = 0, ay = 0, az = 0;
            if (slides) {
                double ox = wf[j], oy = wf[nv + j], oz = wf[2 * nv + j];
                ax = kind * (fy * oz - fz * oy);
                ay = kind * (fz * ox - fx * oz);
                az = kind * (fx * oy - fy * ox);
            }
            if (gx == 0 && gy == 0 && gz == 0 && ax == 0 && ay == 0 && az == 0) {
                continue;
            }
            for (int k = 0; k < nv; k++) {
                double v = gx * turn[k] + gy * turn[nv + k] + gz * turn[2 * nv + k];
                if (slides) {
                    v += ax * slide[k] + ay * slide[nv + k] + az * slide[2 * nv + k];
                }
                out[j * nv + k] += scale * v;
            }
        }
    }
}
