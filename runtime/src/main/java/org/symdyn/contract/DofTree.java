package org.symdyn.contract;

/**
 * The dof tree λ of the velocity coordinates, one node per dof: λ(k) is the previous dof of the same joint for a
 * multi-dof joint's later dofs, else the last dof of the parent body's joint, -1 for a dof of a root body. So
 * λ(k) &lt; k, and H_kj can be non-zero only when j is k or one of its λ-ancestors (or the reverse): the sparsity
 * that the LᵀDL / LᵀL factorisations of H exploit, in the generated forward dynamics and in the range-space solver
 * alike. The one place this convention is computed; {@link ModelInfo#dofParents()} and
 * {@code Model.dofParents()} both answer from here.
 */
public final class DofTree {
    private DofTree() {
    }

    /**
     * λ for bodies given parents first.
     *
     * @param nv number of velocity coordinates
     * @param parent parent body of each body, -1 for a root
     * @param vIndex index in v of each body's joint's first dof
     * @param jointNv number of dofs of each body's joint
     * @return a fresh array of length nv
     */
    public static int[] parents(int nv, int[] parent, int[] vIndex, int[] jointNv) {
        int[] lambda = new int[nv];
        for (int b = 0; b < parent.length; b++) {
            int p = parent[b];
            int parentLast = p < 0 ? -1 : vIndex[p] + jointNv[p] - 1;
            for (int d = 0; d < jointNv[b]; d++) {
                lambda[vIndex[b] + d] = d == 0 ? parentLast : vIndex[b] + d - 1;
            }
        }
        return lambda;
    }
}
