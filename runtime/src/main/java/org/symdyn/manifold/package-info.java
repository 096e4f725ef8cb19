/**
 * The configuration manifold of a model: {@link org.symdyn.manifold.StateSpace}, the state (q, v) with q ∈ ℝ^nq and
 * v ∈ ℝ^nv, the kinematic differential equation q̇ = N(q) v, the chart q = q₀ ⊕ u (u ∈ ℝ^nv) in which integrators
 * step, its inverse and its Jacobian, and the update q ⊕ h v that keeps the unit quaternions of floating and ball
 * joints unit.
 *
 * <p>This package knows the joints' layout ({@link org.symdyn.model}, {@link org.symdyn.contract.ModelInfo}) and
 * rotations ({@link org.symdyn.spatial}) and nothing of dynamics. It stands below everything that moves a state
 * along the manifold: the solvers' position assembly (Newton steps q ⊕ d), contact's time stepping
 * (q⁺ = q ⊕ h v⁺) and simulation's integrators (Runge-Kutta stages in the chart); none of those owns it, so
 * none of them needs to import another to step.
 *
 * <p>Units are SI; quaternions are (x, y, z, w) of R_parent←child, ω in child coordinates. Every instance is
 * immutable and thread-safe.
 */
package org.symdyn.manifold;
