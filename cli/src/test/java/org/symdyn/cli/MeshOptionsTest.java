package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --package-path} and {@code --missing-meshes} of inspect: exit codes, located messages, the JSON keys. */
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
}
