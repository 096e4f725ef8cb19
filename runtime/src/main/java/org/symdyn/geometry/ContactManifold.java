package org.symdyn.geometry;

/**
 * Up to {@link #CAPACITY} contact points between shapes A and B sharing one unit normal n from A towards B (world),
 * filled by a query into an instance the caller allocates once. A face resting on a face gives up to four points
 * spanning the contact area, so that a box resting on a box is supported at its corners; an edge or a curved
 * contact gives one or two.
 *
 * <p>Point k has a witness on A's boundary a_k and on B's boundary b_k (world, metres) and a signed distance d_k
 * (negative overlapping) with b_k − a_k = d_k n; only points with d_k ≤ the query's margin are kept. These are the
 * conventions of {@link DistanceResult}, per point.
 */
public final class ContactManifold {
    /** The most points a manifold holds. */
    public static final int CAPACITY = 4;
    /** A single point's witness is a vertex of its shape ({@link #featureA()}). */
    public static final int VERTEX = 1;
    /** A single point's witness is on an edge of its shape, inside it. */
    public static final int EDGE = 2;

    int count;
    /** See {@link #face()} and {@link #featureA()}. */
    final WitnessFeatures features = new WitnessFeatures();
    final double[] normal = new double[3];
    final double[] distance = new double[CAPACITY];
    final double[] pointA = new double[3 * CAPACITY];
    final double[] pointB = new double[3 * CAPACITY];

    /** The number of points, 0 when the shapes are farther apart than the margin. */
    public int count() {
        return count;
    }

    /** Component i of the unit normal n from A towards B (world). */
    public double normal(int i) {
        return normal[i];
    }

    /** d_k (metres) of point k &lt; {@link #count()}. */
    public double distance(int k) {
        return distance[k];
    }

    /** Component i of a_k, point k's witness on A (world, metres). */
    public double pointA(int k, int i) {
        return pointA[3 * k + i];
    }

    /** Component i of b_k, point k's witness on B (world, metres). */
    public double pointB(int k, int i) {
        return pointB[3 * k + i];
    }

    /**
     * +1 when the normal is the outward normal of a face of A over which B's points lie (a box's corners on another's
     * face, a ball over a box's face, any shape on a half-space): the points of A's face that touch slide on it as
     * the shapes move; −1 when it is a face of B's (−n its outward normal); 0 when neither or not known (an edge, two
     * curved surfaces, a closest pair whose region is not a face's). Only set when the manifold has points.
     */
    public int face() {
        return features.face;
    }

    /**
     * For a single closest point whose query knows it (a ball against a box): {@link #VERTEX} when A's witness is a
     * vertex of A, {@link #EDGE} when it lies inside an edge of A ({@link #edgeA}), 0 otherwise or not known.
     */
    public int featureA() {
        return features.featureA;
    }

    /** {@link #featureA()} for B. */
    public int featureB() {
        return features.featureB;
    }

    /** Component i of the world direction of A's edge where {@link #featureA()} is {@link #EDGE}. */
    public double edgeA(int i) {
        return features.edgeA[i];
    }

    /** Component i of the world direction of B's edge where {@link #featureB()} is {@link #EDGE}. */
    public double edgeB(int i) {
        return features.edgeB[i];
    }

    void clear() {
        count = 0;
        features.clear();
    }

    /** Records that the normal is a face normal of A (+1) or of B (−1), see {@link #face()}. */
    void setFace(int side) {
        features.face = side;
    }

    void setNormal(double nx, double ny, double nz) {
        normal[0] = nx;
        normal[1] = ny;
        normal[2] = nz;
    }

    /**
     * Appends the point with witness b on B and distance d (a = b − d n); ignored when full. The features are a single
     * closest point's: a manifold of more points has none.
     */
    void addFromB(double d, double bx, double by, double bz) {
        if (count == CAPACITY) {
            return;
        }
        features.featureA = 0;
        features.featureB = 0;
        int k = count++;
        distance[k] = d;
        pointB[3 * k] = bx;
        pointB[3 * k + 1] = by;
        pointB[3 * k + 2] = bz;
        pointA[3 * k] = bx - d * normal[0];
        pointA[3 * k + 1] = by - d * normal[1];
        pointA[3 * k + 2] = bz - d * normal[2];
    }

    /** Copies point {@code from} over point {@code to} (for compaction; the normal is shared). */
    void copyPoint(int from, int to) {
        distance[to] = distance[from];
        for (int i = 0; i < 3; i++) {
            pointA[3 * to + i] = pointA[3 * from + i];
            pointB[3 * to + i] = pointB[3 * from + i];
        }
    }

    /** Sets this to the single point of {@code r}. */
    void setFrom(DistanceResult r) {
        count = 1;
        features.copy(r.features);
        distance[0] = r.distance;
        for (int i = 0; i < 3; i++) {
            normal[i] = r.normal[i];
            pointA[i] = r.pointA[i];
            pointB[i] = r.pointB[i];
        }
    }

    /** Exchanges the roles of A and B: n ← −n, a_k ↔ b_k. */
    void swap() {
        features.swap();
        for (int i = 0; i < 3; i++) {
            normal[i] = -normal[i];
        }
        for (int i = 0; i < 3 * count; i++) {
            double t = pointA[i];
            pointA[i] = pointB[i];
            pointB[i] = t;
        }
    }
}
