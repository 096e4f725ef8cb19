package org.symdyn.simulation;

/**
 * The discrete part of a hybrid system, fed to an {@link IntegrationLoop}: modes that hold for a segment of
 * continuous integration, jumps of the state between segments (impacts), and event functions g(q, v) whose sign
 * change ends a segment (a gap closing, a slip stopping). With events, each step of h is integrated as segments:
 * <pre>
 *   beginStep()
 *   repeat until h is covered:
 *       beginSegment(t, q, v, rest)                   modes fixed, jumps applied (v may change)
 *       integrate at most segmentLimit(t, q, v, rest) with the modes fixed
 *       if events(q_end, v_end, g) fired:             cut at the first root of g (Illinois regula falsi over
 *                                                     re-integrations from the segment's start)
 *   endStep(q)
 * </pre>
 * An event fires when an entry of g turns negative; the root is located by the entries that are negative at the
 * trial end. The implementation is the right-hand side's other face (it fixes the modes the accelerations are
 * solved in), so both see the same state.
 */
public interface HybridEvents {
    /** The number of event functions (the length of the arrays {@link #events} fills). */
    int eventFunctionCount();

    /** Before a step's first segment: forget what the last step accumulated. */
    void beginStep();

    /**
     * At a segment's start (t, q, v): applies the jumps due there (v may change, in place) and fixes the modes for
     * the segment.
     */
    void beginSegment(double t, double[] q, double[] v);

    /**
     * As {@link #beginSegment(double, double[], double[])}, knowing that at most {@code remaining} (s) of the step is
     * left: the segment will not be longer, so a system can choose which event functions to watch from how far its
     * parts can move in that time. {@link IntegrationLoop} calls this one; the default ignores {@code remaining}.
     */
    default void beginSegment(double t, double[] q, double[] v, double remaining) {
        beginSegment(t, q, v);
    }

    /**
     * The longest segment from (t, q, v), at most {@code remaining} (s), that the integrator follows with the modes
     * fixed (stiff modes limit it).
     */
    double segmentLimit(double t, double[] q, double[] v, double remaining);

    /**
     * The event functions at (q, v) into {@code g}; true when an event fired (an entry of g is negative).
     */
    boolean events(double[] q, double[] v, double[] g);

    /**
     * After a step's last segment, at its end configuration: a check of the step as a whole (may throw, leaving
     * the state at the step's end, not counted as a step).
     */
    void endStep(double[] q);
}
