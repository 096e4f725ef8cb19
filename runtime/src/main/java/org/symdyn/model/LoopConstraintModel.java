package org.symdyn.model;

import java.util.List;
import org.symdyn.contract.ConstraintType;
import org.symdyn.spatial.Pose;

/**
 * A loop closure: frame P on the predecessor body and frame S on the successor body are held together along the
 * given spatial axes [angular; linear], expressed in frame P (RBDL's LoopConstraint). Translational rows of the
 * position error are the successor point minus the predecessor point, in P coordinates, projected on the axes.
 *
 * @param predecessorBody  body index of the predecessor, -1 for the world
 * @param predecessorFrame frame P in the predecessor body's frame
 * @param successorBody    body index of the successor, -1 for the world
 * @param successorFrame   frame S in the successor body's frame
 * @param axes             the constrained spatial axes (each 6 numbers, unit norm), one row each
 */
public record LoopConstraintModel(String name, int predecessorBody, Pose predecessorFrame, int successorBody,
        Pose successorFrame, List<double[]> axes, double baumgarteTimeConstant, SourceLocation location)
        implements ConstraintModel {

    public LoopConstraintModel {
        axes = axes.stream().map(double[]::clone).toList();
    }

    @Override
    public List<double[]> axes() {
        return axes.stream().map(double[]::clone).toList();
    }

    @Override
    public ConstraintType type() {
        return ConstraintType.LOOP;
    }

    @Override
    public String typeName() {
        return "loop";
    }

    @Override
    public int rowCount() {
        return axes.size();
    }
}
