package org.symdyn.spatial;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ejml.data.Complex_F64;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The rules a link's inertia must follow to be a physical body, as findings naming the link: errors (not a physical
 * body) and warnings (accepted, but suspect). One set of rules for every holder of inertias: a model file's links
 * (the model package reports the findings at their lines) and a parameter set at run time, by the interpreter or a
 * generated class (the contract's {@code ParameterRules}).
 */
public final class InertiaValidity {
    /**
     * Relative rounding tolerance of a principal moment: below {@code -ROUNDING} times the link's inertia scale
     * ({@link #roundingScale}) a moment is negative, a non-physical body; within it, zero.
     */
    public static final double ROUNDING = 1e-12;
    /**
     * Links lighter than this (kg) are placeholders (common in public URDF files): their inertia problems are
     * warnings, not errors.
     */
    public static final double DUMMY_MASS = 1e-5;
    /** The smallest meaningful radius of gyration squared (m²): 1 mm, for a point mass at its link's origin. */
    private static final double MIN_GYRATION_SQUARED = 1e-6;

    private InertiaValidity() {
    }

    /** One finding about a link's inertia: an error (not a physical body) or a warning, and its message. */
    public record Finding(boolean error, String message) {
    }

    /**
     * The findings on the inertia declared on a link, in its frame: a finite non-negative mass; unless the link is
     * massless (mass and inertia zero) or a point mass on a fixed joint (not {@code moving}, inertia zero), principal
     * moments of the inertia about the centre of mass that are not negative beyond rounding (an error: not a
     * physical body) and that satisfy the triangle inequality (a warning). A singular inertia (a smallest principal
     * moment zero to rounding: a point mass, as Pinocchio accepts, a rod, or rounding noise such as a lone 2.4e-35
     * entry) is a warning: what it can make singular is the joint-space inertia H, which is checked on the assembled
     * model. Rounding is {@value #ROUNDING} of the link's inertia scale m·max(|c|², 1 mm²) or its largest principal
     * moment, whichever is larger. A placeholder link lighter than {@link #DUMMY_MASS} kg gets a warning where
     * another gets an error.
     */
    public static List<Finding> ofDeclared(String link, RigidBodyInertia inertia, boolean moving) {
        return ofDeclared(link, inertia, moving, true);
    }

    /**
     * As {@link #ofDeclared(String, RigidBodyInertia, boolean)}; without {@code placeholders}, a link lighter than
     * {@link #DUMMY_MASS} gets the errors any other link gets. A parameter set at run time is checked so: a file's
     * placeholder is then caught by the check of the assembled H, which nothing repeats after a parameter changes
     * (a review's finding: a mass of 0 and ixx of -5 gave H = -5).
     */
    public static List<Finding> ofDeclared(String link, RigidBodyInertia inertia, boolean moving,
            boolean placeholders) {
        List<Finding> out = new ArrayList<>(1);
        double m = inertia.mass();
        if (!Double.isFinite(m)) {
            out.add(new Finding(true, "link '" + link + "': mass is not finite"));
            return out;
        }
        if (m < 0) {
            out.add(new Finding(true, "link '" + link + "': mass " + m + " kg is negative"));
            return out;
        }
        if (m == 0 && isZero(inertia)) {
            // A massless link: fine as a frame, and as a moving link when links fixed to it carry mass (the
            // merged mass of a moving body is checked when the model is built).
            return out;
        }
        if (!moving && isZero(inertia)) {
            return out; // a point mass on a fixed link: physically valid, merged by the parallel-axis theorem
        }
        boolean dummy = placeholders && m < DUMMY_MASS;
        double[] eig = principalMoments(inertia);
        if (eig == null) {
            out.add(new Finding(true, "link '" + link + "': inertia is not finite"));
            return out;
        }
        double scale = Math.max(Math.abs(eig[2]), Double.MIN_NORMAL);
        if (!(eig[0] > 1e-12 * scale) || !(eig[0] > 0)) {
            String msg = String.format("link '%s': inertia about the centre of mass is not positive definite "
                    + "(principal moments %.6g, %.6g, %.6g kg m²)", link, eig[0], eig[1], eig[2]);
            if (dummy) {
                out.add(new Finding(false, msg + " on a placeholder link of " + m + " kg"));
            } else if (eig[0] < -ROUNDING * roundingScale(inertia, eig)) {
                out.add(new Finding(true, msg));
            } else {
                out.add(new Finding(false, String.format("link '%s': inertia about the centre of"
                        + " mass is singular to rounding (principal moments %.6g, %.6g, %.6g kg m² for %s kg: a point"
                        + " mass or a rod); accepted while the joint-space inertia stays positive definite", link,
                        eig[0], eig[1], eig[2], m)));
            }
            return out;
        }
        if (eig[0] + eig[1] < eig[2] * (1 - 1e-9)) {
            out.add(new Finding(false, String.format("link '%s': principal moments %.6g, %.6g, "
                    + "%.6g kg m² violate the triangle inequality (not a physical body)", link, eig[0], eig[1],
                    eig[2])));
        }
        return out;
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
    public static double roundingScale(RigidBodyInertia inertia, double[] eig) {
        double c2 = 0;
        for (int i = 0; i < 3; i++) {
            c2 += inertia.com(i) * inertia.com(i);
        }
        double massScale = inertia.mass() * Math.max(c2, MIN_GYRATION_SQUARED);
        return Math.max(Math.max(Math.abs(eig[2]), Double.isFinite(massScale) ? massScale : 0), Double.MIN_NORMAL);
    }

    /** Principal moments of the inertia about the centre of mass in ascending order, or null if an entry is not finite. */
    public static double[] principalMoments(RigidBodyInertia inertia) {
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
}
