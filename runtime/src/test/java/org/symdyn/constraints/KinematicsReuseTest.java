package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * The interpreter's kinematics reuse ({@link GenericDynamics#enterState()}, scoped by {@link GenericModel}'s fused
 * evaluations and by {@link ConstraintData}) changes no bit: H, C, G and γ of a bound set equal those of separate
 * calls on an interpreter that recomputes everything, over a sequence of states that repeats q with a new v, v with a
 * new q, and q changed in place in the same array; rows of the model file and rows added in code.
 */
class KinematicsReuseTest {
    @Test
    void scopedEvaluationEqualsSeparateCallsBitForBit() throws Exception {
        for (Model model : new Model[] {TestMechanisms.spatialMechanism(), TestMechanisms.floatingBiped()}) {
            ConstraintSet.Builder b = ConstraintSet.builder(model);
            int last = model.bodyCount() - 1;
            b.addContact(last, new double[] {0.05, -0.02, 0.1}, new double[] {0, 0, 1});
            b.addContact(last, new double[] {0.05, -0.02, 0.1}, new double[] {1, 0, 0});
            b.addContact(1, new double[] {-0.1, 0.03, 0.02}, new double[] {0, 0.6, 0.8});
            ConstraintSet set = b.build();
            ConstraintData data = set.bind(new GenericModel(model));
            // The reference: every quantity from its own call on an interpreter that never reuses.
            ConstraintData reference = set.bind(new GenericDynamics(model), new GenericDynamics(model),
                    new GenericConstraints(model));
            int nv = model.nv();
            int m = data.size();
            Random rnd = new Random(11);
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(nv, 1, rnd);
            for (int n = 0; n < 30; n++) {
                switch (n % 3) {
                    case 0 -> v = TestMechanisms.random(nv, 1, rnd); // same q, new v
                    case 1 -> System.arraycopy(TestMechanisms.randomQ(model, rnd), 0, q, 0, q.length); // in place
                    default -> {
                    } // both unchanged
                }
                data.computeSystem(q, v);
                reference.computeSystem(q, v);
                String at = model.name() + " state " + n;
                assertArrayEquals(reference.H().data, data.H().data, 0.0, at + " H");
                assertArrayEquals(reference.C(), data.C(), 0.0, at + " C");
                assertArrayEquals(reference.G().data, data.G().data, 0.0, at + " G");
                assertArrayEquals(reference.gamma(), data.gamma(), 0.0, at + " gamma");
                data.computeImpulseSystem(q);
                reference.computeImpulseSystem(q);
                assertArrayEquals(reference.G().data, data.G().data, 0.0, at + " impulse G");
                assertEquals(m, data.G().numRows);
            }
        }
    }

    @Test
    void reuseFollowsTheValuesNotTheArray() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        GenericDynamics reusing = new GenericDynamics(model);
        GenericDynamics fresh = new GenericDynamics(model);
        reusing.enterState();
        Random rnd = new Random(5);
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(model.nv(), 1, rnd);
        double[] point = {0.01, 0.02, -0.2};
        double[] a = new double[3];
        double[] e = new double[3];
        DMatrixRMaj ja = new DMatrixRMaj(3, model.nv());
        DMatrixRMaj je = new DMatrixRMaj(3, model.nv());
        for (int n = 0; n < 20; n++) {
            if (n % 2 == 1) {
                q[2 + n % 5] += 0.1; // the same array, new content (a joint angle or a base coordinate)
                v[n % model.nv()] -= 0.3;
            }
            for (int body = 0; body < model.bodyCount(); body++) {
                reusing.pointBiasAcceleration(q, v, body, point, a);
                fresh.pointBiasAcceleration(q, v, body, point, e);
                assertArrayEquals(e, a, 0.0, "bias " + n + " body " + body);
                reusing.pointVelocity(q, v, body, point, a);
                fresh.pointVelocity(q, v, body, point, e);
                assertArrayEquals(e, a, 0.0, "velocity " + n + " body " + body);
                reusing.pointJacobian(q, body, point, ja);
                fresh.pointJacobian(q, body, point, je);
                assertArrayEquals(je.data, ja.data, 0.0, "Jacobian " + n + " body " + body);
            }
            DMatrixRMaj ha = new DMatrixRMaj(model.nv(), model.nv());
            DMatrixRMaj he = new DMatrixRMaj(model.nv(), model.nv());
            reusing.massMatrix(q, ha);
            fresh.massMatrix(q, he);
            assertArrayEquals(he.data, ha.data, 0.0, "H " + n);
        }
        reusing.exitState();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, reusing::exitState,
                "an unbalanced exitState is refused");
    }
}
