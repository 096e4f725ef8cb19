package org.symdyn.simulation;

/**
 * Receives the simulator after every step of {@link Simulator#run} (and once for the initial state, with
 * {@link Simulator#stepCount()} 0). Read what is needed through the simulator's accessors (time, state, constraint
 * errors, energies; the last two are computed on demand), and do not modify the state arrays. To keep a run
 * allocation-free, a listener must not allocate either; {@link SimulationLog} is a preallocated recorder.
 */
@FunctionalInterface
public interface StepListener {
    /** Called after a step with the simulator at its new state. */
    void onStep(Simulator simulator);
}
