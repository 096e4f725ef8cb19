package org.symdyn.contact;

/**
 * Solves a {@link ContactProblem}: λ in is the warm start (zeros for a cold start), λ out the solution or, when the
 * solve did not converge, the last iterate projected on the blocks' sets; the report says which. Implementations
 * allocate nothing after construction and are not thread-safe.
 */
public interface ContactSolver {
    /**
     * @param lambda {@link ContactProblem#rows()} entries: warm start in, solution out
     * @param report filled on every call
     * @return true if the solve converged (the same as {@link ContactReport#converged()})
     */
    boolean solve(ContactProblem problem, double[] lambda, ContactReport report);
}
