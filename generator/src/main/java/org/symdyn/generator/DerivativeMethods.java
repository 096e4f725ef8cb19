package org.symdyn.generator;

import static org.symdyn.generator.Outputs.concat;
import static org.symdyn.generator.Outputs.matrix;
import static org.symdyn.generator.Outputs.vector;

import com.squareup.javapoet.ClassName;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.MethodSpec;
import java.util.List;
import javax.lang.model.element.Modifier;
import org.ejml.data.DMatrixRMaj;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.dynamics.RangeSpaceFactorization;
import org.symdyn.generator.ArgumentChecks.Arg;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.generator.symbolic.SymbolicDerivatives;
import org.symdyn.model.Model;

/**
 * The methods of {@link org.symdyn.contract.DynamicsDerivatives} ({@link SymbolicDerivatives}) and of
 * {@link org.symdyn.contract.ConstraintDerivatives}, generated with the derivatives option.
 */
final class DerivativeMethods {
    private DerivativeMethods() {
    }

    /**
     * Past this {@link CodeGenerator#derivativesWork}, ∂v̇ and H⁻¹ are solved at run time ({@link #emitSolved})
     * instead of unrolled. The unrolled solves grow as nv times the work of one (nv x Σ path lengths, this measure)
     * and are scalar code; the run-time sweeps are the same multiply-adds a row at a time, which the JIT vectorises.
     * Measured (JMH {@code DerivativesBenchmark}, pinned, ns per call of forwardDynamicsDerivatives): solo12
     * floating (2,106) unrolled 5,919 ± 225, solved 7,508 ± 2,042 (one run each, load 1.2-1.6); romeo_small
     * floating (12,358) unrolled 54,205 ± 5,526 after a 10 s warm-up on a quiet machine, solved 24,422 ± 6,592
     * (load 1.2-1.8). The bound lies between the two sizes; where exactly was not measured. With the gathered row
     * sweeps (plain loops, pinned, one JVM): solo12 solved 5,660-5,780 ns, unrolled 5,390-5,440, so it stays unrolled.
     */
    static final long SOLVED_FORWARD_DERIVATIVES_WORK = 5_000;

    /** True when {@code model}'s ∂v̇ and H⁻¹ are solved at run time ({@link #SOLVED_FORWARD_DERIVATIVES_WORK}). */
    static boolean solvedForwardDerivatives(Model model) {
        return CodeGenerator.derivativesWork(model) > SOLVED_FORWARD_DERIVATIVES_WORK;
    }

    /**
     * ∂τ/∂q and ∂τ/∂v; ∂v̇/∂q, ∂v̇/∂v and H⁻¹ through the forward dynamics' factorisation of the generated H (unrolled,
     * or solved at run time past {@link #SOLVED_FORWARD_DERIVATIVES_WORK}); H⁻¹ alone; the Coriolis matrix; the
     * regressor and the inertial parameters. Each derived just before it is emitted.
     */
    static void emitDynamics(Model model, SymbolicDerivatives d, IExpr[][] h, IExpr[] c, ClassMethods methods,
            List<FieldSpec> fields, PhaseClock clock) {
        int nv = model.nv();
        int cols = org.symdyn.contract.DynamicsDerivatives.PARAMETERS_PER_BODY * model.bodyCount();
        Arg q = Arg.in("q", model.nq());
        Arg v = Arg.in("v", nv);
        Arg vdot = Arg.in("vdot", nv);
        IExpr[][][] id = d.inverseDynamicsDerivatives();
        clock.lap("inverse_dynamics_derivatives");
        methods.emit(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES, ArgumentChecks.method("inverseDynamicsDerivatives",
                q, v, vdot, Arg.matrix("dtauDq", nv, nv), Arg.matrix("dtauDv", nv, nv)),
                concat(matrix("dtauDq", id[0]), matrix("dtauDv", id[1])), inverseDerivativesOrder(model));
        clock.lap("inverse_dynamics_derivatives_emission");
        MethodSpec fdSpec = ArgumentChecks.method("forwardDynamicsDerivatives", q, v, Arg.in("tau", nv),
                Arg.matrix("dvdotDq", nv, nv), Arg.matrix("dvdotDv", nv, nv), Arg.matrix("dvdotDtau", nv, nv));
        MethodSpec minvSpec = ArgumentChecks.method("inverseMassMatrix", q, Arg.matrix("Minv", nv, nv));
        if (solvedForwardDerivatives(model)) {
            emitSolved(model, fdSpec, minvSpec, methods, fields);
            clock.lap("forward_dynamics_derivatives");
        } else {
            IExpr[][][] fd = d.forwardDynamicsDerivatives(h, c);
            clock.lap("forward_dynamics_derivatives");
            methods.emit(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES, fdSpec, concat(matrix("dvdotDq", fd[0]),
                    matrix("dvdotDv", fd[1]), matrix("dvdotDtau", fd[2])));
            clock.lap("forward_dynamics_derivatives_emission");
            methods.emit(GeneratedMethod.INVERSE_MASS_MATRIX, minvSpec, matrix("Minv", d.inverseMassMatrix(h)));
            clock.lap("inverse_mass_matrix");
        }
        methods.emit(GeneratedMethod.CORIOLIS_MATRIX, ArgumentChecks.method("coriolisMatrix", q, v,
                Arg.matrix("coriolis", nv, nv)), matrix("coriolis", d.coriolisMatrix()));
        clock.lap("coriolis_matrix");
        IExpr[][] y = d.regressor();
        methods.emit(GeneratedMethod.REGRESSOR, ArgumentChecks.method("regressor", q, v, vdot,
                Arg.matrix("Y", nv, cols)), matrix("Y", y));
        IExpr[] pi = d.inertialParameters();
        methods.emit(GeneratedMethod.INERTIAL_PARAMETERS, ArgumentChecks.method("inertialParameters",
                Arg.out("pi", cols)), vector("pi", pi));
        IExpr[][] dpiDp = d.inertialParameterJacobian(pi);
        int np = model.parameters().size();
        methods.emit(GeneratedMethod.INERTIAL_PARAMETER_JACOBIAN, ArgumentChecks.method("inertialParameterJacobian",
                Arg.matrix("dpiDp", cols, np)), matrix("dpiDp", dpiDp));
        methods.emit(GeneratedMethod.PARAMETER_REGRESSOR, ArgumentChecks.method("parameterRegressor", q, v, vdot,
                Arg.matrix("Yp", nv, np)), matrix("Yp", d.parameterRegressor(y, dpiDp)));
        clock.lap("regressor");
    }

