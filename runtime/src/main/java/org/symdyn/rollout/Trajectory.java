package org.symdyn.rollout;

import java.util.Objects;

/**
 * A rollout's states, decimated: sample k at {@code time[k]}, configuration {@code q[k]} (nq) and velocity
 * {@code v[k]} (nv). The first sample is the initial state, then every {@code every}-th step, and the final state
 * always (see {@link Outcomes#trajectory}). Arrays are the observer's own, handed over: not copied.
 */
public record Trajectory(double[] time, double[][] q, double[][] v) {
    public Trajectory {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(v, "v");
        if (q.length != time.length || v.length != time.length) {
            throw new IllegalArgumentException("time, q and v must have one entry per sample");
        }
    }

    /** The number of samples. */
    public int size() {
        return time.length;
    }
}
