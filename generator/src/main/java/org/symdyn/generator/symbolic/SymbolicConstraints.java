package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
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
 * the graph (ARCHITECTURE.md, "Data flow", step 3), or in closed form where a row class gives them (contacts and
 * loops).
 */
public final class SymbolicConstraints {
    private final ExpressionGraph g;
    private final SymbolicJoints joints;
    private final int nv;
    private final List<SymbolicRows> constraints = new ArrayList<>();

    /**
     * @throws UnsupportedModelException for a constraint type the generator cannot derive (a
     *     custom one), located at its element
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
        throw new UnsupportedModelException(c.location(), c.typeName() + " constraint '" + c.name()
                + "' is not supported by the generator yet");
    }

    /**
     * Refuses a model with a constraint the generator cannot derive, without deriving anything.
     *
     * @throws UnsupportedModelException naming the constraint, located where it is declared
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

    /**
     * G(q): G_rk = ∂φ̇_r/∂v_k, in closed form where a row class gives it ({@link SymbolicRows#jacobianRows}), else by
     * differentiating φ̇ along each v_k.
     *
     * @param velocityErrors this object's {@link #velocityErrors()}
     */
    public IExpr[][] jacobian(IExpr[] velocityErrors) {
        IExpr[][] jac = new IExpr[velocityErrors.length][];
        int r0 = 0;
        for (SymbolicRows c : constraints) {
            IExpr[][] closed = c.jacobianRows();
            int n = closed != null ? closed.length : c.velocityErrors().size();
            for (int r = 0; r < n; r++) {
                jac[r0 + r] = closed != null ? closed[r] : new IExpr[nv];
            }
            r0 += n;
        }
        assert r0 == velocityErrors.length : r0 + " rows, " + velocityErrors.length + " velocity errors";
        for (int k = 0; k < nv; k++) {
            ExpressionGraph.Direction d = null;
            for (int r = 0; r < velocityErrors.length; r++) {
                if (jac[r][k] == null) {
                    if (d == null) {
                        d = g.direction(Map.of(g.input(Kind.V, k), F.C1));
                    }
                    jac[r][k] = d.of(velocityErrors[r]);
                }
            }
        }
        return jac;
    }

    /**
     * γ(q, v) = -Ġ v = -d/dt (G(q) v) at v̇ = 0: in closed form where a row class gives it
     * ({@link SymbolicRows#gammaRows}), else the directional derivative of φ̇ along q̇(q, v), with the time derivative
     * of each joint input ({@link SymbolicJoints#timeDerivatives()}).
     *
     * @param velocityErrors this object's {@link #velocityErrors()}
     */
    public IExpr[] gamma(IExpr[] velocityErrors) {
        IExpr[] out = new IExpr[velocityErrors.length];
        int r0 = 0;
        for (SymbolicRows c : constraints) {
            IExpr[] closed = c.gammaRows();
            int n = closed != null ? closed.length : c.velocityErrors().size();
            if (closed != null) {
                System.arraycopy(closed, 0, out, r0, n);
            }
            r0 += n;
        }
        assert r0 == velocityErrors.length : r0 + " rows, " + velocityErrors.length + " velocity errors";
        ExpressionGraph.Direction d = null;
        for (int r = 0; r < out.length; r++) {
            if (out[r] == null) {
                if (d == null) {
                    d = g.direction(joints.timeDerivatives());
                }
                out[r] = g.neg(d.of(velocityErrors[r]));
            }
        }
        return out;
    }

    /**
     * The derivatives of the rows ({@link org.symdyn.contract.ConstraintDerivatives}) from their φ, φ̇, G and γ: along
     * q's tangent direction k, the derivative of every joint input is its time derivative at v = e_k, taken as
     * ∂/∂v_k of it, so that the direction is the contract's; along v_k, v_k ↦ 1. This relies on every time derivative
     * of {@link SymbolicJoints#timeDerivatives()} being linear and homogeneous in v (q̇ = N(q) v), as every joint
     * type's is; a joint whose q̇ were not would need its own seeds here.
     *
     * @return {∂a/∂q, ∂a/∂v, ∂φ/∂q, ∂φ̇/∂q} (rows x nv each) with a = G v̇ - γ, and ∂(Gᵀ λ)/∂q (nv x nv) last
     */
    public IExpr[][][] derivatives(IExpr[] phi, IExpr[] phidot, IExpr[][] jac, IExpr[] gamma) {
        int rows = phi.length;
        IExpr[] vdot = g.inputs(Kind.VDOT, nv);
        IExpr[] lambda = g.inputs(Kind.MULTIPLIER, rows);
        IExpr[] a = new IExpr[rows];
        for (int r = 0; r < rows; r++) {
            a[r] = g.sub(g.dot(jac[r], vdot), gamma[r]);
        }
        IExpr[] force = new IExpr[nv];
        for (int j = 0; j < nv; j++) {
            IExpr[] column = new IExpr[rows];
            for (int r = 0; r < rows; r++) {
                column[r] = jac[r][j];
            }
            force[j] = g.dot(column, lambda);
        }
        IExpr[][] dAdq = new IExpr[rows][nv];
        IExpr[][] dAdv = new IExpr[rows][nv];
        IExpr[][] dPhi = new IExpr[rows][nv];
        IExpr[][] dPhidot = new IExpr[rows][nv];
        IExpr[][] dForce = new IExpr[nv][nv];
        for (int k = 0; k < nv; k++) {
            ExpressionGraph.Direction alongV = g.direction(Map.of(g.input(Kind.V, k), F.C1));
            Map<ISymbol, IExpr> seeds = new HashMap<>();
            for (Map.Entry<ISymbol, IExpr> e : joints.timeDerivatives().entrySet()) {
                IExpr seed = alongV.of(e.getValue());
                if (!seed.isZero()) {
                    seeds.put(e.getKey(), seed);
                }
            }
            ExpressionGraph.Direction alongQ = g.direction(seeds);
            for (int r = 0; r < rows; r++) {
                dAdq[r][k] = alongQ.of(a[r]);
                dAdv[r][k] = alongV.of(a[r]);
                dPhi[r][k] = alongQ.of(phi[r]);
                dPhidot[r][k] = alongQ.of(phidot[r]);
            }
            for (int j = 0; j < nv; j++) {
                dForce[j][k] = alongQ.of(force[j]);
            }
        }
        return new IExpr[][][] {dAdq, dAdv, dPhi, dPhidot, dForce};
    }
}
