package org.symdyn.solvers;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.dynamics.RangeSpaceFactorization;

/**
 * Solves the saddle-point system shared by constrained dynamics, impulses and assembly,
 * <pre>
 *   [H Gᵀ] [x]   [a]
 *   [G 0 ] [y] = [b]      i.e.  H x + Gᵀ y = a,  G x = b,
 * </pre>
 * for a symmetric H (positive definite for the range-space and null-space methods; positive definite on the null
 * space of G for the direct one) and an m x nv G, by the {@link ConstraintSolverMethod method} asked and the
 * {@link SolverSettings} of a {@link ConstraintData}. Forward dynamics: a = τ - C, b = γ, x = v̇, y = -λ. Impulses:
 * a = H v⁻, b = v⁺_target, x = v⁺, y = Λ.
 *
 * <p><b>Fast path</b> (direct and range-space methods, {@link SolverSettings#exploitStructure()} on, the default):
 * when H is positive definite the system is solved through the Schur complement with H's tree-sparse LᵀL and the
 * sparsity of G's rows ({@link SchurComplementMethod}); both methods then compute the same numbers (the equations
 * are the same, [H Gᵀ; G 0][x; y] = [a; b]). Redundancy is read off the pivots of the Schur complement's
 * factorisation: with {@link SolverSettings#rankCheck()} on, a pivot at or below
 * max({@value #SCHUR_RANK_RATIO}, {@link SolverSettings#rankTolerance()}) times the largest diagonal entry of
 * G H⁻¹ Gᵀ (with it off, {@link SpdFactorization#PIVOT_RATIO}), an H that is not positive definite (assembly with
 * zero weights) or a non-finite result sends the solve to the <b>rank-revealing path</b> (QR of Gᵀ, then every
 * method solves in that QR's null space, which stays accurate where nearly dependent rows ruin the KKT matrix's LU
 * and square their conditioning in G H⁻¹ Gᵀ; with the rank check off, the method's own factorisation, the KKT
 * matrix's by {@link SolverSettings#kktSolver()} or the range-space LᵀL and Schur complement, and after one that
 * fails the QR and its null space as well):
 * so a well-posed solve pays no QR, and a singular or dependent one is reported by the
 * rank-revealing factorisation. When the set holds exactly the model's rows and is bound to a generated class alone
 * that factorises its own system ({@link ConstraintData#generatedFactorization()},
 * {@link SolverSettings#generatedFactorization()} on), the fast path of a solve with the data's own H and G (forward
 * dynamics, impulses; not assembly's weights) is that class's straight-line factorisation
 * ({@link GeneratedSchurComplement}), with the same pivot rule, refinement and fall-back. Otherwise, for the direct method with the data's own H and G on a tree with
 * a trunk and limbs (a floating base and its legs) whose rows each sit on one limb, the fast path is first the
 * limb-by-limb solve ({@link LimbElimination}: rows added in code on a generated class, or any rows on the
 * interpreter), taken when its pivot ratio is above {@link LimbElimination#ACCEPT_RATIO} and every pivot above the
 * Schur path's rank floor; a failed factorisation or a smaller ratio leaves the solve to the Schur complement, whose
 * pivots and fall-back report dependent rows as before.
 *
 * <p>Rank-revealing path: dependent rows of G are found with {@link ConstraintRankAnalysis} (always for the
 * null-space method, and for the others when {@link SolverSettings#rankCheck()} is on, or after a failed
 * factorisation) and reported by name or dropped, as the rank policy says; non-finite inputs or results raise an
 * exception, never pass through. All workspaces are allocated by the constructor; {@link #solve} does not allocate
 * except to build an exception.
 */
public final class ConstrainedSystemSolver {
    /**
     * With the rank check on, a pivot of G H⁻¹ Gᵀ's factorisation at or below this times its largest diagonal entry
     * sends the solve to the rank-revealing path. The QR's test is |R_kk| ≤ 1e-10 |R_00| on G; the Schur pivots are
     * squares of the same kind of quantity for G L⁻¹, which the H⁻¹ weighting can shrink or stretch by up to
     * cond(H); 1e-8 (1e-4 on the unsquared scale) leaves room for cond(H) up to 1e12 before a row the QR calls
     * dependent could pass here. Well-posed contact sets sit far above it (solo12 on four feet, 12 rows: 0.63
     * standing, 0.027-0.27 at random joint angles; the quadruped sample 0.010-0.21), so they never pay for the QR.
     */
    public static final double SCHUR_RANK_RATIO = 1e-8;

