package org.symdyn.generator.symbolic;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Model;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The recursive dynamics algorithms over symbolic values, body by body: the twins of the runtime's
 * {@code GenericDynamics} (RNEA, RBDA §5.3; CRBA, §6.2) and, for forward dynamics, of its articulated-body
 * algorithm's result through Featherstone's branch-sparse LᵀDL factorisation of H (RBDA §6.5), which fills in only
 * along the branches of the tree ({@link Model#dofParents()}). Every loop over the tree is unrolled here, so the
 * generated code has no branches.
 */
public final class SymbolicRecursions {
    private final Model model;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicJoints joints;
    private final SymbolicInertias inertias;
    private final int nb;
    private final int nv;
    private final IExpr[] gravity;

    SymbolicRecursions(Model model, ExpressionGraph g, SymbolicSpatial sp, SymbolicJoints joints,
            SymbolicInertias inertias) {
        this.model = model;
        this.g = g;
        this.sp = sp;
        this.joints = joints;
        this.inertias = inertias;
        this.nb = model.bodyCount();
        this.nv = model.nv();
        this.gravity = sp.constants(model.gravity());
    }

    /**
     * Body velocities and spatial accelerations, root to leaf (the forward pass of RNEA):
     * v_i = X_i v_λ + S_i q̇_i, a_i = X_i a_λ + S_i q̈_i + c_J + v_i × S_i q̇_i, with a_0 = -g when
     * {@code withGravity}, else 0 (kinematics).
     */
    public SymbolicMotion motion(IExpr[] v, IExpr[] vdot, boolean withGravity) {
        return motion(v, vdot, sp.zeros(6), withGravity ? baseAcceleration() : sp.zeros(6), new boolean[nb]);
    }

    /** a_0 = -g, the acceleration that stands for gravity at the fixed root. */
    private IExpr[] baseAcceleration() {
        return new IExpr[] {F.C0, F.C0, F.C0, g.neg(gravity[0]), g.neg(gravity[1]), g.neg(gravity[2])};
    }

    /**
     * The forward pass with the root link moving at v0, a0 (its coordinates), over the bodies not {@code skipped}
     * (whose entries stay null).
     */
    private SymbolicMotion motion(IExpr[] v, IExpr[] vdot, IExpr[] v0, IExpr[] a0, boolean[] skipped) {
        IExpr[][] vel = new IExpr[nb][];
        IExpr[][] acc = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            if (skipped[i]) {
                continue;
            }
            int p = model.body(i).parentIndex();
            IExpr[] vj = joints.jointVelocity(i, v);
            IExpr[] vp = p < 0 ? v0 : vel[p];
            IExpr[] ap = p < 0 ? a0 : acc[p];
            vel[i] = sp.add6(joints.parentToChild(i, vp), vj);
            IExpr[] a = sp.add6(joints.parentToChild(i, ap), joints.jointBias(i, v, vj));
            a = sp.add6(a, sp.crossMotion(vel[i], vj));
            int vi = model.body(i).joint().vIndex();
            List<IExpr[]> s = joints.subspace(i);
            for (int d = 0; d < s.size(); d++) {
                for (int k = 0; k < 6; k++) {
                    a[k] = g.add(a[k], g.mul(s.get(d)[k], vdot[vi + d]));
                }
            }
            acc[i] = a;
        }
        return new SymbolicMotion(vel, acc);
    }

    /**
     * RNEA: τ = H v̇ + C for symbolic or numeric v and v̇ (H with the joints' armature: τ_k gains a v̇_k); gravity
     * included when asked.
     */
    public IExpr[] inverseDynamics(IExpr[] v, IExpr[] vdot, boolean withGravity) {
        return inverseDynamics(v, vdot, withGravity, Map.of());
    }

    /**
     * For every body, its parent's velocity and acceleration (12, parent coordinates) as the RNEA of
     * {@link #inverseDynamics(IExpr[], IExpr[], boolean)} computes them: what a call of the limb at that body
     * receives (the same forward pass again, so no new temporaries).
     */
    public IExpr[][] parentMotions(IExpr[] v, IExpr[] vdot, boolean withGravity) {
        IExpr[] a0 = withGravity ? baseAcceleration() : sp.zeros(6);
        SymbolicMotion pass = motion(v, vdot, sp.zeros(6), a0, new boolean[nb]);
        IExpr[][] out = new IExpr[nb][12];
        for (int i = 0; i < nb; i++) {
            int p = model.body(i).parentIndex();
            System.arraycopy(p < 0 ? sp.zeros(6) : pass.velocity()[p], 0, out[i], 0, 6);
            System.arraycopy(p < 0 ? a0 : pass.acceleration()[p], 0, out[i], 6, 6);
        }
        return out;
    }

    /**
     * A limb's part of an RNEA ({@link SymbolicLimbs}): its code, called with the limb's parent motion and joints.
     */
    public interface LimbCall {
        /**
         * The results of the call for the limb whose parent moves at vp, ap (parent coordinates): the force on the
         * parent (6) and τ of the limb's joints.
         */
        IExpr[] call(IExpr[] vp, IExpr[] ap, IExpr[] v, IExpr[] vdot);
    }

    /**
     * RNEA with the subtree of every body in {@code limbs} computed by a call: the forward pass skips it, the call
     * receives its parent's motion and returns its joints' τ and the force it puts on the parent, which the
     * backward pass adds.
     */
    public IExpr[] inverseDynamics(IExpr[] v, IExpr[] vdot, boolean withGravity, Map<Integer, LimbCall> limbs) {
        boolean[] skipped = new boolean[nb];
        for (int root : limbs.keySet()) {
            for (int b : SymbolicLimbs.subtree(model, root)) {
                skipped[b] = true;
            }
        }
        IExpr[] a0 = withGravity ? baseAcceleration() : sp.zeros(6);
        SymbolicMotion pass = motion(v, vdot, sp.zeros(6), a0, skipped);
        IExpr[][] f = forces(pass, skipped);
        IExpr[] tau = new IExpr[nv];
        for (Map.Entry<Integer, LimbCall> limb : limbs.entrySet()) {
            int p = model.body(limb.getKey()).parentIndex();
            IExpr[] result = limb.getValue().call(p < 0 ? sp.zeros(6) : pass.velocity()[p],
                    p < 0 ? a0 : pass.acceleration()[p], v, vdot);
            if (p >= 0) {
                f[p] = sp.add6(f[p], Arrays.copyOfRange(result, 0, 6));
            }
            List<Integer> bodies = SymbolicLimbs.subtree(model, limb.getKey());
            for (int k = 0; k < bodies.size(); k++) {
                tau[model.body(bodies.get(k)).joint().vIndex()] = result[6 + k];
            }
        }
        backward(f, skipped, tau, null, vdot);
        return tau;
    }

    /** The net force of every body not skipped ({@link #bodyForce}); the skipped bodies' entries stay null. */
    private IExpr[][] forces(SymbolicMotion pass, boolean[] skipped) {
        IExpr[][] f = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            if (!skipped[i]) {
                f[i] = bodyForce(i, pass.velocity()[i], pass.acceleration()[i]);
            }
        }
        return f;
    }

    /**
     * The backward pass over the bodies not skipped: τ of their joints into {@code tau} (S_iᵀ f_i, plus a v̇_k for a
     * joint with armature a), each body's force added to its parent's; a root body's force, X_rootᵀ f_root, to
     * {@code onParent} (6, in place) when it is given.
     */
    private void backward(IExpr[][] f, boolean[] skipped, IExpr[] tau, IExpr[] onParent, IExpr[] vdot) {
        for (int i = nb - 1; i >= 0; i--) {
            if (skipped[i]) {
                continue;
            }
            int vi = model.body(i).joint().vIndex();
            List<IExpr[]> s = joints.subspace(i);
            IExpr armature = SymbolicArmature.of(model, g, i);
            for (int d = 0; d < s.size(); d++) {
                tau[vi + d] = g.dot(s.get(d), f[i]);
                // Only where there is an armature and a v̇ (a limb's graph makes every constant asked for an input).
                if (armature != null && !vdot[vi + d].isZero()) {
                    tau[vi + d] = g.add(tau[vi + d], g.mul(armature, vdot[vi + d]));
                }
            }
            int p = model.body(i).parentIndex();
            if (p >= 0) {
                f[p] = sp.add6(f[p], joints.childToParentForce(i, f[i]));
            } else if (onParent != null) {
                System.arraycopy(sp.add6(onParent, joints.childToParentForce(i, f[i])), 0, onParent, 0, 6);
            }
        }
    }

    /**
     * f = I a + v ×* I v, the net spatial force of body i at its origin. For a body whose inertia is a constant
     * (no parameters) it is evaluated at the centre of mass c, where the inertia is block-diagonal: with
     * ω, u the body's angular and origin velocity, α, a its spatial acceleration,
     * u_c = u + ω × c, a_c = a + α × c, f_c = m (a_c + ω × u_c), n_c = I_c α + ω × (I_c ω), and back at the origin
     * n = n_c + c × f_c (with Euler's form of n_c when the inertia's axes are principal). The same force as the
     * origin formula, in about half the operations.
     */
    IExpr[] bodyForce(int i, IExpr[] v, IExpr[] a) {
        if (inertias.isParameterised(i)) {
            SymbolicSpatial.Inertia in = inertias.of(i);
            IExpr[] iv = sp.inertiaTimes(in, v);
            return sp.add6(sp.inertiaTimes(in, a), sp.crossForce(v, iv));
        }
        RigidBodyInertia in = inertias.constant(i);
        IExpr m = g.constant(in.mass());
        IExpr[] c = sp.constants(in.comArray());
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

    /**
     * The RNEA of this model hanging from a parent that moves at vp, ap (the parent's coordinates; gravity is in
     * ap): the force the model's root bodies put on the parent, f = Σ X_rootᵀ f_root (6, angular first), then τ.
     */
    IExpr[] limbInverseDynamics(IExpr[] vp, IExpr[] ap, IExpr[] v, IExpr[] vdot) {
        boolean[] none = new boolean[nb];
        IExpr[][] f = forces(motion(v, vdot, vp, ap, none), none);
        IExpr[] tau = new IExpr[nv];
        IExpr[] onParent = sp.zeros(6);
        backward(f, none, tau, onParent, vdot);
        IExpr[] out = new IExpr[6 + nv];
        System.arraycopy(onParent, 0, out, 0, 6);
        System.arraycopy(tau, 0, out, 6, nv);
        return out;
    }

    /** τ = H(q) v̇ + C(q, v) with symbolic q, v, v̇. */
    public IExpr[] inverseDynamics() {
        return inverseDynamics(g.inputs(Kind.V, nv), g.inputs(Kind.VDOT, nv), true);
    }

    /** C(q, v) = RNEA(q, v, 0). */
    public IExpr[] biasForces() {
        return inverseDynamics(g.inputs(Kind.V, nv), sp.zeros(nv), true);
    }

    /** g(q) = RNEA(q, 0, 0). */
    public IExpr[] gravityForces() {
        return inverseDynamics(sp.zeros(nv), sp.zeros(nv), true);
    }

    /** The composite inertia of every body's subtree, body coordinates (the first pass of the CRBA). */
    private SymbolicSpatial.Inertia[] composite() {
        SymbolicSpatial.Inertia[] ic = new SymbolicSpatial.Inertia[nb];
        for (int i = 0; i < nb; i++) {
            ic[i] = inertias.of(i);
        }
        for (int i = nb - 1; i >= 0; i--) {
            int p = model.body(i).parentIndex();
            if (p >= 0) {
                SymbolicSpatial.Inertia rotated = sp.transformToParent(joints.joint(i), ic[i]);
                ic[p] = sp.add(ic[p], sp.transformToParent(joints.tree(i), rotated));
            }
        }
        return ic;
    }

    /**
     * The composite inertia of every body's subtree in body coordinates, 10 entries each: m, h = m c (3), and Ī
     * about the origin as Ixx, Ixy, Ixz, Iyy, Iyz, Izz.
     */
    public IExpr[][] compositeInertias() {
        SymbolicSpatial.Inertia[] ic = composite();
        IExpr[][] out = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            SymbolicSpatial.Inertia in = ic[i];
            out[i] = new IExpr[] {in.m, in.h[0], in.h[1], in.h[2], in.i[0], in.i[1], in.i[2], in.i[4], in.i[5],
                in.i[8]};
        }
        return out;
    }

    /** X_i from the parent to body i as (E row-major, r): 12 entries per body. */
    public IExpr[][] parentToChildTransforms() {
        IExpr[][] out = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            SymbolicSpatial.Transform x = joints.parentToChild(i);
            out[i] = new IExpr[12];
            System.arraycopy(x.e, 0, out[i], 0, 9);
            System.arraycopy(x.r, 0, out[i], 9, 3);
        }
        return out;
    }

    /** The motion subspace column of every dof (6 entries, its body's coordinates), in dof order. */
    public IExpr[][] subspaceColumns() {
        IExpr[][] out = new IExpr[nv][];
        for (int i = 0; i < nb; i++) {
            List<IExpr[]> s = joints.subspace(i);
            int vi = model.body(i).joint().vIndex();
            for (int d = 0; d < s.size(); d++) {
                out[vi + d] = s.get(d);
            }
        }
        return out;
    }

    /**
     * CRBA: H(q), an nv x nv array whose (i, j) and (j, i) entries are the same expression; a joint's armature a is
     * added to each of its diagonal entries.
     */
    public IExpr[][] massMatrix() {
        SymbolicSpatial.Inertia[] ic = composite();
        IExpr[][] h = new IExpr[nv][nv];
        for (IExpr[] row : h) {
            Arrays.fill(row, F.C0);
        }
        for (int i = 0; i < nb; i++) {
            int vi = model.body(i).joint().vIndex();
            List<IExpr[]> s = joints.subspace(i);
            for (int d = 0; d < s.size(); d++) {
                int col = vi + d;
                IExpr[] f = sp.inertiaTimes(ic[i], s.get(d));
                for (int d2 = d; d2 < s.size(); d2++) {
                    IExpr x = g.dot(s.get(d2), f);
                    h[vi + d2][col] = x;
                    h[col][vi + d2] = x;
                }
                IExpr armature = SymbolicArmature.of(model, g, i);
                if (armature != null) {
                    h[col][col] = g.add(h[col][col], armature);
                }
                int j = i;
                while (model.body(j).parentIndex() >= 0) {
                    f = joints.childToParentForce(j, f);
                    j = model.body(j).parentIndex();
                    int vj = model.body(j).joint().vIndex();
                    List<IExpr[]> sj = joints.subspace(j);
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

    /**
     * Forward dynamics v̇ = H⁻¹ (τ - C) by the sparse factorisation H = Lᵀ D L over the dof tree λ
     * ({@link Model#dofParents()}), then the back-substitutions, for symbolic τ.
     */
    public IExpr[] forwardDynamics(IExpr[][] hIn, IExpr[] c) {
        IExpr[][] h = factor(hIn);
        IExpr[] tau = g.inputs(Kind.TAU, nv);
        IExpr[] x = new IExpr[nv];
        for (int k = 0; k < nv; k++) {
            x[k] = g.sub(tau[k], c[k]);
        }
        return solve(h, x);
    }

    /**
     * The branch-sparse factorisation H = Lᵀ D L over the dof tree λ (RBDA §6.5): a new array holding D on the
     * diagonal and L's entries (k, i) for i a λ-ancestor of k; other entries are H's and unused.
     */
    IExpr[][] factor(IExpr[][] hIn) {
        IExpr[][] h = new IExpr[nv][];
        for (int k = 0; k < nv; k++) {
            h[k] = hIn[k].clone();
        }
        int[] lambda = model.dofParents();
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
        return h;
    }

    /** H⁻¹ b from the {@link #factor factorisation} of H: Lᵀ, D and L substitutions on a copy of b. */
    IExpr[] solve(IExpr[][] h, IExpr[] b) {
        IExpr[] x = b.clone();
        substituteLt(h, x);
        for (int i = 0; i < nv; i++) {
            x[i] = g.div(x[i], h[i][i]);
        }
        substituteL(h, x);
        return x;
    }

    /** x ← L⁻ᵀ x in place for the unit L of a {@link #factor factorisation} (its entries h[i][j], j a λ-ancestor). */
    void substituteLt(IExpr[][] h, IExpr[] x) {
        int[] lambda = model.dofParents();
        for (int i = nv - 1; i >= 0; i--) {
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                x[j] = g.sub(x[j], g.mul(h[i][j], x[i]));
            }
        }
    }

    /** x ← L⁻¹ x in place for the unit L of a {@link #factor factorisation}. */
    void substituteL(IExpr[][] h, IExpr[] x) {
        int[] lambda = model.dofParents();
        for (int i = 0; i < nv; i++) {
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                x[i] = g.sub(x[i], g.mul(h[i][j], x[j]));
            }
        }
    }
}
