package org.symdyn.generator;

import java.util.Map;

/**
 * A generated class: its source and what it cost.
 *
 * @param packageName      its package (empty: the unnamed package)
 * @param className        its simple name
 * @param source           the Java source
 * @param nq               the model's number of position coordinates
 * @param nv               the model's number of velocity coordinates (dof)
 * @param operations       the operations of each counted method
 * @param generationMillis the milliseconds each phase of the generation took, and their {@code total}
 */
public record GeneratedClass(String packageName, String className, String source, int nq, int nv,
        OperationCounts operations, Map<String, Long> generationMillis) {

    /** The fully qualified class name. */
    public String qualifiedName() {
        return packageName.isEmpty() ? className : packageName + "." + className;
    }
}
