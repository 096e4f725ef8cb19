package org.symdyn.generator;

import com.squareup.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;

/**
 * The methods of the class being generated, in class order, with the operation count of each counted one
 * ({@link GeneratedMethod}). All are emitted by one {@link MethodEmitter}, whose workspace the class holds.
 */
final class ClassMethods {
    private final MethodEmitter emitter;
    private final List<MethodSpec> methods = new ArrayList<>();
    private final Map<GeneratedMethod, OperationCount> counts = new EnumMap<>(GeneratedMethod.class);

    ClassMethods(MethodEmitter emitter) {
        this.emitter = emitter;
    }

    MethodEmitter emitter() {
        return emitter;
    }

    /** The methods so far, in class order; helpers that emit uncounted methods add theirs to it. */
    List<MethodSpec> list() {
        return methods;
    }

    /** The place the next method goes. */
    int end() {
        return methods.size();
    }

    /** Records the count of {@code method} (replacing an earlier one) without emitting it. */
    void count(GeneratedMethod method, OperationCount count) {
        counts.put(method, count);
    }

    /** The counts so far. */
    OperationCounts counts() {
        return new OperationCounts(counts);
    }

    /** Emits a public method at the end, states its operation count in its Javadoc and records it. */
    void emit(GeneratedMethod method, MethodSpec spec, List<MethodEmitter.Output> outputs) {
        emit(method, spec, outputs, MethodEmitter.Order.FIRST_USE);
    }

    /** {@link #emit} with its statements in the given order. */
    void emit(GeneratedMethod method, MethodSpec spec, List<MethodEmitter.Output> outputs, MethodEmitter.Order order) {
        methods.addAll(emitted(method, spec, outputs, order));
    }

    /**
     * {@link #emit} in the given statement order, the public method and its chunks returned instead of added: the
     * caller places them.
     */
    List<MethodSpec> emitted(GeneratedMethod method, MethodSpec spec, List<MethodEmitter.Output> outputs,
            MethodEmitter.Order order) {
        MethodEmitter.Emitted e = emitter.emit(spec, outputs, order);
        counts.put(method, e.operations());
        List<MethodSpec> ms = new ArrayList<>(e.methods());
        ms.set(0, ms.get(0).toBuilder().addJavadoc("$L: $L.\n", method.words(), e.operations()).build());
        return ms;
    }

    /**
     * {@link #emitted} for a method that calls shared limb code: its count includes the calls' operations
     * {@code callOps}, made in the shared code of {@code limbs} twin limbs.
     */
    List<MethodSpec> emittedWithCalls(GeneratedMethod method, MethodSpec spec, List<MethodEmitter.Output> outputs,
            OperationCount callOps, int limbs) {
        MethodEmitter.Emitted e = emitter.emit(spec, outputs);
        OperationCount total = e.operations().plus(callOps);
        counts.put(method, total);
        List<MethodSpec> ms = new ArrayList<>(e.methods());
        ms.set(0, ms.get(0).toBuilder().addJavadoc("$L: $L; $L flops of them in the shared code of $L twin limbs.\n",
                method.words(), total, callOps.flops(), limbs).build());
        return ms;
    }

    /** Puts {@code replacement} in the place of the methods from {@code from} (inclusive) to {@code to}. */
    void replace(int from, int to, List<MethodSpec> replacement) {
        methods.subList(from, to).clear();
        methods.addAll(from, replacement);
    }

    /** The fused evaluations of a large model at the cost of the separate calls they make. */
    void countSeparateCalls() {
        OperationCounts c = counts();
        counts.put(GeneratedMethod.CONSTRAINED_SYSTEM, c.sum(GeneratedMethod.MASS_MATRIX, GeneratedMethod.BIAS_FORCES,
                GeneratedMethod.CONSTRAINT_JACOBIAN, GeneratedMethod.GAMMA));
        counts.put(GeneratedMethod.CONSTRAINED_SYSTEM_WITH_ERRORS, c.sum(GeneratedMethod.MASS_MATRIX,
                GeneratedMethod.BIAS_FORCES, GeneratedMethod.CONSTRAINT_JACOBIAN, GeneratedMethod.GAMMA,
                GeneratedMethod.POSITION_ERROR, GeneratedMethod.VELOCITY_ERROR));
        counts.put(GeneratedMethod.IMPULSE_SYSTEM, c.sum(GeneratedMethod.MASS_MATRIX,
                GeneratedMethod.CONSTRAINT_JACOBIAN));
    }
}
