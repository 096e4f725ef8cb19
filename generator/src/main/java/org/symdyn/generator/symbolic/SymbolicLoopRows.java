package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.model.LoopConstraintModel;

/**
 * A loop constraint's rows, the twin of the runtime's {@code LoopRows}: with the predecessor frame P (rotation R_P,
 * origin o_P) and successor frame S in world coordinates, the error in P coordinates is
 * [½ vee(R_rel - R_relᵀ); R_Pᵀ (o_S - o_P)] with R_rel = R_Pᵀ R_S, and its rate is
 * [R_Pᵀ (ω_S - ω_P); R_Pᵀ (ȯ_S - ȯ_P)]; each row is one of the constraint's axes (6 numbers, [angular; linear])
 * dotted with them.
 */
final class SymbolicLoopRows implements SymbolicRows {
    private final LoopConstraintModel loop;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicKinematics kinematics;

    SymbolicLoopRows(LoopConstraintModel loop, ExpressionGraph g, SymbolicSpatial sp, SymbolicKinematics kinematics) {
        this.loop = loop;
        this.g = g;
        this.sp = sp;
        this.kinematics = kinematics;
    }

    @Override
    public List<IExpr> positionErrors() {
        SymbolicPose pp = kinematics.framePose(loop.predecessorBody(), loop.predecessorFrame());
        SymbolicPose ps = kinematics.framePose(loop.successorBody(), loop.successorFrame());
        IExpr[] rp = pp.rotation();
        IExpr[] rs = ps.rotation();
        IExpr[] rel = new IExpr[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rel[3 * i + j] = g.sum(g.mul(rp[i], rs[j]), g.mul(rp[3 + i], rs[3 + j]), g.mul(rp[6 + i], rs[6 + j]));
            }
        }
        IExpr half = F.C1D2;
        IExpr[] rot = {g.mul(half, g.sub(rel[7], rel[5])), g.mul(half, g.sub(rel[2], rel[6])),
            g.mul(half, g.sub(rel[3], rel[1]))};
        IExpr[] d = sp.rotateTranspose(rp, sp.sub3(ps.position(), pp.position()));
        return alongAxes(SymbolicSpatial.join(rot, d));
    }

    @Override
    public List<IExpr> velocityErrors() {
        int pb = loop.predecessorBody();
        int sb = loop.successorBody();
        IExpr[] rp = kinematics.framePose(pb, loop.predecessorFrame()).rotation();
        IExpr[] dw = sp.sub3(kinematics.angularVelocity(sb), kinematics.angularVelocity(pb));
        IExpr[] dv = sp.sub3(kinematics.pointVelocity(sb, sp.constants(loop.successorFrame().translationArray())),
                kinematics.pointVelocity(pb, sp.constants(loop.predecessorFrame().translationArray())));
        return alongAxes(SymbolicSpatial.join(sp.rotateTranspose(rp, dw), sp.rotateTranspose(rp, dv)));
    }

    private List<IExpr> alongAxes(IExpr[] error) {
        List<IExpr> rows = new ArrayList<>();
        for (double[] a : loop.axes()) {
            rows.add(g.dot(sp.constants(a), error));
        }
        return rows;
    }
}
