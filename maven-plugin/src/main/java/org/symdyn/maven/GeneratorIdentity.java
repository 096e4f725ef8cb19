package org.symdyn.maven;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.model.Model;

/**
 * What the generated code depends on besides the model and the configuration: a hash of the compiled code of the
 * generator and the runtime (its model readers), so that a SNAPSHOT generator that changed invalidates the
 * generated classes although its version did not. The hash covers the names and bytes of the {@code .class} entries
 * only (never zip timestamps), so the same code gives the same hash from a jar or from a class directory; the Symja
 * and JavaPoet versions enter through their jar file names. The version string is for the log.
 *
 * @param version     the generator's Maven version, or {@code unknown} when it runs from a class directory
 * @param codeSha256  the hash of the code, hex
 */
record GeneratorIdentity(String version, String codeSha256) {

    /** A short form for the log. */
    @Override
    public String toString() {
        return version + " (code " + codeSha256.substring(0, 12) + ")";
    }

    /** The identity of the generator on this plugin's class path. */
    static GeneratorIdentity current() throws IOException {
        Sha256 sha = new Sha256();
        Path generator = null;
        for (Class<?> c : List.of(CodeGenerator.class, Model.class)) {
            Path location = location(c);
            if (location == null) {
                throw new IOException("cannot locate the code of " + c.getName());
            }
            generator = generator == null ? location : generator;
            hashClasses(location, sha);
        }
        for (String dependency : List.of("org.matheclipse.core.eval.ExprEvaluator", "com.squareup.javapoet.JavaFile")) {
            String name;
            try {
                Path location = location(Class.forName(dependency, false, CodeGenerator.class.getClassLoader()));
                name = location == null ? "?" : String.valueOf(location.getFileName());
            } catch (ClassNotFoundException e) {
                name = "absent";
            }
            sha.update(dependency + "=" + name + "\n");
        }
        return new GeneratorIdentity(mavenVersion(generator), sha.hex());
    }

    /** The version in the generator's own pom.properties (not another jar's of the same class path). */
    private static String mavenVersion(Path generatorLocation) throws IOException {
        String entry = "META-INF/maven/org.symdyn/symdyn-generator/pom.properties";
        Properties p = new Properties();
        if (Files.isDirectory(generatorLocation)) {
            Path file = generatorLocation.resolve(entry);
            if (!Files.isRegularFile(file)) {
                return "unknown";
            }
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
        } else {
            try (JarFile jar = new JarFile(generatorLocation.toFile())) {
                JarEntry e = jar.getJarEntry(entry);
                if (e == null) {
                    return "unknown";
                }
                try (InputStream in = jar.getInputStream(e)) {
                    p.load(in);
                }
            }
        }
        return p.getProperty("version", "unknown");
    }

    private static Path location(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            return Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /** Names and bytes of every class file of a jar or class directory, in name order. */
    private static void hashClasses(Path location, Sha256 sha) throws IOException {
        if (Files.isDirectory(location)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(location)) {
                files = new ArrayList<>(s.filter(p -> p.toString().endsWith(".class")).toList());
            }
            files.sort((a, b) -> relative(location, a).compareTo(relative(location, b)));
            for (Path f : files) {
                sha.update(relative(location, f) + "\n");
                sha.update(Files.readAllBytes(f));
            }
            return;
        }
        try (JarFile jar = new JarFile(location.toFile())) {
            List<JarEntry> entries = new ArrayList<>();
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                if (entry.getName().endsWith(".class")) {
                    entries.add(entry);
                }
            }
            entries.sort((a, b) -> a.getName().compareTo(b.getName()));
            for (JarEntry entry : entries) {
                sha.update(entry.getName() + "\n");
                try (InputStream in = jar.getInputStream(entry)) {
                    sha.update(in.readAllBytes());
                }
            }
        }
    }

    private static String relative(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    /** Incremental SHA-256 over strings (UTF-8) and bytes. */
    static final class Sha256 {
        private final java.security.MessageDigest digest;

        Sha256() {
            try {
                digest = java.security.MessageDigest.getInstance("SHA-256");
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
            }
        }

        Sha256 update(String s) {
            digest.update(s.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        Sha256 update(byte[] bytes) {
            digest.update(bytes);
            return this;
        }

        String hex() {
            return java.util.HexFormat.of().formatHex(digest.digest());
        }

        static String of(byte[] bytes) {
            return new Sha256().update(bytes).hex();
        }
    }
}
