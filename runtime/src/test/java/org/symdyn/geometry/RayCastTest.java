package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Rays against every shape: a hit lies on the surface (signed distance 0 by {@link Exact}), at o + t d, with no
 * point of the ray before it inside the shape (sampled), its normal the unit outward normal there (the gradient of
 * the signed distance, by central differences, where the surface is smooth at the hit) facing the ray; a miss has
 * no sampled point of the ray inside the shape. Plus exact values on axis-aligned rays and a two-triangle mesh.
 */
class RayCastTest {
    private final Random random = new Random(8L);
    private final RayCast rays = new RayCast();
    private final RayHit hit = new RayHit();

    /** A ray from a point that is not finite is refused by every shape (a box took a NaN origin for a hit). */
    /**
     * Rays aimed exactly at a grid's interior shared edges and vertices, flat and bumpy: each hits, at the edge's
     * height. With exact barycentric bounds 2.4 % of the edge rays and 6.4 % of the vertex rays went between the two
     * triangles (a helper's probe).
     */
    @Test
    void raysThroughSharedEdgesAndVerticesHit() {
        RayCast rc = new RayCast();
        RayHit hit = new RayHit();
        Placement identity = new Placement();
        int n = 8;
        for (int bumpy = 0; bumpy < 2; bumpy++) {
            Random rnd = new Random(3);
            double[] v = new double[3 * (n + 1) * (n + 1)];
            for (int i = 0; i <= n; i++) {
                for (int j = 0; j <= n; j++) {
                    int q = i * (n + 1) + j;
                    v[3 * q] = i * 0.1;
                    v[3 * q + 1] = j * 0.1;
                    v[3 * q + 2] = bumpy * 0.01 * rnd.nextGaussian();
                }
            }
            int[] t = new int[6 * n * n];
            for (int i = 0, c = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    int q = i * (n + 1) + j;
                    int[] two = {q, q + n + 1, q + n + 2, q, q + n + 2, q + 1};
                    System.arraycopy(two, 0, t, c, 6);
                    c += 6;
                }
            }
            TriangleMesh mesh = TriangleMesh.of(v, t);
            for (int k = 0; k < 20000; k++) {
                int i = 1 + rnd.nextInt(n - 2), j = 1 + rnd.nextInt(n - 2);
                int q = i * (n + 1) + j;
                int type = rnd.nextInt(4); // the diagonal, the two grid lines, the vertex itself
                int q2 = type == 0 ? q + n + 2 : type == 1 ? q + 1 : type == 2 ? q + n + 1 : q;
                double s = type == 3 ? 0 : rnd.nextDouble();
                double x = v[3 * q] + s * (v[3 * q2] - v[3 * q]), y = v[3 * q + 1] + s * (v[3 * q2 + 1] - v[3 * q + 1]);
                double z = v[3 * q + 2] + s * (v[3 * q2 + 2] - v[3 * q + 2]);
                double tx = 0.2 * rnd.nextGaussian(), ty = 0.2 * rnd.nextGaussian();
                double[] o = {x + tx, y + ty, z + 1};
                double[] d = {-tx, -ty, -1};
                assertTrue(rc.cast(mesh, identity, o, d, 10, hit), (bumpy == 1 ? "bumpy" : "flat") + " ray " + k
                        + " through (" + x + ", " + y + ", " + z + ") missed");
                double len = Math.sqrt(tx * tx + ty * ty + 1);
                assertEquals(len, hit.distance(), 1e-12, "at the edge's point, ray " + k);
            }
        }
    }

    @Test
    void anOriginThatIsNotFiniteIsRefused() {
        Shape[] shapes = {new Sphere(0.4), new Capsule(0.2, 0.7), new Box(0.3, 0.2, 0.5), new Cylinder(0.3, 0.6),
            ConvexHull.of(0, 0, 0, 0.6, 0, 0, 0, 0.5, 0, 0, 0, 0.4, 0.3, 0.3, 0.3), new HalfSpace(0.2, -0.1, 1, 0.1)};
        for (Shape shape : shapes) {
            for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
                IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalArgumentException.class, () -> rays.cast(shape, new Placement(),
                                new double[] {bad, 0, 0}, new double[] {1, 0, 0}, 10, hit), shape.toString());
                assertTrue(e.getMessage().contains("origin"), e.getMessage());
            }
        }
    }

    @Test
    void randomRaysAgainstEachSolid() {
        Shape[] shapes = {new Sphere(0.4), new Capsule(0.2, 0.7), new Box(0.3, 0.2, 0.5), new Cylinder(0.3, 0.6),
            ConvexHull.of(0, 0, 0, 0.6, 0, 0, 0, 0.5, 0, 0, 0, 0.4, 0.3, 0.3, 0.3), new HalfSpace(0.2, -0.1, 1, 0.1)};
        int hits = 0, misses = 0;
        for (Shape shape : shapes) {
            for (int k = 0; k < 2000; k++) {
                Placement p = Exact.randomPlacement(random, 0.3);
                double[] o = {2 * random.nextGaussian(), 2 * random.nextGaussian(), 2 * random.nextGaussian()};
                // aim near the shape's origin
                double[] target = {p.translation(0) + 0.4 * random.nextGaussian(),
                    p.translation(1) + 0.4 * random.nextGaussian(), p.translation(2) + 0.4 * random.nextGaussian()};
                double[] d = {target[0] - o[0], target[1] - o[1], target[2] - o[2]};
                double len = Exact.norm(d);
                for (int i = 0; i < 3; i++) {
                    d[i] /= len;
                }
                String label = shape + " ray " + k;
                double start = Exact.signedDistance(shape, p, o);
                boolean got = rays.cast(shape, p, o, d, 100, hit);
                if (start <= 0) {
                    assertTrue(got && hit.distance() == 0, label + ": starts inside");
                    continue;
                }
                double end = got ? hit.distance() : 100;
                for (int s = 0; s < 200; s++) {
                    double t = end * s / 200.0;
                    double[] x = {o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]};
                    assertTrue(Exact.signedDistance(shape, p, x) > -1e-12, label + ": inside before the hit, t = " + t);
                }
                if (!got) {
                    misses++;
                    continue;
                }
                hits++;
                double[] x = {hit.point(0), hit.point(1), hit.point(2)};
                for (int i = 0; i < 3; i++) {
                    assertEquals(o[i] + hit.distance() * d[i], x[i], 1e-12, label);
                }
                assertEquals(0, Exact.signedDistance(shape, p, x), 1e-12, label + ": on the surface");
                double[] nrm = {hit.normal(0), hit.normal(1), hit.normal(2)};
                assertEquals(1, Exact.norm(nrm), 1e-14, label);
                assertTrue(Exact.dot(nrm, d) <= 0, label + ": normal faces the ray");
                double[] g = gradient(shape, p, x);
                if (g != null) {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(g[i], nrm[i], 1e-6, label + ": normal, component " + i);
                    }
                }
            }
        }
        assertTrue(hits > 3000 && misses > 1000, hits + " hits, " + misses + " misses");
    }

    /** The gradient of the signed distance by central differences (h = 1e-7), or null at an edge (|∇| ≠ 1). */
    private static double[] gradient(Shape shape, Placement p, double[] x) {
        double h = 1e-7;
        double[] g = new double[3];
        for (int i = 0; i < 3; i++) {
            double[] a = x.clone(), b = x.clone();
            a[i] += h;
            b[i] -= h;
            g[i] = (Exact.signedDistance(shape, p, a) - Exact.signedDistance(shape, p, b)) / (2 * h);
        }
        // Near an edge or corner the difference straddles two faces.
        return Math.abs(Exact.norm(g) - 1) < 1e-6 ? g : null;
    }

    @Test
    void axisAlignedRaysHitAtTheirExactDistances() {
        Placement p = new Placement().setTranslation(1, 2, 3);
        double[] o = {1, 2, -2};
        double[] up = {0, 0, 1};
        rays.cast(new Sphere(0.5), p, o, up, 10, hit);
        assertEquals(4.5, hit.distance(), 1e-15);
        assertEquals(-1, hit.normal(2), 1e-15);
        rays.cast(new Capsule(0.5, 2), p, o, up, 10, hit);
        assertEquals(3.5, hit.distance(), 1e-15);
        rays.cast(new Box(0.5, 0.5, 0.25), p, o, up, 10, hit);
        assertEquals(4.75, hit.distance(), 1e-15);
        rays.cast(new Cylinder(0.5, 1), p, o, up, 10, hit);
        assertEquals(4.5, hit.distance(), 1e-15);
        assertFalse(rays.cast(new Cylinder(0.5, 1), p, o, up, 4.4, hit), "beyond the range");
        double[] sideways = {1, 0, 0};
        assertTrue(rays.cast(new Cylinder(0.5, 1), p, new double[] {-3, 2.25, 3}, sideways, 10, hit));
        assertEquals(4 - Math.sqrt(0.25 - 0.0625), hit.distance(), 1e-15);
        assertFalse(rays.cast(new Cylinder(0.5, 1), p, new double[] {-3, 2.75, 3}, sideways, 10, hit));
    }

    @Test
    void aMeshIsHitFromEitherSideAtItsNearestTriangle() {
        // Two squares (each two triangles) at z = 0 and z = 1.
        TriangleMesh m = TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1},
                new int[] {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7});
        Placement p = new Placement();
        assertTrue(rays.cast(m, p, new double[] {0.3, 0.6, -1}, new double[] {0, 0, 1}, 10, hit));
        assertEquals(1, hit.distance(), 1e-15);
        assertEquals(-1, hit.normal(2), 1e-15, "towards the ray");
        assertTrue(rays.cast(m, p, new double[] {0.3, 0.6, 0.5}, new double[] {0, 0, 1}, 10, hit));
        assertEquals(0.5, hit.distance(), 1e-15, "from between: the upper square");
        assertTrue(rays.cast(m, p, new double[] {0.3, 0.6, 2}, new double[] {0, 0, -1}, 10, hit));
        assertEquals(1, hit.distance(), 1e-15);
        assertEquals(1, hit.normal(2), 1e-15);
        assertFalse(rays.cast(m, p, new double[] {1.5, 0.6, 2}, new double[] {0, 0, -1}, 10, hit));
    }

    @Test
    void aMissIsAMissAlsoWithoutALimit() {
        // a miss is t = +∞, which a limit of +∞ used to take for a hit at +∞
        Shape[] shapes = {new Sphere(0.4), new Capsule(0.2, 0.7), new Box(0.3, 0.2, 0.5), new Cylinder(0.3, 0.6),
            ConvexHull.of(0, 0, 0, 0.6, 0, 0, 0, 0.5, 0, 0, 0, 0.4, 0.3, 0.3, 0.3), new HalfSpace(0, 0, 1, -2),
            TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 2})};
        for (Shape shape : shapes) {
            assertFalse(rays.cast(shape, new Placement(), new double[] {5, 5, 5}, new double[] {0, 0, 1},
                    Double.POSITIVE_INFINITY, hit), shape.toString());
            assertFalse(hit.hit());
        }
        assertTrue(rays.cast(new Sphere(0.4), new Placement(), new double[] {0, 0, 5}, new double[] {0, 0, -1},
                Double.POSITIVE_INFINITY, hit));
        assertEquals(4.6, hit.distance(), 1e-15);
    }
}
