package org.symdyn.model;

import java.util.Arrays;
import java.util.List;
import org.ejml.data.Complex_F64;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
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
     * Relative rounding tolerance of a principal moment: below {@code -ROUNDING} times the link's inertia scale
     * ({@link #inertiaScale}) a moment is negative, a non-physical body; within it, zero.
     */
    static final double ROUNDING = 1e-12;
    /** The smallest meaningful radius of gyration squared (m²): 1 mm, for a point mass at its link's origin. */
    private static final double MIN_GYRATION_SQUARED = 1e-6;

    /**
     * Checks the inertia declared on a link, in its frame: a finite non-negative mass; unless the link is massless
     * (mass and inertia zero) or a point mass on a fixed joint (not {@code moving}, inertia zero), principal moments
     * of the inertia about the centre of mass that are not negative beyond rounding (an error: not a physical body)
     * and that satisfy the triangle inequality (a warning). A singular inertia (a smallest principal moment zero to
     * rounding: a point mass, as Pinocchio accepts, a rod, or rounding noise such as a lone 2.4e-35 entry) is a
     * warning: what it can make singular is the joint-space inertia H, which {@code JointSpaceInertiaCheck} refuses
     * on the assembled model. Rounding is {@value #ROUNDING} of the link's inertia scale m·max(|c|², 1 mm²) or its
     * largest principal moment, whichever is larger. A placeholder link lighter than {@link ModelBuilder#DUMMY_MASS}
     * kg gets a warning where another gets an error.
     */
    static void checkDeclared(String link, RigidBodyInertia inertia, boolean moving, SourceLocation location,
            List<Diagnostic> diagnostics) {
        double m = inertia.mass();
        if (!Double.isFinite(m)) {
            diagnostics.add(Diagnostic.error(location, "link '" + link + "': mass is not finite"));
            return;
        }
        if (m < 0) {
            diagnostics.add(Diagnostic.error(location, "link '" + link + "': mass " + m + " kg is negative"));
            return;
        }
        if (m == 0 && isZero(inertia)) {
            // A massless link: fine as a frame, and as a moving link when links fixed to it carry mass (the
            // merged mass of a moving body is checked in build()).
            return;
        }
        if (!moving && isZero(inertia)) {
            return; // a point mass on a fixed link: physically valid, merged by the parallel-axis theorem
        }
        boolean dummy = m < ModelBuilder.DUMMY_MASS;
        double[] eig = principalMoments(inertia);
        if (eig == null) {
            diagnostics.add(Diagnostic.error(location, "link '" + link + "': inertia is not finite"));
            return;
        }
        double scale = Math.max(Math.abs(eig[2]), Double.MIN_NORMAL);
        if (!(eig[0] > 1e-12 * scale) || !(eig[0] > 0)) {
            String msg = String.format("link '%s': inertia about the centre of mass is not positive definite "
                    + "(principal moments %.6g, %.6g, %.6g kg m²)", link, eig[0], eig[1], eig[2]);
            if (dummy) {
                diagnostics.add(Diagnostic.warning(location, msg + " on a placeholder link of " + m + " kg"));
            } else if (eig[0] < -ROUNDING * inertiaScale(inertia, eig)) {
                diagnostics.add(Diagnostic.error(location, msg));
            } else {
                diagnostics.add(Diagnostic.warning(location, String.format("link '%s': inertia about the centre of"
                        + " mass is singular to rounding (principal moments %.6g, %.6g, %.6g kg m² for %s kg: a point"
                        + " mass or a rod); accepted while the joint-space inertia stays positive definite", link,
                        eig[0], eig[1], eig[2], m)));
            }
            return;
        }
        if (eig[0] + eig[1] < eig[2] * (1 - 1e-9)) {
            diagnostics.add(Diagnostic.warning(location, String.format("link '%s': principal moments %.6g, %.6g, "
                    + "%.6g kg m² violate the triangle inequality (not a physical body)", link, eig[0], eig[1],
                    eig[2])));
        }
    }

    private static boolean isZero(RigidBodyInertia inertia) {
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                if (inertia.inertiaAboutCom(i, j) != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The scale against which a principal moment is rounding: m·max(|c|², 1 mm²) (the inertia the mass adds about
     * the link origin, at least that of a 1 mm radius of gyration) or the largest principal moment |eig[2]|.
     */
    private static double inertiaScale(RigidBodyInertia inertia, double[] eig) {
        double c2 = 0;
        for (int i = 0; i < 3; i++) {
            c2 += inertia.com(i) * inertia.com(i);
        }
        double massScale = inertia.mass() * Math.max(c2, MIN_GYRATION_SQUARED);
        return Math.max(Math.max(Math.abs(eig[2]), Double.isFinite(massScale) ? massScale : 0), Double.MIN_NORMAL);
    }

    /** Principal moments in ascending order, or null if an entry is not finite. */
    static double[] principalMoments(RigidBodyInertia inertia) {
        DMatrixRMaj a = new DMatrixRMaj(3, 3);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double x = inertia.inertiaAboutCom(i, j);
                if (!Double.isFinite(x)) {
                    return null;
                }
                a.set(i, j, x);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(3, false, true);
        if (!eig.decompose(a)) {
            return null;
        }
        double[] e = new double[3];
        for (int i = 0; i < 3; i++) {
            Complex_F64 c = eig.getEigenvalue(i);
            e[i] = c.real;
        }
        Arrays.sort(e);
        return e;
    }

    /**
     * A moving body's inertia after merging the links fixed to it must still be a physical one: an accepted
     * placeholder's non-physical inertia (a warning on its own) can make it indefinite.
     */
    static void checkMerged(String link, RigidBodyInertia inertia, List<String> merged, SourceLocation location,
            List<Diagnostic> errors) {
        String with = "with the links fixed to it (" + String.join(", ", merged) + ")";
        double[] eig = Double.isFinite(inertia.mass()) ? principalMoments(inertia) : null;
        boolean finite = eig != null;
        for (int i = 0; i < 3 && finite; i++) {
            finite = Double.isFinite(inertia.com(i));
        }
        if (!finite) {
            errors.add(Diagnostic.error(location, "link '" + link + "': " + with + ", its mass, centre of mass"
                    + " or inertia is not finite (numbers too large)"));
            return;
        }
        if (eig[0] < -ROUNDING * inertiaScale(inertia, eig)) {
            errors.add(Diagnostic.error(location, String.format("link '%s': %s, the inertia about the centre of"
                    + " mass is not positive semi-definite (principal moments %.6g, %.6g, %.6g kg m²): not a physical"
                    + " body", link, with, eig[0], eig[1], eig[2])));
        }
    }
}
