package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import org.junit.jupiter.api.Test;
import org.symdyn.model.ContactCandidateModel;
import org.symdyn.model.GroundModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** The unilateral contact elements: ground, contact_point, contact_sphere; values, folding, located errors. */
class UrdfContactElementsTest {
    private static final double TOL = 1e-12;

    /** A box on a floating base with a fixed "foot" link 0.1 below it; %s: the contact elements, one per line. */
    private static String box(String elements) {
        return """
                <robot name="box" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="box"><inertial><mass value="2"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                  <link name="foot"/>
                  <joint name="base" type="floating"><parent link="world"/><child link="box"/></joint>
                  <joint name="weld" type="fixed"><origin xyz="0 0 -0.1"/><parent link="box"/><child link="foot"/></joint>
                %s
                </robot>
                """.formatted(elements);
    }

    @Test
    void groundsAndCandidatesAreReadWithDefaultsAndFolding() {
        Model m = read(box("""
                  <sd:ground name="floor" normal="0 0 2" friction="0.5"/>
                  <sd:ground name="ramp" point="1 0 0" normal="-1 0 1" friction="0.3" restitution="0.5"/>
                  <sd:contact_point name="corner" link="box" point="0.1 0.1 -0.1"/>
                  <sd:contact_sphere name="toe" link="foot" center="0.2 0 0" radius="0.015"/>"""));
        assertEquals(2, m.grounds().size());
        GroundModel floor = m.grounds().get(0);
        assertEquals("floor", floor.name());
        assertArrayEquals(new double[] {0, 0, 0}, floor.point(), TOL);
        assertArrayEquals(new double[] {0, 0, 1}, floor.normal(), TOL);
        assertEquals(0.5, floor.friction());
        assertEquals(0, floor.restitution(), "inelastic by default");
        GroundModel ramp = m.grounds().get(1);
        double s = Math.sqrt(0.5);
        assertArrayEquals(new double[] {-s, 0, s}, ramp.normal(), TOL);
        assertEquals(0.5, ramp.restitution());
        assertEquals(2, m.contactCandidates().size());
        ContactCandidateModel corner = m.contactCandidates().get(0);
        assertFalse(corner.isSphere());
        assertEquals(0, corner.body());
        assertArrayEquals(new double[] {0.1, 0.1, -0.1}, corner.center(), TOL);
        ContactCandidateModel toe = m.contactCandidates().get(1);
        assertTrue(toe.isSphere());
        assertEquals(0.015, toe.radius());
        assertArrayEquals(new double[] {0.2, 0, -0.1}, toe.center(), TOL, "folded through the fixed joint");
        assertEquals("test.urdf", toe.location().path());
        assertTrue(toe.location().line() > 0);
    }

    @Test
    void contactElementsDoNotChangeTheContentHash() {
        String plain = read(box("")).contentHash();
        String with = read(box("""
                  <sd:ground name="floor" normal="0 0 1" friction="0.5"/>
                  <sd:contact_point name="corner" link="box" point="0.1 0.1 -0.1"/>""")).contentHash();
        assertEquals(plain, with);
    }

    @Test
    void everyProblemIsReportedAtItsLine() {
        ModelException e = failure(box("""
                  <sd:ground name="ok" normal="0 0 1" friction="0.5"/>
                  <sd:ground name="a" normal="0 0 0" friction="0.5"/>
                  <sd:ground name="b" normal="0 0 1" friction="-1"/>
                  <sd:ground name="c" normal="0 0 1" friction="0.2" restitution="1.5"/>
                  <sd:ground name="d" normal="0 0 1"/>
                  <sd:ground name="e" normal="0 nan 1" friction="0.2"/>
                  <sd:contact_point name="p" link="nowhere" point="0 0 0"/>
                  <sd:contact_sphere name="s" link="box" radius="-0.1"/>
                  <sd:contact_point name="w" link="world"/>
                  <sd:ground name="ok" normal="0 0 1" friction="0.5"/>"""));
        int first = 9; // the line of the second element in box(...)
        errorAt(e, first, "ground 'a': normal is zero");
        errorAt(e, first + 1, "friction -1.0 must be >= 0");
        errorAt(e, first + 2, "restitution 1.5 must be in [0, 1]");
        errorAt(e, first + 3, "ground 'd': friction is missing");
        errorAt(e, first + 4, "ground 'e': normal");
        errorAt(e, first + 5, "unknown link 'nowhere'");
        errorAt(e, first + 6, "radius -0.1 must be positive");
        errorAt(e, first + 7, "does not move");
        errorAt(e, first + 8, "duplicate ground name 'ok'");
    }
}
