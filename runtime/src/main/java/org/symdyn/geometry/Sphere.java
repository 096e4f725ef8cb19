package org.symdyn.geometry;

/** A solid ball of radius r (metres) centred at the origin of its frame S: |x| ≤ r. */
public final class Sphere extends Shape implements ConvexShape {
    private final double radius;

    /** @param radius r, finite and &gt; 0 (metres) */
    public Sphere(double radius) {
        this.radius = positive("sphere radius", radius);
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

    /** x = r d / |d|; for d = 0, the point (r, 0, 0). */
    @Override
    public void support(double dx, double dy, double dz, double[] out) {
        double n = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (n == 0) {
            out[0] = radius;
            out[1] = 0;
            out[2] = 0;
            return;
        }
        double s = radius / n;
        out[0] = dx * s;
        out[1] = dy * s;
        out[2] = dz * s;
    }

    @Override
    public double boundingRadius() {
        return radius;
    }

    @Override
    public String toString() {
        return "Sphere{radius=" + radius + "}";
    }
}
