package org.symdyn.rollout;

import java.util.Objects;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;
import org.symdyn.systems.ModelSystems;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * Builds the system one rollout runs on, over the worker thread's own model instance. Called once per rollout
 * (allocation here is set-up, not the rollout's steps): a rollout never sees what an earlier one on the same thread
 * left in a system, which is what makes its bits independent of the batch's scheduling. The runner then applies the
 * specification's parameters ({@link RolloutParameters}), seeds the sensors and sets the initial state; the factory
 * must not depend on anything but its arguments.
 */
@FunctionalInterface
public interface SystemFactory {
    /**
     * The system of the rollout of {@code spec} on {@code model} (the worker's instance; its declared parameters are
     * back at their initial values). The step the runner takes is the specification's, whatever the builder's.
     */
    TimeSteppingSystem build(ModelFunctions model, RolloutSpec spec);

    /**
     * The system {@code symdyn simulate} runs for a model file ({@link ModelSystems#timeStepping}): declared devices,
     * grounds, candidates and collision shapes (pairs of one mechanism overlapping at the rollout's q0 left out,
     * as {@code simulate} does: {@link ContactSet#withoutOverlapsAt}), joint limits, constraints, damping, Lidars. The model is read once, by the caller; each rollout builds
     * its own contact set and system from it.
     */
    static SystemFactory of(Model model) {
        Objects.requireNonNull(model, "model");
        return (functions, spec) -> {
            ContactSet contacts = ContactSet.of(model);
            if (contacts.shapeCount() > 1) {
                contacts = contacts.withoutOverlapsAt(functions, spec.q0Shared(), OVERLAP_TOLERANCE, null);
            }
            return ModelSystems.timeStepping(model, functions, contacts).timeStep(spec.timeStep()).build();
        };
    }

    /** Shapes overlapping at q0 by more than this (m) are left out of contact with each other ({@link #of}). */
    double OVERLAP_TOLERANCE = 1e-9;
}
