package org.symdyn.generator.emit;

/**
 * The workspace of a generated class: where a method split into chunks keeps the values one chunk defines and a
 * later one reads. The fields {@code w$0 .. w$(fields - 1)} and the array {@code w} of length {@code array}: a
 * method's slot k is field k below {@link #FIELD_SLOTS} in a method of {@link #FIELD_CHUNKS} chunks or more, else
 * entry k, or k - FIELD_SLOTS, of w. Every method reuses the same slots.
 *
 * @param fields the number of workspace fields
 * @param array  the length of the workspace array
 */
public record Workspace(int fields, int array) {
    /**
     * A method split into at least this many chunks passes values between them in {@code double} fields of the
     * instance ({@code w$0}, {@code w$1}, ...; slots reused once read for the last time); a smaller one in entries of
     * the array {@code w}, one per value. Why: a large method's code is several times the processor's
     * instruction cache (romeo_small's bias forces: 72 KB of machine code in 30 chunks; hyq's bias forces, called from
     * 1, 2 and 3 identical classes in turn, took 268, 355 and 403 ns), and its speed follows the bytes of code it runs;
     * a field is read or written by a shorter instruction than an array entry (addressed from {@code this}, no range
     * check). Measured ({@code InterleavedAB --compare workspace}, 2 copies a side, 60 rounds; B/A, fields in every
     * method of 6 chunks or more): romeo_small C 0.889, ID 0.925, FD 0.898, H 0.967; hyq ID 0.916, FD 0.830; solo12 C
     * 0.922, ID 0.927, FD 0.847. Smaller methods, whose code fits the cache, gained little or lost: iiwa14 C (5 chunks)
     * 1.059, ID (5) 1.031, FD (8) 0.955 in that run but +10 % in a JMH run; panda FD (13) 0.990. Hence 10: the arms'
     * H, C, g and ID (and iiwa14's FD) keep the array, their code unchanged.
     */
    public static final int FIELD_CHUNKS = 10;
    /**
     * Most workspace fields a method uses; its further slots are entries of {@code w}. Each field costs the class
     * file three constants (its reference, name and type) and the largest methods (the derivatives) need thousands
     * of slots, so the rest stay in the array.
     */
    public static final int FIELD_SLOTS = 1024;
    /**
     * System property, for A/B timing only: with {@code true} at generation time every method passes its values in
     * the array {@code w}, one entry per value, whatever its size. Nothing else uses it.
     */
    public static final String ARRAY_WORKSPACE_PROPERTY = "symdyn.generator.arrayWorkspace";

    /** The name of workspace field k. */
    public static String field(int k) {
        return "w$" + k;
    }
}
