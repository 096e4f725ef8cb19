package org.symdyn.rollout;

import java.util.Objects;
import org.symdyn.systems.SolveSummary;

/**
 * One rollout's result: its index in the batch and its specification, the outcome its observer gave (null when it
 * failed), the failure (null when it ran to its end), the steps it took and its contact solves.
 *
 * @param index   the rollout's position in the batch (0-based)
 * @param spec    its specification
 * @param outcome the observer's outcome, or null after a failure
 * @param failure why it stopped early, or null
 * @param steps   steps taken: all of them, or up to the failure, counting a step that was taken and failed after it
 *                (a non-finite state, an unconverged solve, an observer's refusal) but not one that failed before it
 *                was taken (the controller, the step itself throwing, a Painlevé case)
 * @param solves  the contact solves of those steps (null when the rollout could not start)
 * @param <R>     the outcome's type
 */
public record RolloutResult<R>(int index, RolloutSpec spec, R outcome, RolloutFailure failure, long steps,
        SolveSummary solves) {
    public RolloutResult {
        Objects.requireNonNull(spec, "spec");
        if (failure != null && outcome != null) {
            throw new IllegalArgumentException("a failed rollout has no outcome");
        }
    }

    /** True when the rollout stopped early ({@link #failure()} says why). */
    public boolean failed() {
        return failure != null;
    }
}
