package org.symdyn.geometry;

/**
 * The Minkowski difference D = B − A = {b − a} of two convex shapes at their placements (world coordinates,
 * metres), known by its support function s_D(u) = s_B(u) − s_A(−u), and the store of the support points that
 * {@link Gjk} and {@link Epa} build their simplex and polytope from. Each stored point w = b − a keeps the points a
 * on A and b on B it came from, so that a point of D given by barycentric coordinates λ over stored points has the
 * witnesses Σ λ a_i on A and Σ λ b_i on B, and b − a is that point; the point of D closest to the origin is the
 * vector from A's closest point to B's.
 *
 * <p>The store holds at most {@link #MAX_VERTICES} points: GJK's simplex (4) and the points that complete it to a
 * tetrahedron (at most 14), then one per EPA step. One instance serves one query at a time; no allocation.
 */
final class MinkowskiDifference {
    /** Relative tolerance of GJK and EPA: the gap between a distance's bounds, per metre of {@link #scale}. */
    static final double TOLERANCE = 1e-12;
    /** The most points the store holds. */
    static final int MAX_VERTICES = Epa.MAX_ITERATIONS + 18;

    /** Stored points w_k = b_k − a_k of D, 3 entries each. */
    final double[] w = new double[3 * MAX_VERTICES];
    /** The points a_k on A of the stored points, 3 entries each. */
    final double[] pa = new double[3 * MAX_VERTICES];
    /** The points b_k on B of the stored points, 3 entries each. */
    final double[] pb = new double[3 * MAX_VERTICES];
    /** p_B − p_A, the vector from A's origin to B's (metres). */
    final double[] origins = new double[3];
    /**
     * The length the tolerances are relative to (metres): the sum of the shapes' bounding radii and the distance
     * of their origins, a bound on the size of D about the origin.
     */
    double scale;
    /** {@link #TOLERANCE} × {@link #scale} (metres). */
    double tolerance;

    private final double[] point = new double[3];
    private ConvexShape shapeA;
    private ConvexShape shapeB;
    private Placement placeA;
    private Placement placeB;
    private boolean cores;
    private int count;

    /** D of convex A at {@code a} and convex B at {@code b}, with an empty store. */
    void set(ConvexShape shapeA, Placement a, ConvexShape shapeB, Placement b) {
        set(shapeA, a, shapeB, b, false);
    }

    /**
     * D of the cores of A and B ({@link #coreRadius}: a sphere's centre, a capsule's segment, any other shape
     * itself) at their placements, with an empty store; the scale and tolerance are those of the whole shapes.
     */
    void setCores(ConvexShape shapeA, Placement a, ConvexShape shapeB, Placement b) {
        set(shapeA, a, shapeB, b, true);
    }

    /** {@link Shape#rounding}: a sphere's and a capsule's radius, 0 for every other shape and a mesh triangle. */
    static double coreRadius(ConvexShape shape) {
        return shape instanceof Shape s ? s.rounding() : 0;
    }

    private void set(ConvexShape shapeA, Placement a, ConvexShape shapeB, Placement b, boolean cores) {
        this.cores = cores;
        this.shapeA = shapeA;
        this.shapeB = shapeB;
        this.placeA = a;
        this.placeB = b;
        double dx = b.p[0] - a.p[0], dy = b.p[1] - a.p[1], dz = b.p[2] - a.p[2];
        origins[0] = dx;
        origins[1] = dy;
        origins[2] = dz;
        scale = shapeA.boundingRadius() + shapeB.boundingRadius() + Math.sqrt(dx * dx + dy * dy + dz * dz);
        tolerance = TOLERANCE * scale;
        count = 0;
    }

    /** Stores the support point of D in direction u = (ux, uy, uz) (any length) with its a and b; its index. */
    int support(double ux, double uy, double uz) {
        int k = count++;
        support(shapeB, placeB, ux, uy, uz);
        pb[3 * k] = point[0];
        pb[3 * k + 1] = point[1];
        pb[3 * k + 2] = point[2];
        support(shapeA, placeA, -ux, -uy, -uz);
        pa[3 * k] = point[0];
        pa[3 * k + 1] = point[1];
        pa[3 * k + 2] = point[2];
        for (int i = 0; i < 3; i++) {
            w[3 * k + i] = pb[3 * k + i] - pa[3 * k + i];
        }
        return k;
    }

    /** {@link #point} ← the support point (world) of the shape, or of its core, in world direction u. */
    private void support(ConvexShape shape, Placement place, double ux, double uy, double uz) {
        if (!cores || coreRadius(shape) == 0) {
            place.support(shape, ux, uy, uz, point);
            return;
        }
        point[0] = 0;
        point[1] = 0;
        point[2] = 0;
        if (shape instanceof Capsule c) {
            // the segment's end with the sign of u's local z, + for 0 as Capsule.support chooses
            double uz0 = place.rotation(0, 2) * ux + place.rotation(1, 2) * uy + place.rotation(2, 2) * uz;
            point[2] = uz0 >= 0 ? c.halfLength() : -c.halfLength();
        }
        place.toWorld(point, point);
    }

    /** The number of stored points. */
    int count() {
        return count;
    }

    /** Forgets the last stored point. */
    void removeLast() {
        count--;
    }

    /** Forgets every stored point but the first n (which the caller has placed there). */
    void keepFirst(int n) {
        count = n;
    }

    /**
     * The witnesses of the point Σ λ_s w_{i_s} of D over n stored points i_s = {@code vertices[s]} with barycentric
     * coordinates λ_s = {@code weights[s]}: a = Σ λ_s a_{i_s} into {@code out}'s point A, b = Σ λ_s b_{i_s} into
     * its point B.
     */
    void witnesses(int[] vertices, double[] weights, int n, DistanceResult out) {
        for (int i = 0; i < 3; i++) {
            double x = 0, y = 0;
            for (int s = 0; s < n; s++) {
                x += weights[s] * pa[3 * vertices[s] + i];
                y += weights[s] * pb[3 * vertices[s] + i];
            }
            out.pointA[i] = x;
            out.pointB[i] = y;
        }
    }
}
