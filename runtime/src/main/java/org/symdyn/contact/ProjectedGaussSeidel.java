package org.symdyn.contact;

/**
 * Block projected Gauss-Seidel on the exact Coulomb cone: sweeps over the blocks, each updated with the others held,
 * until the contact-law violation ({@link ContactReport}) is at most the tolerance.
 *
 * <p>Per block, with σ the block's current velocity:
 * <ul>
 * <li>bilateral row: λ ← λ − σ / W_ii (exact for the row);</li>
 * <li>unilateral row: λ ← max(0, λ − σ / W_ii);</li>
 * <li>contact: λ_n ← max(0, λ_n − σ_n / W_nn) first, then with σ_t updated for the new λ_n,
 * λ_t ← Π_{‖·‖ ≤ μ λ_n}(λ_t − σ_t / w_t), w_t the larger eigenvalue of the 2 x 2 tangential block. The scalar step
 * keeps the projection Euclidean, so a fixed point is exactly Coulomb's law with maximal dissipation (a sliding
 * contact's friction is opposite to its slip), not a relaxation of it.</li>
 * </ul>
 * Gauss-Seidel needs no factorisation and accepts a singular W (redundant contacts): it converges for a symmetric
 * positive semi-definite W with positive diagonal, and warm-started from the previous step it usually needs a few
 * sweeps. The violation is measured after every sweep (one W λ product).
 */
public final class ProjectedGaussSeidel implements ContactSolver {
    private final double tolerance;
    private final int maxIterations;
    private final double[] sigma;
    /** Per Coulomb block, its six distinct entries of W (sparse problems: merged once per solve, not per sweep). */
    private final double[] blockW;
    /** Per block of a sparse problem, whether its three rows share a support (read by the fused products). */
    private final boolean[] fused;
    private final double[] dots = new double[3];
    /** Per Coulomb block of a sparse problem: its six distinct entries of W and w_t. */
    private static final int BLOCK = 7;
    /** The local iteration's stop, m/s (see {@link #solveBlock}). */
    private final double localStop;

    /**
     * @param capacity      the most rows a problem will have
     * @param tolerance     contact-law violation to reach, m/s
     * @param maxIterations sweeps at most
     */
    public ProjectedGaussSeidel(int capacity, double tolerance, int maxIterations) {
        if (!(tolerance > 0) || maxIterations < 1) {
            throw new IllegalArgumentException("tolerance must be positive and maxIterations at least 1");
        }
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        sigma = new double[Math.max(1, capacity)];
        blockW = new double[BLOCK * Math.max(1, capacity)];
        localStop = 0.01 * tolerance;
        fused = new boolean[Math.max(1, capacity)];
    }

    @Override
    public boolean solve(ContactProblem p, double[] lambda, ContactReport report) {
        report.solver = "pgs";
        report.penalty = Double.NaN;
        if (p.sparseDelassus() != null) {
            return solveSparse(p, p.sparseDelassus(), lambda, report);
        }
        int m = p.rows();
        double[] W = p.delassus();
        double[] b = p.offset();
        p.project(lambda);
        p.velocity(lambda, sigma);
        double violation = p.measure(lambda, sigma, report);
        int it = 0;
        while (!(violation <= tolerance) && it < maxIterations && !Double.isNaN(violation)) {
            it++;
            for (int k = 0; k < p.blockCount(); k++) {
                int s = p.blockStart(k);
                int kind = p.blockKind(k);
                if (kind == ContactProblem.COULOMB) {
                    solveContact(W, b, lambda, s, m, p.blockFriction(k));
                } else {
                    double w = W[s * m + s];
                    if (w > 0) {
                        double l = lambda[s] - row(W, b, lambda, s, m) / w;
                        lambda[s] = kind == ContactProblem.UNILATERAL ? Math.max(0, l) : l;
                    }
                }
            }
            p.velocity(lambda, sigma);
            violation = p.measure(lambda, sigma, report);
        }
        report.iterations = it;
        report.converged = violation <= tolerance;
        return report.converged;
    }

