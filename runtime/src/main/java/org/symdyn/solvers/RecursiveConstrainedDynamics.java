package org.symdyn.solvers;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.ArticulatedConstraintSystem;
import org.symdyn.dynamics.ArticulatedBodyAlgorithm;
import org.symdyn.dynamics.ArticulatedDelassus;
import org.symdyn.dynamics.ModelInterpreter;
import org.symdyn.dynamics.ParameterFollower;
import org.symdyn.dynamics.StateScope;
import org.symdyn.model.Model;

/**
 * Constrained forward dynamics and impulses without the joint-space inertia H: the exact recursive method
 * ({@link ConstraintSolverMethod#RECURSIVE}). The articulated-body algorithm gives the unconstrained answer and the
 * articulated inertias; the rows' constraint-space matrix K = G H⁻¹ Gᵀ comes from the same inertias by
 * {@link ArticulatedDelassus} (G's rows propagated leaf to root as forces); λ from K's small dense solve; and the
 * constrained answer from one more O(n) force-propagation pass of the ABA with the forces Gᵀ λ:
 * <pre>
 *   forward dynamics   v̇₀ = ABA(q, v, τ),   K λ = γ - G v̇₀,   v̇ = v̇₀ + H⁻¹ Gᵀ λ
 *   impulses           K y = v⁺_target - G v⁻,   v⁺ = v⁻ + H⁻¹ Gᵀ y,   Λ = -y
 * </pre>
 * the same equations as the saddle-point system of {@link ConstrainedDynamics} and {@link ImpulseSolver}
 * (H v̇ + C = τ + Gᵀ λ, G v̇ = γ; H (v⁺ - v⁻) = -Gᵀ Λ, G v⁺ = v⁺_target), so the same v̇, λ, v⁺ and Λ to rounding.
 * Any rows (contacts, loops, couplers, custom): only G and γ are needed, from the bound data, Baumgarte terms
 * included. Dependent rows are found and reported or dropped as by the other methods ({@link DelassusSolve}).
 * Rows nearly dependent in H⁻¹'s metric (a leg 1e-6 rad from straight under a foot's three rows) pass the rank test
 * but lose through K what the direct method's QR keeps (2.5e-7 relative there; K is then often not positive definite
 * and the solve throws): {@link #lastNearlyDependent()} says so, and {@link ConstrainedDynamics} and
 * {@link ImpulseSolver} then answer by the direct method.
 *
 * <p><b>Backends.</b> A data bound to a generated class alone whose set holds exactly the model's rows
 * ({@link ConstraintData#generatedArticulatedSystem()}) runs that class's straight-line twin of the recursion
 * ({@link ArticulatedConstraintSystem}: v̇₀, G, γ and K in one call, the response in another); a data bound to the
 * generic interpreter of the set's model runs {@link ArticulatedBodyAlgorithm} and {@link ArticulatedDelassus}. The
 * constructor refuses any other binding with a message naming it ({@link #applies}). Cost (solo12 on 12 foot
 * rows): one ABA with the rows' propagation, a 12 x 12 Cholesky and one O(n) response pass; no H, no C, no
 * factorisation of H. Baumgarte terms of enabled groups are added to γ (through the data's stabilised γ).
 *
 * <p>All workspaces are allocated by the constructor; solving does not allocate (except to build an exception).
 * Not thread-safe.
 */
public final class RecursiveConstrainedDynamics {
    /**
     * One step of iterative refinement (δλ = K⁻¹ (b - G v̇), v̇ += H⁻¹ Gᵀ δλ: one more K solve with the kept factor and
     * one more O(n) pass) when the smallest pivot of K's factorisation is at or below this times its largest
     * diagonal entry, and on every impulse, as the Schur-complement fast path does
     * ({@link ConstrainedSystemSolver#REFINE_PIVOT_RATIO}, whose measurements apply: K is the same matrix); also
     * always after the rank-revealing path (a pivot below {@link ConstrainedSystemSolver#SCHUR_RANK_RATIO}, where K
     * is worst conditioned; the step then uses the factor of the kept rows' block). The residual b - G v̇ is computed
     * through the ABA's H⁻¹, not through K, so the step corrects K's own rounding too.
     */
    public static final double REFINE_PIVOT_RATIO = ConstrainedSystemSolver.REFINE_PIVOT_RATIO;

