package org.symdyn.contract;

import java.util.List;
import org.ejml.data.DMatrixRMaj;

/**
 * The derivatives of the joint-space dynamics H(q) v̇ + C(q, v) = τ of one model, its Coriolis matrix and its
 * inertial-parameter regressor: what trajectory optimisation and model-predictive control call every iteration,
 * and what identification needs. Implemented by the generic interpreter ({@link org.symdyn.dynamics.GenericDynamics},
 * analytical recursions, the oracle) and by generated classes generated with derivatives.
 *
 * <h2>Derivatives with respect to q: the tangent space</h2>
 * q has nq entries but moves in an nv-dimensional space (a floating base's or a ball joint's unit quaternion), so
 * every ∂/∂q here is an nv x nv matrix taken in the tangent space: column k is the derivative along δ = e_k of
 * f(q ⊕ δ) at δ = 0, where ⊕ is the integrators' local update
 * <ul>
 * <li>scalar coordinates (revolute, continuous, prismatic, planar x, y, θ): q + δ;</li>
 * <li>a quaternion (ball, and a floating base's orientation): R(q ⊕ δ) = R(q) exp([δ_ω]×), δ_ω a rotation vector
 * in <b>child</b> (body) coordinates, as ω is;</li>
 * <li>a floating base's position: p + R(q) δ_lin, δ_lin in <b>base</b> coordinates, as v_origin is.</li>
 * </ul>
 * So d f(q(t))/dt = (∂f/∂q) v along any motion, exactly as v enters the dynamics. In terms of
 * {@link org.symdyn.manifold.StateSpace}: (∂f/∂q) δ = d/dt f(retract(q, t ξ)) at t = 0 with
 * ξ = {@code tangent(q, δ)}, which turns a floating base's δ_lin into the world displacement R δ_lin that
 * {@code retract} takes. For users of other libraries: this is, at first order, Pinocchio's convention
 * ({@code pinocchio::integrate} with a body-frame twist, its LOCAL derivatives) up to the order of a floating base's
 * velocity, here [ω; v_origin] (angular first), in Pinocchio [v; ω]. A library that differentiates with respect to
 * the nq coordinates themselves compares through q̇ = N(q) v ({@code StateSpace.qdot}): its ∂f/∂q times N(q).
 *
 * <h2>The quantities</h2>
 * <ul>
 * <li>{@link #inverseDynamicsDerivatives}: ∂τ/∂q and ∂τ/∂v of τ(q, v, v̇) = H v̇ + C (∂τ/∂v̇ = H is
 * {@link Dynamics#massMatrix}).</li>
 * <li>{@link #forwardDynamicsDerivatives}: ∂v̇/∂q, ∂v̇/∂v and ∂v̇/∂τ = H⁻¹ of v̇(q, v, τ) = H⁻¹ (τ - C), that is
 * -H⁻¹ ∂τ/∂q and -H⁻¹ ∂τ/∂v at v̇ = v̇(q, v, τ).</li>
 * <li>{@link #inverseMassMatrix}: H⁻¹ alone.</li>
 * <li>{@link #coriolisMatrix}: the Coriolis matrix C(q, v) of the Christoffel symbols (below), with
 * C(q, v) v + g(q) = {@link Dynamics#biasForces} and Ḣ - 2C skew-symmetric.</li>
 * <li>{@link #regressor}: Y(q, v, v̇), nv x 10·{@link #bodyCount()}, with τ = Y π for the bodies' inertial
 * parameters π ({@link #inertialParameters}).</li>
 * </ul>
 *
 * <h2>The Coriolis matrix</h2>
 * With X_k the tangent directions above (so that Ḣ = Σ_l (X_l H) v_l) and H_jk = ⟨X_j, X_k⟩ the kinetic-energy
 * metric, the Christoffel symbols of the first kind are
 * Γ_k,lj = ⟨∇_X_l X_j, X_k⟩ = ½ (X_l H_jk + X_j H_lk - X_k H_lj + ⟨[X_l, X_j], X_k⟩ - ⟨[X_l, X_k], X_j⟩
 * - ⟨[X_j, X_k], X_l⟩) and C_kj = Σ_l Γ_k,lj v_l. For revolute, prismatic and planar joints the X_k are
 * coordinate directions and the brackets vanish: Γ_k,lj = ½ (∂H_kj/∂q_l + ∂H_kl/∂q_j - ∂H_lj/∂q_k), the textbook
 * formula. A floating base's and a ball joint's directions are body-fixed (left-invariant) and do not commute:
 * [X_a, X_b] = X_{e_a × e_b} with × the spatial motion cross product within the joint ([ω; v_origin]); these are the
 * terms that make C v the bias forces in the body-velocity coordinates. Metric compatibility gives Ḣ = C + Cᵀ,
 * hence Ḣ - 2C skew. Both backends compute it spatially, without the symbols: C = Σ_i J_iᵀ (I_i J̇_i + B_i J_i),
 * the Christoffel-consistent factorisation of Echeandia and Wensing (2021), with J_i body i's Jacobian, I_i its
 * inertia and, in body coordinates (the generic runtime), B_i = ½ ((v_i ×*) I_i + I_i (v_i ×) + (I_i v_i) ×̄*),
 * where (f ×̄*) m = m ×* f: a skew B_i with B_i v_i = v_i ×* I_i v_i; in world coordinates (generated classes)
 * B_i = ½ (İ_i + (I_i v_i) ×̄*).
 *
 * <h2>The regressor</h2>
 * τ is linear in each body's ten standard inertial parameters, in its own (link) frame, at its origin; π stacks,
 * for bodies 0 .. bodyCount - 1 in body order (the moving bodies of {@link ModelInfo#bodyNames()}, fixed links
 * merged into them):
 * <pre>
 *   π_i = [m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]
 * </pre>
 * with m the mass (kg), m c the first moment of mass (kg m), and I the rotational inertia about the body origin (not
 * about the centre of mass: I = I_c + m (|c|² 1 - c cᵀ), kg m²), its lower triangle row by row (Pinocchio's order).
 * Column 10 i + p of Y is ∂τ/∂π_i,p. Gravity is included (it is linear in π too), so Y(q, 0, 0) π = g(q). The joints'
 * armature (a diagonal A of H, not an inertial parameter of a body) is not in Y π: τ = Y π + A v̇, and Y π = τ for a
 * model without armature.
 *
 * <h2>Arguments</h2>
 * As the package states: q of nq entries, v, v̇ and τ of nv; every matrix output of exactly its shape (nv x nv,
 * the regressor nv x 10·bodyCount, the parameter regressor nv x parameter count) else {@link IllegalArgumentException} naming it by its parameter name ({@code dtauDq},
 * {@code Minv}, {@code Y}, ...);
 * no output the same array as an input or another output. Caller-owned outputs are overwritten. SI units. No method
 * allocates; an instance owns scratch arrays and is not thread-safe: {@link #copy()} gives one per thread.
 */
