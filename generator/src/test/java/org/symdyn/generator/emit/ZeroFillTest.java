package org.symdyn.generator.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.squareup.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import org.junit.jupiter.api.Test;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;

/**
 * When the zero entries of an output array are written by one loop ({@link ZeroFill}) and when they stay stores: only
 * an array the method writes whole, once per entry, with enough zeros, in a large method, and never one it reads.
 * The generated classes' values are checked with every output prefilled with NaN (GeneratedVsGenericTest,
 * GeneratedDerivativesTest: romeo_small's H and solo12's ∂τ and Coriolis matrix take the loop).
 */
class ZeroFillTest {
    private static final int N = 600;

    /** N entries of {@code name}, every other one zero from index {@code zerosFrom} on. */
    private static List<MethodEmitter.Output> entries(String name, IExpr[] values, int zerosFrom) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (int k = 0; k < N; k++) {
            out.add(new MethodEmitter.Output(name + "[" + k + "]", k >= zerosFrom && k % 2 == 0 ? F.C0 : values[k]));
        }
        return out;
    }

    private static Set<MethodEmitter.Output> filled(List<MethodEmitter.Output> outputs, Set<String> read,
            List<Statement> fills) {
        return ZeroFill.apply(outputs, read, o -> o.value().isZero(), fills);
    }

    @Test
    void anArrayWrittenWholeWithEnoughZerosIsFilledOnce() {
        IExpr[] x = new ExpressionGraph().inputs(Kind.Q, N);
        List<MethodEmitter.Output> outputs = entries("a.data", x, 0);
        List<Statement> fills = new ArrayList<>();
        Set<MethodEmitter.Output> zeros = filled(outputs, Set.of(), fills);
        assertEquals(N / 2, zeros.size());
        assertTrue(N / 2 >= ZeroFill.MIN_ZEROS, "the test's arrays have enough zeros");
        assertTrue(zeros.stream().allMatch(o -> o.value().isZero()));
        assertEquals(1, fills.size());
        String code = fills.get(0).block().toString();
        assertTrue(code.contains("for (int z$ = 0; z$ < " + N + "; z$++)") && code.contains("a.data[z$] = 0.0;"), code);
    }

    @Test
    void otherArraysKeepTheirStores() {
        IExpr[] x = new ExpressionGraph().inputs(Kind.Q, N);
        List<Statement> fills = new ArrayList<>();
        // too few zeros
        assertTrue(filled(entries("a", x, N - 2 * ZeroFill.MIN_ZEROS + 2), Set.of(), fills).isEmpty());
        // a gap: entry 7 not written
        List<MethodEmitter.Output> gap = entries("a", x, 0);
        gap.remove(7);
        assertTrue(filled(gap, Set.of(), fills).isEmpty());
        // an entry written twice
        List<MethodEmitter.Output> twice = entries("a", x, 0);
        twice.set(5, twice.get(6));
        assertTrue(filled(twice, Set.of(), fills).isEmpty());
        // an array the method reads
        assertTrue(filled(entries("a", x, 0), Set.of("a"), fills).isEmpty());
        assertTrue(fills.isEmpty());
        // enough zeros exactly: filled
        assertEquals(ZeroFill.MIN_ZEROS, filled(entries("a", x, N - 2 * ZeroFill.MIN_ZEROS), Set.of(), fills).size());
    }

    /** The emitted methods' text, all chunks. */
    private static String emit(ExpressionGraph g, List<MethodEmitter.Output> outputs) {
        MethodSpec spec = MethodSpec.methodBuilder("m").addModifiers(Modifier.PUBLIC).build();
        return new MethodEmitter(g).emit(spec, outputs).methods().stream().map(MethodSpec::toString)
                .collect(Collectors.joining("\n"));
    }

    @Test
    void onlyALargeMethodTakesTheLoop() {
        ExpressionGraph g = new ExpressionGraph();
        IExpr[] q = g.inputs(Kind.Q, N);
        // small: each nonzero entry one product
        IExpr[] small = new IExpr[N];
        for (int k = 0; k < N; k++) {
            small[k] = g.mul(q[k], q[(k + 1) % N]);
        }
        String text = emit(g, entries("out", small, 0));
        assertFalse(text.contains("z$"), "a small method keeps its stores");
        assertEquals(N / 2, count(text, "] = 0.0;"));
        // large: each nonzero entry a long sum of products
        IExpr[] large = new IExpr[N];
        for (int k = 0; k < N; k++) {
            IExpr[] terms = new IExpr[40];
            for (int t = 0; t < terms.length; t++) {
                terms[t] = g.mul(q[(k + t) % N], q[(3 * k + 7 * t + 1) % N]);
            }
            large[k] = g.sum(terms);
        }
        text = emit(g, entries("out", large, 0));
        assertEquals(1, count(text, "for (int z$ = 0; z$ < " + N + "; z$++)"), text.substring(0, 2000));
        assertEquals(1, count(text, "] = 0.0;"), "only the loop's own store of zero");
        assertTrue(text.indexOf("z$ < " + N) < text.indexOf("out[1] = "), "the loop comes before the stores");
        // read by the method: stores again
        List<MethodEmitter.Output> readBack = entries("q", large, 0);
        text = emit(g, readBack);
        assertFalse(text.contains("z$"), "an array the method reads is never filled");
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
