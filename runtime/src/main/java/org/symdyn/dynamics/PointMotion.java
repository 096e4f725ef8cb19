package org.symdyn.dynamics;

import java.util.Arrays;

/**
 * The motion of a point fixed in a body at one state (q, v, v̇), world-aligned, and its derivatives along every
 * tangent direction of q and every component of v: what {@link MotionDerivatives#point} fills. All vectors are in
 * world coordinates at the point (Pinocchio's LOCAL_WORLD_ALIGNED, angular first). Accelerations exclude gravity, and
 * {@link #acceleration()} is the <i>classical</i> acceleration p̈ of the material point (what a contact row holds
 * to zero), not the spatial acceleration, which differs from it by ω × ṗ.
 *
 * <p>Derivative arrays are 3 x nv, row-major: entry (r, k) at index r·nv + k. Along q, column k is the
 * derivative along the contract's tangent direction k ({@link org.symdyn.contract.DynamicsDerivatives}); the
 * rotation's column is the world rotation vector δθ with δR = [δθ]× R. Since ω = J_ω v and ṗ = J_p v, ∂ω/∂v and
 * ∂ṗ/∂v are {@link #dRotationDq()} and {@link #dPositionDq()} (the point's Jacobian). The arrays are this object's
 * own and are overwritten by the next fill; read them, do not keep them.
 */
public final class PointMotion {
    final int nv;
    final double[] rotation = new double[9];
    final double[] position = new double[3];
    final double[] omega = new double[3];
    final double[] velocity = new double[3];
    final double[] omegaDot = new double[3];
    final double[] acceleration = new double[3];
    final double[] dRotationDq;
    final double[] dPositionDq;
    final double[] dOmegaDq;
    final double[] dVelocityDq;
    final double[] dOmegaDotDq;
    final double[] dAccelerationDq;
    final double[] dOmegaDotDv;
    final double[] dAccelerationDv;

    /** Workspaces for a model of nv velocity coordinates. */
    public PointMotion(int nv) {
        this.nv = nv;
        dRotationDq = new double[3 * nv];
        dPositionDq = new double[3 * nv];
        dOmegaDq = new double[3 * nv];
        dVelocityDq = new double[3 * nv];
        dOmegaDotDq = new double[3 * nv];
        dAccelerationDq = new double[3 * nv];
        dOmegaDotDv = new double[3 * nv];
        dAccelerationDv = new double[3 * nv];
    }

    /** Number of velocity coordinates (columns of the derivative arrays). */
    public int nv() {
        return nv;
    }

    /** R world &lt;- body (9, row-major). */
    public double[] rotation() {
        return rotation;
    }

    /** The point's world position. */
    public double[] position() {
        return position;
    }

    /** The body's angular velocity ω, world coordinates. */
    public double[] omega() {
        return omega;
    }

    /** The point's velocity ṗ, world coordinates. */
    public double[] velocity() {
        return velocity;
    }

    /** The body's angular acceleration ω̇, world coordinates. */
    public double[] omegaDot() {
        return omegaDot;
    }

    /** The point's classical acceleration p̈, world coordinates, gravity excluded. */
    public double[] acceleration() {
        return acceleration;
    }

    /** ∂θ/∂q: the world rotation vector of the body's turn along each direction; also ∂ω/∂v (3 x nv). */
    public double[] dRotationDq() {
        return dRotationDq;
    }

    /** ∂p/∂q; also ∂ṗ/∂v, the point Jacobian (3 x nv). */
    public double[] dPositionDq() {
        return dPositionDq;
    }

    /** ∂ω/∂v, the body's angular Jacobian (world): the same array as {@link #dRotationDq()}. */
    public double[] dOmegaDv() {
        return dRotationDq;
    }

    /** ∂ṗ/∂v, the point's Jacobian: the same array as {@link #dPositionDq()}. */
    public double[] dVelocityDv() {
        return dPositionDq;
    }

    /** ∂ω/∂q (3 x nv). */
    public double[] dOmegaDq() {
        return dOmegaDq;
    }

    /** ∂ṗ/∂q (3 x nv). */
    public double[] dVelocityDq() {
        return dVelocityDq;
    }

    /** ∂ω̇/∂q at fixed v̇ (3 x nv). */
    public double[] dOmegaDotDq() {
        return dOmegaDotDq;
    }

    /** ∂p̈/∂q at fixed v̇ (3 x nv). */
    public double[] dAccelerationDq() {
        return dAccelerationDq;
    }

    /** ∂ω̇/∂v at fixed v̇ (3 x nv). */
    public double[] dOmegaDotDv() {
        return dOmegaDotDv;
    }

    /** ∂p̈/∂v at fixed v̇ (3 x nv). */
    public double[] dAccelerationDv() {
        return dAccelerationDv;
    }

    /** Every value of {@code other} (of the same nv). */
    void copyFrom(PointMotion other) {
        System.arraycopy(other.rotation, 0, rotation, 0, 9);
        System.arraycopy(other.position, 0, position, 0, 3);
        System.arraycopy(other.omega, 0, omega, 0, 3);
        System.arraycopy(other.velocity, 0, velocity, 0, 3);
        System.arraycopy(other.omegaDot, 0, omegaDot, 0, 3);
        System.arraycopy(other.acceleration, 0, acceleration, 0, 3);
        int n = 3 * nv;
        System.arraycopy(other.dRotationDq, 0, dRotationDq, 0, n);
        System.arraycopy(other.dPositionDq, 0, dPositionDq, 0, n);
        System.arraycopy(other.dOmegaDq, 0, dOmegaDq, 0, n);
        System.arraycopy(other.dVelocityDq, 0, dVelocityDq, 0, n);
        System.arraycopy(other.dOmegaDotDq, 0, dOmegaDotDq, 0, n);
        System.arraycopy(other.dAccelerationDq, 0, dAccelerationDq, 0, n);
        System.arraycopy(other.dOmegaDotDv, 0, dOmegaDotDv, 0, n);
        System.arraycopy(other.dAccelerationDv, 0, dAccelerationDv, 0, n);
    }

    /** A point fixed in the world: at {@code point}, identity rotation, at rest. */
    void setWorldPoint(double[] point) {
        for (int i = 0; i < 9; i++) {
            rotation[i] = i % 4 == 0 ? 1 : 0;
        }
        for (int i = 0; i < 3; i++) {
            position[i] = point[i];
            omega[i] = velocity[i] = omegaDot[i] = acceleration[i] = 0;
        }
        Arrays.fill(dRotationDq, 0);
        Arrays.fill(dPositionDq, 0);
        Arrays.fill(dOmegaDq, 0);
        Arrays.fill(dVelocityDq, 0);
        Arrays.fill(dOmegaDotDq, 0);
        Arrays.fill(dAccelerationDq, 0);
        Arrays.fill(dOmegaDotDv, 0);
        Arrays.fill(dAccelerationDv, 0);
    }
}
