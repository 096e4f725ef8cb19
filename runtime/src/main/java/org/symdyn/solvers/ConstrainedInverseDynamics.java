package org.symdyn.solvers;

import org.symdyn.contract.Arguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRPDecomposition_F64;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.SolverSettings;

/**
 * Inverse dynamics of constrained, possibly under-actuated systems (RBDL's InverseDynamicsConstraints,
 * InverseDynamicsConstraintsRelaxed and isConstrainedSystemFullyActuated, after Koch 2015 and Kudruss 2019).
 *
 * <p><b>Setting.</b> H v̇ + C = Sᵀ τ_a + Gᵀ λ and G v̇ = γ (H, C, G, γ from the bound {@link ConstraintData}, so
 * generic and generated models alike; γ with the Baumgarte terms of the groups that enable them), where the
 * {@link ActuationMap} gives S (n_a x n, actuated dofs) and P (n_u x n, unactuated dofs), v̇ = Sᵀ u + Pᵀ w. Outputs:
 * v̇, the generalised force τ = Sᵀ τ_a (n entries, zero on unactuated dofs) and λ in {@link ConstraintData#force()}.
 * Both operators return a physically consistent triple: H v̇ + C = τ + Gᵀ λ and G v̇ = γ hold to rounding, with no
 * force on an unactuated dof.
 *
 * <p><b>Full actuation</b> ({@link #isFullyActuated}): rank(G Pᵀ) = n_u, i.e. once the actuated accelerations
 * are chosen the constraints determine the unactuated ones (equivalently rank [G; S] = n). Checked by a
 * column-pivoted QR of G Pᵀ with the set's relative rank tolerance.
 *
 * <p><b>Exact operator</b> ({@link #inverseDynamics}, Koch eq. 5.20, fully actuated systems only): with
 * u* = S v̇_des,
 * <pre>
 *   u = u*,   (G Pᵀ) w = γ - G Sᵀ u,   v̇ = Sᵀ u + Pᵀ w,
 *   (P Gᵀ) λ = P (H v̇ + C),   τ_a = S (H v̇ + C - Gᵀ λ).
 * </pre>
 * This is the solution of min ½‖S (v̇ - v̇_des)‖² s.t. G v̇ = γ, and of the equations of motion, with zero cost: the
 * actuated accelerations are tracked exactly and the unactuated ones follow from the constraints (so v̇ = v̇_des
 * only when v̇_des itself satisfies G v̇_des = γ; a QP on the full ‖v̇ - v̇_des‖ would instead project v̇_des). When
 * there are more independent constraint rows r than unactuated dofs (r &gt; n_u, e.g. a floating base on three
 * point contacts) the actuated accelerations cannot all be prescribed: then u is the u* corrected by the
 * least-norm change that makes G v̇ = γ solvable (the same QP, now with a positive minimum), and since τ_a and λ
 * are then not unique the λ of least Euclidean norm is returned (no internal constraint forces beyond those the
 * unactuated dofs need). For r = n_u this reduces exactly to the equations above.
 *
 * <p><b>Relaxed operator</b> ({@link #inverseDynamicsRelaxed}, any actuation; Koch §2.5 with the modifications of
 * the RBDL document): for acceleration controls x,
 * <pre>
 *   min_v̇  ½ v̇ᵀ H v̇ + Cᵀ v̇ + ½ (u* - S v̇)ᵀ W (u* - S v̇)   s.t.  G v̇ = γ,     u* = S x + W⁻¹ S C,
 *   i.e. [H + SᵀWS  Gᵀ] [ v̇]   [SᵀW u* - C]
 *        [G         0 ] [-λ] = [    γ     ],       τ_a = W (u* - S v̇) = W (S x - S v̇) + S C.
 * </pre>
 * It is the constrained forward dynamics (Gauss' principle) of the system driven by the stiff actuator law τ_a =
 * W (u* - S v̇), so it is well posed for under-actuated systems; S v̇ approaches S x as W grows (and equals it only
 * when that is dynamically possible). In the "effort plus tracking" form the objective is, up to a constant,
 * ½ τ_aᵀ W⁻¹ τ_a + ½ (v̇ - v̇_f)ᵀ H (v̇ - v̇_f) with v̇_f = -H⁻¹ C the unforced acceleration: the weight on τ_a is
 * W⁻¹ and the acceleration metric is H; the controls enter through u*. W is diagonal: by default, as the document states, every entry is 100 times
 * the largest |H_ij| at the current state ({@link #setRelaxedWeightFactor}); fixed weights can be given with
 * {@link #setRelaxedWeights}. The KKT system is solved by the set's solvers (default: the null-space method, as
 * the document; any {@link ConstraintSolverMethod} gives the same result).
 *
 * <p>Dependent constraint rows are reported by name or dropped per the set's rank policy (dropped rows get λ = 0
 * and must still hold). All workspaces are allocated by the constructor; the operators and the full-actuation test
 * do not allocate (except to build an exception). Not thread-safe.
 */
