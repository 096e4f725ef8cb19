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

    /**
     * G's rows in closed form: the rate's columns [R_Pᵀ (J_ω,S - J_ω,P); R_Pᵀ (J_S - J_P)] along the axes, with the
     * world angular Jacobians ({@link SymbolicKinematics#angularJacobian}) and the point Jacobians of the two frames'
     * origins ({@link SymbolicKinematics#pointJacobian}).
     */
    @Override
    public IExpr[][] jacobianRows() {
        int pb = loop.predecessorBody();
        int sb = loop.successorBody();
        IExpr[] rp = kinematics.framePose(pb, loop.predecessorFrame()).rotation();
        IExpr[][] jw = difference(kinematics.angularJacobian(sb), kinematics.angularJacobian(pb));
        IExpr[][] jv = difference(kinematics.pointJacobian(sb, sp.constants(loop.successorFrame().translationArray())),
                kinematics.pointJacobian(pb, sp.constants(loop.predecessorFrame().translationArray())));
        int nv = jw[0].length;
        List<double[]> axes = loop.axes();
        IExpr[][] rows = new IExpr[axes.size()][nv];
        for (int k = 0; k < nv; k++) {
            IExpr[] w = {jw[0][k], jw[1][k], jw[2][k]};
            IExpr[] v = {jv[0][k], jv[1][k], jv[2][k]};
            List<IExpr> column = alongAxes(SymbolicSpatial.join(sp.rotateTranspose(rp, w), sp.rotateTranspose(rp, v)));
            for (int r = 0; r < rows.length; r++) {
                rows[r][k] = column.get(r);
            }
        }
        return rows;
    }

    /**
     * γ in closed form: the rate's time derivative at v̇ = 0 is [R_Pᵀ (Δα - ω_P × Δω); R_Pᵀ (Δa - ω_P × Δv)] (Ṙ_P =
     * [ω_P]× R_P), with Δω, Δv the differences of the frames' angular and origin velocities and Δα, Δa those of their
     * angular and classical accelerations at v̇ = 0 (world coordinates); γ is minus it along the axes.
     */
    @Override
    public IExpr[] gammaRows() {
        int pb = loop.predecessorBody();
        int sb = loop.successorBody();
        IExpr[] ps = sp.constants(loop.successorFrame().translationArray());
        IExpr[] pp = sp.constants(loop.predecessorFrame().translationArray());
        IExpr[] rp = kinematics.framePose(pb, loop.predecessorFrame()).rotation();
        IExpr[] wp = kinematics.angularVelocity(pb);
        IExpr[] dw = sp.sub3(kinematics.angularVelocity(sb), wp);
        IExpr[] dv = sp.sub3(kinematics.pointVelocity(sb, ps), kinematics.pointVelocity(pb, pp));
        IExpr[] dAlpha = sp.sub3(kinematics.angularBiasAcceleration(sb), kinematics.angularBiasAcceleration(pb));
        IExpr[] dA = sp.sub3(kinematics.pointBiasAcceleration(sb, ps), kinematics.pointBiasAcceleration(pb, pp));
        IExpr[] angular = sp.rotateTranspose(rp, sp.sub3(dAlpha, sp.cross(wp, dw)));
        IExpr[] linear = sp.rotateTranspose(rp, sp.sub3(dA, sp.cross(wp, dv)));
        List<IExpr> rate = alongAxes(SymbolicSpatial.join(angular, linear));
        IExpr[] gamma = new IExpr[rate.size()];
        for (int r = 0; r < gamma.length; r++) {
            gamma[r] = g.neg(rate.get(r));
        }
        return gamma;
    }

    /** a - b, entry by entry. */
    private IExpr[][] difference(IExpr[][] a, IExpr[][] b) {
        IExpr[][] d = new IExpr[a.length][];
        for (int r = 0; r < a.length; r++) {
            d[r] = new IExpr[a[r].length];
            for (int k = 0; k < a[r].length; k++) {
                d[r][k] = g.sub(a[r][k], b[r][k]);
            }
        }
        return d;
    }

    private List<IExpr> alongAxes(IExpr[] error) {
        List<IExpr> rows = new ArrayList<>();
        for (double[] a : loop.axes()) {
            rows.add(g.dot(sp.constants(a), error));
        }
        return rows;
    }
}
