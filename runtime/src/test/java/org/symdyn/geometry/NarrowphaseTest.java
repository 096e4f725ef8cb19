package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.spatial.Rotations;

/**
 * The dispatcher (every pair, both orders: reversed answers are the same distance with n negated and witnesses
 * exchanged) and the contact manifolds: faces resting on faces give their corners, exactly, with the distances of
 * the geometry (a box on a box, on a half-space; a cylinder and a capsule on a half-space), and the margin filters.
 */
class NarrowphaseTest {
    private static final double TOL = 1e-12;

    private final Random random = new Random(99L);
    private final Narrowphase narrowphase = new Narrowphase();
    private final DistanceResult ab = new DistanceResult();
    private final DistanceResult ba = new DistanceResult();
    private final ContactManifold manifold = new ContactManifold();

    @Test
    void everyPairInBothOrders() {
        Shape[] shapes = {new Sphere(0.3), new Capsule(0.2, 0.6), new Box(0.2, 0.3, 0.4), new Cylinder(0.25, 0.5),
            GjkEpaTest.boxHull(new Box(0.3, 0.2, 0.1)), new HalfSpace(0, 0, 1, 0)};
        for (int k = 0; k < 200; k++) {
            for (Shape a : shapes) {
                for (Shape b : shapes) {
                    if (a instanceof HalfSpace && b instanceof HalfSpace) {
                        continue;
                    }
                    Placement pa = Exact.randomPlacement(random, 0.5), pb = Exact.randomPlacement(random, 0.5);
                    narrowphase.distance(a, pa, b, pb, ab);
                    narrowphase.distance(b, pb, a, pa, ba);
                    String label = a + " " + b + " pose " + k;
                    boolean curvedIterative = ab.iterations() > 0 && (a instanceof Cylinder || b instanceof Cylinder
                            || a instanceof Sphere || b instanceof Sphere || a instanceof Capsule || b instanceof Capsule);
                    double tol = curvedIterative ? 1e-6 : 1e-9;
                    if (curvedIterative && ab.distance() < 0) {
                        continue; // EPA on curved shapes: an estimate from inside (GjkEpaTest)
                    }
                    assertEquals(ab.distance(), ba.distance(), tol, label);
                    if (ab.distance() > 1e-6 || ab.iterations() == 0) {
                        for (int i = 0; i < 3; i++) {
                            assertEquals(ab.normal(i), -ba.normal(i), Math.max(tol, 1e-12), label + " normal");
                        }
                    }
                    if (ab.iterations() == 0) {
                        Exact.certify(a, pa, b, pb, ab, TOL, label);
                    }
                }
            }
        }
    }

