package org.symdyn.model;

import org.symdyn.contract.ConstraintType;

/**
 * The description of one constraint of a model, as read from the model file or added in code (the data half of a
 * model/data split in Pinocchio's manner; the solvers hold the workspaces). Body indices refer to
 * {@link Model#bodies()}, -1 meaning the root (world); a constraint on a link attached by fixed joints is resolved
 * to its moving parent with the fixed placement folded into the constraint's own frame or point.
 */
public sealed interface ConstraintModel
        permits LoopConstraintModel, ContactConstraintModel, CouplerConstraintModel, LineOnLineConstraintModel {

    /** The constraint's name, unique in its model. */
    String name();

    /** The element name in the model file: {@code loop}, {@code contact}, {@code coupler} or {@code line_on_line}. */
    String typeName();

    /** The kind, as solvers and generated classes name it. */
    ConstraintType type();

    /** Number of scalar constraint rows it contributes to φ, G and γ. */
    int rowCount();

    /** Baumgarte stabilisation time constant T_stab in seconds (α = β = 1/T_stab), NaN when stabilisation is off. */
    double baumgarteTimeConstant();

    /** Where it was declared. */
    SourceLocation location();
}
