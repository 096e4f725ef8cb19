package org.symdyn.dynamics;

import org.symdyn.model.Model;

/**
 * An interpreter of a {@link Model} (the generic runtime: {@link GenericDynamics},
 * {@code org.symdyn.constraints.GenericModel}), as opposed to a class generated for one. Solvers that work from the
 * model's own description when it is interpreted (the recursive constrained method builds its articulated-body
 * algorithm from it) ask for this interface rather than for the interpreter's classes, so that a generated class
 * running alone never loads them.
 */
public interface ModelInterpreter {
    /** The model interpreted, as declared (the numbers of its file; what the interpreter binds to). */
    Model model();

    /**
     * The model with its declared parameters at their current values ({@link Model#withParameters}): the numbers the
     * interpreter evaluates. A new instance after each change of a parameter, the same one in between, so that a
     * user of those numbers (an articulated-body algorithm built from them) can tell by reference that it must
     * rebuild. {@link #model()} for a model without parameters or with them unchanged.
     */
    default Model interpretedModel() {
        return model();
    }
}
