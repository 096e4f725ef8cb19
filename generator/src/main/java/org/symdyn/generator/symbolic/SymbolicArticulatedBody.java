package org.symdyn.generator.symbolic;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;
import org.symdyn.model.Model;

/**
 * Forward dynamics by Featherstone's articulated-body algorithm (RBDA Table 7.1) over symbolic values, every loop
 * unrolled, with its bias terms rearranged as below (the runtime's {@code ArticulatedBodyAlgorithm} keeps Table 7.1's
 * form, so the tests compare two arrangements of the algorithm), in O(n) operations where the factorisation
 * of H ({@link SymbolicRecursions#forwardDynamics}) costs O(n d²) for tree depth d on top of H and C. With the
 * model's constants folded, a leaf body's articulated inertia is a constant, and so are U = I^A S and D = Sᵀ U of a
 * joint whose subtree is a single body.
 * <p>The bias terms are taken relative to the accelerations at q̈ = 0, ā_i = X_i ā_λ(i) + c_i with ā_0 = -g (gravity
 * as a base acceleration), as in the RNEA: with a_i = ā_i + δa_i, the articulated equations f_i = I^A_i a_i + p^A_i
 * become f_i = I^A_i δa_i + p̂_i with p̂_i = I^A_i ā_i + p^A_i, and RBDA's I^a c_i term drops out of the leaf-to-root
 * pass (the same algorithm, rearranged; the same operation count within 0.1 %, romeo_small's forward dynamics
 * 2213 → 2179 ns and iiwa14's, not the chosen form there, 3 % faster in single-copy interleaved timings):
 * <ol>
 * <li>Root to leaf: v_i = X_i v_λ(i) + S_i q̇_i, c_i = c_J + v_i × S_i q̇_i, ā_i = X_i ā_λ(i) + c_i, I^A_i = I_i,
 * p̂_i = I_i ā_i + v_i ×* I_i v_i (the RNEA's body force at q̈ = 0).</li>
 * <li>Leaf to root: U_i = I^A_i S_i, D_i = S_iᵀ U_i + A_i (A_i the diagonal of the joint's armature, zero when
 * none), û_i = τ_i - S_iᵀ p̂_i; for a body with a parent,
 * I^a = I^A_i - U_i D_i⁻¹ U_iᵀ and p^a = p̂_i + U_i D_i⁻¹ û_i are added to the parent's as X_iᵀ I^a X_i and
 * X_iᵀ p^a.</li>
 * <li>Root to leaf, with δa_0 = 0: δa'_i = X_i δa_λ(i), q̈_i = D_i⁻¹ (û_i - U_iᵀ δa'_i), δa_i = δa'_i + S_i q̈_i.</li>
 * </ol>
 * D_i⁻¹ of a multi-dof joint (floating, ball, planar) is applied through a small LDLᵀ of D_i, unrolled.
 * Articulated inertias are symmetric 6 x 6 arrays, row-major, whose mirrored entries are the same expression.
 */
public final class SymbolicArticulatedBody {
    private final Model model;
    private final ExpressionGraph g;
    private final SymbolicSpatial sp;
    private final SymbolicJoints joints;
    private final SymbolicInertias inertias;
    private final SymbolicRecursions recursions;

    SymbolicArticulatedBody(Model model, ExpressionGraph g, SymbolicSpatial sp, SymbolicJoints joints,
            SymbolicInertias inertias, SymbolicRecursions recursions) {
        this.model = model;
        this.g = g;
        this.sp = sp;
        this.joints = joints;
        this.inertias = inertias;
        this.recursions = recursions;
    }

    /** v̇ = FD(q, v, τ) for symbolic q, v and τ. */
    public IExpr[] forwardDynamics() {
        return forwardDynamics(Map.of());
    }

    /**
     * A twin limb's part of the forward dynamics ({@link SymbolicLimbs}): two calls of its shape's code, the first
     * for the passes to the root, the second for the last pass.
     */
    public interface LimbCalls {
        /**
         * Root to leaf and back over the limb, its parent moving at vp with ā_p (parent coordinates): the limb's
         * articulated inertia seen from the parent, X_rootᵀ I^a X_root, as the 21 entries of its upper triangle
         * row by row, then its bias force X_rootᵀ p^a (6).
         */
        IExpr[] articulate(IExpr[] vp, IExpr[] abarP, IExpr[] v, IExpr[] tau);

        /** The last pass over the limb, its parent's δa given (6): q̈ of the limb's joints. */
        IExpr[] accelerate(IExpr[] deltaAParent);
    }

    /**
     * For every body, its parent's velocity, ā and δa (18, parent coordinates) as {@link #forwardDynamics()} computes
     * them: what a call of the limb at that body would receive (the same derivation again, so no new temporaries).
     */
    public IExpr[][] parentStates() {
        int nb = model.bodyCount();
        IExpr[] v = g.inputs(Kind.V, model.nv());
        IExpr[] tau = g.inputs(Kind.TAU, model.nv());
        IExpr[] a0 = gravityAsBaseAcceleration();
        Passes passes = new Passes(nb, new boolean[nb]);
        passes.outward(v, sp.zeros(6), a0);
        passes.inward(tau, null, null);
        passes.accelerations(sp.zeros(6), new IExpr[model.nv()]);
        IExpr[][] out = new IExpr[nb][18];
        for (int i = 0; i < nb; i++) {
            int p = model.body(i).parentIndex();
            IExpr[] zero = sp.zeros(6);
            System.arraycopy(p < 0 ? zero : passes.vel[p], 0, out[i], 0, 6);
            System.arraycopy(p < 0 ? a0 : passes.aBar[p], 0, out[i], 6, 6);
            System.arraycopy(p < 0 ? zero : passes.acc[p], 0, out[i], 12, 6);
        }
        return out;
    }

