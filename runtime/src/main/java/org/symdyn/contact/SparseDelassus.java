package org.symdyn.contact;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.dynamics.RangeSpaceFactorization;

/**
 * The Delassus operator W = J H⁻¹ Jᵀ of many bodies, kept sparse: Featherstone's factor H = Lᵀ L
 * ({@link RangeSpaceFactorization}, no fill-in along the dof tree) gives H⁻¹ = L⁻¹ L⁻ᵀ, so
 * <pre>
 *   W = Y Yᵀ,   y_r = L⁻ᵀ J_rᵀ,   W_rc = y_r · y_c,   H⁻¹ Jᵀ λ = L⁻¹ (Σ_r λ_r y_r)
 * </pre>
 * and y_r keeps the support of J_r when that support is ancestor-closed: a contact's rows touch the branches of
 * its two bodies ({@link DofBranches}), and L⁻ᵀ only moves values from a dof to its ancestors. For a pile of free
 * bodies, H is block-diagonal (one 6 x 6 block per body), every y_r has at most 12 entries, W_rc is non-zero only
 * for rows that share a body, and nothing here costs more than the rows times their supports times the tree's
 * depth: no nv x nv factor, no m x m matrix. The solvers read W through {@link #w}, {@link #rowDot} and the
 * accumulator s = Σ λ_r y_r ({@link #accumulate}, {@link #addToAccumulator}), which is how block Gauss-Seidel
 * updates one contact at a time in O(its support) ({@link ProjectedGaussSeidel}); ADMM reads Y through
 * {@link #transposeTimes} and {@link #rowTimes} for its λ steps by Woodbury ({@link SparseNormalMatrix}).
 *
 * <p>The time stepper's solve-inertia operator for every model: it forms W from these rows ({@link #formDense}) for
 * the small problems the dense solvers factorise, or, with {@link TimeStepper.Builder#sparseDelassus}, leaves it
 * unformed. The dense
 * {@link InertiaSolve} (a Cholesky of H, W = J H⁻¹ Jᵀ over all nv columns) serves the acceleration-level problems.
 * Allocation happens in the constructor only; not thread-safe.
 */
public final class SparseDelassus {
    private final int nv;
    private final RangeSpaceFactorization factor;
    private final int capacity;
    private final int[] rowStart;
    private final int[] dofs;
    private final double[] y;
    private final double[] diagonal;
    private final double[] acc;
    private final double[] scratch;
    private final double[] scratch3;
    private final int[] branch;
    private final boolean[] mark;
    private final int[] posA;
    private final int[] posB;
    /** Per dof, its position in the support of the block {@link #formDense} is at, −1 off it (−1 between calls). */
    private final int[] positionInA;
    /** Per block of the problem {@link #formDense} forms, whether its rows' support is the previous block's. */
    private final boolean[] continues;
    private int rows;

    /**
     * @param dofParents the dof tree λ of the model ({@code ModelInfo.dofParents()})
     * @param maxRows    the most rows one state will have
     * @param maxEntries the most entries of all rows' supports together
     */
    public SparseDelassus(int[] dofParents, int maxRows, int maxEntries) {
        nv = dofParents.length;
        factor = new RangeSpaceFactorization(dofParents);
        capacity = maxRows;
        rowStart = new int[maxRows + 1];
        dofs = new int[Math.max(1, maxEntries)];
        y = new double[Math.max(1, maxEntries)];
        diagonal = new double[Math.max(1, maxRows)];
        acc = new double[nv];
        scratch = new double[nv];
        scratch3 = new double[3 * nv];
        branch = new int[nv];
        mark = new boolean[nv];
        posA = new int[nv];
        posB = new int[nv];
        positionInA = new int[nv];
        java.util.Arrays.fill(positionInA, -1);
        continues = new boolean[Math.max(1, maxRows)];
    }

    /** The number of dofs. */
    public int nv() {
        return nv;
    }

    /** The most rows (the constructor's {@code maxRows}). */
    public int rowCapacity() {
        return capacity;
    }

    /** The most entries of all rows' supports together (the constructor's {@code maxEntries}, at least 1). */
    public int entryCapacity() {
        return dofs.length;
    }

