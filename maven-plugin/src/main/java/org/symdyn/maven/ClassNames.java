package org.symdyn.maven;

import javax.lang.model.SourceVersion;
import org.symdyn.generator.CodeGenerator;

/** Names of generated classes and packages. */
final class ClassNames {
    private ClassNames() {
    }

    /** The class name derived from a robot name: the generator's rule, {@link CodeGenerator#defaultClassName}. */
    static String derive(String robotName) {
        return CodeGenerator.defaultClassName(robotName);
    }

    /** A Java identifier that is not a keyword or literal. */
    static boolean isClassName(String name) {
        return name != null && SourceVersion.isIdentifier(name) && !SourceVersion.isKeyword(name);
    }

    /** A package name: dot-separated class-name-like parts (the unnamed package is not allowed). */
    static boolean isPackageName(String name) {
        if (name == null || name.isEmpty() || name.startsWith(".") || name.endsWith(".")) {
            return false;
        }
        for (String part : name.split("\\.", -1)) {
            if (!isClassName(part)) {
                return false;
            }
        }
        return true;
    }
}
