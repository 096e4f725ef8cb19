package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.StateScope;

/**
 * Fills the workspaces of the constrained system at a state (RBDL's CalcConstrainedSystemVariables): H(q), C(q, v),
 * G(q) and the stabilised γ(q, v) for forward dynamics, H(q) and G(q) for an impulse. When the bound dynamics are
 * the model's {@link ModelFunctions} themselves, one fused call gives H, C and the model rows' G and γ (and φ, φ̇
 * when a model group is stabilised), so a generated class shares its sines, cosines and kinematics between them;
 * the rows added in code follow. The interpreter ({@link StateScope}) is told that the calls of one evaluation share
 * a state, so that its kinematics are computed once for H, C and every group's Jacobian and J̇ v.
 */
final class SystemEvaluation {
    private final Dynamics dynamics;
    /** The dynamics as the model's fused functions, or null. */
    private final ModelFunctions fused;
    /** The kinematics when they can share work within one evaluation (the interpreter); else null. */
    private final StateScope interpreter;
    private final BoundRows rows;
    private final BaumgarteStabilisation stabilisation;
    private final DMatrixRMaj h;
    private final double[] c;
    private final DMatrixRMaj g;
    private final double[] gamma;

    SystemEvaluation(Dynamics dynamics, ModelFunctions fused, StateScope interpreter, BoundRows rows,
            BaumgarteStabilisation stabilisation, DMatrixRMaj h, double[] c, DMatrixRMaj g, double[] gamma) {
        this.dynamics = dynamics;
        this.fused = fused;
        this.interpreter = interpreter;
        this.rows = rows;
        this.stabilisation = stabilisation;
        this.h = h;
        this.c = c;
        this.g = g;
        this.gamma = gamma;
    }

    /** H, C, G and stabilised γ at (q, v) into the workspaces. */
    void computeSystem(double[] q, double[] v) {
        // The interpreter recomputes its kinematics (sines and cosines included) in every call unless told that the
        // calls of one evaluation share a state: H, C and each row group's Jacobian and J̇v then reuse one pass.
        if (interpreter != null) {
            interpreter.enterState();
        }
        try {
            evaluateSystem(q, v);
        } finally {
            if (interpreter != null) {
                interpreter.exitState();
            }
        }
    }

    private void evaluateSystem(double[] q, double[] v) {
        if (fused != null) {
            if (stabilisation.anyEnabledBelow(rows.modelGroups)) {
                fused.constrainedSystem(q, v, h, c, rows.gModel, rows.gammaModel, rows.phiModel, rows.phidotModel);
                rows.copyModelErrors();
            } else {
                fused.constrainedSystem(q, v, h, c, rows.gModel, rows.gammaModel);
            }
            rows.copyModelRows(rows.gModel, g);
            if (rows.gammaModel != gamma) {
                System.arraycopy(rows.gammaModel, 0, gamma, 0, rows.modelRows);
            }
            rows.codeJacobian(q, g);
            rows.codeGamma(q, v, gamma);
            rows.stabilise(gamma);
            return;
        }
        dynamics.massMatrix(q, h);
        dynamics.biasForces(q, v, c);
        rows.jacobian(q, g);
        rows.gamma(q, v, gamma);
    }

    /** H and G at q into the workspaces. */
    void computeImpulseSystem(double[] q) {
        if (interpreter != null) {
            interpreter.enterState();
        }
        try {
            if (fused != null) {
                fused.impulseSystem(q, h, rows.gModel);
                rows.copyModelRows(rows.gModel, g);
                rows.codeJacobian(q, g);
                return;
            }
            dynamics.massMatrix(q, h);
            rows.jacobian(q, g);
        } finally {
            if (interpreter != null) {
                interpreter.exitState();
            }
        }
    }
}