    /** Forward dynamics with the subtree of every body in {@code limbs} computed by its calls. */
    public IExpr[] forwardDynamics(Map<Integer, LimbCalls> limbs) {
        int nb = model.bodyCount();
        boolean[] skipped = new boolean[nb];
        for (int root : limbs.keySet()) {
            for (int b : SymbolicLimbs.subtree(model, root)) {
                skipped[b] = true;
            }
        }
        IExpr[] v = g.inputs(Kind.V, model.nv());
        IExpr[] tau = g.inputs(Kind.TAU, model.nv());
        IExpr[] a0 = gravityAsBaseAcceleration();
        Passes passes = new Passes(nb, skipped);
        passes.outward(v, sp.zeros(6), a0);
        for (Map.Entry<Integer, LimbCalls> limb : limbs.entrySet()) {
            int p = model.body(limb.getKey()).parentIndex();
            IExpr[] r = limb.getValue().articulate(p < 0 ? sp.zeros(6) : passes.vel[p], p < 0 ? a0 : passes.aBar[p],
                    v, tau);
            if (p >= 0) {
                passes.ia[p] = add(passes.ia[p], symmetric(Arrays.copyOfRange(r, 0, 21)));
                passes.pa[p] = sp.add6(passes.pa[p], Arrays.copyOfRange(r, 21, 27));
            }
        }
        IExpr[] qdd = new IExpr[model.nv()];
        passes.inward(tau, null, null);
        passes.accelerations(sp.zeros(6), qdd);
        for (Map.Entry<Integer, LimbCalls> limb : limbs.entrySet()) {
            int p = model.body(limb.getKey()).parentIndex();
            IExpr[] r = limb.getValue().accelerate(p < 0 ? sp.zeros(6) : passes.acc[p]);
            List<Integer> bodies = SymbolicLimbs.subtree(model, limb.getKey());
            for (int k = 0; k < bodies.size(); k++) {
                qdd[model.body(bodies.get(k)).joint().vIndex()] = r[k];
            }
        }
        return qdd;
    }

    /**
     * This model's forward dynamics as a limb hanging from a moving parent, in two parts: {@code articulate}
     * ({@link LimbCalls#articulate}'s 27 results, then the values the last pass needs, each given to {@code keep},
     * which returns the symbol the last pass reads it as) and {@code accelerate} (q̈, from {@code deltaAParent} and
     * the kept values).
     */
    record LimbParts(IExpr[] articulate, IExpr[] accelerate) {
    }

    LimbParts limbForwardDynamics(IExpr[] vp, IExpr[] abarP, IExpr[] deltaAParent, IExpr[] v, IExpr[] tau,
            java.util.function.UnaryOperator<IExpr> keep) {
        int nb = model.bodyCount();
        Passes passes = new Passes(nb, new boolean[nb]);
        passes.outward(v, vp, abarP);
        IExpr[] onParentInertia = new IExpr[36];
        Arrays.fill(onParentInertia, F.C0);
        IExpr[][] onParent = {onParentInertia, sp.zeros(6)};
        passes.inward(tau, onParent, keep);
        IExpr[] articulate = new IExpr[27];
        for (int r = 0, k = 0; r < 6; r++) {
            for (int c = r; c < 6; c++) {
                articulate[k++] = onParent[0][6 * r + c];
            }
        }
        System.arraycopy(onParent[1], 0, articulate, 21, 6);
        IExpr[] qdd = new IExpr[model.nv()];
        passes.accelerations(deltaAParent, qdd);
        return new LimbParts(articulate, qdd);
    }

    /** The two parts of {@link #constrainedSystem}. */
    public record ConstrainedParts(IExpr[] vdot0, IExpr[] k, IExpr[] response) {
    }

