package org.symdyn.geometry;

/**
 * Signed distance of two convex shapes known only by their support functions: GJK (Gilbert, Johnson and Keerthi
 * 1988) for the distance of shapes apart, EPA (the expanding polytope algorithm, van den Bergen 2001) for the
 * penetration depth of overlapping ones. The conventions of {@link DistanceResult} (n from A towards B, witness
 * points a on A and b on B with b − a = d n, world coordinates, metres).
 *
 * <p>Both work on the Minkowski difference D = B − A = {b − a} ({@code MinkowskiDifference}), whose support point in
 * direction u is s_B(u) − s_A(−u), and whose point closest to the origin is the vector from A's closest point to
 * B's. GJK ({@code Gjk}) keeps a simplex of at most four points of D and its point v closest to the origin; each
 * step adds the support point w in direction −v. The distance lies between the lower bound −v · w/|v| and the
 * upper bound |v|; GJK stops when they are within {@link #TOLERANCE} times the scale (the sum of the shapes'
 * bounding radii and the distance of their origins) or when w adds nothing (a point already in the simplex); when
 * |v| stops decreasing (rounding) or after {@link #MAX_ITERATIONS} it returns the simplex whose bounds were
 * tightest, converged if they are within {@link #STALL_TOLERANCE}. When the simplex encloses the origin or |v|
 * falls below the tolerance the shapes overlap or touch, and EPA ({@code Epa}) grows a polytope inside D from that
 * simplex (completed to a tetrahedron by support points) until its face nearest the origin lies on D's boundary
 * within the same tolerance: the depth is that face's distance δ, n is minus its outward normal, d = −δ. When D is
 * flat (the shapes touch at most) EPA reports d = 0 at the point of GJK's simplex nearest the origin. Witnesses
 * are the barycentric combinations of the support points' a and b at the closest point (when EPA did not converge,
 * its direction of least support reach with that depth, and the nearest face's witnesses moved apart along it to
 * b − a = d n: see {@code Epa}).
 *
 * <p>For polytopes ({@link Box}, {@link ConvexHull}) both algorithms end in finitely many steps at D's exact nearest
 * feature, so the result is exact to rounding. A sphere or a capsule is its core (a point, a segment) swept by a
 * ball of its radius r, and the signed distance of such shapes is that of their cores less the radii, along the
 * cores' normal, for every depth short of the cores meeting: GJK on the cores (against a polytope, exact in
 * finitely many steps) gives it, and the witnesses move out by r along n. Without that, a sphere against a hull
 * near touching stopped at the iteration bound in one query of five, the witnesses up to 7e-4 of the sphere's
 * size off and the distance 3e-6 (2,000 random poses of a 0.1 m sphere against a unit cube's hull, gaps of
 * ±1e-10 to ±1e-2 m). Cores closer than {@link #CORE_CLEARANCE} tolerances, and other curved shapes
 * (cylinders), are approached by polytopes: GJK converges quickly, EPA slowly; when an iteration bound stops either
 * before the tolerance,
 * {@link DistanceResult#converged()} is false and the result is the best estimate. The bounds make every query
 * finish (at most 2 {@link #MAX_ITERATIONS} + {@link #MAX_EPA_ITERATIONS} support calls of each shape: a
 * sphere's or capsule's cores first, then the whole shapes where the cores meet; {@link DistanceResult#iterations()}
 * counts both). One instance
 * holds all the scratch: no allocation per query; not thread-safe.
 */
public final class GjkEpa {
    /** Relative tolerance of both algorithms: the gap between the bounds, per metre of scale. */
    public static final double TOLERANCE = MinkowskiDifference.TOLERANCE;
    /**
     * GJK stopped by rounding (no decrease of |v|, which curved shapes reach before {@link #TOLERANCE}) counts as
     * converged when its bounds are within this many metres per metre of scale.
     */
    public static final double STALL_TOLERANCE = Gjk.STALL_TOLERANCE;
    /** The most GJK steps. */
    public static final int MAX_ITERATIONS = Gjk.MAX_ITERATIONS;
    /** The most EPA steps. */
    public static final int MAX_EPA_ITERATIONS = Epa.MAX_ITERATIONS;

    private final MinkowskiDifference difference = new MinkowskiDifference();
    private final Gjk gjk = new Gjk(difference);
    private final Epa epa = new Epa(difference);

    /**
     * Cores closer than this many tolerances ({@link MinkowskiDifference#tolerance}) are met as whole shapes: GJK's
     * v is exact to rounding, about 1e-16 of the scale, so a core distance above 1e3 tolerances (1e-9 of the scale)
     * gives the normal to 1e-7 or better.
     */
    static final double CORE_CLEARANCE = 1e3;

    /** The signed distance of convex A at {@code a} and convex B at {@code b} (see the class comment). */
    public void distance(ConvexShape shapeA, Placement a, ConvexShape shapeB, Placement b, DistanceResult out) {
        double ra = MinkowskiDifference.coreRadius(shapeA);
        double rb = MinkowskiDifference.coreRadius(shapeB);
        int coreIterations = 0;
        if (ra + rb > 0) {
            difference.setCores(shapeA, a, shapeB, b);
            if (gjk.distance(out) && out.distance > CORE_CLEARANCE * difference.tolerance) {
                int iterations = out.iterations;
                // Two polytopal cores (points, segments, boxes, hulls, triangles): GJK ends at their exact nearest
                // features, and where it stops on rounding instead (cores within about 1e-7 of the scale: the gap
                // of its bounds is then ε |w|² / |v|, above its stall tolerance) its answer is that feature's to
                // rounding, so it is not flagged.
                boolean converged = out.converged || polytopalCore(shapeA) && polytopalCore(shapeB);
                double nx = out.normal[0], ny = out.normal[1], nz = out.normal[2];
                out.set(out.distance - ra - rb, nx, ny, nz, out.pointA[0] + ra * nx, out.pointA[1] + ra * ny,
                        out.pointA[2] + ra * nz, out.pointB[0] - rb * nx, out.pointB[1] - rb * ny,
                        out.pointB[2] - rb * nz);
                out.iterations = iterations;
                out.converged = converged;
                return;
            }
            coreIterations = gjk.iterations();
        }
        difference.set(shapeA, a, shapeB, b);
        if (!gjk.distance(out)) {
            epa.penetration(gjk, out);
        }
        out.iterations += coreIterations;
    }

    /** Whether the shape's core ({@link MinkowskiDifference#coreRadius}) is a polytope: all but a cylinder. */
    private static boolean polytopalCore(ConvexShape shape) {
        return !(shape instanceof Cylinder);
    }
}
