package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;

/**
 * A provider of constraint rows: the position error φ(q), the velocity error φ̇(q, v), the Jacobian G(q) and
 * γ(q, v) = -Ġ v of a fixed number of scalar constraints, so that the constrained accelerations satisfy G v̇ = γ.
 * {@link ConstraintData} stacks the rows of all its providers; new constraint kinds (line-on-line contact, user
 * constraints) plug in by implementing this interface.
 *
 * <p>Conventions: v is the model's velocity vector (nv entries, see {@link org.symdyn.model.JointType}); each row's
 * multiplier λ is the generalised constraint force along that row, so the constraint adds Gᵀ λ to the equations of
 * motion H v̇ + C = τ + Gᵀ λ. Every method writes its {@link #rowCount()} rows at the given offset of a
 * caller-owned output and touches nothing else (a Jacobian row is written in full, zeros included).
 *
 * <p>Life cycle: configured, then {@link #bind bound} once to a model's kinematics (scratch arrays are allocated
 * there); after binding no method may allocate and the row count is fixed. An instance is not thread-safe.
 */
public interface ConstraintRows {
    /**
     * The (unbound) rows of one of a model's own constraints: the one dispatch over the model's constraint kinds,
     * used by {@link GenericConstraints} to evaluate them and by {@link ConstraintData} to resolve their forces.
     *
     * @throws IllegalArgumentException if the constraint does not fit the model
     */
    static ConstraintRows of(Model model, ConstraintModel c) {
        if (c instanceof LoopConstraintModel loop) {
            return LoopRows.of(loop);
        } else if (c instanceof ContactConstraintModel contact) {
            return ContactRows.of(contact);
        } else if (c instanceof CouplerConstraintModel coupler) {
            return CouplerRows.of(model, coupler);
        } else if (c instanceof LineOnLineConstraintModel lineOnLine) {
            return LineOnLineRows.of(lineOnLine);
        }
        throw new IllegalArgumentException("unsupported constraint kind " + c.getClass().getName());
    }

    /** The kind of these rows. */
    ConstraintType type();

    /** Number of scalar rows; fixed once bound. */
    int rowCount();

    /**
     * Binds to the kinematics of the model the rows will be evaluated on: checks body indices and allocates every
     * workspace. Called once by {@link ConstraintSet#bind}.
     *
     * @throws IllegalArgumentException if the rows do not fit the model
     */
    void bind(Kinematics kinematics);

    /** φ(q) into {@code phi[offset..offset+rowCount)}; 0 for rows without a position-level definition. */
    void positionError(double[] q, double[] phi, int offset);

    /** The velocity error φ̇(q, v) (G v for holonomic rows) into {@code phidot[offset..offset+rowCount)}. */
    void velocityError(double[] q, double[] v, double[] phidot, int offset);

    /** Rows {@code rowOffset..rowOffset+rowCount} of G(q), all nv columns, into {@code g} (m x nv). */
    void jacobian(double[] q, DMatrixRMaj g, int rowOffset);

    /** γ(q, v) = -Ġ(q, v) v into {@code gamma[offset..offset+rowCount)}, so that G v̇ = γ. */
    void gamma(double[] q, double[] v, double[] gamma, int offset);

    /** Largest number of body forces {@link #bodyForces} reports (0 when the rows do not resolve forces). */
    default int maxBodyForces() {
        return 0;
    }

    /**
     * Resolves multipliers into the spatial forces [torque; force] the constraint applies to the bodies involved,
     * such that Σ_k J_kᵀ f_k = Gᵀ λ over the entries k, with J_k the Jacobian of the entry's frame (see
     * {@link ConstraintForces}). Pairs of entries are action and reaction.
     *
     * @param q           the configuration
     * @param multipliers multiplier vector; this provider's rows are {@code multipliers[offset..offset+rowCount)}
     * @param offset      where this provider's rows start in {@code multipliers}
     * @param inWorld     false: each force in its frame's coordinates; true: in world-aligned coordinates at the
     *                    frame origin
     * @param out         receives the entries (reset first)
     * @throws UnsupportedOperationException if the rows cannot be resolved into body forces
     */
    default void bodyForces(double[] q, double[] multipliers, int offset, boolean inWorld, ConstraintForces out) {
        throw new UnsupportedOperationException(getClass().getName() + " does not resolve its multipliers into"
                + " body forces");
    }
}
