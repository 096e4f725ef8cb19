package org.symdyn.generator;

/**
 * How the generated {@code forwardDynamics} computes v̇. By default both forms are derived (the factorisation
 * only up to {@link GenerationForms#MAX_FACTORISATION_WORK}) and the one with fewer operations (multiplications
 * plus additions, H and C included) is emitted; the class header says which was chosen and what the other would
 * have cost.
 */
public enum ForwardDynamicsForm {
    /** The form with fewer operations (ties go to the factorisation of H). */
    CHEAPER,
    /** H⁻¹ (τ - C) through the branch-sparse LᵀDL of the generated H (RBDA §6.5): O(n d²) for tree depth d. */
    FACTORISED_MASS_MATRIX,
    /** The articulated-body algorithm (RBDA Table 7.1), unrolled: O(n). */
    ARTICULATED_BODY
}
