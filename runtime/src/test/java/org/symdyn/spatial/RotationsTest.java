package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Rotations} against rotations written down by hand. Entries are at most 1 in magnitude and each is a short
 * sum of products, so 1e-14 absolute leaves a wide margin over rounding.
 */
class RotationsTest {
    private static final double TOL = 1e-14;

    private final Random random = new Random(11L);

    private static double[] rx(double a) {
        double c = Math.cos(a), s = Math.sin(a);
        return new double[] {1, 0, 0, 0, c, -s, 0, s, c};
    }

    private static double[] ry(double a) {
        double c = Math.cos(a), s = Math.sin(a);
        return new double[] {c, 0, s, 0, 1, 0, -s, 0, c};
    }

    private static double[] rz(double a) {
        double c = Math.cos(a), s = Math.sin(a);
        return new double[] {c, -s, 0, s, c, 0, 0, 0, 1};
    }

    /** Plain triple loop, independent of Rotations.multiply. */
    private static double[] mul(double[] a, double[] b) {
        double[] c = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
                }
            }
        }
        return c;
    }

    private static void assertOrthonormal(double[] r, double tol) {
        double[] rrt = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    rrt[3 * i + j] += r[3 * i + k] * r[3 * j + k];
                }
            }
        }
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, rrt, tol, "R Rᵀ = 1");
        double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6])
                + r[2] * (r[3] * r[7] - r[4] * r[6]);
        assertEquals(1, det, tol, "det R = 1");
    }

    private double angle() {
        return (2 * random.nextDouble() - 1) * Math.PI;
    }

    @Test
    void fromRpyIsRzRyRx() {
        for (int n = 0; n < 200; n++) {
            double roll = angle(), pitch = angle(), yaw = angle();
            double[] expected = mul(rz(yaw), mul(ry(pitch), rx(roll)));
            assertArrayEquals(expected, Rotations.fromRpy(roll, pitch, yaw), TOL, "case " + n);
        }
        // single angles
        assertArrayEquals(rx(0.3), Rotations.fromRpy(0.3, 0, 0), TOL);
        assertArrayEquals(ry(0.3), Rotations.fromRpy(0, 0.3, 0), TOL);
        assertArrayEquals(rz(0.3), Rotations.fromRpy(0, 0, 0.3), TOL);
        // yaw of 90°: x goes to y
        double[] r = Rotations.fromRpy(0, 0, Math.PI / 2);
        double[] out = new double[3];
        Rotations.apply(r, new double[] {1, 0, 0}, out);
        assertArrayEquals(new double[] {0, 1, 0}, out, TOL);
    }

    @Test
    void axisAngleAboutCoordinateAxes() {
        double[] out = new double[9];
        for (int n = 0; n < 50; n++) {
            double a = angle();
            Rotations.axisAngle(1, 0, 0, a, out);
            assertArrayEquals(rx(a), out, TOL, "x");
            Rotations.axisAngle(0, 1, 0, a, out);
            assertArrayEquals(ry(a), out, TOL, "y");
            Rotations.axisAngle(0, 0, 1, a, out);
            assertArrayEquals(rz(a), out, TOL, "z");
        }
        // known values: a quarter turn about z maps x to y, y to -x
        Rotations.axisAngle(0, 0, 1, Math.PI / 2, out);
        assertArrayEquals(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1}, out, TOL);
        // half a turn about x
        Rotations.axisAngle(1, 0, 0, Math.PI, out);
        assertArrayEquals(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, out, TOL);
        // sin/cos variant agrees
        double[] sc = new double[9];
        Rotations.axisAngle(0, 1, 0, Math.sin(0.7), Math.cos(0.7), sc);
        assertArrayEquals(ry(0.7), sc, TOL);
    }

    @Test
    void axisAngleGeneralAxis() {
        double[] out = new double[9];
        double[] image = new double[3];
        for (int n = 0; n < 200; n++) {
            double[] u = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
            double norm = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            u[0] /= norm;
            u[1] /= norm;
            u[2] /= norm;
            double a = angle();
            Rotations.axisAngle(u[0], u[1], u[2], a, out);
            assertOrthonormal(out, 1e-14);
            Rotations.apply(out, u, image);
            assertArrayEquals(u, image, TOL, "the axis is fixed");
            // trace = 1 + 2 cos θ
            assertEquals(1 + 2 * Math.cos(a), out[0] + out[4] + out[8], TOL);
            // the same rotation as the quaternion (u sin θ/2, cos θ/2)
            double[] q = new double[9];
            double s = Math.sin(a / 2);
            Rotations.fromQuaternion(u[0] * s, u[1] * s, u[2] * s, Math.cos(a / 2), q);
            assertArrayEquals(out, q, 1e-14, "axis-angle vs quaternion");
        }
    }

    @Test
    void quaternionHandCases() {
        double[] out = new double[9];
        Rotations.fromQuaternion(0, 0, 0, 1, out);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, out, 0);
        Rotations.fromQuaternion(1, 0, 0, 0, out); // half turn about x
        assertArrayEquals(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, out, TOL);
        Rotations.fromQuaternion(0, 1, 0, 0, out); // half turn about y
        assertArrayEquals(new double[] {-1, 0, 0, 0, 1, 0, 0, 0, -1}, out, TOL);
        double h = Math.sqrt(0.5);
        Rotations.fromQuaternion(0, 0, h, h, out); // quarter turn about z
        assertArrayEquals(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1}, out, TOL);
        Rotations.fromQuaternion(h, 0, 0, h, out); // quarter turn about x: y -> z
        assertArrayEquals(rx(Math.PI / 2), out, TOL);
        // (x, y, z, w) = (1, 1, 1, 1)/2: 120° about (1, 1, 1), the cyclic permutation x -> y -> z -> x
        Rotations.fromQuaternion(0.5, 0.5, 0.5, 0.5, out);
        assertArrayEquals(new double[] {0, 0, 1, 1, 0, 0, 0, 1, 0}, out, TOL);
        // q and -q are the same rotation; a non-unit quaternion is normalised
        double[] other = new double[9];
        Rotations.fromQuaternion(-0.5, -0.5, -0.5, -0.5, other);
        assertArrayEquals(out, other, TOL);
        Rotations.fromQuaternion(3, 3, 3, 3, other);
        assertArrayEquals(out, other, TOL);
    }

    @Test
    void quaternionsGiveOrthonormalMatrices() {
        double[] out = new double[9];
        for (int n = 0; n < 200; n++) {
            double scale = Math.pow(10, 2 * random.nextDouble() - 1);
            Rotations.fromQuaternion(scale * random.nextGaussian(), scale * random.nextGaussian(),
                    scale * random.nextGaussian(), scale * random.nextGaussian(), out);
            assertOrthonormal(out, 1e-14);
        }
    }

    @Test
    void multiplyApplyAndTranspose() {
        for (int n = 0; n < 50; n++) {
            double[] a = Rotations.fromRpy(angle(), angle(), angle());
            double[] b = new double[9];
            for (int i = 0; i < 9; i++) {
                b[i] = random.nextGaussian();
            }
            double[] c = new double[9];
            Rotations.multiply(a, b, c);
            assertArrayEquals(mul(a, b), c, TOL);
            double[] v = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
            double[] av = new double[3];
            Rotations.apply(a, v, av);
            for (int i = 0; i < 3; i++) {
                assertEquals(a[3 * i] * v[0] + a[3 * i + 1] * v[1] + a[3 * i + 2] * v[2], av[i], 0);
            }
            double[] at = new double[9];
            Rotations.transpose(a, at);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    assertEquals(a[3 * i + j], at[3 * j + i], 0);
                }
            }
            assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, mul(a, at), TOL, "Rᵀ is the inverse");
        }
    }

    /**
     * Issue 10 item 16: any non-zero finite quaternion gives its rotation (the prescale by a power of two), bit for bit
     * the unscaled formula's where that formula neither under- nor overflows, and the unit quaternion's rotation at
     * norms from subnormal to beyond 1e300.
     */
    @Test
    void fromQuaternionWorksForEveryNonZeroFiniteNorm() {
        Random rnd = new Random(16);
        double[] r = new double[9];
        double[] unit = new double[9];
        for (int trial = 0; trial < 200; trial++) {
            double[] qu = new double[4];
            double n = 0;
            for (int i = 0; i < 4; i++) {
                qu[i] = rnd.nextGaussian();
                n += qu[i] * qu[i];
            }
            n = Math.sqrt(n);
            for (int i = 0; i < 4; i++) {
                qu[i] /= n;
            }
            Rotations.fromQuaternion(qu[0], qu[1], qu[2], qu[3], unit);
            // The unscaled formula, as before the prescale.
            double s = 2 / (qu[0] * qu[0] + qu[1] * qu[1] + qu[2] * qu[2] + qu[3] * qu[3]);
            assertEquals(1 - s * qu[1] * qu[1] - s * qu[2] * qu[2], unit[0], 0.0, "bit for bit at norm 1");
            assertEquals(s * qu[0] * qu[1] - s * qu[3] * qu[2], unit[1], 0.0, "bit for bit at norm 1");
            for (double scale : new double[] {1e-310, 1e-300, 1e-160, 1e-77, 1e77, 1e160, 1e300, 1.7e308 / 2}) {
                Rotations.fromQuaternion(qu[0] * scale, qu[1] * scale, qu[2] * scale, qu[3] * scale, r);
                // Subnormal components keep about 44 bits.
                assertArrayEquals(unit, r, scale < 1e-300 ? 1e-11 : 1e-14, "norm " + scale);
            }
        }
        Rotations.fromQuaternion(Double.MIN_VALUE, 0, 0, 0, r);
        assertArrayEquals(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, r, 0.0, "a subnormal half turn about x");
        Rotations.fromQuaternion(Double.MAX_VALUE, 0, 0, -Double.MAX_VALUE, r);
        Rotations.fromQuaternion(1, 0, 0, -1, unit);
        assertArrayEquals(unit, r, 1e-15, "components Double.MAX_VALUE");
    }

    /** toQuaternion inverts fromQuaternion (w ≥ 0), on random rotations and near each of Shepperd's four cases. */
    @Test
    void toQuaternionInvertsFromQuaternion() {
        Random random = new Random(33);
        double[][] cases = new double[204][];
        cases[0] = new double[] {0, 0, 0, 1};
        cases[1] = new double[] {1, 0, 0, 0};
        cases[2] = new double[] {0, 1, 0, 0};
        cases[3] = new double[] {0, 0, -1, 1e-3};
        for (int k = 4; k < cases.length; k++) {
            cases[k] = new double[] {random.nextGaussian(), random.nextGaussian(), random.nextGaussian(),
                random.nextGaussian()};
        }
        double[] r = new double[9];
        double[] q = new double[4];
        for (double[] c : cases) {
            double n = Math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3]) * (c[3] < 0 ? -1 : 1);
            Rotations.fromQuaternion(c[0], c[1], c[2], c[3], r);
            Rotations.toQuaternion(r, q);
            assertArrayEquals(new double[] {c[0] / n, c[1] / n, c[2] / n, c[3] / n}, q, 1e-14);
        }
    }
}
