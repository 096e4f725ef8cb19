package org.symdyn.geometry;

/**
 * A capsule along the z axis of its frame S: the points within radius r (metres) of the segment from
 * (0, 0, −L/2) to (0, 0, L/2), L its length (metres, the length of the cylindrical part, the distance between the
 * centres of its two hemispherical ends; the whole capsule spans L + 2r along z, as Gazebo's capsule does).
 */
public final class Capsule extends Shape implements ConvexShape {
    private final double radius;
    private final double length;

    /**
     * @param radius r, finite and &gt; 0
     * @param length L, finite and &gt; 0 (a capsule of length 0 is a {@link Sphere})
     */
    public Capsule(double radius, double length) {
        this.radius = positive("capsule radius", radius);
        this.length = positive("capsule length", length);
    }

    /** r (metres). */
    public double radius() {
        return radius;
    }

    /** r: the shape is its core swept by a ball of its radius. */
    @Override
    public double rounding() {
        return radius;
    }

    /** L (metres), the distance between the centres of the end hemispheres. */
    public double length() {
        return length;
    }

    /** L/2 (metres): the segment's end points are (0, 0, ±L/2). */
    public double halfLength() {
        return length / 2;
    }

    /** x = (0, 0, ±L/2) + r d/|d|, the end with the sign of d_z (+ for d_z = 0). */
    @Override
    public void support(double dx, double dy, double dz, double[] out) {
        double n = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double end = dz >= 0 ? length / 2 : -length / 2;
        if (n == 0) {
            out[0] = radius;
            out[1] = 0;
            out[2] = end;
            return;
        }
        double s = radius / n;
        out[0] = dx * s;
        out[1] = dy * s;
        out[2] = end + dz * s;
    }

    @Override
    public double boundingRadius() {
        return length / 2 + radius;
    }

    @Override
    public String toString() {
        return "Capsule{radius=" + radius + ", length=" + length + "}";
    }
}
