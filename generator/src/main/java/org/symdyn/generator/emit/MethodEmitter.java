package org.symdyn.generator.emit;

import com.squareup.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicInput;

/**
 * Turns outputs of an {@link ExpressionGraph} into straight-line Java: {@code final double} locals for the inputs
 * and temporaries a method needs, each defined just before its first use (depth first from the outputs), and the
 * output assignments. Sine and cosine of a joint angle come from one inlined {@link SinCosBlock}. A method whose
 * bytecode would exceed {@link MethodChunks#CHUNK_BYTES} (estimated) is split into private chunk methods called in sequence; a
 * value defined in one chunk and used in a later one travels through the instance's workspace: {@code double}
 * fields in a method of {@link Workspace#FIELD_CHUNKS} chunks or more, else the array {@code w} ({@link Workspace}).
 * HotSpot does not compile methods over 8000 bytes of bytecode, so every emitted method stays well under that.
 *
 * <p>A value may be the result of a call ({@link ExpressionGraph#call}: a twin limb's shared code): the call is made
 * just before the first statement that reads one of its results, after the values of its arguments, which it writes
 * into its scratch array; each result is read from there at its first use. The shared code itself is emitted by an
 * emitter {@link #forScratch} whose inputs and chunk workspace are entries of the arrays it is called with.
 */
public final class MethodEmitter {
    private final ExpressionGraph g;
    private final boolean inlineSinCos;
    /** How inputs are read; null: the public methods' parameters ({@link #java(SymbolicInput)}). */
    private final Function<SymbolicInput, String> inputText;
    /** With {@link #forScratch}: true, its chunks' slots being entries of the array it is called with. */
    private final boolean scratch;
    private final StatementOrder statementOrder;
    private final MethodChunks chunks;
    // The emission under way: values defined so far, reads of call results whose call is not made yet, calls made.
    private Set<ISymbol> defined;
    private Map<ISymbol, Statement> pendingCallReads;
    private Set<ExpressionGraph.CallSite> callsMade;
    /** With {@link #forScratch}: the Java text of each plain input read, which a later chunk reads again. */
    private Map<ISymbol, String> rereads;

    /** An emitter whose sines and cosines are {@link SinCosBlock}s. */
    public MethodEmitter(ExpressionGraph g) {
        this(g, true);
    }

    /**
     * @param inlineSinCos true: each angle's sine and cosine from one inlined {@link SinCosBlock}; false: calls of
     *                     {@code Math.sin} and {@code Math.cos}
     */
    public MethodEmitter(ExpressionGraph g, boolean inlineSinCos) {
        this(g, inlineSinCos, null, null, 0);
    }

    private MethodEmitter(ExpressionGraph g, boolean inlineSinCos, Function<SymbolicInput, String> inputText,
            String scratch, int scratchFrom) {
        this.g = g;
        this.inlineSinCos = inlineSinCos;
        this.inputText = inputText;
        this.scratch = scratch != null;
        this.statementOrder = new StatementOrder(g);
        this.chunks = new MethodChunks(scratch, scratchFrom);
    }

    /**
     * An emitter for code that reads its inputs from arrays it is called with, such as a limb's shared code:
     * {@code inputs} gives the Java text of each input (null for a sine or cosine computed here from its angle, the
     * text of its {@link SymbolicInput.Kind#Q}), and a method split into chunks keeps the values that cross them in
     * entries {@code from, from + 1, ...} of the array parameter {@code scratch}, not in the instance's workspace,
     * which its caller may be using.
     */
    public static MethodEmitter forScratch(ExpressionGraph g, boolean inlineSinCos,
            Function<SymbolicInput, String> inputs, String scratch, int from) {
        return new MethodEmitter(g, inlineSinCos, inputs, scratch, from);
    }

    /** With {@link #forScratch}: the most workspace entries any method emitted so far uses. */
    public int scratchSlots() {
        return chunks.scratchSlots();
    }

    /** One assignment of a method: {@code target = value;} where target is Java (e.g. {@code tau[2]}). */
    public record Output(String target, IExpr value) {
    }

    /** The methods emitted for one public method and its operation count. */
    public record Emitted(List<MethodSpec> methods, OperationCount operations) {
    }

    /** The workspace needed by every method emitted so far (they reuse the same slots). */
    public Workspace workspace() {
        return chunks.workspace();
    }

