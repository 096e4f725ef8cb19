package org.symdyn.contact;

import java.util.Arrays;
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
 * {@link SmallSpd}; a solve keeps the factors of the penalties it has used). Warm start: λ in gives z, and y starts
 * at −σ̃(z). The iterate returned is z (on K); by a solve that does not converge, the iterate of least violation seen.
 *
 * <p>Polishing: when no contact slides and the blocks' states (held or separated) stayed the same over an
 * iteration, the linear system of that guess is solved directly and taken if it meets the tolerance
 * ({@link #polish}); this is what ends a warm-started solve of a robot standing still after one iteration.
 * Measured (sample quadruped, 4 sticking feet, warm start, one JVM): 6.1 µs and 8 iterations before, 2.2 µs and 1
 * iteration after.
 *
 * <p>Initial ρ: {@code initialPenalty} times w̄ (default 0.1: a little under the scale of W's spectrum, measured to
 * need the fewest iterations on the analytic cases of the tests).
 *
 * <p><b>Sparse W.</b> Built with a {@link SparseNormalMatrix}, it solves problems whose W is a {@link SparseDelassus}
 * (W = Y Yᵀ, never formed; {@link ContactProblem#ContactProblem(int, SparseDelassus)}) by the same iteration: the λ
 * step (W + σ I) λ = r, σ = ρ + η, by Woodbury through the sparse Cholesky of N = σ I + Yᵀ Y (nv x nv, one block
 * per body for free bodies), analysed once per solve and factorised per ρ (two factors kept); σ = W z + b through
 * Y. Polishing solves (W_SS + ε I) x = −σ_S on the held rows S through the same structure with ε = 1e-10 w̄
 * (not the dense path's 1e-12 w̄: Woodbury's error grows as ε shrinks, see {@link SparseNormalMatrix}) and two
 * correction rounds from z; as on the dense path it is taken only if it meets the tolerance. Nothing costs m² or
 * m³: a solve costs its iterations times the rows' supports and the factor's non-zeros, plus one analysis. Such a
 * solver refuses a dense problem (it holds no m x m buffers: a sparse problem's capacity can be thousands of rows)
 * and the dense one refuses a sparse problem.
 */
public final class ProximalAdmm implements ContactSolver {
    private final double tolerance;
    private final int maxIterations;
    private final double initialPenalty;
    private final double proximal;
    /** Factors of W + (ρ₀ 5ᵏ + η) I for |k| ≤ {@value #CACHED}, valid for the current solve when {@code factored[k + CACHED]}. */
    private final double[][] factors;
    private final boolean[] factored;
    private final int[] state;
    private final int[] previous;
    private final int[] polished;
    private final int[] active;
    private final double[] trial;
    private final double[] trialSigma;
    private final double[] reduced;
    private final double[] reducedRhs;
    private final double[] reducedX;
    private final ContactReport trialReport;
    /** The factor for a ρ outside the cached range. */
    private final double[] spare;
    private final double[] z;
    private final double[] zPrev;
    /** The iterate of least violation so far, returned by a solve that does not converge. */
    private final double[] best;
    private final double[] y;
    private final double[] s;
    private final double[] rhs;
    private final double[] sigma;
    /** The sparse path's factorisation, null for a solver of dense problems. */
    private final SparseNormalMatrix normal;
    /** The sparse polish's held rows. */
    private final boolean[] held;
    /** The current factor: a dense one, or the sparse path's slot. */
    private double[] factor;
    private int slot;

    /**
     * @param capacity       the most rows a problem will have
     * @param tolerance      contact-law violation to reach, m/s
     * @param maxIterations  iterations at most
     * @param initialPenalty ρ₀ / w̄ (&gt; 0)
     * @param proximal       η / w̄ (≥ 0; small, e.g. 1e-6)
     */
    public ProximalAdmm(int capacity, double tolerance, int maxIterations, double initialPenalty, double proximal) {
        this(capacity, null, tolerance, maxIterations, initialPenalty, proximal);
    }

    /**
     * A solver of sparse problems ({@link ContactProblem#sparseDelassus()} not null) whose λ steps go through
     * {@code normal} (sized for the problems' dofs, rows, support entries and factor); it refuses dense problems and
     * holds no m x m buffers. Null: {@link #ProximalAdmm(int, double, int, double, double) a dense solver}.
     *
     * @param capacity the most rows a problem will have
     */
    public ProximalAdmm(int capacity, SparseNormalMatrix normal, double tolerance, int maxIterations,
            double initialPenalty, double proximal) {
        if (!(tolerance > 0) || maxIterations < 1 || !(initialPenalty > 0) || !(proximal >= 0)) {
            throw new IllegalArgumentException("tolerance and initial penalty must be positive, proximal >= 0,"
                    + " maxIterations >= 1");
        }
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        this.initialPenalty = initialPenalty;
        this.proximal = proximal;
        this.normal = normal;
        int n = Math.max(1, capacity);
        int dense = normal == null ? n * n : 1;
        factors = new double[2 * CACHED + 1][dense];
        factored = new boolean[2 * CACHED + 1];
        spare = new double[dense];
        held = new boolean[normal == null ? 1 : n];
        state = new int[n];
        previous = new int[n];
        polished = new int[n];
        active = new int[n];
        trial = new double[n];
        trialSigma = new double[n];
        reduced = new double[dense];
        reducedRhs = new double[n];
        reducedX = new double[n];
        trialReport = new ContactReport();
        z = new double[n];
        zPrev = new double[n];
        best = new double[n];
        y = new double[n];
        s = new double[n];
        rhs = new double[n];
        sigma = new double[n];
    }

    @Override
    public boolean solve(ContactProblem p, double[] lambda, ContactReport report) {
        report.solver = "admm";
        SparseDelassus sparse = p.sparseDelassus();
        if (sparse != null && normal == null) {
            throw new IllegalStateException("this ADMM solver factorises a dense W; for a problem with a sparse W"
                    + " (SparseDelassus) build it with a SparseNormalMatrix");
        }
        if (sparse == null && normal != null) {
            throw new IllegalStateException("this ADMM solver is built for sparse problems (a SparseNormalMatrix,"
                    + " no m x m buffers); a problem with a dense W needs new ProximalAdmm(capacity, ...)");
        }
        int m = p.rows();
        double[] W = sparse == null ? p.delassus() : null;
        double[] b = p.offset();
        double wBar = 0;
        for (int i = 0; i < m; i++) {
            wBar = Math.max(wBar, sparse == null ? W[i * m + i] : sparse.diagonal(i));
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
        double bestViolation = violation;
        System.arraycopy(z, 0, best, 0, m);
        deSaxce(p, sigma);
        for (int i = 0; i < m; i++) {
            y[i] = -(sigma[i] + s[i]);
        }
        double eta = proximal * wBar;
        Arrays.fill(factored, false);
        Arrays.fill(polished, -1);
        if (!identify(p, z, previous)) {
            Arrays.fill(previous, -1);
        }
        if (sparse != null) {
            normal.analyse(sparse);
        }
        int k = 0;
        double rho = initialPenalty * wBar;
        factor(W, m, k, rho + eta);
        int it = 0;
        while (!(violation <= tolerance) && it < maxIterations && Double.isFinite(violation)) {
            it++;
            for (int i = 0; i < m; i++) {
                rhs[i] = -(b[i] + s[i]) - y[i] + rho * z[i] + eta * lambda[i];
            }
            if (sparse == null) {
                SmallSpd.solve(factor, m, false, rhs, lambda);
            } else {
                normal.solve(slot, rhs, lambda);
            }
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
            if (violation < bestViolation) {
                bestViolation = violation;
                System.arraycopy(z, 0, best, 0, m);
            }
            deSaxce(p, sigma);
            int blocks = p.blockCount();
            boolean identified = identify(p, z, state);
            if (!(violation <= tolerance) && identified
                    && Arrays.equals(state, 0, blocks, previous, 0, blocks)
                    && !Arrays.equals(state, 0, blocks, polished, 0, blocks)) {
                // the set of held and separated blocks stayed the same for an iteration: try its linear system
                System.arraycopy(state, 0, polished, 0, blocks);
                if (sparse == null ? polish(p, z, wBar) : polishSparse(p, z, wBar)) {
                    System.arraycopy(trial, 0, z, 0, m);
                    System.arraycopy(trialSigma, 0, sigma, 0, m); // polish's σ = W z + b, not computed again
                    violation = p.measure(z, sigma, report);
                    break;
                }
            }
            if (identified) {
                System.arraycopy(state, 0, previous, 0, blocks);
            } else {
                Arrays.fill(previous, 0, blocks, -1); // a contact slides: no set to compare the next one with
            }
            // ρ stays within ρ₀ 5^±CACHED: where λ⁺ lands inside the cones the primal residual is exactly 0, and an
            // unbounded rule shrank ρ at every iteration (to 1e-105 on a box resting on four corners, where the
            // solve then stalled at a 0.013 m/s violation for 20,000 iterations)
            if (primal > 10 * dual && k < CACHED) {
                k++;
                rho *= 5;
                factor(W, m, k, rho + eta);
            } else if (dual > 10 * primal && k > -CACHED) {
                k--;
                rho /= 5;
                factor(W, m, k, rho + eta);
            }
        }
        if (!(violation <= tolerance) && !(violation <= bestViolation)) {
            // Unconverged and worse than an iterate before: return that one. With a wide cone (μ of 100 and more)
            // De Saxcé's term μ ‖σ_t‖ can drive the iteration away, to 1e150 and to NaN at μ = 1000 on a 3 x 3
            // problem that projected Gauss-Seidel solves in four sweeps.
            System.arraycopy(best, 0, z, 0, m);
            p.velocity(z, sigma);
            violation = p.measure(z, sigma, report);
        }
        System.arraycopy(z, 0, lambda, 0, m);
        report.iterations = it;
        report.penalty = rho;
        report.converged = violation <= tolerance;
        return report.converged;
    }

    private static final int SEPARATED = 0;
    private static final int HELD = 1;

    /**
     * Each block's state at z: {@link #HELD} (a bilateral row, a unilateral row with λ &gt; 0, a contact strictly
     * inside its cone: sticking) or {@link #SEPARATED} (λ = 0). Returns false when a contact is on its cone's
     * boundary (sliding: no linear system to polish with).
     */
    private static boolean identify(ContactProblem p, double[] z, int[] state) {
        for (int k = 0; k < p.blockCount(); k++) {
            int st = p.blockStart(k);
            switch (p.blockKind(k)) {
                case ContactProblem.BILATERAL -> state[k] = HELD;
                case ContactProblem.UNILATERAL -> state[k] = z[st] > 0 ? HELD : SEPARATED;
                default -> {
                    double n = z[st], a = z[st + 1], c = z[st + 2];
                    if (!(n > 0)) {
                        state[k] = SEPARATED;
                    } else if (Math.sqrt(a * a + c * c) < p.blockFriction(k) * n * (1 - 1e-9)) {
                        state[k] = HELD;
                    } else {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Polishing (as OSQP does): with the held rows S and the separated ones identified, the answer would solve
     * W_SS λ_S = −b_S (σ = 0 on held rows; sticking contacts have no De Saxcé term) with λ = 0 elsewhere. Solves it
     * from z (two corrections with W_SS regularised by 1e-12 w̄ for redundant rows) into {@code trial} and accepts
     * it only if it meets the tolerance of the full law. Where ADMM converges linearly at rate ~ ρ/(ρ + λ_min(W))
     * on a sticking set (the quadruped standing: 8 iterations, 7 refactorisations for ρ), this ends the solve
     * with one small factorisation.
     */
    private boolean polish(ContactProblem p, double[] z, double wBar) {
        int m = p.rows();
        double[] W = p.delassus();
        double[] b = p.offset();
        int a = 0;
        for (int k = 0; k < p.blockCount(); k++) {
            if (state[k] == HELD) {
                for (int r = p.blockStart(k); r < p.blockStart(k) + p.blockSize(k); r++) {
                    active[a++] = r;
                }
            }
        }
        Arrays.fill(trial, 0, m, 0);
        for (int i = 0; i < a; i++) {
            trial[active[i]] = z[active[i]];
        }
        if (a > 0) {
            for (int i = 0; i < a; i++) {
                int ri = active[i] * m;
                for (int j = 0; j < a; j++) {
                    reduced[i * a + j] = W[ri + active[j]];
                }
                reduced[i * a + i] += 1e-12 * wBar;
            }
            if (SmallSpd.factor(reduced, a, false, 0) >= 0) {
                return false;
            }
            // the correction from z, not λ from zero: with redundant rows (W_SS singular) the correction is the
            // smallest one, so λ stays by the iterate, inside its cones, instead of jumping to the least-norm λ
            for (int round = 0; round < 2; round++) {
                p.velocity(trial, trialSigma);
                for (int i = 0; i < a; i++) {
                    reducedRhs[i] = -trialSigma[active[i]];
                }
                SmallSpd.solve(reduced, a, false, reducedRhs, reducedX);
                for (int i = 0; i < a; i++) {
                    trial[active[i]] += reducedX[i];
                }
            }
        }
        p.velocity(trial, trialSigma);
        return p.measure(trial, trialSigma, trialReport) <= tolerance;
    }

    /**
     * {@link #polish} on a sparse W: the held rows' system (W_SS + ε I) x = −σ_S, ε = 1e-10 w̄, solved through
     * {@link SparseNormalMatrix#factorRows} (Woodbury with one refinement step: backward error at most 7.5e-15 at this ε, measured)
     * in two corrections from z. Measured on sticking sets of random trees at 1e-10 m/s (SparseAdmmTest): ε =
     * 1e-10 w̄ and 1e-12 w̄ with two rounds polished 20 of 20, as the dense path does; 1e-8 w̄ 19 of 20.
     */
    private boolean polishSparse(ContactProblem p, double[] z, double wBar) {
        int m = p.rows();
        Arrays.fill(held, 0, m, false);
        Arrays.fill(trial, 0, m, 0);
        boolean any = false;
        for (int k = 0; k < p.blockCount(); k++) {
            if (state[k] == HELD) {
                for (int r = p.blockStart(k); r < p.blockStart(k) + p.blockSize(k); r++) {
                    held[r] = true;
                    trial[r] = z[r];
                    any = true;
                }
            }
        }
        if (any) {
            int polishSlot = normal.factorRows(held, SPARSE_POLISH * wBar);
            for (int round = 0; round < SPARSE_POLISH_ROUNDS; round++) {
                p.velocity(trial, trialSigma);
                for (int i = 0; i < m; i++) {
                    reducedRhs[i] = held[i] ? -trialSigma[i] : 0;
                }
                normal.solve(polishSlot, reducedRhs, reducedX);
                for (int i = 0; i < m; i++) {
                    trial[i] += reducedX[i];
                }
            }
        }
        p.velocity(trial, trialSigma);
        return p.measure(trial, trialSigma, trialReport) <= tolerance;
    }

    /** The sparse polish's regularisation ε / w̄, and its correction rounds. */
    private static final double SPARSE_POLISH = 1e-10;
    private static final int SPARSE_POLISH_ROUNDS = 2;

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

    /**
     * The factor of W + shift I for ρ = ρ₀ 5ᵏ: from the cache when this solve has used this ρ before. The adaptive
     * rule often moves ρ up and back down within a solve; the sample quadruped's warm-started solve refactorised
     * at 7 of its 8 iterations, and the factorisation was 40 % of the solve's time (JMH stack profile).
     */
    private void factor(double[] W, int m, int k, double shift) {
        if (normal != null) {
            slot = normal.factor(k, shift); // ρ = ρ₀ 5ᵏ for this solve: k identifies it since the analysis
            return;
        }
        if (k < -CACHED || k > CACHED) {
            factorise(W, m, shift, spare);
            factor = spare;
            return;
        }
        double[] f = factors[k + CACHED];
        if (!factored[k + CACHED]) {
            factorise(W, m, shift, f);
            factored[k + CACHED] = true;
        }
        factor = f;
    }

    private static final int CACHED = 6;

    private static void factorise(double[] W, int m, double shift, double[] factor) {
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
