package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.GenericConstraints;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.contract.FrameKinematics;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.urdf.UrdfReader;
import org.symdyn.testing.SharedFiles;

/**
 * Every generated quantity against the generic runtime on random states, for every public model. The bar is 1e-10
 * relative to the largest entry of the quantity (at least 1): both evaluate the same equations in a different
 * order, so they differ by rounding amplified by the conditioning of the recursion; forward dynamics is compared
 * against the same scale of H⁻¹ applied to τ - C.
 */
class GeneratedVsGenericTest {
    static final int STATES = 200;
    static final double TOL = 1e-10;

    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("double_pendulum_simple.urdf", false),
                Arguments.of("ur5_robot.urdf", false),
                Arguments.of("kinova.urdf", false),
                Arguments.of("iiwa14_no_collision.urdf", false),
                Arguments.of("panda.urdf", false),
                Arguments.of("hyq_no_sensors.urdf", true),
                Arguments.of("solo12.urdf", true),
                Arguments.of("anymal.urdf", true),
                Arguments.of("romeo_small.urdf", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void generatedMatchesGeneric(String file, boolean floating) throws Exception {
        Path path = SharedFiles.model(file);
        Model model = UrdfReader.read(path, new UrdfReader.Options(floating, false));
        CodeGenerator.GeneratedClass gen = new CodeGenerator().generate(model,
                new CodeGenerator.Options("org.symdyn.generated", "Model" + Math.abs(file.hashCode())));
        InProcessCompiler.Compiled compiled = InProcessCompiler.compile(gen);
        Object instance = compiled.type().getDeclaredConstructor().newInstance();
        compare(model, (Dynamics) instance, (ConstraintFunctions) instance, new Random(file.hashCode()));
        comparePoses(model, (FrameKinematics) instance, new Random(file.hashCode() + 1));
    }

    /** Every frame's pose: rotation entries and positions are O(1), so 1e-10 absolute is the same bar. */
    static void comparePoses(Model model, FrameKinematics generated, Random rnd) {
        GenericDynamics generic = new GenericDynamics(model);
        double[] r1 = new double[9];
        double[] r2 = new double[9];
        double[] p1 = new double[3];
        double[] p2 = new double[3];
        for (int n = 0; n < 20; n++) {
            double[] q = randomConfiguration(model, rnd);
            for (int f = 0; f < model.frames().size(); f++) {
                generic.framePose(q, f, r1, p1);
                generated.framePose(q, f, r2, p2);
                assertClose(r1, r2, "rotation of " + model.frames().get(f).name());
                assertClose(p1, p2, "position of " + model.frames().get(f).name());
            }
        }
    }

    /** The team's sample models (in this repository), loops included. */
    static Stream<Path> sampleModels() throws java.io.IOException {
        Path dir = Path.of("..", "samples", "src", "main", "symdyn");
        try (Stream<Path> files = java.nio.file.Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".urdf")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sampleModels")
    void generatedMatchesGenericOnSamples(Path file) throws Exception {
        Model model = UrdfReader.read(file);
        CodeGenerator.GeneratedClass gen = new CodeGenerator().generate(model,
                new CodeGenerator.Options("org.symdyn.generated", "Sample" + Math.abs(file.hashCode())));
        Object instance = InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
        compare(model, (Dynamics) instance, (ConstraintFunctions) instance, new Random(file.hashCode()));
        comparePoses(model, (FrameKinematics) instance, new Random(file.hashCode() + 1));
    }

    static void compare(Model model, Dynamics generated, ConstraintFunctions gc, Random rnd) {
        GenericDynamics generic = new GenericDynamics(model);
        int nv = model.nv();
        DMatrixRMaj h1 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj h2 = new DMatrixRMaj(nv, nv);
        double[] a1 = new double[nv];
        double[] a2 = new double[nv];
        for (int n = 0; n < STATES; n++) {
            double[] q = randomConfiguration(model, rnd);
            double[] v = random(rnd, nv, 2);
            double[] vd = random(rnd, nv, 3);
            double[] tau = random(rnd, nv, 10);
            generic.massMatrix(q, h1);
            generated.massMatrix(q, h2);
            assertClose(h1.data, h2.data, "H");
            generic.biasForces(q, v, a1);
            generated.biasForces(q, v, a2);
            assertClose(a1, a2, "C");
            generic.gravityForces(q, a1);
            generated.gravityForces(q, a2);
            assertClose(a1, a2, "g");
            generic.inverseDynamics(q, v, vd, a1);
            generated.inverseDynamics(q, v, vd, a2);
            assertClose(a1, a2, "tau");
            generic.forwardDynamics(q, v, tau, a1);
            generated.forwardDynamics(q, v, tau, a2);
            assertClose(a1, a2, "vdot");
        }
        if (model.constraints().isEmpty()) {
            assertEquals(0, gc.constraintRows());
            return;
        }
        GenericConstraints ref = new GenericConstraints(model);
        int rows = ref.constraintRows();
        assertEquals(rows, gc.constraintRows());
        DMatrixRMaj g1 = new DMatrixRMaj(rows, nv);
        DMatrixRMaj g2 = new DMatrixRMaj(rows, nv);
        double[] r1 = new double[rows];
        double[] r2 = new double[rows];
        for (int n = 0; n < STATES; n++) {
            double[] q = randomConfiguration(model, rnd);
            double[] v = random(rnd, nv, 2);
            ref.constraintJacobian(q, g1);
            gc.constraintJacobian(q, g2);
            assertClose(g1.data, g2.data, "G");
            ref.gamma(q, v, r1);
            gc.gamma(q, v, r2);
            assertClose(r1, r2, "gamma");
            ref.positionError(q, r1);
            gc.positionError(q, r2);
            assertClose(r1, r2, "phi");
            ref.velocityError(q, v, r1);
            gc.velocityError(q, v, r2);
            assertClose(r1, r2, "phidot");
        }
    }

    static void assertClose(double[] expected, double[] actual, String what) {
        double scale = 1;
        for (double x : expected) {
            scale = Math.max(scale, Math.abs(x));
        }
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(worst <= TOL * scale, what + ": worst difference " + worst + " against scale " + scale);
    }

    static double[] random(Random rnd, int n, double range) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (rnd.nextDouble() * 2 - 1) * range;
        }
        return x;
    }

