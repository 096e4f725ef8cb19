package org.symdyn.geometry;

/**
 * A solid box centred at the origin of its frame S with edges along its axes: |x_i| ≤ h_i, h the half extents
 * (metres; a URDF {@code <box size>} is 2h).
 */
public final class Box extends Shape implements ConvexShape {
    private final double hx;
    private final double hy;
    private final double hz;

    /** @param hx,hy,hz half extents, each finite and &gt; 0 (metres) */
    public Box(double hx, double hy, double hz) {
        this.hx = positive("box half extent x", hx);
        this.hy = positive("box half extent y", hy);
        this.hz = positive("box half extent z", hz);
    }

    /** The box of full edge lengths (sx, sy, sz), as a URDF {@code <box size="sx sy sz"/>} writes it. */
    public static Box ofSize(double sx, double sy, double sz) {
        return new Box(positive("box size x", sx) / 2, positive("box size y", sy) / 2, positive("box size z", sz) / 2);
    }

    /** h_i (metres), i = 0, 1, 2 for x, y, z. */
    public double halfExtent(int i) {
        return i == 0 ? hx : i == 1 ? hy : hz;
    }

    /** x_i = h_i sign(d_i), + for d_i = 0: always a vertex. */
    @Override
    public void support(double dx, double dy, double dz, double[] out) {
        out[0] = dx >= 0 ? hx : -hx;
        out[1] = dy >= 0 ? hy : -hy;
        out[2] = dz >= 0 ? hz : -hz;
    }

    @Override
    public double boundingRadius() {
        return Math.sqrt(hx * hx + hy * hy + hz * hz);
    }

    @Override
    public String toString() {
        return "Box{halfExtents=[" + hx + ", " + hy + ", " + hz + "]}";
    }
}
