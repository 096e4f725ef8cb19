package org.symdyn.geometry;

/**
 * An immutable collision shape, described in its own frame S (metres). A shape has no pose of its own: every
 * query takes the placement of S in the world ({@link Placement}, x_W = R x_S + p) and answers in world
 * coordinates.
 *
 * <p>The kinds: {@link Sphere}, {@link Capsule}, {@link Box}, {@link Cylinder} and {@link ConvexHull} are convex
 * and bounded ({@link ConvexShape}); {@link HalfSpace} is convex and unbounded; {@link TriangleMesh} is a static
 * surface (terrain, a bin), not a solid. Every constructor validates its sizes and throws
 * {@link IllegalArgumentException} naming the offending value.
 */
public abstract sealed class Shape permits Sphere, Capsule, Box, Cylinder, HalfSpace, ConvexHull, TriangleMesh {
    Shape() {
    }

    /**
     * The radius r of the ball the shape is its core swept by (metres): a sphere's (its core a point) and a capsule's
     * (a segment); 0 for every other shape, its own core. Its distance to another shape is its core's less r, and a
     * contact's point on it is its core's point less r along the normal.
     */
    public double rounding() {
        return 0;
    }

    /** A size that must be finite and strictly positive, else an exception naming it and the value. */
    static double positive(String what, double value) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(what + " must be finite and > 0, got " + value);
        }
        return value;
    }

    /** A coordinate that must be finite, else an exception naming it and the value. */
    static double finite(String what, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(what + " must be finite, got " + value);
        }
        return value;
    }
}
