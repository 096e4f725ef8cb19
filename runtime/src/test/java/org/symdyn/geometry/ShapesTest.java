package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Construction checks of every shape, and each support function against the definition h(d) = max d · x: the
 * support point lies in the shape, and d · x of the support point is not exceeded by any of many points sampled on
 * the shape's boundary (parametrised independently of the support formula).
 */
class ShapesTest {
    private final Random random = new Random(31L);

    @Test
    void sizesAreValidated() {
        assertMessage("sphere radius must be finite and > 0, got 0.0", () -> new Sphere(0));
        assertMessage("sphere radius must be finite and > 0, got NaN", () -> new Sphere(Double.NaN));
        assertMessage("capsule radius must be finite and > 0, got -1.0", () -> new Capsule(-1, 1));
        assertMessage("capsule length must be finite and > 0, got 0.0", () -> new Capsule(1, 0));
        assertMessage("box half extent y must be finite and > 0, got 0.0", () -> new Box(1, 0, 1));
        assertMessage("box size z must be finite and > 0, got Infinity",
                () -> Box.ofSize(1, 1, Double.POSITIVE_INFINITY));
        assertMessage("cylinder length must be finite and > 0, got NaN", () -> new Cylinder(1, Double.NaN));
        assertMessage("half-space normal must be a finite non-zero vector, got [0.0, 0.0, 0.0]",
                () -> new HalfSpace(0, 0, 0, 1));
        assertMessage("half-space offset must be finite, got NaN", () -> new HalfSpace(0, 0, 1, Double.NaN));
        assertMessage("triangle mesh triangle 0 has vertex index 3 outside [0, 3)",
                () -> TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 3}));
        assertMessage("triangle mesh triangle 1 (vertices 0, 1, 3) has zero area",
                () -> TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0}, new int[] {0, 1, 2, 0, 1, 3}));
        assertMessage("triangle mesh vertex 1 has a non-finite coordinate y = NaN",
                () -> TriangleMesh.of(new double[] {0, 0, 0, 1, Double.NaN, 0, 0, 1, 0}, new int[] {0, 1, 2}));
        assertMessage("triangle mesh has no triangles", () -> TriangleMesh.of(new double[9], new int[0]));
    }

    @Test
    void halfSpaceNormalIsNormalised() {
        HalfSpace h = new HalfSpace(0, 3, 4, 2);
        assertEquals(0.6, h.normal(1), 1e-16);
        assertEquals(0.8, h.normal(2), 1e-16);
        assertEquals(2, h.offset());
    }

    @Test
    void boxOfSizeHalvesTheEdges() {
        Box b = Box.ofSize(1, 2, 3);
        assertEquals(0.5, b.halfExtent(0));
        assertEquals(1.0, b.halfExtent(1));
        assertEquals(1.5, b.halfExtent(2));
    }

    @Test
    void supportFunctionsMaximiseOverTheBoundary() {
        Sphere sphere = new Sphere(0.7);
        Capsule capsule = new Capsule(0.3, 1.1);
        Box box = new Box(0.2, 0.5, 0.9);
        Cylinder cylinder = new Cylinder(0.4, 1.3);
        double[] s = new double[3];
        for (int trial = 0; trial < 200; trial++) {
            double[] d = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
            if (trial % 10 == 0) {
                d[random.nextInt(3)] = 0;
            }
            for (ConvexShape shape : new ConvexShape[] {sphere, capsule, box, cylinder}) {
                shape.support(d[0], d[1], d[2], s);
                double h = dot(d, s);
                assertTrue(inside(shape, s, 1e-12), shape + " support point outside the shape");
                for (int k = 0; k < 500; k++) {
                    double[] x = boundaryPoint(shape);
                    assertTrue(dot(d, x) <= h + 1e-12, shape + " exceeded by a boundary point");
                }
            }
        }
    }

    /** A random point on the boundary, from the shape's own parametrisation. */
    private double[] boundaryPoint(ConvexShape shape) {
        double u = random.nextDouble(), v = random.nextDouble();
        double theta = 2 * Math.PI * u, phi = Math.acos(2 * v - 1);
        double[] unit = {Math.sin(phi) * Math.cos(theta), Math.sin(phi) * Math.sin(theta), Math.cos(phi)};
        if (shape instanceof Sphere sp) {
            return new double[] {sp.radius() * unit[0], sp.radius() * unit[1], sp.radius() * unit[2]};
        }
        if (shape instanceof Capsule c) {
            double z = (random.nextBoolean() ? 1 : -1) * c.halfLength() * random.nextDouble();
            if (random.nextBoolean()) {
                return new double[] {c.radius() * Math.cos(theta), c.radius() * Math.sin(theta), z};
            }
            double end = unit[2] >= 0 ? c.halfLength() : -c.halfLength();
            return new double[] {c.radius() * unit[0], c.radius() * unit[1], end + c.radius() * unit[2]};
        }
        if (shape instanceof Box b) {
            double[] x = new double[3];
            for (int i = 0; i < 3; i++) {
                x[i] = b.halfExtent(i) * (2 * random.nextDouble() - 1);
            }
            int face = random.nextInt(3);
            x[face] = random.nextBoolean() ? b.halfExtent(face) : -b.halfExtent(face);
            return x;
        }
        Cylinder c = (Cylinder) shape;
        double z = c.halfLength() * (2 * random.nextDouble() - 1);
        double rho = c.radius();
        if (random.nextBoolean()) {
            z = random.nextBoolean() ? c.halfLength() : -c.halfLength();
            rho = c.radius() * Math.sqrt(random.nextDouble());
        }
        return new double[] {rho * Math.cos(theta), rho * Math.sin(theta), z};
    }

    private static boolean inside(ConvexShape shape, double[] x, double tol) {
        if (shape instanceof Sphere s) {
            return Math.sqrt(dot(x, x)) <= s.radius() + tol;
        }
        if (shape instanceof Capsule c) {
            double z = Math.max(-c.halfLength(), Math.min(c.halfLength(), x[2]));
            return Math.sqrt(x[0] * x[0] + x[1] * x[1] + (x[2] - z) * (x[2] - z)) <= c.radius() + tol;
        }
        if (shape instanceof Box b) {
            return Math.abs(x[0]) <= b.halfExtent(0) + tol && Math.abs(x[1]) <= b.halfExtent(1) + tol
                    && Math.abs(x[2]) <= b.halfExtent(2) + tol;
        }
        Cylinder c = (Cylinder) shape;
        return Math.hypot(x[0], x[1]) <= c.radius() + tol && Math.abs(x[2]) <= c.halfLength() + tol;
    }

    static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    static void assertMessage(String message, Runnable construction) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, construction::run);
        assertEquals(message, e.getMessage());
    }
}
