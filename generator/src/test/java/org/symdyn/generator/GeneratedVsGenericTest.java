package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.constraints.GenericConstraints;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.FrameKinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelInfoCheck;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.testing.SharedFiles;

/**
 * Every generated quantity against the generic runtime ({@link GenericModel}) on random states, for every public model
 * (fixed base as read; the quadrupeds and the humanoid also with a floating base) and every sample model: dynamics,
 * constraint functions, the three fused evaluations, and every {@link org.symdyn.contract.Kinematics} method for
 * every body with random points. The bar is 1e-10 relative to the largest entry of the quantity (at least 1): both
 * evaluate the same equations in a different order, so they differ by rounding amplified by the conditioning of the
 * recursion; forward dynamics is compared against the same scale of H⁻¹ applied to τ - C. Outputs given to the
 * generated class are filled with NaN first, so an entry it fails to write fails the comparison.
 *
 * <p>The generated kinematics is also checked against itself by finite differences ({@link #checkDerivatives}):
 * the point Jacobian against central differences of point positions along the integrators' tangent-space update
 * ({@link StateSpace#integrate}: rotation vectors for quaternion joints, base coordinates for a floating base's
 * position), and J̇ v against central differences of J v along q̇ at fixed v. The worst relative difference of each
 * quantity over the run is printed at the end.
 */
class GeneratedVsGenericTest {
    static final int STATES = 200;
    static final double TOL = 1e-10;
    /** States of the finite-difference checks, their step and their bar (relative, truncation and rounding). */
    static final int FD_STATES = 20;
    static final double FD_STEP = 1e-5;
    static final double FD_TOL = 1e-7;
    /** Worst relative difference per quantity over every comparison of the run. */
    static final Map<String, Double> WORST = new ConcurrentSkipListMap<>();

