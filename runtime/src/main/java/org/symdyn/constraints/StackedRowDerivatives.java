package org.symdyn.constraints;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.ConstraintDerivatives;
import org.symdyn.dynamics.MotionDerivatives;

/**
 * The rows' part of the derivatives of constrained forward dynamics, stacked in the set's row order: ∂a/∂q and
 * ∂a/∂v (m x nv) of the rows' acceleration a = G v̇ - γ₀ at fixed v̇ (γ₀ = -Ġ v), with the Baumgarte terms of the
 * stabilised groups (there a = G v̇ - γ₀ + 2α φ̇ + β² φ, so ∂a/∂q gains 2α ∂φ̇/∂q + β² ∂φ/∂q and ∂a/∂v gains 2α G),
 * and ∂(Gᵀ λ)/∂q (nv x nv) at fixed λ. The model's rows come from the bound functions' own
 * {@link ConstraintDerivatives} when they implement it, every other row from its provider's
 * {@link ConstraintRowDerivatives} on {@link MotionDerivatives}. Every workspace is allocated here.
 */
final class StackedRowDerivatives {
    private final BoundRows rows;
    private final BaumgarteStabilisation stabilisation;
    /** The stacked G of the last system evaluation, which the 2α G term reads. */
    private final DMatrixRMaj g;
    /** The bound functions' own row derivatives (model rows), or null; and their outputs when code rows follow. */
    private final ConstraintDerivatives ownDerivatives;
    private final double[] lambdaModel;
    private final DMatrixRMaj dAdqModel;
    private final DMatrixRMaj dAdvModel;
    private final DMatrixRMaj dPhiModel;
    private final DMatrixRMaj dPhidotModel;
    private final DMatrixRMaj dForceModel;
    /** ∂φ/∂q and ∂φ̇/∂q of stabilised groups. */
    private final DMatrixRMaj dPhiDq;
    private final DMatrixRMaj dPhidotDq;

    StackedRowDerivatives(BoundRows rows, BaumgarteStabilisation stabilisation, DMatrixRMaj g) {
        this.rows = rows;
        this.stabilisation = stabilisation;
        this.g = g;
        int nv = rows.nv;
        int m = rows.m;
        dPhiDq = new DMatrixRMaj(m, nv);
        dPhidotDq = new DMatrixRMaj(m, nv);
        ownDerivatives = rows.modelRows > 0 && rows.functions instanceof ConstraintDerivatives d ? d : null;
        int own = ownDerivatives == null ? 0 : rows.modelRows;
        lambdaModel = new double[own];
        dAdqModel = new DMatrixRMaj(own, nv);
        dAdvModel = new DMatrixRMaj(own, nv);
        dPhiModel = new DMatrixRMaj(own, nv);
        dPhidotModel = new DMatrixRMaj(own, nv);
        dForceModel = new DMatrixRMaj(ownDerivatives == null ? 0 : nv, nv);
    }

    /** See {@link ConstraintData#rowDerivatives}. */
    void rowDerivatives(double[] q, double[] v, double[] vdot, double[] lambda, MotionDerivatives motion,
            DMatrixRMaj dForceDq, DMatrixRMaj dAccelerationDq, DMatrixRMaj dAccelerationDv) {
        int nv = rows.nv;
        int m = rows.m;
        int modelRows = rows.modelRows;
        Arguments.checkLength(lambda, m, "lambda");
        Arguments.checkShape(dForceDq, nv, nv, "dForceDq");
        Arguments.checkShape(dAccelerationDq, m, nv, "dAccelerationDq");
        Arguments.checkShape(dAccelerationDv, m, nv, "dAccelerationDv");
        boolean providers = needsMotionDerivatives();
        if (providers && (motion == null || motion.nv() != nv)) {
            throw new IllegalArgumentException("the rows need motion derivatives of this model (nv " + nv + "), got "
                    + (motion == null ? "none" : "nv " + motion.nv()));
        }
        if (ownDerivatives != null) {
            System.arraycopy(lambda, 0, lambdaModel, 0, modelRows);
            ownDerivatives.constraintAccelerationDerivatives(q, v, vdot, dAdqModel, dAdvModel);
            System.arraycopy(dAdqModel.data, 0, dAccelerationDq.data, 0, modelRows * nv);
            System.arraycopy(dAdvModel.data, 0, dAccelerationDv.data, 0, modelRows * nv);
            if (stabilisation.anyEnabledBelow(rows.modelGroups)) {
                ownDerivatives.constraintErrorDerivatives(q, v, dPhiModel, dPhidotModel);
                System.arraycopy(dPhiModel.data, 0, dPhiDq.data, 0, modelRows * nv);
                System.arraycopy(dPhidotModel.data, 0, dPhidotDq.data, 0, modelRows * nv);
            }
        }
        if (providers) {
            motion.clearWrenches();
        }
        boolean[] baumgarte = stabilisation.enabled;
        double[] alpha = stabilisation.alpha;
        double[] beta = stabilisation.beta;
        for (ConstraintGroup group : rows.groups) {
            int i = group.index();
            int r0 = group.rowOffset();
            boolean own = ownDerivatives != null && group.isModelConstraint();
            if (!own) {
                ConstraintRowDerivatives d = differentiable(group);
                d.accelerationDerivatives(motion, dAccelerationDq, dAccelerationDv, r0);
                d.addWrenches(motion, lambda, r0);
                if (baumgarte[i]) {
                    d.errorDerivatives(motion, dPhiDq, dPhidotDq, r0);
                }
            }
            if (baumgarte[i]) {
                double a2 = 2 * alpha[i];
                double b2 = beta[i] * beta[i];
                for (int r = r0, end = r0 + group.size(); r < end; r++) {
                    for (int k = r * nv, e = k + nv; k < e; k++) {
                        dAccelerationDq.data[k] += a2 * dPhidotDq.data[k] + b2 * dPhiDq.data[k];
                        dAccelerationDv.data[k] += a2 * g.data[k];
                    }
                }
            }
        }
        if (providers) {
            motion.wrenchDerivative(dForceDq);
        } else {
            Arrays.fill(dForceDq.data, 0, nv * nv, 0);
        }
        if (ownDerivatives != null) {
            ownDerivatives.constraintForceDerivative(q, lambdaModel, dForceModel);
            for (int k = 0; k < nv * nv; k++) {
                dForceDq.data[k] += dForceModel.data[k];
            }
        }
    }

    /** See {@link ConstraintData#needsMotionDerivatives}. */
    boolean needsMotionDerivatives() {
        return rows.groups.length > (ownDerivatives != null ? rows.modelGroups : 0);
    }

    /** See {@link ConstraintData#checkRowDerivatives}. */
    void checkRowDerivatives() {
        for (ConstraintGroup group : rows.groups) {
            if (ownDerivatives == null || !group.isModelConstraint()) {
                differentiable(group);
            }
        }
    }

    private ConstraintRowDerivatives differentiable(ConstraintGroup group) {
        ConstraintRows p = rows.providers[group.index()];
        if (p == null) {
            throw new UnsupportedOperationException("constraint '" + group.name() + "': the model's rows were bound"
                    + " without the Model or without Kinematics, so they have no row provider to differentiate;"
                    + " bind a set built from the Model (ConstraintSet.of(model)) with the kinematics");
        }
        if (!(p instanceof ConstraintRowDerivatives d)) {
            throw new UnsupportedOperationException("constraint '" + group.name() + "' (" + p.type() + ", "
                    + p.getClass().getSimpleName() + ") does not provide derivatives: contacts, loops and couplers"
                    + " do (ConstraintRowDerivatives)");
        }
        return d;
    }
}
