package org.symdyn.generator;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.symdyn.generator.emit.MethodSizes;

/**
 * Compiles generated sources with the JDK's javac and loads them, for users without a build step: generate, compile
 * and instantiate a model's class at run time. The class files go to a private temporary directory, deleted at once,
 * or stay in memory. Every method's bytecode size is checked against HotSpot's limit after compilation.
 */
public final class InProcessCompiler {
    /** The environment variable whose options javac's command-line entry adds to every compilation. */
    static final String JAVAC_OPTIONS_VARIABLE = "JDK_JAVAC_OPTIONS";

    /** javac's key for a class with more than 65,535 constants. */
    private static final String CONSTANT_POOL_LIMIT = "compiler.err.limit.pool";

    private InProcessCompiler() {
    }

    /**
     * The generated class is correct Java but has more constants than a class file holds (65,535): the model is too
     * large for the options it was generated with, which the caller reports as a problem of that model, not as a
     * generator bug. (A method over 64 KB of code cannot come from a model: the emitter splits methods far below it,
     * so javac's "code too large" stays a generator bug.)
     */
    public static final class LimitException extends IllegalStateException {
        LimitException(String message) {
            super(message);
        }
    }

    /** A compiled class: the loaded class and its bytecode size per method. */
    public record Compiled(Class<?> type, Map<String, Integer> methodSizes) {
    }

