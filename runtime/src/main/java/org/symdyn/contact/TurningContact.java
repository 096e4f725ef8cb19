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
 * <li><b>Two centred sides</b> (spheres, capsules, a ball on a box's corner or edge whose point is a centre of radius
 *     0): n = (c_B − c_A)/L turns with the centres, W_k = n × (∂c_B,k − ∂c_A,k)/L, L = r_A + r_B + φ. A capsule's
 *     centre inside its segment, a point inside a box's edge ({@link ContactKinematics#slides}), is not a material
 *     point: it slides along the segment's or edge's axis a_X by σ_X,k so that c_B − c_A stays normal to it,
 *     (∂c_B,k − ∂c_A,k) · a_X + L n · (Ω_X,k × a_X) = 0 for each sliding side (one equation each, two for two
 *     capsules: σ from a 2 x 2 system, refused when the axes are parallel); ∂c_X,k = the material point's + σ_X,k a_X,
 *     and its point of contact slides by Δ_X,k = σ_X,k a_X.</li>
 * </ul>
 * With the rows turning, ∂row/∂q_k = W_k × row, the offsets turning, ∂e_X/∂q_k = W_k × e_X, u_rel = J_rel v the
 * relative velocity of B's point over A's (J_rel = J_B − J_A at the points), f the force on B and Ω_X the sides'
 * angular Jacobians:
 * <pre>
 *   ∂(row · u_rel)/∂q_k += Σ_X s_X Δ_X,k · (row × ω_X) + W_k · (row × u_rel + Σ_X s_X e_X × (row × ω_X))
 *   ∂(J_relᵀ f)_j/∂q_k  += Σ_X s_X Δ_X,k · (f × Ω_X,j) + W_k · (f × J_rel,j + Σ_X s_X ((Ω_X,j · e_X) f − (e_X · f) Ω_X,j))
 * </pre>
 * (Δ_X for a side that slides: the face on a moving face, a capsule's centre inside its segment). ∂φ/∂q gains nothing: its extra term is W_k × n · (c_B − c_A − ...) ∝
 * (W_k × n) · n = 0 (and a sliding centre moves along a_X ⊥ n). Not exact, and left as material points under a fixed
 * frame: parallel capsules, a cylinder's rim touched at a slant (its side is rounded as a capsule's), edge on edge.
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
    /** Kind: two rounded sides (spheres, capsules). */
    public static final int TWO_ROUND = 2;

    private final int nv;
    private final double[] turn;
    private final double[] slideA;
    private final double[] slideB;
    private boolean slidesA;
    private boolean slidesB;
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
        this.slideA = new double[3 * nv];
        this.slideB = new double[3 * nv];
    }

    /**
     * The kind of contact k: {@link #ON_FACE_OF_B} when B moves and its face, recorded by the detection
     * ({@link ContactKinematics#face}), carries A's sphere or capsule or a vertex of A's box, hull or mesh;
     * {@link #ON_FACE_OF_A} the reverse with A moving; {@link #TWO_ROUND} for two centred sides of a shape contact
     * (spheres, capsules, or a ball on a box's corner or edge: {@link ContactKinematics#centred}), their centres apart
     * and two sliding centres' axes not parallel, a cylinder's side among them; else {@link #NONE} (a cylinder's rim
     * touched at a slant, edge on edge: material points under a fixed frame).
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
        if (!contacts.centred(k, true) || !contacts.centred(k, false) || !(ra + rb + contacts.gap(k) > 1e-9 * (ra + rb))
                || ra + rb == 0 || !contacts.singlePoint(k)) {
            // coincident centres leave the normal to the detection's choice; two features are not known; the points
            // of a manifold of several (a capsule's ends) share a normal a little off their own line of centres
            return NONE;
        }
        if (contacts.slides(k, true) && contacts.slides(k, false)) {
            double c = 0;
            for (int i = 0; i < 3; i++) {
                c += contacts.coreAxis(k, true, i) * contacts.coreAxis(k, false, i);
            }
            if (Math.abs(c) > 1 - 1e-6) {
                return NONE; // (nearly) parallel segments: the closest points are not unique, σ would be ill-posed
            }
        }
        return TWO_ROUND;
    }

    /**
     * J_rel = Σ_d row_d J_d and u_rel = J_rel v of contact k from its three rows J_d = row_d · (J_B − J_A) (row-major,
     * nv columns, from {@code o}): the frame's rows are orthonormal, so they give back the relative point Jacobian
     * and velocity that {@link #set} takes.
     */
    public static void relative(ContactKinematics contacts, int k, double[] rows, int o, double[] v, int nv,
            double[] relative, double[] relativeVelocity) {
        double u0 = 0, u1 = 0, u2 = 0;
        for (int c = 0; c < nv; c++) {
            u0 += rows[o + c] * v[c];
            u1 += rows[o + nv + c] * v[c];
            u2 += rows[o + 2 * nv + c] * v[c];
        }
        for (int i = 0; i < 3; i++) {
            double f0 = contacts.frame(k, 0, i), f1 = contacts.frame(k, 1, i), f2 = contacts.frame(k, 2, i);
            for (int c = 0; c < nv; c++) {
                relative[i * nv + c] = f0 * rows[o + c] + f1 * rows[o + nv + c] + f2 * rows[o + 2 * nv + c];
            }
            relativeVelocity[i] = f0 * u0 + f1 * u1 + f2 * u2;
        }
    }

    /**
     * Contact k's side A (or B) sliding axis ({@link ContactKinematics#coreAxis}) into {@code out}, which it returns;
     * null when that side's centre does not slide: what {@link #set} takes.
     */
    public static double[] axis(ContactKinematics contacts, int k, boolean sideA, double[] out) {
        if (!contacts.slides(k, sideA)) {
            return null;
        }
        for (int i = 0; i < 3; i++) {
            out[i] = contacts.coreAxis(k, sideA, i);
        }
        return out;
    }

    /**
     * Takes one contact of a {@link #kind} other than NONE, all world and 3 x nv row-major where a Jacobian: the
     * normal n, both radii and the gap φ; per side its centre's point Jacobian (of the material point at the centre),
     * its angular Jacobian and angular velocity (all null for a side fixed in the world) and the world axis its centre
     * slides along (null when it does not: {@link ContactKinematics#slides}); and J_rel and u_rel. The Jacobian arrays are read during the
     * calls that follow, not copied: keep them until the next {@code set}.
     */
    public void set(int kind, double nx, double ny, double nz, double radiusA, double radiusB, double gap,
            double[] pointA, double[] angularA, double[] omegaA, double[] axisA, double[] pointB, double[] angularB,
            double[] omegaB, double[] axisB, double[] relative, double[] relativeVelocity) {
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
        slidesA = false;
        slidesB = false;
        if (kind == TWO_ROUND) {
            twoRound(nx, ny, nz, radiusA + radiusB + gap, pointA, angularA, axisA, pointB, angularB, axisB);
            return;
        }
        boolean faceB = kind == ON_FACE_OF_B;
        double[] flatPoint = faceB ? pointB : pointA;
        double[] roundPoint = faceB ? pointA : pointB;
        double[] wf = faceB ? angularB : angularA;
        double[] slide = faceB ? slideB : slideA;
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
        slidesB = faceB;
        slidesA = !faceB;
        // the flat side touches at its witness: no offset of its own
        Arrays.fill(faceB ? offsetB : offsetA, 0);
    }

    /**
     * Two rounded sides: each sliding centre's σ_X,k (the slide into {@link #slideA} / {@link #slideB}) and the
     * normal's turning W_k = n × (∂c_B,k − ∂c_A,k) / L with the centres' motion, slides included.
     */
    private void twoRound(double nx, double ny, double nz, double length, double[] pointA, double[] angularA,
            double[] axisA, double[] pointB, double[] angularB, double[] axisB) {
        slidesA = axisA != null;
        slidesB = axisB != null;
        double c = slidesA && slidesB ? axisA[0] * axisB[0] + axisA[1] * axisB[1] + axisA[2] * axisB[2] : 0;
        // L n · (Ω_X,k × a_X) = Ω_X,k · (a_X × L n)
        double pax = 0, pay = 0, paz = 0, pbx = 0, pby = 0, pbz = 0;
        if (slidesA) {
            pax = length * (axisA[1] * nz - axisA[2] * ny);
            pay = length * (axisA[2] * nx - axisA[0] * nz);
            paz = length * (axisA[0] * ny - axisA[1] * nx);
        }
        if (slidesB) {
            pbx = length * (axisB[1] * nz - axisB[2] * ny);
            pby = length * (axisB[2] * nx - axisB[0] * nz);
            pbz = length * (axisB[0] * ny - axisB[1] * nx);
        }
        for (int k = 0; k < nv; k++) {
            // g = ∂c_B − ∂c_A of the material centres
            double gx = at(pointB, k) - at(pointA, k);
            double gy = at(pointB, nv + k) - at(pointA, nv + k);
            double gz = at(pointB, 2 * nv + k) - at(pointA, 2 * nv + k);
            double sa = 0, sb = 0;
            double ra = slidesA ? gx * axisA[0] + gy * axisA[1] + gz * axisA[2]
                    + at(angularA, k) * pax + at(angularA, nv + k) * pay + at(angularA, 2 * nv + k) * paz : 0;
            double rb = slidesB ? gx * axisB[0] + gy * axisB[1] + gz * axisB[2]
                    + at(angularB, k) * pbx + at(angularB, nv + k) * pby + at(angularB, 2 * nv + k) * pbz : 0;
            if (slidesA && slidesB) {
                // −σ_A + c σ_B = −r_A, −c σ_A + σ_B = −r_B
                double det = 1 - c * c;
                sa = (ra - c * rb) / det;
                sb = (c * ra - rb) / det;
            } else if (slidesA) {
                sa = ra;
            } else if (slidesB) {
                sb = -rb;
            }
            if (slidesA) {
                slideA[k] = sa * axisA[0];
                slideA[nv + k] = sa * axisA[1];
                slideA[2 * nv + k] = sa * axisA[2];
                gx -= slideA[k];
                gy -= slideA[nv + k];
                gz -= slideA[2 * nv + k];
            }
            if (slidesB) {
                slideB[k] = sb * axisB[0];
                slideB[nv + k] = sb * axisB[1];
                slideB[2 * nv + k] = sb * axisB[2];
                gx += slideB[k];
                gy += slideB[nv + k];
                gz += slideB[2 * nv + k];
            }
            turn[k] = (ny * gz - nz * gy) / length;
            turn[nv + k] = (nz * gx - nx * gz) / length;
            turn[2 * nv + k] = (nx * gy - ny * gx) / length;
        }
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
        // s_X (row × ω_X) for a sliding side
        double ax = 0, ay = 0, az = 0, cx = 0, cy = 0, cz = 0;
        if (slidesA) {
            ax = -(fy * omegaA[2] - fz * omegaA[1]);
            ay = -(fz * omegaA[0] - fx * omegaA[2]);
            az = -(fx * omegaA[1] - fy * omegaA[0]);
        }
        if (slidesB) {
            cx = fy * omegaB[2] - fz * omegaB[1];
            cy = fz * omegaB[0] - fx * omegaB[2];
            cz = fx * omegaB[1] - fy * omegaB[0];
        }
        accumulate(bx, by, bz, ax, ay, az, cx, cy, cz, scale, out, o);
    }

    /** out[o + k] += scale (g · W_k + a · Δ_A,k + c · Δ_B,k) for every k, a slide's term where that side slides. */
    private void accumulate(double gx, double gy, double gz, double ax, double ay, double az, double cx, double cy,
            double cz, double scale, double[] out, int o) {
        for (int k = 0; k < nv; k++) {
            double v = gx * turn[k] + gy * turn[nv + k] + gz * turn[2 * nv + k];
            if (slidesA) {
                v += ax * slideA[k] + ay * slideA[nv + k] + az * slideA[2 * nv + k];
            }
            if (slidesB) {
                v += cx * slideB[k] + cy * slideB[nv + k] + cz * slideB[2 * nv + k];
            }
            out[o + k] += scale * v;
        }
    }

    /** out (nv x nv, row-major) += scale × the extra ∂(J_relᵀ f)/∂q of the force f on B (world). */
    public void addForceDerivative(double fx, double fy, double fz, double scale, double[] out) {
        double efA = offsetA[0] * fx + offsetA[1] * fy + offsetA[2] * fz;
        double efB = offsetB[0] * fx + offsetB[1] * fy + offsetB[2] * fz;
        for (int j = 0; j < nv; j++) {
            // g_j = f × J_rel,j + Σ_X s_X ((Ω_X,j · e_X) f − (e_X · f) Ω_X,j)
            double jx = relative[j], jy = relative[nv + j], jz = relative[2 * nv + j];
            double gx = fy * jz - fz * jy, gy = fz * jx - fx * jz, gz = fx * jy - fy * jx;
            // s_X (f × Ω_X,j) for a sliding side
            double ax = 0, ay = 0, az = 0, cx = 0, cy = 0, cz = 0;
            if (angularA != null) {
                double ox = angularA[j], oy = angularA[nv + j], oz = angularA[2 * nv + j];
                double oe = ox * offsetA[0] + oy * offsetA[1] + oz * offsetA[2];
                gx -= oe * fx - efA * ox;
                gy -= oe * fy - efA * oy;
                gz -= oe * fz - efA * oz;
                if (slidesA) {
                    ax = -(fy * oz - fz * oy);
                    ay = -(fz * ox - fx * oz);
                    az = -(fx * oy - fy * ox);
                }
            }
            if (angularB != null) {
                double ox = angularB[j], oy = angularB[nv + j], oz = angularB[2 * nv + j];
                double oe = ox * offsetB[0] + oy * offsetB[1] + oz * offsetB[2];
                gx += oe * fx - efB * ox;
                gy += oe * fy - efB * oy;
                gz += oe * fz - efB * oz;
                if (slidesB) {
                    cx = fy * oz - fz * oy;
                    cy = fz * ox - fx * oz;
                    cz = fx * oy - fy * ox;
                }
            }
            if (gx == 0 && gy == 0 && gz == 0 && ax == 0 && ay == 0 && az == 0 && cx == 0 && cy == 0 && cz == 0) {
                continue;
            }
            accumulate(gx, gy, gz, ax, ay, az, cx, cy, cz, scale, out, j * nv);
        }
    }
}
