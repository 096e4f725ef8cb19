package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * The constraints of a model as functions of the state: position error φ(q), velocity error φ̇ = G(q) v (for
 * holonomic rows), Jacobian G(q) (rows x nv) and γ(q, v) = -Ġ v, so that the constrained accelerations satisfy
 * G v̇ = γ. Rows are stacked in the model's constraint order. Sign conventions follow RBDL: a loop's translational
 * error is the successor point minus the predecessor point; a contact row has position error 0.
 *
 * <p>As for {@link Dynamics}: caller-owned outputs, no allocation, not thread-safe.
 */
public interface ConstraintFunctions extends ModelInfo {
    /** Total number of constraint rows. */
    int constraintRows();

    /** φ(q). */
    void positionError(double[] q, double[] phi);

    /** The velocity error (G v for holonomic and non-holonomic rows alike). */
    void velocityError(double[] q, double[] v, double[] phidot);

    /** G(q), constraintRows x nv. */
    void constraintJacobian(double[] q, DMatrixRMaj G);

    /** γ(q, v) = -Ġ(q, v) v. */
    void gamma(double[] q, double[] v, double[] gamma);
}
