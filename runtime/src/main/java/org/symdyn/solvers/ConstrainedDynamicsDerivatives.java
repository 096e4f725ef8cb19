package org.symdyn.solvers;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.ParameterFollower;
import org.symdyn.model.Model;

/**
 * Derivatives of constrained forward dynamics (Crocoddyl's contact dynamics derivatives, Pinocchio's
 * {@code computeConstraintDynamicsDerivatives} for bilateral constraints): of v̇(q, v, τ) and λ(q, v, τ) solving
 * <pre>
 *   H v̇ + C = τ + Gᵀ λ,   G v̇ = γ      ({@link ConstrainedDynamics}, Baumgarte terms included in γ)
 * </pre>
 * with respect to q (tangent directions, as in {@link DynamicsDerivatives}), v and τ. Differentiating both equations
 * at the solution, with a(q, v, v̇) = G v̇ - γ the rows' acceleration:
 * <pre>
 *   [H  Gᵀ] [ ∂v̇]     [∂τ_ID/∂x - ∂(Gᵀλ)/∂x - ∂τ/∂x]
 *   [G  0 ] [-∂λ] = - [         ∂a/∂x              ]      x = q, v or τ,
 * </pre>
 * where ∂τ_ID/∂q and ∂τ_ID/∂v are the inverse dynamics derivatives at (q, v, v̇) (from the bound dynamics: a generated
 * class's own, or the interpreter's), ∂(Gᵀλ)/∂q at fixed λ and ∂a/∂q, ∂a/∂v at fixed v̇ come from the rows
 * ({@link ConstraintData#rowDerivatives}: a generated class's own for its model's rows, else analytical on
 * {@link MotionDerivatives}), ∂(Gᵀλ)/∂v = 0 and ∂τ/∂τ = 1.
 * The system is solved with K = G H⁻¹ Gᵀ (Cholesky), Q = K⁻¹ G H⁻¹ and P = H⁻¹ - H⁻¹ Gᵀ Q: ∂v̇/∂τ = P,
 * ∂λ/∂τ = -Q, and for x = q, v with A'_x = ∂τ_ID/∂x - ∂(Gᵀλ)/∂x: ∂v̇/∂x = -(P A'_x + Qᵀ ∂a/∂x),
 * ∂λ/∂x = Q A'_x - K⁻¹ ∂a/∂x, on row-major arrays ({@link SmallDense}, {@link SmallSpd}).
 *
 * <p>The rows must be independent at the state (the multipliers are then unique and differentiable): a solve that
 * dropped dependent rows is refused with a {@link ConstraintRankException}. Needs dynamics that implement
 * {@link DynamicsDerivatives} (a class generated with derivatives, or {@link org.symdyn.dynamics.GenericDynamics})
 * and, unless every row is the generated class's own, a set built from the {@link Model}. Allocates its workspaces
 * in the constructor; {@link #compute} does not allocate after its first call (the list of applied wrenches grows
 * once). Not thread-safe.
 */
public final class ConstrainedDynamicsDerivatives {
    private static final String[] OUTPUT_NAMES = {"dvdotDq", "dvdotDv", "dvdotDtau", "dlambdaDq", "dlambdaDv",
        "dlambdaDtau"};

    /** The outputs of one call, for the pairwise distinctness check (no array per call). */
    private final DMatrixRMaj[] outputs = new DMatrixRMaj[OUTPUT_NAMES.length];
    private final ConstraintData data;
    private final DynamicsDerivatives dynamics;
    private final ConstrainedDynamics solver;
    /** The rows' motion derivatives, on the set's model with the dynamics' parameter values; null if not needed. */
    private final ParameterFollower<MotionDerivatives> motion;
    private final int nv;
    private final int m;
    private final double[] vdot;
    private final DMatrixRMaj dIdDq;
    private final DMatrixRMaj dIdDv;
    private final DMatrixRMaj dForceDq;
    private final DMatrixRMaj dAccDq;
    private final DMatrixRMaj dAccDv;
    private final DMatrixRMaj hInv;
    /** G H⁻¹ (m x nv), K's Cholesky factor (m x m), Q = K⁻¹ G H⁻¹ (m x nv); row-major. */
    private final double[] gh;
    private final double[] kf;
    private final double[] qm;

