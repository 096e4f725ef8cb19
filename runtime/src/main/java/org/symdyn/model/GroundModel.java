package org.symdyn.model;

/**
 * A half-space fixed in the world that contact candidates may touch ({@code <symdyn:ground>}): the obstacle is
 * the set {x : n · (x − p) ≤ 0}; the unit normal n points out of it, into free space. Several grounds may be
 * declared (a floor and a wall, a ramp); every contact candidate may touch every ground.
 *
 * @param point       a point on the boundary plane, world coordinates (m)
 * @param normal      the unit outward normal, world coordinates
 * @param friction    Coulomb's coefficient μ ≥ 0 of every contact on this ground (0: frictionless)
 * @param restitution Newton's coefficient e in [0, 1]: after an impact the normal separation speed is e times the
 *                    approach speed (0, the default, is an inelastic impact)
 */
public record GroundModel(String name, double[] point, double[] normal, double friction, double restitution,
        SourceLocation location) {

    public GroundModel {
        point = point.clone();
        normal = normal.clone();
    }

    @Override
    public double[] point() {
        return point.clone();
    }

    @Override
    public double[] normal() {
        return normal.clone();
    }
}
