package org.symdyn.io.sdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.sdf.SdfTesting.assertWarns;
import static org.symdyn.io.sdf.SdfTesting.errorAt;
import static org.symdyn.io.sdf.SdfTesting.failure;
import static org.symdyn.io.sdf.SdfTesting.PATH;
import static org.symdyn.io.sdf.SdfTesting.link;
import static org.symdyn.io.sdf.SdfTesting.read;
import static org.symdyn.io.sdf.SdfTesting.warns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.contract.ImuSpec;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.ModelFileReader;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** The SDFormat reader on hand-written files: each rule of the specification it follows, and its refusals. */
class SdfReaderTest {
    private static final double EPS = 1e-12;

    private static String model(String version, String body) {
        return "<?xml version=\"1.0\"?>\n<sdf version=\"" + version + "\">\n<model name=\"m\">\n" + body
                + "</model>\n</sdf>\n";
    }

    private static CollisionShapeModel collision(Model m, String name) {
        return m.scene().collisionShapes().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Adapted from gazebosim/sdformat test/sdf/model_frame_relative_to_joint.sdf (Apache-2.0, Open Source Robotics
     * Foundation): poses relative_to links, a joint and frames chained through the joint, the joint's own pose
     * relative to its child. Positions worked out by hand: J at (2, 3, 0) unrotated, F3 at (2, 3, 3) pitched by
     * π/2, F4 at (6, 3, 3) unrotated.
     */
    @Test
    void poseFrameSemanticsOfGazebosExample() {
        String sphere = "<geometry><sphere><radius>0.5</radius></sphere></geometry>";
        Model m = read(model("1.7", """
                <link name="P"><pose>1 0 0 0 0 0</pose>
                  <inertial><pose relative_to="">0 0 0 0 0 0</pose></inertial>
                  <collision name="P1"><pose>0 0 10 0 0 0</pose>%1$s</collision>
                </link>
                <link name="C"><pose>2 0 0 0 1.5707963267948966 0</pose>
                  <collision name="P"><pose relative_to="P">0 0 12 0 0 0</pose>%1$s</collision>
                  <collision name="J"><pose relative_to="J">0 0 13 0 0 0</pose>%1$s</collision>
                  <collision name="F4"><pose relative_to="F4">0 0 15 0 0 0</pose>%1$s</collision>
                </link>
                <joint name="J" type="fixed"><pose>0 3 0 0 -1.5707963267948966 0</pose>
                  <parent>P</parent><child>C</child></joint>
                <frame name="F3"><pose relative_to="J">0 0 3 0 1.5707963267948966 0</pose></frame>
                <frame name="F4"><pose relative_to="F3">0 0 4 0 -1.5707963267948966 0</pose></frame>
                """.formatted(sphere)));
        // P is a floating root: shapes are in P's frame, which is at (1, 0, 0) in the file.
        assertEquals(JointType.FLOATING, m.body(0).joint().type());
        assertEquals("P", m.body(0).joint().name());
        assertPosition(collision(m, "P::P1"), 0, 0, 10);
        assertPosition(collision(m, "C::P"), 0, 0, 12);
        assertPosition(collision(m, "C::J"), 1, 3, 13);
        assertPosition(collision(m, "C::F4"), 5, 3, 18);
        assertWarns(m, "link 'C' has no <inertial>");
        assertEquals(2.0, m.body(0).inertia().mass(), EPS); // SDFormat's default 1 kg each, C fixed to P
        // where a simulation given no state starts: P where the file places it, not at the origin
        assertArrayEquals(new double[] {1, 0, 0, 0, 0, 0, 1}, m.referenceConfiguration(), EPS);
    }

    @Test
    void floatingRootsStartWhereTheFilePlacesThem() {
        Model m = read(model("1.7", """
                <link name="a"><pose>0 0 1 0 0 1.5707963267948966</pose></link>
                <link name="b"><pose>2 0 0.5 0 0 0</pose></link>
                <link name="c"><pose>2 0 1.5 0 0 0</pose></link>
                <joint name="hinge" type="revolute"><parent>b</parent><child>c</child>
                  <axis><xyz>0 1 0</xyz></axis></joint>
                """));
        double s = Math.sqrt(0.5);
        assertArrayEquals(new double[] {0, 0, 1, 0, 0, s, s, 2, 0, 0.5, 0, 0, 0, 1, 0}, m.referenceConfiguration(),
                EPS);
    }

    private static void assertPosition(CollisionShapeModel c, double x, double y, double z) {
        assertArrayEquals(new double[] {x, y, z}, c.pose().translationArray(), 1e-12, c.name());
    }

    /**
     * After gazebosim/sdformat test/sdf/joint_axis_in_rotated_frame.sdf (Apache-2.0, Open Source Robotics
     * Foundation): a wheel rotated by a roll that is not exactly representable, its axis in the joint frame.
     */
    @Test
    void jointAxisInARotatedChildFrame() {
        Model m = read(model("1.9", link("chassis", null) + link("wheel", "0.554283 0.625029 -0.025 -1.5707 0 0")
                + """
                <joint name="wheel_joint" type="revolute"><parent>chassis</parent><child>wheel</child>
                  <axis><xyz>0 0 1</xyz></axis></joint>
                <joint name="fix" type="fixed"><parent>world</parent><child>chassis</child></joint>
                """));
        assertEquals(1, m.bodyCount());
        assertArrayEquals(new double[] {0, 0, 1}, m.body(0).joint().axis(), EPS);
        assertEquals(Math.cos(-1.5707), m.body(0).joint().placement().rotation(1, 1), EPS);
        assertArrayEquals(new double[] {0.554283, 0.625029, -0.025},
                m.body(0).joint().placement().translationArray(), EPS);
    }

    /** A nested model placed relative_to a chain of frames, checked against the URDF it is equivalent to. */
    @Test
    void nestedModelWithAFrameChainIsItsUrdf() throws Exception {
        String inertia = "<inertia><ixx>0.02</ixx><ixy>0.001</ixy><ixz>0</ixz><iyy>0.03</iyy><iyz>0</iyz>"
                + "<izz>0.01</izz></inertia>";
        Model sdf = read(model("1.8", """
                <link name="base"><inertial><mass>2</mass>%1$s</inertial></link>
                <frame name="mount" attached_to="base"><pose relative_to="base">0 0 0.5 0 0 1.5707963267948966</pose></frame>
                <frame name="mount_tip"><pose relative_to="mount">0.1 0 0 0 0 0</pose></frame>
                <model name="arm">
                  <pose relative_to="mount_tip">0 0 0 0 0 0</pose>
                  <link name="upper"><pose>0 0 0.2 0 0 0</pose>
                    <inertial><pose>0 0 0.25 0 0 0</pose><mass>1</mass>%1$s</inertial></link>
                  <frame name="elbow_frame" attached_to="upper"><pose relative_to="upper">0 0 0.5 0.3 0 0</pose></frame>
                  <link name="lower"><pose relative_to="elbow_frame">0 0 0 0 0 0</pose>
                    <inertial><mass>0.5</mass>%1$s</inertial></link>
                  <joint name="elbow" type="revolute"><parent>upper</parent><child>lower</child>
                    <axis><xyz expressed_in="upper">0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit>
                    <dynamics><damping>0.3</damping></dynamics></axis></joint>
                </model>
                <joint name="shoulder" type="continuous"><parent>base</parent><child>arm::upper</child>
                  <axis><xyz>0 0 1</xyz></axis></joint>
                <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
                """.formatted(inertia)));
        String urdfInertia = "<inertia ixx=\"0.02\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.03\" iyz=\"0\" izz=\"0.01\"/>";
        String urdf = """
                <robot name="m">
                  <link name="base"><inertial><mass value="2"/>%1$s</inertial></link>
                  <link name="arm::upper"><inertial><origin xyz="0 0 0.25"/><mass value="1"/>%1$s</inertial></link>
                  <link name="arm::lower"><inertial><mass value="0.5"/>%1$s</inertial></link>
                  <joint name="shoulder" type="continuous"><parent link="base"/><child link="arm::upper"/>
                    <origin xyz="0 0.1 0.7" rpy="0 0 1.5707963267948966"/><axis xyz="0 0 1"/></joint>
                  <joint name="arm::elbow" type="revolute"><parent link="arm::upper"/><child link="arm::lower"/>
                    <origin xyz="0 0 0.5" rpy="0.3 0 0"/><axis xyz="0 %2$s %3$s"/>
                    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
                </robot>
                """.formatted(urdfInertia, Math.cos(0.3), -Math.sin(0.3));
        Model reference = UrdfReader.parse(urdf, "nested.urdf", UrdfReader.Options.DEFAULT);
        SdfSameModelTest.compare("nested", reference, sdf, false);
        assertEquals(List.of("shoulder", "arm::elbow"), sdf.qNames());
        assertTrue(sdf.hasFrame("arm::elbow_frame"));
        assertEquals(0.3, sdf.body(1).joint().damping(), 0);
    }

    @Test
    void universalJointIsTwoRevoluteJointsThroughAMasslessCross() {
        Model m = read(model("1.7", link("a", null) + link("b", "0 0 1 0 0 0") + """
                <joint name="u" type="universal"><parent>a</parent><child>b</child>
                  <axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz><dynamics><damping>0.2</damping></dynamics></axis2>
                </joint>
                <joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint>
                """));
        assertEquals(List.of("u::axis", "u::axis2"), m.qNames());
        assertEquals("u::cross", m.body(0).name());
        assertEquals(0, m.body(0).inertia().mass(), 0);
        assertArrayEquals(new double[] {1, 0, 0}, m.body(0).joint().axis(), EPS);
        assertArrayEquals(new double[] {0, 1, 0}, m.body(1).joint().axis(), EPS);
        assertEquals(0.2, m.body(1).joint().damping(), 0);
        assertArrayEquals(new double[] {0, 0, 1}, m.body(0).joint().placement().translationArray(), EPS);
    }

    @Test
    void ballPrismaticLimitsFrictionAndScrew() {
        Model m = read(model("1.7", link("a", null) + link("b", "0 0 1 0 0 0") + link("c", "0 0 2 0 0 0") + """
                <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
                <joint name="slide" type="prismatic"><parent>b</parent><child>c</child>
                  <axis><xyz>0 0 2</xyz><limit><lower>-0.1</lower><upper>0.2</upper></limit>
                  <dynamics><friction>0.5</friction></dynamics></axis></joint>
                <joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint>
                """));
        assertEquals(JointType.BALL, m.body(0).joint().type());
        assertEquals(JointType.PRISMATIC, m.body(1).joint().type());
        assertArrayEquals(new double[] {0, 0, 1}, m.body(1).joint().axis(), EPS);
        assertEquals(-0.1, m.body(1).joint().lower(), 0);
        assertEquals(0.2, m.body(1).joint().upper(), 0);
        assertWarns(m, "dry friction (dynamics friction) is not modelled");
        ModelException e = failure(model("1.7", link("a", null) + link("b", null)
                + "<joint name=\"s\" type=\"screw\"><parent>a</parent><child>b</child></joint>\n"));
        errorAt(e, 6, "a screw joint couples rotation and translation by its thread pitch");
    }

    @Test
    void staticModelsAreFixedAndOthersFloatOnAJointNamedAfterTheRootLink() {
        String body = link("base", "0 0 1 0 0 0") + link("arm", "0 0 2 0 0 0")
                + "<joint name=\"j\" type=\"revolute\"><parent>base</parent><child>arm</child></joint>\n";
        Model floating = read(model("1.7", body));
        assertEquals(JointType.FLOATING, floating.body(0).joint().type());
        assertEquals("base", floating.body(0).joint().name());
        assertEquals(List.of("base:x", "base:y", "base:z", "base:qx", "base:qy", "base:qz", "base:qw", "j"),
                floating.qNames());
        Model fixed = read(model("1.7", "<static>true</static>" + body));
        assertEquals(0, fixed.nq());
        assertWarns(fixed, "joint 'j' is in a static model: it is fixed");
    }

    @Test
    void versionsOutsideOneSixToOneElevenAreLocatedErrors() {
        for (String v : List.of("1.5", "2.0", "one")) {
            errorAt(failure(model(v, link("a", null))), 2, "SDFormat 1.6 to 1.11 is read");
        }
        errorAt(failure("<sdf><model name=\"m\"/></sdf>"), 1, "<sdf> has no 'version' attribute");
        errorAt(failure("<robot name=\"r\"/>"), 1, "expected <sdf>");
        for (String v : List.of("1.6", "1.7", "1.8", "1.9", "1.10", "1.11")) {
            assertEquals(7, read(model(v, link("a", null))).nq(), v);
        }
    }

    @Test
    void aWorldWithOneModelIsReadAndSeveralAreRefusedByName() {
        Model m = read("""
                <sdf version="1.7"><world name="w"><gravity>0 0 -3</gravity><light name="sun"/>
                <model name="m">%s</model></world></sdf>
                """.formatted(link("a", null)));
        assertEquals(-3, m.gravity(2), 0);
        assertWarns(m, "the world's content other than its model and gravity (<light>) is ignored");
        assertEquals(-9.8, read("<sdf version=\"1.7\"><world name=\"w\"><model name=\"m\">" + link("a", null)
                + "</model></world></sdf>").gravity(2), 0);
        assertEquals(-9.81, read(model("1.7", link("a", null))).gravity(2), 0);
        ModelException e = failure("""
                <sdf version="1.7"><world name="w">
                <model name="m1">%1$s</model><model name="m2">%1$s</model></world></sdf>
                """.formatted(link("a", null)));
        errorAt(e, 1, "the world has 2 models ('m1', 'm2')");
    }

    @Test
    void sdf16AxisInTheParentModelFrame() {
        String body = link("a", null) + link("b", "0 0 1 0 0 1.5707963267948966") + """
                <joint name="j" type="revolute"><parent>a</parent><child>b</child>
                  <axis><xyz>1 0 0</xyz><use_parent_model_frame>%s</use_parent_model_frame></axis></joint>
                <joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint>
                """;
        assertArrayEquals(new double[] {0, -1, 0}, read(model("1.6", body.formatted("true"))).body(0).joint()
                .axis(), EPS);
        assertArrayEquals(new double[] {1, 0, 0}, read(model("1.6", body.formatted("false"))).body(0).joint()
                .axis(), EPS);
        errorAt(failure(model("1.7", body.formatted("true"))), 7, "use_parent_model_frame was replaced");
    }

    @Test
    void posesInDegreesAndQuaternionsFromOneNine() {
        String deg = link("a", null) + "<link name=\"b\"><pose degrees=\"true\">0 0 1 0 0 90</pose>"
                + "<inertial><mass>1</mass></inertial></link>\n"
                + "<joint name=\"j\" type=\"fixed\"><parent>a</parent><child>b</child></joint>\n";
        String quat = deg.replace("<pose degrees=\"true\">0 0 1 0 0 90</pose>",
                "<pose rotation_format=\"quat_xyzw\">0 0 1 0 0 0.7071067811865476 0.7071067811865476</pose>");
        for (String body : List.of(deg, quat)) {
            Model m = read(model("1.9", body));
            assertEquals(0, m.frame("b").pose().rotation(0, 0), EPS);
            assertEquals(1, m.frame("b").pose().rotation(1, 0), EPS);
        }
        errorAt(failure(model("1.8", deg)), 5, "pose degrees and rotation_format need SDFormat 1.9");
        errorAt(failure(model("1.7", deg.replace("degrees=\"true\"", "relative_to=\"a\"").replace("90", "x"))),
                5, "'x' is not a number");
    }

    /** A child of {@code <noise>} SDFormat does not have is warned about: a misspelt stdev gave a noiseless lidar. */
    @Test
    void aMisspeltNoiseElementIsWarnedAbout() throws Exception {
        Model m = read(model("1.9", """
                <link name="box"><inertial><mass>1</mass></inertial>
                  <sensor name="scan" type="gpu_lidar"><lidar><scan><horizontal><samples>5</samples><min_angle>-1</min_angle>
                    <max_angle>1</max_angle></horizontal></scan>
                    <range><min>0.1</min><max>10</max></range><noise><stdev>0.02</stdev></noise></lidar></sensor>
                </link>
                """));
        assertWarns(m, "unknown element <stdev> in <noise>; did you mean 'stddev'?; ignored");
        // a custom element of another tool (SDFormat's extension point, in a namespace) is not warned about
        Model custom = read(model("1.9", "<link name=\"box\" xmlns:drake=\"http://drake.mit.edu\"><inertial><mass>1"
                + "</mass></inertial><drake:proximity_properties/></link>"));
        assertTrue(custom.warnings().stream().noneMatch(d -> d.message().contains("proximity_properties")),
                custom.warnings().toString());
        assertEquals(0, m.scene().lidars().get(0).noise(), 0, "as the warning says");
        // drake's files often use the prefix without declaring it; libsdformat does not mind: one warning
        Model undeclared = read(model("1.9", "<link name=\"box\"><inertial><mass>1</mass></inertial>"
                + "<drake:proximity_properties><drake:mu_static>1</drake:mu_static></drake:proximity_properties>"
                + "</link>"));
        assertEquals(1, undeclared.warnings().size(), undeclared.warnings().toString());
        assertWarns(undeclared, "namespace prefix 'drake' is used without a declaration");
    }

    @Test
    void aSingleSampleAxisPointsStraightAheadAsInGazeboAndAmbientColoursAreRead() throws Exception {
        // A helper's finding: one horizontal or vertical sample pointed at its min_angle, where Gazebo's ray sensor
        // points it at 0 (a 2-D laser declaring <vertical><samples>1 with a min_angle of its own was tilted)
        Model m = read(model("1.9", """
                <link name="base"><inertial><mass>1</mass></inertial>
                  <visual name="v"><geometry><box><size>1 1 1</size></box></geometry>
                    <material><ambient>0 1 0 1</ambient></material></visual>
                  <sensor name="single" type="gpu_lidar"><lidar><scan>
                    <horizontal><samples>1</samples><min_angle>-0.4</min_angle><max_angle>0.4</max_angle></horizontal>
                    <vertical><samples>1</samples><min_angle>-0.2</min_angle><max_angle>0.2</max_angle></vertical>
                    </scan><range><min>0.1</min><max>10</max></range></lidar></sensor>
                  <sensor name="fan" type="gpu_lidar"><lidar><scan>
                    <horizontal><samples>3</samples><min_angle>-0.4</min_angle><max_angle>0.4</max_angle></horizontal>
                    <vertical><samples>1</samples><min_angle>-0.2</min_angle><max_angle>-0.2</max_angle></vertical>
                    </scan><range><min>0.1</min><max>10</max></range></lidar></sensor>
                </link>
                """));
        LidarModel single = m.scene().lidars().get(0);
        assertEquals(List.of(0.0, 0.0, 0.0, 0.0), List.of(single.minAngle(), single.maxAngle(), single.minElevation(),
                single.maxElevation()));
        LidarModel fan = m.scene().lidars().get(1);
        assertEquals(List.of(-0.4, 0.4, 0.0, 0.0), List.of(fan.minAngle(), fan.maxAngle(), fan.minElevation(),
                fan.maxElevation()));
        assertArrayEquals(new double[] {0, 1, 0, 1}, m.scene().visualShapes().get(0).rgba(), "the ambient colour");
    }

    @Test
    void shapesMaterialsAndSensors() throws Exception {
        Model m = read(model("1.9", """
                <link name="ground"><pose>0 0 -1 0 0 0</pose>
                  <collision name="plane"><geometry><plane><normal>0 0 1</normal><size>10 10</size></plane></geometry>
                    <surface><friction><ode><mu>0.7</mu></ode></friction><bounce><restitution_coefficient>0.2</restitution_coefficient></bounce></surface>
                  </collision></link>
                <link name="box"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial>
                  <collision name="c"><pose>0 0 0.5 0 0 0</pose><geometry><box><size>1 2 3</size></box></geometry>
                    <surface><friction><bullet><friction>0.4</friction></bullet></friction></surface></collision>
                  <collision name="cap"><geometry><capsule><radius>0.1</radius><length>0.3</length></capsule></geometry></collision>
                  <collision name="mesh"><geometry><mesh><uri>model://x/meshes/a.stl</uri></mesh></geometry></collision>
                  <visual name="v"><geometry><sphere><radius>0.2</radius></sphere></geometry>
                    <material><diffuse>1 0 0 1</diffuse></material></visual>
                  <sensor name="imu" type="imu"><pose>0 0 0.1 0 0 0</pose><imu><angular_velocity>
                    <x><noise type="gaussian"><stddev>0.01</stddev></noise></x><y><noise type="gaussian"><stddev>0.01</stddev></noise></y>
                    <z><noise type="gaussian"><stddev>0.01</stddev><bias_mean>0.001</bias_mean></noise></z></angular_velocity></imu></sensor>
                  <sensor name="scan" type="gpu_lidar"><lidar><scan><horizontal><samples>5</samples><min_angle>-1</min_angle>
                    <max_angle>1</max_angle></horizontal><vertical><samples>2</samples><min_angle>-0.1</min_angle><max_angle>0.1</max_angle></vertical></scan>
                    <range><min>0.1</min><max>10</max></range><noise><stddev>0.02</stddev></noise></lidar></sensor>
                  <sensor name="cam" type="camera"/>
                  <plugin name="p" filename="libp.so"/>
                </link>
                <joint name="fix" type="fixed"><parent>world</parent><child>ground</child></joint>
                """));
        CollisionShapeModel plane = collision(m, "ground::plane");
        assertTrue(plane.shape() instanceof HalfSpace);
        assertTrue(plane.isStatic());
        assertEquals(0.7, plane.material().friction(), 0);
        assertEquals(0.2, plane.material().restitution(), 0);
        CollisionShapeModel box = collision(m, "box::c");
        assertTrue(box.shape() instanceof Box);
        assertEquals(0.4, box.material().friction(), 0);
        assertEquals(0, box.material().restitution(), 0);
        assertTrue(collision(m, "box::cap").shape() instanceof Capsule);
        assertEquals(3, m.scene().collisionShapes().size());
        assertFalse(warns(m, "mesh"), "meshes are skipped without a word by default: " + m.warnings());
        Model withMeshes = SdfReader.parse(model("1.9", "<link name=\"box\"><inertial><mass>1</mass></inertial>\n"
                + "<collision name=\"mesh\"><geometry><mesh><uri>model://x/meshes/a.stl</uri></mesh></geometry>"
                + "</collision></link>"), PATH, new SdfReader.Options(false, List.of(), MeshPolicy.REQUIRED,
                PackagePath.of(List.of(), null)));
        assertWarns(withMeshes, "mesh left out: model://x/meshes/a.stl needs a package path");
        assertArrayEquals(new double[] {1, 0, 0, 1}, m.scene().visualShapes().get(0).rgba(), 0);
        ImuSpec imu = (ImuSpec) m.devices().get(0);
        assertEquals("imu", imu.name());
        assertEquals(0.01, imu.gyroNoise(), 0);
        assertArrayEquals(new double[] {0, 0, 0.001}, imu.gyroBias(), 0);
        assertArrayEquals(new double[] {0, 0, 0.1}, imu.position(), EPS);
        LidarModel lidar = m.scene().lidars().get(0);
        assertEquals(5, lidar.samples());
        assertEquals(2, lidar.rows());
        assertEquals(-0.1, lidar.elevation(0), 0);
        assertEquals(10, lidar.rangeMax(), 0);
        assertEquals(0.02, lidar.noise(), 0);
        assertWarns(m, "sensor type 'camera' is not read");
        assertWarns(m, "<plugin> is not read");
        Model moving = read(model("1.9", "<link name=\"a\"><collision name=\"p\"><geometry><plane/></geometry>"
                + "</collision></link>"));
        assertWarns(moving, "a <plane> on a link that moves is left out");
        errorAt(failure(model("1.8", "<link name=\"a\"><collision name=\"c\"><geometry><capsule/></geometry>"
                + "</collision></link>")), 4, "<capsule> needs SDFormat 1.9");
    }

    @Test
    void includesByRelativePathModelPathAndTheirProblems(@TempDir Path dir) throws Exception {
        Path arm = dir.resolve("models/arm");
        Files.createDirectories(arm);
        Files.writeString(arm.resolve("model.config"), "<model><name>arm</name><sdf version=\"1.7\">arm.sdf</sdf>"
                + "</model>");
        Files.writeString(arm.resolve("arm.sdf"), "<sdf version=\"1.7\"><model name=\"arm\">" + link("l", null)
                + link("l2", "0 0 1 0 0 0") + "<joint name=\"j\" type=\"revolute\"><parent>__model__</parent>"
                + "<child>l2</child></joint></model></sdf>");
        Path main = dir.resolve("robot.sdf");
        Files.writeString(main, model("1.8", link("base", null)
                + "<include><uri>models/arm</uri><name>left</name><pose>0 1 0 0 0 0</pose></include>\n"
                + "<include><uri>model://arm</uri><name>right</name></include>\n"
                + "<include><uri>model://missing</uri></include>\n"
                + "<joint name=\"fix\" type=\"fixed\"><parent>world</parent><child>base</child></joint>\n"
                + "<joint name=\"a\" type=\"fixed\"><parent>base</parent><child>left::l</child></joint>\n"
                + "<joint name=\"b\" type=\"fixed\"><parent>base</parent><child>right::l</child></joint>\n"));
        Model m = SdfReader.read(main, new SdfReader.Options(false, List.of(dir.resolve("models"))));
        // Each arm's l is fixed to base; its joint j hangs l2 from the arm's model frame, which moves with l.
        assertEquals(List.of("left::j", "right::j"), m.qNames());
        assertTrue(m.hasFrame("left::l"));
        assertArrayEquals(new double[] {0, 1, 0}, m.frame("left::l").pose().translationArray(), EPS);
        assertWarns(m, "include uri 'model://missing' is not found in the model path");
        assertEquals("SDFormat 1.8", ModelFileReader.formatName(main));
        // merge="true" is not supported: said, and read as nested
        Files.writeString(main, Files.readString(main).replace("<include><uri>model://arm</uri>",
                "<include merge=\"true\"><uri>model://arm</uri>"));
        Model merged = SdfReader.read(main, new SdfReader.Options(false, List.of(dir.resolve("models"))));
        assertEquals(List.of("left::j", "right::j"), merged.qNames());
        assertWarns(merged, "<include merge='true'> is read as a nested model");

        Files.writeString(arm.resolve("arm.sdf"), "<sdf version=\"1.7\"><model name=\"arm\">" + link("l", null)
                + "<include><uri>../../robot.sdf</uri></include></model></sdf>");
        ModelException e = assertThrowsModel(main, dir);
        assertTrue(e.getMessage().contains("a recursive include"), e.getMessage());
    }

    private static ModelException assertThrowsModel(Path main, Path dir) {
        try {
            SdfReader.read(main, new SdfReader.Options(false, List.of(dir.resolve("models"))));
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the file was read");
    }

    @Test
    void theModelFileReaderReadsSdfAndNamesItsVersion(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.sdf");
        Files.writeString(file, model("1.10", link("a", null)));
        Model m = ModelFileReader.read(file, new ModelFileReader.Options(true, false, false));
        assertEquals(7, m.nq());
        assertEquals("SDFormat 1.10", ModelFileReader.formatName(file));
        Files.writeString(file, model("1.10", "<static>true</static>" + link("a", null)));
        ModelException e = assertThrowsFileReader(file);
        assertTrue(e.getMessage().contains("an SDFormat model floats when no joint attaches it"), e.getMessage());
        assertNull(SdfReader.version(dir.resolve("absent.sdf")));
    }

    private static ModelException assertThrowsFileReader(Path file) {
        try {
            ModelFileReader.read(file, new ModelFileReader.Options(true, false, false));
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the file was read");
    }
}
