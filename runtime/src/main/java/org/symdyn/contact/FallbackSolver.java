package org.symdyn.contact;

/**
 * A solver that, when its primary solver does not converge, solves the same problem again with a second one from the
 * same warm start and keeps whichever answer violates the contact law less ({@link ContactReport#contactLawViolation}),
 * a finite one over one that is not.
 * The settings' ADMM falls back on projected Gauss-Seidel this way: ADMM's last iterate of a solve that failed can be
 * far from any answer (a link swinging onto a box's edge, one dof against a contact's three rows: 500 iterations
 * ended at a violation of 61 m/s, a normal impulse 4,000 times m g h, and the link thrown back at 196 rad/s), while
 * PGS, whose every sweep stays in the cones, solved it. A solve that converges costs what the primary's does.
 * Allocates nothing after construction; not thread-safe.
 */
final class FallbackSolver implements ContactSolver {
    private final ContactSolver primary;
    private final ContactSolver fallback;
    private final double[] start;
    private final double[] first;
    private final ContactReport firstReport = new ContactReport();

    /** {@code fallback} after {@code primary}, for problems of at most {@code capacity} rows. */
    FallbackSolver(ContactSolver primary, ContactSolver fallback, int capacity) {
        this.primary = primary;
        this.fallback = fallback;
        start = new double[capacity];
        first = new double[capacity];
    }

    @Override
    public boolean solve(ContactProblem problem, double[] lambda, ContactReport report) {
        int m = problem.rows();
        System.arraycopy(lambda, 0, start, 0, m);
        if (primary.solve(problem, lambda, report)) {
            return true;
        }
        System.arraycopy(lambda, 0, first, 0, m);
        firstReport.set(report);
        System.arraycopy(start, 0, lambda, 0, m);
        boolean ok = fallback.solve(problem, lambda, report);
        if (!ok && better(firstReport.contactLawViolation(), report.contactLawViolation())) {
            System.arraycopy(first, 0, lambda, 0, m);
            report.set(firstReport);
        }
        return report.converged();
    }

    /**
     * True if violation {@code a} is the better answer's: finite where {@code b} is not (an ADMM iterate that blew
     * up to NaN must never beat projected Gauss-Seidel's finite answer), or smaller.
     */
    static boolean better(double a, double b) {
        return Double.isFinite(a) && (!Double.isFinite(b) || a < b);
    }
}
