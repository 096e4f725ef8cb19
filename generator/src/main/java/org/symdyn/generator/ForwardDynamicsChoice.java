package org.symdyn.generator;

import org.symdyn.generator.CodeGenerator.ForwardDynamicsForm;
import org.symdyn.generator.emit.OperationCount;

/**
 * Which form of forward dynamics a generated class carries, and the operation counts (H and C included) of both
 * forms for its header.
 *
 * @param articulated true for the articulated-body algorithm, false for the factorisation of H
 * @param factorised  the operations of H⁻¹ (τ - C) through the LᵀDL of H, null if it was not derived
 * @param massAndBias the operations of H and C together (a lower bound of {@code factorised})
 * @param articulatedBody the operations of the articulated-body algorithm
 * @param forced      true if the options asked for the form, false if it was chosen by operation count
 */
record ForwardDynamicsChoice(boolean articulated, OperationCount factorised, OperationCount massAndBias,
        OperationCount articulatedBody, boolean forced) {

    /**
     * The choice for {@code form}: {@link ForwardDynamicsForm#CHEAPER} takes the articulated-body algorithm only
     * when it has strictly fewer multiplications plus additions (when the factorisation was not derived because H
     * and C alone cost more than the ABA, the ABA). Fewer operations was the faster form wherever the two were
     * timed side by side (benchmarks/README.md, "Forward dynamics: LᵀDL of H or articulated bodies").
     */
    static ForwardDynamicsChoice of(ForwardDynamicsForm form, OperationCount factorised, OperationCount massAndBias,
            OperationCount articulatedBody) {
        return switch (form) {
            case CHEAPER -> new ForwardDynamicsChoice(factorised == null
                    || articulatedBody.flops() < factorised.flops(), factorised, massAndBias, articulatedBody, false);
            case FACTORISED_MASS_MATRIX -> new ForwardDynamicsChoice(false, factorised, massAndBias, articulatedBody,
                    true);
            case ARTICULATED_BODY -> new ForwardDynamicsChoice(true, factorised, massAndBias, articulatedBody, true);
        };
    }

    /** One sentence for the class header. */
    String describe() {
        String other = factorised != null ? "the LᵀDL factorisation of H would take " + factorised.flops()
                : "H and C alone take " + massAndBias.flops() + ", so the factorisation of H was not derived";
        String chosen = articulated
                ? "the articulated-body algorithm, unrolled (" + articulatedBody.flops() + " operations; " + other
                        + ")"
                : "H⁻¹ (τ - C) through the branch-sparse LᵀDL factorisation of H (" + factorised.flops()
                        + " operations; the articulated-body algorithm would take " + articulatedBody.flops() + ")";
        return "Forward dynamics: " + chosen + (forced ? ", as the generator's options asked." : ", the form with"
                + " fewer operations.");
    }
}
