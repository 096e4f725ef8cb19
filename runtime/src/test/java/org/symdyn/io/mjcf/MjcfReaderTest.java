package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.mjcf.MjcfTesting.assertClose;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;

/** The MJCF reader's rules, each on a small hand-written model. */
class MjcfReaderTest {
    private static final String INERTIAL = "<inertial pos=\"0.1 0.02 -0.3\" mass=\"2\" diaginertia=\"0.1 0.2 0.15\"/>";

    private static double[] rotation(Model m, int body) {
        return m.body(body).joint().placement().rotationArray();
    }

    @Test
    void defaultClassesChildclassAndMainResolveAsMujocoDoes() {
        Model m = read("""
                <mujoco model="d">
                  <default>
                    <joint armature="1" damping="2"/>
                    <default class="a">
                      <joint armature="3"/>
                      <default class="b"><joint damping="5"/></default>
                    </default>
                  </default>
                  <worldbody>
                    <body name="p">%s
                      <joint name="main"/>
                      <body name="q" childclass="b">%s
                        <joint name="inherited"/>
                        <body name="r">%s<joint name="explicit" class="a" damping="7"/></body>
                      </body>
                    </body>
                  </worldbody>
                </mujoco>
                """.formatted(INERTIAL, INERTIAL, INERTIAL));
        assertEquals(List.of("main", "inherited", "explicit"), m.qNames());
        assertEquals(1, m.body(0).joint().armature());
        assertEquals(2, m.body(0).joint().damping());
        // childclass b applies to the body's own joint: b's damping, armature from its parent a
        assertEquals(3, m.body(1).joint().armature());
        assertEquals(5, m.body(1).joint().damping());
        // an explicit class beats the inherited childclass; the element's own value beats its class
        assertEquals(3, m.body(2).joint().armature());
        assertEquals(7, m.body(2).joint().damping());
    }

