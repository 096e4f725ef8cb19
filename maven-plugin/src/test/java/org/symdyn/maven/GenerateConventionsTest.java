package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.apache.maven.model.Build;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Maven conventions of the goals: {@code generate-test} into the test sources, {@code failOnMissingModels},
 * no run for {@code pom} packaging, {@code skip} and {@code maven.test.skip}, {@code addSourceRoot}.
 */
class GenerateConventionsTest {
    @TempDir
    Path dir;

    private RecordingLog log;

    private Path pendulum(String file, String robot) throws IOException {
        return GenerateMojoHardeningTest.write(dir.resolve(file), robot, 2);
    }

    /** A project whose POM configures execution {@code default} of both goals, as Maven hands it to a goal. */
    private <M extends AbstractGenerateMojo> M configure(M m, String goal) {
        m.fingerprintDirectory = dir.resolve("target/symdyn-fingerprints").toFile();
        m.packageName = "gen";
        m.project = new MavenProject();
        m.project.getModel().setBuild(new Build());
        Plugin plugin = new Plugin();
        plugin.setGroupId("org.symdyn");
        plugin.setArtifactId("symdyn-maven-plugin");
        PluginExecution e = new PluginExecution();
        e.setId("default");
        e.addGoal("generate");
        e.addGoal("generate-test");
        plugin.addExecution(e);
        m.project.getBuild().addPlugin(plugin);
        m.mojoExecution = new MojoExecution(plugin, goal, "default");
        m.buildContext = new RecordingBuildContext();
        log = new RecordingLog();
        m.setLog(log);
        return m;
    }

    private GenerateMojo main() {
        GenerateMojo m = configure(new GenerateMojo(), "generate");
        m.sourceDirectory = dir.resolve("src/main/symdyn").toFile();
        m.outputDirectory = dir.resolve("target/generated-sources/symdyn").toFile();
        return m;
    }

    private GenerateTestMojo test() {
        GenerateTestMojo m = configure(new GenerateTestMojo(), "generate-test");
        m.testSourceDirectory = dir.resolve("src/test/symdyn").toFile();
        m.testOutputDirectory = dir.resolve("target/generated-test-sources/symdyn").toFile();
        return m;
    }

    private static String absolute(Path p) {
        return p.toFile().getAbsolutePath();
    }

    @Test
    void theTestGoalGeneratesIntoTheTestSourcesBesideTheMainGoal() throws Exception {
        pendulum("src/main/symdyn/a.urdf", "alpha");
        pendulum("src/test/symdyn/t.urdf", "probe");
        Path mainSource = dir.resolve("target/generated-sources/symdyn/gen/AlphaDynamics.java");
        Path testSource = dir.resolve("target/generated-test-sources/symdyn/gen/ProbeDynamics.java");

        GenerateTestMojo t = test();
        t.execute();
        assertEquals(List.of(absolute(dir.resolve("target/generated-test-sources/symdyn"))),
                t.project.getTestCompileSourceRoots());
        assertFalse(t.project.getCompileSourceRoots().contains(absolute(dir.resolve(
                "target/generated-test-sources/symdyn"))), t.project.getCompileSourceRoots().toString());
        assertTrue(Files.readString(testSource).contains("public final class ProbeDynamics "));
        assertTrue(Files.isRegularFile(dir.resolve(
                "target/symdyn-fingerprints/generated-test-sources_symdyn.properties")));
        assertEquals("symdyn: 1 regenerated (1 written), 0 up to date, 0 removed", last(log.at("INFO")));

        // the main goal of the same execution id keeps its own records and leaves the test sources alone
        GenerateMojo m = main();
        m.execute();
        assertEquals(List.of(absolute(dir.resolve("target/generated-sources/symdyn"))),
                m.project.getCompileSourceRoots());
        assertTrue(Files.isRegularFile(mainSource));
        assertTrue(Files.isRegularFile(testSource));

        // both up to date on the next build
        test().execute();
        assertEquals("symdyn: 0 regenerated (0 written), 1 up to date, 0 removed", last(log.at("INFO")));
        main().execute();
        assertEquals("symdyn: 0 regenerated (0 written), 1 up to date, 0 removed", last(log.at("INFO")));

        // a test model removed: its source goes, the main one stays
        Files.delete(dir.resolve("src/test/symdyn/t.urdf"));
        test().execute();
        assertFalse(Files.exists(testSource));
        assertTrue(Files.isRegularFile(mainSource));
    }

