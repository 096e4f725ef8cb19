package org.symdyn.generator;

import java.util.Map;
import java.util.Set;
import org.symdyn.contract.ModelPart;

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
 * @param parts            the parts the class implements: those asked for, less any the model cannot carry (the
 *                         recursive constrained system of a model without rows, or of one in the large-model form)
 */
public record GeneratedClass(String packageName, String className, String source, int nq, int nv,
        OperationCounts operations, Map<String, Long> generationMillis, Set<ModelPart> parts) {

    public GeneratedClass {
        parts = Set.copyOf(parts);
    }

    /** A class whose parts are not known (a source written elsewhere): none are claimed. */
    public GeneratedClass(String packageName, String className, String source, int nq, int nv,
            OperationCounts operations, Map<String, Long> generationMillis) {
        this(packageName, className, source, nq, nv, operations, generationMillis, Set.of());
    }

    /** The fully qualified class name. */
    public String qualifiedName() {
        return packageName.isEmpty() ? className : packageName + "." + className;
    }
}