    /**
     * The same sweeps on a sparse W ({@link SparseDelassus}): a block's velocities are y_r · s + b_r with the
     * accumulator s = Σ λ_r y_r, which each update moves by Δλ_r y_r, so a sweep costs the rows times their
     * supports (at most twelve entries for a contact between two free bodies) instead of m² for a dense W. The
     * fixed points and the stopping test are those of the dense sweeps.
     */
    private boolean solveSparse(ContactProblem p, SparseDelassus d, double[] lambda, ContactReport report) {
        double[] b = p.offset();
        int blocks = p.blockCount();
        for (int k = 0; k < blocks; k++) {
            int s = p.blockStart(k);
            fused[k] = false;
            if (p.blockKind(k) == ContactProblem.COULOMB) {
                fused[k] = d.sharesSupport3(s);
                int o = BLOCK * k;
                blockW[o] = d.diagonal(s);
                blockW[o + 1] = d.w(s, s + 1);
                blockW[o + 2] = d.w(s, s + 2);
                blockW[o + 3] = d.diagonal(s + 1);
                blockW[o + 4] = d.diagonal(s + 2);
                blockW[o + 5] = d.w(s + 1, s + 2);
                blockW[o + 6] = tangentialStep(blockW[o + 3], blockW[o + 4], blockW[o + 5]);
            }
        }
        p.project(lambda);
        p.velocity(lambda, sigma); // also sets the accumulator to Σ λ_r y_r
        double violation = p.measure(lambda, sigma, report);
        int it = 0;
        while (!(violation <= tolerance) && it < maxIterations && !Double.isNaN(violation)) {
            it++;
            for (int k = 0; k < blocks; k++) {
                int s = p.blockStart(k);
                int kind = p.blockKind(k);
                if (kind == ContactProblem.COULOMB) {
                    int o = BLOCK * k;
                    double l0 = lambda[s], l1 = lambda[s + 1], l2 = lambda[s + 2];
                    if (fused[k]) {
                        d.rowDots3(s, dots, 0);
                    } else {
                        dots[0] = d.rowDot(s);
                        dots[1] = d.rowDot(s + 1);
                        dots[2] = d.rowDot(s + 2);
                    }
                    solveBlock(blockW[o], blockW[o + 1], blockW[o + 2], blockW[o + 3], blockW[o + 4], blockW[o + 5],
                            blockW[o + 6], b[s] + dots[0], b[s + 1] + dots[1], b[s + 2] + dots[2], lambda, s,
                            p.blockFriction(k), localStop);
                    if (fused[k]) {
                        d.addToAccumulator3(s, lambda[s] - l0, lambda[s + 1] - l1, lambda[s + 2] - l2);
                    } else {
                        d.addToAccumulator(s, lambda[s] - l0);
                        d.addToAccumulator(s + 1, lambda[s + 1] - l1);
                        d.addToAccumulator(s + 2, lambda[s + 2] - l2);
                    }
                } else {
                    double w = d.diagonal(s);
                    if (w > 0) {
                        double old = lambda[s];
                        double l = old - (b[s] + d.rowDot(s)) / w;
                        lambda[s] = kind == ContactProblem.UNILATERAL ? Math.max(0, l) : l;
                        d.addToAccumulator(s, lambda[s] - old);
                    }
                }
            }
            // σ from the accumulator the sweep kept current: half the cost of p.velocity, which forms it anew
            for (int k = 0; k < blocks; k++) {
                int s = p.blockStart(k);
                if (fused[k]) {
                    d.rowDots3(s, sigma, s);
                    sigma[s] += b[s];
                    sigma[s + 1] += b[s + 1];
                    sigma[s + 2] += b[s + 2];
                } else {
                    for (int r = s, end = s + p.blockSize(k); r < end; r++) {
                        sigma[r] = b[r] + d.rowDot(r);
                    }
                }
            }
            violation = p.measure(lambda, sigma, report);
        }
        if (it > 0) {
            // the report measures the returned λ exactly, not through an accumulator updated sweep by sweep
            p.velocity(lambda, sigma);
            violation = p.measure(lambda, sigma, report);
        }
        report.iterations = it;
        report.converged = violation <= tolerance;
        return report.converged;
    }

