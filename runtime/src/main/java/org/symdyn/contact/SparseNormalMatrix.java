package org.symdyn.contact;

import java.util.Arrays;

/**
 * Solves (W + σ I) λ = r for the sparse Delassus operator W = Y Yᵀ of a {@link SparseDelassus} (y_r = L⁻ᵀ J_rᵀ on
 * its row's support) without forming W: by the Woodbury identity
 * <pre>
 *   (σ I + Y Yᵀ)⁻¹ r = (r − Y u) / σ,   N u = Yᵀ r,   N = σ I + Yᵀ Y   (nv x nv)
 * </pre>
 * with N factorised by a sparse supernodal Cholesky N = R Rᵀ. This is ADMM's λ step on a pile of free bodies
 * ({@link ProximalAdmm}): N_ij ≠ 0 only where dofs i and j share a row's support, so for free bodies N is a 6 x 6
 * block per body coupled along the contact graph, for a robot its contact branches, and its size is the dofs', not
 * the m² of W.
 *
 * <p><b>Analysis</b> ({@link #analyse}, once per problem: the contacts change every step). Rows in a run of equal
 * supports (a contact's [n; t1; t2], the four corners of a face between the same two boxes) are one
 * <em>element</em>, a clique of N. Dofs that lie in exactly the same elements are one <em>supernode</em>
 * (partition refinement over the elements: a free body's six dofs, a leg's dofs with no contact of their own): N is
 * handled as dense blocks between supernodes. They are ordered by minimum degree (the least sum of the sizes of
 * the neighbours in the elimination graph, which grows by the fill of each elimination; adjacency kept as bit
 * sets), and each supernode's column of R holds its own dofs and those of its neighbours when it is eliminated: the
 * exact fill, so the numbers below fill nothing in. Dofs in no support are left out (N = σ there, and Yᵀ r = 0).
 * The Gram matrix Yᵀ Y is assembled into that structure once per analysis (per element, the products of its rows'
 * entries on each pair of its supernodes). The least degree is found by a scan, O(S²) for S supernodes (10⁴ for a
 * pile of 100 boxes; a heap would pay from thousands of bodies). Measured on a bin of boxes after 1 s: 10, 30 and
 * 100 boxes gave 10, 30 and 97 supernodes and 468, 1,836 and 6,624 non-zeros in the factor (nv² = 3,600, 32,400,
 * 360,000): about two 6 x 6 blocks per box.
 *
 * <p><b>Factorisation</b> ({@link #factor}: per σ; ADMM changes σ = ρ + η adaptively): the Gram matrix plus σ on
 * the diagonal, factorised right-looking by supernodes (a dense Cholesky of the diagonal block, a triangular solve
 * for the rows below, the outer products subtracted from the later blocks). Two factor slots are kept, keyed by the
 * caller's number for σ, because ADMM's penalty rule often moves back and forth between two values.
 *
 * <p><b>Accuracy.</b> (r − Y u) / σ cancels when σ is small against W's spectrum, so Woodbury's error grows as σ
 * shrinks. Measured ({@code SparseNormalMatrixTest}: random trees with redundant rows, W singular; normwise backward
 * error ‖r − (W + σ I) λ‖∞ / (‖W + σ I‖∞ ‖λ‖∞ + ‖r‖∞), the residual from W formed densely), with w̄ the largest
 * diagonal entry of W: Woodbury alone 8e-17 at σ = 10 w̄, 2e-16 at 1e-2 w̄, 5e-16 to 7e-16 at 1e-4 and 1e-6 w̄,
 * 7.6e-15 at 1e-8 w̄, 1.8e-14 at 1e-10 w̄ (on a pile of six boxes, 20 contacts: 1.4e-16 at 1e-6 w̄, 3e-15 at
 * 1e-8 w̄, 7.8e-13 at 1e-10 w̄); a dense Cholesky of W + σ I 5e-17 to 5e-16 throughout. One step of iterative
 * refinement (the residual r − σ λ − Y (Yᵀ λ) by products with Y, which are backward stable, solved again and
 * added) brings Woodbury to 3e-17 to 8e-17 at every σ. ADMM's σ = ρ + η stays above 7e-6 w̄, where Woodbury
 * alone is as good as the dense solve and ADMM took the same iterations either way on a pile of boxes (919,367
 * against 921,997 over 400 steps), so {@link #factor}'s solves do not refine; {@link #factorRows}' solves, for
 * polishing at a small σ, refine once (at most 1e-16 at 1e-8 w̄, 7.5e-15 at 1e-10 w̄ on a subset of the rows). The forward error, against the dense solve, stays within
 * 1e-15 times κ(W + σ I) ≤ (‖W‖∞ + σ) / σ: the accuracy any backward-stable solve of the singular W has.
 *
 * <p><b>Subsets of rows</b> ({@link #factorRows}): the same structure serves W_SS + σ I of a subset S of the rows (the
 * pattern of Y_S is a subset of Y's), which is ADMM's polishing solve on the held rows.
 *
 * <p>Capacities are fixed at construction (dofs, rows, support entries, non-zeros of the factor); exceeding one is an
 * {@link IllegalStateException} that names it. No allocation after construction; not thread-safe.
 */
