package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.dynamics.MotionDerivatives;
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
 * ({@link ConstraintData#rowDerivatives}, analytical on {@link MotionDerivatives}), ∂(Gᵀλ)/∂v = 0 and ∂τ/∂τ = 1.
 * The system is solved with K = G H⁻¹ Gᵀ: ∂λ = -K⁻¹ (G H⁻¹ A - B), ∂v̇ = H⁻¹ (A + Gᵀ ∂λ) for right-hand sides
 * A (upper) and B (lower); so ∂v̇/∂τ = H⁻¹ - H⁻¹ Gᵀ K⁻¹ G H⁻¹ and ∂λ/∂τ = -K⁻¹ G H⁻¹.
 *
 * <p>The rows must be independent at the state (the multipliers are then unique and differentiable): a solve that
 * dropped dependent rows is refused with a {@link ConstraintRankException}. Needs dynamics that implement
 * {@link DynamicsDerivatives} (a class generated with derivatives, or {@link org.symdyn.dynamics.GenericDynamics}) and a
 * set built from the {@link Model}. Allocates its workspaces in the constructor; {@link #compute} does not allocate.
 * Not thread-safe.
 */
public final class ConstrainedDynamicsDerivatives {
    private final ConstraintData data;
    private final DynamicsDerivatives dynamics;
    private final ConstrainedDynamics solver;
    private final MotionDerivatives motion;
    private final int nv;
    private final int m;
    private final double[] vdot;
    private final DMatrixRMaj dIdDq;
    private final DMatrixRMaj dIdDv;
    private final DMatrixRMaj dForceDq;
    private final DMatrixRMaj dAccDq;
    private final DMatrixRMaj dAccDv;
    private final DMatrixRMaj hInv;
    private final DMatrixRMaj hInvGt;
    private final DMatrixRMaj k;
    private final DMatrixRMaj upper;
    private final DMatrixRMaj lower;
    private final DMatrixRMaj t;
    private final DMatrixRMaj y;
    private final LinearSolverDense<DMatrixRMaj> cholesky;

    /**
     * Workspaces for a bound data.
     *
     * @throws IllegalArgumentException if its dynamics do not implement {@link DynamicsDerivatives} or its set has no
     *                                  model
     */
    public ConstrainedDynamicsDerivatives(ConstraintData data) {
        if (!(data.dynamics() instanceof DynamicsDerivatives dd)) {
            throw new IllegalArgumentException("constrained dynamics derivatives need the inverse dynamics derivatives"
                    + " of the bound dynamics (" + data.dynamics().getClass().getName() + " does not implement"
                    + " DynamicsDerivatives): generate the class with derivatives (symdyn generate --derivatives) or"
                    + " bind GenericDynamics");
        }
        Model model = data.set().model();
        if (model == null) {
            throw new IllegalArgumentException("constrained dynamics derivatives need the model: build the set from"
                    + " the Model (ConstraintSet.of(model) or ConstraintSet.builder(model))");
        }
        this.data = data;
        this.dynamics = dd;
        this.solver = new ConstrainedDynamics(data);
        this.motion = new MotionDerivatives(model);
        nv = data.nv();
        m = data.size();
        vdot = new double[nv];
        dIdDq = new DMatrixRMaj(nv, nv);
        dIdDv = new DMatrixRMaj(nv, nv);
        dForceDq = new DMatrixRMaj(nv, nv);
        dAccDq = new DMatrixRMaj(m, nv);
        dAccDv = new DMatrixRMaj(m, nv);
        hInv = new DMatrixRMaj(nv, nv);
        hInvGt = new DMatrixRMaj(nv, m);
        k = new DMatrixRMaj(m, m);
        upper = new DMatrixRMaj(nv, 3 * nv);
        lower = new DMatrixRMaj(m, 3 * nv);
        t = new DMatrixRMaj(nv, 3 * nv);
        y = new DMatrixRMaj(m, 3 * nv);
        cholesky = LinearSolverFactory_DDRM.chol(Math.max(1, m));
    }

    /**
     * Solves the constrained forward dynamics at (q, v, τ) (v̇ into {@link #vdot()}, λ into
     * {@link ConstraintData#force()}) and writes the derivatives of v̇ and λ (each nv x nv and m x nv), ∂/∂q in the
     * tangent space.
     *
     * @throws ConstraintRankException       if the rows are dependent at the state
     * @throws ArithmeticException           if G H⁻¹ Gᵀ cannot be factorised
     * @throws UnsupportedOperationException if a group's rows do not provide derivatives
     * @throws IllegalArgumentException      for arguments of the wrong length or shape
     */
    public void compute(double[] q, double[] v, double[] tau, DMatrixRMaj dvdotDq, DMatrixRMaj dvdotDv,
            DMatrixRMaj dvdotDtau, DMatrixRMaj dlambdaDq, DMatrixRMaj dlambdaDv, DMatrixRMaj dlambdaDtau) {
        Arguments.checkShape(dvdotDq, nv, nv, "dvdotDq");
        Arguments.checkShape(dvdotDv, nv, nv, "dvdotDv");
        Arguments.checkShape(dvdotDtau, nv, nv, "dvdotDtau");
        Arguments.checkShape(dlambdaDq, m, nv, "dlambdaDq");
        Arguments.checkShape(dlambdaDv, m, nv, "dlambdaDv");
        Arguments.checkShape(dlambdaDtau, m, nv, "dlambdaDtau");
        solver.forwardDynamics(ConstraintSolverMethod.RANGE_SPACE_SPARSE, q, v, tau, vdot);
        if (solver.systemSolver().lastRank() < m) {
            throw solver.systemSolver().rankAnalysis().redundancyException(data.set().rowNames());
        }
        double[] lambda = data.force();
        dynamics.inverseDynamicsDerivatives(q, v, vdot, dIdDq, dIdDv);
        dynamics.inverseMassMatrix(q, hInv);
        motion.update(q, v, vdot);
        data.rowDerivatives(motion, lambda, dForceDq, dAccDq, dAccDv);
        // Right-hand sides [A; B] for x = q, v, τ: A = -(∂τ_ID - ∂(Gᵀλ)), B = -∂a; A_τ = 1, B_τ = 0.
        for (int r = 0; r < nv; r++) {
            for (int c = 0; c < nv; c++) {
                int i = r * nv + c;
                int o = r * 3 * nv;
                upper.data[o + c] = dForceDq.data[i] - dIdDq.data[i];
                upper.data[o + nv + c] = -dIdDv.data[i];
                upper.data[o + 2 * nv + c] = r == c ? 1 : 0;
            }
        }
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < nv; c++) {
                int o = r * 3 * nv;
                lower.data[o + c] = -dAccDq.data[r * nv + c];
                lower.data[o + nv + c] = -dAccDv.data[r * nv + c];
                lower.data[o + 2 * nv + c] = 0;
            }
        }
        // T = H⁻¹ A; K = G H⁻¹ Gᵀ; Y = K⁻¹ (G T - B) = -∂λ; ∂v̇ = T - H⁻¹ Gᵀ Y.
        DMatrixRMaj g = data.G();
        CommonOps_DDRM.mult(hInv, upper, t);
        if (m > 0) {
            CommonOps_DDRM.multTransB(hInv, g, hInvGt);
            CommonOps_DDRM.mult(g, hInvGt, k);
            if (!cholesky.setA(k)) {
                throw new ArithmeticException("G H⁻¹ Gᵀ is not positive definite at this state: the constraint rows"
                        + " are (numerically) dependent");
            }
            CommonOps_DDRM.mult(g, t, y);
            CommonOps_DDRM.subtractEquals(y, lower);
            cholesky.solve(y, lower);
            // lower now holds Y.
            CommonOps_DDRM.multAdd(-1, hInvGt, lower, t);
        }
        for (int r = 0; r < nv; r++) {
            System.arraycopy(t.data, r * 3 * nv, dvdotDq.data, r * nv, nv);
            System.arraycopy(t.data, r * 3 * nv + nv, dvdotDv.data, r * nv, nv);
            System.arraycopy(t.data, r * 3 * nv + 2 * nv, dvdotDtau.data, r * nv, nv);
        }
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < nv; c++) {
                int o = r * 3 * nv;
                dlambdaDq.data[r * nv + c] = -lower.data[o + c];
                dlambdaDv.data[r * nv + c] = -lower.data[o + nv + c];
                dlambdaDtau.data[r * nv + c] = -lower.data[o + 2 * nv + c];
            }
        }
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