    /**
     * The Java text of an input: an entry of the method parameter of its kind (so a generated method that reads
     * inputs of a kind names that parameter {@code q}, {@code v}, {@code vdot}, {@code tau}, {@code point}, {@code H},
     * {@code G}, {@code a}, {@code b} or {@code lambda}), of the instance's {@code parameters} or {@code factors}, or the
     * {@link Math} call of a sine or cosine (emitted as such with the mathTrig option; otherwise sines and cosines
     * come from {@link SinCosBlock}s over {@link #angle}).
     */
    static String java(SymbolicInput in) {
        int k = in.index();
        return switch (in.kind()) {
            case Q -> "q[" + k + "]";
            case V -> "v[" + k + "]";
            case VDOT -> "vdot[" + k + "]";
            case TAU -> "tau[" + k + "]";
            case PARAMETER -> "parameters[" + k + "]";
            case POINT -> "point[" + k + "]";
            case MASS_MATRIX -> "H.data[" + k + "]";
            case CONSTRAINT_JACOBIAN -> "G.data[" + k + "]";
            case SADDLE_A -> "a[" + k + "]";
            case SADDLE_B -> "b[" + k + "]";
            case FACTOR -> "factors[" + k + "]";
            case ARTICULATED -> "articulated[" + k + "]";
            case MULTIPLIER -> "lambda[" + k + "]";
            case SIN_Q -> "Math.sin(" + angle(in) + ")";
            case COS_Q -> "Math.cos(" + angle(in) + ")";
            case CONSTANT, PARENT_MOTION, CALL, LIMB_STATE -> throw new IllegalStateException(in
                    + " is read by the emitter of its graph");
            case QUAT_X, QUAT_Y, QUAT_Z, QUAT_W -> throw new IllegalStateException("a prescaled quaternion comes from "
                    + "its QuaternionBlock");
        };
    }

    /** The joint angle of a sine or cosine input. */
    private static String angle(SymbolicInput in) {
        return "q[" + in.index() + "]";
    }

    /** The Java text of an input in this emitter's methods. */
    private String text(SymbolicInput in) {
        if (in.kind() == SymbolicInput.Kind.CALL) {
            ExpressionGraph.CallSite site = g.callOf((ISymbol) g.input(in.kind(), in.index()));
            return site.scratch() + "[" + g.callSlot((ISymbol) g.input(in.kind(), in.index())) + "]";
        }
        if (inputText == null) {
            return java(in);
        }
        String direct = inputText.apply(in);
        if (direct != null) {
            return direct;
        }
        return switch (in.kind()) {
            case SIN_Q -> "Math.sin(" + angleText(in) + ")";
            case COS_Q -> "Math.cos(" + angleText(in) + ")";
            default -> throw new IllegalStateException("no Java text for " + in);
        };
    }

    /** True if a sine or cosine input is computed here from its angle, not read like any other input. */
    private boolean computed(SymbolicInput in) {
        return isTrig(in) && (inputText == null || inputText.apply(in) == null);
    }

    /** The joint angle of a sine or cosine input in this emitter's methods. */
    private String angleText(SymbolicInput in) {
        return inputText == null ? angle(in) : inputText.apply(new SymbolicInput(SymbolicInput.Kind.Q, in.index()));
    }

    private static boolean isTrig(SymbolicInput in) {
        return in.kind() == SymbolicInput.Kind.SIN_Q || in.kind() == SymbolicInput.Kind.COS_Q;
    }

    /** The component (0..3 for x, y, z, w) of a prescaled quaternion input, or -1. */
    private static int quaternionComponent(SymbolicInput in) {
        return switch (in.kind()) {
            case QUAT_X -> 0;
            case QUAT_Y -> 1;
            case QUAT_Z -> 2;
            case QUAT_W -> 3;
            default -> -1;
        };
    }

    /** The operation count {@link #emit} would report for these outputs, without emitting them. */
    public OperationCount count(List<Output> outputs) {
        Set<ISymbol> needed = new HashSet<>();
        for (Output o : outputs) {
            g.reach(o.value(), needed);
        }
        int[] counts = new int[2];
        int trig = 0;
        for (ISymbol s : needed) {
            if (g.isInput(s)) {
                trig += isTrig(g.inputOf(s)) ? 1 : 0;
            } else {
                JavaExpressions.java(g.definition(s), counts);
            }
        }
        for (Output o : outputs) {
            JavaExpressions.java(o.value(), counts);
        }
        return new OperationCount(counts[0], counts[1], trig);
    }