public final class ConstrainedInverseDynamics {
    /** The document's default: W = 100 max |H_ij| 1. */
    public static final double DEFAULT_WEIGHT_FACTOR = 100;

    private final ConstraintData data;
    private final SolverSettings settings;
    private final List<String> rowNames;
    private final ActuationMap actuation;
    private final int nv;
    private final int m;
    private final int na;
    private final int nu;
    private final int[] act;
    private final int[] un;

    // Exact operator.
    private final ConstraintRankAnalysis gRank;
    private final QRPDecomposition_F64<DMatrixRMaj> qrpB;
    private final DMatrixRMaj g;
    private final double[] gamma;
    private final DMatrixRMaj b;
    private final DMatrixRMaj qB;
    private final DMatrixRMaj rB;
    private final int[] rowsIdentity;
    private final int[] pivB;
    private final DMatrixRMaj aMat;
    private final DMatrixRMaj mMat;
    private final SpdFactorization spd;
    private final double[] u;
    private final double[] c;
    private final double[] e;
    private final double[] z;
    private final double[] w;
    private final double[] f;
    private int lastActuationRank = -1;

    // Relaxed operator.
    private final ConstrainedSystemSolver solver;
    private final DMatrixRMaj fMat;
    private final double[] rhs;
    private final double[] y;
    private final double[] weights;
    private double[] fixedWeights;
    private double weightFactor = DEFAULT_WEIGHT_FACTOR;
    private ConstraintSolverMethod relaxedMethod = ConstraintSolverMethod.NULL_SPACE;

    /**
     * Operators for a bound set and an actuation map of the same model.
     *
     * @throws IllegalStateException    if the set is not bound
     * @throws IllegalArgumentException if the map has another number of dofs
     */
    public ConstrainedInverseDynamics(ConstraintData data, ActuationMap actuation) {
        if (actuation.nv() != data.nv()) {
            throw new IllegalArgumentException("the actuation map has " + actuation.nv() + " dofs, the model "
                    + data.nv());
        }
        this.data = data;
        this.actuation = actuation;
        settings = data.settings();
        rowNames = data.set().rowNames();
        nv = data.nv();
        m = data.size();
        na = actuation.actuatedCount();
        nu = actuation.unactuatedCount();
        act = actuation.actuatedDofs();
        un = actuation.unactuatedDofs();

        gRank = new ConstraintRankAnalysis(m, nv);
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        b = new DMatrixRMaj(m, nu);
        qB = new DMatrixRMaj(m, m);
        rB = new DMatrixRMaj(Math.min(m, nu), nu);
        pivB = new int[nu];
        rowsIdentity = new int[m];
        for (int i = 0; i < m; i++) {
            rowsIdentity[i] = i;
        }
        if (m > 0 && nu > 0) {
            qrpB = DecompositionFactory_DDRM.qrp(m, nu);
            qrpB.setSingularThreshold(0);
            // Size EJML's internal arrays now.
            qrpB.decompose(b);
            qrpB.getQ(qB, false);
            qrpB.getR(rB, true);
        } else {
            qrpB = null;
        }
        aMat = new DMatrixRMaj(m, na);
        mMat = new DMatrixRMaj(m, m);
        spd = new SpdFactorization(m);
        u = new double[na];
        c = new double[m];
        e = new double[Math.max(1, m)];
        z = new double[Math.max(1, Math.max(m, nu))];
        w = new double[Math.max(1, nu)];
        f = new double[nv];

        solver = new ConstrainedSystemSolver(data);
        fMat = new DMatrixRMaj(nv, nv);
        rhs = new double[nv];
        y = new double[m];
        weights = new double[na];
    }

