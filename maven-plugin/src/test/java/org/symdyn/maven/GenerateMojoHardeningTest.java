package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.maven.model.Build;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.generator.GeneratorIdentity;

/** Issue 10, items 1 to 5: the goal touches only what it wrote, recovers from bad state, and says what it does. */
class GenerateMojoHardeningTest {
    @TempDir
    Path tmp;

    private RecordingLog log;

    /** A pendulum named {@code robot} on a hinge about y, its bob of {@code mass} 0.5 m below. */
    static Path write(Path file, String robot, double mass) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n",
                "<robot name=\"" + robot + "\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"revolute\">",
                "    <parent link=\"world\"/><child link=\"rod\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"rod\">",
                "    <inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"" + mass + "\"/>",
                "      <inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "</robot>") + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** The project's POM configures executions {@code configured} of the goal. */
    private GenerateMojo mojo(Path project, String source, String execution, String... configured) {
        GenerateMojo m = new GenerateMojo();
        m.sourceDirectory = project.resolve(source).toFile();
        m.outputDirectory = project.resolve("target/generated-sources/symdyn").toFile();
        m.fingerprintDirectory = project.resolve("target/symdyn-fingerprints").toFile();
        m.packageName = "gen";
        m.project = new MavenProject();
        m.project.getModel().setBuild(new Build());
        Plugin plugin = new Plugin();
        plugin.setGroupId("org.symdyn");
        plugin.setArtifactId("symdyn-maven-plugin");
        for (String id : configured) {
            PluginExecution e = new PluginExecution();
            e.setId(id);
            e.addGoal("generate");
            plugin.addExecution(e);
        }
        m.project.getBuild().addPlugin(plugin);
        m.mojoExecution = new MojoExecution(plugin, "generate", execution);
        m.buildContext = new RecordingBuildContext();
        log = new RecordingLog();
        m.setLog(log);
        return m;
    }

    private GenerateMojo mojo(Path project) {
        return mojo(project, "src/main/symdyn", "default", "default");
    }