    /**
     * The fast path refines its answer once (see {@link SchurComplementMethod}) when the smallest pivot of
     * G H⁻¹ Gᵀ's factorisation is at or below this times its largest diagonal entry. Unrefined, the error grows
     * like 70 ε / ratio: measured without refinement on 12,000 random states of the test mechanisms against an
     * exactly refined KKT solution, worst relative error 6.6e-14 for ratios above 0.1, 3.4e-13 in (0.01, 0.1],
     * 2.7e-12 in (1e-3, 1e-2], 4e-11 in (1e-4, 1e-3]; refined, 1.5e-14 throughout (FastPathTest). Solo12 standing
     * on its four feet has 0.63 (no refinement); random joint angles give 0.027-0.27. Impulses are always refined:
     * v⁺ = v⁻ - H⁻¹ Gᵀ Λ can be much smaller than v⁻ (an impact that stops most of the motion), and relative to it
     * the unrefined error reached 1.2e-12 at ratio 0.17 (four-bar; the KKT LU's was 6.4e-13 there).
     */
    public static final double REFINE_PIVOT_RATIO = 0.1;

    /** {@link #REFINE_PIVOT_RATIO}, changeable by tests (to measure the unrefined error). */
    static double refineBelow = REFINE_PIVOT_RATIO;

    private final int nv;
    private final int m;
    private final SolverSettings settings;
    private final List<String> rowNames;
    private final ConstraintRankAnalysis analysis;
    private final DirectMethod direct;
    private final RangeSpaceMethod rangeSpace;
    private final NullSpaceMethod nullSpace;
    private final RangeSpaceFactorization ltl;
    private final SchurComplementMethod schur;
    private final GeneratedSchurComplement generated;
    /** The limb-by-limb solve where the dof tree has a trunk and limbs, else null. */
    private final LimbElimination limbs;
    private final double[] xLimb;
    private boolean lastUsedLimbs;
    private double lastLimbRatio = Double.NaN;
    private final ConstraintData data;
    private final double[] aWork;
    private boolean lastFellBack;
    private final double[] bAct;
    private final double[] yAct;
    private final int[] identity;
    private int lastRank;
    private double lastPivotRatio = 1;
    private boolean lastUsedGenerated;

    /** Workspaces for the rows and model of a bound set (its settings and row names are used). */
    public ConstrainedSystemSolver(ConstraintData data) {
        nv = data.nv();
        m = data.size();
        settings = data.settings();
        rowNames = data.set().rowNames();
        analysis = new ConstraintRankAnalysis(m, nv);
        direct = new DirectMethod(nv, m);
        ltl = new RangeSpaceFactorization(data.dynamics().dofParents());
        rangeSpace = new RangeSpaceMethod(ltl, m);
        schur = new SchurComplementMethod(ltl, m);
        ConstrainedSystemFactorization own = data.generatedFactorization();
        generated = own == null ? null : new GeneratedSchurComplement(own, nv, m);
        limbs = m == 0 ? null : LimbElimination.forTree(data.dynamics().dofParents(), m);
        xLimb = new double[nv];
        this.data = data;
        aWork = new double[nv];
        nullSpace = new NullSpaceMethod(nv, m);
        bAct = new double[Math.max(1, m)];
        yAct = new double[Math.max(1, m)];
        identity = new int[m];
        for (int i = 0; i < m; i++) {
            identity[i] = i;
        }
    }

    /**
     * Solves H x + Gᵀ y = a, G x = b. Rows dropped under {@link SolverSettings.RankPolicy#DROP_DEPENDENT_ROWS} get
     * y = 0.
     *
     * @param h nv x nv
     * @param g m x nv
     * @param a nv entries
     * @param b m entries
     * @param x receives nv entries
     * @param y receives m entries
     * @throws ConstraintRankException  if the rows are dependent (policy FAIL) or inconsistent
     * @throws ArithmeticException      if an input is not finite or H is not positive definite on the null space of
     *                                  the (kept) rows
     * @throws IllegalArgumentException if an array has the wrong length or an output is the same array as an input
     *                                  or the other output
     */
    public void solve(ConstraintSolverMethod method, DMatrixRMaj h, DMatrixRMaj g, double[] a, double[] b,
            double[] x, double[] y) {
        Arguments.checkLength(a, nv, "a");
        Arguments.checkLength(b, m, "b");
        Arguments.checkLength(x, nv, "x");
        Arguments.checkLength(y, m, "y");
        Arguments.checkDistinct(x, "x", a, "a");
        Arguments.checkDistinct(x, "x", b, "b");
        Arguments.checkDistinct(y, "y", a, "a");
        Arguments.checkDistinct(y, "y", b, "b");
        Arguments.checkDistinct(x, "x", y, "y");
        solve(method, h, g, a, false, b, x, y);
    }

