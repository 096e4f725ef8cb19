package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.junit.jupiter.api.Test;

/**
 * {@link SpatialTransform} against 6x6 matrix arithmetic built from {@link SpatialTransform#toMotionMatrix}: motion
 * vectors transform with X, forces with X* = X⁻ᵀ, and Xᵀ carries forces back.
 *
 * <p>Tolerance: entries are O(1) (|r| ≤ 2, unit rotations, vectors ≤ 3), each result is a sum of a few products,
 * so rounding is a few ulps of (‖X‖ ‖v‖); we allow 1e-12 times that (1e-12 times ‖X‖² ‖v‖ where an EJML inverse
 * is involved, its error grows with the condition number ≤ ‖X‖²).
 */
class SpatialTransformTest {
    private static final int CASES = 200;
    private static final double REL = 1e-12;

    private final Random random = new Random(77L);

    private double uniform(double lo, double hi) {
        return lo + (hi - lo) * random.nextDouble();
    }

    private SpatialTransform randomTransform() {
        SpatialTransform x = new SpatialTransform();
        Rotations.fromQuaternion(random.nextGaussian(), random.nextGaussian(), random.nextGaussian(),
                random.nextGaussian(), x.E);
        for (int i = 0; i < 3; i++) {
            x.r[i] = uniform(-2, 2);
        }
        return x;
    }

    private static DMatrixRMaj motion(SpatialTransform x) {
        DMatrixRMaj m = new DMatrixRMaj(6, 6);
        x.toMotionMatrix(m);
        return m;
    }

