/**
 * The contract between the runtime's solvers and a model's functions: {@link org.symdyn.contract.Dynamics},
 * {@link org.symdyn.contract.Kinematics}, {@link org.symdyn.contract.FrameKinematics},
 * {@link org.symdyn.contract.ConstraintFunctions}, {@link org.symdyn.contract.ModelFunctions} and
 * {@link org.symdyn.contract.DynamicsDerivatives} (derivatives, Coriolis matrix, regressor), implemented
 * alike by the generic interpreter ({@link org.symdyn.constraints.GenericModel},
 * {@link org.symdyn.dynamics.GenericDynamics}, {@link org.symdyn.constraints.GenericConstraints}) and by every
 * generated class; and {@link org.symdyn.contract.ConstrainedSystemFactorization} and
 * {@link org.symdyn.contract.ConstraintDerivatives}, which only a generated class of a model with constraint rows
 * implements (its own constrained system factorised in straight-line code; its rows' derivatives, with the
 * derivatives option).
 *
 * <h2>Arguments</h2>
 * One policy for both backends, checked at the start of every method before anything is computed or written
 * (by {@link org.symdyn.contract.Arguments}, so that the exception and its message are the same whichever backend
 * is behind the interface):
 * <ul>
 * <li><b>Lengths.</b> Every {@code double[]} argument has exactly its length: q nq; v, v̇, τ and the outputs of
 * the dynamics nv; φ, φ̇ and γ {@link org.symdyn.contract.ConstraintFunctions#constraintRows()}; a point, a
 * position and a point's velocity, acceleration or bias 3; a rotation 9; a body's spatial velocity or
 * acceleration 6. A shorter or longer array throws {@link java.lang.IllegalArgumentException}
 * ("q must have 7 entries, got 6"): it is never read past its end nor accepted with extra entries.</li>
 * <li><b>Shapes.</b> Every {@code DMatrixRMaj} output has exactly its shape (H nv x nv, G constraintRows x nv, a
 * point Jacobian 3 x nv, a body Jacobian 6 x nv, a derivative, H⁻¹ or the Coriolis matrix nv x nv, the regressor
 * nv x 10·bodies, the parameter regressor nv x parameters; the inputs H and G of a factorisation likewise), else {@link java.lang.IllegalArgumentException}
 * ("H must be 7x7, got 7x6"). Outputs are never reshaped.</li>
 * <li><b>No aliasing.</b> An output is never the same array as an input or as another output of the same call
 * (for a matrix, its {@code data} array): {@code biasForces(q, v, v)} throws
 * {@link java.lang.IllegalArgumentException} ("C must not be the same array as v (...)") rather than return
 * a result computed from a half-overwritten input. Inputs may be shared (q and v may be one array when nq = nv).
 * Empty arrays hold nothing and may be shared.</li>
 * <li><b>Indices.</b> A body or frame index out of range throws {@link java.lang.IndexOutOfBoundsException}
 * ("body 7 of 5"), after the checks above.</li>
 * <li>A {@code null} argument throws {@link java.lang.NullPointerException}.</li>
 * </ul>
 * Values are not checked (a NaN in gives NaN out); the checks cost a few compares per call, no allocation. The
 * solvers of {@code org.symdyn.solvers} and {@code org.symdyn.simulation} check their own array arguments by the
 * same rules.
 */
package org.symdyn.contract;
