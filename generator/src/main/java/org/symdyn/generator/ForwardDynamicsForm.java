package org.symdyn.generator;

/**
 * How the generated {@code forwardDynamics} computes v̇. By default both forms are derived (the factorisation
 * only up to {@link #MAX_FACTORISATION_WORK}) and the one with fewer operations (multiplications
 * plus additions, H and C included) is emitted; the class header says which was chosen and what the other would
 * have cost.
 */
public enum ForwardDynamicsForm {
    /** The form with fewer operations (ties go to the factorisation of H). */
    CHEAPER,
    /** H⁻¹ (τ - C) through the branch-sparse LᵀDL of the generated H (RBDA §6.5): O(n d²) for tree depth d. */
    FACTORISED_MASS_MATRIX,
    /** The articulated-body algorithm (RBDA Table 7.1), unrolled: O(n). */
    ARTICULATED_BODY;

    /**
     * Past this work Σ_k |ancestors(k)|² over the dof tree ({@code GenerationForms.factorisationWork}) the LᵀDL of H
     * is not derived for {@link #CHEAPER} (a chain of 67 links is at 98,021, of 68 at 102,510): its symbolic work
     * grows with n d², and the articulated-body algorithm costs less long before (a 24-link chain already takes it).
     */
    static final long MAX_FACTORISATION_WORK = 100_000;
}
