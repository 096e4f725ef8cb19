package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link ArticulatedBodyInertia} against plain 6x6 arithmetic with EJML on random inputs (seeded, so failures
 * reproduce).
 *
 * <p>Tolerances: the random elements are O(1) (up to a factor 10 either way) and each compared quantity is a
 * short sum of products of at most four such factors (Xᵀ P X has entries like [r]× M [r]×), so the rounding error
 * of either side is a few units of 2⁻⁵³ ≈ 1.1e-16 times the product of the norms involved. The tests allow
 * 1e-12 times that product of norms: 10³-10⁴ times the expected error, yet any wrong sign or index in a formula
 * changes results by O(1) relative to the same scale. Operations that do the same floating-point operations as
 * the reference (construction, toMatrix, fromMatrix of a symmetric matrix, sums) are compared exactly.
 */
class ArticulatedBodyInertiaTest {
    private static final int CASES = 200;
    private static final double REL = 1e-12;

    private final Random random = new Random(20240601L);

    // ------------------------------------------------------------------------------------ random inputs

    private double uniform(double lo, double hi) {
        return lo + (hi - lo) * random.nextDouble();
    }

    private double[] randomFull3() {
        double scale = Math.pow(10, uniform(-1, 1));
        double[] a = new double[9];
        for (int i = 0; i < 9; i++) {
            a[i] = scale * uniform(-1, 1);
        }
        return a;
    }