    @Test
    void eulerSequencesAreIntrinsicInLowerCaseAndExtrinsicInUpperCase() {
        String body = "<worldbody><body name=\"b\" euler=\"%s\">" + INERTIAL + "<joint/></body></worldbody>";
        double[] intrinsic = rotation(read("<mujoco><compiler eulerseq=\"zyx\"/>" + body.formatted("30 -20 70")
                + "</mujoco>"), 0);
        double[] extrinsic = rotation(read("<mujoco><compiler eulerseq=\"XYZ\"/>" + body.formatted("70 -20 30")
                + "</mujoco>"), 0);
        assertClose(intrinsic, extrinsic, 1e-15, "z-y'-x'' equals X-Y-Z with the angles reversed");
        // "xyz" (the default) by 90 degrees about x then about the new y: R = Rx(90) Ry(90)
        double[] xy = rotation(read("<mujoco>" + body.formatted("90 90 0") + "</mujoco>"), 0);
        assertClose(new double[] {0, 0, 1, 1, 0, 0, 0, 1, 0}, xy, 1e-15, "Rx Ry");
        double[] fixed = rotation(read("<mujoco><compiler eulerseq=\"XYZ\"/>" + body.formatted("90 90 0")
                + "</mujoco>"), 0);
        assertClose(new double[] {0, 1, 0, 0, 0, -1, -1, 0, 0}, fixed, 1e-15, "Ry Rx");
        double[] radians = rotation(read("<mujoco><compiler angle=\"radian\"/>" + body.formatted("0 0 "
                + Math.PI / 2) + "</mujoco>"), 0);
        assertClose(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1}, radians, 1e-15, "Rz in radians");
    }

    @Test
    void quatXyaxesZaxisAndAxisangleFollowMujocosRules() {
        String body = "<mujoco><worldbody><body name=\"b\" %s>" + INERTIAL + "<joint/></body></worldbody></mujoco>";
        // quat is w x y z, normalised
        assertClose(new double[] {1, 0, 0, 0, 0, -1, 0, 1, 0}, rotation(read(body.formatted("quat=\"2 2 0 0\"")), 0),
                1e-15, "quat");
        // y is made orthogonal to x (Gram-Schmidt), z = x × y
        assertClose(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1},
                rotation(read(body.formatted("xyaxes=\"0 3 0 -1 0.5 0\"")), 0), 1e-15, "xyaxes");
        // zaxis: the shortest rotation from z; straight down turns about x
        assertClose(new double[] {1, 0, 0, 0, 0, -1, 0, 1, 0}, rotation(read(body.formatted("zaxis=\"0 -2 0\"")),
                0), 1e-15, "zaxis");
        assertClose(new double[] {1, 0, 0, 0, -1, 0, 0, 0, -1}, rotation(read(body.formatted("zaxis=\"0 0 -1\"")),
                0), 1e-15, "zaxis down");
        assertClose(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1},
                rotation(read(body.formatted("axisangle=\"0 0 5 90\"")), 0), 1e-15, "axisangle in degrees");
    }

    @Test
    void atQEqualToRefTheBodyIsAtItsXmlPose() {
        Model m = read("""
                <mujoco><worldbody>
                  <body name="a" pos="0.1 0.2 0.3" euler="10 20 30">%s
                    <joint name="h" pos="0.3 -0.1 0.2" axis="1 1 0" ref="40"/>
                    <body name="b" pos="0.5 0 0">%s<joint name="s" type="slide" axis="0 0 2" ref="0.25"/></body>
                  </body>
                </worldbody></mujoco>
                """.formatted(INERTIAL, INERTIAL));
        Model atXml = read("""
                <mujoco><worldbody>
                  <body name="a" pos="0.1 0.2 0.3" euler="10 20 30">%s
                    <body name="b" pos="0.5 0 0">%s<joint name="s" type="slide" axis="0 0 2"/></body>
                  </body>
                </worldbody></mujoco>
                """.formatted(INERTIAL, INERTIAL));
        GenericDynamics d = new GenericDynamics(m);
        double[] r = new double[9];
        double[] p = new double[3];
        d.bodyPose(new double[] {40 * Math.PI / 180, 0.25}, 1, r, p);
        double[] r0 = new double[9];
        double[] p0 = new double[3];
        new GenericDynamics(atXml).bodyPose(new double[] {0}, 0, r0, p0);
        assertClose(r0, r, 1e-15, "rotation of b at q = ref");
        assertClose(p0, p, 1e-15, "position of b at q = ref");
        // away from ref, the hinge turns by q - ref about its own point
        d.bodyPose(new double[] {0, 0.25}, 1, r, p);
        assertNotEquals(r0[0], r[0]);
    }

    @Test
    void severalJointsInOneBodyActInOrderAboutTheirOwnPoints() {
        Model one = read("""
                <mujoco><worldbody><body name="b" pos="0 0 1">%s
                  <joint name="j1" pos="0.2 0 0" axis="0 1 0"/>
                  <joint name="j2" type="slide" axis="1 0 1"/>
                  <joint name="j3" pos="0 0.3 -0.1" axis="1 0 0"/>
                </body></worldbody></mujoco>
                """.formatted(INERTIAL));
        Model nested = read("""
                <mujoco><worldbody><body name="b1" pos="0 0 1"><joint name="j1" pos="0.2 0 0" axis="0 1 0"/>
                  <body name="b2"><joint name="j2" type="slide" axis="1 0 1"/>
                    <body name="b">%s<joint name="j3" pos="0 0.3 -0.1" axis="1 0 0"/></body>
                  </body>
                </body></worldbody></mujoco>
                """.formatted(INERTIAL));
        assertEquals(List.of("b/j1", "b/j2", "b"), one.bodies().stream().map(b -> b.name()).toList());
        warning(one, "has no mass of its own");
        double[] q = {0.7, -0.3, 1.1};
        double[] v = {0.4, 0.9, -1.3};
        DMatrixRMaj h1 = new DMatrixRMaj(3, 3);
        DMatrixRMaj h2 = new DMatrixRMaj(3, 3);
        new GenericDynamics(one).massMatrix(q, h1);
        new GenericDynamics(nested).massMatrix(q, h2);
        assertClose(h2.data, h1.data, 1e-15, "H");
        double[] c1 = new double[3];
        double[] c2 = new double[3];
        new GenericDynamics(one).biasForces(q, v, c1);
        new GenericDynamics(nested).biasForces(q, v, c2);
        assertClose(c2, c1, 1e-14, "C");
    }

    @Test
    void framesPlaceTheBodiesGeomsAndJointsInsideThem() {
        Model framed = read("""
                <mujoco><worldbody><frame pos="0 0 1" euler="0 0 90">
                  <body name="b" pos="0.5 0 0">%s<frame pos="0 0.1 0" euler="90 0 0"><joint pos="0 0 0.2"/></frame>
                  </body></frame></worldbody></mujoco>
                """.formatted(INERTIAL));
        Model plain = read("""
                <mujoco><worldbody>
                  <body name="b" pos="0 0.5 1" euler="0 0 90">%s<joint pos="0 -0.1 0" axis="0 -1 0"/></body>
                </worldbody></mujoco>
                """.formatted(INERTIAL));
        double[] q = {0.8};
        DMatrixRMaj h1 = new DMatrixRMaj(1, 1);
        DMatrixRMaj h2 = new DMatrixRMaj(1, 1);
        new GenericDynamics(framed).massMatrix(q, h1);
        new GenericDynamics(plain).massMatrix(q, h2);
        assertEquals(h2.get(0, 0), h1.get(0, 0), 1e-14);
        double[] g1 = new double[1];
        double[] g2 = new double[1];
        new GenericDynamics(framed).gravityForces(q, g1);
        new GenericDynamics(plain).gravityForces(q, g2);
        assertEquals(g2[0], g1[0], 1e-13);
    }

    @Test
    void freeJointsAreNamedAfterTheirBodyAndJointsGetStableNames() {
        Model m = read("""
                <mujoco><worldbody><body name="base" pos="0 0 1">%s<freejoint/>
                  <body name="leg">%s<joint/></body>
                  <body name="arm">%s<joint/><joint type="slide"/></body>
                  <body>%s<joint name="arm_joint1"/></body>
                </body></worldbody></mujoco>
                """.formatted(INERTIAL, INERTIAL, INERTIAL, INERTIAL));
        assertEquals(List.of("base:x", "base:y", "base:z", "base:qx", "base:qy", "base:qz", "base:qw", "leg_joint",
                "arm_joint1_", "arm_joint2", "arm_joint1"),
                m.qNames());
        assertEquals(JointType.FLOATING, m.body(0).joint().type());
        assertEquals("body4", m.body(m.bodyCount() - 1).name());
    }

    @Test
    void inertiaComesFromGeomsByMujocosFormulas() {
        Model m = read("""
                <mujoco><worldbody><body name="b">
                  <joint/>
                  <geom type="box" size="0.1 0.2 0.3" pos="0 0 0.5"/>
                  <geom type="sphere" size="0.1" mass="3" contype="0" conaffinity="0"/>
                </body></worldbody></mujoco>
                """);
        double boxMass = 1000 * 8 * 0.1 * 0.2 * 0.3;
        double mass = boxMass + 3;
        assertEquals(mass, m.body(0).inertia().mass(), 1e-12);
        assertEquals(boxMass * 0.5 / mass, m.body(0).inertia().com(2), 1e-15);
        // about the body origin: box (b² + c²)/3 + m d², sphere 2/5 m r²
        double ixx = boxMass * (0.04 + 0.09) / 3 + boxMass * 0.25 + 0.4 * 3 * 0.01;
        assertEquals(ixx, m.body(0).inertia().inertiaAboutOrigin(0, 0), 1e-12);
        // the box collides, the sphere (contype and conaffinity 0) is visual; both are drawn, as MuJoCo draws them
        assertEquals(1, m.scene().collisionShapes().size());
        assertInstanceOf(Box.class, m.scene().collisionShapes().get(0).shape());
        assertEquals(2, m.scene().visualShapes().size());
        // capsule: MuJoCo's split into a cylinder and two hemispheres
        Model c = read("<mujoco><worldbody><body name=\"b\"><joint/><geom type=\"capsule\" fromto=\"0 0 0 0 0 0.4\""
                + " size=\"0.05\"/></body></worldbody></mujoco>");
        double r = 0.05;
        double h = 0.4;
        double capsuleMass = 1000 * (Math.PI * r * r * h + 4.0 / 3 * Math.PI * r * r * r);
        assertEquals(capsuleMass, c.body(0).inertia().mass(), 1e-12);
        double ms = capsuleMass * 4 * r / (4 * r + 3 * h);
        double izz = (capsuleMass - ms) * r * r / 2 + 2 * ms * r * r / 5;
        assertEquals(izz, c.body(0).inertia().inertiaAboutCom(2, 2), 1e-15);
        assertInstanceOf(Capsule.class, c.scene().collisionShapes().get(0).shape());
        assertEquals(0.2, c.body(0).inertia().com(2), 1e-15);
    }

    @Test
    void fullinertiaIsInTheBodyFrame() {
        Model m = read("<mujoco><worldbody><body name=\"b\"><joint/><inertial pos=\"0 0 0\" mass=\"1\""
                + " fullinertia=\"0.3 0.2 0.1 0.01 0.02 0.03\"/></body></worldbody></mujoco>");
        assertEquals(0.3, m.body(0).inertia().inertiaAboutCom(0, 0));
        assertEquals(0.01, m.body(0).inertia().inertiaAboutCom(0, 1));
        assertEquals(0.02, m.body(0).inertia().inertiaAboutCom(0, 2));
        assertEquals(0.03, m.body(0).inertia().inertiaAboutCom(1, 2));
        assertEquals(0.1, m.body(0).inertia().inertiaAboutCom(2, 2));
    }

    @Test
    void equalitiesBecomeLoopsAndCouplers() {
        Model m = read("""
                <mujoco><worldbody>
                  <body name="a">%s<joint name="ja" axis="0 1 0"/>
                    <body name="b" pos="1 0 0">%s<joint name="jb" axis="0 1 0" ref="10"/></body>
                  </body>
                  <body name="c" pos="0 0 -1">%s<joint name="jc" axis="0 1 0"/></body>
                </worldbody>
                <equality>
                  <connect name="loop" body1="b" body2="c" anchor="0.5 0 -0.5"/>
                  <weld body1="c"/>
                  <joint joint1="jb" joint2="jc" polycoef="0.1 2 0 0 0"/>
                </equality></mujoco>
                """.formatted(INERTIAL, INERTIAL, INERTIAL));
        LoopConstraintModel loop = (LoopConstraintModel) m.constraints().get(0);
        assertEquals(3, loop.rowCount());
        // at the reference configuration, the anchor is one point of both bodies
        GenericDynamics d = new GenericDynamics(m);
        double[] q = {0, 10 * Math.PI / 180, 0};
        double[] p1 = new double[3];
        double[] p2 = new double[3];
        d.pointPosition(q, loop.predecessorBody(), loop.predecessorFrame().translationArray(), p1);
        d.pointPosition(q, loop.successorBody(), loop.successorFrame().translationArray(), p2);
        assertClose(new double[] {1.5, 0, -0.5}, p1, 1e-15, "anchor from body1");
        assertClose(p1, p2, 1e-15, "anchor from body2");
        LoopConstraintModel weld = (LoopConstraintModel) m.constraints().get(1);
        assertEquals("weld2", weld.name());
        assertEquals(6, weld.rowCount());
        assertEquals(-1, weld.successorBody());
        CouplerConstraintModel coupler = (CouplerConstraintModel) m.constraints().get(2);
        assertEquals(2, coupler.ratio());
        assertEquals(10 * Math.PI / 180 + 0.1, coupler.offset(), 1e-16);
        assertEquals(1, coupler.joint());
        assertEquals(2, coupler.referenceJoint());
    }

    @Test
    void actuatorsSensorsGeomsAndExclusionsAreRead() {
        Model m = read("""
                <mujoco><compiler angle="radian"/>
                  <default><position kp="50" forcerange="-20 20"/></default>
                  <worldbody><geom type="plane" size="0 0 1"/>
                    <body name="a">%s<joint name="ja" axis="0 1 0"/><site name="imu" pos="0 0 0.1"/>
                      <geom type="box" size="0.1 0.1 0.1" friction="0.7"/>
                      <geom type="ellipsoid" size="0.1 0.2 0.3"/>
                      <geom type="mesh" mesh="m"/>
                      <body name="b">%s<joint name="jb"/><geom type="sphere" size="0.1"/></body>
                    </body>
                  </worldbody>
                  <asset><mesh name="m" file="missing.stl"/></asset>
                  <contact><exclude body1="a" body2="b"/></contact>
                  <actuator>
                    <motor name="m1" joint="ja" gear="10" ctrlrange="-2 2"/>
                    <position name="p1" joint="jb" gear="2"/>
                  </actuator>
                  <sensor>
                    <jointpos name="e" joint="ja"/>
                    <gyro site="imu" noise="0.01"/><accelerometer site="imu" noise="0.1"/>
                    <framequat objtype="site" objname="imu"/>
                  </sensor>
                </mujoco>
                """.formatted(INERTIAL, INERTIAL));
        TorqueSourceSpec motor = (TorqueSourceSpec) m.devices().get(0);
        assertEquals(20, motor.maxTorque());
        ServoSpec servo = (ServoSpec) m.devices().get(1);
        assertEquals(200, servo.kp());
        assertEquals(40, servo.maxTorque());
        EncoderSpec encoder = (EncoderSpec) m.devices().get(2);
        assertEquals("ja", encoder.joint());
        ImuSpec imu = (ImuSpec) m.devices().get(3);
        assertEquals("imu", imu.name());
        assertEquals(0.01, imu.gyroNoise());
        assertEquals(0.1, imu.accelNoise());
        assertClose(new double[] {0, 0, 0.1}, imu.position(), 0, "imu position");
        assertEquals(3, m.scene().collisionShapes().size());
        assertInstanceOf(HalfSpace.class, m.scene().collisionShapes().get(0).shape());
        assertEquals(0.7, m.scene().collisionShapes().get(1).material().friction());
        assertTrue(m.scene().excluded("a", "b"));
        warning(m, "ellipsoid geoms are not supported as shapes; left out");
        warning(m, "missing.stl': no such file");
        warning(m, "<framequat> sensors are not read");
    }
}
