package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.generator.JavaNames;

/** Issue 10 through the command line: bad input gives exit 2 with a location, never exit 1 or a stack trace. */
class CliHardeningTest extends FileWritingTest {

    private static void assertCleanFailure(Result r) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().startsWith("internal error"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    /** A pendulum whose robot, link and joint names are given. */
    private static String pendulum(String robot, String link, String joint) {
        return """
                <robot name="%s">
                  <link name="world"/>
                  <joint name="%s" type="revolute"><parent link="world"/><child link="%s"/><axis xyz="0 1 0"/></joint>
                  <link name="%s"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                </robot>
                """.formatted(robot, joint, link, link);
    }

    // item 10
    @Test
    void namesThatBrokeGenerationNowCompile() throws Exception {
        // was: exit 1 "generated class does not compile"
        String[] names = {"a*/b", "c\\u002a/d", "e\\uZZZZf", "{@code g} @h"};
        for (int i = 0; i < names.length; i++) {
            Path model = write("m" + i + ".urdf", pendulum("robot " + names[i], "link " + names[i],
                    "joint " + names[i]));
            Result r = SymDynCliTest.run("generate", model.toString(), "-d", dir.resolve("out").toString(), "-p",
                    "gen", "--class", "Named" + i);
            assertEquals(0, r.exitCode(), names[i] + ": " + r.err());
            String source = Files.readString(dir.resolve("out/gen/Named" + i + ".java"));
            assertTrue(source.contains("\"joint " + names[i].replace("\\", "\\\\") + "\""), source);
        }
        // a line separator is refused by the reader, with its location
        Path bad = write("sep.urdf", pendulum("r", "l\u2028x", "j"));
        Result r = SymDynCliTest.run("generate", bad.toString(), "-d", dir.resolve("out").toString(), "-p", "gen");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(bad + ":[4,3] link name 'l\\u2028x' contains the character U+2028"), r.err());
    }

    // item 5
    @Test
    void classAndPackageNamesFollowOneRule() throws Exception {
        Path model = write("p.urdf", pendulum("p", "rod", "hinge"));
        for (String name : List.of("record", "Math", "String", "class", "var", "1x", "a.B")) {
            Result r = SymDynCliTest.run("generate", model.toString(), "-d", dir.toString(), "-p", "gen", "--class",
                    name);
            assertCleanFailure(r);
            assertTrue(r.err().startsWith("symdyn: class name '" + name + "' "), r.err());
            assertTrue(JavaNames.classNameProblem(name) != null, name);
        }
        Result r = SymDynCliTest.run("generate", model.toString(), "-d", dir.toString(), "-p", "gen", "--class",
                "Math");
        assertTrue(r.err().startsWith("symdyn: class name 'Math' would hide java.lang.Math"), r.err());
        for (String pkg : List.of("java.robots", "a..b", "a.class", "x.1")) {
            r = SymDynCliTest.run("generate", model.toString(), "-d", dir.toString(), "-p", pkg);
            assertCleanFailure(r);
            assertTrue(r.err().startsWith("symdyn: package '" + pkg + "' "), r.err());
        }
        assertNull(JavaNames.classNameProblem("MathDynamics"));
        assertNull(JavaNames.packageNameProblem("org.record.var"));
    }

    // item 8: a state where H is singular, though it is not at the load-time check
    @Test
    void aSingularStateIsExit2NamingTheState() throws Exception {
        Path model = write("slider.urdf", """
                <robot name="slider">
                  <link name="world"/>
                  <joint name="turn" type="continuous"><parent link="world"/><child link="arm"/><axis xyz="0 0 1"/></joint>
                  <link name="arm"/>
                  <joint name="slide" type="prismatic"><parent link="arm"/><child link="bead"/><origin xyz="1 0 0"/>
                    <axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                  <link name="bead"><inertial><mass value="1e-6"/>
                    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
                </robot>
                """);
        Path states = write("states.json", "{\"states\": [{\"q\": [0, 0]},\n  {\"q\": [0.5, -1]}]}\n");
        Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", states.toString());
        // was: exit 1 "internal error"
        assertCleanFailure(r);
        assertTrue(r.err().contains(states + ":[2,3] state 1: the dynamics cannot be evaluated: "), r.err());
    }

    // item 7
    @Test
    void hugeDirectionsEvaluate() throws Exception {
        Path model = write("c.urdf", """
                <robot name="c" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <joint name="x" type="prismatic"><parent link="world"/><child link="a"/><axis xyz="1e200 0 0"/></joint>
                  <link name="a"><inertial><mass value="1"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                  <joint name="y" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 1e-200 0"/></joint>
                  <link name="b"><inertial><mass value="1"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                  <sd:contact name="c" link="b" normal="1e200 0 0"/>
                </robot>
                """);
        Path states = write("s.json", "{\"states\": [{\"q\": [0.1, 0.2]}]}");
        // was: exit 1 "internal error" (the normal became zero)
        Result r = SymDynCliTest.run("evaluate", model.toString(), "--states", states.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("\"G\": [\n        [1, 0]\n      ]"), r.out());
    }

    // item 13
    @Test
    void endlessFilesAreRefusedEarly() throws Exception {
        Path zero = Path.of("/dev/zero");
        if (!Files.isReadable(zero)) {
            return;
        }
        Result r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> SymDynCliTest.run("inspect", "/dev/zero"));
        assertCleanFailure(r);
        assertEquals("/dev/zero:[0,0] cannot read file: it is larger than 64 MiB, the limit for a model file\n",
                r.err());
        Path model = write("p.urdf", pendulum("p", "rod", "hinge"));
        r = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> SymDynCliTest.run("evaluate", model.toString(), "--states", "/dev/zero"));
        assertCleanFailure(r);
        assertEquals("/dev/zero:[0,0] cannot read file: it is larger than 64 MiB, the limit for a JSON file\n",
                r.err());
        // a trajectory may be larger (simulate records every step by default), and the refusal says what to do
        r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> SymDynCliTest.run("view", "/dev/zero",
                model.toString(), "-o", model.resolveSibling("p.html").toString()));
        assertCleanFailure(r);
        assertEquals("/dev/zero:[0,0] cannot read file: it is larger than 256 MiB, the limit for a trajectory (record"
                + " fewer states: symdyn simulate --every N keeps every N-th step)\n", r.err());
    }

    // item 12: inspect shows the warning
    @Test
    void inspectShowsTheFloatingBaseWarnings() throws Exception {
        Path model = write("f.urdf", """
                <robot name="f">
                  <link name="world"/>
                  <joint name="free" type="floating"><parent link="world"/><child link="base"/></joint>
                  <link name="base"><inertial><mass value="1"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                </robot>
                """);
        Result r = SymDynCliTest.run("inspect", model.toString(), "--floating");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains(model + ":[3,3] warning: the floating-base option (--floating, floatingBase) is"
                + " ignored"), r.out());
    }
}
