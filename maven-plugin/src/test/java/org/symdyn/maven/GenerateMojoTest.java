package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sonatype.plexus.build.incremental.BuildContext;
import org.sonatype.plexus.build.incremental.DefaultBuildContext;

/** The goal run in-process on models written here, with the real generator. */
class GenerateMojoTest {
    private static final FileTime LONG_AGO = FileTime.fromMillis(946_684_800_000L); // 2000-01-01

    @TempDir
    Path dir;

    private Path models() {
        return dir.resolve("src/main/symdyn");
    }

    private Path out() {
        return dir.resolve("target/generated-sources/symdyn");
    }

    private Path source(String className) {
        return out().resolve("gen/" + className + ".java");
    }

    private Path store() {
        return dir.resolve("target/symdyn-fingerprints/generated-sources_symdyn.properties");
    }

    private Path write(String name, String... lines) throws IOException {
        Path p = models().resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    /** A pendulum on a hinge about y; {@code extra} goes into the joint element. */
    private Path pendulum(String file, String robot, double mass, String... extra) throws IOException {
        return write(file,
                "<robot name=\"" + robot + "\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"revolute\">",
                "    <parent link=\"world\"/><child link=\"rod\"/><axis xyz=\"0 1 0\"/>",
                "    " + String.join(" ", extra),
                "  </joint>",
                "  <link name=\"rod\">",
                "    <inertial><origin xyz=\"0 0 -0.5\"/><mass value=\"" + mass + "\"/>",
                "      <inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "</robot>");
    }

    private RecordingLog log;
    private RecordingBuildContext context;

    private GenerateMojo mojo() {
        return mojo(new RecordingBuildContext());
    }

    private GenerateMojo mojo(BuildContext buildContext) {
        GenerateMojo m = new GenerateMojo();
        m.sourceDirectory = models().toFile();
        m.outputDirectory = out().toFile();
        m.fingerprintDirectory = dir.resolve("target/symdyn-fingerprints").toFile();
        m.packageName = "gen";
        m.project = new MavenProject();
        m.buildContext = buildContext;
        log = new RecordingLog();
        context = buildContext instanceof RecordingBuildContext r ? r : null;
        m.setLog(log);
        return m;
    }

    private static List<String> files(Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .sorted().toList();
        }
    }

    private static String summary(RecordingLog log) {
        List<String> info = log.at("INFO");
        return info.get(info.size() - 1);
    }

    /** Each model's stages are logged as they go, with their times, before the model's summary. */
    @Test
    void logsEachModelsStagesAndTheirTimes() throws Exception {
        pendulum("a.urdf", "alpha", 2);
        mojo().execute();
        List<String> stages = log.lines.stream().filter(l -> l.startsWith("INFO symdyn: a.urdf: ")).toList();
        assertEquals(4, stages.size(), log.text());
        assertTrue(stages.get(0).matches("INFO symdyn: a\\.urdf: read in \\d+ ms"), stages.get(0));
        assertEquals("INFO symdyn: a.urdf: deriving and emitting gen.AlphaDynamics ...", stages.get(1));
        assertTrue(stages.get(2).matches("INFO symdyn: a\\.urdf: derived and emitted in \\d+(\\.\\d)? m?s"),
                stages.get(2));
        assertTrue(stages.get(3).matches("INFO symdyn: a\\.urdf: compile-checked in \\d+(\\.\\d)? m?s"),
                stages.get(3));
        assertTrue(log.lines.indexOf(stages.get(3)) < log.lines.size() - 2, log.text());
        assertTrue(log.lines.contains("DEBUG symdyn: a.urdf: reading ..."), log.text());
    }

    @Test
    void regeneratesOnlyWhatChangedAndDeletesTheSourcesOfRemovedModels() throws Exception {
        Path a = pendulum("a.urdf", "alpha", 2);
        Path b = pendulum("sub/b.urdf", "beta", 3);
        GenerateMojo first = mojo();
        first.execute();
        assertEquals(List.of(out().toFile().getAbsolutePath()), first.project.getCompileSourceRoots());
        assertEquals(List.of("gen/AlphaDynamics.java", "gen/BetaDynamics.java"), files(out()));
        assertEquals("symdyn: 2 regenerated (2 written), 0 up to date, 0 removed", summary(log));
        assertTrue(log.text().contains("INFO sub/b.urdf -> gen.BetaDynamics: 1 dof (nq 1), 0 constraints (0 rows),"
                + " generated in "), log.text());
        assertTrue(log.text().contains("mass_matrix 0 flops (0 mul, 0 add, 0 trig), forward_dynamics "), log.text());
        assertEquals(List.of(a.toFile().getAbsoluteFile(), b.toFile().getAbsoluteFile()), context.cleared);
        assertEquals(List.of(source("AlphaDynamics").toFile(), source("BetaDynamics").toFile()), context.refreshed);
        assertTrue(Files.readString(source("AlphaDynamics")).contains("public final class AlphaDynamics "));

        // unchanged: nothing read, nothing written
        Files.setLastModifiedTime(source("AlphaDynamics"), LONG_AGO);
        Files.setLastModifiedTime(source("BetaDynamics"), LONG_AGO);
        byte[] storeBytes = Files.readAllBytes(store());
        mojo().execute();
        assertEquals("symdyn: 0 regenerated (0 written), 2 up to date, 0 removed", summary(log));
        assertTrue(log.at("INFO").contains("a.urdf: up to date (gen.AlphaDynamics)"), log.text());
        assertEquals(LONG_AGO, Files.getLastModifiedTime(source("AlphaDynamics")));
        assertEquals(LONG_AGO, Files.getLastModifiedTime(source("BetaDynamics")));
        assertArrayEquals(storeBytes, Files.readAllBytes(store()));
        assertEquals(List.of(), context.cleared);
        assertEquals(List.of(), context.refreshed);

        // one model changed
        pendulum("sub/b.urdf", "beta", 4);
        mojo().execute();
        assertEquals("symdyn: 1 regenerated (1 written), 1 up to date, 0 removed", summary(log));
        assertEquals(LONG_AGO, Files.getLastModifiedTime(source("AlphaDynamics")));
        assertFalse(LONG_AGO.equals(Files.getLastModifiedTime(source("BetaDynamics"))));

        // one model removed
        Files.delete(a);
        mojo().execute();
        assertEquals("symdyn: 0 regenerated (0 written), 1 up to date, 1 removed", summary(log));
        assertEquals(List.of("gen/BetaDynamics.java"), files(out()));
        assertEquals(List.of(source("AlphaDynamics").toFile()), context.refreshed);
        assertEquals(List.of("sub/b.urdf"), FingerprintStore.load(store()).entries().stream()
                .map(FingerprintStore.Entry::model).toList());

        // a hand-edited output is regenerated
        String generated = Files.readString(source("BetaDynamics"));
        Files.writeString(source("BetaDynamics"), generated + "// edited\n");
        mojo().execute();
        assertEquals("symdyn: 1 regenerated (1 written), 0 up to date, 0 removed", summary(log));
        assertEquals(generated, Files.readString(source("BetaDynamics")));

        // force regenerates, but identical bytes are not rewritten
        Files.setLastModifiedTime(source("BetaDynamics"), LONG_AGO);
        GenerateMojo forced = mojo();
        forced.force = true;
        forced.execute();
        assertEquals("symdyn: 1 regenerated (0 written), 0 up to date, 0 removed", summary(log));
        assertTrue(log.text().contains("; source unchanged, not rewritten"), log.text());
        assertEquals(LONG_AGO, Files.getLastModifiedTime(source("BetaDynamics")));

        // the last model removed: no source, no fingerprints
        Files.delete(models().resolve("sub/b.urdf"));
        mojo().execute();
        assertEquals(List.of(), files(out()));
        assertFalse(Files.exists(store()));
    }

    @Test
    void classNamesFloatingBaseAndRenames() throws Exception {
        pendulum("a.urdf", "alpha", 2);
        write("legged/torso.urdf",
                "<robot name=\"torso\">",
                "  <link name=\"body\">",
                "    <inertial><mass value=\"5\"/>",
                "      <inertia ixx=\"0.2\" iyy=\"0.3\" izz=\"0.4\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "  <joint name=\"hip\" type=\"revolute\">",
                "    <parent link=\"body\"/><child link=\"leg\"/><origin xyz=\"0 0 -0.1\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"leg\">",
                "    <inertial><origin xyz=\"0 0 -0.2\"/><mass value=\"1\"/>",
                "      <inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "</robot>");
        GenerateMojo m = mojo();
        m.classNames = Map.of("a.urdf", "Pendulum");
        ModelConfiguration torso = new ModelConfiguration();
        torso.setFile("legged/torso.urdf");
        torso.setClassName("Torso");
        torso.setFloatingBase(true);
        m.models = List.of(torso);
        m.execute();
        assertEquals(List.of("gen/Pendulum.java", "gen/Torso.java"), files(out()));
        assertTrue(log.text().contains("legged/torso.urdf -> gen.Torso: 7 dof (nq 8)"), log.text());
        assertTrue(log.text().contains("a.urdf -> gen.Pendulum: 1 dof (nq 1)"), log.text());

        // the same configuration again: up to date
        GenerateMojo same = mojo();
        same.classNames = Map.of("a.urdf", "Pendulum");
        same.models = List.of(torso);
        same.execute();
        assertEquals("symdyn: 0 regenerated (0 written), 2 up to date, 0 removed", summary(log));

        // another class name: the old source goes; no floating base for the torso: regenerated
        GenerateMojo renamed = mojo();
        renamed.classNames = Map.of("a.urdf", "Swing");
        torso.setFloatingBase(null);
        renamed.models = List.of(torso);
        renamed.execute();
        assertEquals("symdyn: 2 regenerated (2 written), 0 up to date, 0 removed", summary(log));
        assertEquals(List.of("gen/Swing.java", "gen/Torso.java"), files(out()));
        assertTrue(log.text().contains("legged/torso.urdf -> gen.Torso: 1 dof (nq 1)"), log.text());
    }

    @Test
    void everyProblemOfEveryBadModelIsReportedAndNothingIsWritten() throws Exception {
        Path good = pendulum("good.urdf", "good", 2);
        pendulum("other.urdf", "other", 2);
        mojo().execute();
        byte[] goodSource = Files.readAllBytes(source("GoodDynamics"));
        byte[] storeBytes = Files.readAllBytes(store());

        // a changed good model, a removed one and three bad ones
        pendulum("good.urdf", "good", 3);
        Files.delete(models().resolve("other.urdf"));
        Path malformed = write("malformed.urdf", "<robot name=\"x\">", "  <link name=\"a\">", "</robot>");
        Path negative = write("bad/negative.urdf",
                "<robot name=\"neg\">",
                "  <link name=\"a\"/>",
                "  <joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                "  <link name=\"b\"><inertial><mass value=\"-1\"/>",
                "    <inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>",
                "</robot>");
        Path extension = write("extension.urdf",
                "<robot name=\"extension\" xmlns:sd=\"urn:symdyn:1\">",
                "  <link name=\"world\"/>",
                "  <joint name=\"hinge\" type=\"continuous\">",
                "    <parent link=\"world\"/><child link=\"arm\"/><axis xyz=\"0 1 0\"/>",
                "  </joint>",
                "  <link name=\"arm\">",
                "    <inertial><origin xyz=\"0.2 0 0\"/><mass value=\"0.8\"/>",
                "      <inertia ixx=\"0.005\" iyy=\"0.02\" izz=\"0.02\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>",
                "  </link>",
                "  <sd:bungee name=\"s\" link=\"arm\" stiffness=\"10\"/>",
                "  <sd:contact name=\"c\" link=\"nowhere\" normal=\"0 0 1\"/>",
                "</robot>");
        GenerateMojo m = mojo();
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);

        List<String> errors = log.at("ERROR");
        String abs = models().toFile().getAbsolutePath();
        assertEquals(List.of(
                new File(abs, "bad/negative.urdf") + ":[4,3] link 'b': mass -1.0 kg is negative",
                new File(abs, "extension.urdf") + ":[10,3] unknown SymDyn element 'bungee' (namespace urn:symdyn:1;"
                        + " expected gravity, loop, contact, coupler, line_on_line, parameter, ground, contact_point,"
                        + " contact_sphere, servo, motor, torque_source, spring, imu, encoder, no_contact or lidar)",
                new File(abs, "extension.urdf") + ":[11,3] contact 'c': unknown link 'nowhere'"),
                errors.subList(0, 3));
        assertEquals(4, errors.size(), log.text());
        assertTrue(errors.get(3).startsWith(new File(abs, "malformed.urdf") + ":[3,3] malformed XML: "), log.text());
        assertEquals("symdyn: 3 bad models, nothing generated:\n" + String.join("\n", errors), e.getMessage());
        assertFalse(e.getMessage().contains("good.urdf"));

        // IDE markers at the same positions
        assertEquals(4, context.messages.size());
        assertEquals(new RecordingBuildContext.Message(extension.toFile().getAbsoluteFile(), 11, 3,
                "contact 'c': unknown link 'nowhere'", BuildContext.SEVERITY_ERROR), context.messages.get(2));
        assertEquals(negative.toFile().getAbsoluteFile(), context.messages.get(0).file());
        assertTrue(context.cleared.contains(malformed.toFile().getAbsoluteFile()));
        assertTrue(context.cleared.contains(good.toFile().getAbsoluteFile()));

        // nothing written, nothing deleted
        assertEquals(List.of("gen/GoodDynamics.java", "gen/OtherDynamics.java"), files(out()));
        assertArrayEquals(goodSource, Files.readAllBytes(source("GoodDynamics")));
        assertArrayEquals(storeBytes, Files.readAllBytes(store()));
        assertEquals(List.of(), context.refreshed);
    }

    @Test
    void onTheCommandLineProblemsAreLoggedOnce() throws Exception {
        write("malformed.urdf", "<robot name=\"x\">", "  <link name=\"a\">", "</robot>");
        GenerateMojo m = mojo(new DefaultBuildContext()); // its addMessage would log again (and has no logger here)
        assertThrows(MojoFailureException.class, m::execute);
        assertEquals(1, log.at("ERROR").size(), log.text());
    }

    @Test
    void warningsAreLoggedAndStrictMakesThemErrors() throws Exception {
        Path odd = pendulum("odd.urdf", "odd", 2, "<limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/>");
        String where = odd.toFile().getAbsolutePath() + ":[5,5] ";
        GenerateMojo m = mojo();
        m.strict = true;
        MojoFailureException e = assertThrows(MojoFailureException.class, m::execute);
        assertTrue(e.getMessage().contains(where + "joint 'hinge': limit lower 1.0 is above upper -1.0"),
                e.getMessage());
        assertEquals(List.of(), files(out()));
        assertEquals(BuildContext.SEVERITY_ERROR, context.messages.get(0).severity());

        mojo().execute();
        assertEquals(List.of("gen/OddDynamics.java"), files(out()));
        List<String> warnings = log.at("WARN");
        assertEquals(1, warnings.size(), log.text());
        assertTrue(warnings.get(0).startsWith(where + "warning: joint 'hinge': limit lower 1.0 is above upper"),
                log.text());
        assertEquals(List.of(new RecordingBuildContext.Message(odd.toFile().getAbsoluteFile(), 5, 5,
                warnings.get(0).substring(where.length()), BuildContext.SEVERITY_WARNING)), context.messages);
    }

    @Test
    void twoModelsMayNotShareAClass() throws Exception {
        pendulum("a.urdf", "arm", 2);
        pendulum("b.urdf", "arm", 2);
        pendulum("c.urdf", "ARM", 2);
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo()::execute);
        String abs = models().toFile().getAbsolutePath();
        // the generation pipeline's wording, shared with the command line (which names the robots too)
        assertTrue(e.getMessage().contains(new File(abs, "b.urdf") + ":[0,0] the class of robot 'arm',"
                + " gen.ArmDynamics, is also the class of " + new File(abs, "a.urdf") + " (robot 'arm'); name one of"
                + " them in classNames or models"), e.getMessage());
        assertTrue(e.getMessage().contains(new File(abs, "c.urdf") + ":[0,0] the class of robot 'ARM',"
                + " gen.ARMDynamics, differs only in case from gen.ArmDynamics, the class of "), e.getMessage());
        assertEquals(List.of(), files(out()));
    }

