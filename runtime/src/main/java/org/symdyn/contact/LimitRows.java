package org.symdyn.contact;

/**
 * The joint-limit rows of an acceleration-level problem ({@link AccelerationProblemData}): for each single-dof joint
 * with a finite bound ({@link JointLimits}), a unilateral row when q_j is within the margin of the bound (or beyond
 * it) and v_j does not leave the bound faster than the tolerance:
 * <pre>
 *   lower bound:  L = +e_j,   0 ≤ v̇_j ⊥ f_L ≥ 0
 *   upper bound:  L = −e_j,   0 ≤ −v̇_j ⊥ f_L ≥ 0          kL = 0 (L is constant)
 * </pre>
 * Units: rad or m for q, rad/s or m/s for v. L is row-major nu × nv, a live buffer. Allocated at construction for
 * both bounds of every limited joint; {@link #update} does not allocate. Not thread-safe.
 */
final class LimitRows {
    private final JointLimits limits;
    private final int nv;
    private final double[] l;
    private final double[] kl;
    private final int[] limitOf; // limit index of each row
    private final int[] side; // +1 lower, −1 upper
    private int count;
    private double margin = 1e-6;
    private double velocityTolerance = 1e-6;

    LimitRows(JointLimits limits, int nv) {
        this.limits = limits;
        this.nv = nv;
        int capacity = Math.max(1, 2 * limits.count());
        l = new double[capacity * nv];
        kl = new double[capacity];
        limitOf = new int[capacity];
        side = new int[capacity];
    }

    /** A joint within this distance (rad or m, ≥ 0) of a bound is at its limit (default 1e-6). */
    void setMargin(double margin) {
        this.margin = margin;
    }

    /** A joint leaving its bound faster than this (rad/s or m/s, ≥ 0) is not limited (default 1e-6). */
    void setVelocityTolerance(double tolerance) {
        this.velocityTolerance = tolerance;
    }

    /** The rows active at (q, v). */
    void update(double[] q, double[] v) {
        count = 0;
        for (int i = 0; i < limits.count(); i++) {
            double qj = q[limits.qIndex[i]];
            double vj = v[limits.vIndex[i]];
            if (qj - limits.lower[i] <= margin && vj <= velocityTolerance) {
                add(i, +1);
            }
            if (limits.upper[i] - qj <= margin && -vj <= velocityTolerance) {
                add(i, -1);
            }
        }
    }

    private void add(int limit, int s) {
        int row = count++;
        int o = row * nv;
        for (int j = 0; j < nv; j++) {
            l[o + j] = 0;
        }
        l[o + limits.vIndex[limit]] = s;
        kl[row] = 0;
        limitOf[row] = limit;
        side[row] = s;
    }

    /** nu: the active rows. */
    int count() {
        return count;
    }

    /** The most rows there can be. */
    int capacity() {
        return 2 * limits.count();
    }

    double[] l() {
        return l;
    }

    double[] kl() {
        return kl;
    }

    String name(int row) {
        return limits.name[limitOf[row]];
    }

    int side(int row) {
        return side[row];
    }

    int velocityIndex(int row) {
        return limits.vIndex[limitOf[row]];
    }
}
