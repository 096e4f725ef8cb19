package org.symdyn.spatial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Pose}: composition and inversion round trips and the point/direction maps. Rotations are orthonormal and
 * translations within 2 m, so 1e-13 absolute is far above the rounding of a few chained 3x3 products.
 */
class PoseTest {
    private static final double TOL = 1e-13;

    private final Random random = new Random(3L);

    private double[] vector(double size) {
        return new double[] {size * (2 * random.nextDouble() - 1), size * (2 * random.nextDouble() - 1),
            size * (2 * random.nextDouble() - 1)};
    }

    private Pose randomPose() {
        double[] rot = new double[9];
        Rotations.fromQuaternion(random.nextGaussian(), random.nextGaussian(), random.nextGaussian(),
                random.nextGaussian(), rot);
        return Pose.of(rot, vector(2));
    }

    private static void assertPose(Pose expected, Pose actual, double tol, String what) {
        assertArrayEquals(expected.rotationArray(), actual.rotationArray(), tol, what + " rotation");
        assertArrayEquals(expected.translationArray(), actual.translationArray(), tol, what + " translation");
    }

    @Test
    void composeAndInverseRoundTrip() {
        for (int n = 0; n < 200; n++) {
            Pose a = randomPose();
            Pose b = randomPose();
            Pose c = randomPose();
            assertPose(Pose.IDENTITY, a.compose(a.inverse()), TOL, "a a⁻¹");
            assertPose(Pose.IDENTITY, a.inverse().compose(a), TOL, "a⁻¹ a");
            assertPose(a, a.inverse().inverse(), TOL, "(a⁻¹)⁻¹");
            assertPose(a, a.compose(b).compose(b.inverse()), TOL, "a b b⁻¹");
            assertPose(a.compose(b).compose(c), a.compose(b.compose(c)), TOL, "associative");
            assertPose(b.inverse().compose(a.inverse()), a.compose(b).inverse(), TOL, "(a b)⁻¹ = b⁻¹ a⁻¹");
            assertPose(a, a.compose(Pose.IDENTITY), 0, "a 1");
            assertPose(a, Pose.IDENTITY.compose(a), 0, "1 a");
        }
    }

    @Test
    void composeMapsPointsLikeSuccessiveTransforms() {
        double[] y = new double[3];
        double[] z = new double[3];
        double[] w = new double[3];
        for (int n = 0; n < 200; n++) {
            Pose a = randomPose(); // C in P
            Pose b = randomPose(); // D in C
            double[] x = vector(3); // a point in D
            b.transformPoint(x, y);
            a.transformPoint(y, z);
            a.compose(b).transformPoint(x, w);
            assertArrayEquals(z, w, TOL, "point");
            a.inverse().transformPoint(z, w);
            assertArrayEquals(y, w, TOL, "inverse maps back");
            // directions ignore the translation
            a.rotateVector(x, y);
            double[] r = a.rotationArray();
            for (int i = 0; i < 3; i++) {
                assertEquals(r[3 * i] * x[0] + r[3 * i + 1] * x[1] + r[3 * i + 2] * x[2], y[i], 0);
            }
        }
    }

    @Test
    void transformPointByHand() {
        // child frame rotated a quarter turn about z and moved to (1, 2, 3): its x axis is the parent's y axis
        Pose p = Pose.fromXyzRpy(new double[] {1, 2, 3}, new double[] {0, 0, Math.PI / 2});
        double[] out = new double[3];
        p.transformPoint(new double[] {1, 0, 0}, out);
        assertArrayEquals(new double[] {1, 3, 3}, out, TOL);
        p.rotateVector(new double[] {1, 0, 0}, out);
        assertArrayEquals(new double[] {0, 1, 0}, out, TOL);
        // its inverse places the parent origin at R^T (-p) = (-2, 1, -3) in the child
        assertArrayEquals(new double[] {-2, 1, -3}, p.inverse().translationArray(), TOL);
        Pose t = Pose.translation(1, -2, 0.5);
        t.transformPoint(new double[] {1, 1, 1}, out);
        assertArrayEquals(new double[] {2, -1, 1.5}, out, 0);
    }

    @Test
    void fromXyzRpyUsesRotations() {
        double[] xyz = {0.1, 0.2, 0.3};
        double[] rpy = {0.4, -0.5, 0.6};
        Pose p = Pose.fromXyzRpy(xyz, rpy);
        assertArrayEquals(Rotations.fromRpy(0.4, -0.5, 0.6), p.rotationArray(), 0);
        assertArrayEquals(xyz, p.translationArray(), 0);
        assertEquals(p.rotationArray()[5], p.rotation(1, 2), 0);
        assertEquals(0.3, p.translation(2), 0);
    }

    @Test
    void valueSemantics() {
        double[] rot = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        double[] tr = {1, 2, 3};
        Pose p = Pose.of(rot, tr);
        rot[0] = 5;
        tr[0] = 5;
        assertEquals(1, p.rotation(0, 0), 0);
        assertEquals(1, p.translation(0), 0);
        p.rotationArray()[0] = 7;
        assertEquals(1, p.rotation(0, 0), 0);
        assertEquals(Pose.translation(1, 2, 3), p);
        assertEquals(Pose.translation(1, 2, 3).hashCode(), p.hashCode());
        assertNotEquals(Pose.translation(1, 2, 4), p);
        assertTrue(Pose.IDENTITY.isIdentity());
        assertTrue(Pose.translation(0, 0, 0).isIdentity());
        assertFalse(p.isIdentity());
        assertTrue(p.toString().contains("p=[1.0, 2.0, 3.0]"));
        assertThrows(IllegalArgumentException.class, () -> Pose.of(new double[8], new double[3]));
        assertThrows(IllegalArgumentException.class, () -> Pose.of(new double[9], new double[2]));
    }
}