    /** {@link #emit(MethodSpec, List, Order)} in {@link Order#FIRST_USE}. */
    public Emitted emit(MethodSpec spec, List<Output> outputs) {
        return emit(spec, outputs, Order.FIRST_USE);
    }

    /** The order in which a method defines its temporaries. */
    public enum Order {
        /**
         * Each just before its first use, depth first from the outputs (the outputs in the order in which their last
         * operand was created): few values live at a time.
         */
        FIRST_USE,
        /**
         * The derivation's order, then the outputs: an algorithm of passes (the articulated-body algorithm) runs
         * pass by pass, so that fewer values cross its chunks (romeo_small's forward dynamics: 3,025 workspace reads
         * and 1,831 writes in first-use order, 2,201 and 1,708 in creation order; interleaved B/A 0.974, 2 copies a
         * side, while its C 0.990, ID 1.015 and H 1.065 do not gain; {@code ClassGeneration.PASS_ORDER_CHUNKS}).
         */
        CREATION
    }

    /**
     * System property, for A/B timing only: with {@code true} at generation time every method is emitted in
     * {@link Order#FIRST_USE}, whatever it asks (the form before {@link Order#CREATION}). Nothing else uses it.
     */
    public static final String FIRST_USE_ORDER_PROPERTY = "symdyn.generator.firstUseOrder";

