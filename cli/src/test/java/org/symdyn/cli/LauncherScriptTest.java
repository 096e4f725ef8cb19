package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script {@code symdyn} at the root of the clone: it runs {@code java -jar cli/target/symdyn.jar} found
 * beside itself, also when called through a link from elsewhere, passes every argument as given, and says how to
 * build the jar when it is missing. Run on a copy of the script, with a {@code java} on the PATH that prints its
 * arguments (so no jar needs to be built).
 */
class LauncherScriptTest {
    @TempDir
    Path dir;

    private static Path script() {
        Path readme = ReadmeUsageTest.readme();
        return readme == null ? null : readme.resolveSibling("symdyn");
    }

    private record Run(int exitCode, List<String> out, String err) {
    }

    private Run run(Path command, String... args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("/bin/sh", command.toString()));
        line.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(line).directory(dir.toFile());
        pb.environment().put("PATH", dir.resolve("fakebin") + ":" + System.getenv().getOrDefault("PATH", "/bin"));
        pb.environment().put("JAVA_OPTS", "-Xmx1g -Dx=1");
        pb.redirectError(dir.resolve("err.txt").toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        return new Run(code, out.isEmpty() ? List.of() : List.of(out.split("\n")),
                Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void runsTheJarBesideItselfWithEveryArgumentAsGiven() throws Exception {
        Path original = script();
        assumeTrue(original != null && Files.isRegularFile(original) && Files.isExecutable(Path.of("/bin/sh")),
                "a POSIX shell and the script");
        Path clone = dir.resolve("clone");
        Files.createDirectories(clone.resolve("cli/target"));
        Path copy = Files.copy(original, clone.resolve("symdyn"));
        Path fakeJava = dir.resolve("fakebin/java");
        Files.createDirectories(fakeJava.getParent());
        Files.writeString(fakeJava, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));

        Run missing = run(copy, "--version");
        assertEquals(2, missing.exitCode());
        String jar = clone.toRealPath().resolve("cli/target/symdyn.jar").toString();
        assertTrue(missing.err().startsWith("symdyn: " + jar + " not found: build it with 'mvn -B -q package"
                + " -DskipTests -pl cli -am'"), missing.err());

        Files.writeString(clone.resolve("cli/target/symdyn.jar"), "");
        List<String> expected = List.of("-Xmx1g", "-Dx=1", "-jar", jar, "simulate", "", "a b.urdf", "--initial");
        Run direct = run(copy, "simulate", "", "a b.urdf", "--initial");
        assertEquals(0, direct.exitCode(), direct.err());
        assertEquals(expected, direct.out());

        // through a link in another folder, itself reached through a relative link
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("real-symdyn"), copy);
        Files.createSymbolicLink(bin.resolve("symdyn"), Path.of("real-symdyn"));
        Run linked = run(bin.resolve("symdyn"), "simulate", "", "a b.urdf", "--initial");
        assertEquals(0, linked.exitCode(), linked.err());
        assertEquals(expected, linked.out());
    }
}
