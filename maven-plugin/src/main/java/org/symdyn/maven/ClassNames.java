package org.symdyn.maven;

import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.JavaNames;

/** Names of generated classes and packages: the generator's rules, shared with the command line. */
final class ClassNames {
    private ClassNames() {
    }

    /** The class name derived from a robot name: the generator's rule, {@link CodeGenerator#defaultClassName}. */
    static String derive(String robotName) {
        return CodeGenerator.defaultClassName(robotName);
    }

    /** Whether {@code name} can name a generated class ({@link JavaNames#classNameProblem}). */
    static boolean isClassName(String name) {
        return JavaNames.classNameProblem(name) == null;
    }

    /** Whether {@code name} can be the package of generated classes ({@link JavaNames#packageNameProblem}). */
    static boolean isPackageName(String name) {
        return JavaNames.packageNameProblem(name) == null;
    }
}
