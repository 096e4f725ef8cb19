package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/** The SymDyn extension elements: body indices, poses folded through fixed joints, defaults, order. */
class UrdfConstraintElementsTest {
    private static final double TOL = 1e-12;
    private static final String INERTIAL = "<inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>";

    /**
     * Bodies in order: crank 0 (on ground), link 1 (on crank), rocker 2 (on ground). "post" is fixed to the ground
     * at (2, 0, 0) turned 90° about z; "tip" is fixed to the rocker at (1.5, 0, 0) turned 90° about z.
     */
    private static final String FOUR_BAR = """
            <robot name="fourbar" xmlns:sd="urn:symdyn:1">
              <link name="ground"/>
              <link name="post"/>
              <link name="crank">%1$s</link>
              <link name="link">%1$s</link>
              <link name="rocker">%1$s</link>
              <link name="tip"/>
              <joint name="weld" type="fixed">
                <origin xyz="2 0 0" rpy="0 0 1.5707963267948966"/>
                <parent link="ground"/><child link="post"/>
              </joint>
              <joint name="j1" type="revolute"><axis xyz="0 0 1"/><parent link="ground"/><child link="crank"/></joint>
              <joint name="j2" type="revolute">
                <origin xyz="1 0 0"/><axis xyz="0 0 1"/>
                <parent link="crank"/><child link="link"/>
                <mimic joint="j1" multiplier="-1"/>
              </joint>
              <joint name="j3" type="revolute"><axis xyz="0 0 1"/><parent link="ground"/><child link="rocker"/></joint>
              <joint name="tipweld" type="fixed">
                <origin xyz="1.5 0 0" rpy="0 0 1.5707963267948966"/>
                <parent link="rocker"/><child link="tip"/>
              </joint>
              <sd:gravity xyz="0 -9.81 0"/>
              <sd:loop name="closure" baumgarte_time_constant="0.1">
                <sd:predecessor link="post" xyz="0 1 0" rpy="0 0 0"/>
                <sd:successor link="tip" xyz="0.5 0 0"/>
                <sd:axis value="0 0 0 2 0 0"/>
                <sd:axis value="0 0 0 0 3 4"/>
              </sd:loop>
              <sd:contact name="touch" link="tip" point="0.2 0 0" normal="0 0 2"/>
              <sd:coupler name="gear" joint="j3" reference="j1" ratio="2" offset="0.25" baumgarte_time_constant="0.5"/>
              <sd:line_on_line name="edges" rolling="true">
                <sd:edge_f link="crank" xyz="0 0 0.1" rpy="0 0 0" half_length="0.5"/>
                <sd:edge_b link="ground" half_length="2"/>
              </sd:line_on_line>
            </robot>
            """.formatted(INERTIAL);

    @Test
    void constraintsAreReadInDeclarationOrder() {
        Model m = read(FOUR_BAR);
        assertEquals(List.of("j2_mimic", "closure", "touch", "gear", "edges"),
                m.constraints().stream().map(ConstraintModel::name).toList());
        assertEquals(List.of("coupler", "loop", "contact", "coupler", "line_on_line"),
                m.constraints().stream().map(ConstraintModel::typeName).toList());
        assertEquals(1 + 2 + 1 + 1 + 3, m.constraintRowCount());
        assertArrayEquals(new double[] {0, -9.81, 0}, m.gravity());
        assertEquals(List.of("crank", "link", "rocker"), m.bodies().stream().map(b -> b.name()).toList());
    }