    @AfterAll
    static void printWorst() {
        WORST.forEach((what, worst) -> System.out.printf(Locale.ROOT, "%-40s worst relative difference %.2e%n", what,
                worst));
    }

    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("double_pendulum_simple.urdf", false),
                Arguments.of("ur5_robot.urdf", false),
                Arguments.of("kinova.urdf", false),
                Arguments.of("iiwa14_no_collision.urdf", false),
                Arguments.of("panda.urdf", false),
                Arguments.of("hyq_no_sensors.urdf", false),
                Arguments.of("hyq_no_sensors.urdf", true),
                Arguments.of("solo12.urdf", false),
                Arguments.of("solo12.urdf", true),
                Arguments.of("anymal.urdf", false),
                Arguments.of("anymal.urdf", true),
                Arguments.of("romeo_small.urdf", false));
    }

    /** The models only the exhaustive run generates (the floating humanoid: the largest class, 20 s of a run). */
    static Stream<Arguments> exhaustiveModels() {
        return Stream.of(Arguments.of("romeo_small.urdf", true));
    }

    @Tag("exhaustive")
    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("exhaustiveModels")
    void generatedMatchesGenericOnLargeModels(String file, boolean floating) throws Exception {
        generatedMatchesGeneric(file, floating);
    }

    @ParameterizedTest(name = "{0} floating={1}")
    @MethodSource("models")
    void generatedMatchesGeneric(String file, boolean floating) throws Exception {
        Path path = SharedFiles.model(file);
        Model model = UrdfReader.read(path, new UrdfReader.Options(floating, false));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Model" + Math.abs(file.hashCode())));
        ModelFunctions generated = instance(gen);
        ModelInfoCheck.assertSameInfo(model.info(), generated);
        checkAll(model, generated, file.hashCode() + (floating ? 1 : 0));
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
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Sample" + Math.abs(file.hashCode())));
        ModelFunctions generated = instance(gen);
        ModelInfoCheck.assertSameInfo(model.info(), generated);
        checkAll(model, generated, file.hashCode());
    }

    /**
     * Rows whose G and γ the generator writes in closed form (contacts, loops) on frames that no sample has
     * ({@link CodeGeneratorTest#skewRows}), with a fixed and with a floating base.
     */
    @ParameterizedTest(name = "floating={0}")
    @ValueSource(booleans = {false, true})
    void generatedMatchesGenericOnSkewLoopAndContactRows(boolean floating) throws Exception {
        Model model = CodeGeneratorTest.skewRows(floating);
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Skew" + (floating ? "Floating" : "Fixed")));
        ModelFunctions generated = instance(gen);
        checkAll(model, generated, floating ? 71 : 72);
    }

    /** A new instance of a generated class: it implements the whole contract. */
    static ModelFunctions instance(GeneratedClass gen) throws Exception {
        return (ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
    }

    /** Every comparison and check of this class, seeded from {@code seed}. */
    static void checkAll(Model model, ModelFunctions generated, long seed) {
        compare(model, generated, new Random(seed));
        comparePoses(model, generated, new Random(seed + 1));
        compareKinematics(model, generated, new Random(seed + 2));
        compareFused(model, generated, new Random(seed + 3));
        checkDerivatives(model, generated, new Random(seed + 4));
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
                Arrays.fill(r2, Double.NaN);
                Arrays.fill(p2, Double.NaN);
                generated.framePose(q, f, r2, p2);
                assertClose(r1, r2, "frame pose rotation", model.frames().get(f).name());
                assertClose(p1, p2, "frame pose position", model.frames().get(f).name());
            }
        }
    }

    /**
     * Every {@link org.symdyn.contract.Kinematics} method for every body, with a new random point in [-0.5, 0.5]³
     * (body coordinates) per body and state.
     */
    static void compareKinematics(Model model, ModelFunctions generated, Random rnd) {
        GenericModel generic = new GenericModel(model);
        int nv = model.nv();
        double[] x1 = new double[9];
        double[] x2 = new double[9];
        double[] y1 = new double[6];
        double[] y2 = new double[6];
        DMatrixRMaj j1 = new DMatrixRMaj(3, nv);
        DMatrixRMaj j2 = new DMatrixRMaj(3, nv);
        DMatrixRMaj b1 = new DMatrixRMaj(6, nv);
        DMatrixRMaj b2 = new DMatrixRMaj(6, nv);
        double[] p3a = new double[3];
        double[] p3b = new double[3];
        for (int n = 0; n < STATES; n++) {
            double[] q = randomConfiguration(model, rnd);
            double[] v = random(rnd, nv, 2);
            double[] vd = random(rnd, nv, 3);
            for (int b = 0; b < model.bodyCount(); b++) {
                String body = model.body(b).name();
                double[] point = random(rnd, 3, 0.5);
                generic.bodyPose(q, b, x1, p3a);
                generated.bodyPose(q, b, nan(x2), nan(p3b));
                assertClose(x1, x2, "body pose rotation", body);
                assertClose(p3a, p3b, "body pose position", body);
                generic.bodyVelocity(q, v, b, y1);
                generated.bodyVelocity(q, v, b, nan(y2));
                assertClose(y1, y2, "body velocity", body);
                generic.bodyAcceleration(q, v, vd, b, y1);
                generated.bodyAcceleration(q, v, vd, b, nan(y2));
                assertClose(y1, y2, "body acceleration", body);
                generic.pointPosition(q, b, point, p3a);
                generated.pointPosition(q, b, point, nan(p3b));
                assertClose(p3a, p3b, "point position", body);
                generic.pointVelocity(q, v, b, point, p3a);
                generated.pointVelocity(q, v, b, point, nan(p3b));
                assertClose(p3a, p3b, "point velocity", body);
                generic.pointAcceleration(q, v, vd, b, point, p3a);
                generated.pointAcceleration(q, v, vd, b, point, nan(p3b));
                assertClose(p3a, p3b, "point acceleration", body);
                generic.pointBiasAcceleration(q, v, b, point, p3a);
                generated.pointBiasAcceleration(q, v, b, point, nan(p3b));
                assertClose(p3a, p3b, "point bias acceleration", body);
                generic.pointJacobian(q, b, point, j1);
                generated.pointJacobian(q, b, point, nan(j2));
                assertClose(j1.data, j2.data, "point Jacobian", body);
                generic.bodyJacobian(q, b, b1);
                generated.bodyJacobian(q, b, nan(b2));
                assertClose(b1.data, b2.data, "body Jacobian", body);
            }
        }
    }

    /** The three fused evaluations against the generic model's separate calls. */
    static void compareFused(Model model, ModelFunctions generated, Random rnd) {
        GenericModel generic = new GenericModel(model);
        int nv = model.nv();
        int rows = generic.constraintRows();
        assertEquals(rows, generated.constraintRows());
        DMatrixRMaj h1 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj h2 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj g1 = new DMatrixRMaj(rows, nv);
        DMatrixRMaj g2 = new DMatrixRMaj(rows, nv);
        double[] c1 = new double[nv];
        double[] c2 = new double[nv];
        double[] r1 = new double[rows];
        double[] r2 = new double[rows];
        double[] e1 = new double[rows];
        double[] e2 = new double[rows];
        double[] d1 = new double[rows];
        double[] d2 = new double[rows];
        for (int n = 0; n < STATES; n++) {
            double[] q = randomConfiguration(model, rnd);
            double[] v = random(rnd, nv, 2);
            generic.constrainedSystem(q, v, h1, c1, g1, r1);
            generated.constrainedSystem(q, v, nan(h2), nan(c2), nan(g2), nan(r2));
            assertClose(h1.data, h2.data, "constrained system H", "");
            assertClose(c1, c2, "constrained system C", "");
            assertClose(g1.data, g2.data, "constrained system G", "");
            assertClose(r1, r2, "constrained system gamma", "");
            generic.constrainedSystem(q, v, h1, c1, g1, r1, e1, d1);
            generated.constrainedSystem(q, v, nan(h2), nan(c2), nan(g2), nan(r2), nan(e2), nan(d2));
            assertClose(h1.data, h2.data, "constrained system (phi) H", "");
            assertClose(c1, c2, "constrained system (phi) C", "");
            assertClose(g1.data, g2.data, "constrained system (phi) G", "");
            assertClose(r1, r2, "constrained system (phi) gamma", "");
            assertClose(e1, e2, "constrained system (phi) phi", "");
            assertClose(d1, d2, "constrained system (phi) phidot", "");
            generic.impulseSystem(q, h1, g1);
            generated.impulseSystem(q, nan(h2), nan(g2));
            assertClose(h1.data, h2.data, "impulse system H", "");
            assertClose(g1.data, g2.data, "impulse system G", "");
        }
    }

    /**
     * The generated kinematics against its own derivatives, for every body with a random point: the point Jacobian
     * against central differences of the point position along each tangent direction e_k, (p(q ⊕ h e_k) -
     * p(q ⊕ -h e_k)) / 2h; J̇ v against central differences of J(q) v along q̇ at fixed v,
     * (J(q ⊕ h v) v - J(q ⊕ -h v) v) / 2h; and the consistency of velocities and accelerations with the Jacobians:
     * ṗ = J v, [ω; v_o] = J_body v, p̈ = J v̇ + J̇ v. Differences are relative to the scale of the quantity (at
     * least 1); the bar {@link #FD_TOL} covers the O(h²) truncation and the rounding amplified by 1/h.
     */
    static void checkDerivatives(Model model, ModelFunctions generated, Random rnd) {
        StateSpace space = new StateSpace(model);
        int nv = model.nv();
        DMatrixRMaj jac = new DMatrixRMaj(3, nv);
        DMatrixRMaj jacBody = new DMatrixRMaj(6, nv);
        DMatrixRMaj jPlus = new DMatrixRMaj(3, nv);
        DMatrixRMaj jMinus = new DMatrixRMaj(3, nv);
        double[] fd = new double[3 * nv];
        double[] qPlus = new double[model.nq()];
        double[] qMinus = new double[model.nq()];
        double[] pPlus = new double[3];
        double[] pMinus = new double[3];
        double[] a = new double[3];
        double[] b = new double[6];
        double[] c = new double[6];
        double[] e = new double[nv];
        for (int n = 0; n < FD_STATES; n++) {
            double[] q = randomConfiguration(model, rnd);
            double[] v = random(rnd, nv, 2);
            double[] vd = random(rnd, nv, 3);
            for (int body = 0; body < model.bodyCount(); body++) {
                String name = model.body(body).name();
                double[] point = random(rnd, 3, 0.5);
                generated.pointJacobian(q, body, point, jac);
                for (int k = 0; k < nv; k++) {
                    Arrays.fill(e, 0);
                    e[k] = 1;
                    space.integrate(q, e, FD_STEP, qPlus);
                    space.integrate(q, e, -FD_STEP, qMinus);
                    generated.pointPosition(qPlus, body, point, pPlus);
                    generated.pointPosition(qMinus, body, point, pMinus);
                    for (int r = 0; r < 3; r++) {
                        fd[r * nv + k] = (pPlus[r] - pMinus[r]) / (2 * FD_STEP);
                    }
                }
                assertClose(fd, jac.data, FD_TOL, "point Jacobian vs finite differences", name);
                // J̇ v along the motion at constant v.
                space.integrate(q, v, FD_STEP, qPlus);
                space.integrate(q, v, -FD_STEP, qMinus);
                generated.pointJacobian(qPlus, body, point, jPlus);
                generated.pointJacobian(qMinus, body, point, jMinus);
                double[] jvPlus = times(jPlus, v);
                double[] jvMinus = times(jMinus, v);
                double[] jdotv = new double[3];
                for (int r = 0; r < 3; r++) {
                    jdotv[r] = (jvPlus[r] - jvMinus[r]) / (2 * FD_STEP);
                }
                generated.pointBiasAcceleration(q, v, body, point, a);
                assertClose(jdotv, a, FD_TOL, "J-dot v vs finite differences", name);
                // Consistency (rounding only).
                generated.pointVelocity(q, v, body, point, pPlus);
                assertClose(times(jac, v), pPlus, "point velocity = J v", name);
                generated.bodyJacobian(q, body, jacBody);
                generated.bodyVelocity(q, v, body, b);
                assertClose(times(jacBody, v), b, "body velocity = J_body v", name);
                generated.pointAcceleration(q, v, vd, body, point, pMinus);
                double[] jvd = times(jac, vd);
                for (int r = 0; r < 3; r++) {
                    jvd[r] += a[r];
                }
                assertClose(jvd, pMinus, "point acceleration = J vdot + J-dot v", name);
                // Body acceleration at vdot = 0 less the one at vd is J_body vd.
                generated.bodyAcceleration(q, v, vd, body, b);
                generated.bodyAcceleration(q, v, new double[nv], body, c);
                for (int r = 0; r < 6; r++) {
                    c[r] = b[r] - c[r];
                }
                assertClose(times(jacBody, vd), c, "body acceleration linear in vdot", name);
            }
        }
    }

    private static double[] times(DMatrixRMaj m, double[] x) {
        double[] out = new double[m.numRows];
        for (int r = 0; r < m.numRows; r++) {
            for (int k = 0; k < m.numCols; k++) {
                out[r] += m.data[r * m.numCols + k] * x[k];
            }
        }
        return out;
    }

    private static double[] nan(double[] x) {
        Arrays.fill(x, Double.NaN);
        return x;
    }

    private static DMatrixRMaj nan(DMatrixRMaj m) {
        Arrays.fill(m.data, Double.NaN);
        return m;
    }

    static void compare(Model model, ModelFunctions generated, Random rnd) {
        GenericDynamics generic = new GenericDynamics(model);
        ConstraintFunctions gc = generated;
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
        assertClose(expected, actual, TOL, what, "");
    }

    /** Within {@link #TOL} relative to the scale of {@code expected}; records the worst relative difference. */
    static void assertClose(double[] expected, double[] actual, String quantity, String detail) {
        assertClose(expected, actual, TOL, quantity, detail);
    }

    /**
     * Every entry within {@code tol} times the scale (the largest magnitude of {@code expected}, at least 1); NaN
     * (an entry left unwritten) fails. Records the worst relative difference of {@code quantity} in {@link #WORST}.
     */
    static void assertClose(double[] expected, double[] actual, double tol, String quantity, String detail) {
        assertEquals(expected.length, actual.length, quantity + " " + detail + ": length");
        double scale = 1;
        for (double x : expected) {
            scale = Math.max(scale, Math.abs(x));
        }
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            double d = Math.abs(expected[i] - actual[i]);
            worst = Double.isNaN(d) ? Double.NaN : Math.max(worst, d);
        }
        double relative = worst / scale;
        WORST.merge(quantity, relative, (x, y) -> Double.isNaN(x) || Double.isNaN(y) ? Double.NaN : Math.max(x, y));
        assertTrue(worst <= tol * scale, quantity + " " + detail + ": worst difference " + worst + " against scale "
                + scale);
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
                    unitQuaternion(rnd, q, j.quaternionIndex());
                }
                case BALL -> unitQuaternion(rnd, q, j.quaternionIndex());
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
