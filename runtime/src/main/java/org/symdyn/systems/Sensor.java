package org.symdyn.systems;

import java.util.List;
import org.symdyn.contract.ModelInfo;

/**
 * A measurement of the state (the design note's Sensor: full state, encoders, IMU, contact forces), read by a system
 * after each step into a buffer the system owns, {@link #size()} numbers named by {@link #channels()}.
 *
 * <p>Sensors that measure accelerations need v̇: a time-stepping system passes the step's mean acceleration
 * (v⁺ − v)/h, a continuous-time system the dynamics' v̇ at the state read. The state read is the one at the end of
 * the step.
 *
 * <p>{@link #read} must not allocate; an instance (which may hold a noise generator's state) is not thread-safe.
 */
public interface Sensor {

    /** The sensor's name, unique within a system. */
    String name();

    /** The names of its numbers, in reading order, each prefixed with the sensor's name (unmodifiable). */
    List<String> channels();

    /** The number of numbers a reading has. */
    default int size() {
        return channels().size();
    }

    /**
     * Writes the reading at (t, q, v, v̇) into {@code out} (the first {@link #size()} entries).
     *
     * @param t    time (s)
     * @param q    positions (nq), read only
     * @param v    velocities (nv), read only
     * @param vdot accelerations (nv), read only (see the class comment for where they come from)
     * @param out  receives the reading
     */
    void read(double t, double[] q, double[] v, double[] vdot, double[] out);

    /**
     * Restarts the sensor's noise from {@code seed} (a rollout's own seed, so that each run of a batch draws its own
     * reproducible noise); a sensor without noise ignores it.
     */
    default void seed(long seed) {
    }

    /**
     * Refuses this sensor for a system of {@code model} if it does not fit it: an index outside the model's q, v or
     * bodies, or kinematics of another model. A system's builder asks every device once, so that a device made by
     * hand for another model is refused there, by name, instead of failing in a step or acting on the wrong joint.
     * The default accepts.
     *
     * @throws IllegalArgumentException naming the device and what does not fit
     */
    default void checkFits(ModelInfo model) {
    }

    /**
     * The seed of noise stream {@code k} of {@code seed}: SplitMix64's output function of seed + (k + 1) γ (γ its odd
     * constant), so that neighbouring seeds and neighbouring streams draw unrelated sequences (each sensor of a
     * rollout, {@code Rollouts.sensorSeed}; IMUs that share a declared seed, {@link Devices#of}).
     */
    static long streamSeed(long seed, int k) {
        long z = seed + (k + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
