package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.dynamics.JointModels;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ParameterModel;
import org.symdyn.spatial.Pose;

/**
 * The joint models of a model's tree over symbolic values: the twin of the runtime's {@code JointTransforms}
 * (Featherstone's jcalc, RBDA §4.4), with the same conventions ({@link JointType}). Per body i:
 * <ul>
 * <li>the tree transform X_T,i, the constant placement of the joint frame in the parent (snapped as the runtime
 * reads it), moved along its direction by a joint-offset parameter: r = r₀ + d (p - p₀);</li>
 * <li>the joint transform X_J(q_i): E_J = Rot(a, θ)ᵀ from the joint angle's sine and cosine inputs for revolute and
 * planar joints, Rᵀ of the normalised quaternion (at {@link Joint#quaternionIndex()}, prescaled by a power of two:
 * {@link Kind#QUAT_X}) for floating and ball joints;
 * X_i = X_J X_T,i is applied in two steps so that the constant part folds;</li>
 * <li>the motion subspace S_i (one 6-vector per dof, body coordinates; planar joints' linear columns turn with the
 * child frame), v_J = S q̇ and c_J = Ṡ q̇;</li>
 * <li>the time derivative of every joint input along q̇(q, v) ({@link #timeDerivatives()}): sin θ ↦ cos θ θ̇,
 * quaternions ↦ ½ q ⊗ (ω, 0), a floating base's position ↦ R v_origin; γ = -Ġ v differentiates along them.</li>
 * </ul>
 */
public final class SymbolicJoints {
    private final Model model;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicSpatial.Transform[] tree;
    private final SymbolicSpatial.Transform[] joint;
    private final List<List<IExpr[]>> subspace = new ArrayList<>();
    private final Map<ISymbol, IExpr> timeDerivatives = new HashMap<>();

    SymbolicJoints(Model model, ExpressionGraph g, SymbolicSpatial sp) {
        this.model = model;
        this.g = g;
        this.sp = sp;
        int nb = model.bodyCount();
        tree = new SymbolicSpatial.Transform[nb];
        joint = new SymbolicSpatial.Transform[nb];
        for (Body b : model.bodies()) {
            tree[b.index()] = constantTransform(b.joint().placement());
        }
        applyJointOffsetParameters();
        for (Body b : model.bodies()) {
            subspace.add(jointModel(b.index(), b.joint()));
        }
    }

    /** The symbol of q[k]. */
    IExpr q(int k) {
        return g.input(Kind.Q, k);
    }

    /** The symbol of v[k]. */
    IExpr v(int k) {
        return g.input(Kind.V, k);
    }

    /** X_T,i. */
    SymbolicSpatial.Transform tree(int i) {
        return tree[i];
    }

    /**
     * For a revolute or continuous joint about a coordinate axis ±e_k, {k, ±1}: its X_J is then the rotation that
     * {@link SymbolicSpatial#congruenceAboutAxis} takes, with the sine signed by the axis; null for other joints.
     */
    int[] coordinateAxis(int i) {
        Joint j = model.body(i).joint();
        if (j.type() != JointType.REVOLUTE && j.type() != JointType.CONTINUOUS) {
            return null;
        }
        double[] axis = j.axis();
        for (int k = 0; k < 3; k++) {
            if (Math.abs(axis[k]) == 1 && axis[(k + 1) % 3] == 0 && axis[(k + 2) % 3] == 0) {
                return new int[] {k, (int) Math.signum(axis[k])};
            }
        }
        return null;
    }

    /** sin q and cos q of body i's (1-dof) joint angle. */
    IExpr[] sineCosine(int i) {
        int qi = model.body(i).joint().qIndex();
        return new IExpr[] {g.input(Kind.SIN_Q, qi), g.input(Kind.COS_Q, qi)};
    }

    /** X_J(q_i). */
    SymbolicSpatial.Transform joint(int i) {
        return joint[i];
    }

    /** S_i, one 6-vector per dof of body i's joint, in body-i coordinates. */
    List<IExpr[]> subspace(int i) {
        return subspace.get(i);
    }

