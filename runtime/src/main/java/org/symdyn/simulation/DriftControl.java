package org.symdyn.simulation;

import org.symdyn.constraints.ConstraintData;

/**
 * How a {@link Simulator} keeps a constrained state on the constraint manifold φ(q) = 0, G(q) v = 0. The
 * accelerations satisfy G v̇ = γ exactly, but integration errors make φ and φ̇ drift away from zero (linearly or
 * worse with time, and unstably in the position error, whose dynamics φ̈ = 0 has a double eigenvalue at 0).
 */
public enum DriftControl {
    /**
     * The default: each group's Baumgarte stabilisation as the constraint data says — for a model file's
     * constraints, on with the file's {@code baumgarte_time_constant} where it gives one, off elsewhere — and no
     * projection. The simulator changes no group's setting.
     */
    AS_SET,
    /** Nothing: φ and φ̇ drift (for comparison). Baumgarte is switched off in every group. */
    NONE,
    /**
     * Baumgarte stabilisation: every group's γ gets -2α φ̇ - β² φ (α = β = 1/T_stab, the groups' settings or the
     * simulator's time constant), so that φ̈ + 2α φ̇ + β² φ = 0: errors decay with time constant T_stab instead of
     * growing, but are not removed: they settle where the integration error balances the decay. RBDL's remedy.
     */
    BAUMGARTE,
    /**
     * Projection after every step: q onto φ(q) = 0 by weighted Newton steps (Assembly.assembleQ), then v onto
     * G(q) v = 0 by the exact weighted projection (Assembly.assembleV). The errors are reset to the Newton
     * tolerance and rounding every step; the projection removes a little energy (of the order of the integration
     * error). Simbody's remedy. Baumgarte is switched off in every group.
     */
    PROJECTION,
    /** Baumgarte in the accelerations and projection after every step. */
    BOTH;

    /** True if γ carries the Baumgarte terms. */
    public boolean usesBaumgarte() {
        return this == BAUMGARTE || this == BOTH;
    }

    /** True if the state is projected after every step. */
    public boolean usesProjection() {
        return this == PROJECTION || this == BOTH;
    }

    /**
     * Sets every group's Baumgarte switch of {@code set} as this drift control says: on for BAUMGARTE and BOTH (with
     * {@code timeConstant} T_stab (s) when it is not NaN, else each group's own), off for NONE and PROJECTION; for
     * AS_SET no group changes.
     */
    public void configure(ConstraintData set, double timeConstant) {
        if (this == AS_SET) {
            return;
        }
        for (int g = 0; g < set.set().groupCount(); g++) {
            if (usesBaumgarte()) {
                if (!Double.isNaN(timeConstant)) {
                    set.setBaumgarteTimeConstant(g, timeConstant);
                }
                set.enableBaumgarte(g);
            } else {
                set.disableBaumgarte(g);
            }
        }
    }
}
