package org.symdyn.constraints;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ForwardingModelInfo;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelInfo;
import org.symdyn.contract.ModelParameters;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.dynamics.ModelInterpreter;
import org.symdyn.dynamics.StateScope;
import org.symdyn.model.Model;

/**
 * The generic interpreter of a {@link Model} behind the whole contract ({@link ModelFunctions} and
 * {@link DynamicsDerivatives}): dynamics, their derivatives and kinematics by {@link GenericDynamics}, the model's constraints by {@link GenericConstraints} on the same
 * instance's kinematics. The fused evaluations are the interface's defaults (separate calls): the interpreter has
 * no straight-line code to share between them. Its {@link #devices()} are the model's declared actuators and
 * sensors ({@link Model#devices()}). The oracle a generated class is checked against, and the backend
 * when no class was generated.
 *
 * <p>No method allocates after construction; not thread-safe; {@link #copy()} per thread.
 */
public final class GenericModel
        implements ModelFunctions, DynamicsDerivatives, DeclaredDevices, StateScope, ForwardingModelInfo,
        ModelInterpreter, ModelParameters {
    private final GenericDynamics dynamics;
    private final GenericConstraints constraints;

    /**
     * @throws IllegalArgumentException if a constraint of the model does not fit it (see
     *                                  {@link GenericConstraints#GenericConstraints(Model)})
     */
    public GenericModel(Model model) {
        this(new GenericDynamics(model));
    }

    private GenericModel(GenericDynamics dynamics) {
        this.dynamics = dynamics;
        this.constraints = new GenericConstraints(dynamics);
    }

    /** Opens a scope of the interpreter's {@link GenericDynamics#enterState()}. */
    @Override
    public void enterState() {
        dynamics.enterState();
    }

    /** Closes the scope of the matching {@link #enterState()}. */
    @Override
    public void exitState() {
        dynamics.exitState();
    }

    @Override
    public void constrainedSystem(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma) {
        enterState();
        try {
            ModelFunctions.super.constrainedSystem(q, v, H, C, G, gamma);
        } finally {
            exitState();
        }
    }

    @Override
    public void constrainedSystem(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma, double[] phi, double[] phidot) {
        enterState();
        try {
            ModelFunctions.super.constrainedSystem(q, v, H, C, G, gamma, phi, phidot);
        } finally {
            exitState();
        }
    }

    @Override
    public void impulseSystem(double[] q, DMatrixRMaj H, DMatrixRMaj G) {
        enterState();
        try {
            ModelFunctions.super.impulseSystem(q, H, G);
        } finally {
            exitState();
        }
    }

    /** The model this instance interprets. */
    @Override
    public Model model() {
        return dynamics.model();
    }

    @Override
    public Model interpretedModel() {
        return dynamics.interpretedModel();
    }

    @Override
    public double parameter(int index) {
        return dynamics.parameter(index);
    }

    /** {@link GenericDynamics#setParameter}: the constraints' kinematics are the interpreter's, so they follow. */
    @Override
    public void setParameter(int index, double value) {
        dynamics.setParameter(index, value);
    }

    /** {@link GenericDynamics#setParameters}. */
    @Override
    public void setParameters(double[] values) {
        dynamics.setParameters(values);
    }

    @Override
    public GenericModel copy() {
        return new GenericModel(dynamics.copy());
    }

    // ---------------------------------------------------------------- metadata

    /** The model's own description ({@link Model#info()}), as the dynamics answer from it. */
    @Override
    public ModelInfo modelInfo() {
        return dynamics.modelInfo();
    }

    @Override
    public List<DeviceSpec> devices() {
        return dynamics.model().devices();
    }

    @Override
    public List<String> constraintNames() {
        return constraints.constraintNames();
    }

    @Override
    public ConstraintType constraintType(int k) {
        return constraints.constraintType(k);
    }

    @Override
    public int constraintRowCount(int k) {
        return constraints.constraintRowCount(k);
    }

    @Override
    public double baumgarteTimeConstant(int k) {
        return constraints.baumgarteTimeConstant(k);
    }

    // ---------------------------------------------------------------- dynamics

    @Override
    public void massMatrix(double[] q, DMatrixRMaj H) {
        dynamics.massMatrix(q, H);
    }

    @Override
    public void massMatrixOnTree(double[] q, DMatrixRMaj H) {
        dynamics.massMatrixOnTree(q, H);
    }

    @Override
    public void biasForces(double[] q, double[] v, double[] C) {
        dynamics.biasForces(q, v, C);
    }

    @Override
    public void gravityForces(double[] q, double[] g) {
        dynamics.gravityForces(q, g);
    }

    @Override
    public void inverseDynamics(double[] q, double[] v, double[] vdot, double[] tau) {
        dynamics.inverseDynamics(q, v, vdot, tau);
    }

    @Override
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot) {
        dynamics.forwardDynamics(q, v, tau, vdot);
    }

    // ---------------------------------------------------------------- kinematics

    // ---------------------------------------------------------------- derivatives

    @Override
    public void inverseDynamicsDerivatives(double[] q, double[] v, double[] vdot, DMatrixRMaj dtauDq,
            DMatrixRMaj dtauDv) {
        dynamics.inverseDynamicsDerivatives(q, v, vdot, dtauDq, dtauDv);
    }

    @Override
    public void forwardDynamicsDerivatives(double[] q, double[] v, double[] tau, DMatrixRMaj dvdotDq,
            DMatrixRMaj dvdotDv, DMatrixRMaj dvdotDtau) {
        dynamics.forwardDynamicsDerivatives(q, v, tau, dvdotDq, dvdotDv, dvdotDtau);
    }

    @Override
    public void inverseMassMatrix(double[] q, DMatrixRMaj Minv) {
        dynamics.inverseMassMatrix(q, Minv);
    }

    @Override
    public void coriolisMatrix(double[] q, double[] v, DMatrixRMaj coriolis) {
        dynamics.coriolisMatrix(q, v, coriolis);
    }

    @Override
    public void regressor(double[] q, double[] v, double[] vdot, DMatrixRMaj Y) {
        dynamics.regressor(q, v, vdot, Y);
    }

    @Override
    public void inertialParameters(double[] pi) {
        dynamics.inertialParameters(pi);
    }

    @Override
    public List<String> parameterNames() {
        return dynamics.parameterNames();
    }

    @Override
    public void inertialParameterJacobian(DMatrixRMaj dpiDp) {
        dynamics.inertialParameterJacobian(dpiDp);
    }

    @Override
    public void parameterRegressor(double[] q, double[] v, double[] vdot, DMatrixRMaj Yp) {
        dynamics.parameterRegressor(q, v, vdot, Yp);
    }

    @Override
    public void framePose(double[] q, int frame, double[] rotation, double[] position) {
        dynamics.framePose(q, frame, rotation, position);
    }

    @Override
    public void bodyPose(double[] q, int body, double[] rotation, double[] position) {
        dynamics.bodyPose(q, body, rotation, position);
    }

    @Override
    public void bodyVelocity(double[] q, double[] v, int body, double[] velocity) {
        dynamics.bodyVelocity(q, v, body, velocity);
    }

    @Override
    public void bodyAcceleration(double[] q, double[] v, double[] vdot, int body, double[] acceleration) {
        dynamics.bodyAcceleration(q, v, vdot, body, acceleration);
    }

    @Override
    public void pointPosition(double[] q, int body, double[] point, double[] position) {
        dynamics.pointPosition(q, body, point, position);
    }

    @Override
    public void pointVelocity(double[] q, double[] v, int body, double[] point, double[] velocity) {
        dynamics.pointVelocity(q, v, body, point, velocity);
    }

    @Override
    public void pointAcceleration(double[] q, double[] v, double[] vdot, int body, double[] point,
            double[] acceleration) {
        dynamics.pointAcceleration(q, v, vdot, body, point, acceleration);
    }

    @Override
    public void pointBiasAcceleration(double[] q, double[] v, int body, double[] point, double[] bias) {
        dynamics.pointBiasAcceleration(q, v, body, point, bias);
    }

    @Override
    public void pointJacobian(double[] q, int body, double[] point, DMatrixRMaj J) {
        dynamics.pointJacobian(q, body, point, J);
    }

    @Override
    public void pointJacobianOnBranch(double[] q, int body, double[] point, DMatrixRMaj J) {
        dynamics.pointJacobianOnBranch(q, body, point, J);
    }

    @Override
    public void bodyJacobian(double[] q, int body, DMatrixRMaj J) {
        dynamics.bodyJacobian(q, body, J);
    }

    // ---------------------------------------------------------------- constraints

    @Override
    public int constraintRows() {
        return constraints.constraintRows();
    }

    @Override
    public void positionError(double[] q, double[] phi) {
        constraints.positionError(q, phi);
    }

    @Override
    public void velocityError(double[] q, double[] v, double[] phidot) {
        constraints.velocityError(q, v, phidot);
    }

    @Override
    public void constraintJacobian(double[] q, DMatrixRMaj G) {
        constraints.constraintJacobian(q, G);
    }

    @Override
    public void gamma(double[] q, double[] v, double[] gamma) {
        constraints.gamma(q, v, gamma);
    }
}