    /**
     * Compiles {@code generated} against the current class path and loads it in a fresh class loader.
     *
     * <p>javac runs through its command-line entry on a private temporary directory (deleted afterwards): through
     * javax.tools' task API it keeps every tree node's end position and every comment, which made it a third slower
     * on large classes (romeo_small's, first compilation in a JVM: 7.5 to 5.7 s; with the derivatives 14.3 to 9.5
     * s). A class that does not compile there (but for too many constants, reported at once), a temporary directory
     * that cannot be used, or {@code JDK_JAVAC_OPTIONS} set (which only the command-line entry reads) send it to the
     * task API in memory, whose diagnostics say what is wrong.
     *
     * @throws IllegalStateException if no compiler is available (a JRE without javax.tools), compilation fails
     *                               (with javac's messages), or a method exceeds {@link MethodSizes#HUGE_METHOD_LIMIT};
     *                               a {@link LimitException} if the class has more constants than a class file holds
     */
    public static Compiled compile(GeneratedClass generated) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler in this runtime: run on a JDK, not a JRE");
        }
        // -g: with the debugging information a user's build compiles with by default (Maven's), so that a class-file
        // limit it would meet (each distinct local name is a constant) is met here first
        List<String> options = List.of("-classpath", System.getProperty("java.class.path")
                + File.pathSeparator + classPathOf(org.symdyn.contract.Dynamics.class)
                + File.pathSeparator + classPathOf(org.ejml.data.DMatrixRMaj.class), "-proc:none", "-g");
        // The command-line entry also reads JDK_JAVAC_OPTIONS, which the task API ignores: with it set, only the task
        // API gives the same class files on every machine.
        Map<String, byte[]> bytes = System.getenv(JAVAC_OPTIONS_VARIABLE) != null ? null
                : compileInTemporaryDirectory(javac, generated, options, null);
        if (bytes == null) {
            bytes = compileInMemory(javac, generated, options);
        }
        return load(generated, bytes);
    }

    /**
     * The class files of {@code generated} compiled by javac's command-line entry in a new temporary directory (under
     * {@code parent}, or the system's when null), deleted afterwards; null if it did not compile for another reason
     * than a class-file limit, or the directory could not be used (the caller then compiles in memory, whose
     * diagnostics say why).
     *
     * @throws LimitException if the class has more constants than a class file holds
     */
    static Map<String, byte[]> compileInTemporaryDirectory(JavaCompiler javac, GeneratedClass generated,
            List<String> options, Path parent) {
        Path dir;
        try {
            dir = parent == null ? Files.createTempDirectory("symdyn-javac-")
                    : Files.createTempDirectory(parent, "symdyn-javac-");
        } catch (IOException | RuntimeException e) {
            return null;
        }
        try {
            Path source = dir.resolve("src").resolve(generated.qualifiedName().replace('.', '/') + ".java");
            Path classes = dir.resolve("classes");
            Files.createDirectories(source.getParent());
            Files.createDirectories(classes);
            Files.writeString(source, generated.source(), StandardCharsets.UTF_8);
            List<String> args = new ArrayList<>(options);
            // Raw diagnostics name their key (compiler.err.limit.pool) whatever the locale.
            args.addAll(List.of("-XDrawDiagnostics", "-encoding", "UTF-8", "-d", classes.toString(),
                    source.toString()));
            ByteArrayOutputStream messages = new ByteArrayOutputStream();
            if (javac.run(null, messages, messages, args.toArray(new String[0])) != 0) {
                // A class this large took javac long: say so now rather than compile it a second time.
                if (messages.toString(StandardCharsets.UTF_8).contains(CONSTANT_POOL_LIMIT)) {
                    throw tooManyConstants(generated);
                }
                return null;
            }
            Map<String, byte[]> bytes = new HashMap<>();
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    String relative = classes.relativize(f).toString();
                    String name = relative.substring(0, relative.length() - ".class".length())
                            .replace(File.separatorChar, '.');
                    bytes.put(name, Files.readAllBytes(f));
                }
            }
            return bytes.containsKey(generated.qualifiedName()) ? bytes : null;
        } catch (IOException e) {
            return null;
        } finally {
            deleteQuietly(dir);
        }
    }

    private static LimitException tooManyConstants(GeneratedClass generated) {
        return new LimitException("generated class " + generated.qualifiedName() + " has more constants than a Java"
                + " class file holds (65,535)");
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(f);
            }
        } catch (IOException | RuntimeException e) {
            // A file left in the temporary directory is not the user's problem.
        }
    }

    /**
     * The class files of {@code generated} compiled in memory through javax.tools' task API.
     *
     * @throws IllegalStateException with javac's messages if it does not compile; a {@link LimitException} if it is
     *                               over a limit of the class-file format
     */
    private static Map<String, byte[]> compileInMemory(JavaCompiler javac, GeneratedClass generated,
            List<String> options) {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        ForwardingJavaFileManager<StandardJavaFileManager> files = new ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                    FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"),
                        kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return classes.computeIfAbsent(className, k -> new ByteArrayOutputStream());
                    }
                };
            }
        };
        JavaFileObject source = new SimpleJavaFileObject(URI.create("string:///"
                + generated.qualifiedName().replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return generated.source();
            }
        };
        boolean ok = javac.getTask(null, files, diagnostics, options, null, List.of(source)).call();
        if (!ok) {
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR && d.getCode() != null
                        && d.getCode().startsWith(CONSTANT_POOL_LIMIT)) {
                    throw tooManyConstants(generated);
                }
            }
            StringBuilder msg = new StringBuilder("generated class " + generated.qualifiedName()
                    + " does not compile:");
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                msg.append("\n  line ").append(d.getLineNumber()).append(": ").append(d.getMessage(null));
            }
            throw new IllegalStateException(msg.toString());
        }
        Map<String, byte[]> bytes = new HashMap<>();
        classes.forEach((k, v) -> bytes.put(k, v.toByteArray()));
        return bytes;
    }

    /** Checks the method sizes of the compiled class and loads it in a fresh class loader. */
    private static Compiled load(GeneratedClass generated, Map<String, byte[]> bytes) {
        Map<String, Integer> sizes = MethodSizes.of(bytes.get(generated.qualifiedName()));
        checkSizes(generated.qualifiedName(), sizes);
        ClassLoader loader = new ClassLoader(InProcessCompiler.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                byte[] b = bytes.get(name);
                if (b == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, b, 0, b.length);
            }
        };
        try {
            return new Compiled(loader.loadClass(generated.qualifiedName()), sizes);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("compiled class " + generated.qualifiedName() + " was not produced", e);
        }
    }

    /** Fails with a clear message if a method of {@code className} is over HotSpot's compile limit. */
    public static void checkSizes(String className, Map<String, Integer> sizes) {
        for (Map.Entry<String, Integer> e : sizes.entrySet()) {
            if (e.getValue() > MethodSizes.HUGE_METHOD_LIMIT) {
                throw new IllegalStateException(className + "." + e.getKey() + " has " + e.getValue()
                        + " bytes of bytecode, over HotSpot's limit of " + MethodSizes.HUGE_METHOD_LIMIT
                        + ": it would never be JIT-compiled");
            }
        }
    }

    private static String classPathOf(Class<?> c) {
        try {
            return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (Exception e) {
            return "";
        }
    }
}
