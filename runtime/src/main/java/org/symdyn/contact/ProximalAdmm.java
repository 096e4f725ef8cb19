package org.symdyn.contact;

import org.symdyn.solvers.SmallSpd;

/**
 * Proximal ADMM on the exact Coulomb cone, with De Saxcé's correction updated at every iteration: the contact
 * problem as min ½ λᵀ W λ + (b + s)ᵀ λ over the blocks' sets K, s = μ ‖σ_t‖ e_n per contact (the fixed point of which
 * is the cone complementarity problem of {@link ContactProblem}), split as λ = z, z ∈ K:
 * <pre>
 *   λ⁺ = (W + (ρ + η) I)⁻¹ (−(b + s) − y + ρ z + η λ)      (proximal term η: λ stays put along W's null space)
 *   z⁺ = P_K(λ⁺ + y / ρ)
 *   y⁺ = y + ρ (λ⁺ − z⁺)                                     (at convergence −y = σ̃, the modified velocity)
 * </pre>
 * The proximal regularisation makes each λ step well posed when W is singular (redundant contacts, a box's four
 * coplanar corners) without changing the solution set. The penalty ρ adapts: when the primal residual w̄ ‖λ − z‖
 * (w̄ the largest diagonal of W, so both residuals are velocities) exceeds ten times the dual residual ρ ‖z − z⁻‖, ρ
 * grows fivefold, in the opposite case it shrinks fivefold, and the m x m matrix is factorised again (a Cholesky,
 * {@link SmallSpd}). Warm start: λ in gives z, and y starts at −σ̃(z). The iterate returned is z (on K).
 *
 * <p>Initial ρ: {@code initialPenalty} times w̄ (default 0.1: a little under the scale of W's spectrum, measured to
 * need the fewest iterations on the analytic cases of the tests).
 */
public final class ProximalAdmm implements ContactSolver {
    private final double tolerance;
    private final int maxIterations;
    private final double initialPenalty;
    private final double proximal;
    private final double[] factor;
    private final double[] z;
    private final double[] zPrev;
    private final double[] y;
    private final double[] s;
    private final double[] rhs;
    private final double[] sigma;

    /**
     * @param capacity       the most rows a problem will have
     * @param tolerance      contact-law violation to reach, m/s
     * @param maxIterations  iterations at most
     * @param initialPenalty ρ₀ / w̄ (&gt; 0)
     * @param proximal       η / w̄ (≥ 0; small, e.g. 1e-6)
     */
    public ProximalAdmm(int capacity, double tolerance, int maxIterations, double initialPenalty, double proximal) {
        if (!(tolerance > 0) || maxIterations < 1 || !(initialPenalty > 0) || !(proximal >= 0)) {
            throw new IllegalArgumentException("tolerance and initial penalty must be positive, proximal >= 0,"
                    + " maxIterations >= 1");
        }
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        this.initialPenalty = initialPenalty;
        this.proximal = proximal;
        int n = Math.max(1, capacity);
        factor = new double[n * n];
        z = new double[n];
        zPrev = new double[n];
        y = new double[n];
        s = new double[n];
        rhs = new double[n];
        sigma = new double[n];
    }

    @Override
    public boolean solve(ContactProblem p, double[] lambda, ContactReport report) {
        report.solver = "admm";
        int m = p.rows();
        double[] W = p.delassus();
        double[] b = p.offset();
        double wBar = 0;
        for (int i = 0; i < m; i++) {
            wBar = Math.max(wBar, W[i * m + i]);
        }
        p.project(lambda);
        System.arraycopy(lambda, 0, z, 0, m);
        p.velocity(z, sigma);
        double violation = p.measure(z, sigma, report);
        if (m == 0 || violation <= tolerance || !(wBar > 0)) {
            report.iterations = 0;
            report.penalty = Double.NaN;
            report.converged = violation <= tolerance;
            return report.converged;
        }
        deSaxce(p, sigma);
        for (int i = 0; i < m; i++) {
            y[i] = -(sigma[i] + s[i]);
        }
        double rho = initialPenalty * wBar;
        double eta = proximal * wBar;
        factorise(W, m, rho + eta);
        int it = 0;
        while (!(violation <= tolerance) && it < maxIterations && !Double.isNaN(violation)) {
            it++;
            for (int i = 0; i < m; i++) {
                rhs[i] = -(b[i] + s[i]) - y[i] + rho * z[i] + eta * lambda[i];
            }
            SmallSpd.solve(factor, m, false, rhs, lambda);
            System.arraycopy(z, 0, zPrev, 0, m);
            for (int i = 0; i < m; i++) {
                z[i] = lambda[i] + y[i] / rho;
            }
            p.project(z);
            double primal = 0, dual = 0;
            for (int i = 0; i < m; i++) {
                double d = lambda[i] - z[i];
                y[i] += rho * d;
                primal = Math.max(primal, Math.abs(d));
                dual = Math.max(dual, Math.abs(z[i] - zPrev[i]));
            }
            primal *= wBar;
            dual *= rho;
            p.velocity(z, sigma);
            violation = p.measure(z, sigma, report);
            deSaxce(p, sigma);
            if (primal > 10 * dual) {
                rho *= 5;
                factorise(W, m, rho + eta);
            } else if (dual > 10 * primal) {
                rho /= 5;
                factorise(W, m, rho + eta);
            }
        }
        System.arraycopy(z, 0, lambda, 0, m);
        report.iterations = it;
        report.penalty = rho;
        report.converged = violation <= tolerance;
        return report.converged;
    }

    /** s = μ ‖σ_t‖ on each contact's normal row, 0 elsewhere. */
    private void deSaxce(ContactProblem p, double[] sigma) {
        for (int k = 0; k < p.blockCount(); k++) {
            int st = p.blockStart(k);
            if (p.blockKind(k) == ContactProblem.COULOMB) {
                double a = sigma[st + 1], c = sigma[st + 2];
                s[st] = p.blockFriction(k) * Math.sqrt(a * a + c * c);
                s[st + 1] = 0;
                s[st + 2] = 0;
            } else {
                s[st] = 0;
            }
        }
    }

    private void factorise(double[] W, int m, double shift) {
        System.arraycopy(W, 0, factor, 0, m * m);
        for (int i = 0; i < m; i++) {
            factor[i * m + i] += shift;
        }
        if (SmallSpd.factor(factor, m, false, 0) >= 0) {
            // W is positive semi-definite by construction (J H⁻¹ Jᵀ), so W + shift I with shift > 0 is definite
            throw new IllegalStateException("W + " + shift + " I is not positive definite: W is not a Delassus"
                    + " matrix (not symmetric positive semi-definite)");
        }
    }
}
