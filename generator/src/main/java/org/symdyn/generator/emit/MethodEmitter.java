package org.symdyn.generator.emit;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.lang.model.element.Modifier;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicInput;

/**
 * Turns outputs of an {@link ExpressionGraph} into straight-line Java: {@code final double} locals for the inputs
 * and temporaries a method needs, each defined just before its first use (depth first from the outputs), and the
 * output assignments. Sine and cosine of a joint angle come from one inlined {@link SinCosBlock}. A method whose
 * bytecode would exceed {@link #CHUNK_BYTES} (estimated) is split into private chunk methods called in sequence; a
 * value defined in one chunk and used in a later one travels through the instance's workspace: {@code double}
 * fields in a method of {@link #FIELD_CHUNKS} chunks or more, else the array {@code w} ({@link Workspace}).
 * HotSpot does not compile methods over 8000 bytes of bytecode, so every emitted method stays well under that.
 *
 * <p>A value may be the result of a call ({@link ExpressionGraph#call}: a twin limb's shared code): the call is made
 * just before the first statement that reads one of its results, after the values of its arguments, which it writes
 * into its scratch array; each result is read from there at its first use. The shared code itself is emitted by an
 * emitter {@link #forScratch} whose inputs and chunk workspace are entries of the arrays it is called with.
 */
public final class MethodEmitter {
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
    /**
     * A method split into at least this many chunks passes values between them in {@code double} fields of the
     * instance ({@code w$0}, {@code w$1}, ...; slots reused once read for the last time); a smaller one in entries of
     * the array {@code w}, one per value, as before. Why: a large method's code is several times the processor's
     * instruction cache (romeo_small's bias forces: 72 KB of machine code in 30 chunks; hyq's bias forces, called from
     * 1, 2 and 3 identical classes in turn, took 268, 355 and 403 ns), and its speed follows the bytes of code it runs;
     * a field is read or written by a shorter instruction than an array entry (addressed from {@code this}, no range
     * check). Measured ({@code InterleavedAB --compare workspace}, 2 copies a side, 60 rounds; B/A, fields in every
     * method of 6 chunks or more): romeo_small C 0.889, ID 0.925, FD 0.898, H 0.967; hyq ID 0.916, FD 0.830; solo12 C
     * 0.922, ID 0.927, FD 0.847. Smaller methods, whose code fits the cache, gained little or lost: iiwa14 C (5 chunks)
     * 1.059, ID (5) 1.031, FD (8) 0.955 in that run but +10 % in a JMH run; panda FD (13) 0.990. Hence 10: the arms'
     * H, C, g and ID (and iiwa14's FD) keep the array, their code unchanged.
     */
    static final int FIELD_CHUNKS = 10;
    /**
     * Most workspace fields a method uses; its further slots are entries of {@code w}. Each field costs the class
     * file three constants (its reference, name and type) and the largest methods (the derivatives) need thousands
     * of slots, so the rest stay in the array.
     */
    public static final int FIELD_SLOTS = 1024;
    /**
     * System property, for A/B timing only: with {@code true} at generation time every method passes its values in
     * the array {@code w}, one entry per value (the form before {@link #FIELD_CHUNKS}). Nothing else uses it.
     */
    public static final String ARRAY_WORKSPACE_PROPERTY = "symdyn.generator.arrayWorkspace";

