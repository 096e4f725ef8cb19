package org.symdyn.spatial;

/**
 * 3x3 rotation helpers on row-major {@code double[9]} arrays. Callers own every array; nothing allocates, so the
 * methods may be used on hot paths. Input and output arrays must not alias unless a method says so.
 */
public final class Rotations {
    private Rotations() {
    }

    /**
     * Angles closer than this (rad) to a multiple of π/2 are taken as that multiple by {@link #fromRpy}, so that
     * the sines and cosines are exactly 0 or ±1.
     */
    public static final double QUARTER_TURN_SNAP = 1e-9;

    /**
     * Angles at least this large (rad) are never snapped: beyond it k·π/2 in double precision is no longer within
     * a small fraction of {@link #QUARTER_TURN_SNAP} of the true multiple, so the test would snap arbitrary angles
     * (1e16 rad read as a quarter turn). {@link Math#sin} and {@link Math#cos} reduce such angles exactly.
     */
    public static final double SNAP_LIMIT = 1e4;

    /** cos(k π/2) for k mod 4; sin(k π/2) = cos((k - 1) π/2). */
    private static final double[] QUARTER_COS = {1, 0, -1, 0};

    /**
     * R = Rz(yaw) Ry(pitch) Rx(roll), the URDF convention (fixed axes x, y, z in that order). Model files often
     * write π/2 rounded to 11 or 12 digits (1.57079632679); an angle within {@link #QUARTER_TURN_SNAP} of a
     * multiple of π/2 is read as that multiple, as urdfdom (and so RBDL) does for a pitch near ±π/2. The change
     * is below 1e-9 rad, and it makes those entries exact zeros and ones.
     */
    public static double[] fromRpy(double roll, double pitch, double yaw) {
        double cr = cos(roll), sr = sin(roll);
        double cp = cos(pitch), sp = sin(pitch);
        double cy = cos(yaw), sy = sin(yaw);
        return new double[] {
            cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
            sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
            -sp, cp * sr, cp * cr};
    }

    /** cos θ, exact for θ within {@link #QUARTER_TURN_SNAP} of a multiple of π/2 (|θ| below {@link #SNAP_LIMIT}). */
    public static double cos(double angle) {
        long k = Math.round(angle / (Math.PI / 2));
        if (Math.abs(angle) < SNAP_LIMIT && Math.abs(angle - k * (Math.PI / 2)) < QUARTER_TURN_SNAP) {
            return QUARTER_COS[(int) Math.floorMod(k, 4L)];
        }
        return StrictMath.cos(angle);
    }

    /** sin θ, exact for θ within {@link #QUARTER_TURN_SNAP} of a multiple of π/2 (|θ| below {@link #SNAP_LIMIT}). */
    public static double sin(double angle) {
        long k = Math.round(angle / (Math.PI / 2));
        if (Math.abs(angle) < SNAP_LIMIT && Math.abs(angle - k * (Math.PI / 2)) < QUARTER_TURN_SNAP) {
            return QUARTER_COS[(int) Math.floorMod(k + 3, 4L)];
        }
        return StrictMath.sin(angle);
    }

    /**
     * The rotation by angle {@code angle} (radians, right hand) about the unit axis (ax, ay, az), Rodrigues'
     * formula R = I + sin θ [a]× + (1 - cos θ) [a]×², written to {@code out} (row-major).
     */
    public static void axisAngle(double ax, double ay, double az, double angle, double[] out) {
        double s = StrictMath.sin(angle), c = StrictMath.cos(angle);
        axisAngle(ax, ay, az, s, c, out);
    }

    /** {@link #axisAngle(double, double, double, double, double[])} with sin θ and cos θ given. */
    public static void axisAngle(double ax, double ay, double az, double s, double c, double[] out) {
        double t = 1 - c;
        out[0] = c + t * ax * ax;
        out[1] = t * ax * ay - s * az;
        out[2] = t * ax * az + s * ay;
        out[3] = t * ax * ay + s * az;
        out[4] = c + t * ay * ay;
        out[5] = t * ay * az - s * ax;
        out[6] = t * ax * az - s * ay;
        out[7] = t * ay * az + s * ax;
        out[8] = c + t * az * az;
    }

    /**
     * The rotation of the unit quaternion (x, y, z, w) (Hamilton convention, w the scalar part). The quaternion is
     * normalised first, so a slightly off-unit integrator state still gives an orthonormal matrix; any non-zero
     * finite quaternion gives its rotation, since it is first prescaled by the power of two
     * {@link #quaternionScale} (exact: for norms where |q|² neither underflows nor overflows the result is bit for
     * bit that of the unscaled formula). Generated classes prescale the same way.
     */
    public static void fromQuaternion(double x, double y, double z, double w, double[] out) {
        double k = quaternionScale(x, y, z, w);
        x *= k;
        y *= k;
        z *= k;
        w *= k;
        double n2 = x * x + y * y + z * z + w * w;
        double s = 2 / n2;
        double xx = s * x * x, yy = s * y * y, zz = s * z * z;
        double xy = s * x * y, xz = s * x * z, yz = s * y * z;
        double wx = s * w * x, wy = s * w * y, wz = s * w * z;
        out[0] = 1 - yy - zz;
        out[1] = xy - wz;
        out[2] = xz + wy;
        out[3] = xy + wz;
        out[4] = 1 - xx - zz;
        out[5] = yz - wx;
        out[6] = xz - wy;
        out[7] = yz + wx;
        out[8] = 1 - xx - yy;
    }

