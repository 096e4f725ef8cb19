package org.symdyn.contact;

import java.util.Arrays;

/**
 * The complementarity problem that the acceleration-level problem ({@link AccelerationProblemSolver}) and the
 * linearised-cone time step ({@link LinearizedConeStep}) share, in one unknown x ∈ ℝⁿᵛ (v̇, or v⁺):
 * <pre>
 *   H x = H x₀ + Σ_j z_j r̃_jᵀ + Gᵀ f_G                         (x₀ = the motion without constraint forces)
 *   normal rows i:         0 ≤ w_i = n_i x + k_i     ⊥ f_N,i ≥ 0
 *   friction rows e:       0 ≤ w_e = d_e x + k_e + λ_c(e) ⊥ f_D,e ≥ 0   (2r rows ±d per contact c with friction)
 *   cone rows c:           0 ≤ μ_c f_N,c − Σ_{e ∈ c} f_D,e ⊥ λ_c ≥ 0    (Anitescu and Potra 1997)
 *   limit rows l:          0 ≤ w_l = l_l x + k_l     ⊥ f_L,l ≥ 0
 *   bilateral rows g:      0 = g_g x + k_g,           f_G free
 * </pre>
 * Row r of the <i>constraint</i> rows R (m x nv) maps x to w; the <i>force</i> rows R̃ are the same except for a
 * sliding contact's normal row, n − μ q (the seed's Nᵀ − μQᵀ). Layout of the m rows: normals [0, nc), friction
 * [nc, nc + nd), limits, then bilateral rows.
 *
 * <p><b>Reduction.</b> With X = H⁻¹ R̃ᵀ (one {@link InertiaSolve#solve} per row), K = R X and b = R x₀ + k, the
 * bilateral rows are eliminated through the Schur complement S = K_gg = G H⁻¹ Gᵀ (LDLᵀ; a pivot below 1e-12 of
 * the largest diagonal is a redundant bilateral row, its force set to 0, the least-norm choice on that row):
 * M_u = K_uu − K_ug S⁻¹ K_gu, q_u = b_u − K_ug S⁻¹ b_g, and the LCP in z = [f_N; f_D; f_L; λ] is solved by
 * {@link Lemke}. Then f_G = −S⁻¹ (b_g + K_gu z_u) and x = x₀ + X [z_u; f_G].
 *
 * <p>Allocation-free after construction; not thread-safe. Package-private: the two public solvers own one each.
 */
final class FrictionLcp {
    final int nv;
    final int capacity;
    final int contactCapacity;
    /** Constraint rows R and force rows R̃, row-major, nv columns. */
    final double[] rowV;
    final double[] rowF;
    /** k per row. */
    final double[] offset;
    /** x₀. */
    final double[] free;
    /** Per normal row: μ, first friction row, friction row count (0: no friction rows). */
    final double[] mu;
    final int[] frictionStart;
    final int[] frictionCount;

    int nc;
    int nd;
    int nu;
    int nb;

    final Lemke lemke;
    private final InertiaSolve inertia;
    private final double[] x; // X rows: H⁻¹ r̃_j
    private final double[] K;
    private final double[] b;
    private final double[] s; // S factor (nb x nb)
    private final boolean[] dropped;
    private final double[] sInvKgu; // S⁻¹ K_gu (nb x mu), column by column
    private final double[] sInvBg;
    private final double[] tmpG;
    private final double[] tmpG2;
    private final double[] rowA;
    private final double[] rowB;
    final double[] M;
    final double[] q;
    final double[] z;
    final double[] w;
    /** f_G (nb). */
    final double[] bilateralForce;
    /** The solution x. */
    final double[] solution;
    /** w = R x + k recomputed from the solution (m entries; the bilateral rows' residuals). */
    final double[] rowValue;
    int lcpSize;
    int lambdaCount;
    int droppedBilateral;
    double bilateralResidual;

