package org.symdyn.constraints;

import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.model.Model;

/**
 * The model a {@link ConstraintSet} describes, as binding checks it ({@link ModelMatch}): its {@link Model} when the
 * set was built from one (null when built from a generated class alone), its name, content hash
 * ({@link Model#contentHash()}) and sizes.
 */
record ModelIdentity(Model model, String name, String hash, int nq, int nv, int bodyCount) {
    /** The model's own identity, or else that its functions state ({@code model} null). */
    static ModelIdentity of(Model model, ConstraintFunctions functions) {
        if (model != null) {
            return new ModelIdentity(model, model.name(), model.contentHash(), model.nq(), model.nv(),
                    model.bodyCount());
        }
        return new ModelIdentity(null, functions.modelName(), functions.modelHash(), functions.nq(), functions.nv(),
                functions.bodyCount());
    }
}
