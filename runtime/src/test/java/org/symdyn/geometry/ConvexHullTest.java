package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Quickhull on random clouds, on point sets full of coplanar, cospherical, duplicate and interior points, and on
 * degenerate sets that must be refused. Every hull is checked against the definition: closed (each edge shared by
 * exactly two faces, V − E + F = 2), convex (every vertex on or below every face plane), containing every input
 * point (within the documented ε), with vertices drawn from the input; volumes against the exact solid's.
 */
class ConvexHullTest {
    private final Random random = new Random(2026L);

    @Test
    void randomCloudsGiveClosedConvexHullsContainingEveryPoint() {
        for (int trial = 0; trial < 60; trial++) {
            int n = 4 + random.nextInt(trial < 30 ? 30 : 400);
            double[] p = new double[3 * n];
            for (int i = 0; i < p.length; i++) {
                p[i] = trial % 3 == 0 ? random.nextGaussian() : random.nextDouble() * 10 - 3;
            }
            checkHull(ConvexHull.of(p), p);
        }
    }

    @Test
    void pointsOnASphereAreAllVertices() {
        int n = 300;
        double[] p = new double[3 * n];
        for (int i = 0; i < n; i++) {
            double z = 2 * random.nextDouble() - 1, t = 2 * Math.PI * random.nextDouble();
            double s = Math.sqrt(1 - z * z);
            p[3 * i] = s * Math.cos(t);
            p[3 * i + 1] = s * Math.sin(t);
            p[3 * i + 2] = z;
        }
        ConvexHull hull = ConvexHull.of(p);
        checkHull(hull, p);
        assertEquals(n, hull.vertexCount());
    }

    @Test
    void aCubeGridKeepsOnlyItsEightCornersAndItsVolume() {
        // A 5x5x5 grid: coplanar points on every face, collinear points on every edge, interior points; each
        // point given twice.
        List<Double> list = new ArrayList<>();
        for (int copy = 0; copy < 2; copy++) {
            for (int i = 0; i <= 4; i++) {
                for (int j = 0; j <= 4; j++) {
                    for (int k = 0; k <= 4; k++) {
                        list.add(0.5 * i - 1);
                        list.add(0.25 * j);
                        list.add(0.75 * k + 2);
                    }
                }
            }
        }
        double[] p = list.stream().mapToDouble(Double::doubleValue).toArray();
        ConvexHull hull = ConvexHull.of(p);
        checkHull(hull, p);
        assertEquals(8, hull.vertexCount());
        assertEquals(12, hull.faceCount());
        assertEquals(2 * 1 * 3, volume(hull), 1e-12);
    }

    @Test
    void nearlyCoplanarAndNearlyCoincidentPointsGiveAValidHull() {
        // A cube grid and a pyramid over a dense square grid, each point jittered by up to 1e-12 m (far below the
        // tolerance: flat faces that are not quite flat), and clusters of points 1e-13 m apart.
        for (int trial = 0; trial < 20; trial++) {
            List<Double> list = new ArrayList<>();
            for (int i = 0; i <= 6; i++) {
                for (int j = 0; j <= 6; j++) {
                    for (int k = 0; k <= (trial % 2 == 0 ? 6 : 0); k++) {
                        list.add(i / 6.0 + 1e-12 * random.nextGaussian());
                        list.add(j / 6.0 + 1e-12 * random.nextGaussian());
                        list.add(k / 6.0 + 1e-12 * random.nextGaussian());
                    }
                }
            }
            if (trial % 2 == 1) {
                list.add(0.5);
                list.add(0.5);
                list.add(0.7);
            }
            for (int c = 0; c < 5; c++) {
                list.add(0.5 + 1e-13 * c);
                list.add(0.5);
                list.add(0.2);
            }
            double[] p = list.stream().mapToDouble(Double::doubleValue).toArray();
            ConvexHull hull = ConvexHull.of(p);
            checkHull(hull, p);
            double expected = trial % 2 == 0 ? 1 : 0.7 / 3;
            assertEquals(expected, volume(hull), 1e-9, "trial " + trial);
        }
    }