    /**
     * The direct method of {@link ConstrainedDynamics} and {@link ImpulseSolver} (the default) runs this one instead on
     * the generic interpreter of a tree whose mean squared dof depth (Σ_d depth(d)² / nv, depth 1 at a root dof)
     * reaches this: there H's CRBA (O(n d)) and tree-sparse factorisation (O(n d²)) cost more than the ABA and the
     * recursion (O(n) per row). Measured (generic, 3 contact rows at the tip of a chain of revolute links, one JVM,
     * pinned, best of 8): 20 links (mean squared depth 143.5) direct 7.6 µs, recursive 8.5; 24 (204) 9.9 and 9.9;
     * 28 (275.5) 13.0 and 12.4; 30 (315) 15.7 and 12.4; 60 (1230) 59.9 and 24.9; 120 (4860) 286 and 51 µs, and closer to
     * the exact answer (1.6e-10 against 6.9e-10 relative at 120 links). Branched trees stay on the direct method:
     * solo12 (mean squared depth 48) 7.8 against 10.1 µs, romeo_small with 12 sole rows 19.9 against 27.3. A generated
     * class keeps its Schur-complement factorisation (faster on every model measured).
     */
    public static final double DEEP_TREE_MEAN_SQUARED_DEPTH = 250;

    private final ConstraintData data;
    /** The interpreter's scope: G and γ share one kinematics pass at (q, v). */
    private final StateScope scope;
    private final int nv;
    private final int m;
    /** The generated twin, or null for the generic backend. */
    private final ArticulatedConstraintSystem generated;
    /** The generic backend (null with a generated one). */
    /**
     * The interpreter's articulated-body algorithm and its Delassus operator, on its numbers with its parameters'
     * values; null for a generated class.
     */
    private final ParameterFollower<Articulated> interpreted;
    /** {@link #interpreted}'s current ones, taken at each solve's start. */
    private ArticulatedBodyAlgorithm aba;
    private ArticulatedDelassus delassus;
    private final double[] gammaPlain;
    private final double[] zeroV;
    private final double[] impulseScratch;
    private final DelassusSolve solve;
    private final DMatrixRMaj g;
    private final double[] gamma;
    private final DMatrixRMaj k;
    private final double[] rhs;
    private final double[] y;
    private final double[] vdot0;
    private final double[] force;
    private final double[] response;
    private final double[] delta;
    /** Whether the direct method runs this one ({@link #replacesDirectMethod}), fixed at construction. */
    private final boolean replacesDirect;

    /**
     * The method for a data bound to the generic interpreter of its model, or to a generated class with the
     * recursion ({@link ConstraintData#generatedArticulatedSystem()}).
     *
     * @throws IllegalArgumentException for any other binding ({@link #applies} false), naming it
     */
    public RecursiveConstrainedDynamics(ConstraintData data) {
        if (!applies(data)) {
            throw new IllegalArgumentException("the recursive constrained method runs on the generic interpreter, or"
                    + " on a class generated with the part recursive_constraints and bound alone to exactly its model's"
                    + " rows; this data is bound to " + data.dynamics().getClass().getName() + " with " + data.size()
                    + " rows (" + data.set().modelRowCount() + " of them the model's). Use the direct, range-space or"
                    + " null-space method.");
        }
        this.data = data;
        nv = data.nv();
        m = data.size();
        generated = data.generatedArticulatedSystem();
        if (generated != null) {
            scope = null;
            interpreted = null;
        } else {
            scope = data.kinematics() instanceof StateScope s ? s : null;
            ModelInterpreter interpreter = (ModelInterpreter) data.dynamics();
            int rows = m;
            interpreted = new ParameterFollower<>(interpreter.model(), interpreter, model -> {
                ArticulatedBodyAlgorithm a = new ArticulatedBodyAlgorithm(model);
                return new Articulated(a, new ArticulatedDelassus(a, rows));
            });
            followParameters();
        }
        gammaPlain = new double[m];
        zeroV = new double[nv];
        impulseScratch = new double[nv];
        solve = new DelassusSolve(data, "recursive");
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        k = new DMatrixRMaj(m, m);
        rhs = new double[m];
        y = new double[m];
        vdot0 = new double[nv];
        force = new double[nv];
        response = new double[nv];
        delta = new double[m];
        replacesDirect = replacesDirectMethod(data);
    }