    /** The derivative of each joint input along q̇(q, v) at v̇ = 0 (inputs not in the map are constant). */
    Map<ISymbol, IExpr> timeDerivatives() {
        return Collections.unmodifiableMap(timeDerivatives);
    }

    /** X_i m: the constant tree transform first, then the joint transform. */
    IExpr[] parentToChild(int i, IExpr[] m) {
        return sp.applyMotion(joint[i], sp.applyMotion(tree[i], m));
    }

    /** X_iᵀ f. */
    IExpr[] childToParentForce(int i, IExpr[] f) {
        return sp.applyTransposeForce(tree[i], sp.applyTransposeForce(joint[i], f));
    }

    /** X_i = X_J X_T,i as one transform (for world transforms). */
    SymbolicSpatial.Transform parentToChild(int i) {
        return sp.compose(joint[i], tree[i]);
    }

    /** v_J = S_i q̇_i for the velocities {@code v}. */
    IExpr[] jointVelocity(int i, IExpr[] v) {
        IExpr[] vj = sp.zeros(6);
        int vi = model.body(i).joint().vIndex();
        List<IExpr[]> s = subspace.get(i);
        for (int d = 0; d < s.size(); d++) {
            for (int k = 0; k < 6; k++) {
                vj[k] = g.add(vj[k], g.mul(s.get(d)[k], v[vi + d]));
            }
        }
        return vj;
    }

    /** c_J = Ṡ q̇: non-zero only for planar joints, [0; -θ̇ n × v_J,lin]. */
    IExpr[] jointBias(int i, IExpr[] v, IExpr[] vj) {
        Joint j = model.body(i).joint();
        if (j.type() != JointType.PLANAR) {
            return sp.zeros(6);
        }
        IExpr thd = v[j.vIndex() + 2];
        IExpr[] c = sp.cross(sp.constants(j.axis()), SymbolicSpatial.linear(vj));
        return new IExpr[] {F.C0, F.C0, F.C0, g.neg(g.mul(thd, c[0])), g.neg(g.mul(thd, c[1])),
            g.neg(g.mul(thd, c[2]))};
    }

