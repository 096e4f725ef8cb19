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

    /**
     * The orthonormal axes of an edge frame, in the coordinates of the edge's body: d, the unit edge direction (the
     * frame's x axis, normalised), and s, the unit outward direction (the frame's z axis made orthogonal to d by
     * Gram-Schmidt, s = (z - (z·d) d) / |z - (z·d) d|), so that both are exactly orthonormal whatever the rounding
     * of the given frame. The one definition the runtime's contact and generated code share.
     *
     * @param edge the edge frame in its body's frame
     * @param name the edge's name for error messages
     * @param d    receives d (3)
     * @param s    receives s (3)
     * @throws IllegalArgumentException if x is zero or not finite, or z is zero, not finite or along x
     */
    public static void edgeAxes(Pose edge, String name, double[] d, double[] s) {
        for (int i = 0; i < 3; i++) {
            d[i] = edge.rotation(i, 0);
            s[i] = edge.rotation(i, 2);
        }
        double dn = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(dn > 0) || !Double.isFinite(dn)) {
            throw new IllegalArgumentException("edge " + name + ": the frame's x axis is zero or not finite");
        }
        for (int i = 0; i < 3; i++) {
            d[i] /= dn;
        }
        double ds = d[0] * s[0] + d[1] * s[1] + d[2] * s[2];
        for (int i = 0; i < 3; i++) {
            s[i] -= ds * d[i];
        }
        double sn = Math.sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        if (!(sn > 0) || !Double.isFinite(sn)) {
            throw new IllegalArgumentException("edge " + name + ": the frame's z axis is zero, not finite or "
                    + "along its x axis");
        }
        for (int i = 0; i < 3; i++) {
            s[i] /= sn;
        }
    }
}
