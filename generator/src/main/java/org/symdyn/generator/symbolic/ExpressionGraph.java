package org.symdyn.generator.symbolic;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.eval.ExprEvaluator;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.matheclipse.core.interfaces.ISymbol;

/**
 * The values a symbolic derivation computes with: Symja expressions over typed inputs ({@link SymbolicInput}: joint
 * positions, their sines and cosines, velocities, ...) and temporaries. Every operation builds its result with Symja's {@code F.*}
 * API and lets Symja evaluate it (exact rational folding, canonical ordering, x - x = 0); a result that is not
 * <i>atomic</i> (a number, a symbol, or a number times a symbol) is bound to a temporary symbol, and an identical
 * result met again gets the same temporary (hash-consing). The derivation therefore builds a graph of small
 * definitions, never a growing tree: incremental common-subexpression elimination (ARCHITECTURE.md, "Data flow",
 * step 3).
 *
 * <p>Model numbers enter as exact rationals of their shortest decimal form ({@link #constant(double)}), so that
 * terms such as c + (1 - c)·1 cancel exactly.
 *
 * <p>Not thread-safe: Symja's evaluator must not be shared between threads, so each thread builds its own graph.
 */
public final class ExpressionGraph {
    /**
     * Head of the piecewise-constant sign of an edge pair (Simbody's normal-sense rule): {@code edgeSense(a, b)} is
     * sgn⁺(a) when |a| > |b| and -sgn⁺(b) otherwise, with sgn⁺(x) = 1 for x ≥ 0 and -1 below. Its derivative is 0.
     */
    public static final ISymbol EDGE_SENSE = F.Dummy("edgeSense");

    private final ExprEvaluator evaluator = new ExprEvaluator(true, (short) 0);
    private final List<ISymbol> temporaries = new ArrayList<>();
    private final Map<ISymbol, IExpr> definitions = new HashMap<>();
    private final Map<ISymbol, Integer> creationIndex = new HashMap<>();
    private final Map<IExpr, ISymbol> interned = new HashMap<>();
    private final Map<ISymbol, SymbolicInput> inputs = new LinkedHashMap<>();
    private final Map<SymbolicInput, ISymbol> inputSymbols = new HashMap<>();
    /** With {@link #withConstantsAsInputs}: model numbers other than 0 and ±1 are inputs. */
    private final boolean constantsAsInputs;
    private final List<Double> constantValues = new ArrayList<>();
    private final Map<ISymbol, CallSite> calls = new HashMap<>();
    private final Map<ISymbol, Integer> callSlots = new HashMap<>();

    /** A graph whose model constants are exact numbers, folded wherever they meet. */
    public ExpressionGraph() {
        this.constantsAsInputs = false;
    }

    private ExpressionGraph(boolean constantsAsInputs) {
        this.constantsAsInputs = constantsAsInputs;
    }

    /**
     * A graph for code that several limbs share ({@link SymbolicLimbs}): a model number other than 0, 1 and -1 is an
     * input ({@link SymbolicInput.Kind#CONSTANT}, a new one each time {@link #constant} is asked, numbered in that
     * order) whose value each call passes, so that twin limbs whose numbers differ (a mirrored offset) derive the same
     * graph. One input per request, not per distinct value: a value one twin happens to repeat (a centre of mass
     * equal to an offset) would otherwise give it another graph than its twin's; the derivation asks once for each
     * number it reuses (a mass, an axis), so the operation count is the same (romeo_small's limbs: equal to the
     * value-keyed form's). 0 and ±1 stay numbers, so structural zeros and axis-aligned rotations fold as in the
     * ordinary graph.
     */
    public static ExpressionGraph withConstantsAsInputs() {
        return new ExpressionGraph(true);
    }

