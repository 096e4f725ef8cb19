package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.symdyn.io.mjcf.MjcfTesting.errorAt;
import static org.symdyn.io.mjcf.MjcfTesting.failure;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** Bad MJCF input: every problem located, no exception but {@link ModelException}, never a silently wrong model. */
class MjcfHardeningTest {
    /** A model using most of what the reader reads. */
    static final String RICH = """
            <mujoco model="rich">
              <compiler angle="degree" eulerseq="zyx" autolimits="true"/>
              <option gravity="0 0 -9.8"/>
              <default>
                <joint damping="0.1"/>
                <default class="leg"><joint armature="0.01" range="-90 90"/><geom friction="0.8"/></default>
              </default>
              <worldbody>
                <geom type="plane" size="0 0 1"/>
                <body name="base" pos="0 0 1" childclass="leg">
                  <freejoint/>
                  <inertial pos="0 0 0" mass="5" diaginertia="0.1 0.2 0.3"/>
                  <site name="imu" pos="0 0 0.05" euler="0 0 10"/>
                  <frame pos="0.2 0 0" xyaxes="0 1 0 -1 0 0">
                    <body name="thigh" pos="0 0.1 0">
                      <joint name="hip" axis="0 1 0" ref="5"/>
                      <geom type="capsule" fromto="0 0 0 0 0 -0.3" size="0.03"/>
                      <body name="shin" pos="0 0 -0.3" quat="1 0 0.1 0">
                        <joint name="knee" axis="0 1 0"/>
                        <joint name="slide" type="slide" axis="0 0 1" range="-0.1 0.1"/>
                        <geom type="box" size="0.02 0.02 0.15" pos="0 0 -0.15"/>
                      </body>
                    </body>
                  </frame>
                  <body name="arm" pos="-0.2 0 0" axisangle="0 0 1 30">
                    <joint name="shoulder" type="ball"/>
                    <inertial pos="0 0 -0.1" mass="1" fullinertia="0.01 0.01 0.002 0 0 0"/>
                  </body>
                </body>
              </worldbody>
              <contact><exclude body1="thigh" body2="shin"/></contact>
              <equality>
                <connect body1="shin" body2="arm" anchor="0 0 -0.3"/>
                <joint joint1="knee" joint2="hip" polycoef="0 -1 0 0 0"/>
              </equality>
              <actuator>
                <motor name="m" joint="hip" gear="5" ctrlrange="-1 1"/>
                <position name="p" joint="knee" kp="20"/>
              </actuator>
              <sensor><jointpos name="e" joint="hip"/><gyro site="imu"/></sensor>
            </mujoco>
            """;

    @TempDir
    Path dir;

    @Test
    void theRichModelReads() {
        Model m = read(RICH);
        assertEquals(7 + 3 + 4, m.nq());
        assertEquals(2, m.constraints().size());
    }

    /** Every outcome is a model or a ModelException whose diagnostics are located and not internal errors. */
    private static void assertCleanOutcome(String xml, String what) {
        try {
            MjcfReader.parse(xml, "m.xml", MjcfReader.Options.DEFAULT);
        } catch (ModelException e) {
            assertFalse(e.diagnostics().isEmpty(), what);
            for (Diagnostic d : e.diagnostics()) {
                assertFalse(d.message().contains("internal error"), what + ": " + d);
                assertEquals("m.xml", d.location().path(), what + ": " + d);
            }
        } catch (RuntimeException | StackOverflowError e) {
            fail(what + ": " + e, e);
        }
    }

    /**
     * A joint equality that couples a joint to itself is refused where it is written (it passed the reader and then
     * failed evaluate and simulate with an internal error); so is a URDF mimic of its own joint (UrdfHardeningTest).
     */
    @Test
    void aJointCoupledToItselfIsRefusedAtTheEquality() {
        String self = RICH.replace("<joint joint1=\"knee\" joint2=\"hip\"", "<joint joint1=\"knee\" joint2=\"knee\"");
        int line = (int) RICH.substring(0, RICH.indexOf("<joint joint1=")).chars().filter(ch -> ch == '\n').count() + 1;
        errorAt(failure(self), line, "joint 'knee' is coupled to itself (a coupler needs two different joints)");
    }

    /** n free spheres: n separate trees, H block-diagonal. */
    private static String freeBodies(int n) {
        StringBuilder xml = new StringBuilder("<mujoco model=\"pile\"><worldbody>\n");
        for (int i = 0; i < n; i++) {
            xml.append("<body pos=\"0 0 ").append(i).append("\"><freejoint/><geom type=\"sphere\" size=\"0.1\""
                    + " mass=\"1\"/></body>\n");
        }
        return xml.append("</worldbody></mujoco>\n").toString();
    }

