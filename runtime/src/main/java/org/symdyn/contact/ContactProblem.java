package org.symdyn.contact;

/**
 * A contact problem in Delassus form, the input of every {@link ContactSolver}: find λ (m rows, grouped in blocks)
 * with σ = W λ + b such that every block obeys its law:
 * <ul>
 * <li><b>bilateral</b> row: σ = 0, λ free (a loop closure, a bilateral {@code contact}, a coupler);</li>
 * <li><b>unilateral</b> row: 0 ≤ σ ⊥ λ ≥ 0 (a joint limit);</li>
 * <li><b>Coulomb</b> block of three rows [n; t1; t2]: Signorini and Coulomb's law with maximal dissipation,
 * written as De Saxcé's cone complementarity K_μ ∋ λ ⊥ σ + μ ‖σ_t‖ e_n ∈ K_μ* ({@link CoulombCone}): no
 * penetration (σ_n ≥ 0), no normal force unless touching, sticking (σ_t = 0) inside the cone, and on its boundary
 * a friction force opposite to the slip.</li>
 * </ul>
 * W (m x m, symmetric positive semi-definite, row-major with stride m) is J H⁻¹ Jᵀ and b the velocities the rows
 * would have without contact forces, plus the offsets of stabilisation and restitution (for the time-stepping
 * problem: b = J v_free + offsets, λ impulses in N·s, σ velocities in m/s). Redundant rows (four coplanar corners of
 * a box) make W singular; the law still determines the velocities, not the split of λ.
 *
 * <p>Filled by {@link TimeStepper} (or by hand: {@link #clear}, then blocks, then {@link #delassus()} and
 * {@link #offset()}); allocated once for a capacity of rows.
 */
public final class ContactProblem {
    /** Block kinds. */
    public static final int BILATERAL = 0;
    public static final int UNILATERAL = 1;
    public static final int COULOMB = 2;

    private final int capacity;
    private final double[] W;
    private final double[] b;
    private final int[] blockStart;
    private final int[] blockKind;
    private final double[] blockFriction;
    /** W in sparse form, when the problem has it; null when W is only the dense matrix above. */
    private final SparseDelassus operator;
    /** The form the solvers read now: {@link #operator}, or null for the dense matrix. */
    private SparseDelassus sparse;
    /** Whether {@link #W} is an m x m buffer (false: a placeholder, the problem is sparse only). */
    private final boolean dense;
    private int rows;
    private int blocks;
    private int coulombBlocks;

    /** A problem of at most {@code capacity} rows. */
    public ContactProblem(int capacity) {
        this(capacity, null);
    }

    /**
     * A problem of at most {@code capacity} rows whose W is the sparse operator {@code sparse} (its rows, in this
     * problem's row order), not an m x m matrix: for many bodies ({@link SparseDelassus}). {@link #delassus()} is
     * then unavailable; {@link #w}, {@link #velocity} and {@link #measure} read the operator. Null: a dense W.
     */
    public ContactProblem(int capacity, SparseDelassus sparse) {
        this(capacity, sparse, sparse == null);
    }

    /**
     * A problem with both forms of W when {@code keepDense} and {@code sparse} is given: the sparse operator and an
     * m x m buffer, the form the solvers read chosen per solve ({@link #readSparse}); it starts on the sparse one.
     * {@code keepDense} false with a null operator is refused.
     */
    public ContactProblem(int capacity, SparseDelassus sparse, boolean keepDense) {
        if (sparse == null && !keepDense) {
            throw new IllegalArgumentException("a contact problem needs a sparse operator or a dense W");
        }
        this.capacity = capacity;
        this.operator = sparse;
        this.sparse = sparse;
        this.dense = keepDense;
        W = new double[keepDense ? Math.max(1, capacity * capacity) : 1];
        b = new double[Math.max(1, capacity)];
        blockStart = new int[capacity + 1];
        blockKind = new int[Math.max(1, capacity)];
        blockFriction = new double[Math.max(1, capacity)];
    }

    /** Removes every block. */
    public void clear() {
        rows = 0;
        blocks = 0;
        coulombBlocks = 0;
        blockStart[0] = 0;
    }