    /**
     * Workspaces for a bound data.
     *
     * @throws IllegalArgumentException      if its dynamics do not implement {@link DynamicsDerivatives}, or its set
     *                                       has no model while some rows are differentiated by the runtime
     * @throws UnsupportedOperationException if a group's rows do not provide derivatives
     *                                       ({@link ConstraintData#checkRowDerivatives()}: line-on-line and custom
     *                                       rows, unless the model's rows are a generated class's own)
     */
    public ConstrainedDynamicsDerivatives(ConstraintData data) {
        if (!(data.dynamics() instanceof DynamicsDerivatives dd)) {
            throw new IllegalArgumentException("constrained dynamics derivatives need the inverse dynamics derivatives"
                    + " of the bound dynamics (" + data.dynamics().getClass().getName() + " does not implement"
                    + " DynamicsDerivatives): generate the class with derivatives (symdyn generate --derivatives) or"
                    + " bind GenericDynamics");
        }
        data.checkRowDerivatives();
        Model model = data.set().model();
        if (model == null && data.needsMotionDerivatives()) {
            throw new IllegalArgumentException("constrained dynamics derivatives need the model to differentiate rows"
                    + " through their providers: build the set from the Model (ConstraintSet.of(model) or"
                    + " ConstraintSet.builder(model))");
        }
        this.data = data;
        this.dynamics = dd;
        this.solver = new ConstrainedDynamics(data);
        this.motion = data.needsMotionDerivatives() ? new ParameterFollower<>(model, data.dynamics(),
                MotionDerivatives::new) : null;
        nv = data.nv();
        m = data.size();
        vdot = new double[nv];
        dIdDq = new DMatrixRMaj(nv, nv);
        dIdDv = new DMatrixRMaj(nv, nv);
        dForceDq = new DMatrixRMaj(nv, nv);
        dAccDq = new DMatrixRMaj(m, nv);
        dAccDv = new DMatrixRMaj(m, nv);
        hInv = new DMatrixRMaj(nv, nv);
        gh = new double[m * nv];
        kf = new double[m * m];
        qm = new double[m * nv];
    }

    /**
     * Solves the constrained forward dynamics at (q, v, τ) (v̇ into {@link #vdot()}, λ into
     * {@link ConstraintData#force()}) and writes the derivatives of v̇ and λ (each nv x nv and m x nv), ∂/∂q in the
     * tangent space.
     *
     * @throws ConstraintRankException  if the rows are dependent at the state (under either rank policy)
     * @throws ArithmeticException      if G H⁻¹ Gᵀ cannot be factorised, or the forward dynamics cannot be solved
     * @throws IllegalArgumentException for arguments of the wrong length or shape, or an output that is the same
     *                                  matrix as another
     */
    public void compute(double[] q, double[] v, double[] tau, DMatrixRMaj dvdotDq, DMatrixRMaj dvdotDv,
            DMatrixRMaj dvdotDtau, DMatrixRMaj dlambdaDq, DMatrixRMaj dlambdaDv, DMatrixRMaj dlambdaDtau) {
        Arguments.checkShape(dvdotDq, nv, nv, "dvdotDq");
        Arguments.checkShape(dvdotDv, nv, nv, "dvdotDv");
        Arguments.checkShape(dvdotDtau, nv, nv, "dvdotDtau");
        Arguments.checkShape(dlambdaDq, m, nv, "dlambdaDq");
        Arguments.checkShape(dlambdaDv, m, nv, "dlambdaDv");
        Arguments.checkShape(dlambdaDtau, m, nv, "dlambdaDtau");
        outputs[0] = dvdotDq;
        outputs[1] = dvdotDv;
        outputs[2] = dvdotDtau;
        outputs[3] = dlambdaDq;
        outputs[4] = dlambdaDv;
        outputs[5] = dlambdaDtau;
        try {
            for (int i = 0; i < outputs.length; i++) {
                for (int j = i + 1; j < outputs.length; j++) {
                    Arguments.checkDistinct(outputs[j], OUTPUT_NAMES[j], outputs[i], OUTPUT_NAMES[i]);
                }
            }
        } finally {
            Arrays.fill(outputs, null);
        }
        solver.forwardDynamics(ConstraintSolverMethod.RANGE_SPACE_SPARSE, q, v, tau, vdot);
        ConstrainedSystemSolver system = solver.systemSolver();
        if (system.lastRank() < m) {
            // Only under RankPolicy.DROP_DEPENDENT_ROWS: the solve went on with the independent rows, but the
            // multipliers of dependent rows are not unique, so neither are their derivatives.
            ConstraintRankException cause = system.rankAnalysis().redundancyException(data.set().rowNames());
            throw new ConstraintRankException(ConstraintRankException.Kind.REDUNDANT, system.lastRank(), m,
                    cause.involvedRows(), "constrained dynamics derivatives need independent rows: at this state "
                    + (m - system.lastRank()) + " of the " + m + " rows depend on the others (rows involved: "
                    + String.join(", ", cause.involvedRows()) + "), so λ and its derivatives are not unique");
        }
        double[] lambda = data.force();
        dynamics.inverseDynamicsDerivatives(q, v, vdot, dIdDq, dIdDv);
        dynamics.inverseMassMatrix(q, hInv);
        MotionDerivatives rows = motion == null ? null : motion.current();
        if (rows != null) {
            rows.update(q, v, vdot);
        }
        data.rowDerivatives(q, v, vdot, lambda, rows, dForceDq, dAccDq, dAccDv);
        // With A'_x = ∂τ_ID/∂x - ∂(Gᵀλ)/∂x and the rows' ∂a/∂x: ∂v̇/∂x = -(P A'_x + Qᵀ ∂a/∂x),
        // ∂λ/∂x = Q A'_x - K⁻¹ ∂a/∂x, where Q = K⁻¹ G H⁻¹ and P = H⁻¹ - H⁻¹ Gᵀ Q = ∂v̇/∂τ (∂λ/∂τ = -Q).
        double[] aq = dIdDq.data;
        for (int i = 0; i < nv * nv; i++) {
            aq[i] -= dForceDq.data[i];
        }
        double[] hi = hInv.data;
        double[] g = data.G().data;
        double[] p = dvdotDtau.data;
        System.arraycopy(hi, 0, p, 0, nv * nv);
        if (m > 0) {
            factorSchurComplement(hi, g);
            // P = H⁻¹ - (G H⁻¹)ᵀ Q.
            SmallDense.multiply(-1, gh, true, qm, 1, p, nv, m, nv);
            for (int i = 0; i < m * nv; i++) {
                dlambdaDtau.data[i] = -qm[i];
            }
        }
        derivative(p, aq, dAccDq.data, dvdotDq.data, dlambdaDq.data);
        derivative(p, dIdDv.data, dAccDv.data, dvdotDv.data, dlambdaDv.data);
    }

