package org.symdyn.simulation;

import java.util.Objects;

/**
 * The one continuous-time step of a simulation: an {@link Integrator} advances a {@link SimulationState}, cut at the
 * events of a hybrid system when there is one, then drift projection when there is one. {@link Simulator} and the
 * systems' continuous-time simulation ({@code org.symdyn.systems.ContinuousTimeSystem}) both step through it; they
 * differ only in the right-hand side they give the integrator and in what they read after a step.
 *
 * <p><b>Without events</b> a step of at most h is one integrator step (exactly h for a fixed-step integrator, the
 * adaptive integrator's own choice up to h otherwise): t ← t + h_taken.
 *
 * <p><b>With events</b> ({@link HybridEvents}) a step advances exactly h as segments, each one integrator step
 * with the modes fixed. If an event function changed sign over a segment, the segment is cut at its first root:
 * Illinois regula falsi over re-integrations of the segment from its start to trial lengths τ (the trial point the
 * smallest of the negative functions' secants, kept {@code 0.25 × tolerance} inside the bracket; bisection after 60
 * trials, at most 200), until the bracket is narrower than the event tolerance. The segment ends at the bracket's
 * early side, just before the event (unless that is the segment's start: then its late side), and the next segment
 * starts there, where {@link HybridEvents#beginSegment} applies the jump. An adaptive integrator re-integrates a
 * trial τ in steps that end exactly at τ, restarted (no first-same-as-last reuse) at each, and resumes with the step
 * it proposed before the search. More than {@value #MAX_SEGMENTS} segments in one step throw (a Zeno run).
 *
 * <p><b>Restarts.</b> An adaptive {@link DormandPrince45} reuses its last evaluation at the next step (first same as
 * last). A right-hand side that reads inputs changed between steps (actuator commands) or modes changed between
 * segments must not reuse it: with {@code restartEachStep} the integrator is restarted before every step, and with
 * events before every segment.
 *
 * <p>Allocated at construction; a step allocates nothing. Not thread-safe.
 */
public final class IntegrationLoop {
    /** The most segments (pieces between events) one step may take before it reports a Zeno run. */
    public static final int MAX_SEGMENTS = 10_000;

    private final Integrator integrator;
    private final DormandPrince45 adaptive;
    private final boolean restartEachStep;
    private final DriftProjection projection;
    private final HybridEvents hybrid;
    private final EventLocation location;
    private long segments;

    private IntegrationLoop(Integrator integrator, boolean restartEachStep, DriftProjection projection,
            HybridEvents hybrid, double eventTolerance) {
        this.integrator = Objects.requireNonNull(integrator, "integrator");
        this.adaptive = integrator instanceof DormandPrince45 dp ? dp : null;
        this.restartEachStep = restartEachStep;
        this.projection = projection;
        this.hybrid = hybrid;
        this.location = hybrid == null ? null
                : new EventLocation(integrator, adaptive, hybrid, integrator.stateSpace(), eventTolerance);
    }

    /** A loop without events, projected after every step when {@code projection} is not null. */
    static IntegrationLoop of(Integrator integrator, DriftProjection projection) {
        return new IntegrationLoop(integrator, false, projection, null, Double.NaN);
    }

    /**
     * A loop without events whose integrator is restarted before every step: for right-hand sides with inputs that
     * change between steps.
     */
    public static IntegrationLoop restartingEachStep(Integrator integrator) {
        return new IntegrationLoop(integrator, true, null, null, Double.NaN);
    }

    /**
     * A loop cut at the events of a hybrid system, each located to {@code eventTolerance} (s, &gt; 0); the integrator
     * is restarted before every segment.
     */
    public static IntegrationLoop withEvents(Integrator integrator, HybridEvents events, double eventTolerance) {
        if (!(eventTolerance > 0) || Double.isInfinite(eventTolerance)) {
            throw new IllegalArgumentException("event tolerance " + eventTolerance + " must be a positive number of "
                    + "seconds");
        }
        return new IntegrationLoop(integrator, true, null, Objects.requireNonNull(events, "events"), eventTolerance);
    }

    /** Forgets the integrator's last evaluation and the event counts: for a state set anew. */
    public void reset() {
        if (adaptive != null) {
            adaptive.reset();
        }
        if (location != null) {
            location.events = 0;
        }
        segments = 0;
    }

    /**
     * One step of {@code state}: at most {@code hMax} without events, exactly {@code hMax} with them; then the
     * projection, if any. The state's time, step count and last step follow.
     *
     * @return the step taken (s)
     * @throws IllegalStateException    before the state was set; with events, when a step needs more than
     *                                  {@value #MAX_SEGMENTS} segments, or as {@link HybridEvents#endStep} throws
     * @throws IllegalArgumentException with events, when {@code hMax} is not a positive number of seconds
     */
    public double step(SimulationState state, double hMax) {
        state.requireState();
        if (hybrid != null) {
            if (!(hMax > 0) || Double.isInfinite(hMax)) {
                throw new IllegalArgumentException("step " + hMax + " must be a positive number of seconds");
            }
            stepWithEvents(state, hMax);
            state.counted(hMax);
            return hMax;
        }
        if (restartEachStep && adaptive != null) {
            adaptive.reset();
        }
        double taken = integrator.step(state.t, hMax, state.q, state.v);
        if (projection != null) {
            projection.project(state.q, state.v);
        }
        state.stepped(taken);
        return taken;
    }

    private void stepWithEvents(SimulationState s, double h) {
        double start = s.t;
        double done = 0;
        int pieces = 0;
        hybrid.beginStep();
        while (done < h) {
            if (++pieces > MAX_SEGMENTS) {
                throw new IllegalStateException("more than " + MAX_SEGMENTS + " contact events within one step of "
                        + h + " s at t = " + s.t + " s: events accumulate (a Zeno run); raise the restitution "
                        + "threshold or check the model");
            }
            s.t = start + done;
            double remaining = h - done;
            hybrid.beginSegment(s.t, s.q, s.v, remaining);
            double taken = location.segment(s.t, remaining, s.q, s.v);
            done = taken == remaining ? h : Math.min(h, done + taken);
            segments++;
        }
        s.t = start; // the segments moved the clock; the step ends on the grid, as a step without events does
        s.advanceClock(h);
        hybrid.endStep(s.q);
    }

    /** Events located (steps cut at an event) since the last {@link #reset}. */
    public long eventCount() {
        return location == null ? 0 : location.events;
    }

    /** Integration segments (pieces of steps between events) since the last {@link #reset}. */
    public long segmentCount() {
        return segments;
    }

    /** The integrator. */
    public Integrator integrator() {
        return integrator;
    }

    /** The drift projection, or null. */
    DriftProjection projection() {
        return projection;
    }
}