    private double[] randomArray(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = uniform(-3, 3);
        }
        return a;
    }

    private static DMatrixRMaj column(double[] a, int offset) {
        DMatrixRMaj v = new DMatrixRMaj(6, 1);
        System.arraycopy(a, offset, v.data, 0, 6);
        return v;
    }

    private static DMatrixRMaj times(DMatrixRMaj a, DMatrixRMaj b) {
        DMatrixRMaj c = new DMatrixRMaj(a.numRows, b.numCols);
        CommonOps_DDRM.mult(a, b, c);
        return c;
    }

    private static DMatrixRMaj transpose(DMatrixRMaj a) {
        DMatrixRMaj t = new DMatrixRMaj(a.numCols, a.numRows);
        CommonOps_DDRM.transpose(a, t);
        return t;
    }

    private static DMatrixRMaj inverse(DMatrixRMaj a) {
        DMatrixRMaj inv = a.copy();
        if (!CommonOps_DDRM.invert(inv)) {
            throw new AssertionError("singular");
        }
        return inv;
    }

    private static double norm(DMatrixRMaj m) {
        return NormOps_DDRM.normF(m);
    }

    private static void assertVector(DMatrixRMaj expected, double[] actual, int offset, double tol, String what) {
        for (int i = 0; i < 6; i++) {
            assertEquals(expected.get(i, 0), actual[offset + i], tol, what + " [" + i + "]");
        }
    }

    private static void assertMatrix(DMatrixRMaj expected, DMatrixRMaj actual, double tol, String what) {
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                assertEquals(expected.get(i, j), actual.get(i, j), tol, what + " (" + i + "," + j + ")");
            }
        }
    }

    @Test
    void motionMatrixHasTheDocumentedBlocks() {
        SpatialTransform x = randomTransform();
        DMatrixRMaj m = motion(x);
        double[] rx = {0, -x.r[2], x.r[1], x.r[2], 0, -x.r[0], -x.r[1], x.r[0], 0};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(x.E[3 * i + j], m.get(i, j), 0);
                assertEquals(x.E[3 * i + j], m.get(i + 3, j + 3), 0);
                assertEquals(0, m.get(i, j + 3), 0);
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += x.E[3 * i + k] * rx[3 * k + j];
                }
                assertEquals(-s, m.get(i + 3, j), 1e-15);
            }
        }
    }

    @Test
    void applyMethodsMatchMatrixArithmetic() {
        for (int n = 0; n < CASES; n++) {
            SpatialTransform x = randomTransform();
            DMatrixRMaj xm = motion(x);
            DMatrixRMaj xInv = inverse(xm);
            DMatrixRMaj xStar = transpose(xInv); // X* = X⁻ᵀ
            DMatrixRMaj xT = transpose(xm);
            int io = random.nextInt(3);
            int oo = random.nextInt(3);
            double[] in = randomArray(io + 6);
            DMatrixRMaj v = column(in, io);
            double tol = REL * norm(xm) * norm(v);
            double tolInv = tol * norm(xm) * norm(xm);
            double[] out = new double[oo + 6];

            x.applyMotion(in, io, out, oo);
            assertVector(times(xm, v), out, oo, tol, "applyMotion, case " + n);

            x.applyInverseMotion(in, io, out, oo);
            assertVector(times(xInv, v), out, oo, tolInv, "applyInverseMotion, case " + n);
            double[] back = new double[6];
            x.applyMotion(out, oo, back, 0);
            assertVector(v, back, 0, tolInv, "X X⁻¹ m");

            x.applyForce(in, io, out, oo);
            assertVector(times(xStar, v), out, oo, tolInv, "applyForce = X⁻ᵀ f, case " + n);

            x.applyTransposeForce(in, io, out, oo);
            assertVector(times(xT, v), out, oo, tol, "applyTransposeForce, case " + n);
            x.applyForce(out, oo, back, 0);
            assertVector(v, back, 0, tolInv, "X* Xᵀ f");

            double[] acc = randomArray(oo + 6);
            DMatrixRMaj expected = column(acc, oo);
            CommonOps_DDRM.addEquals(expected, times(xT, v));
            x.addTransposeForce(in, io, acc, oo);
            assertVector(expected, acc, oo, tol + REL * norm(expected), "addTransposeForce, case " + n);

            // power is invariant: (X m) · (X* f) = m · f
            double[] f = randomArray(6);
            double[] xmv = new double[6];
            double[] xf = new double[6];
            x.applyMotion(in, io, xmv, 0);
            x.applyForce(f, 0, xf, 0);
            assertEquals(SpatialVectors.dot(in, io, f, 0), SpatialVectors.dot(xmv, 0, xf, 0),
                    tolInv * norm(column(f, 0)), "power invariance");
        }
    }

    @Test
    void motionTransformCarriesTheVelocityOfBsOrigin() {
        // a body twist [ω; v] given at A's origin in A coordinates: B's origin (at r) moves with v + ω × r, which
        // X expresses in B coordinates (Rᵀ = E).
        for (int n = 0; n < 20; n++) {
            SpatialTransform x = randomTransform();
            double[] twist = randomArray(6);
            double[] w = {twist[0], twist[1], twist[2]};
            double[] r = x.r;
            double[] vb = {twist[3] + w[1] * r[2] - w[2] * r[1], twist[4] + w[2] * r[0] - w[0] * r[2],
                twist[5] + w[0] * r[1] - w[1] * r[0]};
            double[] out = new double[6];
            x.applyMotion(twist, 0, out, 0);
            double[] ew = new double[3];
            double[] evb = new double[3];
            Rotations.apply(x.E, w, ew);
            Rotations.apply(x.E, vb, evb);
            for (int i = 0; i < 3; i++) {
                assertEquals(ew[i], out[i], 1e-12);
                assertEquals(evb[i], out[i + 3], 1e-12);
            }
        }
    }

    @Test
    void setProductMatchesMatrixProductIncludingAliasing() {
        for (int n = 0; n < CASES; n++) {
            SpatialTransform ab = randomTransform();
            SpatialTransform bc = randomTransform();
            DMatrixRMaj expected = times(motion(bc), motion(ab));
            double tol = REL * norm(motion(bc)) * norm(motion(ab)) * 4;

            SpatialTransform ac = randomTransform();
            assertSame(ac, ac.setProduct(bc, ab));
            assertMatrix(expected, motion(ac), tol, "setProduct, case " + n);

            SpatialTransform alias = new SpatialTransform().set(bc);
            alias.setProduct(alias, ab);
            assertMatrix(expected, motion(alias), tol, "this == bc, case " + n);

            alias = new SpatialTransform().set(ab);
            alias.setProduct(bc, alias);
            assertMatrix(expected, motion(alias), tol, "this == ab, case " + n);

            SpatialTransform self = new SpatialTransform().set(ab);
            DMatrixRMaj square = times(motion(ab), motion(ab));
            self.setProduct(self, self);
            assertMatrix(square, motion(self), tol, "this == ab == bc, case " + n);
        }
    }

    @Test
    void poseRoundTrip() {
        for (int n = 0; n < CASES; n++) {
            double[] rot = new double[9];
            Rotations.fromQuaternion(random.nextGaussian(), random.nextGaussian(), random.nextGaussian(),
                    random.nextGaussian(), rot);
            double[] p = randomArray(3);
            Pose pose = Pose.of(rot, p);
            SpatialTransform x = new SpatialTransform();
            assertSame(x, x.setFromPose(pose));
            // E = Rᵀ, r = p
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    assertEquals(rot[3 * j + i], x.E[3 * i + j], 0);
                }
                assertEquals(p[i], x.r[i], 0);
            }
            assertEquals(pose, x.toPose());
            SpatialTransform y = new SpatialTransform().setFromPose(x.toPose());
            assertArrayEquals(x.E, y.E, 0);
            assertArrayEquals(x.r, y.r, 0);
            // composing placements = composing transforms: X_{A<-...} for pose A<-B then B<-C
            Pose second = Pose.of(rot, randomArray(3));
            SpatialTransform xab = new SpatialTransform().setFromPose(pose);
            SpatialTransform xbc = new SpatialTransform().setFromPose(second);
            SpatialTransform composed = new SpatialTransform().setFromPose(pose.compose(second));
            DMatrixRMaj product = times(motion(xbc), motion(xab));
            assertMatrix(product, motion(composed), 1e-12 * norm(product), "pose compose, case " + n);
        }
    }

    @Test
    void setAndSetIdentity() {
        SpatialTransform x = randomTransform();
        SpatialTransform y = new SpatialTransform().set(x);
        assertArrayEquals(x.E, y.E, 0);
        assertArrayEquals(x.r, y.r, 0);
        assertSame(y, y.setIdentity());
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, y.E, 0);
        assertArrayEquals(new double[3], y.r, 0);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new SpatialTransform().E, 0);
        double[] m = randomArray(6);
        double[] out = new double[6];
        y.applyMotion(m, 0, out, 0);
        assertArrayEquals(m, out, 0);
        y.applyForce(m, 0, out, 0);
        assertArrayEquals(m, out, 0);
    }
}
