package org.symdyn.solvers;

import org.symdyn.contract.Arguments;
import org.symdyn.contract.LimbConstrainedDynamics;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.SolverSettings;

/**
 * Forward dynamics with constraints (RBDL's ForwardDynamicsConstraints{Direct, RangeSpaceSparse, NullSpace}): for
 * a bound {@link ConstraintData}, v̇ and λ with
 * <pre>
 *   [H Gᵀ] [ v̇]   [τ - C]
 *   [G 0 ] [-λ] = [  γ  ]      i.e.  H v̇ + C = τ + Gᵀ λ,  G v̇ = γ,
 * </pre>
 * H and C from the set's {@link org.symdyn.contract.Dynamics}, G and γ (with Baumgarte terms of the groups that
 * enable them) from its rows. λ is left in {@link ConstraintData#force()} (the generalised constraint forces along
 * G's rows; for a unit-normal contact the force in N on the body along the normal) and can be resolved into body
 * forces with {@link ConstraintData#forces}. Every method gives the same v̇ and λ: RBDL's three and the recursive
 * one ({@link ConstraintSolverMethod#RECURSIVE}, {@link RecursiveConstrainedDynamics}: the articulated-body algorithm
 * and the rows propagated through its inertias, without H or C), which the direct method runs on the generic
 * interpreter of a deep tree ({@link RecursiveConstrainedDynamics#replacesDirectMethod}), and the limb-eliminated
 * answer of a generated class whose rows all sit on limbs of a floating base ({@link LimbConstrainedDynamics}), which
 * the direct method takes where it is well conditioned ({@link #lastUsedLimbs()}). After a recursive or
 * limb-eliminated solve the data's H, C, G and γ workspaces are not those of the state
 * ({@link ConstraintData#computeSystem} fills them).
 *
 * <p>All workspaces are allocated by the constructor; solving does not allocate. Not thread-safe (neither is the
 * set).
 */
public final class ConstrainedDynamics {
    private final ConstraintData data;
    private final ConstrainedSystemSolver solver;
    private final double[] a;
    private final double[] y;
    /**
     * The recursive method where the binding allows it (the generic interpreter, or a generated class with the
     * recursion), else null.
     */
    private final RecursiveConstrainedDynamics recursive;
    private boolean lastRecursive;
    /** The generated class's limb-eliminated method where the binding allows it, else null. */
    private final LimbConstrainedDynamics limbs;
    private boolean lastLimbs;
    private double lastLimbRatio = Double.NaN;
    /** The Baumgarte terms the limb-eliminated answer adds to γ (zeros without stabilisation). */
    private final double[] stabilisation;
    /** The limb-eliminated λ before it is accepted. */
    private final double[] limbLambda;

    /**
     * The direct method takes a generated class's limb-eliminated answer ({@link LimbConstrainedDynamics}) when the
     * smallest pivot ratio of its factorisations is above this (and above the set's rank tolerance), else solves the
     * saddle-point system. The ratio is each row's pivot were it eliminated last, 1 / (K_c⁻¹)_jj, over its whole
     * diagonal entry of G H⁻¹ Gᵀ, so it falls for an ill-conditioned K_c in any order of its rows (the LDLᵀ pivots
     * alone read 0.0104 for six Kahan-like rows on one limb solved 6e-11 off; this reads below 1e-5) and for a row that
     * barely moves its limb but moves the base (as σ² for a limb part scaled by σ). The answer's error
     * grows as the ratio falls: against the generic direct method, on 200 random states each of the sample quadruped
     * (also with armature), solo12, two synthetic models and, in the exhaustive profile, hyq, anymal and romeo_small,
     * and on the row scaled down to σ = 5e-8, at most 9.3e-15 / ratio of v̇'s and λ's scale
     * (LimbConstrainedDynamicsTest). So 1e-2 kept it within 1e-12 on every state tried (an observed constant, not a
     * bound: K_c is factorised without pivoting, and rows built to be ill-ordered reached 5e-14 / ratio in the
     * runtime's LimbElimination, which therefore accepts above 0.05); near-straight legs and such rows (9-48 % of
     * uniformly random joint angles; none in a standing pose) take the longer way.
     */
    public static final double LIMB_PIVOT_RATIO = 1e-2;

    /** Solvers for a bound data. */
    public ConstrainedDynamics(ConstraintData data) {
        this.data = data;
        this.solver = new ConstrainedSystemSolver(data);
        this.a = new double[data.nv()];
        this.y = new double[data.size()];
        this.recursive = RecursiveConstrainedDynamics.ifApplies(data);
        this.limbs = data.generatedLimbDynamics();
        this.stabilisation = new double[data.size()];
        this.limbLambda = new double[data.size()];
    }