    private final ExpressionGraph g;
    private final boolean inlineSinCos;
    /** How inputs are read; null: the public methods' parameters ({@link #java(SymbolicInput)}). */
    private final Function<SymbolicInput, String> inputText;
    /** With {@link #forScratch}: the array parameter whose entries from {@link #scratchFrom} are the workspace. */
    private final String scratch;
    private final int scratchFrom;
    private int scratchSlots;
    private int workspaceFields;
    private int workspaceArray;
    // The emission under way: values defined so far, reads of call results whose call is not made yet, calls made.
    private Set<ISymbol> defined;
    private Map<ISymbol, Item> pendingCallReads;
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
        this.scratch = scratch;
        this.scratchFrom = scratchFrom;
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
        return scratchSlots;
    }

    /** One assignment of a method: {@code target = value;} where target is Java (e.g. {@code tau[2]}). */
    public record Output(String target, IExpr value) {
    }

    /** The methods emitted for one public method and its operation count. */
    public record Emitted(List<MethodSpec> methods, OperationCount operations) {
    }

    /**
     * The workspace of the class: the fields {@code w$0 .. w$(fields - 1)} and the length of the array {@code w}
     * (a method's slot k is field k below {@link #FIELD_SLOTS} in a method of {@link #FIELD_CHUNKS} chunks or more,
     * else entry k, or k - FIELD_SLOTS, of w).
     */
    public record Workspace(int fields, int array) {
    }

    /** The name of workspace field k. */
    public static String workspaceField(int k) {
        return "w$" + k;
    }

    /** The workspace needed by every method emitted so far (they reuse the same slots). */
    public Workspace workspace() {
        return new Workspace(workspaceFields, workspaceArray);
    }

    /**
     * Statements that define {@code defines} (none for an output assignment) from the values {@code uses}: either one
     * line of plain text ({@code line}, ending in a newline) or a block with control flow ({@code block}).
     */
    private record Item(List<ISymbol> defines, String line, CodeBlock block, int bytes, Set<ISymbol> uses) {
        static Item statement(ISymbol defines, String statement, int bytes, Set<ISymbol> uses) {
            return new Item(defines == null ? List.of() : List.of(defines), statement + ";\n", null, bytes, uses);
        }

        static Item block(List<ISymbol> defines, CodeBlock block, int bytes) {
            return new Item(defines, null, block, bytes, Set.of());
        }
    }

    /**
     * A method body written as few strings as possible: consecutive plain lines go to JavaPoet as one literal. JavaPoet
     * splits every string it emits on the regular expression {@code \\R}, compiling it each time; one string per
     * statement made that 18 % of romeo_small's generation with derivatives (278 of 1,504 profile samples, JFR). The
     * text is the same, byte for byte: the lines are single statements at the method's indentation either way.
     */
    private static final class Body {
        private final MethodSpec.Builder method;
        private final StringBuilder lines = new StringBuilder();

        Body(MethodSpec.Builder method) {
            this.method = method;
        }

        void add(Item item) {
            if (item.line != null) {
                lines.append(item.line);
            } else {
                flush();
                method.addCode(item.block);
            }
        }

        void line(String line) {
            lines.append(line).append(";\n");
        }

        MethodSpec.Builder done() {
            flush();
            return method;
        }

        private void flush() {
            if (!lines.isEmpty()) {
                method.addCode("$L", lines.toString());
                lines.setLength(0);
            }
        }
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
         * side, while its C 0.990, ID 1.015 and H 1.065 do not gain; {@code CodeGenerator.PASS_ORDER_CHUNKS}).
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
        List<Item> items = new ArrayList<>();
        // Each input other than a sine or cosine is read just before its first use (see below).
        Map<ISymbol, Item> inputItems = new HashMap<>();
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
                pendingCallReads.put(sym, Item.statement(sym, statement, 12, Set.of()));
            } else if (!computed(in)) {
                inputItems.put(sym, Item.statement(sym, statement, 12, Set.of()));
                if (scratch != null) {
                    rereads.put(sym, text(in));
                }
            } else if (!inlineSinCos) {
                trig++;
                items.add(Item.statement(sym, statement, 12, Set.of()));
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
            items.add(Item.block(defines, QuaternionBlock.code(e.getKey(), names), QuaternionBlock.BYTES));
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
            Item block = Item.block(defines, SinCosBlock.code(angleText(g.inputOf(defines.get(0))),
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
            collectDirect(o.value(), uses);
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
        for (Output o : ordered) {
            for (ISymbol t : dependenciesFirst(o.value(), defined)) {
                addStatement(t, "final double " + t.getSymbolName() + " = ", g.definition(t), 0, inputItems, items,
                        counts);
            }
            addStatement(null, o.target() + " = ", o.value(), 8, inputItems, items, counts);
        }
        OperationCount ops = new OperationCount(counts[0], counts[1], trig);
        return new Emitted(split(spec, items), ops);
    }

    /**
     * The temporaries {@code e} needs that are not in {@code defined} yet, each after its own operands (a
     * depth-first post-order, deepest operand first); adds them to {@code defined}. Iterative, since dependency
     * chains of large models are thousands of temporaries deep.
     */
    private List<ISymbol> dependenciesFirst(IExpr e, Set<ISymbol> defined) {
        List<ISymbol> order = new ArrayList<>();
        java.util.ArrayDeque<Visit> stack = new java.util.ArrayDeque<>();
        stack.push(new Visit(null, directTemporaries(e)));
        while (!stack.isEmpty()) {
            Visit top = stack.peek();
            if (top.next < top.operands.size()) {
                ISymbol t = top.operands.get(top.next++);
                if (defined.add(t)) {
                    stack.push(new Visit(t, directTemporaries(g.definition(t))));
                }
            } else {
                stack.pop();
                if (top.temporary != null) {
                    order.add(top.temporary);
                }
            }
        }
        return order;
    }

    /** A temporary (null for the root expression) whose operands are being visited, and the next one to visit. */
    private static final class Visit {
        final ISymbol temporary;
        final List<ISymbol> operands;
        int next;

        Visit(ISymbol temporary, List<ISymbol> operands) {
            this.temporary = temporary;
            this.operands = operands;
        }
    }

    /** The temporaries {@code e} refers to directly, deepest first (ties in order of appearance). */
    private List<ISymbol> directTemporaries(IExpr e) {
        Set<ISymbol> direct = new LinkedHashSet<>();
        collectDirect(e, direct);
        List<ISymbol> out = new ArrayList<>();
        for (ISymbol s : direct) {
            if (g.isTemporary(s)) {
                out.add(s);
            } else if (g.isInput(s) && g.callOf(s) != null) {
                // A call's result depends on the call's arguments: their temporaries come first, so that the call,
                // made just before the first statement that reads a result, finds them defined.
                Set<ISymbol> argSymbols = new LinkedHashSet<>();
                for (IExpr arg : g.callOf(s).dependencies()) {
                    collectDirect(arg, argSymbols);
                }
                for (ISymbol a : argSymbols) {
                    if (g.isTemporary(a) && !out.contains(a)) {
                        out.add(a);
                    }
                }
            }
        }
        // Deepest operand first: Sethi and Ullman's order for expression trees (the operand that needs more
        // registers first), here with depth standing in for register need; 5-10% faster than textual order on
        // iiwa14's C and inverse dynamics in interleaved A/B timings.
        out.sort((a, b) -> Integer.compare(depth(b), depth(a)));
        return out;
    }

    /** Longest chain of temporaries below each temporary met so far (definitions never change, so it persists). */
    private final Map<ISymbol, Integer> depths = new HashMap<>();

    /** The longest chain of temporaries below {@code t} (iterative and memoised: chains run thousands deep). */
    private int depth(ISymbol t) {
        Integer known = depths.get(t);
        if (known != null) {
            return known;
        }
        java.util.ArrayDeque<ISymbol> stack = new java.util.ArrayDeque<>();
        stack.push(t);
        while (!stack.isEmpty()) {
            ISymbol top = stack.peek();
            if (depths.containsKey(top)) {
                stack.pop();
                continue;
            }
            Set<ISymbol> direct = new LinkedHashSet<>();
            collectDirect(g.definition(top), direct);
            int d = 0;
            boolean ready = true;
            for (ISymbol s : direct) {
                if (g.isTemporary(s)) {
                    Integer ds = depths.get(s);
                    if (ds == null) {
                        stack.push(s);
                        ready = false;
                    } else {
                        d = Math.max(d, ds + 1);
                    }
                }
            }
            if (ready) {
                depths.put(top, d);
                stack.pop();
            }
        }
        return depths.get(t);
    }

    /** Adds the items of the inputs among {@code uses} that are not defined yet (an item is added once). */
    private static void addInputs(Set<ISymbol> uses, Map<ISymbol, Item> inputItems, List<Item> items) {
        for (ISymbol u : uses) {
            Item it = inputItems.get(u);
            if (it != null) {
                for (ISymbol d : it.defines) {
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
            Map<ISymbol, Item> inputItems, List<Item> items, int[] counts) {
        int[] c = new int[2];
        String code = prefix + strip(JavaExpressions.java(value, c));
        counts[0] += c[0];
        counts[1] += c[1];
        Set<ISymbol> uses = new LinkedHashSet<>();
        collectDirect(value, uses);
        makeCalls(uses, inputItems, items, counts);
        addInputs(uses, inputItems, items);
        items.add(Item.statement(defines, code, estimateBytes(value) + extraBytes, uses));
    }

    /**
     * Makes the calls whose results {@code uses} reads and that are not made yet: first the values of their
     * arguments, then the call, which writes the arguments into its scratch array and calls the method; its results
     * are read from there at their first use.
     */
    private void makeCalls(Set<ISymbol> uses, Map<ISymbol, Item> inputItems, List<Item> items, int[] counts) {
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
                for (ISymbol t : dependenciesFirst(arg, defined)) {
                    addStatement(t, "final double " + t.getSymbolName() + " = ", g.definition(t), 0, inputItems,
                            items, counts);
                }
                collectDirect(arg, argUses);
            }
            Set<ISymbol> before = new LinkedHashSet<>();
            for (IExpr e : site.after()) {
                collectDirect(e, before);
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
            items.add(new Item(List.of(), code.toString(), null, bytes, argUses));
            for (java.util.Iterator<Map.Entry<ISymbol, Item>> it = pendingCallReads.entrySet().iterator();
                    it.hasNext();) {
                Map.Entry<ISymbol, Item> read = it.next();
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

    /**
     * A workspace slot for every value read by a later chunk than its own ({@code lastImport}: the last chunk that
     * reads it), the lowest free one in order of definition. A slot is free again in the chunk after its value's last
     * reader: within a chunk, values are read at their first use and written at their definition, so a chunk that
     * both read the old value and wrote a new one into the same slot could overwrite it before reading it. Interval
     * colouring over the chunks each value spans, its own and its readers' included: as many slots as the most such
     * values any one chunk touches.
     */
    private Map<ISymbol, Integer> slots(List<List<Item>> chunks, Map<ISymbol, Integer> lastImport) {
        Map<ISymbol, Integer> slot = new HashMap<>();
        java.util.TreeSet<Integer> free = new java.util.TreeSet<>();
        Map<Integer, List<Integer>> freedAfter = new HashMap<>();
        int used = 0;
        for (int c = 0; c < chunks.size(); c++) {
            List<Integer> freed = freedAfter.remove(c - 1);
            if (freed != null) {
                free.addAll(freed);
            }
            for (Item it : chunks.get(c)) {
                for (ISymbol d : it.defines) {
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
            Body b = new Body(spec.toBuilder());
            for (Item it : chunks.get(0)) {
                b.add(it);
            }
            methods.add(b.done().build());
            return methods;
        }
        // Values crossing chunks get workspace slots.
        Map<ISymbol, Integer> chunkOf = new HashMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            for (Item it : chunks.get(c)) {
                for (ISymbol d : it.defines) {
                    chunkOf.put(d, c);
                }
            }
        }
        boolean inFields = scratch == null && chunks.size() >= FIELD_CHUNKS
                && !Boolean.getBoolean(ARRAY_WORKSPACE_PROPERTY);
        List<Set<ISymbol>> imports = new ArrayList<>();
        Map<ISymbol, Integer> lastImport = new HashMap<>();
        Map<ISymbol, Integer> firstImported = new HashMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            Set<ISymbol> in = new LinkedHashSet<>();
            for (Item it : chunks.get(c)) {
                for (ISymbol u : it.uses) {
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
            workspaceFields = Math.max(workspaceFields, Math.min(used, FIELD_SLOTS));
            workspaceArray = Math.max(workspaceArray, used - FIELD_SLOTS);
        } else {
            workspaceArray = Math.max(workspaceArray, used);
        }
        java.util.function.IntFunction<String> slotText = k -> scratch != null ? scratch + "[" + (scratchFrom + k) + "]"
                : inFields && k < FIELD_SLOTS ? workspaceField(k) : "w[" + (inFields ? k - FIELD_SLOTS : k) + "]";
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
            for (Item it : chunks.get(c)) {
                for (ISymbol u : it.uses) {
                    Integer defined = chunkOf.get(u);
                    if (defined != null && defined < c && rereads.containsKey(u)) {
                        reread.add(u);
                    }
                }
            }
            Body body = new Body(m);
            for (Item it : chunks.get(c)) {
                for (ISymbol u : it.uses) {
                    if (pending.remove(u)) {
                        body.line("final double " + u.getSymbolName() + " = " + slotText.apply(slot.get(u)));
                    } else if (reread.remove(u)) {
                        body.line("final double " + u.getSymbolName() + " = " + rereads.get(u));
                    }
                }
                body.add(it);
                for (ISymbol d : it.defines) {
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