    @Test
    void aMissingOrEmptyModelsDirectoryIsAWarningOrWithFailOnMissingModelsAFailure() throws Exception {
        Path models = dir.resolve("src/main/symdyn");
        String missing = "symdyn: no model: the source directory " + absolute(models) + " does not exist";
        GenerateMojo warned = main();
        warned.execute();
        assertEquals(List.of(missing), log.at("WARN"));
        assertEquals("symdyn: 0 regenerated (0 written), 0 up to date, 0 removed", last(log.at("INFO")));

        GenerateMojo failing = main();
        failing.failOnMissingModels = true;
        assertEquals(missing, assertThrows(MojoFailureException.class, failing::execute).getMessage());

        Files.createDirectories(models);
        Files.writeString(models.resolve("notes.txt"), "not a model\n");
        String empty = "symdyn: no model in " + absolute(models) + " (includes [**/*.urdf, **/*.xml, **/*.mjcf])";
        main().execute();
        assertEquals(List.of(empty), log.at("WARN"));
        GenerateMojo failingEmpty = main();
        failingEmpty.failOnMissingModels = true;
        assertEquals(empty, assertThrows(MojoFailureException.class, failingEmpty::execute).getMessage());

        GenerateMojo excluded = main();
        pendulum("src/main/symdyn/a.urdf", "alpha");
        excluded.excludes = List.of("a.urdf");
        excluded.failOnMissingModels = true;
        assertEquals("symdyn: no model in " + absolute(models) + " (includes [**/*.urdf, **/*.xml, **/*.mjcf],"
                + " excludes [a.urdf])", assertThrows(MojoFailureException.class, excluded::execute).getMessage());

        // the test goal names its own directory
        GenerateTestMojo t = test();
        t.execute();
        assertEquals(List.of("symdyn: no model: the source directory " + absolute(dir.resolve("src/test/symdyn"))
                + " does not exist"), log.at("WARN"));
    }

    @Test
    void aPomProjectIsSkippedWithOneLineAndNoSourceRoot() throws Exception {
        pendulum("src/main/symdyn/a.urdf", "alpha");
        for (Supplier<AbstractGenerateMojo> goal : List.<Supplier<AbstractGenerateMojo>>of(this::main, this::test)) {
            AbstractGenerateMojo m = goal.get();
            m.project.setPackaging("pom");
            m.failOnMissingModels = true;
            m.execute();
            assertEquals(List.of("symdyn: skipped: a project of packaging pom compiles no sources"), log.lines.stream()
                    .map(l -> l.substring(l.indexOf(' ') + 1)).toList());
            assertEquals(List.of(), m.project.getCompileSourceRoots());
            assertEquals(List.of(), m.project.getTestCompileSourceRoots());
        }
        assertFalse(Files.exists(dir.resolve("target")));
    }

    @Test
    void skipRunsNothingButAddsTheSourceRoot() throws Exception {
        pendulum("src/main/symdyn/a.urdf", "alpha");
        GenerateMojo m = main();
        m.skip = true;
        m.execute();
        assertEquals(List.of("INFO symdyn: skipped (symdyn.skip)"), log.lines);
        assertEquals(List.of(absolute(dir.resolve("target/generated-sources/symdyn"))),
                m.project.getCompileSourceRoots());
        assertFalse(Files.exists(dir.resolve("target")));

        GenerateTestMojo t = test();
        t.skip = true;
        t.execute();
        assertEquals(List.of("INFO symdyn: skipped (symdyn.skip)"), log.lines);
        GenerateTestMojo testsSkipped = test();
        testsSkipped.mavenTestSkip = true;
        testsSkipped.execute();
        assertEquals(List.of("INFO symdyn: skipped (maven.test.skip)"), log.lines);
        assertEquals(List.of(absolute(dir.resolve("target/generated-test-sources/symdyn"))),
                testsSkipped.project.getTestCompileSourceRoots());
        assertFalse(Files.exists(dir.resolve("target")));
    }

    @Test
    void addSourceRootOffGeneratesWithoutAddingTheRoot() throws Exception {
        pendulum("src/main/symdyn/a.urdf", "alpha");
        GenerateMojo m = main();
        m.addSourceRoot = false;
        m.execute();
        assertEquals(List.of(), m.project.getCompileSourceRoots());
        assertTrue(Files.isRegularFile(dir.resolve("target/generated-sources/symdyn/gen/AlphaDynamics.java")));

        GenerateTestMojo t = test();
        t.addSourceRoot = false;
        t.skip = true;
        t.execute();
        assertEquals(List.of(), t.project.getTestCompileSourceRoots());
    }

    private static String last(List<String> lines) {
        return lines.get(lines.size() - 1);
    }
}
