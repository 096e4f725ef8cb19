package org.symdyn.generator;

import java.util.Set;
import javax.lang.model.SourceVersion;

/**
 * The one rule for the names of generated classes and their packages, shared by the command line and the Maven
 * plugin, so that a name is refused up front with a reason rather than by javac (or by an exception) later.
 *
 * <p>A class name is a Java identifier that is not a keyword or literal ({@code class}, {@code true}), not one of
 * Java 17's restricted identifiers ({@code var}, {@code yield}, {@code record}, {@code sealed}, {@code permits}),
 * and not the simple name of a public class of {@code java.lang} ({@code Math}, {@code String}, ...), which
 * generated code and code using it name without import. A package name is one or more dot-separated identifiers,
 * none a keyword or literal, not in the {@code java} namespace (the JVM refuses to define classes there).
 */
public final class JavaNames {
    /** Identifiers that are legal elsewhere but not as the name of a class (JLS 3.9, Java 17). */
    public static final Set<String> RESTRICTED_TYPE_NAMES = Set.of("var", "yield", "record", "sealed", "permits");

    private JavaNames() {
    }

    /** Null if {@code name} can name a generated class, else why not (e.g. "is a Java keyword"). */
    public static String classNameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "is empty";
        }
        if (!SourceVersion.isIdentifier(name)) {
            return "is not a Java identifier (letters, digits, _ and $, not starting with a digit)";
        }
        if (SourceVersion.isKeyword(name, SourceVersion.RELEASE_17)) {
            return "is a Java keyword";
        }
        if (name.length() > MAX_CLASS_NAME) {
            return "is " + name.length() + " characters long: a class's source file must fit the file system's names"
                    + " (at most " + MAX_CLASS_NAME + " characters)";
        }
        if (RESTRICTED_TYPE_NAMES.contains(name)) {
            return "is a restricted identifier, which cannot name a class (var, yield, record, sealed, permits)";
        }
        if (TOP_PACKAGES.contains(name)) {
            return "would hide the package " + name + ", whose classes generated code names fully qualified";
        }
        if (isJavaLangClass(name)) {
            return "would hide java.lang." + name + ", which generated code and the code using it name without"
                    + " import";
        }
        return null;
    }

    /** Null if {@code name} can be the package of generated classes, else why not. */
    public static String packageNameProblem(String name) {
        if (name == null || name.isEmpty()) {
            return "is empty (the unnamed package is not supported)";
        }
        if (name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
            return "is not a package name (dot-separated Java identifiers)";
        }
        for (String part : name.split("\\.")) {
            if (!SourceVersion.isIdentifier(part)) {
                return "is not a package name: '" + part + "' is not a Java identifier";
            }
            if (SourceVersion.isKeyword(part, SourceVersion.RELEASE_17)) {
                return "is not a package name: '" + part + "' is a Java keyword";
            }
        }
        if (name.equals("java") || name.startsWith("java.")) {
            return "is in the java namespace, where the JVM does not define classes of applications";
        }
        return null;
    }

    /**
     * Null if a generated class may be {@code packageName.className}, else why not: it must not stand where a
     * package that generated code names fully qualified ({@link #REFERENCED_PACKAGES}) or one of its parents is
     * ({@code org.symdyn} as package {@code org}, class {@code symdyn}), nor in one of those packages, where it could
     * hide or replace their types ({@code org.symdyn.contract.Dynamics}). Each name alone is checked by
     * {@link #packageNameProblem} and {@link #classNameProblem}.
     */
    public static String qualifiedNameProblem(String packageName, String className) {
        String full = packageName + "." + className;
        for (String used : REFERENCED_PACKAGES) {
            if (used.equals(full) || used.startsWith(full + ".")) {
                return "would stand where the package " + used.substring(0, full.length()) + " is, whose classes"
                        + " generated code names fully qualified";
            }
            if (used.equals(packageName)) {
                return "would be in the package " + used + ", whose types generated code names: choose a package of"
                        + " your own";
            }
        }
        return null;
    }

    /**
     * The longest class name: its file, {@code Name.java}, must fit a file system's 255 bytes (a 300-character robot
     * name derived a class whose file could not be written).
     */
    static final int MAX_CLASS_NAME = 200;

    /** The first parts of the packages generated code names fully qualified: no class may take one's name. */
    private static final java.util.Set<String> TOP_PACKAGES = java.util.Set.of("java", "javax", "org");

    /** The packages whose types generated code names fully qualified (in code, not only in Javadoc). */
    static final java.util.List<String> REFERENCED_PACKAGES = java.util.List.of("java.lang", "java.util",
            "javax.annotation.processing", "org.ejml.data", "org.symdyn.contract", "org.symdyn.spatial",
            "org.symdyn.model", "org.symdyn.dynamics");

    /** Whether {@code java.lang.<name>} is a public class of this Java runtime. */
    private static boolean isJavaLangClass(String name) {
        try {
            Class<?> c = Class.forName("java.lang." + name, false, ClassLoader.getPlatformClassLoader());
            return java.lang.reflect.Modifier.isPublic(c.getModifiers());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
