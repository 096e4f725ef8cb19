package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/**
 * {@link SpatialVectors} against the 6x6 matrices crm(v) = [[ω]× 0; [v]× [ω]×] and crf(v) = -crm(v)ᵀ
 * (Featherstone §2.9). Entries are O(1) and each result is a sum of at most four products, so 1e-13 absolute is
 * about a thousand ulps.
 */
class SpatialVectorsTest {
    private static final int CASES = 200;
    private static final double TOL = 1e-13;

    private final Random random = new Random(5L);

    private double[] randomArray(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = 4 * random.nextDouble() - 2;
        }
        return a;
    }

    private static void putCross(DMatrixRMaj m, int row, int col, double a0, double a1, double a2) {
        m.set(row, col + 1, -a2);
        m.set(row, col + 2, a1);
        m.set(row + 1, col, a2);
        m.set(row + 1, col + 2, -a0);
        m.set(row + 2, col, -a1);
        m.set(row + 2, col + 1, a0);
    }

    private static DMatrixRMaj crm(double[] v, int o) {
        DMatrixRMaj m = new DMatrixRMaj(6, 6);
        putCross(m, 0, 0, v[o], v[o + 1], v[o + 2]);
        putCross(m, 3, 3, v[o], v[o + 1], v[o + 2]);
        putCross(m, 3, 0, v[o + 3], v[o + 4], v[o + 5]);
        return m;
    }

    private static DMatrixRMaj column(double[] a, int o) {
        DMatrixRMaj c = new DMatrixRMaj(6, 1);
        System.arraycopy(a, o, c.data, 0, 6);
        return c;
    }

    @Test
    void crossMotionMatchesCrm() {
        for (int n = 0; n < CASES; n++) {
            int vo = random.nextInt(3), mo = random.nextInt(3), oo = random.nextInt(3);
            double[] v = randomArray(vo + 6);
            double[] m = randomArray(mo + 6);
            double[] out = new double[oo + 6];
            SpatialVectors.crossMotion(v, vo, m, mo, out, oo);
            DMatrixRMaj expected = new DMatrixRMaj(6, 1);
            CommonOps_DDRM.mult(crm(v, vo), column(m, mo), expected);
            for (int i = 0; i < 6; i++) {
                assertEquals(expected.get(i), out[oo + i], TOL, "case " + n + " [" + i + "]");
            }
        }
    }

    @Test
    void crossForceIsMinusCrmTransposed() {
        for (int n = 0; n < CASES; n++) {
            int vo = random.nextInt(3), fo = random.nextInt(3), oo = random.nextInt(3);
            double[] v = randomArray(vo + 6);
            double[] f = randomArray(fo + 6);
            double[] out = new double[oo + 6];
            SpatialVectors.crossForce(v, vo, f, fo, out, oo);
            DMatrixRMaj crf = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.transpose(crm(v, vo), crf);
            CommonOps_DDRM.scale(-1, crf);
            DMatrixRMaj expected = new DMatrixRMaj(6, 1);
            CommonOps_DDRM.mult(crf, column(f, fo), expected);
            for (int i = 0; i < 6; i++) {
                assertEquals(expected.get(i), out[oo + i], TOL, "case " + n + " [" + i + "]");
            }
        }
    }

    @Test
    void crossProductsAreDualAndVTimesVIsZero() {
        for (int n = 0; n < CASES; n++) {
            double[] v = randomArray(6);
            double[] m = randomArray(6);
            double[] f = randomArray(6);
            double[] vm = new double[6];
            double[] vf = new double[6];
            SpatialVectors.crossMotion(v, 0, m, 0, vm, 0);
            SpatialVectors.crossForce(v, 0, f, 0, vf, 0);
            // (v × m) · f = -m · (v ×* f)
            assertEquals(SpatialVectors.dot(vm, 0, f, 0), -SpatialVectors.dot(m, 0, vf, 0), 1e-12);
            SpatialVectors.crossMotion(v, 0, v, 0, vm, 0);
            for (int i = 0; i < 6; i++) {
                assertEquals(0, vm[i], TOL);
            }
        }
    }

    @Test
    void dotIsTheSumOfProducts() {
        for (int n = 0; n < CASES; n++) {
            int mo = random.nextInt(3), fo = random.nextInt(3);
            double[] m = randomArray(mo + 6);
            double[] f = randomArray(fo + 6);
            double expected = 0;
            for (int i = 0; i < 6; i++) {
                expected += m[mo + i] * f[fo + i];
            }
            assertEquals(expected, SpatialVectors.dot(m, mo, f, fo), TOL);
        }
        assertEquals(1 * 7 + 2 * 8 + 3 * 9 + 4 * 10 + 5 * 11 + 6 * 12,
                SpatialVectors.dot(new double[] {1, 2, 3, 4, 5, 6}, 0, new double[] {7, 8, 9, 10, 11, 12}, 0), 0);
    }
}