    /**
     * @param nv              velocity count
     * @param rows            the most rows m (normal + friction + limit + bilateral)
     * @param contacts        the most normal rows
     * @param inertia         the caller's solve-inertia operator, factored before {@link #solve}
     */
    FrictionLcp(int nv, int rows, int contacts, InertiaSolve inertia) {
        this.nv = nv;
        this.capacity = rows;
        this.contactCapacity = contacts;
        this.inertia = inertia;
        int m = Math.max(1, rows);
        rowV = new double[m * nv];
        rowF = new double[m * nv];
        offset = new double[m];
        free = new double[nv];
        mu = new double[Math.max(1, contacts)];
        frictionStart = new int[Math.max(1, contacts)];
        frictionCount = new int[Math.max(1, contacts)];
        x = new double[m * nv];
        K = new double[m * m];
        b = new double[m];
        s = new double[m * m];
        dropped = new boolean[m];
        sInvKgu = new double[m * m];
        sInvBg = new double[m];
        tmpG = new double[m];
        tmpG2 = new double[m];
        rowA = new double[nv];
        rowB = new double[nv];
        int n = rows + contacts;
        M = new double[Math.max(1, n * n)];
        q = new double[Math.max(1, n)];
        z = new double[Math.max(1, n)];
        w = new double[Math.max(1, n)];
        bilateralForce = new double[m];
        solution = new double[nv];
        rowValue = new double[m];
        lemke = new Lemke(n);
    }

    /** Row count m. */
    int rows() {
        return nc + nd + nu + nb;
    }

    /** Unilateral row count (normal, friction, limit). */
    int unilateralRows() {
        return nc + nd + nu;
    }

    /** Sets the row counts (rows, offsets, friction structure and x₀ are then filled by the caller). */
    void setSizes(int contacts, int frictionRows, int limitRows, int bilateralRows) {
        if (contacts > contactCapacity || contacts + frictionRows + limitRows + bilateralRows > capacity) {
            throw new IllegalStateException("contact problem capacity exceeded: " + contacts + " contacts, "
                    + (contacts + frictionRows + limitRows + bilateralRows) + " rows (capacity " + contactCapacity
                    + " contacts, " + capacity + " rows)");
        }
        nc = contacts;
        nd = frictionRows;
        nu = limitRows;
        nb = bilateralRows;
    }

    /**
     * Builds and solves the LCP (see the class comment).
     *
     * @return Lemke's status; on {@link Lemke.Status#SOLVED} {@link #solution}, {@link #z} (its first
     *         {@link #unilateralRows()} entries: f_N, f_D, f_L; then λ) and {@link #bilateralForce} hold the answer
     */
    Lemke.Status solve() {
        int m = rows();
        int unil = unilateralRows();
        for (int j = 0; j < m; j++) {
            System.arraycopy(rowF, j * nv, rowA, 0, nv);
            inertia.solve(rowA, rowB);
            System.arraycopy(rowB, 0, x, j * nv, nv);
        }
        for (int i = 0; i < m; i++) {
            int oi = i * nv;
            double bi = offset[i];
            for (int c = 0; c < nv; c++) {
                bi += rowV[oi + c] * free[c];
            }
            b[i] = bi;
            for (int j = 0; j < m; j++) {
                int oj = j * nv;
                double sum = 0;
                for (int c = 0; c < nv; c++) {
                    sum += rowV[oi + c] * x[oj + c];
                }
                K[i * m + j] = sum;
            }
        }
        // Schur complement of the bilateral rows
        droppedBilateral = 0;
        if (nb > 0) {
            factorBilateral(m, unil);
            for (int g = 0; g < nb; g++) {
                tmpG[g] = b[unil + g];
            }
            solveBilateral(tmpG, sInvBg);
            for (int j = 0; j < unil; j++) {
                for (int g = 0; g < nb; g++) {
                    tmpG[g] = K[(unil + g) * m + j];
                }
                solveBilateral(tmpG, tmpG2);
                for (int g = 0; g < nb; g++) {
                    sInvKgu[g * m + j] = tmpG2[g];
                }
            }
        }
        lambdaCount = 0;
        for (int c = 0; c < nc; c++) {
            if (frictionCount[c] > 0) {
                lambdaCount++;
            }
        }
        int n = unil + lambdaCount;
        lcpSize = n;
        for (int i = 0; i < unil; i++) {
            double qi = b[i];
            for (int g = 0; g < nb; g++) {
                qi -= K[i * m + unil + g] * sInvBg[g];
            }
            q[i] = qi;
            for (int j = 0; j < unil; j++) {
                double v = K[i * m + j];
                for (int g = 0; g < nb; g++) {
                    v -= K[i * m + unil + g] * sInvKgu[g * m + j];
                }
                M[i * n + j] = v;
            }
            for (int j = unil; j < n; j++) {
                M[i * n + j] = 0;
            }
        }
        int l = unil;
        for (int c = 0; c < nc; c++) {
            int count = frictionCount[c];
            if (count == 0) {
                continue;
            }
            int start = frictionStart[c];
            Arrays.fill(M, l * n, l * n + n, 0);
            M[l * n + c] = mu[c];
            for (int e = start; e < start + count; e++) {
                M[e * n + l] = 1;
                M[l * n + e] = -1;
            }
            q[l] = 0;
            l++;
        }
        Lemke.Status status = lemke.solve(M, n, q, z, w);
        if (status != Lemke.Status.SOLVED) {
            return status;
        }
        // f_G = −S⁻¹ (b_g + K_gu z_u)
        for (int g = 0; g < nb; g++) {
            double f = -sInvBg[g];
            for (int j = 0; j < unil; j++) {
                f -= sInvKgu[g * m + j] * z[j];
            }
            bilateralForce[g] = f;
        }
        System.arraycopy(free, 0, solution, 0, nv);
        for (int j = 0; j < m; j++) {
            double f = j < unil ? z[j] : bilateralForce[j - unil];
            if (f != 0) {
                int o = j * nv;
                for (int c = 0; c < nv; c++) {
                    solution[c] += f * x[o + c];
                }
            }
        }
        bilateralResidual = 0;
        for (int i = 0; i < m; i++) {
            int o = i * nv;
            double v = offset[i];
            for (int c = 0; c < nv; c++) {
                v += rowV[o + c] * solution[c];
            }
            rowValue[i] = v;
            if (i >= unil) {
                bilateralResidual = Math.max(bilateralResidual, Math.abs(v));
            }
        }
        return status;
    }

