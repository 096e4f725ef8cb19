package org.symdyn.kinematics;

import org.ejml.data.DMatrixRMaj;

/**
 * Forward kinematics of one model. Poses and point quantities are in world coordinates; a point is given in the
 * coordinates of the body it is fixed to. Rotations are row-major 3x3 arrays R_world<-body (so
 * {@code x_world = R x_body + p}). Point accelerations are the classical (not spatial) accelerations for the given
 * v̇, without gravity.
 *
 * <p>As for {@link org.symdyn.dynamics.Dynamics}: caller-owned outputs, no allocation, not thread-safe.
 */
public interface Kinematics extends FrameKinematics {
    /** The pose of a body's frame: rotation world <- body (9, row-major) and origin position (3). */
    void bodyPose(double[] q, int body, double[] rotation, double[] position);

    /** The spatial velocity [ω; v_origin] of a body in its own coordinates. */
    void bodyVelocity(double[] q, double[] v, int body, double[] velocity);

    /**
     * The spatial acceleration of a body in its own coordinates for joint accelerations v̇ (gravity excluded): the
     * time derivative of {@link #bodyVelocity}'s coordinates. Its angular part is ω̇; its linear part is the
     * classical acceleration of the body origin minus ω × v_origin (Featherstone's spatial acceleration).
     */
    void bodyAcceleration(double[] q, double[] v, double[] vdot, int body, double[] acceleration);

    /** World position of a point fixed in a body. */
    void pointPosition(double[] q, int body, double[] point, double[] position);

    /** World velocity of a point fixed in a body. */
    void pointVelocity(double[] q, double[] v, int body, double[] point, double[] velocity);

    /** World classical acceleration of a point fixed in a body, for joint accelerations v̇ (gravity excluded). */
    void pointAcceleration(double[] q, double[] v, double[] vdot, int body, double[] point, double[] acceleration);

    /** The 3 x nv Jacobian J with ṗ_world = J v for a point fixed in a body. */
    void pointJacobian(double[] q, int body, double[] point, DMatrixRMaj J);

    /**
     * The 6 x nv body Jacobian J with [ω; v_origin] = J v, the body's spatial velocity in its own coordinates
     * (angular velocity, then the velocity of the body origin).
     */
    void bodyJacobian(double[] q, int body, DMatrixRMaj J);
}