    /**
     * @param spec    the public method's signature and Javadoc (no body)
     * @param outputs the assignments it makes
     * @param order   the order of its definitions
     */
    public Emitted emit(MethodSpec spec, List<Output> outputs, Order order) {
        pendingCallReads = new HashMap<>();
        callsMade = new HashSet<>();
        rereads = new HashMap<>();
        // Reachable inputs and temporaries.
        Set<ISymbol> needed = new HashSet<>();
        for (Output o : outputs) {
            g.reach(o.value(), needed);
        }
        List<ISymbol> inputs = new ArrayList<>();
        List<ISymbol> temps = new ArrayList<>();
        for (ISymbol s : needed) {
            (g.isInput(s) ? inputs : temps).add(s);
        }
        inputs.sort((a, b) -> a.getSymbolName().compareTo(b.getSymbolName()));
        temps.sort((a, b) -> Integer.compare(g.creationIndex(a), g.creationIndex(b)));

        int trig = 0;
        List<Statement> items = new ArrayList<>();
        // Each input other than a sine or cosine is read just before its first use (see below).
        Map<ISymbol, Statement> inputItems = new HashMap<>();
        // sin and cos of one angle come from one SinCosBlock, whichever of the two the method needs.
        Map<Integer, ISymbol[]> angles = new java.util.TreeMap<>();
        // The components of each prescaled quaternion come from one QuaternionBlock.
        Map<Integer, ISymbol[]> quaternions = new java.util.TreeMap<>();
        for (ISymbol sym : inputs) {
            SymbolicInput in = g.inputOf(sym);
            int component = quaternionComponent(in);
            if (component >= 0) {
                quaternions.computeIfAbsent(in.index(), a -> new ISymbol[4])[component] = sym;
                continue;
            }
            String statement = "final double " + sym.getSymbolName() + " = " + text(in);
            if (in.kind() == SymbolicInput.Kind.CALL) {
                pendingCallReads.put(sym, Statement.of(sym, statement, 12, Set.of()));
            } else if (!computed(in)) {
                inputItems.put(sym, Statement.of(sym, statement, 12, Set.of()));
                if (scratch) {
                    rereads.put(sym, text(in));
                }
            } else if (!inlineSinCos) {
                trig++;
                items.add(Statement.of(sym, statement, 12, Set.of()));
            } else {
                trig++;
                ISymbol[] pair = angles.computeIfAbsent(in.index(), a -> new ISymbol[2]);
                pair[in.kind() == SymbolicInput.Kind.SIN_Q ? 0 : 1] = sym;
            }
        }
        for (Map.Entry<Integer, ISymbol[]> e : quaternions.entrySet()) {
            List<ISymbol> defines = new ArrayList<>();
            String[] names = new String[4];
            for (int c = 0; c < 4; c++) {
                ISymbol s = e.getValue()[c];
                if (s != null) {
                    defines.add(s);
                    names[c] = s.getSymbolName();
                }
            }
            // First, like the sine and cosine blocks: a block is used by most outputs of a method that needs it.
            items.add(Statement.block(defines, QuaternionBlock.code(e.getKey(), names), QuaternionBlock.BYTES));
        }
        for (Map.Entry<Integer, ISymbol[]> a : angles.entrySet()) {
            ISymbol sin = a.getValue()[0];
            ISymbol cos = a.getValue()[1];
            List<ISymbol> defines = new ArrayList<>();
            if (sin != null) {
                defines.add(sin);
            }
            if (cos != null) {
                defines.add(cos);
            }
            Statement block = Statement.block(defines, SinCosBlock.code(angleText(g.inputOf(defines.get(0))),
                    sin == null ? null : sin.getSymbolName(), cos == null ? null : cos.getSymbolName()),
                    SinCosBlock.BYTES);
            // The blocks go first, all together: a block is a branch, and placing each where its values are first
            // used was no faster in A/B timings, while it breaks the arithmetic into more basic blocks.
            items.add(block);
        }
        // Outputs in the order in which their last operand was created; before each, depth first, the
        // temporaries it needs that are not defined yet. Defining a value just before its first use keeps few
        // values live at a time: HotSpot's register allocator then spills far less than with the derivation's
        // creation order (iiwa14 bias forces ran 20-25% faster in an interleaved A/B timing, together with the
        // workspace reads placed where used, in split()).
        Map<ISymbol, Integer> created = new HashMap<>();
        for (int k = 0; k < temps.size(); k++) {
            created.put(temps.get(k), k);
        }
        List<Output> ordered = new ArrayList<>(outputs);
        Map<Output, Integer> lastOperand = new HashMap<>();
        for (Output o : outputs) {
            int last = -1;
            // A temporary's operands were created before it, so the latest temporary an output reaches is one of
            // those it names directly: no walk of the whole graph per output (quadratic for a long chain's H).
            Set<ISymbol> uses = new HashSet<>();
            StatementOrder.collectDirect(o.value(), uses);
            for (ISymbol s : uses) {
                last = Math.max(last, created.getOrDefault(s, -1));
            }
            lastOperand.put(o, last);
        }
        ordered.sort((a, b) -> Integer.compare(lastOperand.get(a), lastOperand.get(b)));
        int[] counts = new int[2];
        defined = new HashSet<>();
        if (order == Order.CREATION && !Boolean.getBoolean(FIRST_USE_ORDER_PROPERTY)) {
            for (ISymbol t : temps) {
                if (defined.add(t)) {
                    addStatement(t, "final double " + t.getSymbolName() + " = ", g.definition(t), 0, inputItems,
                            items, counts);
                }
            }
        }
        Map<Output, Statement> stores = new HashMap<>();
        for (Output o : ordered) {
            for (ISymbol t : statementOrder.dependenciesFirst(o.value(), defined)) {
                addStatement(t, "final double " + t.getSymbolName() + " = ", g.definition(t), 0, inputItems, items,
                        counts);
            }
            addStatement(null, o.target() + " = ", o.value(), 8, inputItems, items, counts);
            stores.put(o, items.get(items.size() - 1));
        }
        fillZeros(outputs, stores, items, arraysRead(inputs));
        OperationCount ops = new OperationCount(counts[0], counts[1], trig);
        return new Emitted(chunks.split(spec, items, rereads), ops);
    }