    private double[] randomSymmetric3() {
        double[] a = randomFull3();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < i; j++) {
                a[3 * i + j] = a[3 * j + i];
            }
        }
        return a;
    }

    private double[] randomVector3(double size) {
        return new double[] {uniform(-size, size), uniform(-size, size), uniform(-size, size)};
    }

    private double[] randomRotation() {
        double[] q = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
        double[] r = new double[9];
        Rotations.fromQuaternion(q[0], q[1], q[2], q[3], r);
        return r;
    }

    private RigidBodyInertia randomRigidBody() {
        double[] a = randomFull3();
        double[] inertia = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double s = (i == j) ? 0.1 : 0;
                for (int k = 0; k < 3; k++) {
                    s += a[3 * i + k] * a[3 * j + k];
                }
                inertia[3 * i + j] = s;
            }
        }
        return RigidBodyInertia.of(uniform(0.1, 5), randomVector3(1), inertia);
    }

    private static final class Blocks {
        final double[] m;
        final double[] f;
        final double[] j;

        Blocks(double[] m, double[] f, double[] j) {
            this.m = m;
            this.f = f;
            this.j = j;
        }

        ArticulatedBodyInertia abi() {
            return ArticulatedBodyInertia.of(m, f, j);
        }

        /** [J F; Fᵀ M] assembled by hand. */
        DMatrixRMaj matrix() {
            DMatrixRMaj p = new DMatrixRMaj(6, 6);
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    p.set(r, c, j[3 * r + c]);
                    p.set(r, c + 3, f[3 * r + c]);
                    p.set(r + 3, c, f[3 * c + r]);
                    p.set(r + 3, c + 3, m[3 * r + c]);
                }
            }
            return p;
        }
    }

    private Blocks randomBlocks() {
        return new Blocks(randomSymmetric3(), randomFull3(), randomSymmetric3());
    }

    // ------------------------------------------------------------------------------------ matrix helpers

    private static DMatrixRMaj matrixOf(ArticulatedBodyInertia p) {
        DMatrixRMaj m = new DMatrixRMaj(6, 6);
        p.toMatrix(m);
        return m;
    }

    private static DMatrixRMaj motionMatrix(double[] e, double[] r) {
        SpatialTransform x = new SpatialTransform();
        System.arraycopy(e, 0, x.E, 0, 9);
        System.arraycopy(r, 0, x.r, 0, 3);
        DMatrixRMaj m = new DMatrixRMaj(6, 6);
        x.toMotionMatrix(m);
        return m;
    }

    /** aᵀ b a. */
    private static DMatrixRMaj congruenceT(DMatrixRMaj a, DMatrixRMaj b) {
        DMatrixRMaj t = new DMatrixRMaj(6, 6);
        CommonOps_DDRM.mult(b, a, t);
        DMatrixRMaj out = new DMatrixRMaj(6, 6);
        CommonOps_DDRM.multTransA(a, t, out);
        return out;
    }

    private static double norm(DMatrixRMaj m) {
        return NormOps_DDRM.normF(m);
    }

    private static void assertClose(DMatrixRMaj expected, DMatrixRMaj actual, double tolerance, String what) {
        assertEquals(expected.numRows, actual.numRows, what);
        assertEquals(expected.numCols, actual.numCols, what);
        for (int i = 0; i < expected.numRows; i++) {
            for (int j = 0; j < expected.numCols; j++) {
                double d = Math.abs(expected.get(i, j) - actual.get(i, j));
                if (!(d <= tolerance)) {
                    throw new AssertionError(what + ": element (" + i + "," + j + ") expected " + expected.get(i, j)
                            + " but was " + actual.get(i, j) + " (|diff| " + d + " > " + tolerance + ")");
                }
            }
        }
    }

    private static void assertExactlyEqual(DMatrixRMaj expected, DMatrixRMaj actual, String what) {
        assertClose(expected, actual, 0, what);
    }

    // ------------------------------------------------------------------------------------ construction

    @Test
    void blockConstructionMatchesHandAssembledMatrix() {
        for (int n = 0; n < CASES; n++) {
            Blocks b = randomBlocks();
            ArticulatedBodyInertia p = b.abi();
            DMatrixRMaj expected = b.matrix();
            assertExactlyEqual(expected, matrixOf(p), "case " + n);
            for (int i = 0; i < 6; i++) {
                for (int j = 0; j < 6; j++) {
                    assertEquals(expected.get(i, j), p.get(i, j), 0, "get(" + i + "," + j + ")");
                }
            }
            assertArrayEquals(b.m, p.massArray(), 0);
            assertArrayEquals(b.f, p.massMomentArray(), 0);
            assertArrayEquals(b.j, p.inertiaArray(), 0);
            assertEquals(b.m[5], p.mass(1, 2), 0);
            assertEquals(b.f[5], p.massMoment(1, 2), 0);
            assertEquals(b.f[7], p.massMoment(2, 1), 0);
            assertEquals(b.j[6], p.inertia(2, 0), 0);
        }
    }

    @Test
    void storageLayoutIsTheDocumentedOne() {
        double[] m = {1, 2, 3, 2, 4, 5, 3, 5, 6};
        double[] f = {7, 8, 9, 10, 11, 12, 13, 14, 15};
        double[] j = {16, 17, 18, 17, 19, 20, 18, 20, 21};
        double[] expected = new double[21];
        for (int k = 0; k < 21; k++) {
            expected[k] = k + 1;
        }
        assertArrayEquals(expected, ArticulatedBodyInertia.of(m, f, j).toArray(), 0);
    }

    @Test
    void blockConstructionSymmetrisesRoundingAndRejectsAsymmetry() {
        double[] m = {2, 0.5, 0, 0.5 + 1e-13, 3, 0, 0, 0, 4};
        double[] j = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        ArticulatedBodyInertia p = ArticulatedBodyInertia.of(m, new double[9], j);
        assertEquals(0.5 * (0.5 + 0.5 + 1e-13), p.mass(0, 1), 0);
        assertEquals(p.mass(0, 1), p.mass(1, 0), 0);

        double[] bad = {2, 0.5, 0, 0.4, 3, 0, 0, 0, 4};
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.of(bad, new double[9], j));
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.of(j, new double[9], bad));
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.of(j, new double[8], j));
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.of(new double[6], new double[9], j));
        double[] nan = {Double.NaN, 0, 0, 0, 1, 0, 0, 0, 1};
        nan[1] = Double.NaN;
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.of(nan, new double[9], j));
    }

    @Test
    void rigidBodyConstructionEqualsRigidBodyInertiaMatrix() {
        ArticulatedBodyInertia reused = randomBlocks().abi();
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia rbi = randomRigidBody();
            DMatrixRMaj expected = new DMatrixRMaj(6, 6);
            rbi.toMatrix(expected);
            assertExactlyEqual(expected, matrixOf(ArticulatedBodyInertia.of(rbi)), "of(rbi), case " + n);
            assertExactlyEqual(expected, matrixOf(reused.setFrom(rbi)), "setFrom(rbi) over old data, case " + n);
        }
        assertExactlyEqual(new DMatrixRMaj(6, 6), matrixOf(ArticulatedBodyInertia.of(RigidBodyInertia.ZERO)),
                "zero body");
    }

    @Test
    void zeroIsZeroAndNeutral() {
        assertExactlyEqual(new DMatrixRMaj(6, 6), matrixOf(ArticulatedBodyInertia.zero()), "zero()");
        assertExactlyEqual(new DMatrixRMaj(6, 6), matrixOf(new ArticulatedBodyInertia()), "new");
        ArticulatedBodyInertia p = randomBlocks().abi();
        assertEquals(p, p.plus(ArticulatedBodyInertia.zero()));
        assertEquals(ArticulatedBodyInertia.zero(), p.copy().setZero());
        assertEquals(ArticulatedBodyInertia.zero(), p.minus(p));
    }

    // ------------------------------------------------------------------------------------ arithmetic

    @Test
    void sumsAndDifferencesMatchMatrixArithmetic() {
        for (int n = 0; n < CASES; n++) {
            Blocks a = randomBlocks();
            Blocks b = randomBlocks();
            ArticulatedBodyInertia pa = a.abi();
            ArticulatedBodyInertia pb = b.abi();
            DMatrixRMaj sum = new DMatrixRMaj(6, 6);
            DMatrixRMaj diff = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.add(a.matrix(), b.matrix(), sum);
            CommonOps_DDRM.subtract(a.matrix(), b.matrix(), diff);

            assertExactlyEqual(sum, matrixOf(pa.plus(pb)), "plus");
            assertExactlyEqual(diff, matrixOf(pa.minus(pb)), "minus");
            assertExactlyEqual(matrixOf(a.abi()), matrixOf(pa), "plus/minus leave their operands alone");

            ArticulatedBodyInertia out = randomBlocks().abi();
            assertSame(out, ArticulatedBodyInertia.add(pa, pb, out));
            assertExactlyEqual(sum, matrixOf(out), "add(a, b, out)");
            assertSame(out, ArticulatedBodyInertia.subtract(pa, pb, out));
            assertExactlyEqual(diff, matrixOf(out), "subtract(a, b, out)");

            ArticulatedBodyInertia acc = pa.copy();
            assertSame(acc, acc.addInPlace(pb));
            assertExactlyEqual(sum, matrixOf(acc), "addInPlace");
            acc = pa.copy();
            assertSame(acc, acc.subtractInPlace(pb));
            assertExactlyEqual(diff, matrixOf(acc), "subtractInPlace");

            // aliasing: out is one of the operands
            acc = pa.copy();
            ArticulatedBodyInertia.add(acc, pb, acc);
            assertExactlyEqual(sum, matrixOf(acc), "add(a, b, a)");
            acc = pb.copy();
            ArticulatedBodyInertia.subtract(pa, acc, acc);
            assertExactlyEqual(diff, matrixOf(acc), "subtract(a, b, b)");
            acc = pa.copy();
            acc.addInPlace(acc);
            DMatrixRMaj twice = a.matrix();
            CommonOps_DDRM.scale(2, twice);
            assertExactlyEqual(twice, matrixOf(acc), "p += p");
        }
    }

    @Test
    void multiplyMatchesMatrixVectorProduct() {
        for (int n = 0; n < CASES; n++) {
            Blocks b = randomBlocks();
            ArticulatedBodyInertia p = b.abi();
            int mo = random.nextInt(4);
            int fo = random.nextInt(4);
            double[] motion = new double[mo + 6 + 2];
            for (int i = 0; i < motion.length; i++) {
                motion[i] = uniform(-3, 3);
            }
            double[] force = new double[fo + 6 + 2];
            force[fo + 6] = 123; // must not be touched
            p.multiply(motion, mo, force, fo);

            DMatrixRMaj v = new DMatrixRMaj(6, 1);
            System.arraycopy(motion, mo, v.data, 0, 6);
            DMatrixRMaj expected = new DMatrixRMaj(6, 1);
            CommonOps_DDRM.mult(b.matrix(), v, expected);
            DMatrixRMaj actual = new DMatrixRMaj(6, 1);
            System.arraycopy(force, fo, actual.data, 0, 6);
            assertClose(expected, actual, REL * norm(b.matrix()) * norm(v), "multiply, case " + n);
            assertEquals(123, force[fo + 6], 0);
            if (fo > 0) {
                assertEquals(0, force[fo - 1], 0);
            }
        }
    }

    // ------------------------------------------------------------------------------------ shift

    @Test
    void shiftEqualsTransposeTransformCongruenceWithUnitRotation() {
        double[] identity = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int n = 0; n < CASES; n++) {
            Blocks b = randomBlocks();
            ArticulatedBodyInertia p = b.abi();
            double[] s = randomVector3(2);
            DMatrixRMaj x = motionMatrix(identity, s);
            DMatrixRMaj expected = congruenceT(x, b.matrix());
            double tol = REL * norm(b.matrix()) * norm(x) * norm(x);

            ArticulatedBodyInertia shifted = p.shift(s);
            assertClose(expected, matrixOf(shifted), tol, "shift, case " + n);
            assertExactlyEqual(b.matrix(), matrixOf(p), "shift leaves its operand alone");

            ArticulatedBodyInertia inPlace = p.copy();
            assertSame(inPlace, inPlace.shiftInPlace(s));
            assertEquals(shifted, inPlace, "shiftInPlace(double[]) == shift");
            ArticulatedBodyInertia inPlace3 = p.copy().shiftInPlace(s[0], s[1], s[2]);
            assertEquals(shifted, inPlace3, "shiftInPlace(s0, s1, s2) == shift");

            // the mass distribution is invariant, and shifting back by -s undoes the shift
            assertArrayEquals(b.m, shifted.massArray(), 0);
            ArticulatedBodyInertia back = shifted.shift(new double[] {-s[0], -s[1], -s[2]});
            assertClose(b.matrix(), matrixOf(back), tol * norm(x) * norm(x), "shift(s).shift(-s)");
            // shifts compose additively
            double[] t = randomVector3(2);
            ArticulatedBodyInertia twoSteps = p.shift(s).shift(t);
            ArticulatedBodyInertia oneStep = p.shift(new double[] {s[0] + t[0], s[1] + t[1], s[2] + t[2]});
            assertClose(matrixOf(oneStep), matrixOf(twoSteps), 100 * tol, "shift(s).shift(t) == shift(s + t)");
        }
        ArticulatedBodyInertia p = randomBlocks().abi();
        assertEquals(p, p.shift(new double[3]), "shift by zero");
    }

    @Test
    void shiftOfARigidBodyMovesTheReferencePointBackwards() {
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia rbi = randomRigidBody();
            double[] s = randomVector3(2);
            // rbi given in a frame C whose origin is at s in the frame P (parallel axes): the result is about P's
            // origin, i.e. the reference point moved by -s.
            RigidBodyInertia inP = rbi.expressedIn(Pose.translation(s[0], s[1], s[2]));
            DMatrixRMaj expected = new DMatrixRMaj(6, 6);
            inP.toMatrix(expected);
            assertClose(expected, matrixOf(ArticulatedBodyInertia.of(rbi).shift(s)),
                    REL * norm(expected) * (1 + s[0] * s[0] + s[1] * s[1] + s[2] * s[2]), "case " + n);
        }
        // by hand: a point mass m at the origin, shifted by s, is a point mass at s:
        // F' = [m s]x, J' = m |s|² 1 - m s sᵀ
        ArticulatedBodyInertia point = ArticulatedBodyInertia.of(RigidBodyInertia.of(2, new double[3], new double[9]));
        ArticulatedBodyInertia shifted = point.shift(new double[] {0, 0, 3});
        assertArrayEquals(new double[] {0, -6, 0, 6, 0, 0, 0, 0, 0}, shifted.massMomentArray(), 1e-15);
        assertArrayEquals(new double[] {18, 0, 0, 0, 18, 0, 0, 0, 0}, shifted.inertiaArray(), 1e-15);
        assertArrayEquals(new double[] {2, 0, 0, 0, 2, 0, 0, 0, 2}, shifted.massArray(), 0);
    }

    // ------------------------------------------------------------------------------------ rotation, transforms

    @Test
    void reexpressMatchesBlockDiagonalRotation() {
        for (int n = 0; n < CASES; n++) {
            Blocks b = randomBlocks();
            ArticulatedBodyInertia p = b.abi();
            double[] rot = randomRotation();
            DMatrixRMaj big = new DMatrixRMaj(6, 6);
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    big.set(i, j, rot[3 * i + j]);
                    big.set(i + 3, j + 3, rot[3 * i + j]);
                }
            }
            // expected = R6 P R6ᵀ
            DMatrixRMaj bigT = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.transpose(big, bigT);
            DMatrixRMaj expected = congruenceT(bigT, b.matrix());
            double tol = REL * norm(b.matrix()) * 6;

            ArticulatedBodyInertia r = p.reexpress(rot);
            assertClose(expected, matrixOf(r), tol, "reexpress, case " + n);
            assertExactlyEqual(b.matrix(), matrixOf(p), "reexpress leaves its operand alone");
            ArticulatedBodyInertia inPlace = p.copy();
            assertSame(inPlace, inPlace.reexpressInPlace(rot));
            assertEquals(r, inPlace, "reexpressInPlace == reexpress");

            // the same as X P Xᵀ for the pure rotation X with E = R
            DMatrixRMaj x = motionMatrix(rot, new double[3]);
            DMatrixRMaj xt = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.transpose(x, xt);
            assertClose(congruenceT(xt, b.matrix()), matrixOf(r), tol, "X P Xᵀ");
            // and rotating back with Rᵀ restores P
            double[] rt = new double[9];
            Rotations.transpose(rot, rt);
            assertClose(b.matrix(), matrixOf(r.reexpress(rt)), 4 * tol, "reexpress(R).reexpress(Rᵀ)");
        }
    }

    @Test
    void transformTransposeMatchesXtPX() {
        for (int n = 0; n < CASES; n++) {
            Blocks b = randomBlocks();
            ArticulatedBodyInertia p = b.abi();
            SpatialTransform x = new SpatialTransform();
            System.arraycopy(randomRotation(), 0, x.E, 0, 9);
            System.arraycopy(randomVector3(2), 0, x.r, 0, 3);
            DMatrixRMaj xm = new DMatrixRMaj(6, 6);
            x.toMotionMatrix(xm);
            DMatrixRMaj expected = congruenceT(xm, b.matrix());
            double tol = REL * norm(b.matrix()) * norm(xm) * norm(xm);

            ArticulatedBodyInertia t = p.transformTranspose(x);
            assertClose(expected, matrixOf(t), tol, "transformTranspose, case " + n);
            assertExactlyEqual(b.matrix(), matrixOf(p), "transformTranspose leaves its operand alone");
            ArticulatedBodyInertia inPlace = p.copy();
            assertSame(inPlace, inPlace.transformTransposeInPlace(x));
            assertEquals(t, inPlace, "transformTransposeInPlace == transformTranspose");

            // equals reexpress(Eᵀ) then shift(r)
            double[] et = new double[9];
            Rotations.transpose(x.E, et);
            assertClose(matrixOf(t), matrixOf(p.reexpress(et).shift(x.r)), tol, "reexpress(Eᵀ).shift(r)");

            // accumulation: acc += Xᵀ P X, P untouched
            Blocks c = randomBlocks();
            ArticulatedBodyInertia acc = c.abi();
            assertSame(acc, acc.addTransformTranspose(x, p));
            DMatrixRMaj sum = new DMatrixRMaj(6, 6);
            CommonOps_DDRM.add(c.matrix(), expected, sum);
            assertClose(sum, matrixOf(acc), tol + REL * norm(c.matrix()), "addTransformTranspose");
            assertExactlyEqual(b.matrix(), matrixOf(p), "addTransformTranspose leaves the child alone");
            // self-accumulation: p += Xᵀ p X
            ArticulatedBodyInertia self = p.copy();
            self.addTransformTranspose(x, self);
            CommonOps_DDRM.add(b.matrix(), expected, sum);
            assertClose(sum, matrixOf(self), tol + REL * norm(b.matrix()), "p += Xᵀ p X");
        }
    }

    @Test
    void transformTransposeOfARigidBodyEqualsExpressedIn() {
        for (int n = 0; n < CASES; n++) {
            RigidBodyInertia rbi = randomRigidBody();
            Pose pose = Pose.of(randomRotation(), randomVector3(2));
            SpatialTransform x = new SpatialTransform().setFromPose(pose);
            DMatrixRMaj expected = new DMatrixRMaj(6, 6);
            rbi.expressedIn(pose).toMatrix(expected);
            assertClose(expected, matrixOf(ArticulatedBodyInertia.of(rbi).transformTranspose(x)),
                    REL * norm(expected) * 10, "case " + n);
        }
    }

    // ------------------------------------------------------------------------------------ conversions

    @Test
    void toMatrixFromMatrixRoundTrip() {
        for (int n = 0; n < CASES; n++) {
            Blocks b = randomBlocks();
            ArticulatedBodyInertia p = b.abi();
            DMatrixRMaj m = new DMatrixRMaj(2, 3); // reshaped by toMatrix
            p.toMatrix(m);
            assertExactlyEqual(b.matrix(), m, "toMatrix");
            assertExactlyEqual(b.matrix(), p.toMatrix(), "toMatrix()");
            ArticulatedBodyInertia back = ArticulatedBodyInertia.fromMatrix(m);
            assertEquals(p, back, "fromMatrix(toMatrix(p)) == p");
            assertExactlyEqual(m, matrixOf(back), "toMatrix(fromMatrix(m)) == m");
        }
    }

    @Test
    void fromMatrixChecksShapeAndSymmetry() {
        DMatrixRMaj m = randomBlocks().matrix();
        // a rounding-level asymmetry is accepted and averaged
        DMatrixRMaj nearly = m.copy();
        nearly.set(1, 4, m.get(1, 4) + 1e-14);
        ArticulatedBodyInertia p = ArticulatedBodyInertia.fromMatrix(nearly);
        assertEquals(0.5 * (nearly.get(1, 4) + nearly.get(4, 1)), p.get(1, 4), 0);
        assertEquals(p.get(1, 4), p.get(4, 1), 0);

        DMatrixRMaj asymmetric = m.copy();
        asymmetric.set(0, 5, m.get(0, 5) + 1e-3);
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.fromMatrix(asymmetric));
        // but accepted with a looser explicit tolerance
        ArticulatedBodyInertia.fromMatrix(asymmetric, 1);
        DMatrixRMaj asymmetricJ = m.copy();
        asymmetricJ.set(2, 1, m.get(2, 1) - 0.5);
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.fromMatrix(asymmetricJ));
        DMatrixRMaj nan = m.copy();
        nan.set(3, 4, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.fromMatrix(nan));
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.fromMatrix(new DMatrixRMaj(6, 5)));
        assertThrows(IllegalArgumentException.class, () -> ArticulatedBodyInertia.fromMatrix(new DMatrixRMaj(5, 6)));
    }

    @Test
    void equalsHashCodeToString() {
        Blocks b = randomBlocks();
        ArticulatedBodyInertia p = b.abi();
        ArticulatedBodyInertia q = b.abi();
        assertEquals(p, q);
        assertEquals(p.hashCode(), q.hashCode());
        assertEquals(p, p.copy());
        assertNotEquals(p, null);
        assertNotEquals(p, "not an inertia");
        ArticulatedBodyInertia changed = p.copy().shiftInPlace(0, 0, 1e-3);
        assertNotEquals(p, changed);
        assertTrue(p.epsilonEquals(p.copy(), 0));
        assertTrue(p.epsilonEquals(changed, 1));
        assertTrue(!p.epsilonEquals(changed, 1e-12));
        // copies are independent
        ArticulatedBodyInertia c = p.copy();
        c.addInPlace(p);
        assertEquals(q, p);

        String s = ArticulatedBodyInertia.of(new double[] {1, 0, 0, 0, 2, 0, 0, 0, 3},
                new double[] {0, 4, 0, 0, 0, 0, 0, 0, 0}, new double[] {5, 0, 0, 0, 6, 0, 0, 0, 7}).toString();
        assertTrue(s.startsWith("ArticulatedBodyInertia{"), s);
        assertTrue(s.contains("M=[1.0, 0.0, 0.0, 0.0, 2.0"), s);
        assertTrue(s.contains("F=[0.0, 4.0"), s);
        assertTrue(s.contains("J=[5.0"), s);
    }

    @Test
    void hotPathMethodsDoNotAllocate() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long id = Thread.currentThread().getId();

        ArticulatedBodyInertia p = randomBlocks().abi();
        ArticulatedBodyInertia q = randomBlocks().abi();
        ArticulatedBodyInertia out = new ArticulatedBodyInertia();
        RigidBodyInertia rbi = randomRigidBody();
        SpatialTransform x = new SpatialTransform();
        System.arraycopy(randomRotation(), 0, x.E, 0, 9);
        double[] rot = randomRotation();
        double[] s = {0.1, -0.2, 0.3};
        double[] motion = {1, 2, 3, 4, 5, 6};
        double[] force = new double[6];
        DMatrixRMaj m = new DMatrixRMaj(6, 6);

        long before = 0;
        for (int round = 0; round < 3; round++) { // the first rounds warm up (class loading, compilation)
            before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 20_000; i++) {
                ArticulatedBodyInertia.add(p, q, out);
                ArticulatedBodyInertia.subtract(out, q, out);
                out.addInPlace(q).subtractInPlace(q);
                out.multiply(motion, 0, force, 0);
                out.shiftInPlace(s).shiftInPlace(-s[0], -s[1], -s[2]);
                out.reexpressInPlace(rot);
                out.transformTransposeInPlace(x);
                out.addTransformTranspose(x, q);
                out.set(p).setZero().setFrom(rbi);
                out.toMatrix(m);
            }
        }
        long allocated = mx.getThreadAllocatedBytes(id) - before;
        assertTrue(allocated < 4096, "hot-path methods allocated " + allocated + " bytes in 20000 rounds");
    }
}
