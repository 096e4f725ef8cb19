package org.symdyn.geometry;

import org.symdyn.spatial.Pose;

/**
 * A mutable rigid placement of a shape's frame S in the world W: x_W = R x_S + p, R the rotation W ← S (row-major,
 * orthonormal; not checked) and p the position of S's origin in W (metres). The caller owns one per shape and
 * updates it each step from the bodies' poses, so that queries allocate nothing; {@link Pose} is the immutable form.
 */
public final class Placement {
    final double[] r = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    final double[] p = new double[3];

    /** The identity placement. */
    public Placement() {
    }

    /** A new placement equal to {@code pose}. */
    public static Placement of(Pose pose) {
        return new Placement().set(pose);
    }

    /** Sets this to {@code pose}; returns this. No allocation. */
    public Placement set(Pose pose) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                r[3 * i + j] = pose.rotation(i, j);
            }
            p[i] = pose.translation(i);
        }
        return this;
    }

    /** Sets R (row-major, 9 entries from {@code ro}) and p (3 entries from {@code po}); returns this. */
    public Placement set(double[] rotation, int ro, double[] translation, int po) {
        System.arraycopy(rotation, ro, r, 0, 9);
        System.arraycopy(translation, po, p, 0, 3);
        return this;
    }

    /** Sets R to the identity and p to (x, y, z); returns this. */
    public Placement setTranslation(double x, double y, double z) {
        r[0] = r[4] = r[8] = 1;
        r[1] = r[2] = r[3] = r[5] = r[6] = r[7] = 0;
        p[0] = x;
        p[1] = y;
        p[2] = z;
        return this;
    }

    /** R(i, j), the rotation W ← S. */
    public double rotation(int i, int j) {
        return r[3 * i + j];
    }

    /** p_i (metres). */
    public double translation(int i) {
        return p[i];
    }

    /** out = R x + p: a point of frame S in world coordinates. {@code out} may be {@code x}. */
    public void toWorld(double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        out[0] = r[0] * x0 + r[1] * x1 + r[2] * x2 + p[0];
        out[1] = r[3] * x0 + r[4] * x1 + r[5] * x2 + p[1];
        out[2] = r[6] * x0 + r[7] * x1 + r[8] * x2 + p[2];
    }

    /** out = Rᵀ (x − p): a world point in frame S. {@code out} may be {@code x}. */
    public void toLocal(double[] x, double[] out) {
        double x0 = x[0] - p[0], x1 = x[1] - p[1], x2 = x[2] - p[2];
        out[0] = r[0] * x0 + r[3] * x1 + r[6] * x2;
        out[1] = r[1] * x0 + r[4] * x1 + r[7] * x2;
        out[2] = r[2] * x0 + r[5] * x1 + r[8] * x2;
    }

    /** out = R x: a direction of frame S in world coordinates. {@code out} may be {@code x}. */
    public void rotateToWorld(double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        out[0] = r[0] * x0 + r[1] * x1 + r[2] * x2;
        out[1] = r[3] * x0 + r[4] * x1 + r[5] * x2;
        out[2] = r[6] * x0 + r[7] * x1 + r[8] * x2;
    }

    /** out = Rᵀ x: a world direction in frame S. {@code out} may be {@code x}. */
    public void rotateToLocal(double[] x, double[] out) {
        double x0 = x[0], x1 = x[1], x2 = x[2];
        out[0] = r[0] * x0 + r[3] * x1 + r[6] * x2;
        out[1] = r[1] * x0 + r[4] * x1 + r[7] * x2;
        out[2] = r[2] * x0 + r[5] * x1 + r[8] * x2;
    }

    /**
     * out ← the support point, in world coordinates, of {@code shape} placed here for the world direction
     * u = (ux, uy, uz): the shape's own support point for Rᵀ u (frame S), mapped by R x + p. No allocation.
     */
    void support(ConvexShape shape, double ux, double uy, double uz, double[] out) {
        out[0] = ux;
        out[1] = uy;
        out[2] = uz;
        rotateToLocal(out, out);
        shape.support(out[0], out[1], out[2], out);
        toWorld(out, out);
    }

    @Override
    public String toString() {
        return "Placement{R=" + java.util.Arrays.toString(r) + ", p=" + java.util.Arrays.toString(p) + "}";
    }
}