    /** Appends a bilateral row; returns its row index. */
    public int addBilateral() {
        return add(BILATERAL, 1, 0);
    }

    /** Appends a unilateral row; returns its row index. */
    public int addUnilateral() {
        return add(UNILATERAL, 1, 0);
    }

    /**
     * The widest cone a block is given: a friction coefficient above it is taken as this one. A cone of μ = 1000
     * already holds any tangential impulse a step can produce (a thousand times the normal one), while a wider one
     * breaks the solvers in double precision: De Saxcé's term μ ‖σ_t‖ turns the rounding of σ_t into a residual of
     * μ · 1e-17 m/s (every solve unconverged from μ ≈ 1e5 at a tolerance of 1e-12), and at μ = 1e7 a box that
     * stopped sliding sank 1.8 mm into the floor; at 1e12 both solvers took λ = 0 for a contact approaching at 1 m/s.
     * Gazebo models write 1e5 and more for "does not slip".
     */
    public static final double MAX_FRICTION = 1000;

    /**
     * Appends a Coulomb block [n; t1; t2] of friction μ ≥ 0 (above {@link #MAX_FRICTION}, that); returns its first
     * row index.
     */
    public int addCoulomb(double mu) {
        if (!(mu >= 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("friction " + mu + " must be a finite number >= 0");
        }
        coulombBlocks++;
        return add(COULOMB, 3, Math.min(mu, MAX_FRICTION));
    }

    private int add(int kind, int size, double mu) {
        if (rows + size > capacity) {
            throw new IllegalStateException("contact problem capacity " + capacity + " rows exceeded");
        }
        int start = rows;
        blockKind[blocks] = kind;
        blockFriction[blocks] = mu;
        blocks++;
        rows += size;
        blockStart[blocks] = rows;
        return start;
    }

    public int rows() {
        return rows;
    }

    public int capacity() {
        return capacity;
    }

    public int blockCount() {
        return blocks;
    }

    /** The number of Coulomb blocks (contacts). */
    public int contactCount() {
        return coulombBlocks;
    }

    public int blockStart(int block) {
        return blockStart[block];
    }

    public int blockSize(int block) {
        return blockStart[block + 1] - blockStart[block];
    }

    public int blockKind(int block) {
        return blockKind[block];
    }

    /** μ of a Coulomb block (0 for other blocks). */
    public double blockFriction(int block) {
        return blockFriction[block];
    }

    /**
     * W, row-major with stride {@link #rows()} (live buffer: fill after adding every block).
     *
     * @throws IllegalStateException for a problem whose W is sparse ({@link #sparseDelassus()})
     */
    public double[] delassus() {
        if (sparse != null) {
            throw new IllegalStateException("this contact problem's W is a sparse operator (SparseDelassus), not a"
                    + " dense matrix");
        }
        return W;
    }

    /**
     * Makes the solvers read the sparse operator (true) or the dense W (false; the caller forms it), for a problem
     * made with both forms.
     *
     * @throws IllegalStateException if the problem lacks that form
     */
    public void readSparse(boolean useOperator) {
        if (useOperator ? operator == null : !dense) {
            throw new IllegalStateException("this contact problem has no " + (useOperator ? "sparse" : "dense")
                    + " form of W");
        }
        sparse = useOperator ? operator : null;
    }

    /** The sparse form of W the solvers read, or null when they read {@link #delassus()}'s dense matrix. */
    public SparseDelassus sparseDelassus() {
        return sparse;
    }

    /** W_rc, from either form. */
    public double w(int r, int c) {
        return sparse != null ? sparse.w(r, c) : W[r * rows + c];
    }

    /** b (live buffer, {@link #rows()} entries). */
    public double[] offset() {
        return b;
    }

    /** σ = W λ + b. */
    public void velocity(double[] lambda, double[] sigma) {
        int m = rows;
        if (sparse != null) {
            sparse.accumulate(lambda);
            for (int i = 0; i < m; i++) {
                sigma[i] = b[i] + sparse.rowDot(i);
            }
            return;
        }
        for (int i = 0; i < m; i++) {
            double s = b[i];
            int o = i * m;
            for (int j = 0; j < m; j++) {
                s += W[o + j] * lambda[j];
            }
            sigma[i] = s;
        }
    }

    /** Projects λ onto the blocks' sets (free, λ ≥ 0, K_μ) in place. */
    public void project(double[] lambda) {
        for (int k = 0; k < blocks; k++) {
            int s = blockStart[k];
            switch (blockKind[k]) {
                case UNILATERAL -> lambda[s] = Math.max(lambda[s], 0);
                case COULOMB -> CoulombCone.project(blockFriction[k], lambda, s);
                default -> {
                }
            }
        }
    }

    /**
     * Measures λ against every block's law (see {@link ContactReport}), given σ = W λ + b, into the report's
     * feasibility, complementarity and violation fields; returns the violation (m/s).
     */
    public double measure(double[] lambda, double[] sigma, ContactReport report) {
        double primal = 0, dual = 0, compl = 0, worst = 0;
        int worstBlock = blocks > 0 ? 0 : -1;
        for (int k = 0; k < blocks; k++) {
            int s = blockStart[k];
            double v;
            switch (blockKind[k]) {
                case BILATERAL -> {
                    v = Math.abs(sigma[s]);
                    dual = Math.max(dual, v);
                }
                case UNILATERAL -> {
                    double l = lambda[s], sg = sigma[s], w = w(s, s);
                    primal = Math.max(primal, -l);
                    dual = Math.max(dual, -sg);
                    compl = Math.max(compl, Math.abs(l * sg));
                    // |λ − max(0, λ − σ/w)| w = |min(λ w, σ)|
                    v = w > 0 ? Math.abs(Math.min(l * w, sg)) : Math.max(-sg, 0);
                }
                default -> {
                    double mu = blockFriction[k];
                    double ln = lambda[s], la = lambda[s + 1], lb = lambda[s + 2];
                    double sa = sigma[s + 1], sb = sigma[s + 2];
                    double sn = sigma[s] + mu * Math.sqrt(sa * sa + sb * sb);
                    primal = Math.max(primal, CoulombCone.distance(mu, ln, la, lb));
                    dual = Math.max(dual, CoulombCone.dualDistance(mu, sn, sa, sb));
                    compl = Math.max(compl, Math.abs(ln * sn + la * sa + lb * sb));
                    double w = Math.max(w(s, s), Math.max(w(s + 1, s + 1), w(s + 2, s + 2)));
                    if (w > 0) {
                        double pn = ln - sn / w, pa = la - sa / w, pb = lb - sb / w;
                        double s2 = Math.sqrt(pa * pa + pb * pb);
                        // P_K(p), inline (CoulombCone.project without an array)
                        if (s2 <= mu * pn) {
                            // inside: unchanged
                        } else if (mu * s2 <= -pn) {
                            pn = 0;
                            pa = 0;
                            pb = 0;
                        } else {
                            double p = (pn + mu * s2) / (1 + mu * mu);
                            double f = s2 > 0 ? mu * p / s2 : 0;
                            pn = p;
                            pa *= f;
                            pb *= f;
                        }
                        double dn = ln - pn, da = la - pa, db = lb - pb;
                        v = Math.sqrt(dn * dn + da * da + db * db) * w;
                    } else {
                        v = Math.max(-sn, 0);
                    }
                    // The residual above shrinks as 1/μ² where the cone is wide: at μ = 1e12 it read 1e-12 for
                    // λ = 0 with the contact approaching at 1 m/s. Whatever μ, the contact must not approach.
                    v = Math.max(v, -sigma[s]);
                }
            }
            if (!(v <= worst) && !Double.isNaN(worst)) { // a NaN anywhere makes the violation NaN
                worst = v;
                worstBlock = k;
            }
        }
        report.primalFeasibility = primal;
        report.dualFeasibility = dual;
        report.complementarity = compl;
        report.violation = worst;
        report.worstBlock = worstBlock;
        report.rows = rows;
        report.contacts = coulombBlocks;
        return worst;
    }
}
