package org.symdyn.testing;

/** Unit quaternions (x, y, z, w), the model's layout, for building test scenes. */
public final class Quaternions {
    private Quaternions() {
    }

    /** The product a b: the rotation b, then a. */
    public static double[] product(double[] a, double[] b) {
        return new double[] {
            a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    }
}