    /**
     * In a large method, the zero outputs of an array written by one loop before everything else instead of a store
     * each ({@link ZeroFill}).
     */
    private static void fillZeros(List<Output> outputs, Map<Output, Statement> stores, List<Statement> items,
            Set<String> read) {
        int bytes = 0;
        for (Statement s : items) {
            bytes += s.bytes();
        }
        if (bytes < ZeroFill.MIN_METHOD_BYTES) {
            return;
        }
        List<Statement> fills = new ArrayList<>();
        Set<Output> filled = ZeroFill.apply(outputs, read, o -> o.value().isNumber()
                && "0.0".equals(JavaExpressions.java(o.value(), new int[2])), fills);
        if (filled.isEmpty()) {
            return;
        }
        Set<Statement> dropped = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Output o : filled) {
            dropped.add(stores.get(o));
        }
        items.removeIf(dropped::contains);
        // First: the stores of the nonzero entries overwrite the fill.
        items.addAll(0, fills);
    }

    /** The arrays whose entries these inputs read ({@code H.data} for {@code H.data[3]}). */
    private Set<String> arraysRead(List<ISymbol> inputs) {
        Set<String> read = new HashSet<>();
        for (ISymbol sym : inputs) {
            SymbolicInput in = g.inputOf(sym);
            if (in.kind() == SymbolicInput.Kind.CALL || computed(in) || quaternionComponent(in) >= 0) {
                continue;
            }
            String text = text(in);
            int bracket = text.indexOf('[');
            if (bracket > 0) {
                read.add(text.substring(0, bracket));
            }
        }
        return read;
    }

    /** Adds the items of the inputs among {@code uses} that are not defined yet (an item is added once). */
    private static void addInputs(Set<ISymbol> uses, Map<ISymbol, Statement> inputItems, List<Statement> items) {
        for (ISymbol u : uses) {
            Statement it = inputItems.get(u);
            if (it != null) {
                for (ISymbol d : it.defines()) {
                    inputItems.remove(d);
                }
                items.add(it);
            }
        }
    }

    /**
     * Adds the statement {@code prefix value} (a temporary's definition or an output assignment), preceded by the
     * items of the inputs it is the first to read, and counts its operations.
     */
    private void addStatement(ISymbol defines, String prefix, IExpr value, int extraBytes,
            Map<ISymbol, Statement> inputItems, List<Statement> items, int[] counts) {
        int[] c = new int[2];
        String code = prefix + strip(JavaExpressions.java(value, c));
        counts[0] += c[0];
        counts[1] += c[1];
        Set<ISymbol> uses = new LinkedHashSet<>();
        StatementOrder.collectDirect(value, uses);
        makeCalls(uses, inputItems, items, counts);
        addInputs(uses, inputItems, items);
        items.add(Statement.of(defines, code, estimateBytes(value) + extraBytes, uses));
    }

    /**
     * Makes the calls whose results {@code uses} reads and that are not made yet: first the values of their
     * arguments, then the call, which writes the arguments into its scratch array and calls the method; its results
     * are read from there at their first use.
     */
    private void makeCalls(Set<ISymbol> uses, Map<ISymbol, Statement> inputItems, List<Statement> items, int[] counts) {
        for (ISymbol u : uses) {
            if (!pendingCallReads.containsKey(u)) {
                continue;
            }
            ExpressionGraph.CallSite site = g.callOf(u);
            if (!callsMade.add(site)) {
                continue;
            }
            Set<ISymbol> argUses = new LinkedHashSet<>();
            for (IExpr arg : site.args()) {
                for (ISymbol t : statementOrder.dependenciesFirst(arg, defined)) {
                    addStatement(t, "final double " + t.getSymbolName() + " = ", g.definition(t), 0, inputItems,
                            items, counts);
                }
                StatementOrder.collectDirect(arg, argUses);
            }
            Set<ISymbol> before = new LinkedHashSet<>();
            for (IExpr e : site.after()) {
                StatementOrder.collectDirect(e, before);
            }
            makeCalls(before, inputItems, items, counts);
            makeCalls(argUses, inputItems, items, counts);
            addInputs(argUses, inputItems, items);
            StringBuilder code = new StringBuilder();
            int bytes = 8;
            for (int k = 0; k < site.args().length; k++) {
                code.append(site.scratch()).append('[').append(site.argSlots()[k]).append("] = ")
                        .append(strip(JavaExpressions.java(site.args()[k], counts))).append(";\n");
                bytes += 6 + estimateBytes(site.args()[k]);
            }
            code.append(site.method()).append('(').append(site.scratch()).append(", ").append(site.constants())
                    .append(");\n");
            items.add(new Statement(List.of(), code.toString(), null, bytes, argUses));
            for (java.util.Iterator<Map.Entry<ISymbol, Statement>> it = pendingCallReads.entrySet().iterator();
                    it.hasNext();) {
                Map.Entry<ISymbol, Statement> read = it.next();
                if (g.callOf(read.getKey()) == site) {
                    inputItems.put(read.getKey(), read.getValue());
                    it.remove();
                }
            }
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

}
