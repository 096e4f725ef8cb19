package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * Forward kinematics of one model: body poses, spatial velocities and accelerations, and the position, velocity,
 * classical acceleration, Jacobian and bias acceleration of a point fixed in a body and given at run time.
 *
 * <p>Conventions (the places where users of Pinocchio and Drake stumble):
 * <ul>
 * <li>Rotations are row-major 3x3 arrays R_world&lt;-body, so {@code x_world = R x_body + p_origin}.</li>
 * <li>Spatial (6-vector) quantities are ordered [angular; linear] (Featherstone; Pinocchio uses [linear;
 * angular]). {@link #bodyVelocity}, {@link #bodyAcceleration} and {@link #bodyJacobian} are <b>body</b>
 * quantities: [ω; v_origin] of the body frame, both expressed in the body's own coordinates (Pinocchio's LOCAL
 * frame, up to the order).</li>
 * <li>Point quantities ({@link #pointPosition} to {@link #pointBiasAcceleration}) are in <b>world</b>
 * coordinates; the point is given in the coordinates of the body it is fixed to. Their Jacobian is the 3 x nv
 * matrix J with ṗ = J v (Pinocchio's LOCAL_WORLD_ALIGNED linear part).</li>
 * <li>Accelerations exclude gravity. {@link #bodyAcceleration} is the <i>spatial</i> acceleration (the time
 * derivative of the body-coordinate [ω; v_origin]); {@link #pointAcceleration} is the <i>classical</i>
 * acceleration p̈ of the material point, p̈ = J v̇ + J̇ v, and {@link #pointBiasAcceleration} is its part at
 * v̇ = 0, J̇ v.</li>
 * <li>Body indices are those of {@link ModelInfo#bodyNames()}; v is the model's velocity vector (a floating
 * base's [ω; v_origin] in base coordinates).</li>
 * </ul>
 *
 * <p>As for {@link Dynamics}: caller-owned outputs, no allocation, not thread-safe; arguments as the package
 * states (exact lengths and shapes, no output aliasing an input or another output, an index out of range
 * throws {@link IndexOutOfBoundsException}).
 */
public interface Kinematics extends FrameKinematics {
    /** The pose of a body's frame: rotation world &lt;- body (9, row-major) and origin position (3), world. */
    void bodyPose(double[] q, int body, double[] rotation, double[] position);

    /** The spatial velocity [ω; v_origin] of a body in its own coordinates (6). */
    void bodyVelocity(double[] q, double[] v, int body, double[] velocity);

    /**
     * The spatial acceleration of a body in its own coordinates for joint accelerations v̇ (gravity excluded): the
     * time derivative of {@link #bodyVelocity}'s coordinates. Its angular part is ω̇; its linear part is the
     * classical acceleration of the body origin minus ω × v_origin (Featherstone's spatial acceleration).
     */
    void bodyAcceleration(double[] q, double[] v, double[] vdot, int body, double[] acceleration);

    /** World position of a point fixed in a body (point in body coordinates). */
    void pointPosition(double[] q, int body, double[] point, double[] position);

    /** World velocity ṗ = J v of a point fixed in a body. */
    void pointVelocity(double[] q, double[] v, int body, double[] point, double[] velocity);

    /** World classical acceleration p̈ = J v̇ + J̇ v of a point fixed in a body (gravity excluded). */
    void pointAcceleration(double[] q, double[] v, double[] vdot, int body, double[] point, double[] acceleration);

    /**
     * The bias acceleration J̇ v of a point fixed in a body: its world classical acceleration at v̇ = 0 (gravity
     * excluded). A contact row with world normal n has γ = -n · J̇ v.
     */
    void pointBiasAcceleration(double[] q, double[] v, int body, double[] point, double[] bias);

    /** The 3 x nv Jacobian J with ṗ_world = J v for a point fixed in a body. */
    void pointJacobian(double[] q, int body, double[] point, DMatrixRMaj J);

    /**
     * {@link #pointJacobian} on the columns of the body's branch (the dofs from the root to the body, the only ones
     * that can be non-zero), leaving the other columns of {@code J} as they are: for a caller that keeps them zero
     * (contact rows kept on their supports). Zeroing 3 nv entries per contact point made a pile of free bodies cost
     * the contacts times the bodies. The default writes all of J.
     */
    default void pointJacobianOnBranch(double[] q, int body, double[] point, DMatrixRMaj J) {
        pointJacobian(q, body, point, J);
    }

    /**
     * The 6 x nv body Jacobian J with [ω; v_origin] = J v, the body's spatial velocity in its own coordinates
     * (angular velocity, then the velocity of the body origin).
     */
    void bodyJacobian(double[] q, int body, DMatrixRMaj J);
}
