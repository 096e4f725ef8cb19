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
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.generator.symbolic.ExpressionGraph;

/**
 * Turns outputs of an {@link ExpressionGraph} into straight-line Java: {@code final double} locals for the inputs
 * and temporaries a method needs, in creation order, then the output assignments. A method whose bytecode would
 * exceed {@link #CHUNK_BYTES} (estimated) is split into private chunk methods called in sequence; a value defined in
 * one chunk and used in a later one travels through the instance's workspace array {@code w}. HotSpot does not
 * compile methods over 8000 bytes of bytecode, so every emitted method stays well under that.
 */
public final class MethodEmitter {
    /** Estimated bytecode budget of one emitted method (bytes). */
    public static final int CHUNK_BYTES = 4000;

    private final ExpressionGraph g;
    private int workspaceSize;

    public MethodEmitter(ExpressionGraph g) {
        this.g = g;
    }

    /** One assignment of a method: {@code target = value;} where target is Java (e.g. {@code tau[2]}). */
    public record Output(String target, IExpr value) {
    }

    /** The methods emitted for one public method and its operation count. */
    public record Emitted(List<MethodSpec> methods, OperationCount operations) {
    }

    /** Workspace entries needed by every method emitted so far (they reuse the same slots). */
    public int workspaceSize() {
        return workspaceSize;
    }

    private record Item(ISymbol defines, String code, int bytes, Set<ISymbol> uses) {
    }

    /**
     * @param spec    the public method's signature and Javadoc (no body)
     * @param outputs the assignments it makes
     */
    public Emitted emit(MethodSpec spec, List<Output> outputs) {
        // Reachable inputs and temporaries.
        Set<ISymbol> needed = new HashSet<>();
        for (Output o : outputs) {
            collect(o.value(), needed);
        }
        List<ISymbol> inputs = new ArrayList<>();
        List<ISymbol> temps = new ArrayList<>();
        for (ISymbol s : needed) {
            (g.isInput(s) ? inputs : temps).add(s);
        }
        inputs.sort((a, b) -> a.getSymbolName().compareTo(b.getSymbolName()));
        temps.sort((a, b) -> Integer.compare(g.creationIndex(a), g.creationIndex(b)));

        int trig = 0;
        List<Item> items = new ArrayList<>();
        for (ISymbol in : inputs) {
            String expr = g.inputExpression(in);
            if (expr.startsWith("Math.sin") || expr.startsWith("Math.cos")) {
                trig++;
            }
            items.add(new Item(in, "final double " + in.getSymbolName() + " = " + expr, 12, Set.of()));
        }
        // Outputs go right after the last value they use is defined.
        Map<Integer, List<Output>> outputsAfter = new HashMap<>();
        for (Output o : outputs) {
            int last = -1;
            Set<ISymbol> uses = new HashSet<>();
            collect(o.value(), uses);
            for (ISymbol s : uses) {
                if (g.isTemporary(s)) {
                    last = Math.max(last, temps.indexOf(s));
                }
            }
            outputsAfter.computeIfAbsent(last, k -> new ArrayList<>()).add(o);
        }
        int[] counts = new int[2];
        addOutputs(outputsAfter.get(-1), items, counts);
        for (int k = 0; k < temps.size(); k++) {
            ISymbol t = temps.get(k);
            IExpr def = g.definition(t);
            int[] c = new int[2];
            String code = "final double " + t.getSymbolName() + " = " + strip(JavaExpressions.java(def, c));
            counts[0] += c[0];
            counts[1] += c[1];
            Set<ISymbol> uses = new LinkedHashSet<>();
            collectDirect(def, uses);
            items.add(new Item(t, code, estimateBytes(def), uses));
            addOutputs(outputsAfter.get(k), items, counts);
        }
        OperationCount ops = new OperationCount(counts[0], counts[1], trig);
        return new Emitted(split(spec, items), ops);
    }

    private void addOutputs(List<Output> outs, List<Item> items, int[] counts) {
        if (outs == null) {
            return;
        }
        for (Output o : outs) {
            int[] c = new int[2];
            String value = strip(JavaExpressions.java(o.value(), c));
            counts[0] += c[0];
            counts[1] += c[1];
            Set<ISymbol> uses = new LinkedHashSet<>();
            collectDirect(o.value(), uses);
            items.add(new Item(null, o.target() + " = " + value, estimateBytes(o.value()) + 8, uses));
        }
    }

