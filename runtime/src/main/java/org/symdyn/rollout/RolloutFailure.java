package org.symdyn.rollout;

import java.util.Objects;

/**
 * Why a rollout stopped before its end: what went wrong, at which step (0-based; −1 before the first) and time.
 * The batch goes on with the other rollouts.
 *
 * @param kind    the kind of failure
 * @param step    the step that failed, or −1 when the rollout could not start
 * @param time    the time at the start of that step (s; NaN when the rollout could not start)
 * @param message what was wrong, in a sentence
 */
public record RolloutFailure(Kind kind, long step, double time, String message) {
    /** What stopped a rollout. */
    public enum Kind {
        /** The specification cannot run: wrong lengths, non-finite numbers, an unknown parameter, a bad step. */
        INVALID_SPEC,
        /** The state became non-finite (NaN or infinite), e.g. from a NaN gain or an unstable step. */
        NON_FINITE_STATE,
        /**
         * The state diverged though finite: a speed above {@link RolloutWorker#RUNAWAY_SPEED} (m/s or rad/s), which
         * no mechanism reaches (a step far too large for its stiffness; {@code symdyn simulate} stops there too).
         */
        DIVERGED,
        /** A contact solve did not converge, and the batch treats that as failure ({@link Rollouts.Builder#failOnUnconverged}). */
        UNCONVERGED,
        /** The contact problem had no solution (Painlevé's paradox). */
        PAINLEVE,
        /** The system factory, the controller or the observer threw. */
        EXCEPTION
    }

    public RolloutFailure {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return kind + (step >= 0 ? " at step " + step + " (t = " + time + " s)" : "") + ": " + message;
    }
}