    /**
     * Factorises H (nv x nv, symmetric; the tree's entries of its lower triangle are read) and forgets the rows.
     *
     * @throws IllegalStateException if H is not positive definite
     */
    public void factor(DMatrixRMaj H) {
        int bad = factor.tryFactor(H);
        if (bad >= 0) {
            throw new IllegalStateException("the joint-space inertia H is not positive definite (pivot at dof " + bad
                    + "); the model's inertias or its configuration are not physical");
        }
        rows = 0;
    }

    /** x = H⁻¹ b for the last factor (x may alias b). */
    public void solve(double[] b, double[] x) {
        if (x != b) {
            System.arraycopy(b, 0, x, 0, nv);
        }
        factor.solve(x);
    }

    /**
     * out (nv x nv, row-major) = H⁻¹ of the last factor, exactly symmetric ({@link RangeSpaceFactorization#inverse});
     * u: an nv x nv workspace kept for these calls (its entries off the tree's pattern stay zero; not used where
     * the inverse is swept, one tree of 16 dofs or more).
     */
    public void inverse(double[] out, double[] u) {
        factor.inverse(out, u);
    }

    /** Forgets the rows (the factor stays). */
    public void clearRows() {
        rows = 0;
    }

    /** The rows given since the last {@link #factor} or {@link #clearRows}. */
    public int rows() {
        return rows;
    }

    /**
     * Appends the row J_r given on its support: {@code values[vo + e]} is the entry at dof {@code support[so + e]},
     * e &lt; len, the dofs in decreasing order and ancestor-closed (see {@link DofBranches}); J_r is zero elsewhere.
     *
     * @return the row's index
     */
    public int addRow(int[] support, int so, int len, double[] values, int vo) {
        for (int e = 0; e < len; e++) {
            scratch[support[so + e]] = values[vo + e];
        }
        return sweep(support, so, len);
    }

    /**
     * Appends three rows on one support (a contact's [n; t1; t2]), their values at {@code values[v0 + e]},
     * {@code values[v1 + e]}, {@code values[v2 + e]}: {@link #addRow} three times, the sweeps L⁻ᵀ of the three
     * made in one walk of the support.
     *
     * @return the first row's index
     */
    public int addRows3(int[] support, int so, int len, double[] values, int v0, int v1, int v2) {
        int start = rowStart[rows];
        if (rows + 3 > capacity || start + 3 * len > dofs.length) {
            throw new IllegalStateException("sparse Delassus capacity exceeded (" + capacity + " rows, "
                    + dofs.length + " entries)");
        }
        for (int e = 0; e < len; e++) {
            int i = support[so + e];
            scratch3[i] = values[v0 + e];
            scratch3[nv + i] = values[v1 + e];
            scratch3[2 * nv + i] = values[v2 + e];
        }
        factor.solveLtOn3(scratch3, 0, nv, 2 * nv, support, so, len);
        for (int d = 0; d < 3; d++) {
            store(support, so, len, scratch3, d * nv);
        }
        return rows - 3;
    }

    /**
     * Appends the row ±e_dof (a joint limit's, {@code sign} ±1): its support is the dof's branch.
     *
     * @return the row's index
     */
    public int addUnitRow(DofBranches branches, int dof, double sign) {
        int len = branches.branch(dof, branch, 0);
        scratch[dof] = sign; // the branch's leaf; its ancestors are zero in J_r
        return sweep(branch, 0, len);
    }

    /**
     * Appends a row given dense ({@code row[o..o+nv)}; a loop closure's or coupler's row of G): its support is
     * the ancestor closure of its non-zero entries.
     *
     * @return the row's index
     */
    public int addDenseRow(double[] row, int o, DofBranches branches) {
        for (int j = nv - 1; j >= 0; j--) {
            if (row[o + j] != 0) {
                for (int i = j; i >= 0 && !mark[i]; i = branches.parent(i)) {
                    mark[i] = true;
                }
            }
        }
        int len = 0;
        for (int i = nv - 1; i >= 0; i--) {
            if (mark[i]) {
                mark[i] = false;
                branch[len++] = i;
                scratch[i] = row[o + i];
            }
        }
        return sweep(branch, 0, len);
    }