    /** The actuation map. */
    public ActuationMap actuation() {
        return actuation;
    }

    /** The data. */
    public ConstraintData constraintData() {
        return data;
    }

    // ---------------------------------------------------------------- full actuation

    /**
     * True if the constrained system is fully actuated at q: rank(G(q) Pᵀ) = n_u (RBDL's
     * isConstrainedSystemFullyActuated). Always true without unactuated dofs; false when there are unactuated dofs
     * but no constraints.
     */
    public boolean isFullyActuated(double[] q) {
        if (nu == 0) {
            lastActuationRank = 0;
            return true;
        }
        if (m == 0) {
            lastActuationRank = 0;
            return false;
        }
        data.jacobian(q, g);
        lastActuationRank = decomposeB(rowsIdentity, m);
        return lastActuationRank == nu;
    }

    /** rank(G Pᵀ) found by the last {@link #isFullyActuated} or {@link #inverseDynamics} (-1 before any). */
    public int lastActuationRank() {
        return lastActuationRank;
    }

    // ---------------------------------------------------------------- exact operator

    /**
     * The exact operator (see the class comment): v̇ and τ from the desired accelerations; λ into
     * {@link ConstraintData#force()}.
     *
     * @param vdotDesired v̇_des (n); only its actuated entries matter
     * @param vdot        receives v̇ (n)
     * @param tau         receives τ = Sᵀ τ_a (n, zero on unactuated dofs)
     * @throws NotFullyActuatedException if rank(G Pᵀ) &lt; n_u at q
     * @throws ConstraintRankException   if the rows are dependent (policy FAIL) or inconsistent
     */
    public void inverseDynamics(double[] q, double[] v, double[] vdotDesired, double[] vdot, double[] tau) {
        checkLength(vdotDesired, nv, "vdotDesired");
        checkLength(vdot, nv, "vdot");
        checkLength(tau, nv, "tau");
        checkOutputs(q, v, vdotDesired, "vdotDesired", vdot, tau);
        data.jacobian(q, g);
        data.gamma(q, v, gamma);
        SaddlePointOps.checkFinite(g.data, m * nv, "inverse dynamics: ", "G", "");
        SaddlePointOps.checkFinite(gamma, m, "inverse dynamics: ", "γ", "");
        SaddlePointOps.checkFinite(vdotDesired, nv, "inverse dynamics: ", "v̇_des", "");
        // Independent rows (per the rank policy).
        int r = m;
        int[] rows = rowsIdentity;
        if (m > 0) {
            r = gRank.decompose(g, settings.rankTolerance());
            if (r < m) {
                if (settings.rankPolicy() == SolverSettings.RankPolicy.FAIL) {
                    throw gRank.redundancyException(rowNames);
                }
                rows = gRank.pivots();
            }
        }
        int rank = nu == 0 ? 0 : r == 0 ? 0 : decomposeB(rows, r);
        lastActuationRank = rank;
        if (rank < nu) {
            throw notFullyActuated(rank, r);
        }
        double[] gd = g.data;
        for (int k = 0; k < na; k++) {
            u[k] = vdotDesired[act[k]];
        }
        residual(rows, r);
        int extra = r - nu;
        if (extra > 0) {
            // Rows beyond n_u restrict u: Q₂ᵀ G_act Sᵀ u = Q₂ᵀ γ_act. Least-norm correction δ = Aᵀ (A Aᵀ)⁻¹ Q₂ᵀ c.
            double[] qd = qB.data;
            aMat.reshape(extra, na);
            for (int i = 0; i < extra; i++) {
                double s = 0;
                for (int l = 0; l < r; l++) {
                    s += q2(qd, r, l, i) * c[l];
                }
                e[i] = s;
                for (int k = 0; k < na; k++) {
                    double t = 0;
                    for (int l = 0; l < r; l++) {
                        t += q2(qd, r, l, i) * gd[rows[l] * nv + act[k]];
                    }
                    aMat.data[i * na + k] = t;
                }
            }
            mMat.reshape(extra, extra);
            for (int i = 0; i < extra; i++) {
                for (int j = 0; j <= i; j++) {
                    double s = 0;
                    for (int k = 0; k < na; k++) {
                        s += aMat.data[i * na + k] * aMat.data[j * na + k];
                    }
                    mMat.data[i * extra + j] = s;
                    mMat.data[j * extra + i] = s;
                }
            }
            if (!spd.factor(mMat, settings.spdSolver())) {
                throw new ArithmeticException("inverse dynamics: the constraint rows " + rowNames + " restricted to"
                        + " the actuated dofs are (nearly) dependent; the actuated accelerations cannot be"
                        + " corrected to satisfy them");
            }
            spd.solve(e, z, extra);
            for (int k = 0; k < na; k++) {
                double s = 0;
                for (int i = 0; i < extra; i++) {
                    s += aMat.data[i * na + k] * z[i];
                }
                u[k] += s;
            }
            residual(rows, r);
        }
        for (int k = 0; k < na; k++) {
            vdot[act[k]] = u[k];
        }
        if (nu > 0) {
            // R₁ w = Q₁ᵀ c, then w in pivot order gives the unactuated accelerations.
            double[] qd = qB.data;
            QrSubstitution.transposeProduct(qd, r, r, nu, c, w);
            QrSubstitution.backSubstitute(rB, w, w, nu);
            for (int j = 0; j < nu; j++) {
                vdot[un[pivB[j]]] = w[j];
            }
        }
        // f = H v̇ + C by the set's inverse dynamics.
        data.dynamics().inverseDynamics(q, v, vdot, f);
        double[] lambda = data.force();
        for (int i = 0; i < m; i++) {
            lambda[i] = 0;
        }
        if (nu > 0) {
            // R₁ᵀ z = (P f) in pivot order, λ_act = Q₁ z: the least-norm λ with P Gᵀ λ = P f.
            for (int j = 0; j < nu; j++) {
                double s = f[un[pivB[j]]];
                for (int k = 0; k < j; k++) {
                    s -= rB.get(k, j) * z[k];
                }
                z[j] = s / rB.get(j, j);
            }
            double[] qd = qB.data;
            for (int l = 0; l < r; l++) {
                double s = 0;
                for (int j = 0; j < nu; j++) {
                    s += qd[l * r + j] * z[j];
                }
                lambda[rows[l]] = s;
            }
        }
        for (int j = 0; j < nv; j++) {
            tau[j] = 0;
        }
        for (int k = 0; k < na; k++) {
            int j = act[k];
            double s = f[j];
            for (int i = 0; i < m; i++) {
                s -= gd[i * nv + j] * lambda[i];
            }
            tau[j] = s;
        }
        SaddlePointOps.checkFinite(vdot, nv, "inverse dynamics: ", "v̇", "");
        SaddlePointOps.checkFinite(tau, nv, "inverse dynamics: ", "τ", "");
        SaddlePointOps.checkFinite(lambda, m, "inverse dynamics: ", "λ", "");
        for (int k = r; k < m; k++) {
            gRank.checkDroppedRow(g, gamma, vdot, k, settings.consistencyTolerance(), rowNames);
        }
    }

