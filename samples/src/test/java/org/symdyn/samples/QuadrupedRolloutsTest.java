package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.symdyn.model.Model;
import org.symdyn.rollout.Controller;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.rollout.SystemFactory;
import org.symdyn.samples.generated.Arm7Dynamics;
import org.symdyn.samples.generated.QuadrupedDynamics;

/**
 * The quadruped drops of {@link QuadrupedRollouts} on the generated class: the same bits on 1 and 2 threads, every
 * rollout runs, some stand and some fall (the batch is not trivial). Default: 100 drops; exhaustive: the demo's
 * 1,000. And a model parameter of a rollout (the arm's wrist mass) does not leak into the next one on its thread.
 */
class QuadrupedRolloutsTest {

    @Test
    void aHundredDropsGiveTheSameBitsOnOneAndTwoThreads() {
        check(100);
    }

    @Test
    @Tag("exhaustive")
    void aThousandDropsGiveTheSameBitsOnOneAndTwoThreads() {
        check(1000);
    }

    private static void check(int count) {
        List<RolloutSpec> specs = QuadrupedRollouts.dropSpecs(count, 2026);
        List<RolloutResult<FinalState>> one = QuadrupedRollouts.run(specs, 1);
        List<RolloutResult<FinalState>> two = QuadrupedRollouts.run(specs, 2);
        for (int i = 0; i < count; i++) {
            RolloutResult<FinalState> a = one.get(i);
            RolloutResult<FinalState> b = two.get(i);
            assertFalse(a.failed(), () -> a.index() + ": " + a.failure());
            assertFalse(b.failed(), () -> b.index() + ": " + b.failure());
            assertTrue(a.outcome().sameBits(b.outcome()), "rollout " + i);
            assertEquals(1.0, a.outcome().time(), 1e-12);
        }
        int standing = QuadrupedRollouts.standingCount(one);
        assertEquals(standing, QuadrupedRollouts.standingCount(two));
        // gentle drops stand and the steepest fall: the criterion separates the batch
        assertTrue(standing > count / 10 && standing < count - count / 10, "standing " + standing + " of " + count);
        // a drop from 1 cm, level, on high friction stands; one tipped by 0.9 rad on ice does not
        RolloutSpec gentle = specs.get(0);
        double[] q0 = gentle.q0();
        q0[2] = QuadrupedRollouts.standingHeight() + 0.01;
        q0[3] = q0[4] = q0[5] = 0;
        q0[6] = 1;
        RolloutSpec level = new RolloutSpec(q0, gentle.v0(), gentle.parameters(), 0, 1.0, 1e-3)
                .withParameter("friction", 1.0);
        q0[3] = Math.sin(0.45);
        q0[6] = Math.cos(0.45);
        RolloutSpec tipped = new RolloutSpec(q0, gentle.v0(), gentle.parameters(), 0, 1.0, 1e-3)
                .withParameter("friction", 0.1);
        List<RolloutResult<FinalState>> pair = QuadrupedRollouts.run(List.of(level, tipped), 2);
        assertTrue(QuadrupedRollouts.standing(pair.get(0).outcome()));
        assertFalse(QuadrupedRollouts.standing(pair.get(1).outcome()));
    }

    @Test
    void aModelParameterIsPutBackBeforeTheNextRollout() throws Exception {
        Model arm = SampleModels.load("arm7.urdf");
        double[] q0 = new double[arm.nq()];
        q0[1] = 0.5;
        RolloutSpec plain = RolloutSpec.of(q0, new double[arm.nv()], 0.3, 1e-3);
        RolloutSpec heavy = plain.withParameter("wristMass", 3.0);
        Rollouts one = Rollouts.builder(Arm7Dynamics::new, SystemFactory.of(arm)).threads(1)
                .controller((s, system) -> Controller.NONE).build();
        List<RolloutResult<FinalState>> both = one.run(List.of(heavy, plain), Outcomes.finalState());
        FinalState alone = one.run(List.of(plain), Outcomes.finalState()).get(0).outcome();
        assertTrue(both.get(1).outcome().sameBits(alone), "the plain rollout after the heavy one");
        // and the parameter did act: the heavy wrist falls differently
        assertNotEquals(java.util.Arrays.toString(alone.q()), java.util.Arrays.toString(both.get(0).outcome().q()));
        List<String> names = new ArrayList<>(List.of("wristMass", "forearmLength"));
        assertEquals(names, new Arm7Dynamics().parameterNames());
    }
}
