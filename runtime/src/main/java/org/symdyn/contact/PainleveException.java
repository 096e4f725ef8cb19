package org.symdyn.contact;

/**
 * Thrown by {@link AccelerationProblemSolver#solveOrThrow()} when the acceleration-level problem has no solution
 * or possibly several (Painlevé's paradox: sliding friction large enough to make the normal "effective mass"
 * negative), or when the pivoting solver failed. The message names the contacts; {@link #solution()} is the
 * solver's (NaN-filled) answer with its status.
 */
public final class PainleveException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final transient AccelerationSolution solution;

    PainleveException(AccelerationSolution solution) {
        super(solution.status() + ": " + solution.message());
        this.solution = solution;
    }

    /** The solver's answer (status, uniqueness test, Lemke's status and pivots). */
    public AccelerationSolution solution() {
        return solution;
    }

    /** The status: {@link AccelerationSolution.Status#INCONSISTENT}, NON_UNIQUE or FAILED. */
    public AccelerationSolution.Status status() {
        return solution.status();
    }
}
