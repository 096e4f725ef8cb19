package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.symdyn.spatial.Rotations;

/**
 * Independent analytic geometry for the tests: support values h(m) = max over the shape of m · x and signed
 * distances of points, each from the shape's definition (not from the code under test), and the certificate that
 * a {@link DistanceResult} is the exact signed distance.
 *
 * <p>The certificate: n is a unit vector, a lies on A's boundary and b on B's, b − a = d n, n · a = h_A(n) and
 * n · b = −h_B(−n). Then the projections of A and B on n are apart by exactly n · b − n · a = d, so for d ≥ 0 the
 * distance is at least d and at most |b − a| = d: d is exact. For d &lt; 0, −d is the overlap of the projections
 * on n, an upper bound of the penetration depth; the tests add the lower bound from the depth's own formula.
 */
final class Exact {
    private Exact() {
    }

    /** h(m) of the shape at its placement, m a world direction. */
    static double support(Shape shape, Placement p, double[] m) {
        double[] u = new double[3];
        double[] c = {p.translation(0), p.translation(1), p.translation(2)};
        double mc = dot(m, c);
        if (shape instanceof Sphere s) {
            return mc + s.radius() * norm(m);
        }
        if (shape instanceof Capsule s) {
            axis(p, 2, u);
            return mc + s.halfLength() * Math.abs(dot(m, u)) + s.radius() * norm(m);
        }
        if (shape instanceof Box s) {
            double h = mc;
            for (int i = 0; i < 3; i++) {
                axis(p, i, u);
                h += s.halfExtent(i) * Math.abs(dot(m, u));
            }
            return h;
        }
        if (shape instanceof Cylinder s) {
            axis(p, 2, u);
            double a = dot(m, u);
            double radial = Math.sqrt(Math.pow(m[0] - a * u[0], 2) + Math.pow(m[1] - a * u[1], 2)
                    + Math.pow(m[2] - a * u[2], 2));
            return mc + s.halfLength() * Math.abs(a) + s.radius() * radial;
        }
        if (shape instanceof ConvexHull s) {
            double h = Double.NEGATIVE_INFINITY;
            double[] x = new double[3];
            for (int i = 0; i < s.vertexCount(); i++) {
                for (int k = 0; k < 3; k++) {
                    x[k] = s.vertex(i, k);
                }
                p.toWorld(x, x);
                h = Math.max(h, dot(m, x));
            }
            return h;
        }
        throw new IllegalArgumentException(shape.toString());
    }