public final class SparseNormalMatrix {
    private final int nv;
    private final int rowCapacity;
    private final int nonZeroCapacity;
    private final int words;

    private SparseDelassus source;
    private int rows;
    /** Element e is rows [elementRow[e], elementRow[e + 1]). */
    private final int[] elementRow;
    private int elements;
    /** Element e's supernodes: elementSupers[elementSuperStart[e] ..  elementSuperStart[e + 1]). */
    private final int[] elementSuperStart;
    private final int[] elementSupers;

    /** Partition refinement: a class per dof (0: in no support), and per class its stamp and split target. */
    private final int[] classOf;
    private final int[] classStamp;
    private final int[] classSplit;

    /** Per dof its supernode, −1 when in no support. */
    private final int[] superOf;
    /** Supernode s's dofs, increasing: superDofs[superStart[s] .. superStart[s + 1]). */
    private final int[] superStart;
    private final int[] superDofs;
    private int supers;
    private final int[] superStamp;

    /** Elimination graph between supernodes, {@code words} longs per supernode. */
    private final long[] adjacency;
    private final int[] degree;
    private final boolean[] eliminated;
    private final int[] order;
    private final int[] position;

    /** Supernode p's column: structure supernodes at structSupers[structStart[p] .. + structCount[p]). */
    private final int[] structStart;
    private final int[] structCount;
    private final int[] structSupers;
    /** Row of the structure supernode's first dof within p's block (p's own dofs are rows 0 .. size − 1). */
    private final int[] structOffset;
    private final int[] blockRows;
    private final int[] blockBase;
    private int nonZeros;
    /** Per supernode: its row offset in the block being updated (scratch of {@link #factorise}). */
    private final int[] offsetIn;
    /** Per dof: its position in the support of the element being assembled (scratch). */
    private final int[] supportPos;

    private final double[] gram;
    private final double[][] slot = new double[2][];
    private final int[] slotKey = {NONE, NONE};
    private final double[] slotShift = new double[2];
    private final boolean[][] slotMask = new boolean[2][];
    private int lastUsed;
    private static final int NONE = Integer.MIN_VALUE;

    private final double[] vec;
    private final double[] residual;
    private final double[] correction;

    /**
     * @param nv              the dofs
     * @param maxRows         the most rows a problem will have
     * @param maxEntries      the most entries of all rows' supports together
     * @param nonZeroCapacity the most numbers the factor may hold (its blocks, square diagonal blocks included);
     *                        nv² always suffices
     */
    public SparseNormalMatrix(int nv, int maxRows, int maxEntries, int nonZeroCapacity) {
        if (nv < 0 || maxRows < 0 || maxEntries < 0 || nonZeroCapacity < 1) {
            throw new IllegalArgumentException("sizes must be >= 0 and the non-zero capacity positive");
        }
        this.nv = nv;
        this.rowCapacity = maxRows;
        this.nonZeroCapacity = nonZeroCapacity;
        int n = Math.max(1, nv);
        words = (n + 63) >>> 6;
        elementRow = new int[maxRows + 1];
        elementSuperStart = new int[maxRows + 1];
        elementSupers = new int[Math.max(1, maxEntries)];
        classOf = new int[n];
        classStamp = new int[maxEntries + 2];
        classSplit = new int[maxEntries + 2];
        superOf = new int[n];
        superStart = new int[n + 1];
        superDofs = new int[n];
        superStamp = new int[n];
        adjacency = new long[n * words];
        degree = new int[n];
        eliminated = new boolean[n];
        order = new int[n];
        position = new int[n];
        structStart = new int[n];
        structCount = new int[n];
        int structure = (int) Math.min(nonZeroCapacity, (long) n * n);
        structSupers = new int[structure];
        structOffset = new int[structure];
        blockRows = new int[n];
        blockBase = new int[n];
        offsetIn = new int[n];
        supportPos = new int[n];
        gram = new double[nonZeroCapacity];
        slot[0] = new double[nonZeroCapacity];
        slot[1] = new double[nonZeroCapacity];
        vec = new double[n];
        residual = new double[Math.max(1, maxRows)];
        correction = new double[Math.max(1, maxRows)];
    }