    /** The LCP's diagonal scale of the normal rows (for relative tests): max |M_ii| over normal rows, ≥ tiny. */
    double normalScale() {
        double scale = 0;
        for (int i = 0; i < nc; i++) {
            scale = Math.max(scale, Math.abs(M[i * lcpSize + i]));
        }
        return Math.max(scale, Double.MIN_NORMAL);
    }

    /** LDLᵀ of S = K_gg (lower triangle), pivots below 1e-12 max diag dropped. */
    private void factorBilateral(int m, int mu) {
        double max = 0;
        for (int g = 0; g < nb; g++) {
            max = Math.max(max, K[(mu + g) * m + mu + g]);
        }
        double floor = 1e-12 * max;
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j <= i; j++) {
                s[i * nb + j] = K[(mu + i) * m + mu + j];
            }
        }
        for (int j = 0; j < nb; j++) {
            double d = s[j * nb + j];
            for (int p = 0; p < j; p++) {
                if (!dropped[p]) {
                    double ljp = s[j * nb + p];
                    d -= ljp * ljp * s[p * nb + p];
                }
            }
            dropped[j] = !(d > floor);
            if (dropped[j]) {
                droppedBilateral++;
                s[j * nb + j] = 0;
                for (int i = j + 1; i < nb; i++) {
                    s[i * nb + j] = 0;
                }
                continue;
            }
            s[j * nb + j] = d;
            for (int i = j + 1; i < nb; i++) {
                double v = s[i * nb + j];
                for (int p = 0; p < j; p++) {
                    if (!dropped[p]) {
                        v -= s[i * nb + p] * s[j * nb + p] * s[p * nb + p];
                    }
                }
                s[i * nb + j] = v / d;
            }
        }
    }

    /** y = S⁺ r by the factor (dropped rows: y = 0 there). */
    private void solveBilateral(double[] r, double[] y) {
        for (int i = 0; i < nb; i++) {
            double v = r[i];
            for (int p = 0; p < i; p++) {
                v -= s[i * nb + p] * y[p];
            }
            y[i] = dropped[i] ? 0 : v;
        }
        for (int i = 0; i < nb; i++) {
            y[i] = dropped[i] ? 0 : y[i] / s[i * nb + i];
        }
        for (int i = nb - 1; i >= 0; i--) {
            if (dropped[i]) {
                y[i] = 0;
                continue;
            }
            double v = y[i];
            for (int p = i + 1; p < nb; p++) {
                v -= s[p * nb + i] * y[p];
            }
            y[i] = v;
        }
    }
}
