package org.symdyn.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.symdyn.contact.ContactSettings;
import org.symdyn.model.Body;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * The warnings of an initial state whose joints start beyond their position limits, for time stepping. The stepper
 * recovers a violation φ &lt; 0 by asking the joint for the velocity −β φ / h at the next step (Baumgarte's term,
 * {@code ContactSettings.limitOffset}), a velocity that grows as 1 / h and stays once the joint is back within its
 * range: a state that starts 0.53 rad beyond iiwa14's first limit leaves that joint at about 107 rad/s with h = 1 ms.
 * The state is the user's to fix, so the command says so instead of simulating it silently.
 */
final class LimitViolations {
    /**
     * Beyond a bound by more than this (rad or m) is a violation: far below any limit a model states, above the
     * roundoff of a state a program wrote at the bound.
     */
    static final double TOLERANCE = 1e-6;

    private LimitViolations() {
    }

    /**
     * One warning per single-dof joint of {@code model} that {@code q} puts beyond a bound, located at the joint.
     *
     * @param h        the time step (s)
     * @param settings the stepper's settings: how much of a violation it recovers per step
     */
    static List<Diagnostic> of(Model model, double[] q, double h, ContactSettings settings) {
        double beta = settings.penetrationRecovery();
        List<Diagnostic> warnings = new ArrayList<>();
        for (Body body : model.bodies()) {
            Joint j = body.joint();
            if (!j.isLimited()) {
                continue;
            }
            double x = q[j.qIndex()];
            double below = j.lower() - x;
            double above = x - j.upper();
            if (!(below > TOLERANCE || above > TOLERANCE)) {
                continue;
            }
            boolean upper = above > TOLERANCE;
            double depth = upper ? above : below;
            String unit = j.type() == JointType.PRISMATIC ? "m/s" : "rad/s";
            String start = String.format(Locale.ROOT, "joint '%s' starts at q = %s, beyond its %s limit %s by %s: ",
                    j.name(), number(x), upper ? "upper" : "lower", number(upper ? j.upper() : j.lower()),
                    number(depth));
            String effect = beta > 0 ? String.format(Locale.ROOT, "the time stepper recovers %s of the violation per"
                    + " step of %s s, which leaves the joint moving at about %s %s once it is back", number(beta),
                    number(h), number(-settings.limitOffset(-depth, h)), unit)
                    : "with no penetration recovery the time stepper only keeps it from going further";
            warnings.add(Diagnostic.warning(j.location(), start + effect + " (start the joint within its limits)"));
        }
        return warnings;
    }

    /** Four significant digits, without trailing zeros where the number is written out (1.5, 0.001, 106.6). */
    static String number(double x) {
        String g = String.format(Locale.ROOT, "%.4g", x);
        double a = Math.abs(x);
        if (a != 0 && (a < 1e-4 || a >= 1e6)) {
            return g;
        }
        return new java.math.BigDecimal(g).stripTrailingZeros().toPlainString();
    }
}
