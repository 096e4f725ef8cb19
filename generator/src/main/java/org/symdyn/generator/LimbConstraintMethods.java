package org.symdyn.generator;

import static org.symdyn.generator.Outputs.concat;
import static org.symdyn.generator.Outputs.vector;

import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import java.util.List;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.contract.LimbConstrainedDynamics;
import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.symbolic.SymbolicArticulatedBody;

/**
 * The methods of {@link LimbConstrainedDynamics} ({@link SymbolicArticulatedBody#limbConstrainedDynamics} and
 * {@link SymbolicArticulatedBody#limbImpulse}): v̇ and λ, or v⁺ and Λ, with each limb's rows eliminated inside the
 * limb, their factorisations' pivot ratios into the instance's {@code limbPivots} and {@code limbImpulsePivots} and
 * their smallest returned; each K_c pivot and each row's whole diagonal entry of G H⁻¹ Gᵀ into {@code limbRowPivots}
 * and {@code limbRowEntries} for {@code lastLimbRankRatio}.
 */
final class LimbConstraintMethods {
    private LimbConstraintMethods() {
    }

    /** True if every row of {@code jac} is carried by a limb of a floating base ({@link SymbolicArticulatedBody#rowLimbs}). */
    static boolean applies(SymbolicArticulatedBody aba, IExpr[][] jac) {
        return jac.length > 0 && aba.rowLimbs(jac) != null;
    }

    /** Emits the methods and adds the fields they fill; only where {@link #applies}. */
    static void emit(SymbolicArticulatedBody aba, IExpr[][] jac, IExpr[] gamma, int nq, int nv, ClassMethods methods,
            List<FieldSpec> fields) {
        int m = jac.length;
        SymbolicArticulatedBody.LimbConstrainedParts parts = aba.limbConstrainedDynamics(jac, gamma);
        fields.add(ClassSkeleton.scratch("limbPivots", parts.pivotRatios().length));
        // Both methods factorise the same K_c at q: one pair of arrays for the rank test of the last call of either.
        fields.add(ClassSkeleton.scratch("limbRowPivots", parts.rowPivots().length));
        fields.add(ClassSkeleton.scratch("limbRowEntries", parts.rowEntries().length));
        MethodSpec spec = ArgumentChecks.method("limbConstrainedDynamics", Arg.in("q", nq), Arg.in("v", nv),
                Arg.in("tau", nv), Arg.in("b", m), Arg.out("vdot", nv), Arg.out("lambda", m)).toBuilder().returns(double.class)
                .build();
        List<MethodSpec> emitted = methods.emitted(GeneratedMethod.LIMB_CONSTRAINED_DYNAMICS, spec,
                concat(vector("vdot", parts.vdot()), vector("lambda", parts.lambda()),
                        vector("limbPivots", parts.pivotRatios()), vector("limbRowPivots", parts.rowPivots()),
                        vector("limbRowEntries", parts.rowEntries())), MethodEmitter.Order.FIRST_USE);
        emitted.set(0, emitted.get(0).toBuilder().addStatement("return $T.smallestRatio(limbPivots, q)",
                LimbConstrainedDynamics.class).build());
        methods.list().addAll(emitted);
        SymbolicArticulatedBody.LimbConstrainedParts impulse = aba.limbImpulse(jac);
        fields.add(ClassSkeleton.scratch("limbImpulsePivots", impulse.pivotRatios().length));
        MethodSpec impulseSpec = ArgumentChecks.method("limbImpulse", Arg.in("q", nq), Arg.in("v", nv),
                Arg.in("b", m), Arg.out("vPlus", nv), Arg.out("impulse", m)).toBuilder().returns(double.class)
                .build();
        List<MethodSpec> impulseMethods = methods.emitted(GeneratedMethod.LIMB_IMPULSE, impulseSpec,
                concat(vector("vPlus", impulse.vdot()), vector("impulse", impulse.lambda()),
                        vector("limbImpulsePivots", impulse.pivotRatios()),
                        vector("limbRowPivots", impulse.rowPivots()),
                        vector("limbRowEntries", impulse.rowEntries())), MethodEmitter.Order.FIRST_USE);
        impulseMethods.set(0, impulseMethods.get(0).toBuilder().addStatement("return $T.smallestRatio("
                + "limbImpulsePivots, q)", LimbConstrainedDynamics.class).build());
        methods.list().addAll(impulseMethods);
        methods.list().add(MethodSpec.methodBuilder("lastLimbRankRatio").addAnnotation(Override.class)
                .addModifiers(javax.lang.model.element.Modifier.PUBLIC).returns(double.class)
                .addStatement("return $T.rankRatio(limbRowPivots, limbRowEntries)", LimbConstrainedDynamics.class)
                .build());
    }
}
