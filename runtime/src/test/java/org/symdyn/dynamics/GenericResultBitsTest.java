package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.model.Model;

/**
 * Pins every numeric answer of the generic runtime bit for bit: for each model of {@link DynamicsPropertyTest}, at
 * three reproducible states, the dynamics, kinematics and derivatives of {@link GenericDynamics} (inside and outside
 * a {@link StateScope}), the {@link ArticulatedBodyAlgorithm} with external forces and its responses, and
 * {@link MotionDerivatives}. Each group's raw IEEE bits (including the sign of zeros) are hashed (SHA-256, first 16
 * hex digits) and compared with the recorded hash, so that a restructuring of the recursions that changes any
 * operation or its order is seen. The generic runtime is the oracle of generated code: a legitimate change of its
 * arithmetic records new hashes here, printed by the failing assertion.
 */
class GenericResultBitsTest {
    private static final int STATES = 3;

    /** Model, then group: dynamics, kinematics, derivatives, aba, motion. */
    private static final Map<String, String> EXPECTED = new TreeMap<>(Map.ofEntries(
            Map.entry("anymal.urdf aba", "38a9d79677035d12"),
            Map.entry("anymal.urdf derivatives", "5c22b3cc06a754b8"),
            Map.entry("anymal.urdf dynamics (scope)", "eb99e7cca23c1f18"),
            Map.entry("anymal.urdf dynamics", "eb99e7cca23c1f18"),
            Map.entry("anymal.urdf kinematics (scope)", "1869fd22469343b3"),
            Map.entry("anymal.urdf kinematics", "1869fd22469343b3"),
            Map.entry("anymal.urdf motion", "e59bb8da6e549d56"),
            Map.entry("built:floating_ball_planar aba", "671b34c7e49395c8"),
            Map.entry("built:floating_ball_planar derivatives", "c5e836c003bc2c04"),
            Map.entry("built:floating_ball_planar dynamics (scope)", "eca4bc28e76503e0"),
            Map.entry("built:floating_ball_planar dynamics", "eca4bc28e76503e0"),
            Map.entry("built:floating_ball_planar kinematics (scope)", "511ec2bb26147124"),
            Map.entry("built:floating_ball_planar kinematics", "511ec2bb26147124"),
            Map.entry("built:floating_ball_planar motion", "1566cc4da8ecedb6"),
            Map.entry("built:planar_ball aba", "4f8f5d0ae1521b78"),
            Map.entry("built:planar_ball derivatives", "94ba4890dd15b952"),
            Map.entry("built:planar_ball dynamics (scope)", "c0d61a8cd3b74288"),
            Map.entry("built:planar_ball dynamics", "c0d61a8cd3b74288"),
            Map.entry("built:planar_ball kinematics (scope)", "da901915968e06b4"),
            Map.entry("built:planar_ball kinematics", "da901915968e06b4"),
            Map.entry("built:planar_ball motion", "c4fb53935b02acfa"),
            Map.entry("double_pendulum_simple.urdf aba", "c9a3df8f2787580e"),
            Map.entry("double_pendulum_simple.urdf derivatives", "7eaa78bae9586be8"),
            Map.entry("double_pendulum_simple.urdf dynamics (scope)", "1a08a15ada8ed5dd"),
            Map.entry("double_pendulum_simple.urdf dynamics", "1a08a15ada8ed5dd"),
            Map.entry("double_pendulum_simple.urdf kinematics (scope)", "d23d3398a211e46c"),
            Map.entry("double_pendulum_simple.urdf kinematics", "d23d3398a211e46c"),
            Map.entry("double_pendulum_simple.urdf motion", "81ea744737c1b324"),
            Map.entry("hyq_no_sensors.urdf aba", "f79acad740ffff40"),
            Map.entry("hyq_no_sensors.urdf derivatives", "0c90c0759933b733"),
            Map.entry("hyq_no_sensors.urdf dynamics (scope)", "66dd4c1c6242b65f"),
            Map.entry("hyq_no_sensors.urdf dynamics", "66dd4c1c6242b65f"),
            Map.entry("hyq_no_sensors.urdf kinematics (scope)", "37e778a99df184cb"),
            Map.entry("hyq_no_sensors.urdf kinematics", "37e778a99df184cb"),
            Map.entry("hyq_no_sensors.urdf motion", "4d56119511543c80"),
            Map.entry("iiwa14_no_collision.urdf aba", "d55f5044160d4f61"),
            Map.entry("iiwa14_no_collision.urdf derivatives", "667919006a1c03b9"),
            Map.entry("iiwa14_no_collision.urdf dynamics (scope)", "865a12a3d19c5b02"),
            Map.entry("iiwa14_no_collision.urdf dynamics", "865a12a3d19c5b02"),
            Map.entry("iiwa14_no_collision.urdf kinematics (scope)", "b794816ad185ab57"),
            Map.entry("iiwa14_no_collision.urdf kinematics", "b794816ad185ab57"),
            Map.entry("iiwa14_no_collision.urdf motion", "84c61137e319fe1f"),
            Map.entry("kinova.urdf aba", "7481f0b2c235539e"),
            Map.entry("kinova.urdf derivatives", "371faf99f4454a96"),
            Map.entry("kinova.urdf dynamics (scope)", "beb5b0e840f2c8b6"),
            Map.entry("kinova.urdf dynamics", "beb5b0e840f2c8b6"),
            Map.entry("kinova.urdf kinematics (scope)", "ce892b17d3ebeda4"),
            Map.entry("kinova.urdf kinematics", "ce892b17d3ebeda4"),
            Map.entry("kinova.urdf motion", "97c81ddeb46f0be1"),
            Map.entry("panda.urdf aba", "6c4c293bcbd7eebc"),
            Map.entry("panda.urdf derivatives", "c510ab56884bca55"),
            Map.entry("panda.urdf dynamics (scope)", "445c5b8dec282508"),
            Map.entry("panda.urdf dynamics", "445c5b8dec282508"),
            Map.entry("panda.urdf kinematics (scope)", "63cfa7141f283707"),
            Map.entry("panda.urdf kinematics", "63cfa7141f283707"),
            Map.entry("panda.urdf motion", "af1100ffd5ff92e0"),
            Map.entry("romeo_small.urdf aba", "ff8faf6f8e93930c"),
            Map.entry("romeo_small.urdf derivatives", "526b2063cb81740f"),
            Map.entry("romeo_small.urdf dynamics (scope)", "44ca27439ece253d"),
            Map.entry("romeo_small.urdf dynamics", "44ca27439ece253d"),
            Map.entry("romeo_small.urdf kinematics (scope)", "245806c1af4224da"),
            Map.entry("romeo_small.urdf kinematics", "245806c1af4224da"),
            Map.entry("romeo_small.urdf motion", "4e90fbf103f2b736"),
            Map.entry("solo12.urdf aba", "12ddebcf58397e51"),
            Map.entry("solo12.urdf derivatives", "18a5fd1e47c1b3b8"),
            Map.entry("solo12.urdf dynamics (scope)", "f7d3211b14f8d1a7"),
            Map.entry("solo12.urdf dynamics", "f7d3211b14f8d1a7"),
            Map.entry("solo12.urdf kinematics (scope)", "79b4c6ce7cfd005e"),
            Map.entry("solo12.urdf kinematics", "79b4c6ce7cfd005e"),
            Map.entry("solo12.urdf motion", "a1f4822ffbbc730e"),
            Map.entry("ur5_robot.urdf aba", "cc80a7d56c81147c"),
            Map.entry("ur5_robot.urdf derivatives", "94824456e9d8edcd"),
            Map.entry("ur5_robot.urdf dynamics (scope)", "7198af2769ff532a"),
            Map.entry("ur5_robot.urdf dynamics", "7198af2769ff532a"),
            Map.entry("ur5_robot.urdf kinematics (scope)", "877371804e4edc97"),
            Map.entry("ur5_robot.urdf kinematics", "877371804e4edc97"),
            Map.entry("ur5_robot.urdf motion", "2efa6dd370450666")));

