package org.symdyn.constraints;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.ForwardingModelInfo;
import org.symdyn.contract.ModelInfo;
import org.symdyn.dynamics.ParameterFollower;
import org.symdyn.model.Model;

/**
 * The model's constraint functions ({@link GenericConstraints}) on the model with a bound implementation's current
 * parameter values ({@link ParameterFollower}): for dynamics with declared parameters and no constraint code of their
 * own (a generated class made without the constraints part), whose loops must close on the values set on them, not on
 * the file's. Each call reads the k parameter values; the functions are rebuilt, allocating, only when one changed.
 */
final class FollowingConstraints implements ConstraintFunctions, ForwardingModelInfo {
    private final ParameterFollower<GenericConstraints> follower;
    private final GenericConstraints declared;

    FollowingConstraints(Model model, Object implementation) {
        this.follower = new ParameterFollower<>(model, implementation, GenericConstraints::new);
        this.declared = new GenericConstraints(model); // the description binds as the declared model's
    }

    @Override
    public ModelInfo modelInfo() {
        return declared.modelInfo();
    }

    @Override
    public int constraintRows() {
        return declared.constraintRows();
    }

    @Override
    public List<String> constraintNames() {
        return declared.constraintNames();
    }

    @Override
    public ConstraintType constraintType(int k) {
        return declared.constraintType(k);
    }

    @Override
    public int constraintRowCount(int k) {
        return declared.constraintRowCount(k);
    }

    @Override
    public double baumgarteTimeConstant(int k) {
        return declared.baumgarteTimeConstant(k);
    }

    @Override
    public void positionError(double[] q, double[] phi) {
        follower.current().positionError(q, phi);
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot) {
        follower.current().velocityError(q, v, phidot);
    }

    @Override
    public void constraintJacobian(double[] q, DMatrixRMaj G) {
        follower.current().constraintJacobian(q, G);
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma) {
        follower.current().gamma(q, v, gamma);
    }
}
