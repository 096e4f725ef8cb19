package org.symdyn.systems;

/**
 * The contact solves of a {@link TimeSteppingSystem} so far (since its last {@link TimeSteppingSystem#setState}), or the
 * impact solves of a {@link ContinuousTimeSystem} (its {@code steps} are the system's steps).
 *
 * @param steps          steps taken
 * @param unconverged    contact solves that stopped above the solver's tolerance (each still gave a step, from its
 *                       last iterate)
 * @param maxIterations  the most iterations one solve took
 * @param meanIterations iterations per solve
 * @param worstViolation the largest contact-law violation after a solve (m/s)
 */
public record SolveSummary(long steps, long unconverged, int maxIterations, double meanIterations,
        double worstViolation) {

    /** True if every solve reached the tolerance. */
    public boolean allConverged() {
        return unconverged == 0;
    }

    @Override
    public String toString() {
        return steps + " steps, " + (unconverged == 0 ? "all solves converged" : unconverged + " solves not converged")
                + ", max " + maxIterations + " iterations (mean "
                + String.format(java.util.Locale.ROOT, "%.2f", meanIterations) + "), worst violation " + worstViolation
                + " m/s";
    }
}
