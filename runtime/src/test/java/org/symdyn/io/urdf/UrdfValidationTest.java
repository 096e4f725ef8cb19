package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.STRICT;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Every kind of problem the reader must report, each at the line of the offending element's start tag (the
 * documents are inline; line 1 is the first line of each text block).
 */
class UrdfValidationTest {

    /** A valid one-joint body used as filler; lines are counted in each test. */
    private static final String INERTIAL = "<inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>";

    /**
     * A misspelt child of a joint or link is a located warning naming the element meant: {@code <axiss>} left the
     * joint turning about x (H 0.2 instead of 1.2 for the helper's arm), silently. What common files carry beyond
     * URDF (a collision's material, PyBullet's contact and audio source, the legacy joint_properties) is not warned
     * about; under strict reading a typo refuses.
     */
    @Test
    void aMisspeltChildOfAJointOrLinkIsWarnedAbout() {
        String xml = """
                <robot name="typo">
                  <link name="world"/>
                  <link name="arm">
                    <inertial><origin xyz="0 0 -1"/><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
                    <collision><geometry><sphere radius="0.1"/></geometry><material name="red"/></collision>
                    <contact><lateral_friction value="1"/></contact><audio_source/>
                  </link>
                  <joint name="hinge" type="revolute"><parent link="world"/><child link="arm"/>
                    <axiss xyz="0 1 0"/>
                    <limits lower="-1" upper="1" effort="1" velocity="1"/><joint_properties damping="0"/>
                  </joint>
                </robot>
                """;
        Model m = read(xml);
        List<String> warnings = m.warnings().stream().map(d -> d.location().line() + " " + d.message()).toList();
        assertTrue(warnings.contains("9 <joint> 'hinge': unknown element <axiss>; did you mean 'axis'?; ignored"),
                warnings.toString());
        assertTrue(warnings.contains("10 <joint> 'hinge': unknown element <limits>; did you mean 'limit'?; ignored"),
                warnings.toString());
        assertEquals(2, warnings.stream().filter(w -> w.contains("unknown element")).count(), warnings.toString());
        ModelException e = failure(xml, STRICT);
        assertTrue(UrdfTesting.describe(e).contains("unknown element <axiss>"), UrdfTesting.describe(e));
    }

