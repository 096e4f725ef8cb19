package org.symdyn.generator;

import static org.symdyn.generator.Outputs.concat;
import static org.symdyn.generator.Outputs.vector;

import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import java.util.List;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.symbolic.SymbolicConstrainedSystem;

/**
 * The methods of {@link org.symdyn.contract.ConstrainedSystemFactorization} ({@link SymbolicConstrainedSystem}):
 * the factorisation of the saddle-point system [H Gᵀ; G 0] of the model's rows into the instance's
 * {@code factors} and {@code pivots}, returning the pivot ratio, and the solve from them. Emitted over the run-time
 * H and G, their structural zeros and constants folded.
 */
final class ConstrainedSystemMethods {
    private ConstrainedSystemMethods() {
    }

    /**
     * Emits the factorisation and the solve, and adds the fields they keep.
     *
     * @return {@link SystemFactorization#SINGULAR} (nothing emitted) if a pivot is identically zero: the system is
     *         singular in every state; else {@link SystemFactorization#EMITTED}
     */
    static SystemFactorization emit(SymbolicConstrainedSystem system, IExpr[][] h, IExpr[][] jac, int nv,
            ClassMethods methods, List<FieldSpec> fields) {
        int rows = jac.length;
        SymbolicConstrainedSystem.Factorization f = system.factor(h, jac);
        if (f == null) {
            return SystemFactorization.SINGULAR;
        }
        fields.add(ClassSkeleton.scratch("factors", f.stored().size()));
        fields.add(ClassSkeleton.scratch("pivots", f.pivots().length));
        MethodSpec factor = ArgumentChecks.method("factorConstrainedSystem", Arg.matrixIn("H", nv, nv),
                Arg.matrixIn("G", rows, nv)).toBuilder().returns(double.class).build();
        List<MethodSpec> factorMethods = methods.emitted(GeneratedMethod.CONSTRAINED_SYSTEM_FACTORISATION, factor,
                concat(vector("factors", f.stored().toArray(new IExpr[0])), vector("pivots", f.pivots())),
                MethodEmitter.Order.FIRST_USE);
        factorMethods.set(0, factorMethods.get(0).toBuilder().addStatement("return $T.pivotRatio(pivots, $L, $L)",
                org.symdyn.contract.ConstrainedSystemFactorization.class, nv, rows).build());
        methods.list().addAll(factorMethods);
        IExpr[][] xy = system.solve(f);
        methods.emit(GeneratedMethod.CONSTRAINED_SYSTEM_SOLVE, ArgumentChecks.method("solveConstrainedSystem",
                Arg.in("a", nv), Arg.in("b", rows), Arg.out("x", nv), Arg.out("y", rows)),
                concat(vector("x", xy[0]), vector("y", xy[1])));
        return SystemFactorization.EMITTED;
    }
}
