package org.symdyn.dynamics;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ForwardingModelInfo;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;
import org.symdyn.contract.ModelParameters;
import org.symdyn.model.Model;

/**
 * The numeric interpreter of any {@link Model}: Featherstone's spatial recursions (<i>Rigid Body Dynamics
 * Algorithms</i>, 2008) evaluated body by body. It is the oracle generated classes are checked against and the
 * fallback when no code was generated. One algorithm per class, each with its equations:
 * <ul>
 * <li>forward kinematics ({@code ForwardKinematics}): X_i = X_J(q_i) X_T,i from parent to body i;
 * X_0,i = X_i X_0,λ(i); v_i = X_i v_λ + S_i q̇_i, a_i = X_i a_λ + S_i q̈_i + c_J + v_i × S_i q̇_i (the joint models
 * X_J, S, v_J = S q̇ and c_J = Ṡ q̇ of every joint type are those of {@code JointTransforms});</li>
 * <li>RNEA ({@code RecursiveNewtonEuler}, §5.3): a_0 = -g, f_i = I_i a_i + v_i ×* I_i v_i, τ_i = S_iᵀ f_i,
 * f_λ += X_iᵀ f_i;</li>
 * <li>CRBA ({@code CompositeRigidBody}, §6.2): composite inertias I^c_λ += X_iᵀ I^c_i X_i, H_ii = S_iᵀ I^c_i S_i,
 * off-diagonal blocks by carrying F = I^c_i S_i to each ancestor;</li>
 * <li>ABA (§7.3, {@link ArticulatedBodyAlgorithm}): articulated inertias I^A with U = I^A S, D = Sᵀ U,
 * u = τ - Sᵀ p^A, then q̈ = D⁻¹(u - Uᵀ a');</li>
 * <li>body and point Jacobians ({@code Jacobians}); poses, velocities and accelerations of bodies, frames and
 * points, J̇v included ({@code PointKinematics}).</li>
 * </ul>
 * The derivatives of the dynamics, the Coriolis matrix and the regressor ({@link DynamicsDerivatives}) are analytical,
 * on the same joint models (∂τ and the Christoffel-consistent C by Carpentier and Mansard's derivatives in one inertial
 * frame, {@code InertialFrameDerivatives}; the regressor of RNEA's body forces; see {@code DerivativeRecursions}),
 * O(nv · nb) each; ∂v̇ = -H⁻¹ ∂τ and H⁻¹ through the tree factor of the CRBA's H.
 *
 * <p>The algorithms read the model's numbers ({@code FlatModel}) and write this instance's workspace
 * ({@code DynamicsWorkspace}); this class checks the contract's arguments and delegates. Spatial vectors are
 * [angular; linear] in body coordinates. All workspaces are allocated by the constructor: no method allocates
 * afterwards. An instance is not thread-safe; {@link #copy()} gives another one cheaply.
 */
