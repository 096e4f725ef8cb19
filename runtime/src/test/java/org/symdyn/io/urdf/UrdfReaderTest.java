package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.FLOATING;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Body;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Frame;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** What the reader puts into the model: inertias, fixed-link merging, joints, order, mimic, floating base. */
class UrdfReaderTest {
    private static final double TOL = 1e-12;
    private static final String HALF_PI = "1.5707963267948966";
    private static final String INERTIAL = "<inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>";

    /** One body b of mass 2 on a revolute joint, with the given inertial origin and inertia attributes. */
    private static String oneBody(String inertialOrigin, String inertia) {
        return """
                <robot name="r">
                  <link name="world"/>
                  <link name="b">
                    <inertial>
                      %s
                      <mass value="2"/>
                      <inertia %s/>
                    </inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="world"/><child link="b"/></joint>
                </robot>
                """.formatted(inertialOrigin, inertia);
    }

    @Test
    void rotatedInertialFrameEqualsTheSameInertiaWrittenInLinkAxes() {
        // Rz(90°) Rx(90°) takes the inertial frame's x to the link's y, y to z and z to x, so principal moments
        // (1, 2, 3) about the inertial axes are moments (3, 1, 2) about the link axes.
        Model rotated = read(oneBody("<origin xyz=\"0.1 0.2 0.3\" rpy=\"" + HALF_PI + " 0 " + HALF_PI + "\"/>",
                "ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"2\" iyz=\"0\" izz=\"3\""));
        Model plain = read(oneBody("<origin xyz=\"0.1 0.2 0.3\"/>",
                "ixx=\"3\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"2\""));
        RigidBodyInertia a = rotated.body(0).inertia();
        RigidBodyInertia b = plain.body(0).inertia();
        assertEquals(2.0, a.mass());
        assertArrayEquals(new double[] {0.1, 0.2, 0.3}, a.comArray(), TOL);
        assertArrayEquals(b.inertiaAboutComArray(), a.inertiaAboutComArray(), TOL);
        assertArrayEquals(new double[] {3, 0, 0, 0, 1, 0, 0, 0, 2}, a.inertiaAboutComArray(), TOL);
    }

