package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;
import static org.symdyn.testing.DeviceAssertions.assertSameDevices;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** The actuator and sensor elements: servo, motor, torque_source, spring, imu, encoder; values, folding, errors. */
class UrdfDeviceElementsTest {
    private static final double TOL = 1e-15;
    private static final String INERTIAL = "<inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>";

    /**
     * A floating base with a fixed, turned "mount" link, a revolute hip, a prismatic slide below it, a ball-jointed
     * arm, and a "post" fixed to the world 2 m up; %s: the device elements, one per line.
     */
    private static final String TEMPLATE = """
            <robot name="devices" xmlns:sd="urn:symdyn:1">
              <link name="world"/>
              <link name="post"/>
              <link name="base">I</link>
              <link name="mount"/>
              <link name="thigh">I</link>
              <link name="slider">I</link>
              <link name="arm">I</link>
              <joint name="post_weld" type="fixed"><origin xyz="0 0 2"/><parent link="world"/><child link="post"/></joint>
              <joint name="float" type="floating"><parent link="world"/><child link="base"/></joint>
              <joint name="weld" type="fixed"><origin xyz="0.1 0 0.05" rpy="0 0 0.5"/><parent link="base"/><child link="mount"/></joint>
              <joint name="hip" type="revolute"><parent link="base"/><child link="thigh"/><axis xyz="0 1 0"/></joint>
              <joint name="slide" type="prismatic"><parent link="thigh"/><child link="slider"/><axis xyz="0 0 1"/></joint>
              <joint name="shoulder" type="ball"><parent link="base"/><child link="arm"/></joint>
            %s
            </robot>
            """.replace("I", INERTIAL);
    /** The line of the first device element. */
    private static final int FIRST = (int) TEMPLATE.substring(0, TEMPLATE.indexOf("%s")).lines().count() + 1;

    private static String model(String elements) {
        return TEMPLATE.formatted(elements);
    }

    private static final String EVERY_KIND = """
              <sd:servo name="hip_servo" joint="hip" kp="5" kd="0.1" target="0.8" max_torque="3"/>
              <sd:imu name="base_imu" link="mount" xyz="0.01 0.02 0.03" rpy="0.1 0 0" gyro_noise="0.001" accel_noise="0.02" gyro_bias="1e-3 -2e-3 3e-3" accel_bias="0.1 0.2 -0.3" seed="-42"/>
              <sd:motor name="slide_motor" joint="slide" torque_constant="0.02" resistance="1.5" free_speed="600" nominal_voltage="12" gear_ratio="-50" voltage="6"/>
              <sd:torque_source name="hip_torque" joint="hip" command="-0.5" max_torque="2"/>
              <sd:spring name="bungee" link1="post" point1="0 0 0.5" link2="mount" point2="0 0.1 0" stiffness="100" damping="2" rest_length="0.3"/>
              <sd:encoder name="hip_encoder" joint="hip" resolution="0.001" offset="0.2"/>""";

    @Test
    void everyKindIsReadInFileOrderWithItsIndicesAndFolding() {
        Model m = read(model(EVERY_KIND));
        List<DeviceSpec> d = m.devices();
        assertEquals(List.of("hip_servo", "base_imu", "slide_motor", "hip_torque", "bungee", "hip_encoder"),
                d.stream().map(DeviceSpec::name).toList());
        assertEquals(new ServoSpec("hip_servo", "hip", 7, 6, 5, 0.1, 0.8, 3), d.get(0));

        ImuSpec imu = assertInstanceOf(ImuSpec.class, d.get(1));
        assertEquals("mount", imu.link());
        assertEquals(0, imu.body(), "the fixed mount folds into the base");
        Pose expected = Pose.fromXyzRpy(new double[] {0.1, 0, 0.05}, new double[] {0, 0, 0.5})
                .compose(Pose.fromXyzRpy(new double[] {0.01, 0.02, 0.03}, new double[] {0.1, 0, 0}));
        assertArrayEquals(expected.rotationArray(), imu.rotation(), TOL, "R_body<-sensor");
        assertArrayEquals(expected.translationArray(), imu.position(), TOL);
        assertEquals(0.001, imu.gyroNoise());
        assertEquals(0.02, imu.accelNoise());
        assertArrayEquals(new double[] {1e-3, -2e-3, 3e-3}, imu.gyroBias());
        assertArrayEquals(new double[] {0.1, 0.2, -0.3}, imu.accelBias());
        assertEquals(-42, imu.seed());

        assertEquals(new DcMotorSpec("slide_motor", "slide", 8, 7, 0.02, 1.5, 600, 12, -50, 6), d.get(2));
        assertEquals(new TorqueSourceSpec("hip_torque", "hip", 6, -0.5, 2), d.get(3));

        SpringDamperSpec spring = assertInstanceOf(SpringDamperSpec.class, d.get(4));
        assertEquals(-1, spring.body1(), "a link fixed to the root is the world");
        assertArrayEquals(new double[] {0, 0, 2.5}, spring.point1(), TOL, "world coordinates");
        assertEquals("post", spring.link1());
        assertEquals(0, spring.body2());
        double[] p2 = new double[3];
        Pose.fromXyzRpy(new double[] {0.1, 0, 0.05}, new double[] {0, 0, 0.5}).transformPoint(
                new double[] {0, 0.1, 0}, p2);
        assertArrayEquals(p2, spring.point2(), TOL, "folded into the base");
        assertEquals(100, spring.stiffness());
        assertEquals(2, spring.damping());
        assertEquals(0.3, spring.restLength());

        assertEquals(new EncoderSpec("hip_encoder", "hip", 7, 6, 0.001, 0.2), d.get(5));

        SourceLocation at = m.deviceLocation("slide_motor");
        assertEquals(new SourceLocation("test.urdf", FIRST + 2, 1), at);
        assertThrows(UnsupportedOperationException.class, () -> m.devices().add(d.get(0)));
        assertThrows(IllegalArgumentException.class, () -> m.deviceLocation("nothing"));
    }

