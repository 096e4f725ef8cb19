package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link InProcessCompiler}: a class compiles and loads (nested classes included) without leaving its temporary
 * directory behind; a class that does not compile is reported with javac's messages and their lines; a class over a
 * class-file limit is a {@link InProcessCompiler.LimitException}.
 */
class InProcessCompilerTest {
    private static CodeGenerator.GeneratedClass source(String pkg, String name, String text) {
        return new CodeGenerator.GeneratedClass(pkg, name, text, 0, 0, Map.of(), Map.of());
    }

    private static List<Path> temporaryDirectories() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("symdyn-javac-")).sorted().toList();
        }
    }

    @Test
    void aClassCompilesAndLoadsWithItsNestedClassesAndLeavesNothingBehind() throws Exception {
        List<Path> before = temporaryDirectories();
        InProcessCompiler.Compiled c = InProcessCompiler.compile(source("gen.ok", "Twice",
                "package gen.ok;\n/** A class. */\npublic final class Twice implements java.util.function.DoubleUnaryOperator {\n"
                        + "    private static final class Factor { static final double K = 2.0; }\n"
                        + "    public double applyAsDouble(double x) { return Factor.K * x; }\n}\n"));
        assertEquals("gen.ok.Twice", c.type().getName());
        java.util.function.DoubleUnaryOperator f = (java.util.function.DoubleUnaryOperator) c.type()
                .getConstructor().newInstance();
        assertEquals(3.0, f.applyAsDouble(1.5));
        assertTrue(c.methodSizes().containsKey("applyAsDouble(D)D"), c.methodSizes().toString());
        assertEquals(before, temporaryDirectories(), "the temporary directory is deleted");
        // By the fast path: javac's command-line entry, both classes.
        Map<String, byte[]> fast = InProcessCompiler.compileInTemporaryDirectory(
                javax.tools.ToolProvider.getSystemJavaCompiler(), source("gen.ok", "Once",
                        "package gen.ok; public class Once { static class In {} }"), List.of("-proc:none"));
        assertEquals(java.util.Set.of("gen.ok.Once", "gen.ok.Once$In"), fast.keySet());
        // The default package too.
        assertEquals("Plain", InProcessCompiler.compile(source("", "Plain", "public class Plain {}\n")).type()
                .getName());
    }

    @Test
    void aClassThatDoesNotCompileIsReportedWithJavacsMessagesAndLines() throws Exception {
        List<Path> before = temporaryDirectories();
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> InProcessCompiler.compile(source(
                "gen.bad", "Broken", "package gen.bad;\npublic class Broken {\n    double f() {\n        return y;\n"
                        + "    }\n}\n")));
        assertTrue(x.getMessage().startsWith("generated class gen.bad.Broken does not compile:\n  line 4: "),
                x.getMessage());
        assertTrue(x.getMessage().contains("y"), x.getMessage());
        assertEquals(before, temporaryDirectories(), "the temporary directory is deleted");
    }

    @Test
    void aClassOverAClassFileLimitIsALimitExceptionNotABug() {
        StringBuilder src = new StringBuilder("package gen; public final class Big { public static double f(int i) {"
                + " double[] a = {");
        for (int i = 0; i < 40_000; i++) {
            src.append(i == 0 ? "" : ", ").append(1.0 + i / 65536.0);
        }
        src.append("}; return a[i]; } }");
        InProcessCompiler.LimitException x = assertThrows(InProcessCompiler.LimitException.class,
                () -> InProcessCompiler.compile(source("gen", "Big", src.toString())));
        assertTrue(x.getMessage().startsWith("generated class gen.Big is over a limit of Java class files (javac: "),
                x.getMessage());
    }
}
