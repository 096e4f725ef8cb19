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
            Map.entry("anymal.urdf aba", "9291098f0cd0517b"),
            Map.entry("anymal.urdf derivatives", "71bd15316ddd918b"),
            Map.entry("anymal.urdf dynamics (scope)", "4daaa5ade3587afe"),
            Map.entry("anymal.urdf dynamics", "4daaa5ade3587afe"),
            Map.entry("anymal.urdf kinematics (scope)", "eabf29e6304611ce"),
            Map.entry("anymal.urdf kinematics", "eabf29e6304611ce"),
            Map.entry("anymal.urdf motion", "5332b3c46673fbd9"),
            Map.entry("built:floating_ball_planar aba", "fd076db3506c705f"),
            Map.entry("built:floating_ball_planar derivatives", "a92374055b160a0a"),
            Map.entry("built:floating_ball_planar dynamics (scope)", "ec7f03b8f60b3e29"),
            Map.entry("built:floating_ball_planar dynamics", "ec7f03b8f60b3e29"),
            Map.entry("built:floating_ball_planar kinematics (scope)", "fd6c8c9e2312acd9"),
            Map.entry("built:floating_ball_planar kinematics", "fd6c8c9e2312acd9"),
            Map.entry("built:floating_ball_planar motion", "c57edd175064f374"),
            Map.entry("built:planar_ball aba", "fca6abcf52978e1f"),
            Map.entry("built:planar_ball derivatives", "88e552ec6ef4ebbc"),
            Map.entry("built:planar_ball dynamics (scope)", "4dd126ede66ea5ed"),
            Map.entry("built:planar_ball dynamics", "4dd126ede66ea5ed"),
            Map.entry("built:planar_ball kinematics (scope)", "fa03d65fa2e09844"),
            Map.entry("built:planar_ball kinematics", "fa03d65fa2e09844"),
            Map.entry("built:planar_ball motion", "14f2352e2d56d496"),
            Map.entry("double_pendulum_simple.urdf aba", "ab196c969c607004"),
            Map.entry("double_pendulum_simple.urdf derivatives", "187a614ba6f75ee2"),
            Map.entry("double_pendulum_simple.urdf dynamics (scope)", "ae245817146a497f"),
            Map.entry("double_pendulum_simple.urdf dynamics", "ae245817146a497f"),
            Map.entry("double_pendulum_simple.urdf kinematics (scope)", "73e2dacee58a09ef"),
            Map.entry("double_pendulum_simple.urdf kinematics", "73e2dacee58a09ef"),
            Map.entry("double_pendulum_simple.urdf motion", "e8222850c243b072"),
            Map.entry("hyq_no_sensors.urdf aba", "4687a23f6f8fa2a7"),
            Map.entry("hyq_no_sensors.urdf derivatives", "5ba077d40125674a"),
            Map.entry("hyq_no_sensors.urdf dynamics (scope)", "eb009aec32496df2"),
            Map.entry("hyq_no_sensors.urdf dynamics", "eb009aec32496df2"),
            Map.entry("hyq_no_sensors.urdf kinematics (scope)", "20e2f04f5f377514"),
            Map.entry("hyq_no_sensors.urdf kinematics", "20e2f04f5f377514"),
            Map.entry("hyq_no_sensors.urdf motion", "a574d971d77c933f"),
            Map.entry("iiwa14_no_collision.urdf aba", "786054eac13bf9c4"),
            Map.entry("iiwa14_no_collision.urdf derivatives", "ae5de35a2e24013c"),
            Map.entry("iiwa14_no_collision.urdf dynamics (scope)", "fdedfe8295eb3921"),
            Map.entry("iiwa14_no_collision.urdf dynamics", "fdedfe8295eb3921"),
            Map.entry("iiwa14_no_collision.urdf kinematics (scope)", "9fbf981811b5c52c"),
            Map.entry("iiwa14_no_collision.urdf kinematics", "9fbf981811b5c52c"),
            Map.entry("iiwa14_no_collision.urdf motion", "0c1b0b4be8129efe"),
            Map.entry("kinova.urdf aba", "9f4f256a0edf8b62"),
            Map.entry("kinova.urdf derivatives", "7aecb5b7910f3e5e"),
            Map.entry("kinova.urdf dynamics (scope)", "c945739924f2b6b8"),
            Map.entry("kinova.urdf dynamics", "c945739924f2b6b8"),
            Map.entry("kinova.urdf kinematics (scope)", "bbacefed8dd11889"),
            Map.entry("kinova.urdf kinematics", "bbacefed8dd11889"),
            Map.entry("kinova.urdf motion", "00bd40c435881a7d"),
            Map.entry("panda.urdf aba", "6822b2fd2a0da163"),
            Map.entry("panda.urdf derivatives", "bfd8465519d264a3"),
            Map.entry("panda.urdf dynamics (scope)", "e7ad0ce1253b60e1"),
            Map.entry("panda.urdf dynamics", "e7ad0ce1253b60e1"),
            Map.entry("panda.urdf kinematics (scope)", "9b1218efde4ff1e2"),
            Map.entry("panda.urdf kinematics", "9b1218efde4ff1e2"),
            Map.entry("panda.urdf motion", "7182ca93e5f0b0dd"),
            Map.entry("romeo_small.urdf aba", "b3d5c508aebabab4"),
            Map.entry("romeo_small.urdf derivatives", "202a1a5087db24e7"),
            Map.entry("romeo_small.urdf dynamics (scope)", "04b308e27c743b9f"),
            Map.entry("romeo_small.urdf dynamics", "04b308e27c743b9f"),
            Map.entry("romeo_small.urdf kinematics (scope)", "0d9089f1df59d230"),
            Map.entry("romeo_small.urdf kinematics", "0d9089f1df59d230"),
            Map.entry("romeo_small.urdf motion", "2c2166ca51a44731"),
            Map.entry("solo12.urdf aba", "22e20aec17986876"),
            Map.entry("solo12.urdf derivatives", "0f6e449ba0d84720"),
            Map.entry("solo12.urdf dynamics (scope)", "1729cc9517125b4d"),
            Map.entry("solo12.urdf dynamics", "1729cc9517125b4d"),
            Map.entry("solo12.urdf kinematics (scope)", "3175dc17bd6b203a"),
            Map.entry("solo12.urdf kinematics", "3175dc17bd6b203a"),
            Map.entry("solo12.urdf motion", "7f9e07fa8ea308d2"),
            Map.entry("ur5_robot.urdf aba", "23153724d1550fbe"),
            Map.entry("ur5_robot.urdf derivatives", "4df8de59296f4642"),
            Map.entry("ur5_robot.urdf dynamics (scope)", "21af16055ad1f875"),
            Map.entry("ur5_robot.urdf dynamics", "21af16055ad1f875"),
            Map.entry("ur5_robot.urdf kinematics (scope)", "618a3017f72f617c"),
            Map.entry("ur5_robot.urdf kinematics", "618a3017f72f617c"),
            Map.entry("ur5_robot.urdf motion", "c07c68dfddcbdea1")));

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
