package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Body;
import org.symdyn.model.Model;
import org.symdyn.model.ParameterModel;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The rigid-body inertia of every body (its own link and the links merged into it by fixed joints) in the compact
 * form (m, h = m c, Ī about the body origin) of the runtime's {@code GenericDynamics}, as exact constants, or, for a
 * body with a link parameter (mass, centre of mass or inertia entry marked settable), built from its own link's
 * (m, c, I_c) with those entries as {@link Kind#PARAMETER} symbols: h = m c, Ī = I_c + m (|c|² 1 - c cᵀ), plus the
 * constant inertia of the merged links (additive about the origin).
 */
public final class SymbolicInertias {
    private final Model model;
    private final SymbolicSpatial.Inertia[] inertia;
    private final boolean[] parameterised;

    SymbolicInertias(Model model, ExpressionGraph g, SymbolicSpatial sp) {
        this.model = model;
        int nb = model.bodyCount();
        inertia = new SymbolicSpatial.Inertia[nb];
        parameterised = new boolean[nb];
        for (Body b : model.bodies()) {
            int i = b.index();
            inertia[i] = constant(g, b.inertia());
            parameterise(g, sp, i);
        }
    }

    /** Body i's inertia about its origin, body coordinates. */
    SymbolicSpatial.Inertia of(int i) {
        return inertia[i];
    }

    /** True if body i's inertia depends on a parameter (then only its origin form {@link #of} applies). */
    boolean isParameterised(int i) {
        return parameterised[i];
    }

    /** Body i's constant inertia (what the model says; meaningful when not {@link #isParameterised}). */
    RigidBodyInertia constant(int i) {
        return model.body(i).inertia();
    }

    private static SymbolicSpatial.Inertia constant(ExpressionGraph g, RigidBodyInertia in) {
        IExpr m = g.constant(in.mass());
        IExpr[] h = new IExpr[3];
        IExpr[] i = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            h[r] = g.constant(in.mass() * in.com(r));
            for (int c = r; c < 3; c++) {
                i[3 * r + c] = g.constant(in.inertiaAboutOrigin(r, c));
                i[3 * c + r] = i[3 * r + c];
            }
        }
        return new SymbolicSpatial.Inertia(m, h, i);
    }

    /** Replaces body i's inertia by the parameterised form when one of its own link's numbers is a parameter. */
    private void parameterise(ExpressionGraph g, SymbolicSpatial sp, int i) {
        List<ParameterModel> params = model.parameters();
        RigidBodyInertia own = model.ownInertia(i);
        IExpr m = null;
        IExpr[] c = null;
        IExpr[] ic = null;
        for (int k = 0; k < params.size(); k++) {
            ParameterModel p = params.get(k);
            if (p.body() != i || !p.field().isLinkField()) {
                continue;
            }
            if (m == null) {
                m = g.constant(own.mass());
                c = new IExpr[] {g.constant(own.com(0)), g.constant(own.com(1)), g.constant(own.com(2))};
                ic = new IExpr[9];
                for (int r = 0; r < 3; r++) {
                    for (int col = 0; col < 3; col++) {
                        ic[3 * r + col] = g.constant(own.inertiaAboutCom(r, col));
                    }
                }
            }
            IExpr sym = g.input(Kind.PARAMETER, k);
            for (int slot : p.field().inertiaSlots()) { // m, c (3), I_c (9)
                if (slot == 0) {
                    m = sym;
                } else if (slot < 4) {
                    c[slot - 1] = sym;
                } else {
                    ic[slot - 4] = sym;
                }
            }
        }
        if (m == null) {
            return;
        }
        parameterised[i] = true;
        // Own link, compact form: h = m c, Ī = I_c + m (|c|² 1 - c cᵀ).
        IExpr[] h = {g.mul(m, c[0]), g.mul(m, c[1]), g.mul(m, c[2])};
        IExpr cc = g.dot(c, c);
        IExpr[] ibar = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int col = r; col < 3; col++) {
                IExpr shift = g.sub(r == col ? cc : F.C0, g.mul(c[r], c[col]));
                ibar[3 * r + col] = g.add(ic[3 * r + col], g.mul(m, shift));
                ibar[3 * col + r] = ibar[3 * r + col];
            }
        }
        // Merged links: the body's inertia minus its own link's, in compact form (additive about the origin).
        RigidBodyInertia all = model.body(i).inertia();
        IExpr mRest = g.constant(all.mass() - own.mass());
        IExpr[] hRest = new IExpr[3];
        IExpr[] iRest = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            hRest[r] = g.constant(all.mass() * all.com(r) - own.mass() * own.com(r));
            for (int col = 0; col < 3; col++) {
                iRest[3 * r + col] = g.constant(all.inertiaAboutOrigin(r, col) - own.inertiaAboutOrigin(r, col));
            }
        }
        inertia[i] = sp.add(new SymbolicSpatial.Inertia(m, h, ibar), new SymbolicSpatial.Inertia(mRest, hRest,
                iRest));
    }
}
