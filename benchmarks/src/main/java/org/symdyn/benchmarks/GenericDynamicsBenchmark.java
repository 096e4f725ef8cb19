package org.symdyn.benchmarks;

import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;

/**
 * The generic runtime ({@link GenericDynamics}) on the shared robot models; the methods, state and JMH settings
 * are those of {@link DynamicsBenchmark}.
 */
public class GenericDynamicsBenchmark extends DynamicsBenchmark {
    @Override
    protected Dynamics create(BenchmarkStates.State state) {
        return new GenericDynamics(state.model);
    }
}
