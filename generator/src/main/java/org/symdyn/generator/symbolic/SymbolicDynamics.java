package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.dynamics.JointModels;
import org.symdyn.model.Body;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Joint;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The recursive algorithms of the generic runtime run over symbolic values, body by body (DESIGN.md, "how not to
 * drown"): forward kinematics, CRBA for H(q), RNEA for inverse dynamics, C(q, v) and g(q), a sparse LᵀDL
 * factorisation of H for forward dynamics, and the constraint terms φ, G, φ̇ and γ. The same equations and
 * conventions as {@link org.symdyn.dynamics.GenericDynamics} and {@link org.symdyn.constraints.GenericConstraints};
 * each body's parent-to-child transform is kept as the joint transform after the constant tree transform,
 * X_i = X_J(q_i) X_T,i, and applied in two steps so that the constant part folds.
 *
 * <p>Inputs: {@code q[k]} and, for each revolute joint, the sine and cosine of q[k] (inputs named by their Java
 * meaning, {@code Math.sin(q[k])} and {@code Math.cos(q[k])}; the emitter computes each pair once per method with
 * {@link org.symdyn.spatial.SinCos}'s inlined steps); {@code v[k]}, {@code vdot[k]} and {@code tau[k]} as needed.
 */
public final class SymbolicDynamics {
    private final Model model;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final int nb;
    private final int nv;
    private final SymbolicSpatial.Transform[] tree;
    private final SymbolicSpatial.Inertia[] inertia;
    private final SymbolicSpatial.Transform[] joint;
    private final List<IExpr[]>[] subspace;
    private final IExpr[] gravity;
    private final Map<ISymbol, IExpr> timeDerivativeSeeds = new HashMap<>();
    private SymbolicSpatial.Transform[] world;
    /** Bodies whose inertia depends on a parameter (kept in the origin form). */
    private boolean[] parameterised;

    /** Prepares the symbolic joint transforms and constants of {@code model} in graph {@code g}. */
    @SuppressWarnings("unchecked")
    public SymbolicDynamics(Model model, ExpressionGraph g) {
        this.model = model;
        this.g = g;
        this.sp = new SymbolicSpatial(g);
        this.nb = model.bodyCount();
        this.nv = model.nv();
        tree = new SymbolicSpatial.Transform[nb];
        inertia = new SymbolicSpatial.Inertia[nb];
        joint = new SymbolicSpatial.Transform[nb];
        subspace = new List[nb];
        for (Body b : model.bodies()) {
            tree[b.index()] = constantTransform(b.joint().placement());
            inertia[b.index()] = constantInertia(b.inertia());
        }
        parameterised = new boolean[nb];
        applyParameters();
        for (Body b : model.bodies()) {
            jointModel(b.index(), b.joint());
        }
        gravity = new IExpr[] {g.constant(model.gravity(0)), g.constant(model.gravity(1)),
            g.constant(model.gravity(2))};
    }

    /** The graph the derivation writes into. */
    public ExpressionGraph graph() {
        return g;
    }

    // ------------------------------------------------------------------ inputs and joint models

    private IExpr q(int k) {
        return g.input("q" + k, "q[" + k + "]");
    }

    /** The symbol of v[k]. */
    public ISymbol v(int k) {
        return g.input("v" + k, "v[" + k + "]");
    }

    private IExpr[] vSymbols() {
        IExpr[] out = new IExpr[nv];
        for (int k = 0; k < nv; k++) {
            out[k] = v(k);
        }
        return out;
    }

    private IExpr[] symbols(String array, int n) {
        IExpr[] out = new IExpr[n];
        for (int k = 0; k < n; k++) {
            out[k] = g.input(array + k, array + "[" + k + "]");
        }
        return out;
    }

    /** The constant transform of a placement (E = Rᵀ, r = p), snapped as the runtime reads it. */
    private SymbolicSpatial.Transform constantTransform(Pose pose) {
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

    private SymbolicSpatial.Inertia constantInertia(RigidBodyInertia in) {
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

    /** The symbol of parameter {@code k}: the generated field {@code parameters[k]}. */
    private IExpr parameter(int k) {
        return g.input("par" + k, "parameters[" + k + "]");
    }

    /**
     * Replaces folded constants by parameter symbols: a body's inertia becomes its own link's inertia built from
     * (m, c, I_c), some of them symbols, plus the constant inertia of the links merged into it; a joint origin
     * offset moves the tree translation along its direction: r = r₀ + d (p - p₀).
     */
    private void applyParameters() {
        List<org.symdyn.model.ParameterModel> params = model.parameters();
        for (Body b : model.bodies()) {
            int i = b.index();
            RigidBodyInertia own = model.ownInertia(i);
            IExpr m = null;
            IExpr[] c = null;
            IExpr[] ic = null;
            for (int k = 0; k < params.size(); k++) {
                org.symdyn.model.ParameterModel p = params.get(k);
                if (p.body() != i) {
                    continue;
                }
                if (!p.field().isLinkField()) {
                    double[] d = p.direction();
                    IExpr[] r = tree[i].r.clone();
                    IExpr change = g.sub(parameter(k), g.constant(p.value()));
                    for (int j = 0; j < 3; j++) {
                        r[j] = g.add(r[j], g.mul(g.constant(d[j]), change));
                    }
                    tree[i] = new SymbolicSpatial.Transform(tree[i].e, r);
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
                IExpr sym = parameter(k);
                switch (p.field()) {
                    case MASS -> m = sym;
                    case COM_X -> c[0] = sym;
                    case COM_Y -> c[1] = sym;
                    case COM_Z -> c[2] = sym;
                    case IXX -> ic[0] = sym;
                    case IYY -> ic[4] = sym;
                    case IZZ -> ic[8] = sym;
                    case IXY -> ic[1] = ic[3] = sym;
                    case IXZ -> ic[2] = ic[6] = sym;
                    default -> ic[5] = ic[7] = sym; // IYZ
                }
            }
            if (m == null) {
                continue;
            }
            parameterised[i] = true;
            // Own link, compact form: h = m c, Ī = I_c + m (|c|² 1 - c cᵀ).
            IExpr[] h = {g.mul(m, c[0]), g.mul(m, c[1]), g.mul(m, c[2])};
            IExpr cc = g.dot(c, c);
            IExpr[] ibar = new IExpr[9];
            for (int r = 0; r < 3; r++) {
                for (int col = r; col < 3; col++) {
                    IExpr shift = g.sub(r == col ? cc : org.matheclipse.core.expression.F.C0, g.mul(c[r], c[col]));
                    ibar[3 * r + col] = g.add(ic[3 * r + col], g.mul(m, shift));
                    ibar[3 * col + r] = ibar[3 * r + col];
                }
            }
            // Merged links: the body's inertia minus its own link's, in compact form (additive about the origin).
            RigidBodyInertia all = b.inertia();
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

    private static IExpr[] unit(int k, int n) {
        IExpr[] x = new IExpr[n];
        for (int i = 0; i < n; i++) {
            x[i] = i == k ? F.C1 : F.C0;
        }
        return x;
    }

    /**
     * E_J = Rot(a, θ)ᵀ with entries c δ_ij + (1 - c) a_i a_j + s ε_ijk a_k, each built whole and evaluated once so
     * that axis-aligned cases fold to 0, ±c, ±s, 1.
     */
    private IExpr[] axisRotationTranspose(double[] axis, IExpr s, IExpr c) {
        IExpr[] a = {g.constant(axis[0]), g.constant(axis[1]), g.constant(axis[2])};
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

    /** Rᵀ for the rotation of the quaternion (x, y, z, w), normalised as the runtime does (s = 2 / |q|²). */
    private IExpr[] quaternionRotationTranspose(IExpr x, IExpr y, IExpr z, IExpr w) {
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
    private void quaternionSeeds(IExpr x, IExpr y, IExpr z, IExpr w, IExpr[] omega) {
        IExpr half = F.C1D2;
        timeDerivativeSeeds.put((ISymbol) x, g.mul(half, g.sum(g.mul(w, omega[0]), g.mul(y, omega[2]),
                g.neg(g.mul(z, omega[1])))));
        timeDerivativeSeeds.put((ISymbol) y, g.mul(half, g.sum(g.mul(w, omega[1]), g.mul(z, omega[0]),
                g.neg(g.mul(x, omega[2])))));
        timeDerivativeSeeds.put((ISymbol) z, g.mul(half, g.sum(g.mul(w, omega[2]), g.mul(x, omega[1]),
                g.neg(g.mul(y, omega[0])))));
        timeDerivativeSeeds.put((ISymbol) w, g.neg(g.mul(half, g.sum(g.mul(x, omega[0]), g.mul(y, omega[1]),
                g.mul(z, omega[2])))));
    }

    private void jointModel(int i, Joint j) {
        int qi = j.qIndex();
        int vi = j.vIndex();
        List<IExpr[]> s = new ArrayList<>();
        IExpr[] zero3 = sp.zeros(3);
        switch (j.type()) {
            case REVOLUTE, CONTINUOUS -> {
                ISymbol sin = g.input("s" + qi, "Math.sin(q[" + qi + "])");
                ISymbol cos = g.input("c" + qi, "Math.cos(q[" + qi + "])");
                joint[i] = new SymbolicSpatial.Transform(axisRotationTranspose(j.axis(), sin, cos), zero3);
                s.add(new IExpr[] {g.constant(j.axis(0)), g.constant(j.axis(1)), g.constant(j.axis(2)), F.C0, F.C0,
                    F.C0});
                timeDerivativeSeeds.put(sin, g.mul(cos, v(vi)));
                timeDerivativeSeeds.put(cos, g.neg(g.mul(sin, v(vi))));
                timeDerivativeSeeds.put((ISymbol) q(qi), v(vi));
            }
            case PRISMATIC -> {
                IExpr d = q(qi);
                IExpr[] r = {g.mul(g.constant(j.axis(0)), d), g.mul(g.constant(j.axis(1)), d),
                    g.mul(g.constant(j.axis(2)), d)};
                joint[i] = new SymbolicSpatial.Transform(identity(), r);
                s.add(new IExpr[] {F.C0, F.C0, F.C0, g.constant(j.axis(0)), g.constant(j.axis(1)),
                    g.constant(j.axis(2))});
                timeDerivativeSeeds.put((ISymbol) d, v(vi));
            }
            case FLOATING -> {
                IExpr[] e = quaternionRotationTranspose(q(qi + 3), q(qi + 4), q(qi + 5), q(qi + 6));
                joint[i] = new SymbolicSpatial.Transform(e, new IExpr[] {q(qi), q(qi + 1), q(qi + 2)});
                for (int k = 0; k < 6; k++) {
                    s.add(unit(k, 6));
                }
                // ṗ = R v_lin (R = Eᵀ), the quaternion from ω in the child frame.
                IExpr[] pdot = sp.rotateTranspose(e, new IExpr[] {v(vi + 3), v(vi + 4), v(vi + 5)});
                for (int k = 0; k < 3; k++) {
                    timeDerivativeSeeds.put((ISymbol) q(qi + k), pdot[k]);
                }
                quaternionSeeds(q(qi + 3), q(qi + 4), q(qi + 5), q(qi + 6),
                        new IExpr[] {v(vi), v(vi + 1), v(vi + 2)});
            }
            case BALL -> {
                IExpr[] e = quaternionRotationTranspose(q(qi), q(qi + 1), q(qi + 2), q(qi + 3));
                joint[i] = new SymbolicSpatial.Transform(e, zero3);
                for (int k = 0; k < 3; k++) {
                    s.add(unit(k, 6));
                }
                quaternionSeeds(q(qi), q(qi + 1), q(qi + 2), q(qi + 3), new IExpr[] {v(vi), v(vi + 1), v(vi + 2)});
            }
            case PLANAR -> {
                double[] u1 = new double[3];
                double[] u2 = new double[3];
                JointModels.planarBasis(j.axis(), u1, u2);
                IExpr x = q(qi), y = q(qi + 1);
                ISymbol sin = g.input("s" + (qi + 2), "Math.sin(q[" + (qi + 2) + "])");
                ISymbol cos = g.input("c" + (qi + 2), "Math.cos(q[" + (qi + 2) + "])");
                IExpr[] e = axisRotationTranspose(j.axis(), sin, cos);
                IExpr[] r = new IExpr[3];
                IExpr[] cu1 = constants(u1);
                IExpr[] cu2 = constants(u2);
                for (int k = 0; k < 3; k++) {
                    r[k] = g.add(g.mul(x, cu1[k]), g.mul(y, cu2[k]));
                }
                joint[i] = new SymbolicSpatial.Transform(e, r);
                s.add(SymbolicSpatial.join(zero3, sp.rotate(e, cu1)));
                s.add(SymbolicSpatial.join(zero3, sp.rotate(e, cu2)));
                s.add(new IExpr[] {g.constant(j.axis(0)), g.constant(j.axis(1)), g.constant(j.axis(2)), F.C0, F.C0,
                    F.C0});
                timeDerivativeSeeds.put((ISymbol) x, v(vi));
                timeDerivativeSeeds.put((ISymbol) y, v(vi + 1));
                timeDerivativeSeeds.put(sin, g.mul(cos, v(vi + 2)));
                timeDerivativeSeeds.put(cos, g.neg(g.mul(sin, v(vi + 2))));
                timeDerivativeSeeds.put((ISymbol) q(qi + 2), v(vi + 2));
            }
            default -> throw new IllegalStateException(j.type().toString());
        }
        subspace[i] = s;
    }

    private IExpr[] constants(double[] x) {
        IExpr[] out = new IExpr[x.length];
        for (int k = 0; k < x.length; k++) {
            out[k] = g.constant(x[k]);
        }
        return out;
    }

    private static IExpr[] identity() {
        return new IExpr[] {F.C1, F.C0, F.C0, F.C0, F.C1, F.C0, F.C0, F.C0, F.C1};
    }

    private IExpr[] jointVelocity(int i, IExpr[] v) {
        IExpr[] vj = sp.zeros(6);
        int vi = model.body(i).joint().vIndex();
        List<IExpr[]> s = subspace[i];
        for (int d = 0; d < s.size(); d++) {
            for (int k = 0; k < 6; k++) {
                vj[k] = g.add(vj[k], g.mul(s.get(d)[k], v[vi + d]));
            }
        }
        return vj;
    }

    /** c_J = Ṡ q̇: nonzero only for planar joints, [0; -θ̇ n × v_J,lin]. */
    private IExpr[] jointBias(int i, IExpr[] v, IExpr[] vj) {
        Joint j = model.body(i).joint();
        if (j.type() != org.symdyn.model.JointType.PLANAR) {
            return sp.zeros(6);
        }
        IExpr thd = v[j.vIndex() + 2];
        IExpr[] n = constants(j.axis());
        IExpr[] c = sp.cross(n, SymbolicSpatial.linear(vj));
        return new IExpr[] {F.C0, F.C0, F.C0, g.neg(g.mul(thd, c[0])), g.neg(g.mul(thd, c[1])),
            g.neg(g.mul(thd, c[2]))};
    }

    /** X_i m: the constant tree transform first, then the joint transform. */
    private IExpr[] parentToChild(int i, IExpr[] m) {
        return sp.applyMotion(joint[i], sp.applyMotion(tree[i], m));
    }

    /** X_iᵀ f. */
    private IExpr[] childToParentForce(int i, IExpr[] f) {
        return sp.applyTransposeForce(tree[i], sp.applyTransposeForce(joint[i], f));
    }

    // ------------------------------------------------------------------ dynamics

    /** Velocities and accelerations of every body (body coordinates): the forward pass of RNEA. */
    private IExpr[][][] forwardPass(IExpr[] v, IExpr[] vdot, boolean withGravity) {
        IExpr[][] vel = new IExpr[nb][];
        IExpr[][] acc = new IExpr[nb][];
        IExpr[] a0 = withGravity ? new IExpr[] {F.C0, F.C0, F.C0, g.neg(gravity[0]), g.neg(gravity[1]),
            g.neg(gravity[2])} : sp.zeros(6);
        for (int i = 0; i < nb; i++) {
            int p = model.body(i).parentIndex();
            IExpr[] vj = jointVelocity(i, v);
            IExpr[] vp = p < 0 ? sp.zeros(6) : vel[p];
            IExpr[] ap = p < 0 ? a0 : acc[p];
            vel[i] = sp.add6(parentToChild(i, vp), vj);
            IExpr[] a = sp.add6(parentToChild(i, ap), jointBias(i, v, vj));
            a = sp.add6(a, sp.crossMotion(vel[i], vj));
            int vi = model.body(i).joint().vIndex();
            List<IExpr[]> s = subspace[i];
            for (int d = 0; d < s.size(); d++) {
                for (int k = 0; k < 6; k++) {
                    a[k] = g.add(a[k], g.mul(s.get(d)[k], vdot[vi + d]));
                }
            }
            acc[i] = a;
        }
        return new IExpr[][][] {vel, acc};
    }

    /** RNEA: τ = H v̇ + C for symbolic or numeric v and v̇; gravity included when asked. */
    public IExpr[] inverseDynamics(IExpr[] v, IExpr[] vdot, boolean withGravity) {
        IExpr[][][] pass = forwardPass(v, vdot, withGravity);
        IExpr[][] vel = pass[0];
        IExpr[][] acc = pass[1];
        IExpr[][] f = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            f[i] = bodyForce(i, vel[i], acc[i]);
        }
        IExpr[] tau = new IExpr[nv];
        for (int i = nb - 1; i >= 0; i--) {
            int vi = model.body(i).joint().vIndex();
            List<IExpr[]> s = subspace[i];
            for (int d = 0; d < s.size(); d++) {
                tau[vi + d] = g.dot(s.get(d), f[i]);
            }
            int p = model.body(i).parentIndex();
            if (p >= 0) {
                f[p] = sp.add6(f[p], childToParentForce(i, f[i]));
            }
        }
        return tau;
    }

    /**
     * f = I a + v ×* I v, the net spatial force of body i at its origin. For a body whose inertia is a constant
     * (no parameters) it is evaluated at the centre of mass c, where the inertia is block-diagonal: with
     * ω, u the body's angular and origin velocity, α, a its spatial acceleration,
     * u_c = u + ω × c, a_c = a + α × c, f_c = m (a_c + ω × u_c), n_c = I_c α + ω × (I_c ω), and back at the origin
     * n = n_c + c × f_c (with Euler's form of n_c when the inertia's axes are principal). The same force as the
     * origin formula, in about half the operations.
     */
    private IExpr[] bodyForce(int i, IExpr[] v, IExpr[] a) {
        if (parameterised[i]) {
            IExpr[] iv = sp.inertiaTimes(inertia[i], v);
            return sp.add6(sp.inertiaTimes(inertia[i], a), sp.crossForce(v, iv));
        }
        RigidBodyInertia in = model.body(i).inertia();
        IExpr m = g.constant(in.mass());
        IExpr[] c = constants(in.comArray());
        IExpr[] ic = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int col = 0; col < 3; col++) {
                ic[3 * r + col] = g.constant(in.inertiaAboutCom(r, col));
            }
        }
        IExpr[] w = SymbolicSpatial.angular(v);
        IExpr[] alpha = SymbolicSpatial.angular(a);
        IExpr[] uc = sp.add3(SymbolicSpatial.linear(v), sp.cross(w, c));
        IExpr[] ac = sp.add3(SymbolicSpatial.linear(a), sp.cross(alpha, c));
        IExpr[] lin = sp.add3(ac, sp.cross(w, uc));
        IExpr[] force = {g.mul(m, lin[0]), g.mul(m, lin[1]), g.mul(m, lin[2])};
        IExpr[] moment;
        if (ic[1].isZero() && ic[2].isZero() && ic[5].isZero()) {
            // Principal axes (most URDF links): Euler's equations, n_c,x = Ixx αx + (Izz - Iyy) ωy ωz and
            // cyclically, 12 operations instead of 18.
            moment = new IExpr[3];
            for (int k = 0; k < 3; k++) {
                int k1 = (k + 1) % 3;
                int k2 = (k + 2) % 3;
                moment[k] = g.add(g.mul(ic[4 * k], alpha[k]),
                        g.mul(g.sub(ic[4 * k2], ic[4 * k1]), g.mul(w[k1], w[k2])));
            }
        } else {
            moment = sp.add3(sp.rotate(ic, alpha), sp.cross(w, sp.rotate(ic, w)));
        }
        return SymbolicSpatial.join(sp.add3(moment, sp.cross(c, force)), force);
    }

    /** τ = H(q) v̇ + C(q, v) with symbolic q, v, v̇. */
    public IExpr[] inverseDynamics() {
        return inverseDynamics(vSymbols(), symbols("vdot", nv), true);
    }

    /** C(q, v) = RNEA(q, v, 0). */
    public IExpr[] biasForces() {
        return inverseDynamics(vSymbols(), sp.zeros(nv), true);
    }

    /** g(q) = RNEA(q, 0, 0). */
    public IExpr[] gravityForces() {
        return inverseDynamics(sp.zeros(nv), sp.zeros(nv), true);
    }

    /** CRBA: H(q), an nv x nv array whose (i, j) and (j, i) entries are the same expression. */
    public IExpr[][] massMatrix() {
        SymbolicSpatial.Inertia[] ic = inertia.clone();
        for (int i = nb - 1; i >= 0; i--) {
            int p = model.body(i).parentIndex();
            if (p >= 0) {
                SymbolicSpatial.Inertia rotated = sp.transformToParent(joint[i], ic[i]);
                ic[p] = sp.add(ic[p], sp.transformToParent(tree[i], rotated));
            }
        }
        IExpr[][] h = new IExpr[nv][nv];
        for (IExpr[] row : h) {
            java.util.Arrays.fill(row, F.C0);
        }
        for (int i = 0; i < nb; i++) {
            int vi = model.body(i).joint().vIndex();
            List<IExpr[]> s = subspace[i];
            for (int d = 0; d < s.size(); d++) {
                int col = vi + d;
                IExpr[] f = sp.inertiaTimes(ic[i], s.get(d));
                for (int d2 = d; d2 < s.size(); d2++) {
                    IExpr x = g.dot(s.get(d2), f);
                    h[vi + d2][col] = x;
                    h[col][vi + d2] = x;
                }
                int j = i;
                while (model.body(j).parentIndex() >= 0) {
                    f = childToParentForce(j, f);
                    j = model.body(j).parentIndex();
                    int vj = model.body(j).joint().vIndex();
                    List<IExpr[]> sj = subspace[j];
                    for (int d2 = 0; d2 < sj.size(); d2++) {
                        IExpr x = g.dot(sj.get(d2), f);
                        h[vj + d2][col] = x;
                        h[col][vj + d2] = x;
                    }
                }
            }
        }
        return h;
    }

    /** Parent of each velocity index in the expanded (one dof per node) tree, -1 for none. */
    public int[] dofParents() {
        int[] lambda = new int[nv];
        for (Body b : model.bodies()) {
            int vi = b.joint().vIndex();
            int p = b.parentIndex();
            lambda[vi] = p < 0 ? -1 : model.body(p).joint().vIndex() + model.body(p).joint().nv() - 1;
            for (int d = 1; d < b.joint().nv(); d++) {
                lambda[vi + d] = vi + d - 1;
            }
        }
        return lambda;
    }

    /**
     * Forward dynamics v̇ = H⁻¹ (τ - C) by Featherstone's sparse factorisation H = Lᵀ D L (RBDA §6.5), which
     * fills in only along the branches of the tree, then the back-substitutions; every loop over the sparsity
     * pattern is unrolled here, so the generated code has no branches.
     */
    public IExpr[] forwardDynamics(IExpr[][] hIn, IExpr[] c) {
        IExpr[][] h = new IExpr[nv][];
        for (int k = 0; k < nv; k++) {
            h[k] = hIn[k].clone();
        }
        int[] lambda = dofParents();
        for (int k = nv - 1; k >= 0; k--) {
            IExpr invDiag = g.div(F.C1, h[k][k]);
            for (int i = lambda[k]; i >= 0; i = lambda[i]) {
                IExpr a = g.mul(h[k][i], invDiag);
                for (int j = i; j >= 0; j = lambda[j]) {
                    h[i][j] = g.sub(h[i][j], g.mul(h[k][j], a));
                }
                h[k][i] = a;
            }
        }
        IExpr[] tau = symbols("tau", nv);
        IExpr[] x = new IExpr[nv];
        for (int k = 0; k < nv; k++) {
            x[k] = g.sub(tau[k], c[k]);
        }
        for (int i = nv - 1; i >= 0; i--) {
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                x[j] = g.sub(x[j], g.mul(h[i][j], x[i]));
            }
        }
        for (int i = 0; i < nv; i++) {
            x[i] = g.div(x[i], h[i][i]);
        }
        for (int i = 0; i < nv; i++) {
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                x[i] = g.sub(x[i], g.mul(h[i][j], x[j]));
            }
        }
        return x;
    }

    // ------------------------------------------------------------------ constraints

    private SymbolicSpatial.Transform worldTransform(int body) {
        if (world == null) {
            world = new SymbolicSpatial.Transform[nb];
        }
        if (world[body] == null) {
            int p = model.body(body).parentIndex();
            SymbolicSpatial.Transform up = sp.compose(joint[body], tree[body]);
            world[body] = p < 0 ? up : sp.compose(up, worldTransform(p));
        }
        return world[body];
    }

    /** World rotation (world <- frame, row-major, 9) and origin (3) of a named frame of the model. */
    public IExpr[][] framePose(org.symdyn.model.Frame frame) {
        return framePose(frame.bodyIndex(), frame.pose());
    }

    /** World rotation (world <- frame, row-major) and origin of a frame fixed in a body (-1: the world). */
    private IExpr[][] framePose(int body, Pose frame) {
        IExpr[] rf = new IExpr[9];
        IExpr[] pf = new IExpr[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rf[3 * i + j] = g.constant(frame.rotation(i, j));
            }
            pf[i] = g.constant(frame.translation(i));
        }
        if (body < 0) {
            return new IExpr[][] {rf, pf};
        }
        SymbolicSpatial.Transform x = worldTransform(body);
        // R_body = Eᵀ; R = Eᵀ R_f; o = r + Eᵀ p_f.
        IExpr[] r = new IExpr[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                r[3 * i + j] = g.sum(g.mul(x.e[i], rf[j]), g.mul(x.e[3 + i], rf[3 + j]), g.mul(x.e[6 + i], rf[6 + j]));
            }
        }
        return new IExpr[][] {r, sp.add3(x.r, sp.rotateTranspose(x.e, pf))};
    }

    /** World angular velocity and world velocity of a point fixed in a body, for the body velocities given. */
    private IExpr[][] frameVelocity(int body, Pose frame, IExpr[][] vel) {
        if (body < 0) {
            return new IExpr[][] {sp.zeros(3), sp.zeros(3)};
        }
        SymbolicSpatial.Transform x = worldTransform(body);
        IExpr[] w = SymbolicSpatial.angular(vel[body]);
        IExpr[] p = {g.constant(frame.translation(0)), g.constant(frame.translation(1)),
            g.constant(frame.translation(2))};
        IExpr[] vp = sp.add3(SymbolicSpatial.linear(vel[body]), sp.cross(w, p));
        return new IExpr[][] {sp.rotateTranspose(x.e, w), sp.rotateTranspose(x.e, vp)};
    }

    /** φ(q), one entry per constraint row, as {@link org.symdyn.constraints.GenericConstraints} defines it. */
    public IExpr[] positionErrors() {
        List<IExpr> rows = new ArrayList<>();
        for (ConstraintModel c : model.constraints()) {
            if (c instanceof LoopConstraintModel loop) {
                IExpr[][] pp = framePose(loop.predecessorBody(), loop.predecessorFrame());
                IExpr[][] ps = framePose(loop.successorBody(), loop.successorFrame());
                IExpr[] rp = pp[0];
                IExpr[] rs = ps[0];
                IExpr[] rel = new IExpr[9];
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 3; j++) {
                        rel[3 * i + j] = g.sum(g.mul(rp[i], rs[j]), g.mul(rp[3 + i], rs[3 + j]),
                                g.mul(rp[6 + i], rs[6 + j]));
                    }
                }
                IExpr half = F.C1D2;
                IExpr[] rot = {g.mul(half, g.sub(rel[7], rel[5])), g.mul(half, g.sub(rel[2], rel[6])),
                    g.mul(half, g.sub(rel[3], rel[1]))};
                IExpr[] d = sp.rotateTranspose(rp, sp.sub3(ps[1], pp[1]));
                IExpr[] err = SymbolicSpatial.join(rot, d);
                for (double[] a : loop.axes()) {
                    rows.add(g.dot(constants(a), err));
                }
            } else if (c instanceof ContactConstraintModel) {
                rows.add(F.C0);
            } else if (c instanceof CouplerConstraintModel cp) {
                Joint j = model.body(cp.joint()).joint();
                Joint r = model.body(cp.referenceJoint()).joint();
                rows.add(g.sum(q(j.qIndex()), g.neg(g.mul(g.constant(cp.ratio()), q(r.qIndex()))),
                        g.neg(g.constant(cp.offset()))));
            } else if (c instanceof LineOnLineConstraintModel lol) {
                IExpr[][] geo = edgeGeometry(lol);
                rows.add(g.dot(geo[3], geo[4]));
                if (lol.rolling()) {
                    rows.add(F.C0);
                    rows.add(F.C0);
                }
            } else {
                throw new UnsupportedOperationException(c.location() + " " + c.typeName() + " constraint '"
                        + c.name() + "' is not supported by the generator yet");
            }
        }
        return rows.toArray(new IExpr[0]);
    }

    /** d (unit, along the edge), s (unit, out of the body) and the centre P of an edge frame, in world. */
    private IExpr[][] edge(int body, Pose frame) {
        double[] d = {frame.rotation(0, 0), frame.rotation(1, 0), frame.rotation(2, 0)};
        double[] s = {frame.rotation(0, 2), frame.rotation(1, 2), frame.rotation(2, 2)};
        // Gram-Schmidt as the runtime's LineOnLineContact does, so that both use the same unit vectors.
        double dn = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int i = 0; i < 3; i++) {
            d[i] /= dn;
        }
        double ds = d[0] * s[0] + d[1] * s[1] + d[2] * s[2];
        for (int i = 0; i < 3; i++) {
            s[i] -= ds * d[i];
        }
        double sn = Math.sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        for (int i = 0; i < 3; i++) {
            s[i] /= sn;
        }
        IExpr[] p = constants(new double[] {frame.translation(0), frame.translation(1), frame.translation(2)});
        if (body < 0) {
            return new IExpr[][] {constants(d), constants(s), p};
        }
        SymbolicSpatial.Transform x = worldTransform(body);
        return new IExpr[][] {sp.rotateTranspose(x.e, constants(d)), sp.rotateTranspose(x.e, constants(s)),
            sp.add3(x.r, sp.rotateTranspose(x.e, p))};
    }

    /**
     * The crossing-lines geometry of {@link org.symdyn.constraints.LineOnLineContact}: d_f, d_b, the offset
     * p = P_b - P_f, the normal n = σ (d_f × d_b) / |d_f × d_b| with σ from {@link ExpressionGraph#edgeSense}, and
     * the contact point C_o midway between the closest points. Returns {d_f, d_b, P_f, p, n, C_o}. Parallel edges
     * (|d_f × d_b| = 0) are singular here: the generated code gives non-finite values there.
     */
    private IExpr[][] edgeGeometry(LineOnLineConstraintModel c) {
        IExpr[][] f = edge(c.bodyF(), c.edgeF());
        IExpr[][] b = edge(c.bodyB(), c.edgeB());
        IExpr[] p = sp.sub3(b[2], f[2]);
        IExpr[] w0 = sp.cross(f[0], b[0]);
        IExpr sense = g.edgeSense(g.dot(w0, f[1]), g.dot(w0, b[1]));
        IExpr[] w = {g.mul(sense, w0[0]), g.mul(sense, w0[1]), g.mul(sense, w0[2])};
        IExpr w2 = g.dot(w, w);
        IExpr inv = g.div(F.C1, g.sqrt(w2));
        IExpr[] n = {g.mul(w[0], inv), g.mul(w[1], inv), g.mul(w[2], inv)};
        IExpr cos = g.dot(f[0], b[0]);
        IExpr a = g.dot(p, f[0]);
        IExpr bb = g.dot(p, b[0]);
        IExpr tf = g.div(g.sub(a, g.mul(cos, bb)), w2);
        IExpr tb = g.div(g.sub(g.mul(cos, a), bb), w2);
        IExpr half = F.C1D2;
        IExpr[] co = new IExpr[3];
        for (int i = 0; i < 3; i++) {
            IExpr qf = g.add(f[2][i], g.mul(tf, f[0][i]));
            IExpr qb = g.add(b[2][i], g.mul(tb, b[0][i]));
            co[i] = g.mul(half, g.add(qf, qb));
        }
        return new IExpr[][] {f[0], b[0], f[2], p, n, co};
    }

    /** World velocity of the material point of {@code body} at the world point {@code at}. */
    private IExpr[] materialPointVelocity(int body, IExpr[] at, IExpr[][] vel) {
        if (body < 0) {
            return sp.zeros(3);
        }
        SymbolicSpatial.Transform x = worldTransform(body);
        IExpr[] w = sp.rotateTranspose(x.e, SymbolicSpatial.angular(vel[body]));
        IExpr[] vo = sp.rotateTranspose(x.e, SymbolicSpatial.linear(vel[body]));
        return sp.add3(vo, sp.cross(w, sp.sub3(at, x.r)));
    }

    /** The velocity error φ̇ = G(q) v of every row, linear in the symbols v. */
    public IExpr[] velocityErrors() {
        IExpr[][] vel = forwardPass(vSymbols(), sp.zeros(nv), false)[0];
        List<IExpr> rows = new ArrayList<>();
        for (ConstraintModel c : model.constraints()) {
            if (c instanceof LoopConstraintModel loop) {
                IExpr[][] vp = frameVelocity(loop.predecessorBody(), loop.predecessorFrame(), vel);
                IExpr[][] vs = frameVelocity(loop.successorBody(), loop.successorFrame(), vel);
                IExpr[] rp = framePose(loop.predecessorBody(), loop.predecessorFrame())[0];
                IExpr[] rel = SymbolicSpatial.join(sp.rotateTranspose(rp, sp.sub3(vs[0], vp[0])),
                        sp.rotateTranspose(rp, sp.sub3(vs[1], vp[1])));
                for (double[] a : loop.axes()) {
                    rows.add(g.dot(constants(a), rel));
                }
            } else if (c instanceof ContactConstraintModel contact) {
                Pose at = Pose.translation(contact.point()[0], contact.point()[1], contact.point()[2]);
                IExpr[] pv = frameVelocity(contact.body(), at, vel)[1];
                rows.add(g.dot(constants(contact.normal()), pv));
            } else if (c instanceof CouplerConstraintModel cp) {
                Joint j = model.body(cp.joint()).joint();
                Joint r = model.body(cp.referenceJoint()).joint();
                rows.add(g.sub(v(j.vIndex()), g.mul(g.constant(cp.ratio()), v(r.vIndex()))));
            } else if (c instanceof LineOnLineConstraintModel lol) {
                IExpr[][] geo = edgeGeometry(lol);
                IExpr[] dv = sp.sub3(materialPointVelocity(lol.bodyB(), geo[5], vel),
                        materialPointVelocity(lol.bodyF(), geo[5], vel));
                rows.add(g.dot(geo[4], dv));
                if (lol.rolling()) {
                    rows.add(g.dot(geo[0], dv));
                    rows.add(g.dot(sp.cross(geo[4], geo[0]), dv));
                }
            } else {
                throw new UnsupportedOperationException(c.location() + " " + c.typeName() + " constraint '"
                        + c.name() + "' is not supported by the generator yet");
            }
        }
        return rows.toArray(new IExpr[0]);
    }

    /** G(q): G_rk = ∂φ̇_r/∂v_k, by differentiation through the graph. */
    public IExpr[][] constraintJacobian(IExpr[] velocityErrors) {
        IExpr[][] jac = new IExpr[velocityErrors.length][nv];
        for (int k = 0; k < nv; k++) {
            ExpressionGraph.Direction d = g.direction(Map.of(v(k), F.C1));
            for (int r = 0; r < velocityErrors.length; r++) {
                jac[r][k] = d.of(velocityErrors[r]);
            }
        }
        return jac;
    }

    /**
     * γ(q, v) = -Ġ v = -d/dt (G(q) v) at v̇ = 0: the directional derivative of φ̇ along q̇(q, v), with the
     * derivative of each joint input (sin q ↦ cos q · v, quaternions ↦ ½ q ⊗ ω, ...).
     */
    public IExpr[] gamma(IExpr[] velocityErrors) {
        ExpressionGraph.Direction d = g.direction(timeDerivativeSeeds);
        IExpr[] out = new IExpr[velocityErrors.length];
        for (int r = 0; r < out.length; r++) {
            out[r] = g.neg(d.of(velocityErrors[r]));
        }
        return out;
    }
}
