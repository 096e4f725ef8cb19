package org.symdyn.constraints;

import java.util.Arrays;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.contract.ConstraintDerivatives;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.StateScope;
import org.symdyn.model.Model;

/**
 * A {@link ConstraintSet} bound to implementations of its model: the evaluation of its rows, the current
 * Baumgarte settings of each group, the solver settings, and every workspace of a solve (RBDL's ConstraintSet after
 * Bind, Pinocchio's data). Made by {@link ConstraintSet#bind}; nothing allocates afterwards. Not thread-safe: bind
 * one per thread (the set is shared).
 *
 * <p>Rows: φ(q) (position error), φ̇(q, v) (velocity error), G(q) (m x nv) and γ(q, v), with G v̇ = γ,
 * γ = -Ġ v plus -2α φ̇ - β² φ on the rows of groups with Baumgarte stabilisation enabled. Equations of motion
 * H v̇ + C = τ + Gᵀ λ (λ in {@link #force()}), solved as [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ]; impulses solve
 * [H Gᵀ; G 0][v⁺; Λ] = [H v⁻; v⁺_target] (Λ in {@link #impulse()}, so H (v⁺ - v⁻) = -Gᵀ Λ). The solvers are in
 * {@code org.symdyn.solvers}.
 *
 * <p>Evaluation: the model's rows come from its {@link ConstraintFunctions}; when those are a {@link ModelFunctions}
 * (a generated class, or {@link GenericModel}), {@link #computeSystem} makes one fused call for H, C, G, γ (and φ,
 * φ̇ when a model group is stabilised), so a generated class shares its sines, cosines and kinematics between
 * them. Groups added in code are evaluated by their row providers through {@link Kinematics}.
 */
public final class ConstraintData {
    private final ConstraintSet set;
    private final Dynamics dynamics;
    private final Kinematics kinematics;
    private final ConstraintFunctions functions;
    private final ModelFunctions fused;
    /** The kinematics when they can share work within one evaluation (the interpreter); else null. */
    private final StateScope interpreter;
    private final SolverSettings settings = new SolverSettings();
    private final int nv;
    private final int m;
    private final int modelRows;
    private final int modelGroups;
    private final ConstraintGroup[] groups;
    /** Row providers of code groups (bound), and resolvers of model groups (null where none); by group index. */
    private final ConstraintRows[] providers;
    private final boolean[] baumgarte;
    private final double[] alpha;
    private final double[] beta;
    private final DMatrixRMaj h;
    private final double[] c;
    private final DMatrixRMaj g;
    private final double[] gamma;
    private final double[] force;
    private final double[] impulse;
    private final double[] impulseTarget;
    private final double[] stabPhi;
    private final double[] stabPhidot;
    private final double[] scratchRows;
    /** The model rows' G and γ when code rows follow them (else G and γ themselves are passed). */
    private final DMatrixRMaj gModel;
    private final double[] gammaModel;
    private final double[] phiModel;
    private final double[] phidotModel;
    /** ∂φ/∂q and ∂φ̇/∂q of stabilised groups ({@link #rowDerivatives}). */
    private final DMatrixRMaj dPhiDq;
    private final DMatrixRMaj dPhidotDq;
    /** The bound functions' own row derivatives (model rows), or null; and their outputs when code rows follow. */
    private final ConstraintDerivatives ownDerivatives;
    private final double[] lambdaModel;
    private final DMatrixRMaj dAdqModel;
    private final DMatrixRMaj dAdvModel;
    private final DMatrixRMaj dPhiModel;
    private final DMatrixRMaj dPhidotModel;
    private final DMatrixRMaj dForceModel;

