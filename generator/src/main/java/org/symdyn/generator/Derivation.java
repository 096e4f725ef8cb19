package org.symdyn.generator;

import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicModel;
import org.symdyn.model.Model;

/**
 * The symbolic quantities a generated class is built from, derived first and in this order (the order names the
 * temporaries of the expression graph): H, C(q, v), g(q), τ(q, v, v̇), v̇ through the factorised H, and the
 * constraint rows' φ, φ̇, G and γ. What is derived later (kinematics, derivatives, the articulated-body algorithm,
 * the constrained system) is derived where it is emitted, after these methods, so that their temporaries keep
 * their names.
 *
 * @param symbolic      the symbolic model, over the expression graph of every derived quantity
 * @param h             H(q), or null when no method needs the symbolic H (a large model's looped CRBA derives its
 *                      own)
 * @param c             C(q, v)
 * @param g             g(q)
 * @param tau           τ(q, v, v̇)
 * @param qddFactorised v̇ = H⁻¹ (τ - C) through the branch-sparse LᵀDL of H, or null when it is not a candidate
 * @param phi           φ(q), one entry per constraint row
 * @param phidot        φ̇(q, v)
 * @param jacobian      G(q) = ∂φ̇/∂v
 * @param gamma         γ(q, v) = -(Ġ v)
 */
record Derivation(SymbolicModel symbolic, IExpr[][] h, IExpr[] c, IExpr[] g, IExpr[] tau,
        IExpr[] qddFactorised, IExpr[] phi, IExpr[] phidot, IExpr[][] jacobian, IExpr[] gamma) {

    /** Derives the quantities of {@code model} that the chosen {@code forms} need, timing each. */
    static Derivation derive(Model model, GeneratorOptions options, GenerationForms forms, PhaseClock clock) {
        ExpressionGraph graph = new ExpressionGraph();
        SymbolicModel sym = SymbolicModel.of(model, graph);
        clock.lap("setup");
        // The symbolic H: for the unrolled massMatrix, the fused evaluations, the factorisation and the derivatives.
        IExpr[][] h = !forms.large() || forms.factorisedCandidate() || options.closedForm()
                || options.derivatives() && !CodeGenerator.loopedDerivatives(model)
                ? sym.dynamics().massMatrix() : null;
        clock.lap("mass_matrix");
        IExpr[] c = sym.dynamics().biasForces();
        clock.lap("bias_forces");
        IExpr[] g = sym.dynamics().gravityForces();
        clock.lap("gravity");
        IExpr[] tau = sym.dynamics().inverseDynamics();
        clock.lap("inverse_dynamics");
        // The factorisation is O(n d²) symbolic work: past ForwardDynamicsForm.MAX_FACTORISATION_WORK (a chain of 68
        // links or more) it is not derived and the articulated-body algorithm, far cheaper there, is taken.
        IExpr[] qddFactorised = forms.factorisedCandidate() ? sym.dynamics().forwardDynamics(h, c) : null;
        clock.lap("forward_dynamics");
        IExpr[] phi = sym.constraints().positionErrors();
        IExpr[] phidot = sym.constraints().velocityErrors();
        IExpr[][] jacobian = sym.constraints().jacobian(phidot);
        clock.lap("constraint_jacobian");
        IExpr[] gamma = sym.constraints().gamma(phidot);
        clock.lap("gamma");
        return new Derivation(sym, h, c, g, tau, qddFactorised, phi, phidot, jacobian, gamma);
    }

    /** The expression graph of every derived quantity. */
    ExpressionGraph graph() {
        return symbolic.graph();
    }

    /** The number of constraint rows. */
    int rows() {
        return phi.length;
    }
}
