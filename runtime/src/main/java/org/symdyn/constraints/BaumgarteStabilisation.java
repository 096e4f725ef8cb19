package org.symdyn.constraints;

/**
 * The Baumgarte stabilisation of a bound set, group by group: whether each group's γ carries the term
 * -2α φ̇ - β² φ, and its α and β (1/s), which start at the group's defaults ({@link ConstraintGroup}). With the term
 * the rows' acceleration obeys φ̈ + 2α φ̇ + β² φ = 0, so a drift φ decays with time constant 1/α when α = β.
 * Owned by one {@link ConstraintData}; set through its methods.
 */
final class BaumgarteStabilisation {
    private final ConstraintSet set;
    /** By group index: enabled, α and β. */
    final boolean[] enabled;
    final double[] alpha;
    final double[] beta;

    BaumgarteStabilisation(ConstraintSet set) {
        this.set = set;
        int n = set.groupCount();
        enabled = new boolean[n];
        alpha = new double[n];
        beta = new double[n];
        for (ConstraintGroup group : set.groups()) {
            int i = group.index();
            enabled[i] = group.baumgarteByDefault();
            alpha[i] = group.defaultBaumgarteAlpha();
            beta[i] = group.defaultBaumgarteBeta();
        }
    }

    boolean isEnabled(int groupIndex) {
        return enabled[set.group(groupIndex).index()];
    }

    void setEnabled(int groupIndex, boolean on) {
        enabled[set.group(groupIndex).index()] = on;
    }

    void setTimeConstant(int groupIndex, double timeConstant) {
        if (!(timeConstant > 0) || Double.isInfinite(timeConstant)) {
            throw new IllegalArgumentException("Baumgarte time constant must be positive, got " + timeConstant);
        }
        int i = set.group(groupIndex).index();
        alpha[i] = beta[i] = 1 / timeConstant;
    }

    void setCoefficients(int groupIndex, double a, double b) {
        if (!(a >= 0) || !(b >= 0) || Double.isInfinite(a) || Double.isInfinite(b)) {
            throw new IllegalArgumentException("Baumgarte coefficients must be finite and >= 0, got " + a + ", " + b);
        }
        int i = set.group(groupIndex).index();
        alpha[i] = a;
        beta[i] = b;
    }

    double alpha(int groupIndex) {
        return alpha[set.group(groupIndex).index()];
    }

    double beta(int groupIndex) {
        return beta[set.group(groupIndex).index()];
    }

    /** T_stab = 1/α when α = β, NaN otherwise. */
    double timeConstant(int groupIndex) {
        int i = set.group(groupIndex).index();
        return alpha[i] == beta[i] && alpha[i] > 0 ? 1 / alpha[i] : Double.NaN;
    }

    /** The group's term -2α φ̇ - β² φ for its errors (group-sized arrays) into {@code out}, enabled or not. */
    void term(int groupIndex, double[] phi, double[] phidot, double[] out) {
        ConstraintGroup group = set.group(groupIndex);
        double a = alpha[group.index()];
        double b = beta[group.index()];
        for (int k = 0; k < group.size(); k++) {
            out[k] = -2 * a * phidot[k] - b * b * phi[k];
        }
    }

    /** True if one of the first {@code modelGroups} groups (the model's own) is stabilised. */
    boolean anyEnabledBelow(int modelGroups) {
        for (int i = 0; i < modelGroups; i++) {
            if (enabled[i]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds the term -2α φ̇ - β² φ to {@code out} on the rows of every enabled group, for the stacked errors of all
     * rows (m entries each).
     */
    void addTerms(ConstraintGroup[] groups, double[] phi, double[] phidot, double[] out) {
        for (ConstraintGroup group : groups) {
            int i = group.index();
            if (enabled[i]) {
                double a2 = 2 * alpha[i];
                double b2 = beta[i] * beta[i];
                for (int r = group.rowOffset(), end = r + group.size(); r < end; r++) {
                    out[r] -= a2 * phidot[r] + b2 * phi[r];
                }
            }
        }
    }
}
