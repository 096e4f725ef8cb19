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
    /** The model interpreted. */
    Model model();
}
