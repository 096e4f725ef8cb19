package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.mjcf.MjcfTesting.assertClose;
import static org.symdyn.io.mjcf.MjcfTesting.errorAt;
import static org.symdyn.io.mjcf.MjcfTesting.failure;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.InitialState;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.testing.SharedFiles;
import org.symdyn.testing.TestJson;

/**
 * MJCF keyframes as the model's initial states: MuJoCo's qpos and qvel mapped joint by joint to SymDyn's q and v
 * (free joint [p, w x y z] → [p, x y z w] and [v_world, ω] → [ω, Rᵀ v_world]; ball [w x y z] → [x y z w]; hinge and
 * slide unchanged), checked on a synthetic model by hand, by the kinematics of the state, and against the reference
 * files' own mapping of MuJoCo's states ({@code shared/reference-mjcf/}, skipped visibly when absent).
 */
class MjcfKeyframeTest {
    /** A free body carrying a hinge, then a body with a slide and a hinge (a chain), then a ball joint. */
    private static final String MODEL = """
            <mujoco>
              <worldbody>
                <body name="base" pos="0.1 0.2 0.3" euler="0 0 90">
                  <freejoint/>
                  <inertial pos="0 0 0" mass="2" diaginertia="0.1 0.2 0.3"/>
                  <body name="arm" pos="0.5 0 0">
                    <joint name="shoulder" axis="0 1 0" ref="10"/>
                    <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
                    <body name="hand" pos="0.3 0 0">
                      <joint name="slide" type="slide" axis="1 0 0"/>
                      <joint name="wrist" axis="0 0 1" pos="0.1 0 0"/>
                      <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
                      <body name="ball" pos="0 0 -0.2">
                        <joint name="knuckle" type="ball"/>
                        <inertial pos="0 0 -0.1" mass="0.5" diaginertia="0.01 0.01 0.01"/>
                      </body>
                    </body>
                  </body>
                </body>
              </worldbody>
              <keyframe>
                <key name="pose" qpos="1 2 3  0 1 0 0  0.5  0.25 -0.75  0 0 0 2"
                     qvel="1 2 3  0.1 0.2 0.3  4  5 6  7 8 9"/>
                <key/>
                <key name="moving" qvel="0 0 0 0 0 0 1 0 0 0 0 0" ctrl="1" time="2"/>
              </keyframe>
            </mujoco>
            """;

    @Test
    void qposAndQvelMapToTheModelsCoordinates() {
        Model m = read(MODEL);
        assertEquals(List.of("base:x", "base:y", "base:z", "base:qx", "base:qy", "base:qz", "base:qw", "shoulder",
                "slide", "wrist", "knuckle:qx", "knuckle:qy", "knuckle:qz", "knuckle:qw"), m.qNames());
        assertEquals(List.of("pose", "1", "moving"), m.initialStates().stream().map(InitialState::name).toList());
        InitialState pose = m.initialState("pose");
        // MuJoCo's quaternion (w, x, y, z) = (0, 1, 0, 0) is a half turn about x: (x, y, z, w) = (1, 0, 0, 0).
        assertArrayEquals(new double[] {1, 2, 3, 1, 0, 0, 0, 0.5, 0.25, -0.75, 0, 0, 1, 0}, pose.q(), 0);
        // v_world (1, 2, 3) in the body's axes: Rx(π)ᵀ (1, 2, 3) = (1, −2, −3); ω (0.1, 0.2, 0.3) in body axes.
        assertClose(new double[] {0.1, 0.2, 0.3, 1, -2, -3, 4, 5, 6, 7, 8, 9}, pose.v(), 1e-15, "v");
        assertEquals(22, pose.location().line());
    }

    @Test
    void aKeyWithoutQposIsMujocosQpos0() {
        Model m = read(MODEL);
        InitialState q0 = m.initialState("1");
        double s = Math.sqrt(0.5);
        // The free body at its XML pose (a quarter turn about z), the hinge at its ref (10°), the ball at identity.
        assertClose(new double[] {0.1, 0.2, 0.3, 0, 0, s, s, Math.toRadians(10), 0, 0, 0, 0, 0, 1}, q0.q(), 1e-15,
                "q0");
        assertArrayEquals(new double[12], q0.v(), 0);
        // qpos0 is also where a simulation given no state starts (simulate, evaluate, rollouts without q)
        assertArrayEquals(q0.q(), m.referenceConfiguration(), 0);
        InitialState moving = m.initialState("moving");
        assertArrayEquals(q0.q(), moving.q(), 0);
        // v_world = (0, 0, 0), ω = (0, 0, 0); shoulder qvel 1 (MuJoCo's qvel 7 is the shoulder's).
        assertArrayEquals(new double[] {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}, moving.v(), 0);
        warning(m, "keyframe 'moving': ctrl is not read");
        warning(m, "keyframe 'moving': time is not read");
    }