public interface DynamicsDerivatives extends Dynamics {
    /** Number of inertial parameters per body in {@link #regressor} and {@link #inertialParameters}. */
    int PARAMETERS_PER_BODY = 10;

    /**
     * ∂τ/∂q and ∂τ/∂v (nv x nv each) of the inverse dynamics τ(q, v, v̇) = H(q) v̇ + C(q, v), ∂/∂q in the tangent
     * space (see the class comment).
     */
    void inverseDynamicsDerivatives(double[] q, double[] v, double[] vdot, DMatrixRMaj dtauDq, DMatrixRMaj dtauDv);

    /**
     * ∂v̇/∂q, ∂v̇/∂v and ∂v̇/∂τ = H⁻¹ (nv x nv each) of the forward dynamics v̇(q, v, τ) = H⁻¹ (τ - C), ∂/∂q in the
     * tangent space (see the class comment).
     */
    void forwardDynamicsDerivatives(double[] q, double[] v, double[] tau, DMatrixRMaj dvdotDq, DMatrixRMaj dvdotDv,
            DMatrixRMaj dvdotDtau);

    /** H(q)⁻¹ (nv x nv, symmetric positive definite). */
    void inverseMassMatrix(double[] q, DMatrixRMaj Minv);

    /**
     * The Coriolis matrix C(q, v) (nv x nv) of the Christoffel symbols: C v + g = {@link #biasForces}, Ḣ - 2C
     * skew-symmetric (see the class comment).
     */
    void coriolisMatrix(double[] q, double[] v, DMatrixRMaj coriolis);

    /**
     * The joint-torque regressor Y(q, v, v̇) (nv x 10·bodyCount) with τ = Y π + A v̇, π the inertial parameters in
     * the order of the class comment and A the diagonal of the joints' armature.
     */
    void regressor(double[] q, double[] v, double[] vdot, DMatrixRMaj Y);

    /**
     * The inertial parameters π (10·bodyCount entries, the order of the class comment) this instance evaluates with,
     * so that {@code Y π} reproduces its inverse dynamics (less the armature's A v̇, see the class comment).
     */
    void inertialParameters(double[] pi);

    /**
     * The names of the model's declared parameters ({@code symdyn:parameter}; in a generated class its
     * {@link ModelParameters}), in declaration order: the columns of {@link #inertialParameterJacobian} and
     * {@link #parameterRegressor}.
     */
    List<String> parameterNames();

    /**
     * ∂π/∂p (10·bodyCount x parameter count) at the current parameter values: how the inertial parameters π (the
     * order of the class comment) move with each declared parameter. A link's mass, centre of mass or inertia entry
     * changes its body's ten entries (mass: [1, c, |c|² - c_x², -c_x c_y, ...]; a centre-of-mass coordinate c_k:
     * [0, m e_k, m ∂(|c|² 1 - c cᵀ)/∂c_k]; an inertia entry: 1 in its place); a joint-origin parameter moves the
     * kinematics, not π, and an armature adds A v̇ outside π: their columns are zero.
     */
    void inertialParameterJacobian(DMatrixRMaj dpiDp);

    /**
     * The regressor of the declared parameters, Y_p = Y(q, v, v̇) ∂π/∂p (nv x parameter count): column k is ∂τ/∂p_k
     * for a link parameter (mass, centre of mass, inertia entry), since τ = Y π and Y does not depend on them. A
     * link's mass and inertia entries enter τ linearly (π is affine in them, the centres of mass held): for those,
     * τ(p + Δ) = τ(p) + Y_p Δ exactly, which is what identification solves for. A centre-of-mass coordinate enters
     * quadratically (its column is the derivative at the current values); a joint-origin parameter's column is zero
     * (it enters through the kinematics, not through π). A joint's armature a enters τ as a v̇ on the joint's dofs:
     * its column is v̇ there and zero elsewhere (linear: exact for any Δ).
     */
    void parameterRegressor(double[] q, double[] v, double[] vdot, DMatrixRMaj Yp);

    @Override
    DynamicsDerivatives copy();
}
