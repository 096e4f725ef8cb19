package org.symdyn.model;

/**
 * A named state a simulation may start from (an MJCF {@code <keyframe><key>}): positions and velocities in the
 * model's coordinates ({@link Model#qNames()}, {@link Model#vNames()}: a floating base's q = [p, quaternion x, y,
 * z, w], v = [ω, v] in base coordinates; a ball joint's quaternion x, y, z, w). Quaternions are unit.
 *
 * @param name     the state's name, unique in the model
 * @param q        the positions (nq numbers)
 * @param v        the velocities (nv numbers)
 * @param location where it was declared
 */
public record InitialState(String name, double[] q, double[] v, SourceLocation location) {

    public InitialState {
        q = q.clone();
        v = v.clone();
        location = location == null ? SourceLocation.UNKNOWN : location;
    }

    /** The positions, a copy. */
    @Override
    public double[] q() {
        return q.clone();
    }

    /** The velocities, a copy. */
    @Override
    public double[] v() {
        return v.clone();
    }
}