    /** Column nu + i of Q (r x r). */
    private double q2(double[] qd, int r, int l, int i) {
        if (nu == 0) {
            return l == i ? 1 : 0;
        }
        return qd[l * r + nu + i];
    }

    /** c = γ_act - G_act Sᵀ u. */
    private void residual(int[] rows, int r) {
        double[] gd = g.data;
        for (int l = 0; l < r; l++) {
            int row = rows[l];
            double s = gamma[row];
            for (int k = 0; k < na; k++) {
                s -= gd[row * nv + act[k]] * u[k];
            }
            c[l] = s;
        }
    }

    /** QR with column pivoting of B = G[rows] Pᵀ (r x n_u); Q, R, pivots kept; returns the numerical rank. */
    private int decomposeB(int[] rows, int r) {
        b.reshape(r, nu);
        double[] gd = g.data;
        for (int l = 0; l < r; l++) {
            for (int j = 0; j < nu; j++) {
                b.data[l * nu + j] = gd[rows[l] * nv + un[j]];
            }
        }
        qrpB.decompose(b);
        qB.reshape(r, r);
        rB.reshape(Math.min(r, nu), nu);
        qrpB.getQ(qB, false);
        qrpB.getR(rB, true);
        System.arraycopy(qrpB.getColPivots(), 0, pivB, 0, nu);
        int limit = Math.min(r, nu);
        double d0 = limit > 0 ? Math.abs(rB.get(0, 0)) : 0;
        int k = 0;
        while (k < limit && Math.abs(rB.get(k, k)) > settings.rankTolerance() * d0) {
            k++;
        }
        return k;
    }

