package org.symdyn.geometry;

/**
 * The signed distance between two shapes A and B, filled by a query into an instance the caller allocates once.
 *
 * <p>Conventions (world frame, metres):
 * <ul>
 * <li>{@link #distance()} d: the Euclidean distance between A and B when they are apart (d &gt; 0), minus the
 * penetration depth when they overlap (d &lt; 0), where the penetration depth is the length of the shortest
 * translation of B that separates them; 0 when they touch.</li>
 * <li>{@link #normal(int)} n: a unit vector from A towards B; translating B by −d n (d &lt; 0) separates the shapes,
 * translating it by −d n (d &gt; 0) makes them touch. n is the outward normal of A at its witness point and the
 * inward normal of B at its own.</li>
 * <li>{@link #pointA(int)} a and {@link #pointB(int)} b: witness points on the boundary of A and of B with
 * b − a = d n. For d &gt; 0 they are the closest points; for d &lt; 0, b is the point of B deepest in A and a
 * the point of A's surface where b would leave it along n. Where the closest points are not unique (parallel
 * faces or edges), a and b are one such pair.</li>
 * </ul>
 * Where n is not determined by the geometry (two spheres with coincident centres, a point on a capsule's axis),
 * the query says which unit vector it chooses.
 */
public final class DistanceResult {
    double distance;
    final double[] normal = new double[3];
    final double[] pointA = new double[3];
    final double[] pointB = new double[3];
    int iterations;
    boolean converged = true;
    /**
     * The face and features of the witnesses where a closed form knows them (a ball against a box), else 0
     * ({@link ContactManifold#face}, {@link ContactManifold#featureA}).
     */
    final WitnessFeatures features = new WitnessFeatures();

    /** The signed distance d (metres): positive apart, negative overlapping. */
    public double distance() {
        return distance;
    }

    /** Component i of the unit normal n from A towards B (world). */
    public double normal(int i) {
        return normal[i];
    }

    /** Component i of the witness point a on A's boundary (world, metres). */
    public double pointA(int i) {
        return pointA[i];
    }

    /** Component i of the witness point b on B's boundary (world, metres); b − a = d n. */
    public double pointB(int i) {
        return pointB[i];
    }

    /** Iterations of GJK plus EPA that produced this result; 0 for a closed form. */
    public int iterations() {
        return iterations;
    }

    /**
     * True unless an iterative query stopped at its iteration bound before meeting its tolerance (the result is
     * then its best estimate: for overlapping shapes a depth at least the true one, along a normal on which the
     * shapes' projections overlap by exactly that much, with witnesses within the shapes, near their boundaries).
     * Closed forms always converge.
     */
    public boolean converged() {
        return converged;
    }

    /** Sets distance, normal and witness points (world). */
    void set(double d, double nx, double ny, double nz, double ax, double ay, double az, double bx, double by,
            double bz) {
        distance = d;
        normal[0] = nx;
        normal[1] = ny;
        normal[2] = nz;
        pointA[0] = ax;
        pointA[1] = ay;
        pointA[2] = az;
        pointB[0] = bx;
        pointB[1] = by;
        pointB[2] = bz;
        iterations = 0;
        converged = true;
        features.clear();
    }

    /** Exchanges the roles of A and B: n ← −n, a ↔ b. */
    void swap() {
        features.swap();
        for (int i = 0; i < 3; i++) {
            normal[i] = -normal[i];
            double t = pointA[i];
            pointA[i] = pointB[i];
            pointB[i] = t;
        }
    }

    @Override
    public String toString() {
        return "DistanceResult{d=" + distance + ", n=" + java.util.Arrays.toString(normal) + ", a="
                + java.util.Arrays.toString(pointA) + ", b=" + java.util.Arrays.toString(pointB) + "}";
    }
}
