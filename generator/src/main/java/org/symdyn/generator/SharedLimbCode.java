package org.symdyn.generator;

import com.squareup.javapoet.ArrayTypeName;
import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.ParameterSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import javax.lang.model.element.Modifier;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicArticulatedBody;
import org.symdyn.generator.symbolic.SymbolicInput;
import org.symdyn.generator.symbolic.SymbolicLimbs;
import org.symdyn.generator.symbolic.SymbolicRecursions;
import org.symdyn.model.Model;

/**
 * The code twin limbs share ({@link SymbolicLimbs}) in the inverse dynamics (C, g, τ; {@link #emit}) and, on request,
 * the forward dynamics ({@link #emitForward}): one private method per limb shape, {@code name$limbK(double[] s,
 * double[] k)}, called once per limb with the limb's scratch array {@code s} (an instance field per limb, shared by
 * every quantity) and its numbers {@code k} (a static table per limb), and the calls the public method makes in the
 * limbs' place.
 *
 * <p>In the inverse dynamics a limb's scratch array holds, in order: the parent's velocity and acceleration (12), the
 * limb's q, v and v̇ (n each), the results (the force on the parent, 6, then τ, n), then the workspace of the shared
 * method's chunks.
 * Twins share a method only if their emitted code is the same text; a twin whose code differs (a mirrored axis, a
 * zero in one twin only) is unrolled in its caller, like a limb without a twin.
 */
final class SharedLimbCode {
    /**
     * Fewest chunks of the unrolled method for which its twin limbs are called instead: only code several times the
     * instruction cache gains. Measured ({@code InterleavedAB --compare limbs}, 2 copies a side, 40 rounds; B = calls
     * over A = unrolled, chunks of the unrolled method in brackets): romeo_small C (30) 0.900, τ (31) 0.912, g (12)
     * 0.926 but with A's copies 1.15 apart (+6 % in a single-copy run), FD (65) 0.995; hyq C (12) 1.232, g (5)
     * 1.780, τ (13) 1.287, FD (25) 1.046; solo12 C (11) 1.254, g (5) 1.328, τ (12) 1.189, FD (24) 1.070. Small
     * limbs pay a call, their scratch traffic and their own chunks for little less code; forward dynamics, two calls
     * per limb, gains nothing even on romeo_small, so it calls shared code only on request.
     */
    static final int MIN_CHUNKS = 20;
    private static final int PARENT = 12;
    /** Entries of a forward-dynamics limb's scratch array before its joints': the parent's v, ā and δa. */
    private static final int FORWARD_PARENT = 18;

    private final Model model;
    private final ExpressionGraph g;
    private final boolean inlineSinCos;
    private final List<List<Integer>> twins;
    /** Scratch length each limb needs, over every quantity emitted so far. */
    private final Map<Integer, Integer> scratchLength = new TreeMap<>();
    /** Each constants table emitted, by name. */
    private final Map<String, double[]> tables = new LinkedHashMap<>();
    private final StaticTables tableMethods = new StaticTables(Integer.MAX_VALUE);

    SharedLimbCode(Model model, ExpressionGraph g, boolean inlineSinCos) {
        this.model = model;
        this.g = g;
        this.inlineSinCos = inlineSinCos;
        this.twins = SymbolicLimbs.twins(model);
    }

    /** True if the model has twin limbs at all. */
    boolean any() {
        return !twins.isEmpty();
    }

    /**
     * The shared methods of {@code quantity}, named {@code name$limb0}, {@code name$limb1}, ... (added to
     * {@code methods}), and the calls that replace the limbs in the main derivation.
     *
     * @param calls receives, per limb root body, the call that computes the limb
     * @return the operations of the calls (each call counts its method's operations)
     */
    OperationCount emit(SymbolicLimbs.Quantity quantity, String name, List<MethodSpec> methods,
            Map<Integer, SymbolicRecursions.LimbCall> calls, IntFunction<IExpr[]> parentMotion) {
        return share(name, methods, parentMotion, (root, zero, method) -> emitLimb(quantity, root, zero, method),
                (root, e, method, table) -> calls.put(root, call(root, e, method, table)));
    }

