package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.model.ContactConstraintModel;

/**
 * A contact constraint's row, the twin of the runtime's {@code ContactRows}: a point of a body held along a world
 * normal n, with position error 0 (RBDL's convention) and velocity error n · ṗ.
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
}
