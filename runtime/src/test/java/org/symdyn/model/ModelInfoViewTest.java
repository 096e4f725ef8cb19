package org.symdyn.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.symdyn.constraints.GenericModel;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.contract.ModelInfo;
import org.symdyn.dynamics.GenericDynamics;

/** {@link Model#info()} answers as the generic implementations do, and from the model's own layout. */
class ModelInfoViewTest {
    @Test
    void infoOfAModelEqualsGenericDynamicsAndGenericModel() throws Exception {
        for (Model model : new Model[] {TestMechanisms.fourBar(), TestMechanisms.planarLeg(),
            TestMechanisms.spatialMechanism(), TestMechanisms.floatingBiped()}) {
            ModelInfo info = model.info();
            assertSame(info, model.info(), "one view per model");
            ModelInfoCheck.assertSameInfo(info, new GenericDynamics(model));
            ModelInfoCheck.assertSameInfo(info, new GenericModel(model));
            assertArrayEquals(model.dofParents(), info.dofParents());
            for (int f = 0; f < model.frames().size(); f++) {
                Frame frame = model.frames().get(f);
                double[] r = new double[9];
                double[] p = new double[3];
                info.frameOffset(f, r, p);
                assertEquals(frame.bodyIndex(), info.frameBody(f));
                assertArrayEquals(frame.pose().rotationArray(), r, 0);
                assertArrayEquals(frame.pose().translationArray(), p, 0);
            }
        }
    }

    /** The floating biped's base: quaternion after the position; every other joint has none. */
    @Test
    void quaternionIndexFollowsTheJointLayout() throws Exception {
        Model biped = TestMechanisms.floatingBiped();
        ModelInfo info = biped.info();
        assertEquals(3, info.quaternionIndex(0));
        for (int b = 1; b < biped.bodyCount(); b++) {
            assertEquals(-1, info.quaternionIndex(b), biped.body(b).name());
        }
        Model spatial = TestMechanisms.spatialMechanism();
        for (Body b : spatial.bodies()) {
            assertEquals(b.joint().type() == JointType.BALL ? b.joint().qIndex() : -1,
                    spatial.info().quaternionIndex(b.index()), b.name());
        }
    }
}
