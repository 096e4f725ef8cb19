package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;

/**
 * The constraint terms of a model over symbolic values, rows stacked in the model's constraint order as the
 * runtime's {@link org.symdyn.constraints.GenericConstraints} stacks them: φ(q) and φ̇ = G v from each constraint's
 * rows ({@link SymbolicRows}), then G_rk = ∂φ̇_r/∂v_k and γ = -Ġ v = -d/dt (G v) at v̇ = 0 by differentiation through
 * the graph (ARCHITECTURE.md, "Data flow", step 3).
 */
public final class SymbolicConstraints {
    private final ExpressionGraph g;
    private final SymbolicJoints joints;
    private final int nv;
    private final List<SymbolicRows> constraints = new ArrayList<>();

    /**
     * @throws UnsupportedOperationException for a constraint type the generator cannot derive (a custom one)
     */
    SymbolicConstraints(Model model, ExpressionGraph g, SymbolicSpatial sp, SymbolicJoints joints,
            SymbolicKinematics kinematics) {
        this.g = g;
        this.joints = joints;
        this.nv = model.nv();
        for (ConstraintModel c : model.constraints()) {
            constraints.add(rows(c, model, g, sp, joints, kinematics));
        }
    }

    private static SymbolicRows rows(ConstraintModel c, Model model, ExpressionGraph g, SymbolicSpatial sp,
            SymbolicJoints joints, SymbolicKinematics kinematics) {
        if (c instanceof LoopConstraintModel loop) {
            return new SymbolicLoopRows(loop, g, sp, kinematics);
        } else if (c instanceof ContactConstraintModel contact) {
            return new SymbolicContactRows(contact, g, sp, kinematics);
        } else if (c instanceof CouplerConstraintModel coupler) {
            return new SymbolicCouplerRows(coupler, model, g, joints);
        } else if (c instanceof LineOnLineConstraintModel lol) {
            return new SymbolicLineOnLineRows(lol, g, sp, kinematics);
        }
        throw new UnsupportedOperationException(c.location() + " " + c.typeName() + " constraint '" + c.name()
                + "' is not supported by the generator yet");
    }

    /**
     * Refuses a model with a constraint the generator cannot derive, without deriving anything.
     *
     * @throws UnsupportedOperationException naming the constraint and where it was declared
     */
    public static void requireSupported(Model model) {
        for (ConstraintModel c : model.constraints()) {
            // The row classes' constructors only keep their arguments: with no graph nothing is derived, and the
            // one list of supported types stays in rows().
            rows(c, model, null, null, null, null);
        }
    }

    /** φ(q). */
    public IExpr[] positionErrors() {
        List<IExpr> out = new ArrayList<>();
        for (SymbolicRows c : constraints) {
            out.addAll(c.positionErrors());
        }
        return out.toArray(new IExpr[0]);
    }

    /** φ̇ = G(q) v, linear in the symbols of v. */
    public IExpr[] velocityErrors() {
        List<IExpr> out = new ArrayList<>();
        for (SymbolicRows c : constraints) {
            out.addAll(c.velocityErrors());
        }
        return out.toArray(new IExpr[0]);
    }

    /** G(q): G_rk = ∂φ̇_r/∂v_k. */
    public IExpr[][] jacobian(IExpr[] velocityErrors) {
        IExpr[][] jac = new IExpr[velocityErrors.length][nv];
        for (int k = 0; k < nv; k++) {
            ExpressionGraph.Direction d = g.direction(Map.of(g.input(Kind.V, k), F.C1));
            for (int r = 0; r < velocityErrors.length; r++) {
                jac[r][k] = d.of(velocityErrors[r]);
            }
        }
        return jac;
    }

    /**
     * γ(q, v) = -Ġ v = -d/dt (G(q) v) at v̇ = 0: the directional derivative of φ̇ along q̇(q, v), with the time
     * derivative of each joint input ({@link SymbolicJoints#timeDerivatives()}).
     */
    public IExpr[] gamma(IExpr[] velocityErrors) {
        ExpressionGraph.Direction d = g.direction(joints.timeDerivatives());
        IExpr[] out = new IExpr[velocityErrors.length];
        for (int r = 0; r < out.length; r++) {
            out[r] = g.neg(d.of(velocityErrors[r]));
        }
        return out;
    }
}
