package org.symdyn.generator;

import static org.symdyn.generator.Outputs.concat;
import static org.symdyn.generator.Outputs.matrix;
import static org.symdyn.generator.Outputs.vector;

import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.ArgumentChecks.Arg;
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
     * ∂τ/∂q and ∂τ/∂v; ∂v̇/∂q, ∂v̇/∂v and H⁻¹ through the forward dynamics' factorisation of the generated H; H⁻¹
     * alone; the Coriolis matrix; the regressor and the inertial parameters. Each derived just before it is emitted.
     */
    static void emitDynamics(Model model, SymbolicDerivatives d, IExpr[][] h, IExpr[] c, ClassMethods methods,
            PhaseClock clock) {
        int nv = model.nv();
        int cols = org.symdyn.contract.DynamicsDerivatives.PARAMETERS_PER_BODY * model.bodyCount();
        Arg q = Arg.in("q", model.nq());
        Arg v = Arg.in("v", nv);
        Arg vdot = Arg.in("vdot", nv);
        IExpr[][][] id = d.inverseDynamicsDerivatives();
        clock.lap("inverse_dynamics_derivatives");
        methods.emit(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES, ArgumentChecks.method("inverseDynamicsDerivatives",
                q, v, vdot, Arg.matrix("dtauDq", nv, nv), Arg.matrix("dtauDv", nv, nv)),
                concat(matrix("dtauDq", id[0]), matrix("dtauDv", id[1])));
        clock.lap("inverse_dynamics_derivatives_emission");
        IExpr[][][] fd = d.forwardDynamicsDerivatives(h, c);
        clock.lap("forward_dynamics_derivatives");
        methods.emit(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES, ArgumentChecks.method("forwardDynamicsDerivatives",
                q, v, Arg.in("tau", nv), Arg.matrix("dvdotDq", nv, nv), Arg.matrix("dvdotDv", nv, nv),
                Arg.matrix("dvdotDtau", nv, nv)), concat(matrix("dvdotDq", fd[0]), matrix("dvdotDv", fd[1]),
                matrix("dvdotDtau", fd[2])));
        clock.lap("forward_dynamics_derivatives_emission");
        methods.emit(GeneratedMethod.INVERSE_MASS_MATRIX, ArgumentChecks.method("inverseMassMatrix", q,
                Arg.matrix("Minv", nv, nv)), matrix("Minv", d.inverseMassMatrix(h)));
        clock.lap("inverse_mass_matrix");
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
