package org.symdyn.simulation;

import org.symdyn.constraints.ConstraintData;
import org.symdyn.solvers.Assembly;

/**
 * The projection of {@link DriftControl#PROJECTION}: after a step, q onto φ(q) = 0 and then v onto G(q) v = 0,
 * <pre>
 *   q ← argmin (q - q⁻)ᵀ W (q - q⁻) s.t. φ(q) = 0     (Assembly.assembleQ: Newton, tolerance on ‖φ‖₂)
 *   v ← argmin (v - v⁻)ᵀ W (v - v⁻) s.t. G(q) v = 0   (Assembly.assembleV, exact)
 * </pre>
 * with W = diag(weights). A position projection that does not reach its tolerance within its iteration limit
 * leaves the last iterate and is counted.
 *
 * <p>Allocated at construction; a projection allocates nothing. Not thread-safe.
 */
final class DriftProjection {
    private final Assembly assembly;
    private final double[] weights;
    private final double tolerance;
    private final int maxIterations;
    private int lastIterations;
    private long failures;
    private double maxResidual;

    DriftProjection(ConstraintData set, double[] weights, double tolerance, int maxIterations) {
        this.assembly = new Assembly(set);
        this.weights = weights;
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
    }

    /** Projects (q, v) in place. */
    void project(double[] q, double[] v) {
        boolean ok = assembly.assembleQ(q, weights, tolerance, maxIterations, q);
        lastIterations = assembly.lastIterations();
        maxResidual = Math.max(maxResidual, assembly.lastError());
        if (!ok) {
            failures++;
        }
        assembly.assembleV(q, v, weights, v);
    }

    /** Newton iterations of the last position projection (0 if it was already within tolerance). */
    int lastIterations() {
        return lastIterations;
    }

    /** Position projections that stopped at the iteration limit above the tolerance. */
    long failures() {
        return failures;
    }

    /** The largest ‖φ‖₂ a position projection ended with. */
    double maxResidual() {
        return maxResidual;
    }
}