    /**
     * The power of two 2^-e, e the binary exponent of |x| + |y| + |z| + |w| clamped to [-1022, 1022], that brings the
     * largest component of a non-zero finite quaternion into [1/4, 2). Branch-free (int min/max and bit operations),
     * the same statements as the generated code's quaternion prescale.
     */
    public static double quaternionScale(double x, double y, double z, double w) {
        double m = Math.abs(x) + Math.abs(y) + Math.abs(z) + Math.abs(w);
        return Double.longBitsToDouble((long) (2046 - Math.min(2045, Math.max(1,
                (int) (Double.doubleToRawLongBits(m) >>> 52)))) << 52);
    }

    /**
     * out[qo..qo+4) = normalise(q[qo..qo+4) ⊗ exp(δ/2)): the quaternion (x, y, z, w) at {@code qo} turned by the
     * rotation vector δ = (dx, dy, dz) given in its own (child) coordinates, renormalised. {@code out} may alias
     * {@code q}. Below 1e-4 rad, sin(|δ|/2)/|δ| is its series 1/2 - |δ|²/48 (error under 1e-18).
     */
    public static void rotateQuaternion(double[] q, int qo, double dx, double dy, double dz, double[] out) {
        double angle = Math.sqrt(dx * dx + dy * dy + dz * dz);
        // StrictMath (fdlibm's bits everywhere): a time step must give the same bits on x86-64 and AArch64, whose
        // Math.sin/cos intrinsics may differ in the last bit; one call per floating joint and step
        double s = angle < 1e-4 ? 0.5 - angle * angle / 48 : StrictMath.sin(angle / 2) / angle;
        double ex = dx * s, ey = dy * s, ez = dz * s, ew = StrictMath.cos(angle / 2);
        double x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
        double nx = w * ex + x * ew + y * ez - z * ey;
        double ny = w * ey - x * ez + y * ew + z * ex;
        double nz = w * ez + x * ey - y * ex + z * ew;
        double nw = w * ew - x * ex - y * ey - z * ez;
        double n = Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
        out[qo] = nx / n;
        out[qo + 1] = ny / n;
        out[qo + 2] = nz / n;
        out[qo + 3] = nw / n;
    }

    /** out = a b, the product of two row-major 3x3 matrices. {@code out} must not alias a or b. */
    public static void multiply(double[] a, double[] b, double[] out) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
            }
        }
    }

    /**
     * out = a x, a row-major 3x3 matrix applied to the 3-vector x (out[0..3) written). {@code out} must not alias a
     * or x.
     */
    public static void apply(double[] a, double[] x, double[] out) {
        for (int i = 0; i < 3; i++) {
            out[i] = a[3 * i] * x[0] + a[3 * i + 1] * x[1] + a[3 * i + 2] * x[2];
        }
    }

    /** out = aᵀ. {@code out} must not alias a. */
    public static void transpose(double[] a, double[] out) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                out[3 * i + j] = a[3 * j + i];
            }
        }
    }

    /**
     * out[0..4) = the unit quaternion (x, y, z, w), w ≥ 0, of the rotation matrix r (row-major, orthonormal), the
     * inverse of {@link #fromQuaternion}. Computed from the largest of w², x², y², z² (Shepperd's choice), so no
     * division is by a small number.
     */
    public static void toQuaternion(double[] r, double[] out) {
        double trace = r[0] + r[4] + r[8];
        double x;
        double y;
        double z;
        double w;
        if (trace >= r[0] && trace >= r[4] && trace >= r[8]) {
            double s = 2 * Math.sqrt(1 + trace); // 4 w
            w = s / 4;
            x = (r[7] - r[5]) / s;
            y = (r[2] - r[6]) / s;
            z = (r[3] - r[1]) / s;
        } else if (r[0] >= r[4] && r[0] >= r[8]) {
            double s = 2 * Math.sqrt(1 + r[0] - r[4] - r[8]); // 4 x
            x = s / 4;
            w = (r[7] - r[5]) / s;
            y = (r[1] + r[3]) / s;
            z = (r[2] + r[6]) / s;
        } else if (r[4] >= r[8]) {
            double s = 2 * Math.sqrt(1 + r[4] - r[0] - r[8]); // 4 y
            y = s / 4;
            w = (r[2] - r[6]) / s;
            x = (r[1] + r[3]) / s;
            z = (r[5] + r[7]) / s;
        } else {
            double s = 2 * Math.sqrt(1 + r[8] - r[0] - r[4]); // 4 z
            z = s / 4;
            w = (r[3] - r[1]) / s;
            x = (r[2] + r[6]) / s;
            y = (r[5] + r[7]) / s;
        }
        double sign = w < 0 ? -1 : 1;
        double n = sign / Math.sqrt(x * x + y * y + z * z + w * w);
        out[0] = x * n;
        out[1] = y * n;
        out[2] = z * n;
        out[3] = w * n;
    }
}