    @Test
    void defaults() {
        Model m = read(model("""
                  <sd:servo name="s" joint="slide" kp="5"/>
                  <sd:motor name="m" joint="hip" torque_constant="0.02" resistance="1.5" free_speed="600" nominal_voltage="12"/>
                  <sd:torque_source name="t" joint="hip"/>
                  <sd:spring name="k" link1="world" link2="slider" stiffness="10" rest_length="0"/>
                  <sd:imu name="i" link="base"/>
                  <sd:encoder name="e" joint="slide"/>"""));
        List<DeviceSpec> d = m.devices();
        assertEquals(new ServoSpec("s", "slide", 8, 7, 5, 0, 0, Double.POSITIVE_INFINITY), d.get(0));
        assertEquals(new DcMotorSpec("m", "hip", 7, 6, 0.02, 1.5, 600, 12, 1, 0), d.get(1));
        assertEquals(new TorqueSourceSpec("t", "hip", 6, 0, Double.POSITIVE_INFINITY), d.get(2));
        SpringDamperSpec k = (SpringDamperSpec) d.get(3);
        assertEquals(-1, k.body1());
        assertEquals(2, k.body2());
        assertArrayEquals(new double[3], k.point1());
        assertArrayEquals(new double[3], k.point2());
        assertEquals(0, k.damping());
        ImuSpec i = (ImuSpec) d.get(4);
        assertEquals(0, i.body());
        assertArrayEquals(Pose.IDENTITY.rotationArray(), i.rotation());
        assertArrayEquals(new double[3], i.position());
        assertEquals(0, i.gyroNoise());
        assertEquals(0, i.accelNoise());
        assertArrayEquals(new double[3], i.gyroBias());
        assertArrayEquals(new double[3], i.accelBias());
        assertEquals(0, i.seed());
        assertEquals(new EncoderSpec("e", "slide", 8, 7, 0, 0), d.get(5));
    }

    @Test
    void aModelWithoutDevicesHasNone() {
        assertEquals(List.of(), read(model("")).devices());
    }

    @Test
    void devicesDoNotChangeTheContentHash() {
        assertEquals(read(model("")).contentHash(), read(model(EVERY_KIND)).contentHash());
    }

