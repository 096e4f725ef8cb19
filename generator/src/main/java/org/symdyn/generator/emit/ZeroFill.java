package org.symdyn.generator.emit;

import com.squareup.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The zero entries of a large method's output array ({@link #MIN_METHOD_BYTES}) written by one loop {@code for (z$ =
 * 0; z$ < n; z$++) a[z$] = 0.0} before its other entries, instead of one store each, where the array has at least
 * {@link #MIN_ZEROS} of them and the method writes every entry of {@code [0, n)} exactly once and reads none: the
 * loop then touches nothing the method would not write, and the stores of the nonzero entries overwrite it.
 *
 * <p>Why: a tree's matrices are branch-sparse (H, ∂τ/∂q, ∂τ/∂v, the Coriolis matrix have a zero wherever two dofs
 * are on different branches), and a zero store is about 10 bytes of machine code: romeo_small's H wrote 758 zeros a
 * call and its ∂τ 1,593, some 7.6 and 16 KB of code in methods whose speed is set by instruction fetch ({@code
 * benchmarks/README.md}, "Large methods run at the speed of their code bytes"), while the loop is a few
 * instructions that C2 vectorises. Measured on romeo_small, ns per call, stores → loop: plain loops of calls, pinned,
 * both classes in one JVM: H 658 → 603 and 727 → 600, Coriolis matrix 6,040 → 5,394, ∂τ 6,780 → 6,643; JMH, pinned,
 * two JVMs a side alternated ({@code benchmarks/README.md}): H 666 / 697 → 688 / 614, Coriolis matrix 4,006 / 4,088 →
 * 3,997 / 3,980, ∂τ 7,093 / 6,995 → 6,779 / 6,958. The values are the same, bit for bit.
 */
final class ZeroFill {
    /**
     * Fewer zeros than this stay stores. The 18-dof quadrupeds' matrices (108-128 zeros) ran as fast either way within
     * the spread of JMH's JVMs (solo12's Coriolis matrix: 592 and 765 ns stored, 705 and 687 with the loop), so their
     * classes stay byte for byte; romeo_small's (741-758 zeros a matrix) take the loop.
     */
    static final int MIN_ZEROS = 256;

    /**
     * Only in a method of at least this many estimated bytes, the size from which a method's workspace goes into fields
     * ({@link Workspace#FIELD_CHUNKS} chunks): where instruction fetch sets its pace. Below it the fill cost more than
     * the stores it saves (solo12's H, 9 chunks: 163 → 174 ns).
     */
    static final int MIN_METHOD_BYTES = Workspace.FIELD_CHUNKS * MethodChunks.CHUNK_BYTES;

    private static final Pattern ENTRY = Pattern.compile("(.+)\\[(\\d+)\\]");

    private ZeroFill() {
    }

    /**
     * The zero outputs that a fill writes; a fill statement for each array that takes one is added to {@code fills}.
     *
     * @param outputs the method's outputs
     * @param read    the arrays the method also reads: never filled, since a read could follow the fill
     * @param zero    true for an output whose value is written as the literal {@code 0.0}
     */
    static Set<MethodEmitter.Output> apply(List<MethodEmitter.Output> outputs, Set<String> read,
            Predicate<MethodEmitter.Output> zero, List<Statement> fills) {
        Map<String, List<MethodEmitter.Output>> byArray = new LinkedHashMap<>();
        for (MethodEmitter.Output o : outputs) {
            Matcher m = ENTRY.matcher(o.target());
            if (m.matches() && !read.contains(m.group(1))) {
                byArray.computeIfAbsent(m.group(1), a -> new ArrayList<>()).add(o);
            }
        }
        Set<MethodEmitter.Output> filled = java.util.Collections.newSetFromMap(new HashMap<>());
        for (Map.Entry<String, List<MethodEmitter.Output>> e : byArray.entrySet()) {
            List<MethodEmitter.Output> entries = e.getValue();
            int n = entries.size();
            boolean[] seen = new boolean[n];
            List<MethodEmitter.Output> zeros = new ArrayList<>();
            boolean covers = true;
            for (MethodEmitter.Output o : entries) {
                Matcher m = ENTRY.matcher(o.target());
                m.matches();
                long index = Long.parseLong(m.group(2));
                if (index >= n || seen[(int) index]) {
                    covers = false;
                    break;
                }
                seen[(int) index] = true;
                if (zero.test(o)) {
                    zeros.add(o);
                }
            }
            if (covers && zeros.size() >= MIN_ZEROS) {
                filled.addAll(zeros);
                // A loop, not Arrays.fill: with the call, solo12's Coriolis matrix took 22 % longer than with the
                // stores (570 → 692 ns), with the loop 5-7 % less.
                fills.add(Statement.block(List.of(), CodeBlock.builder()
                        .beginControlFlow("for (int z$$ = 0; z$$ < $L; z$$++)", n)
                        .addStatement("$L[z$$] = 0.0", e.getKey())
                        .endControlFlow().build(), 16));
            }
        }
        return filled;
    }
}
