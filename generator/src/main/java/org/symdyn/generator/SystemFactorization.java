package org.symdyn.generator;

/** Whether the class factorises its constrained system ({@link org.symdyn.contract.ConstrainedSystemFactorization}). */
enum SystemFactorization {
    /** No constraint rows, or a large model (its H is looped). */
    NONE,
    /** Emitted. */
    EMITTED,
    /** Not emitted: a pivot is identically zero, the system singular in every state. */
    SINGULAR
}