    /**
     * {@link #solve} for a = H x₀ given x₀ = H⁻¹ a instead (an impulse: x₀ = v⁻): the runtime's fast path needs no
     * product with H and no solve for x₀ (L x₀ = L⁻ᵀ a); the generated factorisation and the rank-revealing path form
     * a = H x₀.
     */
    void solveFromFreeSolution(ConstraintSolverMethod method, DMatrixRMaj h, DMatrixRMaj g, double[] x0,
            double[] b, double[] x, double[] y) {
        solve(method, h, g, x0, true, b, x, y);
    }

    private void solve(ConstraintSolverMethod method, DMatrixRMaj h, DMatrixRMaj g, double[] a,
            boolean aIsSolution, double[] b, double[] x, double[] y) {
        if (g.numRows != m || g.numCols != nv || h.numRows != nv || h.numCols != nv) {
            throw new IllegalArgumentException("H must be " + nv + "x" + nv + " and G " + m + "x" + nv);
        }
        // given H there is nothing to recurse over (it took the range-space path here, which fails on rows the direct
        // method solves)
        method = method.withoutRecursion();
        boolean fast = method != ConstraintSolverMethod.NULL_SPACE && settings.exploitStructure();
        double ratio = rankFloor(settings);
        lastFellBack = false;
        lastUsedGenerated = false;
        lastUsedLimbs = false;
        lastLimbRatio = Double.NaN;
        // The generated factorisation, only for the data's own H and G (not assembly's weights or inverse dynamics'
        // matrices): it folds in that H's and G's zeros and constants. Before the finiteness checks below, which
        // it makes redundant: a non-finite entry of H, G, a or b it reads makes its pivot ratio 0 or its result
        // non-finite, and it then declines, so that the checks throw as for any solve.
        if (fast && generated != null && settings.generatedFactorization() && h == data.H() && g == data.G()
                && a.length == nv && b.length == m
                && generated.solve(h, g, a, aIsSolution, b, x, yAct, ratio,
                        aIsSolution ? Double.POSITIVE_INFINITY : refineBelow) == GeneratedSchurComplement.OK) {
            System.arraycopy(yAct, 0, y, 0, m);
            lastRank = m;
            lastPivotRatio = generated.lastPivotRatio();
            lastUsedGenerated = true;
            return;
        }
        // Limb by limb, for the direct method (the range-space method is the Schur complement by definition) and the
        // data's own H and G only: their tree sparsity is the model's, and H is an inertia (assembly's weights may
        // be zero on the trunk). It declines non-finite input (an infinite diagonal entry of H before it factorises,
        // anything else through a non-finite answer) and leaves x untouched unless it is taken.
        if (fast && limbs != null && method == ConstraintSolverMethod.DIRECT && settings.limbElimination()
                && h == data.H() && g == data.G()) {
            double limbRatio = limbs.solve(h, g, a, aIsSolution, b, xLimb, yAct, ratio);
            lastLimbRatio = limbRatio >= 0 ? limbRatio : Double.NaN;
            if (limbRatio > LimbElimination.ACCEPT_RATIO) {
                System.arraycopy(xLimb, 0, x, 0, nv);
                System.arraycopy(yAct, 0, y, 0, m);
                lastRank = m;
                lastPivotRatio = Double.NaN;
                lastUsedLimbs = true;
                return;
            }
        }
        SaddlePointOps.checkFinite(h.data, nv * nv, "", "H", "");
        SaddlePointOps.checkFinite(g.data, m * nv, "", "G", "");
        SaddlePointOps.checkFinite(a, nv, "", aIsSolution ? "the free solution (x0)" : "the right-hand side (a)",
                "");
        SaddlePointOps.checkFinite(b, m, "", "the right-hand side (b)", "");
        boolean factored = false;
        if (fast) {
            int status = schur.solve(h, true, g, a, aIsSolution, b, x, yAct,
                    settings.spdSolver() == SolverSettings.SpdSolver.LDLT, ratio,
                    aIsSolution ? Double.POSITIVE_INFINITY : refineBelow);
            lastPivotRatio = schur.lastPivotRatio();
            if (status == SchurComplementMethod.OK) {
                System.arraycopy(yAct, 0, y, 0, m);
                lastRank = m;
                return;
            }
            lastFellBack = true;
            factored = status != SchurComplementMethod.H_NOT_POSITIVE_DEFINITE;
        }
        if (aIsSolution) {
            SaddlePointOps.multiply(h, a, aWork);
            a = aWork;
        }
        boolean analysed = settings.rankCheck() || method == ConstraintSolverMethod.NULL_SPACE;
        int r = m;
        int[] rowsOf = identity;
        if (analysed && m > 0) {
            r = analysis.decompose(g, settings.rankTolerance());
            if (r < m) {
                if (settings.rankPolicy() == SolverSettings.RankPolicy.FAIL) {
                    throw analysis.redundancyException(rowNames);
                }
                rowsOf = analysis.pivots();
            }
        }
        boolean ok;
        // The direct method with the rank check solves in the null space of the QR the check just made, as the
        // null-space method does: rows the QR keeps as independent but nearly dependent (two contact normals 1e-9
        // rad apart, whose Schur pivot sent the solve here) make the KKT matrix's LU lose everything (v̇ wrong by
        // 140 %, |G v̇ − γ| 1.6e-7, reported as a full-rank solve), where the null-space solve keeps v̇ to 1e-8 and
        // G v̇ = γ to 1e-15. It needs Zᵀ H Z positive definite, which is the direct method's own condition.
        // So does the range-space method here: off its fast path, whose Schur pivot declined, G H⁻¹ Gᵀ squares the
        // rows' conditioning (v̇ off by 1e-5 relative at 1e-7 rad between two normals, where the null space keeps 1e-9).
        boolean byNullSpace = method == ConstraintSolverMethod.NULL_SPACE || analysed;
        if (byNullSpace && m > 0) {
            rowsOf = analysis.pivots();
            ok = solveInNullSpace(h, r, a, b, x);
        } else { // the rank check is off: all rows, the method's own factorisation
            if (method == ConstraintSolverMethod.DIRECT) {
                ok = direct.solve(h, g, a, b, x, yAct, settings.kktSolver());
            } else {
                ok = rangeSpace.solve(h, !factored, g, a, b, x, yAct, settings.spdSolver());
            }
        }
        if ((!ok || !SaddlePointOps.finite(x, nv) || !SaddlePointOps.finite(yAct, r)) && !byNullSpace && m > 0) {
            // The rows' QR (made now if the rank check is off) names dependent rows, and drops them under
            // DROP_DEPENDENT_ROWS whether or not the check was on; rows it keeps as independent but nearly
            // dependent (contact normals 1e-9 rad apart) can still break the factorisation of G H⁻¹ Gᵀ or of the KKT
            // matrix, where the null-space solve of that QR keeps v̇ and G v̇ = γ, as the direct method with the rank
            // check does: so every method gives the same answer, or the same refusal.
            r = analysis.decompose(g, settings.rankTolerance()); // the rank check was off (else byNullSpace)
            if (r < m && settings.rankPolicy() == SolverSettings.RankPolicy.FAIL) {
                throw analysis.redundancyException(rowNames);
            }
            rowsOf = analysis.pivots();
            ok = solveInNullSpace(h, r, a, b, x);
            lastFellBack = true;
        }
        if (!ok || !SaddlePointOps.finite(x, nv) || !SaddlePointOps.finite(yAct, r)) {
            throw new ArithmeticException(method + ": the constrained system could not be solved (singular or"
                    + " non-finite factorisation; is H positive definite on the rows' null space?)");
        }
        for (int i = 0; i < m; i++) {
            y[i] = 0;
        }
        for (int k = 0; k < r; k++) {
            y[rowsOf[k]] = yAct[k];
        }
        for (int k = r; k < m; k++) {
            analysis.checkDroppedRow(g, b, x, k, settings.consistencyTolerance(), rowNames);
        }
        lastRank = r;
    }