    /**
     * The kinematics of a keyframe's state are MuJoCo's: the free body's frame is placed at qpos's position with
     * qpos's orientation, and a chained body moves by the hinge's rotation about its own point.
     */
    @Test
    void theStateGivesMujocosKinematics() {
        Model m = read(MODEL);
        GenericDynamics dyn = new GenericDynamics(m);
        double[] r = new double[9];
        double[] p = new double[3];
        double[] q = m.initialState("pose").q();
        dyn.framePose(q, frameIndex(m, "base"), r, p);
        assertClose(new double[] {1, 2, 3}, p, 1e-15, "base position");
        assertClose(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, r, 1e-15, "base orientation");
        // arm: base ∘ T(0.5, 0, 0) ∘ Ry(0.5 − 10°); its origin is the base's (1, 2, 3) + Rx(π) (0.5, 0, 0).
        dyn.framePose(q, frameIndex(m, "arm"), r, p);
        assertClose(new double[] {1.5, 2, 3}, p, 1e-15, "arm position");
        double a = 0.5 - Math.toRadians(10);
        double[] ry = new double[9];
        Rotations.axisAngle(0, 1, 0, a, ry);
        double[] expected = new double[9];
        Rotations.multiply(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, ry, expected);
        assertClose(expected, r, 1e-15, "arm orientation");
        // At qpos0 every body is at its XML pose: the hand at base ∘ (0.8, 0, 0), the base turned 90° about z; the
        // hand's link frame sits on the wrist's point, 0.1 further along the body's x.
        double[] q0 = m.initialState("1").q();
        dyn.framePose(q0, frameIndex(m, "hand"), r, p);
        assertClose(new double[] {0.1, 1.1, 0.3}, p, 1e-15, "hand position at qpos0");
    }

    @Test
    void aQposOfTheWrongLengthIsALocatedError() {
        String xml = MODEL.replace("qpos=\"1 2 3  0 1 0 0  0.5  0.25 -0.75  0 0 0 2\"", "qpos=\"1 2 3\"")
                .replace("<key/>", "<key name=\"zero\" qpos=\"0 0 0 0 0 0 0 0 0 0 0 0 0 0\"/>")
                .replace("ctrl=\"1\"", "qvel=\"1\"");
        var e = failure(xml.replace("qvel=\"0 0 0 0 0 0 1 0 0 0 0 0\" ", ""));
        errorAt(e, 22, "keyframe 'pose': qpos (MuJoCo's nq = 14) '1 2 3' needs 14 numbers");
        errorAt(e, 24, "keyframe 'zero': the quaternion of joint 'base' (qpos 4 to 7) is zero");
        errorAt(e, 25, "keyframe 'moving': qvel (MuJoCo's nv = 12) '1' needs 12 numbers");
        var dup = failure(MODEL.replace("<key/>", "<key name=\"pose\"/>"));
        errorAt(dup, 24, "duplicate initial state name 'pose'");
    }

    @Test
    void aModelWithoutKeyframesHasNoInitialStates() {
        Model m = read(MODEL.replaceAll("(?s)<keyframe>.*</keyframe>", ""));
        assertEquals(List.of(), m.initialStates());
        assertThrows(IllegalArgumentException.class, () -> m.initialState("home"));
    }