    /**
     * The statement order of inverseDynamicsDerivatives: {@link MethodEmitter.Order#CREATION} (the root pass body by
     * body, then the pairs) where ∂v̇ is solved at run time ({@link #SOLVED_FORWARD_DERIVATIVES_WORK}), first use
     * elsewhere. Measured (plain loops, pinned, one JVM, the two classes alternated, best of 16 rounds, ns per call of
     * ∂τ / of ∂v̇): romeo_small floating 7,125 / 21,146 first use, 6,755 / 20,735 in creation order (0.95 / 0.98); a
     * 25-link revolute chain 8,058 / 22,659 and 7,532 / 22,248 (0.93 / 0.98). On the smaller models it does not pay:
     * iiwa14 476 / 951 and 464 / 992 (its unrolled ∂v̇ in creation order too), solo12 1,857 / 5,173 and 1,876 / 5,263,
     * hyq 1,903 and 1,965, anymal 1,916 and 1,922, panda 591 and 578 for ∂τ.
     */
    static MethodEmitter.Order inverseDerivativesOrder(Model model) {
        return solvedForwardDerivatives(model) ? MethodEmitter.Order.CREATION : MethodEmitter.Order.FIRST_USE;
    }

    /**
     * forwardDynamicsDerivatives and inverseMassMatrix of a large model from the class's own methods and the runtime's
     * tree factor ({@link RangeSpaceFactorization}): H = massMatrix(q) factorised as Lᵀ L on the dof tree;
     * v̇ = H⁻¹ (τ − biasForces(q, v)) by that factor (the class's forward dynamics is the same H⁻¹ (τ − C) through
     * its own factorisation of H: romeo_small's bias forces and the solve cost about half of its forward dynamics,
     * whose H would be formed a second time); ∂τ/∂q and ∂τ/∂v at that v̇ into the outputs
     * (inverseDynamicsDerivatives); then ∂v̇/∂(q, v) = −H⁻¹ ∂τ/∂(q, v) and H⁻¹ in one set of row sweeps
     * ({@link RangeSpaceFactorization#solveSquareBlocks}); inverseMassMatrix by
     * {@link RangeSpaceFactorization#inverse}. No symbolic work: the methods called are generated already.
     */
    private static void emitSolved(Model model, MethodSpec fdSpec, MethodSpec minvSpec, ClassMethods methods,
            List<FieldSpec> fields) {
        int nv = model.nv();
        ClassName factor = ClassName.get(RangeSpaceFactorization.class);
        fields.add(FieldSpec.builder(factor, "derivativesFactor", Modifier.PRIVATE, Modifier.FINAL)
                .initializer("new $T(dofParents(), $L)", factor, 3 * nv).build());
        fields.add(FieldSpec.builder(DMatrixRMaj.class, "derivativesH", Modifier.PRIVATE, Modifier.FINAL)
                .initializer("new $T($L, $L)", DMatrixRMaj.class, nv, nv).build());
        fields.add(ClassSkeleton.scratch("derivativesVdot", nv));
        // U = L⁻¹ of RangeSpaceFactorization.inverse: its entries off the tree's pattern stay zero from here on.
        fields.add(ClassSkeleton.scratch("derivativesU", nv * nv));
        methods.list().add(fdSpec.toBuilder()
                .addJavadoc("Solved at run time: massMatrix and its tree factor, v̇ = H⁻¹ (τ − biasForces) by that "
                        + "factor, inverseDynamicsDerivatives at v̇, and the factor's row sweeps.\n")
                .addStatement("massMatrix(q, derivativesH)")
                .addStatement("derivativesFactor.factor(derivativesH)")
                .addStatement("biasForces(q, v, derivativesVdot)")
                .beginControlFlow("for (int i = 0; i < $L; i++)", nv)
                .addStatement("derivativesVdot[i] = tau[i] - derivativesVdot[i]")
                .endControlFlow()
                .addStatement("derivativesFactor.solve(derivativesVdot)")
                .addStatement("inverseDynamicsDerivatives(q, v, derivativesVdot, dvdotDq, dvdotDv)")
                .addStatement("derivativesFactor.solveSquareBlocks(dvdotDq.data, dvdotDv.data, -1.0, dvdotDtau.data)")
                .build());
        methods.list().add(minvSpec.toBuilder()
                .addJavadoc("Solved at run time: massMatrix, the tree factor of H and its inverse.\n")
                .addStatement("massMatrix(q, derivativesH)")
                .addStatement("derivativesFactor.factor(derivativesH)")
                .addStatement("derivativesFactor.inverse(Minv.data, derivativesU)").build());
    }