    /**
     * v̇ (nv) at state (q, v) under joint forces τ, by the given method; λ into {@link ConstraintData#force()}.
     *
     * @throws ConstraintRankException  if the rows are dependent (see the set's rank policy) or inconsistent
     * @throws IllegalArgumentException if q is not of nq entries, v, τ or v̇ not of nv, or v̇ is the same array as
     *                                  an input (the contract's argument policy, {@link org.symdyn.contract})
     */
    public void forwardDynamics(ConstraintSolverMethod method, double[] q, double[] v, double[] tau, double[] vdot) {
        Arguments.checkLength(q, data.nq(), "q");
        Arguments.checkLength(v, a.length, "v");
        Arguments.checkLength(tau, a.length, "tau");
        Arguments.checkLength(vdot, a.length, "vdot");
        Arguments.checkDistinct(vdot, "vdot", q, "q");
        Arguments.checkDistinct(vdot, "vdot", v, "v");
        Arguments.checkDistinct(vdot, "vdot", tau, "tau");
        lastRecursive = recursive != null && recursive.runs(method) && recursiveAnswers(recursive, data, q, v, tau,
                vdot);
        if (lastRecursive) {
            lastLimbs = false;
            return;
        }
        method = method.withoutRecursion();
        lastLimbs = method == ConstraintSolverMethod.DIRECT && limbSolve(q, v, tau, vdot);
        if (lastLimbs) {
            solver.recordFullRankSolveElsewhere();
            return;
        }
        data.computeSystem(q, v);
        double[] c = data.C();
        for (int i = 0; i < a.length; i++) {
            a[i] = tau[i] - c[i];
        }
        solver.solve(method, data.H(), data.G(), a, data.gamma(), vdot, y);
        double[] lambda = data.force();
        for (int i = 0; i < y.length; i++) {
            // 0 - y rather than -y: a dropped row's multiplier reads +0, not -0.
            lambda[i] = 0.0 - y[i];
        }
    }

    /**
     * The recursive method's forward dynamics (tau null: the impulse from v⁻ = v) into {@code out}; false where the
     * direct method must answer instead: K = G H⁻¹ Gᵀ not positive definite though the rows' QR keeps them all, or
     * input that is not finite (any ArithmeticException), or K's pivot too small with no row dropped
     * ({@link RecursiveConstrainedDynamics#lastNearlyDependent}, whether or not the structure is exploited). Such rows are nearly dependent and K squares their conditioning (v̇ off by 1e-5 relative at 1e-7 rad
     * between two contact normals, K indefinite at 1e-8); the direct method solves them in the null space of that QR
     * (1e-9). So the recursive method answers as the others do, at the price of H there.
     */
    static boolean recursiveAnswers(RecursiveConstrainedDynamics recursive, ConstraintData data, double[] q,
            double[] v, double[] tau, double[] out) {
        try {
            if (tau == null) {
                recursive.impulse(q, v, out);
            } else {
                recursive.forwardDynamics(q, v, tau, out);
            }
        } catch (ArithmeticException e) {
            // K not positive definite though the QR kept every row, or input that is not finite: the direct path
            // solves the first in the QR's null space and reports the second as it reports it for any method
            return false;
        }
        // K's pivot too small for its fast path, every row kept by the QR: nearly dependent rows, K squaring their
        // conditioning. Rows it dropped (dependent to the QR) it solved on the kept ones as the direct method would.
        // With the structure not exploited K takes the rank-revealing path, which does not measure K's conditioning:
        // the same pivot test is made there (a probe found its answer 0.25 off at rows 1e-8 rad from dependent).
        return !(recursive.lastNearlyDependent() && recursive.lastRank() == data.size());
    }

    /**
     * The generated class's limb-eliminated answer (with the Baumgarte terms of stabilised groups), if the binding has
     * one, the settings allow it
     * ({@link org.symdyn.constraints.SolverSettings#limbElimination()}), and {@link #acceptsLimbAnswer} takes it (pivot
     * ratio, rank ratio, finite); false otherwise (v̇ and the data's force are then overwritten by the caller's solve).
     */
    private boolean limbSolve(double[] q, double[] v, double[] tau, double[] vdot) {
        if (limbs == null || !limbEliminationOn(data)) {
            return false;
        }
        if (data.anyBaumgarteEnabled()) {
            data.stabilisationTerms(q, v, stabilisation);
        } else {
            java.util.Arrays.fill(stabilisation, 0.0);
        }
        lastLimbRatio = limbs.limbConstrainedDynamics(q, v, tau, stabilisation, vdot, limbLambda);
        if (!acceptsLimbAnswer(data, limbs, lastLimbRatio, vdot, limbLambda)) {
            return false;
        }
        // Copied only when accepted: a fall-back that throws leaves the data's λ of the last solve, not these.
        System.arraycopy(limbLambda, 0, data.force(), 0, limbLambda.length);
        return true;
    }