    @Test
    void aBoxGivesItsCorners() {
        ConvexHull hull = ConvexHull.of(-1, -2, -3, 1, -2, -3, -1, 2, -3, 1, 2, -3, -1, -2, 3, 1, -2, 3, -1, 2, 3, 1, 2, 3);
        assertEquals(8, hull.vertexCount());
        assertEquals(48, volume(hull), 1e-12);
        for (int f = 0; f < hull.faceCount(); f++) {
            double sum = Math.abs(hull.faceNormal(f, 0)) + Math.abs(hull.faceNormal(f, 1)) + Math.abs(hull.faceNormal(f, 2));
            assertEquals(1, sum, 1e-15, "box faces are axis aligned");
        }
    }

    @Test
    void degeneratePointSetsAreRefused() {
        ShapesTest.assertMessage("convex hull needs at least 4 points, got 3", () -> ConvexHull.of(0, 0, 0, 1, 0, 0, 0, 1, 0));
        ShapesTest.assertMessage("convex hull: all 5 points coincide",
                () -> ConvexHull.of(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3));
        ShapesTest.assertMessage("convex hull point 2 has a non-finite coordinate z = NaN",
                () -> ConvexHull.of(0, 0, 0, 1, 0, 0, 0, 1, Double.NaN, 0, 0, 1));
        IllegalArgumentException collinear = assertThrows(IllegalArgumentException.class,
                () -> ConvexHull.of(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0.5, 0.5, 0.5));
        assertTrue(collinear.getMessage().startsWith("convex hull: the 5 points are collinear within"),
                collinear.getMessage());
        double[] flat = new double[3 * 50];
        for (int i = 0; i < 50; i++) {
            double u = random.nextDouble(), v = random.nextDouble();
            flat[3 * i] = u;
            flat[3 * i + 1] = v;
            flat[3 * i + 2] = 0.3 * u - 0.2 * v + 1;
        }
        IllegalArgumentException coplanar = assertThrows(IllegalArgumentException.class, () -> ConvexHull.of(flat));
        assertTrue(coplanar.getMessage().startsWith("convex hull: the 50 points are coplanar within"),
                coplanar.getMessage());
    }

