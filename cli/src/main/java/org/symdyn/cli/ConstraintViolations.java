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
 * {@link #TOLERANCE} at q0. The simulations do not assemble the state: time stepping's first steps pull the loop shut
 * (a four-bar started 2.8 m open diverged at its fifth step with advice about the step size), and the continuous
 * system, which holds G v̇ = γ only, keeps the loop as far open as it starts. The state is
 * the user's to fix (symdyn evaluate assembles one), so the command says so, at the constraint.
 */
final class ConstraintViolations {
    /** Open by more than this (m or rad) is a violation: above the roundoff of an assembled state written out. */
    static final double TOLERANCE = 1e-6;

    private ConstraintViolations() {
    }

    /**
     * One warning per model constraint whose position rows {@code q} leaves open, located at the constraint; for the
     * time-stepping system, which pulls the rows shut, or the continuous one, which holds G v̇ = γ and leaves the error
     * where it is.
     */
    static List<Diagnostic> of(Model model, double[] q, boolean continuous) {
        List<Diagnostic> warnings = new ArrayList<>();
        if (model.constraints().isEmpty()) {
            return warnings;
        }
        ConstraintSet set = ConstraintSet.of(model);
        ConstraintData data = set.bindGeneric();
        double[] phi = new double[set.size()];
        data.positionError(q, phi);
        for (ConstraintGroup g : set.groups()) {
            if (!g.isModelConstraint()) {
                continue;
            }
            int worst = -1;
            for (int k = 0; k < g.size(); k++) {
                double e = Math.abs(phi[g.rowOffset() + k]);
                if (g.holonomic(k) && e > TOLERANCE && (worst < 0 || e > Math.abs(phi[g.rowOffset() + worst]))) {
                    worst = k;
                }
            }
            if (worst < 0) {
                continue;
            }
            ConstraintModel c = model.constraints().get(g.modelConstraint());
            warnings.add(Diagnostic.warning(c.location(), "constraint '" + g.name() + "' does not hold at the"
                    + " initial state: its row '" + g.rowNames().get(worst) + "' is off by "
                    + LimitViolations.number(Math.abs(phi[g.rowOffset() + worst])) + "; the simulation does not"
                    + " assemble the state, and " + (continuous ? "the continuous system keeps the constraint as far"
                            + " from closed as it starts (it holds its accelerations only)"
                            : "its first steps pull the constraint shut") + " (start from an assembled state:"
                    + " symdyn evaluate with \"q_init\" gives the nearest one, as assembly_q)"));
        }
        return warnings;
    }
}
