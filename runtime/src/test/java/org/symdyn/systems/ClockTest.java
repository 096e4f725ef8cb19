package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contact.ContactSet;
import org.symdyn.model.Model;

/**
 * A system's clock counts equal steps on the grid t_0 + k h: 1,000 steps of 1 ms end at 1.0 s, where their sum is
 * 1.0000000000000007 (a rollout's final time), for time stepping and for the continuous system's steps with events.
 */
class ClockTest {
    private static final Model BOX = SystemModels.box(1, 0.05, 0.5, 0);
    private static final double[] RESTING = {0, 0, 0.05, 0, 0, 0, 1};

    @Test
    void timeSteppingCountsOnTheGrid() {
        GenericModel d = new GenericModel(BOX);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(d).contacts(ContactSet.of(BOX)).timeStep(1e-3).build();
        sys.setState(0, RESTING, new double[6]);
        for (int k = 0; k < 1000; k++) {
            sys.step();
        }
        assertEquals(1.0, sys.time());
        sys.step(0.5e-3); // another length restarts the grid where the clock is
        assertEquals(1.0005, sys.time());
        sys.setState(0.25, RESTING, new double[6]);
        for (int k = 0; k < 300; k++) {
            sys.step(1e-3);
        }
        assertEquals(0.25 + 300 * 1e-3, sys.time());
    }

    @Test
    void continuousStepsWithEventsCountOnTheGrid() {
        GenericModel d = new GenericModel(BOX);
        ContinuousTimeSystem sys = ContinuousTimeSystem.builder(d).contacts(ContactSet.of(BOX)).build();
        sys.setState(0, RESTING, new double[6]);
        for (int k = 0; k < 1000; k++) {
            sys.step(1e-3);
        }
        assertEquals(1.0, sys.time());
    }
}