    ConstraintData(ConstraintSet set, Dynamics dyn, Kinematics kin, ConstraintFunctions functions) {
        if (dyn == null) {
            throw new IllegalArgumentException("binding needs the model's dynamics");
        }
        this.set = set;
        set.checkSameModel(dyn, "dynamics");
        if (kin != null) {
            set.checkSameModel(kin, "kinematics");
        }
        this.nv = set.nv();
        this.m = set.size();
        this.modelRows = set.modelRowCount();
        this.modelGroups = set.modelGroupCount();
        if (modelGroups > 0) {
            if (functions == null) {
                throw new IllegalArgumentException("the set has the model's constraints: give their functions");
            }
            set.checkSameModel(functions, "constraint functions");
            if (functions.constraintRows() != modelRows) {
                throw new IllegalArgumentException("the constraint functions have " + functions.constraintRows()
                        + " rows, the model's constraints " + modelRows);
            }
            List<String> names = functions.constraintNames();
            for (int k = 0; k < modelGroups; k++) {
                String expected = set.group(k).name();
                if (k >= names.size() || !names.get(k).equals(expected)) {
                    throw new IllegalArgumentException("the constraint functions name constraint " + k + " '"
                            + (k < names.size() ? names.get(k) : "(none)") + "', the set's model '" + expected + "'");
                }
            }
        }
        this.dynamics = dyn;
        this.kinematics = kin;
        this.functions = modelGroups > 0 ? functions : null;
        this.fused = this.functions instanceof ModelFunctions mf && mf == dyn ? mf : null;
        this.interpreter = kin instanceof StateScope scope ? scope : null;
        this.groups = set.groups().toArray(new ConstraintGroup[0]);
        this.providers = new ConstraintRows[groups.length];
        this.baumgarte = new boolean[groups.length];
        this.alpha = new double[groups.length];
        this.beta = new double[groups.length];
        Model model = set.model();
        for (ConstraintGroup group : groups) {
            int i = group.index();
            baumgarte[i] = group.baumgarteByDefault();
            alpha[i] = group.defaultBaumgarteAlpha();
            beta[i] = group.defaultBaumgarteBeta();
            ConstraintRows rows = group.isModelConstraint()
                    ? (model != null && kin != null ? ConstraintRows.of(model, model.constraints().get(
                            group.modelConstraint())) : null)
                    : group.newRows();
            if (rows == null) {
                continue;
            }
            if (kin == null) {
                throw new IllegalArgumentException("constraint group '" + group.name() + "' was added in code and is "
                        + "evaluated through kinematics: bind with a Kinematics");
            }
            rows.bind(kin);
            if (rows.rowCount() != group.size()) {
                throw new IllegalStateException("group '" + group.name() + "' was added with " + group.size()
                        + " rows and has " + rows.rowCount() + " now");
            }
            providers[i] = rows;
        }
        h = new DMatrixRMaj(nv, nv);
        c = new double[nv];
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        force = new double[m];
        impulse = new double[m];
        impulseTarget = new double[m];
        stabPhi = new double[m];
        stabPhidot = new double[m];
        scratchRows = new double[m];
        boolean separate = modelRows < m;
        gModel = separate ? new DMatrixRMaj(modelRows, nv) : g;
        gammaModel = separate ? new double[modelRows] : gamma;
        phiModel = separate ? new double[modelRows] : stabPhi;
        phidotModel = separate ? new double[modelRows] : stabPhidot;
        dPhiDq = new DMatrixRMaj(m, nv);
        dPhidotDq = new DMatrixRMaj(m, nv);
        ownDerivatives = modelRows > 0 && this.functions instanceof ConstraintDerivatives d ? d : null;
        int own = ownDerivatives == null ? 0 : modelRows;
        lambdaModel = new double[own];
        dAdqModel = new DMatrixRMaj(own, nv);
        dAdvModel = new DMatrixRMaj(own, nv);
        dPhiModel = new DMatrixRMaj(own, nv);
        dPhidotModel = new DMatrixRMaj(own, nv);
        dForceModel = new DMatrixRMaj(ownDerivatives == null ? 0 : nv, nv);
    }

    // ---------------------------------------------------------------- what is bound

    /** The description this data was bound from. */
    public ConstraintSet set() {
        return set;
    }

    /** The bound dynamics. */
    public Dynamics dynamics() {
        return dynamics;
    }

    /** The bound kinematics, or null if bound without. */
    public Kinematics kinematics() {
        return kinematics;
    }

    /** The bound functions of the model's constraints, or null when the set has none. */
    public ConstraintFunctions functions() {
        return functions;
    }

    /** True if {@link #computeSystem} makes one fused call (the dynamics are the model's {@link ModelFunctions}). */
    public boolean isFused() {
        return fused != null;
    }