    @Test
    void badConfigurationIsAnExecutionError() throws Exception {
        pendulum("a.urdf", "alpha", 2);
        List<GenerateMojo> bad = new ArrayList<>();
        GenerateMojo m = mojo();
        m.packageName = "org.class";
        bad.add(m);
        m = mojo();
        m.classNames = Map.of("missing.urdf", "X");
        bad.add(m);
        m = mojo();
        m.classNames = Map.of("a.urdf", "not a name");
        bad.add(m);
        m = mojo();
        ModelConfiguration noFile = new ModelConfiguration();
        m.models = List.of(noFile);
        bad.add(m);
        m = mojo();
        ModelConfiguration one = new ModelConfiguration();
        one.setFile("a.urdf");
        m.models = List.of(one, one);
        bad.add(m);
        m = mojo();
        ModelConfiguration named = new ModelConfiguration();
        named.setFile("a.urdf");
        named.setClassName("B");
        m.models = List.of(named);
        m.classNames = Map.of("a.urdf", "C");
        bad.add(m);
        List<String> messages = new ArrayList<>();
        for (GenerateMojo g : bad) {
            messages.add(assertThrows(MojoExecutionException.class, g::execute).getMessage());
        }
        assertEquals("symdyn: packageName 'org.class' is not a package name: 'class' is a Java keyword",
                messages.get(0));
        assertTrue(messages.get(1).startsWith("symdyn: classNames/models name model files that are not among the"
                + " inputs: [missing.urdf]"), messages.get(1));
        assertTrue(messages.get(1).endsWith(": [a.urdf])"), messages.get(1));
        assertEquals(6, messages.size());
        assertEquals(List.of(), files(out()));
    }

