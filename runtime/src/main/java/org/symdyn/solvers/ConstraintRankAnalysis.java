package org.symdyn.solvers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRPDecomposition_F64;

/**
 * Rank-revealing factorisation of a constraint Jacobian: Householder QR of Gᵀ (nv x m) with column pivoting,
 * Gᵀ P = Q R, so that column k of Gᵀ P is row {@code pivots()[k]} of G, |R_kk| is non-increasing, and the rank r is
 * the number of k with |R_kk| > tol |R_00|. The first r pivoted rows are independent; each later row is, to the
 * tolerance, a combination of them with coefficients c solving R₁₁ c = R[0:r, k]. The factorisation is also the
 * null-space method's: Y = Q[:, 0:r] spans the range of Gᵀ and Z = Q[:, r:nv] its null space (G Z = 0).
 *
 * <p>All storage is allocated by the constructor; {@link #decompose} and {@link #Q()} do not allocate. Building an
 * exception (a failure path) does.
 */
public final class ConstraintRankAnalysis {
    private final int rows;
    private final int nv;
    private final QRPDecomposition_F64<DMatrixRMaj> qrp;
    private final DMatrixRMaj gt;
    private final DMatrixRMaj q;
    private final DMatrixRMaj r;
    private final int[] pivots;
    private int rank;
    private double tolerance;
    private boolean qValid;

    /** Storage for an m x nv Jacobian. */
    public ConstraintRankAnalysis(int rows, int nv) {
        this.rows = rows;
        this.nv = nv;
        qrp = DecompositionFactory_DDRM.qrp(nv, rows);
        // Rank is decided here from R's diagonal, relative to |R_00|; EJML only stops at an exactly zero column.
        qrp.setSingularThreshold(0);
        gt = new DMatrixRMaj(nv, rows);
        q = new DMatrixRMaj(nv, nv);
        r = new DMatrixRMaj(Math.min(nv, rows), rows);
        pivots = new int[rows];
        if (rows > 0) {
            // Let EJML size its internal arrays now, not during the first solve.
            qrp.decompose(gt);
            qrp.getQ(q, false);
        }
    }

    /**
     * Factorises Gᵀ for the m x nv matrix {@code g} and returns the numerical rank.
     *
     * @param relativeTolerance rows with |R_kk| ≤ tol |R_00| count as dependent
     */
    public int decompose(DMatrixRMaj g, double relativeTolerance) {
        if (g.numRows != rows || g.numCols != nv) {
            throw new IllegalArgumentException("G must be " + rows + "x" + nv + ", got " + g.numRows + "x"
                    + g.numCols);
        }
        tolerance = relativeTolerance;
        qValid = false;
        if (rows == 0) {
            rank = 0;
            return 0;
        }
        CommonOps_DDRM.transpose(g, gt);
        qrp.decompose(gt);
        qrp.getR(r, true);
        System.arraycopy(qrp.getColPivots(), 0, pivots, 0, rows);
        int min = Math.min(nv, rows);
        int limit = Math.min(min, qrp.getRank());
        double d0 = limit > 0 ? Math.abs(r.get(0, 0)) : 0;
        int k = 0;
        while (k < limit && Math.abs(r.get(k, k)) > relativeTolerance * d0) {
            k++;
        }
        rank = k;
        return rank;
    }

    /** The numerical rank of the last decomposition. */
    public int rank() {
        return rank;
    }

    /** Number of rows m of the decomposed G. */
    public int rows() {
        return rows;
    }

    /** Row order by independence: pivots()[k] is the G row in column k of Gᵀ P. Internal array, do not modify. */
    public int[] pivots() {
        return pivots;
    }

    /** R (min(nv, m) x m, upper triangular) of Gᵀ P = Q R. Internal matrix, do not modify. */
    public DMatrixRMaj R() {
        return r;
    }

    /** Q (nv x nv, orthogonal) of Gᵀ P = Q R, formed on the first call after {@link #decompose}. Internal matrix. */
    public DMatrixRMaj Q() {
        if (!qValid) {
            qrp.getQ(q, false);
            qValid = true;
        }
        return q;
    }

