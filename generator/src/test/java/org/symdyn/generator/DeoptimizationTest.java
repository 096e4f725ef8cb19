package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.testing.DeoptimizationCheck;
import org.symdyn.testing.SharedFiles;

/**
 * Issue 18 on public robots: the classes generated for a fixed-base arm (iiwa14) and a floating-base quadruped
 * (solo12) are compiled to class files, and a fresh JVM warms them with small angles only, then calls every method
 * over the whole circle (and the reverse); no method of theirs may be deoptimised. The samples' test does the same
 * for every sample class. {@code -Dsymdyn.deopt.allModels=true} probes every model of {@code ../shared/models}
 * (floating bases as in {@link GeneratedVsGenericTest}; a few minutes). Skipped with a message without ../shared.
 */
class DeoptimizationTest {
    private static Path dir;
    private static List<String> classes;

    @BeforeAll
    static void generate() throws Exception {
        List<Object[]> models = new ArrayList<>();
        if (Boolean.getBoolean("symdyn.deopt.allModels")) {
            Stream.concat(GeneratedVsGenericTest.models(), GeneratedVsGenericTest.exhaustiveModels())
                    .forEach(a -> models.add(a.get()));
        } else {
            models.add(new Object[] {"iiwa14_no_collision.urdf", false});
            models.add(new Object[] {"solo12.urdf", true});
        }
        dir = Files.createTempDirectory("symdyn-deopt");
        classes = new ArrayList<>();
        List<Path> sources = new ArrayList<>();
        for (Object[] m : models) {
            String file = (String) m[0];
            Model model = UrdfReader.read(SharedFiles.model(file), new UrdfReader.Options((Boolean) m[1], false));
            String name = "Deopt_" + file.replaceAll("\\.urdf$", "").replaceAll("[^A-Za-z0-9]", "_");
            GeneratedClass gen = new CodeGenerator().generate(model,
                    GeneratorOptions.of("org.symdyn.deopt", name));
            Path source = dir.resolve(name + ".java");
            Files.writeString(source, gen.source());
            sources.add(source);
            classes.add(gen.qualifiedName());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", dir.toString(), "-cp",
                System.getProperty("java.class.path"), "-proc:none", "-nowarn"));
        sources.forEach(s -> args.add(s.toString()));
        assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "javac of the generated classes");
    }

    @AfterAll
    static void cleanUp() throws IOException {
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }

    private static void check(boolean smallFirst) throws Exception {
        DeoptimizationCheck.assertNoDeoptimisation(smallFirst, List.of(dir), classes);
    }

    @Test
    void smallAnglesThenTheWholeCircle() throws Exception {
        check(true);
    }

    @Test
    void theWholeCircleThenSmallAngles() throws Exception {
        check(false);
    }
}
