package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Poses a probing helper found answered wrongly: a point on a capsule's axis (the direction to it is rounding),
 * boxes stacked deep with rounding tilts, and EPA on polytopes with coplanar faces. Each is checked against what the
 * result promises ({@link DistanceResult}): a unit normal, and moving B by −d n leaves the shapes touching; witnesses
 * on the shapes.
 */
class DegenerateContactsTest {
    private static final double[] IDENTITY = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    private final Narrowphase narrowphase = new Narrowphase();
    private final DistanceResult result = new DistanceResult();
    private final DistanceResult after = new DistanceResult();

    private static Placement at(double[] r, double x, double y, double z) {
        return new Placement().set(r, 0, new double[] {x, y, z}, 0);
    }

    /** The result is a unit normal, and B moved by −d n touches A (distance 0 within 1e-12 of the sizes). */
    private void assertEscapes(Shape a, Placement pa, Shape b, Placement pb, double[] rb, String what) {
        narrowphase.distance(a, pa, b, pb, result);
        double nx = result.normal(0), ny = result.normal(1), nz = result.normal(2);
        assertEquals(1, Math.sqrt(nx * nx + ny * ny + nz * nz), 1e-12, what + ": unit normal, got " + result);
        double d = result.distance();
        Placement moved = at(rb, pb.p[0] - d * nx, pb.p[1] - d * ny, pb.p[2] - d * nz);
        narrowphase.distance(a, pa, b, moved, after);
        assertEquals(0, after.distance(), 1e-12, what + ": B moved by -d n from " + result);
    }

    @Test
    void aSphereCentredOnACapsulesAxisIsPushedAwayFromIt() {
        Capsule capsule = new Capsule(0.1, 1);
        Sphere sphere = new Sphere(0.1);
        // the helper's centres (NaN normals at 0.3, 0.05 and 1/3), the segment's ends and beyond them on the axis
        for (double z : new double[] {0.3, 0.05, 1.0 / 3, 0.1 + 0.2, 0.5, -0.5, 0.5 + 1e-17, 0}) {
            assertEscapes(sphere, at(IDENTITY, 0.1, 0.2, z), capsule, at(IDENTITY, 0.1, 0.2, 0), IDENTITY,
                    "sphere at z = " + z);
            assertEquals(-0.2, result.distance(), 1e-15, "z = " + z);
        }
        // a sphere centred on a segment end of a capsule in a random pose: the helper found 1,646 of 20,000 normals
        // that did not separate the shapes (rounding noise for a direction)
        Random rnd = new Random(4);
        for (int trial = 0; trial < 2000; trial++) {
            double[] r = randomRotation(rnd);
            double[] p = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            double end = rnd.nextBoolean() ? 0.5 : -0.5;
            double[] c = {p[0] + end * r[2], p[1] + end * r[5], p[2] + end * r[8]};
            assertEscapes(sphere, at(IDENTITY, c[0], c[1], c[2]), capsule, at(r, p[0], p[1], p[2]), r,
                    "trial " + trial);
        }
    }

    @Test
    void collinearOverlappingCapsulesGetANormalAcrossTheirAxis() {
        double[] flip = {-1, 0, 0, 0, 1, 0, 0, 0, -1};
        Capsule a = new Capsule(0.05, 0.4);
        Capsule b = new Capsule(0.05, 0.1);
        double[][] cases = {{0, 0, 0, 0, 0, 0.05}, {0, 0.15, -0.05, 0, 0.15, 0}, {0, 0, 0, 0, 0, 0.3},
            {0.1, 0.2, 0, 0.1, 0.2, 0.3}};
        ContactManifold m = new ContactManifold();
        for (double[] c : cases) {
            Placement pa = at(flip, c[0], c[1], c[2]);
            Placement pb = at(IDENTITY, c[3], c[4], c[5]);
            assertEscapes(a, pa, b, pb, IDENTITY, "capsules " + java.util.Arrays.toString(c));
            narrowphase.manifold(a, pa, b, pb, 0.01, m);
            assertTrue(m.count() > 0 && Double.isFinite(m.normal(0) + m.normal(1) + m.normal(2)),
                    "manifold normal " + m.normal(0) + ", " + m.normal(1) + ", " + m.normal(2));
        }
        // a capsule whose axis passes through the other's end point: the common perpendicular separates them
        Random rnd = new Random(1);
        Capsule wide = new Capsule(0.2, 0.1);
        for (int trial = 0; trial < 2000; trial++) {
            double[] ra = randomRotation(rnd);
            double[] rb = randomRotation(rnd);
            double[] pa = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            double[] end = {pa[0] + 0.05 * ra[2], pa[1] + 0.05 * ra[5], pa[2] + 0.05 * ra[8]};
            double s = 0.1 * rnd.nextGaussian();
            double[] pb = {end[0] + s * rb[2], end[1] + s * rb[5], end[2] + s * rb[8]};
            assertEscapes(wide, at(ra, pa[0], pa[1], pa[2]), b, at(rb, pb[0], pb[1], pb[2]), rb, "trial " + trial);
        }
    }