    private static Path source(Path project, String className) {
        return project.resolve("target/generated-sources/symdyn/gen/" + className + ".java");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.sorted(Comparator.naturalOrder()).toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q);
                }
            }
        }
    }

    // item 1
    @Test
    void aCopiedProjectNeverTouchesTheOriginal() throws Exception {
        Path a = tmp.resolve("a");
        write(a.resolve("src/main/symdyn/simple_pendulum.urdf"), "simple_pendulum", 1);
        mojo(a).execute();
        assertTrue(Files.isRegularFile(source(a, "SimplePendulumDynamics")));
        Path b = tmp.resolve("b");
        copy(a, b); // cp -r a b, target included
        Files.delete(b.resolve("src/main/symdyn/simple_pendulum.urdf"));
        mojo(b).execute();
        assertFalse(Files.exists(source(b, "SimplePendulumDynamics")));
        assertTrue(Files.isRegularFile(source(a, "SimplePendulumDynamics")), "the original's source was deleted");
        assertTrue(log.text().contains("simple_pendulum.urdf: removed; deleted its class SimplePendulumDynamics ("
                + source(b, "SimplePendulumDynamics").toAbsolutePath().normalize() + ")"), log.text());
    }

    // item 1
    @Test
    void anEditedFingerprintCannotDeleteOtherFiles() throws Exception {
        Path p = tmp.resolve("p");
        write(p.resolve("src/main/symdyn/one.urdf"), "one", 1);
        mojo(p).execute();
        Path store = p.resolve("target/symdyn-fingerprints/generated-sources_symdyn.properties");
        Path victim = Files.writeString(tmp.resolve("victim.java"), "precious");
        Path inside = Files.writeString(Files.createDirectories(p.resolve("target/generated-sources/symdyn/gen"))
                .resolve("Mine.java"), "mine");
        String sha = GeneratorIdentity.Sha256.of("precious".getBytes(StandardCharsets.UTF_8));
        Files.writeString(store, Files.readString(store)
                + "default/ghost.urdf.model=x\ndefault/ghost.urdf.generator=g\ndefault/ghost.urdf.options=o\n"
                + "default/ghost.urdf.class=Ghost\ndefault/ghost.urdf.output=" + victim + "\n"
                + "default/ghost.urdf.outputSha256=" + sha + "\n"
                + "default/twin.urdf.model=x\ndefault/twin.urdf.generator=g\ndefault/twin.urdf.options=o\n"
                + "default/twin.urdf.class=Mine\ndefault/twin.urdf.output=gen/Mine.java\n"
                + "default/twin.urdf.outputSha256=" + sha + "\n"
                + "default/up.urdf.model=x\ndefault/up.urdf.generator=g\ndefault/up.urdf.options=o\n"
                + "default/up.urdf.class=Up\ndefault/up.urdf.output=../../../../victim.java\n"
                + "default/up.urdf.outputSha256=" + sha + "\n");
        mojo(p).execute();
        assertEquals("precious", Files.readString(victim));
        assertEquals("mine", Files.readString(inside), "a file symdyn did not write (other bytes) was deleted");
        assertTrue(log.at("WARN").stream().anyMatch(w -> w.contains("names an output outside the output directory")),
                log.text());
        assertTrue(log.text().contains("twin.urdf: removed; kept its class Mine ("), log.text());
    }

    // item 2
    @Test
    void aDamagedFingerprintFileRegeneratesEverythingWithAWarning() throws Exception {
        Path p = tmp.resolve("p");
        write(p.resolve("src/main/symdyn/one.urdf"), "one", 1);
        mojo(p).execute();
        Path store = p.resolve("target/symdyn-fingerprints/generated-sources_symdyn.properties");
        for (boolean force : new boolean[] {false, true}) {
            Files.write(store, new byte[] {(byte) 0xe9, '\n'});
            GenerateMojo m = mojo(p);
            m.force = force;
            m.execute(); // was: MojoExecutionException "cannot read the fingerprints ...: MalformedInputException"
            assertTrue(log.at("WARN").get(0).startsWith("symdyn: fingerprints " + store + ": cannot read it"
                    + " (MalformedInputException"), log.text());
            assertTrue(log.text().contains("symdyn: 1 regenerated"), log.text());
        }
        assertTrue(log.text().contains("regenerated because symdyn.force is set"), log.text());
        mojo(p).execute();
        assertTrue(log.text().contains("symdyn: 0 regenerated (0 written), 1 up to date, 0 removed"), log.text());
    }

    // item 3
    @Test
    void twoExecutionsMayNotGenerateTheSameClassIntoOneDirectory() throws Exception {
        Path p = tmp.resolve("p");
        write(p.resolve("models-a/arm.urdf"), "arm", 1);
        write(p.resolve("models-b/arm.urdf"), "arm", 2);
        mojo(p, "models-a", "a", "a", "b").execute();
        GenerateMojo second = mojo(p, "models-b", "b", "a", "b");
        MojoFailureException e = assertThrows(MojoFailureException.class, second::execute);
        assertTrue(e.getMessage().contains("its source gen/ArmDynamics.java in " + p.resolve(
                "target/generated-sources/symdyn").toFile() + " is already generated by execution 'a' (from arm.urdf):"
                + " two executions may not generate the same class into one directory"), e.getMessage());
    }

    // item 3
    @Test
    void outputsAreOwnedPerDirectoryNotPerExecution() throws Exception {
        Path p = tmp.resolve("p");
        write(p.resolve("models-a/alpha.urdf"), "alpha", 1);
        write(p.resolve("models-b/beta.urdf"), "beta", 2);
        mojo(p, "models-a", "a", "a", "b").execute();
        mojo(p, "models-b", "b", "a", "b").execute();
        // a's model removed: a deletes its own source, never b's
        Files.delete(p.resolve("models-a/alpha.urdf"));
        mojo(p, "models-a", "a", "a", "b").execute();
        assertFalse(Files.exists(source(p, "AlphaDynamics")));
        assertTrue(Files.exists(source(p, "BetaDynamics")), "execution a deleted execution b's source");
        // b renamed to c: c's run removes what b generated, and regenerates it as its own
        write(p.resolve("models-a/alpha.urdf"), "alpha", 1);
        write(p.resolve("models-b/gamma.urdf"), "gamma", 1);
        Files.delete(p.resolve("models-b/beta.urdf"));
        mojo(p, "models-b", "c", "a", "c").execute();
        assertFalse(Files.exists(source(p, "BetaDynamics")), "the renamed execution's output stayed");
        assertTrue(Files.exists(source(p, "GammaDynamics")));
        assertTrue(log.text().contains("beta.urdf: removed (execution 'b'); deleted the class BetaDynamics of"
                + " execution 'b', which is no longer configured"), log.text());
    }

    // item 3
    @Test
    void aCommandLineRunsOutputIsRemovedByTheNextBuild() throws Exception {
        Path p = tmp.resolve("p");
        write(p.resolve("src/main/symdyn/one.urdf"), "one", 1);
        mojo(p, "src/main/symdyn", "x", "x").execute();
        GenerateMojo cli = mojo(p, "src/main/symdyn", "default-cli", "x");
        cli.packageName = "org.symdyn.generated";
        cli.execute();
        assertTrue(log.at("WARN").get(0).startsWith("symdyn: run from the command line (execution default-cli)"),
                log.text());
        Path cliSource = p.resolve("target/generated-sources/symdyn/org/symdyn/generated/OneDynamics.java");
        assertTrue(Files.exists(cliSource));
        mojo(p, "src/main/symdyn", "x", "x").execute();
        assertFalse(Files.exists(cliSource), "nothing removed the command-line run's classes");
        assertTrue(Files.exists(source(p, "OneDynamics")));
    }

    // item 4
    @Test
    void theLogSaysWhyEachModelWasRegeneratedAndWhatHappenedToOldSources() throws Exception {
        Path p = tmp.resolve("p");
        Path fourbar = write(p.resolve("src/main/symdyn/fourbar.urdf"), "fourbar", 1);
        mojo(p).execute();
        assertTrue(log.text().contains("; regenerated because it was not generated before"), log.text());
        write(fourbar, "fourbar", 2);
        mojo(p).execute();
        assertTrue(log.text().contains("; regenerated because the model changed"), log.text());
        GenerateMojo trig = mojo(p);
        trig.mathTrig = true;
        trig.execute();
        assertTrue(log.text().contains("; regenerated because options changed: mathTrig false -> true"), log.text());
        // the file renamed, the class kept: not "deleted"
        Files.move(fourbar, p.resolve("src/main/symdyn/fourbar2.urdf"));
        GenerateMojo renamed = mojo(p);
        renamed.mathTrig = true;
        renamed.execute();
        assertTrue(log.text().contains("fourbar.urdf: removed; kept its class FourbarDynamics: gen/FourbarDynamics.java"
                + " is now generated from fourbar2.urdf"), log.text());
        assertFalse(log.text().contains("deleted"), log.text());
        assertTrue(Files.exists(source(p, "FourbarDynamics")));
        // a class override renamed: the old source is deleted, and the log says so
        GenerateMojo named = mojo(p);
        named.mathTrig = true;
        named.classNames = Map.of("fourbar2.urdf", "FourBar");
        named.execute();
        assertTrue(log.text().contains("; regenerated because options changed: class (derived) -> FourBar; deleted"
                + " its previous class FourbarDynamics"), log.text());
        assertFalse(Files.exists(source(p, "FourbarDynamics")));
    }

    // issue 15: <derivatives> is part of the fingerprint, reaches the generator, and off gives the same bytes
    @Test
    void theDerivativesOptionIsFingerprintedAndReachesTheClass() throws Exception {
        Path p = tmp.resolve("p");
        byte[] plain = pendulumWithDefaults(p);
        assertFalse(new String(plain, StandardCharsets.UTF_8).contains("DynamicsDerivatives"));
        GenerateMojo on = mojo(p);
        on.derivatives = true;
        on.execute();
        assertTrue(log.text().contains("; regenerated because options changed: derivatives false -> true"),
                log.text());
        String derived = Files.readString(source(p, "PendulumDynamics"), StandardCharsets.UTF_8);
        assertTrue(derived.contains("DynamicsDerivatives") && derived.contains("public void coriolisMatrix("),
                "the class implements DynamicsDerivatives");
        GenerateMojo again = mojo(p);
        again.derivatives = true;
        again.execute();
        assertTrue(log.text().contains("symdyn: 0 regenerated (0 written), 1 up to date, 0 removed"), log.text());
        mojo(p).execute();
        assertTrue(log.text().contains("; regenerated because options changed: derivatives true -> false"),
                log.text());
        assertArrayEquals(plain, Files.readAllBytes(source(p, "PendulumDynamics")));
    }

    // issue 34: <parts> is part of the fingerprint; derivatives among the parts are <derivatives>, the same class
    @Test
    void thePartsOptionIsFingerprintedAndDerivativesAmongThemAreTheDerivativesOption() throws Exception {
        Path p = tmp.resolve("p");
        byte[] plain = pendulumWithDefaults(p);
        GenerateMojo listed = mojo(p);
        listed.parts = "dynamics,kinematics,constraints,derivatives";
        listed.execute();
        assertTrue(log.text().contains("; regenerated because options changed: derivatives false -> true"),
                log.text());
        assertTrue(Files.readString(source(p, "PendulumDynamics"), StandardCharsets.UTF_8)
                .contains("public void coriolisMatrix("), "the class implements DynamicsDerivatives");
        GenerateMojo option = mojo(p);
        option.derivatives = true;
        option.execute();
        assertTrue(log.text().contains("symdyn: 0 regenerated (0 written), 1 up to date, 0 removed"), log.text());
        GenerateMojo dynamicsOnly = mojo(p);
        dynamicsOnly.parts = "dynamics";
        dynamicsOnly.execute();
        assertTrue(log.text().contains("; regenerated because options changed: derivatives true -> false, parts"
                + " (unset) -> dynamics"), log.text());
        assertTrue(Files.readString(source(p, "PendulumDynamics"), StandardCharsets.UTF_8)
                .contains("UnsupportedOperationException"), "the omitted parts' methods throw");
        mojo(p).execute();
        assertTrue(log.text().contains("; regenerated because options changed: parts dynamics -> (unset)"),
                log.text());
        assertArrayEquals(plain, Files.readAllBytes(source(p, "PendulumDynamics")));
    }

    /**
     * {@code <kinematicsForm>}: compact regenerates (named in the log) into the shared passes, back to the default
     * gives the default's bytes again, and an unknown form fails the build naming the forms.
     */
    @Test
    void theKinematicsFormIsFingerprintedAndAnUnknownOneFails() throws Exception {
        Path p = tmp.resolve("p");
        byte[] plain = pendulumWithDefaults(p);
        GenerateMojo compact = mojo(p);
        compact.kinematicsForm = "compact";
        compact.execute();
        assertTrue(log.text().contains("; regenerated because options changed: kinematics (unset) -> compact"),
                log.text());
        assertTrue(Files.readString(source(p, "PendulumDynamics"), StandardCharsets.UTF_8)
                .contains(" kinematicsPoses("), "the shared passes");
        mojo(p).execute();
        assertArrayEquals(plain, Files.readAllBytes(source(p, "PendulumDynamics")));
        GenerateMojo unknown = mojo(p);
        unknown.kinematicsForm = "sideways";
        MojoExecutionException e = assertThrows(MojoExecutionException.class, unknown::execute);
        assertEquals("<kinematicsForm>: unknown form 'sideways': the forms are by-size, per-body, compact,"
                + " shared-passes", e.getMessage());
    }

    /** The pendulum model in {@code p}, generated with every option at its default: its class's bytes. */
    private byte[] pendulumWithDefaults(Path p) throws Exception {
        write(p.resolve("src/main/symdyn/pendulum.urdf"), "pendulum", 1);
        mojo(p).execute();
        return Files.readAllBytes(source(p, "PendulumDynamics"));
    }

    // item 5
    @Test
    void classNamesFollowTheCommandLinesRule() throws Exception {
        Path p = tmp.resolve("p");
        write(p.resolve("src/main/symdyn/a.urdf"), "a", 1);
        for (String name : List.of("record", "Math", "var", "String")) {
            GenerateMojo m = mojo(p);
            m.classNames = Map.of("a.urdf", name);
            // was: javac's error reported as a generator bug (record), an uncaught exception (Math)
            MojoExecutionException e = assertThrows(MojoExecutionException.class, m::execute);
            assertTrue(e.getMessage().startsWith("symdyn: classNames: '" + name + "' (for a.urdf) "), e.getMessage());
        }
        GenerateMojo m = mojo(p);
        ModelConfiguration c = new ModelConfiguration();
        c.setFile("a.urdf");
        c.setClassName("Math");
        m.models = List.of(c);
        assertEquals("symdyn: <model> a.urdf: className 'Math' would hide java.lang.Math, which generated code and the"
                + " code using it name without import", assertThrows(MojoExecutionException.class, m::execute)
                .getMessage());
        m = mojo(p);
        m.packageName = "java.robots";
        assertTrue(assertThrows(MojoExecutionException.class, m::execute).getMessage().startsWith(
                "symdyn: packageName 'java.robots' is in the java namespace"));
    }
}