    private NotFullyActuatedException notFullyActuated(int rank, int r) {
        List<String> unactuated = new ArrayList<>();
        for (int j : un) {
            unactuated.add(actuation.dofName(j));
        }
        List<String> free = new ArrayList<>();
        for (int j = rank; j < nu; j++) {
            free.add(actuation.dofName(un[r == 0 ? j : pivB[j]]));
        }
        String msg = String.format(Locale.ROOT, "the constrained system is not fully actuated at this"
                + " configuration: rank(G Pᵀ) = %d < %d unactuated dofs %s, so the constraint rows %s do not"
                + " determine the unactuated accelerations; undetermined: %s. Use inverseDynamicsRelaxed.", rank,
                nu, unactuated, rowNames, free);
        return new NotFullyActuatedException(rank, nu, free, msg);
    }

    // ---------------------------------------------------------------- relaxed operator

    /**
     * The relaxed operator (see the class comment): v̇ and τ from acceleration controls x; λ into
     * {@link ConstraintData#force()}. Works for under- and fully actuated systems.
     *
     * @param controls x (n); only its actuated entries matter
     * @param vdot     receives v̇ (n)
     * @param tau      receives τ = Sᵀ τ_a (n, zero on unactuated dofs)
     * @throws ConstraintRankException if the rows are dependent (policy FAIL) or inconsistent
     */
    public void inverseDynamicsRelaxed(double[] q, double[] v, double[] controls, double[] vdot, double[] tau) {
        checkLength(controls, nv, "controls");
        checkLength(vdot, nv, "vdot");
        checkLength(tau, nv, "tau");
        checkOutputs(q, v, controls, "controls", vdot, tau);
        SaddlePointOps.checkFinite(controls, nv, "inverse dynamics: ", "the controls x", "");
        data.computeSystem(q, v);
        DMatrixRMaj h = data.H();
        double[] cv = data.C();
        if (fixedWeights != null) {
            System.arraycopy(fixedWeights, 0, weights, 0, na);
        } else {
            double max = 0;
            for (int i = 0; i < nv * nv; i++) {
                max = Math.max(max, Math.abs(h.data[i]));
            }
            for (int k = 0; k < na; k++) {
                weights[k] = weightFactor * max;
            }
        }
        System.arraycopy(h.data, 0, fMat.data, 0, nv * nv);
        for (int j = 0; j < nv; j++) {
            rhs[j] = -cv[j];
        }
        for (int k = 0; k < na; k++) {
            int j = act[k];
            fMat.data[j * nv + j] += weights[k];
            // Sᵀ W u* - C with u* = S x + W⁻¹ S C: the C of actuated rows cancels.
            rhs[j] = weights[k] * controls[j];
        }
        solver.solve(relaxedMethod, fMat, data.G(), rhs, data.gamma(), vdot, y);
        double[] lambda = data.force();
        for (int i = 0; i < m; i++) {
            lambda[i] = 0.0 - y[i];
        }
        for (int j = 0; j < nv; j++) {
            tau[j] = 0;
        }
        for (int k = 0; k < na; k++) {
            int j = act[k];
            tau[j] = weights[k] * (controls[j] - vdot[j]) + cv[j];
        }
        SaddlePointOps.checkFinite(tau, nv, "inverse dynamics: ", "τ", "");
    }