    /**
     * Two boxes tilted by rounding (1e-6 rad), the upper sunk 4.1 mm: the helper's pose stood on one point of an edge
     * axis; a face stands on four.
     */
    @Test
    void aBoxSunkIntoABoxIsHeldAtFourPoints() {
        double[] ra = {-0.004255307877412019, -0.9999909461361373, -7.882497703315623E-7, 0.9999909461362854,
            -0.004255307876960509, -5.735869414357334E-7, 5.70227502800948E-7, -7.906834226558408E-7,
            0.9999999999995248};
        double[] rb = {0.8368953448369133, -0.5473629342488799, -8.719246855194723E-7, 0.5473629342487177,
            0.8368953448373601, -4.3598970468937615E-7, 9.68354314421105E-7, -1.1238150005846946E-7,
            0.9999999999995248};
        Box a = new Box(0.16881389741652186, 0.22736229860577292, 0.06435609569552506);
        Box b = new Box(0.15663322805150703, 0.2376948939310953, 0.13466145539145574);
        Placement pa = at(ra, -0.009845737327217328, 0.0026543315271484523, 0.0);
        ContactManifold m = new ContactManifold();
        for (double lift : new double[] {0, 0.004, 0.0041}) {
            Placement pb = at(rb, 0.0014433100492241787, 0.034898797561136286, 0.19487226128577956 + lift);
            narrowphase.manifold(a, pa, b, pb, 1e-3, m);
            assertEquals(4, m.count(), "lifted " + lift);
            assertEquals(1, m.normal(2), 1e-9, "along the faces' normal");
        }
    }

    /**
     * A cylinder in a box-shaped hull turned by a quarter turn, and two box hulls at 45° and 90°: depth and normal
     * were right, but EPA's witnesses lay 0.1 m and 1.5 mm outside the shapes (the nearest face of a plane that several
     * coplanar faces share did not hold the point nearest the origin).
     */
    @Test
    void epaWitnessesLieOnTheShapes() {
        ConvexHull hull = boxHull(0.1, 0.15000000000000002, 0.15000000000000002);
        Cylinder cylinder = new Cylinder(0.05, 0.4);
        double[] half = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
        double[] quarter = {0, -1, 0, 1, 0, 0, 0, 0, 1};
        Placement pc = at(half, 0.15000000000000005, -0.09999999999999999, 0.15000000000000005);
        Placement ph = at(quarter, 0.15000000000000005, -0.04999999999999999, -0.09999999999999999);
        narrowphase.distance(cylinder, pc, hull, ph, result);
        assertEquals(-0.1, result.distance(), 1e-9);
        assertOnBox(result, 1, ph, new double[] {0.1, 0.15, 0.15}, "hull witness");
        double[] r45 = {0.7071067811865476, 0.0, 0.7071067811865476, 0.7071067811865476, 0.0, -0.7071067811865476,
            0.0, 1.0, 0.0};
        double[] r90 = {-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, -1.0, 0.0};
        Placement p1 = at(r45, -0.09999999999999999, 0.15000000000000005, 0.15000000000000005);
        Placement p2 = at(r90, -0.09999999999999999, 0.05000000000000002, 2.7755575615628914E-17);
        narrowphase.distance(boxHull(0.05, 0.05, 0.1), p1, boxHull(0.1, 0.2, 0.2), p2, result);
        assertOnBox(result, 0, p1, new double[] {0.05, 0.05, 0.1}, "A's witness");
        assertOnBox(result, 1, p2, new double[] {0.1, 0.2, 0.2}, "B's witness");
        double[] e = new double[3];
        for (int i = 0; i < 3; i++) {
            e[i] = result.pointB(i) - result.pointA(i) - result.distance() * result.normal(i);
        }
        assertEquals(0, Math.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]), 1e-12, "b − a = d n");
    }

    /** The witness (0: A's, 1: B's) inside the box of half extents h placed at p, within 1e-9 m. */
    private static void assertOnBox(DistanceResult r, int which, Placement p, double[] h, String what) {
        double[] w = new double[3];
        for (int i = 0; i < 3; i++) {
            w[i] = (which == 0 ? r.pointA(i) : r.pointB(i)) - p.p[i];
        }
        for (int axis = 0; axis < 3; axis++) {
            double local = p.r[axis] * w[0] + p.r[3 + axis] * w[1] + p.r[6 + axis] * w[2];
            assertTrue(Math.abs(local) <= h[axis] + 1e-9, what + ": local " + axis + " = " + local + " beyond "
                    + h[axis] + " (" + r + ")");
        }
    }

    private static ConvexHull boxHull(double a, double b, double c) {
        double[] p = new double[24];
        for (int i = 0, k = 0; i < 8; i++) {
            p[k++] = (i & 1) == 0 ? -a : a;
            p[k++] = (i & 2) == 0 ? -b : b;
            p[k++] = (i & 4) == 0 ? -c : c;
        }
        return ConvexHull.of(p);
    }

    private static double[] randomRotation(Random rnd) {
        double x = rnd.nextGaussian(), y = rnd.nextGaussian(), z = rnd.nextGaussian(), w = rnd.nextGaussian();
        double n = Math.sqrt(x * x + y * y + z * z + w * w);
        x /= n;
        y /= n;
        z /= n;
        w /= n;
        return new double[] {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
            2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    }
}