    /**
     * The contact's own 3 x 3 problem with the other blocks held: the projected normal and tangential steps
     * repeated on the block's velocity (updated through its 3 x 3 diagonal block only) until they no longer move
     * λ, at most {@value #LOCAL_SWEEPS} times. One step per block (plain PGS) stalls near the stick-slip threshold
     * when W couples normal and tangential rows (a corner contact of a box: 500 sweeps left a 1e-8 m/s violation
     * at tan θ = μ + 0.5°); solving the block converges there in tens of sweeps.
     */
    private void solveContact(double[] W, double[] b, double[] lambda, int s, int m, double mu) {
        int t1 = s + 1, t2 = s + 2;
        double w11 = W[t1 * m + t1], w22 = W[t2 * m + t2], w12 = W[t1 * m + t2];
        solveBlock(W[s * m + s], W[s * m + t1], W[s * m + t2], w11, w22, w12, tangentialStep(w11, w22, w12),
                row(W, b, lambda, s, m), row(W, b, lambda, t1, m), row(W, b, lambda, t2, m), lambda, s, mu,
                localStop);
    }

    /** w_t, the larger eigenvalue of the tangential 2 x 2 block [w11 w12; w12 w22]. */
    private static double tangentialStep(double w11, double w22, double w12) {
        return 0.5 * (w11 + w22) + Math.sqrt(0.25 * (w11 - w22) * (w11 - w22) + w12 * w12);
    }

    /**
     * The local iteration of {@link #solveContact} from the block's six distinct entries of W, w_t
     * ({@link #tangentialStep}) and its velocities σ = (W λ + b) on its three rows; writes the block's λ. It stops
     * when a local step moves the block's velocity by at most {@code stop} (m/s, in the bound
     * w_nn |Δλ_n| + w_t (|Δλ_1| + |Δλ_2|)): a hundredth of the solve's tolerance, below which the sweep's
     * stopping test cannot tell the steps apart. (It waited for a step of exactly zero, which alternating projections
     * reach late if at all, and was half of the solve's time on a pile of 30 boxes: JFR, 204 of 375 samples.)
     */
    private static void solveBlock(double wnn, double wn1, double wn2, double w11, double w22, double w12,
            double wt, double sn, double s1, double s2, double[] lambda, int s, double mu, double stop) {
        int t1 = s + 1, t2 = s + 2;
        double ln = lambda[s], l1 = lambda[t1], l2 = lambda[t2];
        for (int it = 0; it < LOCAL_SWEEPS; it++) {
            double dn = 0;
            if (wnn > 0) {
                double n = Math.max(0, ln - sn / wnn);
                dn = n - ln;
                ln = n;
                sn += wnn * dn;
                s1 += wn1 * dn;
                s2 += wn2 * dn;
            }
            double d1 = 0, d2 = 0;
            if (wt > 0) {
                double a = l1 - s1 / wt, c = l2 - s2 / wt;
                double r = mu * ln;
                double n2 = a * a + c * c;
                if (n2 > r * r) {
                    double f = r / Math.sqrt(n2);
                    a *= f;
                    c *= f;
                }
                d1 = a - l1;
                d2 = c - l2;
                l1 = a;
                l2 = c;
                sn += wn1 * d1 + wn2 * d2;
                s1 += w11 * d1 + w12 * d2;
                s2 += w12 * d1 + w22 * d2;
            }
            if (wnn * Math.abs(dn) + wt * (Math.abs(d1) + Math.abs(d2)) <= stop) {
                break;
            }
        }
        lambda[s] = ln;
        lambda[t1] = l1;
        lambda[t2] = l2;
    }

    private static final int LOCAL_SWEEPS = 8;

    /** (W λ + b)_i. */
    private static double row(double[] W, double[] b, double[] lambda, int i, int m) {
        double s = b[i];
        int o = i * m;
        for (int j = 0; j < m; j++) {
            s += W[o + j] * lambda[j];
        }
        return s;
    }
}
