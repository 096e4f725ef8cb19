package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.model.Model;

/**
 * {@link MotionDerivatives#updateVelocities} and {@link MotionDerivatives#update} (closed forms in one inertial frame)
 * against the directional recursions through each direction's subtree ({@link MotionDerivatives#updateDirectional}) at
 * the same q, v and v̇: every pose, velocity and acceleration of a point and their derivatives along q and v (the
 * accelerations' after update), and the derivative of wrenches carried by bodies, agree within 1e-12 of the largest
 * entry (at least 1) on every model of {@link DynamicsPropertyTest} (floating, ball and planar joints among
 * them) and a built model of two floating trees, also with the floating bases 1 km away; a point's accelerations come
 * out NaN.
 */
class MotionDerivativesVelocitiesTest {
    static java.util.stream.Stream<String> models() {
        return WorldWrenchDerivativeTest.models();
    }

    @ParameterizedTest
    @MethodSource("models")
    void velocitiesAloneAgreeWithTheFullUpdate(String name) throws Exception {
        Model model = name.equals(WorldWrenchDerivativeTest.TWO_TREES) ? WorldWrenchDerivativeTest.twoTrees()
                : DynamicsPropertyTest.model(name);
        int nv = model.nv();
        int nb = model.bodyCount();
        MotionDerivatives full = new MotionDerivatives(model);
        MotionDerivatives velocities = new MotionDerivatives(model);
        MotionDerivatives closed = new MotionDerivatives(model);
        PointMotion a = new PointMotion(nv);
        PointMotion b = new PointMotion(nv);
        PointMotion c = new PointMotion(nv);
        DMatrixRMaj wa = new DMatrixRMaj(nv, nv);
        DMatrixRMaj wb = new DMatrixRMaj(nv, nv);
        double[] point = {0.05, -0.11, 0.07};
        double[] wrench = {0.2, 0.1, -0.4, 1.5, -2.0, 0.5};
        Random rnd = new Random(name.hashCode());
        double worst = 0;
        double worstFull = 0;
        DMatrixRMaj wc = new DMatrixRMaj(nv, nv);
        for (int n = 0; n < 6; n++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            if (n >= 3) {
                DynamicsPropertyTest.farFromTheOrigin(model, q);
            }
            double[] v = new double[nv];
            double[] vdot = new double[nv];
            for (int i = 0; i < nv; i++) {
                v[i] = rnd.nextDouble() * 4 - 2;
                vdot[i] = rnd.nextDouble() * 6 - 3;
            }
            full.updateDirectional(q, v, vdot);
            velocities.updateVelocities(q, v);
            closed.update(q, v, vdot);
            for (int body = 0; body < nb; body++) {
                full.point(body, point, a);
                velocities.point(body, point, b);
                closed.point(body, point, c);
                String at = name + " body " + body;
                // the closed-form full update, every array, accelerations included
                assertArrayEquals(a.rotation(), c.rotation(), 0, at);
                assertArrayEquals(a.position(), c.position(), 0, at);
                double[][] mine = {c.omega(), c.velocity(), c.omegaDot(), c.acceleration(), c.dRotationDq(),
                    c.dPositionDq(), c.dOmegaDq(), c.dVelocityDq(), c.dOmegaDotDq(), c.dAccelerationDq(),
                    c.dOmegaDotDv(), c.dAccelerationDv()};
                double[][] theirs = {a.omega(), a.velocity(), a.omegaDot(), a.acceleration(), a.dRotationDq(),
                    a.dPositionDq(), a.dOmegaDq(), a.dVelocityDq(), a.dOmegaDotDq(), a.dAccelerationDq(),
                    a.dOmegaDotDv(), a.dAccelerationDv()};
                for (int k = 0; k < mine.length; k++) {
                    worstFull = Math.max(worstFull, close(theirs[k], mine[k], at + " closed-form update, array " + k));
                }
                assertArrayEquals(a.rotation(), b.rotation(), 0, at);
                assertArrayEquals(a.position(), b.position(), 0, at);
                worst = Math.max(worst, close(a.omega(), b.omega(), at + " omega"));
                worst = Math.max(worst, close(a.velocity(), b.velocity(), at + " velocity"));
                worst = Math.max(worst, close(a.dRotationDq(), b.dRotationDq(), at + " dRotationDq"));
                worst = Math.max(worst, close(a.dPositionDq(), b.dPositionDq(), at + " dPositionDq"));
                worst = Math.max(worst, close(a.dOmegaDq(), b.dOmegaDq(), at + " dOmegaDq"));
                worst = Math.max(worst, close(a.dVelocityDq(), b.dVelocityDq(), at + " dVelocityDq"));
                for (double[] x : new double[][] {b.omegaDot(), b.acceleration(), b.dOmegaDotDq(),
                        b.dAccelerationDq(), b.dOmegaDotDv(), b.dAccelerationDv()}) {
                    for (double y : x) {
                        assertTrue(Double.isNaN(y), at + ": an acceleration after updateVelocities is not NaN");
                    }
                }
                int carrier = body == 0 ? -1 : model.body(body).parentIndex();
                full.addWrench(body, point, wrench, carrier);
                velocities.addWrench(body, point, wrench, carrier);
                closed.addWrench(body, point, wrench, carrier);
            }
            full.wrenchDerivative(wa);
            velocities.wrenchDerivative(wb);
            worst = Math.max(worst, close(wa.data, wb.data, name + " wrench derivative"));
            closed.wrenchDerivative(wc);
            worstFull = Math.max(worstFull, close(wa.data, wc.data, name + " wrench derivative after update"));
        }
        System.out.printf("%-40s against the directional update: velocities alone %.2e, closed-form update %.2e%n",
                name, worst, worstFull);
    }

    /** The largest difference over the largest entry (at least 1); fails past 1e-12. */
    private static double close(double[] expected, double[] actual, String what) {
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            diff = Math.max(diff, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(diff <= 1e-12 * scale, what + ": " + diff + " of " + scale);
        return diff / scale;
    }
}
