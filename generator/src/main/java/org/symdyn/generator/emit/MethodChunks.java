package org.symdyn.generator.emit;

import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;
import org.matheclipse.core.interfaces.ISymbol;

/**
 * Splits a method whose bytecode would exceed {@link #CHUNK_BYTES} (estimated) into private chunk methods called in
 * sequence, and gives each value defined in one chunk and read in a later one a slot: in the class's
 * {@link Workspace}, or with a scratch array (a twin limb's shared code), in entries of that array. Keeps the most
 * slots any method split so far needs.
 */
final class MethodChunks {
    /**
     * Estimated bytecode budget of one emitted method (bytes). Smaller methods spill less in HotSpot's register
     * allocator: for iiwa14's bias forces 2500 ran ~10% faster than 4000 and 6000 in interleaved A/B timings, and
     * 1200-1800 were no faster than 2500, while each extra chunk adds a call and workspace traffic.
     */
    public static final int CHUNK_BYTES = 2500;
    /**
     * Most chunk calls one method makes (a call with six arguments is about 10 bytes of bytecode): beyond, the calls
     * go through dispatch methods. Only the largest methods (romeo's forward-dynamics derivatives, about 1100
     * chunks) need them.
     */
    static final int CALLS_PER_METHOD = 256;

    /** The array parameter whose entries from {@link #scratchFrom} are the slots; null: the class's workspace. */
    private final String scratch;
    private final int scratchFrom;
    private int scratchSlots;
    private int workspaceFields;
    private int workspaceArray;

    MethodChunks(String scratch, int scratchFrom) {
        this.scratch = scratch;
        this.scratchFrom = scratchFrom;
    }

    /** With a scratch array: the most entries any method split so far uses. */
    int scratchSlots() {
        return scratchSlots;
    }

    /** The workspace needed by every method split so far (they reuse the same slots). */
    Workspace workspace() {
        return new Workspace(workspaceFields, workspaceArray);
    }

    /**
     * A workspace slot for every value read by a later chunk than its own ({@code lastImport}: the last chunk that
     * reads it), the lowest free one in order of definition. A slot is free again in the chunk after its value's last
     * reader: within a chunk, values are read at their first use and written at their definition, so a chunk that
     * both read the old value and wrote a new one into the same slot could overwrite it before reading it. Interval
     * colouring over the chunks each value spans, its own and its readers' included: as many slots as the most such
     * values any one chunk touches.
     */
    private Map<ISymbol, Integer> slots(List<List<Statement>> chunks, Map<ISymbol, Integer> lastImport) {
        Map<ISymbol, Integer> slot = new HashMap<>();
        java.util.TreeSet<Integer> free = new java.util.TreeSet<>();
        Map<Integer, List<Integer>> freedAfter = new HashMap<>();
        int used = 0;
        for (int c = 0; c < chunks.size(); c++) {
            List<Integer> freed = freedAfter.remove(c - 1);
            if (freed != null) {
                free.addAll(freed);
            }
            for (Statement it : chunks.get(c)) {
                for (ISymbol d : it.defines()) {
                    Integer last = lastImport.get(d);
                    if (last == null) {
                        continue;
                    }
                    Integer k = free.pollFirst();
                    if (k == null) {
                        k = used++;
                    }
                    slot.put(d, k);
                    freedAfter.computeIfAbsent(last, x -> new ArrayList<>()).add(k);
                }
            }
        }
        return slot;
    }

