package org.symdyn.systems;

import org.symdyn.contact.ContactSet;

/**
 * Per-pair contact forces of a {@link ContactSet}, for {@link ContactForceSensor}: a {@link ContinuousTimeSystem}'s
 * acceleration-level forces at its current state, a {@link TimeSteppingSystem}'s
 * impulses over its last step divided by h, or a {@link CompliantContact}'s forces of its last evaluation.
 */
public interface ContactForces {

    /** The set whose pairs are meant. */
    ContactSet contactSet();

    /**
     * The force (N) at pair {@code pair} in its contact frame (component 0 normal, 1 and 2 along t1 and t2; see
     * {@link org.symdyn.contact.ContactKinematics}): the world force on the candidate's body is
     * f_n n + f_t1 t1 + f_t2 t2. Zero for a pair not in contact.
     */
    double pairForce(int pair, int component);

    /**
     * Writes the world contact force (N) on each collision shape i of the set to out[offset + 3 i ..
     * offset + 3 i + 3): the sum over the shape's contacts, + the force on it as shape B, − as shape A. The default
     * writes zeros (a source without shape contacts).
     */
    default void shapeForces(double[] out, int offset) {
        java.util.Arrays.fill(out, offset, offset + 3 * contactSet().shapeCount(), 0);
    }
}