    /**
     * Uses fixed diagonal weights W (n_a positive entries, in the order of the actuated dofs) in the relaxed
     * operator; null returns to the default scaling.
     */
    public void setRelaxedWeights(double[] diagonal) {
        if (diagonal == null) {
            fixedWeights = null;
            return;
        }
        if (diagonal.length != na) {
            throw new IllegalArgumentException("W needs one weight per actuated dof (" + na + "), got "
                    + diagonal.length);
        }
        for (double x : diagonal) {
            if (!(x > 0) || Double.isInfinite(x)) {
                throw new IllegalArgumentException("weights must be positive and finite, got " + x);
            }
        }
        fixedWeights = diagonal.clone();
    }

    /**
     * Uses W = factor · max |H_ij| 1 (recomputed at every state) in the relaxed operator; the document's default is
     * {@link #DEFAULT_WEIGHT_FACTOR}. Clears fixed weights.
     */
    public void setRelaxedWeightFactor(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("the weight factor must be positive and finite, got " + factor);
        }
        weightFactor = factor;
        fixedWeights = null;
    }

    /** The diagonal of W used by the last relaxed solve (internal array: do not modify). */
    public double[] lastRelaxedWeights() {
        return weights;
    }

    /** The method for the relaxed KKT system (default {@link ConstraintSolverMethod#NULL_SPACE}). */
    public void setRelaxedMethod(ConstraintSolverMethod method) {
        relaxedMethod = java.util.Objects.requireNonNull(method);
    }

    // ---------------------------------------------------------------- checks

    /**
     * The outputs v̇ and τ are two arrays, neither an input: the solve reads its inputs after it has begun writing
     * (an aliased call gave a τ off by 3 without a word, or wrote τ over q).
     */
    private static void checkOutputs(double[] q, double[] v, double[] target, String targetName, double[] vdot,
            double[] tau) {
        Arguments.checkDistinct(tau, "tau", vdot, "vdot");
        checkOutput(vdot, "vdot", q, v, target, targetName);
        checkOutput(tau, "tau", q, v, target, targetName);
    }

    private static void checkOutput(double[] out, String name, double[] q, double[] v, double[] target,
            String targetName) {
        Arguments.checkDistinct(out, name, q, "q");
        Arguments.checkDistinct(out, name, v, "v");
        Arguments.checkDistinct(out, name, target, targetName);
    }

    private static void checkLength(double[] x, int n, String what) {
        Arguments.checkLength(x, n, what);
    }
}
