package org.symdyn.rollout;

import org.symdyn.contact.ContactReport;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * What a rollout keeps: sees the system after every step and gives the rollout's outcome at the end (its final
 * state, a decimated trajectory, a cost, the first contact time, or anything a caller reduces it to; {@link Outcomes}
 * has the common ones). One observer per rollout, made by the batch's factory; {@link #afterStep} runs on the
 * rollout's thread once per step and must not allocate (preallocate in {@link #start}).
 *
 * @param <R> the outcome's type
 */
public interface RolloutObserver<R> {
    /** Before the first step, at the initial state (the sensors not yet read). */
    default void start(RolloutSpec spec, TimeSteppingSystem system) {
    }

    /**
     * After step {@code step} (0-based) of the rollout, at the system's new state.
     *
     * @param report the step's contact solve (live: read it now)
     */
    void afterStep(long step, TimeSteppingSystem system, ContactReport report);

    /** The outcome, after the last step (not called for a rollout that failed). */
    R finish(TimeSteppingSystem system);
}
