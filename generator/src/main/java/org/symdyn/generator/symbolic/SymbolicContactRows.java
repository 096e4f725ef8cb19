package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.model.ContactConstraintModel;

/**
 * A contact constraint's row, the twin of the runtime's {@code ContactRows}: a point of a body held along a world
 * normal n, with position error 0 (RBDL's convention) and velocity error n · ṗ.
 *
 * <p>G's row and γ in closed form, the values differentiating n · ṗ gives: G_r = nᵀ J_p, the point Jacobian in world
 * coordinates ({@link SymbolicKinematics#pointJacobian}: one rotated motion subspace and one cross product per
 * ancestor dof), and γ = -n · J̇_p v, the point's classical acceleration at v̇ = 0
 * ({@link SymbolicKinematics#pointBiasAcceleration}: the kinematics' velocity-product pass). Differentiating through
 * the graph instead carries every dof's direction down the chain of transforms, and γ's through every sine and
 * cosine: solo12 with its 12 foot rows took 1,236 operations for G and 1,616 for γ so, against 638 and 854 in closed
 * form, and its fused H, C, G, γ 4,834 against 3,402 (the sample quadruped 3,990 against 2,654).
 */
final class SymbolicContactRows implements SymbolicRows {
    private final ContactConstraintModel contact;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicKinematics kinematics;

    SymbolicContactRows(ContactConstraintModel contact, ExpressionGraph g, SymbolicSpatial sp,
            SymbolicKinematics kinematics) {
        this.contact = contact;
        this.g = g;
        this.sp = sp;
        this.kinematics = kinematics;
    }

    @Override
    public List<IExpr> positionErrors() {
        return List.of(F.C0);
    }

    @Override
    public List<IExpr> velocityErrors() {
        IExpr[] pv = kinematics.pointVelocity(contact.body(), sp.constants(contact.point()));
        return List.of(g.dot(sp.constants(contact.normal()), pv));
    }

    /** nᵀ J_p. */
    @Override
    public IExpr[][] jacobianRows() {
        IExpr[][] j = kinematics.pointJacobian(contact.body(), sp.constants(contact.point()));
        IExpr[] n = sp.constants(contact.normal());
        IExpr[] row = new IExpr[j[0].length];
        for (int k = 0; k < row.length; k++) {
            row[k] = g.dot(n, new IExpr[] {j[0][k], j[1][k], j[2][k]});
        }
        return new IExpr[][] {row};
    }

    /** -n · J̇_p v. */
    @Override
    public IExpr[] gammaRows() {
        IExpr[] a = kinematics.pointBiasAcceleration(contact.body(), sp.constants(contact.point()));
        return new IExpr[] {g.neg(g.dot(sp.constants(contact.normal()), a))};
    }
}
