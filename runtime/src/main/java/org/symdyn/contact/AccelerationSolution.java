package org.symdyn.contact;

import java.util.Arrays;

/**
 * The answer of {@link AccelerationProblemSolver} for one {@link AccelerationProblemData}: its {@link Status}, and
 * when {@link Status#SOLVED} the accelerations v̇ and the constraint forces in the seed's terms:
 * <ul>
 * <li>f_N (nc, N ≥ 0): normal forces, along the contacts' normals (the ground pushes);</li>
 * <li>f_F (nnr, N): the friction force of each spanning direction d of F, signed: f_F⁺ − f_F⁻, the force along +d
 * (the solver's two edge forces f_F± ≥ 0 are in {@link #frictionEdgeForce(int)});</li>
 * <li>λ (per non-sliding contact with friction rows, m/s²): Anitescu's λ, the magnitude of the tangential
 * acceleration when the contact starts to slide, 0 when it sticks;</li>
 * <li>f_L (nu; N·m or N ≥ 0): limit forces along the rows of L;</li>
 * <li>f_G (nb): bilateral forces, H v̇ + C = τ + Gᵀ f_G (the sign of {@link org.symdyn.constraints.ConstraintData});</li>
 * </ul>
 * A sliding contact's friction force is −μ f_N along its sliding direction (not a separate unknown).
 *
 * <p>When the status is not {@link Status#SOLVED}, every number is NaN (never a guess) and {@link #message()} says
 * why, naming the contacts. Owned and reused by the solver (read it before the next solve).
 */
public final class AccelerationSolution {
    /** The outcome. */
    public enum Status {
        /** v̇ and forces returned; unique accelerations by the test in {@link #uniqueness()}. */
        SOLVED,
        /** No solution found: Lemke ended on a secondary ray (Painlevé's inconsistent case when contacts slide). */
        INCONSISTENT,
        /**
         * Painlevé: a solution exists but may not be unique (the sliding contacts' normal matrix is not a
         * P-matrix); none is returned.
         */
        NON_UNIQUE,
        /** The pivoting solver failed (cycling, iteration limit, rounding) or the bilateral rows are inconsistent. */
        FAILED
    }

    /** The uniqueness test applied to the sliding contacts' normal matrix M_s = N_s H⁻¹ (N_s − μ Q_s)ᵀ. */
    public enum Uniqueness {
        /** No sliding contacts: the Anitescu-Potra LCP of non-sliding contacts (copositive), no minor test. */
        NO_SLIDING_CONTACTS,
        /** Every principal minor of M_s positive (or its symmetric part positive definite): a P-matrix. */
        P_MATRIX,
        /**
         * No principal minor negative, some zero within the tolerance: redundant sliding contacts (coplanar
         * corners sharing one wrench direction). The forces' split among them is not unique; the accelerations
         * are what Lemke's solution gives.
         */
        DEGENERATE_P0,
        /** A principal minor is negative: Painlevé's paradox (no solution or several). */
        NOT_P0,
        /** More than 12 sliding contacts and the symmetric part of M_s not positive definite: not established. */
        UNKNOWN
    }

    Status status = Status.FAILED;
    Uniqueness uniqueness = Uniqueness.NO_SLIDING_CONTACTS;
    String message = "not solved";
    Lemke.Status lemkeStatus = Lemke.Status.SOLVED;
    int iterations;
    int lcpSize;
    double residual;
    double bilateralResidual;
    double smallestMinor = Double.NaN;
    int nv;
    int nc;
    int nnr;
    int nu;
    int nb;
    final double[] vdot;
    final double[] normal;
    final double[] friction;
    final double[] edge;
    final double[] lambda;
    final double[] limit;
    final double[] bilateral;

    AccelerationSolution(int nv, int contacts, int frictionRows, int limits, int bilaterals) {
        vdot = new double[nv];
        normal = new double[Math.max(1, contacts)];
        friction = new double[Math.max(1, frictionRows)];
        edge = new double[Math.max(1, 2 * frictionRows)];
        lambda = new double[Math.max(1, contacts)];
        limit = new double[Math.max(1, limits)];
        bilateral = new double[Math.max(1, bilaterals)];
    }

    void fillNaN() {
        Arrays.fill(vdot, Double.NaN);
        Arrays.fill(normal, Double.NaN);
        Arrays.fill(friction, Double.NaN);
        Arrays.fill(edge, Double.NaN);
        Arrays.fill(lambda, Double.NaN);
        Arrays.fill(limit, Double.NaN);
        Arrays.fill(bilateral, Double.NaN);
    }

    public Status status() {
        return status;
    }

    /** True when {@link #status()} is {@link Status#SOLVED}. */
    public boolean solved() {
        return status == Status.SOLVED;
    }

    public Uniqueness uniqueness() {
        return uniqueness;
    }

    /** What happened, naming the contacts involved when the status is not {@link Status#SOLVED}. */
    public String message() {
        return message;
    }

    /** Lemke's own status. */
    public Lemke.Status lemkeStatus() {
        return lemkeStatus;
    }

    /** Lemke's pivots. */
    public int iterations() {
        return iterations;
    }

    /** The size of the LCP solved (f_N, f_F±, f_L, λ). */
    public int lcpSize() {
        return lcpSize;
    }

    /** Lemke's relative a-posteriori residual ({@link Lemke#residual()}). */
    public double residual() {
        return residual;
    }

    /** max |G v̇ + kG| of the returned v̇ (units of the rows' accelerations). */
    public double bilateralResidual() {
        return bilateralResidual;
    }

    /** The smallest principal minor of M_s / max|diag M_s| (NaN when not computed). */
    public double smallestMinor() {
        return smallestMinor;
    }

    /** v̇ (live buffer, nv entries). */
    public double[] vdot() {
        return vdot;
    }

    public double vdot(int i) {
        return vdot[i];
    }

    /** f_N of problem contact c. */
    public double normalForce(int contact) {
        return normal[contact];
    }

    /** f_F (signed, along +d) of row {@code row} of F. */
    public double frictionForce(int row) {
        return friction[row];
    }

    /** The solver's edge force: f_F⁺ (k = 0) or f_F⁻ (k = 1) of row {@code row} of F. */
    public double frictionEdgeForce(int row, int k) {
        return edge[2 * row + k];
    }

    /** Anitescu's λ of problem contact c (0 for sliding contacts and contacts without friction rows). */
    public double lambda(int contact) {
        return lambda[contact];
    }

    /** f_L of limit row i. */
    public double limitForce(int row) {
        return limit[row];
    }

    /** f_G of bilateral row i. */
    public double bilateralForce(int row) {
        return bilateral[row];
    }

    @Override
    public String toString() {
        return "AccelerationSolution{" + status + ", " + uniqueness + ", lemke " + lemkeStatus + " in " + iterations
                + " pivots (size " + lcpSize + "), residual " + residual + ": " + message + "}";
    }
}
