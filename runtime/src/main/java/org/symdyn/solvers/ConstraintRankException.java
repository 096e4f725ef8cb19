package org.symdyn.solvers;

import java.util.List;

/**
 * The constraint rows at a state are linearly dependent (redundant) or contradictory, so the constrained system has
 * no unique solution; the message and {@link #involvedRows()} name the rows concerned. Thrown instead of passing
 * on NaN or arbitrary values.
 */
public final class ConstraintRankException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind {
        /** Some rows are (numerically) linear combinations of others; policy FAIL. */
        REDUNDANT,
        /** Dependent rows whose right-hand sides contradict the others: no solution satisfies every row. */
        INCONSISTENT
    }

    private final Kind kind;
    private final int rank;
    private final int rows;
    private final List<String> involvedRows;

    /**
     * @param kind         redundant or inconsistent
     * @param rank         numerical rank of G
     * @param rows         number of rows of G
     * @param involvedRows names of the dependent rows and of the rows they depend on
     * @param message      the full explanation
     */
    public ConstraintRankException(Kind kind, int rank, int rows, List<String> involvedRows, String message) {
        super(message);
        this.kind = kind;
        this.rank = rank;
        this.rows = rows;
        this.involvedRows = List.copyOf(involvedRows);
    }

    /** Redundant or inconsistent. */
    public Kind kind() {
        return kind;
    }

    /** The numerical rank of G. */
    public int rank() {
        return rank;
    }

    /** The number of rows of G. */
    public int rows() {
        return rows;
    }

    /** Names of the rows involved (dependent rows first). */
    public List<String> involvedRows() {
        return involvedRows;
    }
}