    /**
     * The counts of {@link #emitSolved}'s two methods: the generated methods they call (bias forces and ∂τ must have
     * been emitted) and the loops' multiply-adds.
     */
    static void countSolved(Model model, ClassMethods methods) {
        int nv = model.nv();
        int[] lambda = model.dofParents();
        long ancestors = 0;
        long factor = 0;
        for (int k = 0; k < nv; k++) {
            long a = GenerationForms.ancestors(lambda, k);
            ancestors += a;
            factor += a * (a + 1) / 2;
        }
        // the inverse: for each pair j <= i, the common ancestors of j (at most all of j's), and its diagonal's
        long inverse = (long) nv * (ancestors + nv);
        OperationCounts counts = methods.counts();
        OperationCount h = counts.get(GeneratedMethod.MASS_MATRIX);
        methods.count(GeneratedMethod.INVERSE_MASS_MATRIX, h.plus(count(factor + inverse, factor + inverse)));
        // one sweep each way over rows of 3 nv columns, a scaling per row and step, and the scaling by -1; v̇'s
        // solve (two sweeps of one column and a scaling per dof each way) and τ − C
        long sweeps = 2L * 3 * nv * ancestors;
        long vdot = 2L * ancestors + 2L * nv;
        methods.count(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES, counts.get(GeneratedMethod.BIAS_FORCES)
                .plus(counts.get(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES)).plus(h)
                .plus(count(factor + sweeps + 2L * 3 * nv * nv + 2L * nv * nv + vdot,
                        factor + sweeps + 2L * ancestors + nv)));
    }

    private static OperationCount count(long mul, long add) {
        return new OperationCount((int) mul, (int) add, 0);
    }

    /**
     * The rows' derivatives ({@link org.symdyn.generator.symbolic.SymbolicConstraints#derivatives}): ∂a/∂q and
     * ∂a/∂v of the rows' acceleration, ∂(Gᵀ λ)/∂q, and ∂φ/∂q, ∂φ̇/∂q.
     */
    static void emitConstraints(IExpr[][][] d, int nq, int nv, int rows, ClassMethods methods) {
        Arg q = Arg.in("q", nq);
        Arg v = Arg.in("v", nv);
        methods.emit(GeneratedMethod.CONSTRAINT_ACCELERATION_DERIVATIVES, ArgumentChecks.method(
                "constraintAccelerationDerivatives", q, v, Arg.in("vdot", nv), Arg.matrix("dAdq", rows, nv),
                Arg.matrix("dAdv", rows, nv)), concat(matrix("dAdq", d[0]), matrix("dAdv", d[1])));
        methods.emit(GeneratedMethod.CONSTRAINT_FORCE_DERIVATIVE, ArgumentChecks.method("constraintForceDerivative",
                q, Arg.in("lambda", rows), Arg.matrix("dForceDq", nv, nv)), matrix("dForceDq", d[4]));
        methods.emit(GeneratedMethod.CONSTRAINT_ERROR_DERIVATIVES, ArgumentChecks.method(
                "constraintErrorDerivatives", q, v, Arg.matrix("dPhiDq", rows, nv), Arg.matrix("dPhidotDq", rows, nv)),
                concat(matrix("dPhiDq", d[2]), matrix("dPhidotDq", d[3])));
    }
}