    /** Appends the row whose values sit in scratch on {@code support[so..so+len)}, and clears them there. */
    private int sweep(int[] support, int so, int len) {
        int start = rowStart[rows];
        if (rows >= capacity || start + len > dofs.length) {
            for (int e = 0; e < len; e++) {
                scratch[support[so + e]] = 0;
            }
            throw new IllegalStateException("sparse Delassus capacity exceeded (" + capacity + " rows, "
                    + dofs.length + " entries)");
        }
        factor.solveLtOn(scratch, support, so, len);
        store(support, so, len, scratch, 0);
        return rows - 1;
    }

    /**
     * Appends the swept row held in {@code swept[o + dof]} on the support (and clears it there), with its diagonal
     * entry W_rr = y_r · y_r.
     */
    private void store(int[] support, int so, int len, double[] swept, int o) {
        int start = rowStart[rows];
        double d = 0;
        for (int e = 0; e < len; e++) {
            int i = support[so + e];
            double v = swept[o + i];
            swept[o + i] = 0;
            dofs[start + e] = i;
            y[start + e] = v;
            d += v * v;
        }
        diagonal[rows] = d;
        rows++;
        rowStart[rows] = start + len;
    }

    /** W_rr. */
    public double diagonal(int r) {
        return diagonal[r];
    }

    /** W_rc = y_r · y_c (a merge of the two supports, both in decreasing dof order). */
    public double w(int r, int c) {
        if (r == c) {
            return diagonal[r];
        }
        int i = rowStart[r], iEnd = rowStart[r + 1];
        int j = rowStart[c], jEnd = rowStart[c + 1];
        double s = 0;
        while (i < iEnd && j < jEnd) {
            int a = dofs[i], b = dofs[j];
            if (a == b) {
                s += y[i++] * y[j++];
            } else if (a > b) {
                i++;
            } else {
                j++;
            }
        }
        return s;
    }

    /**
     * W (m x m, row-major with stride m = {@link #rows()}) formed whole from the rows, block by block of
     * {@code blocks} (whose rows must be these, in order: a contact's three rows share one support), each block
     * pair over the intersection of their supports only: for a contact on a leg and one on another, the base's six
     * dofs. W is exactly symmetric. For the dense solvers (ADMM's factorisations of W + ρ I, islands) when the rows
     * are few; with many rows, the solvers read the operator instead ({@link ContactProblem#ContactProblem(int,
     * SparseDelassus)}).
     */
    public void formDense(ContactProblem blocks, double[] W) {
        int m = rows;
        if (blocks.rows() != m) {
            throw new IllegalArgumentException("the problem has " + blocks.rows() + " rows, the operator " + m);
        }
        int nk = blocks.blockCount();
        for (int k = 0; k < nk; k++) {
            continues[k] = k > 0 && sameSupport(blocks.blockStart(k - 1), blocks.blockStart(k));
        }
        for (int ka = 0; ka < nk; ka++) {
            int ra = blocks.blockStart(ka), na = blocks.blockSize(ka);
            for (int a = 1; a < na; a++) {
                if (!sameSupport(ra, ra + a)) {
                    // the block products index every row of a block by its first row's support
                    throw new IllegalArgumentException("the rows of block " + ka + " (rows " + ra + " to "
                            + (ra + na - 1) + ") do not share one support; give a block's rows on one support");
                }
            }
            int aStart = rowStart[ra], aEnd = rowStart[ra + 1];
            for (int e = aStart; e < aEnd; e++) {
                positionInA[dofs[e]] = e - aStart;
            }
            // A manifold's contacts are consecutive blocks on one support: the positions of the shared dofs are
            // found once per run of such blocks (solo12 on four round feet: 40 look-ups instead of 136).
            int n = 0;
            for (int kb = 0; kb <= ka; kb++) {
                int rb = blocks.blockStart(kb), nb = blocks.blockSize(kb);
                if (!continues[kb]) {
                    n = intersect(rb);
                }
                if (na == 3 && nb == 3) {
                    block33(ra, rb, n, W, m);
                    continue;
                }
                for (int a = 0; a < na; a++) {
                    int oa = rowStart[ra + a];
                    for (int b = 0; b < nb; b++) {
                        int ob = rowStart[rb + b];
                        double x = 0;
                        for (int i = 0; i < n; i++) {
                            x += y[oa + posA[i]] * y[ob + posB[i]];
                        }
                        W[(ra + a) * m + rb + b] = x;
                        W[(rb + b) * m + ra + a] = x;
                    }
                }
            }
            for (int e = aStart; e < aEnd; e++) {
                positionInA[dofs[e]] = -1;
            }
        }
    }

