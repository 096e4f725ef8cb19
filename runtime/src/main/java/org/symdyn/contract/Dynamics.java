package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * The joint-space dynamics of one model, H(q) v̇ + C(q, v) = τ, with H the joint-space inertia (mass) matrix and
 * C the bias forces (Coriolis, centrifugal and gravity). Implemented by the generic interpreter
 * ({@link org.symdyn.dynamics.GenericDynamics}) and by every generated class, so that solvers run on either.
 *
 * <p>Conventions: inputs are {@code double[]} of length nq (q) or nv (v, v̇, τ); outputs are caller-owned and
 * preallocated ({@code DMatrixRMaj} of nv x nv, arrays of nv) and are overwritten. SI units. A floating base's v is
 * [ω; v_origin] in base coordinates and its τ the wrench [n; f] on the base in base coordinates; v̇ is the time
 * derivative of that v (see {@link org.symdyn.model.JointType}). Gravity is the model's.
 *
 * <p>H includes each joint's armature a (the reflected inertia of its rotor, {@link org.symdyn.model.Joint#armature}):
 * a is added to each of the joint's diagonal entries H_kk, so τ carries a v̇_k and v̇ follows (MuJoCo's
 * {@code dof_armature}, Pinocchio's {@code model.armature}). A joint's viscous damping
 * ({@link org.symdyn.model.Joint#damping}) is not part of these dynamics: τ and v̇ here are the rigid-body ones, and
 * simulations ({@code org.symdyn.systems}, {@code org.symdyn.simulation}) apply −d v as a passive joint force.
 *
 * <p>Arguments follow the package's policy ({@link org.symdyn.contract}): exact lengths and shapes, else
 * {@link IllegalArgumentException} naming the argument, the expected and the actual length; no output the same array
 * as an input or another output (so {@code biasForces(q, v, v)} is refused, not computed from an overwritten v).
 *
 * <p>No method allocates. An instance owns scratch arrays and is therefore not thread-safe: use
 * {@link #copy()} to get one instance per thread.
 */
public interface Dynamics extends ModelInfo {
    /** H(q), the symmetric positive definite joint-space inertia matrix (nv x nv). */
    void massMatrix(double[] q, DMatrixRMaj H);

    /**
     * H(q) on the entries the kinematic tree can make non-zero, H_ij and H_ji with dof j on dof i's branch (from
     * the root to i, i included), leaving every other entry of {@code H} as it is: for a caller that keeps those
     * zero between calls and reads H along the tree only. A scene of many free bodies has nv² entries of which
     * 36 per body can be non-zero; zeroing the rest every step was a tenth of a 100-box pile's step. The default
     * writes all of H ({@link #massMatrix}).
     */
    default void massMatrixOnTree(double[] q, DMatrixRMaj H) {
        massMatrix(q, H);
    }

    /** C(q, v): the τ that gives zero acceleration, Coriolis, centrifugal and gravity terms together. */
    void biasForces(double[] q, double[] v, double[] C);

    /** g(q) = C(q, 0): the gravity part of the bias forces. */
    void gravityForces(double[] q, double[] g);

    /** Inverse dynamics: τ = H(q) v̇ + C(q, v). */
    void inverseDynamics(double[] q, double[] v, double[] vdot, double[] tau);

    /** Forward dynamics: v̇ = H(q)⁻¹ (τ - C(q, v)). */
    void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot);

    /** An independent instance for the same model, with its own scratch arrays (for another thread). */
    Dynamics copy();
}