    /**
     * The model check factorises H tree by tree: 1,000 free bodies (nv 6,000) took over 20 s as one dense Cholesky.
     * Past what a Java array holds (nv² > 2³¹ - 9), the check says so instead of an internal error.
     */
    @Test
    void manyFreeBodiesAreCheckedTreeByTreeAndTooManyAreRefusedClearly() {
        Model m = read(freeBodies(1000));
        assertEquals(6000, m.nv());
        ModelException e = failure(freeBodies(7800));
        Diagnostic d = errorAt(e, 2, "the model has 46800 velocity coordinates: its joint-space inertia H");
        assertFalse(d.message().contains("internal error"), d.toString());
    }

    @Test
    void truncatedFilesAreRefusedAtTheirEnd() {
        for (int n = 0; n < RICH.trim().length(); n += 37) {
            String cut = RICH.substring(0, n);
            ModelException e = MjcfTesting.failure(cut);
            for (Diagnostic d : e.diagnostics()) {
                assertFalse(d.message().contains("internal error"), n + ": " + d);
            }
        }
    }

    @Test
    void mutatedNumbersAndNamesNeverEscapeAsExceptions() {
        Pattern token = Pattern.compile("\"([^\"]*)\"");
        String[] garbage = {"", "x", "nan", "1e999", "-", "0 0 0 0", "1 2", "-1", "0", "1e-300", "3 2 1 0 -1 -2 -3",
            "main", "shin", "world", "ball", "free", "none"};
        Random random = new Random(33);
        Matcher m = token.matcher(RICH);
        List<int[]> spans = new java.util.ArrayList<>();
        while (m.find()) {
            spans.add(new int[] {m.start(1), m.end(1)});
        }
        for (int k = 0; k < 400; k++) {
            int[] s = spans.get(random.nextInt(spans.size()));
            String g = garbage[random.nextInt(garbage.length)];
            String mutated = RICH.substring(0, s[0]) + g + RICH.substring(s[1]);
            assertCleanOutcome(mutated, "value at " + s[0] + " -> '" + g + "'");
        }
        // whole elements deleted or repeated
        Pattern element = Pattern.compile("<(\\w+)[^>]*/>");
        Matcher e = element.matcher(RICH);
        while (e.find()) {
            assertCleanOutcome(RICH.substring(0, e.start()) + RICH.substring(e.end()), "without " + e.group());
            assertCleanOutcome(RICH.substring(0, e.end()) + e.group() + RICH.substring(e.end()), "twice " + e.group());
        }
    }

    @Test
    void badNumbersAreLocated() {
        ModelException e = failure("""
                <mujoco><worldbody>
                  <body name="b" pos="1 2">
                    <joint axis="0 0 0"/>
                    <inertial pos="0 0 0" mass="abc" diaginertia="1 1 1"/>
                    <geom size="-1"/>
                  </body>
                  <body name="c" quat="0 0 0 0"><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>
                </worldbody></mujoco>
                """);
        errorAt(e, 2, "pos '1 2' needs 3 numbers");
        errorAt(e, 3, "axis is zero");
        errorAt(e, 4, "'abc' is not a number");
        errorAt(e, 5, "size -1.0 must be positive");
        errorAt(e, 7, "the quaternion is zero");
    }

    @Test
    void unknownElementsAreWarningsAndBodyAddingOnesAreErrors() {
        Model m = read("""
                <mujoco><gizmo/><worldbody><body name="b"><joint/><widget/>
                  <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><plugin plugin="p"/></body></worldbody>
                  <keyframe><key qpos="0" ctrl="1"/></keyframe>
                  <tendon><fixed name="t"><joint joint="b_joint" coef="1"/></fixed></tendon>
                </mujoco>
                """);
        assertEquals(1, warning(m, "unknown element <gizmo>").location().line());
        warning(m, "unknown element <widget> in <body>");
        warning(m, "<plugin> is not read");
        warning(m, "keyframe '0': ctrl is not read");
        warning(m, "tendon 't' (<fixed>) is not read");
        ModelException e = failure("<mujoco><worldbody><body name=\"b\"><joint/>"
                + "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>\n<composite type=\"grid\"/>"
                + "</body></worldbody></mujoco>");
        errorAt(e, 2, "<composite> is not read: it would add bodies and joints");
    }

