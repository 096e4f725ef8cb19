package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.junit.jupiter.api.Test;

/**
 * {@link RigidBodyInertia} against its own 6x6 matrix and 6x6 transform arithmetic. Masses are 0.1-5 kg, centres of
 * mass within 1 m, offsets within 2 m, so entries are O(10); results are short sums of products, and 1e-12 times
 * the norms involved is still a thousand times the expected rounding.
 */
class RigidBodyInertiaTest {
    private static final int CASES = 200;
    private static final double REL = 1e-12;

    private final Random random = new Random(31L);

    private double uniform(double lo, double hi) {
        return lo + (hi - lo) * random.nextDouble();
    }

    private double[] randomVector3(double size) {
        return new double[] {uniform(-size, size), uniform(-size, size), uniform(-size, size)};
    }

    private RigidBodyInertia randomBody() {
        double[] a = new double[9];
        for (int i = 0; i < 9; i++) {
            a[i] = uniform(-1, 1);
        }
        double[] inertia = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double s = (i == j) ? 0.05 : 0;
                for (int k = 0; k < 3; k++) {
                    s += a[3 * i + k] * a[3 * j + k];
                }
                inertia[3 * i + j] = s;
            }
        }
        return RigidBodyInertia.of(uniform(0.1, 5), randomVector3(1), inertia);
    }

    private Pose randomPose() {
        double[] rot = new double[9];
        Rotations.fromQuaternion(random.nextGaussian(), random.nextGaussian(), random.nextGaussian(),
                random.nextGaussian(), rot);
        return Pose.of(rot, randomVector3(2));
    }

    private static DMatrixRMaj matrix(RigidBodyInertia i) {
        DMatrixRMaj m = new DMatrixRMaj(6, 6);
        i.toMatrix(m);
        return m;
    }

    private static double norm(DMatrixRMaj m) {
        return NormOps_DDRM.normF(m);
    }

    private static void assertMatrix(DMatrixRMaj expected, DMatrixRMaj actual, double tol, String what) {
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                assertEquals(expected.get(i, j), actual.get(i, j), tol, what + " (" + i + "," + j + ")");
            }
        }
    }

    @Test
    void matrixHasTheDocumentedBlocks() {
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia b = randomBody();
            DMatrixRMaj m = matrix(b);
            double mass = b.mass();
            double[] h = {mass * b.com(0), mass * b.com(1), mass * b.com(2)};
            double[] hx = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 6; j++) {
                    assertEquals(m.get(i, j), m.get(j, i), 0, "symmetric");
                }
            }
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    assertEquals(b.inertiaAboutOrigin(i, j), m.get(i, j), 0);
                    assertEquals(hx[3 * i + j], m.get(i, j + 3), 0);
                    assertEquals(i == j ? mass : 0, m.get(i + 3, j + 3), 0);
                }
            }
        }
    }

    @Test
    void multiplyMatchesMatrix() {
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia b = randomBody();
            int mo = random.nextInt(3), fo = random.nextInt(3);
            double[] motion = new double[mo + 6];
            for (int i = 0; i < motion.length; i++) {
                motion[i] = uniform(-3, 3);
            }
            double[] force = new double[fo + 6];
            b.multiply(motion, mo, force, fo);
            DMatrixRMaj v = new DMatrixRMaj(6, 1);
            System.arraycopy(motion, mo, v.data, 0, 6);
            DMatrixRMaj expected = new DMatrixRMaj(6, 1);
            CommonOps_DDRM.mult(matrix(b), v, expected);
            for (int i = 0; i < 6; i++) {
                assertEquals(expected.get(i), force[fo + i], REL * norm(matrix(b)) * norm(v), "case " + n);
            }
        }
    }

    @Test
    void expressedInEqualsXTransposeIX() {
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia inC = randomBody();
            Pose pose = randomPose(); // C in P
            DMatrixRMaj x = new DMatrixRMaj(6, 6);
            new SpatialTransform().setFromPose(pose).toMotionMatrix(x); // P to C
            DMatrixRMaj tmp = new DMatrixRMaj(6, 6);
            DMatrixRMaj expected = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.mult(matrix(inC), x, tmp);
            CommonOps_DDRM.multTransA(x, tmp, expected);
            DMatrixRMaj actual = matrix(inC.expressedIn(pose));
            assertMatrix(expected, actual, REL * norm(matrix(inC)) * norm(x) * norm(x), "case " + n);
            assertEquals(inC.mass(), inC.expressedIn(pose).mass(), 0);
        }
    }

    @Test
    void plusEqualsSumOfMatrices() {
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia a = randomBody();
            RigidBodyInertia b = randomBody();
            DMatrixRMaj expected = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.add(matrix(a), matrix(b), expected);
            RigidBodyInertia sum = a.plus(b);
            assertMatrix(expected, matrix(sum), REL * norm(expected) * 10, "case " + n);
            assertEquals(a.mass() + b.mass(), sum.mass(), 1e-15 * sum.mass());
            // merging commutes and ZERO is neutral
            assertMatrix(matrix(sum), matrix(b.plus(a)), REL * norm(expected) * 10, "commutes");
            assertMatrix(matrix(a), matrix(a.plus(RigidBodyInertia.ZERO)), REL * norm(matrix(a)), "ZERO");
        }
        RigidBodyInertia none = RigidBodyInertia.ZERO.plus(RigidBodyInertia.ZERO);
        assertEquals(0, none.mass(), 0);
        assertArrayEquals(new double[3], none.comArray(), 0);
        assertArrayEquals(new double[9], none.inertiaAboutComArray(), 0);
    }

    @Test
    void plusOfTwoPointMassesByHand() {
        // 1 kg at (1, 0, 0) and 3 kg at (-1, 0, 0): total 4 kg at (-0.5, 0, 0); about that point the masses are at
        // distances 1.5 and 0.5 along x, so I_c = diag(0, 1*2.25 + 3*0.25, same) = diag(0, 3, 3).
        RigidBodyInertia a = RigidBodyInertia.of(1, new double[] {1, 0, 0}, new double[9]);
        RigidBodyInertia b = RigidBodyInertia.of(3, new double[] {-1, 0, 0}, new double[9]);
        RigidBodyInertia sum = a.plus(b);
        assertEquals(4, sum.mass(), 0);
        assertArrayEquals(new double[] {-0.5, 0, 0}, sum.comArray(), 1e-15);
        assertArrayEquals(new double[] {0, 0, 0, 0, 3, 0, 0, 0, 3}, sum.inertiaAboutComArray(), 1e-15);
    }

    @Test
    void inertiaAboutOriginByHand() {
        // m = 2, c = (1, 2, 0), I_c = diag(1, 2, 3): Ī = I_c + m (|c|² 1 - c cᵀ), |c|² = 5
        RigidBodyInertia b = RigidBodyInertia.of(2, new double[] {1, 2, 0}, 1, 0, 0, 2, 0, 3);
        double[][] expected = {{1 + 2 * (5 - 1), -4, 0}, {-4, 2 + 2 * (5 - 4), 0}, {0, 0, 3 + 2 * 5}};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(expected[i][j], b.inertiaAboutOrigin(i, j), 1e-15, "(" + i + "," + j + ")");
            }
        }
        // a point mass on the z axis: only the x and y moments
        RigidBodyInertia p = RigidBodyInertia.of(0.5, new double[] {0, 0, 2}, new double[9]);
        assertEquals(2, p.inertiaAboutOrigin(0, 0), 0);
        assertEquals(2, p.inertiaAboutOrigin(1, 1), 0);
        assertEquals(0, p.inertiaAboutOrigin(2, 2), 0);
        assertEquals(0, p.inertiaAboutOrigin(0, 2), 0);
    }

    @Test
    void constructionSymmetrisesAndChecksSizes() {
        RigidBodyInertia b = RigidBodyInertia.of(1, new double[3], new double[] {1, 0.2, 0, 0.4, 1, 0, 0, 0, 1});
        assertEquals(0.3, b.inertiaAboutCom(0, 1), 1e-16);
        assertEquals(0.3, b.inertiaAboutCom(1, 0), 1e-16);
        RigidBodyInertia urdf = RigidBodyInertia.of(1, new double[3], 1, 2, 3, 4, 5, 6);
        assertArrayEquals(new double[] {1, 2, 3, 2, 4, 5, 3, 5, 6}, urdf.inertiaAboutComArray(), 0);
        assertThrows(IllegalArgumentException.class, () -> RigidBodyInertia.of(1, new double[2], new double[9]));
        assertThrows(IllegalArgumentException.class, () -> RigidBodyInertia.of(1, new double[3], new double[6]));
        // inputs are copied
        double[] com = {1, 2, 3};
        RigidBodyInertia c = RigidBodyInertia.of(1, com, new double[9]);
        com[0] = 99;
        assertEquals(1, c.com(0), 0);
    }
}
