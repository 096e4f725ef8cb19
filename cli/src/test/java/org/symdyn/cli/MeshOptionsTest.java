package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --package-path} and {@code --missing-meshes} of inspect: exit codes, located messages, the JSON keys; MJCF's
 * mesh files under the same option.
 */
class MeshOptionsTest {
    @TempDir
    Path dir;

    private Path model() throws IOException {
        Path p = dir.resolve("m.urdf");
        Files.writeString(p, String.join("\n",
                "<robot name=\"m\" xmlns:symdyn=\"urn:symdyn:1\">",
                "<link name=\"world\"/>",
                "<link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
                        + " izz=\"1\"/></inertial>",
                "  <collision name=\"ball\"><geometry><sphere radius=\"0.1\"/></geometry></collision>",
                "  <collision><geometry><mesh filename=\"package://pkg/missing.stl\"/></geometry></collision>",
                "</link>",
                "<joint name=\"j\" type=\"revolute\"><parent link=\"world\"/><child link=\"a\"/></joint>",
                "<symdyn:lidar name=\"scan\" link=\"a\" samples=\"8\" min_angle=\"0\" max_angle=\"1\" range_max=\"5\"/>",
                "</robot>", ""));
        Files.createDirectories(dir.resolve("packages/pkg"));
        return p;
    }

    @Test
    void aMissingMeshWithAPackagePathIsALocatedErrorOrAWarning() throws IOException {
        Path m = model();
        String packages = dir.resolve("packages").toString();
        SymDynCliTest.Result error = SymDynCliTest.run("inspect", m.toString(), "--package-path", packages);
        assertEquals(2, error.exitCode(), error.err());
        assertTrue(error.err().contains(m + ":[5,24] link 'a': <collision>: mesh not found: 'package://pkg/missing.stl':"
                + " not found at " + dir.resolve("packages/pkg/missing.stl")), error.err());
        SymDynCliTest.Result warn = SymDynCliTest.run("inspect", m.toString(), "--package-path", packages,
                "--missing-meshes", "warn");
        assertEquals(0, warn.exitCode(), warn.err());
        assertTrue(warn.out().contains("(the shape is left out)"), warn.out());
        assertTrue(warn.out().contains("\"collision_shapes\""), warn.out());
        assertTrue(warn.out().contains("\"kind\": \"sphere\"") || warn.out().contains("\"kind\":\"sphere\""),
                warn.out());
        assertTrue(warn.out().contains("\"lidars\""), warn.out());
        SymDynCliTest.Result noPath = SymDynCliTest.run("inspect", m.toString());
        assertEquals(0, noPath.exitCode(), noPath.err());
        assertTrue(noPath.out().contains("mesh left out: package://pkg/missing.stl needs a package path"),
                noPath.out());
        SymDynCliTest.Result bad = SymDynCliTest.run("inspect", m.toString(), "--missing-meshes", "maybe");
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("--missing-meshes must be error or warn"), bad.err());
    }

    @Test
    void anMjcfMeshFollowsTheSameOptionAndIsNotLookedAtByEvaluate() throws IOException {
        Path m = dir.resolve("m.xml");
        Files.writeString(m, String.join("\n",
                "<mujoco><compiler meshdir=\"assets\"/>",
                "  <asset><mesh name=\"shell\" file=\"shell.stl\"/></asset>",
                "  <worldbody><body name=\"a\"><joint name=\"j\" axis=\"0 1 0\"/>",
                "    <inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>",
                "    <geom type=\"mesh\" mesh=\"shell\"/></body></worldbody>",
                "</mujoco>", ""));
        SymDynCliTest.Result error = SymDynCliTest.run("inspect", m.toString());
        assertEquals(2, error.exitCode(), error.err());
        assertTrue(error.err().contains(m + ":[5,5] geom of body 'a': mesh not found: '"
                + dir.resolve("assets/shell.stl") + "': no such file"), error.err());
        SymDynCliTest.Result warn = SymDynCliTest.run("inspect", m.toString(), "--missing-meshes", "warn");
        assertEquals(0, warn.exitCode(), warn.err());
        assertTrue(warn.out().contains("(the shape is left out)"), warn.out());
        Path states = dir.resolve("states.json");
        Files.writeString(states, "{\"states\": [{\"q\": [0.1], \"v\": [0], \"tau\": [0]}]}");
        SymDynCliTest.Result evaluate = SymDynCliTest.run("evaluate", m.toString(), "--states", states.toString(),
                "--strict");
        assertEquals(0, evaluate.exitCode(), evaluate.err());
        assertTrue(!evaluate.err().contains("mesh") && !evaluate.out().contains("mesh"), evaluate.err());
    }
}
