package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * The state of a simulated mechanism and its clock: time t (s), positions q (nq) on the configuration manifold of a
 * {@link StateSpace}, velocities v (nv), the steps taken since the state was set and the length of the last one.
 * Whatever advances the state (the {@link IntegrationLoop} of {@link Simulator} and of the systems' continuous-time
 * simulation, or a time-stepping contact solver) keeps these here, so that every simulation reads them the same way.
 *
 * <p>The arrays returned are live: read them, do not keep or change them. Allocated at construction; not
 * thread-safe.
 */
public abstract class SimulationState {
    final StateSpace space;
    final double[] q;
    final double[] v;
    double t;
    long steps;
    double lastStep;
    private boolean stateSet;
    /** The clock's grid: since {@code gridStart}, {@code gridCount} steps of {@code gridStep} ended at {@code gridEnd}. */
    private double gridStart;
    private double gridStep = Double.NaN;
    private long gridCount;
    private double gridEnd = Double.NaN;

    /** A state at the neutral configuration of {@code space}, v = 0, t = 0; not yet set. */
    protected SimulationState(StateSpace space) {
        this.space = space;
        this.q = space.neutralConfiguration();
        this.v = new double[space.nv()];
    }

    /**
     * Sets the time and state (copied; quaternions renormalised) and restarts the step count.
     *
     * @throws IllegalArgumentException if q or v has the wrong length, a quaternion of q is zero or the time is not
     *                                  finite
     */
    protected final void assignState(double time, double[] q0, double[] v0) {
        if (q0.length != q.length || v0.length != v.length) {
            throw new IllegalArgumentException("state must have nq = " + q.length + " and nv = " + v.length
                    + " entries, got " + q0.length + " and " + v0.length);
        }
        if (!Double.isFinite(time)) {
            throw new IllegalArgumentException("time must be finite, got " + time);
        }
        int zero = space.zeroQuaternion(q0);
        if (zero >= 0) {
            throw new IllegalArgumentException("the quaternion q[" + zero + ".." + (zero + 3) + "] is zero: it has no"
                    + " rotation to renormalise to");
        }
        System.arraycopy(q0, 0, q, 0, q.length);
        System.arraycopy(v0, 0, v, 0, v.length);
        space.normalize(q);
        t = time;
        steps = 0;
        lastStep = 0;
        gridStep = Double.NaN;
        stateSet = true;
    }

    /** @throws IllegalStateException before the state was first set */
    protected final void requireState() {
        if (!stateSet) {
            throw new IllegalStateException("set the state first");
        }
    }

    /**
     * Counts one step of {@code taken} seconds whose end state is already in q and v: t += taken, counted on the grid
     * t_0 + k h while the steps keep one length h (bit for bit) and nothing else moved the clock, so that 1,000 steps
     * of 1 ms end at 1.0 s, not at the sum's 1.0000000000000007 (a time-stepping system's, and so a rollout's, final
     * time; {@code simulate} prints k h); a continuous-time step with events ends on the same grid
     * ({@link #advanceClock}).
     */
    protected final void stepped(double taken) {
        advanceClock(taken);
        counted(taken);
    }

    /** t += taken on the grid of {@link #stepped}, without counting a step. */
    final void advanceClock(double taken) {
        if (Double.doubleToRawLongBits(taken) == Double.doubleToRawLongBits(gridStep)
                && Double.doubleToRawLongBits(t) == Double.doubleToRawLongBits(gridEnd)) {
            gridCount++;
            t = gridStart + gridCount * gridStep;
        } else {
            gridStart = t;
            gridStep = taken;
            gridCount = 1;
            t += taken;
        }
        gridEnd = t;
    }

    /** Counts one step of {@code taken} seconds whose end time is already t. */
    final void counted(double taken) {
        steps++;
        lastStep = taken;
    }

    /** Time (s). */
    public final double time() {
        return t;
    }

    /** Positions (nq), live: read only. */
    public final double[] q() {
        return q;
    }

    /** Velocities (nv), live: read only. */
    public final double[] v() {
        return v;
    }

    /** Steps taken since the state was last set. */
    public final long stepCount() {
        return steps;
    }

    /** The length of the last step taken (s), 0 before the first step. */
    public final double lastStepSize() {
        return lastStep;
    }

    /** The state space (configuration manifold) of q and v. */
    public final StateSpace stateSpace() {
        return space;
    }
}
