package org.symdyn.model;

import org.symdyn.contract.ConstraintType;

/**
 * A point of a body held along a world direction (RBDL's ContactConstraint): one row, n · ṗ = 0 at velocity
 * level; its position error is reported as 0 because a contact has no reference position.
 *
 * @param body   body index (never the world)
 * @param point  the point in body coordinates (m)
 * @param normal the unit direction in world coordinates
 */
public record ContactConstraintModel(String name, int body, double[] point, double[] normal,
        double baumgarteTimeConstant, SourceLocation location) implements ConstraintModel {

    public ContactConstraintModel {
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

    @Override
    public ConstraintType type() {
        return ConstraintType.CONTACT;
    }

    @Override
    public String typeName() {
        return "contact";
    }

    @Override
    public int rowCount() {
        return 1;
    }
}