    /** The Java-side remedy, kept apart so that front ends without that setting can leave it out. */
    public static final String HINT = " (RankPolicy.DROP_DEPENDENT_ROWS solves with the independent rows)";

    /**
     * The exception for rank &lt; m: each dependent row with the rows it depends on, by name.
     *
     * @param rowNames names of G's rows
     */
    public ConstraintRankException redundancyException(List<String> rowNames) {
        List<String> involved = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "constraint rows are linearly dependent (rank %d of %d rows,"
                + " relative tolerance %.1e):", rank, rows, tolerance));
        for (int k = rank; k < rows; k++) {
            if (k > rank) {
                b.append(';');
            }
            describeDependency(k, rowNames, involved, b);
        }
        b.append(". The rows are redundant, or the configuration is singular for them" + HINT + ".");
        return new ConstraintRankException(ConstraintRankException.Kind.REDUNDANT, rank, rows, involved,
                b.toString());
    }

    /**
     * The exception for a dropped row whose equation the solution violates.
     *
     * @param pivotIndex the dropped row's position k ≥ rank in {@link #pivots()}
     * @param residual   its residual G_row x - b_row
     */
    public ConstraintRankException inconsistencyException(List<String> rowNames, int pivotIndex, double residual) {
        List<String> involved = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "constraint rows are inconsistent (rank %d of %d rows): the dependent"
                + " row's equation is violated by %.3e:", rank, rows, residual));
        describeDependency(pivotIndex, rowNames, involved, b);
        b.append(". The rows ask for incompatible motions (different targets along the same direction).");
        return new ConstraintRankException(ConstraintRankException.Kind.INCONSISTENT, rank, rows, involved,
                b.toString());
    }

    /**
     * Checks that a solution x of the independent rows satisfies the dropped row at pivot position k ≥ rank too:
     * with row = {@code pivots()[k]}, the residual Σ_j G_row,j x_j - b_row must stay within
     * tol (1 + |b_row| + Σ_j |G_row,j x_j|), the scale of the terms that make it up.
     *
     * @param g          the decomposed G (m x nv)
     * @param b          the rows' right-hand side (m)
     * @param x          the solution (nv)
     * @param pivotIndex the dropped row's position k ≥ rank in {@link #pivots()}
     * @param tolerance  the relative tolerance tol
     * @param rowNames   names of G's rows, for the exception
     * @throws ConstraintRankException of kind INCONSISTENT if the residual exceeds it
     */
    public void checkDroppedRow(DMatrixRMaj g, double[] b, double[] x, int pivotIndex, double tolerance,
            List<String> rowNames) {
        int row = pivots[pivotIndex];
        double s = 0;
        double scale = 1 + Math.abs(b[row]);
        for (int c = 0; c < nv; c++) {
            double t = g.data[row * nv + c] * x[c];
            s += t;
            scale += Math.abs(t);
        }
        double residual = s - b[row];
        if (!(Math.abs(residual) <= tolerance * scale)) {
            throw inconsistencyException(rowNames, pivotIndex, residual);
        }
    }

    private void describeDependency(int k, List<String> rowNames, List<String> involved, StringBuilder b) {
        String name = rowNames.get(pivots[k]);
        involved.add(name);
        // Coefficients of the dependent column on the independent ones: R₁₁ c = R[0:rank, k].
        double[] c = new double[rank];
        for (int i = rank - 1; i >= 0; i--) {
            double s = r.get(i, k);
            for (int j = i + 1; j < rank; j++) {
                s -= r.get(i, j) * c[j];
            }
            c[i] = s / r.get(i, i);
        }
        double max = 0;
        for (double x : c) {
            max = Math.max(max, Math.abs(x));
        }
        b.append(" '").append(name).append("'");
        if (max == 0 || rank == 0) {
            b.append(" is zero (it constrains nothing at this state)");
            return;
        }
        b.append(" =");
        boolean first = true;
        for (int j = 0; j < rank; j++) {
            if (Math.abs(c[j]) > 1e-8 * max) {
                String other = rowNames.get(pivots[j]);
                if (!involved.contains(other)) {
                    involved.add(other);
                }
                b.append(String.format(Locale.ROOT, first ? " %.6g * '%s'" : " %+.6g * '%s'", c[j], other));
                first = false;
            }
        }
    }
}
