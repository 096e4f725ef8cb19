package org.symdyn.constraints;

/**
 * How the solvers of one {@link ConstraintSet} factorise and what they do with dependent constraint rows. Mutable;
 * changes apply from the next solve (every factorisation is allocated for both choices when the set is bound).
 *
 * <p>Rank: the solvers factorise Gᵀ P = Q R with column pivoting (P orders the rows of G, most independent first)
 * and call the rows with |R_kk| ≤ {@link #rankTolerance()} |R_00| dependent. Dependent rows are reported (policy
 * {@link RankPolicy#FAIL}) or dropped (policy {@link RankPolicy#DROP_DEPENDENT_ROWS}); in both cases by name.
 */
public final class SolverSettings {
    /**
     * Factorisation of the indefinite KKT matrices [H Gᵀ; G 0] (the direct method with the rank check off, and
     * assembly's).
     */
    public enum KktSolver {
        /** LU with partial (row) pivoting. */
        LU,
        /** Householder QR: slower, more robust on badly scaled systems. */
        QR
    }

    /** Factorisation of the symmetric positive definite blocks G H⁻¹ Gᵀ (range space) and Zᵀ H Z (null space). */
    public enum SpdSolver {
        /** L Lᵀ. */
        CHOLESKY,
        /** L D Lᵀ (no square roots). */
        LDLT
    }

    /** What to do when the constraint rows are linearly dependent at the current state. */
    public enum RankPolicy {
        /** Throw a rank exception naming the dependent rows and the rows they depend on. */
        FAIL,
        /**
         * Solve with the independent rows chosen by the pivoting and give the dropped rows zero multipliers: the
         * constraint forces are one valid (basic) solution among many; accelerations are unique. If a dropped row's
         * equation is then violated (the rows are inconsistent) a rank exception is thrown anyway.
         */
        DROP_DEPENDENT_ROWS
    }

    private KktSolver kktSolver = KktSolver.LU;
    private SpdSolver spdSolver = SpdSolver.CHOLESKY;
    private RankPolicy rankPolicy = RankPolicy.FAIL;
    private boolean rankCheck = true;
    private double rankTolerance = 1e-10;
    private double consistencyTolerance = 1e-8;
    private boolean exploitStructure = true;
    private boolean generatedFactorization = true;
    private boolean limbElimination = true;

    /**
     * The KKT factorisation; default {@link KktSolver#LU}. The direct method uses it off its fast paths with the rank
     * check off; with the rank check on it solves in the null space of the check's QR instead
     * ({@code ConstrainedSystemSolver}: accurate where nearly dependent rows ruin the KKT matrix's factorisation).
     */
    public KktSolver kktSolver() {
        return kktSolver;
    }

    /** Sets the KKT factorisation. */
    public SolverSettings kktSolver(KktSolver solver) {
        this.kktSolver = java.util.Objects.requireNonNull(solver);
        return this;
    }

    /** The SPD-block factorisation; default {@link SpdSolver#CHOLESKY}. */
    public SpdSolver spdSolver() {
        return spdSolver;
    }

    /** Sets the SPD-block factorisation. */
    public SolverSettings spdSolver(SpdSolver solver) {
        this.spdSolver = java.util.Objects.requireNonNull(solver);
        return this;
    }

    /** The rank policy; default {@link RankPolicy#FAIL}. */
    public RankPolicy rankPolicy() {
        return rankPolicy;
    }

    /** Sets the rank policy. */
    public SolverSettings rankPolicy(RankPolicy policy) {
        this.rankPolicy = java.util.Objects.requireNonNull(policy);
        return this;
    }

    /**
     * True (default) if the direct and range-space methods check the rows for dependence on every solve: on the
     * fast path ({@link #exploitStructure()}) by the pivots of the Schur complement's factorisation, falling back to
     * the rank-revealing QR of Gᵀ when one is small; otherwise by that QR before every solve (the null-space method
     * always factorises Gᵀ so, it is its factorisation). When false they only diagnose after a failed factorisation
     * or a non-finite result: a nearly dependent set may then pass as a badly conditioned one.
     */
    public boolean rankCheck() {
        return rankCheck;
    }

