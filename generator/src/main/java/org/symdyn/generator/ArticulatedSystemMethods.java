package org.symdyn.generator;

import static org.symdyn.generator.Outputs.concat;
import static org.symdyn.generator.Outputs.matrix;
import static org.symdyn.generator.Outputs.vector;

import com.squareup.javapoet.FieldSpec;
import java.util.List;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.KeptValues;
import org.symdyn.generator.symbolic.SymbolicArticulatedBody;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;

/**
 * The methods of {@link org.symdyn.contract.ArticulatedConstraintSystem}
 * ({@link SymbolicArticulatedBody#constrainedSystem}): the recursive constrained system of the model's rows without
 * H (v̇₀, G, γ and K = G H⁻¹ Gᵀ in one evaluation, keeping the articulated quantities in the instance's
 * {@code articulated} array), and the response H⁻¹ Gᵀ λ from them.
 */
final class ArticulatedSystemMethods {
    private ArticulatedSystemMethods() {
    }

    /** Emits both methods and adds the field they share. */
    static void emit(SymbolicArticulatedBody aba, ExpressionGraph g, IExpr[][] jac, IExpr[] gamma, int nq, int nv,
            ClassMethods methods, List<FieldSpec> fields) {
        int m = jac.length;
        KeptValues kept = new KeptValues(g, Kind.ARTICULATED);
        SymbolicArticulatedBody.ConstrainedParts parts = aba.constrainedSystem(jac, kept);
        List<IExpr> stored = kept.values();
        IExpr[][] k = new IExpr[m][m];
        for (int r = 0; r < m; r++) {
            System.arraycopy(parts.k(), r * m, k[r], 0, m);
        }
        fields.add(ClassSkeleton.scratch("articulated", Math.max(1, stored.size())));
        methods.emit(GeneratedMethod.ARTICULATED_CONSTRAINT_SYSTEM, ArgumentChecks.method(
                "articulatedConstraintSystem", Arg.in("q", nq), Arg.in("v", nv), Arg.in("tau", nv),
                Arg.out("vdot0", nv), Arg.matrix("G", m, nv), Arg.out("gamma", m), Arg.matrix("K", m, m)),
                concat(vector("vdot0", parts.vdot0()), matrix("G", jac), vector("gamma", gamma), matrix("K", k),
                        vector("articulated", stored.toArray(new IExpr[0]))));
        methods.emit(GeneratedMethod.ARTICULATED_RESPONSE, ArgumentChecks.method("articulatedResponse",
                Arg.in("lambda", m), Arg.out("dv", nv)), vector("dv", parts.response()));
    }
}
