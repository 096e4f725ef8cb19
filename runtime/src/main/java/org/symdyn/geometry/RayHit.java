package org.symdyn.geometry;

/**
 * The first hit of a ray on a shape, filled by {@link RayCast} into an instance the caller allocates once (world
 * coordinates, metres): the distance t along the ray's unit direction, the point o + t d, and the unit normal of
 * the surface there, pointing out of a solid shape (for a triangle of a mesh, towards the side the ray comes from).
 * A ray that starts inside a solid shape hits at t = 0 with normal −d.
 */
public final class RayHit {
    boolean hit;
    double distance;
    final double[] point = new double[3];
    final double[] normal = new double[3];

    /** True if the ray hit within its range; the other values are meaningful only then. */
    public boolean hit() {
        return hit;
    }

    /** t (metres) from the ray's origin along its unit direction. */
    public double distance() {
        return distance;
    }

    /** Component i of the hit point o + t d (world, metres). */
    public double point(int i) {
        return point[i];
    }

    /** Component i of the surface's unit normal at the hit point (world). */
    public double normal(int i) {
        return normal[i];
    }
}
