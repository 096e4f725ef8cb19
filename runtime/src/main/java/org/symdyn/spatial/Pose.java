package org.symdyn.spatial;

import java.util.Arrays;

/**
 * An immutable rigid placement of a child frame C in a parent frame P: a rotation R (P <- C, so that
 * {@code x_P = R x_C + p}) and the position p of C's origin in P coordinates, in metres.
 *
 * <p>This is the form in which model files state placements (URDF {@code origin xyz rpy}). Recursive algorithms
 * use the equivalent Plücker {@link SpatialTransform} with E = Rᵀ and r = p.
 */
public final class Pose {
    /** The identity placement. */
    public static final Pose IDENTITY = new Pose(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new double[3]);

    private final double[] rotation; // row-major 3x3, parent <- child
    private final double[] translation;

    private Pose(double[] rotation, double[] translation) {
        this.rotation = rotation;
        this.translation = translation;
    }

    /**
     * @param rotation    row-major 3x3 rotation parent <- child (copied; not checked for orthonormality)
     * @param translation position of the child origin in parent coordinates (copied)
     */
    public static Pose of(double[] rotation, double[] translation) {
        if (rotation.length != 9 || translation.length != 3) {
            throw new IllegalArgumentException("rotation needs 9 entries and translation 3");
        }
        return new Pose(rotation.clone(), translation.clone());
    }

    /** A pure translation. */
    public static Pose translation(double x, double y, double z) {
        return new Pose(IDENTITY.rotation.clone(), new double[] {x, y, z});
    }

    /**
     * The URDF placement: translation xyz and the fixed-axis roll, pitch, yaw angles (radians), so that
     * R = Rz(yaw) Ry(pitch) Rx(roll).
     */
    public static Pose fromXyzRpy(double[] xyz, double[] rpy) {
        return new Pose(Rotations.fromRpy(rpy[0], rpy[1], rpy[2]), xyz.clone());
    }

    /** R(i, j) of the rotation parent <- child. */
    public double rotation(int row, int col) {
        return rotation[3 * row + col];
    }

    /** Component i of the child origin in parent coordinates. */
    public double translation(int i) {
        return translation[i];
    }

    /** True if every entry of the rotation and the translation is finite. */
    public boolean isFinite() {
        for (double x : rotation) {
            if (!Double.isFinite(x)) {
                return false;
            }
        }
        return Double.isFinite(translation[0]) && Double.isFinite(translation[1]) && Double.isFinite(translation[2]);
    }

    /** A copy of the row-major rotation parent <- child. */
    public double[] rotationArray() {
        return rotation.clone();
    }

    /** A copy of the translation. */
    public double[] translationArray() {
        return translation.clone();
    }

    /** The placement of frame D in P, given this = P <- C and {@code child} = C <- D. */
    public Pose compose(Pose child) {
        double[] r = new double[9];
        Rotations.multiply(rotation, child.rotation, r);
        double[] p = new double[3];
        transformPoint(child.translation, p);
        return new Pose(r, p);
    }

    /** The placement of P in C. */
    public Pose inverse() {
        double[] rt = new double[9];
        Rotations.transpose(rotation, rt);
        double[] p = new double[3];
        Rotations.apply(rt, translation, p);
        p[0] = -p[0];
        p[1] = -p[1];
        p[2] = -p[2];
        return new Pose(rt, p);
    }

    /** out = R x + p: a point given in child coordinates, in parent coordinates. */
    public void transformPoint(double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        for (int i = 0; i < 3; i++) {
            out[i] = rotation[3 * i] * x0 + rotation[3 * i + 1] * x1 + rotation[3 * i + 2] * x2 + translation[i];
        }
    }

    /** out = R x: a direction given in child coordinates, in parent coordinates. */
    public void rotateVector(double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        for (int i = 0; i < 3; i++) {
            out[i] = rotation[3 * i] * x0 + rotation[3 * i + 1] * x1 + rotation[3 * i + 2] * x2;
        }
    }

    /** True if the rotation is exactly the identity and the translation exactly zero. */
    public boolean isIdentity() {
        return Arrays.equals(rotation, IDENTITY.rotation) && translation[0] == 0 && translation[1] == 0
                && translation[2] == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Pose other && Arrays.equals(rotation, other.rotation)
                && Arrays.equals(translation, other.translation);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(rotation) + Arrays.hashCode(translation);
    }

    @Override
    public String toString() {
        return "Pose{R=" + Arrays.toString(rotation) + ", p=" + Arrays.toString(translation) + "}";
    }
}
