package org.symdyn.rollout;

import org.symdyn.systems.TimeSteppingSystem;

/**
 * A rollout's controller: called before every step with the system at the step's start, it reads what it needs
 * (the time, the sensors' readings through {@link TimeSteppingSystem#reading}, the state if it is a full-state
 * controller) and writes its commands (the τ input through {@link TimeSteppingSystem#input()}, servo targets through
 * {@link TimeSteppingSystem#actuator(String, Class)}), which hold over the step.
 *
 * <p>Called on the rollout's own thread, once per step: it must not allocate (a rollout's steps allocate nothing
 * else) and must be a function of what it reads and of its own state, so that a rollout replays bit for bit.
 */
@FunctionalInterface
public interface Controller {
    /** The commands for the step starting at {@code system.time()}. */
    void control(TimeSteppingSystem system);

    /** The controller of every rollout: a fresh one per rollout (its state starts anew), built before the first step. */
    @FunctionalInterface
    interface Factory {
        /** A controller for the rollout of {@code spec} on {@code system} (already in its initial state). */
        Controller create(RolloutSpec spec, TimeSteppingSystem system);
    }

    /** No commands: the input τ stays 0 and the servos hold the targets the model declares. */
    Controller NONE = system -> {
    };
}