    /** The numbers the last analysed factor holds. */
    public int nonZeros() {
        return nonZeros;
    }

    /** The supernodes of the last analysis. */
    public int supernodes() {
        return supers;
    }

    /**
     * The structure of N for the rows {@code d} holds now, and their Gram matrix Yᵀ Y: the elements, supernodes,
     * minimum-degree order and the factor's blocks. Forgets every factor.
     *
     * @throws IllegalStateException when the rows or the factor's non-zeros exceed this matrix's capacities
     */
    public void analyse(SparseDelassus d) {
        if (d.nv() != nv) {
            throw new IllegalArgumentException("the operator has " + d.nv() + " dofs, this matrix " + nv);
        }
        int m = d.rows();
        if (m > rowCapacity) {
            throw new IllegalStateException("sparse normal matrix capacity exceeded: " + m + " rows, capacity "
                    + rowCapacity);
        }
        source = d;
        rows = m;
        slotKey[0] = NONE;
        slotKey[1] = NONE;
        elements = 0;
        for (int r = 0; r < m; r++) {
            if (r == 0 || !d.sameSupport(r - 1, r)) {
                elementRow[elements++] = r;
            }
        }
        elementRow[elements] = m;
        findSupernodes(d);
        order();
        assemble(gram, null);
    }

    /** Supernodes: dofs in the same elements, by partition refinement (class 0: in no element). */
    private void findSupernodes(SparseDelassus d) {
        Arrays.fill(classOf, 0, nv, 0);
        classStamp[0] = -1;
        int next = 1;
        for (int e = 0; e < elements; e++) {
            int r = elementRow[e];
            for (int t = d.supportStart(r), end = d.supportStart(r + 1); t < end; t++) {
                int i = d.entryDof(t);
                int c = classOf[i];
                if (classStamp[c] != e) {
                    classStamp[c] = e;
                    classSplit[c] = next;
                    classStamp[next] = -1;
                    next++;
                }
                classOf[i] = classSplit[c];
            }
        }
        Arrays.fill(classSplit, 0, next, -1);
        supers = 0;
        for (int i = 0; i < nv; i++) {
            int c = classOf[i];
            if (c == 0) {
                superOf[i] = -1;
                continue;
            }
            if (classSplit[c] < 0) {
                classSplit[c] = supers++;
            }
            superOf[i] = classSplit[c];
        }
        Arrays.fill(superStart, 0, supers + 1, 0);
        for (int i = 0; i < nv; i++) {
            if (superOf[i] >= 0) {
                superStart[superOf[i] + 1]++;
            }
        }
        for (int s = 0; s < supers; s++) {
            superStart[s + 1] += superStart[s];
            offsetIn[s] = superStart[s];
        }
        for (int i = 0; i < nv; i++) {
            int s = superOf[i];
            if (s >= 0) {
                superDofs[offsetIn[s]++] = i;
            }
        }
        // each element's supernodes
        Arrays.fill(superStamp, 0, supers, -1);
        int o = 0;
        for (int e = 0; e < elements; e++) {
            elementSuperStart[e] = o;
            int r = elementRow[e];
            for (int t = d.supportStart(r), end = d.supportStart(r + 1); t < end; t++) {
                int s = superOf[d.entryDof(t)];
                if (superStamp[s] != e) {
                    superStamp[s] = e;
                    elementSupers[o++] = s;
                }
            }
        }
        elementSuperStart[elements] = o;
    }

    private int size(int s) {
        return superStart[s + 1] - superStart[s];
    }