    /** One limb's code, emitted under a method name: what twins compare and what their calls need. */
    private interface LimbCode {
        ExpressionGraph graph();

        List<MethodSpec> methods();

        /** The methods' text, which twins compare. */
        String text();

        OperationCount ops();

        int scratchLength();
    }

    /** Emits one limb's code whose parent's motion has the given zeros. */
    private interface LimbEmitter<E extends LimbCode> {
        E emit(int root, boolean[] zeroParent, String method);
    }

    /** Makes the calls of a limb that shares the method {@code method}, its numbers in {@code table}. */
    private interface LimbCaller<E extends LimbCode> {
        void call(int root, E code, String method, String table);
    }

    /**
     * For each group of twins: every twin's code, then one method for each text at least two twins share (named
     * {@code name$limb0}, {@code name$limb1}, ... and added to {@code methods}), called by those twins.
     *
     * @param parentState per limb root, what its parent passes (for their zeros)
     * @return the operations of the calls (each call counts its method's operations)
     */
    private <E extends LimbCode> OperationCount share(String name, List<MethodSpec> methods,
            IntFunction<IExpr[]> parentState, LimbEmitter<E> emitter, LimbCaller<E> caller) {
        OperationCount ops = OperationCount.ZERO;
        int shapes = 0;
        for (List<Integer> group : twins) {
            Map<String, List<Integer>> byText = new LinkedHashMap<>();
            Map<Integer, E> emitted = new HashMap<>();
            Map<Integer, boolean[]> zeros = new HashMap<>();
            for (int root : group) {
                IExpr[] state = parentState.apply(root);
                boolean[] zero = new boolean[state.length];
                for (int k = 0; k < state.length; k++) {
                    zero[k] = state[k].isZero();
                }
                zeros.put(root, zero);
                E e;
                try {
                    e = emitter.emit(root, zero, name + "$limb");
                } catch (SymbolicLimbs.NotALimb notALimb) {
                    continue; // unrolled in its caller, like a twin whose code differs
                }
                emitted.put(root, e);
                byText.computeIfAbsent(e.text(), t -> new ArrayList<>()).add(root);
            }
            for (List<Integer> same : byText.values()) {
                if (same.size() < 2) {
                    continue;
                }
                String method = name + "$limb" + shapes++;
                E first = emitter.emit(same.get(0), zeros.get(same.get(0)), method);
                methods.addAll(first.methods());
                for (int root : same) {
                    E e = emitted.get(root);
                    scratchLength.merge(root, e.scratchLength(), Math::max);
                    caller.call(root, e, method, table(root, e.graph().constantValues()));
                    ops = ops.plus(first.ops());
                }
            }
        }
        return ops;
    }

    /**
     * The shared forward dynamics: per limb shape two methods, {@code name$limbKa} (the passes to the root) and
     * {@code name$limbKb} (the last pass), and the calls that replace the limbs in the main derivation.
     *
     * <p>Their scratch array holds: the parent's velocity, ā and δa (18); the limb's q, v and τ (n each); the first
     * method's results (the articulated inertia's 21 entries and the bias force, 6); the values it leaves for the
     * second (U, D⁻¹ and û of each joint, then two entries per joint for its sine and cosine, written where the
     * second reads them); the second's results (q̈, n);
     * then the two methods' workspace.
     *
     * @param parentState per body, its parent's velocity, ā and δa in the unrolled derivation (for their zeros)
     * @return the operations of the calls
     */
    OperationCount emitForward(String name, List<MethodSpec> methods,
            Map<Integer, SymbolicArticulatedBody.LimbCalls> calls, IntFunction<IExpr[]> parentState) {
        return share(name, methods, parentState, this::emitForwardLimb,
                (root, e, method, table) -> calls.put(root, forwardCall(root, e, method, table)));
    }

    /** One limb's forward dynamics emitted: both methods, their text and the scratch layout. */
    private record ForwardEmitted(ExpressionGraph graph, int n, List<MethodSpec> methods, String text,
            OperationCount ops, int scratchLength, Set<SymbolicInput> readsA, Set<SymbolicInput> readsB,
            int resultsA, int resultsB) implements LimbCode {
    }

