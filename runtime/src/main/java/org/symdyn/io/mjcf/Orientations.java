package org.symdyn.io.mjcf;

import org.symdyn.spatial.Pose;
import org.symdyn.spatial.Rotations;

/**
 * MJCF's ways of writing a frame ({@code pos} and one of {@code quat}, {@code axisangle}, {@code euler},
 * {@code xyaxes}, {@code zaxis}), turned into a {@link Pose} (the element's frame in its parent's frame) by MuJoCo's
 * compile rules:
 * <ul>
 * <li>{@code quat="w x y z"}: scalar first, normalised (a zero quaternion is an error).</li>
 * <li>{@code axisangle="x y z a"}: the axis is normalised; the angle a in the compiler's unit.</li>
 * <li>{@code euler="a b c"}: rotations in the order of {@link CompilerSettings#eulerseq()}, in the compiler's unit;
 * starting from the identity q, each rotation r about its axis makes q ⊗ r for a lower-case (intrinsic, rotating)
 * axis and r ⊗ q for an upper-case (extrinsic, fixed) axis.</li>
 * <li>{@code xyaxes="x1 x2 x3 y1 y2 y3"}: x normalised; y minus its component along x, normalised (Gram–Schmidt);
 * z = x × y; the columns of R are x, y, z.</li>
 * <li>{@code zaxis="z1 z2 z3"}: the shortest rotation taking (0, 0, 1) to the normalised z (about x by π when z
 * points down exactly).</li>
 * </ul>
 * Quaternions here are arrays {w, x, y, z}.
 */
final class Orientations {
    /** The attributes that give an orientation; at most one may be used per element. */
    static final String[] ATTRIBUTES = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};

    private Orientations() {
    }

    /** The element's frame: {@code pos} (default 0) and its orientation (default identity). */
    static Pose pose(ResolvedElement e, CompilerSettings compiler, String label) {
        double[] pos = e.vector("pos", 3, new double[3], label + ": pos");
        double[] rotation = rotation(e, compiler, label);
        return Pose.of(rotation, pos);
    }

    /** The orientation alone, as a row-major rotation matrix (identity when none is written). */
    static double[] rotation(ResolvedElement e, CompilerSettings compiler, String label) {
        String used = null;
        for (String a : ATTRIBUTES) {
            if (e.has(a)) {
                if (used != null) {
                    e.error(label + ": both " + used + " and " + a + " give the orientation; use one");
                    return identity();
                }
                used = a;
            }
        }
        if (used == null) {
            return identity();
        }
        int before = e.values().errorCount();
        double[] q;
        switch (used) {
            case "quat" -> q = e.vector("quat", 4, null, label + ": quat");
            case "axisangle" -> {
                double[] aa = e.vector("axisangle", 4, null, label + ": axisangle");
                double[] axis = unit(new double[] {aa[0], aa[1], aa[2]});
                if (axis == null) {
                    return refuse(e, before, label + ": axisangle has a zero axis");
                }
                q = axisAngle(axis, compiler.radians(aa[3]));
            }
            case "euler" -> q = euler(e.vector("euler", 3, null, label + ": euler"), compiler);
            case "xyaxes" -> {
                double[] m = xyAxes(e.vector("xyaxes", 6, null, label + ": xyaxes"));
                if (m == null) {
                    return refuse(e, before, label + ": xyaxes are zero or parallel");
                }
                return m;
            }
            default -> {
                double[] z = unit(e.vector("zaxis", 3, null, label + ": zaxis"));
                if (z == null) {
                    return refuse(e, before, label + ": zaxis is zero");
                }
                q = zAxis(z);
            }
        }
        if (e.values().errorCount() > before) {
            return identity();
        }
        double n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(n > 0) || !Double.isFinite(n)) {
            e.error(label + ": the quaternion is zero");
            return identity();
        }
        return matrix(q);
    }

    private static double[] refuse(ResolvedElement e, int before, String message) {
        if (e.values().errorCount() == before) {
            e.error(message);
        }
        return identity();
    }

    static double[] identity() {
        return new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1};
    }

    /** The rotation matrix of {w, x, y, z}, normalised. */
    static double[] matrix(double[] q) {
        double n = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        double[] out = new double[9];
        Rotations.fromQuaternion(q[1] / n, q[2] / n, q[3] / n, q[0] / n, out);
        return out;
    }

    /** The quaternion {w, x, y, z} of a rotation by {@code angle} about the unit axis. */
    static double[] axisAngle(double[] axis, double angle) {
        double s = StrictMath.sin(angle / 2);
        return new double[] {StrictMath.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s};
    }

    /** The Hamilton product a ⊗ b of quaternions {w, x, y, z}. */
    static double[] multiply(double[] a, double[] b) {
        return new double[] {
            a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
    }

    /** The quaternion of Euler angles by the compiler's sequence (see the class comment). */
    static double[] euler(double[] angles, CompilerSettings compiler) {
        double[] q = {1, 0, 0, 0};
        String seq = compiler.eulerseq();
        for (int i = 0; i < 3; i++) {
            char c = seq.charAt(i);
            double[] axis = new double[3];
            axis[Character.toLowerCase(c) - 'x'] = 1;
            double[] r = axisAngle(axis, compiler.radians(angles[i]));
            q = Character.isLowerCase(c) ? multiply(q, r) : multiply(r, q);
        }
        return q;
    }

    /** The rotation with columns x, y, z from {@code xyaxes} by Gram–Schmidt; null when degenerate. */
    static double[] xyAxes(double[] v) {
        double[] x = unit(new double[] {v[0], v[1], v[2]});
        if (x == null) {
            return null;
        }
        double d = x[0] * v[3] + x[1] * v[4] + x[2] * v[5];
        double[] y = unit(new double[] {v[3] - d * x[0], v[4] - d * x[1], v[5] - d * x[2]});
        if (y == null) {
            return null;
        }
        double[] z = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
        return new double[] {x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]};
    }

    /** The quaternion of the shortest rotation from (0, 0, 1) to the unit vector z. */
    static double[] zAxis(double[] z) {
        double[] axis = {-z[1], z[0], 0};
        double s = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1]);
        if (s < 1e-10) {
            axis = new double[] {1, 0, 0};
        } else {
            axis[0] /= s;
            axis[1] /= s;
        }
        double angle = Math.atan2(s, z[2]);
        return axisAngle(axis, angle);
    }

    /** The vector divided by its norm; null when zero or not finite. */
    static double[] unit(double[] v) {
        double n = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!(n > 0) || !Double.isFinite(n)) {
            return null;
        }
        return new double[] {v[0] / n, v[1] / n, v[2] / n};
    }
}
