package org.symdyn.generator.symbolic;

import org.symdyn.model.Model;

/**
 * One model walked symbolically (ARCHITECTURE.md, "Data flow", step 3): its parts in one graph, each the twin of
 * a part of the generic runtime, sharing every temporary (a sine, a transform, a body velocity is derived once
 * whichever quantity asks first). Under them, the joint models ({@link SymbolicJoints}, twin of
 * {@code JointTransforms}) and the body inertias ({@link SymbolicInertias}).
 *
 * @param graph       the graph every part writes into
 * @param dynamics    CRBA, RNEA and forward dynamics ({@code GenericDynamics})
 * @param kinematics  poses, velocities, accelerations, Jacobians ({@code GenericDynamics}' kinematics)
 * @param constraints φ, φ̇, G, γ ({@code GenericConstraints} and the constraint rows)
 * @param derivatives ∂τ, ∂v̇, H⁻¹, the Coriolis matrix and the regressor ({@code DerivativeRecursions}' quantities)
 * @param articulatedBody forward dynamics by the articulated-body algorithm ({@code ArticulatedBodyAlgorithm})
 * @param constrainedSystem the saddle-point system of the model's rows over run-time H and G
 *                          ({@code SchurComplementMethod})
 */
public record SymbolicModel(ExpressionGraph graph, SymbolicRecursions dynamics,
        SymbolicKinematics kinematics, SymbolicConstraints constraints, SymbolicDerivatives derivatives,
        SymbolicArticulatedBody articulatedBody, SymbolicConstrainedSystem constrainedSystem) {

    /**
     * Prepares the symbolic joint models, inertias and constants of {@code model} in {@code g}.
     *
     * @throws UnsupportedModelException for a constraint type the generator cannot derive,
     *     located at its element
     */
    public static SymbolicModel of(Model model, ExpressionGraph g) {
        SymbolicSpatial sp = new SymbolicSpatial(g);
        SymbolicJoints joints = new SymbolicJoints(model, g, sp);
        SymbolicInertias inertias = new SymbolicInertias(model, g, sp);
        SymbolicRecursions dynamics = new SymbolicRecursions(model, g, sp, joints, inertias);
        SymbolicKinematics kinematics = new SymbolicKinematics(model, g, sp, joints, dynamics);
        SymbolicConstraints constraints = new SymbolicConstraints(model, g, sp, joints, kinematics);
        SymbolicDerivatives derivatives = new SymbolicDerivatives(model, g, sp, joints, inertias, dynamics,
                kinematics);
        return new SymbolicModel(g, dynamics, kinematics, constraints, derivatives,
                new SymbolicArticulatedBody(model, g, sp, joints, inertias, dynamics),
                new SymbolicConstrainedSystem(g, dynamics, model.dofParents()));
    }
}