    /**
     * The rule of both solvers for a limb-eliminated answer: its pivot ratio above {@link #LIMB_PIVOT_RATIO} and the
     * set's rank tolerance (with the rank check on), its rank ratio ({@link LimbConstrainedDynamics#lastLimbRankRatio})
     * above the Schur complement's rank floor ({@link ConstrainedSystemSolver#rankFloor}), and x and y finite (a
     * non-finite v, τ or v⁻ shows in them, not in the ratio, which depends on q alone).
     */
    static boolean acceptsLimbAnswer(ConstraintData data, LimbConstrainedDynamics limbs, double ratio, double[] x,
            double[] y) {
        SolverSettings settings = data.settings();
        double tolerance = Math.max(LIMB_PIVOT_RATIO, settings.rankCheck() ? settings.rankTolerance() : 0);
        // The Schur complement's rank floor on the scale of the whole G H⁻¹ Gᵀ: a row of roundoff alone has pivot
        // ratio 1.
        boolean fullRank = limbs.lastLimbRankRatio() > ConstrainedSystemSolver.rankFloor(settings);
        return ratio > tolerance && fullRank && SaddlePointOps.finite(x, x.length)
                && SaddlePointOps.finite(y, y.length);
    }

    /** True if the settings let the direct method take a limb-eliminated answer (see {@link #lastUsedLimbs()}). */
    static boolean limbEliminationOn(ConstraintData data) {
        return data.settings().limbElimination() && data.settings().generatedFactorization()
                && data.settings().exploitStructure();
    }

    /** {@link #forwardDynamics} by the direct (KKT) method. */
    public void forwardDynamicsDirect(double[] q, double[] v, double[] tau, double[] vdot) {
        forwardDynamics(ConstraintSolverMethod.DIRECT, q, v, tau, vdot);
    }

    /** {@link #forwardDynamics} by the sparse range-space method. */
    public void forwardDynamicsRangeSpaceSparse(double[] q, double[] v, double[] tau, double[] vdot) {
        forwardDynamics(ConstraintSolverMethod.RANGE_SPACE_SPARSE, q, v, tau, vdot);
    }

    /** {@link #forwardDynamics} by the null-space method. */
    public void forwardDynamicsNullSpace(double[] q, double[] v, double[] tau, double[] vdot) {
        forwardDynamics(ConstraintSolverMethod.NULL_SPACE, q, v, tau, vdot);
    }

    /** {@link #forwardDynamics} by the recursive method (the direct one where the binding does not allow it). */
    public void forwardDynamicsRecursive(double[] q, double[] v, double[] tau, double[] vdot) {
        forwardDynamics(ConstraintSolverMethod.RECURSIVE, q, v, tau, vdot);
    }

    /**
     * The recursive method's solver, or null when the binding does not allow it (see
     * {@link ConstraintSolverMethod#RECURSIVE}).
     */
    public RecursiveConstrainedDynamics recursiveMethod() {
        return recursive;
    }

    /**
     * True if the last solve ran the recursive method and took its answer: asked for, or the direct method on a deep
     * tree ({@link RecursiveConstrainedDynamics#replacesDirectMethod}); its rank and fall-back are then
     * {@link #recursiveMethod()}'s, not {@link #systemSolver()}'s. False where it handed nearly dependent rows to the
     * direct method (see {@code recursiveAnswers}) and where the binding has no recursion.
     */
    public boolean lastUsedRecursive() {
        return lastRecursive;
    }

    /**
     * True if the last solve took the generated class's limb-eliminated answer ({@link LimbConstrainedDynamics}): the
     * direct method, bound to a class whose rows are all carried by limbs of a floating base, well conditioned
     * ({@link #LIMB_PIVOT_RATIO}). Every row was then kept (independent):
     * {@link #systemSolver()} records rank m and no fall-back (its Schur pivot ratio is NaN), and the data's H, C, G
     * and γ workspaces are not those of this state.
     */
    public boolean lastUsedLimbs() {
        return lastLimbs;
    }

    /** The pivot ratio the generated limb-eliminated method returned in its last call (NaN before any). */
    public double lastLimbPivotRatio() {
        return lastLimbRatio;
    }

    /** The data. */
    public ConstraintData constraintData() {
        return data;
    }

    /** The underlying saddle-point solver (rank of the last solve, factorisations). */
    public ConstrainedSystemSolver systemSolver() {
        return solver;
    }
}
