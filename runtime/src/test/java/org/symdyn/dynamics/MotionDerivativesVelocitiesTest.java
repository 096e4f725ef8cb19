package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.model.Model;

/**
 * {@link MotionDerivatives#updateVelocities} against {@link MotionDerivatives#update} at the same q and v (any v̇):
 * every pose and velocity of a point and their derivatives along q and v, and the wrench derivative, are the same bits
 * (the velocity recursion is the same arithmetic, only the accelerations' half left out), on every model of
 * {@link DynamicsPropertyTest} (floating, ball and planar joints among them); a point's accelerations come out NaN.
 */
class MotionDerivativesVelocitiesTest {
    static java.util.stream.Stream<String> models() {
        return DynamicsPropertyTest.models();
    }

    @ParameterizedTest
    @MethodSource("models")
    void velocitiesAloneAreTheSameBitsAsTheFullUpdate(String name) {
        Model model = DynamicsPropertyTest.model(name);
        int nv = model.nv();
        int nb = model.bodyCount();
        MotionDerivatives full = new MotionDerivatives(model);
        MotionDerivatives velocities = new MotionDerivatives(model);
        PointMotion a = new PointMotion(nv);
        PointMotion b = new PointMotion(nv);
        DMatrixRMaj wa = new DMatrixRMaj(nv, nv);
        DMatrixRMaj wb = new DMatrixRMaj(nv, nv);
        double[] point = {0.05, -0.11, 0.07};
        double[] wrench = {0.2, 0.1, -0.4, 1.5, -2.0, 0.5};
        Random rnd = new Random(name.hashCode());
        for (int n = 0; n < 3; n++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            double[] v = new double[nv];
            double[] vdot = new double[nv];
            for (int i = 0; i < nv; i++) {
                v[i] = rnd.nextDouble() * 4 - 2;
                vdot[i] = rnd.nextDouble() * 6 - 3;
            }
            full.update(q, v, vdot);
            velocities.updateVelocities(q, v);
            for (int body = 0; body < nb; body++) {
                full.point(body, point, a);
                velocities.point(body, point, b);
                String at = name + " body " + body;
                assertArrayEquals(a.rotation(), b.rotation(), 0, at);
                assertArrayEquals(a.position(), b.position(), 0, at);
                assertArrayEquals(a.omega(), b.omega(), 0, at);
                assertArrayEquals(a.velocity(), b.velocity(), 0, at);
                assertArrayEquals(a.dRotationDq(), b.dRotationDq(), 0, at);
                assertArrayEquals(a.dPositionDq(), b.dPositionDq(), 0, at);
                assertArrayEquals(a.dOmegaDq(), b.dOmegaDq(), 0, at);
                assertArrayEquals(a.dVelocityDq(), b.dVelocityDq(), 0, at);
                assertArrayEquals(a.dOmegaDv(), b.dOmegaDv(), 0, at);
                assertArrayEquals(a.dVelocityDv(), b.dVelocityDv(), 0, at);
                for (double[] x : new double[][] {b.omegaDot(), b.acceleration(), b.dOmegaDotDq(),
                        b.dAccelerationDq(), b.dOmegaDotDv(), b.dAccelerationDv()}) {
                    for (double y : x) {
                        assertTrue(Double.isNaN(y), at + ": an acceleration after updateVelocities is not NaN");
                    }
                }
                int carrier = body == 0 ? -1 : model.body(body).parentIndex();
                full.addWrench(body, point, wrench, carrier);
                velocities.addWrench(body, point, wrench, carrier);
            }
            full.wrenchDerivative(wa);
            velocities.wrenchDerivative(wb);
            assertArrayEquals(wa.data, wb.data, 0, name + " wrench derivative");
        }
    }
}