    @Test
    void generalInertialRotationIsRIRt() {
        double roll = 0.3;
        double pitch = -0.2;
        double yaw = 0.5;
        Model m = read(oneBody("<origin xyz=\"0 0 0\" rpy=\"" + roll + " " + pitch + " " + yaw + "\"/>",
                "ixx=\"0.4\" ixy=\"0.01\" ixz=\"-0.02\" iyy=\"0.5\" iyz=\"0.03\" izz=\"0.6\""));
        // R = Rz(yaw) Ry(pitch) Rx(roll) from elementary rotations, independent of the library's fromRpy.
        double[][] r = mul(mul(rotZ(yaw), rotY(pitch)), rotX(roll));
        double[][] inertia = {{0.4, 0.01, -0.02}, {0.01, 0.5, 0.03}, {-0.02, 0.03, 0.6}};
        double[][] expected = mul(mul(r, inertia), transpose(r));
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(expected[i][j], m.body(0).inertia().inertiaAboutCom(i, j), TOL, i + "," + j);
            }
        }
    }

    @Test
    void fixedLinksAreMergedIntoTheirMovingAncestorAndBecomeFrames() {
        Model m = read("""
                <robot name="r">
                  <link name="world"/>
                  <link name="a">
                    <inertial>
                      <origin xyz="0 0 0.1"/>
                      <mass value="2"/>
                      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/>
                    </inertial>
                  </link>
                  <link name="b">
                    <inertial>
                      <origin xyz="0.1 0 0"/>
                      <mass value="1"/>
                      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/>
                    </inertial>
                  </link>
                  <link name="c"/>
                  <link name="plate">%s</link>
                  <joint name="j" type="revolute"><parent link="world"/><child link="a"/></joint>
                  <joint name="ab" type="fixed">
                    <origin xyz="0.5 0 0" rpy="0 0 %s"/>
                    <parent link="a"/><child link="b"/>
                  </joint>
                  <joint name="bc" type="fixed">
                    <origin xyz="0 0.2 0"/>
                    <parent link="b"/><child link="c"/>
                  </joint>
                  <joint name="wp" type="fixed"><parent link="world"/><child link="plate"/></joint>
                </robot>
                """.formatted(INERTIAL, HALF_PI));
        assertEquals(1, m.bodyCount());
        RigidBodyInertia merged = m.body(0).inertia();

        // By hand: b's centre of mass in a is (0.5, 0, 0) + Rz(90°) (0.1, 0, 0) = (0.5, 0.1, 0), and its moments
        // about a's axes are (0.02, 0.01, 0.03) (x and y swap). Mass 3, centre of mass the weighted mean, inertia
        // the sum of both about the common centre of mass by the parallel-axis theorem.
        double[] ca = {0, 0, 0.1};
        double[] cb = {0.5, 0.1, 0};
        double[] c = {(2 * ca[0] + cb[0]) / 3, (2 * ca[1] + cb[1]) / 3, (2 * ca[2] + cb[2]) / 3};
        double[][] ia = {{0.1, 0, 0}, {0, 0.2, 0}, {0, 0, 0.3}};
        double[][] ib = {{0.02, 0, 0}, {0, 0.01, 0}, {0, 0, 0.03}};
        double[][] expected = add(add(ia, steiner(2, ca, c)), add(ib, steiner(1, cb, c)));
        assertEquals(3.0, merged.mass(), TOL);
        assertArrayEquals(c, merged.comArray(), TOL);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(expected[i][j], merged.inertiaAboutCom(i, j), TOL, i + "," + j);
            }
        }

        Frame b = m.frame("b");
        assertEquals(0, b.bodyIndex());
        assertArrayEquals(new double[] {0.5, 0, 0}, b.pose().translationArray(), TOL);
        assertEquals(-1.0, b.pose().rotation(0, 1), TOL);
        // c = b's placement composed with (0, 0.2, 0): (0.5, 0, 0) + Rz(90°) (0, 0.2, 0) = (0.3, 0, 0)
        Frame cf = m.frame("c");
        assertEquals(0, cf.bodyIndex());
        assertArrayEquals(new double[] {0.3, 0, 0}, cf.pose().translationArray(), TOL);
        // a link fixed to the root is a frame of the world; its mass does not move, so it is in no body
        assertEquals(-1, m.frame("plate").bodyIndex());
        assertEquals(3.0, m.body(0).inertia().mass(), TOL);
    }

    @Test
    void jointsInDocumentOrderDepthFirstFromTheRoot() {
        Model m = read("""
                <robot name="r">
                  <joint name="jA2x" type="revolute"><parent link="a2"/><child link="a2x"/></joint>
                  <link name="a2x">%1$s</link>
                  <joint name="jB" type="revolute"><parent link="root"/><child link="b"/></joint>
                  <link name="a">%1$s</link>
                  <joint name="jA" type="revolute"><parent link="root"/><child link="a"/></joint>
                  <joint name="jA2" type="revolute"><parent link="a"/><child link="a2"/></joint>
                  <link name="b">%1$s</link>
                  <joint name="jA1" type="revolute"><parent link="a"/><child link="a1"/></joint>
                  <link name="a1">%1$s</link>
                  <link name="a2">%1$s</link>
                  <link name="root"/>
                </robot>
                """.formatted(INERTIAL));
        // root's child joints in document order are jB then jA; a's are jA2 then jA1; each subtree is finished
        // (jA2 then its child jA2x) before the next sibling.
        assertEquals(List.of("jB", "jA", "jA2", "jA2x", "jA1"), m.qNames());
        assertArrayEquals(new int[] {-1, -1, 1, 2, 1}, m.parents());
        assertEquals("root", m.rootName());
        assertEquals(List.of("b", "a", "a2", "a2x", "a1"), m.bodies().stream().map(Body::name).toList());
    }

    @Test
    void jointTypesAxesOriginsAndLimits() {
        Model m = read("""
                <robot name="r">
                  <link name="world"/>
                  <link name="base">%1$s</link>
                  <link name="arm">%1$s</link>
                  <link name="sled">%1$s</link>
                  <link name="slide">%1$s</link>
                  <link name="wheel">%1$s</link>
                  <link name="flap">%1$s</link>
                  <joint name="free" type="floating">
                    <origin xyz="0 0 1"/>
                    <parent link="world"/><child link="base"/>
                  </joint>
                  <joint name="shoulder" type="ball"><parent link="base"/><child link="arm"/></joint>
                  <joint name="table" type="planar">
                    <axis xyz="0 0 2"/>
                    <parent link="arm"/><child link="sled"/>
                  </joint>
                  <joint name="p" type="prismatic">
                    <origin xyz="1 2 3" rpy="0.1 0.2 0.3"/>
                    <axis xyz="3 0 4"/>
                    <limit lower="-0.5" upper="0.25" effort="1" velocity="1"/>
                    <parent link="sled"/><child link="slide"/>
                  </joint>
                  <joint name="c" type="continuous">
                    <limit lower="-1" upper="1" effort="1" velocity="1"/>
                    <parent link="slide"/><child link="wheel"/>
                  </joint>
                  <joint name="h" type="revolute"><parent link="wheel"/><child link="flap"/></joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(List.of(JointType.FLOATING, JointType.BALL, JointType.PLANAR, JointType.PRISMATIC,
                JointType.CONTINUOUS, JointType.REVOLUTE), m.bodies().stream().map(b -> b.joint().type()).toList());
        assertEquals(7 + 4 + 3 + 1 + 1 + 1, m.nq());
        assertEquals(6 + 3 + 3 + 1 + 1 + 1, m.nv());
        assertTrue(m.hasFloatingBase());
        assertEquals(1.0, m.body(0).joint().placement().translation(2));

        assertArrayEquals(new double[] {0, 0, 1}, m.body(2).joint().axis(), TOL);
        Joint p = m.body(3).joint();
        assertArrayEquals(new double[] {0.6, 0, 0.8}, p.axis(), TOL);
        assertEquals(Pose.fromXyzRpy(new double[] {1, 2, 3}, new double[] {0.1, 0.2, 0.3}), p.placement());
        assertEquals(-0.5, p.lower());
        assertEquals(0.25, p.upper());
        assertTrue(p.hasLimits());
        // a continuous joint has no limits whatever the file says; a revolute joint without <limit> has none
        assertFalse(m.body(4).joint().hasLimits());
        assertTrue(Double.isNaN(m.body(5).joint().lower()) && Double.isNaN(m.body(5).joint().upper()));
        assertArrayEquals(new double[] {1, 0, 0}, m.body(5).joint().axis(), "default axis");
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
    }

    @Test
    void mimicBecomesACoupler() {
        Model m = read("""
                <robot name="r">
                  <link name="world"/>
                  <link name="a">%1$s</link>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <joint name="j1" type="revolute"><parent link="world"/><child link="a"/></joint>
                  <joint name="j2" type="prismatic">
                    <parent link="world"/><child link="b"/>
                    <mimic joint="j1" multiplier="2" offset="0.5"/>
                  </joint>
                  <joint name="j3" type="continuous">
                    <parent link="world"/><child link="c"/>
                    <mimic joint="j2"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(2, m.constraints().size());
        CouplerConstraintModel c2 = (CouplerConstraintModel) m.constraints().get(0);
        assertEquals("j2_mimic", c2.name());
        assertEquals(m.bodyIndexOfJoint("j2"), c2.joint());
        assertEquals(m.bodyIndexOfJoint("j1"), c2.referenceJoint());
        assertEquals(2.0, c2.ratio());
        assertEquals(0.5, c2.offset());
        assertTrue(Double.isNaN(c2.baumgarteTimeConstant()));
        assertEquals(9, c2.location().line());
        CouplerConstraintModel c3 = (CouplerConstraintModel) m.constraints().get(1);
        assertEquals("j3_mimic", c3.name());
        assertEquals(2, c3.joint());
        assertEquals(1, c3.referenceJoint());
        assertEquals(1.0, c3.ratio(), "default multiplier");
        assertEquals(0.0, c3.offset(), "default offset");
    }

    /** A base with mass (no world link), a fixed trunk and one leg joint, like HyQ. */
    private static final String NO_WORLD_LINK = """
            <robot name="dog">
              <link name="base">
                <inertial>
                  <mass value="1e-6"/>
                  <inertia ixx="1e-6" ixy="0" ixz="0" iyy="1e-6" iyz="0" izz="1e-6"/>
                </inertial>
              </link>
              <link name="trunk">
                <inertial>
                  <origin xyz="0.1 0 0"/>
                  <mass value="10"/>
                  <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                </inertial>
              </link>
              <link name="leg">%s</link>
              <joint name="trunk_joint" type="fixed"><parent link="base"/><child link="trunk"/></joint>
              <joint name="hip" type="revolute"><parent link="trunk"/><child link="leg"/></joint>
            </robot>
            """.formatted(INERTIAL);

    @Test
    void floatingBaseOptionFloatsARootLinkThatIsABody() {
        Model fixed = read(NO_WORLD_LINK);
        assertEquals("base", fixed.rootName());
        assertEquals(1, fixed.nv());

        Model m = read(NO_WORLD_LINK, FLOATING);
        assertEquals("world", m.rootName());
        assertEquals(List.of("base", "leg"), m.bodies().stream().map(Body::name).toList());
        Joint j = m.body(0).joint();
        assertEquals("floating_base", j.name());
        assertEquals(JointType.FLOATING, j.type());
        assertEquals(-1, m.body(0).parentIndex());
        assertTrue(j.placement().isIdentity());
        assertEquals(7, m.nv());
        assertEquals(8, m.nq());
        assertEquals(List.of("base:x", "base:y", "base:z", "base:qx", "base:qy", "base:qz", "base:qw", "hip"),
                m.qNames());
        // the floating body carries the base and the trunk fixed to it
        assertEquals(10 + 1e-6, m.body(0).inertia().mass(), TOL);
        assertEquals(0, m.frame("trunk").bodyIndex());
        assertEquals(-1, m.frame("world").bodyIndex());
    }

    @Test
    void floatingBaseOptionOnAFileWithAWorldLinkFloatsItUnderWorldRoot() {
        String xml = """
                <robot name="arm">
                  <link name="world"/>
                  <link name="base">%1$s</link>
                  <link name="l1">%1$s</link>
                  <joint name="mount" type="fixed"><parent link="world"/><child link="base"/></joint>
                  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/></joint>
                  <joint name="floating_base" type="continuous"><parent link="l1"/><child link="l2"/></joint>
                  <link name="l2">%1$s</link>
                </robot>
                """.formatted(INERTIAL);
        Model m = read(xml, FLOATING);
        assertEquals("world_root", m.rootName());
        assertEquals("world", m.body(0).name());
        // a movable joint of the file already has the name
        assertEquals("floating_base_root", m.body(0).joint().name());
        assertEquals(JointType.FLOATING, m.body(0).joint().type());
        assertEquals(1.0, m.body(0).inertia().mass(), TOL);
        assertEquals(8, m.nv());
    }

    @Test
    void floatingBaseOptionAddsNothingWhenTheFirstMovableJointFloats() {
        String xml = """
                <robot name="r">
                  <link name="world"/>
                  <link name="base">%1$s</link>
                  <link name="l1">%1$s</link>
                  <joint name="free" type="floating"><parent link="world"/><child link="base"/></joint>
                  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/></joint>
                </robot>
                """.formatted(INERTIAL);
        Model plain = read(xml);
        Model m = read(xml, FLOATING);
        assertEquals("world", m.rootName());
        assertEquals(plain.qNames(), m.qNames());
        assertEquals(7, m.nv());
        assertEquals("free", m.body(0).joint().name());
    }

    @Test
    void floatingBaseOptionOnAMasslessRootWithNothingFixedToItIsAnError() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="world"/>
                  <link name="l1">%s</link>
                  <joint name="j1" type="revolute"><parent link="world"/><child link="l1"/></joint>
                </robot>
                """.formatted(INERTIAL), FLOATING);
        // The massless floating 'world' is accepted as such (its child has mass), but one link cannot give a
        // floating base and a joint a positive definite H: refused at the load-time check of H.
        errorAt(e, 3, "the joint-space inertia H is singular");
        assertTrue(e.getMessage().contains("links without mass of their own: 'world'"), e.getMessage());
    }

    @Test
    void gravityAndIgnoredElements() {
        Model m = read("""
                <robot name="r" xmlns:s="urn:symdyn:1" xmlns:drake="http://drake.mit.edu">
                  <s:gravity xyz="0 -9.81 0"/>
                  <material name="blue"><color rgba="0 0 1 1"/></material>
                  <link name="world"/>
                  <link name="b">
                    %s
                    <visual><geometry><box size="1 1 1"/></geometry><material name="blue"/></visual>
                    <collision><geometry><sphere radius="1"/></geometry></collision>
                    <drake:proximity_properties/>
                  </link>
                  <joint name="j" type="revolute">
                    <parent link="world"/><child link="b"/>
                    <dynamics damping="0.1"/>
                    <safety_controller k_velocity="1"/>
                  </joint>
                  <transmission name="t"><type>x</type><joint name="j"/></transmission>
                  <gazebo reference="b"><mu1>1</mu1></gazebo>
                  <drake:collision_filter_group name="g"/>
                </robot>
                """.formatted(INERTIAL));
        assertArrayEquals(new double[] {0, -9.81, 0}, m.gravity());
        assertEquals(1, m.nv());
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        assertTrue(m.constraints().isEmpty());
        assertArrayEquals(Model.DEFAULT_GRAVITY, read(NO_WORLD_LINK).gravity(), "default gravity");
    }

    @Test
    void sourcePathAndHash(@TempDir Path dir) throws Exception {
        String xml = NO_WORLD_LINK;
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));

        Model fromString = UrdfReader.parse(xml, "in/memory.urdf", UrdfReader.Options.DEFAULT);
        assertEquals("in/memory.urdf", fromString.sourcePath());
        assertEquals(sha, fromString.sourceSha256());
        assertEquals("dog", fromString.name());

        Path file = dir.resolve("dog.urdf");
        Files.write(file, bytes);
        Model fromFile = UrdfReader.read(file);
        assertEquals(file.toString(), fromFile.sourcePath());
        assertEquals(sha, fromFile.sourceSha256());
        assertEquals(fromString.qNames(), fromFile.qNames());
    }

    @Test
    void positionsAreThoseOfStartTagsInFiles(@TempDir Path dir) throws Exception {
        // CR LF line ends and a byte order mark must not shift the reported lines and columns.
        String xml = "\uFEFF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<robot name=\"r\">\r\n  <link name=\"a\"/>"
                + "\r\n  <link name=\"b\"/>\r\n  <joint name=\"j\" type=\"revolute\">\r\n    <parent link=\"a\"/>"
                + "<child link=\"b\"/>\r\n  </joint>\r\n</robot>\r\n";
        Path file = dir.resolve("r.urdf");
        Files.write(file, xml.getBytes(StandardCharsets.UTF_8));
        ModelException e = org.junit.jupiter.api.Assertions.assertThrows(ModelException.class,
                () -> UrdfReader.read(file));
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
        // b is massless on a revolute joint: reported at <link name="b"/>, line 4, column 3
        assertEquals(file + ":[4,3] link 'b': mass 0 kg (with the links fixed to it), and no link it carries has"
                + " mass; a moving link needs a positive mass", e.diagnostics().get(0).toString());
    }

    // --- small 3x3 helpers for hand computations ---

    private static double[][] rotX(double a) {
        return new double[][] {{1, 0, 0}, {0, Math.cos(a), -Math.sin(a)}, {0, Math.sin(a), Math.cos(a)}};
    }

    private static double[][] rotY(double a) {
        return new double[][] {{Math.cos(a), 0, Math.sin(a)}, {0, 1, 0}, {-Math.sin(a), 0, Math.cos(a)}};
    }

    private static double[][] rotZ(double a) {
        return new double[][] {{Math.cos(a), -Math.sin(a), 0}, {Math.sin(a), Math.cos(a), 0}, {0, 0, 1}};
    }

    private static double[][] mul(double[][] a, double[][] b) {
        double[][] c = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    c[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        return c;
    }

    private static double[][] transpose(double[][] a) {
        double[][] t = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                t[i][j] = a[j][i];
            }
        }
        return t;
    }

    private static double[][] add(double[][] a, double[][] b) {
        double[][] c = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                c[i][j] = a[i][j] + b[i][j];
            }
        }
        return c;
    }

    /** The parallel-axis term m (|d|² 1 - d dᵀ) for a point mass at {@code at}, about {@code about}. */
    private static double[][] steiner(double m, double[] at, double[] about) {
        double[] d = {at[0] - about[0], at[1] - about[1], at[2] - about[2]};
        double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        double[][] s = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                s[i][j] = m * ((i == j ? dd : 0) - d[i] * d[j]);
            }
        }
        return s;
    }
}
