package org.symdyn.solvers;

import org.symdyn.contract.Arguments;
import org.symdyn.contract.LimbConstrainedDynamics;
import org.symdyn.constraints.ConstraintData;

/**
 * Constraint impulses (RBDL's ComputeConstraintImpulses{Direct, RangeSpaceSparse, NullSpace}): the velocity v⁺
 * right after an impact that makes the constraint velocities G v⁺ equal the targets
 * {@link ConstraintData#impulseTarget()} (default 0), from
 * <pre>
 *   [H Gᵀ] [v⁺]   [H v⁻      ]
 *   [G 0 ] [Λ ] = [v⁺_target ]      i.e.  H (v⁺ - v⁻) = -Gᵀ Λ,
 * </pre>
 * at configuration q. Λ is left in {@link ConstraintData#impulse()} with the sign of this (direct) system for every
 * method (RBDL's range-space impulse has the opposite sign); {@link ConstraintData#impulses} resolves it into the
 * spatial impulses applied to the bodies. Allocation happens in the constructor only. Not thread-safe.
 */
public final class ImpulseSolver {
    private final ConstraintData data;
    private final ConstrainedSystemSolver solver;
    private final double[] a;
    /**
     * The recursive method where the binding allows it (the generic interpreter, or a generated class with the
     * recursion), else null.
     */
    private final RecursiveConstrainedDynamics recursive;
    /** The generated class's limb-eliminated impulses where the binding allows it, else null. */
    private final LimbConstrainedDynamics limbs;
    private boolean lastLimbs;
    private double lastLimbRatio = Double.NaN;
    /** The limb-eliminated Λ before it is accepted (copied into the data's only then). */
    private final double[] limbImpulse;

    /** Solvers for a bound data. */
    public ImpulseSolver(ConstraintData data) {
        this.data = data;
        this.solver = new ConstrainedSystemSolver(data);
        this.a = new double[data.nv()];
        this.recursive = RecursiveConstrainedDynamics.ifApplies(data);
        this.limbs = data.generatedLimbDynamics();
        this.limbImpulse = new double[data.size()];
    }

    /**
     * v⁺ (nv) from v⁻ at q by the given method; Λ into {@link ConstraintData#impulse()}.
     *
     * @throws ConstraintRankException  if the rows are dependent (see the set's rank policy) or inconsistent
     * @throws IllegalArgumentException if q is not of nq entries, v⁻ or v⁺ not of nv, or v⁺ is the same array as
     *                                  an input (the contract's argument policy, {@link org.symdyn.contract})
     */
    public void solve(ConstraintSolverMethod method, double[] q, double[] vMinus, double[] vPlus) {
        Arguments.checkLength(q, data.nq(), "q");
        Arguments.checkLength(vMinus, a.length, "vMinus");
        Arguments.checkLength(vPlus, a.length, "vPlus");
        Arguments.checkDistinct(vPlus, "vPlus", q, "q");
        Arguments.checkDistinct(vPlus, "vPlus", vMinus, "vMinus");
        lastLimbs = false;
        if (recursive != null && recursive.runs(method)
                && ConstrainedDynamics.recursiveAnswers(recursive, data, q, vMinus, null, vPlus)) {
            return;
        }
        method = method.withoutRecursion();
        if (method == ConstraintSolverMethod.DIRECT && limbs != null && ConstrainedDynamics.limbEliminationOn(data)) {
            lastLimbRatio = limbs.limbImpulse(q, vMinus, data.impulseTarget(), vPlus, limbImpulse);
            // The forward dynamics' rule: the same factorisations.
            lastLimbs = ConstrainedDynamics.acceptsLimbAnswer(data, limbs, lastLimbRatio, vPlus, limbImpulse);
            if (lastLimbs) {
                System.arraycopy(limbImpulse, 0, data.impulse(), 0, limbImpulse.length);
                solver.recordFullRankSolveElsewhere();
                return;
            }
        }
        data.computeImpulseSystem(q);
        if (method != ConstraintSolverMethod.NULL_SPACE) {
            // H⁻¹ (H v⁻) = v⁻: the runtime's fast path starts from v⁻ itself (L v⁻, no product with H, no solve).
            solver.solveFromFreeSolution(method, data.H(), data.G(), vMinus, data.impulseTarget(), vPlus,
                    data.impulse());
            return;
        }
        SaddlePointOps.multiply(data.H(), vMinus, a);
        solver.solve(method, data.H(), data.G(), a, data.impulseTarget(), vPlus, data.impulse());
    }

    /** {@link #solve} by the direct (KKT) method. */
    public void solveDirect(double[] q, double[] vMinus, double[] vPlus) {
        solve(ConstraintSolverMethod.DIRECT, q, vMinus, vPlus);
    }

    /** {@link #solve} by the sparse range-space method. */
    public void solveRangeSpaceSparse(double[] q, double[] vMinus, double[] vPlus) {
        solve(ConstraintSolverMethod.RANGE_SPACE_SPARSE, q, vMinus, vPlus);
    }

    /** {@link #solve} by the null-space method. */
    public void solveNullSpace(double[] q, double[] vMinus, double[] vPlus) {
        solve(ConstraintSolverMethod.NULL_SPACE, q, vMinus, vPlus);
    }

    /** {@link #solve} by the recursive method (the direct one where the binding does not allow it). */
    public void solveRecursive(double[] q, double[] vMinus, double[] vPlus) {
        solve(ConstraintSolverMethod.RECURSIVE, q, vMinus, vPlus);
    }

    /**
     * The recursive method's solver, or null when the binding does not allow it (see
     * {@link ConstraintSolverMethod#RECURSIVE}).
     */
    public RecursiveConstrainedDynamics recursiveMethod() {
        return recursive;
    }

    /**
     * True if the last solve took the generated class's limb-eliminated impulses
     * ({@link LimbConstrainedDynamics#limbImpulse}): the direct method, bound to a class whose rows are all carried by
     * limbs of a floating base, the pivot ratio above {@link ConstrainedDynamics#LIMB_PIVOT_RATIO} and the rank ratio
     * above the rank floor (the forward dynamics' rule), the settings allowing it
     * ({@link org.symdyn.constraints.SolverSettings#limbElimination()}). {@link #systemSolver()} then records rank m
     * and no fall-back, and the data's H and G are not those of this state.
     */
    public boolean lastUsedLimbs() {
        return lastLimbs;
    }

    /** The pivot ratio the generated limb-eliminated impulses returned in their last call (NaN before any). */
    public double lastLimbPivotRatio() {
        return lastLimbRatio;
    }

    /** The underlying saddle-point solver. */
    public ConstrainedSystemSolver systemSolver() {
        return solver;
    }
}
