package org.symdyn.dynamics;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.model.Body;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelCheck;

/**
 * The last check of a model read from a file: can it be simulated? Each body's inertia must be finite in its link frame, and
 * the joint-space inertia H and the gravity forces at the zero configuration (every coordinate 0, quaternions the
 * identity) finite, with H positive definite. H is positive definite everywhere when every moving body has a
 * positive definite inertia; what can make it singular are massless links, point masses and placeholders'
 * non-physical inertias, which the per-link rules accept, so it is checked once on the assembled model.
 *
 * <p>Singularity is found by a Cholesky factorisation: coordinate k is refused when its pivot (the inertia it adds
 * beyond the coordinates before it) is not above {@value #RELATIVE_PIVOT} of its own diagonal entry, so the test
 * does not depend on units or on the other coordinates' scale.
 *
 * <p>A {@link ModelCheck}: the readers run it on every model they read through {@code META-INF/services}, since
 * they sit below this package and do not import it.
 */
public final class JointSpaceInertiaCheck implements ModelCheck {
    /** A pivot at most this fraction of its diagonal entry means H is singular to working precision. */
    static final double RELATIVE_PIVOT = 1e-12;

    /** The most entries a Java array holds, which bounds H's nv x nv. */
    static final long MAX_ENTRIES = Integer.MAX_VALUE - 8;

    /** The check; it holds no state. */
    public JointSpaceInertiaCheck() {
    }

    /**
     * The errors, empty if the model can be simulated: at most one per body whose inertia overflows, else at most
     * one for the first coordinate whose row of H or whose gravity force overflows, else at most one for the first
     * coordinate whose Cholesky pivot is not positive, each at the start tag of the link that coordinate moves.
     */
    @Override
    public List<Diagnostic> check(Model model) {
        List<Diagnostic> errors = new ArrayList<>();
        for (Body b : model.bodies()) {
            if (!finite(b)) {
                errors.add(Diagnostic.error(b.location(), "link '" + b.name() + "': mass " + b.inertia().mass()
                        + " kg with its centre of mass and inertia overflows in the link frame (numbers too large"
                        + " to simulate)"));
            }
        }
        int nv = model.nv();
        if (!errors.isEmpty() || nv == 0) {
            return errors;
        }
        if ((long) nv * nv > MAX_ENTRIES) {
            errors.add(Diagnostic.error(model.body(0).location(), "the model has " + nv + " velocity coordinates:"
                    + " its joint-space inertia H (nv x nv = " + (long) nv * nv + " entries) is more than a Java"
                    + " array holds (at most " + MAX_ENTRIES + " entries, nv <= 46340)"));
            return errors;
        }
        double[] q = model.neutralConfiguration();
        GenericDynamics dynamics = new GenericDynamics(model);
        DMatrixRMaj h = new DMatrixRMaj(nv, nv);
        double[] g = new double[nv];
        dynamics.massMatrix(q, h);
        dynamics.gravityForces(q, g);
        for (int k = 0; k < nv; k++) {
            boolean ok = Double.isFinite(g[k]);
            for (int j = 0; j < nv && ok; j++) {
                ok = Double.isFinite(h.get(k, j));
            }
            if (!ok) {
                Body b = bodyOfCoordinate(model, k);
                errors.add(Diagnostic.error(b.location(), "link '" + b.name() + "': the joint-space inertia or"
                        + " gravity force of coordinate '" + model.vNames().get(k) + "' overflows at the zero"
                        + " configuration (masses, inertias or distances too large to simulate)"));
                return errors;
            }
        }
        // Cholesky, H = L Lᵀ, column by column, tree by tree: the dofs of separate trees are uncoupled in H (zero
        // entries, which stay zero in L), so each tree's dofs, in their order, are factorised alone with the same
        // pivots, bit for bit, as the whole: Σ n_t³ operations, not nv³ (1,000 free bodies took over 20 s).
        int[] lambda = model.dofParents();
        int[] root = new int[nv];
        int[] count = new int[nv];
        for (int k = 0; k < nv; k++) {
            root[k] = lambda[k] < 0 ? k : root[lambda[k]];
            count[root[k]]++;
        }
        int[][] treeDofs = new int[nv][];
        int[] filled = new int[nv];
        for (int k = 0; k < nv; k++) {
            if (root[k] == k) {
                treeDofs[k] = new int[count[k]];
            }
            treeDofs[root[k]][filled[root[k]]++] = k;
        }
        Failure first = null;
        for (int[] dofs : treeDofs) {
            Failure f = dofs == null ? null : factorTree(h, dofs);
            if (f != null && (first == null || f.dof() < first.dof())) {
                first = f; // the first coordinate in dof order, where one factorisation of the whole H stops
            }
        }
        if (first != null) {
            errors.add(singularity(model, first));
        }
        return errors;
    }

