package org.symdyn.io;

import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where model files' mesh URIs ({@code <mesh filename>}) are found: a list of directories playing the part of a ROS
 * package path, and the rules of resolution every model reader shares.
 *
 * <ul>
 * <li>{@code package://NAME/REST}: for each directory D of the package path in order, D/NAME/REST when D/NAME is a
 * directory, and D/REST when D itself is named NAME; the first that is a file wins. The package path is the
 * directories given, then those of the environment variable {@value #VARIABLE} (separated by
 * {@link File#pathSeparator}) as a fallback.</li>
 * <li>{@code file:///absolute/path} (percent-escapes decoded); other {@code file:} forms are refused.</li>
 * <li>An absolute path as it is; a relative path against the directory of the model file that names it.</li>
 * <li>Any other scheme ({@code http://}, Gazebo's {@code model://}) is not read by {@link #resolve}.</li>
 * <li>{@link #resolveModel}: SDFormat's {@code model://NAME/REST} as {@code package://NAME/REST}, looked up in the
 * package path and then in the model path (the folders of {@code SDF_PATH} and {@code GZ_SIM_RESOURCE_PATH}).</li>
 * </ul>
 * Immutable.
 */
public final class PackagePath {
    /** The environment variable read as a fallback package path. */
    public static final String VARIABLE = "ROS_PACKAGE_PATH";

    /** The scheme of SDFormat's model URIs ({@link #resolveModel}). */
    public static final String MODEL_SCHEME = "model://";
    private static final String PACKAGE_SCHEME = "package://";

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://.*", Pattern.DOTALL);

    private final List<Path> given;
    private final List<Path> fromVariable;

    /**
     * Where a URI led.
     *
     * @param file             the file found, or null
     * @param problem          null when found; else why not, naming the URI and every place looked at
     * @param needsPackagePath a {@code package://} URI while the package path is empty (the readers' warning case)
     */
    public record Resolution(Path file, String problem, boolean needsPackagePath) {
        /** True when a file was found. */
        public boolean found() {
            return file != null;
        }
    }

    private PackagePath(List<Path> given, List<Path> fromVariable) {
        this.given = List.copyOf(given);
        this.fromVariable = List.copyOf(fromVariable);
    }

    /** The directories given, with {@value #VARIABLE} of this process's environment as the fallback. */
    public static PackagePath of(List<Path> directories) {
        return of(directories, System.getenv(VARIABLE));
    }

    /**
     * The directories given, with {@code variable} (the value {@value #VARIABLE} would have, null or blank for
     * none) as the fallback.
     */
    public static PackagePath of(List<Path> directories, String variable) {
        return new PackagePath(directories, split(variable));
    }

    /** No directory given: only {@value #VARIABLE} of this process's environment, if set. */
    public static PackagePath fromEnvironment() {
        return of(List.of());
    }

    /**
     * The directories of a {@link File#pathSeparator}-separated list (empty entries skipped), as a command line or
     * {@value #VARIABLE} writes them.
     */
    public static List<Path> split(String list) {
        if (list == null || list.isBlank()) {
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        for (String part : list.split(Pattern.quote(File.pathSeparator))) {
            if (!part.isBlank()) {
                try {
                    out.add(Path.of(part.trim()));
                } catch (InvalidPathException e) {
                    // a name no file system has cannot hold a package; it is shown by where resolution looked
                }
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The package path: the directories given, then those of {@value #VARIABLE}. */
    public List<Path> directories() {
        List<Path> all = new ArrayList<>(given);
        all.addAll(fromVariable);
        return all;
    }

    /** True when no directory was given and {@value #VARIABLE} names none. */
    public boolean isEmpty() {
        return given.isEmpty() && fromVariable.isEmpty();
    }

    /**
     * Resolves a mesh URI.
     *
     * @param uri       as the model file writes it
     * @param directory the directory of the model file, against which relative paths resolve (null: the working
     *                  directory)
     */
    public Resolution resolve(String uri, Path directory) {
        String u = uri == null ? "" : uri.trim();
        if (u.isEmpty()) {
            return missing("the mesh file name is empty");
        }
        if (u.startsWith(PACKAGE_SCHEME)) {
            return resolvePackage(u, PACKAGE_SCHEME, directories(), "--package-path or " + VARIABLE);
        }
        if (u.startsWith("file:")) {
            Path p;
            try {
                URI parsed = new URI(u);
                if (!u.startsWith("file:///") && !u.startsWith("file://localhost/")) {
                    return missing("'" + quoted(u) + "': only file:///absolute/path URIs are read");
                }
                p = Path.of(new URI("file", null, parsed.getPath(), null));
            } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                return missing("'" + quoted(u) + "' is not a valid file URI (" + e.getMessage() + ")");
            }
            return file(u, p);
        }
        if (SCHEME.matcher(u).matches()) {
            return missing("'" + quoted(u) + "': URI scheme '" + u.substring(0, u.indexOf(':')) + "' is not read"
                    + " (package://, file:// and file paths are)");
        }
        Path p;
        try {
            p = Path.of(u);
            if (!p.isAbsolute()) {
                p = directory == null ? p : directory.resolve(p);
            }
        } catch (InvalidPathException e) {
            return missing("'" + quoted(u) + "' is not a valid file name (" + e.getMessage() + ")");
        }
        return file(u, p);
    }

    /**
     * Resolves SDFormat's {@code model://NAME/REST}: the package path's rule for {@code package://NAME/REST} over
     * the package path's directories, then those of {@code modelPath}. Any other URI as {@link #resolve} (with no
     * model file folder: a relative path against the working directory).
     */
    public Resolution resolveModel(String uri, List<Path> modelPath) {
        String u = uri == null ? "" : uri.trim();
        if (!u.startsWith(MODEL_SCHEME)) {
            return resolve(uri, null);
        }
        List<Path> all = directories();
        all.addAll(modelPath);
        return resolvePackage(u, MODEL_SCHEME, all, "--package-path, " + VARIABLE
                + ", or the model path SDF_PATH, GZ_SIM_RESOURCE_PATH");
    }

    /** {@code SCHEME NAME/REST} in the directories; {@code sources} names where such directories come from. */
    private static Resolution resolvePackage(String u, String scheme, List<Path> directories, String sources) {
        String rest = u.substring(scheme.length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            return missing("'" + quoted(u) + "' is not " + scheme + "NAME/PATH");
        }
        if (directories.isEmpty()) {
            return new Resolution(null, quoted(u) + " needs a package path (" + sources + ")", true);
        }
        String name = rest.substring(0, slash);
        String inPackage = rest.substring(slash + 1);
        List<String> looked = new ArrayList<>();
        for (Path d : directories) {
            try {
                List<Path> candidates = new ArrayList<>();
                if (Files.isDirectory(d.resolve(name))) {
                    candidates.add(d.resolve(name).resolve(inPackage));
                }
                if (d.getFileName() != null && d.getFileName().toString().equals(name)) {
                    candidates.add(d.resolve(inPackage));
                }
                for (Path c : candidates) {
                    if (Files.isRegularFile(c)) {
                        return new Resolution(c, null, false);
                    }
                    looked.add(c.toString());
                }
            } catch (InvalidPathException e) {
                looked.add(d + "/" + name + "/" + inPackage + " (not a valid file name)");
            }
        }
        String where = looked.isEmpty() ? "no package '" + Messages.cut(name) + "' in the package path "
                + directories : "not found at " + String.join(", ", looked);
        return missing("'" + quoted(u) + "': " + where);
    }

    private static String quoted(String uri) {
        return uri.length() <= 400 ? uri : Messages.cut(uri);
    }

    private static Resolution file(String uri, Path p) {
        if (Files.isRegularFile(p)) {
            return new Resolution(p, null, false);
        }
        return missing("'" + quoted(uri) + "': " + (Files.isDirectory(p) ? p + " is a directory"
                : "no such file " + p));
    }

    private static Resolution missing(String problem) {
        return new Resolution(null, problem, false);
    }

    @Override
    public String toString() {
        return "PackagePath" + directories();
    }
}