    /** Enables or disables the rank check of the direct and range-space methods. */
    public SolverSettings rankCheck(boolean enabled) {
        this.rankCheck = enabled;
        return this;
    }

    /**
     * True (default) if the direct and range-space methods (and Kokkevis' method) first solve through the Schur
     * complement G H⁻¹ Gᵀ with H's tree-sparse LᵀL, the sparsity of G's rows and small dense kernels, and read
     * dependent rows off that factorisation's pivots, taking the rank-revealing path (QR of Gᵀ, then the method's own
     * factorisation: for the direct method the null space of that QR, or with the rank check off LU or QR of the
     * whole KKT matrix) only when a pivot is small, H is not
     * positive definite or the result is not finite. False: always the rank-revealing path (the reference the fast
     * path is tested and measured against).
     */
    public boolean exploitStructure() {
        return exploitStructure;
    }

    /** Enables or disables the structure-exploiting fast path (see {@link #exploitStructure()}). */
    public SolverSettings exploitStructure(boolean enabled) {
        this.exploitStructure = enabled;
        return this;
    }

    /**
     * True (default) if the fast path ({@link #exploitStructure()}) uses the generated class's own straight-line
     * factorisation of the constrained system when the data has one
     * ({@link ConstraintData#generatedFactorization()}), instead of the runtime's tree-sparse one; same pivot rule,
     * refinement and fall-back, the same numbers to rounding; it always factorises the Schur complement by LDLᵀ
     * ({@link #spdSolver()} is not consulted). False: the runtime's (to compare the two).
     */
    public boolean generatedFactorization() {
        return generatedFactorization;
    }

    /** Enables or disables the generated factorisation (see {@link #generatedFactorization()}). */
    public SolverSettings generatedFactorization(boolean enabled) {
        this.generatedFactorization = enabled;
        return this;
    }

    /**
     * True (default) if the direct method of forward dynamics and impulses takes the generated class's limb-eliminated
     * answer when the data has one ({@link ConstraintData#generatedLimbDynamics()}) and it is well conditioned
     * ({@code ConstrainedDynamics.LIMB_PIVOT_RATIO}), with the fast path ({@link #exploitStructure()}) and the generated
     * solves ({@link #generatedFactorization()}) on; and if the direct method's fast path solves limb by limb on H and
     * G where the tree and the rows allow it ({@code ConstrainedSystemSolver.lastUsedLimbElimination()}), with the
     * fast path on. False: the saddle-point solve through the Schur complement always (to compare them).
     */
    public boolean limbElimination() {
        return limbElimination;
    }

    /** Enables or disables the limb-eliminated answer (see {@link #limbElimination()}). */
    public SolverSettings limbElimination(boolean enabled) {
        this.limbElimination = enabled;
        return this;
    }

    /** Relative threshold on the pivoted R diagonal below which rows count as dependent; default 1e-10. */
    public double rankTolerance() {
        return rankTolerance;
    }

    /** Sets the rank threshold (0 &lt; tol &lt; 1). */
    public SolverSettings rankTolerance(double tol) {
        if (!(tol > 0 && tol < 1)) {
            throw new IllegalArgumentException("rank tolerance must be in (0, 1), got " + tol);
        }
        this.rankTolerance = tol;
        return this;
    }

    /**
     * Relative residual above which a dropped row is inconsistent: |G_d x - b_d| > tol (1 + |b_d| + Σ|G_dj x_j|);
     * default 1e-8.
     */
    public double consistencyTolerance() {
        return consistencyTolerance;
    }

    /** Sets the consistency threshold (> 0). */
    public SolverSettings consistencyTolerance(double tol) {
        if (!(tol > 0)) {
            throw new IllegalArgumentException("consistency tolerance must be positive, got " + tol);
        }
        this.consistencyTolerance = tol;
        return this;
    }
}
