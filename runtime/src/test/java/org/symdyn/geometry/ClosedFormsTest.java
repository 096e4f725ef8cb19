package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every closed form against analytic geometry ({@link Exact}) on thousands of random poses, on touching poses (B
 * moved by −d n, where the distance must come out 0) and on parallel-face and parallel-axis poses (quarter-turn
 * rotations), within 1e-12 m. Apart or touching, {@link Exact#certify} proves d exact; overlapping, the depth is
 * compared with its own formula (radii minus a core distance computed here by golden-section search, or the
 * least overlap over the separating axes computed here from support values), and no random direction may escape
 * in less.
 *
 * <p>Sizes are 0.1 to 1 m and positions within 1.5 m, so coordinates are O(1) m and double rounding is O(1e-16)
 * m per operation; 1e-12 m leaves a factor 10³ for the chains of a few dozen operations, while a wrong feature, sign
 * or axis errs by millimetres or more.
 */
class ClosedFormsTest {
    private static final double TOL = 1e-12;
    private static final int POSES = 3000;

    private final Random random = new Random(31_2026L);
    private final PrimitiveDistance primitives = new PrimitiveDistance();
    private final BoxBoxCollision boxes = new BoxBoxCollision();
    private final DistanceResult result = new DistanceResult();

    /** A query of shape A at pa and B at pb. */
    interface Query {
        void run(Shape a, Placement pa, Shape b, Placement pb, DistanceResult out);
    }

    /** The exact penetration depth of overlapping A and B, computed independently. */
    interface Depth {
        double of(Shape a, Placement pa, Shape b, Placement pb);
    }

    private double size() {
        return 0.1 + 0.9 * random.nextDouble();
    }

    private Sphere sphere() {
        return new Sphere(size() / 2);
    }

    private Capsule capsule() {
        return new Capsule(size() / 3, size());
    }

    private Box box() {
        return new Box(size() / 2, size() / 2, size() / 2);
    }

    private Cylinder cylinder() {
        return new Cylinder(size() / 2, size());
    }

    @Test
    void sphereSphere() {
        check("sphere-sphere", this::sphere, this::sphere,
                (a, pa, b, pb, out) -> primitives.sphereSphere((Sphere) a, pa, (Sphere) b, pb, out),
                (a, pa, b, pb) -> ((Sphere) a).radius() + ((Sphere) b).radius() - distance(pa, pb));
    }

    @Test
    void sphereCapsule() {
        check("sphere-capsule", this::sphere, this::capsule,
                (a, pa, b, pb, out) -> primitives.sphereCapsule((Sphere) a, pa, (Capsule) b, pb, out),
                (a, pa, b, pb) -> ((Sphere) a).radius() + ((Capsule) b).radius()
                        - Exact.segmentDistance(centre(pa), end(pb, (Capsule) b, -1), end(pb, (Capsule) b, 1)));
    }

    @Test
    void capsuleCapsule() {
        check("capsule-capsule", this::capsule, this::capsule,
                (a, pa, b, pb, out) -> primitives.capsuleCapsule((Capsule) a, pa, (Capsule) b, pb, out),
                (a, pa, b, pb) -> ((Capsule) a).radius() + ((Capsule) b).radius() - segmentSegment(
                        end(pa, (Capsule) a, -1), end(pa, (Capsule) a, 1), end(pb, (Capsule) b, -1), end(pb, (Capsule) b, 1)));
    }

    @Test
    void sphereBox() {
        check("sphere-box", this::sphere, this::box,
                (a, pa, b, pb, out) -> primitives.sphereBox((Sphere) a, pa, (Box) b, pb, out),
                (a, pa, b, pb) -> ((Sphere) a).radius() - Exact.signedDistance(b, pb, centre(pa)));
    }

    @Test
    void capsuleBox() {
        check("capsule-box", this::capsule, this::box,
                (a, pa, b, pb, out) -> primitives.capsuleBox((Capsule) a, pa, (Box) b, pb, out),
                (a, pa, b, pb) -> leastOverlap(a, pa, b, pb, true));
    }

    @Test
    void boxBox() {
        check("box-box", this::box, this::box,
                (a, pa, b, pb, out) -> boxes.distance((Box) a, pa, (Box) b, pb, out),
                (a, pa, b, pb) -> leastOverlap(a, pa, b, pb, false));
    }

    @Test
    void cylinderSphere() {
        check("cylinder-sphere", this::cylinder, this::sphere,
                (a, pa, b, pb, out) -> primitives.cylinderSphere((Cylinder) a, pa, (Sphere) b, pb, out),
                (a, pa, b, pb) -> ((Sphere) b).radius() - Exact.signedDistance(a, pa, centre(pb)));
    }

    @Test
    void halfSpaceAgainstEachConvexShape() {
        Supplier<Shape> plane = () -> new HalfSpace(random.nextGaussian(), random.nextGaussian(),
                random.nextGaussian(), 0.3 * random.nextGaussian());
        Query query = (a, pa, b, pb, out) -> primitives.halfSpaceConvex((HalfSpace) a, pa, (ConvexShape) b, pb, out);
        // The certificate is complete for a half-space: only its normal can separate it from a bounded shape.
        check("half-space-sphere", plane, this::sphere, query, null);
        check("half-space-capsule", plane, this::capsule, query, null);
        check("half-space-box", plane, this::box, query, null);
        check("half-space-cylinder", plane, this::cylinder, query, null);
    }

    /** Random, touching and quarter-turn poses of A and B, each certified (and reversed: B against A). */
    private void check(String what, Supplier<Shape> makeA, Supplier<Shape> makeB, Query query, Depth depth) {
        int apart = 0, overlapping = 0;
        for (int k = 0; k < POSES; k++) {
            Shape a = makeA.get(), b = makeB.get();
            Placement pa = Exact.randomPlacement(random, 0.5);
            Placement pb = k % 3 == 0
                    ? Exact.quarterTurns(random, new double[] {pa.translation(0) + random.nextDouble() - 0.5,
                        pa.translation(1) + random.nextDouble() - 0.5, pa.translation(2) + random.nextDouble() - 0.5})
                    : Exact.randomPlacement(random, 0.5);
            if (k % 3 == 0 && k % 2 == 0) {
                pa = Exact.quarterTurns(random, new double[] {pa.translation(0), pa.translation(1), pa.translation(2)});
            }
            String label = what + " pose " + k;
            query.run(a, pa, b, pb, result);
            certifyWithDepth(a, pa, b, pb, depth, label);
            if (result.distance() > 0) {
                apart++;
            } else {
                overlapping++;
            }
            // Touching: B moved by -d n touches A.
            double d = result.distance();
            Placement touching = Exact.translated(pb, -d * result.normal(0), -d * result.normal(1), -d * result.normal(2));
            query.run(a, pa, b, touching, result);
            assertEquals(0, result.distance(), TOL, label + " touching");
            certifyWithDepth(a, pa, b, touching, depth, label + " touching");
        }
        assertTrue(apart > POSES / 10 && overlapping > POSES / 10, what + ": " + apart + " apart, " + overlapping
                + " overlapping");
    }

    private void certifyWithDepth(Shape a, Placement pa, Shape b, Placement pb, Depth depth, String label) {
        Exact.certify(a, pa, b, pb, result, TOL, label);
        if (result.distance() < 0 && depth != null) {
            assertEquals(depth.of(a, pa, b, pb), -result.distance(), TOL, label + ": depth");
            Exact.noShorterEscape(a, pa, b, pb, result.distance(), random, TOL, label);
        }
    }

    /**
     * The penetration depth of a box B and a box or capsule A from support values of {@link Exact}: the least
     * overlap over the separating axes of two boxes (face normals and products of edges) or of a segment and a box
     * (the box's face normals and the products of the segment with its edges). For a capsule whose core segment
     * stays outside the box, r minus the segment's distance to the box (golden-section search along the segment).
     */
    private static double leastOverlap(Shape a, Placement pa, Shape b, Placement pb, boolean segment) {
        double[][] ua = new double[3][3], ub = new double[3][3];
        for (int i = 0; i < 3; i++) {
            Exact.axis(pa, i, ua[i]);
            Exact.axis(pb, i, ub[i]);
        }
        java.util.List<double[]> axes = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            axes.add(ub[i]);
            if (!segment) {
                axes.add(ua[i]);
            }
            for (int j = 0; j < 3; j++) {
                if (!segment || i == 2) {
                    double[] m = {ua[i][1] * ub[j][2] - ua[i][2] * ub[j][1], ua[i][2] * ub[j][0] - ua[i][0] * ub[j][2],
                        ua[i][0] * ub[j][1] - ua[i][1] * ub[j][0]};
                    double l = Exact.norm(m);
                    if (l > 0) {
                        axes.add(new double[] {m[0] / l, m[1] / l, m[2] / l});
                    }
                }
            }
        }
        double least = Double.POSITIVE_INFINITY;
        for (double[] m : axes) {
            least = Math.min(least, Exact.overlap(a, pa, b, pb, m));
            least = Math.min(least, Exact.overlap(a, pa, b, pb, new double[] {-m[0], -m[1], -m[2]}));
        }
        if (!segment) {
            return least;
        }
        double r = ((Capsule) a).radius();
        if (least - r >= 0) {
            return least;
        }
        double[] p0 = end(pa, (Capsule) a, -1), p1 = end(pa, (Capsule) a, 1);
        double lo = 0, hi = 1, g = (Math.sqrt(5) - 1) / 2;
        java.util.function.DoubleUnaryOperator f = s -> Exact.signedDistance(b, pb, new double[] {
            p0[0] + s * (p1[0] - p0[0]), p0[1] + s * (p1[1] - p0[1]), p0[2] + s * (p1[2] - p0[2])});
        for (int k = 0; k < 200; k++) {
            double s1 = hi - g * (hi - lo), s2 = lo + g * (hi - lo);
            if (f.applyAsDouble(s1) <= f.applyAsDouble(s2)) {
                hi = s2;
            } else {
                lo = s1;
            }
        }
        double distance = Math.min(f.applyAsDouble((lo + hi) / 2), Math.min(f.applyAsDouble(0), f.applyAsDouble(1)));
        return r - distance;
    }

    /** The distance of two segments: golden-section search over the first (a convex function of s). */
    static double segmentSegment(double[] p0, double[] p1, double[] q0, double[] q1) {
        double lo = 0, hi = 1, g = (Math.sqrt(5) - 1) / 2;
        for (int k = 0; k < 200; k++) {
            double s1 = hi - g * (hi - lo), s2 = lo + g * (hi - lo);
            if (segmentPoint(p0, p1, s1, q0, q1) <= segmentPoint(p0, p1, s2, q0, q1)) {
                hi = s2;
            } else {
                lo = s1;
            }
        }
        double best = Math.min(segmentPoint(p0, p1, 0, q0, q1), segmentPoint(p0, p1, 1, q0, q1));
        return Math.min(best, segmentPoint(p0, p1, (lo + hi) / 2, q0, q1));
    }

    private static double segmentPoint(double[] p0, double[] p1, double s, double[] q0, double[] q1) {
        double[] x = {p0[0] + s * (p1[0] - p0[0]), p0[1] + s * (p1[1] - p0[1]), p0[2] + s * (p1[2] - p0[2])};
        return Exact.segmentDistance(x, q0, q1);
    }

    static double[] centre(Placement p) {
        return new double[] {p.translation(0), p.translation(1), p.translation(2)};
    }

    static double[] end(Placement p, Capsule c, int sign) {
        return new double[] {p.translation(0) + sign * c.halfLength() * p.rotation(0, 2),
            p.translation(1) + sign * c.halfLength() * p.rotation(1, 2),
            p.translation(2) + sign * c.halfLength() * p.rotation(2, 2)};
    }

    private static double distance(Placement a, Placement b) {
        double[] x = centre(a), y = centre(b);
        return Math.sqrt(Math.pow(x[0] - y[0], 2) + Math.pow(x[1] - y[1], 2) + Math.pow(x[2] - y[2], 2));
    }
}
