package org.symdyn.solvers;

import org.symdyn.contract.Arguments;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintGroup;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Dynamics;

/**
 * Forward dynamics with contact constraints by Kokkevis' method (Kokkevis and Metaxas, "Practical Physics for
 * Articulated Characters", GDC 2004; RBDL's ForwardDynamicsContactsKokkevis): the contact forces are found through
 * the inverse articulated-body inertia, probed with unit test forces, without forming the joint-space inertia H.
 *
 * <p><b>Contacts only.</b> Every row of the set must be a contact ({@link ConstraintType#CONTACT}: a body point p
 * held along a world direction n, G_k = n_kᵀ J_p, see {@link ContactRows}); the constructor refuses loops,
 * couplers, line-on-line and custom rows by name. Use {@link ConstrainedDynamics} for them.
 *
 * <p><b>Equations.</b> With H v̇ + C = τ + Gᵀ λ and G v̇ = γ (λ_k the force in N along n_k on the body):
 * <ol>
 * <li>unconstrained accelerations v̇₀ = H⁻¹ (τ - C) by the bound dynamics' forward dynamics (the generated
 * class's own when bound to one, the generic ABA otherwise);</li>
 * <li>for each row j the unit test force along its normal at its contact point, which is the generalised force
 * G_jᵀ: its response v̇_t,j = H⁻¹ G_jᵀ, obtained as the forward dynamics at τ + G_jᵀ minus v̇₀ (forward dynamics
 * is affine in τ, so the difference is the response alone);</li>
 * <li>the Kokkevis matrix K_ij = G_i v̇_t,j = G_i H⁻¹ G_jᵀ (m x m, symmetric positive definite for independent
 * rows; symmetrised) and the bias a₀ = G v̇₀;</li>
 * <li>K λ = γ - a₀ (Cholesky or LDLᵀ by the data's {@link SolverSettings}), then v̇ = v̇₀ + Σ_j v̇_t,j λ_j.</li>
 * </ol>
 * G and γ (with the Baumgarte terms of the groups that enable them) come from the bound {@link ConstraintData}, so
 * the result is the same v̇ and λ as the direct method. λ is left in {@link ConstraintData#force()}. Cost: m + 1
 * forward dynamics plus O(m² n + m³): attractive for few contacts.
 *
 * <p>Dependent rows are found as by the other methods: from the pivots of K's small dense factorisation
 * ({@link SolverSettings#exploitStructure()}, the default), and, when one is small, by the rank-revealing QR of G
 * (also on every solve when that option is off and {@link SolverSettings#rankCheck()} on, and after a failed
 * factorisation); reported by name or dropped, per the set's rank policy.
 *
 * <p>All workspaces are allocated by the constructor; {@link #forwardDynamics} does not allocate (except to build
 * an exception). It does not touch the set's H, C, G, γ workspaces. Not thread-safe.
 */
public final class KokkevisContactDynamics {
    private final ConstraintData data;
    private final Dynamics dynamics;
    private final int nv;
    private final int m;
    private final double[][] testResponse;
    private final double[] testTau;
    private final double[] vdot0;
    private final DMatrixRMaj g;
    private final double[] gamma;
    private final DMatrixRMaj k;
    private final double[] rhs;
    private final DelassusSolve solve;

    /**
     * The method for a bound set whose rows are all contacts.
     *
     * @throws IllegalArgumentException naming the first group that is not a contact
     * @throws IllegalStateException    if the set is not bound
     */
    public KokkevisContactDynamics(ConstraintData data) {
        this.data = data;
        nv = data.nv();
        m = data.size();
        dynamics = data.dynamics();
        testResponse = new double[m][nv];
        testTau = new double[nv];
        for (ConstraintGroup group : data.set().groups()) {
            if (group.type() != ConstraintType.CONTACT) {
                throw new IllegalArgumentException("Kokkevis' method applies to contact constraints only (a body point"
                        + " held along a world direction); group '" + group.name() + "' (" + group.type()
                        + ", rows " + group.rowNames() + ") is not one. Use ConstrainedDynamics (direct, range-space"
                        + " or null-space method) for this data.");
            }
        }
        vdot0 = new double[nv];
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        k = new DMatrixRMaj(m, m);
        rhs = new double[m];
        solve = new DelassusSolve(data, "Kokkevis");
    }

    /**
     * v̇ (nv) at (q, v) under joint forces τ with every contact row held; λ (N along each normal) into
     * {@link ConstraintData#force()}.
     *
     * @throws ConstraintRankException if the rows are dependent (see the set's rank policy) or inconsistent
     * @throws ArithmeticException     if K is not positive definite or an input or result is not finite
     */
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot) {
        Arguments.checkLength(q, data.nq(), "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(tau, nv, "tau");
        Arguments.checkLength(vdot, nv, "vdot");
        Arguments.checkDistinct(vdot, "vdot", q, "q");
        Arguments.checkDistinct(vdot, "vdot", v, "v");
        Arguments.checkDistinct(vdot, "vdot", tau, "tau");
        dynamics.forwardDynamics(q, v, tau, vdot0);
        double[] lambda = data.force();
        if (m == 0) {
            System.arraycopy(vdot0, 0, vdot, 0, nv);
            SaddlePointOps.checkFinite(vdot, nv, "Kokkevis: ", "v̇", "; check q, v and τ");
            return;
        }
        data.jacobian(q, g);
        data.gamma(q, v, gamma);
        double[] kd = k.data;
        for (int j = 0; j < m; j++) {
            double[] t = testResponse[j];
            for (int c = 0; c < nv; c++) {
                testTau[c] = tau[c] + g.data[j * nv + c];
            }
            dynamics.forwardDynamics(q, v, testTau, t);
            for (int c = 0; c < nv; c++) {
                t[c] -= vdot0[c];
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                double x = 0;
                double[] t = testResponse[j];
                for (int c = 0; c < nv; c++) {
                    x += g.data[i * nv + c] * t[c];
                }
                kd[i * m + j] = x;
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < i; j++) {
                double x = 0.5 * (kd[i * m + j] + kd[j * m + i]);
                kd[i * m + j] = x;
                kd[j * m + i] = x;
            }
            double s = gamma[i];
            for (int c = 0; c < nv; c++) {
                s -= g.data[i * nv + c] * vdot0[c];
            }
            rhs[i] = s;
        }
        solve.solve(k, rhs, g, lambda);
        System.arraycopy(vdot0, 0, vdot, 0, nv);
        for (int j = 0; j < m; j++) {
            double l = lambda[j];
            if (l != 0) {
                double[] t = testResponse[j];
                for (int c = 0; c < nv; c++) {
                    vdot[c] += t[c] * l;
                }
            }
        }
        SaddlePointOps.checkFinite(vdot, nv, "Kokkevis: ", "v̇", "; check q, v and τ");
        solve.checkDroppedRows(g, gamma, vdot);
    }

    /** The Kokkevis matrix K = G H⁻¹ Gᵀ (m x m, all rows) of the last solve. Internal matrix: do not modify. */
    public DMatrixRMaj kokkevisMatrix() {
        return k;
    }

    /** The unconstrained accelerations v̇₀ = H⁻¹ (τ - C) of the last solve. Internal array: do not modify. */
    public double[] unconstrainedAcceleration() {
        return vdot0;
    }

    /** The response H⁻¹ G_jᵀ to the unit test force of row j in the last solve. Internal array: do not modify. */
    public double[] testResponse(int row) {
        return testResponse[row];
    }

    /** True if the last solve left the fast path (a small pivot of K) for the rank-revealing one. */
    public boolean lastFellBack() {
        return solve.fellBack();
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
