package org.symdyn.maven;

import javax.lang.model.SourceVersion;

/** Names of generated classes and packages. */
final class ClassNames {
    private ClassNames() {
    }

    /**
     * The class name derived from a robot name, by the same rule as the command line's {@code symdyn generate}
     * ({@code org.symdyn.cli.GenerateCommand.defaultClassName}, package-private there, so repeated here; a test
     * checks that both agree): the name is cut into runs of ASCII letters and digits (every other character
     * separates); each run gets its first letter upper-cased, the rest is kept; the runs are joined; {@code Model}
     * is put in front when the result is empty or starts with a digit; and {@code Dynamics} is appended. So
     * {@code iiwa14} gives {@code Iiwa14Dynamics}, {@code romeo_small} gives {@code RomeoSmallDynamics} and
     * {@code 2dof_planar} gives {@code Model2dofPlanarDynamics}.
     */
    static String derive(String robotName) {
        StringBuilder sb = new StringBuilder();
        boolean wordStart = true;
        String name = robotName == null ? "" : robotName;
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            boolean alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
            if (!alnum) {
                wordStart = true;
                continue;
            }
            sb.append(wordStart ? Character.toUpperCase(ch) : ch);
            wordStart = false;
        }
        if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
            sb.insert(0, "Model");
        }
        return sb.append("Dynamics").toString();
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
