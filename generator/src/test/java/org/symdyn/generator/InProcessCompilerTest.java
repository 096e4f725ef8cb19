package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InProcessCompiler}: a class compiles (by javac's command-line entry, nested classes included) and loads,
 * and its temporary directory is gone afterwards; a class that does not compile is reported with javac's messages and
 * their lines; a class with more constants than a class file holds is a {@link InProcessCompiler.LimitException}, on
 * either path, while a method over 64 KB of code (which the emitter never writes) stays a generator bug.
 */
class InProcessCompilerTest {
    @TempDir
    Path parent;

    private static GeneratedClass source(String pkg, String name, String text) {
        return new GeneratedClass(pkg, name, text, 0, 0, new OperationCounts(Map.of()), Map.of());
    }

    private List<Path> leftOver() throws IOException {
        try (Stream<Path> s = Files.list(parent)) {
            return s.toList();
        }
    }

    /** 400 methods of 100 distinct doubles: small methods, 80,000 constant-pool slots. */
    private static GeneratedClass tooManyConstants() {
        StringBuilder src = new StringBuilder("package gen; public final class Big {\n");
        for (int m = 0; m < 400; m++) {
            src.append("  static double[] f").append(m).append("() { return new double[] {");
            for (int i = 0; i < 100; i++) {
                src.append(i == 0 ? "" : ", ").append(1.0 + (100 * m + i) / 65536.0);
            }
            src.append("}; }\n");
        }
        return source("gen", "Big", src.append("}\n").toString());
    }

    @Test
    void aClassCompilesAndLoadsAndItsTemporaryDirectoryIsGone() throws Exception {
        InProcessCompiler.Compiled c = InProcessCompiler.compile(source("gen.ok", "Twice",
                "package gen.ok;\n/** A class. */\npublic final class Twice implements java.util.function.DoubleUnaryOperator"
                        + " {\n    private static final class Factor { static final double K = 2.0; }\n"
                        + "    public double applyAsDouble(double x) { return Factor.K * x; }\n}\n"));
        assertEquals("gen.ok.Twice", c.type().getName());
        DoubleUnaryOperator f = (DoubleUnaryOperator) c.type().getConstructor().newInstance();
        assertEquals(3.0, f.applyAsDouble(1.5));
        assertTrue(c.methodSizes().containsKey("applyAsDouble(D)D"), c.methodSizes().toString());
        assertEquals("Plain", InProcessCompiler.compile(source("", "Plain", "public class Plain {}\n")).type()
                .getName());

        // The fast path itself: both class files, and nothing left in the directory it was given.
        Map<String, byte[]> fast = InProcessCompiler.compileInTemporaryDirectory(ToolProvider.getSystemJavaCompiler(),
                source("gen.ok", "Once", "package gen.ok; public class Once { static class In {} }"),
                List.of("-proc:none"), parent);
        assertEquals(Set.of("gen.ok.Once", "gen.ok.Once$In"), fast.keySet());
        assertEquals(List.of(), leftOver());
    }

    @Test
    void aClassThatDoesNotCompileIsReportedWithJavacsMessagesAndLines() throws Exception {
        GeneratedClass broken = source("gen.bad", "Broken",
                "package gen.bad;\npublic class Broken {\n    double f() {\n        return y;\n    }\n}\n");
        assertEquals(null, InProcessCompiler.compileInTemporaryDirectory(ToolProvider.getSystemJavaCompiler(), broken,
                List.of("-proc:none"), parent), "the fast path gives up and leaves nothing");
        assertEquals(List.of(), leftOver());
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> InProcessCompiler.compile(broken));
        assertTrue(x.getMessage().startsWith("generated class gen.bad.Broken does not compile:\n  line 4: "),
                x.getMessage());
        assertTrue(x.getMessage().contains("y"), x.getMessage());
    }

    @Test
    void tooManyConstantsIsALimitExceptionOnEitherPath() throws Exception {
        InProcessCompiler.LimitException x = assertThrows(InProcessCompiler.LimitException.class,
                () -> InProcessCompiler.compile(tooManyConstants()));
        assertEquals("generated class gen.Big has more constants than a Java class file holds (65,535)",
                x.getMessage());
        // The fast path says so itself (no second compilation), and cleans up.
        assertThrows(InProcessCompiler.LimitException.class, () -> InProcessCompiler.compileInTemporaryDirectory(
                ToolProvider.getSystemJavaCompiler(), tooManyConstants(), List.of("-proc:none"), parent));
        assertEquals(List.of(), leftOver());
    }

    @Test
    void aMethodOverSixtyFourKilobytesStaysAGeneratorBug() {
        StringBuilder src = new StringBuilder("package gen; public final class Long { static int[] f() { return new"
                + " int[] {");
        for (int i = 0; i < 12_000; i++) {
            src.append(i == 0 ? "1" : ", 1");
        }
        src.append("}; } }");
        IllegalStateException x = assertThrows(IllegalStateException.class,
                () -> InProcessCompiler.compile(source("gen", "Long", src.toString())));
        assertFalse(x instanceof InProcessCompiler.LimitException, x.getMessage());
        assertTrue(x.getMessage().startsWith("generated class gen.Long does not compile:"), x.getMessage());
    }
}
