package org.symdyn.generator;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.symdyn.generator.emit.OperationCount;

/**
 * The operations of each counted method of a generated class ({@link GeneratedMethod}), in the method's order. A
 * method the class does not have (the derivatives without that option, the constrained system's factorisation
 * without rows) has no count.
 *
 * @param counts each method's count (an unmodifiable copy)
 */
public record OperationCounts(Map<GeneratedMethod, OperationCount> counts) {
    public OperationCounts {
        counts = Collections.unmodifiableMap(counts.isEmpty() ? new EnumMap<>(GeneratedMethod.class)
                : new EnumMap<>(counts));
    }

    /** The count of {@code method}, or null when the class does not have it. */
    public OperationCount get(GeneratedMethod method) {
        return counts.get(method);
    }

    /** Whether the class has {@code method}. */
    public boolean contains(GeneratedMethod method) {
        return counts.containsKey(method);
    }

    /** Gives each method's count, in the methods' order. */
    public void forEach(BiConsumer<GeneratedMethod, OperationCount> action) {
        counts.forEach(action);
    }

    /** The sum of the counts of {@code methods}, each of which the class has. */
    OperationCount sum(GeneratedMethod... methods) {
        OperationCount total = OperationCount.ZERO;
        for (GeneratedMethod m : methods) {
            total = total.plus(counts.get(m));
        }
        return total;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        counts.forEach((m, c) -> sb.append(sb.length() > 1 ? ", " : "").append(m.key()).append('=').append(c));
        return sb.append('}').toString();
    }
}
