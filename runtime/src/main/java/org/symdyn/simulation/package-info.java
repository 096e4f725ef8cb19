/**
 * Time integration of rigid multibody systems, generic or generated, constrained or not.
 *
 * <ul>
 * <li>Integrators step on the configuration manifold of {@link org.symdyn.manifold.StateSpace} (q̇ = N(q) v, the
 * chart q₀ ⊕ u; unit quaternions of floating and ball joints stay unit).</li>
 * <li>Right-hand sides {@link org.symdyn.simulation.AccelerationFunction}: unconstrained
 * ({@link org.symdyn.simulation.UnconstrainedAcceleration}, v̇ = H⁻¹(τ - C)) or constrained
 * ({@link org.symdyn.simulation.ConstrainedAcceleration}, [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ]), τ from a
 * {@link org.symdyn.simulation.ForceFunction}.</li>
 * <li>Integrators {@link org.symdyn.simulation.Integrator}: {@link org.symdyn.simulation.RungeKutta4},
 * {@link org.symdyn.simulation.SemiImplicitEuler}, {@link org.symdyn.simulation.DormandPrince45} (adaptive).</li>
 * <li>{@link org.symdyn.simulation.IntegrationLoop}: the one continuous-time step of a
 * {@link org.symdyn.simulation.SimulationState} (t, q, v, step count): an integrator step, or for a hybrid system
 * ({@link org.symdyn.simulation.HybridEvents}) segments with its modes fixed, cut at the first root of its event
 * functions by regula falsi; then drift projection if any. {@code org.symdyn.systems.ContinuousTimeSystem} and
 * {@link org.symdyn.simulation.Simulator} both step through it.</li>
 * <li>{@link org.symdyn.simulation.Simulator}: model, dynamics, constraints, integrator and
 * {@link org.symdyn.simulation.DriftControl} (none, Baumgarte, projection, both) together, with constraint errors
 * and {@link org.symdyn.simulation.MechanicalEnergy energy} monitored per step through a
 * {@link org.symdyn.simulation.StepListener} such as {@link org.symdyn.simulation.SimulationLog}.</li>
 * </ul>
 *
 * Units are SI; velocities and forces follow {@link org.symdyn.model.JointType} and
 * {@link org.symdyn.contract.Dynamics}. Everything allocates at construction and nothing per step; no instance is
 * thread-safe.
 */
package org.symdyn.simulation;
