package org.symdyn.generator;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Compiles generated sources in memory with javax.tools and loads them, for users without a build step: generate,
 * compile and instantiate a model's class at run time. Every method's bytecode size is checked against HotSpot's
 * limit after compilation.
 */
public final class InProcessCompiler {
    private InProcessCompiler() {
    }

    /**
     * The generated class is correct Java but over a limit of the class-file format (65,535 constants, 64 KB of code
     * per method): the model is too large for the options it was generated with, which the caller reports as a
     * problem of that model, not as a generator bug.
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
     * @throws IllegalStateException if no compiler is available (a JRE without javax.tools), compilation fails
     *                               (with javac's messages), or a method exceeds {@link MethodSizes#HUGE_METHOD_LIMIT};
     *                               a {@link LimitException} if the class is over a limit of the class-file format
     */
    public static Compiled compile(CodeGenerator.GeneratedClass generated) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler in this runtime: run on a JDK, not a JRE");
        }
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
        List<String> options = new ArrayList<>(List.of("-classpath", System.getProperty("java.class.path")
                + File.pathSeparator + classPathOf(org.symdyn.contract.Dynamics.class)
                + File.pathSeparator + classPathOf(org.ejml.data.DMatrixRMaj.class), "-proc:none", "-g:none"));
        boolean ok = javac.getTask(null, files, diagnostics, options, null, List.of(source)).call();
        if (!ok) {
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR && d.getCode() != null
                        && d.getCode().startsWith("compiler.err.limit.")) {
                    throw new LimitException("generated class " + generated.qualifiedName() + " is over a limit of"
                            + " Java class files (javac: " + d.getMessage(java.util.Locale.ROOT) + ")");
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
