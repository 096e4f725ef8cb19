package org.symdyn.generator;

import org.symdyn.generator.emit.OperationCount;

/**
 * Which form of forward dynamics a generated class carries, and the operation counts (H and C included) of both
 * forms for its header.
 *
 * @param articulated     true for the articulated-body algorithm, false for the factorisation of H
 * @param factorised      the operations of H⁻¹ (τ - C) through the LᵀDL of H, null if it was not derived
 * @param articulatedBody the operations of the articulated-body algorithm
 * @param factorisationWork Σ_k |ancestors(k)|² over the dof tree ({@code GenerationForms.factorisationWork})
 * @param forced          true if the options asked for the form, false if it was chosen by operation count
 */
record ForwardDynamicsChoice(boolean articulated, OperationCount factorised, OperationCount articulatedBody,
        long factorisationWork, boolean forced) {

    /**
     * The choice for {@code form}: {@link ForwardDynamicsForm#CHEAPER} takes the articulated-body algorithm when it
     * has strictly fewer multiplications plus additions, or when the factorisation was not derived (its work past
     * {@link ForwardDynamicsForm#MAX_FACTORISATION_WORK}). Fewer operations was the faster form wherever the two
     * were timed side by side (benchmarks/README.md, "Forward dynamics: LᵀDL of H or articulated bodies").
     */
    static ForwardDynamicsChoice of(ForwardDynamicsForm form, OperationCount factorised,
            OperationCount articulatedBody, long factorisationWork) {
        return switch (form) {
            case CHEAPER -> new ForwardDynamicsChoice(factorised == null
                    || articulatedBody.flops() < factorised.flops(), factorised, articulatedBody, factorisationWork,
                    false);
            case FACTORISED_MASS_MATRIX -> new ForwardDynamicsChoice(false, factorised, articulatedBody,
                    factorisationWork, true);
            case ARTICULATED_BODY -> new ForwardDynamicsChoice(true, factorised, articulatedBody, factorisationWork,
                    true);
        };
    }

    /** One sentence for the class header. */
    String describe() {
        String other;
        if (factorised != null) {
            other = "the LᵀDL factorisation of H would take " + factorised.flops();
        } else if (forced) {
            other = "the LᵀDL factorisation of H was not derived";
        } else {
            other = "the LᵀDL factorisation of H was not derived: its work Σ|ancestors|² is " + factorisationWork
                    + ", past " + ForwardDynamicsForm.MAX_FACTORISATION_WORK;
        }
        String chosen = articulated
                ? "the articulated-body algorithm, unrolled (" + articulatedBody.flops() + " operations; " + other
                        + ")"
                : "H⁻¹ (τ - C) through the branch-sparse LᵀDL factorisation of H (" + factorised.flops()
                        + " operations; the articulated-body algorithm would take " + articulatedBody.flops() + ")";
        return "Forward dynamics: " + chosen + (forced ? ", as the generator's options asked." : ", the form with"
                + " fewer operations.");
    }
}
