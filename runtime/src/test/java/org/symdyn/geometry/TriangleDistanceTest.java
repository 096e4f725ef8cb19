package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A static mesh's triangles against moving shapes: a sphere (closed form) against the distance of its centre to the
 * triangle computed here (the plane when the projection falls inside, else the nearest edge) within 1e-12 m; a box
 * (GJK/EPA) certified when apart and, overlapping, against the least overlap over the triangle's normal, the box's
 * faces and the products of their edges, within 1e-9 m.
 */
class TriangleDistanceTest {
    private final Random random = new Random(77L);
    private final Narrowphase narrowphase = new Narrowphase();
    private final DistanceResult result = new DistanceResult();

    private double[] triangleWorld(TriangleMesh m, Placement p, int t) {
        double[] w = new double[9];
        for (int c = 0; c < 3; c++) {
            double[] x = {m.vertex(m.triangleVertex(t, c), 0), m.vertex(m.triangleVertex(t, c), 1),
                m.vertex(m.triangleVertex(t, c), 2)};
            p.toWorld(x, x);
            System.arraycopy(x, 0, w, 3 * c, 3);
        }
        return w;
    }

    private TriangleMesh randomMesh() {
        double[] v = new double[9];
        for (int i = 0; i < 9; i++) {
            v[i] = random.nextGaussian() * 0.5;
        }
        return TriangleMesh.of(v, new int[] {0, 1, 2});
    }

