package org.symdyn.geometry;

/**
 * The solid half-space {x : n · x ≤ c} of its frame S: n the unit outward normal of its boundary plane
 * n · x = c, c the plane's offset (metres) along n. Unbounded; the ground, a wall. Its signed distance to a point
 * is n · x − c (positive outside).
 */
public final class HalfSpace extends Shape {
    private final double nx;
    private final double ny;
    private final double nz;
    private final double offset;

    /**
     * @param nx,ny,nz the outward normal (finite, not zero; normalised here)
     * @param offset   c (metres), finite: the plane n · x = c with n the normalised normal
     */
    public HalfSpace(double nx, double ny, double nz, double offset) {
        finite("half-space normal x", nx);
        finite("half-space normal y", ny);
        finite("half-space normal z", nz);
        finite("half-space offset", offset);
        double n = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(n > 0) || !Double.isFinite(n)) {
            throw new IllegalArgumentException("half-space normal must be a finite non-zero vector, got ["
                    + nx + ", " + ny + ", " + nz + "]");
        }
        this.nx = nx / n;
        this.ny = ny / n;
        this.nz = nz / n;
        this.offset = offset;
    }

    /** The half-space z ≤ 0 of its frame: the ground of a z-up world. */
    public static HalfSpace zUp() {
        return new HalfSpace(0, 0, 1, 0);
    }

    /** Component i of the unit outward normal n (frame S). */
    public double normal(int i) {
        return i == 0 ? nx : i == 1 ? ny : nz;
    }

    /** c (metres): the boundary plane is n · x = c. */
    public double offset() {
        return offset;
    }

    @Override
    public String toString() {
        return "HalfSpace{normal=[" + nx + ", " + ny + ", " + nz + "], offset=" + offset + "}";
    }
}