    /** The value of each {@link SymbolicInput.Kind#CONSTANT} input, by index (empty for an ordinary graph). */
    public double[] constantValues() {
        return constantValues.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * A call of a limb's shared code: the method that computes the limb, the values it is given and how many it
     * returns.
     *
     * @param method    the generated method's name
     * @param scratch   the instance array the call's arguments, results and the method's workspace live in
     * @param constants the static array of the limb's {@link SymbolicInput.Kind#CONSTANT} values
     * @param argSlots  the entry of {@code scratch} each argument is written to
     * @param args      the arguments, values of this graph
     * @param resultSlot the entry of {@code scratch} holding the first result
     * @param after     results of calls that must be made before this one (a limb's first forward-dynamics pass
     *                  leaves values in the scratch array for its last), though it reads none of them
     */
    public record CallSite(String method, String scratch, String constants, int[] argSlots, IExpr[] args,
            int resultSlot, IExpr[] after) {
        /** The values the call depends on: its arguments, then the results of the calls it comes after. */
        public List<IExpr> dependencies() {
            List<IExpr> out = new ArrayList<>(List.of(args));
            out.addAll(List.of(after));
            return out;
        }
    }

    /**
     * The results of {@code site}, {@code count} inputs of kind {@link SymbolicInput.Kind#CALL}: whoever emits a
     * value that uses one makes the call first ({@link #callOf}).
     */
    public IExpr[] call(CallSite site, int count) {
        IExpr[] out = new IExpr[count];
        int first = calls.size();
        for (int k = 0; k < count; k++) {
            ISymbol s = input(SymbolicInput.Kind.CALL, first + k);
            calls.put(s, site);
            callSlots.put(s, site.resultSlot() + k);
            out[k] = s;
        }
        return out;
    }

    /** The entry of its call's scratch array that holds the call result {@code input}. */
    public int callSlot(ISymbol input) {
        return callSlots.get(input);
    }

    /** The call whose result {@code input} is (an input of kind {@link SymbolicInput.Kind#CALL}), or null. */
    public CallSite callOf(ISymbol input) {
        return calls.get(input);
    }

    /**
     * The symbol of an input of the generated code (see {@link SymbolicInput}). Asking again for the same input
     * returns the same symbol.
     */
    public ISymbol input(SymbolicInput.Kind kind, int index) {
        SymbolicInput in = new SymbolicInput(kind, index);
        ISymbol existing = inputSymbols.get(in);
        if (existing != null) {
            return existing;
        }
        ISymbol s = F.Dummy(in.symbolName());
        inputs.put(s, in);
        inputSymbols.put(in, s);
        return s;
    }

    /** The symbols of entries 0..n-1 of one input array. */
    public IExpr[] inputs(SymbolicInput.Kind kind, int n) {
        IExpr[] out = new IExpr[n];
        for (int k = 0; k < n; k++) {
            out[k] = input(kind, k);
        }
        return out;
    }

    /** True if {@code e} is an input symbol. */
    public boolean isInput(IExpr e) {
        return e.isSymbol() && inputs.containsKey((ISymbol) e);
    }

    /** True if {@code e} is a temporary symbol. */
    public boolean isTemporary(IExpr e) {
        return e.isSymbol() && definitions.containsKey((ISymbol) e);
    }

    /** What an input symbol stands for. */
    public SymbolicInput inputOf(ISymbol input) {
        return inputs.get(input);
    }

    /** The definition of a temporary. */
    public IExpr definition(ISymbol temporary) {
        return definitions.get(temporary);
    }

    /** Temporaries in creation order (a topological order: a definition uses only earlier temporaries). */
    public List<ISymbol> temporaries() {
        return temporaries;
    }

    /** The position of a temporary in {@link #temporaries()}. */
    public int creationIndex(ISymbol temporary) {
        return creationIndex.get(temporary);
    }

    /** Number of temporaries so far. */
    public int size() {
        return temporaries.size();
    }

    // ------------------------------------------------------------------ constants

    /** The exact rational of the shortest decimal that reads back as {@code x} (0.1 is 1/10). */
    public IExpr constant(double x) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("model constant is not finite: " + x);
        }
        if (x == 0) {
            return F.C0;
        }
        if (constantsAsInputs && Math.abs(x) != 1) {
            ISymbol site = input(SymbolicInput.Kind.CONSTANT, constantValues.size());
            constantValues.add(x);
            return site;
        }
        BigDecimal d = BigDecimal.valueOf(x).stripTrailingZeros();
        BigInteger num = d.unscaledValue();
        BigInteger den = BigInteger.ONE;
        if (d.scale() > 0) {
            den = BigInteger.TEN.pow(d.scale());
        } else if (d.scale() < 0) {
            num = num.multiply(BigInteger.TEN.pow(-d.scale()));
        }
        return F.fraction(num, den).normalize();
    }

    /** A small integer. */
    public IExpr integer(long n) {
        return F.ZZ(n);
    }

    // ------------------------------------------------------------------ operations

    /** a + b. */
    public IExpr add(IExpr a, IExpr b) {
        if (a.isZero()) {
            return b;
        }
        if (b.isZero()) {
            return a;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.plus(b);
        }
        return bind(F.Plus(a, b));
    }

    /** a - b. */
    public IExpr sub(IExpr a, IExpr b) {
        if (b.isZero()) {
            return a;
        }
        return add(a, neg(b));
    }

    /** -a. */
    public IExpr neg(IExpr a) {
        if (a.isZero()) {
            return a;
        }
        if (a.isNumber()) {
            return a.negate();
        }
        return bind(F.Times(F.CN1, a));
    }

    /** a · b. */
    public IExpr mul(IExpr a, IExpr b) {
        if (a.isZero() || b.isZero()) {
            return F.C0;
        }
        if (a.isOne()) {
            return b;
        }
        if (b.isOne()) {
            return a;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.times(b);
        }
        return bind(F.Times(a, b));
    }

    /** a / b; b must not be zero. */
    public IExpr div(IExpr a, IExpr b) {
        if (b.isZero()) {
            throw new ArithmeticException("symbolic division by zero");
        }
        if (a.isZero()) {
            return F.C0;
        }
        if (b.isOne()) {
            return a;
        }
        if (a.isNumber() && b.isNumber()) {
            return bind(F.Times(a, F.Power(b, F.CN1)));
        }
        IExpr inv = bind(F.Power(b, F.CN1));
        return mul(a, inv);
    }

    /** √a for a ≥ 0. */
    public IExpr sqrt(IExpr a) {
        return bind(F.Sqrt(a));
    }

    /** {@link #EDGE_SENSE}(a, b), ±1. */
    public IExpr edgeSense(IExpr a, IExpr b) {
        return bind(F.binaryAST2(EDGE_SENSE, a, b));
    }

    /** Σ terms, folded left to right. */
    public IExpr sum(IExpr... terms) {
        IExpr s = F.C0;
        for (IExpr t : terms) {
            s = add(s, t);
        }
        return s;
    }

    /** a·b + c·d + ... for pairs (a, b), (c, d), ... */
    public IExpr dot(IExpr[] a, IExpr[] b) {
        IExpr s = F.C0;
        for (int i = 0; i < a.length; i++) {
            s = add(s, mul(a[i], b[i]));
        }
        return s;
    }

    /**
     * Evaluates an expression built with {@code F.*} over atoms and binds the result if it is not atomic. Use it
     * for a small formula whose terms should cancel before anything is named (such as the entries of a
     * rotation matrix).
     */
    public IExpr bind(IExpr expression) {
        IExpr r = evaluator.eval(expression);
        if (isAtomic(r)) {
            return r;
        }
        if (leadsWithMinus(r)) {
            // Name the positive form and return -t: a product or sum and its negative share one temporary, and
            // the sign is absorbed where -t is used (a - t, -(t·x)) instead of costing a negation of its own.
            IExpr positive = evaluator.eval(F.Times(F.CN1, r));
            if (!isAtomic(positive) && !leadsWithMinus(positive)) {
                return F.Times(F.CN1, intern(positive));
            }
        }
        return intern(r);
    }

    /** A product with a negative numeric factor, or a sum whose first term (in Symja's order) is one. */
    private static boolean leadsWithMinus(IExpr e) {
        if (e.isPlus()) {
            return leadsWithMinus(e.getAt(1));
        }
        if (e.isNumber()) {
            return e.isNegative();
        }
        return e.isTimes() && e.getAt(1).isNumber() && e.getAt(1).isNegative();
    }

    private ISymbol intern(IExpr r) {
        ISymbol existing = interned.get(r);
        if (existing != null) {
            return existing;
        }
        ISymbol t = F.Dummy("t" + temporaries.size());
        creationIndex.put(t, temporaries.size());
        temporaries.add(t);
        definitions.put(t, r);
        interned.put(r, t);
        return t;
    }

    /** A number, a symbol, or a number times a symbol: values that need no temporary. */
    public static boolean isAtomic(IExpr e) {
        if (e.isNumber() || e.isSymbol()) {
            return true;
        }
        return e.isTimes() && e.argSize() == 2 && e.getAt(1).isNumber() && e.getAt(2).isSymbol();
    }

    /**
     * The value as one expression tree over the inputs (every temporary replaced by its definition), with inputs
     * renamed by {@code rename} (for example s3 to Sin(q3)). Trees grow quickly: meant for small models only.
     */
    public IExpr expand(IExpr e, Map<ISymbol, IExpr> rename) {
        return expand(e, rename, new HashMap<>());
    }

    private IExpr expand(IExpr e, Map<ISymbol, IExpr> rename, Map<ISymbol, IExpr> memo) {
        if (e.isSymbol()) {
            ISymbol s = (ISymbol) e;
            IExpr r = rename.get(s);
            if (r != null) {
                return r;
            }
            IExpr def = definitions.get(s);
            if (def == null) {
                return s;
            }
            IExpr known = memo.get(s);
            if (known == null) {
                known = expand(def, rename, memo);
                memo.put(s, known);
            }
            return known;
        }
        if (e.isAST()) {
            org.matheclipse.core.interfaces.IASTMutable copy = ((org.matheclipse.core.interfaces.IAST) e).copy();
            for (int i = 1; i <= e.argSize(); i++) {
                copy.set(i, expand(e.getAt(i), rename, memo));
            }
            return copy;
        }
        return e;
    }

    /**
     * Symja's Simplify (after TrigReduce) of {@code e} within {@code seconds}; {@code e} itself when the time runs
     * out or simplification fails.
     */
    public IExpr simplify(IExpr e, long seconds) {
        try {
            IExpr r = evaluator.eval(F.TimeConstrained(F.Simplify(F.TrigReduce(e)), F.ZZ(seconds)));
            return r == org.matheclipse.core.expression.S.$Aborted ? e : r;
        } catch (RuntimeException ex) {
            return e;
        }
    }

    /**
     * Adds to {@code out} every symbol {@code e} reaches through the temporaries' definitions and, from a call's
     * result, through the call's dependencies ({@link CallSite#dependencies}); iterative, since chains run thousands
     * deep.
     */
    public void reach(IExpr e, java.util.Set<ISymbol> out) {
        java.util.ArrayDeque<IExpr> pending = new java.util.ArrayDeque<>();
        pending.push(e);
        while (!pending.isEmpty()) {
            IExpr x = pending.pop();
            if (x.isSymbol()) {
                ISymbol s = (ISymbol) x;
                if (!out.add(s)) {
                    continue;
                }
                if (isTemporary(s)) {
                    pending.push(definition(s));
                } else if (calls.containsKey(s)) {
                    for (IExpr d : calls.get(s).dependencies()) {
                        pending.push(d);
                    }
                }
            } else if (x.isAST()) {
                for (int i = 1; i <= x.argSize(); i++) {
                    pending.push(x.getAt(i));
                }
            }
        }
    }

    /** All inputs with what they stand for, in creation order. */
    public Map<ISymbol, SymbolicInput> inputs() {
        return java.util.Collections.unmodifiableMap(inputs);
    }

    // ------------------------------------------------------------------ differentiation

    /**
     * A derivative direction: the derivative of each input that varies (inputs not in the map have derivative
     * 0), for example ∂/∂v_k (v_k ↦ 1) or the time derivative along q̇ with v̇ = 0 (sin q ↦ cos q · v, ...).
     * Derivatives of temporaries are memoised per direction.
     */
    public final class Direction {
        private final Map<ISymbol, IExpr> seeds;
        private final Map<ISymbol, IExpr> memo = new HashMap<>();

        Direction(Map<ISymbol, IExpr> seeds) {
            this.seeds = seeds;
        }

        /**
         * The derivative of a value: for a temporary t = f(a₁, ..., a_n), dt = Σ ∂f/∂a_i da_i, with ∂f/∂a_i from
         * Symja's D on the (small) definition: the chain rule through the graph.
         */
        public IExpr of(IExpr e) {
            if (e.isNumber()) {
                return F.C0;
            }
            if (e.isSymbol()) {
                ISymbol s = (ISymbol) e;
                if (!definitions.containsKey(s)) {
                    return seeds.getOrDefault(s, F.C0);
                }
                IExpr known = memo.get(s);
                if (known != null) {
                    return known;
                }
                IExpr def = definitions.get(s);
                IExpr d = def.head() == EDGE_SENSE ? F.C0 : ofDefinition(def);
                memo.put(s, d);
                return d;
            }
            return ofDefinition(e);
        }

        private IExpr ofDefinition(IExpr def) {
            List<ISymbol> atoms = new ArrayList<>();
            collectSymbols(def, atoms);
            IExpr total = F.C0;
            for (ISymbol a : atoms) {
                IExpr da = of(a);
                if (da.isZero()) {
                    continue;
                }
                IExpr partial = bind(F.D(def, a));
                total = add(total, mul(partial, da));
            }
            return total;
        }
    }

    /** A direction given by the derivative of each varying input. */
    public Direction direction(Map<ISymbol, IExpr> seeds) {
        return new Direction(new HashMap<>(seeds));
    }

    private static void collectSymbols(IExpr e, List<ISymbol> out) {
        if (e.isSymbol()) {
            if (!out.contains(e)) {
                out.add((ISymbol) e);
            }
            return;
        }
        if (e.isAST()) {
            for (int i = 1; i <= e.argSize(); i++) {
                collectSymbols(e.getAt(i), out);
            }
        }
    }
}