    /** True when rows r and c list the same dofs. */
    boolean sameSupport(int r, int c) {
        int len = rowStart[r + 1] - rowStart[r];
        if (rowStart[c + 1] - rowStart[c] != len) {
            return false;
        }
        for (int e = 0; e < len; e++) {
            if (dofs[rowStart[r] + e] != dofs[rowStart[c] + e]) {
                return false;
            }
        }
        return true;
    }

    /** The 3 x 3 block of two contacts: nine independent sums over the shared dofs (no chain of dependent adds). */
    private void block33(int ra, int rb, int n, double[] W, int m) {
        int a0 = rowStart[ra], a1 = rowStart[ra + 1], a2 = rowStart[ra + 2];
        int b0 = rowStart[rb], b1 = rowStart[rb + 1], b2 = rowStart[rb + 2];
        double s00 = 0, s01 = 0, s02 = 0, s10 = 0, s11 = 0, s12 = 0, s20 = 0, s21 = 0, s22 = 0;
        for (int i = 0; i < n; i++) {
            int pa = posA[i], pb = posB[i];
            double x0 = y[a0 + pa], x1 = y[a1 + pa], x2 = y[a2 + pa];
            double z0 = y[b0 + pb], z1 = y[b1 + pb], z2 = y[b2 + pb];
            s00 += x0 * z0;
            s01 += x0 * z1;
            s02 += x0 * z2;
            s10 += x1 * z0;
            s11 += x1 * z1;
            s12 += x1 * z2;
            s20 += x2 * z0;
            s21 += x2 * z1;
            s22 += x2 * z2;
        }
        put(W, m, ra, rb, s00);
        put(W, m, ra, rb + 1, s01);
        put(W, m, ra, rb + 2, s02);
        put(W, m, ra + 1, rb, s10);
        put(W, m, ra + 1, rb + 1, s11);
        put(W, m, ra + 1, rb + 2, s12);
        put(W, m, ra + 2, rb, s20);
        put(W, m, ra + 2, rb + 1, s21);
        put(W, m, ra + 2, rb + 2, s22);
    }

    private static void put(double[] W, int m, int r, int c, double x) {
        W[r * m + c] = x;
        W[c * m + r] = x;
    }

    /**
     * The positions, within the support of the row marked in {@link #positionInA} and within row rb's, of the dofs
     * both hold, into posA and posB: a look-up per dof of rb's support (a merge of the two sorted lists branched
     * three ways on every step, and was the most of forming W for four feet).
     *
     * @return their number
     */
    private int intersect(int rb) {
        int j0 = rowStart[rb], jEnd = rowStart[rb + 1];
        int n = 0;
        for (int j = j0; j < jEnd; j++) {
            int pa = positionInA[dofs[j]];
            if (pa >= 0) {
                posA[n] = pa;
                posB[n++] = j - j0;
            }
        }
        return n;
    }

    /** The first entry of row r's support (its entries are [{@code supportStart(r)}, {@code supportStart(r + 1)})). */
    int supportStart(int r) {
        return rowStart[r];
    }

    /** The dof of support entry e. */
    int entryDof(int e) {
        return dofs[e];
    }

    /** (y_r)_dof of support entry e. */
    double entryValue(int e) {
        return y[e];
    }

    /**
     * out = Yᵀ x = Σ_r x_r y_r (nv entries, overwritten), x one entry per row: the product of {@link #accumulate}
     * into a caller's vector, leaving the accumulator as it is.
     */
    public void transposeTimes(double[] x, double[] out) {
        java.util.Arrays.fill(out, 0, nv, 0);
        for (int r = 0; r < rows; r++) {
            double l = x[r];
            if (l != 0) {
                for (int e = rowStart[r], end = rowStart[r + 1]; e < end; e++) {
                    out[dofs[e]] += y[e] * l;
                }
            }
        }
    }

