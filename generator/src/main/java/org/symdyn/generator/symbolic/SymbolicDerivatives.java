package org.symdyn.generator.symbolic;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * The quantities of {@link org.symdyn.contract.DynamicsDerivatives} over symbolic values: ∂τ/∂q, ∂τ/∂v, ∂v̇/∂q,
 * ∂v̇/∂v, H⁻¹, the Christoffel Coriolis matrix, the regressor and the inertial parameters, with the contract's
 * conventions (∂/∂q in the tangent space of the integrators' update; the regressor's order
 * [m, m c, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz] per body).
 *
 * <p>Differentiating RNEA forward along one direction at a time in body coordinates (O(nv · nb) transforms, the
 * runtime's way before, kept as the oracle of its tests) would unroll to n times the inverse dynamics; here the
 * derivatives are instead written in <b>one inertial frame</b> (the runtime's {@code InertialFrameDerivatives} runs the
 * same equations as loops), where a tangent direction k moves everything carried
 * at or below it rigidly (a twist S_k), so that each entry is a few dot products of per-dof and per-body vectors
 * (the approach of Carpentier and Mansard's analytical RNEA derivatives, RSS 2018, in the contract's conventions):
 * <pre>
 *   per dof m:          S_m; V_p, A_p the velocity and acceleration of what carries it before it moves, V_c after
 *                       (a floating or ball joint's dofs all move the child: V_p = v_λ, V_c = v_child; the dofs of a
 *                       planar joint are a chain x, y, θ), Ṡ_m = V_c × S_m
 *   per body b:         Y_b = Σ I_i, Ẏ_b = Σ İ_i (İ = v ×* I - I v×), P_b = Σ I_i v_i, F_b = Σ f_i over its subtree,
 *                       B_b x = Ẏ_b x + x ×* P_b
 *   per direction k:    w = S_k × V_p, α = S_k × A_p + V_p × w, u = (V_c + V_p) × S_k
 *   m moved by k:       ∂τ_m/∂q_k = -S_mᵀ (Y_b α + B_b w),  ∂τ_m/∂v_k = S_mᵀ (Y_b u + B_b S_k)   (b = m's body)
 *   m above k:          ∂τ_m/∂q_k = S_mᵀ (S_k ×* F_j - Y_j α - B_j w),  ∂τ_m/∂v_k = S_mᵀ (Y_j u + B_j S_k)  (j = k's)
 *   Coriolis:           C_mk = S_mᵀ (Y_d Ṡ_k + ½ B_d S_k), d the deeper of the two bodies (zero off a branch)
 * </pre>
 * with S_mᵀ Y_b x = (Y_b S_m)ᵀ x and S_mᵀ B_b x = (B_bᵀ S_m)ᵀ x, so the vectors Y_b S_m, B_bᵀ S_m are formed once per
 * dof.
 *
 * <p>The frame is inertial, but its coordinates are free: every term is a spatial-algebra identity and every entry a
 * pairing of a motion with a force, the same in any coordinates. Each tree is written in the coordinates of its
 * root body where they stand at this instant (absolute velocities, accelerations and gravity, expressed there), not
 * in world coordinates: the root's dofs then have the constant subspace of its joint (unit vectors for a floating
 * base), the transforms to the root leave out the root's own pose, and gravity is rotated once. Operation counts of
 * ∂τ (generated, --floating where the model has no world link) went from world to root coordinates: iiwa14 5,399 →
 * 4,726, solo12 14,142 → 9,232, romeo_small 38,780 → 31,032; with u = -2 w for a dof that moves its child alone
 * (below), 4,602, 8,940 and 30,015; with that w formed once in the pass, where it is also -Ṡ, 4,470, 8,812 and
 * 29,317.
 *
 * <p>The forward-dynamics derivatives are -H⁻¹ times those of the inverse dynamics at v̇ = FD(q, v, τ), through the
 * branch-sparse factorisation of H that the forward dynamics already uses; H⁻¹ is that factorisation's solve of
 * the unit columns. The regressor's column for parameter p of body i is J_iᵀ (I_p a_i + v_i ×* I_p v_i) with body i's
 * Jacobian, velocity and acceleration in its own coordinates (the RNEA pass) and I_p the basis inertia.
 */
public final class SymbolicDerivatives {
    private final Model model;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicJoints joints;
    private final SymbolicInertias inertias;
    private final SymbolicRecursions recursions;
    private final SymbolicKinematics kinematics;
    private final int nb;
    private final int nv;
    /** Per dof: its body; per body: whether its joint's dofs all move the child together (floating, ball). */
    private final int[] bodyOf;
    private final boolean[] together;
    /** below[a][b]: body b is in a's subtree (b = a included). */
    private final boolean[][] below;
    private IExpr[][] factored;

    SymbolicDerivatives(Model model, ExpressionGraph g, SymbolicSpatial sp, SymbolicJoints joints,
            SymbolicInertias inertias, SymbolicRecursions recursions, SymbolicKinematics kinematics) {
        this.model = model;
        this.g = g;
        this.sp = sp;
        this.joints = joints;
        this.inertias = inertias;
        this.recursions = recursions;
        this.kinematics = kinematics;
        nb = model.bodyCount();
        nv = model.nv();
        bodyOf = new int[nv];
        together = new boolean[nb];
        below = new boolean[nb][nb];
        for (int i = 0; i < nb; i++) {
            JointType type = model.body(i).joint().type();
            together[i] = type == JointType.FLOATING || type == JointType.BALL;
            int vi = model.body(i).joint().vIndex();
            for (int d = 0; d < type.nv(); d++) {
                bodyOf[vi + d] = i;
            }
            for (int a = i; a >= 0; a = model.body(a).parentIndex()) {
                below[a][i] = true;
            }
        }
    }

    /** The pass of one state, each tree in its root body's coordinates (see the class comment). */
    private final class RootPass {
        final IExpr[][] s = new IExpr[nv][];
        final IExpr[][] vp = new IExpr[nv][];
        final IExpr[][] ap = new IExpr[nv][];
        final IExpr[][] vc = new IExpr[nv][];
        /** Per dof that moves its child alone, with accelerations: w = S_m × V_p (null otherwise). */
        final IExpr[][] sxv = new IExpr[nv][];
        final SymbolicSpatial.Inertia[] y = new SymbolicSpatial.Inertia[nb];
        final SymbolicSpatial.Inertia[] ydot = new SymbolicSpatial.Inertia[nb];
        final IExpr[][] momentum = new IExpr[nb][];
        final IExpr[][] force = new IExpr[nb][];
        /** Per dof: Y_b S_m and B_bᵀ S_m. */
        final IExpr[][] ys = new IExpr[nv][];
        final IExpr[][] bts = new IExpr[nv][];

        /**
         * @param vdot null for velocities only (the Coriolis matrix): no accelerations, no forces
         */
        RootPass(IExpr[] v, IExpr[] vdot) {
            boolean withAcc = vdot != null;
            IExpr[] gravity = sp.constants(model.gravity());
            IExpr[] a0World = {F.C0, F.C0, F.C0, g.neg(gravity[0]), g.neg(gravity[1]), g.neg(gravity[2])};
            IExpr[][] vel = new IExpr[nb][];
            IExpr[][] acc = new IExpr[nb][];
            /* Per body: X from its root's coordinates to it, and the root's -gravity in the root's coordinates. */
            SymbolicSpatial.Transform[] fromRoot = new SymbolicSpatial.Transform[nb];
            IExpr[][] a0 = new IExpr[nb][];
            for (int i = 0; i < nb; i++) {
                int p = model.body(i).parentIndex();
                if (p < 0) {
                    fromRoot[i] = new SymbolicSpatial.Transform(SymbolicSpatial.identity(), sp.zeros(3));
                    a0[i] = withAcc ? sp.applyMotion(kinematics.worldTransform(i), a0World) : null;
                } else {
                    fromRoot[i] = sp.compose(joints.parentToChild(i), fromRoot[p]);
                    a0[i] = a0[p];
                }
                SymbolicSpatial.Transform x = fromRoot[i];
                List<IExpr[]> sub = joints.subspace(i);
                int vi = model.body(i).joint().vIndex();
                for (int d = 0; d < sub.size(); d++) {
                    s[vi + d] = sp.applyInverseMotion(x, sub.get(d));
                }
                IExpr[] cv = p < 0 ? sp.zeros(6) : vel[p];
                IExpr[] ca = withAcc ? (p < 0 ? a0[i] : acc[p]) : null;
                if (together[i]) {
                    IExpr[] vChild = cv;
                    for (int d = 0; d < sub.size(); d++) {
                        vChild = sp.add6(vChild, sp.scale6(v[vi + d], s[vi + d]));
                    }
                    for (int d = 0; d < sub.size(); d++) {
                        int m = vi + d;
                        vp[m] = cv;
                        ap[m] = ca;
                        vc[m] = vChild;
                    }
                    if (withAcc) {
                        for (int d = 0; d < sub.size(); d++) {
                            ca = accelerate(ca, s[vi + d], vChild, v[vi + d], vdot[vi + d]);
                        }
                    }
                    cv = vChild;
                } else {
                    for (int d = 0; d < sub.size(); d++) {
                        int m = vi + d;
                        vp[m] = cv;
                        ap[m] = ca;
                        cv = sp.add6(cv, sp.scale6(v[m], s[m]));
                        vc[m] = cv;
                        if (withAcc) {
                            // Ṡ = V_c × S = V_p × S = -w here: the w the pairs need, formed once.
                            sxv[m] = sp.crossMotion(s[m], vp[m]);
                            ca = sp.sub6(sp.add6(ca, sp.scale6(vdot[m], s[m])), sp.scale6(v[m], sxv[m]));
                        }
                    }
                }
                vel[i] = cv;
                acc[i] = ca;
                SymbolicSpatial.Inertia in = sp.transformToParent(x, inertias.of(i));
                y[i] = in;
                momentum[i] = sp.inertiaTimes(in, cv);
                ydot[i] = inertiaRate(in, cv);
                if (withAcc) {
                    force[i] = sp.add6(sp.inertiaTimes(in, ca), sp.crossForce(cv, momentum[i]));
                }
            }
            for (int i = nb - 1; i >= 0; i--) {
                int p = model.body(i).parentIndex();
                if (p >= 0) {
                    y[p] = sp.add(y[p], y[i]);
                    ydot[p] = sp.add(ydot[p], ydot[i]);
                    momentum[p] = sp.add6(momentum[p], momentum[i]);
                    if (withAcc) {
                        force[p] = sp.add6(force[p], force[i]);
                    }
                }
            }
            for (int m = 0; m < nv; m++) {
                int b = bodyOf[m];
                ys[m] = sp.inertiaTimes(y[b], s[m]);
                bts[m] = sp.sub6(sp.inertiaTimes(ydot[b], s[m]), sp.crossForce(s[m], momentum[b]));
            }
        }

        /** B_b x = Ẏ_b x + x ×* P_b. */
        IExpr[] b(int body, IExpr[] x) {
            return sp.add6(sp.inertiaTimes(ydot[body], x), sp.crossForce(x, momentum[body]));
        }
    }

    /** a + S q̈ + (V_c × S) q̇: the absolute acceleration after one dof (Ṡ = V_c × S). */
    private IExpr[] accelerate(IExpr[] a, IExpr[] s, IExpr[] vc, IExpr qd, IExpr qdd) {
        return sp.add6(sp.add6(a, sp.scale6(qdd, s)), sp.scale6(qd, sp.crossMotion(vc, s)));
    }

    /**
     * İ = v ×* I - I v× of an inertia (m, h, Ī) in the pass's coordinates moving with v = [ω; u], itself of
     * inertia form with no mass: ḣ = m u + ω × h, d/dt Ī = [ω]× Ī - Ī [ω]× - h uᵀ - u hᵀ + 2 (u · h) 1.
     */
    private SymbolicSpatial.Inertia inertiaRate(SymbolicSpatial.Inertia in, IExpr[] v) {
        IExpr[] w = SymbolicSpatial.angular(v);
        IExpr[] u = SymbolicSpatial.linear(v);
        IExpr[] hdot = sp.add3(new IExpr[] {g.mul(in.m, u[0]), g.mul(in.m, u[1]), g.mul(in.m, u[2])},
                sp.cross(w, in.h));
        IExpr[] mw = new IExpr[9]; // [ω]× Ī, column by column
        for (int c = 0; c < 3; c++) {
            IExpr[] col = sp.cross(w, new IExpr[] {in.i[c], in.i[3 + c], in.i[6 + c]});
            for (int r = 0; r < 3; r++) {
                mw[3 * r + c] = col[r];
            }
        }
        IExpr uh2 = g.mul(g.integer(2), g.dot(u, in.h));
        IExpr[] idot = new IExpr[9];
        for (int r = 0; r < 3; r++) {
            for (int c = r; c < 3; c++) {
                IExpr x = g.sum(mw[3 * r + c], mw[3 * c + r], g.neg(g.mul(in.h[r], u[c])),
                        g.neg(g.mul(u[r], in.h[c])));
                if (r == c) {
                    x = g.add(x, uh2);
                }
                idot[3 * r + c] = x;
                idot[3 * c + r] = x;
            }
        }
        return new SymbolicSpatial.Inertia(F.C0, hdot, idot);
    }

    /** True when direction k moves dof m (m carried at or below k; a floating or ball joint's dofs together). */
    private boolean moves(int k, int m) {
        int j = bodyOf[k];
        int b = bodyOf[m];
        if (b == j) {
            return together[j] || m >= k;
        }
        return below[j][b];
    }

    // ------------------------------------------------------------------ inverse dynamics

    /** {∂τ/∂q, ∂τ/∂v} for symbolic q, v and v̇. */
    public IExpr[][][] inverseDynamicsDerivatives() {
        return inverseDynamicsDerivatives(g.inputs(Kind.V, nv), g.inputs(Kind.VDOT, nv));
    }

    /** {∂τ/∂q, ∂τ/∂v} at (q, v, v̇) for these v and v̇ (symbols or expressions). */
    private IExpr[][][] inverseDynamicsDerivatives(IExpr[] v, IExpr[] vdot) {
        RootPass w = new RootPass(v, vdot);
        IExpr[][] dq = zeros();
        IExpr[][] dv = zeros();
        IExpr minus2 = g.integer(-2);
        for (int k = 0; k < nv; k++) {
            int j = bodyOf[k];
            IExpr[] sk = w.s[k];
            IExpr[] wk = w.sxv[k] != null ? w.sxv[k] : sp.crossMotion(sk, w.vp[k]);
            IExpr[] alpha = sp.add6(sp.crossMotion(sk, w.ap[k]), sp.crossMotion(w.vp[k], wk));
            // A dof that moves its child alone has V_c = V_p + S_k q̇_k, so u = (2 V_p + S_k q̇_k) × S_k = -2 w: its
            // products with u are -2 times those with w, the scale applied to a dot product or once to Y_j w.
            IExpr[] uk = together[j] ? sp.crossMotion(sp.add6(w.vc[k], w.vp[k]), sk) : null;
            IExpr[] dfq = null;
            IExpr[] dfv = null;
            for (int m = 0; m < nv; m++) {
                int b = bodyOf[m];
                if (moves(k, m)) {
                    dq[m][k] = g.neg(g.add(g.dot(w.ys[m], alpha), g.dot(w.bts[m], wk)));
                    IExpr yu = uk != null ? g.dot(w.ys[m], uk) : g.mul(minus2, g.dot(w.ys[m], wk));
                    dv[m][k] = g.add(yu, g.dot(w.bts[m], sk));
                } else if (below[b][j]) {
                    if (dfq == null) {
                        dfq = sp.sub6(sp.sub6(sp.crossForce(sk, w.force[j]), sp.inertiaTimes(w.y[j], alpha)),
                                w.b(j, wk));
                        IExpr[] yu = uk != null ? sp.inertiaTimes(w.y[j], uk)
                                : sp.scale6(minus2, sp.inertiaTimes(w.y[j], wk));
                        dfv = sp.add6(yu, w.b(j, sk));
                    }
                    dq[m][k] = g.dot(w.s[m], dfq);
                    dv[m][k] = g.dot(w.s[m], dfv);
                }
            }
        }
        return new IExpr[][][] {dq, dv};
    }

    // ------------------------------------------------------------------ forward dynamics

    /**
     * {∂v̇/∂q, ∂v̇/∂v, H⁻¹} for symbolic q, v and τ, from the generated H and C ({@code h}, {@code c}) through the
     * forward dynamics' factorisation.
     */
    public IExpr[][][] forwardDynamicsDerivatives(IExpr[][] h, IExpr[] c) {
        IExpr[] qdd = recursions.forwardDynamics(h, c);
        IExpr[][][] d = inverseDynamicsDerivatives(g.inputs(Kind.V, nv), qdd);
        IExpr[][] lf = factor(h);
        IExpr[][] dq = new IExpr[nv][nv];
        IExpr[][] dv = new IExpr[nv][nv];
        IExpr[] col = new IExpr[nv];
        for (int k = 0; k < nv; k++) {
            for (int r = 0; r < nv; r++) {
                col[r] = g.neg(d[0][r][k]);
            }
            IExpr[] x = recursions.solve(lf, col);
            for (int r = 0; r < nv; r++) {
                col[r] = g.neg(d[1][r][k]);
                dq[r][k] = x[r];
            }
            x = recursions.solve(lf, col);
            for (int r = 0; r < nv; r++) {
                dv[r][k] = x[r];
            }
        }
        return new IExpr[][][] {dq, dv, inverseMassMatrix(h)};
    }

    /** H⁻¹ from the factorisation of the generated H: the solves of the unit columns, mirrored (it is symmetric). */
    public IExpr[][] inverseMassMatrix(IExpr[][] h) {
        IExpr[][] lf = factor(h);
        IExpr[][] inv = new IExpr[nv][nv];
        for (int k = 0; k < nv; k++) {
            IExpr[] e = new IExpr[nv];
            Arrays.fill(e, F.C0);
            e[k] = F.C1;
            IExpr[] x = recursions.solve(lf, e);
            for (int r = k; r < nv; r++) {
                inv[r][k] = x[r];
                inv[k][r] = x[r];
            }
        }
        return inv;
    }

    private IExpr[][] factor(IExpr[][] h) {
        if (factored == null) {
            factored = recursions.factor(h);
        }
        return factored;
    }

    // ------------------------------------------------------------------ Coriolis matrix

    /** C(q, v) for symbolic q and v (see the class comment). */
    public IExpr[][] coriolisMatrix() {
        RootPass w = new RootPass(g.inputs(Kind.V, nv), null);
        IExpr[][] c = zeros();
        IExpr half = F.C1D2;
        for (int k = 0; k < nv; k++) {
            int j = bodyOf[k];
            IExpr[] sk = w.s[k];
            IExpr[] sdot = sp.crossMotion(w.vc[k], sk);
            IExpr[] above = null;
            for (int m = 0; m < nv; m++) {
                int b = bodyOf[m];
                if (below[j][b]) {
                    // m's body is the deeper one (or the same).
                    c[m][k] = g.add(g.dot(w.ys[m], sdot), g.mul(half, g.dot(w.bts[m], sk)));
                } else if (below[b][j]) {
                    if (above == null) {
                        above = sp.add6(sp.inertiaTimes(w.y[j], sdot), sp.scale6(half, w.b(j, sk)));
                    }
                    c[m][k] = g.dot(w.s[m], above);
                }
            }
        }
        return c;
    }

    // ------------------------------------------------------------------ regressor

    /** The 10 inertial parameters of each body in the contract's order, as the class evaluates them. */
    public IExpr[] inertialParameters() {
        IExpr[] pi = new IExpr[10 * nb];
        for (int i = 0; i < nb; i++) {
            SymbolicSpatial.Inertia in = inertias.of(i);
            int o = 10 * i;
            pi[o] = in.m;
            pi[o + 1] = in.h[0];
            pi[o + 2] = in.h[1];
            pi[o + 3] = in.h[2];
            pi[o + 4] = in.i[0];
            pi[o + 5] = in.i[3];
            pi[o + 6] = in.i[4];
            pi[o + 7] = in.i[6];
            pi[o + 8] = in.i[7];
            pi[o + 9] = in.i[8];
        }
        return pi;
    }

    /**
     * ∂π/∂p (10 nb x parameter count) of the {@link #inertialParameters} π, differentiated through the graph with
     * respect to each declared parameter's symbol (a joint-origin parameter does not reach π: zero column).
     */
    public IExpr[][] inertialParameterJacobian(IExpr[] pi) {
        int np = model.parameters().size();
        IExpr[][] out = new IExpr[pi.length][np];
        for (int k = 0; k < np; k++) {
            ExpressionGraph.Direction d = g.direction(Map.of(g.input(Kind.PARAMETER, k), F.C1));
            for (int j = 0; j < pi.length; j++) {
                out[j][k] = d.of(pi[j]);
            }
        }
        return out;
    }

    /**
     * Y_p (nv x parameter count): the {@link #regressor} times {@link #inertialParameterJacobian}, plus v̇ on the dofs
     * of an armature parameter's joint (τ = Y π + A v̇, so ∂τ/∂a = v̇ there).
     */
    public IExpr[][] parameterRegressor(IExpr[][] y, IExpr[][] dpiDp) {
        int np = model.parameters().size();
        IExpr[][] out = new IExpr[y.length][np];
        for (int i = 0; i < y.length; i++) {
            for (int k = 0; k < np; k++) {
                IExpr s = F.C0;
                for (int j = 0; j < dpiDp.length; j++) {
                    s = g.add(s, g.mul(y[i][j], dpiDp[j][k]));
                }
                out[i][k] = s;
            }
        }
        for (int k = 0; k < np; k++) {
            org.symdyn.model.ParameterModel p = model.parameters().get(k);
            if (p.field() == org.symdyn.model.ParameterModel.Field.ARMATURE) {
                org.symdyn.model.Joint joint = model.body(p.body()).joint();
                for (int d = 0; d < joint.nv(); d++) {
                    int i = joint.vIndex() + d;
                    out[i][k] = g.add(out[i][k], g.input(Kind.VDOT, i));
                }
            }
        }
        return out;
    }

    /** Y(q, v, v̇) (nv x 10 nb) for symbolic q, v and v̇. */
    public IExpr[][] regressor() {
        SymbolicMotion pass = recursions.motion(g.inputs(Kind.V, nv), g.inputs(Kind.VDOT, nv), true);
        IExpr[][] y = new IExpr[nv][10 * nb];
        for (IExpr[] row : y) {
            Arrays.fill(row, F.C0);
        }
        for (int i = 0; i < nb; i++) {
            IExpr[] vel = pass.velocity()[i];
            IExpr[] acc = pass.acceleration()[i];
            IExpr[][] columns = kinematics.bodyJacobianColumns(i);
            for (int p = 0; p < 10; p++) {
                SymbolicSpatial.Inertia basis = basis(p);
                IExpr[] f = sp.add6(sp.inertiaTimes(basis, acc), sp.crossForce(vel, sp.inertiaTimes(basis, vel)));
                for (int m = 0; m < nv; m++) {
                    if (columns[m] != null) {
                        y[m][10 * i + p] = g.dot(columns[m], f);
                    }
                }
            }
        }
        return y;
    }

    /** The basis inertia of parameter p: [m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]. */
    private static SymbolicSpatial.Inertia basis(int p) {
        IExpr[] h = {F.C0, F.C0, F.C0};
        IExpr[] i = new IExpr[9];
        Arrays.fill(i, F.C0);
        IExpr m = p == 0 ? F.C1 : F.C0;
        if (p >= 1 && p <= 3) {
            h[p - 1] = F.C1;
        }
        int[][] entries = {{0, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}};
        if (p >= 4) {
            int r = entries[p - 4][0];
            int c = entries[p - 4][1];
            i[3 * r + c] = F.C1;
            i[3 * c + r] = F.C1;
        }
        return new SymbolicSpatial.Inertia(m, h, i);
    }

    private IExpr[][] zeros() {
        IExpr[][] z = new IExpr[nv][nv];
        for (IExpr[] row : z) {
            Arrays.fill(row, F.C0);
        }
        return z;
    }
}