    /** Joint positions within limits (else ±π), unit quaternions, positions in [-1, 1]. */
    static double[] randomConfiguration(Model model, Random rnd) {
        double[] q = new double[model.nq()];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            int k = j.qIndex();
            switch (j.type()) {
                case FLOATING -> {
                    for (int i = 0; i < 3; i++) {
                        q[k + i] = rnd.nextDouble() * 2 - 1;
                    }
                    unitQuaternion(rnd, q, k + 3);
                }
                case BALL -> unitQuaternion(rnd, q, k);
                case PLANAR -> {
                    q[k] = rnd.nextDouble() * 2 - 1;
                    q[k + 1] = rnd.nextDouble() * 2 - 1;
                    q[k + 2] = (rnd.nextDouble() * 2 - 1) * Math.PI;
                }
                default -> {
                    boolean limited = j.hasLimits() && j.upper() > j.lower();
                    double lo = limited ? j.lower() : (j.type() == JointType.PRISMATIC ? -0.5 : -Math.PI);
                    double hi = limited ? j.upper() : (j.type() == JointType.PRISMATIC ? 0.5 : Math.PI);
                    q[k] = lo + rnd.nextDouble() * (hi - lo);
                }
            }
        }
        return q;
    }

    static void unitQuaternion(Random rnd, double[] q, int at) {
        double n = 0;
        for (int i = 0; i < 4; i++) {
            q[at + i] = rnd.nextGaussian();
            n += q[at + i] * q[at + i];
        }
        n = Math.sqrt(n);
        for (int i = 0; i < 4; i++) {
            q[at + i] /= n;
        }
    }
}
