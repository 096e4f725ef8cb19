package org.symdyn.contact;

/**
 * Splits a {@link ContactProblem} into its islands and solves each on its own. Two blocks are in one island when
 * an entry of W = J H⁻¹ Jᵀ couples a row of one to a row of the other, directly or through other blocks: the
 * connected components of the graph whose edges are W's non-zero off-diagonal blocks. Rows that act on bodies with
 * no joint path between them (two piles of free boxes, a box on a static table and a robot elsewhere) give exact
 * zeros in W: H of disjoint subtrees is block-diagonal, so is its Cholesky factor, and each product J_i H⁻¹ J_jᵀ
 * sums terms with a zero factor. The islands' laws and their coupling are therefore exactly those of the whole
 * problem: a λ solves the whole problem if and only if its restriction to each island solves that island, and a
 * block's contact-law violation (see {@link ContactReport}) is the same measured in its island or in the whole.
 *
 * <p>What it buys: a solver's cost grows with the cube of the rows it factorises (ADMM's Cholesky of W + ρ I) or
 * with their square per sweep (PGS); k islands of m / k rows cost k (m / k)³ instead of m³.
 *
 * <p>The report of a split solve: converged when every island converged; iterations the most any island took;
 * feasibilities, complementarity and violation the largest over the islands, the worst block numbered in the whole
 * problem; rows and contacts those of the whole problem; {@link ContactReport#islands()} and
 * {@link ContactReport#largestIslandRows()} say how it was split. A problem of one island goes to the solver as it
 * is. Allocated once for a capacity of rows; no allocation per solve.
 */
public final class ContactIslands {
    private final ContactProblem island;
    private final ContactReport islandReport = new ContactReport();
    /** Union-find parent of each block (after {@link #partition}: its root). */
    private final int[] parent;
    /** The island of each block. */
    private final int[] label;
    /** The island's row i is the problem's row rowOf[i]. */
    private final int[] rowOf;
    /** The island's block k is the problem's block blockOf[k]. */
    private final int[] blockOf;
    private final double[] islandLambda;

    /** For problems of at most {@code capacity} rows. */
    public ContactIslands(int capacity) {
        int n = Math.max(1, capacity);
        island = new ContactProblem(capacity);
        parent = new int[n];
        label = new int[n];
        rowOf = new int[n];
        blockOf = new int[n];
        islandLambda = new double[n];
    }

    /**
     * Labels each block of {@code p} with its island (0, 1, ... in the order of their first blocks); returns the
     * number of islands (0 for an empty problem). {@link #islandOf} reads the labels until the next call.
     */
    public int partition(ContactProblem p) {
        int blocks = p.blockCount();
        int m = p.rows();
        double[] W = p.delassus();
        for (int k = 0; k < blocks; k++) {
            parent[k] = k;
        }
        for (int k = 0; k < blocks; k++) {
            int ks = p.blockStart(k), ke = ks + p.blockSize(k);
            for (int l = k + 1; l < blocks; l++) {
                if (root(k) == root(l)) {
                    continue;
                }
                int ls = p.blockStart(l), le = ls + p.blockSize(l);
                if (coupled(W, m, ks, ke, ls, le)) {
                    parent[root(l)] = root(k);
                }
            }
        }
        // roots to consecutive labels, numbered in the order of each island's first block (a root is its island's
        // first block or a later one, so the label goes to the root when the island is first met)
        for (int k = 0; k < blocks; k++) {
            parent[k] = root(k);
            label[k] = -1;
        }
        int count = 0;
        for (int k = 0; k < blocks; k++) {
            int r = parent[k];
            if (label[r] < 0) {
                label[r] = count++;
            }
        }
        for (int k = 0; k < blocks; k++) {
            label[k] = label[parent[k]];
        }
        return count;
    }

    /** The island of block k after {@link #partition}. */
    public int islandOf(int block) {
        return label[block];
    }

    /**
     * Solves {@code p} island by island with {@code solver} (warm start: λ in, the answer out, as
     * {@link ContactSolver#solve}); fills {@code report} as the class comment says; returns whether every island
     * converged.
     */
    public boolean solve(ContactSolver solver, ContactProblem p, double[] lambda, ContactReport report) {
        int count = partition(p);
        if (count <= 1) {
            boolean ok = solver.solve(p, lambda, report);
            report.islands = count;
            report.largestIslandRows = p.rows();
            return ok;
        }
        int m = p.rows();
        double[] W = p.delassus();
        double[] b = p.offset();
        boolean converged = true;
        int iterations = 0, largest = 0, worstBlock = -1;
        double primal = 0, dual = 0, compl = 0, violation = 0, penalty = Double.NaN;
        for (int c = 0; c < count; c++) {
            island.clear();
            int n = 0;
            for (int k = 0; k < p.blockCount(); k++) {
                if (label[k] != c) {
                    continue;
                }
                blockOf[island.blockCount()] = k;
                switch (p.blockKind(k)) {
                    case ContactProblem.BILATERAL -> island.addBilateral();
                    case ContactProblem.UNILATERAL -> island.addUnilateral();
                    default -> island.addCoulomb(p.blockFriction(k));
                }
                for (int r = p.blockStart(k); r < p.blockStart(k) + p.blockSize(k); r++) {
                    rowOf[n++] = r;
                }
            }
            double[] Wi = island.delassus();
            double[] bi = island.offset();
            for (int i = 0; i < n; i++) {
                int ri = rowOf[i] * m;
                for (int j = 0; j < n; j++) {
                    Wi[i * n + j] = W[ri + rowOf[j]];
                }
                bi[i] = b[rowOf[i]];
                islandLambda[i] = lambda[rowOf[i]];
            }
            converged &= solver.solve(island, islandLambda, islandReport);
            for (int i = 0; i < n; i++) {
                lambda[rowOf[i]] = islandLambda[i];
            }
            iterations = Math.max(iterations, islandReport.iterations);
            largest = Math.max(largest, n);
            primal = Math.max(primal, islandReport.primalFeasibility);
            dual = Math.max(dual, islandReport.dualFeasibility);
            compl = Math.max(compl, islandReport.complementarity);
            // the first island sets the worst; a later one replaces it when worse; a NaN stays (as in measure)
            if (c == 0 || !Double.isNaN(violation) && !(islandReport.violation <= violation)) {
                violation = islandReport.violation;
                worstBlock = islandReport.worstBlock < 0 ? -1 : blockOf[islandReport.worstBlock];
                penalty = islandReport.penalty;
            }
        }
        report.solver = islandReport.solver;
        report.iterations = iterations;
        report.converged = converged;
        report.primalFeasibility = primal;
        report.dualFeasibility = dual;
        report.complementarity = compl;
        report.violation = violation;
        report.penalty = penalty;
        report.rows = m;
        report.contacts = p.contactCount();
        report.worstBlock = worstBlock;
        report.islands = count;
        report.largestIslandRows = largest;
        return converged;
    }

    private int root(int k) {
        while (parent[k] != k) {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        return k;
    }

    /** Whether any entry of W's block (rows ks..ke, columns ls..le) is not zero. */
    private static boolean coupled(double[] W, int m, int ks, int ke, int ls, int le) {
        for (int i = ks; i < ke; i++) {
            int o = i * m;
            for (int j = ls; j < le; j++) {
                if (W[o + j] != 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
