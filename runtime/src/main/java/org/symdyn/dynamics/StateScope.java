package org.symdyn.dynamics;

/**
 * Functions that can share work between calls at one state when told so: between {@link #enterState()} and the
 * matching {@link #exitState()}, calls with equal (q, v) may reuse what an earlier call of the scope computed.
 * Scopes nest. {@code ConstraintData} opens one around each evaluation of a bound set, the contact time stepper
 * around each step and the continuous system's contact around each evaluation. {@link GenericDynamics} implements
 * it (the interpreter otherwise recomputes its kinematics, sines and cosines included, in every call; see there
 * what it reuses), and {@code GenericModel} through it. An interface of its own, so that code bound to a generated
 * class never loads the interpreter's classes; a generated class shares its work within its fused evaluations and
 * has no use for it.
 */
public interface StateScope {
    /** Opens a scope (nested scopes are one). */
    void enterState();

    /** Closes the scope of the matching {@link #enterState()}. */
    void exitState();
}