    /**
     * The recursive constrained forward dynamics of rows with Jacobian {@code jac} (the twin of the runtime's
     * {@code ArticulatedDelassus} and {@code RecursiveConstrainedDynamics}, equations in
     * {@link org.symdyn.contract.ArticulatedConstraintSystem}), in two parts:
     * {@code vdot0} (v̇₀ = FD(q, v, τ)) and {@code k} (K = G H⁻¹ Gᵀ, m x m row-major, mirrored entries the same
     * expression) for the first method; {@code response} (H⁻¹ Gᵀ λ for λ the {@link Kind#MULTIPLIER} inputs) for the
     * second, which reads what it needs of the first (U_i, D_i's LDLᵀ, Ψ_i, the joint transforms X_J and motion
     * subspaces S_i where they depend on q) as {@code keep} returns each value (a number as itself: {@link KeptValues}). Zero blocks fold away: a row enters a body's Ψ and Φ only where G or a child's Φ has it.
     */
    public ConstrainedParts constrainedSystem(IExpr[][] jac, java.util.function.UnaryOperator<IExpr> keep) {
        int nb = model.bodyCount();
        int nv = model.nv();
        int m = jac.length;
        IExpr[] v = g.inputs(Kind.V, nv);
        IExpr[] tau = g.inputs(Kind.TAU, nv);
        IExpr[] a0 = gravityAsBaseAcceleration();
        Passes passes = new Passes(nb, new boolean[nb]);
        passes.outward(v, sp.zeros(6), a0);
        passes.inward(tau, null, null);
        IExpr[] vdot0 = new IExpr[nv];
        passes.accelerations(sp.zeros(6), vdot0);
        // Leaf to root: Ψ_i = T_i + S_iᵀ Φ_i, K += Ψ_iᵀ D_i⁻¹ Ψ_i, Φ_λ(i) += X_iᵀ (Φ_i - U_i D_i⁻¹ Ψ_i).
        IExpr[][][] phi = new IExpr[nb][][];
        IExpr[][][] psi = new IExpr[nb][][];
        IExpr[][] k = new IExpr[m][m];
        for (IExpr[] row : k) {
            Arrays.fill(row, F.C0);
        }
        List<Integer> allRows = java.util.stream.IntStream.range(0, m).boxed().toList();
        for (int i = nb - 1; i >= 0; i--) {
            if (phi[i] == null) {
                phi[i] = zeroColumns(m);
            }
            psi[i] = new IExpr[joints.subspace(i).size()][m];
            IExpr[][] dPsi = rowsAtJoint(passes, i, jac, allRows, phi[i], psi[i], k);
            int p = model.body(i).parentIndex();
            if (p < 0) {
                continue;
            }
            if (phi[p] == null) {
                phi[p] = zeroColumns(m);
            }
            for (int r = 0; r < m; r++) {
                phi[p][r] = sp.add6(phi[p][r], towardParent(passes, i, phi[i][r], dPsi[r]));
            }
        }
        IExpr[] kFlat = new IExpr[m * m];
        for (int r = 0; r < m; r++) {
            for (int c = r; c < m; c++) {
                kFlat[r * m + c] = k[r][c];
                kFlat[c * m + r] = k[r][c];
            }
        }
        // Root to leaf, the response to Gᵀ λ: q̈_i = D_i⁻¹ (Ψ_i λ - U_iᵀ δa'_i) from the kept values only.
        IExpr[] lambda = g.inputs(Kind.MULTIPLIER, m);
        IExpr[] response = new IExpr[nv];
        IExpr[][] acc = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            int p = model.body(i).parentIndex();
            List<IExpr[]> s = joints.subspace(i);
            int dofs = s.size();
            int vi = model.body(i).joint().vIndex();
            IExpr[] a = p < 0 ? sp.zeros(6) : sp.applyMotion(kept(joints.joint(i), keep),
                    sp.applyMotion(joints.tree(i), acc[p]));
            IExpr[] rhs = new IExpr[dofs];
            for (int d = 0; d < dofs; d++) {
                IExpr[] terms = new IExpr[m + 1];
                for (int r = 0; r < m; r++) {
                    terms[r] = g.mul(keep.apply(psi[i][d][r]), lambda[r]);
                }
                IExpr[] ud = new IExpr[6];
                for (int e = 0; e < 6; e++) {
                    ud[e] = keep.apply(passes.u[i][d][e]);
                }
                terms[m] = g.neg(g.dot(ud, a));
                rhs[d] = g.sum(terms);
            }
            IExpr[] x = passes.d[i].kept(keep).solve(rhs);
            for (int d = 0; d < dofs; d++) {
                response[vi + d] = x[d];
                // S_i depends on q for some joints (planar): kept like the transform.
                IExpr[] sd = new IExpr[6];
                for (int e = 0; e < 6; e++) {
                    sd[e] = keep.apply(s.get(d)[e]);
                }
                a = sp.add6(a, sp.scale6(x[d], sd));
            }
            acc[i] = a;
        }
        return new ConstrainedParts(vdot0, kFlat, response);
    }

    /**
     * The outputs of {@link #limbConstrainedDynamics}: v̇, λ, the pivot ratios, and for the rank test every K_c
     * pivot d_j ({@code rowPivots}) and every row's whole diagonal entry of G H⁻¹ Gᵀ ({@code rowEntries}).
     */
    public record LimbConstrainedParts(IExpr[] vdot, IExpr[] lambda, IExpr[] pivotRatios, IExpr[] rowPivots,
            IExpr[] rowEntries) {
    }

    /**
     * For each row of {@code jac}, the limb that carries it: the child c of a floating root body (a 6-dof joint
     * whose motion subspace is the identity, the floating base) such that the row's Jacobian is zero outside c's
     * subtree and the root's own dofs. Null when some row has no such limb (it moves no limb, or two limbs, or lies in a
     * tree without a floating root), or when a limb carries more rows than it has dofs (its block could not be full
     * rank): {@link #limbConstrainedDynamics} does not apply then.
     */
    public int[] rowLimbs(IExpr[][] jac) {
        int nb = model.bodyCount();
        int[] dofBody = new int[model.nv()];
        int[] subtreeDofs = new int[nb];
        for (int i = 0; i < nb; i++) {
            int vi = model.body(i).joint().vIndex();
            int dofs = joints.subspace(i).size();
            for (int d = 0; d < dofs; d++) {
                dofBody[vi + d] = i;
            }
            subtreeDofs[i] = dofs;
        }
        for (int i = nb - 1; i >= 0; i--) {
            int p = model.body(i).parentIndex();
            if (p >= 0) {
                subtreeDofs[p] += subtreeDofs[i];
            }
        }
        int[] limbOf = new int[jac.length];
        int[] rowsOfLimb = new int[nb];
        for (int r = 0; r < jac.length; r++) {
            int root = -1;
            int limb = -1;
            for (int k = 0; k < jac[r].length; k++) {
                if (jac[r][k].isZero()) {
                    continue;
                }
                int b = dofBody[k];
                int c = b;
                while (model.body(c).parentIndex() >= 0 && model.body(model.body(c).parentIndex()).parentIndex() >= 0) {
                    c = model.body(c).parentIndex();
                }
                int bodyRoot = model.body(c).parentIndex() < 0 ? c : model.body(c).parentIndex();
                if (root >= 0 && bodyRoot != root || !floatingRoot(bodyRoot)) {
                    return null;
                }
                root = bodyRoot;
                if (b == root) {
                    continue;
                }
                if (limb >= 0 && limb != c) {
                    return null;
                }
                limb = c;
            }
            if (limb < 0) {
                return null;
            }
            limbOf[r] = limb;
            if (++rowsOfLimb[limb] > subtreeDofs[limb]) {
                return null;
            }
        }
        return limbOf;
    }

    /** True if body i is a root whose joint's motion subspace is the 6 x 6 identity (a floating base). */
    private boolean floatingRoot(int i) {
        if (model.body(i).parentIndex() >= 0) {
            return false;
        }
        List<IExpr[]> s = joints.subspace(i);
        if (s.size() != 6) {
            return false;
        }
        for (int k = 0; k < 6; k++) {
            for (int e = 0; e < 6; e++) {
                if (e == k ? !s.get(k)[e].isOne() : !s.get(k)[e].isZero()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The exact constrained forward dynamics of rows carried by limbs ({@link #rowLimbs} not null), each limb's rows
     * eliminated inside the limb, so that neither H nor the m x m matrix G H⁻¹ Gᵀ is formed. The articulated-body
     * passes run as in {@link #forwardDynamics()}; then, leaf to root over a limb c with rows R_c (T_i the n_i x m_c
     * block of Gᵀ at joint i's dofs, X_i, S_i, U_i, D_i, û_i the passes' quantities):
     * <pre>
     *   Ψ_i = T_i + S_iᵀ Φ_i,   K_c += Ψ_iᵀ D_i⁻¹ Ψ_i,   b_c += Ψ_iᵀ D_i⁻¹ û_i,   Φ_λ(i) += X_iᵀ (Φ_i - U_i D_i⁻¹ Ψ_i)
     * </pre>
     * so that the rows' acceleration is G_c v̇ = K_c λ_c + b_c + L_cᵀ a_B for the base's acceleration a_B, with
     * L_c = X_cᵀ (Φ_c - U_c D_c⁻¹ Ψ_c) + T_B,c (the rows' block at the base's dofs; the base's S is the identity). G_c v̇ =
     * γ_c gives λ_c = K_c⁻¹ (γ_c - b_c - L_cᵀ a_B), and the base's equation D_B a_B = û_B + Σ_c L_c λ_c becomes
     * <pre>
     *   (D_B + Σ_c L_c K_c⁻¹ L_cᵀ) a_B = û_B + Σ_c L_c K_c⁻¹ (γ_c - b_c)
     * </pre>
     * (the limbs' rows stiffen the base's articulated inertia). Root to leaf, q̈_i = D_i⁻¹ (û_i + Ψ_i λ_c - U_iᵀ δa'_i).
     * λ is the force along G's rows with H v̇ + C = τ + Gᵀ λ; the rows hold G v̇ = γ + b for b the {@link Kind#SADDLE_B}
     * inputs (the Baumgarte terms a caller adds). {@code pivotRatios}: for each row j of K_c, its pivot were it
     * eliminated last, 1 / (K_c⁻¹)_jj, over its whole diagonal entry of G H⁻¹ Gᵀ,
     * <pre>
     *   1 / ((K_c⁻¹)_jj (K_c,jj + L_c,jᵀ D_B⁻¹ L_c,j))
     * </pre>
     * (a unit force along row j alone moves the base by D_B⁻¹ L_c,j, D_B the base's articulated inertia; at most the
     * LDLᵀ pivot d_j over that entry, and small whenever K_c is ill-conditioned, which d_j alone is not for rows
     * ordered badly: {@code Ldl.conditionRatios}), and d_j / A_jj
     * for each pivot of the base's matrix A. All are at most 1 and invariant to scaling rows; they fall towards 0 where
     * a limb's rows are nearly dependent within the limb (a straight knee) and where a row barely moves its limb but
     * moves the base (as σ² for a limb part scaled by σ: K_c⁻¹ then amplifies roundoff as 1 / σ², though G H⁻¹ Gᵀ is
     * well conditioned; a limb's own pivot ratio, d_j / K_c,jj, is 1 for a limb with one row and did not see it).
     * Rows dependent overall make some K_c singular too, since A = D_B + Σ L_c K_c⁻¹ L_cᵀ is positive definite
     * whenever every K_c is, so A's ratios only echo an ill-conditioned K_c. A small ratio is the caller's cue to solve
     * another way.
     */
    public LimbConstrainedParts limbConstrainedDynamics(IExpr[][] jac, IExpr[] gamma) {
        IExpr[] v = g.inputs(Kind.V, model.nv());
        IExpr[] tau = g.inputs(Kind.TAU, model.nv());
        IExpr[] a0 = gravityAsBaseAcceleration();
        IExpr[] shifted = new IExpr[gamma.length];
        for (int r = 0; r < gamma.length; r++) {
            shifted[r] = g.add(gamma[r], g.input(Kind.SADDLE_B, r));
        }
        return limbSolve(jac, shifted, v, tau, a0);
    }

    /**
     * The impulses of the same rows by the same elimination: H (v⁺ - v⁻) = -Gᵀ Λ with G v⁺ = b, that is the forward
     * dynamics above with no velocity, force or gravity (û_i = 0) and G Δv = b - G v⁻ for Δv = v⁺ - v⁻, λ = -Λ; v⁻
     * the {@link Kind#V} inputs, b the {@link Kind#SADDLE_B} inputs. Returns v⁺ (as {@code vdot}), Λ (as
     * {@code lambda}) and the same pivot ratios.
     */
    public LimbConstrainedParts limbImpulse(IExpr[][] jac) {
        int nv = model.nv();
        IExpr[] vMinus = g.inputs(Kind.V, nv);
        IExpr[] rhs = new IExpr[jac.length];
        for (int r = 0; r < jac.length; r++) {
            IExpr[] terms = new IExpr[nv + 1];
            for (int k = 0; k < nv; k++) {
                terms[k] = g.neg(g.mul(jac[r][k], vMinus[k]));
            }
            terms[nv] = g.input(Kind.SADDLE_B, r);
            rhs[r] = g.sum(terms);
        }
        IExpr[] zeros = zeroVector(nv);
        LimbConstrainedParts dv = limbSolve(jac, rhs, zeros, zeros, sp.zeros(6));
        IExpr[] vPlus = new IExpr[nv];
        for (int k = 0; k < nv; k++) {
            vPlus[k] = g.add(vMinus[k], dv.vdot()[k]);
        }
        IExpr[] impulse = new IExpr[jac.length];
        for (int r = 0; r < jac.length; r++) {
            impulse[r] = g.neg(dv.lambda()[r]);
        }
        return new LimbConstrainedParts(vPlus, impulse, dv.pivotRatios(), dv.rowPivots(), dv.rowEntries());
    }

    /** The elimination of {@link #limbConstrainedDynamics} for velocities v, forces τ, base acceleration a0, rows' γ. */
    private LimbConstrainedParts limbSolve(IExpr[][] jac, IExpr[] gamma, IExpr[] v, IExpr[] tau, IExpr[] a0) {
        int[] limbOf = rowLimbs(jac);
        if (limbOf == null) {
            throw new IllegalArgumentException("the rows are not carried by limbs of a floating base");
        }
        int nb = model.bodyCount();
        int nv = model.nv();
        int m = jac.length;
        Passes passes = new Passes(nb, new boolean[nb]);
        passes.outward(v, sp.zeros(6), a0);
        passes.inward(tau, null, null);
        // The rows of each limb, in row order, and each body's limb.
        java.util.TreeMap<Integer, List<Integer>> rowsOf = new java.util.TreeMap<>();
        for (int r = 0; r < m; r++) {
            rowsOf.computeIfAbsent(limbOf[r], c -> new java.util.ArrayList<>()).add(r);
        }
        int[] limbOfBody = new int[nb];
        Arrays.fill(limbOfBody, -1);
        for (int c : rowsOf.keySet()) {
            for (int b : SymbolicLimbs.subtree(model, c)) {
                limbOfBody[b] = c;
            }
        }
        // Per body: Φ_i and Ψ_i; per limb root c: K_c, b_c, L_c.
        IExpr[][][] phi = new IExpr[nb][][];
        IExpr[][][] psi = new IExpr[nb][][];
        IExpr[][][] kOf = new IExpr[nb][][];
        IExpr[][] bOf = new IExpr[nb][];
        IExpr[][][] lOf = new IExpr[nb][][];
        for (int i = nb - 1; i >= 0; i--) {
            int c = limbOfBody[i];
            if (c < 0) {
                continue;
            }
            List<Integer> rows = rowsOf.get(c);
            int mc = rows.size();
            if (kOf[c] == null) {
                kOf[c] = zeroSquare(mc);
                bOf[c] = zeroVector(mc);
            }
            IExpr[][] k = kOf[c];
            IExpr[] b = bOf[c];
            int dofs = joints.subspace(i).size();
            if (phi[i] == null) {
                phi[i] = zeroColumns(mc);
            }
            psi[i] = new IExpr[dofs][mc];
            IExpr[][] dPsi = rowsAtJoint(passes, i, jac, rows, phi[i], psi[i], k);
            IExpr[] du = passes.d[i].solve(passes.uRest[i]);
            for (int r = 0; r < mc; r++) {
                IExpr y = b[r];
                for (int d = 0; d < dofs; d++) {
                    y = g.add(y, g.mul(psi[i][d][r], du[d]));
                }
                b[r] = y;
            }
            int p = model.body(i).parentIndex();
            IExpr[][] up = new IExpr[mc][];
            for (int r = 0; r < mc; r++) {
                up[r] = towardParent(passes, i, phi[i][r], dPsi[r]);
            }
            if (i == c) {
                int vb = model.body(p).joint().vIndex();
                for (int r = 0; r < mc; r++) {
                    IExpr[] l = new IExpr[6];
                    for (int e = 0; e < 6; e++) {
                        l[e] = g.add(up[r][e], jac[rows.get(r)][vb + e]);
                    }
                    up[r] = l;
                }
                lOf[c] = up;
            } else {
                if (phi[p] == null) {
                    phi[p] = zeroColumns(mc);
                }
                for (int r = 0; r < mc; r++) {
                    phi[p][r] = sp.add6(phi[p][r], up[r]);
                }
            }
        }
        // Each limb's K_c = L D Lᵀ; z_c,e = K_c⁻¹ (column e of L_cᵀ), y_c = K_c⁻¹ (γ_c - b_c); each base's matrix and
        // right-hand side gain L_c z_c and L_c y_c.
        List<IExpr> ratios = new java.util.ArrayList<>();
        List<IExpr> rowPivots = new java.util.ArrayList<>();
        List<IExpr> rowEntries = new java.util.ArrayList<>();
        IExpr[][][] zOf = new IExpr[nb][][];
        IExpr[][] yOf = new IExpr[nb][];
        IExpr[][][] baseMatrix = new IExpr[nb][][];
        IExpr[][] baseRhs = new IExpr[nb][];
        for (Map.Entry<Integer, List<Integer>> e : rowsOf.entrySet()) {
            int c = e.getKey();
            List<Integer> rows = e.getValue();
            int mc = rows.size();
            int base = model.body(c).parentIndex();
            Ldl kl = new Ldl(kOf[c]);
            IExpr[][] l = lOf[c];
            // Each pivot over its row's whole diagonal entry of G H⁻¹ Gᵀ, K_c,jj + L_c,jᵀ D_B⁻¹ L_c,j (D_B = L_B Δ_B
            // L_Bᵀ: Σ_e (L_B⁻¹ L_c,j)_e² / Δ_e): a row that barely moves its limb but moves the base has a small pivot
            // against a large entry.
            Ldl db = passes.d[base];
            IExpr[] whole = new IExpr[mc];
            for (int j = 0; j < mc; j++) {
                whole[j] = g.add(kOf[c][j][j], db.inverseQuadratic(db.forward(l[j])));
            }
            ratios.addAll(kl.conditionRatios(whole));
            rowPivots.addAll(Arrays.asList(kl.pivots()));
            rowEntries.addAll(Arrays.asList(whole));
            IExpr[][] z = new IExpr[6][];
            for (int col = 0; col < 6; col++) {
                IExpr[] lc = new IExpr[mc];
                for (int r = 0; r < mc; r++) {
                    lc[r] = l[r][col];
                }
                z[col] = kl.solve(lc);
            }
            IExpr[] rhs = new IExpr[mc];
            for (int r = 0; r < mc; r++) {
                rhs[r] = g.sub(gamma[rows.get(r)], bOf[c][r]);
            }
            IExpr[] y = kl.solve(rhs);
            zOf[c] = z;
            yOf[c] = y;
            if (baseMatrix[base] == null) {
                // D_B as the passes formed it (armature included), copied to be stiffened.
                baseMatrix[base] = new IExpr[6][];
                for (int r = 0; r < 6; r++) {
                    baseMatrix[base][r] = passes.dMatrix[base][r].clone();
                }
                baseRhs[base] = passes.uRest[base].clone();
            }
            IExpr[][] a = baseMatrix[base];
            for (int r = 0; r < 6; r++) {
                for (int q = r; q < 6; q++) {
                    IExpr x = a[r][q];
                    for (int j = 0; j < mc; j++) {
                        x = g.add(x, g.mul(l[j][r], z[q][j]));
                    }
                    a[r][q] = x;
                    a[q][r] = x;
                }
                IExpr x = baseRhs[base][r];
                for (int j = 0; j < mc; j++) {
                    x = g.add(x, g.mul(l[j][r], y[j]));
                }
                baseRhs[base][r] = x;
            }
        }
        // Root to leaf.
        IExpr[] qdd = new IExpr[nv];
        IExpr[] lambda = new IExpr[m];
        IExpr[][] acc = new IExpr[nb][];
        IExpr[][] lambdaOf = new IExpr[nb][];
        for (int i = 0; i < nb; i++) {
            int p = model.body(i).parentIndex();
            List<IExpr[]> s = joints.subspace(i);
            int dofs = s.size();
            int vi = model.body(i).joint().vIndex();
            IExpr[] x;
            IExpr[] a;
            if (baseMatrix[i] != null) {
                Ldl al = new Ldl(baseMatrix[i]);
                IExpr[] diagonal = new IExpr[6];
                for (int j = 0; j < 6; j++) {
                    diagonal[j] = baseMatrix[i][j][j];
                }
                ratios.addAll(al.pivotRatios(diagonal));
                x = al.solve(baseRhs[i]);
                a = sp.zeros(6);
            } else {
                a = p < 0 ? sp.zeros(6) : joints.parentToChild(i, acc[p]);
                int c = limbOfBody[i];
                IExpr[] lc = null;
                if (c >= 0) {
                    lc = lambdaOf[c];
                    if (lc == null) {
                        // λ_c = y_c - K_c⁻¹ L_cᵀ a_B (the base's acceleration is its q̈: S_B is the identity).
                        IExpr[] aB = acc[model.body(c).parentIndex()];
                        IExpr[][] z = zOf[c];
                        IExpr[] y = yOf[c];
                        lc = new IExpr[y.length];
                        for (int r = 0; r < y.length; r++) {
                            IExpr t = y[r];
                            for (int e = 0; e < 6; e++) {
                                t = g.sub(t, g.mul(z[e][r], aB[e]));
                            }
                            lc[r] = t;
                        }
                        lambdaOf[c] = lc;
                        List<Integer> rows = rowsOf.get(c);
                        for (int r = 0; r < rows.size(); r++) {
                            lambda[rows.get(r)] = lc[r];
                        }
                    }
                }
                IExpr[] rhs = new IExpr[dofs];
                for (int d = 0; d < dofs; d++) {
                    IExpr t = g.sub(passes.uRest[i][d], g.dot(passes.u[i][d], a));
                    if (lc != null) {
                        for (int r = 0; r < lc.length; r++) {
                            t = g.add(t, g.mul(psi[i][d][r], lc[r]));
                        }
                    }
                    rhs[d] = t;
                }
                x = passes.d[i].solve(rhs);
            }
            for (int d = 0; d < dofs; d++) {
                qdd[vi + d] = x[d];
                a = sp.add6(a, sp.scale6(x[d], s.get(d)));
            }
            acc[i] = a;
        }
        return new LimbConstrainedParts(qdd, lambda, ratios.toArray(new IExpr[0]), rowPivots.toArray(new IExpr[0]),
                rowEntries.toArray(new IExpr[0]));
    }

    /** ā_0 = -g: gravity as the root's acceleration, as the passes take it. */
    private IExpr[] gravityAsBaseAcceleration() {
        IExpr[] gravity = sp.constants(model.gravity());
        return new IExpr[] {F.C0, F.C0, F.C0, g.neg(gravity[0]), g.neg(gravity[1]), g.neg(gravity[2])};
    }

    private static IExpr[][] zeroSquare(int n) {
        IExpr[][] z = new IExpr[n][n];
        for (IExpr[] row : z) {
            Arrays.fill(row, F.C0);
        }
        return z;
    }

    private static IExpr[] zeroVector(int n) {
        IExpr[] z = new IExpr[n];
        Arrays.fill(z, F.C0);
        return z;
    }

    /**
     * The rows' directions at joint i, shared by both recursions: Ψ_i = T_i + S_iᵀ Φ_i into {@code psiI} (dofs x
     * rows, T_i from {@code jac}'s given rows at the joint's dofs, Φ_i = {@code phiI}), K += Ψ_iᵀ D_i⁻¹ Ψ_i into
     * {@code k} (both triangles); returns D_i⁻¹ Ψ_i (rows x dofs).
     */
    private IExpr[][] rowsAtJoint(Passes passes, int i, IExpr[][] jac, List<Integer> rows, IExpr[][] phiI,
            IExpr[][] psiI, IExpr[][] k) {
        List<IExpr[]> s = joints.subspace(i);
        int dofs = s.size();
        int vi = model.body(i).joint().vIndex();
        int mc = rows.size();
        IExpr[][] dPsi = new IExpr[mc][];
        for (int r = 0; r < mc; r++) {
            IExpr[] col = new IExpr[dofs];
            for (int d = 0; d < dofs; d++) {
                psiI[d][r] = g.add(jac[rows.get(r)][vi + d], g.dot(s.get(d), phiI[r]));
                col[d] = psiI[d][r];
            }
            dPsi[r] = passes.d[i].solve(col);
        }
        for (int r = 0; r < mc; r++) {
            for (int c = r; c < mc; c++) {
                IExpr x = k[r][c];
                for (int d = 0; d < dofs; d++) {
                    x = g.add(x, g.mul(psiI[d][r], dPsi[c][d]));
                }
                k[r][c] = x;
                k[c][r] = x;
            }
        }
        return dPsi;
    }

    /** X_iᵀ (Φ_i,r - U_i D_i⁻¹ Ψ_i,r): row r's direction as joint i passes it to its parent (parent coordinates). */
    private IExpr[] towardParent(Passes passes, int i, IExpr[] phiIr, IExpr[] dPsiR) {
        IExpr[] t = phiIr;
        for (int d = 0; d < dPsiR.length; d++) {
            t = sp.sub6(t, sp.scale6(dPsiR[d], passes.u[i][d]));
        }
        return joints.childToParentForce(i, t);
    }

    private IExpr[][] zeroColumns(int m) {
        IExpr[][] z = new IExpr[m][];
        for (int r = 0; r < m; r++) {
            z[r] = sp.zeros(6);
        }
        return z;
    }

    /** The transform with its entries as the second part reads them. */
    private static SymbolicSpatial.Transform kept(SymbolicSpatial.Transform x,
            java.util.function.UnaryOperator<IExpr> keep) {
        IExpr[] e = new IExpr[x.e.length];
        IExpr[] r = new IExpr[x.r.length];
        for (int k = 0; k < e.length; k++) {
            e[k] = keep.apply(x.e[k]);
        }
        for (int k = 0; k < r.length; k++) {
            r[k] = keep.apply(x.r[k]);
        }
        return new SymbolicSpatial.Transform(e, r);
    }

    /** The upper triangle of a symmetric 6 x 6 (21 entries, row by row) as the whole array. */
    private static IExpr[] symmetric(IExpr[] upper) {
        IExpr[] m = new IExpr[36];
        for (int r = 0, k = 0; r < 6; r++) {
            for (int c = r; c < 6; c++) {
                m[6 * r + c] = upper[k];
                m[6 * c + r] = upper[k++];
            }
        }
        return m;
    }

    /** The three passes over the bodies not skipped, with what each leaves for the next. */
    private final class Passes {
        final boolean[] skipped;
        final IExpr[][] vel;
        final IExpr[][] ia;
        final IExpr[][] pa;
        final IExpr[][] aBar; // ā_i, the acceleration at q̈ = 0
        final IExpr[][][] u;
        final Ldl[] d;
        /** D_i = S_iᵀ I^A_i S_i (+ armature) as factorised into {@link #d}. */
        final IExpr[][][] dMatrix;
        final IExpr[][] uRest;
        final IExpr[][] acc; // δa_i

        Passes(int nb, boolean[] skipped) {
            this.skipped = skipped;
            vel = new IExpr[nb][];
            ia = new IExpr[nb][];
            pa = new IExpr[nb][];
            aBar = new IExpr[nb][];
            u = new IExpr[nb][][];
            d = new Ldl[nb];
            dMatrix = new IExpr[nb][][];
            uRest = new IExpr[nb][];
            acc = new IExpr[nb][];
        }

        /** Root to leaf, the root link moving at v0 with ā_0 = a0. */
        void outward(IExpr[] v, IExpr[] v0, IExpr[] a0) {
            for (int i = 0; i < vel.length; i++) {
                if (skipped[i]) {
                    continue;
                }
                int p = model.body(i).parentIndex();
                IExpr[] vj = joints.jointVelocity(i, v);
                vel[i] = p < 0 && isZero(v0) ? vj : sp.add6(joints.parentToChild(i, p < 0 ? v0 : vel[p]), vj);
                IExpr[] c = sp.add6(joints.jointBias(i, v, vj), sp.crossMotion(vel[i], vj));
                aBar[i] = sp.add6(joints.parentToChild(i, p < 0 ? a0 : aBar[p]), c);
                ia[i] = matrix(inertias.of(i));
                pa[i] = recursions.bodyForce(i, vel[i], aBar[i]);
            }
        }

        /**
         * Leaf to root. A root body's share goes to {@code onParent} (its inertia, then its force), when given; with
         * {@code keep}, what the last pass reads of each body (U, D⁻¹, û) is replaced by what keep returns for it.
         */
        void inward(IExpr[] tau, IExpr[][] onParent, java.util.function.UnaryOperator<IExpr> keep) {
            for (int i = vel.length - 1; i >= 0; i--) {
                if (skipped[i]) {
                    continue;
                }
                List<IExpr[]> s = joints.subspace(i);
                int dofs = s.size();
                int vi = model.body(i).joint().vIndex();
                u[i] = new IExpr[dofs][];
                IExpr[][] dm = new IExpr[dofs][dofs];
                IExpr[] ui = new IExpr[dofs];
                for (int k = 0; k < dofs; k++) {
                    u[i][k] = times(ia[i], s.get(k));
                    ui[k] = g.sub(tau[vi + k], g.dot(s.get(k), pa[i]));
                }
                IExpr armature = SymbolicArmature.of(model, g, i);
                for (int k = 0; k < dofs; k++) {
                    for (int l = 0; l <= k; l++) {
                        dm[k][l] = g.dot(s.get(k), u[i][l]);
                        dm[l][k] = dm[k][l];
                    }
                    if (armature != null) {
                        dm[k][k] = g.add(dm[k][k], armature);
                    }
                }
                d[i] = new Ldl(dm);
                dMatrix[i] = dm;
                uRest[i] = ui;
                int p = model.body(i).parentIndex();
                if (p >= 0 || onParent != null) {
                    IExpr[][] share = share(i, s);
                    IExpr[][] to = p >= 0 ? new IExpr[][] {ia[p], pa[p]} : onParent;
                    to[0] = add(to[0], sp.congruence(joints.tree(i), share[0]));
                    to[1] = sp.add6(to[1], joints.childToParentForce(i, share[1]));
                    if (p >= 0) {
                        ia[p] = to[0];
                        pa[p] = to[1];
                    }
                }
                if (keep != null) {
                    for (int k = 0; k < dofs; k++) {
                        u[i][k] = u[i][k].clone();
                        for (int r = 0; r < 6; r++) {
                            u[i][k][r] = keep.apply(u[i][k][r]);
                        }
                        uRest[i][k] = keep.apply(uRest[i][k]);
                    }
                    d[i] = d[i].kept(keep);
                }
            }
        }

        /**
         * Body i's articulated inertia and bias force as its parent receives them, I^a = I^A - U D⁻¹ Uᵀ turned by the
         * joint (X_Jᵀ I^a X_J; the tree transform is left to the caller) and p^a = p̂ + U D⁻¹ û in body coordinates.
         */
        private IExpr[][] share(int i, List<IExpr[]> s) {
            int dofs = s.size();
            // W = D⁻¹ Uᵀ (dofs x 6) and w = D⁻¹ û: I^a = I^A - U W, p^a = p̂ + U w.
            IExpr[][] w = new IExpr[6][];
            for (int r = 0; r < 6; r++) {
                IExpr[] col = new IExpr[dofs];
                for (int k = 0; k < dofs; k++) {
                    col[k] = u[i][k][r];
                }
                w[r] = d[i].solve(col);
            }
            IExpr[] wu = d[i].solve(uRest[i]);
            // I^a S = U - U D⁻¹ Sᵀ U = 0: where a column of S is a coordinate axis (±e_j: most revolute and prismatic
            // joints, the ball joint's three), row and column j of I^a are exactly zero. Said so here, since the graph
            // cannot see that U_j D⁻¹ U_j cancels I^A_jj; the zeros then fold through the transform to the parent.
            // With an armature A, I^a S = U D⁻¹ A is not zero: no such rows there.
            boolean[] nullAxis = new boolean[6];
            for (IExpr[] sk : SymbolicArmature.of(model, g, i) != null ? List.<IExpr[]>of() : s) {
                int axis = coordinateAxis(sk);
                if (axis >= 0) {
                    nullAxis[axis] = true;
                }
            }
            IExpr[] iaSmall = new IExpr[36];
            for (int r = 0; r < 6; r++) {
                for (int c = r; c < 6; c++) {
                    if (nullAxis[r] || nullAxis[c]) {
                        iaSmall[6 * r + c] = F.C0;
                        iaSmall[6 * c + r] = F.C0;
                        continue;
                    }
                    IExpr x = ia[i][6 * r + c];
                    for (int k = 0; k < dofs; k++) {
                        x = g.sub(x, g.mul(u[i][k][r], w[c][k]));
                    }
                    iaSmall[6 * r + c] = x;
                    iaSmall[6 * c + r] = x;
                }
            }
            IExpr[] pSmall = pa[i];
            for (int k = 0; k < dofs; k++) {
                pSmall = sp.add6(pSmall, sp.scale6(wu[k], u[i][k]));
            }
            int[] axis = joints.coordinateAxis(i);
            IExpr[] turned;
            if (axis != null) {
                IExpr[] sc = joints.sineCosine(i);
                turned = sp.congruenceAboutAxis(axis[0], axis[1] > 0 ? sc[0] : g.neg(sc[0]), sc[1], iaSmall);
            } else {
                turned = sp.congruence(joints.joint(i), iaSmall);
            }
            return new IExpr[][] {turned, pSmall};
        }

        /** Root to leaf, with δa of the root link given: q̈ into {@code qdd}. */
        void accelerations(IExpr[] deltaA0, IExpr[] qdd) {
            for (int i = 0; i < vel.length; i++) {
                if (skipped[i]) {
                    continue;
                }
                int p = model.body(i).parentIndex();
                IExpr[] a = p < 0 && isZero(deltaA0) ? sp.zeros(6)
                        : joints.parentToChild(i, p < 0 ? deltaA0 : acc[p]);
                List<IExpr[]> s = joints.subspace(i);
                int dofs = s.size();
                int vi = model.body(i).joint().vIndex();
                IExpr[] rhs = new IExpr[dofs];
                for (int k = 0; k < dofs; k++) {
                    rhs[k] = g.sub(uRest[i][k], g.dot(u[i][k], a));
                }
                IExpr[] x = d[i].solve(rhs);
                for (int k = 0; k < dofs; k++) {
                    qdd[vi + k] = x[k];
                    a = sp.add6(a, sp.scale6(x[k], s.get(k)));
                }
                acc[i] = a;
            }
        }
    }

    private static boolean isZero(IExpr[] x) {
        for (IExpr e : x) {
            if (!e.isZero()) {
                return false;
            }
        }
        return true;
    }

    /** j if s is ±e_j (a unit vector along coordinate j), else -1. */
    private static int coordinateAxis(IExpr[] s) {
        int axis = -1;
        for (int k = 0; k < 6; k++) {
            if (s[k].isZero()) {
                continue;
            }
            if (axis >= 0 || !(s[k].isOne() || s[k].isMinusOne())) {
                return -1;
            }
            axis = k;
        }
        return axis;
    }

    /** The spatial inertia [Ī, h×; (h×)ᵀ, m 1] as a symmetric 6 x 6 array. */
    private IExpr[] matrix(SymbolicSpatial.Inertia in) {
        IExpr[] m = new IExpr[36];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                m[6 * r + c] = in.i[3 * r + c];
                m[6 * (r + 3) + c + 3] = r == c ? in.m : F.C0;
            }
        }
        IExpr[] hx = sp.skew(in.h);
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                m[6 * r + c + 3] = hx[3 * r + c];
                m[6 * (c + 3) + r] = hx[3 * r + c];
            }
        }
        return m;
    }

    /** M x for a symmetric 6 x 6 M. */
    private IExpr[] times(IExpr[] m, IExpr[] x) {
        IExpr[] out = new IExpr[6];
        for (int r = 0; r < 6; r++) {
            IExpr[] terms = new IExpr[6];
            for (int c = 0; c < 6; c++) {
                terms[c] = g.mul(m[6 * r + c], x[c]);
            }
            out[r] = g.sum(terms);
        }
        return out;
    }

    private IExpr[] add(IExpr[] a, IExpr[] b) {
        IExpr[] out = new IExpr[36];
        for (int r = 0; r < 6; r++) {
            for (int c = r; c < 6; c++) {
                out[6 * r + c] = g.add(a[6 * r + c], b[6 * r + c]);
                out[6 * c + r] = out[6 * r + c];
            }
        }
        return out;
    }

    /** D = L diag Lᵀ of a small symmetric positive definite matrix (unit lower L), and solves with it. */
    private final class Ldl {
        private final int n;
        private final IExpr[][] l;
        private final IExpr[] inverseDiagonal;
        /**
         * The pivots d_j; null in {@link #kept} factors (their callers read L and D⁻¹ only: keeping d_j as well would
         * add workspace values to those methods).
         */
        private final IExpr[] diagonal;

        Ldl(IExpr[][] dm) {
            n = dm.length;
            l = new IExpr[n][n];
            inverseDiagonal = new IExpr[n];
            diagonal = new IExpr[n];
            for (int j = 0; j < n; j++) {
                IExpr dj = dm[j][j];
                for (int k = 0; k < j; k++) {
                    dj = g.sub(dj, g.mul(g.mul(l[j][k], l[j][k]), diagonal[k]));
                }
                diagonal[j] = dj;
                inverseDiagonal[j] = g.div(F.C1, dj);
                for (int i = j + 1; i < n; i++) {
                    IExpr x = dm[i][j];
                    for (int k = 0; k < j; k++) {
                        x = g.sub(x, g.mul(g.mul(l[i][k], l[j][k]), diagonal[k]));
                    }
                    l[i][j] = g.mul(x, inverseDiagonal[j]);
                }
            }
        }

        private Ldl(IExpr[][] l, IExpr[] inverseDiagonal, IExpr[] diagonal) {
            this.n = inverseDiagonal.length;
            this.l = l;
            this.inverseDiagonal = inverseDiagonal;
            this.diagonal = diagonal;
        }

        /** d_j / s_j for each pivot d_j = 1 / inverseDiagonal_j of this factorisation and scale s_j. */
        List<IExpr> pivotRatios(IExpr[] scale) {
            List<IExpr> out = new java.util.ArrayList<>();
            for (int j = 0; j < n; j++) {
                out.add(g.div(F.C1, g.mul(inverseDiagonal[j], scale[j])));
            }
            return out;
        }

        /**
         * 1 / ((D⁻¹)_jj s_j) for each row j and scale s_j, (D⁻¹)_jj = Σ_k (L⁻¹)_kj² / d_k: row j's pivot were it
         * eliminated last, over s_j. At most d_j / s_j (equal for the last row), and small for any ill-conditioned
         * D: with s_j ≥ D_jj, min_j of it is at most 1 / max_j (S⁻¹)_jj of the unit-diagonal scaling S of D, so that
         * cond₂(S) ≤ n² / min_j. d_j / s_j alone is not: rows ordered so that every pivot is 0.1 of its diagonal
         * entry can have cond₂(S) of 4e5 (a review's six Kahan-like rows on one limb, solved 6e-11 off).
         */
        List<IExpr> conditionRatios(IExpr[] scale) {
            List<IExpr> out = new java.util.ArrayList<>();
            for (int j = 0; j < n; j++) {
                IExpr[] e = new IExpr[n];
                java.util.Arrays.fill(e, F.C0);
                e[j] = F.C1;
                out.add(g.div(F.C1, g.mul(inverseQuadratic(forward(e)), scale[j])));
            }
            return out;
        }

        /** The pivots d_j, the diagonal of D in L D Lᵀ. */
        IExpr[] pivots() {
            return diagonal.clone();
        }

        /** wᵀ D⁻¹ w = Σ_j w_j² / d_j for w = L⁻¹ b already substituted ({@link #forward}): bᵀ (L D Lᵀ)⁻¹ b. */
        IExpr inverseQuadratic(IExpr[] w) {
            IExpr[] terms = new IExpr[n];
            for (int i = 0; i < n; i++) {
                terms[i] = g.mul(g.mul(w[i], w[i]), inverseDiagonal[i]);
            }
            return g.sum(terms);
        }

        /** L⁻¹ b (unit lower L). */
        IExpr[] forward(IExpr[] b) {
            IExpr[] x = b.clone();
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < i; k++) {
                    x[i] = g.sub(x[i], g.mul(l[i][k], x[k]));
                }
            }
            return x;
        }

        /** L⁻ᵀ b (unit upper Lᵀ). */
        IExpr[] backward(IExpr[] b) {
            IExpr[] x = b.clone();
            for (int i = n - 1; i >= 0; i--) {
                for (int k = i + 1; k < n; k++) {
                    x[i] = g.sub(x[i], g.mul(l[k][i], x[k]));
                }
            }
            return x;
        }

        /** The same factors, each entry replaced by what {@code keep} returns for it. */
        Ldl kept(java.util.function.UnaryOperator<IExpr> keep) {
            IExpr[][] kl = new IExpr[n][n];
            IExpr[] kd = new IExpr[n];
            for (int i = 0; i < n; i++) {
                kd[i] = keep.apply(inverseDiagonal[i]);
                for (int j = 0; j < i; j++) {
                    kl[i][j] = keep.apply(l[i][j]);
                }
            }
            return new Ldl(kl, kd, null);
        }

        /** D⁻¹ b. */
        IExpr[] solve(IExpr[] b) {
            IExpr[] x = forward(b);
            for (int i = 0; i < n; i++) {
                x[i] = g.mul(x[i], inverseDiagonal[i]);
            }
            return backward(x);
        }
    }
}