    /**
     * gh = G H⁻¹ (m x nv), K = gh Gᵀ factorised (Cholesky, {@link SmallSpd}) and Q = K⁻¹ gh.
     *
     * @throws ArithmeticException if K is not positive definite to working precision
     */
    private void factorSchurComplement(double[] hi, double[] g) {
        SmallDense.multiply(1, g, false, hi, 0, gh, m, nv, nv);
        double largest = 0;
        for (int a = 0; a < m; a++) {
            for (int b = 0; b <= a; b++) {
                double x = 0;
                for (int k = 0; k < nv; k++) {
                    x += gh[a * nv + k] * g[b * nv + k];
                }
                kf[a * m + b] = x;
            }
            largest = Math.max(largest, kf[a * m + a]);
        }
        if (SmallSpd.factor(kf, m, false, SpdFactorization.PIVOT_RATIO * largest) >= 0) {
            throw new ArithmeticException("G H⁻¹ Gᵀ is not positive definite at this state: the constraint rows are"
                    + " (numerically) dependent");
        }
        System.arraycopy(gh, 0, qm, 0, m * nv);
        SmallSpd.solveRows(kf, m, qm, nv);
    }

    /** ∂v̇/∂x = -(P A' + Qᵀ ∂a) and ∂λ/∂x = Q A' - K⁻¹ ∂a for one x (P, A' nv x nv, ∂a m x nv). */
    private void derivative(double[] p, double[] a, double[] da, double[] dvdot, double[] dlambda) {
        SmallDense.multiply(-1, p, false, a, 0, dvdot, nv, nv, nv);
        if (m == 0) {
            return;
        }
        SmallDense.multiply(-1, qm, true, da, 1, dvdot, nv, m, nv);
        for (int i = 0; i < m * nv; i++) {
            dlambda[i] = -da[i];
        }
        SmallSpd.solveRows(kf, m, dlambda, nv);
        SmallDense.multiply(1, qm, false, a, 1, dlambda, m, nv, nv);
    }

    /** v̇ of the last {@link #compute} (nv entries; this object's own array, overwritten by the next compute). */
    public double[] vdot() {
        return vdot;
    }

    /** The data (λ of the last compute in {@link ConstraintData#force()}). */
    public ConstraintData constraintData() {
        return data;
    }
}