    /** A coordinate whose Cholesky pivot is not above {@link #RELATIVE_PIVOT} of its diagonal entry. */
    private record Failure(int dof, double pivot, double diagonal) {
    }

    /**
     * The Cholesky factorisation of H's block of one tree's dofs (increasing): the first of those dofs whose pivot
     * fails, or null.
     */
    private static Failure factorTree(DMatrixRMaj h, int[] dofs) {
        int n = dofs.length;
        double[] l = new double[n * n];
        for (int k = 0; k < n; k++) {
            double diagonal = h.get(dofs[k], dofs[k]);
            double pivot = diagonal;
            for (int j = 0; j < k; j++) {
                pivot -= l[k * n + j] * l[k * n + j];
            }
            if (!(diagonal > 0) || !(pivot > RELATIVE_PIVOT * diagonal)) {
                return new Failure(dofs[k], pivot, diagonal);
            }
            double root = Math.sqrt(pivot);
            l[k * n + k] = root;
            for (int i = k + 1; i < n; i++) {
                double s = h.get(dofs[i], dofs[k]);
                for (int j = 0; j < k; j++) {
                    s -= l[i * n + j] * l[k * n + j];
                }
                l[i * n + k] = s / root;
            }
        }
        return null;
    }

    /** The error of a coordinate whose pivot failed, at the start tag of the link it moves. */
    private static Diagnostic singularity(Model model, Failure f) {
        double pivot = f.pivot();
        double diagonal = f.diagonal();
        Body b = bodyOfCoordinate(model, f.dof());
        String coordinate = model.vNames().get(f.dof());
        String what = !(diagonal < 0) && !(pivot < -RELATIVE_PIVOT * Math.abs(diagonal))
                ? (pivot > 0 ? "adds almost no inertia beyond the coordinates before it (a fraction "
                        + String.format("%.1e", pivot / diagonal) + " of its diagonal, below working"
                        + " precision: masses and inertias of too different magnitudes?)"
                        : "adds no inertia beyond the coordinates before it")
                : "has a negative inertia (a non-physical link inertia)";
        return Diagnostic.error(b.location(), String.format("link '%s': the joint-space inertia H is"
                + " %s at the zero configuration: coordinate '%s' (joint '%s') %s (Cholesky pivot %.6g,"
                + " diagonal %.6g); the links that joint moves need mass and inertia along its motion",
                b.name(), what.startsWith("adds") ? "singular" : "not positive definite", coordinate,
                b.joint().name(), what, pivot, diagonal) + massless(model));
    }

    /** "; links without mass of their own: 'a', 'b'" or "". */
    private static String massless(Model model) {
        List<String> names = new ArrayList<>();
        for (Body b : model.bodies()) {
            if (b.inertia().mass() == 0) {
                names.add("'" + b.name() + "'");
            }
        }
        return names.isEmpty() ? "" : "; links without mass of their own: " + String.join(", ", names);
    }

    private static boolean finite(Body b) {
        if (!Double.isFinite(b.inertia().mass())) {
            return false;
        }
        for (int i = 0; i < 3; i++) {
            if (!Double.isFinite(b.inertia().com(i)) || !Double.isFinite(b.inertia().mass() * b.inertia().com(i))) {
                return false;
            }
            for (int j = 0; j < 3; j++) {
                if (!Double.isFinite(b.inertia().inertiaAboutOrigin(i, j))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Body bodyOfCoordinate(Model model, int v) {
        Body found = model.bodies().get(0);
        for (Body b : model.bodies()) {
            if (b.joint().vIndex() <= v) {
                found = b;
            }
        }
        return found;
    }
}
