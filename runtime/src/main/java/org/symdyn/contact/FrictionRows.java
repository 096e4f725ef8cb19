package org.symdyn.contact;

/**
 * The friction rows F of the non-sliding contacts of an acceleration-level problem ({@link AccelerationProblemData}):
 * r rows per contact with μ &gt; 0, one per spanning direction d_k of its polygonal cone ({@link SpanningDirections}),
 * <pre>
 *   F_row = d_k · J_c = cos_k J_t1 + sin_k J_t2,   kF_row = d_k · (bias acceleration),   d_k in world coordinates
 * </pre>
 * (J_t1, J_t2 the contact's tangent rows of {@link ContactKinematics}). The solver negates them for the cone's other r
 * edges. F is row-major (rows × nv), a live buffer, reallocated only by {@link #setSpanning}. Not thread-safe.
 */
final class FrictionRows {
    private final int nv;
    private final int pairCapacity;
    private int spanning = 2;
    private SpanningDirections span;
    private double[] f;
    private double[] kf;
    private int[] contactOf;
    private double[] direction; // 3 per row, world
    private int count;

    FrictionRows(int nv, int pairCapacity) {
        this.nv = nv;
        this.pairCapacity = pairCapacity;
        allocate();
    }

    private void allocate() {
        int pc = Math.max(1, pairCapacity);
        f = new double[pc * spanning * nv + nv];
        kf = new double[pc * spanning + 1];
        contactOf = new int[pc * spanning + 1];
        direction = new double[3 * (pc * spanning + 1)];
        span = new SpanningDirections(spanning);
    }

    /** r ≥ 1 spanning directions per contact (a set-up call: reallocates). */
    void setSpanning(int r) {
        spanning = r;
        allocate();
    }

    /** r per contact with friction. */
    int spanning() {
        return spanning;
    }

    /** The most rows a problem can have. */
    int capacity() {
        return pairCapacity * spanning;
    }

    /** Forgets the rows of the last update. */
    void clear() {
        count = 0;
    }

    /**
     * Adds the r rows of problem contact c, index k of {@code contacts} (updated at this state), with its bias
     * accelerations (3 per kinematics index, contact frame). Returns the first row added.
     */
    int add(int c, int k, int r, ContactKinematics contacts, double[] contactBias) {
        int first = count;
        double[] jac = contacts.jacobian();
        int o1 = (3 * k + 1) * nv;
        int o2 = (3 * k + 2) * nv;
        for (int d = 0; d < r; d++) {
            double cs = span.cos[d];
            double sn = span.sin[d];
            int row = count++;
            int fo = row * nv;
            for (int j = 0; j < nv; j++) {
                f[fo + j] = cs * jac[o1 + j] + sn * jac[o2 + j];
            }
            kf[row] = cs * contactBias[3 * k + 1] + sn * contactBias[3 * k + 2];
            contactOf[row] = c;
            for (int i = 0; i < 3; i++) {
                direction[3 * row + i] = cs * contacts.frame(k, 1, i) + sn * contacts.frame(k, 2, i);
            }
        }
        return first;
    }

    /** nnr: rows of the last update. */
    int count() {
        return count;
    }

    double[] f() {
        return f;
    }

    double[] kf() {
        return kf;
    }

    int contact(int row) {
        return contactOf[row];
    }

    double direction(int row, int i) {
        return direction[3 * row + i];
    }
}
