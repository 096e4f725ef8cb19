package org.symdyn.model;

import org.symdyn.contract.ConstraintType;
import org.symdyn.spatial.Pose;

/**
 * Contact between an edge on body F and an edge on body B (Simbody's LineOnLineContact). Each edge frame has x
 * along the edge and z pointing out of its body; the edge extends {@code halfLength} either side of the origin.
 * One holonomic row (no separation along the contact normal) and, when {@code rolling}, two non-holonomic rows
 * (no slip).
 *
 * @param bodyF  body index of edge F, -1 for the world
 * @param edgeF  the edge frame on F, in F's body frame
 * @param bodyB  body index of edge B, -1 for the world
 * @param edgeB  the edge frame on B, in B's body frame
 */
public record LineOnLineConstraintModel(String name, int bodyF, Pose edgeF, double halfLengthF, int bodyB,
        Pose edgeB, double halfLengthB, boolean rolling, double baumgarteTimeConstant, SourceLocation location)
        implements ConstraintModel {

    @Override
    public ConstraintType type() {
        return ConstraintType.LINE_ON_LINE;
    }

    @Override
    public String typeName() {
        return "line_on_line";
    }

    @Override
    public int rowCount() {
        return rolling ? 3 : 1;
    }
}