    /**
     * The public method {@code spec} with the statements {@code items}: one method if they fit {@link #CHUNK_BYTES},
     * else the public method calling private chunk methods in order, the values crossing chunks in workspace slots.
     *
     * @param rereads the Java text of each plain input a later chunk reads again from its array instead of a slot
     */
    List<MethodSpec> split(MethodSpec spec, List<Statement> items, Map<ISymbol, String> rereads) {
        List<List<Statement>> chunks = new ArrayList<>();
        List<Statement> current = new ArrayList<>();
        int bytes = 0;
        for (Statement it : items) {
            if (bytes + it.bytes() > CHUNK_BYTES && !current.isEmpty()) {
                chunks.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(it);
            bytes += it.bytes();
        }
        chunks.add(current);
        List<MethodSpec> methods = new ArrayList<>();
        if (chunks.size() == 1) {
            MethodBody b = new MethodBody(spec.toBuilder());
            for (Statement it : chunks.get(0)) {
                b.add(it);
            }
            methods.add(b.done().build());
            return methods;
        }
        // Values crossing chunks get workspace slots.
        Map<ISymbol, Integer> chunkOf = new HashMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            for (Statement it : chunks.get(c)) {
                for (ISymbol d : it.defines()) {
                    chunkOf.put(d, c);
                }
            }
        }
        boolean inFields = scratch == null && chunks.size() >= Workspace.FIELD_CHUNKS
                && !Boolean.getBoolean(Workspace.ARRAY_WORKSPACE_PROPERTY);
        List<Set<ISymbol>> imports = new ArrayList<>();
        Map<ISymbol, Integer> lastImport = new HashMap<>();
        Map<ISymbol, Integer> firstImported = new HashMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            Set<ISymbol> in = new LinkedHashSet<>();
            for (Statement it : chunks.get(c)) {
                for (ISymbol u : it.uses()) {
                    Integer defined = chunkOf.get(u);
                    if (defined != null && defined < c && !rereads.containsKey(u)) {
                        in.add(u);
                        lastImport.put(u, c);
                        if (!inFields && scratch == null) {
                            firstImported.computeIfAbsent(u, k -> firstImported.size());
                        }
                    }
                }
            }
            imports.add(in);
        }
        Map<ISymbol, Integer> slot = inFields || scratch != null ? slots(chunks, lastImport) : firstImported;
        int used = slot.isEmpty() ? 0 : java.util.Collections.max(slot.values()) + 1;
        if (scratch != null) {
            scratchSlots = Math.max(scratchSlots, used);
        } else if (inFields) {
            workspaceFields = Math.max(workspaceFields, Math.min(used, Workspace.FIELD_SLOTS));
            workspaceArray = Math.max(workspaceArray, used - Workspace.FIELD_SLOTS);
        } else {
            workspaceArray = Math.max(workspaceArray, used);
        }
        java.util.function.IntFunction<String> slotText = k -> scratch != null ? scratch + "[" + (scratchFrom + k) + "]"
                : inFields && k < Workspace.FIELD_SLOTS ? Workspace.field(k)
                : "w[" + (inFields ? k - Workspace.FIELD_SLOTS : k) + "]";
        MethodSpec.Builder pub = spec.toBuilder();
        String args = String.join(", ", spec.parameters.stream().map(p -> p.name).toList());
        // The public method calls the chunks in order; past CALLS_PER_METHOD chunks (the largest derivative
        // methods), through dispatch methods of CALLS_PER_METHOD calls each, so that no caller nears the limit.
        List<MethodSpec> dispatchers = new ArrayList<>();
        MethodSpec.Builder caller = pub;
        boolean grouped = chunks.size() > CALLS_PER_METHOD;
        for (int c = 0; c < chunks.size(); c++) {
            String name = spec.name + "$" + c;
            if (grouped && c % CALLS_PER_METHOD == 0) {
                if (caller != pub) {
                    dispatchers.add(caller.build());
                }
                String group = spec.name + "$$" + (c / CALLS_PER_METHOD);
                pub.addStatement("$L($L)", group, args);
                caller = MethodSpec.methodBuilder(group).addModifiers(Modifier.PRIVATE);
                for (ParameterSpec p : spec.parameters) {
                    caller.addParameter(p);
                }
            }
            caller.addStatement("$L($L)", name, args);
            MethodSpec.Builder m = MethodSpec.methodBuilder(name).addModifiers(Modifier.PRIVATE);
            for (ParameterSpec p : spec.parameters) {
                m.addParameter(p);
            }
            // An imported value is read from the workspace just before its first use, not at the top: the
            // fewer values live at once, the fewer HotSpot spills.
            Set<ISymbol> pending = new HashSet<>(imports.get(c));
            // A plain input an earlier chunk read is read again from its array, not passed (forScratch only).
            Set<ISymbol> reread = new HashSet<>();
            for (Statement it : chunks.get(c)) {
                for (ISymbol u : it.uses()) {
                    Integer defined = chunkOf.get(u);
                    if (defined != null && defined < c && rereads.containsKey(u)) {
                        reread.add(u);
                    }
                }
            }
            MethodBody body = new MethodBody(m);
            for (Statement it : chunks.get(c)) {
                for (ISymbol u : it.uses()) {
                    if (pending.remove(u)) {
                        body.line("final double " + u.getSymbolName() + " = " + slotText.apply(slot.get(u)));
                    } else if (reread.remove(u)) {
                        body.line("final double " + u.getSymbolName() + " = " + rereads.get(u));
                    }
                }
                body.add(it);
                for (ISymbol d : it.defines()) {
                    if (slot.containsKey(d)) {
                        body.line(slotText.apply(slot.get(d)) + " = " + d.getSymbolName());
                    }
                }
            }
            methods.add(body.done().build());
        }
        if (caller != pub) {
            dispatchers.add(caller.build());
        }
        methods.addAll(0, dispatchers);
        methods.add(0, pub.build());
        return methods;
    }
}
