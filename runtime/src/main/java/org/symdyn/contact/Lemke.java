package org.symdyn.contact;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Lemke's complementary pivoting algorithm for the linear complementarity problem LCP(q, M): find z with
 * <pre>
 *   w = M z + q,   w ≥ 0,   z ≥ 0,   wᵀ z = 0          (M n x n, any matrix; q ∈ ℝⁿ)
 * </pre>
 * <b>Method</b> (Lemke 1965; Cottle, Pang and Stone, <i>The Linear Complementarity Problem</i>, §4.4). The augmented
 * system w − M z − d z₀ = q with the covering vector d = (1, …, 1) starts from the basis of the w's; z₀ enters at
 * the level that makes every basic variable non-negative, and then each step brings in the complement of the
 * variable that just left, the leaving one chosen by the ratio test, until z₀ leaves (a solution) or no variable
 * blocks the entering one (a ray). Ties in the ratio test are broken by the <b>lexicographic rule</b>: among the rows
 * with the smallest ratio, the row i whose vector (x_B,i, (B⁻¹)_i,·) / a_i is lexicographically smallest leaves (z₀
 * first when it ties). Every row of [x_B | B⁻¹] then stays lexicographically positive, no almost-complementary
 * basis can repeat, and the algorithm terminates on degenerate problems (two contacts with the same normal, four
 * coplanar corners of a box) where the plain rule can cycle.
 *
 * <p><b>Outcomes</b> ({@link Status}), reported, never hidden:
 * <ul>
 * <li>{@link Status#SOLVED}: z and w returned, checked a posteriori ({@link #residual()});</li>
 * <li>{@link Status#RAY}: termination on a secondary ray. For a copositive-plus M (for example positive
 * semi-definite) this proves that the LCP has no solution (Cottle, Pang and Stone, §4.4); for other M
 * it means that Lemke found none;</li>
 * <li>{@link Status#CYCLING}: a basis came back (possible only through rounding: the lexicographic rule excludes it in
 * exact arithmetic);</li>
 * <li>{@link Status#ITERATION_LIMIT}: more pivots than {@link #setMaximumIterations};</li>
 * <li>{@link Status#NUMERICAL_FAILURE}: the final basis is singular, or the solution recomputed from it violates the
 * conditions by more than the tolerance (a badly conditioned problem).</li>
 * </ul>
 *
 * <p><b>Accuracy.</b> The basis inverse B⁻¹ is updated by pivoting and recomputed from B by LU with partial pivoting
 * every {@value #REFACTOR_PERIOD} pivots; at the end the basic variables are recomputed from the final basis
 * (B x_B = q by LU), so the returned z carries the rounding of one solve, not of the pivot path. A ratio-test entry
 * a_i counts only above {@code 1e-11} times the largest |a| of the column (and above the rounding level of B⁻¹ times
 * the column), so that rounding noise is never pivoted on.
 *
 * <p>Allocation-free after construction (problems of any size up to the capacity); not thread-safe.
 */
public final class Lemke {
    /** How a solve ended. */
    public enum Status {
        /** A solution z was found (and verified, see {@link #residual()}). */
        SOLVED,
        /** Termination on a secondary ray: no solution found (none exists when M is copositive-plus). */
        RAY,
        /** A basis repeated (rounding); no solution returned. */
        CYCLING,
        /** The pivot limit was reached; no solution returned. */
        ITERATION_LIMIT,
        /** The final basis is singular or its solution violates the conditions beyond the tolerance. */
        NUMERICAL_FAILURE
    }

    /** Pivots between recomputations of B⁻¹ from B. */
    public static final int REFACTOR_PERIOD = 50;

    private static final double RATIO_TIE = 1e-12;
    private static final double PIVOT_RELATIVE = 1e-11;

    private final int capacity;
    private final int[] basis; // variable basic in each row: w_i = i, z_i = n + i, z0 = 2n
    private final int[] rowOf; // row of each basic variable, -1 if non-basic (2 capacity + 1 entries)
    private final double[] binv; // B⁻¹, n x n row-major (stride n)
    private final double[] xb;
    private final double[] col;
    private final double[] a;
    private final int[] ties;
    private final int[] ties2;
    private final double[] lu; // LU workspace, n x n
    private final int[] perm;
    private final double[] rhs;
    private final long[] keys; // Zobrist keys of the variables
    private long[] history;

    private int maximumIterations;
    private double tolerance = 1e-9;
    private int iterations;
    private Status status = Status.SOLVED;
    private double residual;
    private int n;
    private int lastRay = -1;

    /** A solver for problems of at most {@code capacity} unknowns; pivot limit max(1000, 50 capacity). */
    public Lemke(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity + " must be >= 0");
        }
        this.capacity = capacity;
        int c = Math.max(1, capacity);
        basis = new int[c];
        rowOf = new int[2 * c + 1];
        binv = new double[c * c];
        xb = new double[c];
        col = new double[c];
        a = new double[c];
        ties = new int[c];
        ties2 = new int[c];
        lu = new double[c * c];
        perm = new int[c];
        rhs = new double[c];
        keys = new long[2 * c + 1];
        SplittableRandom random = new SplittableRandom(0x5eed_11a5L);
        for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextLong();
        }
        setMaximumIterations(Math.max(1000, 50 * capacity));
    }

    /** The largest problem size this instance solves. */
    public int capacity() {
        return capacity;
    }

    /** The pivot limit (allocates the cycle-detection history: a set-up call). */
    public void setMaximumIterations(int maximum) {
        if (maximum < 1) {
            throw new IllegalArgumentException("maximum iterations " + maximum + " must be >= 1");
        }
        maximumIterations = maximum;
        history = new long[maximum + 1];
    }

    public int maximumIterations() {
        return maximumIterations;
    }

    /**
     * The tolerance of the a-posteriori check, relative to the problem's scale: a solution is accepted when
     * min(z) ≥ −tol s_z, min(w) ≥ −tol s_w and |z_i w_i| ≤ tol s_z s_w, with s_z = max(1, ‖z‖∞) and
     * s_w = max(‖q‖∞, ‖M‖∞ s_z). Default 1e-9.
     */
    public void setTolerance(double tolerance) {
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance " + tolerance + " must be > 0");
        }
        this.tolerance = tolerance;
    }

    /**
     * Solves LCP(q, M) of size n.
     *
     * @param M row-major n x n with stride n (the first n² entries are read)
     * @param q n entries
     * @param z out: n entries, the solution (zeros unless {@link Status#SOLVED})
     * @param w out: n entries, M z + q (q unless {@link Status#SOLVED})
     * @return the status (also {@link #status()})
     */
    public Status solve(double[] M, int n, double[] q, double[] z, double[] w) {
        if (n < 0 || n > capacity) {
            throw new IllegalArgumentException("problem size " + n + " outside [0, " + capacity + "]");
        }
        this.n = n;
        iterations = 0;
        residual = 0;
        lastRay = -1;
        Arrays.fill(z, 0, n, 0);
        double qmin = 0;
        int first = -1;
        for (int i = 0; i < n; i++) {
            w[i] = q[i];
            if (!Double.isFinite(q[i])) {
                return finish(Status.NUMERICAL_FAILURE);
            }
            if (q[i] < qmin) {
                qmin = q[i];
                first = i;
            }
        }
        if (first < 0) {
            return finish(Status.SOLVED); // q ≥ 0: z = 0
        }
        int z0 = 2 * n;
        Arrays.fill(rowOf, 0, 2 * n + 1, -1);
        Arrays.fill(binv, 0, n * n, 0);
        long hash = 0;
        for (int i = 0; i < n; i++) {
            basis[i] = i;
            rowOf[i] = i;
            binv[i * n + i] = 1;
            xb[i] = q[i];
            hash ^= keys[i];
        }
        // first pivot: z0 enters (column −d = −1), the row of the lexicographically smallest (q_i, e_i) leaves
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (q[i] <= qmin + RATIO_TIE * Math.abs(qmin)) {
                ties[count++] = i;
            }
        }
        int r = ties[count - 1]; // among equal q_i the lexicographic rule picks the largest index
        for (int i = 0; i < n; i++) {
            a[i] = -1;
        }
        int entering = z0;
        int stepsSinceRefactor = 0;
        while (true) {
            int leaving = basis[r];
            pivot(r, entering);
            hash ^= keys[leaving] ^ keys[entering];
            history[iterations] = hash;
            iterations++;
            if (leaving == z0) {
                break;
            }
            for (int k = 0; k < iterations - 1; k++) {
                if (history[k] == hash) {
                    return finish(Status.CYCLING);
                }
            }
            if (iterations >= maximumIterations) {
                return finish(Status.ITERATION_LIMIT);
            }
            if (++stepsSinceRefactor >= REFACTOR_PERIOD) {
                stepsSinceRefactor = 0;
                if (!refactor(M, q, true)) {
                    return finish(Status.NUMERICAL_FAILURE);
                }
            }
            entering = leaving < n ? leaving + n : leaving - n;
            column(M, entering, col);
            double colNorm = 0;
            double binvNorm = 0;
            double aNorm = 0;
            for (int i = 0; i < n; i++) {
                colNorm = Math.max(colNorm, Math.abs(col[i]));
            }
            for (int i = 0; i < n; i++) {
                double s = 0;
                double rowNorm = 0;
                int o = i * n;
                for (int j = 0; j < n; j++) {
                    s += binv[o + j] * col[j];
                    rowNorm += Math.abs(binv[o + j]);
                }
                a[i] = s;
                binvNorm = Math.max(binvNorm, rowNorm);
                aNorm = Math.max(aNorm, Math.abs(s));
            }
            double floor = Math.max(PIVOT_RELATIVE * aNorm, 1e-14 * binvNorm * colNorm);
            r = ratioTest(floor);
            if (r < 0) {
                lastRay = entering;
                return finish(Status.RAY);
            }
        }
        // z0 left: recompute the basic variables from the final basis, then check
        if (!refactor(M, q, false)) {
            return finish(Status.NUMERICAL_FAILURE);
        }
        for (int i = 0; i < n; i++) {
            int var = basis[i];
            if (var >= n && var < 2 * n) {
                z[var - n] = Math.max(0, xb[i]);
            }
        }
        double zNorm = 0;
        double mNorm = 0;
        double qNorm = 0;
        for (int i = 0; i < n; i++) {
            double s = q[i];
            double rowNorm = 0;
            for (int j = 0; j < n; j++) {
                s += M[i * n + j] * z[j];
                rowNorm += Math.abs(M[i * n + j]);
            }
            w[i] = s;
            mNorm = Math.max(mNorm, rowNorm);
            qNorm = Math.max(qNorm, Math.abs(q[i]));
            zNorm = Math.max(zNorm, z[i]);
        }
        double sz = Math.max(1, zNorm);
        double sw = Math.max(qNorm, mNorm * sz);
        double worst = 0;
        for (int i = 0; i < n; i++) {
            worst = Math.max(worst, Math.max(-w[i] / sw, Math.abs(z[i] * w[i]) / (sz * sw)));
        }
        residual = worst;
        if (!(worst <= tolerance)) {
            Arrays.fill(z, 0, n, 0);
            System.arraycopy(q, 0, w, 0, n);
            return finish(Status.NUMERICAL_FAILURE);
        }
        return finish(Status.SOLVED);
    }

    private Status finish(Status s) {
        status = s;
        return s;
    }

    /** The status of the last solve. */
    public Status status() {
        return status;
    }

    /** Pivots (basis changes) of the last solve. */
    public int iterations() {
        return iterations;
    }

    /**
     * The a-posteriori violation of the last solution, relative (see {@link #setTolerance}): the largest of
     * −min(w)/s_w and |z_i w_i|/(s_z s_w); 0 when q ≥ 0.
     */
    public double residual() {
        return residual;
    }

    /**
     * After {@link Status#RAY}: the index (0 … n−1 for w_i, n … 2n−1 for z_{i−n}, 2n for z₀) of the variable whose
     * increase nothing blocked; −1 otherwise.
     */
    public int rayVariable() {
        return lastRay;
    }

    /** The augmented system's column of variable {@code var}: e_i for w_i, −M_·i for z_i, −d for z₀. */
    private void column(double[] M, int var, double[] out) {
        if (var < n) {
            Arrays.fill(out, 0, n, 0);
            out[var] = 1;
        } else if (var < 2 * n) {
            int j = var - n;
            for (int i = 0; i < n; i++) {
                out[i] = -M[i * n + j];
            }
        } else {
            Arrays.fill(out, 0, n, -1);
        }
    }

    /** The leaving row by the minimum ratio with lexicographic ties, or −1 on a ray. */
    private int ratioTest(double floor) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            if (a[i] > floor) {
                double ratio = xb[i] / a[i];
                if (ratio < best) {
                    best = ratio;
                }
            }
        }
        if (best == Double.POSITIVE_INFINITY) {
            return -1;
        }
        double band = RATIO_TIE * Math.max(Math.abs(best), 1e-300) + 1e-300;
        int count = 0;
        for (int i = 0; i < n; i++) {
            if (a[i] > floor && xb[i] / a[i] <= best + Math.max(band, RATIO_TIE * Math.abs(xb[i] / a[i]))) {
                ties[count++] = i;
            }
        }
        if (count == 1) {
            return ties[0];
        }
        int z0Row = rowOf[2 * n];
        for (int k = 0; k < count; k++) {
            if (ties[k] == z0Row) {
                return z0Row;
            }
        }
        // lexicographic: compare (B⁻¹)_i,j / a_i column by column among the remaining ties
        int[] cur = ties;
        int[] next = ties2;
        for (int j = 0; j < n && count > 1; j++) {
            double min = Double.POSITIVE_INFINITY;
            double scale = 0;
            for (int k = 0; k < count; k++) {
                int i = cur[k];
                double v = binv[i * n + j] / a[i];
                min = Math.min(min, v);
                scale = Math.max(scale, Math.abs(v));
            }
            double tie = RATIO_TIE * scale;
            int kept = 0;
            for (int k = 0; k < count; k++) {
                int i = cur[k];
                if (binv[i * n + j] / a[i] <= min + tie) {
                    next[kept++] = i;
                }
            }
            count = kept;
            int[] t = cur;
            cur = next;
            next = t;
        }
        return cur[0];
    }

    /** Pivots row r on the current column {@code a} (entering variable {@code var}). */
    private void pivot(int r, int var) {
        double p = a[r];
        int orow = r * n;
        double inv = 1 / p;
        for (int j = 0; j < n; j++) {
            binv[orow + j] *= inv;
        }
        xb[r] *= inv;
        for (int i = 0; i < n; i++) {
            if (i == r) {
                continue;
            }
            double f = a[i];
            if (f != 0) {
                int o = i * n;
                for (int j = 0; j < n; j++) {
                    binv[o + j] -= f * binv[orow + j];
                }
                xb[i] -= f * xb[r];
            }
        }
        rowOf[basis[r]] = -1;
        basis[r] = var;
        rowOf[var] = r;
    }

    /**
     * Recomputes x_B = B⁻¹ q by LU with partial pivoting of the basis matrix, and B⁻¹ itself when asked.
     *
     * @return false if B is singular
     */
    private boolean refactor(double[] M, double[] q, boolean inverse) {
        for (int c = 0; c < n; c++) {
            column(M, basis[c], col);
            for (int i = 0; i < n; i++) {
                lu[i * n + c] = col[i];
            }
        }
        double scale = 0;
        for (int i = 0; i < n * n; i++) {
            scale = Math.max(scale, Math.abs(lu[i]));
        }
        for (int k = 0; k < n; k++) {
            int p = k;
            double best = Math.abs(lu[k * n + k]);
            for (int i = k + 1; i < n; i++) {
                double v = Math.abs(lu[i * n + k]);
                if (v > best) {
                    best = v;
                    p = i;
                }
            }
            if (!(best > 1e-14 * scale)) {
                return false;
            }
            perm[k] = p;
            if (p != k) {
                for (int j = 0; j < n; j++) {
                    double t = lu[k * n + j];
                    lu[k * n + j] = lu[p * n + j];
                    lu[p * n + j] = t;
                }
            }
            double inv = 1 / lu[k * n + k];
            for (int i = k + 1; i < n; i++) {
                double f = lu[i * n + k] * inv;
                lu[i * n + k] = f;
                if (f != 0) {
                    for (int j = k + 1; j < n; j++) {
                        lu[i * n + j] -= f * lu[k * n + j];
                    }
                }
            }
        }
        luSolve(q, xb);
        if (inverse) {
            for (int c = 0; c < n; c++) {
                Arrays.fill(col, 0, n, 0);
                col[c] = 1;
                luSolve(col, rhs);
                for (int i = 0; i < n; i++) {
                    binv[i * n + c] = rhs[i];
                }
            }
        }
        return true;
    }

    private void luSolve(double[] b, double[] x) {
        if (x != b) {
            System.arraycopy(b, 0, x, 0, n);
        }
        for (int k = 0; k < n; k++) {
            int p = perm[k];
            if (p != k) {
                double t = x[k];
                x[k] = x[p];
                x[p] = t;
            }
        }
        for (int i = 0; i < n; i++) {
            double s = x[i];
            for (int j = 0; j < i; j++) {
                s -= lu[i * n + j] * x[j];
            }
            x[i] = s;
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = x[i];
            for (int j = i + 1; j < n; j++) {
                s -= lu[i * n + j] * x[j];
            }
            x[i] = s / lu[i * n + i];
        }
    }
}
