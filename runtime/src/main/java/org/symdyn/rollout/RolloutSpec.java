package org.symdyn.rollout;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One rollout of a batch: where it starts, the parameter values it runs with, the seed of its sensors' noise, and
 * how long it runs at which step.
 *
 * <p>Parameters are by name ({@link RolloutParameters} says which names mean what: the model's declared parameters,
 * the servos' gains and targets, the contacts' friction) and are applied in the names' sorted order, so {@code kp}
 * (every servo) comes before {@code kp.knee} (one servo) whatever order the caller gave them in. Values are checked
 * when the rollout runs, not here, so that a batch holding an impossible specification reports that one rollout
 * as failed and runs the others.
 *
 * @param q0         the initial configuration (nq; copied)
 * @param v0         the initial velocity (nv; copied)
 * @param parameters parameter values by name (any map; copied into a sorted one, which the accessor returns)
 * @param seed       the sensors' noise seed: sensor k of the system draws from a generator seeded with a mix of this
 *                   and k ({@link Rollouts#sensorSeed})
 * @param duration   simulated time, s (≥ 0)
 * @param timeStep   the step h, s (&gt; 0); the last step is shortened to end at {@code duration}
 */
public record RolloutSpec(double[] q0, double[] v0, Map<String, Double> parameters, long seed, double duration,
        double timeStep) {

    public RolloutSpec {
        q0 = Objects.requireNonNull(q0, "q0").clone();
        v0 = Objects.requireNonNull(v0, "v0").clone();
        TreeMap<String, Double> copy = new TreeMap<>();
        for (Map.Entry<String, Double> e : Objects.requireNonNull(parameters, "parameters").entrySet()) {
            copy.put(Objects.requireNonNull(e.getKey(), "parameter name"),
                    Objects.requireNonNull(e.getValue(), () -> "value of parameter " + e.getKey()));
        }
        // a sorted copy, whatever map was given: parameters apply in their names' order
        parameters = Collections.unmodifiableSortedMap(copy);
    }

    /** A rollout from (q0, v0) with no parameters, seed 0. */
    public static RolloutSpec of(double[] q0, double[] v0, double duration, double timeStep) {
        return new RolloutSpec(q0, v0, new TreeMap<>(), 0, duration, timeStep);
    }

    /** This specification with parameter {@code name} set to {@code value}. */
    public RolloutSpec withParameter(String name, double value) {
        TreeMap<String, Double> more = new TreeMap<>(parameters);
        more.put(Objects.requireNonNull(name, "name"), value);
        return new RolloutSpec(q0, v0, more, seed, duration, timeStep);
    }

    /** This specification with another noise seed. */
    public RolloutSpec withSeed(long newSeed) {
        return new RolloutSpec(q0, v0, parameters, newSeed, duration, timeStep);
    }

    @Override
    public double[] q0() {
        return q0.clone();
    }

    @Override
    public double[] v0() {
        return v0.clone();
    }

    /** q0 without a copy, for the runner. */
    double[] q0Shared() {
        return q0;
    }

    /** v0 without a copy, for the runner. */
    double[] v0Shared() {
        return v0;
    }

    /**
     * The most steps a rollout may take, 2⁵²: a count whose every step h and time k h are exact enough to tell apart
     * (1e-9 h is resolved) and that a long holds. Past it a step count wrapped round to Long.MIN_VALUE, and the rollout
     * "completed" at t = 0.
     */
    public static final long MAX_STEPS = 1L << 52;

    /**
     * The number of steps the rollout takes: duration / h rounded up, where a remainder below 1e-9 h is not
     * stepped (0 for an invalid duration or step, or more than {@link #MAX_STEPS} steps, which the runner reports).
     */
    public long stepCount() {
        if (!(duration >= 0) || !(timeStep > 0) || Double.isInfinite(duration) || !(duration / timeStep <= MAX_STEPS)) {
            return 0;
        }
        double n = duration / timeStep;
        long whole = (long) Math.floor(n);
        return n - whole > 1e-9 ? whole + 1 : whole;
    }

    /** The size of step k (0-based) of {@link #stepCount()}: h, the last one shortened to end at the duration. */
    double stepSize(long k, long count) {
        if (k < count - 1) {
            return timeStep;
        }
        double rest = duration - (count - 1) * timeStep;
        // a duration that is a whole number of steps ends with a full step, not one rounded to h(1 ± 1e-16)
        return rest > timeStep * (1 - 1e-9) ? timeStep : rest;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RolloutSpec s && Arrays.equals(q0, s.q0) && Arrays.equals(v0, s.v0)
                && parameters.equals(s.parameters) && seed == s.seed
                && Double.doubleToLongBits(duration) == Double.doubleToLongBits(s.duration)
                && Double.doubleToLongBits(timeStep) == Double.doubleToLongBits(s.timeStep);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(q0), Arrays.hashCode(v0), parameters, seed, duration, timeStep);
    }

    @Override
    public String toString() {
        return "RolloutSpec{q0=" + Arrays.toString(q0) + ", v0=" + Arrays.toString(v0) + ", parameters=" + parameters
                + ", seed=" + seed + ", duration=" + duration + ", timeStep=" + timeStep + "}";
    }
}
