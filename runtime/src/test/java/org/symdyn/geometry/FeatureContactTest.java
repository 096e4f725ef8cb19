package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.spatial.Rotations;

/**
 * The multi-point manifolds of the GJK/EPA pairs ({@link FeatureContact} through {@link Narrowphase#manifold}),
 * against the closed forms of the geometry: a box given as a hull of its 8 corners resting flat on a box, on a hull
 * and on a half-space has the four corners of the overlap at the gap; tilted onto a vertex one point, onto an edge
 * two; a cylinder standing on a box has its points on the cap's rim at the gap, lying on it the two ends of its side
 * line; a prism hull stands on its 24-gon cap; a cylinder or capsule lying along a cylinder touches at the ends of
 * their common line; on random and stacked poses every point satisfies b − a = d n with a and b on the shapes'
 * boundaries and the deepest point is EPA's; and boxes as hulls get the box-box manifold.
 */
class FeatureContactTest {
    private static final double TOL = 1e-9;

    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    private final DistanceResult closest = new DistanceResult();

    private static ConvexHull hullOf(Box b) {
        return GjkEpaTest.boxHull(b);
    }

    @Test
    void theHullOfABoxHasSixSquareFacets() {
        ConvexHull h = hullOf(new Box(0.3, 0.2, 0.1));
        assertEquals(6, h.facetCount());
        for (int g = 0; g < 6; g++) {
            assertEquals(4, h.facetSize(g));
            double[] m = {h.facetNormal(g, 0), h.facetNormal(g, 1), h.facetNormal(g, 2)};
            int axis = Math.abs(m[0]) > 0.5 ? 0 : Math.abs(m[1]) > 0.5 ? 1 : 2;
            assertEquals(1, Math.abs(m[axis]), 1e-15);
            assertEquals(new double[] {0.3, 0.2, 0.1}[axis], h.facetOffset(g), 1e-15);
            // counter-clockwise seen from outside: (v1 − v0) × (v2 − v1) along the outward normal
            double[][] v = new double[4][3];
            for (int k = 0; k < 4; k++) {
                for (int i = 0; i < 3; i++) {
                    v[k][i] = h.vertex(h.facetVertex(g, k), i);
                }
                assertEquals(h.facetOffset(g), Exact.dot(m, v[k]), 1e-15, "corner on the facet's plane");
            }
            for (int k = 0; k < 4; k++) {
                double[] e = sub(v[(k + 1) % 4], v[k]), f = sub(v[(k + 2) % 4], v[(k + 1) % 4]);
                double[] c = {e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]};
                assertTrue(Exact.dot(c, m) > 0, "convex corner turning counter-clockwise");
            }
        }
    }

    @Test
    void aTurnedBoxInFloatCoordinatesWithPointsOnItsFacesHasSixConvexFacets() {
        // rounded to float like an STL file's: the points on a face are off its plane by ~1e-8 m, so quickhull keeps
        // them as vertices of slightly tilted triangles, which the facets merge
        Random random = new Random(5L);
        double[] r = Rotations.fromRpy(0.3, -0.7, 1.1);
        double[] h = {0.2, 0.15, 0.1};
        int extra = 40;
        double[] p = new double[3 * (8 + extra)];
        for (int i = 0; i < 8 + extra; i++) {
            double[] x = new double[3];
            for (int k = 0; k < 3; k++) {
                x[k] = (i < 8 ? ((i >> k & 1) == 0 ? -1 : 1) : 2 * random.nextDouble() - 1) * h[k];
            }
            if (i >= 8) {
                int axis = random.nextInt(3);
                x[axis] = random.nextBoolean() ? h[axis] : -h[axis]; // on a face
            }
            for (int k = 0; k < 3; k++) {
                p[3 * i + k] = (float) (0.5 + r[3 * k] * x[0] + r[3 * k + 1] * x[1] + r[3 * k + 2] * x[2]);
            }
        }
        ConvexHull hull = ConvexHull.of(p);
        assertTrue(hull.vertexCount() > 8, "face points kept as vertices: " + hull.vertexCount());
        assertEquals(6, hull.facetCount(), hull.toString());
        for (int g = 0; g < hull.facetCount(); g++) {
            double[] m = {hull.facetNormal(g, 0), hull.facetNormal(g, 1), hull.facetNormal(g, 2)};
            int size = hull.facetSize(g);
            for (int k = 0; k < size; k++) {
                double[] v0 = corner(hull, g, k), v1 = corner(hull, g, (k + 1) % size), v2 = corner(hull, g, (k + 2) % size);
                assertEquals(hull.facetOffset(g), Exact.dot(m, v0), 1e-7, "on the facet's plane");
                assertTrue(Exact.dot(m, v0) <= hull.facetOffset(g), "on or below");
                double[] e = sub(v1, v0), f = sub(v2, v1);
                double[] c = {e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]};
                assertTrue(Exact.dot(c, m) > -1e-9, "convex, counter-clockwise from outside");
            }
        }
        // resting on a box, 1e-4 m deep: the four corners of its lowest face
        Placement lifted = new Placement();
        ConvexHull base = hullOf(new Box(1, 1, 0.5));
        Placement flat = new Placement().set(transpose(r), 0, new double[3], 0); // the box's axes along the world's
        double low = Double.POSITIVE_INFINITY;
        double[] x = new double[3];
        for (int i = 0; i < hull.vertexCount(); i++) {
            for (int k = 0; k < 3; k++) {
                x[k] = hull.vertex(i, k);
            }
            flat.toWorld(x, x);
            low = Math.min(low, x[2]);
        }
        lifted.set(transpose(r), 0, new double[] {0, 0, 0.5 - low - 1e-4}, 0);
        narrowphase.manifold(base, new Placement(), hull, lifted, 1e-3, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(-1e-4, manifold.distance(k), 1e-7, "float coordinates: within their rounding");
        }
    }

    private static double[] corner(ConvexHull hull, int g, int k) {
        int v = hull.facetVertex(g, k);
        return new double[] {hull.vertex(v, 0), hull.vertex(v, 1), hull.vertex(v, 2)};
    }

    private static double[] transpose(double[] r) {
        return new double[] {r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]};
    }

    @Test
    void aHullBoxRestingFlatOnABoxOrAHullHasTheFourCornersOfTheOverlap() {
        Box lower = new Box(1, 1, 0.5), upper = new Box(0.25, 0.5, 0.25);
        Shape[] lowers = {lower, hullOf(lower)};
        Placement pa = new Placement();
        for (Shape base : lowers) {
            for (double gap : new double[] {0, 1e-4, -1e-4}) {
                // upper centred at (0.9, -0.2): its footprint [0.65, 1.15] x [-0.7, 0.3] overlaps [.., 1] x [..]
                Placement pb = new Placement().setTranslation(0.9, -0.2, 0.5 + 0.25 + gap);
                for (int order = 0; order < 2; order++) {
                    String label = base + " gap " + gap + " order " + order;
                    if (order == 0) {
                        narrowphase.manifold(base, pa, hullOf(upper), pb, 1e-3, manifold);
                    } else {
                        narrowphase.manifold(hullOf(upper), pb, base, pa, 1e-3, manifold);
                    }
                    double s = order == 0 ? 1 : -1; // n from the first shape to the second
                    assertEquals(4, manifold.count(), label);
                    assertEquals(s, manifold.normal(2), 1e-15, label);
                    double[][] expected = {{0.65, -0.7}, {1, -0.7}, {1, 0.3}, {0.65, 0.3}};
                    for (double[] corner : expected) {
                        int found = 0;
                        for (int k = 0; k < 4; k++) {
                            double[] upperPoint = order == 0 ? pointB(k) : pointA(k);
                            double[] lowerPoint = order == 0 ? pointA(k) : pointB(k);
                            if (Math.abs(upperPoint[0] - corner[0]) < TOL
                                    && Math.abs(upperPoint[1] - corner[1]) < TOL) {
                                found++;
                                assertEquals(gap, manifold.distance(k), TOL, label);
                                assertEquals(0.5, lowerPoint[2], TOL, label + ": on the lower top face");
                                assertEquals(0.5 + gap, upperPoint[2], TOL, label + ": on the upper bottom face");
                                assertEquals(corner[0], lowerPoint[0], TOL, label);
                                assertEquals(corner[1], lowerPoint[1], TOL, label);
                            }
                        }
                        assertEquals(1, found, label + ": corner " + corner[0] + ", " + corner[1]);
                    }
                }
            }
        }
        narrowphase.manifold(lower, pa, hullOf(upper), new Placement().setTranslation(0.9, -0.2, 0.75 + 2e-3), 1e-3,
                manifold);
        assertEquals(0, manifold.count(), "beyond the margin");
    }

    @Test
    void aTurnedHullBoxOnAHullBoxHasTheCornersOfTheTurnedSquare() {
        ConvexHull lower = hullOf(new Box(2, 2, 0.5)), upper = hullOf(new Box(0.5, 0.5, 0.5));
        double yaw = 0.3;
        Placement pb = new Placement().set(Rotations.fromRpy(0, 0, yaw), 0, new double[] {0.1, 0.2, 1 - 1e-5}, 0);
        narrowphase.manifold(lower, new Placement(), upper, pb, 0, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(-1e-5, manifold.distance(k), TOL);
            double x = manifold.pointB(k, 0) - 0.1, y = manifold.pointB(k, 1) - 0.2;
            double u = Math.cos(yaw) * x + Math.sin(yaw) * y, v = -Math.sin(yaw) * x + Math.cos(yaw) * y;
            assertEquals(0.5, Math.abs(u), TOL);
            assertEquals(0.5, Math.abs(v), TOL);
            assertEquals(0.5, manifold.pointA(k, 2), TOL);
        }
    }

    @Test
    void aHullBoxOnAHalfSpaceHasItsFourBottomCorners() {
        ConvexHull box = hullOf(new Box(0.3, 0.2, 0.1));
        narrowphase.manifold(box, new Placement().setTranslation(1, 2, 0.1 - 1e-4), HalfSpace.zUp(), new Placement(),
                0, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(-1e-4, manifold.distance(k), TOL);
            assertEquals(0.3, Math.abs(manifold.pointA(k, 0) - 1), TOL);
            assertEquals(0.2, Math.abs(manifold.pointA(k, 1) - 2), TOL);
            assertEquals(0, manifold.pointB(k, 2), TOL);
        }
    }

    @Test
    void aHullTiltedOntoAVertexHasOnePointAndOntoAnEdgeTwo() {
        Box table = new Box(2, 2, 0.5);
        Box block = new Box(0.3, 0.2, 0.1);
        ConvexHull hull = hullOf(block);
        // on a vertex: the lowest corner 1e-5 m deep
        double[] r = Rotations.fromRpy(0.3, 0.4, 0.2);
        double lowest = 0;
        for (int i = 0; i < 3; i++) {
            lowest += block.halfExtent(i) * Math.abs(r[6 + i]);
        }
        Placement tilted = new Placement().set(r, 0, new double[] {0.1, -0.2, 0.5 + lowest - 1e-5}, 0);
        for (Shape base : new Shape[] {table, hullOf(table)}) {
            narrowphase.manifold(base, new Placement(), hull, tilted, 1e-3, manifold);
            assertEquals(1, manifold.count(), base + ": a vertex");
            assertEquals(-1e-5, manifold.distance(0), TOL);
            assertEquals(0.5 - 1e-5, manifold.pointB(0, 2), TOL);
            assertEquals(1, manifold.normal(2), 1e-12);
        }
        // on an edge: tilted 0.01 rad about x, the edge along x 1e-6 m deep, the opposite edge 4e-3 m up
        double tilt = 0.01;
        double[] rt = Rotations.fromRpy(tilt, 0, 0);
        double low = 0.1 * Math.cos(tilt) + 0.2 * Math.sin(tilt);
        Placement edge = new Placement().set(rt, 0, new double[] {0.3, 0.1, 0.5 + low - 1e-6}, 0);
        for (Shape base : new Shape[] {table, hullOf(table)}) {
            narrowphase.manifold(base, new Placement(), hull, edge, 1e-3, manifold);
            assertEquals(2, manifold.count(), base + ": an edge");
            for (int k = 0; k < 2; k++) {
                assertEquals(-1e-6, manifold.distance(k), TOL);
                assertEquals(0.3, Math.abs(manifold.pointB(k, 0) - 0.3), TOL, "the edge's ends");
                assertEquals(0.5 - 1e-6, manifold.pointB(k, 2), TOL);
                assertEquals(0.5, manifold.pointA(k, 2), TOL);
            }
        }
    }

    @Test
    void aCylinderStandingOnABoxHasItsPointsOnTheCapRim() {
        Cylinder can = new Cylinder(0.1, 0.4);
        for (Shape base : new Shape[] {new Box(1, 1, 0.5), hullOf(new Box(1, 1, 0.5))}) {
            for (double gap : new double[] {0, 1e-4, -1e-4}) {
                Placement pc = new Placement().set(Rotations.fromRpy(0, 0, 0.7), 0,
                        new double[] {0.2, 0.1, 0.5 + 0.2 + gap}, 0);
                for (int order = 0; order < 2; order++) {
                    String label = base + " gap " + gap + " order " + order;
                    if (order == 0) {
                        narrowphase.manifold(base, new Placement(), can, pc, 1e-3, manifold);
                    } else {
                        narrowphase.manifold(can, pc, base, new Placement(), 1e-3, manifold);
                    }
                    assertEquals(4, manifold.count(), label);
                    double area = 0;
                    for (int k = 0; k < manifold.count(); k++) {
                        double[] rim = order == 0 ? pointB(k) : pointA(k);
                        double[] face = order == 0 ? pointA(k) : pointB(k);
                        assertEquals(gap, manifold.distance(k), TOL, label);
                        assertEquals(0.1, Math.hypot(rim[0] - 0.2, rim[1] - 0.1), TOL, label + ": on the rim");
                        assertEquals(0.5 + gap, rim[2], TOL, label);
                        assertEquals(0.5, face[2], TOL, label);
                        double[] next = order == 0 ? pointB((k + 1) % 4) : pointA((k + 1) % 4);
                        area = Math.max(area, Math.hypot(next[0] - rim[0], next[1] - rim[1]));
                    }
                    assertTrue(area > 0.1, label + ": the points spread over the cap");
                }
            }
        }
        // lying on its side: the two ends of the side line
        Placement lying = new Placement().set(Rotations.fromRpy(Math.PI / 2, 0, 0), 0,
                new double[] {0, 0, 0.5 + 0.1 - 1e-5}, 0);
        narrowphase.manifold(new Box(1, 1, 0.5), new Placement(), can, lying, 0, manifold);
        assertEquals(2, manifold.count());
        assertEquals(0.4, Math.abs(manifold.pointB(0, 1) - manifold.pointB(1, 1)), TOL, "one point per rim");
        for (int k = 0; k < 2; k++) {
            assertEquals(-1e-5, manifold.distance(k), TOL);
            assertEquals(0.5 - 1e-5, manifold.pointB(k, 2), TOL);
        }
        // tilted 0.3 rad: one point on the lower rim
        Placement tipped = new Placement().set(Rotations.fromRpy(0.3, 0, 0), 0,
                new double[] {0, 0, 0.5 + 0.2 * Math.cos(0.3) + 0.1 * Math.sin(0.3) - 1e-5}, 0);
        narrowphase.manifold(new Box(1, 1, 0.5), new Placement(), can, tipped, 1e-3, manifold);
        assertEquals(1, manifold.count());
        assertEquals(-1e-5, manifold.distance(0), 1e-9);
    }

    @Test
    void aPrismHullStandsOnItsPolygonalCapAndOnAnotherPrism() {
        int sides = 24;
        double radius = 0.1, half = 0.1;
        double[] p = new double[6 * sides];
        for (int k = 0; k < sides; k++) {
            double phi = 2 * Math.PI * k / sides;
            for (int end = 0; end < 2; end++) {
                p[6 * k + 3 * end] = radius * Math.cos(phi);
                p[6 * k + 3 * end + 1] = radius * Math.sin(phi);
                p[6 * k + 3 * end + 2] = end == 0 ? -half : half;
            }
        }
        ConvexHull prism = ConvexHull.of(p);
        assertEquals(sides + 2, prism.facetCount(), "two caps and the sides");
        Placement standing = new Placement().setTranslation(0.3, 0.2, 0.5 + half - 2e-5);
        narrowphase.manifold(new Box(1, 1, 0.5), new Placement(), prism, standing, 1e-3, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(-2e-5, manifold.distance(k), TOL);
            assertEquals(radius, Math.hypot(manifold.pointB(k, 0) - 0.3, manifold.pointB(k, 1) - 0.2), TOL,
                    "a corner of the cap");
        }
        // one prism on another, offset by 0.12: the lens where the caps overlap, reduced to four points
        Placement upper = new Placement().setTranslation(0.42, 0.2, 0.5 + 3 * half - 3e-5);
        narrowphase.manifold(prism, standing, prism, upper, 1e-3, manifold);
        assertEquals(4, manifold.count());
        for (int k = 0; k < 4; k++) {
            assertEquals(-1e-5, manifold.distance(k), TOL);
            double[] b = pointB(k);
            assertTrue(Math.hypot(b[0] - 0.3, b[1] - 0.2) <= radius + TOL, "over the lower cap");
            assertTrue(Math.hypot(b[0] - 0.42, b[1] - 0.2) <= radius + TOL, "on the upper cap");
            assertEquals(0.5 + 2 * half - 3e-5, b[2], TOL);
        }
    }

    @Test
    void roundSidesLyingAlongEachOtherTouchAtTheEndsOfTheirCommonLine() {
        Cylinder log = new Cylinder(0.1, 1);
        Placement lower = new Placement().set(Rotations.fromRpy(0, Math.PI / 2, 0), 0, new double[3], 0);
        for (Shape upper : new Shape[] {new Cylinder(0.05, 0.6), new Capsule(0.05, 0.6)}) {
            for (double pitch : new double[] {Math.PI / 2, -Math.PI / 2}) {
                // along x over [0.3, 0.9], 1e-5 m into the log: the common line is x in [0.3, 0.5]
                Placement pu = new Placement().set(Rotations.fromRpy(0, pitch, 0), 0,
                        new double[] {0.6, 0, 0.15 - 1e-5}, 0);
                String label = upper + " pitch " + pitch;
                narrowphase.manifold(log, lower, upper, pu, 1e-3, manifold);
                assertEquals(2, manifold.count(), label);
                assertEquals(1, manifold.normal(2), 1e-12, label);
                double[] xs = {manifold.pointA(0, 0), manifold.pointA(1, 0)};
                java.util.Arrays.sort(xs);
                assertEquals(0.3, xs[0], TOL, label);
                assertEquals(0.5, xs[1], TOL, label);
                for (int k = 0; k < 2; k++) {
                    assertEquals(-1e-5, manifold.distance(k), TOL, label);
                    assertEquals(0.1, manifold.pointA(k, 2), TOL, label + ": on the log's top line");
                    assertEquals(0.1 - 1e-5, manifold.pointB(k, 2), TOL, label + ": on the upper's bottom line");
                    assertEquals(0, manifold.pointB(k, 1), TOL, label);
                }
            }
            // crossed (along y): one point
            Placement crossed = new Placement().set(Rotations.fromRpy(Math.PI / 2, 0, 0), 0,
                    new double[] {0.2, 0, 0.15 - 1e-5}, 0);
            narrowphase.manifold(log, lower, upper, crossed, 1e-3, manifold);
            assertEquals(1, manifold.count(), upper + " crossed");
        }
    }

    @Test
    void everyPointSatisfiesTheConventionsAndTheDeepestIsEpas() {
        Random random = new Random(7L);
        double[] cloud = new double[3 * 20];
        for (int i = 0; i < cloud.length; i++) {
            cloud[i] = 0.3 * random.nextGaussian();
        }
        Shape[] shapes = {new Capsule(0.1, 0.4), new Box(0.3, 0.2, 0.1), new Cylinder(0.2, 0.3),
            hullOf(new Box(0.25, 0.15, 0.2)), ConvexHull.of(cloud)};
        int multi = 0;
        for (int trial = 0; trial < 4000; trial++) {
            Shape a = shapes[random.nextInt(shapes.length)], b = shapes[random.nextInt(shapes.length)];
            Placement pa = Exact.randomPlacement(random, 0.5), pb;
            if (trial % 2 == 0) {
                pb = Exact.randomPlacement(random, 0.5);
            } else {
                // stacked: B turned about A's axis k and set on A's face, a little apart or into it
                double[] r = new double[9];
                double[] turn = Rotations.fromRpy(0, 0, 2 * Math.PI * random.nextDouble());
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        for (int k = 0; k < 3; k++) {
                            r[3 * i + j] += pa.rotation(i, k) * turn[3 * k + j];
                        }
                    }
                }
                double up = Exact.support(a, pa, new double[] {pa.rotation(0, 2), pa.rotation(1, 2), pa.rotation(2, 2)})
                        - (pa.rotation(0, 2) * pa.translation(0) + pa.rotation(1, 2) * pa.translation(1)
                        + pa.rotation(2, 2) * pa.translation(2));
                Placement turned = new Placement().set(r, 0, new double[3], 0);
                double down = Exact.support(b, turned, new double[] {-pa.rotation(0, 2), -pa.rotation(1, 2),
                    -pa.rotation(2, 2)});
                double h = up + down + 2e-3 * (random.nextDouble() - 0.5);
                double sx = 0.2 * (random.nextDouble() - 0.5), sy = 0.2 * (random.nextDouble() - 0.5);
                double[] p = new double[3];
                for (int i = 0; i < 3; i++) {
                    p[i] = pa.translation(i) + pa.rotation(i, 0) * sx + pa.rotation(i, 1) * sy + pa.rotation(i, 2) * h;
                }
                pb = new Placement().set(r, 0, p, 0);
            }
            if ((a instanceof Capsule || a instanceof Box) && (b instanceof Capsule || b instanceof Box)) {
                continue; // closed forms, not the GJK/EPA pairs
            }
            narrowphase.distance(a, pa, b, pb, closest);
            narrowphase.manifold(a, pa, b, pb, 1e-3, manifold);
            String label = a + " " + b + " trial " + trial;
            if (closest.distance() > 1e-3) {
                assertEquals(0, manifold.count(), label);
                continue;
            }
            assertTrue(manifold.count() >= 1, label);
            boolean polytopes = !(a instanceof Capsule || a instanceof Cylinder || b instanceof Capsule
                    || b instanceof Cylinder);
            double deepest = Double.POSITIVE_INFINITY;
            double[] n = {manifold.normal(0), manifold.normal(1), manifold.normal(2)};
            assertEquals(1, Exact.norm(n), 1e-14, label);
            assertTrue(Exact.dot(n, new double[] {closest.normal(0), closest.normal(1), closest.normal(2)})
                    >= 1 - Narrowphase.ALIGNED_NORMALS, label + ": n is EPA's");
            boolean closestPair = manifold.count() == 1 && manifold.distance(0) == closest.distance()
                    && manifold.pointA(0, 0) == closest.pointA(0) && manifold.pointB(0, 0) == closest.pointB(0);
            if (closestPair && !polytopes) {
                continue; // GJK/EPA's own pair on curved shapes: an estimate, checked by GjkEpaTest
            }
            double tol = 1e-12;
            for (int k = 0; k < manifold.count(); k++) {
                double d = manifold.distance(k);
                double[] pA = pointA(k), pB = pointB(k);
                for (int i = 0; i < 3; i++) {
                    assertEquals(d * n[i], pB[i] - pA[i], tol, label + ": b − a = d n");
                }
                assertTrue(d <= 1e-3, label);
                if (!(a instanceof Capsule || b instanceof Capsule)) {
                    assertEquals(0, Exact.signedDistance(a, pa, pA), TOL, label + ": a on A");
                    assertEquals(0, Exact.signedDistance(b, pb, pB), TOL, label + ": b on B");
                }
                deepest = Math.min(deepest, d);
            }
            if (manifold.count() > 1) {
                multi++;
            }
            if (polytopes || closest.converged() && manifold.count() > 1) {
                assertEquals(closest.distance(), deepest, TOL, label + ": the deepest is EPA's");
            }
        }
        assertTrue(multi > 200, "multi-point manifolds met: " + multi);
    }

    @Test
    void boxesAsHullsGetTheBoxBoxManifold() {
        // two independent methods: separating axes and clipped box faces; GJK/EPA and clipped hull facets
        Random random = new Random(11L);
        ContactManifold boxes = new ContactManifold();
        int faces = 0;
        for (int trial = 0; trial < 2000; trial++) {
            Box a = new Box(0.1 + 0.3 * random.nextDouble(), 0.1 + 0.3 * random.nextDouble(),
                    0.1 + 0.3 * random.nextDouble());
            Box b = new Box(0.1 + 0.3 * random.nextDouble(), 0.1 + 0.3 * random.nextDouble(),
                    0.1 + 0.3 * random.nextDouble());
            Placement pa = Exact.randomPlacement(random, 0.5);
            Placement pb;
            if (trial % 2 == 0) {
                pb = Exact.randomPlacement(random, 0.5);
            } else {
                // B turned about A's z and resting on A's top face, within ±1 mm
                double[] turn = Rotations.fromRpy(0, 0, 2 * Math.PI * random.nextDouble());
                double[] r = new double[9];
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        for (int k = 0; k < 3; k++) {
                            r[3 * i + j] += pa.rotation(i, k) * turn[3 * k + j];
                        }
                    }
                }
                double h = a.halfExtent(2) + b.halfExtent(2) + 2e-3 * (random.nextDouble() - 0.5);
                double sx = 0.3 * (random.nextDouble() - 0.5), sy = 0.3 * (random.nextDouble() - 0.5);
                double[] p = new double[3];
                for (int i = 0; i < 3; i++) {
                    p[i] = pa.translation(i) + pa.rotation(i, 0) * sx + pa.rotation(i, 1) * sy + pa.rotation(i, 2) * h;
                }
                pb = new Placement().set(r, 0, p, 0);
            }
            narrowphase.manifold(a, pa, b, pb, 1e-3, boxes);
            narrowphase.manifold(hullOf(a), pa, hullOf(b), pb, 1e-3, manifold);
            String label = "trial " + trial;
            assertEquals(boxes.count() > 0, manifold.count() > 0, label);
            if (boxes.count() == 0) {
                continue;
            }
            double deepBoxes = Double.POSITIVE_INFINITY, deepHulls = Double.POSITIVE_INFINITY;
            for (int k = 0; k < boxes.count(); k++) {
                deepBoxes = Math.min(deepBoxes, boxes.distance(k));
            }
            for (int k = 0; k < manifold.count(); k++) {
                deepHulls = Math.min(deepHulls, manifold.distance(k));
            }
            assertEquals(deepBoxes, deepHulls, TOL, label + ": the deepest point");
            if (boxes.count() > 1) {
                faces++;
                assertEquals(boxes.count(), manifold.count(), label + ": points");
                for (int i = 0; i < 3; i++) {
                    assertEquals(boxes.normal(i), manifold.normal(i), 1e-12, label + ": n");
                }
            }
        }
        assertTrue(faces > 300, "face contacts met: " + faces);
    }

    private double[] pointA(int k) {
        return new double[] {manifold.pointA(k, 0), manifold.pointA(k, 1), manifold.pointA(k, 2)};
    }

    private double[] pointB(int k) {
        return new double[] {manifold.pointB(k, 0), manifold.pointB(k, 1), manifold.pointB(k, 2)};
    }

    private static double[] sub(double[] x, double[] y) {
        return new double[] {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    }
}