    @Test
    void theGenericModelDeclaresTheModelsDevices() {
        Model m = read(model(EVERY_KIND));
        GenericModel g = new GenericModel(m);
        assertEquals(m.devices(), g.devices());
        assertEquals(600, g.device("slide_motor", DcMotorSpec.class).freeSpeed());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> g.device("slide_motor", ServoSpec.class));
        assertTrue(e.getMessage().contains("is a DcMotorSpec"), e.getMessage());
    }

    @Test
    void everyProblemIsReportedAtItsLine() {
        ModelException e = failure(model("""
                  <sd:servo name="ok" joint="hip" kp="5"/>
                  <sd:servo name="a" joint="nowhere" kp="5"/>
                  <sd:servo name="b" joint="shoulder" kp="5"/>
                  <sd:servo name="c" joint="weld" kp="5"/>
                  <sd:servo name="d" joint="hip"/>
                  <sd:servo name="e" joint="hip" kp="-1" kd="-0.5" max_torque="0"/>
                  <sd:servo name="f" joint="hip" kp="inf"/>
                  <sd:motor name="g" joint="float" torque_constant="0" resistance="-1" free_speed="0" nominal_voltage="-12" gear_ratio="0"/>
                  <sd:motor name="h" joint="hip" torque_constant="0.02" resistance="1"/>
                  <sd:torque_source name="i" joint="hip" max_torque="-2"/>
                  <sd:torque_source joint="hip"/>
                  <sd:spring name="j" link1="nowhere" link2="base" stiffness="-3" damping="-1" rest_length="-0.1"/>
                  <sd:spring name="k" link1="base" link2="mount" stiffness="3" rest_length="0.1"/>
                  <sd:spring name="l" link1="world" link2="base" stiffness="3"/>
                  <sd:imu name="m" link="nowhere" gyro_noise="-1" accel_noise="-2"/>
                  <sd:imu name="n" link="base" gyro_bias="1 2" seed="1.5"/>
                  <sd:imu name="o" link="base" seed="99999999999999999999"/>
                  <sd:encoder name="p" joint="hip" resolution="-0.01"/>
                  <sd:encoder name="q"/>
                  <sd:servo name="ok" joint="slide" kp="1"/>
                  <sd:imu name="r" link="base"><sd:axis value="1"/></sd:imu>"""));
        int l = FIRST + 1;
        errorAt(e, l, "servo 'a': unknown joint 'nowhere'");
        errorAt(e, l + 1, "servo 'b': joint 'shoulder' is ball; a servo needs a single-coordinate joint");
        errorAt(e, l + 2, "servo 'c': joint 'weld' is fixed");
        errorAt(e, l + 3, "servo 'd': kp is missing");
        errorAt(e, l + 4, "servo 'e': kp -1.0 must be >= 0");
        errorAt(e, l + 4, "servo 'e': kd -0.5 must be >= 0");
        errorAt(e, l + 4, "servo 'e': max_torque 0.0 must be positive");
        errorAt(e, l + 5, "servo 'f': kp 'inf' is not a finite number");
        errorAt(e, l + 6, "motor 'g': joint 'float' is floating");
        errorAt(e, l + 6, "motor 'g': torque_constant 0.0 must be positive");
        errorAt(e, l + 6, "motor 'g': resistance -1.0 must be positive");
        errorAt(e, l + 6, "motor 'g': free_speed 0.0 must be positive");
        errorAt(e, l + 6, "motor 'g': nominal_voltage -12.0 must be positive");
        errorAt(e, l + 6, "motor 'g': gear_ratio must not be 0");
        errorAt(e, l + 7, "motor 'h': free_speed is missing");
        errorAt(e, l + 7, "motor 'h': nominal_voltage is missing");
        errorAt(e, l + 8, "torque_source 'i': max_torque -2.0 must be positive");
        errorAt(e, l + 9, "torque_source has no 'name' attribute");
        errorAt(e, l + 10, "spring 'j': unknown link 'nowhere'");
        errorAt(e, l + 10, "spring 'j': stiffness -3.0 must be >= 0");
        errorAt(e, l + 10, "spring 'j': damping -1.0 must be >= 0");
        errorAt(e, l + 10, "spring 'j': rest_length -0.1 must be >= 0");
        errorAt(e, l + 11, "spring 'k': link1 'base' and link2 'mount' move with the same body");
        errorAt(e, l + 12, "spring 'l': rest_length is missing");
        errorAt(e, l + 13, "imu 'm': unknown link 'nowhere'");
        errorAt(e, l + 13, "imu 'm': gyro_noise -1.0 must be >= 0");
        errorAt(e, l + 13, "imu 'm': accel_noise -2.0 must be >= 0");
        errorAt(e, l + 14, "imu 'n': gyro_bias '1 2' needs 3 numbers");
        errorAt(e, l + 14, "imu 'n': seed '1.5' is not an integer");
        errorAt(e, l + 15, "imu 'o': seed '99999999999999999999' is out of range");
        errorAt(e, l + 16, "encoder 'p': resolution -0.01 must be >= 0");
        errorAt(e, l + 17, "encoder 'q' has no 'joint' attribute");
        errorAt(e, l + 18, "duplicate device name 'ok' (the first is at test.urdf:[" + FIRST + ",1])");
        errorAt(e, l + 19, "imu 'r': unknown SymDyn element 'axis'");
        assertEquals(34, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void theBuilderTakesTheSameDevicesAndChecksTheirIndices() throws ModelException {
        Model fromFile = read(model(EVERY_KIND));
        ModelBuilder b = builderOf();
        for (DeviceSpec d : fromFile.devices()) {
            b.addDevice(d);
        }
        assertSameDevices(fromFile.devices(), b.build().devices());

        ModelBuilder bad = builderOf();
        bad.addDevice(new ServoSpec("s", "hip", 6, 6, 1, 0, 0, Double.POSITIVE_INFINITY));
        bad.addDevice(new EncoderSpec("e", "shoulder", 9, 8, 0, 0));
        bad.addDevice(new ImuSpec("i", "mount", 1, Pose.IDENTITY.rotationArray(), new double[3], 0, 0,
                new double[3], new double[3], 0));
        bad.addDevice(new TorqueSourceSpec("t", "nothing", 0, 0, Double.NaN));
        ModelException e = assertThrows(ModelException.class, bad::build);
        String all = e.getMessage();
        assertTrue(all.contains("servo 's': q index 6 and v index 6 are not those of joint 'hip' (7, 6)"), all);
        assertTrue(all.contains("encoder 'e': joint 'shoulder' is ball"), all);
        assertTrue(all.contains("imu 'i': link 'mount' moves with body 0, not 1"), all);
        assertTrue(all.contains("torque_source 't': joint 'nothing' is not a movable joint"), all);
        assertTrue(all.contains("torque_source 't': max_torque NaN"), all);
        assertEquals(5, e.diagnostics().size(), all);
    }

    /** The tree of {@link #TEMPLATE} built in code. */
    private static ModelBuilder builderOf() {
        RigidBodyInertia in = RigidBodyInertia.of(1, new double[3], 0.1, 0, 0, 0.1, 0, 0.1);
        return Model.builder("devices")
                .addFixedLink("post", "world", Pose.translation(0, 0, 2), null, SourceLocation.UNKNOWN,
                        SourceLocation.UNKNOWN)
                .addBody("base", "world", "float", JointType.FLOATING, null, Pose.IDENTITY, in)
                .addFixedLink("mount", "base", Pose.fromXyzRpy(new double[] {0.1, 0, 0.05}, new double[] {0, 0, 0.5}),
                        null, SourceLocation.UNKNOWN, SourceLocation.UNKNOWN)
                .addBody("thigh", "base", "hip", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.IDENTITY, in)
                .addBody("slider", "thigh", "slide", JointType.PRISMATIC, new double[] {0, 0, 1}, Pose.IDENTITY, in)
                .addBody("arm", "base", "shoulder", JointType.BALL, null, Pose.IDENTITY, in);
    }

    /**
     * An attribute of ours that no reader reads is a located warning naming the one meant: a misspelt maxtorque made
     * a servo without a torque limit, accel_nosie an IMU without noise, silently (a helper's probe). Plain URDF
     * attributes are not ours to judge; under strict reading the warning refuses the file.
     */
    @Test
    void anAttributeOfOursThatIsNotReadIsWarnedAbout() {
        String xml = TEMPLATE.formatted("""
                  <sd:servo name="s" joint="hip" kp="10" maxtorque="5"/>
                  <sd:imu name="i" link="base" accel_nosie="0.5"/>
                  <sd:encoder name="e" joint="slide" resolutoin="0.1" colour="red"/>""").replace(
                "<joint name=\"hip\" type=\"revolute\">",
                "<joint name=\"hip\" type=\"revolute\" colour=\"red\"><dynamics damping=\"0.1\" sd:armatur=\"0.2\"/>");
        Model m = read(xml);
        List<String> warnings = m.warnings().stream().map(d -> d.location().line() + " " + d.message()).toList();
        assertTrue(warnings.contains(FIRST + " <symdyn:servo>: attribute 'maxtorque' is not read; did you mean"
                + " 'max_torque'?; ignored"), warnings.toString());
        assertTrue(warnings.contains((FIRST + 1) + " <symdyn:imu>: attribute 'accel_nosie' is not read; did you"
                + " mean 'accel_noise'?; ignored"), warnings.toString());
        assertTrue(warnings.contains((FIRST + 2) + " <symdyn:encoder>: attribute 'resolutoin' is not read; did you"
                + " mean 'resolution'?; ignored"), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("<symdyn:encoder>: attribute 'colour' is not read;"
                + " ignored")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("<dynamics>: attribute 'symdyn:armatur' is not read;"
                + " did you mean 'armature'?")), warnings.toString());
        assertEquals(5, warnings.stream().filter(w -> w.contains("is not read")).count(),
                "the plain URDF attribute colour on a joint is not ours: " + warnings);
        assertEquals(Double.POSITIVE_INFINITY, ((ServoSpec) m.devices().get(0)).maxTorque(), "not read, as it says");
        ModelException e = failure(xml, UrdfTesting.STRICT);
        assertTrue(UrdfTesting.describe(e).contains("'maxtorque' is not read"), UrdfTesting.describe(e));
    }
}
