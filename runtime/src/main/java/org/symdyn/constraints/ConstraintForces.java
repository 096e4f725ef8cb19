package org.symdyn.constraints;

/**
 * Spatial forces a constraint group applies to bodies (RBDL's calcForces/calcImpulses output), in a preallocated
 * buffer reused from call to call. Entry k is a frame F_k fixed in body {@link #body(int) body(k)} (-1 is the world)
 * and the spatial force f_k = [n; f] applied to that body at F_k's origin: n the torque about the origin, f the
 * force. Depending on {@link #resolvedInWorld()}, f_k is in F_k's coordinates or in world-aligned coordinates
 * (still about F_k's origin). For multipliers λ of the group's rows, Σ_k J_kᵀ f_k = Gᵀ λ, where J_k maps v to F_k's
 * angular velocity and origin velocity in the same coordinates as f_k. Entries come in action-reaction pairs (the
 * world included), so the forces of one group sum to zero when moved to a common point.
 *
 * <p>Accessors return the internal arrays (views valid until the next resolution); do not keep or modify them
 * except when writing a {@link ConstraintRows#bodyForces} implementation.
 */
public final class ConstraintForces {
    private final int[] body;
    private final double[][] frameRotation;
    private final double[][] frameOrigin;
    private final double[][] originInWorld;
    private final double[][] force;
    private int count;
    private boolean inWorld;

    /** A buffer for at most {@code capacity} entries. */
    public ConstraintForces(int capacity) {
        body = new int[capacity];
        frameRotation = new double[capacity][9];
        frameOrigin = new double[capacity][3];
        originInWorld = new double[capacity][3];
        force = new double[capacity][6];
    }

    /** Maximum number of entries. */
    public int capacity() {
        return body.length;
    }

    /** Number of entries of the last resolution. */
    public int count() {
        return count;
    }

    /** True if the forces are in world-aligned coordinates, false if each is in its own frame's coordinates. */
    public boolean resolvedInWorld() {
        return inWorld;
    }

    /** The body entry k acts on, -1 for the world. */
    public int body(int k) {
        check(k);
        return body[k];
    }

    /** Rotation body &lt;- F_k of entry k's frame (row-major 3x3); for the world, world &lt;- F_k. */
    public double[] frameRotation(int k) {
        check(k);
        return frameRotation[k];
    }

    /** Origin of F_k in its body's coordinates (in world coordinates for the world). */
    public double[] frameOrigin(int k) {
        check(k);
        return frameOrigin[k];
    }

    /** Origin of F_k in world coordinates at the configuration the forces were resolved at. */
    public double[] originInWorld(int k) {
        check(k);
        return originInWorld[k];
    }

    /** The spatial force [torque about F_k's origin; force] of entry k (N·m, N; N·m·s, N·s for impulses). */
    public double[] force(int k) {
        check(k);
        return force[k];
    }

    /** Empties the buffer before a resolution. */
    public void reset(boolean resolvedInWorld) {
        count = 0;
        inWorld = resolvedInWorld;
    }

    /**
     * Appends an entry for {@code bodyIndex} and returns its index; fill its arrays through the accessors.
     *
     * @throws IllegalStateException if the buffer is full
     */
    public int add(int bodyIndex) {
        if (count == body.length) {
            throw new IllegalStateException("ConstraintForces holds at most " + body.length + " entries");
        }
        body[count] = bodyIndex;
        return count++;
    }

    private void check(int k) {
        if (k < 0 || k >= count) {
            throw new IndexOutOfBoundsException("entry " + k + " of " + count);
        }
    }
}