    /** The signed distance of the world point x from the shape's boundary (negative inside). */
    static double signedDistance(Shape shape, Placement p, double[] xw) {
        double[] x = new double[3];
        p.toLocal(xw, x);
        if (shape instanceof Sphere s) {
            return norm(x) - s.radius();
        }
        if (shape instanceof Capsule s) {
            double z = Math.max(-s.halfLength(), Math.min(s.halfLength(), x[2]));
            return Math.sqrt(x[0] * x[0] + x[1] * x[1] + (x[2] - z) * (x[2] - z)) - s.radius();
        }
        if (shape instanceof Box s) {
            double outside = 0, inside = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < 3; i++) {
                double q = Math.abs(x[i]) - s.halfExtent(i);
                outside += Math.max(q, 0) * Math.max(q, 0);
                inside = Math.max(inside, q);
            }
            return outside > 0 ? Math.sqrt(outside) : inside;
        }
        if (shape instanceof Cylinder s) {
            double qr = Math.hypot(x[0], x[1]) - s.radius(), qz = Math.abs(x[2]) - s.halfLength();
            double ox = Math.max(qr, 0), oz = Math.max(qz, 0);
            return ox > 0 || oz > 0 ? Math.hypot(ox, oz) : Math.max(qr, qz);
        }
        if (shape instanceof HalfSpace s) {
            return s.normal(0) * x[0] + s.normal(1) * x[1] + s.normal(2) * x[2] - s.offset();
        }
        if (shape instanceof ConvexHull s) {
            double d = Double.NEGATIVE_INFINITY;
            for (int f = 0; f < s.faceCount(); f++) {
                d = Math.max(d, s.faceNormal(f, 0) * x[0] + s.faceNormal(f, 1) * x[1] + s.faceNormal(f, 2) * x[2]
                        - s.faceOffset(f));
            }
            return d; // exact on and inside the hull, which is all the certificate asks
        }
        throw new IllegalArgumentException(shape.toString());
    }

    /**
     * Asserts the certificate of the class comment within {@code tol} metres and returns the overlap of the
     * projections on n (−d when the result is right).
     */
    static void certify(Shape a, Placement pa, Shape b, Placement pb, DistanceResult r, double tol, String what) {
        double[] n = {r.normal(0), r.normal(1), r.normal(2)};
        double[] x = {r.pointA(0), r.pointA(1), r.pointA(2)};
        double[] y = {r.pointB(0), r.pointB(1), r.pointB(2)};
        assertEquals(1, norm(n), 1e-14, what + ": |n|");
        for (int i = 0; i < 3; i++) {
            assertEquals(r.distance() * n[i], y[i] - x[i], tol, what + ": b - a = d n, component " + i);
        }
        assertEquals(0, signedDistance(a, pa, x), tol, what + ": a on A's boundary");
        assertEquals(0, signedDistance(b, pb, y), tol, what + ": b on B's boundary");
        double[] minus = {-n[0], -n[1], -n[2]};
        if (a instanceof HalfSpace h) {
            double[] hn = {h.normal(0), h.normal(1), h.normal(2)};
            pa.rotateToWorld(hn, hn);
            assertEquals(1, dot(hn, n), 1e-14, what + ": n is the half-space's normal");
        } else {
            assertEquals(support(a, pa, n), dot(n, x), tol, what + ": a supports A along n");
        }
        if (b instanceof HalfSpace h) {
            double[] hn = {h.normal(0), h.normal(1), h.normal(2)};
            pb.rotateToWorld(hn, hn);
            assertEquals(-1, dot(hn, n), 1e-14, what + ": n is minus the half-space's normal");
        } else {
            assertEquals(-support(b, pb, minus), dot(n, y), tol, what + ": b supports B along -n");
        }
    }

    /** The overlap h_A(m) + h_B(−m) of the projections on the unit direction m (≥ the penetration depth). */
    static double overlap(Shape a, Placement pa, Shape b, Placement pb, double[] m) {
        return support(a, pa, m) + support(b, pb, new double[] {-m[0], -m[1], -m[2]});
    }

    /** Asserts that no random direction separates A and B by less than the penetration depth −d (tol m). */
    static void noShorterEscape(Shape a, Placement pa, Shape b, Placement pb, double d, Random random, double tol,
            String what) {
        for (int k = 0; k < 200; k++) {
            double[] m = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
            double l = norm(m);
            m[0] /= l;
            m[1] /= l;
            m[2] /= l;
            assertTrue(overlap(a, pa, b, pb, m) >= -d - tol, what + ": a direction escapes in less than -d");
        }
    }

    /** A random rotation (uniform: a normalised Gaussian quaternion) and a position in [-s, s]³. */
    static Placement randomPlacement(Random random, double s) {
        double[] r = new double[9];
        Rotations.fromQuaternion(random.nextGaussian(), random.nextGaussian(), random.nextGaussian(),
                random.nextGaussian(), r);
        double[] p = {s * (2 * random.nextDouble() - 1), s * (2 * random.nextDouble() - 1),
            s * (2 * random.nextDouble() - 1)};
        return new Placement().set(r, 0, p, 0);
    }

    /** A rotation by a multiple of a quarter turn about each axis (exact entries 0, ±1), at position p. */
    static Placement quarterTurns(Random random, double[] p) {
        double[] r = Rotations.fromRpy(random.nextInt(4) * Math.PI / 2, random.nextInt(4) * Math.PI / 2,
                random.nextInt(4) * Math.PI / 2);
        return new Placement().set(r, 0, p, 0);
    }

    /** The placement moved by t (world). */
    static Placement translated(Placement p, double tx, double ty, double tz) {
        double[] r = new double[9];
        for (int i = 0; i < 9; i++) {
            r[i] = p.rotation(i / 3, i % 3);
        }
        return new Placement().set(r, 0, new double[] {p.translation(0) + tx, p.translation(1) + ty,
            p.translation(2) + tz}, 0);
    }

    static void axis(Placement p, int i, double[] out) {
        out[0] = p.rotation(0, i);
        out[1] = p.rotation(1, i);
        out[2] = p.rotation(2, i);
    }

    static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    /** The distance from x to the segment [p, q]. */
    static double segmentDistance(double[] x, double[] p, double[] q) {
        double[] u = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
        double[] w = {x[0] - p[0], x[1] - p[1], x[2] - p[2]};
        double t = Math.max(0, Math.min(1, dot(w, u) / dot(u, u)));
        return Math.sqrt(Math.pow(w[0] - t * u[0], 2) + Math.pow(w[1] - t * u[1], 2) + Math.pow(w[2] - t * u[2], 2));
    }
}