    @Test
    void nearlyFlatButThickEnoughIsAHull() {
        double[] p = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1e-6};
        ConvexHull hull = ConvexHull.of(p);
        checkHull(hull, p);
        assertEquals(4, hull.vertexCount());
    }

    /** Closed, convex, containing the points, vertices from the input. */
    static void checkHull(ConvexHull hull, double[] points) {
        double diagonal = diagonal(points);
        double eps = Quickhull.RELATIVE_TOLERANCE * diagonal;
        int f = hull.faceCount();
        Set<Long> edges = new HashSet<>();
        for (int t = 0; t < f; t++) {
            for (int k = 0; k < 3; k++) {
                long a = hull.faceVertex(t, k), b = hull.faceVertex(t, (k + 1) % 3);
                assertTrue(edges.add(a * 1_000_000 + b), "directed edge used twice");
            }
        }
        for (long e : edges) {
            long a = e / 1_000_000, b = e % 1_000_000;
            assertTrue(edges.contains(b * 1_000_000 + a), "edge without its opposite");
        }
        assertEquals(2, hull.vertexCount() - edges.size() / 2 + f, "Euler characteristic");
        for (int t = 0; t < f; t++) {
            double[] n = {hull.faceNormal(t, 0), hull.faceNormal(t, 1), hull.faceNormal(t, 2)};
            assertEquals(1, Math.sqrt(ShapesTest.dot(n, n)), 1e-14);
            for (int i = 0; i < points.length / 3; i++) {
                double h = n[0] * points[3 * i] + n[1] * points[3 * i + 1] + n[2] * points[3 * i + 2] - hull.faceOffset(t);
                assertTrue(h <= 4 * eps, "point " + i + " above face " + t + " by " + h);
            }
        }
        for (int v = 0; v < hull.vertexCount(); v++) {
            boolean found = false;
            for (int i = 0; i < points.length / 3 && !found; i++) {
                found = hull.vertex(v, 0) == points[3 * i] && hull.vertex(v, 1) == points[3 * i + 1]
                        && hull.vertex(v, 2) == points[3 * i + 2];
            }
            assertTrue(found, "vertex " + v + " is not an input point");
        }
    }

    /** The volume by the divergence theorem over the triangles (each a tetrahedron with the origin). */
    static double volume(ConvexHull hull) {
        double v = 0;
        for (int t = 0; t < hull.faceCount(); t++) {
            double[][] c = new double[3][3];
            for (int k = 0; k < 3; k++) {
                for (int j = 0; j < 3; j++) {
                    c[k][j] = hull.vertex(hull.faceVertex(t, k), j);
                }
            }
            v += (c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0])
                    + c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0])) / 6;
        }
        return v;
    }

    private static double diagonal(double[] p) {
        double s = 0;
        for (int k = 0; k < 3; k++) {
            double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
            for (int i = k; i < p.length; i += 3) {
                lo = Math.min(lo, p[i]);
                hi = Math.max(hi, p[i]);
            }
            s += (hi - lo) * (hi - lo);
        }
        return Math.sqrt(s);
    }

    @Test
    void largeHullsClimbToTheSameSupportValueAsAScanAndFindTheSamePlaneContacts() {
        Random rnd = new Random(17);
        HalfSpaceContact planes = new HalfSpaceContact();
        ContactManifold fast = new ContactManifold();
        for (int trial = 0; trial < 20; trial++) {
            int n = 50 + rnd.nextInt(900);
            double[] p = new double[3 * n];
            for (int i = 0; i < n; i++) {
                // points on a squashed, noisy ellipsoid: many hull vertices, some flat parts
                double u = rnd.nextGaussian(), v = rnd.nextGaussian(), w = rnd.nextGaussian();
                double r = Math.sqrt(u * u + v * v + w * w);
                p[3 * i] = 0.1 * u / r;
                p[3 * i + 1] = 0.05 * v / r;
                p[3 * i + 2] = Math.max(-0.02, 0.03 * w / r) + 1e-4 * rnd.nextDouble();
            }
            ConvexHull hull = ConvexHull.of(p);
            assertTrue(hull.vertexCount() >= ConvexHull.CLIMB_FROM, "a hull large enough to climb");
            double[] out = new double[3];
            for (int q = 0; q < 200; q++) {
                double dx = rnd.nextGaussian(), dy = rnd.nextGaussian(), dz = rnd.nextGaussian();
                hull.support(dx, dy, dz, out);
                double best = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < hull.vertexCount(); i++) {
                    best = Math.max(best, dx * hull.vertex(i, 0) + dy * hull.vertex(i, 1) + dz * hull.vertex(i, 2));
                }
                assertEquals(best, dx * out[0] + dy * out[1] + dz * out[2], 1e-15 * (1 + Math.abs(best)),
                        "the climb reaches the maximum");
            }
            // a plane under the hull at a random tilt, near its lowest part
            Placement place = new Placement().setTranslation(0.3, -0.2, 0.015 + 0.015 * rnd.nextDouble());
            double margin = 0.005;
            HalfSpace ground = new HalfSpace(0.05 * rnd.nextGaussian(), 0.05 * rnd.nextGaussian(), 1, 0);
            planes.manifold(ground, new Placement(), hull, place, margin, fast);
            double[] x = new double[3];
            double deepest = Double.POSITIVE_INFINITY;
            for (int i = 0; i < hull.vertexCount(); i++) {
                x[0] = hull.vertex(i, 0);
                x[1] = hull.vertex(i, 1);
                x[2] = hull.vertex(i, 2);
                place.toWorld(x, x);
                deepest = Math.min(deepest, ground.normal(0) * x[0] + ground.normal(1) * x[1]
                        + ground.normal(2) * x[2]);
            }
            if (deepest > margin) {
                assertEquals(0, fast.count(), "no vertex within the margin: no contact");
            } else {
                assertEquals(deepest, fast.distance(0), 1e-15, "the first point is the deepest vertex");
                assertTrue(fast.count() >= 1 && fast.count() <= ContactManifold.CAPACITY);
            }
        }
    }
}
