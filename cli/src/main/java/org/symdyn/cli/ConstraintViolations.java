package org.symdyn.cli;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintGroup;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;

/**
 * The warnings of an initial state that the model's constraints do not hold: a loop open by more than
 * {@link #TOLERANCE} at q0, or velocities that move it apart (φ̇ = G v above {@link #TOLERANCE} per second). The
 * simulations do not assemble the state: time stepping's first steps pull the loop shut and its first impulse takes
 * the velocities onto the constraints (a four-bar started 2.8 m open diverged at its fifth step with advice about the
 * step size), and the continuous system, which holds G v̇ = γ only, keeps the loop as far open as it starts and its
 * drift G v as it starts. The state is the user's to fix (symdyn evaluate assembles one), so the commands say so, at
 * the constraint. One instance checks many states (a sweep of rollouts) against one binding.
 */
final class ConstraintViolations {
    /** Off by more than this (m or rad, per second for velocities): above the roundoff of a state written out. */
    static final double TOLERANCE = 1e-6;

    private final Model model;
    private final ConstraintSet set;
    private final ConstraintData data;
    private final double[] phi;

    private ConstraintViolations(Model model) {
        this.model = model;
        this.set = ConstraintSet.of(model);
        this.data = set.bindGeneric();
        this.phi = new double[set.size()];
    }

    /** The checker of {@code model}'s own constraints, or null when it has none. */
    static ConstraintViolations of(Model model) {
        return model.constraints().isEmpty() ? null : new ConstraintViolations(model);
    }

    /**
     * One warning per model constraint that (q, v) leaves open or moves apart, located at the constraint; for the
     * time-stepping system or the continuous one ({@code continuous}), which say different things of it.
     */
    List<Diagnostic> of(double[] q, double[] v, boolean continuous) {
        List<Diagnostic> warnings = new ArrayList<>();
        data.positionError(q, phi);
        check(warnings, false, continuous);
        if (v != null) {
            data.velocityError(q, v, phi);
            check(warnings, true, continuous);
        }
        return warnings;
    }

    private void check(List<Diagnostic> warnings, boolean velocity, boolean continuous) {
        for (ConstraintGroup g : set.groups()) {
            if (!g.isModelConstraint()) {
                continue;
            }
            int worst = -1;
            for (int k = 0; k < g.size(); k++) {
                double e = Math.abs(phi[g.rowOffset() + k]);
                if ((velocity || g.holonomic(k)) && e > TOLERANCE
                        && (worst < 0 || e > Math.abs(phi[g.rowOffset() + worst]))) {
                    worst = k;
                }
            }
            if (worst < 0) {
                continue;
            }
            ConstraintModel c = model.constraints().get(g.modelConstraint());
            String off = LimitViolations.number(Math.abs(phi[g.rowOffset() + worst]));
            String what = velocity
                    ? "the initial velocities move its row '" + g.rowNames().get(worst) + "' at " + off + " per second;"
                            + " the simulation does not assemble them, and " + (continuous ? "the continuous system"
                            + " keeps that drift (it holds the accelerations only)" : "the first step's impulse takes"
                            + " them onto the constraint")
                    : "its row '" + g.rowNames().get(worst) + "' is off by " + off + "; the simulation does not"
                            + " assemble the state, and " + (continuous ? "the continuous system keeps the constraint"
                            + " as far from closed as it starts (it holds its accelerations only)"
                            : "its first steps pull the constraint shut");
            warnings.add(Diagnostic.warning(c.location(), "constraint '" + g.name() + "' does not hold at the"
                    + " initial state: " + what + " (start from an assembled state: symdyn evaluate with \"q_init\""
                    + " and \"v_init\" gives the nearest one, as assembly_q and assembly_v)"));
        }
    }
}