    /**
     * The reference files' samples hold each state in MuJoCo's coordinates and SymDyn's: written as keyframes, they
     * read back as the reference's q and v (free joint velocity turned into the body's axes included).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ur5e", "go2", "cassie"})
    void referenceStatesAsKeyframesReadAsTheReferencesCoordinates(String name) throws Exception {
        Path json = SharedFiles.require("reference-mjcf/mjcf_" + name + ".json");
        Path file = SharedFiles.require("reference-mjcf/models/" + name + ".xml");
        List<Object> samples = TestJson.list(TestJson.object(TestJson.parse(json)).get("samples"));
        StringBuilder keys = new StringBuilder("<keyframe>\n");
        for (int n = 0; n < samples.size(); n++) {
            Map<String, Object> s = TestJson.object(samples.get(n));
            keys.append("<key name=\"s").append(n).append("\" qpos=\"")
                    .append(text(TestJson.vector(s.get("mujoco_qpos")))).append("\" qvel=\"")
                    .append(text(TestJson.vector(s.get("mujoco_qvel")))).append("\"/>\n");
        }
        keys.append("</keyframe>\n</mujoco>");
        String xml = Files.readString(file);
        xml = xml.substring(0, xml.lastIndexOf("</mujoco>")) + keys;
        Path copy = Files.createTempDirectory("keyframes").resolve(name + ".xml");
        Files.writeString(copy, xml);
        Model m = MjcfReader.read(copy);
        for (int n = 0; n < samples.size(); n++) {
            Map<String, Object> s = TestJson.object(samples.get(n));
            InitialState state = m.initialState("s" + n);
            assertClose(TestJson.vector(s.get("q")), state.q(), 1e-12, name + " sample " + n + " q");
            assertClose(TestJson.vector(s.get("v")), state.v(), 1e-12, name + " sample " + n + " v");
        }
        // The Menagerie's own "home" keyframe is read too.
        InitialState home = m.initialState("home");
        assertEquals(m.nq(), home.q().length);
    }

    /** go2's "home": the trunk 0.27 m up, upright; each leg (hip, thigh, calf) at (0, 0.9, −1.8). */
    @Test
    void go2HomeIsTheMenageriesStandingPose() throws Exception {
        Model m = MjcfReader.read(SharedFiles.require("reference-mjcf/models/go2.xml"));
        InitialState home = m.initialState("home");
        double[] expected = {0, 0, 0.27, 0, 0, 0, 1, 0, 0.9, -1.8, 0, 0.9, -1.8, 0, 0.9, -1.8, 0, 0.9, -1.8};
        assertArrayEquals(expected, home.q(), 0);
        assertArrayEquals(new double[18], home.v(), 0);
        warning(m, "keyframe 'home': ctrl is not read");
        double[] r = new double[9];
        double[] p = new double[3];
        new GenericDynamics(m).framePose(home.q(), frameIndex(m, m.body(0).name()), r, p);
        assertClose(new double[] {0, 0, 0.27}, p, 0, "trunk position");
    }

    private static int frameIndex(Model m, String name) {
        for (int i = 0; i < m.frames().size(); i++) {
            if (m.frames().get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no frame " + name);
    }

    private static String text(double[] x) {
        return DoubleStream.of(x).mapToObj(d -> String.format(Locale.ROOT, "%.17g", d))
                .collect(Collectors.joining(" "));
    }

    @Test
    void aModelWithoutKeyframesStartsAtQpos0AndOthersAtTheNeutralConfiguration() throws Exception {
        Model m = read("""
                <mujoco><compiler angle="degree"/>
                  <worldbody>
                    <body name="box" pos="0 0 1" euler="0 0 90"><freejoint/>
                      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
                      <body name="arm" pos="0.2 0 0"><joint name="hinge" axis="0 1 0" ref="30"/>
                        <inertial pos="0.1 0 0" mass="0.5" diaginertia="0.01 0.01 0.01"/></body>
                    </body>
                  </worldbody>
                </mujoco>
                """);
        assertEquals(List.of(), m.initialStates());
        double s = Math.sqrt(0.5);
        assertClose(new double[] {0, 0, 1, 0, 0, s, s, Math.toRadians(30)}, m.referenceConfiguration(), 1e-15,
                "qpos0");
        assertArrayEquals(new double[] {0, 0, 0, 0, 0, 0, 1, 0}, m.neutralConfiguration(), 0);
        // a model built in code, or read from URDF, starts at its neutral configuration
        Model plain = Model.builder("plain").addBody("b", "world", "j", org.symdyn.model.JointType.REVOLUTE,
                new double[] {0, 0, 1}, org.symdyn.spatial.Pose.IDENTITY, org.symdyn.spatial.RigidBodyInertia.of(1,
                        new double[] {0.1, 0, 0}, 0.01, 0, 0, 0.01, 0, 0.01)).build();
        assertArrayEquals(plain.neutralConfiguration(), plain.referenceConfiguration(), 0);
    }

    @Test
    void aReferenceConfigurationIsCheckedAsAnInitialStateIs() {
        org.symdyn.model.ModelBuilder b = Model.builder("bad").addBody("b", "world", "j",
                org.symdyn.model.JointType.FLOATING, null, org.symdyn.spatial.Pose.IDENTITY,
                org.symdyn.spatial.RigidBodyInertia.of(1, new double[3], 0.01, 0, 0, 0.01, 0, 0.01));
        b.referenceConfiguration(new double[] {0, 0, 0, 0, 0, 0, 2}, org.symdyn.model.SourceLocation.UNKNOWN);
        org.symdyn.model.ModelException e = assertThrows(org.symdyn.model.ModelException.class, b::build);
        assertTrue(e.getMessage().contains("the reference configuration: the quaternion of joint 'j' has norm 2"),
                e.getMessage());
    }
}
