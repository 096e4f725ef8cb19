package org.symdyn.geometry;

/**
 * A bounded convex shape, known to the GJK/EPA algorithms only through its support function
 * h(d) = max over x in the shape of d · x, all in the shape's own frame S.
 */
public sealed interface ConvexShape permits Sphere, Capsule, Box, Cylinder, ConvexHull, MeshTriangle {
    /**
     * Writes to {@code out} (3 entries, frame S, metres) a point x of the shape with d · x maximal, for the
     * direction d = (dx, dy, dz) in frame S (any length; for d = 0 some point of the shape). Where the maximum
     * is reached on a whole edge or face, the point is one of them, the same for the same d. No allocation.
     */
    void support(double dx, double dy, double dz, double[] out);

    /** The radius (metres) of a ball about S's origin that contains the shape. */
    double boundingRadius();
}
