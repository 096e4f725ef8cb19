package org.symdyn.geometry;

/**
 * A solid circular cylinder along the z axis of its frame S, centred at its origin: x² + y² ≤ r² and
 * |z| ≤ L/2, r the radius and L the full length (metres, as a URDF {@code <cylinder radius length/>}).
 */
public final class Cylinder extends Shape implements ConvexShape {
    private final double radius;
    private final double length;

    /** @param radius r and {@code length} L, each finite and &gt; 0 (metres) */
    public Cylinder(double radius, double length) {
        this.radius = positive("cylinder radius", radius);
        this.length = positive("cylinder length", length);
    }

    /** r (metres). */
    public double radius() {
        return radius;
    }

    /** L (metres), the full length. */
    public double length() {
        return length;
    }

    /** L/2 (metres): the caps are the discs at z = ±L/2. */
    public double halfLength() {
        return length / 2;
    }

    /**
     * x = (r (d_x, d_y)/|(d_x, d_y)|, ±L/2), the cap with the sign of d_z (+ for d_z = 0); for d_x = d_y = 0 the
     * cap's centre (0, 0, ±L/2).
     */
    @Override
    public void support(double dx, double dy, double dz, double[] out) {
        double rho = Math.sqrt(dx * dx + dy * dy);
        out[2] = dz >= 0 ? length / 2 : -length / 2;
        if (rho == 0) {
            out[0] = 0;
            out[1] = 0;
            return;
        }
        out[0] = radius * dx / rho;
        out[1] = radius * dy / rho;
    }

    @Override
    public double boundingRadius() {
        return Math.sqrt(radius * radius + length * length / 4);
    }

    @Override
    public String toString() {
        return "Cylinder{radius=" + radius + ", length=" + length + "}";
    }
}
