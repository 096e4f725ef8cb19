package org.symdyn.solvers;

import java.util.List;

/**
 * The exact constrained inverse dynamics was asked of a system that is not fully actuated at this configuration:
 * rank(G Pᵀ) &lt; n_u, so the constraints do not determine the accelerations of the unactuated dofs from those of
 * the actuated ones (see {@link ConstrainedInverseDynamics#isFullyActuated}). The message names the unactuated dofs
 * and those left undetermined; use {@link ConstrainedInverseDynamics#inverseDynamicsRelaxed} instead.
 */
public final class NotFullyActuatedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int rank;
    private final int unactuatedCount;
    private final List<String> undeterminedDofs;

    /**
     * @param rank             numerical rank of G Pᵀ
     * @param unactuatedCount  n_u
     * @param undeterminedDofs names of unactuated dofs that the constraints leave free (one valid choice)
     * @param message          the full explanation
     */
    public NotFullyActuatedException(int rank, int unactuatedCount, List<String> undeterminedDofs, String message) {
        super(message);
        this.rank = rank;
        this.unactuatedCount = unactuatedCount;
        this.undeterminedDofs = List.copyOf(undeterminedDofs);
    }

    /** The numerical rank of G Pᵀ. */
    public int rank() {
        return rank;
    }

    /** The number of unactuated dofs n_u. */
    public int unactuatedCount() {
        return unactuatedCount;
    }

    /** Names of n_u - rank unactuated dofs the constraints do not determine (pivoting order). */
    public List<String> undeterminedDofs() {
        return undeterminedDofs;
    }
}