    /** The constant transform of a placement (E = Rᵀ, r = p), snapped as the runtime reads it. */
    SymbolicSpatial.Transform constantTransform(Pose pose) {
        IExpr[] e = new IExpr[9];
        IExpr[] r = new IExpr[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                e[3 * i + j] = g.constant(pose.rotation(j, i));
            }
            r[i] = g.constant(pose.translation(i));
        }
        return new SymbolicSpatial.Transform(e, r);
    }

    /** A joint-offset parameter moves its tree translation along its direction: r = r₀ + d (p - p₀). */
    private void applyJointOffsetParameters() {
        List<ParameterModel> params = model.parameters();
        for (int k = 0; k < params.size(); k++) {
            ParameterModel p = params.get(k);
            if (!p.field().isOrigin()) {
                continue;
            }
            int i = p.body();
            double[] d = p.direction();
            IExpr[] r = tree[i].r.clone();
            IExpr change = g.sub(g.input(Kind.PARAMETER, k), g.constant(p.value()));
            for (int j = 0; j < 3; j++) {
                r[j] = g.add(r[j], g.mul(g.constant(d[j]), change));
            }
            tree[i] = new SymbolicSpatial.Transform(tree[i].e, r);
        }
    }

    /**
     * E_J = Rot(a, θ)ᵀ with entries c δ_ij + (1 - c) a_i a_j + s ε_ijk a_k, each built whole and evaluated once so
     * that axis-aligned cases fold to 0, ±c, ±s, 1.
     */
    private IExpr[] axisRotationTranspose(double[] axis, IExpr s, IExpr c) {
        IExpr[] a = sp.constants(axis);
        IExpr[] e = new IExpr[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                IExpr term = F.Times(F.Plus(F.C1, F.Times(F.CN1, c)), a[i], a[j]);
                if (i == j) {
                    term = F.Plus(c, term);
                } else {
                    int k = 3 - i - j;
                    int sign = ((j - i + 3) % 3 == 1) ? 1 : -1; // ε_ijk for (i, j, k) a permutation of (0, 1, 2)
                    term = F.Plus(term, F.Times(F.ZZ(sign), s, a[k]));
                }
                e[3 * i + j] = g.bind(term);
            }
        }
        return e;
    }

    /**
     * The four symbols (x, y, z, w) of a joint's quaternion, prescaled by a power of two ({@link Kind#QUAT_X}): the
     * rotation s = 2 / |q|² of the raw q underflows or overflows (n² = |q|⁴ in γ) far inside the doubles, for norms
     * below about 1e-77 or above 1e77, where the prescaled one does not. For norms in between the prescale is exact
     * and changes no bit of any result. The prescaled quaternion obeys the same q̇ = ½ q ⊗ (ω, 0) (the scale is
     * constant in time), so its time derivatives are stated on these symbols.
     */
    private IExpr[] quaternion(Joint j) {
        int x = j.quaternionIndex();
        return new IExpr[] {g.input(Kind.QUAT_X, x), g.input(Kind.QUAT_Y, x), g.input(Kind.QUAT_Z, x),
            g.input(Kind.QUAT_W, x)};
    }

    /** Rᵀ for the rotation of the quaternion (x, y, z, w), normalised as the runtime does (s = 2 / |q|²). */
    private IExpr[] quaternionRotationTranspose(IExpr[] quat) {
        IExpr x = quat[0], y = quat[1], z = quat[2], w = quat[3];
        IExpr n2 = g.sum(g.mul(x, x), g.mul(y, y), g.mul(z, z), g.mul(w, w));
        IExpr s = g.div(g.integer(2), n2);
        IExpr xx = g.mul(s, g.mul(x, x)), yy = g.mul(s, g.mul(y, y)), zz = g.mul(s, g.mul(z, z));
        IExpr xy = g.mul(s, g.mul(x, y)), xz = g.mul(s, g.mul(x, z)), yz = g.mul(s, g.mul(y, z));
        IExpr wx = g.mul(s, g.mul(w, x)), wy = g.mul(s, g.mul(w, y)), wz = g.mul(s, g.mul(w, z));
        IExpr one = F.C1;
        IExpr[] rm = {
            g.sub(one, g.add(yy, zz)), g.sub(xy, wz), g.add(xz, wy),
            g.add(xy, wz), g.sub(one, g.add(xx, zz)), g.sub(yz, wx),
            g.sub(xz, wy), g.add(yz, wx), g.sub(one, g.add(xx, yy))};
        return new IExpr[] {rm[0], rm[3], rm[6], rm[1], rm[4], rm[7], rm[2], rm[5], rm[8]};
    }

    /** q̇ of a quaternion (x, y, z, w) for the child-frame angular velocity ω: ½ q ⊗ (ω, 0). */
    private void quaternionDerivatives(IExpr[] quat, IExpr[] omega) {
        IExpr x = quat[0], y = quat[1], z = quat[2], w = quat[3];
        IExpr half = F.C1D2;
        timeDerivatives.put((ISymbol) x, g.mul(half, g.sum(g.mul(w, omega[0]), g.mul(y, omega[2]),
                g.neg(g.mul(z, omega[1])))));
        timeDerivatives.put((ISymbol) y, g.mul(half, g.sum(g.mul(w, omega[1]), g.mul(z, omega[0]),
                g.neg(g.mul(x, omega[2])))));
        timeDerivatives.put((ISymbol) z, g.mul(half, g.sum(g.mul(w, omega[2]), g.mul(x, omega[1]),
                g.neg(g.mul(y, omega[0])))));
        timeDerivatives.put((ISymbol) w, g.neg(g.mul(half, g.sum(g.mul(x, omega[0]), g.mul(y, omega[1]),
                g.mul(z, omega[2])))));
    }

    /** A joint angle θ = q[qi]: its sine and cosine inputs, with their time derivatives and θ's. */
    private IExpr[] angle(int qi, int vi) {
        ISymbol sin = g.input(Kind.SIN_Q, qi);
        ISymbol cos = g.input(Kind.COS_Q, qi);
        timeDerivatives.put(sin, g.mul(cos, v(vi)));
        timeDerivatives.put(cos, g.neg(g.mul(sin, v(vi))));
        timeDerivatives.put((ISymbol) q(qi), v(vi));
        return new IExpr[] {sin, cos};
    }

    private static IExpr[] unit(int k) {
        IExpr[] x = new IExpr[6];
        for (int i = 0; i < 6; i++) {
            x[i] = i == k ? F.C1 : F.C0;
        }
        return x;
    }

    /** Sets X_J of body i and returns its S (jcalc). */
    private List<IExpr[]> jointModel(int i, Joint j) {
        int qi = j.qIndex();
        int vi = j.vIndex();
        List<IExpr[]> s = new ArrayList<>();
        IExpr[] zero3 = sp.zeros(3);
        IExpr[] axis = sp.constants(j.axis());
        switch (j.type()) {
            case REVOLUTE, CONTINUOUS -> {
                IExpr[] sc = angle(qi, vi);
                joint[i] = new SymbolicSpatial.Transform(axisRotationTranspose(j.axis(), sc[0], sc[1]), zero3);
                s.add(SymbolicSpatial.join(axis, zero3));
            }
            case PRISMATIC -> {
                IExpr d = q(qi);
                IExpr[] r = {g.mul(axis[0], d), g.mul(axis[1], d), g.mul(axis[2], d)};
                joint[i] = new SymbolicSpatial.Transform(SymbolicSpatial.identity(), r);
                s.add(SymbolicSpatial.join(zero3, axis));
                timeDerivatives.put((ISymbol) d, v(vi));
            }
            case FLOATING -> {
                IExpr[] quat = quaternion(j);
                IExpr[] e = quaternionRotationTranspose(quat);
                joint[i] = new SymbolicSpatial.Transform(e, new IExpr[] {q(qi), q(qi + 1), q(qi + 2)});
                for (int k = 0; k < 6; k++) {
                    s.add(unit(k));
                }
                // ṗ = R v_lin (R = Eᵀ), the quaternion from ω in the child frame.
                IExpr[] pdot = sp.rotateTranspose(e, new IExpr[] {v(vi + 3), v(vi + 4), v(vi + 5)});
                for (int k = 0; k < 3; k++) {
                    timeDerivatives.put((ISymbol) q(qi + k), pdot[k]);
                }
                quaternionDerivatives(quat, new IExpr[] {v(vi), v(vi + 1), v(vi + 2)});
            }
            case BALL -> {
                IExpr[] quat = quaternion(j);
                joint[i] = new SymbolicSpatial.Transform(quaternionRotationTranspose(quat), zero3);
                for (int k = 0; k < 3; k++) {
                    s.add(unit(k));
                }
                quaternionDerivatives(quat, new IExpr[] {v(vi), v(vi + 1), v(vi + 2)});
            }
            case PLANAR -> {
                double[] u1 = new double[3];
                double[] u2 = new double[3];
                JointModels.planarBasis(j.axis(), u1, u2);
                IExpr x = q(qi), y = q(qi + 1);
                IExpr[] sc = angle(qi + 2, vi + 2);
                IExpr[] e = axisRotationTranspose(j.axis(), sc[0], sc[1]);
                IExpr[] cu1 = sp.constants(u1);
                IExpr[] cu2 = sp.constants(u2);
                IExpr[] r = new IExpr[3];
                for (int k = 0; k < 3; k++) {
                    r[k] = g.add(g.mul(x, cu1[k]), g.mul(y, cu2[k]));
                }
                joint[i] = new SymbolicSpatial.Transform(e, r);
                s.add(SymbolicSpatial.join(zero3, sp.rotate(e, cu1)));
                s.add(SymbolicSpatial.join(zero3, sp.rotate(e, cu2)));
                s.add(SymbolicSpatial.join(axis, zero3));
                timeDerivatives.put((ISymbol) x, v(vi));
                timeDerivatives.put((ISymbol) y, v(vi + 1));
            }
            default -> throw new IllegalStateException(j.type().toString());
        }
        return s;
    }
}