    private ForwardEmitted emitForwardLimb(int root, boolean[] zeroParent, String method) {
        SymbolicLimbs.ForwardLimb limb = SymbolicLimbs.deriveForward(model, root, zeroParent);
        ExpressionGraph lg = limb.graph();
        int n = limb.model().nv();
        int qAt = FORWARD_PARENT;
        int resultsA = qAt + 3 * n;
        int keptAt = resultsA + 27;
        int trigAt = keptAt + limb.kept().size();
        int resultsB = trigAt + 2 * n;
        int workspace = resultsB + n;
        Set<SymbolicInput> readsB = reads(lg, limb.accelerate());
        MethodEmitter first = MethodEmitter.forScratch(lg, inlineSinCos, in -> text(in, qAt, n), "s", workspace);
        List<MethodEmitter.Output> outA = new ArrayList<>();
        for (int k = 0; k < 27; k++) {
            outA.add(new MethodEmitter.Output("s[" + (resultsA + k) + "]", limb.articulate()[k]));
        }
        for (int k = 0; k < limb.kept().size(); k++) {
            outA.add(new MethodEmitter.Output("s[" + (keptAt + k) + "]", limb.kept().get(k)));
        }
        for (SymbolicInput in : readsB) {
            if (in.kind() == SymbolicInput.Kind.SIN_Q || in.kind() == SymbolicInput.Kind.COS_Q) {
                outA.add(new MethodEmitter.Output("s[" + trigSlot(trigAt, in) + "]", lg.input(in.kind(),
                        in.index())));
            }
        }
        MethodEmitter second = MethodEmitter.forScratch(lg, inlineSinCos, in -> switch (in.kind()) {
            case SIN_Q, COS_Q -> "s[" + trigSlot(trigAt, in) + "]";
            case LIMB_STATE -> "s[" + (keptAt + in.index()) + "]";
            default -> text(in, qAt, n);
        }, "s", workspace);
        List<MethodEmitter.Output> outB = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            outB.add(new MethodEmitter.Output("s[" + (resultsB + k) + "]", limb.accelerate()[k]));
        }
        MethodEmitter.Emitted a = first.emit(spec(method + "a", "The passes to the root of one limb's forward "
                + "dynamics ({@code SymbolicLimbs}): its articulated inertia and bias force as its parent receives "
                + "them, and what the last pass needs, into {@code s}; {@code k} holds the limb's numbers.\n"), outA);
        MethodEmitter.Emitted b = second.emit(spec(method + "b", "The last pass of one limb's forward dynamics "
                + "({@code SymbolicLimbs}): q̈ of its joints into {@code s}, from its parent's δa and what the first "
                + "pass left there.\n"), outB);
        List<MethodSpec> methods = new ArrayList<>(a.methods());
        methods.addAll(b.methods());
        StringBuilder text = new StringBuilder();
        for (MethodSpec m : methods) {
            text.append(m);
        }
        return new ForwardEmitted(lg, n, methods, text.toString(), a.operations().plus(b.operations()),
                workspace + Math.max(first.scratchSlots(), second.scratchSlots()), reads(lg, outA), readsB, resultsA,
                resultsB);
    }

    /**
     * The entry of a limb's scratch array that holds input {@code in}, or -1: the parent's motion from 0, the joints'
     * q, v and third input (v̇, or τ in the forward dynamics) from {@code joints}, n each.
     */
    private static int slot(SymbolicInput in, int joints, int n) {
        return switch (in.kind()) {
            case PARENT_MOTION -> in.index();
            case Q -> joints + in.index();
            case V -> joints + n + in.index();
            case VDOT, TAU -> joints + 2 * n + in.index();
            default -> -1;
        };
    }

    /**
     * The Java text of an input in a limb's code: its scratch entry ({@link #slot}), a constant of {@code k}, or null
     * for a sine or cosine, computed from its angle.
     */
    private static String text(SymbolicInput in, int joints, int n) {
        return switch (in.kind()) {
            case CONSTANT -> "k[" + in.index() + "]";
            case SIN_Q, COS_Q -> null;
            default -> {
                int slot = slot(in, joints, n);
                if (slot < 0) {
                    throw new IllegalStateException("a limb's code does not read " + in);
                }
                yield "s[" + slot + "]";
            }
        };
    }

    /**
     * A call's arguments, by scratch entry: for each input the limb's code {@code reads}, its value in the main graph.
     * A sine or cosine read through its angle passes the joint's q; one read from the scratch array
     * ({@code anglesForTrig} false: the last pass of the forward dynamics) passes nothing, and neither does a constant
     * or a value the first pass left.
     *
     * @param parent the parent's motion, by entry
     * @param third  v̇, or τ in the forward dynamics, of the whole model
     */
    private Map<Integer, IExpr> args(Set<SymbolicInput> reads, int root, int joints, int n, boolean anglesForTrig,
            IntFunction<IExpr> parent, IExpr[] v, IExpr[] third) {
        int[][] index = SymbolicLimbs.indices(model, root);
        Map<Integer, IExpr> args = new TreeMap<>();
        for (SymbolicInput in : reads) {
            int k = in.index();
            switch (in.kind()) {
                case PARENT_MOTION -> args.put(k, parent.apply(k));
                case SIN_Q, COS_Q -> {
                    if (anglesForTrig) {
                        args.put(joints + k, g.input(SymbolicInput.Kind.Q, index[0][k]));
                    }
                }
                case Q -> args.put(joints + k, g.input(SymbolicInput.Kind.Q, index[0][k]));
                case V -> args.put(slot(in, joints, n), v[index[1][k]]);
                case VDOT, TAU -> args.put(slot(in, joints, n), third[index[1][k]]);
                case CONSTANT, LIMB_STATE -> {
                }
                default -> throw new IllegalStateException("a limb's code does not read " + in);
            }
        }
        return args;
    }

    private static int trigSlot(int trigAt, SymbolicInput in) {
        return trigAt + 2 * in.index() + (in.kind() == SymbolicInput.Kind.COS_Q ? 1 : 0);
    }

    private static MethodSpec spec(String name, String javadoc) {
        return MethodSpec.methodBuilder(name).addModifiers(Modifier.PRIVATE).addJavadoc(javadoc)
                .addParameter(ParameterSpec.builder(double[].class, "s").build())
                .addParameter(ParameterSpec.builder(double[].class, "k").build()).build();
    }

    private static Set<SymbolicInput> reads(ExpressionGraph lg, List<MethodEmitter.Output> outputs) {
        IExpr[] values = new IExpr[outputs.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = outputs.get(k).value();
        }
        return reads(lg, values);
    }

    /** The calls of limb {@code root}'s shared forward dynamics. */
    private SymbolicArticulatedBody.LimbCalls forwardCall(int root, ForwardEmitted e, String method, String table) {
        int n = e.n;
        return new SymbolicArticulatedBody.LimbCalls() {
            private IExpr[] articulated;

            @Override
            public IExpr[] articulate(IExpr[] vp, IExpr[] abarP, IExpr[] v, IExpr[] tau) {
                Map<Integer, IExpr> args = args(e.readsA, root, FORWARD_PARENT, n, true,
                        k -> k < 6 ? vp[k] : abarP[k - 6], v, tau);
                articulated = g.call(site(method + "a", root, table, args, e.resultsA, new IExpr[0]), 27);
                return articulated;
            }

            @Override
            public IExpr[] accelerate(IExpr[] deltaAParent) {
                // A prismatic joint's transform reads its q in the last pass too: written again, though the first
                // call did.
                Map<Integer, IExpr> args = args(e.readsB, root, FORWARD_PARENT, n, false, k -> deltaAParent[k - 12],
                        g.inputs(SymbolicInput.Kind.V, model.nv()), g.inputs(SymbolicInput.Kind.TAU, model.nv()));
                // After the first call, whose values it reads from the scratch array, even where the caller uses
                // none of that call's results (a limb hanging from the fixed world).
                return g.call(site(method + "b", root, table, args, e.resultsB, articulated), n);
            }
        };
    }

    private static ExpressionGraph.CallSite site(String method, int root, String table, Map<Integer, IExpr> args,
            int resultSlot, IExpr[] after) {
        return new ExpressionGraph.CallSite(method, scratch(root), table,
                args.keySet().stream().mapToInt(Integer::intValue).toArray(), args.values().toArray(new IExpr[0]),
                resultSlot, after);
    }

    /**
     * The fields the calls use: each limb's scratch array and each constants table. The tables are filled by
     * static methods ({@link StaticTables}, sliced form, in {@link #tableMethods}): as array literals, a humanoid's
     * (71 dof with hands) took 11,103 bytes of class initialiser, over the JIT's limit.
     */
    List<FieldSpec> fields() {
        List<FieldSpec> out = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : scratchLength.entrySet()) {
            out.add(ClassSkeleton.scratch(scratch(e.getKey()), e.getValue()));
        }
        for (Map.Entry<String, double[]> t : tables.entrySet()) {
            List<CodeBlock> elements = new ArrayList<>();
            for (double x : t.getValue()) {
                elements.add(CodeBlock.of("$L", Double.toString(x)));
            }
            out.add(tableMethods.table(ArrayTypeName.of(double.class), t.getKey(), elements));
        }
        return out;
    }

    /** The static methods that fill the constants tables (after {@link #fields}). */
    List<MethodSpec> tableMethods() {
        return tableMethods.methods();
    }

    private static String scratch(int root) {
        return "limb$" + root;
    }

    /** The name of a table with these values for this limb: an existing one if the values are the same. */
    private String table(int root, double[] values) {
        for (int k = 0;; k++) {
            String name = "LIMB$" + root + (k == 0 ? "" : "$" + k);
            double[] known = tables.putIfAbsent(name, values);
            if (known == null || java.util.Arrays.equals(known, values)) {
                return name;
            }
        }
    }

    /** One limb's code emitted under a method name, with its text (which twins compare) and its scratch layout. */
    private record Emitted(ExpressionGraph graph, int n, List<MethodSpec> methods, String text, OperationCount ops,
            int scratchLength, Set<SymbolicInput> reads) implements LimbCode {
    }

    private Emitted emitLimb(SymbolicLimbs.Quantity quantity, int root, boolean[] zeroParent, String method) {
        SymbolicLimbs.Limb limb = SymbolicLimbs.derive(model, root, quantity, zeroParent);
        int n = limb.model().nv();
        int results = PARENT + 3 * n;
        int workspace = results + 6 + n;
        MethodEmitter emitter = MethodEmitter.forScratch(limb.graph(), inlineSinCos, in -> text(in, PARENT, n), "s",
                workspace);
        MethodSpec spec = spec(method, quantity + " of one limb ({@code SymbolicLimbs}): reads the parent's motion "
                + "and the limb's joints from {@code s}, writes the force on the parent and τ there; {@code k} holds "
                + "the limb's numbers.\n");
        List<MethodEmitter.Output> outputs = new ArrayList<>();
        for (int k = 0; k < limb.outputs().length; k++) {
            outputs.add(new MethodEmitter.Output("s[" + (results + k) + "]", limb.outputs()[k]));
        }
        MethodEmitter.Emitted e = emitter.emit(spec, outputs);
        StringBuilder text = new StringBuilder();
        for (MethodSpec m : e.methods()) {
            text.append(m);
        }
        return new Emitted(limb.graph(), n, e.methods(), text.toString(), e.operations(),
                workspace + emitter.scratchSlots(), reads(limb.graph(), limb.outputs()));
    }

    /** The inputs the outputs reach. */
    private static Set<SymbolicInput> reads(ExpressionGraph lg, IExpr[] outputs) {
        Set<ISymbol> reached = new java.util.LinkedHashSet<>();
        for (IExpr o : outputs) {
            lg.reach(o, reached);
        }
        Set<SymbolicInput> out = new java.util.LinkedHashSet<>();
        for (ISymbol s : reached) {
            if (lg.isInput(s)) {
                out.add(lg.inputOf(s));
            }
        }
        return out;
    }

    /** The call of limb {@code root}'s shared code: its arguments are values of the main graph. */
    private SymbolicRecursions.LimbCall call(int root, Emitted e, String method, String table) {
        int n = e.n;
        return (vp, ap, v, vdot) -> g.call(site(method, root, table, args(e.reads, root, PARENT, n, true,
                k -> k < 6 ? vp[k] : ap[k - 6], v, vdot), PARENT + 3 * n, new IExpr[0]), 6 + n);
    }
}