    @Test
    void skipAndIdleIncrementalBuildsDoNothingButAddTheSourceRoot() throws Exception {
        pendulum("a.urdf", "alpha", 2);
        GenerateMojo skipped = mojo();
        skipped.skip = true;
        skipped.execute();
        assertEquals(List.of(out().toFile().getAbsolutePath()), skipped.project.getCompileSourceRoots());
        assertEquals(List.of("INFO symdyn: skipped (symdyn.skip)"), log.lines);

        RecordingBuildContext idle = new RecordingBuildContext();
        idle.incremental = true;
        idle.delta = false;
        GenerateMojo ide = mojo(idle);
        ide.execute();
        assertEquals(List.of(out().toFile().getAbsolutePath()), ide.project.getCompileSourceRoots());
        assertEquals(List.of(), files(dir.resolve("target")));
    }

    @Test
    void noSourceDirectoryIsNoModel() throws Exception {
        mojo().execute();
        assertEquals("symdyn: 0 regenerated (0 written), 0 up to date, 0 removed", summary(log));
        assertEquals(List.of(), files(dir.resolve("target")));
    }

    @Test
    void includesAndExcludes() throws Exception {
        pendulum("a.urdf", "alpha", 2);
        pendulum("b.xml", "beta", 2);
        pendulum("old/c.urdf", "gamma", 2);
        GenerateMojo m = mojo();
        m.includes = List.of("**/*.xml", "**/*.urdf");
        m.excludes = List.of("old/**", "a.*");
        m.execute();
        assertEquals(List.of("gen/BetaDynamics.java"), files(out()));
        assertTrue(Arrays.asList(log.text().split("\n")).contains("INFO symdyn: 1 regenerated (1 written), 0 up to"
                + " date, 0 removed"), log.text());
    }
}