    /** Minimum-degree order on the supernodes' graph, the fill recorded as each column's structure; the blocks. */
    private void order() {
        int w = (supers + 63) >>> 6;
        Arrays.fill(adjacency, 0, supers * words, 0L);
        for (int e = 0; e < elements; e++) {
            for (int a = elementSuperStart[e]; a < elementSuperStart[e + 1]; a++) {
                int sa = elementSupers[a];
                for (int b = elementSuperStart[e]; b < elementSuperStart[e + 1]; b++) {
                    int sb = elementSupers[b];
                    if (sa != sb) {
                        adjacency[sa * words + (sb >>> 6)] |= 1L << sb;
                    }
                }
            }
        }
        for (int s = 0; s < supers; s++) {
            eliminated[s] = false;
            degree[s] = weightedDegree(s, w);
        }
        int cursor = 0;
        long base = 0;
        for (int k = 0; k < supers; k++) {
            int p = -1;
            for (int s = 0; s < supers; s++) {
                if (!eliminated[s] && (p < 0 || degree[s] < degree[p])) {
                    p = s;
                }
            }
            eliminated[p] = true;
            order[k] = p;
            position[p] = k;
            int own = size(p);
            int rowsP = own;
            structStart[p] = cursor;
            int po = p * words;
            for (int x = 0; x < w; x++) {
                long bits = adjacency[po + x];
                while (bits != 0) {
                    int b = (x << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                    if (cursor >= structSupers.length) {
                        throw capacity(-1);
                    }
                    structSupers[cursor] = b;
                    structOffset[cursor++] = rowsP;
                    rowsP += size(b);
                }
            }
            structCount[p] = cursor - structStart[p];
            blockRows[p] = rowsP;
            base += (long) rowsP * own;
            if (base > nonZeroCapacity) {
                throw capacity(base);
            }
            // eliminating p joins its neighbours into a clique (the fill), without p
            for (int c = structStart[p]; c < cursor; c++) {
                int b = structSupers[c];
                int bo = b * words;
                for (int x = 0; x < w; x++) {
                    adjacency[bo + x] |= adjacency[po + x];
                }
                adjacency[bo + (b >>> 6)] &= ~(1L << b);
                adjacency[bo + (p >>> 6)] &= ~(1L << p);
                degree[b] = weightedDegree(b, w);
            }
        }
        long o = 0;
        for (int k = 0; k < supers; k++) {
            int p = order[k];
            blockBase[p] = (int) o;
            o += (long) blockRows[p] * size(p);
        }
        nonZeros = (int) o;
    }

    private IllegalStateException capacity(long needed) {
        return new IllegalStateException("sparse normal matrix capacity exceeded: the factor of σ I + Yᵀ Y for these "
                + rows + " rows needs " + (needed < 0 ? "more than " + structSupers.length + " block links"
                        : needed + " non-zeros") + ", capacity " + nonZeroCapacity
                + " (give a larger nonZeroCapacity, or solve by ProjectedGaussSeidel)");
    }

    private int weightedDegree(int s, int w) {
        int deg = 0;
        int so = s * words;
        for (int x = 0; x < w; x++) {
            long bits = adjacency[so + x];
            while (bits != 0) {
                deg += size((x << 6) + Long.numberOfTrailingZeros(bits));
                bits &= bits - 1;
            }
        }
        return deg;
    }

    /** The row offset of supernode b in supernode a's block (b in a's structure). */
    private int offsetOf(int a, int b) {
        for (int c = structStart[a], end = c + structCount[a]; c < end; c++) {
            if (structSupers[c] == b) {
                return structOffset[c];
            }
        }
        throw new IllegalStateException("supernode " + b + " is not in the structure of " + a); // cannot happen
    }

    /** Y_Sᵀ Y_S into the factor's blocks (S: the rows with {@code mask[r]}, every row when null). */
    private void assemble(double[] out, boolean[] mask) {
        SparseDelassus d = source;
        Arrays.fill(out, 0, nonZeros, 0);
        for (int e = 0; e < elements; e++) {
            int r0 = elementRow[e], r1 = elementRow[e + 1];
            int t0 = d.supportStart(r0);
            int len = d.supportStart(r0 + 1) - t0;
            for (int q = 0; q < len; q++) {
                supportPos[d.entryDof(t0 + q)] = q;
            }
            for (int a = elementSuperStart[e]; a < elementSuperStart[e + 1]; a++) {
                int sa = elementSupers[a];
                for (int b = elementSuperStart[e]; b < elementSuperStart[e + 1]; b++) {
                    int sb = elementSupers[b];
                    if (position[sb] < position[sa]) {
                        continue; // each pair once, into the block of the one eliminated first
                    }
                    int rowOff = sa == sb ? 0 : offsetOf(sa, sb);
                    int ownA = size(sa), base = blockBase[sa];
                    for (int ii = 0, nb = size(sb); ii < nb; ii++) {
                        int pq = supportPos[superDofs[superStart[sb] + ii]];
                        for (int jj = 0; jj < ownA; jj++) {
                            int pp = supportPos[superDofs[superStart[sa] + jj]];
                            double s = 0;
                            for (int r = r0; r < r1; r++) {
                                if (mask == null || mask[r]) {
                                    int o = d.supportStart(r);
                                    s += d.entryValue(o + pq) * d.entryValue(o + pp);
                                }
                            }
                            out[base + (rowOff + ii) * ownA + jj] += s;
                        }
                    }
                }
            }
        }
    }

    /**
     * The factor of N = σ I + Yᵀ Y for σ = {@code shift} &gt; 0, kept under {@code key}: a call with a key a slot
     * already holds since the last {@link #analyse} returns that slot without factorising.
     *
     * @return the slot, for {@link #solve}
     */
    public int factor(int key, double shift) {
        for (int i = 0; i < 2; i++) {
            if (slotKey[i] == key && key != NONE) {
                lastUsed = i;
                return i;
            }
        }
        int i = 1 - lastUsed;
        System.arraycopy(gram, 0, slot[i], 0, nonZeros);
        factorise(slot[i], shift);
        slotKey[i] = key;
        slotShift[i] = shift;
        slotMask[i] = null;
        lastUsed = i;
        return i;
    }

    /**
     * The factor of σ I + Y_Sᵀ Y_S for the rows S with {@code mask[r]} (the array is read again by {@link #solve}
     * with this slot: leave it unchanged until then), in the slot not used last; that slot's key is forgotten, the
     * other slot's factor stays.
     */
    public int factorRows(boolean[] mask, double shift) {
        int i = 1 - lastUsed;
        assemble(slot[i], mask);
        factorise(slot[i], shift);
        slotKey[i] = NONE;
        slotShift[i] = shift;
        slotMask[i] = mask;
        return i; // the last used slot stays the other: the next new σ overwrites this one
    }

    private void factorise(double[] f, double shift) {
        if (!(shift > 0) || Double.isInfinite(shift)) {
            throw new IllegalArgumentException("the shift " + shift + " must be a positive number");
        }
        for (int s = 0; s < supers; s++) {
            int own = size(s), base = blockBase[s];
            for (int j = 0; j < own; j++) {
                f[base + j * own + j] += shift;
            }
        }
        for (int k = 0; k < supers; k++) {
            int p = order[k];
            int s = size(p), base = blockBase[p], rowsP = blockRows[p];
            for (int j = 0; j < s; j++) {
                int rj = base + j * s;
                double x = f[rj + j];
                for (int t = 0; t < j; t++) {
                    x -= f[rj + t] * f[rj + t];
                }
                if (!(x > 0)) {
                    throw new IllegalStateException("σ I + Yᵀ Y is not positive definite (pivot " + x + "): the"
                            + " rows hold non-finite numbers");
                }
                double ljj = Math.sqrt(x);
                f[rj + j] = ljj;
                double inv = 1 / ljj;
                for (int i = j + 1; i < rowsP; i++) {
                    int ri = base + i * s;
                    double v = f[ri + j];
                    for (int t = 0; t < j; t++) {
                        v -= f[ri + t] * f[rj + t];
                    }
                    f[ri + j] = v * inv;
                }
            }
            // the outer products of p's rows below its diagonal block, into the later blocks
            for (int ca = structStart[p], end = ca + structCount[p]; ca < end; ca++) {
                int a = structSupers[ca];
                int oa = structOffset[ca];
                int sa = size(a), baseA = blockBase[a];
                for (int c = structStart[a], e2 = c + structCount[a]; c < e2; c++) {
                    offsetIn[structSupers[c]] = structOffset[c];
                }
                for (int cb = structStart[p]; cb < end; cb++) {
                    int b = structSupers[cb];
                    if (position[b] < position[a]) {
                        continue;
                    }
                    int ob = structOffset[cb];
                    int rowOff = b == a ? 0 : offsetIn[b];
                    for (int ii = 0, sb = size(b); ii < sb; ii++) {
                        int rb = base + (ob + ii) * s;
                        int target = baseA + (rowOff + ii) * sa;
                        int last = b == a ? ii : sa - 1;
                        for (int jj = 0; jj <= last; jj++) {
                            int ra = base + (oa + jj) * s;
                            double dot = 0;
                            for (int t = 0; t < s; t++) {
                                dot += f[rb + t] * f[ra + t];
                            }
                            f[target + jj] -= dot;
                        }
                    }
                }
            }
        }
    }

    /** x ← N⁻¹ x (nv entries, indexed by dof) with the factor in slot i. */
    private void solveNormal(int i, double[] x) {
        double[] f = slot[i];
        double shift = slotShift[i];
        for (int dof = 0; dof < nv; dof++) {
            if (superOf[dof] < 0) {
                x[dof] /= shift;
            }
        }
        for (int k = 0; k < supers; k++) {
            int p = order[k];
            int s = size(p), base = blockBase[p], m0 = superStart[p];
            for (int j = 0; j < s; j++) {
                int rj = base + j * s;
                double v = x[superDofs[m0 + j]];
                for (int t = 0; t < j; t++) {
                    v -= f[rj + t] * x[superDofs[m0 + t]];
                }
                x[superDofs[m0 + j]] = v / f[rj + j];
            }
            for (int c = structStart[p], end = c + structCount[p]; c < end; c++) {
                int b = structSupers[c];
                int ob = structOffset[c];
                for (int ii = 0, sb = size(b); ii < sb; ii++) {
                    int rb = base + (ob + ii) * s;
                    double dot = 0;
                    for (int j = 0; j < s; j++) {
                        dot += f[rb + j] * x[superDofs[m0 + j]];
                    }
                    x[superDofs[superStart[b] + ii]] -= dot;
                }
            }
        }
        for (int k = supers - 1; k >= 0; k--) {
            int p = order[k];
            int s = size(p), base = blockBase[p], m0 = superStart[p];
            for (int c = structStart[p], end = c + structCount[p]; c < end; c++) {
                int b = structSupers[c];
                int ob = structOffset[c];
                for (int ii = 0, sb = size(b); ii < sb; ii++) {
                    int rb = base + (ob + ii) * s;
                    double xb = x[superDofs[superStart[b] + ii]];
                    for (int j = 0; j < s; j++) {
                        x[superDofs[m0 + j]] -= f[rb + j] * xb;
                    }
                }
            }
            for (int j = s - 1; j >= 0; j--) {
                double v = x[superDofs[m0 + j]];
                for (int t = j + 1; t < s; t++) {
                    v -= f[base + t * s + j] * x[superDofs[m0 + t]];
                }
                x[superDofs[m0 + j]] = v / f[base + j * s + j];
            }
        }
    }

    /**
     * λ = (W + σ I)⁻¹ r with the factor of slot i (W = Y Yᵀ, or W_SS of its rows for a {@link #factorRows} slot: r
     * is read and λ written on those rows only, λ = 0 elsewhere), by Woodbury, refined once for a
     * {@link #factorRows} slot (see the class comment).
     * r and λ have {@link SparseDelassus#rows()} entries and must not alias.
     */
    public void solve(int i, double[] r, double[] lambda) {
        boolean[] mask = slotMask[i];
        woodbury(i, r, lambda, mask);
        // refinement: the residual of the first solution, solved again (see the class comment)
        double shift = slotShift[i];
        SparseDelassus d = source;
        for (int step = 0, steps = mask == null ? refinements : 1; step < steps; step++) {
            d.transposeTimes(lambda, vec);
            for (int k = 0; k < rows; k++) {
                residual[k] = mask == null || mask[k] ? r[k] - shift * lambda[k] - d.rowTimes(k, vec) : 0;
            }
            woodbury(i, residual, correction, mask);
            for (int k = 0; k < rows; k++) {
                lambda[k] += correction[k];
            }
        }
    }

    /**
     * Refinement steps of a solve with a {@link #factor} slot: none (Woodbury's backward error is below 1e-15 for
     * σ ≥ 1e-6 w̄, and ADMM's σ stays above 7e-6 w̄; see the class comment); the tests set 1 to measure it. A
     * {@link #factorRows} slot always takes one.
     */
    int refinements = 0;

    private void woodbury(int i, double[] r, double[] out, boolean[] mask) {
        SparseDelassus d = source;
        double shift = slotShift[i];
        if (mask == null) {
            d.transposeTimes(r, vec);
        } else {
            for (int k = 0; k < rows; k++) {
                out[k] = mask[k] ? r[k] : 0;
            }
            d.transposeTimes(out, vec);
        }
        solveNormal(i, vec);
        for (int k = 0; k < rows; k++) {
            out[k] = mask == null || mask[k] ? (r[k] - d.rowTimes(k, vec)) / shift : 0;
        }
    }
}
