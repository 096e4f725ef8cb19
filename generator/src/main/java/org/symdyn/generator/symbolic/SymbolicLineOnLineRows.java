package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.spatial.Pose;

/**
 * A line-on-line contact's rows, the twin of the runtime's {@code LineOnLineRows} /
 * {@link org.symdyn.constraints.LineOnLineContact} (Simbody's LineOnLineContact) in the crossing-lines case: the
 * separation n · p along the common normal, and when rolling, the slip velocities along d_f and n × d_f of the
 * material points at the contact point C_o. Parallel edges (|d_f × d_b| = 0) are singular here: the generated code
 * gives non-finite values there.
 */
final class SymbolicLineOnLineRows implements SymbolicRows {
    private final LineOnLineConstraintModel contact;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicKinematics kinematics;

    /** One edge in world coordinates: unit direction d, unit outward direction s, centre P. */
    private record Edge(IExpr[] d, IExpr[] s, IExpr[] centre) {
    }

    /**
     * The crossing-lines geometry: F's edge direction d_f, the offset p = P_b - P_f of the edge centres, the normal
     * n = σ (d_f × d_b) / |d_f × d_b| with σ from {@link ExpressionGraph#edgeSense}, and the contact point C_o
     * midway between the closest points of the two lines.
     */
    private record Geometry(IExpr[] df, IExpr[] offset, IExpr[] normal, IExpr[] contact) {
    }

    SymbolicLineOnLineRows(LineOnLineConstraintModel contact, ExpressionGraph g, SymbolicSpatial sp,
            SymbolicKinematics kinematics) {
        this.contact = contact;
        this.g = g;
        this.sp = sp;
        this.kinematics = kinematics;
    }

    @Override
    public List<IExpr> positionErrors() {
        Geometry geo = geometry();
        List<IExpr> rows = new ArrayList<>();
        rows.add(g.dot(geo.offset(), geo.normal()));
        if (contact.rolling()) {
            // Rolling rows are non-holonomic: no position error.
            rows.add(F.C0);
            rows.add(F.C0);
        }
        return rows;
    }

    @Override
    public List<IExpr> velocityErrors() {
        Geometry geo = geometry();
        IExpr[] dv = sp.sub3(kinematics.materialPointVelocity(contact.bodyB(), geo.contact()),
                kinematics.materialPointVelocity(contact.bodyF(), geo.contact()));
        List<IExpr> rows = new ArrayList<>();
        rows.add(g.dot(geo.normal(), dv));
        if (contact.rolling()) {
            rows.add(g.dot(geo.df(), dv));
            rows.add(g.dot(sp.cross(geo.normal(), geo.df()), dv));
        }
        return rows;
    }

    /** An edge frame's axes ({@link LineOnLineConstraintModel#edgeAxes}, as the runtime) and centre in world. */
    private Edge edge(int body, Pose frame, String which) {
        double[] d = new double[3];
        double[] s = new double[3];
        LineOnLineConstraintModel.edgeAxes(frame, which + " of '" + contact.name() + "'", d, s);
        IExpr[] p = sp.constants(frame.translationArray());
        if (body < 0) {
            return new Edge(sp.constants(d), sp.constants(s), p);
        }
        SymbolicSpatial.Transform x = kinematics.worldTransform(body);
        return new Edge(sp.rotateTranspose(x.e, sp.constants(d)), sp.rotateTranspose(x.e, sp.constants(s)),
                sp.add3(x.r, sp.rotateTranspose(x.e, p)));
    }

    private Geometry geometry() {
        Edge f = edge(contact.bodyF(), contact.edgeF(), "F");
        Edge b = edge(contact.bodyB(), contact.edgeB(), "B");
        IExpr[] p = sp.sub3(b.centre(), f.centre());
        IExpr[] w0 = sp.cross(f.d(), b.d());
        IExpr sense = g.edgeSense(g.dot(w0, f.s()), g.dot(w0, b.s()));
        IExpr[] w = {g.mul(sense, w0[0]), g.mul(sense, w0[1]), g.mul(sense, w0[2])};
        IExpr w2 = g.dot(w, w);
        IExpr inv = g.div(F.C1, g.sqrt(w2));
        IExpr[] n = {g.mul(w[0], inv), g.mul(w[1], inv), g.mul(w[2], inv)};
        IExpr cos = g.dot(f.d(), b.d());
        IExpr a = g.dot(p, f.d());
        IExpr bb = g.dot(p, b.d());
        IExpr tf = g.div(g.sub(a, g.mul(cos, bb)), w2);
        IExpr tb = g.div(g.sub(g.mul(cos, a), bb), w2);
        IExpr half = F.C1D2;
        IExpr[] co = new IExpr[3];
        for (int i = 0; i < 3; i++) {
            IExpr qf = g.add(f.centre()[i], g.mul(tf, f.d()[i]));
            IExpr qb = g.add(b.centre()[i], g.mul(tb, b.d()[i]));
            co[i] = g.mul(half, g.add(qf, qb));
        }
        return new Geometry(f.d(), p, n, co);
    }
}