    /**
     * The generated class's own factorisation of this set's constrained system, or null: present when the set holds
     * exactly the model's constraint rows (none added in code) and is bound to a generated class alone
     * ({@link #isFused()}) that implements {@link ConstrainedSystemFactorization}, so that H and G are that class's
     * own, with the zeros and constants its factorisation folds in.
     */
    public ConstrainedSystemFactorization generatedFactorization() {
        return fused instanceof ConstrainedSystemFactorization f && m == modelRows && m > 0 ? f : null;
    }

    /** The solver settings of this data (factorisations, rank policy); mutable. */
    public SolverSettings settings() {
        return settings;
    }

    /** Number of constraint rows m. */
    public int size() {
        return m;
    }

    /** Number of position coordinates. */
    public int nq() {
        return set.nq();
    }

    /** Number of velocity coordinates. */
    public int nv() {
        return nv;
    }

    // ---------------------------------------------------------------- Baumgarte per group

    /** True if the group's γ carries -2α φ̇ - β² φ. */
    public boolean isBaumgarteEnabled(int groupIndex) {
        return baumgarte[set.group(groupIndex).index()];
    }

    /** Turns the group's stabilisation on. */
    public void enableBaumgarte(int groupIndex) {
        baumgarte[set.group(groupIndex).index()] = true;
    }

    /** Turns the group's stabilisation off. */
    public void disableBaumgarte(int groupIndex) {
        baumgarte[set.group(groupIndex).index()] = false;
    }

    /** Sets the group's α = β = 1/T (s); does not enable. */
    public void setBaumgarteTimeConstant(int groupIndex, double timeConstant) {
        if (!(timeConstant > 0) || Double.isInfinite(timeConstant)) {
            throw new IllegalArgumentException("Baumgarte time constant must be positive, got " + timeConstant);
        }
        int i = set.group(groupIndex).index();
        alpha[i] = beta[i] = 1 / timeConstant;
    }

    /** Sets the group's coefficients of γ - 2α φ̇ - β² φ directly; does not enable. */
    public void setBaumgarteCoefficients(int groupIndex, double a, double b) {
        if (!(a >= 0) || !(b >= 0) || Double.isInfinite(a) || Double.isInfinite(b)) {
            throw new IllegalArgumentException("Baumgarte coefficients must be finite and >= 0, got " + a + ", " + b);
        }
        int i = set.group(groupIndex).index();
        alpha[i] = a;
        beta[i] = b;
    }

    /** α (1/s) of the group. */
    public double baumgarteAlpha(int groupIndex) {
        return alpha[set.group(groupIndex).index()];
    }

    /** β (1/s) of the group. */
    public double baumgarteBeta(int groupIndex) {
        return beta[set.group(groupIndex).index()];
    }

    /** T_stab = 1/α when α = β, NaN otherwise. */
    public double baumgarteTimeConstant(int groupIndex) {
        int i = set.group(groupIndex).index();
        return alpha[i] == beta[i] && alpha[i] > 0 ? 1 / alpha[i] : Double.NaN;
    }

    /**
     * The group's term -2α φ̇ - β² φ for its errors φ, φ̇ (group-sized arrays) into {@code out}, whether or not
     * stabilisation is enabled.
     */
    public void baumgarteTerm(int groupIndex, double[] phi, double[] phidot, double[] out) {
        ConstraintGroup group = set.group(groupIndex);
        double a = alpha[group.index()];
        double b = beta[group.index()];
        for (int k = 0; k < group.size(); k++) {
            out[k] = -2 * a * phidot[k] - b * b * phi[k];
        }
    }

    private boolean anyModelGroupStabilised() {
        for (int i = 0; i < modelGroups; i++) {
            if (baumgarte[i]) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- evaluation

    /** φ(q) of every row into {@code phi} (m entries). Contact rows are 0. */
    public void positionError(double[] q, double[] phi) {
        if (modelRows > 0) {
            functions.positionError(q, phiModel);
            System.arraycopy(phiModel, 0, phi, 0, modelRows);
        }
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].positionError(q, phi, groups[i].rowOffset());
        }
    }

