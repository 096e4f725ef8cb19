package org.symdyn.model;

import org.symdyn.contract.ConstraintType;

/**
 * A linear coupling of two single-dof joints: q_joint = ratio · q_reference + offset (gears, belts, URDF
 * {@code <mimic>}). One row; φ = q_joint - ratio · q_reference - offset.
 *
 * @param joint          index (body index) of the driven joint's body
 * @param referenceJoint index (body index) of the reference joint's body
 */
public record CouplerConstraintModel(String name, int joint, int referenceJoint, double ratio, double offset,
        double baumgarteTimeConstant, SourceLocation location) implements ConstraintModel {

    @Override
    public ConstraintType type() {
        return ConstraintType.COUPLER;
    }

    @Override
    public String typeName() {
        return "coupler";
    }

    @Override
    public int rowCount() {
        return 1;
    }
}