    static java.util.stream.Stream<String> models() {
        return DynamicsPropertyTest.models();
    }

    @ParameterizedTest
    @MethodSource("models")
    void everyAnswerIsBitForBitAsRecorded(String name) {
        Model model = DynamicsPropertyTest.model(name);
        Map<String, String> actual = new TreeMap<>();
        actual.put(name + " dynamics", hash(dynamics(model, false)));
        actual.put(name + " dynamics (scope)", hash(dynamics(model, true)));
        actual.put(name + " kinematics", hash(kinematics(model, false)));
        actual.put(name + " kinematics (scope)", hash(kinematics(model, true)));
        actual.put(name + " derivatives", hash(derivatives(model)));
        actual.put(name + " aba", hash(aba(model)));
        actual.put(name + " motion", hash(motion(model)));
        Map<String, String> expected = new TreeMap<>();
        StringBuilder recorded = new StringBuilder();
        for (Map.Entry<String, String> e : actual.entrySet()) {
            expected.put(e.getKey(), EXPECTED.get(e.getKey()));
            recorded.append("            Map.entry(\"").append(e.getKey()).append("\", \"").append(e.getValue())
                    .append("\"),\n");
        }
        assertEquals(expected, actual, "the hashes of these results:\n" + recorded);
    }

    /** A reproducible state: q from random joint values (quaternions normalised by the model), v and v̇. */
    private static double[][] state(Model model, int n) {
        Random rnd = new Random(0xB175 + 31L * n + model.name().hashCode());
        double[] q = new double[model.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = rnd.nextDouble() * 2 - 1;
        }
        for (org.symdyn.model.Body b : model.bodies()) {
            if (b.joint().type().hasQuaternion()) {
                int x = b.joint().quaternionIndex();
                double norm = Math.sqrt(q[x] * q[x] + q[x + 1] * q[x + 1] + q[x + 2] * q[x + 2] + q[x + 3] * q[x + 3]);
                for (int k = 0; k < 4; k++) {
                    q[x + k] /= norm;
                }
            }
        }
        double[] v = new double[model.nv()];
        double[] a = new double[model.nv()];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextDouble() * 4 - 2;
            a[i] = rnd.nextDouble() * 6 - 3;
        }
        return new double[][] {q, v, a};
    }

    private static Bits dynamics(Model model, boolean scope) {
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        Bits bits = new Bits();
        double[] out = new double[nv];
        DMatrixRMaj m = new DMatrixRMaj(nv, nv);
        for (int n = 0; n < STATES; n++) {
            double[][] x = state(model, n);
            if (scope) {
                dyn.enterState();
            }
            dyn.inverseDynamics(x[0], x[1], x[2], out);
            bits.add(out);
            dyn.biasForces(x[0], x[1], out);
            bits.add(out);
            dyn.gravityForces(x[0], out);
            bits.add(out);
            dyn.massMatrix(x[0], m);
            bits.add(m.data);
            dyn.forwardDynamics(x[0], x[1], x[2], out);
            bits.add(out);
            if (scope) {
                dyn.exitState();
            }
        }
        double[] pi = new double[GenericDynamics.PARAMETERS_PER_BODY * model.bodyCount()];
        dyn.inertialParameters(pi);
        bits.add(pi);
        return bits;
    }

    private static Bits kinematics(Model model, boolean scope) {
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        int nb = model.bodyCount();
        Bits bits = new Bits();
        double[] rot = new double[9];
        double[] pos = new double[3];
        double[] six = new double[6];
        double[] three = new double[3];
        double[] point = {0.13, -0.07, 0.21};
        DMatrixRMaj j3 = new DMatrixRMaj(3, nv);
        DMatrixRMaj j6 = new DMatrixRMaj(6, nv);
        for (int n = 0; n < STATES; n++) {
            double[][] x = state(model, n);
            if (scope) {
                dyn.enterState();
            }
            for (int b = 0; b < nb; b++) {
                dyn.bodyPose(x[0], b, rot, pos);
                bits.add(rot).add(pos);
                dyn.pointPosition(x[0], b, point, three);
                bits.add(three);
                dyn.bodyVelocity(x[0], x[1], b, six);
                bits.add(six);
                dyn.bodyAcceleration(x[0], x[1], x[2], b, six);
                bits.add(six);
                dyn.pointVelocity(x[0], x[1], b, point, three);
                bits.add(three);
                dyn.pointAcceleration(x[0], x[1], x[2], b, point, three);
                bits.add(three);
                dyn.pointBiasAcceleration(x[0], x[1], b, point, three);
                bits.add(three);
                dyn.pointJacobian(x[0], b, point, j3);
                bits.add(j3.data);
                dyn.bodyJacobian(x[0], b, j6);
                bits.add(j6.data);
            }
            for (int f = 0; f < model.frames().size(); f++) {
                dyn.framePose(x[0], f, rot, pos);
                bits.add(rot).add(pos);
            }
            if (scope) {
                dyn.exitState();
            }
        }
        return bits;
    }

    private static Bits derivatives(Model model) {
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        Bits bits = new Bits();
        DMatrixRMaj a = new DMatrixRMaj(nv, nv);
        DMatrixRMaj b = new DMatrixRMaj(nv, nv);
        DMatrixRMaj c = new DMatrixRMaj(nv, nv);
        DMatrixRMaj y = new DMatrixRMaj(nv, GenericDynamics.PARAMETERS_PER_BODY * model.bodyCount());
        DMatrixRMaj yp = new DMatrixRMaj(nv, dyn.parameterNames().size());
        for (int n = 0; n < STATES; n++) {
            double[][] x = state(model, n);
            dyn.inverseDynamicsDerivatives(x[0], x[1], x[2], a, b);
            bits.add(a.data).add(b.data);
            dyn.forwardDynamicsDerivatives(x[0], x[1], x[2], a, b, c);
            bits.add(a.data).add(b.data).add(c.data);
            dyn.inverseMassMatrix(x[0], a);
            bits.add(a.data);
            dyn.coriolisMatrix(x[0], x[1], a);
            bits.add(a.data);
            dyn.regressor(x[0], x[1], x[2], y);
            bits.add(y.data);
            dyn.parameterRegressor(x[0], x[1], x[2], yp);
            bits.add(yp.data);
        }
        return bits;
    }

    private static Bits aba(Model model) {
        ArticulatedBodyAlgorithm aba = new ArticulatedBodyAlgorithm(model);
        int nv = model.nv();
        int nb = model.bodyCount();
        Bits bits = new Bits();
        double[] out = new double[nv];
        double[] forces = new double[6 * nb];
        double[] six = new double[6];
        double[] rot = new double[9];
        double[] point = {0.05, 0.11, -0.09};
        double[] direction = {0.6, 0, 0.8};
        double[] worldForce = {1.5, -2.5, 4.0};
        for (int n = 0; n < STATES; n++) {
            double[][] x = state(model, n);
            Random rnd = new Random(n);
            for (int k = 0; k < forces.length; k++) {
                forces[k] = rnd.nextDouble() * 10 - 5;
            }
            aba.forwardDynamics(x[0], x[1], x[2], forces, out);
            bits.add(out);
            aba.forceResponse(forces, out);
            bits.add(out);
            aba.generalizedForceResponse(x[2], out);
            bits.add(out);
            for (int b = 0; b < nb; b++) {
                aba.bodyForceResponse(b, forces, 6 * b, out);
                bits.add(out);
                aba.responseAcceleration(b, six);
                bits.add(six);
                bits.add(new double[] {aba.responsePointAcceleration(b, point, direction)});
                aba.bodyFromWorldRotation(b, rot);
                bits.add(rot);
                aba.pointForceInBody(b, point, worldForce, six, 0);
                bits.add(six);
            }
            aba.factor(x[0]);
            aba.generalizedForceResponse(x[1], out);
            bits.add(out);
        }
        return bits;
    }

    private static Bits motion(Model model) {
        MotionDerivatives md = new MotionDerivatives(model);
        int nv = model.nv();
        int nb = model.bodyCount();
        Bits bits = new Bits();
        PointMotion pm = new PointMotion(nv);
        DMatrixRMaj w = new DMatrixRMaj(nv, nv);
        double[] point = {-0.08, 0.04, 0.12};
        double[] wrench = {0.3, -0.2, 0.1, 2.0, -1.0, 3.0};
        for (int n = 0; n < STATES; n++) {
            double[][] x = state(model, n);
            md.update(x[0], x[1], x[2]);
            md.clearWrenches();
            for (int b = 0; b < nb; b++) {
                md.point(b, point, pm);
                bits.add(pm.rotation()).add(pm.position()).add(pm.omega()).add(pm.velocity()).add(pm.omegaDot())
                        .add(pm.acceleration()).add(pm.dRotationDq()).add(pm.dPositionDq()).add(pm.dOmegaDv())
                        .add(pm.dVelocityDv()).add(pm.dOmegaDq()).add(pm.dVelocityDq()).add(pm.dOmegaDotDq())
                        .add(pm.dAccelerationDq()).add(pm.dOmegaDotDv()).add(pm.dAccelerationDv());
                md.addWrench(b, point, wrench, b == 0 ? -1 : model.body(b).parentIndex());
            }
            md.wrenchDerivative(w);
            bits.add(w.data);
        }
        return bits;
    }

    private static String hash(Bits bits) {
        return HexFormat.of().formatHex(bits.digest.digest()).substring(0, 16);
    }

    /** The raw bits of every number added, in order. */
    private static final class Bits {
        final MessageDigest digest;
        private final ByteBuffer buffer = ByteBuffer.allocate(8);

        Bits() {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        }

        Bits add(double[] x) {
            for (double d : x) {
                buffer.clear();
                buffer.putLong(Double.doubleToRawLongBits(d));
                digest.update(buffer.array());
            }
            return this;
        }
    }
}