public final class GenericDynamics implements Dynamics, Kinematics, DynamicsDerivatives, StateScope,
        ForwardingModelInfo, ModelInterpreter, ModelParameters {
    /** The model as declared: what this instance describes ({@link #modelInfo()}) and binds to. */
    private final Model model;
    /** The model with the parameters' current values, whose numbers the algorithms read. */
    private Model current;
    private FlatModel flat;
    private DynamicsWorkspace workspace;
    private ArticulatedBodyAlgorithm aba;
    private final int nb;
    private final int nq;
    private final int nv;
    private final ModelInfo info;
    /** nv zeros (never written), the workspace's. */
    private double[] zeroV;
    private DerivativeRecursions derivatives;
    private ParameterJacobian parameters;
    private final List<String> parameterNames;
    private final double[] parameterValues;
    private final DMatrixRMaj parameterY;

    /** Builds the interpreter and every workspace for {@code model}. */
    public GenericDynamics(Model model) {
        this.model = model;
        nq = model.nq();
        nv = model.nv();
        nb = model.bodyCount();
        info = model.info();
        parameterNames = model.parameters().stream().map(org.symdyn.model.ParameterModel::name).toList();
        parameterValues = model.parameters().stream().mapToDouble(org.symdyn.model.ParameterModel::value)
                .toArray();
        // The full regressor behind the parameters' columns: only a model with parameters pays for it.
        parameterY = new DMatrixRMaj(parameterNames.isEmpty() ? 0 : nv, parameterNames.isEmpty() ? 0
                : PARAMETERS_PER_BODY * nb);
        interpret(model);
    }

    /** Every structure the algorithms read or write, for {@code m}'s numbers. */
    private void interpret(Model m) {
        current = m;
        flat = new FlatModel(m);
        workspace = new DynamicsWorkspace(m);
        aba = new ArticulatedBodyAlgorithm(m);
        zeroV = workspace.zeroV;
        derivatives = new DerivativeRecursions(flat, workspace);
        parameters = new ParameterJacobian(m);
        if (scopeDepth > 0) {
            workspace.reuseKinematics(true);
        }
    }

    /**
     * The model as declared (its file's numbers), which this instance describes and binds to whatever its
     * parameters' values; {@link #interpretedModel()} has the values set.
     */
    @Override
    public Model model() {
        return model;
    }

    /** The model with the parameters' current values ({@link Model#withParameters}): the numbers evaluated. */
    @Override
    public Model interpretedModel() {
        return current;
    }

    /** Another instance of the same model, with this one's parameter values. */
    @Override
    public GenericDynamics copy() {
        GenericDynamics c = new GenericDynamics(model);
        if (current != model) {
            System.arraycopy(parameterValues, 0, c.parameterValues, 0, parameterValues.length);
            c.interpret(current);
        }
        return c;
    }

    // ---------------------------------------------------------------- parameters

    @Override
    public double parameter(int index) {
        Arguments.checkIndex(index, parameterValues.length, "parameter");
        return parameterValues[index];
    }

    /**
     * Sets a declared parameter ({@link Model#parameters()}) and evaluates the model with it from the next call on,
     * as a generated class does. The interpreter rebuilds its numbers here, so this call allocates (about what the
     * constructor does); evaluations after it do not.
     *
     * @throws IndexOutOfBoundsException for an index out of range
     * @throws IllegalArgumentException  for a value that is not finite or that the model's rules refuse
     *                                   ({@link Model#parameterRules()}: a link made no physical body, a negative
     *                                   armature), changing nothing
     */
    @Override
    public void setParameter(int index, double value) {
        Arguments.checkIndex(index, parameterValues.length, "parameter");
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("parameter " + parameterNames.get(index) + ": " + value
                    + " is not a finite number");
        }
        if (Double.compare(parameterValues[index], value) == 0) {
            return;
        }
        double[] values = parameterValues.clone();
        values[index] = value;
        setParameters(values);
    }

    /** {@inheritDoc} The set is checked once ({@link Model#withParameters}); the numbers are rebuilt once. */
    @Override
    public void setParameters(double[] values) {
        Model changed = model.withParameters(values); // refuses, changing nothing
        System.arraycopy(values, 0, parameterValues, 0, values.length);
        interpret(changed);
    }

    /**
     * Opens a scope ({@link StateScope}) in which the joint transforms, the sines and cosines in them and the world
     * poses of the last q, and the velocity pass of the last (q, v) for the kinematic queries (point and body
     * velocities, J̇v), are reused by every later call with equal arguments (compared by value) instead of being
     * recomputed: for a caller that evaluates several quantities at one state, such as H, C and the contact rows of
     * a constrained solve or a time step. Outside a scope, the default, every call computes everything itself, so
     * that each call's cost and result stand alone. Scopes nest; opening the outermost and closing it forget what was
     * kept.
     *
     * <p>Measured (ConstrainedSolverBenchmark, generic, one run before and after): building H, C, G, γ of the
     * quadruped on 12 contact rows 9.6 → 5.1 µs, of solo12 10.0 → 5.1 µs; without it H, C and every contact point's
     * Jacobian and J̇v each recomputed the kinematics from q.
     */
    @Override
    public void enterState() {
        if (scopeDepth++ == 0) {
            reuseKinematics(true);
        }
    }

    /** Closes the scope of the matching {@link #enterState()}. */
    @Override
    public void exitState() {
        if (scopeDepth == 0) {
            throw new IllegalStateException("exitState without a matching enterState");
        }
        if (--scopeDepth == 0) {
            reuseKinematics(false);
        }
    }

    private int scopeDepth;

    private void reuseKinematics(boolean on) {
        workspace.reuseKinematics(on);
    }

    // ---------------------------------------------------------------- metadata: the model's own ModelInfo

    /** The model's own description ({@link Model#info()}), which every other question about the model reads. */
    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    @Override
    public int nq() {
        return nq;
    }

    @Override
    public int nv() {
        return nv;
    }

    // ---------------------------------------------------------------- dynamics

    @Override
    public void inverseDynamics(double[] q, double[] v, double[] vdot, double[] tau) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        checkLength(tau, nv, "tau");
        checkOutput(tau, "tau", q, "q", v, "v", vdot, "vdot");
        rnea(q, v, vdot, true, tau);
    }

    @Override
    public void biasForces(double[] q, double[] v, double[] c) {
        checkState(q, v);
        checkLength(c, nv, "C");
        checkOutput(c, "C", q, "q", v, "v", null, null);
        rnea(q, v, zeroV, true, c);
    }

    @Override
    public void gravityForces(double[] q, double[] g) {
        checkLength(q, nq, "q");
        checkLength(g, nv, "g");
        checkOutput(g, "g", q, "q", null, null, null, null);
        rnea(q, zeroV, zeroV, true, g);
    }

    /** RNEA ({@code RecursiveNewtonEuler}) on this instance's workspace. */
    private void rnea(double[] q, double[] v, double[] vdot, boolean withGravity, double[] tau) {
        RecursiveNewtonEuler.inverseDynamics(flat, workspace, q, v, vdot, withGravity, tau);
    }

    @Override
    public void massMatrix(double[] q, DMatrixRMaj h) {
        checkLength(q, nq, "q");
        Arguments.checkShape(h, nv, nv, "H");
        Arguments.checkDistinct(h, "H", q, "q");
        CompositeRigidBody.massMatrix(flat, workspace, q, h);
    }

    @Override
    public void massMatrixOnTree(double[] q, DMatrixRMaj h) {
        checkLength(q, nq, "q");
        Arguments.checkShape(h, nv, nv, "H");
        Arguments.checkDistinct(h, "H", q, "q");
        CompositeRigidBody.massMatrix(flat, workspace, q, h, false);
    }


    /** Forward dynamics by the articulated-body algorithm ({@link ArticulatedBodyAlgorithm}, no external forces). */
    @Override
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot) {
        aba.forwardDynamics(q, v, tau, null, vdot);
    }


    // ---------------------------------------------------------------- derivatives (DerivativeRecursions)

    @Override
    public void inverseDynamicsDerivatives(double[] q, double[] v, double[] vdot, DMatrixRMaj dtauDq,
            DMatrixRMaj dtauDv) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        Arguments.checkShape(dtauDq, nv, nv, "dtauDq");
        Arguments.checkShape(dtauDv, nv, nv, "dtauDv");
        checkMatrixOutput(dtauDq, "dtauDq", q, "q", v, "v", vdot, "vdot");
        checkMatrixOutput(dtauDv, "dtauDv", q, "q", v, "v", vdot, "vdot");
        Arguments.checkDistinct(dtauDv, "dtauDv", dtauDq, "dtauDq");
        derivatives.inverseDynamics(q, v, vdot, dtauDq, dtauDv);
    }

    @Override
    public void forwardDynamicsDerivatives(double[] q, double[] v, double[] tau, DMatrixRMaj dvdotDq,
            DMatrixRMaj dvdotDv, DMatrixRMaj dvdotDtau) {
        checkState(q, v);
        checkLength(tau, nv, "tau");
        Arguments.checkShape(dvdotDq, nv, nv, "dvdotDq");
        Arguments.checkShape(dvdotDv, nv, nv, "dvdotDv");
        Arguments.checkShape(dvdotDtau, nv, nv, "dvdotDtau");
        checkMatrixOutput(dvdotDq, "dvdotDq", q, "q", v, "v", tau, "tau");
        checkMatrixOutput(dvdotDv, "dvdotDv", q, "q", v, "v", tau, "tau");
        Arguments.checkDistinct(dvdotDv, "dvdotDv", dvdotDq, "dvdotDq");
        checkMatrixOutput(dvdotDtau, "dvdotDtau", q, "q", v, "v", tau, "tau");
        Arguments.checkDistinct(dvdotDtau, "dvdotDtau", dvdotDq, "dvdotDq");
        Arguments.checkDistinct(dvdotDtau, "dvdotDtau", dvdotDv, "dvdotDv");
        derivatives.forwardDynamics(q, v, tau, dvdotDq, dvdotDv, dvdotDtau);
    }

    @Override
    public void inverseMassMatrix(double[] q, DMatrixRMaj Minv) {
        checkLength(q, nq, "q");
        Arguments.checkShape(Minv, nv, nv, "Minv");
        Arguments.checkDistinct(Minv, "Minv", q, "q");
        derivatives.inverseMassMatrix(q, Minv);
    }

    @Override
    public void coriolisMatrix(double[] q, double[] v, DMatrixRMaj coriolis) {
        checkState(q, v);
        Arguments.checkShape(coriolis, nv, nv, "coriolis");
        checkMatrixOutput(coriolis, "coriolis", q, "q", v, "v", null, null);
        derivatives.coriolisMatrix(q, v, coriolis);
    }

    @Override
    public void regressor(double[] q, double[] v, double[] vdot, DMatrixRMaj y) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        Arguments.checkShape(y, nv, PARAMETERS_PER_BODY * nb, "Y");
        checkMatrixOutput(y, "Y", q, "q", v, "v", vdot, "vdot");
        derivatives.regressor(q, v, vdot, y);
    }

    @Override
    public void inertialParameters(double[] pi) {
        checkLength(pi, PARAMETERS_PER_BODY * nb, "pi");
        flat.inertialParameters(pi);
    }

    @Override
    public List<String> parameterNames() {
        return parameterNames;
    }

    @Override
    public void inertialParameterJacobian(DMatrixRMaj dpiDp) {
        Arguments.checkShape(dpiDp, PARAMETERS_PER_BODY * nb, parameters.size(), "dpiDp");
        parameters.jacobian(dpiDp);
    }

    @Override
    public void parameterRegressor(double[] q, double[] v, double[] vdot, DMatrixRMaj yp) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        Arguments.checkShape(yp, nv, parameters.size(), "Yp");
        checkMatrixOutput(yp, "Yp", q, "q", v, "v", vdot, "vdot");
        if (parameters.size() == 0) {
            return;
        }
        derivatives.regressor(q, v, vdot, parameterY);
        parameters.regressor(parameterY, vdot, yp);
    }

    // ---------------------------------------------------------------- kinematics
    @Override
    public void bodyPose(double[] q, int body, double[] rotation, double[] position) {
        checkPose(q, rotation, position);
        Arguments.checkIndex(body, nb, "body");
        PointKinematics.bodyPose(workspace, q, body, rotation, position);
    }

    @Override
    public void framePose(double[] q, int frame, double[] rotation, double[] position) {
        checkPose(q, rotation, position);
        Arguments.checkIndex(frame, flat.frameBody.length, "frame");
        PointKinematics.framePose(flat, workspace, q, frame, rotation, position);
    }

    @Override
    public void pointPosition(double[] q, int body, double[] point, double[] position) {
        checkLength(q, nq, "q");
        checkLength(point, 3, "point");
        checkLength(position, 3, "position");
        checkOutput(position, "position", q, "q", point, "point", null, null);
        Arguments.checkIndex(body, nb, "body");
        PointKinematics.pointPosition(workspace, q, body, point, position);
    }

    @Override
    public void bodyVelocity(double[] q, double[] v, int body, double[] velocity) {
        checkState(q, v);
        checkLength(velocity, 6, "velocity");
        checkOutput(velocity, "velocity", q, "q", v, "v", null, null);
        Arguments.checkIndex(body, nb, "body");
        ForwardKinematics.biasMotion(flat, workspace, q, v);
        System.arraycopy(workspace.vel, 6 * body, velocity, 0, 6);
    }

    @Override
    public void bodyAcceleration(double[] q, double[] v, double[] vdot, int body, double[] acceleration) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        checkLength(acceleration, 6, "acceleration");
        checkOutput(acceleration, "acceleration", q, "q", v, "v", vdot, "vdot");
        Arguments.checkIndex(body, nb, "body");
        ForwardKinematics.motionPass(flat, workspace, q, v, vdot, false);
        System.arraycopy(workspace.acc, 6 * body, acceleration, 0, 6);
    }

    @Override
    public void pointVelocity(double[] q, double[] v, int body, double[] point, double[] velocity) {
        checkPointQuery(q, v, body, point, velocity, "velocity");
        PointKinematics.pointVelocity(flat, workspace, q, v, body, point, velocity);
    }

    @Override
    public void pointAcceleration(double[] q, double[] v, double[] vdot, int body, double[] point,
            double[] acceleration) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        checkLength(point, 3, "point");
        checkLength(acceleration, 3, "acceleration");
        checkOutput(acceleration, "acceleration", q, "q", v, "v", vdot, "vdot");
        Arguments.checkDistinct(acceleration, "acceleration", point, "point");
        Arguments.checkIndex(body, nb, "body");
        PointKinematics.pointAcceleration(flat, workspace, q, v, vdot, body, point, acceleration);
    }

    /** J̇v: the point acceleration at v̇ = 0, whose velocity pass a state scope reuses. */
    @Override
    public void pointBiasAcceleration(double[] q, double[] v, int body, double[] point, double[] bias) {
        checkPointQuery(q, v, body, point, bias, "bias");
        PointKinematics.pointAcceleration(flat, workspace, q, v, zeroV, body, point, bias);
    }

    @Override
    public void pointJacobian(double[] q, int body, double[] point, DMatrixRMaj j) {
        checkPointJacobian(q, body, point, j);
        Jacobians.pointJacobian(workspace, q, body, point, j);
    }

    @Override
    public void pointJacobianOnBranch(double[] q, int body, double[] point, DMatrixRMaj j) {
        checkPointJacobian(q, body, point, j);
        Jacobians.pointJacobian(workspace, q, body, point, j, false);
    }

    private void checkPointJacobian(double[] q, int body, double[] point, DMatrixRMaj j) {
        checkLength(q, nq, "q");
        checkLength(point, 3, "point");
        checkShape(j, 3);
        Arguments.checkDistinct(j, "J", q, "q");
        Arguments.checkDistinct(j, "J", point, "point");
        Arguments.checkIndex(body, nb, "body");
    }

    @Override
    public void bodyJacobian(double[] q, int body, DMatrixRMaj j) {
        checkLength(q, nq, "q");
        checkShape(j, 6);
        Arguments.checkDistinct(j, "J", q, "q");
        Arguments.checkIndex(body, nb, "body");
        Jacobians.bodyJacobian(workspace, q, body, j);
    }


    // ---------------------------------------------------------------- argument checks

    private void checkState(double[] q, double[] v) {
        checkLength(q, nq, "q");
        checkLength(v, nv, "v");
    }

    /** The checks of a point's velocity or bias acceleration at (q, v) into {@code out} (3 entries, named so). */
    private void checkPointQuery(double[] q, double[] v, int body, double[] point, double[] out, String name) {
        checkState(q, v);
        checkLength(point, 3, "point");
        checkLength(out, 3, name);
        checkOutput(out, name, q, "q", v, "v", point, "point");
        Arguments.checkIndex(body, nb, "body");
    }

    private static void checkLength(double[] x, int n, String what) {
        Arguments.checkLength(x, n, what);
    }

    private void checkShape(DMatrixRMaj j, int rows) {
        Arguments.checkShape(j, rows, nv, "J");
    }

    private void checkPose(double[] q, double[] rotation, double[] position) {
        checkLength(q, nq, "q");
        checkLength(rotation, 9, "rotation");
        checkLength(position, 3, "position");
        checkOutput(rotation, "rotation", q, "q", null, null, null, null);
        checkOutput(position, "position", q, "q", rotation, "rotation", null, null);
    }

    /** The aliasing rule for a matrix output: its data array is none of the inputs a, b, c (null skipped). */
    private static void checkMatrixOutput(DMatrixRMaj out, String name, double[] a, String aName, double[] b,
            String bName, double[] c, String cName) {
        Arguments.checkDistinct(out, name, a, aName);
        Arguments.checkDistinct(out, name, b, bName);
        if (c != null) {
            Arguments.checkDistinct(out, name, c, cName);
        }
    }

    /** The contract's aliasing rule: {@code out} is none of the inputs a, b, c (a null input is skipped). */
    private static void checkOutput(double[] out, String name, double[] a, String aName, double[] b, String bName,
            double[] c, String cName) {
        Arguments.checkDistinct(out, name, a, aName);
        if (b != null) {
            Arguments.checkDistinct(out, name, b, bName);
        }
        if (c != null) {
            Arguments.checkDistinct(out, name, c, cName);
        }
    }
}
