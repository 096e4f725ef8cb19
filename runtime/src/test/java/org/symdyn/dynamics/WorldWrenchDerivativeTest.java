package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * {@link MotionDerivatives#wrenchDerivative} of wrenches fixed in the world (the closed form in one inertial frame)
 * against the directional RNEA backward pass it replaced for them, kept for wrenches carried by a body
 * ({@link MotionDerivatives#carriedWrenchDerivative}), on every model of {@link DynamicsPropertyTest} (floating, ball,
 * planar, prismatic and continuous joints among them) and a built model of two trees, with one to five wrenches on
 * random bodies (roots and leaves, several on one body) at random points; then with every floating base 1 km from the
 * world's origin. Tolerance 1e-12 of the largest entry (at least 1): two arithmetics of one quantity, measured at most
 * 2.4e-14 apart (1.5e-13 1 km away before the lever arms were composed from the root rather than differenced).
 */
class WorldWrenchDerivativeTest {
    private static final int STATES = 8;
    private static final double TOL = 1e-12;
    static final String TWO_TREES = "built:two_trees";

    static Stream<String> models() {
        return Stream.concat(DynamicsPropertyTest.models(), Stream.of(TWO_TREES));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void closedFormMatchesTheDirectionalPass(String name) throws Exception {
        Model model = name.equals(TWO_TREES) ? twoTrees() : DynamicsPropertyTest.model(name);
        int nv = model.nv();
        int nb = model.bodyCount();
        MotionDerivatives md = new MotionDerivatives(model);
        DMatrixRMaj closed = new DMatrixRMaj(nv, nv);
        DMatrixRMaj directional = new DMatrixRMaj(nv, nv);
        Random rnd = new Random(name.hashCode());
        double[] worst = new double[2];
        double largest = 0;
        for (int s = 0; s < 2 * STATES; s++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            if (s >= STATES) {
                DynamicsPropertyTest.farFromTheOrigin(model, q);
            }
            double[] v = random(rnd, nv, 2);
            if (s % 2 == 0) {
                md.updateVelocities(q, v);
            } else {
                md.update(q, v, random(rnd, nv, 3));
            }
            int wrenches = 1 + rnd.nextInt(5);
            for (int e = 0; e < wrenches; e++) {
                double[] w = random(rnd, 6, 1);
                for (int c = 3; c < 6; c++) {
                    w[c] *= 20;
                }
                md.addWrench(rnd.nextInt(nb + 1) - 1, random(rnd, 3, 0.3), w, -1);
            }
            md.wrenchDerivative(closed);
            md.carriedWrenchDerivative(directional);
            double scale = 1;
            double diff = 0;
            for (int i = 0; i < nv * nv; i++) {
                scale = Math.max(scale, Math.abs(directional.data[i]));
                diff = Math.max(diff, Math.abs(closed.data[i] - directional.data[i]));
            }
            worst[s / STATES] = Math.max(worst[s / STATES], diff / scale);
            largest = Math.max(largest, scale);
        }
        System.out.printf("%-40s world wrench derivative: worst relative difference %.2e near the origin, %.2e 1 km"
                + " away (largest entry %.1f)%n", name, worst[0], worst[1], largest);
        assertTrue(largest > 1, name + ": the wrenches should give entries above 1");
        assertTrue(worst[0] <= TOL && worst[1] <= TOL, name + ": " + worst[0] + ", " + worst[1]);
    }

    /** One wrench carried by a body among world ones: the whole set takes the directional pass. */
    @Test
    void aCarriedWrenchTakesTheDirectionalPass() throws Exception {
        Model model = twoTrees();
        int nv = model.nv();
        MotionDerivatives md = new MotionDerivatives(model);
        Random rnd = new Random(7);
        md.updateVelocities(DynamicsPropertyTest.randomConfiguration(model, rnd), random(rnd, nv, 1));
        md.addWrench(1, random(rnd, 3, 0.2), random(rnd, 6, 5), -1);
        md.addWrench(2, random(rnd, 3, 0.2), random(rnd, 6, 5), 1);
        DMatrixRMaj all = new DMatrixRMaj(nv, nv);
        DMatrixRMaj directional = new DMatrixRMaj(nv, nv);
        md.wrenchDerivative(all);
        md.carriedWrenchDerivative(directional);
        assertArrayEquals(directional.data, all.data, 0);
    }

    /** Two floating trees: a trunk with a ball-jointed arm and a revolute hand; a wheel on a prismatic slide. */
    static Model twoTrees() throws ModelException {
        return Model.builder("two_trees")
                .addBody("trunk", "world", "root", JointType.FLOATING, null, Pose.IDENTITY,
                        inertia(6.0, 0.02, -0.01, 0.03))
                .addBody("arm", "trunk", "shoulder", JointType.BALL, null, pose(0.2, 0.1, 0.15, 0.3, 0, 0.2),
                        inertia(1.0, 0, 0.01, -0.12))
                .addBody("hand", "arm", "wrist", JointType.REVOLUTE, new double[] {0, 1, 0},
                        pose(0, 0, -0.25, 0, 0, 0.4), inertia(0.4, 0.03, 0, -0.05))
                .addBody("cart", "world", "cart_root", JointType.FLOATING, null, pose(2, -1, 0.5, 0, 0, 0),
                        inertia(3.0, -0.05, 0.02, 0))
                .addBody("slide", "cart", "rail", JointType.PRISMATIC, new double[] {1, 0.2, 0},
                        pose(0.1, 0, 0.2, 0, 0.2, 0), inertia(0.5, 0, 0, 0.02))
                .addBody("wheel", "slide", "axle", JointType.CONTINUOUS, new double[] {0, 0, 1},
                        pose(0, 0.1, 0, 1.0, 0, 0), inertia(0.3, 0, 0, 0))
                .build();
    }

    private static RigidBodyInertia inertia(double m, double cx, double cy, double cz) {
        return RigidBodyInertia.of(m, new double[] {cx, cy, cz}, 0.02 * m, 0.001, -0.002, 0.025 * m, 0.0015,
                0.03 * m);
    }

    private static Pose pose(double x, double y, double z, double roll, double pitch, double yaw) {
        return Pose.fromXyzRpy(new double[] {x, y, z}, new double[] {roll, pitch, yaw});
    }

    private static double[] random(Random rnd, int n, double scale) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = scale * (2 * rnd.nextDouble() - 1);
        }
        return x;
    }
}
