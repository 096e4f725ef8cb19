package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;

/**
 * Base class for user constraints written in Java (RBDL's CustomConstraint): a subclass supplies its rows of
 * φ(q), G(q) and γ(q, v) = -Ġ v with the conventions of {@link ConstraintRows} (G v̇ = γ; the constraint adds
 * Gᵀ λ to the equations of motion) and may evaluate them through {@link #kinematics()}. The velocity error
 * defaults to G v (override it for rows with an explicit time dependence). Resolving the multipliers into body
 * forces is optional: override {@link #maxBodyForces()} and {@link #bodyForces}.
 *
 * <p>Allocate workspaces in {@link #onBind(Kinematics)}; after binding no method may allocate.
 */
public abstract class CustomConstraint implements ConstraintRows {
    private final int rows;
    private Kinematics kinematics;
    private DMatrixRMaj gScratch;

    /** A constraint of {@code rows} scalar rows. */
    protected CustomConstraint(int rows) {
        if (rows <= 0) {
            throw new IllegalArgumentException("a custom constraint needs at least one row, got " + rows);
        }
        this.rows = rows;
    }

    @Override
    public final ConstraintType type() {
        return ConstraintType.CUSTOM;
    }

    @Override
    public final int rowCount() {
        return rows;
    }

    @Override
    public final void bind(Kinematics kin) {
        if (kinematics != null) {
            throw new IllegalStateException(getClass().getName() + " is already bound");
        }
        kinematics = kin;
        gScratch = new DMatrixRMaj(rows, kin.nv());
        onBind(kin);
    }

    /** Hook to check the model and allocate workspaces; called once by {@link #bind}. Default: nothing. */
    protected void onBind(Kinematics kin) {
    }

    /** The kinematics bound to, null before binding. */
    protected final Kinematics kinematics() {
        return kinematics;
    }

    /** Default φ̇ = G(q) v, from {@link #jacobian}. */
    @Override
    public void velocityError(double[] q, double[] v, double[] phidot, int offset) {
        jacobian(q, gScratch, 0);
        int nv = gScratch.numCols;
        for (int r = 0; r < rows; r++) {
            double x = 0;
            for (int c = 0; c < nv; c++) {
                x += gScratch.data[r * nv + c] * v[c];
            }
            phidot[offset + r] = x;
        }
    }
}
