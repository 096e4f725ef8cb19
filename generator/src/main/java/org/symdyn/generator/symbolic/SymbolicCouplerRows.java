package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Joint;
import org.symdyn.model.Model;

/**
 * A coupler's row, the twin of the runtime's {@code CouplerRows}: q_j = ratio q_r + offset, so
 * φ = q_j - ratio q_r - offset and φ̇ = v_j - ratio v_r.
 */
final class SymbolicCouplerRows implements SymbolicRows {
    private final CouplerConstraintModel coupler;
    private final ExpressionGraph g;
    private final SymbolicJoints joints;
    private final Joint joint;
    private final Joint reference;

    SymbolicCouplerRows(CouplerConstraintModel coupler, Model model, ExpressionGraph g, SymbolicJoints joints) {
        this.coupler = coupler;
        this.g = g;
        this.joints = joints;
        this.joint = model.body(coupler.joint()).joint();
        this.reference = model.body(coupler.referenceJoint()).joint();
    }

    @Override
    public List<IExpr> positionErrors() {
        return List.of(g.sum(joints.q(joint.qIndex()),
                g.neg(g.mul(g.constant(coupler.ratio()), joints.q(reference.qIndex()))),
                g.neg(g.constant(coupler.offset()))));
    }

    @Override
    public List<IExpr> velocityErrors() {
        return List.of(g.sub(joints.v(joint.vIndex()), g.mul(g.constant(coupler.ratio()),
                joints.v(reference.vIndex()))));
    }
}