    /**
     * True if {@link #RecursiveConstrainedDynamics(ConstraintData)} accepts this data: bound to a generated class
     * alone that has the recursion for exactly the set's rows, or to the generic interpreter of the set's model.
     */
    public static boolean applies(ConstraintData data) {
        return data.generatedArticulatedSystem() != null || interpretedModel(data) != null;
    }

    /** The articulated-body algorithm of a model and its Delassus operator for m rows. */
    private record Articulated(ArticulatedBodyAlgorithm aba, ArticulatedDelassus delassus) {
    }

    /** The interpreter's current ABA and Delassus operator (rebuilt after a parameter changed; that allocates). */
    private void followParameters() {
        Articulated a = interpreted.current();
        aba = a.aba();
        delassus = a.delassus();
    }

    /**
     * The model the data's dynamics interpret (the set's, content for content: binding checked it), or null when
     * they are not the generic interpreter.
     */
    private static Model interpretedModel(ConstraintData data) {
        // Through the interface, not the interpreter's classes: a generated class running alone never loads them.
        return data.dynamics() instanceof ModelInterpreter interpreter ? interpreter.model() : null;
    }

    /**
     * True if the direct method should run this one for the data: bound to the generic interpreter, of a tree at
     * least {@link #DEEP_TREE_MEAN_SQUARED_DEPTH} deep (see there).
     */
    public static boolean replacesDirectMethod(ConstraintData data) {
        return data.size() > 0 && data.generatedArticulatedSystem() == null && applies(data)
                && meanSquaredDepth(data.dynamics().dofParents()) >= DEEP_TREE_MEAN_SQUARED_DEPTH;
    }

    /** Σ_d depth(d)² / nv over the dof tree λ (depth 1 at a root dof; 0 without dofs). */
    public static double meanSquaredDepth(int[] dofParents) {
        int n = dofParents.length;
        if (n == 0) {
            return 0;
        }
        int[] depth = new int[n];
        double sum = 0;
        for (int d = 0; d < n; d++) {
            int p = dofParents[d];
            depth[d] = p < 0 ? 1 : depth[p] + 1;
            sum += (double) depth[d] * depth[d];
        }
        return sum / n;
    }

    /**
     * This method for a data it applies to ({@link #applies}), else null: what {@link ConstrainedDynamics} and
     * {@link ImpulseSolver} keep beside their saddle-point solver.
     */
    static RecursiveConstrainedDynamics ifApplies(ConstraintData data) {
        return applies(data) ? new RecursiveConstrainedDynamics(data) : null;
    }

    /**
     * Whether a solve asked for by {@code method} runs this one: {@link ConstraintSolverMethod#RECURSIVE}, and
     * {@link ConstraintSolverMethod#DIRECT} on a deep tree ({@link #replacesDirectMethod}).
     */
    boolean runs(ConstraintSolverMethod method) {
        return method == ConstraintSolverMethod.RECURSIVE || method == ConstraintSolverMethod.DIRECT && replacesDirect;
    }

    /** True if this instance runs a generated class's straight-line recursion. */
    public boolean isGenerated() {
        return generated != null;
    }