    /** x and the first r entries of yAct in the null space of the rows the analysis's QR keeps (its first r pivots). */
    private boolean solveInNullSpace(DMatrixRMaj h, int r, double[] a, double[] b, double[] x) {
        int[] rowsOf = analysis.pivots();
        for (int k = 0; k < r; k++) {
            bAct[k] = b[rowsOf[k]];
        }
        return nullSpace.solve(h, analysis, r, a, bAct, x, yAct, settings.spdSolver());
    }

    /**
     * Records a solve made without this solver whose rows were all kept (the limb-eliminated answer of
     * {@link ConstrainedDynamics} and {@link ImpulseSolver}): rank m, no fall-back, not the generated factorisation,
     * no Schur pivot ratio (NaN).
     */
    void recordFullRankSolveElsewhere() {
        lastRank = m;
        lastFellBack = false;
        lastUsedGenerated = false;
        lastUsedLimbs = false;
        lastLimbRatio = Double.NaN;
        lastPivotRatio = Double.NaN;
    }

    /**
     * True if the last solve was limb by limb on H and G (the direct method on a tree with a trunk and limbs, every
     * row on one limb, well conditioned: see {@link LimbElimination#ACCEPT_RATIO}); all rows were then kept
     * and {@link #lastSchurPivotRatio()} is NaN.
     */
    public boolean lastUsedLimbElimination() {
        return lastUsedLimbs;
    }

