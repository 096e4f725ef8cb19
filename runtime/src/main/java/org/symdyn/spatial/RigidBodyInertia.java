package org.symdyn.spatial;

import org.ejml.data.DMatrixRMaj;

/**
 * The immutable spatial inertia of a rigid body in some body-fixed frame: mass m (kg), centre of mass c (m) and
 * rotational inertia I_c about the centre of mass (kg m²), all in that frame's coordinates.
 *
 * <p>As a 6x6 matrix acting on motion vectors [ω; v] at the frame origin:
 * {@code I = [Ī  [h]×; [h]×ᵀ  m 1]} with h = m c and Ī = I_c + m ([c]×)ᵀ[c]× the rotational inertia about the
 * frame origin.
 */
public final class RigidBodyInertia {
    /** A body of no mass. */
    public static final RigidBodyInertia ZERO = new RigidBodyInertia(0, new double[3], new double[9]);

    private final double mass;
    private final double[] com;
    private final double[] inertiaAboutCom; // row-major, symmetric

    private RigidBodyInertia(double mass, double[] com, double[] inertiaAboutCom) {
        this.mass = mass;
        this.com = com;
        this.inertiaAboutCom = inertiaAboutCom;
    }

    /**
     * @param mass            kg
     * @param com             centre of mass, 3 entries (copied)
     * @param inertiaAboutCom row-major 3x3 inertia about the centre of mass (copied; symmetrised)
     */
    public static RigidBodyInertia of(double mass, double[] com, double[] inertiaAboutCom) {
        if (com.length != 3 || inertiaAboutCom.length != 9) {
            throw new IllegalArgumentException("com needs 3 entries and the inertia 9");
        }
        double[] i = inertiaAboutCom.clone();
        for (int r = 0; r < 3; r++) {
            for (int c = r + 1; c < 3; c++) {
                double s = 0.5 * (i[3 * r + c] + i[3 * c + r]);
                i[3 * r + c] = s;
                i[3 * c + r] = s;
            }
        }
        return new RigidBodyInertia(mass, com.clone(), i);
    }

    /** From the six URDF numbers ixx, ixy, ixz, iyy, iyz, izz about the centre of mass. */
    public static RigidBodyInertia of(double mass, double[] com, double ixx, double ixy, double ixz, double iyy,
            double iyz, double izz) {
        return of(mass, com, new double[] {ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz});
    }

    public double mass() {
        return mass;
    }

    /** The 13 numbers m, c_x, c_y, c_z, then I_c row-major (a new array): what a model file declares. */
    public double[] numbers() {
        double[] out = new double[13];
        out[0] = mass;
        System.arraycopy(com, 0, out, 1, 3);
        System.arraycopy(inertiaAboutCom, 0, out, 4, 9);
        return out;
    }

    /** Component i of the centre of mass. */
    public double com(int i) {
        return com[i];
    }

    /** A copy of the centre of mass. */
    public double[] comArray() {
        return com.clone();
    }

    /** Entry (i, j) of the inertia about the centre of mass. */
    public double inertiaAboutCom(int i, int j) {
        return inertiaAboutCom[3 * i + j];
    }

    /** A copy of the row-major inertia about the centre of mass. */
    public double[] inertiaAboutComArray() {
        return inertiaAboutCom.clone();
    }

    /** Entry (i, j) of Ī = I_c + m (|c|² 1 - c cᵀ), the inertia about the frame origin. */
    public double inertiaAboutOrigin(int i, int j) {
        double cc = com[0] * com[0] + com[1] * com[1] + com[2] * com[2];
        return inertiaAboutCom[3 * i + j] + mass * ((i == j ? cc : 0) - com[i] * com[j]);
    }

    /**
     * This inertia, given in frame C, expressed in frame P where {@code pose} is the placement of C in P:
     * c' = R c + p, I_c' = R I_c Rᵀ.
     */
    public RigidBodyInertia expressedIn(Pose pose) {
        double[] c = new double[3];
        pose.transformPoint(com, c);
        double[] r = pose.rotationArray();
        double[] tmp = new double[9];
        double[] rt = new double[9];
        Rotations.multiply(r, inertiaAboutCom, tmp);
        Rotations.transpose(r, rt);
        double[] out = new double[9];
        Rotations.multiply(tmp, rt, out);
        return of(mass, c, out);
    }

