package org.symdyn.constraints;

/**
 * Functions that can share work between calls at one state when told so: between {@link #enterState()} and the
 * matching {@link #exitState()}, calls with equal (q, v) may reuse what an earlier call of the scope computed.
 * Scopes nest. {@link ConstraintData} opens one around each evaluation of a bound set; {@link GenericModel}
 * implements it (the interpreter otherwise recomputes its kinematics in every call). An interface of its own, so
 * that a set bound to a generated class never loads the interpreter's classes.
 */
interface StateScope {
    /** Opens a scope (nested scopes are one). */
    void enterState();

    /** Closes the scope of the matching {@link #enterState()}. */
    void exitState();
}