    /** y_r · u for a vector u of nv entries (row r of Y u). */
    public double rowTimes(int r, double[] u) {
        double s = 0;
        for (int e = rowStart[r], end = rowStart[r + 1]; e < end; e++) {
            s += y[e] * u[dofs[e]];
        }
        return s;
    }

    /** s = Σ_r λ_r y_r over the first {@link #rows()} entries of λ (the accumulator the row products read). */
    public void accumulate(double[] lambda) {
        java.util.Arrays.fill(acc, 0);
        for (int r = 0; r < rows; r++) {
            double l = lambda[r];
            if (l != 0) {
                for (int e = rowStart[r], end = rowStart[r + 1]; e < end; e++) {
                    acc[dofs[e]] += y[e] * l;
                }
            }
        }
    }

    /** s += d y_r. */
    public void addToAccumulator(int r, double d) {
        if (d != 0) {
            for (int e = rowStart[r], end = rowStart[r + 1]; e < end; e++) {
                acc[dofs[e]] += y[e] * d;
            }
        }
    }

    /** y_r · s: row r of W λ for the λ the accumulator holds. */
    public double rowDot(int r) {
        double s = 0;
        for (int e = rowStart[r], end = rowStart[r + 1]; e < end; e++) {
            s += y[e] * acc[dofs[e]];
        }
        return s;
    }

    /**
     * True when rows r, r + 1 and r + 2 list the same dofs (a contact's rows from {@link #addRows3}), so that
     * {@link #rowDots3} and {@link #addToAccumulator3} may serve them.
     */
    public boolean sharesSupport3(int r) {
        return sameSupport(r, r + 1) && sameSupport(r, r + 2);
    }

    /**
     * out[o + d] = y_{r+d} · s for d = 0, 1, 2, rows on one support ({@link #sharesSupport3}): {@link #rowDot}
     * three times in one pass over the support (each dof and accumulator entry read once, not three times; the
     * same sums in the same order, so the same bits).
     */
    public void rowDots3(int r, double[] out, int o) {
        int e0 = rowStart[r], len = rowStart[r + 1] - e0, e1 = rowStart[r + 1], e2 = rowStart[r + 2];
        double s0 = 0, s1 = 0, s2 = 0;
        for (int e = 0; e < len; e++) {
            double a = acc[dofs[e0 + e]];
            s0 += y[e0 + e] * a;
            s1 += y[e1 + e] * a;
            s2 += y[e2 + e] * a;
        }
        out[o] = s0;
        out[o + 1] = s1;
        out[o + 2] = s2;
    }

    /**
     * s += d0 y_r + d1 y_{r+1} + d2 y_{r+2}, rows on one support ({@link #sharesSupport3}): {@link #addToAccumulator}
     * three times in one pass (each entry receives the three terms in the same order, so the same bits).
     */
    public void addToAccumulator3(int r, double d0, double d1, double d2) {
        if (d0 == 0 && d1 == 0 && d2 == 0) {
            return;
        }
        int e0 = rowStart[r], len = rowStart[r + 1] - e0, e1 = rowStart[r + 1], e2 = rowStart[r + 2];
        for (int e = 0; e < len; e++) {
            int i = dofs[e0 + e];
            double a = acc[i];
            if (d0 != 0) {
                a += y[e0 + e] * d0;
            }
            if (d1 != 0) {
                a += y[e1 + e] * d1;
            }
            if (d2 != 0) {
                a += y[e2 + e] * d2;
            }
            acc[i] = a;
        }
    }

    /** dv = H⁻¹ Jᵀ λ = L⁻¹ Σ_r λ_r y_r (leaves the accumulator holding Σ λ_r y_r). */
    public void applyTranspose(double[] lambda, double[] dv) {
        accumulate(lambda);
        System.arraycopy(acc, 0, dv, 0, nv);
        factor.solveL(dv);
    }
}