    @Test
    void malformedXmlIsOneErrorAtTheParsersPosition() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a">
                </robot>
                """);
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
        Diagnostic d = errorAt(e, 3, "malformed XML");
        assertTrue(d.location().column() > 0);
    }

    @Test
    void documentElementMustBeRobot() {
        ModelException e = failure("""
                <?xml version="1.0"?>
                <sdf version="1.6"/>
                """);
        errorAt(e, 2, "expected <robot>");
    }

    @Test
    void jointNamingUndefinedLinks() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j1" type="revolute">
                    <parent link="nope"/>
                    <child link="b"/>
                  </joint>
                  <joint name="j2" type="revolute">
                    <parent link="a"/>
                    <child link="ghost"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 5, "joint 'j1': parent link 'nope' is not defined");
        errorAt(e, 10, "joint 'j2': child link 'ghost' is not defined");
        // b lost its parent joint to an error already reported: no second message calling it a root
        assertEquals(2, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void duplicateLinkAndJointNames() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <link name="a"/>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="j" type="revolute"><parent link="a"/><child link="c"/></joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 5, "duplicate link name 'a' (first declared at line 2)");
        errorAt(e, 7, "duplicate joint name 'j' (first declared at line 6)");
        assertEquals(2, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void duplicateConstraintNames() {
        ModelException e = failure("""
                <robot name="r" xmlns:s="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/></joint>
                  <s:contact name="c" link="b" normal="1 0 0"/>
                  <s:contact name="c" link="b" normal="0 1 0"/>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 6, "duplicate constraint name 'c'");
    }

    @Test
    void linkWithTwoParents() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="j2" type="revolute"><parent link="a"/><child link="c"/></joint>
                  <joint name="j3" type="revolute">
                    <parent link="c"/>
                    <child link="b"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 9, "link 'b' has two parents: joint 'j1' (line 5) and joint 'j3'");
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void cycleReportsItsJointsAndTheLinksHangingFromIt() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <link name="d">%1$s</link>
                  <link name="x">%1$s</link>
                  <joint name="jx" type="revolute"><parent link="a"/><child link="x"/></joint>
                  <joint name="jc" type="revolute"><parent link="b"/><child link="c"/></joint>
                  <joint name="jb" type="revolute"><parent link="c"/><child link="b"/></joint>
                  <joint name="jd" type="revolute"><parent link="c"/><child link="d"/></joint>
                </robot>
                """.formatted(INERTIAL));
        Diagnostic cycle = errorAt(e, 8, "joints 'jc', 'jb' form a cycle");
        assertTrue(cycle.message().contains("through links 'b', 'c'"), cycle.message());
        errorAt(e, 5, "link 'd' is not reachable from the root link 'a'");
        assertEquals(2, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void noRootWhenEveryLinkIsAChild() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a">%1$s</link>
                  <link name="b">%1$s</link>
                  <joint name="ja" type="revolute"><parent link="b"/><child link="a"/></joint>
                  <joint name="jb" type="revolute"><parent link="a"/><child link="b"/></joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 1, "no root link");
        errorAt(e, 4, "joints 'ja', 'jb' form a cycle");
        assertEquals(2, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void selfLoopJoint() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="jb" type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="jj" type="revolute"><parent link="b"/><child link="b"/></joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 5, "joint 'jj' connects link 'b' to itself");
    }

    @Test
    void severalRootsAreNamed() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <link name="island"/>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                </robot>
                """.formatted(INERTIAL));
        Diagnostic d = errorAt(e, 4, "several root links");
        assertTrue(d.message().contains("'a' (line 2)") && d.message().contains("'island' (line 4)"), d.message());
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void malformedNumbersAndVectors() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial>
                      <mass value="abc"/>
                      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <link name="c">%s</link>
                  <joint name="j1" type="revolute">
                    <origin xyz="1 2"/>
                    <parent link="a"/><child link="b"/>
                  </joint>
                  <joint name="j2" type="revolute">
                    <origin xyz="0 0 0" rpy="0 NaN 0"/>
                    <axis xyz="0 0 1e999"/>
                    <limit lower="-inf" upper="1"/>
                    <parent link="b"/><child link="c"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals("link 'b': mass value 'abc' is not a number", errorAt(e, 5, "mass value").message());
        assertEquals("joint 'j1': origin xyz '1 2' needs 3 numbers", errorAt(e, 11, "origin xyz").message());
        assertEquals("joint 'j2': origin rpy '0 NaN 0': 'NaN' is not a finite number",
                errorAt(e, 15, "origin rpy").message());
        errorAt(e, 16, "joint 'j2': axis xyz '0 0 1e999': '1e999' is not a finite number");
        errorAt(e, 17, "joint 'j2': limit lower '-inf' is not a finite number");
        assertEquals(5, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void numbersAreDecimalsOnly() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial>
                      <mass value="0x1p1"/>
                      <inertia ixx="1d" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                </robot>
                """);
        errorAt(e, 5, "mass value '0x1p1' is not a number");
        errorAt(e, 6, "inertia ixx '1d' is not a number");
    }

    @Test
    void zeroOrNegativeMassOnAMovingLink() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="massless"/>
                  <link name="negative">
                    <inertial>
                      <mass value="-1"/>
                      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <joint name="j1" type="revolute"><parent link="a"/><child link="massless"/></joint>
                  <joint name="j2" type="revolute"><parent link="a"/><child link="negative"/></joint>
                </robot>
                """);
        errorAt(e, 3, "link 'massless': mass 0 kg");
        errorAt(e, 4, "link 'negative': mass -1.0 kg is negative");
    }

    @Test
    void masslessMovingLinkIsFineWhenAFixedChildCarriesMass() {
        Model m = read("""
                <robot name="r">
                  <link name="a"/>
                  <link name="hinge"/>
                  <link name="weight">%s</link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="hinge"/></joint>
                  <joint name="f" type="fixed"><parent link="hinge"/><child link="weight"/></joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(1.0, m.body(0).inertia().mass());
    }

    @Test
    void inertiaNotPositiveDefinite() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial>
                      <mass value="2"/>
                      <inertia ixx="-1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                </robot>
                """);
        errorAt(e, 3, "link 'b': inertia about the centre of mass is not positive definite");
    }

    @Test
    void unknownJointTypeAndZeroAxis() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <link name="d">%1$s</link>
                  <joint
                      name="j1"
                      type="hinge">
                    <parent link="a"/><child link="b"/>
                  </joint>
                  <joint name="j2" type="revolute">
                    <axis xyz="0 0 0"/>
                    <parent link="b"/><child link="c"/>
                  </joint>
                  <joint name="j3" type="prismatic"><parent link="c"/><child link="d"/></joint>
                </robot>
                """.formatted(INERTIAL));
        // the start tag spans lines 6-8: its line is where it starts
        Diagnostic type = errorAt(e, 6, "joint 'j1': unknown joint type 'hinge'");
        assertEquals(3, type.location().column());
        errorAt(e, 12, "joint 'j2': axis xyz '0 0 0' is zero");
        // j1 was refused but its subtree (j2, j3) is still checked, without further messages
        assertEquals(2, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void missingRequiredAttributesAndElements() {
        ModelException e = failure("""
                <robot>
                  <link name="a"/>
                  <link>%1$s</link>
                  <link name="b">
                    <inertial>
                      <mass/>
                      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <link name="c">
                    <inertial>
                      <inertia ixx="1" ixy="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <link name="d">%1$s</link>
                  <joint type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="jc"><parent link="a"/><child link="c"/></joint>
                  <joint name="jd" type="revolute"><parent/><child link="d"/></joint>
                  <joint name="je" type="revolute"><parent link="a"/></joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 1, "<robot> has no 'name' attribute");
        errorAt(e, 3, "<link> has no 'name' attribute");
        errorAt(e, 6, "link 'b': mass value is missing");
        errorAt(e, 11, "link 'c': <inertial> has no <mass>");
        errorAt(e, 12, "link 'c': inertia ixz is missing");
        errorAt(e, 16, "<joint> has no 'name' attribute");
        errorAt(e, 17, "joint 'jc' has no 'type' attribute");
        errorAt(e, 18, "joint 'jd': <parent> has no 'link' attribute");
        errorAt(e, 19, "joint 'je' has no <child>");
        assertEquals(9, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void everyProblemIsReportedInFileOrder() {
        ModelException e = failure("""
                <robot name="r" xmlns:s="urn:symdyn:1">
                  <s:contact name="c" link="nowhere" normal="0 0 1"/>
                  <link name="a"/>
                  <link name="b">
                    <inertial>
                      <mass value="1"/>
                      <inertia ixx="-1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
                    </inertial>
                  </link>
                  <joint name="j" type="spherical"><parent link="a"/><child link="b"/></joint>
                  <s:gravity xyz="0 0"/>
                </robot>
                """);
        List<Integer> lines = e.diagnostics().stream().map(d -> d.location().line()).toList();
        assertEquals(List.of(2, 4, 10, 11), lines, UrdfTesting.describe(e));
        errorAt(e, 2, "contact 'c': unknown link 'nowhere'");
        errorAt(e, 10, "unknown joint type 'spherical'");
        errorAt(e, 11, "gravity xyz '0 0' needs 3 numbers");
        // the message of the exception is every diagnostic on its own line
        assertEquals(4, e.getMessage().split("\n").length);
    }

    @Test
    void constraintsOnUnknownLinksAndJoints() {
        ModelException e = failure("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="revolute">
                    <parent link="a"/><child link="b"/>
                    <mimic joint="nope"/>
                  </joint>
                  <symdyn:loop name="l">
                    <symdyn:predecessor link="a"/>
                    <symdyn:successor link="missing"/>
                    <symdyn:axis value="1 0 0 0 0 0"/>
                  </symdyn:loop>
                  <symdyn:coupler name="g" joint="j" reference="k"/>
                  <symdyn:line_on_line name="e">
                    <symdyn:edge_f link="b" half_length="1"/>
                    <symdyn:edge_b link="gone" half_length="1"/>
                  </symdyn:line_on_line>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 6, "joint 'j': <mimic>: unknown joint 'nope'");
        errorAt(e, 10, "loop 'l': unknown link 'missing'");
        errorAt(e, 13, "coupler 'g': unknown joint 'k'");
        errorAt(e, 16, "line_on_line 'e': unknown link 'gone'");
        assertEquals(4, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void couplerOnMultiDofOrFixedJoints() {
        ModelException e = failure("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <link name="d">%1$s</link>
                  <joint name="ball" type="ball"><parent link="a"/><child link="b"/></joint>
                  <joint name="hinge" type="continuous"><parent link="b"/><child link="c"/></joint>
                  <joint name="weld" type="fixed"><parent link="c"/><child link="d"/></joint>
                  <symdyn:coupler name="g1" joint="hinge" reference="ball"/>
                  <symdyn:coupler name="g2" joint="weld" reference="hinge"/>
                  <symdyn:coupler name="g3" joint="hinge" reference="hinge"/>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 9, "coupler 'g1': coupler on a multi-dof joint: 'ball' is ball");
        errorAt(e, 10, "coupler 'g2': joint 'weld' is fixed");
        errorAt(e, 11, "coupler 'g3': joint and reference are the same joint");
    }

    @Test
    void constraintAttributeProblems() {
        ModelException e = failure("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/></joint>
                  <symdyn:contact name="c1" link="b" normal="0 0 0"/>
                  <symdyn:contact name="c2" link="b" normal="0 0 1" baumgarte_time_constant="0"/>
                  <symdyn:contact link="b" normal="0 0 1"/>
                  <symdyn:loop name="l1">
                    <symdyn:predecessor link="a"/>
                    <symdyn:successor link="b"/>
                  </symdyn:loop>
                  <symdyn:loop name="l2" baumgarte_time_constant="-0.1">
                    <symdyn:predecessor link="a"/>
                    <symdyn:successor link="b"/>
                    <symdyn:axis value="0 0 0 0 0 0"/>
                    <symdyn:axis value="1 0 0 0 0"/>
                  </symdyn:loop>
                  <symdyn:line_on_line name="e" rolling="yes">
                    <symdyn:edge_f link="a" half_length="0"/>
                  </symdyn:line_on_line>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 5, "contact 'c1': normal is zero");
        errorAt(e, 6, "contact 'c2': baumgarte_time_constant 0.0 must be positive");
        errorAt(e, 7, "contact has no 'name' attribute");
        errorAt(e, 8, "loop 'l1' needs at least one <axis>");
        errorAt(e, 12, "loop 'l2': baumgarte_time_constant -0.1 must be positive");
        errorAt(e, 15, "loop 'l2': axis is zero");
        errorAt(e, 16, "loop 'l2': axis value '1 0 0 0 0' needs 6 numbers");
        errorAt(e, 18, "line_on_line 'e': rolling 'yes' is not a boolean");
        errorAt(e, 18, "line_on_line 'e' has no <edge_b>");
        errorAt(e, 19, "edge_f half_length 0.0 must be positive");
        assertEquals(10, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void contactOnTheRootLinkOrALinkFixedToIt() {
        ModelException e = failure("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="ground"/>
                  <link name="plate"/>
                  <link name="b">%s</link>
                  <joint name="weld" type="fixed"><parent link="ground"/><child link="plate"/></joint>
                  <joint name="j" type="prismatic"><parent link="ground"/><child link="b"/></joint>
                  <symdyn:contact name="c1" link="ground" normal="0 0 1"/>
                  <symdyn:contact name="c2" link="plate" normal="0 0 1"/>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 7, "contact 'c1': link 'ground' does not move");
        errorAt(e, 8, "contact 'c2': link 'plate' does not move");
    }

    @Test
    void loopWithBothEndsOnOneBody() {
        ModelException e = failure("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <link name="tip"/>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="f" type="fixed"><origin xyz="1 0 0"/><parent link="b"/><child link="tip"/></joint>
                  <symdyn:loop name="l">
                    <symdyn:predecessor link="b"/>
                    <symdyn:successor link="tip"/>
                    <symdyn:axis value="0 0 0 1 0 0"/>
                  </symdyn:loop>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 7, "move with the same body");
    }

    @Test
    void unknownAndMisplacedSymDynElements() {
        ModelException e = failure("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">
                    %s
                    <symdyn:contact name="inside" link="b" normal="1 0 0"/>
                  </link>
                  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/></joint>
                  <symdyn:bungee name="s"/>
                  <symdyn:contact name="c" link="b" normal="1 0 0">
                    <symdyn:point/>
                  </symdyn:contact>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 5, "must be a direct child of <robot>");
        errorAt(e, 8, "unknown SymDyn element 'bungee'");
        errorAt(e, 10, "contact 'c': unknown SymDyn element 'point'");
        assertEquals(3, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void strictTurnsWarningsIntoErrors() {
        String xml = """
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial>
                      <mass value="1"/>
                      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.5"/>
                    </inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                </robot>
                """;
        Model lenient = read(xml);
        assertEquals(1, lenient.warnings().size());
        Diagnostic w = lenient.warnings().get(0);
        assertEquals(Diagnostic.Severity.WARNING, w.severity());
        assertEquals(3, w.location().line());
        assertTrue(w.message().contains("triangle inequality"), w.message());

        ModelException e = failure(xml, STRICT);
        errorAt(e, 3, "triangle inequality");
    }

    @Test
    void repeatedElementsAndInvertedLimitsAreWarnings() {
        Model m = read("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="revolute">
                    <origin xyz="1 0 0"/>
                    <origin xyz="2 0 0"/>
                    <limit lower="1" upper="-1"/>
                    <parent link="a"/><child link="b"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(List.of(6, 7), m.warnings().stream().map(d -> d.location().line()).toList());
        assertEquals(1.0, m.body(0).joint().placement().translation(0), "the first origin is used");
    }

    @Test
    void aFileThatCannotBeRead(@TempDir Path dir) {
        Path missing = dir.resolve("absent.urdf");
        ModelException e = assertThrows(ModelException.class, () -> UrdfReader.read(missing));
        assertEquals(1, e.diagnostics().size());
        assertEquals(missing + ":[0,0] cannot read file: no such file", e.diagnostics().get(0).toString());
    }

    @Test
    void emptyRobot() {
        ModelException e = failure("""
                <robot name="r">
                </robot>
                """);
        errorAt(e, 1, "<robot> has no links");
    }
}