    /** φ̇(q, v) of every row (G v for holonomic rows) into {@code phidot} (m entries). */
    public void velocityError(double[] q, double[] v, double[] phidot) {
        if (modelRows > 0) {
            functions.velocityError(q, v, phidotModel);
            System.arraycopy(phidotModel, 0, phidot, 0, modelRows);
        }
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].velocityError(q, v, phidot, groups[i].rowOffset());
        }
    }

    /** G(q) (m x nv) into {@code out}. */
    public void jacobian(double[] q, DMatrixRMaj out) {
        if (out.numRows != m || out.numCols != nv) {
            throw new IllegalArgumentException("G must be " + m + "x" + nv + ", got " + out.numRows + "x"
                    + out.numCols);
        }
        if (modelRows > 0) {
            functions.constraintJacobian(q, gModel);
            copyModelRows(gModel, out);
        }
        codeJacobian(q, out);
    }

    private void codeJacobian(double[] q, DMatrixRMaj out) {
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].jacobian(q, out, groups[i].rowOffset());
        }
    }

    private void copyModelRows(DMatrixRMaj from, DMatrixRMaj to) {
        if (from != to) {
            // G is m x nv row-major and the model rows come first: one contiguous copy.
            System.arraycopy(from.data, 0, to.data, 0, modelRows * nv);
        }
    }

    /**
     * γ(q, v) of every row into {@code out} (m entries): -Ġ v, plus -2α φ̇ - β² φ on the rows of groups with
     * Baumgarte stabilisation enabled. This is the right-hand side the solvers use.
     */
    public void gamma(double[] q, double[] v, double[] out) {
        if (modelRows > 0) {
            functions.gamma(q, v, gammaModel);
            if (gammaModel != out) {
                System.arraycopy(gammaModel, 0, out, 0, modelRows);
            }
            if (anyModelGroupStabilised()) {
                functions.positionError(q, phiModel);
                functions.velocityError(q, v, phidotModel);
                copyModelErrors();
            }
        }
        codeGamma(q, v, out);
        stabilise(out);
    }

    private void copyModelErrors() {
        if (phiModel != stabPhi) {
            System.arraycopy(phiModel, 0, stabPhi, 0, modelRows);
            System.arraycopy(phidotModel, 0, stabPhidot, 0, modelRows);
        }
    }

    private void codeGamma(double[] q, double[] v, double[] out) {
        for (int i = modelGroups; i < groups.length; i++) {
            ConstraintGroup group = groups[i];
            providers[i].gamma(q, v, out, group.rowOffset());
            if (baumgarte[i]) {
                providers[i].positionError(q, stabPhi, group.rowOffset());
                providers[i].velocityError(q, v, stabPhidot, group.rowOffset());
            }
        }
    }

    private void stabilise(double[] out) {
        for (ConstraintGroup group : groups) {
            int i = group.index();
            if (baumgarte[i]) {
                double a2 = 2 * alpha[i];
                double b2 = beta[i] * beta[i];
                for (int r = group.rowOffset(), end = r + group.size(); r < end; r++) {
                    out[r] -= a2 * stabPhidot[r] + b2 * stabPhi[r];
                }
            }
        }
    }

    /** φ(q) of one group into {@code out[0..size)}. */
    public void positionError(int groupIndex, double[] q, double[] out) {
        ConstraintGroup group = set.group(groupIndex);
        if (!group.isModelConstraint()) {
            providers[groupIndex].positionError(q, out, 0);
        } else {
            functions.positionError(q, phiModel);
            System.arraycopy(phiModel, group.rowOffset(), out, 0, group.size());
        }
    }

    /** φ̇(q, v) of one group into {@code out[0..size)}. */
    public void velocityError(int groupIndex, double[] q, double[] v, double[] out) {
        ConstraintGroup group = set.group(groupIndex);
        if (!group.isModelConstraint()) {
            providers[groupIndex].velocityError(q, v, out, 0);
        } else {
            functions.velocityError(q, v, phidotModel);
            System.arraycopy(phidotModel, group.rowOffset(), out, 0, group.size());
        }
    }

    /**
     * Fills the workspaces of a constrained forward-dynamics solve at (q, v): {@link #H()} = H(q),
     * {@link #C()} = C(q, v), {@link #G()} = G(q), {@link #gamma()} = γ(q, v) with stabilisation (RBDL's
     * CalcConstrainedSystemVariables); one fused call of the model's functions when they provide it.
     */
    public void computeSystem(double[] q, double[] v) {
        // The interpreter recomputes its kinematics (sines and cosines included) in every call unless told that the
        // calls of one evaluation share a state: H, C and each row group's Jacobian and J̇v then reuse one pass.
        if (interpreter != null) {
            interpreter.enterState();
        }
        try {
            evaluateSystem(q, v);
        } finally {
            if (interpreter != null) {
                interpreter.exitState();
            }
        }
    }

    private void evaluateSystem(double[] q, double[] v) {
        if (fused != null) {
            if (anyModelGroupStabilised()) {
                fused.constrainedSystem(q, v, h, c, gModel, gammaModel, phiModel, phidotModel);
                copyModelErrors();
            } else {
                fused.constrainedSystem(q, v, h, c, gModel, gammaModel);
            }
            copyModelRows(gModel, g);
            if (gammaModel != gamma) {
                System.arraycopy(gammaModel, 0, gamma, 0, modelRows);
            }
            codeJacobian(q, g);
            codeGamma(q, v, gamma);
            stabilise(gamma);
            return;
        }
        dynamics.massMatrix(q, h);
        dynamics.biasForces(q, v, c);
        jacobian(q, g);
        gamma(q, v, gamma);
    }

    /**
     * The rows' part of the derivatives of constrained forward dynamics ({@code ConstrainedDynamicsDerivatives}) at
     * (q, v, v̇) and multipliers λ (m entries): ∂a/∂q and ∂a/∂v (m x nv) of the rows' acceleration a = G v̇ - γ₀ at
     * fixed v̇ (γ₀ = -Ġ v, without stabilisation), with the Baumgarte terms of the groups that enable them (there
     * a = G v̇ - γ₀ + 2α φ̇ + β² φ, so ∂a/∂q gains 2α ∂φ̇/∂q + β² ∂φ/∂q and ∂a/∂v gains 2α G), and ∂(Gᵀ λ)/∂q
     * (nv x nv) at fixed λ. The model's rows come from the bound functions when they implement
     * {@link ConstraintDerivatives} (a class generated with derivatives); the other rows from their providers
     * ({@link ConstraintRowDerivatives}) on {@code motion}, which must then have been updated at (q, v, v̇) (it may be
     * null when {@link #needsMotionDerivatives()} is false). The 2α G term reads {@link #G()}: the last
     * {@link #computeSystem} must have been at the same q (the solver's forward dynamics solve at that state leaves
     * it so).
     *
     * @throws UnsupportedOperationException if a group's rows do not provide derivatives (see
     *                                       {@link #checkRowDerivatives()})
     * @throws IllegalArgumentException      for outputs of the wrong shape, or motion derivatives that are null or of
     *                                       another nv while {@link #needsMotionDerivatives()}
     */
    public void rowDerivatives(double[] q, double[] v, double[] vdot, double[] lambda, MotionDerivatives motion,
            DMatrixRMaj dForceDq, DMatrixRMaj dAccelerationDq, DMatrixRMaj dAccelerationDv) {
        Arguments.checkLength(lambda, m, "lambda");
        Arguments.checkShape(dForceDq, nv, nv, "dForceDq");
        Arguments.checkShape(dAccelerationDq, m, nv, "dAccelerationDq");
        Arguments.checkShape(dAccelerationDv, m, nv, "dAccelerationDv");
        boolean providers = needsMotionDerivatives();
        if (providers && (motion == null || motion.nv() != nv)) {
            throw new IllegalArgumentException("the rows need motion derivatives of this model (nv " + nv + "), got "
                    + (motion == null ? "none" : "nv " + motion.nv()));
        }
        if (ownDerivatives != null) {
            System.arraycopy(lambda, 0, lambdaModel, 0, modelRows);
            ownDerivatives.constraintAccelerationDerivatives(q, v, vdot, dAdqModel, dAdvModel);
            System.arraycopy(dAdqModel.data, 0, dAccelerationDq.data, 0, modelRows * nv);
            System.arraycopy(dAdvModel.data, 0, dAccelerationDv.data, 0, modelRows * nv);
            if (anyModelGroupStabilised()) {
                ownDerivatives.constraintErrorDerivatives(q, v, dPhiModel, dPhidotModel);
                System.arraycopy(dPhiModel.data, 0, dPhiDq.data, 0, modelRows * nv);
                System.arraycopy(dPhidotModel.data, 0, dPhidotDq.data, 0, modelRows * nv);
            }
        }
        if (providers) {
            motion.clearWrenches();
        }
        for (ConstraintGroup group : groups) {
            int i = group.index();
            int r0 = group.rowOffset();
            boolean own = ownDerivatives != null && group.isModelConstraint();
            if (!own) {
                ConstraintRowDerivatives rows = differentiable(group);
                rows.accelerationDerivatives(motion, dAccelerationDq, dAccelerationDv, r0);
                rows.addWrenches(motion, lambda, r0);
                if (baumgarte[i]) {
                    rows.errorDerivatives(motion, dPhiDq, dPhidotDq, r0);
                }
            }
            if (baumgarte[i]) {
                double a2 = 2 * alpha[i];
                double b2 = beta[i] * beta[i];
                for (int r = r0, end = r0 + group.size(); r < end; r++) {
                    for (int k = r * nv, e = k + nv; k < e; k++) {
                        dAccelerationDq.data[k] += a2 * dPhidotDq.data[k] + b2 * dPhiDq.data[k];
                        dAccelerationDv.data[k] += a2 * g.data[k];
                    }
                }
            }
        }
        if (providers) {
            motion.wrenchDerivative(dForceDq);
        } else {
            Arrays.fill(dForceDq.data, 0, nv * nv, 0);
        }
        if (ownDerivatives != null) {
            ownDerivatives.constraintForceDerivative(q, lambdaModel, dForceModel);
            for (int k = 0; k < nv * nv; k++) {
                dForceDq.data[k] += dForceModel.data[k];
            }
        }
    }

    /**
     * True if some rows are differentiated by their providers on {@link MotionDerivatives}: rows added in code, or the
     * model's rows when the bound functions do not implement {@link ConstraintDerivatives}.
     */
    public boolean needsMotionDerivatives() {
        return groups.length > (ownDerivatives != null ? modelGroups : 0);
    }

    /**
     * Checks that every group's rows provide derivatives, so that {@link #rowDerivatives} can run: the model's rows
     * through bound functions that implement {@link ConstraintDerivatives} (a class generated with derivatives, any
     * kind) or else, as every row added in code, through their provider ({@link ConstraintRowDerivatives}: contacts,
     * loops and couplers do; line-on-line and custom rows do not).
     *
     * @throws UnsupportedOperationException naming the first group that does not, or the model's rows when the data
     *                                       was bound without a Model or without Kinematics to functions that do
     *                                       not implement {@link ConstraintDerivatives}
     */
    public void checkRowDerivatives() {
        for (ConstraintGroup group : groups) {
            if (ownDerivatives == null || !group.isModelConstraint()) {
                differentiable(group);
            }
        }
    }

    private ConstraintRowDerivatives differentiable(ConstraintGroup group) {
        ConstraintRows rows = providers[group.index()];
        if (rows == null) {
            throw new UnsupportedOperationException("constraint '" + group.name() + "': the model's rows were bound"
                    + " without the Model or without Kinematics, so they have no row provider to differentiate;"
                    + " bind a set built from the Model (ConstraintSet.of(model)) with the kinematics");
        }
        if (!(rows instanceof ConstraintRowDerivatives d)) {
            throw new UnsupportedOperationException("constraint '" + group.name() + "' (" + rows.type() + ", "
                    + rows.getClass().getSimpleName() + ") does not provide derivatives: contacts, loops and couplers"
                    + " do (ConstraintRowDerivatives)");
        }
        return d;
    }

    /** Fills {@link #H()} = H(q) and {@link #G()} = G(q) (what an impulse solve needs). */
    public void computeImpulseSystem(double[] q) {
        if (interpreter != null) {
            interpreter.enterState();
        }
        try {
            if (fused != null) {
                fused.impulseSystem(q, h, gModel);
                copyModelRows(gModel, g);
                codeJacobian(q, g);
                return;
            }
            dynamics.massMatrix(q, h);
            jacobian(q, g);
        } finally {
            if (interpreter != null) {
                interpreter.exitState();
            }
        }
    }

    /**
     * Workspace H (nv x nv) of the last {@link #computeSystem}; read-only by convention: a
     * {@link #generatedFactorization()} folds in the zeros and constants of the bound class's own H and G, and the
     * solvers hand it these workspaces as they were computed.
     */
    public DMatrixRMaj H() {
        return h;
    }

    /** Workspace C (nv) of the last {@link #computeSystem}; read-only by convention. */
    public double[] C() {
        return c;
    }

    /** Workspace G (m x nv) of the last {@link #computeSystem}; read-only by convention (see {@link #H()}). */
    public DMatrixRMaj G() {
        return g;
    }

    /** Workspace γ (m, stabilised) of the last {@link #computeSystem}; read-only by convention. */
    public double[] gamma() {
        return gamma;
    }

    /**
     * The multipliers λ (m) of the last forward-dynamics solve: H v̇ + C = τ + Gᵀ λ (forces in N, torques in N·m
     * for unit axes). Written by the solvers.
     */
    public double[] force() {
        return force;
    }

    /** The impulses Λ (m) of the last impulse solve: H (v⁺ - v⁻) = -Gᵀ Λ. Written by the solvers. */
    public double[] impulse() {
        return impulse;
    }

    /** The target constraint velocities v⁺_target (m, default 0) of impulse solves, G v⁺ = v⁺_target; writable. */
    public double[] impulseTarget() {
        return impulseTarget;
    }

    // ---------------------------------------------------------------- forces on bodies

    /** A buffer large enough for {@link #forces} of any group of this data. */
    public ConstraintForces newForceBuffer() {
        int n = 1;
        for (ConstraintRows p : providers) {
            if (p != null) {
                n = Math.max(n, p.maxBodyForces());
            }
        }
        return new ConstraintForces(n);
    }

    /**
     * Resolves the group's multipliers λ of the last forward-dynamics solve ({@link #force()}) into the spatial
     * forces the constraint applies to the bodies involved at q (RBDL's calcForces):
     * Σ_k J_kᵀ f_k = G_groupᵀ λ_group. See {@link ConstraintForces} for frames and coordinates.
     *
     * @param inWorld false: each force in its frame's coordinates; true: world-aligned at the frame origins
     * @throws UnsupportedOperationException if the group cannot be resolved into body forces (its type does not
     *                                       resolve, or it is a model group of a set built without the Model, or
     *                                       the data was bound without kinematics)
     */
    public void forces(int groupIndex, double[] q, boolean inWorld, ConstraintForces out) {
        resolve(groupIndex, q, force, inWorld, out);
    }

    /**
     * Resolves the group's impulses of the last impulse solve into the spatial impulses the constraint applies to
     * the bodies (RBDL's calcImpulses): Σ_k J_kᵀ ι_k = -G_groupᵀ Λ_group = the group's share of H (v⁺ - v⁻).
     */
    public void impulses(int groupIndex, double[] q, boolean inWorld, ConstraintForces out) {
        // The impulse applied to the system is -Gᵀ Λ (see the impulse equations): resolve -Λ.
        for (int i = 0; i < m; i++) {
            scratchRows[i] = -impulse[i];
        }
        resolve(groupIndex, q, scratchRows, inWorld, out);
    }

    private void resolve(int groupIndex, double[] q, double[] multipliers, boolean inWorld, ConstraintForces out) {
        ConstraintGroup group = set.group(groupIndex);
        ConstraintRows p = providers[groupIndex];
        if (p == null) {
            throw new UnsupportedOperationException("constraint group '" + group.name() + "' (" + group.type()
                    + ") cannot be resolved into body forces here: "
                    + (kinematics == null ? "the data was bound without kinematics"
                    : "the set was built without the Model, whose constraint geometry this needs"));
        }
        p.bodyForces(q, multipliers, group.rowOffset(), inWorld, out);
    }

    @Override
    public String toString() {
        return "ConstraintData{" + set + (fused != null ? ", fused" : "") + "}";
    }
}
