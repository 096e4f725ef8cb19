package org.symdyn.generator;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.symdyn.model.Model;

/**
 * What generated code depends on besides the model and the options: the version of the generator and a hash of the
 * compiled code of the generator and the runtime (whose model readers decide what a model file means), so that a
 * SNAPSHOT generator that changed is told apart although its version did not. The Maven plugin stores the hash in
 * each model's fingerprint; {@code symdyn --version} prints both.
 *
 * <p>The hash covers the names and bytes of the {@code .class} files of the packages {@code org.symdyn.**} found
 * where the generator and the runtime were loaded from, sorted by name, except the command line's
 * ({@code org.symdyn.cli}), the plugin's ({@code org.symdyn.maven}) and those of the benchmarks and samples (which
 * may share a jar with them): so the same code gives the same hash from the two jars, from class directories or
 * from the command line's single jar, and an edit to the command line or the plugin leaves it unchanged. Zip timestamps never enter. Symja and JavaPoet enter by their Maven coordinates
 * and versions.
 *
 * @param version    the generator's Maven version ({@code unknown} if its resource is missing)
 * @param codeSha256 the hash of the code, hex
 */
public record GeneratorIdentity(String version, String codeSha256) {
    /** Packages of the code hashed (prefixes of class file names), and those left out. */
    private static final String HASHED = "org/symdyn/";
    private static final List<String> NOT_HASHED = List.of("org/symdyn/cli/", "org/symdyn/maven/",
            "org/symdyn/benchmarks/", "org/symdyn/samples/");

    /** A class of each library whose version shapes the generated code, and its Maven coordinates. */
    private static final Map<String, String> LIBRARIES = Map.of(
            "org.matheclipse.core.eval.ExprEvaluator", "org.matheclipse/matheclipse-core",
            "com.squareup.javapoet.JavaFile", "com.squareup/javapoet");

    /** {@code 0.1.0 (code 1a2b3c4d5e6f)}: the version and the first 12 hex digits of the code hash. */
    @Override
    public String toString() {
        return version + " (code " + codeSha256.substring(0, 12) + ")";
    }

    /**
     * The identity of the generator on this class path.
     *
     * @throws IOException if the code of the generator or the runtime cannot be located or read
     */
    public static GeneratorIdentity current() throws IOException {
        Set<Path> locations = new LinkedHashSet<>();
        for (Class<?> c : List.of(GeneratorIdentity.class, Model.class)) {
            Path location = location(c);
            if (location == null) {
                throw new IOException("cannot locate the code of " + c.getName());
            }
            locations.add(location);
        }
        Sha256 sha = new Sha256();
        hashClasses(locations, sha);
        for (Map.Entry<String, String> library : new TreeMap<>(LIBRARIES).entrySet()) {
            sha.update(library.getValue() + "=" + libraryVersion(library.getKey(), library.getValue()) + "\n");
        }
        return new GeneratorIdentity(generatorVersion(), sha.hex());
    }

    /**
     * Adds the hashed class files of the jars and class directories to {@code sha}: each file's '/'-separated name,
     * a line feed and its bytes, in name order across all locations.
     */
    static void hashClasses(Collection<Path> locations, Sha256 sha) throws IOException {
        TreeMap<String, byte[]> classes = new TreeMap<>();
        for (Path location : locations) {
            collectClasses(location, classes);
        }
        classes.forEach((name, bytes) -> sha.update(name + "\n").update(bytes));
    }

    /** The generator's version, from the resource the build writes beside this class. */
    public static String generatorVersion() {
        return buildVersion(GeneratorIdentity.class, "generator.properties");
    }

    /**
     * The {@code version} the build writes (by resource filtering) into the properties {@code resource} beside
     * {@code owner}; {@code unknown} if the resource is missing, unreadable or unfiltered.
     */
    public static String buildVersion(Class<?> owner, String resource) {
        Properties p = new Properties();
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                return "unknown";
            }
            p.load(in);
        } catch (IOException e) {
            return "unknown";
        }
        String version = p.getProperty("version", "unknown");
        return version.startsWith("${") ? "unknown" : version;
    }

    /** The version in a library's pom.properties, {@code absent} if the class is missing, {@code ?} if unknown. */
    private static String libraryVersion(String className, String coordinates) {
        Class<?> c;
        try {
            c = Class.forName(className, false, GeneratorIdentity.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return "absent";
        }
        String resource = "/META-INF/maven/" + coordinates + "/pom.properties";
        try (InputStream in = c.getResourceAsStream(resource)) {
            if (in == null) {
                Path location = location(c);
                return location == null ? "?" : String.valueOf(location.getFileName());
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "?");
        } catch (IOException e) {
            return "?";
        }
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

    private static boolean hashed(String name) {
        return name.endsWith(".class") && name.startsWith(HASHED) && NOT_HASHED.stream().noneMatch(name::startsWith);
    }

    /** The hashed class files of a jar or class directory, by '/'-separated name. */
    private static void collectClasses(Path location, Map<String, byte[]> classes) throws IOException {
        if (Files.isDirectory(location)) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(location)) {
                files = new ArrayList<>(s.filter(Files::isRegularFile).toList());
            }
            for (Path f : files) {
                String name = location.relativize(f).toString().replace('\\', '/');
                if (hashed(name)) {
                    classes.put(name, Files.readAllBytes(f));
                }
            }
            return;
        }
        try (JarFile jar = new JarFile(location.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                if (hashed(entry.getName())) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        classes.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
    }

    /** Incremental SHA-256 over strings (UTF-8) and bytes. */
    public static final class Sha256 {
        private final MessageDigest digest;

        public Sha256() {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
            }
        }

        public Sha256 update(String s) {
            digest.update(s.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        public Sha256 update(byte[] bytes) {
            digest.update(bytes);
            return this;
        }

        /** The digest in lower-case hex; the instance is reset. */
        public String hex() {
            return HexFormat.of().formatHex(digest.digest());
        }

        /** The SHA-256 of {@code bytes} in lower-case hex. */
        public static String of(byte[] bytes) {
            return new Sha256().update(bytes).hex();
        }
    }
}