    /** The distance of x to the triangle (v0, v1, v2): the plane if x projects inside it, else the nearest edge. */
    static double pointTriangle(double[] x, double[] w) {
        double[] a = {w[0], w[1], w[2]}, b = {w[3], w[4], w[5]}, c = {w[6], w[7], w[8]};
        double[] u = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double[] n = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        double nn = Exact.dot(n, n);
        double[] r = {x[0] - a[0], x[1] - a[1], x[2] - a[2]};
        // barycentric coordinates of the projection: (r × v) · n / nn and (u × r) · n / nn
        double[] rv = {r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2], r[0] * v[1] - r[1] * v[0]};
        double[] ur = {u[1] * r[2] - u[2] * r[1], u[2] * r[0] - u[0] * r[2], u[0] * r[1] - u[1] * r[0]};
        double s = Exact.dot(rv, n) / nn, t = Exact.dot(ur, n) / nn;
        if (s >= 0 && t >= 0 && s + t <= 1) {
            return Math.abs(Exact.dot(r, n)) / Math.sqrt(nn);
        }
        return Math.min(Exact.segmentDistance(x, a, b), Math.min(Exact.segmentDistance(x, b, c),
                Exact.segmentDistance(x, c, a)));
    }

    @Test
    void sphereAgainstTriangles() {
        int overlapping = 0;
        for (int k = 0; k < 5000; k++) {
            TriangleMesh m = randomMesh();
            Placement pm = Exact.randomPlacement(random, 0.3), ps = Exact.randomPlacement(random, 0.6);
            Sphere s = new Sphere(0.05 + 0.3 * random.nextDouble());
            narrowphase.triangleDistance(m, 0, pm, s, ps, result);
            double[] w = triangleWorld(m, pm, 0);
            double[] c = ClosedFormsTest.centre(ps);
            String label = "pose " + k;
            assertEquals(pointTriangle(c, w) - s.radius(), result.distance(), 1e-12, label);
            double[] a = {result.pointA(0), result.pointA(1), result.pointA(2)};
            double[] b = {result.pointB(0), result.pointB(1), result.pointB(2)};
            assertEquals(0, pointTriangle(a, w), 1e-12, label + ": a on the triangle");
            assertEquals(0, Exact.signedDistance(s, ps, b), 1e-12, label + ": b on the sphere");
            for (int i = 0; i < 3; i++) {
                assertEquals(result.distance() * result.normal(i), b[i] - a[i], 1e-12, label);
            }
            if (result.distance() < 0) {
                overlapping++;
            }
        }
        assertTrue(overlapping > 300, overlapping + " overlapping");
    }

    @Test
    void boxAgainstTriangles() {
        int overlapping = 0;
        for (int k = 0; k < 3000; k++) {
            TriangleMesh m = randomMesh();
            Placement pm = Exact.randomPlacement(random, 0.3), pb = Exact.randomPlacement(random, 0.5);
            Box box = new Box(0.05 + 0.3 * random.nextDouble(), 0.05 + 0.3 * random.nextDouble(),
                    0.05 + 0.3 * random.nextDouble());
            narrowphase.triangleDistance(m, 0, pm, box, pb, result);
            String label = "pose " + k + " " + result;
            assertTrue(result.converged(), label);
            double[] w = triangleWorld(m, pm, 0);
            double[] n = {result.normal(0), result.normal(1), result.normal(2)};
            double[] a = {result.pointA(0), result.pointA(1), result.pointA(2)};
            double[] b = {result.pointB(0), result.pointB(1), result.pointB(2)};
            for (int i = 0; i < 3; i++) {
                assertEquals(result.distance() * n[i], b[i] - a[i], 1e-9, label);
            }
            assertEquals(0, pointTriangle(a, w), 1e-9, label + ": a on the triangle");
            assertEquals(0, Exact.signedDistance(box, pb, b), 1e-9, label + ": b on the box");
            assertEquals(triangleSupport(w, n), Exact.dot(n, a), 1e-9, label + ": a supports the triangle");
            assertEquals(-Exact.support(box, pb, new double[] {-n[0], -n[1], -n[2]}), Exact.dot(n, b), 1e-9,
                    label + ": b supports the box");
            if (result.distance() < 0) {
                overlapping++;
                assertEquals(leastOverlap(w, box, pb), -result.distance(), 1e-9, label + ": depth");
            }
        }
        assertTrue(overlapping > 300, overlapping + " overlapping");
    }

    /**
     * A cylinder lying 6 cm from a triangle of a 5 cm terrain grid (a state a drop onto a roof reached): GJK, creeping
     * along the cylinder's rim, ended with a tetrahedron whose three rim points lay within 4e-7 m of each other, and
     * rounding in that needle called the origin enclosed: 9.6 mm of overlap along the cylinder's axis, 6 cm away. The
     * distance here is the least over 2 million points of the triangle of their distance to the cylinder, to 1e-6
     * m (the sampling's spacing gives about 3e-5 m; the closest pair itself is certified as apart by GJK's bounds).
     */
    @Test
    void aCylinderBesideATriangleIsApartWhateverTheRoundingOfItsSimplex() {
        double[] q = {-0.04289487127088219, 0.051954379893375015, 0.046776714781207755, -0.23376914871728527,
            -0.9642318454891596, -0.0909773136123466, -0.0856274585658477};
        double[] rot = new double[9];
        org.symdyn.spatial.Rotations.fromQuaternion(q[3], q[4], q[5], q[6], rot);
        Placement pc = new Placement().set(rot, 0, q, 0);
        TriangleMesh m = TriangleMesh.of(new double[] {0.0, -0.04999999999999993, 0.0, 0.050000000000000044,
            -0.04999999999999993, -0.10000000000000009, 0.050000000000000044, 0.0, -0.10000000000000009},
                new int[] {0, 1, 2});
        narrowphase.triangleDistance(m, 0, new Placement(), new Cylinder(0.05, 0.1), pc, result);
        double least = Double.POSITIVE_INFINITY;
        int n = 2000;
        for (int i = 0; i <= n; i++) {
            for (int j = 0; i + j <= n; j++) {
                double[] x = new double[3];
                for (int c = 0; c < 3; c++) {
                    x[c] = m.vertex(0, c) + (m.vertex(1, c) - m.vertex(0, c)) * i / n
                            + (m.vertex(2, c) - m.vertex(0, c)) * j / n;
                }
                pc.toLocal(x, x);
                double radial = Math.hypot(x[0], x[1]) - 0.05, axial = Math.abs(x[2]) - 0.05;
                least = Math.min(least, radial > 0 && axial > 0 ? Math.hypot(radial, axial)
                        : Math.max(radial, axial));
            }
        }
        assertTrue(least > 0.059, "the sampled distance " + least);
        assertTrue(result.distance() > 0, "apart, not overlapping by " + -result.distance());
        assertTrue(result.distance() <= least + 1e-12 && result.distance() >= least - 1e-4,
                "distance " + result.distance() + ", sampled " + least);
    }

    @Test
    void onlyConvexShapesMeetATriangle() {
        TriangleMesh m = randomMesh();
        assertThrows(IllegalArgumentException.class,
                () -> narrowphase.triangleDistance(m, 0, new Placement(), HalfSpace.zUp(), new Placement(), result));
    }

    private static double triangleSupport(double[] w, double[] m) {
        return Math.max(m[0] * w[0] + m[1] * w[1] + m[2] * w[2], Math.max(m[0] * w[3] + m[1] * w[4] + m[2] * w[5],
                m[0] * w[6] + m[1] * w[7] + m[2] * w[8]));
    }

    /** The penetration depth of a triangle and a box: the least overlap over their separating axes. */
    private static double leastOverlap(double[] w, Box box, Placement pb) {
        List<double[]> axes = new ArrayList<>();
        double[][] edges = new double[3][];
        for (int c = 0; c < 3; c++) {
            int d = (c + 1) % 3;
            edges[c] = new double[] {w[3 * d] - w[3 * c], w[3 * d + 1] - w[3 * c + 1], w[3 * d + 2] - w[3 * c + 2]};
        }
        axes.add(cross(edges[0], edges[1]));
        for (int i = 0; i < 3; i++) {
            double[] u = new double[3];
            Exact.axis(pb, i, u);
            axes.add(u);
            for (double[] e : edges) {
                axes.add(cross(e, u));
            }
        }
        double least = Double.POSITIVE_INFINITY;
        for (double[] m : axes) {
            double l = Exact.norm(m);
            if (l < 1e-12) {
                continue;
            }
            for (int s = -1; s <= 1; s += 2) {
                double[] ms = {s * m[0] / l, s * m[1] / l, s * m[2] / l};
                double o = triangleSupport(w, ms) + Exact.support(box, pb, new double[] {-ms[0], -ms[1], -ms[2]});
                least = Math.min(least, o);
            }
        }
        return least;
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }
}
