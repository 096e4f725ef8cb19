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
 * feature, so the result is exact to rounding. Curved shapes (spheres, capsules, cylinders) are approached by
 * polytopes: GJK converges quickly, EPA slowly; when an iteration bound stops either before the tolerance,
 * {@link DistanceResult#converged()} is false and the result is the best estimate. The bounds make every query
 * finish (at most {@link #MAX_ITERATIONS} + {@link #MAX_EPA_ITERATIONS} support calls of each shape). One instance
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

    /** The signed distance of convex A at {@code a} and convex B at {@code b} (see the class comment). */
    public void distance(ConvexShape shapeA, Placement a, ConvexShape shapeB, Placement b, DistanceResult out) {
        difference.set(shapeA, a, shapeB, b);
        if (!gjk.distance(out)) {
            epa.penetration(gjk, out);
        }
    }
}