    @Test
    void halfSpacesAndMeshesAreRefused() {
        HalfSpace h = HalfSpace.zUp();
        TriangleMesh mesh = TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 2});
        Placement p = new Placement();
        assertThrows(IllegalArgumentException.class, () -> narrowphase.distance(h, p, h, p, ab));
        assertThrows(IllegalArgumentException.class, () -> narrowphase.distance(mesh, p, new Sphere(1), p, ab));
    }

    @Test
    void boxRestingOnABoxHasTheFourCornersOfTheOverlap() {
        Box lower = new Box(1, 1, 0.5), upper = new Box(0.25, 0.5, 0.25);
        Placement pa = new Placement();
        for (double gap : new double[] {0, 1e-4, -1e-4}) {
            // upper box centred at (0.9, -0.2): its footprint [0.65, 1.15] x [-0.7, 0.3] overlaps [.., 1] x [..].
            Placement pb = new Placement().setTranslation(0.9, -0.2, 0.5 + 0.25 + gap);
            narrowphase.manifold(lower, pa, upper, pb, 1e-3, manifold);
            assertEquals(4, manifold.count(), "gap " + gap);
            assertEquals(1, manifold.normal(2), TOL);
            double[][] expected = {{0.65, -0.7}, {1, -0.7}, {1, 0.3}, {0.65, 0.3}};
            for (double[] corner : expected) {
                boolean found = false;
                for (int k = 0; k < 4; k++) {
                    if (Math.abs(manifold.pointB(k, 0) - corner[0]) < TOL && Math.abs(manifold.pointB(k, 1) - corner[1]) < TOL) {
                        found = true;
                        assertEquals(gap, manifold.distance(k), TOL);
                        assertEquals(0.5, manifold.pointA(k, 2), TOL, "a on the lower box's top face");
                        assertEquals(0.5 + gap, manifold.pointB(k, 2), TOL, "b on the upper box's bottom face");
                    }
                }
                assertTrue(found, "corner " + corner[0] + ", " + corner[1] + " at gap " + gap);
            }
        }
        narrowphase.manifold(lower, pa, upper, new Placement().setTranslation(0.9, -0.2, 0.75 + 2e-3), 1e-3, manifold);
        assertEquals(0, manifold.count(), "beyond the margin");
    }

    @Test
    void boxTurnedOnABoxAndTiltedOnAnEdge() {
        Box lower = new Box(2, 2, 0.5), upper = new Box(0.5, 0.5, 0.5);
        double yaw = 0.3;
        double[] r = Rotations.fromRpy(0, 0, yaw);
        Placement pb = new Placement().set(r, 0, new double[] {0.1, 0.2, 1 - 1e-5}, 0);
        narrowphase.manifold(lower, new Placement(), upper, pb, 0, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(-1e-5, manifold.distance(k), TOL);
            // each point a corner of the turned square
            double x = manifold.pointB(k, 0) - 0.1, y = manifold.pointB(k, 1) - 0.2;
            double u = Math.cos(yaw) * x + Math.sin(yaw) * y, v = -Math.sin(yaw) * x + Math.cos(yaw) * y;
            assertEquals(0.5, Math.abs(u), 1e-12);
            assertEquals(0.5, Math.abs(v), 1e-12);
        }
        // Tilted about x by 0.2 rad resting on one edge (1e-6 m deep): two points along the edge.
        double tilt = 0.2;
        double[] rt = Rotations.fromRpy(tilt, 0, 0);
        double lowest = 0.5 * Math.cos(tilt) + 0.5 * Math.sin(tilt);
        Placement tilted = new Placement().set(rt, 0, new double[] {0, 0, 0.5 + lowest - 1e-6}, 0);
        narrowphase.manifold(lower, new Placement(), upper, tilted, 0, manifold);
        assertEquals(2, manifold.count());
        for (int k = 0; k < 2; k++) {
            assertEquals(-1e-6, manifold.distance(k), TOL);
            assertEquals(0.5, Math.abs(manifold.pointB(k, 0)), TOL);
        }
        // the normal is the lower box's top face's, the points the upper box's corners over it: face() names the side
        // whose face it is (what the step's derivatives read: the other side's points slide on it), either order
        assertEquals(1, manifold.face(), "A's face");
        narrowphase.manifold(upper, tilted, lower, new Placement(), 0, manifold);
        assertEquals(2, manifold.count());
        assertEquals(-1, manifold.face(), "B's face");
        narrowphase.manifold(new Sphere(0.2), new Placement().setTranslation(0, 0, 0.7 - 1e-6), lower, new Placement(), 0,
                manifold);
        assertEquals(1, manifold.count());
        assertEquals(-1, manifold.face(), "a ball over the box's top face: B's face");
        narrowphase.manifold(new Sphere(0.2), new Placement().setTranslation(2.1, 0, 0.6), lower, new Placement(), 0,
                manifold);
        assertEquals(1, manifold.count());
        assertEquals(0, manifold.face(), "a ball on the box's edge: no face");
    }

    /**
     * Equal boxes stacked, turned a little about the vertical and tilted by 1e-4 to 3e-4 rad, overhanging an edge:
     * their exact separating axis is an edge-edge axis within a few milliradians of the face normal (the distance's
     * normal), which alone gave one point where the faces overlap over a polygon, and a box of a settled pile rocked
     * on it. The manifold takes the face ({@link Narrowphase#MANIFOLD_FACE_TOLERANCE}): four points, the normal
     * a face normal of A or B, each distance its points' separation along it, the deepest no more than 1e-3 of the
     * bounding radius below the exact distance, and never above it. Boxes and boxes given as hulls (GJK/EPA and
     * {@code FeatureContact}), whose exact axes were as far off.
     */
    @Test
    void boxesTurnedAndTiltedByRoundingRestOnFourPoints() {
        Box cube = new Box(0.05, 0.05, 0.05);
        for (Shape box : new Shape[] {cube, GjkEpaTest.boxHull(cube)}) {
            restOnFourPoints(box);
        }
    }

    private void restOnFourPoints(Shape box) {
        double[][] cases = {{0.07, 2e-4, 1e-4, 0.06, 0.03}, {0.07, 2e-4, -1e-4, 0.06, 0}, {0.1, 3e-4, 2e-4, 0.07, 0.05},
            {0.05, -2e-4, 1e-4, -0.06, 0.02}};
        for (double[] c : cases) {
            double[] r = Rotations.fromRpy(c[1], c[2], c[0]);
            double low = 0;
            for (int k = 0; k < 8; k++) {
                low = Math.min(low, 0.05 * (r[6] * ((k & 1) * 2 - 1) + r[7] * ((k & 2) - 1) + r[8] * ((k & 4) / 2 - 1)));
            }
            Placement pb = new Placement().set(r, 0, new double[] {c[3], c[4], 0.05 - low - 1e-5}, 0);
            narrowphase.distance(box, new Placement(), box, pb, ab);
            assertTrue(Math.abs(ab.normal(2)) < 1 - 1e-9, "the exact axis is not A's face normal: " + ab.normal(2));
            narrowphase.manifold(box, new Placement(), box, pb, 1e-3, manifold);
            assertEquals(4, manifold.count(), box + " yaw " + c[0]);
            double alongA = Math.abs(manifold.normal(2));
            double alongB = Math.abs(manifold.normal(0) * r[2] + manifold.normal(1) * r[5] + manifold.normal(2) * r[8]);
            assertTrue(Math.abs(alongA - 1) <= TOL || Math.abs(alongB - 1) <= TOL, "a face normal: " + alongA + " "
                    + alongB);
            double deepest = Double.POSITIVE_INFINITY;
            for (int k = 0; k < 4; k++) {
                double along = 0;
                for (int i = 0; i < 3; i++) {
                    along += (manifold.pointB(k, i) - manifold.pointA(k, i)) * manifold.normal(i);
                }
                assertEquals(along, manifold.distance(k), TOL);
                deepest = Math.min(deepest, manifold.distance(k));
            }
            assertTrue(deepest <= ab.distance() + TOL && deepest >= ab.distance() - 1e-3 * 0.05 * Math.sqrt(3),
                    "deepest " + deepest + " against the exact " + ab.distance());
        }
    }

    @Test
    void capsulesLyingAlongAFaceOrACapsuleTouchAtBothEnds() {
        double[] alongX = Rotations.fromRpy(0, Math.PI / 2, 0);
        Capsule c = new Capsule(0.1, 1);
        Box table = new Box(2, 2, 0.5);
        // Lying on the table's top, 1e-4 m deep: its two ends.
        narrowphase.manifold(c, new Placement().set(alongX, 0, new double[] {0.3, 0.2, 0.6 - 1e-4}, 0), table,
                new Placement(), 0, manifold);
        assertEquals(2, manifold.count());
        assertEquals(-1, manifold.normal(2), TOL, "from the capsule down to the table");
        double[] xs = {manifold.pointA(0, 0), manifold.pointA(1, 0)};
        java.util.Arrays.sort(xs);
        assertEquals(-0.2, xs[0], TOL);
        assertEquals(0.8, xs[1], TOL);
        for (int k = 0; k < 2; k++) {
            assertEquals(-1e-4, manifold.distance(k), TOL);
            assertEquals(0.5, manifold.pointB(k, 2), TOL, "b on the table's top");
        }
        // Half over the edge of the table (x > 2): only the end over the table.
        narrowphase.manifold(c, new Placement().set(alongX, 0, new double[] {2.3, 0.2, 0.6 - 1e-4}, 0), table,
                new Placement(), 0, manifold);
        assertEquals(1, manifold.count());
        // Two parallel capsules, one on the other, overlapping along x in [0.7, 1]: the middle of the overlap and
        // its two ends.
        Capsule longer = new Capsule(0.1, 2), shorter = new Capsule(0.2, 1);
        narrowphase.manifold(longer, new Placement().set(alongX, 0, new double[] {0, 0, 0}, 0), shorter,
                new Placement().set(alongX, 0, new double[] {1.2, 0, 0.3 - 1e-5}, 0), 0, manifold);
        assertEquals(3, manifold.count());
        double[] at = new double[3];
        for (int k = 0; k < 3; k++) {
            assertEquals(-1e-5, manifold.distance(k), TOL);
            assertEquals(1, manifold.normal(2), TOL);
            at[k] = manifold.pointA(k, 0);
        }
        java.util.Arrays.sort(at);
        assertEquals(0.7, at[0], TOL);
        assertEquals(0.85, at[1], TOL);
        assertEquals(1.0, at[2], TOL);
    }

    @Test
    void shapesOnAHalfSpace() {
        HalfSpace ground = HalfSpace.zUp();
        Placement g = new Placement();
        // A box flat on the ground, 1e-4 m deep: its four bottom corners.
        narrowphase.manifold(new Box(0.3, 0.2, 0.1), new Placement().setTranslation(1, 2, 0.1 - 1e-4), ground, g, 0,
                manifold);
        assertEquals(4, manifold.count());
        assertEquals(-1, manifold.normal(2), TOL, "n from the box towards the ground");
        for (int k = 0; k < 4; k++) {
            assertEquals(-1e-4, manifold.distance(k), TOL);
            assertEquals(0.3, Math.abs(manifold.pointA(k, 0) - 1), TOL);
            assertEquals(0.2, Math.abs(manifold.pointA(k, 1) - 2), TOL);
            assertEquals(0, manifold.pointB(k, 2), TOL, "b on the plane");
        }
        // A cylinder standing: four rim points; lying: one point per cap.
        Cylinder c = new Cylinder(0.1, 0.4);
        narrowphase.manifold(ground, g, c, new Placement().setTranslation(0, 0, 0.2 + 1e-3), 2e-3, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(1e-3, manifold.distance(k), TOL);
            assertEquals(0.1, Math.hypot(manifold.pointB(k, 0), manifold.pointB(k, 1)), TOL);
        }
        double[] lying = Rotations.fromRpy(Math.PI / 2, 0, 0);
        narrowphase.manifold(ground, g, c, new Placement().set(lying, 0, new double[] {0, 0, 0.1}, 0), 0, manifold);
        assertEquals(2, manifold.count());
        assertEquals(0.4, Math.abs(manifold.pointB(0, 1) - manifold.pointB(1, 1)), TOL, "one point per cap");
        // A capsule lying: its two ends.
        Capsule s = new Capsule(0.05, 0.3);
        narrowphase.manifold(ground, g, s, new Placement().set(lying, 0, new double[] {0, 0, 0.04}, 0), 0, manifold);
        assertEquals(2, manifold.count());
        assertEquals(-0.01, manifold.distance(0), TOL);
        assertEquals(-0.01, manifold.distance(1), TOL);
    }
}
