package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The contract's "values are not checked: NaN in, NaN out", on the interpreter as on generated classes: a NaN angle
 * made the generic forward dynamics throw an ArithmeticException that blamed the body's inertia ("not positive
 * along its joint (D = NaN)").
 */
class NanStateTest {
    @Test
    void aNanInTheStateGivesNanOutOfTheForwardDynamics() throws Exception {
        RigidBodyInertia box = RigidBodyInertia.of(1, new double[] {0, 0, -0.1}, 0.01, 0, 0, 0.01, 0, 0.01);
        Model m = Model.builder("mixed")
                .addBody("base", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box)
                .addBody("a", "base", "ball", JointType.BALL, null, Pose.translation(0, 0, -0.2), box)
                .addBody("b", "a", "hinge", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.translation(0, 0, -0.2),
                        box)
                .build();
        GenericDynamics d = new GenericDynamics(m);
        double[] q = {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0.3};
        double[] v = new double[m.nv()];
        double[] tau = new double[m.nv()];
        for (int k : new int[] {11, 7, 0}) {
            double[] bad = q.clone();
            bad[k] = Double.NaN;
            double[] qdd = new double[m.nv()];
            d.forwardDynamics(bad, v, tau, qdd);
            boolean anyNan = false;
            for (double x : qdd) {
                anyNan |= Double.isNaN(x);
            }
            assertTrue(anyNan, "q[" + k + "] NaN: " + java.util.Arrays.toString(qdd));
        }
    }
}