    @Test
    void loopFramesAreFoldedThroughFixedJoints() {
        LoopConstraintModel loop = (LoopConstraintModel) read(FOUR_BAR).constraints().get(1);
        // predecessor on post, which is fixed to the ground: body -1, frame = weld placement composed with
        // (0, 1, 0): (2, 0, 0) + Rz(90°) (0, 1, 0) = (1, 0, 0), rotation Rz(90°)
        assertEquals(-1, loop.predecessorBody());
        assertArrayEquals(new double[] {1, 0, 0}, loop.predecessorFrame().translationArray(), TOL);
        assertArrayEquals(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1}, loop.predecessorFrame().rotationArray(), TOL);
        // successor on tip, fixed to the rocker (body 2): (1.5, 0, 0) + Rz(90°) (0.5, 0, 0) = (1.5, 0.5, 0)
        assertEquals(2, loop.successorBody());
        assertArrayEquals(new double[] {1.5, 0.5, 0}, loop.successorFrame().translationArray(), TOL);
        assertArrayEquals(new double[] {0, -1, 0, 1, 0, 0, 0, 0, 1}, loop.successorFrame().rotationArray(), TOL);
        // axes normalised, still in the predecessor frame
        assertEquals(2, loop.axes().size());
        assertArrayEquals(new double[] {0, 0, 0, 1, 0, 0}, loop.axes().get(0), TOL);
        assertArrayEquals(new double[] {0, 0, 0, 0, 0.6, 0.8}, loop.axes().get(1), TOL);
        assertEquals(0.1, loop.baumgarteTimeConstant());
        assertEquals(24, loop.location().line());
    }

    @Test
    void contactPointIsOnTheMovingBody() {
        ContactConstraintModel c = (ContactConstraintModel) read(FOUR_BAR).constraints().get(2);
        // tip is fixed to the rocker: (1.5, 0, 0) + Rz(90°) (0.2, 0, 0) = (1.5, 0.2, 0) in rocker coordinates
        assertEquals(2, c.body());
        assertArrayEquals(new double[] {1.5, 0.2, 0}, c.point(), TOL);
        assertArrayEquals(new double[] {0, 0, 1}, c.normal(), TOL);
        assertTrue(Double.isNaN(c.baumgarteTimeConstant()), "no attribute: stabilisation off");
    }

    @Test
    void couplerRelatesJointBodies() {
        Model m = read(FOUR_BAR);
        CouplerConstraintModel gear = (CouplerConstraintModel) m.constraints().get(3);
        assertEquals(m.bodyIndexOfJoint("j3"), gear.joint());
        assertEquals(2, gear.joint());
        assertEquals(0, gear.referenceJoint());
        assertEquals(2.0, gear.ratio());
        assertEquals(0.25, gear.offset());
        assertEquals(0.5, gear.baumgarteTimeConstant());
        CouplerConstraintModel mimic = (CouplerConstraintModel) m.constraints().get(0);
        assertEquals(1, mimic.joint());
        assertEquals(0, mimic.referenceJoint());
        assertEquals(-1.0, mimic.ratio());
    }

    @Test
    void lineOnLineEdgesIncludingTheWorld() {
        LineOnLineConstraintModel e = (LineOnLineConstraintModel) read(FOUR_BAR).constraints().get(4);
        assertEquals(0, e.bodyF());
        assertEquals(Pose.translation(0, 0, 0.1), e.edgeF());
        assertEquals(0.5, e.halfLengthF());
        assertEquals(-1, e.bodyB());
        assertTrue(e.edgeB().isIdentity());
        assertEquals(2.0, e.halfLengthB());
        assertTrue(e.rolling());
        assertEquals(3, e.rowCount());
    }

    @Test
    void anyPrefixAndDefaults() {
        Model m = read("""
                <robot name="r">
                  <link name="w"/>
                  <link name="b">%s</link>
                  <link name="c">%s</link>
                  <joint name="j" type="prismatic"><parent link="w"/><child link="b"/></joint>
                  <joint name="k" type="prismatic"><parent link="w"/><child link="c"/></joint>
                  <ext:contact xmlns:ext="urn:symdyn:1" name="c" link="b" normal="1 0 0"/>
                  <coupler xmlns="urn:symdyn:1" name="g" joint="k" reference="j"/>
                  <x:line_on_line xmlns:x="urn:symdyn:1" name="e">
                    <x:edge_f link="b" half_length="1"/>
                    <x:edge_b link="w" half_length="1"/>
                  </x:line_on_line>
                  <x:contact xmlns:x="urn:other" name="ignored"/>
                </robot>
                """.formatted(INERTIAL, INERTIAL));
        assertEquals(3, m.constraints().size());
        ContactConstraintModel c = (ContactConstraintModel) m.constraints().get(0);
        assertArrayEquals(new double[] {0, 0, 0}, c.point(), "default point: the link origin");
        CouplerConstraintModel g = (CouplerConstraintModel) m.constraints().get(1);
        assertEquals(1.0, g.ratio(), "default ratio");
        assertEquals(0.0, g.offset(), "default offset");
        LineOnLineConstraintModel e = (LineOnLineConstraintModel) m.constraints().get(2);
        assertEquals(1, e.rowCount(), "rolling defaults to false");
    }

    @Test
    void floatingBaseConstraintsMayUseTheSyntheticWorld() {
        Model m = read("""
                <robot name="r" xmlns:s="urn:symdyn:1">
                  <link name="base">%s</link>
                  <s:loop name="pin">
                    <s:predecessor link="world" xyz="0 0 1"/>
                    <s:successor link="base"/>
                    <s:axis value="0 0 0 1 0 0"/>
                  </s:loop>
                  <s:contact name="c" link="base" normal="0 0 1"/>
                </robot>
                """.formatted(INERTIAL), UrdfTesting.FLOATING);
        LoopConstraintModel loop = (LoopConstraintModel) m.constraints().get(0);
        assertEquals(-1, loop.predecessorBody());
        assertEquals(0, loop.successorBody());
        assertEquals(0, ((ContactConstraintModel) m.constraints().get(1)).body());
    }
}
