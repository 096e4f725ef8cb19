package org.symdyn.model;

import java.util.List;
import org.symdyn.spatial.InertiaValidity;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The rules a link's inertia must follow to be a physical body, as {@link ModelBuilder} applies them: to each
 * declared inertia, and to a moving body's inertia once the links fixed to it are merged in. Every problem is
 * added to the list given, as a {@link Diagnostic} at the link's location.
 */
final class InertiaRules {
    private InertiaRules() {
    }

    /**
     * Adds the findings of {@link InertiaValidity#ofDeclared} on the inertia declared on a link, in its frame, as
     * diagnostics at the link's location.
     */
    static void checkDeclared(String link, RigidBodyInertia inertia, boolean moving, SourceLocation location,
            List<Diagnostic> diagnostics) {
        for (InertiaValidity.Finding f : InertiaValidity.ofDeclared(link, inertia, moving)) {
            diagnostics.add(f.error() ? Diagnostic.error(location, f.message())
                    : Diagnostic.warning(location, f.message()));
        }
    }

    /**
     * A moving body's inertia after merging the links fixed to it must still be a physical one: an accepted
     * placeholder's non-physical inertia (a warning on its own) can make it indefinite.
     */
    static void checkMerged(String link, RigidBodyInertia inertia, List<String> merged, SourceLocation location,
            List<Diagnostic> errors) {
        String with = "with the links fixed to it (" + String.join(", ", merged) + ")";
        double[] eig = Double.isFinite(inertia.mass()) ? InertiaValidity.principalMoments(inertia) : null;
        boolean finite = eig != null;
        for (int i = 0; i < 3 && finite; i++) {
            finite = Double.isFinite(inertia.com(i));
        }
        if (!finite) {
            errors.add(Diagnostic.error(location, "link '" + link + "': " + with + ", its mass, centre of mass"
                    + " or inertia is not finite (numbers too large)"));
            return;
        }
        if (eig[0] < -InertiaValidity.ROUNDING * InertiaValidity.roundingScale(inertia, eig)) {
            errors.add(Diagnostic.error(location, String.format("link '%s': %s, the inertia about the centre of"
                    + " mass is not positive semi-definite (principal moments %.6g, %.6g, %.6g kg m²): not a physical"
                    + " body", link, with, eig[0], eig[1], eig[2])));
        }
    }
}