    /**
     * v̇ (nv) at (q, v) under joint forces τ with every row held; λ into {@link ConstraintData#force()}.
     *
     * @throws ConstraintRankException  if the rows are dependent (see the set's rank policy) or inconsistent
     * @throws ArithmeticException      if K is not positive definite on the kept rows or a result is not finite
     * @throws IllegalArgumentException if an argument has the wrong length or v̇ is an input array
     */
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot) {
        Arguments.checkLength(q, data.nq(), "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(tau, nv, "tau");
        Arguments.checkLength(vdot, nv, "vdot");
        Arguments.checkDistinct(vdot, "vdot", q, "q");
        Arguments.checkDistinct(vdot, "vdot", v, "v");
        Arguments.checkDistinct(vdot, "vdot", tau, "tau");
        double[] lambda = data.force();
        if (m == 0) {
            data.dynamics().forwardDynamics(q, v, tau, vdot0);
            System.arraycopy(vdot0, 0, vdot, 0, nv);
            SaddlePointOps.checkFinite(vdot, nv, "recursive: ", "v̇", "; check q, v and τ");
            return;
        }
        if (generated != null) {
            generated.articulatedConstraintSystem(q, v, tau, vdot0, g, gammaPlain, k);
            if (data.anyBaumgarteEnabled()) {
                data.gamma(q, v, gamma);
            } else {
                System.arraycopy(gammaPlain, 0, gamma, 0, m);
            }
        } else {
            followParameters();
            aba.forwardDynamics(q, v, tau, null, vdot0);
            interpretedRows(q, v);
        }
        SaddlePointOps.checkFinite(g.data, m * nv, "recursive: ", "G", "; check q");
        residual(gamma, vdot0);
        solveAndRespond(lambda, gamma, vdot0, vdot, false);
        solve.checkDroppedRows(g, gamma, vdot);
    }

    /**
     * v⁺ (nv) from v⁻ at q with the rows' velocities brought to {@link ConstraintData#impulseTarget()}; Λ into
     * {@link ConstraintData#impulse()} (the sign of {@link ImpulseSolver}).
     *
     * @throws ConstraintRankException  if the rows are dependent (see the set's rank policy) or inconsistent
     * @throws ArithmeticException      if K is not positive definite on the kept rows or a result is not finite
     * @throws IllegalArgumentException if an argument has the wrong length or v⁺ is an input array
     */
    public void impulse(double[] q, double[] vMinus, double[] vPlus) {
        Arguments.checkLength(q, data.nq(), "q");
        Arguments.checkLength(vMinus, nv, "vMinus");
        Arguments.checkLength(vPlus, nv, "vPlus");
        Arguments.checkDistinct(vPlus, "vPlus", q, "q");
        Arguments.checkDistinct(vPlus, "vPlus", vMinus, "vMinus");
        double[] impulse = data.impulse();
        if (m == 0) {
            System.arraycopy(vMinus, 0, vPlus, 0, nv);
            return;
        }
        if (generated != null) {
            // v = τ = 0: only K and G are used; v̇₀ goes to scratch, so unconstrainedAcceleration() keeps the last
            // forward dynamics'.
            generated.articulatedConstraintSystem(q, zeroV, zeroV, impulseScratch, g, gammaPlain, k);
        } else {
            followParameters();
            aba.factor(q);
            interpretedRows(q, null);
        }
        SaddlePointOps.checkFinite(g.data, m * nv, "recursive: ", "G", "; check q");
        SaddlePointOps.checkFinite(vMinus, nv, "recursive: ", "v⁻", "");
        double[] target = data.impulseTarget();
        residual(target, vMinus);
        solveAndRespond(y, target, vMinus, vPlus, true);
        for (int i = 0; i < m; i++) {
            // 0 - y rather than -y: a dropped row's impulse reads +0, not -0.
            impulse[i] = 0.0 - y[i];
        }
        solve.checkDroppedRows(g, target, vPlus);
    }

    /**
     * G at q, and γ at (q, v) unless v is null, from the interpreter's rows in one kinematics pass (its
     * {@link StateScope}).
     */
    private void interpretedRows(double[] q, double[] v) {
        if (scope != null) {
            scope.enterState();
        }
        try {
            data.jacobian(q, g);
            if (v != null) {
                data.gamma(q, v, gamma);
            }
        } finally {
            if (scope != null) {
                scope.exitState();
            }
        }
    }

    /** rhs = b - G x. */
    private void residual(double[] b, double[] x) {
        double[] gd = g.data;
        for (int i = 0; i < m; i++) {
            double s = b[i];
            int o = i * nv;
            for (int c = 0; c < nv; c++) {
                s -= gd[o + c] * x[c];
            }
            rhs[i] = s;
        }
    }

    /**
     * K from the factored ABA, K λ = rhs (= b - G base), then out = base + H⁻¹ Gᵀ λ; refined once where K's
     * conditioning calls for it (see {@link #REFINE_PIVOT_RATIO}).
     */
    private void solveAndRespond(double[] lambda, double[] b, double[] base, double[] out, boolean alwaysRefine) {
        if (generated == null) {
            delassus.compute(g, k);
        }
        solve.solve(k, rhs, g, lambda);
        respond(lambda, base, out);
        if (alwaysRefine || solve.pivotRatio() <= REFINE_PIVOT_RATIO) {
            residual(b, out);
            if (solve.solveAgain(rhs, delta)) {
                for (int i = 0; i < m; i++) {
                    lambda[i] += delta[i];
                }
                respond(delta, out, out);
            }
        }
        SaddlePointOps.checkFinite(out, nv, "recursive: ", "the constrained velocity change or acceleration",
                "; check q, v and τ");
    }

    /** out = base + H⁻¹ Gᵀ y (one force-propagation pass of the ABA; out may be base). */
    private void respond(double[] y, double[] base, double[] out) {
        if (generated != null) {
            generated.articulatedResponse(y, response);
            for (int c = 0; c < nv; c++) {
                out[c] = base[c] + response[c];
            }
            return;
        }
        double[] gd = g.data;
        Arrays.fill(force, 0.0);
        for (int i = 0; i < m; i++) {
            double l = y[i];
            if (l != 0) {
                int o = i * nv;
                for (int c = 0; c < nv; c++) {
                    force[c] += gd[o + c] * l;
                }
            }
        }
        aba.generalizedForceResponse(force, response);
        for (int c = 0; c < nv; c++) {
            out[c] = base[c] + response[c];
        }
    }

    /** K = G H⁻¹ Gᵀ (m x m) of the last solve. Internal matrix: do not modify. */
    public DMatrixRMaj delassusMatrix() {
        return k;
    }

    /** The unconstrained accelerations v̇₀ = H⁻¹ (τ - C) of the last forward-dynamics solve. Do not modify. */
    public double[] unconstrainedAcceleration() {
        return vdot0;
    }

    /** True if the last solve left the fast path (a small pivot of K) for the rank-revealing one. */
    public boolean lastFellBack() {
        return solve.fellBack();
    }

    /**
     * True if the last solve's K had a pivot at or below the fast path's floor (rows nearly dependent in H⁻¹'s
     * metric), whether or not the structure was exploited. K squares the rows' conditioning there: with rows 1e-6
     * rad from dependent the answer was 2.5e-7 off the direct method's QR (0.25 at 1e-8 rad), so
     * {@link ConstrainedDynamics} and {@link ImpulseSolver} hand such a solve to the direct method; a caller of this
     * class should do the same.
     */
    public boolean lastNearlyDependent() {
        return solve.nearlyDependent();
    }

    /** The rank used by the last solve (m when no row was dropped). */
    public int lastRank() {
        return m == 0 ? 0 : solve.rank();
    }

    /** The data. */
    public ConstraintData constraintData() {
        return data;
    }
}
