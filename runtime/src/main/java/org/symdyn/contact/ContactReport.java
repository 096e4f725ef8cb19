package org.symdyn.contact;

/**
 * How one contact solve went, filled by every {@link ContactSolver} (caller-owned, reused; no allocation).
 *
 * <p>Measures, for the returned λ and σ = W λ + b (contact velocities, m/s), over all blocks of the
 * {@link ContactProblem}; for a Coulomb block σ̃ = σ + μ ‖σ_t‖ e_n is De Saxcé's modified velocity:
 * <ul>
 * <li><b>primal feasibility</b> (N·s): the largest distance of a block's λ from its set (the friction cone K_μ,
 * λ ≥ 0, or nothing for a bilateral row);</li>
 * <li><b>dual feasibility</b> (m/s): the largest distance of σ̃ from the dual set (the dual cone K_μ*, σ ≥ 0, or 0
 * for a bilateral row): penetration and wrongly directed slip;</li>
 * <li><b>complementarity</b> (J = N·s · m/s): the largest |λ · σ̃| of a block;</li>
 * <li><b>contact-law violation</b> (m/s), the convergence measure: the largest ‖λ − P(λ − σ̃ / w)‖ w of a block,
 * with P the projection on the block's set and w the largest diagonal entry of its W block: zero exactly when
 * the block obeys its law (Signorini and Coulomb for a contact: λ ∈ K_μ, σ̃ ∈ K_μ*, λ ⊥ σ̃), in velocity units
 * whatever the masses; for a contact at least its approach speed −σ_n too, which that residual scales down by
 * about 1/μ² where the cone is wide (huge μ).</li>
 * </ul>
 * A solve converged when the violation is at most the settings' tolerance; one that did not is still returned
 * (the last iterate) and says so here: {@link #converged()} false, never hidden.
 */
public final class ContactReport {
    String solver = "";
    int iterations;
    boolean converged;
    double primalFeasibility;
    double dualFeasibility;
    double complementarity;
    double violation;
    double penalty = Double.NaN;
    int rows;
    int contacts;
    int worstBlock = -1;
    int islands;
    int largestIslandRows;

    /** The solver's name ("pgs", "admm", ...). */
    public String solver() {
        return solver;
    }

    /** Iterations (sweeps of PGS, steps of ADMM) the solve took. */
    public int iterations() {
        return iterations;
    }

    /** True if the contact-law violation reached the tolerance. */
    public boolean converged() {
        return converged;
    }

    public double primalFeasibility() {
        return primalFeasibility;
    }

    public double dualFeasibility() {
        return dualFeasibility;
    }

    public double complementarity() {
        return complementarity;
    }

    /** The largest violation of a block's contact law, m/s (see the class comment). */
    public double contactLawViolation() {
        return violation;
    }

    /** The ADMM penalty ρ at the end (1/kg), NaN for solvers without one. */
    public double penalty() {
        return penalty;
    }

    /** Rows of the problem (3 per contact, 1 per bilateral or limit row). */
    public int rows() {
        return rows;
    }

    /** Coulomb blocks (contacts) of the problem. */
    public int contacts() {
        return contacts;
    }

    /** The block with the largest violation, -1 when the problem was empty. */
    public int worstBlock() {
        return worstBlock;
    }

    /**
     * The islands the problem was solved as ({@link ContactIslands}): 1 when it was solved whole, 0 when it was
     * empty or solved without splitting it into islands.
     */
    public int islands() {
        return islands;
    }

    /** The rows of the largest island (of the whole problem when it was solved whole). */
    public int largestIslandRows() {
        return largestIslandRows;
    }

    /** Copies another report into this one. */
    public void set(ContactReport o) {
        solver = o.solver;
        iterations = o.iterations;
        converged = o.converged;
        primalFeasibility = o.primalFeasibility;
        dualFeasibility = o.dualFeasibility;
        complementarity = o.complementarity;
        violation = o.violation;
        penalty = o.penalty;
        rows = o.rows;
        contacts = o.contacts;
        worstBlock = o.worstBlock;
        islands = o.islands;
        largestIslandRows = o.largestIslandRows;
    }

    @Override
    public String toString() {
        return solver + ": " + (converged ? "converged" : "NOT converged") + " in " + iterations + " iterations, "
                + contacts + " contacts / " + rows + " rows, contact-law violation " + violation
                + " m/s, primal " + primalFeasibility + ", dual " + dualFeasibility + ", complementarity "
                + complementarity + (Double.isNaN(penalty) ? "" : ", penalty " + penalty);
    }
}
