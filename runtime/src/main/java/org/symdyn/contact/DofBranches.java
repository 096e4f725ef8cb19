package org.symdyn.contact;

import org.symdyn.contract.ModelInfo;

/**
 * The dofs a contact row can touch, from the dof tree λ ({@link org.symdyn.contract.DofTree}): a point of body b
 * moves with the dofs of b's joint and of its ancestors' joints only, its <em>branch</em> (the last dof of b's joint
 * and that dof's λ-ancestors). A contact between bodies A and B touches the union of their branches. Both are
 * ancestor-closed sets, which is what keeps a row's sparsity through the sweep L⁻ᵀ of Featherstone's LᵀL factor
 * ({@link SparseDelassus}). Lists are written in decreasing dof order, leaf first.
 *
 * <p>For a pile of free bodies a branch is one body's six dofs, whatever the number of bodies; for a legged robot a
 * foot's branch is its leg and the base. Immutable after construction; the queries allocate nothing.
 */
public final class DofBranches {
    private final int[] lambda;
    private final int[] bodyLeaf;
    private final int maxDepth;

    /** The branches of a model's bodies. */
    public DofBranches(ModelInfo model) {
        lambda = model.dofParents();
        int nb = model.bodyCount();
        bodyLeaf = new int[nb];
        for (int b = 0; b < nb; b++) {
            bodyLeaf[b] = model.vIndex(b) + model.jointNv(b) - 1;
        }
        int deepest = 0;
        for (int i = 0; i < lambda.length; i++) {
            int d = 0;
            for (int j = i; j >= 0; j = lambda[j]) {
                d++;
            }
            deepest = Math.max(deepest, d);
        }
        maxDepth = deepest;
    }

    /** The most dofs on one branch (the tree's depth in dofs). */
    public int maxDepth() {
        return maxDepth;
    }

    /** The number of dofs. */
    public int size() {
        return lambda.length;
    }

    /** λ(i), −1 for a root dof. */
    public int parent(int dof) {
        return lambda[dof];
    }

    /** The leaf dof of body b's branch (the last dof of its joint), −1 for the world (b = −1). */
    public int leaf(int body) {
        return body < 0 ? -1 : bodyLeaf[body];
    }

    /**
     * Writes the dof {@code dof} and its λ-ancestors into {@code out[o..)}, in decreasing order.
     *
     * @return their number (0 for dof −1)
     */
    public int branch(int dof, int[] out, int o) {
        int n = 0;
        for (int i = dof; i >= 0; i = lambda[i]) {
            out[o + n++] = i;
        }
        return n;
    }

    /**
     * Writes the union of the branches of bodies a and b (−1: the world, no dofs) into {@code out[o..)}, in
     * decreasing order, each dof once: at most 2 {@link #maxDepth()} entries.
     *
     * @return their number
     */
    public int union(int a, int b, int[] out, int o) {
        int i = leaf(a);
        int j = leaf(b);
        int n = 0;
        // λ(k) < k: walking up from the larger index never skips the meeting point of the two branches
        while (i >= 0 || j >= 0) {
            if (i == j) {
                out[o + n++] = i;
                i = lambda[i];
                j = i;
            } else if (i > j) {
                out[o + n++] = i;
                i = lambda[i];
            } else {
                out[o + n++] = j;
                j = lambda[j];
            }
        }
        return n;
    }
}