    private static String strip(String s) {
        if (s.startsWith("(") && s.endsWith(")") && balanced(s.substring(1, s.length() - 1))) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }

    private static boolean balanced(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')' && --depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }

    /** Rough bytecode size of a statement: 4 bytes per operand (wide loads), 1 per operation, 4 to store. */
    private static int estimateBytes(IExpr e) {
        return 4 + leafBytes(e);
    }

    private static int leafBytes(IExpr e) {
        if (e.isNumber() || e.isSymbol()) {
            return 4;
        }
        int b = 1;
        for (int i = 1; i <= e.argSize(); i++) {
            b += 1 + leafBytes(e.getAt(i));
        }
        return b;
    }

    private void collect(IExpr e, Set<ISymbol> out) {
        if (e.isSymbol()) {
            ISymbol s = (ISymbol) e;
            if (out.add(s) && g.isTemporary(s)) {
                collect(g.definition(s), out);
            }
            return;
        }
        if (e.isAST()) {
            for (int i = 1; i <= e.argSize(); i++) {
                collect(e.getAt(i), out);
            }
        }
    }

    private static void collectDirect(IExpr e, Set<ISymbol> out) {
        if (e.isSymbol()) {
            out.add((ISymbol) e);
            return;
        }
        if (e.isAST()) {
            for (int i = 1; i <= e.argSize(); i++) {
                collectDirect(e.getAt(i), out);
            }
        }
    }

    private List<MethodSpec> split(MethodSpec spec, List<Item> items) {
        List<List<Item>> chunks = new ArrayList<>();
        List<Item> current = new ArrayList<>();
        int bytes = 0;
        for (Item it : items) {
            if (bytes + it.bytes > CHUNK_BYTES && !current.isEmpty()) {
                chunks.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(it);
            bytes += it.bytes;
        }
        chunks.add(current);
        List<MethodSpec> methods = new ArrayList<>();
        if (chunks.size() == 1) {
            MethodSpec.Builder b = spec.toBuilder();
            for (Item it : chunks.get(0)) {
                b.addStatement("$L", it.code);
            }
            methods.add(b.build());
            return methods;
        }
        // Values crossing chunks get workspace slots.
        Map<ISymbol, Integer> chunkOf = new HashMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            for (Item it : chunks.get(c)) {
                if (it.defines != null) {
                    chunkOf.put(it.defines, c);
                }
            }
        }
        Map<ISymbol, Integer> slot = new HashMap<>();
        List<Set<ISymbol>> imports = new ArrayList<>();
        for (int c = 0; c < chunks.size(); c++) {
            Set<ISymbol> in = new LinkedHashSet<>();
            for (Item it : chunks.get(c)) {
                for (ISymbol u : it.uses) {
                    Integer defined = chunkOf.get(u);
                    if (defined != null && defined < c) {
                        in.add(u);
                        slot.computeIfAbsent(u, k -> slot.size());
                    }
                }
            }
            imports.add(in);
        }
        workspaceSize = Math.max(workspaceSize, slot.size());
        MethodSpec.Builder pub = spec.toBuilder();
        String args = String.join(", ", spec.parameters.stream().map(p -> p.name).toList());
        for (int c = 0; c < chunks.size(); c++) {
            String name = spec.name + "$" + c;
            pub.addStatement("$L($L)", name, args);
            MethodSpec.Builder m = MethodSpec.methodBuilder(name).addModifiers(Modifier.PRIVATE);
            for (ParameterSpec p : spec.parameters) {
                m.addParameter(p);
            }
            for (ISymbol s : imports.get(c)) {
                m.addStatement("final double $L = w[$L]", s.getSymbolName(), slot.get(s));
            }
            for (Item it : chunks.get(c)) {
                m.addStatement("$L", it.code);
                if (it.defines != null && slot.containsKey(it.defines)) {
                    m.addStatement("w[$L] = $L", slot.get(it.defines), it.defines.getSymbolName());
                }
            }
            methods.add(m.build());
        }
        methods.add(0, pub.build());
        return methods;
    }
}
