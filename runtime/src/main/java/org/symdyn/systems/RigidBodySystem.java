package org.symdyn.systems;

import java.util.List;

/**
 * What {@link TimeSteppingSystem} and {@link ContinuousTimeSystem} have in common, the design note's
 * RigidBodySystem seen from outside: a state (t, q, v) advanced by the system's own step, an input τ held between
 * steps (added to the actuators' forces), and sensors read after every step. How a step is taken (an impulse-level
 * contact solve and q⁺ = q ⊕ h v⁺, or an integrator with acceleration-level contact and impacts located in time)
 * and what it reports are the implementations' own.
 *
 * <p>Arrays returned are the system's live state: read them, do not keep or change them. Not thread-safe.
 */
public interface RigidBodySystem {
    /** Sets t, q and v (copied) and reads the sensors there. */
    RigidBodySystem setState(double time, double[] q0, double[] v0);

    /** Sets the input τ (nv, copied), held until changed. */
    void setInput(double[] tauInput);

    /** The input τ (live). */
    double[] input();

    /** Time, s. */
    double time();

    /** Configuration (nq, live). */
    double[] q();

    /** Velocity (nv, live). */
    double[] v();

    /** The acceleration the sensors read at the current state (nv, live). */
    double[] vdot();

    /** Steps taken since the state was last set. */
    long stepCount();

    /** The size of the last step, s. */
    double lastStepSize();

    /** The sensors, in declaration order. */
    List<Sensor> sensors();

    /** The sensor named {@code name}. */
    Sensor sensor(String name);

    /** The reading of the sensor named {@code name} (live, overwritten by the next step). */
    double[] reading(String name);

    /** The contact solves since the state was last set: count, convergence, iterations, worst violation. */
    SolveSummary summary();
}