    /**
     * The smallest ratio of a row's pivot to its diagonal entry of G H⁻¹ Gᵀ in the last limb-by-limb solve (see
     * {@link LimbElimination}; 0 if a factorisation failed), whether or not its answer was taken; NaN when it did not
     * run or did not apply.
     */
    public double lastLimbPivotRatio() {
        return lastLimbRatio;
    }

    /**
     * The smallest pivot of G H⁻¹ Gᵀ, relative to its largest diagonal entry, that a fast path accepts:
     * {@link #SCHUR_RANK_RATIO} or the set's rank tolerance, whichever is larger, with the rank check on;
     * {@link SpdFactorization#PIVOT_RATIO} (the factorisation's own floor) with it off. Every path that factorises
     * G H⁻¹ Gᵀ or a part of it (this solver, the Delassus solve, a generated limb answer's rank test) uses this one rule.
     */
    static double rankFloor(SolverSettings settings) {
        return settings.rankCheck() ? Math.max(SCHUR_RANK_RATIO, settings.rankTolerance())
                : SpdFactorization.PIVOT_RATIO;
    }

    /** The rank used by the last solve (m when no row was dropped). */
    public int lastRank() {
        return lastRank;
    }

    /** Number of rows dropped by the last solve. */
    public int lastDroppedRows() {
        return m - lastRank;
    }

    /**
     * True if the last solve left the fast path for the rank-revealing one (H not positive definite, a small pivot
     * of the Schur complement, a non-finite result), or, with the structure not exploited, if the method's own
     * factorisation failed and the QR's null space answered; false on the fast path and for the null-space method.
     */
    public boolean lastFellBack() {
        return lastFellBack;
    }

    /**
     * True if the last solve was the generated class's own factorisation ({@link GeneratedSchurComplement}); false
     * for the runtime's fast path, the rank-revealing path and the null-space method.
     */
    public boolean lastUsedGeneratedFactorization() {
        return lastUsedGenerated;
    }

    /**
     * The smallest pivot of G H⁻¹ Gᵀ's factorisation over its largest diagonal entry in the last fast-path solve
     * (0 if a pivot failed; 1 without rows; NaN after a limb-eliminated answer, generated or limb by limb, which forms
     * no G H⁻¹ Gᵀ). A measure of how far the rows are from dependent, in H⁻¹'s metric.
     */
    public double lastSchurPivotRatio() {
        return lastPivotRatio;
    }

    /**
     * The factorisation of the last rank analysis (valid after a null-space solve, or one that took the
     * rank-revealing path with the rank check on).
     */
    public ConstraintRankAnalysis rankAnalysis() {
        return analysis;
    }

    /**
     * The tree-sparse LᵀL factorisation of H shared by the fast path and the range-space method (holds the last
     * solve's H when that solve factorised it).
     */
    public RangeSpaceFactorization rangeSpaceFactorization() {
        return ltl;
    }

}
