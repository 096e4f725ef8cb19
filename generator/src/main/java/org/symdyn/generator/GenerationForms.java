package org.symdyn.generator;

import org.symdyn.model.Model;

/**
 * The forms chosen for one model before anything is derived: whether its kinematics, H and fused evaluations take
 * the large-model forms ({@link KinematicsForm}), and whether the LᵀDL factorisation of H is derived as a candidate
 * for forward dynamics ({@link ForwardDynamicsForm}).
 *
 * @param large               the linear-size forms: shared kinematics passes, a looped CRBA, no separately emitted
 *                            fused evaluations
 * @param perBodyKinematics   each body's kinematics its own straight-line method ({@link KinematicsMethods}); else
 *                            shared passes ({@link SharedPassKinematics})
 * @param factorisedCandidate whether forward dynamics through the factorised H is derived
 * @param factorisationWork   Σ_k |ancestors(k)|² over the dof tree ({@link #factorisationWork})
 */
record GenerationForms(boolean large, boolean perBodyKinematics, boolean factorisedCandidate,
        long factorisationWork) {
    /** The forms {@code options} ask for, those left to the model chosen by its size. */
    static GenerationForms choose(Model model, GeneratorOptions options) {
        // A large model (long branches) gets linear-size forms of the methods whose unrolled source grows with n
        // times the depth.
        boolean large = options.kinematics() == KinematicsForm.SHARED_PASSES
                || options.kinematics() == KinematicsForm.BY_SIZE
                        && SharedPassKinematics.depthSum(model) > SharedPassKinematics.MAX_PER_BODY_DEPTH_SUM;
        // Per-body kinematics unless the large forms or the compact one are chosen: the shared passes take a fraction
        // of the source at the cost of computing the whole tree for one body's query (KinematicsForm.COMPACT).
        boolean perBodyKinematics = !large && options.kinematics() != KinematicsForm.COMPACT;
        long work = factorisationWork(model);
        boolean factorisedCandidate = options.forwardDynamics() == ForwardDynamicsForm.FACTORISED_MASS_MATRIX
                || options.forwardDynamics() == ForwardDynamicsForm.CHEAPER
                        && work <= ForwardDynamicsForm.MAX_FACTORISATION_WORK;
        return new GenerationForms(large, perBodyKinematics, factorisedCandidate, work);
    }

    /** Σ_k |ancestors(k)|² over the dof tree: the size of the LᵀDL factorisation of H. */
    static long factorisationWork(Model model) {
        int[] lambda = model.dofParents();
        long work = 0;
        for (int k = 0; k < lambda.length; k++) {
            long a = ancestors(lambda, k);
            work += a * a;
        }
        return work;
    }

    /** The number of λ-ancestors of dof k in the dof tree {@code lambda} ({@link Model#dofParents()}). */
    static int ancestors(int[] lambda, int k) {
        int a = 0;
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            a++;
        }
        return a;
    }
}