    /**
     * The inertia of the two bodies rigidly joined, both given in the same frame. The centre of mass is the
     * mass-weighted mean; the inertia about it follows from the parallel-axis theorem. A sum of zero mass keeps
     * the centre of mass at the origin.
     */
    public RigidBodyInertia plus(RigidBodyInertia other) {
        double m = mass + other.mass;
        double[] c = new double[3];
        if (m != 0) {
            for (int i = 0; i < 3; i++) {
                c[i] = (mass * com[i] + other.mass * other.com[i]) / m;
            }
        }
        double[] inertia = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                inertia[3 * i + j] = inertiaAboutCom[3 * i + j] + other.inertiaAboutCom[3 * i + j]
                        + parallelAxis(mass, com, c, i, j) + parallelAxis(other.mass, other.com, c, i, j);
            }
        }
        return of(m, c, inertia);
    }

    /**
     * The inertia {@code all} with its part {@code part} replaced by {@code replacement}, all three in one frame:
     * m, h = m c and the rotational inertia about the frame origin are additive there, so each is
     * all − part + replacement, and the result is taken back to (m, c, I_c). A mass of zero keeps the centre of mass
     * at the origin (and the rotational inertia about it).
     */
    public static RigidBodyInertia replacing(RigidBodyInertia all, RigidBodyInertia part,
            RigidBodyInertia replacement) {
        double m = all.mass - part.mass + replacement.mass;
        double[] h = new double[3];
        for (int r = 0; r < 3; r++) {
            h[r] = all.mass * all.com[r] - part.mass * part.com[r] + replacement.mass * replacement.com[r];
        }
        double[] c = new double[3];
        if (m != 0) {
            for (int r = 0; r < 3; r++) {
                c[r] = h[r] / m;
            }
        }
        double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        double[] ic = new double[9];
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 3; k++) {
                double about = all.inertiaAboutOrigin(r, k) - part.inertiaAboutOrigin(r, k)
                        + replacement.inertiaAboutOrigin(r, k);
                ic[3 * r + k] = about - m * ((r == k ? cc : 0) - c[r] * c[k]);
            }
        }
        return of(m, c, ic);
    }

    private static double parallelAxis(double m, double[] from, double[] to, int i, int j) {
        double d0 = from[0] - to[0], d1 = from[1] - to[1], d2 = from[2] - to[2];
        double[] d = {d0, d1, d2};
        double dd = d0 * d0 + d1 * d1 + d2 * d2;
        return m * ((i == j ? dd : 0) - d[i] * d[j]);
    }

    /** f = I m: the momentum [Ī ω + h × v; m v - h × ω] of the motion m = [ω; v]. */
    public void multiply(double[] motion, int mo, double[] force, int fo) {
        double w0 = motion[mo], w1 = motion[mo + 1], w2 = motion[mo + 2];
        double v0 = motion[mo + 3], v1 = motion[mo + 4], v2 = motion[mo + 5];
        double h0 = mass * com[0], h1 = mass * com[1], h2 = mass * com[2];
        for (int i = 0; i < 3; i++) {
            force[fo + i] = inertiaAboutOrigin(i, 0) * w0 + inertiaAboutOrigin(i, 1) * w1
                    + inertiaAboutOrigin(i, 2) * w2;
        }
        force[fo] += h1 * v2 - h2 * v1;
        force[fo + 1] += h2 * v0 - h0 * v2;
        force[fo + 2] += h0 * v1 - h1 * v0;
        force[fo + 3] = mass * v0 - (h1 * w2 - h2 * w1);
        force[fo + 4] = mass * v1 - (h2 * w0 - h0 * w2);
        force[fo + 5] = mass * v2 - (h0 * w1 - h1 * w0);
    }

    /** The 6x6 matrix [Ī [h]×; [h]×ᵀ m 1] into {@code out} (resized). */
    public void toMatrix(DMatrixRMaj out) {
        out.reshape(6, 6);
        out.zero();
        double h0 = mass * com[0], h1 = mass * com[1], h2 = mass * com[2];
        double[] hx = {0, -h2, h1, h2, 0, -h0, -h1, h0, 0};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out.set(i, j, inertiaAboutOrigin(i, j));
                out.set(i, j + 3, hx[3 * i + j]);
                out.set(i + 3, j, hx[3 * j + i]);
            }
            out.set(i + 3, i + 3, mass);
        }
    }

    @Override
    public String toString() {
        return "RigidBodyInertia{m=" + mass + ", c=" + java.util.Arrays.toString(com) + ", Ic="
                + java.util.Arrays.toString(inertiaAboutCom) + "}";
    }
}
