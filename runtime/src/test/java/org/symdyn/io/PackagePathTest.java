package org.symdyn.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution of mesh URIs: package:// through the directories and ROS_PACKAGE_PATH, file://, paths. */
class PackagePathTest {
    @TempDir
    Path dir;

    private Path file(String relative) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "x");
        return p;
    }

    @Test
    void packageUrisThroughTheDirectoriesInOrder() throws IOException {
        Path inA = file("a/pkg/meshes/m.stl");
        Path inB = file("b/pkg/meshes/n.stl");
        Path named = file("c/pkg/meshes/o.stl");
        PackagePath path = PackagePath.of(List.of(dir.resolve("a"), dir.resolve("b"), dir.resolve("c/pkg")), null);
        assertEquals(inA, path.resolve("package://pkg/meshes/m.stl", null).file());
        assertEquals(inB, path.resolve("package://pkg/meshes/n.stl", null).file());
        assertEquals(named, path.resolve("package://pkg/meshes/o.stl", null).file());
        PackagePath.Resolution missing = path.resolve("package://pkg/meshes/none.stl", null);
        assertFalse(missing.found());
        assertTrue(missing.problem().contains(dir.resolve("a/pkg/meshes/none.stl").toString())
                && missing.problem().contains(dir.resolve("c/pkg/meshes/none.stl").toString()), missing.problem());
        assertTrue(path.resolve("package://other/x.stl", null).problem().contains("no package 'other'"));
        assertTrue(path.resolve("package://pkg", null).problem().contains("is not package://NAME/PATH"));
    }

    @Test
    void theVariableIsTheFallbackAndAnEmptyPathIsSaidSo() throws IOException {
        Path inVar = file("v/pkg/m.stl");
        file("given/pkg/m.stl");
        PackagePath onlyVariable = PackagePath.of(List.of(), dir.resolve("nothing") + File.pathSeparator
                + dir.resolve("v"));
        assertEquals(inVar, onlyVariable.resolve("package://pkg/m.stl", null).file());
        assertEquals(dir.resolve("given/pkg/m.stl"), PackagePath.of(List.of(dir.resolve("given")),
                dir.resolve("v").toString()).resolve("package://pkg/m.stl", null).file(), "given first");
        PackagePath empty = PackagePath.of(List.of(), " ");
        assertTrue(empty.isEmpty());
        PackagePath.Resolution r = empty.resolve("package://pkg/m.stl", null);
        assertTrue(r.needsPackagePath());
        assertEquals("package://pkg/m.stl needs a package path (--package-path or ROS_PACKAGE_PATH)", r.problem());
    }

    @Test
    void filesAbsoluteAndRelative() throws IOException {
        Path m = file("models/meshes/m.stl");
        PackagePath none = PackagePath.of(List.of(), null);
        assertEquals(m, none.resolve("meshes/m.stl", dir.resolve("models")).file());
        assertEquals(m, none.resolve(m.toString(), null).file());
        assertEquals(m, none.resolve(m.toUri().toString(), null).file());
        assertEquals(m, none.resolve("file://" + m, null).file());
        assertTrue(none.resolve("file:relative.stl", null).problem().contains("only file:///absolute/path"));
        assertTrue(none.resolve("http://example.com/m.stl", null).problem().contains("scheme 'http' is not read"));
        assertTrue(none.resolve("meshes", dir.resolve("models")).problem().contains("is a directory"));
        assertTrue(none.resolve("", null).problem().contains("empty"));
        assertEquals(List.of(Path.of("x"), Path.of("y")), PackagePath.split("x" + File.pathSeparator + File.pathSeparator
                + "y"));
    }
}
