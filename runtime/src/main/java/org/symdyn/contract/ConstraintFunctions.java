package org.symdyn.contract;

import java.util.List;
import org.ejml.data.DMatrixRMaj;

/**
 * The constraints of a model as functions of the state: position error φ(q), velocity error φ̇ = G(q) v (for
 * holonomic rows), Jacobian G(q) (rows x nv) and γ(q, v) = -Ġ v, so that the constrained accelerations satisfy
 * G v̇ = γ. Rows are stacked in the model's constraint order. Sign conventions follow RBDL: a loop's translational
 * error is the successor point minus the predecessor point; a contact row has position error 0.
 *
 * <p>As for {@link Dynamics}: caller-owned outputs, no allocation, not thread-safe; arguments as the package
 * states (exact lengths and shapes, no output aliasing an input or another output, an index out of range
 * throws {@link IndexOutOfBoundsException}).
 */
public interface ConstraintFunctions extends ModelInfo {
    /** Total number of constraint rows. */
    int constraintRows();

    /**
     * The names of the model's constraints, in row order; constraint k owns {@link #constraintRowCount(int)} rows
     * after those of constraints 0..k-1. With the kinds, row counts and time constants below, this is what a
     * solver's constraint set needs to be built from the implementation alone, without the model file.
     */
    List<String> constraintNames();

    /** The kind of model constraint {@code k}. */
    ConstraintType constraintType(int k);

    /** The number of rows of model constraint {@code k}. */
    int constraintRowCount(int k);

    /**
     * The Baumgarte time constant T_stab (s) the model states for constraint {@code k}, or NaN when it states none
     * (stabilisation then starts off).
     */
    double baumgarteTimeConstant(int k);

    /** φ(q). */
    void positionError(double[] q, double[] phi);

    /** The velocity error (G v for holonomic and non-holonomic rows alike). */
    void velocityError(double[] q, double[] v, double[] phidot);

    /** G(q), constraintRows x nv. */
    void constraintJacobian(double[] q, DMatrixRMaj G);

    /** γ(q, v) = -Ġ(q, v) v. */
    void gamma(double[] q, double[] v, double[] gamma);
}