    @Test
    void classesAndFreeJointsAreChecked() {
        ModelException e = failure("""
                <mujoco>
                  <default><default class="a"/><default class="a"/></default>
                  <worldbody>
                    <body name="b" childclass="nope"><joint class="missing"/>
                      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
                      <body name="c"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>
                    </body>
                  </worldbody>
                </mujoco>
                """);
        errorAt(e, 2, "default class 'a' is declared twice");
        errorAt(e, 4, "childclass 'nope' is not a declared default class");
        errorAt(e, 4, "names default class 'missing', which is not declared");
        errorAt(e, 6, "a free joint must be the only joint of a body that is a child of the world body");
    }

    @Test
    void externalEntitiesAreNeverRead() {
        ModelException e = failure("""
                <?xml version="1.0"?>
                <!DOCTYPE mujoco SYSTEM "mujoco.dtd">
                <mujoco><worldbody><body name="b" pos="0 0 &e;"><joint/>
                  <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>
                """);
        errorAt(e, 3, "entity reference '&e;' in an attribute value was not read");
    }

    @Test
    void deepNestingDoesNotOverflowTheStack() {
        StringBuilder sb = new StringBuilder("<mujoco><worldbody>");
        int frames = 3000;
        sb.append("<frame pos=\"0 0 0.001\">".repeat(frames));
        sb.append("<body name=\"b\"><joint/><inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/></body>");
        sb.append("</frame>".repeat(frames)).append("</worldbody></mujoco>");
        Model m = read(sb.toString());
        assertEquals(3.0, m.body(0).joint().placement().translation(2), 1e-9);
    }

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void includesAreExpandedWhereTheyStand() throws Exception {
        write("parts/defaults.xml", "<mujoco><default><joint armature=\"0.5\"/></default></mujoco>");
        write("parts/arm.xml", "<mujoco><body name=\"b\"><joint name=\"j\"/>"
                + "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/></body></mujoco>");
        Path main = write("main.xml", "<mujoco model=\"inc\"><include file=\"parts/defaults.xml\"/>"
                + "<worldbody><include file=\"parts/arm.xml\"/></worldbody></mujoco>");
        Model m = MjcfReader.read(main);
        assertEquals(List.of("j"), m.qNames());
        assertEquals(0.5, m.body(0).joint().armature());
    }

    @Test
    void recursiveRepeatedAndMissingIncludesAreLocatedErrors() throws Exception {
        write("self.xml", "<mujoco>\n<include file=\"self.xml\"/></mujoco>");
        write("a.xml", "<mujoco>\n<include file=\"b.xml\"/></mujoco>");
        write("b.xml", "<mujoco>\n\n<include file=\"a.xml\"/></mujoco>");
        write("part.xml", "<mujoco><option gravity=\"0 0 x\"/></mujoco>");
        Path main = write("main.xml", """
                <mujoco>
                  <include file="self.xml"/>
                  <include file="a.xml"/>
                  <include file="part.xml"/>
                  <include file="part.xml"/>
                  <include file="nowhere.xml"/>
                  <include/>
                  <worldbody/>
                </mujoco>
                """);
        try {
            MjcfReader.read(main);
            fail("accepted");
        } catch (ModelException e) {
            String all = MjcfTesting.describe(e);
            assertTrue(all.contains(dir.resolve("self.xml") + ":[2,1] <include file='self.xml'>: recursive include"),
                    all);
            assertTrue(all.contains(dir.resolve("b.xml") + ":[3,1] <include file='a.xml'>: recursive include"), all);
            assertTrue(all.contains(main + ":[5,3] <include file='part.xml'>: ") && all.contains("is already"
                    + " included (at line 4)"), all);
            assertTrue(all.contains(dir.resolve("part.xml") + ":[1,9] option gravity '0 0 x'"), all);
            assertTrue(all.contains(main + ":[6,3] <include file='nowhere.xml'>: no such file"), all);
            assertTrue(all.contains(main + ":[7,3] <include> has no 'file' attribute"), all);
        }
        errorAt(failure("<mujoco>\n<include file=\"x.xml\"/></mujoco>"), 2, "a model read from text has no"
                + " directory");
    }

    @Test
    void tendonCouplingsAreRefusedUnlessIgnored() throws Exception {
        String xml = """
                <mujoco><worldbody><body name="b"><joint name="j"/>
                  <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody>
                  <tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon>
                  <actuator><motor tendon="t"/></actuator>
                </mujoco>
                """;
        errorAt(failure(xml), 4, "acts on tendon 't', and tendons are not read: it couples joints");
        Model m = MjcfReader.parse(xml, "m.xml", new MjcfReader.Options(false, true));
        warning(m, "left out, as the option to ignore tendons says");
    }

    @Test
    void aRootThatIsNotMujocoIsRefused() {
        errorAt(failure("<robot name=\"r\"/>"), 1, "expected <mujoco> (an MJCF file)");
    }
}
